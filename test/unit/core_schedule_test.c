/* core_schedule_test.c: core-schedule's programs checked against brute
 * force.
 *
 * Small networks (a chain with a stride-2 conv, a max pool, flatten and a
 * gemm; a residual add reading the input twice; a 1x1 stride-2 conv that
 * skips rows, then a global pool; a pad-3 conv with free iterations; an int8
 * network with host-side quantize/dequantize and a bias from a function
 * argument) run through graph-to-dataflow, dataflow-deps, dataflow-to-core,
 * core-place and core-schedule at every granularity pair, with the default
 * SRAM and with an SRAM small enough to split layers over several tiles.
 * Independently of the `earliest` attribute and of the core C API's
 * helpers, the test enumerates every node's domain, reads and writes (the
 * relations the dependences come from) with isl into plain arrays and
 * derives, per consumer iteration, the producer iterations (per producer
 * tile, i.e. channel slice) whose output it reads, and the prefix maximum of
 * the last one it reads (when the iteration may run). Then, for every tile:
 *   - computes run every iteration once, in order;
 *   - before computing iteration i every producer iteration it needs has
 *     been received, from the right tile (or the host) and for the right
 *     operand, each exactly once; and the recvs between two computes are
 *     exactly the needed producer iterations the prefix maximum newly
 *     covers (the schedule is as eager as the dependences allow);
 *   - after computing i, it sends i's output (with the right byte count) to
 *     exactly the tiles that need it, and to the host for the results;
 *   - every send is received and every recv sent, after the sender's
 *     compute; and a simulation of all programs with unbounded NoC queues
 *     runs to the end (no deadlock).
 * Running the passes twice gives the same text (determinism).
 */
#include <isl/ctx.h>
#include <isl/map.h>
#include <isl/point.h>
#include <isl/set.h>
#include <isl/val.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nc/dialects/core/core.h"
#include "nc/dialects/dataflow/dataflow.h"
#include "nc/dialects/dialects.h"
#include "nc/ir.h"
#include "nc/passes/passes.h"

static int failures, checks;
static char g_where[200];

#define CHECK(cond, ...)                                                 \
  do {                                                                   \
    checks++;                                                            \
    if (!(cond)) {                                                       \
      if (++failures < 40) {                                             \
        fprintf(stderr, "FAIL %s:%d: [%s] ", __FILE__, __LINE__, g_where); \
        fprintf(stderr, __VA_ARGS__);                                    \
        fputc('\n', stderr);                                             \
      }                                                                  \
    }                                                                    \
  } while (0)

/* ------------------------------------------------------------------------ */
/* Networks                                                                  */
/* ------------------------------------------------------------------------ */

typedef struct network {
  const char *name;
  const char *ir;
  int64_t small_sram; /* an SRAM size that splits some layers */
} network;

static const network networks[] = {
  {"conv -> stride-2 conv -> max pool -> flatten -> gemm",
   "func.func @chain(%x: tensor<1x2x9x8xf32>) -> tensor<1x5xf32> {\n"
   "  %w1 = graph.constant {value = dense<0.5> : tensor<3x2x3x3xf32>} : () -> tensor<3x2x3x3xf32>\n"
   "  %c1 = graph.conv %x, %w1 {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x2x9x8xf32>, tensor<3x2x3x3xf32>) -> "
   "tensor<1x3x9x8xf32>\n"
   "  %w2 = graph.constant {value = dense<0.5> : tensor<4x3x3x3xf32>} : () -> tensor<4x3x3x3xf32>\n"
   "  %c2 = graph.conv %c1, %w2 {strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>} : "
   "(tensor<1x3x9x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x5x4xf32>\n"
   "  %p = graph.max_pool %c2 {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>} : "
   "(tensor<1x4x5x4xf32>) -> tensor<1x4x2x2xf32>\n"
   "  %f = graph.flatten %p : (tensor<1x4x2x2xf32>) -> tensor<1x16xf32>\n"
   "  %v = graph.constant {value = dense<0.5> : tensor<5x16xf32>} : () -> tensor<5x16xf32>\n"
   "  %b = graph.constant {value = dense<0.25> : tensor<5xf32>} : () -> tensor<5xf32>\n"
   "  %m = graph.gemm %f, %v, %b {trans_b = 1 : i64} : (tensor<1x16xf32>, tensor<5x16xf32>, tensor<5xf32>) -> "
   "tensor<1x5xf32>\n"
   "  return %m : tensor<1x5xf32>\n"
   "}\n",
   420},
  {"residual add of a conv and the input",
   "func.func @residual(%x: tensor<1x2x6x6xf32>) -> tensor<1x2x6x6xf32> {\n"
   "  %w = graph.constant {value = dense<0.5> : tensor<2x2x3x3xf32>} : () -> tensor<2x2x3x3xf32>\n"
   "  %c = graph.conv %x, %w {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x2x6x6xf32>, tensor<2x2x3x3xf32>) -> "
   "tensor<1x2x6x6xf32>\n"
   "  %a = graph.add %c, %x : (tensor<1x2x6x6xf32>, tensor<1x2x6x6xf32>) -> tensor<1x2x6x6xf32>\n"
   "  return %a : tensor<1x2x6x6xf32>\n"
   "}\n",
   250},
  {"1x1 stride-2 conv (skips rows) -> conv -> global pool",
   "func.func @skip(%x: tensor<1x1x7x7xf32>) -> tensor<1x3x1x1xf32> {\n"
   "  %w1 = graph.constant {value = dense<0.5> : tensor<2x1x1x1xf32>} : () -> tensor<2x1x1x1xf32>\n"
   "  %c1 = graph.conv %x, %w1 {strides = array<i64: 2, 2>} : (tensor<1x1x7x7xf32>, tensor<2x1x1x1xf32>) -> "
   "tensor<1x2x4x4xf32>\n"
   "  %w2 = graph.constant {value = dense<0.5> : tensor<3x2x3x3xf32>} : () -> tensor<3x2x3x3xf32>\n"
   "  %c2 = graph.conv %c1, %w2 {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x2x4x4xf32>, tensor<3x2x3x3xf32>) -> "
   "tensor<1x3x4x4xf32>\n"
   "  %g = graph.global_avg_pool %c2 : (tensor<1x3x4x4xf32>) -> tensor<1x3x1x1xf32>\n"
   "  return %g : tensor<1x3x1x1xf32>\n"
   "}\n",
   250},
  {"pad-3 conv with free iterations -> avg pool",
   "func.func @pad3(%x: tensor<1x1x4x4xf32>) -> tensor<1x2x8x8xf32> {\n"
   "  %w = graph.constant {value = dense<0.5> : tensor<2x1x3x3xf32>} : () -> tensor<2x1x3x3xf32>\n"
   "  %c = graph.conv %x, %w {pads = array<i64: 3, 3, 3, 3>} : (tensor<1x1x4x4xf32>, tensor<2x1x3x3xf32>) -> "
   "tensor<1x2x8x8xf32>\n"
   "  %p = graph.avg_pool %c {kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>} : "
   "(tensor<1x2x8x8xf32>) -> tensor<1x2x8x8xf32>\n"
   "  return %p : tensor<1x2x8x8xf32>\n"
   "}\n",
   150},
  {"int8: quantize, conv_integer + requantize, pool, flatten, matmul_integer, requantize with an argument bias",
   "func.func @int8(%x: tensor<1x1x4x4xf32>, %bias: tensor<3xi32>) -> tensor<1x3xf32> {\n"
   "  %s = graph.constant {value = dense<0.05> : tensor<f32>} : () -> tensor<f32>\n"
   "  %z = graph.constant {value = dense<0> : tensor<i8>} : () -> tensor<i8>\n"
   "  %q = graph.quantize_linear %x, %s, %z : (tensor<1x1x4x4xf32>, tensor<f32>, tensor<i8>) -> tensor<1x1x4x4xi8>\n"
   "  %w = graph.constant {value = dense<3> : tensor<4x1x3x3xi8>} : () -> tensor<4x1x3x3xi8>\n"
   "  %c = graph.conv_integer %q, %w {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x1x4x4xi8>, tensor<4x1x3x3xi8>) -> "
   "tensor<1x4x4x4xi32>\n"
   "  %b = graph.constant {value = dense<[5, -5, 1, 2]> : tensor<4xi32>} : () -> tensor<4xi32>\n"
   "  %r = \"graph.requantize\"(%c, %b) {multiplier = array<i64: 1073741824, 1073741824, 1073741824, 1073741824>, "
   "shift = array<i64: 36, 36, 36, 36>, axis = 1 : i64, output_zero_point = 0 : i64, activation = \"relu\"} : "
   "(tensor<1x4x4x4xi32>, tensor<4xi32>) -> tensor<1x4x4x4xi8>\n"
   "  %p = graph.max_pool %r {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x4x4x4xi8>) -> "
   "tensor<1x4x2x2xi8>\n"
   "  %f = graph.flatten %p : (tensor<1x4x2x2xi8>) -> tensor<1x16xi8>\n"
   "  %v = graph.constant {value = dense<1> : tensor<16x3xi8>} : () -> tensor<16x3xi8>\n"
   "  %m = graph.matmul_integer %f, %v : (tensor<1x16xi8>, tensor<16x3xi8>) -> tensor<1x3xi32>\n"
   "  %e = \"graph.requantize\"(%m, %bias) {multiplier = array<i64: 1073741824>, shift = array<i64: 31>, "
   "axis = 1 : i64, output_zero_point = 0 : i64} : (tensor<1x3xi32>, tensor<3xi32>) -> tensor<1x3xi8>\n"
   "  %s2 = graph.constant {value = dense<0.1> : tensor<f32>} : () -> tensor<f32>\n"
   "  %d = graph.dequantize_linear %e, %s2 : (tensor<1x3xi8>, tensor<f32>) -> tensor<1x3xf32>\n"
   "  return %d : tensor<1x3xf32>\n"
   "}\n",
   80},
};

/* ------------------------------------------------------------------------ */
/* Brute force: every relation as plain arrays                               */
/* ------------------------------------------------------------------------ */

typedef struct access {
  int64_t *iter, *key, *c0; /* iteration rank, element (row-major index), first coordinate */
  size_t n, cap;
} access;

typedef struct bnode {
  nc_op *node;
  int dim;
  int64_t n_iters;
  int64_t *points; /* sorted */
  access writes;
  access *reads;
  size_t n_ops;
  int *producer; /* per operand: node index, or -1 for the host */
  unsigned out_bits;
  bool to_host;
  /* tiles */
  nc_op **tiles;
  size_t n_tiles;
} bnode;

static int g_dim;
static int cmp_pt(const void *a, const void *b)
{
  const int64_t *x = a, *y = b;
  for (int i = 0; i < g_dim; i++)
    if (x[i] != y[i])
      return x[i] < y[i] ? -1 : 1;
  return 0;
}

typedef struct ptcollect {
  int64_t *v;
  size_t n, cap, points;
  int dim;
} ptcollect;

static isl_stat collect_pt(isl_point *pt, void *user)
{
  ptcollect *c = user;
  if (c->n + (size_t)c->dim >= c->cap) {
    c->cap = 2 * c->cap + 64 + (size_t)c->dim;
    c->v = realloc(c->v, c->cap * sizeof *c->v);
  }
  for (int i = 0; i < c->dim; i++) {
    isl_val *v = isl_point_get_coordinate_val(pt, isl_dim_set, i);
    c->v[c->n++] = isl_val_get_num_si(v);
    isl_val_free(v);
  }
  c->points++;
  isl_point_free(pt);
  return isl_stat_ok;
}

/* All points of a set, `dim` coordinates each; returns the count. */
static size_t points_of(isl_set *s, int dim, int64_t **out)
{
  ptcollect c = {NULL, 0, 0, 0, dim};
  CHECK(isl_set_foreach_point(s, collect_pt, &c) == isl_stat_ok, "isl cannot enumerate a set");
  isl_set_free(s);
  *out = c.v;
  return c.points;
}

static int64_t rank_of(const bnode *b, const int64_t *coords)
{
  if (b->dim == 0)
    return 0;
  g_dim = b->dim;
  const int64_t *p = bsearch(coords, b->points, (size_t)b->n_iters, (size_t)b->dim * sizeof *coords, cmp_pt);
  return p ? (p - b->points) / b->dim : -1;
}

static int64_t linear(const int64_t *c, const int64_t *dims, int n)
{
  int64_t k = 0;
  for (int i = 0; i < n; i++)
    k = k * dims[i] + c[i];
  return k;
}

static void access_add(access *a, int64_t it, int64_t key, int64_t c0)
{
  if (a->n == a->cap) {
    a->cap = 2 * a->cap + 64;
    a->iter = realloc(a->iter, a->cap * sizeof *a->iter);
    a->key = realloc(a->key, a->cap * sizeof *a->key);
    a->c0 = realloc(a->c0, a->cap * sizeof *a->c0);
  }
  a->iter[a->n] = it;
  a->key[a->n] = key;
  a->c0[a->n] = c0;
  a->n++;
}

/* Enumerates a relation S -> T[...] of node b into (iteration, element). */
static void enumerate(bnode *b, isl_map *m, const nc_type *tensor, access *out)
{
  int64_t dims[NC_MAX_RANK];
  int n = nc_dataflow_tensor_coords(tensor, dims);
  int in = (int)isl_map_dim(m, isl_dim_in), on = (int)isl_map_dim(m, isl_dim_out);
  CHECK(in == b->dim && on == n, "relation dims %d -> %d, expected %d -> %d", in, on, b->dim, n);
  int64_t *pts;
  size_t np = points_of(isl_map_wrap(m), in + on, &pts);
  for (size_t i = 0; i < np; i++) {
    int64_t *p = pts + i * (size_t)(in + on);
    access_add(out, rank_of(b, p), linear(p + in, dims, n), n ? p[in] : 0);
  }
  free(pts);
}

static bool leaves_nodes(nc_op *node)
{
  for (nc_use *u = nc_value_get_first_use(nc_op_get_result(node, 0)); u; u = nc_use_get_next(u))
    if (!nc_dataflow_is_node(nc_use_get_owner(u)))
      return true;
  return false;
}

static void build(nc_op *fn, nc_op *chip, isl_ctx *ctx, bnode *bn, size_t *n_nodes)
{
  size_t n = 0;
  for (nc_op *node = nc_dataflow_first_node(fn); node; node = nc_dataflow_next_node(node), n++) {
    bnode *b = &bn[n];
    memset(b, 0, sizeof *b);
    b->node = node;
    isl_set *dom = nc_dataflow_node_get_domain(node, ctx);
    b->dim = (int)isl_set_dim(dom, isl_dim_set);
    b->n_iters = (int64_t)points_of(dom, b->dim, &b->points);
    g_dim = b->dim;
    if (b->dim)
      qsort(b->points, (size_t)b->n_iters, (size_t)b->dim * sizeof *b->points, cmp_pt);
    nc_type *out = nc_value_get_type(nc_op_get_result(node, 0));
    b->out_bits = nc_type_get_width(nc_type_get_element_type(out));
    b->to_host = leaves_nodes(node);
    enumerate(b, nc_dataflow_node_get_writes(node, ctx), out, &b->writes);
    b->n_ops = nc_op_get_num_operands(node);
    b->reads = calloc(b->n_ops + 1, sizeof *b->reads);
    b->producer = calloc(b->n_ops + 1, sizeof *b->producer);
    for (size_t k = 0; k < b->n_ops; k++) {
      enumerate(b, nc_dataflow_node_get_read(node, k, ctx), nc_value_get_type(nc_op_get_operand(node, k)),
                &b->reads[k]);
      nc_op *p = nc_dataflow_node_get_producer(node, k);
      b->producer[k] = -1;
      for (size_t j = 0; j < n; j++)
        if (bn[j].node == p)
          b->producer[k] = (int)j;
    }
    for (nc_op *t = nc_core_chip_first_tile(chip); t; t = nc_core_tile_next(t))
      if (!strcmp(nc_core_tile_get_node(t), nc_dataflow_node_get_name(node))) {
        b->tiles = realloc(b->tiles, (b->n_tiles + 1) * sizeof *b->tiles);
        b->tiles[b->n_tiles++] = t;
      }
  }
  *n_nodes = n;
}

static void free_nodes(bnode *bn, size_t n)
{
  for (size_t i = 0; i < n; i++) {
    free(bn[i].points);
    free(bn[i].writes.iter), free(bn[i].writes.key), free(bn[i].writes.c0);
    for (size_t k = 0; k < bn[i].n_ops; k++)
      free(bn[i].reads[k].iter), free(bn[i].reads[k].key), free(bn[i].reads[k].c0);
    free(bn[i].reads);
    free(bn[i].producer);
    free(bn[i].tiles);
  }
}

/* The channel of operand k of consumer c: per producer tile t and consumer
 * iteration i, which producer iterations i needs (need[t][i * np + p]), and
 * the prefix maximum of the last producer iteration each reads. */
typedef struct channel {
  size_t n_ptiles;
  int64_t np;         /* producer iterations */
  bool **need;        /* [t][i * np + p] */
  bool **any;         /* [t][p]: needed by some iteration */
  int64_t *prefix;    /* [i]: -1 while nothing is needed */
  int64_t (*from)[2]; /* positions of the producer tiles */
} channel;

static void slice_of(nc_op *tile, int64_t *lo, int64_t *hi)
{
  if (!nc_core_tile_get_out_channels(tile, lo, hi)) {
    *lo = 0;
    *hi = INT64_MAX;
  }
}

static void build_channel(bnode *bn, bnode *c, size_t k, bool input_rows, channel *ch)
{
  memset(ch, 0, sizeof *ch);
  access *r = &c->reads[k];
  int pi = c->producer[k];
  int64_t dims[NC_MAX_RANK];
  int nd = nc_dataflow_tensor_coords(nc_value_get_type(nc_op_get_operand(c->node, k)), dims);
  int64_t n_elems = 1;
  for (int i = 0; i < nd; i++)
    n_elems *= dims[i];
  /* writers of each element: (p, c0) */
  int64_t *wcount = calloc((size_t)n_elems + 1, sizeof *wcount);
  int64_t **wp = calloc((size_t)n_elems + 1, sizeof *wp), **wc = calloc((size_t)n_elems + 1, sizeof *wc);
  if (pi >= 0) {
    bnode *p = &bn[pi];
    ch->np = p->n_iters;
    ch->n_ptiles = p->n_tiles;
    ch->from = calloc(p->n_tiles + 1, sizeof *ch->from);
    for (size_t t = 0; t < p->n_tiles; t++)
      ch->from[t][0] = nc_core_tile_get_x(p->tiles[t]), ch->from[t][1] = nc_core_tile_get_y(p->tiles[t]);
    for (size_t w = 0; w < p->writes.n; w++) {
      int64_t e = p->writes.key[w];
      wp[e] = realloc(wp[e], (size_t)(wcount[e] + 1) * sizeof **wp);
      wc[e] = realloc(wc[e], (size_t)(wcount[e] + 1) * sizeof **wc);
      wp[e][wcount[e]] = p->writes.iter[w];
      wc[e][wcount[e]++] = p->writes.c0[w];
    }
  } else { /* the host writes the input in row-major order: rows or pixels of T[c, y, x], else all or each element */
    bool image = nd == 3 && nc_type_get_rank(nc_value_get_type(nc_op_get_operand(c->node, k))) == 4;
    ch->np = image ? (input_rows ? dims[1] : dims[1] * dims[2]) : (input_rows ? 1 : n_elems);
    ch->n_ptiles = 1;
    ch->from = calloc(2, sizeof *ch->from);
    ch->from[0][0] = ch->from[0][1] = -1;
    for (int64_t e = 0; e < n_elems; e++) {
      int64_t p = image ? (input_rows ? e / dims[2] % dims[1] : e % (dims[1] * dims[2])) : (input_rows ? 0 : e);
      wp[e] = malloc(sizeof **wp);
      wc[e] = malloc(sizeof **wc);
      wp[e][0] = p;
      wc[e][0] = 0;
      wcount[e] = 1;
    }
  }
  ch->need = calloc(ch->n_ptiles, sizeof *ch->need);
  ch->any = calloc(ch->n_ptiles, sizeof *ch->any);
  for (size_t t = 0; t < ch->n_ptiles; t++) {
    ch->need[t] = calloc((size_t)(c->n_iters * ch->np) + 1, 1);
    ch->any[t] = calloc((size_t)ch->np + 1, 1);
  }
  int64_t *last = malloc((size_t)c->n_iters * sizeof *last + 1);
  for (int64_t i = 0; i < c->n_iters; i++)
    last[i] = -1;
  for (size_t x = 0; x < r->n; x++) {
    int64_t i = r->iter[x], e = r->key[x];
    for (int64_t w = 0; w < wcount[e]; w++) {
      int64_t p = wp[e][w];
      if (p > last[i])
        last[i] = p;
      for (size_t t = 0; t < ch->n_ptiles; t++) {
        int64_t lo = 0, hi = INT64_MAX;
        if (pi >= 0)
          slice_of(bn[pi].tiles[t], &lo, &hi);
        if (wc[e][w] >= lo && wc[e][w] < hi) {
          ch->need[t][i * ch->np + p] = true;
          ch->any[t][p] = true;
        }
      }
    }
  }
  ch->prefix = malloc((size_t)c->n_iters * sizeof *ch->prefix + 1);
  int64_t m = -1;
  for (int64_t i = 0; i < c->n_iters; i++)
    ch->prefix[i] = m = last[i] > m ? last[i] : m;
  free(last);
  for (int64_t e = 0; e < n_elems; e++)
    free(wp[e]), free(wc[e]);
  free(wp);
  free(wc);
  free(wcount);
}

static void free_channel(channel *ch)
{
  for (size_t t = 0; t < ch->n_ptiles; t++)
    free(ch->need[t]), free(ch->any[t]);
  free(ch->need);
  free(ch->any);
  free(ch->prefix);
  free(ch->from);
}

/* ------------------------------------------------------------------------ */
/* Checking the programs                                                     */
/* ------------------------------------------------------------------------ */

typedef struct instr_list {
  nc_core_instr *v;
  size_t n;
} instr_list;

static instr_list program_of(nc_op *tile)
{
  instr_list l = {NULL, 0};
  nc_op *program = nc_core_tile_get_program(tile);
  size_t n = nc_core_program_get_size(program);
  l.v = calloc(n + 1, sizeof *l.v);
  for (nc_op *op = nc_block_get_first_op(nc_core_program_get_body(program)); op; op = nc_op_get_next(op)) {
    bool ok = nc_core_instr_get(op, &l.v[l.n]);
    CHECK(ok, "a program op does not decode");
    l.n += ok;
  }
  return l;
}

static int tile_index(const channel *ch, int64_t x, int64_t y)
{
  for (size_t t = 0; t < ch->n_ptiles; t++)
    if (ch->from[t][0] == x && ch->from[t][1] == y)
      return (int)t;
  return -1;
}

/* Bytes tile `t` of node b sends for iteration i. */
static int64_t send_bytes(const bnode *b, nc_op *tile, int64_t i)
{
  int64_t lo, hi, n = 0;
  slice_of(tile, &lo, &hi);
  for (size_t w = 0; w < b->writes.n; w++)
    n += b->writes.iter[w] == i && b->writes.c0[w] >= lo && b->writes.c0[w] < hi;
  return (n * b->out_bits + 7) / 8;
}

/* The receiving side: computes in order, recvs exactly as the brute force says. */
static void check_consumer(bnode *bn, size_t ci, size_t ti, channel *chs)
{
  bnode *c = &bn[ci];
  instr_list l = program_of(c->tiles[ti]);
  int64_t next_iter = 0;
  /* received[k][t][p] */
  bool ***got = calloc(c->n_ops + 1, sizeof *got);
  for (size_t k = 0; k < c->n_ops; k++) {
    got[k] = calloc(chs[k].n_ptiles, sizeof **got);
    for (size_t t = 0; t < chs[k].n_ptiles; t++)
      got[k][t] = calloc((size_t)chs[k].np + 1, 1);
  }
  for (size_t x = 0; x < l.n; x++) {
    nc_core_instr *in = &l.v[x];
    if (in->kind == NC_CORE_RECV) {
      CHECK(in->operand >= 0 && (size_t)in->operand < c->n_ops, "recv of operand %lld", (long long)in->operand);
      if (in->operand < 0 || (size_t)in->operand >= c->n_ops)
        continue;
      channel *ch = &chs[in->operand];
      int t = tile_index(ch, in->x, in->y);
      CHECK(t >= 0, "recv of operand %lld from (%lld, %lld), which does not produce it", (long long)in->operand,
            (long long)in->x, (long long)in->y);
      CHECK(in->iter >= 0 && in->iter < ch->np, "recv of producer iteration %lld of %lld", (long long)in->iter,
            (long long)ch->np);
      if (t < 0 || in->iter < 0 || in->iter >= ch->np)
        continue;
      CHECK(!got[in->operand][t][in->iter], "producer iteration %lld received twice", (long long)in->iter);
      CHECK(ch->any[t][in->iter], "producer iteration %lld received but never needed", (long long)in->iter);
      got[in->operand][t][in->iter] = true;
    } else if (in->kind == NC_CORE_COMPUTE) {
      CHECK(in->begin == next_iter, "compute [%lld, %lld) after iteration %lld", (long long)in->begin,
            (long long)in->end, (long long)next_iter);
      for (int64_t i = in->begin; i < in->end && i < c->n_iters; i++) {
        for (size_t k = 0; k < c->n_ops; k++) {
          channel *ch = &chs[k];
          for (size_t t = 0; t < ch->n_ptiles; t++)
            for (int64_t p = 0; p < ch->np; p++) {
              if (ch->need[t][i * ch->np + p])
                CHECK(got[k][t][p], "iteration %lld computed before producer iteration %lld of operand %zu "
                                    "(from (%lld, %lld)) was received",
                      (long long)i, (long long)p, k, (long long)ch->from[t][0], (long long)ch->from[t][1]);
              /* eagerness: everything needed up to the prefix max, nothing beyond */
              bool expect = ch->any[t][p] && p <= ch->prefix[i];
              if (i == in->begin)
                CHECK(got[k][t][p] == expect, "before iteration %lld: producer iteration %lld of operand %zu is %s "
                                              "(prefix max %lld)",
                      (long long)i, (long long)p, k, got[k][t][p] ? "received too early" : "not received",
                      (long long)ch->prefix[i]);
            }
        }
        /* within a merged range, no later iteration may need more than the first had */
        if (i > in->begin)
          for (size_t k = 0; k < c->n_ops; k++)
            CHECK(chs[k].prefix[i] == chs[k].prefix[in->begin], "computes merged across a recv");
      }
      next_iter = in->end;
    }
  }
  CHECK(next_iter == c->n_iters, "computed %lld of %lld iterations", (long long)next_iter, (long long)c->n_iters);
  for (size_t k = 0; k < c->n_ops; k++) {
    for (size_t t = 0; t < chs[k].n_ptiles; t++) {
      for (int64_t p = 0; p < chs[k].np; p++)
        CHECK(got[k][t][p] == chs[k].any[t][p], "producer iteration %lld of operand %zu: %s", (long long)p, k,
              got[k][t][p] ? "received, not needed" : "needed, never received");
      free(got[k][t]);
    }
    free(got[k]);
  }
  free(got);
  free(l.v);
}

/* The sending side: after computing i, exactly the sends the consumers need. */
static bool must_send(bnode *bn, size_t n_nodes, size_t pi, size_t ti, channel **chs, int64_t i)
{
  bool any = bn[pi].to_host;
  for (size_t ci = 0; ci < n_nodes; ci++)
    for (size_t k = 0; k < bn[ci].n_ops; k++)
      any |= bn[ci].producer[k] == (int)pi && chs[ci][k].any[ti][i];
  return any;
}

static void check_producer(bnode *bn, size_t n_nodes, size_t pi, size_t ti, channel **chs)
{
  bnode *b = &bn[pi];
  nc_op *tile = b->tiles[ti];
  instr_list l = program_of(tile);
  for (size_t x = 0; x < l.n; x++) {
    if (l.v[x].kind != NC_CORE_COMPUTE)
      continue;
    /* computes merge only over iterations that send nothing */
    for (int64_t j = l.v[x].begin; j < l.v[x].end - 1; j++)
      CHECK(!must_send(bn, n_nodes, pi, ti, chs, j), "iteration %lld is inside a merged compute but must be sent",
            (long long)j);
    size_t to = x + 1; /* the sends after it, up to the next compute */
    while (to < l.n && l.v[to].kind != NC_CORE_COMPUTE)
      to++;
    int64_t i = l.v[x].end - 1, bytes = send_bytes(b, tile, i);
    size_t expected = 0, sends = 0;
    for (size_t ci = 0; ci < n_nodes; ci++) {
      bool needs = false;
      for (size_t k = 0; k < bn[ci].n_ops; k++)
        needs |= bn[ci].producer[k] == (int)pi && chs[ci][k].any[ti][i];
      for (size_t t = 0; needs && t < bn[ci].n_tiles; t++) {
        int64_t tx = nc_core_tile_get_x(bn[ci].tiles[t]), ty = nc_core_tile_get_y(bn[ci].tiles[t]);
        bool found = false;
        for (size_t y = x + 1; y < to; y++)
          found |= l.v[y].kind == NC_CORE_SEND && l.v[y].x == tx && l.v[y].y == ty && l.v[y].iter == i &&
                   l.v[y].bytes == bytes;
        CHECK(found, "iteration %lld is not sent to (%lld, %lld) with %lld bytes", (long long)i, (long long)tx,
              (long long)ty, (long long)bytes);
        expected++;
      }
    }
    if (b->to_host) {
      bool found = false;
      for (size_t y = x + 1; y < to; y++)
        found |= l.v[y].kind == NC_CORE_SEND && l.v[y].x == -1 && l.v[y].y == -1 && l.v[y].iter == i &&
                 l.v[y].bytes == bytes;
      CHECK(found, "iteration %lld is not sent to the host", (long long)i);
      expected++;
    }
    for (size_t y = x + 1; y < to; y++)
      sends += l.v[y].kind == NC_CORE_SEND;
    CHECK(sends == expected, "after iteration %lld: %zu sends, expected %zu", (long long)i, sends, expected);
  }
  free(l.v);
}

/* Runs every program with unbounded queues: a recv waits for its message. */
static void simulate(bnode *bn, size_t n_nodes)
{
  size_t n_tiles = 0;
  for (size_t i = 0; i < n_nodes; i++)
    n_tiles += bn[i].n_tiles;
  instr_list *progs = calloc(n_tiles + 1, sizeof *progs);
  int64_t (*pos)[2] = calloc(n_tiles + 1, sizeof *pos);
  size_t *pc = calloc(n_tiles + 1, sizeof *pc), t = 0;
  for (size_t i = 0; i < n_nodes; i++)
    for (size_t j = 0; j < bn[i].n_tiles; j++, t++) {
      progs[t] = program_of(bn[i].tiles[j]);
      pos[t][0] = nc_core_tile_get_x(bn[i].tiles[j]);
      pos[t][1] = nc_core_tile_get_y(bn[i].tiles[j]);
    }
  /* messages: (from x, from y, to tile, iter) */
  size_t n_msgs = 0, cap = 0;
  int64_t (*msgs)[4] = NULL;
  bool progress = true;
  while (progress) {
    progress = false;
    for (t = 0; t < n_tiles; t++) {
      while (pc[t] < progs[t].n) {
        nc_core_instr *in = &progs[t].v[pc[t]];
        if (in->kind == NC_CORE_RECV && in->x >= 0) {
          bool arrived = false;
          for (size_t m = 0; m < n_msgs && !arrived; m++)
            arrived = msgs[m][0] == in->x && msgs[m][1] == in->y && msgs[m][2] == (int64_t)t && msgs[m][3] == in->iter;
          if (!arrived)
            break;
        } else if (in->kind == NC_CORE_SEND && in->x >= 0) {
          size_t dst = 0;
          while (dst < n_tiles && !(pos[dst][0] == in->x && pos[dst][1] == in->y))
            dst++;
          CHECK(dst < n_tiles, "send to (%lld, %lld), where there is no tile", (long long)in->x, (long long)in->y);
          if (n_msgs == cap)
            msgs = realloc(msgs, (cap = 2 * cap + 64) * sizeof *msgs);
          msgs[n_msgs][0] = pos[t][0], msgs[n_msgs][1] = pos[t][1], msgs[n_msgs][2] = (int64_t)dst;
          msgs[n_msgs++][3] = in->iter;
        }
        pc[t]++;
        progress = true;
      }
    }
  }
  for (t = 0; t < n_tiles; t++)
    CHECK(pc[t] == progs[t].n, "tile (%lld, %lld) deadlocks at instruction %zu of %zu", (long long)pos[t][0],
          (long long)pos[t][1], pc[t], progs[t].n);
  /* every message is received */
  for (size_t m = 0; m < n_msgs; m++) {
    bool used = false;
    for (size_t x = 0; x < progs[msgs[m][2]].n && !used; x++) {
      nc_core_instr *in = &progs[msgs[m][2]].v[x];
      used = in->kind == NC_CORE_RECV && in->x == msgs[m][0] && in->y == msgs[m][1] && in->iter == msgs[m][3];
    }
    CHECK(used, "a message from (%lld, %lld) (iteration %lld) is never received", (long long)msgs[m][0],
          (long long)msgs[m][1], (long long)msgs[m][3]);
  }
  for (t = 0; t < n_tiles; t++)
    free(progs[t].v);
  free(progs);
  free(pos);
  free(pc);
  free(msgs);
}

/* ------------------------------------------------------------------------ */
/* Driver                                                                    */
/* ------------------------------------------------------------------------ */

static char *run_passes(const network *nw, bool rows, bool input_rows, int64_t sram, nc_context **ctx_out,
                        nc_op **module_out)
{
  nc_context *ctx = nc_context_create();
  nc_register_all_dialects(ctx);
  nc_op *module = nc_parse_string(ctx, nw->ir, strlen(nw->ir), "network.mlir");
  CHECK(module && nc_op_verify(module), "the network does not parse");
  if (module) { /* the chip NorthPole's built-in description gives (what target-attach would set) */
    nc_chip_desc d = {.rows = 16, .cols = 16, .sram_bytes = 786432, .hop_latency_cycles = 1,
                      .link_bytes_per_cycle = 32, .clock_hz = 400e6, .name = "northpole"};
    d.ops_per_cycle[8] = 2048;
    nc_op_set_attr_str(module, "nc.chip", nc_chip_desc_to_attr(ctx, &d));
  }
  char pipeline[512];
  snprintf(pipeline, sizeof pipeline,
           "builtin.module(func.func(graph-to-dataflow{granularity=%s},dataflow-deps{input-granularity=%s}),"
           "dataflow-to-core{sram-bytes=%lld},core-place,core-schedule)",
           rows ? "row" : "pixel", input_rows ? "row" : "pixel", (long long)sram);
  nc_pass_manager *pm = module ? nc_pass_pipeline_parse(ctx, pipeline) : NULL;
  nc_pass_run_options opts = nc_pass_run_options_default();
  opts.disable_threading = true;
  bool ran = pm && nc_pass_manager_run(pm, module, &opts);
  CHECK(ran, "the passes failed");
  nc_pass_manager_destroy(pm);
  char *text = ran ? nc_op_print_to_string(module, &(nc_print_flags){0}, NULL) : NULL;
  *ctx_out = ctx;
  *module_out = ran ? module : NULL;
  return text;
}

static int n_split_runs;

static void run_network(const network *nw, bool rows, bool input_rows, int64_t sram)
{
  snprintf(g_where, sizeof g_where, "%s, granularity=%s, input-granularity=%s, sram-bytes=%lld", nw->name,
           rows ? "row" : "pixel", input_rows ? "row" : "pixel", (long long)sram);
  nc_context *ctx, *ctx2;
  nc_op *module, *module2;
  char *text = run_passes(nw, rows, input_rows, sram, &ctx, &module);
  char *text2 = run_passes(nw, rows, input_rows, sram, &ctx2, &module2);
  CHECK(text && text2 && !strcmp(text, text2), "two runs print different IR");
  if (getenv("CORE_SCHEDULE_TEST_DUMP")) /* for debugging: the IR of every run */
    printf("// %s\n%s\n", g_where, text ? text : "(failed)");
  free(text2);
  nc_context_destroy(ctx2);
  if (module) {
    nc_op *fn = nc_block_get_first_op(nc_module_get_body(module));
    nc_op *chip = nc_op_get_next(fn);
    CHECK(nc_core_is_chip(chip), "no core.chip after the function");
    isl_ctx *ictx = isl_ctx_alloc();
    bnode bn[16];
    size_t n_nodes = 0;
    build(fn, chip, ictx, bn, &n_nodes);
    channel *chs[16];
    bool split = false;
    for (size_t i = 0; i < n_nodes; i++) {
      split |= bn[i].n_tiles > 1;
      CHECK(bn[i].n_tiles >= 1, "node %zu has no tile", i);
      chs[i] = calloc(bn[i].n_ops + 1, sizeof **chs);
      for (size_t k = 0; k < bn[i].n_ops; k++)
        build_channel(bn, &bn[i], k, input_rows, &chs[i][k]);
    }
    n_split_runs += split;
    for (size_t i = 0; i < n_nodes; i++)
      for (size_t t = 0; t < bn[i].n_tiles; t++) {
        check_consumer(bn, i, t, chs[i]);
        check_producer(bn, n_nodes, i, t, chs);
      }
    simulate(bn, n_nodes);
    for (size_t i = 0; i < n_nodes; i++) {
      for (size_t k = 0; k < bn[i].n_ops; k++)
        free_channel(&chs[i][k]);
      free(chs[i]);
    }
    free_nodes(bn, n_nodes);
    isl_ctx_free(ictx);
  }
  free(text);
  nc_context_destroy(ctx);
}

int main(void)
{
  nc_register_all_passes();
  for (size_t i = 0; i < NC_COUNTOF(networks); i++)
    for (int g = 0; g < 4; g++) {
      run_network(&networks[i], g & 1, g & 2, 0);
      run_network(&networks[i], g & 1, g & 2, networks[i].small_sram);
    }
  snprintf(g_where, sizeof g_where, "coverage");
  CHECK(n_split_runs >= 12, "only %d runs split a layer over several tiles", n_split_runs);
  printf("core_schedule_test: %d checks, %d failures (%d runs with split layers)\n", checks, failures, n_split_runs);
  return failures != 0;
}
