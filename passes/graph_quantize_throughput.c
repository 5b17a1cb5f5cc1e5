/* graph_quantize_throughput.c: mixed precision's objective, the simulated
 * throughput of a width assignment: cycles per frame of the pipeline after
 * core-place's balancing over the chip's cores (the busiest stage's), not
 * the sum of MAC cycles, since on a spatial chip a narrow layer only helps
 * when it shortens the stage that bounds the pipeline.
 *
 * graph-quantize runs after target-attach (the target's pipeline attaches
 * the description first), so the chip comes from the module's nc.chip
 * attribute like every other pass's; without one (graph-quantize alone in
 * nc-opt) there is no estimate and the search falls back to MAC cycles.
 * The stages are the graph's future dataflow nodes, grouped as
 * graph-to-dataflow groups them (a layer and the elementwise ops with
 * constant operands after it), described the way core-place describes a
 * node (work, output bytes, messages per frame, host inputs, consumers),
 * and balanced by core_pipeline_cost.c, the model core-place itself calls.
 * Approximations: SRAM-forced splits, input-channel slices and row bands
 * (core_split_rows.c) are not estimated; a pool's work is its input size;
 * a layer that is not a conv / gemm / matmul runs at its input's width.
 */
#include <stdlib.h>
#include <string.h>

#include "core_pipeline_cost.h"
#include "graph_quantize_internal.h"
#include "nc/dialects/core/chip_desc.h"

struct gq_pipeline {
  size_t n;               /* stages */
  core_stage *base;       /* k = 1, work at 8 bits */
  core_stage *st;         /* scratch for one estimate */
  int64_t *consumers;     /* n x n */
  int64_t *layer;         /* per stage: its index in layers[] (-1: none) */
  int64_t *input;         /* per stage: the stage of its first operand (-1: the host or none) */
  int *width;             /* scratch: each stage's width */
  double rate8, bw;
  int64_t rate[9];        /* MACs per cycle per core by bits */
  int64_t cores;
  double frame;           /* the last estimate */
  int64_t *warm, *tmp;    /* the first estimate's slices per stage; scratch */
};

/* Rows of an NCHW value (the messages a row-granularity layer sends), else its batch. */
static int64_t rows_of(nc_type *t)
{
  int r = nc_type_get_rank(t);
  const int64_t *s = nc_type_get_shape(t);
  int64_t n = r >= 1 && s[0] > 0 ? s[0] : 1;
  return r == 4 && s[2] > 0 ? n * s[2] : n;
}

static bool is_mac(nc_op *op) { return gp_is(op, "conv") || gp_is(op, "gemm") || gp_is(op, "matmul"); }

/* Work of the stage led by `op`, as core-place's node_work counts it. */
static int64_t stage_work(nc_op *op)
{
  nc_type *yt = nc_value_get_type(nc_op_get_result(op, 0));
  int64_t out = nc_type_has_static_shape(yt) ? nc_type_get_num_elements(yt) : 0;
  if (is_mac(op) && nc_op_get_num_operands(op) >= 2) {
    nc_type *wt = nc_value_get_type(nc_op_get_operand(op, 1));
    int r = nc_type_get_rank(yt);
    int64_t c = r ? (gp_is(op, "conv") ? nc_type_get_shape(wt)[0] : nc_type_get_shape(yt)[r - 1]) : 0;
    return c > 0 && nc_type_has_static_shape(wt) ? out / c * nc_type_get_num_elements(wt) : out;
  }
  if ((gp_is(op, "max_pool") || gp_is(op, "avg_pool") || gp_is(op, "global_avg_pool") ||
       gp_is(op, "global_max_pool")) && nc_op_get_num_operands(op)) {
    nc_type *xt = nc_value_get_type(nc_op_get_operand(op, 0));
    return nc_type_has_static_shape(xt) ? nc_type_get_num_elements(xt) : out;
  }
  return out;
}

/* Output channels a stage may be split into (core-place's splittable layers). */
static int64_t stage_limit(nc_op *op)
{
  nc_type *yt = nc_value_get_type(nc_op_get_result(op, 0));
  int r = nc_type_get_rank(yt);
  if (!r || !nc_type_has_static_shape(yt) || !(is_mac(op) || gp_is(op, "max_pool")))
    return 1;
  int64_t c = gp_is(op, "conv") || gp_is(op, "max_pool") ? (r >= 2 ? nc_type_get_shape(yt)[1] : 1)
                                                        : nc_type_get_shape(yt)[r - 1];
  return c > 1 ? c : 1;
}

static bool is_quant(nc_op *op) { return gp_is(op, "quantize_linear") || gp_is(op, "dequantize_linear"); }

/* Whether `op` joins the stage of its operand's producer, as graph-to-dataflow
 * groups followers: elementwise, one non-constant operand, that operand's
 * only use, the same shape. */
static bool follows(nc_op *op, const gq_map *stage_of)
{
  if (!nc_op_has_trait(op, NC_TRAIT_ELEMENTWISE) || nc_op_get_num_results(op) != 1 || gp_is(op, "lut"))
    return false;
  nc_value *x = NULL;
  for (size_t i = 0, n = nc_op_get_num_operands(op); i < n; i++) {
    nc_value *v = nc_op_get_operand(op, i);
    nc_op *def = nc_value_get_defining_op(v);
    if (def && nc_op_is_constant(def))
      continue;
    if (x)
      return false;
    x = v;
  }
  nc_op *def = x ? nc_value_get_defining_op(x) : NULL;
  nc_type *a = x ? nc_value_get_type(x) : NULL, *b = nc_value_get_type(nc_op_get_result(op, 0));
  return def && gq_map_get(stage_of, def) != SIZE_MAX && nc_value_has_one_use(x) &&
         nc_type_get_rank(a) == nc_type_get_rank(b) &&
         !memcmp(nc_type_get_shape(a), nc_type_get_shape(b), (size_t)nc_type_get_rank(a) * sizeof(int64_t));
}

gq_pipeline *gq_pipeline_create(nc_op *func, size_t n_layers, nc_op *const *layers, bool multicast, bool balance)
{
  nc_op *module = nc_op_get_parent_op(func);
  nc_chip_desc d;
  if (!module || !nc_op_get_attr_str(module, "nc.chip") || !nc_chip_desc_of_module(module, false, &d))
    return NULL;
  nc_block *body = nc_op_get_num_regions(func) ? nc_region_get_first_block(nc_op_get_region(func, 0)) : NULL;
  size_t n_ops = 0;
  for (nc_op *op = body ? nc_block_get_first_op(body) : NULL; op; op = nc_op_get_next(op))
    n_ops++;
  gq_pipeline *p = nc_xcalloc(1, sizeof *p);
  p->base = nc_xcalloc(n_ops + 1, sizeof *p->base);
  p->st = nc_xcalloc(n_ops + 1, sizeof *p->st);
  p->consumers = nc_xcalloc((n_ops + 1) * (n_ops + 1), sizeof *p->consumers);
  p->layer = nc_xcalloc(n_ops + 1, sizeof *p->layer);
  p->input = nc_xcalloc(n_ops + 1, sizeof *p->input);
  p->width = nc_xcalloc(n_ops + 1, sizeof *p->width);
  p->tmp = nc_xcalloc(n_ops + 1, sizeof *p->tmp);
  for (unsigned b = 1; b <= 8; b++)
    p->rate[b] = nc_chip_desc_macs_per_cycle(&d, b);
  p->rate8 = p->rate[8] > 0 ? (double)p->rate[8] : 1;
  p->bw = d.link_bytes_per_cycle > 0 ? (double)d.link_bytes_per_cycle : 1;
  p->cores = balance ? d.rows * d.cols : 0; /* 0: no spare core (one tile per stage) */
  gq_map stage_of; /* op -> its stage (followers and q/dq ops map to their producer's) */
  gq_map_init(&stage_of, n_ops + 1);
  size_t n = 0, n_cols = n_ops + 1;
  for (nc_op *op = body ? nc_block_get_first_op(body) : NULL; op; op = nc_op_get_next(op)) {
    if (nc_op_is_constant(op) || nc_op_has_trait(op, NC_TRAIT_TERMINATOR) || !nc_op_get_num_results(op))
      continue;
    nc_op *def = nc_op_get_num_operands(op) ? nc_value_get_defining_op(nc_op_get_operand(op, 0)) : NULL;
    if ((is_quant(op) || follows(op, &stage_of)) && def && gq_map_get(&stage_of, def) != SIZE_MAX) {
      gq_map_put(&stage_of, op, gq_map_get(&stage_of, def));
      continue;
    }
    if (is_quant(op)) /* on the host */
      continue;
    core_stage *s = &p->base[n];
    nc_type *yt = nc_value_get_type(nc_op_get_result(op, 0));
    s->work = stage_work(op);
    s->out_bytes = nc_type_has_static_shape(yt) ? nc_type_get_num_elements(yt) : 0;
    s->k = 1, s->limit = stage_limit(op), s->steps = rows_of(yt), s->multicast = multicast;
    p->layer[n] = -1;
    for (size_t k = 0; k < n_layers; k++)
      if (layers[k] == op)
        p->layer[n] = (int64_t)k;
    p->input[n] = -1;
    for (size_t i = 0, m = nc_op_get_num_operands(op); i < m; i++) {
      nc_value *v = nc_op_get_operand(op, i);
      nc_op *producer = nc_value_get_defining_op(v);
      size_t from = producer ? gq_map_get(&stage_of, producer) : SIZE_MAX;
      if (from != SIZE_MAX) {
        p->consumers[from * n_cols + n] = 1;
        if (i == 0)
          p->input[n] = (int64_t)from;
      } else if (nc_value_is_block_arg(v) || (producer && is_quant(producer))) { /* a network input */
        nc_type *t = nc_value_get_type(v);
        s->host_bytes += nc_type_has_static_shape(t) ? nc_type_get_num_elements(t) : 0;
        s->host_steps = rows_of(t);
      }
    }
    gq_map_put(&stage_of, op, n++);
  }
  gq_map_free(&stage_of);
  /* the consumer matrix packed to n x n; stages nobody reads send to the host */
  for (size_t i = 0; i < n; i++) {
    bool consumed = false;
    for (size_t j = 0; j < n; j++)
      consumed |= (p->consumers[i * n + j] = p->consumers[i * n_cols + j]) != 0;
    p->base[i].send_to_host = consumed ? 0 : 1;
  }
  p->n = n;
  return p;
}

double gq_pipeline_estimate(gq_pipeline *p, const int *bits)
{
  memcpy(p->st, p->base, p->n * sizeof *p->st);
  for (size_t i = 0; i < p->n; i++) {
    int64_t in = p->input[i];
    p->width[i] = p->layer[i] >= 0 ? bits[p->layer[i]] : in >= 0 ? p->width[in] : 8;
    /* a 4- or 2-bit layer runs at its width's rate: its work in 8-bit cycles
     * shrinks, as core-place's balance_cores counts it */
    double wrate = (double)p->rate[p->width[i] >= 1 && p->width[i] < 8 ? p->width[i] : 8];
    if (wrate > p->rate8)
      p->st[i].work = (int64_t)((double)p->st[i].work * p->rate8 / wrate);
  }
  /* core-place's balancing from one slice per stage (balance-lookahead=1, as
   * the NorthPole pipeline runs it), and again from the first estimate's
   * slices (the all-8-bit widths', in the search): a narrower layer can
   * always keep the cores it had, but the greedy balancing, path-dependent
   * on the ceil() of message sizes, does not always find them again */
  double cold = core_pipeline_balance(p->st, p->consumers, p->n, p->cores, 1, p->rate8, p->bw);
  if (!p->warm) {
    p->warm = nc_xcalloc(p->n + 1, sizeof *p->warm);
    for (size_t i = 0; i < p->n; i++)
      p->warm[i] = p->st[i].k;
  }
  for (size_t i = 0; i < p->n; i++)
    p->tmp[i] = p->st[i].k, p->st[i].k = p->warm[i];
  double warm = core_pipeline_balance(p->st, p->consumers, p->n, p->cores, 1, p->rate8, p->bw);
  if (cold < warm)
    for (size_t i = 0; i < p->n; i++)
      p->st[i].k = p->tmp[i];
  p->frame = cold < warm ? cold : warm;
  return p->frame;
}

bool gq_pipeline_bounds(const gq_pipeline *p, size_t layer)
{
  for (size_t i = 0; i < p->n; i++)
    if (p->layer[i] == (int64_t)layer)
      return core_pipeline_stage_cycles(p->st, p->consumers, p->n, i, p->rate8, p->bw) >= p->frame - 1e-9;
  return false;
}

int64_t gq_pipeline_cores(const gq_pipeline *p) { return p->cores; }

void gq_pipeline_destroy(gq_pipeline *p)
{
  if (!p)
    return;
  free(p->base), free(p->st), free(p->consumers), free(p->layer), free(p->input), free(p->width), free(p->warm), free(p->tmp);
  free(p);
}
