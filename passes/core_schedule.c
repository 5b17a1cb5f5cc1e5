/* core_schedule.c: core-schedule, which writes each placed tile's static
 * program from the isl dependences (docs/design/spine.md, section 3).
 *
 * For a tile of node C and each operand k of C (produced by node P, or by
 * the host for a function argument):
 *   - earliest[k] (set by dataflow-deps) maps each iteration i of C to the
 *     producer iteration it waits for: every producer iteration C reads from
 *     up to i is at most that one (it is the prefix lexmax of the last one);
 *   - needed[k][c][t] is the set of iterations of producer tile t whose
 *     output (its slice: channels, rows) holds an element consumer tile c
 *     reads: the domain of P's writes restricted to the slice and to the
 *     range of c's reads (isl); a row band (out_rows) of C reads only what
 *     the iterations writing its rows read, its rows plus the halo, an
 *     input-channel slice (in_channels) only its channels of operand 0, a
 *     residual add's output-channel slice only its channels of both operands, and
 *     tiles of one band and slice share the array; a partial-sum tile is
 *     needed by nobody (it sends int32 sums to its group's reducer, which
 *     receives them before computing the iteration). When P's writes are
 *     one box per iteration and the elements c reads are exactly a box,
 *     needed[k][c][t] compares intervals (no isl domain, no points to
 *     walk: most of the pass's isl work on ResNet-50).
 * The program runs C's iterations in order; before iteration i it receives,
 * for each operand in order, every needed producer iteration up to
 * earliest[k](i) not received yet, from each producer tile in tile order;
 * then it computes i (consecutive computes merge into one range; a row
 * band skips the iterations writing none of its rows); then it sends i's
 * output to every tile of every consumer node that needs it (tiles in chip
 * order) and, when the node's result leaves the nodes, to the host.
 * Everything is in pipeline order and deterministic. Simple for now: there
 * is no timing model, so the schedule is the dependences' eager order (recv
 * as late as, and compute as early as, they allow), computes are never
 * reordered or skipped (an iteration nobody reads is still computed), and no
 * core.wait is needed: recvs are the synchronisation. Iterations are
 * numbered by their rank in the domain's lexicographic order
 * (nc_iters); the host sends an input in row-major order, one message
 * per iteration of the source that dataflow-deps assumed (rows or pixels).
 * The isl work (each node's iterations, its tiles' bytes, its operands'
 * needs) runs on the context's threads, a chunk of nodes per thread with an
 * isl context of its own, in three phases (an operand reads its producer's
 * iterations and tiles); the programs, which create ops, are written after,
 * in order.
 */
#include <stdlib.h>
#include <string.h>

#include <isl/constraint.h>
#include <isl/map.h>
#include <isl/options.h>
#include <isl/point.h>
#include <isl/val.h>

#include "core_util.h"
#include "nc/passes/mapping.h"
#include "nc/dialects/core/core.h"
#include "nc/dialects/dataflow/dataflow.h"
#include "nc/dialects/dataflow/layer.h"
#include "nc/ir/diag.h"
#include "nc/ir/pass.h"
#include "nc/ir/threading.h"

static const nc_pass_stat_def stats[] = {
  {"num-recvs", "Number of core.recv ops"},
  {"num-computes", "Number of core.compute ops"},
  {"num-sends", "Number of core.send ops (to tiles and to the host)"},
  {"bytes-sent", "Bytes sent between tiles"},
  {"byte-hops", "Bytes sent between tiles times the NoC hops they travel"},
  {"box-needs", "Tiles' operands whose needed producer iterations came from comparing boxes, not isl points"},
};

/* A tile of a node. */
typedef struct tile_info {
  nc_op *op;
  int64_t x, y;
  int64_t *out_bytes;    /* per iteration of the node: bytes of its slice (int32 partial sums: 4 per element) */
  int64_t rlo, rhi;      /* its row band (out_rows), or 0, 0 */
  int64_t in_lo, in_hi;  /* input channels of operand 0 it sums over (in_lo = in_hi: all) */
  int64_t clo, chi;      /* its output channels (out_channels), or 0, 0 */
  bool partial;          /* sends int32 partial sums to its group's reducer, no activations */
  size_t order;          /* its position among the chip's tiles */
} tile_info;

/* An operand k of a consumer node: where it comes from and what it needs. */
typedef struct operand_info {
  int producer;       /* node index, or -1 for the host */
  int64_t *earliest;  /* per consumer iteration: producer iteration, or -1 (free) */
  bool ***needed;     /* [consumer tile][producer tile][producer iteration]; one "tile" for the host;
                         consumer tiles reading the same elements (same row band and input-channel slice)
                         share their arrays */
  size_t n_ptiles;
  size_t n_piters;
} operand_info;

typedef struct node_info {
  nc_op *node;
  nc_iters iters;
  tile_info *tiles;
  size_t n_tiles;
  operand_info *ops;
  size_t n_ops;
  bool to_host;
  nc_write_boxes boxes;   /* its writes per iteration when they are exact boxes (boxes.n = iterations), else n = 0 */
  size_t failed_tile;     /* node_out_bytes: the chip position of the tile it failed on */
  nc_diag_capture *diags; /* a parallel phase's diagnostics of this node (for_nodes) */
} node_info;

typedef struct sched {
  nc_pass *pass;
  node_info *nodes;
  size_t n;
  nc_type *i32;   /* a partial sum's element */
  isl_ctx **ctxs; /* one per chunk of nodes (for_nodes), kept across the phases: each parses its texts once */
  size_t n_ctxs;
} sched;

static int node_index(sched *s, const nc_op *node)
{
  for (size_t i = 0; i < s->n; i++)
    if (s->nodes[i].node == node)
      return (int)i;
  return -1;
}

/* --- reading the relations ------------------------------------------------------------------------------- */

typedef struct pair_walk {
  const nc_iters *from, *to;
  int64_t *map;   /* from-rank -> to-rank (earliest) */
  bool *marks;    /* or: mark from-ranks (needed) */
  bool failed;
} pair_walk;

static isl_stat walk_pair(isl_point *pt, void *user)
{
  pair_walk *w = user;
  int64_t a[NC_MAX_RANK], b[NC_MAX_RANK];
  int da = w->from->dim, db = w->to ? w->to->dim : 0;
  for (int i = 0; i < da + db; i++) {
    isl_val *v = isl_point_get_coordinate_val(pt, isl_dim_set, i);
    (i < da ? a : b)[i < da ? i : i - da] = v ? isl_val_get_num_si(v) : 0;
    isl_val_free(v);
  }
  isl_point_free(pt);
  int64_t ra = nc_iters_rank(w->from, a), rb = w->to ? nc_iters_rank(w->to, b) : 0;
  if (ra < 0 || rb < 0) {
    w->failed = true;
    return isl_stat_error;
  }
  if (w->map)
    w->map[ra] = rb;
  else
    w->marks[ra] = true;
  return isl_stat_ok;
}

/* The host as an input source writing tensor `t` in row-major order, with
 * `d` iteration dims (as dataflow-deps modelled it): its iterations and
 * its writes into `tensor`. */
static bool host_source(isl_ctx *ctx, nc_type *t, int d, const char *tensor, nc_iters *iters, isl_map **writes)
{
  int64_t dims[NC_MAX_RANK];
  int n = nc_dataflow_tensor_coords(t, dims);
  if (n < 0 || d > n)
    return false;
  int first = n == 3 && nc_type_get_rank(t) == 4 && d <= 2 ? 1 : n - d; /* P[y] / P[y, x] of T[c, y, x] */
  char *text;
  size_t len;
  FILE *f = open_memstream(&text, &len);
  if (!f)
    abort();
  fputs("{ P[", f);
  for (int i = 0; i < d; i++)
    fprintf(f, "%si%d", i ? ", " : "", first + i);
  fprintf(f, "] -> %s[", tensor);
  for (int i = 0; i < n; i++)
    fprintf(f, "%si%d", i ? ", " : "", i);
  fputs("] : ", f);
  for (int i = 0; i < n; i++)
    fprintf(f, "%s0 <= i%d < %lld", i ? " and " : "", i, (long long)dims[i]);
  fputs(" }", f);
  fclose(f);
  *writes = isl_map_read_from_str(ctx, text);
  free(text);
  isl_set *dom = *writes ? isl_map_domain(isl_map_copy(*writes)) : NULL;
  bool ok = nc_iters_from_set(dom, iters);
  isl_set_free(dom);
  return ok && *writes;
}

/* Marks the producer iterations whose writes (restricted to [lo, hi) of
 * their first coordinate when lo < hi, and [rlo, rhi) of their second)
 * hold an element of `read_elements`. */
static bool mark_needed(isl_map *writes, int64_t lo, int64_t hi, int64_t rlo, int64_t rhi, isl_set *read_elements,
                        const nc_iters *piters, bool *marks)
{
  isl_map *w = isl_map_copy(writes);
  isl_set *elts = isl_set_copy(read_elements);
  if (lo < hi) {
    elts = isl_set_lower_bound_si(elts, isl_dim_set, 0, lo);
    elts = isl_set_upper_bound_si(elts, isl_dim_set, 0, hi - 1);
  }
  if (rlo < rhi && elts && isl_set_dim(elts, isl_dim_set) >= 2) { /* the producer tile's row band */
    elts = isl_set_lower_bound_si(elts, isl_dim_set, 1, rlo);
    elts = isl_set_upper_bound_si(elts, isl_dim_set, 1, rhi - 1);
  }
  isl_set *dom = isl_map_domain(isl_map_intersect_range(w, elts));
  pair_walk pw = {piters, NULL, NULL, marks, false};
  bool ok = dom && isl_set_foreach_point(dom, walk_pair, &pw) == isl_stat_ok && !pw.failed;
  isl_set_free(dom);
  return ok;
}

/* The bounds a box's constraints give, coordinate by coordinate. */
typedef struct box_bounds {
  int dim;
  int64_t lo[NC_MAX_RANK], hi[NC_MAX_RANK];
  bool has_lo[NC_MAX_RANK], has_hi[NC_MAX_RANK];
} box_bounds;

/* Tightens the bounds by constraint c (a x + k >= 0, or = 0), which must
 * involve at most one coordinate and be satisfiable; an error otherwise. */
static isl_stat box_constraint(isl_constraint *c, void *user)
{
  box_bounds *b = user;
  int var = -1, seen = 0;
  for (int d = 0; d < b->dim; d++)
    if (isl_constraint_involves_dims(c, isl_dim_set, (unsigned)d, 1) == isl_bool_true)
      var = d, seen++;
  isl_val *k = isl_constraint_get_constant_val(c), *a = var >= 0 ? isl_constraint_get_coefficient_val(c, isl_dim_set, var)
                                                                 : NULL;
  bool eq = isl_constraint_is_equality(c) == isl_bool_true;
  isl_constraint_free(c);
  bool ok = seen <= 1 && k && isl_val_is_int(k) && (var < 0 || (a && isl_val_is_int(a))) &&
            isl_val_cmp_si(k, INT64_MIN / 4) > 0 && isl_val_cmp_si(k, INT64_MAX / 4) < 0 &&
            (var < 0 || (isl_val_cmp_si(a, -(INT64_C(1) << 31)) > 0 && isl_val_cmp_si(a, INT64_C(1) << 31) < 0));
  int64_t kk = ok ? isl_val_get_num_si(k) : 0, aa = ok && var >= 0 ? isl_val_get_num_si(a) : 0;
  isl_val_free(k);
  isl_val_free(a);
  if (!ok)
    return isl_stat_error;
  if (var < 0) /* k >= 0 or k = 0: true, or the set is empty */
    return (eq ? kk == 0 : kk >= 0) ? isl_stat_ok : isl_stat_error;
  if (eq && kk % aa != 0) /* no integer solution */
    return isl_stat_error;
  /* a x >= -k: x >= ceil(-k / a) when a > 0, x <= floor(k / -a) when a < 0 */
  int64_t num = aa > 0 ? -kk : kk, den = aa > 0 ? aa : -aa;
  int64_t fl = num >= 0 ? num / den : -((-num + den - 1) / den), ce = num >= 0 ? (num + den - 1) / den : -(-num / den);
  if (aa > 0 || eq) {
    int64_t v = eq ? -kk / aa : ce;
    b->lo[var] = b->has_lo[var] && b->lo[var] > v ? b->lo[var] : v, b->has_lo[var] = true;
  }
  if (aa < 0 || eq) {
    int64_t v = eq ? -kk / aa : fl;
    b->hi[var] = b->has_hi[var] && b->hi[var] < v ? b->hi[var] : v, b->has_hi[var] = true;
  }
  return isl_stat_ok;
}

/* The bounding box of `elements` ([lo[d], hi[d]] per coordinate) when the
 * set is exactly that box, as its form shows: one piece, no existential
 * variable (a stride), every constraint on one coordinate, each coordinate
 * bounded, the box not empty. Then whether a producer iteration's write box
 * meets it is a comparison of intervals, not an isl domain and its points.
 * False (isl's way then) otherwise, also for a box isl writes in pieces. */
static bool exact_box(isl_set *elements, int dim, int64_t *lo, int64_t *hi)
{
  if (!elements || dim > NC_MAX_RANK || (int)isl_set_dim(elements, isl_dim_set) != dim ||
      isl_set_dim(elements, isl_dim_param) != 0 || isl_set_n_basic_set(elements) != 1)
    return false;
  isl_basic_set_list *pieces = isl_set_get_basic_set_list(elements);
  isl_basic_set *piece = isl_basic_set_list_get_at(pieces, 0);
  isl_basic_set_list_free(pieces);
  box_bounds b = {.dim = dim};
  bool ok = piece && isl_basic_set_dim(piece, isl_dim_div) == 0 &&
            isl_basic_set_foreach_constraint(piece, box_constraint, &b) == isl_stat_ok;
  isl_basic_set_free(piece);
  for (int d = 0; d < dim && ok; d++) {
    ok = b.has_lo[d] && b.has_hi[d] && b.lo[d] <= b.hi[d];
    lo[d] = b.lo[d], hi[d] = b.hi[d];
  }
  return ok;
}

/* mark_needed for a producer whose writes are exact boxes and elements
 * that are exactly the box [elo, ehi]: iteration i is needed when its box,
 * clipped to [lo, hi) of the first coordinate (lo < hi) and [rlo, rhi) of
 * the second, meets the elements' box. */
static void mark_needed_boxes(const nc_write_boxes *b, int64_t lo, int64_t hi, int64_t rlo, int64_t rhi,
                              const int64_t *elo, const int64_t *ehi, bool *marks)
{
  int64_t first[NC_MAX_RANK], last[NC_MAX_RANK];
  for (int d = 0; d < b->dim; d++) {
    first[d] = elo[d], last[d] = ehi[d];
    if (d == 0 && lo < hi)
      first[d] = lo > first[d] ? lo : first[d], last[d] = hi - 1 < last[d] ? hi - 1 : last[d];
    if (d == 1 && rlo < rhi)
      first[d] = rlo > first[d] ? rlo : first[d], last[d] = rhi - 1 < last[d] ? rhi - 1 : last[d];
  }
  for (size_t i = 0; i < b->n; i++) {
    if (!b->present[i])
      continue;
    const int64_t *off = b->offset + i * (size_t)b->dim;
    bool meets = true;
    for (int d = 0; d < b->dim && meets; d++)
      meets = (off[d] > first[d] ? off[d] : first[d]) <= (off[d] + b->size[d] - 1 < last[d] ? off[d] + b->size[d] - 1 : last[d]);
    marks[i] = meets;
  }
}

static bool fail(nc_op *node, const char *what, size_t k)
{
  return nc_op_emit_error(node, "core-schedule: cannot read %s of operand %zu with isl", what, k);
}

/* The elements of an operand that the iterations writing rows [rlo, rhi)
 * of the node's output read (every iteration's when rlo = rhi): a row
 * band's rows plus the window's halo rows. */
static isl_set *band_reads(nc_op *node, isl_map *read, int64_t rlo, int64_t rhi, isl_ctx *ctx)
{
  isl_map *r = isl_map_copy(read);
  if (rlo < rhi) {
    isl_map *w = nc_dataflow_node_get_writes(node, ctx);
    unsigned row = nc_core_node_rows_first(node) ? 0 : 1; /* a matmul's rows m of Out[m, n] */
    if (w && isl_map_dim(w, isl_dim_out) >= 2) {
      w = isl_map_lower_bound_si(w, isl_dim_out, row, rlo);
      w = isl_map_upper_bound_si(w, isl_dim_out, row, rhi - 1);
      r = isl_map_intersect_domain(r, isl_map_domain(w));
    } else {
      isl_map_free(w);
    }
  }
  return isl_map_range(r);
}

/* Whether output channel c of `node` reads channel c of operand k alone
 * (a residual add or subtract of two tensors of its shape), so that a tile
 * of some output channels (out_channels) receives only those channels of it
 * (core-place{add-guests} splits such adds like their producers). */
static bool reads_own_channels(nc_op *node, size_t k)
{
  nc_dataflow_layer l;
  if (!nc_dataflow_node_get_layer(node, &l) || l.kind != NC_DATAFLOW_LAYER_ELTWISE ||
      (l.op != NC_DATAFLOW_ELTWISE_ADD && l.op != NC_DATAFLOW_ELTWISE_SUB) || nc_op_get_num_results(node) != 1)
    return false;
  return core_same_chw_shape(nc_value_get_type(nc_op_get_operand(node, k)),
                             nc_value_get_type(nc_op_get_result(node, 0)));
}

static bool analyse_operand(sched *s, node_info *c, size_t k, isl_ctx *ctx)
{
  operand_info *o = &c->ops[k];
  nc_op *node = c->node;
  nc_op *pnode = nc_dataflow_node_get_producer(node, k);
  o->producer = pnode ? node_index(s, pnode) : -1;
  if (pnode && o->producer < 0)
    return nc_op_emit_error(node, "core-schedule: operand %zu's producer is not a node of the function", k);
  char tensor[32];
  snprintf(tensor, sizeof tensor, "In%zu", k);
  isl_map *earliest = nc_dataflow_node_get_earliest(node, k, ctx);
  isl_map *read = nc_dataflow_node_get_read(node, k, ctx);
  if (!earliest || !read) {
    isl_map_free(earliest);
    isl_map_free(read);
    return fail(node, "earliest (run dataflow-deps first) or reads", k);
  }
  nc_iters host_iters = {0}, *piters;
  isl_map *pwrites;
  if (pnode) {
    node_info *p = &s->nodes[o->producer];
    piters = &p->iters;
    pwrites = isl_map_set_tuple_name(nc_dataflow_node_get_writes(pnode, ctx), isl_dim_out, tensor);
    o->n_ptiles = p->n_tiles;
  } else {
    int d = (int)isl_map_dim(earliest, isl_dim_out);
    piters = &host_iters;
    if (!host_source(ctx, nc_value_get_type(nc_op_get_operand(node, k)), d, tensor, &host_iters, &pwrites)) {
      isl_map_free(earliest);
      isl_map_free(read);
      return fail(node, "the input source", k);
    }
    o->n_ptiles = 1;
  }
  o->n_piters = piters->n;
  o->earliest = nc_xmalloc((c->iters.n + 1) * sizeof *o->earliest);
  for (size_t i = 0; i < c->iters.n; i++)
    o->earliest[i] = -1;
  pair_walk pw = {&c->iters, piters, o->earliest, NULL, false};
  isl_set *pairs = isl_map_wrap(earliest);
  bool ok = pairs && isl_set_foreach_point(pairs, walk_pair, &pw) == isl_stat_ok && !pw.failed;
  isl_set_free(pairs);
  int coord = 0;
  nc_core_node_get_in_channels(node, &coord);
  bool own = reads_own_channels(node, k);
  o->needed = nc_xcalloc(c->n_tiles + 1, sizeof *o->needed);
  for (size_t ct = 0; ct < c->n_tiles && ok; ct++) {
    tile_info *me = &c->tiles[ct];
    bool sliced = k == 0 && me->in_lo < me->in_hi; /* an input-channel slice reads part of operand 0 */
    bool own_slice = own && me->clo < me->chi;      /* an add's channel slice reads its channels only */
    for (size_t prev = 0; prev < ct && !o->needed[ct]; prev++) { /* the same band and slice read the same elements */
      tile_info *p = &c->tiles[prev];
      if (p->rlo == me->rlo && p->rhi == me->rhi &&
          (k != 0 || (p->in_lo == me->in_lo && p->in_hi == me->in_hi)) &&
          (!own || (p->clo == me->clo && p->chi == me->chi)))
        o->needed[ct] = o->needed[prev];
    }
    if (o->needed[ct])
      continue;
    isl_set *elements = band_reads(node, read, me->rlo, me->rhi, ctx);
    if (sliced && elements) {
      elements = isl_set_lower_bound_si(elements, isl_dim_set, (unsigned)coord, me->in_lo);
      elements = isl_set_upper_bound_si(elements, isl_dim_set, (unsigned)coord, me->in_hi - 1);
    }
    if (own_slice && elements) {
      elements = isl_set_lower_bound_si(elements, isl_dim_set, 0, me->clo);
      elements = isl_set_upper_bound_si(elements, isl_dim_set, 0, me->chi - 1);
    }
    bool **needed = o->needed[ct] = nc_xcalloc(o->n_ptiles, sizeof *needed);
    const nc_write_boxes *pboxes = pnode && s->nodes[o->producer].boxes.n ? &s->nodes[o->producer].boxes : NULL;
    int64_t elo[NC_MAX_RANK], ehi[NC_MAX_RANK];
    bool boxed = pboxes && pboxes->n == o->n_piters && exact_box(elements, pboxes->dim, elo, ehi);
    if (boxed)
      nc_pass_stat_add(s->pass, 5, 1);
    for (size_t t = 0; t < o->n_ptiles && ok; t++) {
      int64_t lo = 0, hi = 0, rlo = 0, rhi = 0;
      if (pnode) {
        nc_core_tile_get_out_channels(s->nodes[o->producer].tiles[t].op, &lo, &hi);
        rlo = s->nodes[o->producer].tiles[t].rlo, rhi = s->nodes[o->producer].tiles[t].rhi;
        if (nc_core_node_rows_first(pnode)) { /* a matmul's Out[m, n]: rows first */
          int64_t a = lo, b = hi;
          lo = rlo, hi = rhi, rlo = a, rhi = b;
        }
      }
      needed[t] = nc_xcalloc(o->n_piters + 1, sizeof **needed);
      if (pnode && s->nodes[o->producer].tiles[t].partial)
        continue; /* it sends partial sums to its reducer only */
      if (boxed)
        mark_needed_boxes(pboxes, lo, hi, rlo, rhi, elo, ehi, needed[t]);
      else
        ok = pwrites && elements && mark_needed(pwrites, lo, hi, rlo, rhi, elements, piters, needed[t]);
    }
    isl_set_free(elements);
  }
  isl_map_free(read);
  isl_map_free(pwrites);
  nc_iters_clear(&host_iters);
  return ok || fail(node, "earliest and the channel's elements", k);
}

/* --- building programs ----------------------------------------------------------------------------------- */

typedef struct emitter {
  sched *s;
  nc_op *program;
  nc_location loc;
  nc_op *last_compute;
  int64_t x, y;
} emitter;

static void emit(emitter *e, nc_core_instr in)
{
  if (in.kind == NC_CORE_COMPUTE && e->last_compute && !nc_op_get_next(e->last_compute)) {
    nc_core_instr prev;
    nc_core_instr_get(e->last_compute, &prev);
    if (prev.end == in.begin) { /* nothing in between: extend the last compute's range */
      nc_context *ctx = nc_op_get_context(e->program);
      nc_op_set_attr_str(e->last_compute, "end", nc_attr_integer(ctx, nc_type_integer(ctx, 64, NC_SIGNLESS), in.end));
      return;
    }
  }
  nc_op *op = nc_core_program_append(e->program, e->loc, &in);
  if (in.kind == NC_CORE_COMPUTE)
    e->last_compute = op;
  nc_pass_stat_add(e->s->pass, in.kind == NC_CORE_RECV ? 0 : in.kind == NC_CORE_COMPUTE ? 1 : 2, 1);
  if (in.kind == NC_CORE_SEND && in.x >= 0) {
    nc_pass_stat_add(e->s->pass, 3, (uint64_t)in.bytes);
    nc_pass_stat_add(e->s->pass, 4, (uint64_t)(in.bytes * (llabs(in.x - e->x) + llabs(in.y - e->y))));
  }
}

/* The tiles of c's input-channel group of tile ti other than ti itself: the
 * same out_channels, with in_channels. */
static bool same_group(node_info *c, size_t a, size_t b)
{
  int64_t a0 = 0, a1 = 0, b0 = 0, b1 = 0;
  tile_info *x = &c->tiles[a], *y = &c->tiles[b];
  nc_core_tile_get_out_channels(x->op, &a0, &a1);
  nc_core_tile_get_out_channels(y->op, &b0, &b1);
  return a != b && x->in_lo < x->in_hi && y->in_lo < y->in_hi && a0 == b0 && a1 == b1 && x->rlo == y->rlo &&
         x->rhi == y->rhi;
}

static void schedule_tile(sched *s, node_info *c, size_t ti)
{
  tile_info *me = &c->tiles[ti];
  emitter e = {s, nc_core_tile_get_program(me->op), nc_op_get_loc(me->op), NULL, me->x, me->y};
  int64_t *next = nc_xcalloc(c->n_ops + 1, sizeof *next); /* per operand: first producer iteration not received */
  size_t *cons_of = nc_xmalloc((s->n + 1) * sizeof *cons_of), n_cons = 0; /* the nodes reading c, in order */
  for (size_t ci = 0; ci < s->n; ci++)
    for (size_t k = 0; k < s->nodes[ci].n_ops; k++)
      if (s->nodes[ci].ops[k].producer == c - s->nodes) {
        cons_of[n_cons++] = ci;
        break;
      }
  for (size_t i = 0; i < c->iters.n; i++) {
    for (size_t k = 0; k < c->n_ops; k++) {
      operand_info *o = &c->ops[k];
      for (; next[k] <= o->earliest[i]; next[k]++)
        for (size_t t = 0; t < o->n_ptiles; t++) {
          if (!o->needed[ti][t][next[k]])
            continue;
          tile_info *from = o->producer >= 0 ? &s->nodes[o->producer].tiles[t] : NULL;
          emit(&e, (nc_core_instr){.kind = NC_CORE_RECV, .x = from ? from->x : NC_CORE_HOST,
                                   .y = from ? from->y : NC_CORE_HOST, .slot = from ? nc_core_tile_get_slot(from->op) : 0,
                                   .operand = (int64_t)k, .iter = next[k]});
        }
    }
    int64_t bytes = me->out_bytes[i];
    if (me->rlo < me->rhi && bytes <= 0)
      continue; /* outside the tile's row band */
    for (size_t t = 0; !me->partial && bytes > 0 && t < c->n_tiles; t++) /* the group's partial sums */
      if (same_group(c, ti, t))
        emit(&e, (nc_core_instr){.kind = NC_CORE_RECV, .x = c->tiles[t].x, .y = c->tiles[t].y,
                                 .slot = nc_core_tile_get_slot(c->tiles[t].op), .operand = 0,
                                 .iter = (int64_t)i, .network = NC_CORE_NET_PARTIAL_SUM});
    emit(&e, (nc_core_instr){.kind = NC_CORE_COMPUTE, .begin = (int64_t)i, .end = (int64_t)i + 1});
    if (bytes <= 0)
      continue;
    if (me->partial) { /* to the reducer, on the partial-sum network */
      for (size_t t = 0; t < c->n_tiles; t++)
        if (same_group(c, ti, t) && !c->tiles[t].partial)
          emit(&e, (nc_core_instr){.kind = NC_CORE_SEND, .x = c->tiles[t].x, .y = c->tiles[t].y,
                                   .slot = nc_core_tile_get_slot(c->tiles[t].op), .iter = (int64_t)i,
                                   .bytes = bytes, .network = NC_CORE_NET_PARTIAL_SUM});
      continue;
    }
    for (size_t q = 0; q < n_cons; q++) { /* consumers in pipeline order, each tile that needs it once */
      node_info *cons = &s->nodes[cons_of[q]];
      for (size_t t = 0; t < cons->n_tiles; t++) { /* each tile whose band (halo included) and slice read i */
        bool needs = false;
        for (size_t k = 0; k < cons->n_ops && !needs; k++)
          needs = cons->ops[k].producer == c - s->nodes && cons->ops[k].needed[t][ti][i];
        if (needs)
          emit(&e, (nc_core_instr){.kind = NC_CORE_SEND, .x = cons->tiles[t].x, .y = cons->tiles[t].y,
                                   .slot = nc_core_tile_get_slot(cons->tiles[t].op),
                                   .iter = (int64_t)i, .bytes = bytes});
      }
    }
    if (c->to_host)
      emit(&e, (nc_core_instr){.kind = NC_CORE_SEND, .x = NC_CORE_HOST, .y = NC_CORE_HOST, .iter = (int64_t)i,
                               .bytes = bytes});
  }
  free(next);
  free(cons_of);
}

/* The elements each iteration writes of a node whose writes are exact boxes
 * (b) within [lo[0], hi[0]) of the first output coordinate and [lo[1],
 * hi[1]) of the second (an empty range: all): a box clipped to a slice is
 * a box, so no isl per tile (nc_mapping_output_elements_from's counts). */
static void box_slice_elements(const nc_write_boxes *b, const int64_t lo[2], const int64_t hi[2], int64_t **counts)
{
  int64_t *c = *counts = nc_xcalloc(b->n + 1, sizeof *c);
  for (size_t i = 0; i < b->n; i++) {
    if (!b->present[i])
      continue;
    int64_t elements = 1;
    for (int d = 0; d < b->dim && elements > 0; d++) {
      int64_t first = b->offset[i * (size_t)b->dim + (size_t)d], end = first + b->size[d];
      if (d < 2 && lo[d] < hi[d] && (d == 0 || b->dim >= 2)) {
        first = first > lo[d] ? first : lo[d];
        end = end < hi[d] ? end : hi[d];
      }
      elements *= end > first ? end - first : 0;
    }
    c[i] = elements;
  }
}

static bool leaves_nodes(nc_op *node)
{
  for (nc_use *u = nc_value_get_first_use(nc_op_get_result(node, 0)); u; u = nc_use_get_next(u))
    if (!nc_dataflow_is_node(nc_use_get_owner(u)))
      return true;
  return false;
}

/* A phase of collect on one node, with the isl context of its chunk;
 * false with its error emitted. */
typedef bool (*node_fn)(sched *s, node_info *ni, isl_ctx *ctx);

typedef struct nodes_job {
  sched *s;
  node_fn fn;
  size_t n;   /* nodes [0, n) */
  bool *ok;   /* per node */
} nodes_job;

/* Chunk c: nodes c, c + chunks, ... (big and small nodes mixed), each with
 * its diagnostics held in its node_info. */
static bool nodes_chunk(size_t c, void *user)
{
  nodes_job *j = user;
  for (size_t i = c; i < j->n; i += j->s->n_ctxs) {
    node_info *ni = &j->s->nodes[i];
    ni->diags = nc_diag_capture_begin();
    j->ok[i] = j->fn(j->s, ni, j->s->ctxs[c]);
    nc_diag_capture_end(ni->diags);
  }
  return true;
}

/* Runs fn on nodes [0, n) on the context's threads (nc_parallel_for), each
 * chunk of nodes with its isl context (isl's are not thread-safe). Returns
 * the first failing node in order (its diagnostics delivered, the others'
 * dropped, as a serial loop stopping there), or n. */
static size_t for_nodes(sched *s, nc_context *ctx, size_t n, node_fn fn)
{
  nodes_job job = {s, fn, n, nc_xcalloc(n + 1, sizeof *job.ok)};
  nc_parallel_for(ctx, s->n_ctxs < n ? s->n_ctxs : n, nodes_chunk, &job);
  size_t first = n;
  for (size_t i = 0; i < n; i++) {
    if (first == n && !job.ok[i]) {
      first = i;
      nc_diag_capture_flush(s->nodes[i].diags, ctx);
    } else {
      nc_diag_capture_discard(s->nodes[i].diags);
    }
    s->nodes[i].diags = NULL;
  }
  free(job.ok);
  return first;
}

static bool node_iters(sched *s, node_info *ni, isl_ctx *ctx)
{
  (void)s;
  if (!nc_iters_of_node(ni->node, ctx, &ni->iters))
    return nc_op_emit_error(ni->node, "core-schedule: cannot enumerate the node's iterations: its domain is unbounded "
                            "or holds more than 2^26 points (the most nc enumerates)");
  return true;
}

/* Each tile's bytes per iteration: its slice of the node's writes, from
 * their boxes when they are boxes (the node's writes read once), by isl per
 * tile otherwise; a copy or a partial-sum tile of an earlier tile's slice
 * takes its bytes. */
static bool node_out_bytes(sched *s, node_info *ni, isl_ctx *ctx)
{
  nc_op *n = ni->node;
  isl_map *writes = NULL;
  int boxed = 0; /* 0: not asked yet; 1: the writes are boxes; -1: they are not */
  nc_write_boxes boxes = {0};
  bool ok = true, rows_first = nc_core_node_rows_first(n); /* a matmul's Out[m, n]: rows first */
  for (size_t t = 0; t < ni->n_tiles && ok; t++) {
    tile_info *ti = &ni->tiles[t];
    int64_t lo = ti->clo, hi = ti->chi;
    const tile_info *same = NULL; /* a copy or a partial-sum tile of the same slice: the same bytes */
    for (size_t k = 0; k < t && !same; k++) {
      const tile_info *p = &ni->tiles[k];
      if (p->clo == lo && p->chi == hi && p->rlo == ti->rlo && p->rhi == ti->rhi && p->partial == ti->partial)
        same = p;
    }
    if (same) {
      ti->out_bytes = nc_xmalloc((ni->iters.n + 1) * sizeof *ti->out_bytes);
      memcpy(ti->out_bytes, same->out_bytes, ni->iters.n * sizeof *ti->out_bytes);
      continue;
    }
    size_t n_iters;
    if (!writes)
      writes = nc_dataflow_node_get_writes(n, ctx);
    if (!boxed)
      boxed = nc_mapping_write_boxes_from(&ni->iters, writes, 0, 0, 0, 0, &boxes) == 1 ? 1 : -1;
    if (boxed == 1) {
      int64_t box_lo[2] = {rows_first ? ti->rlo : lo, rows_first ? lo : ti->rlo};
      int64_t box_hi[2] = {rows_first ? ti->rhi : hi, rows_first ? hi : ti->rhi};
      box_slice_elements(&boxes, box_lo, box_hi, &ti->out_bytes);
      n_iters = boxes.n;
    } else if (!nc_mapping_output_elements_from(&ni->iters, writes, rows_first ? ti->rlo : lo,
                                                rows_first ? ti->rhi : hi, rows_first ? lo : ti->rlo,
                                                rows_first ? hi : ti->rhi, &ti->out_bytes, &n_iters)) {
      ni->failed_tile = ti->order;
      ok = nc_op_emit_error(n, "core-schedule: cannot enumerate the node's writes: they are unbounded or hold more "
                            "than 2^26 points (the most nc enumerates)");
      break;
    }
    nc_type *elt = ti->partial ? s->i32 : nc_type_get_element_type(nc_value_get_type(nc_op_get_result(n, 0)));
    for (size_t k = 0; k < n_iters; k++)
      ti->out_bytes[k] = nc_core_message_bytes(ti->out_bytes[k], elt); /* packed on the NoC */
  }
  isl_map_free(writes);
  if (ok && boxed == 1 && boxes.n == ni->iters.n)
    ni->boxes = boxes; /* its consumers' needs compare boxes (analyse_operand) */
  else
    nc_write_boxes_clear(&boxes);
  return ok;
}

static bool node_operands(sched *s, node_info *ni, isl_ctx *ctx)
{
  for (size_t k = 0; k < ni->n_ops; k++)
    if (!analyse_operand(s, ni, k, ctx))
      return false;
  return true;
}

/* Reads the nodes, their tiles and what each operand needs. The per-node
 * work runs on the context's threads in three phases (iterations; tiles'
 * bytes; operands, which read their producers' iterations and tiles); the
 * errors are those of the serial order: nodes, then tiles in chip order,
 * then each node's tiles and operands. */
static bool collect(sched *s, nc_op *chip, nc_op *fn)
{
  nc_context *ctx = nc_op_get_context(chip);
  s->n = nc_dataflow_num_nodes(fn);
  s->nodes = nc_xcalloc(s->n + 1, sizeof *s->nodes);
  s->i32 = nc_type_integer(ctx, 32, NC_SIGNLESS);
  size_t threads = nc_context_get_num_threads(ctx);
  s->n_ctxs = threads > 1 ? threads : 1;
  s->ctxs = nc_xcalloc(s->n_ctxs, sizeof *s->ctxs);
  for (size_t c = 0; c < s->n_ctxs; c++) {
    s->ctxs[c] = nc_dataflow_isl_ctx_create();
    isl_options_set_on_error(s->ctxs[c], ISL_ON_ERROR_CONTINUE);
  }
  size_t i = 0;
  for (nc_op *n = nc_dataflow_first_node(fn); n; n = nc_dataflow_next_node(n), i++) {
    s->nodes[i].node = n;
    s->nodes[i].to_host = leaves_nodes(n);
  }
  if (for_nodes(s, ctx, s->n, node_iters) < s->n)
    return false;
  size_t order = 0;
  nc_diag_capture *bad_tile = NULL; /* the first tile that names no node or is not placed: its error, held */
  for (nc_op *t = nc_core_chip_first_tile(chip); t && !bad_tile; t = nc_core_tile_next(t), order++) {
    nc_op *n = nc_core_find_node(fn, nc_core_tile_get_node(t));
    if (!n || nc_core_tile_get_x(t) < 0) {
      bad_tile = nc_diag_capture_begin();
      if (!n)
        nc_op_emit_error(t, "core-schedule: the chip's function has no node '%s'", nc_core_tile_get_node(t));
      else
        nc_op_emit_error(t, "core-schedule: the tile is not placed; run core-place first");
      nc_diag_capture_end(bad_tile);
      break;
    }
    node_info *ni = &s->nodes[node_index(s, n)];
    ni->tiles = nc_xrealloc(ni->tiles, (ni->n_tiles + 1) * sizeof *ni->tiles);
    tile_info *ti = &ni->tiles[ni->n_tiles++];
    *ti = (tile_info){t, nc_core_tile_get_x(t), nc_core_tile_get_y(t), NULL, 0, 0, 0, 0, 0, 0, false, order};
    nc_core_tile_get_in_channels(t, &ti->in_lo, &ti->in_hi);
    ti->partial = !nc_core_tile_is_reducer(t);
    nc_core_tile_get_out_channels(t, &ti->clo, &ti->chi);
    nc_core_tile_get_out_rows(t, &ti->rlo, &ti->rhi);
  }
  /* the tiles' bytes; the first failure in chip order, before a bad tile's */
  nodes_job job = {s, node_out_bytes, s->n, nc_xcalloc(s->n + 1, sizeof *job.ok)};
  nc_parallel_for(ctx, s->n_ctxs < s->n ? s->n_ctxs : s->n, nodes_chunk, &job);
  size_t first = s->n;
  for (i = 0; i < s->n; i++)
    if (!job.ok[i] && (first == s->n || s->nodes[i].failed_tile < s->nodes[first].failed_tile))
      first = i;
  for (i = 0; i < s->n; i++) {
    if (i == first)
      nc_diag_capture_flush(s->nodes[i].diags, ctx);
    else
      nc_diag_capture_discard(s->nodes[i].diags);
    s->nodes[i].diags = NULL;
  }
  free(job.ok);
  if (first < s->n || bad_tile) {
    if (bad_tile && first < s->n)
      nc_diag_capture_discard(bad_tile);
    else if (bad_tile)
      nc_diag_capture_flush(bad_tile, ctx);
    return false;
  }
  size_t untiled = s->n; /* the first node without a tile: the operands of the nodes before it are read first */
  for (i = 0; i < s->n && untiled == s->n; i++) {
    node_info *ni = &s->nodes[i];
    if (!ni->n_tiles)
      untiled = i;
    ni->n_ops = nc_op_get_num_operands(ni->node);
    ni->ops = nc_xcalloc(ni->n_ops + 1, sizeof *ni->ops);
  }
  if (for_nodes(s, ctx, untiled, node_operands) < untiled)
    return false;
  if (untiled < s->n)
    return nc_op_emit_error(s->nodes[untiled].node, "core-schedule: node '%s' has no tile on the chip",
                            nc_dataflow_node_get_name(s->nodes[untiled].node));
  return true;
}

static void release(sched *s)
{
  for (size_t i = 0; i < s->n; i++) {
    node_info *ni = &s->nodes[i];
    for (size_t t = 0; t < ni->n_tiles; t++)
      free(ni->tiles[t].out_bytes);
    for (size_t k = 0; k < ni->n_ops; k++) {
      for (size_t ct = 0; ni->ops[k].needed && ct < ni->n_tiles; ct++) {
        bool **nd = ni->ops[k].needed[ct], shared = false;
        for (size_t later = ct + 1; later < ni->n_tiles && !shared; later++)
          shared = ni->ops[k].needed[later] == nd; /* freed with the last tile sharing it */
        for (size_t t = 0; nd && !shared && t < ni->ops[k].n_ptiles; t++)
          free(nd[t]);
        if (!shared)
          free(nd);
      }
      free(ni->ops[k].needed);
      free(ni->ops[k].earliest);
    }
    free(ni->ops);
    free(ni->tiles);
    nc_iters_clear(&ni->iters);
    nc_write_boxes_clear(&ni->boxes);
  }
  free(s->nodes);
  for (size_t c = 0; c < s->n_ctxs; c++)
    nc_dataflow_isl_ctx_destroy(s->ctxs[c]);
  free(s->ctxs);
}

static bool schedule_chip(nc_pass *pass, nc_op *chip)
{
  nc_op *fn = nc_core_chip_lookup_function(chip);
  if (!fn)
    return nc_op_emit_error(chip, "core-schedule: the chip names no function whose nodes its tiles compute "
                                  "(dataflow-to-core sets `function`)");
  sched s = {.pass = pass};
  bool ok = collect(&s, chip, fn);
  if (ok) {
    for (nc_op *t = nc_core_chip_first_tile(chip); t; t = nc_core_tile_next(t))
      nc_core_program_clear(nc_core_tile_get_program(t));
    for (size_t i = 0; i < s.n; i++)
      for (size_t t = 0; t < s.nodes[i].n_tiles; t++)
        schedule_tile(&s, &s.nodes[i], t);
  }
  release(&s);
  return ok;
}

static bool run(nc_pass *pass, nc_op *module)
{
  bool ok = true;
  for (nc_op *op = nc_block_get_first_op(nc_module_get_body(module)); op && ok; op = nc_op_get_next(op))
    if (nc_core_is_chip(op))
      ok = schedule_chip(pass, op);
  return ok;
}

const nc_pass_def nc_core_schedule_pass = {
  .argument = "core-schedule",
  .name = "CoreSchedule",
  .group = "Core",
  .summary = "Write each tile's static program (recv, compute, send) from the isl dependences",
  .description =
    "For every placed tile, in pipeline order: for each iteration i of its node, `core.recv` of every producer "
    "iteration it needs that has not arrived yet, per operand up to the one `earliest` names for i (from each "
    "tile of the producer whose slice holds an element the tile reads, or from the host (-1, -1) for "
    "function arguments), then `core.compute` of i (consecutive computes merge; a row-band tile, `out_rows`, "
    "computes only the iterations writing its rows and receives only what they read, halo rows included), then "
    "`core.send` of i's output to each tile of each node that reads it and, for the function's results, to the host. Replaces existing "
    "programs; deterministic.",
  .anchor = "builtin.module",
  .stats = stats, .n_stats = NC_COUNTOF(stats),
  .run = run,
};
