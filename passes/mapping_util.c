/* mapping_util.c: the machine-independent algorithms of mapping
 * (nc/passes/mapping.h): iteration numbering of isl sets, the output
 * elements of each iteration of a dataflow node, first-fit allocation with
 * lifetimes. They used to live in the core dialect; every target's passes
 * (core grids now, crossbars and BSP tile machines next) need them, so they
 * live here, with no family dialect's types in their signatures.
 */
#include <stdlib.h>
#include <string.h>

#include <isl/aff.h>
#include <isl/ilp.h>
#include <isl/map.h>
#include <isl/options.h>
#include <isl/point.h>
#include <isl/space.h>
#include <isl/val.h>

#include "nc/dialects/core/core.h"
#include "nc/dialects/dataflow/dataflow.h"
#include "nc/dialects/dataflow/deps.h"
#include "nc/passes/mapping.h"

/* isl errors become NULL returns, not aborts, while the scope is alive. */
typedef struct mapping_isl_scope {
  isl_ctx *ctx;
  int saved;
} mapping_isl_scope;

static mapping_isl_scope mapping_isl_scope_enter(isl_ctx *ctx)
{
  mapping_isl_scope s = {ctx, isl_options_get_on_error(ctx)};
  isl_options_set_on_error(ctx, ISL_ON_ERROR_CONTINUE);
  isl_ctx_reset_error(ctx);
  return s;
}

static void mapping_isl_scope_exit(mapping_isl_scope s) { isl_options_set_on_error(s.ctx, s.saved); }

/* --- iterations ------------------------------------------------------------------------------------------ */

#define MAX_POINTS ((size_t)NC_ITERS_MAX_POINTS)

/* The bounding box of `set` in *points (false if unbounded or beyond int64);
 * the extent of dimension `dim` and its lowest value in *extent and *low. */
static bool box_points(isl_set *set, int dim, uint64_t cap, uint64_t *points, uint64_t *extent, int64_t *low)
{
  *points = 1;
  for (int i = 0, n = (int)isl_set_dim(set, isl_dim_set); i < n; i++) {
    isl_val *lo = isl_set_dim_min_val(isl_set_copy(set), i), *hi = isl_set_dim_max_val(isl_set_copy(set), i);
    bool ok = lo && hi && isl_val_is_int(lo) && isl_val_is_int(hi);
    /* extents beyond int64 are refused too */
    int64_t a = ok ? isl_val_get_num_si(lo) : 0, b = ok ? isl_val_get_num_si(hi) : 0;
    ok = ok && isl_val_cmp_si(lo, INT64_MIN / 4) > 0 && isl_val_cmp_si(hi, INT64_MAX / 4) < 0;
    isl_val_free(lo);
    isl_val_free(hi);
    if (!ok)
      return false;
    uint64_t e = (uint64_t)(b - a) + 1;
    if (i == dim)
      *extent = e, *low = a;
    *points = e > cap || *points > cap / e ? cap + 1 : *points * e;
  }
  return true;
}

/* Adds the points of `set` (dims before `dim` fixed) to *total, bounded by
 * boxes: when the whole box is too large, the set is split along `dim` and
 * each slice bounded alone (the wrapped writes of a node, whose box
 * multiplies the iteration and element extents, need this), visiting at
 * most *budget slices. */
static bool fits_split(isl_set *set, int dim, uint64_t cap, uint64_t *total, uint64_t *budget)
{
  uint64_t points, extent = 1;
  int64_t low = 0;
  int n = (int)isl_set_dim(set, isl_dim_set);
  if (!box_points(set, dim < n ? dim : 0, cap, &points, &extent, &low))
    return false;
  if (points <= cap - *total) {
    *total += points;
    return true;
  }
  if (dim + 1 >= n || extent > *budget)
    return false;
  *budget -= extent;
  for (uint64_t v = 0; v < extent; v++) {
    isl_val *at = isl_val_int_from_si(isl_set_get_ctx(set), low + (int64_t)v);
    isl_set *slice = isl_set_fix_val(isl_set_copy(set), isl_dim_set, (unsigned)dim, at);
    bool ok = slice && (isl_set_is_empty(slice) == isl_bool_true || fits_split(slice, dim + 1, cap, total, budget));
    isl_set_free(slice);
    if (!ok)
      return false;
  }
  return true;
}

bool nc_set_fits_enumeration(isl_set *set, uint64_t cap)
{
  if (!set || isl_set_dim(set, isl_dim_param) != 0 || isl_set_is_bounded(set) != isl_bool_true)
    return false;
  if (isl_set_is_empty(set) == isl_bool_true)
    return true;
  uint64_t total = 0, budget = 1 << 16;
  return fits_split(set, 0, cap, &total, &budget);
}

typedef struct collect {
  nc_iters *it;
  size_t cap;
  bool failed;
} collect;

static isl_stat add_point(isl_point *pt, void *user)
{
  collect *c = user;
  nc_iters *it = c->it;
  if (it->n >= MAX_POINTS) {
    c->failed = true;
    isl_point_free(pt);
    return isl_stat_error;
  }
  if (it->n == c->cap) {
    c->cap = c->cap ? 2 * c->cap : 64;
    it->coords = nc_xrealloc(it->coords, c->cap * (size_t)(it->dim ? it->dim : 1) * sizeof *it->coords);
  }
  for (int i = 0; i < it->dim; i++) {
    isl_val *v = isl_point_get_coordinate_val(pt, isl_dim_set, i);
    it->coords[it->n * (size_t)it->dim + (size_t)i] = v ? isl_val_get_num_si(v) : 0;
    isl_val_free(v);
  }
  it->n++;
  isl_point_free(pt);
  return isl_stat_ok;
}

static int cmp_point(const void *a, const void *b, void *dim)
{
  const int64_t *x = a, *y = b;
  for (int i = 0; i < *(int *)dim; i++)
    if (x[i] != y[i])
      return x[i] < y[i] ? -1 : 1;
  return 0;
}

bool nc_iters_from_set(isl_set *set, nc_iters *it)
{
  memset(it, 0, sizeof *it);
  if (!set)
    return false;
  mapping_isl_scope scope = mapping_isl_scope_enter(isl_set_get_ctx(set));
  bool ok = nc_set_fits_enumeration(set, MAX_POINTS);
  it->dim = (int)isl_set_dim(set, isl_dim_set);
  collect c = {it, 0, false};
  if (ok && it->dim >= 0)
    ok = isl_set_foreach_point(set, add_point, &c) == isl_stat_ok && !c.failed;
  mapping_isl_scope_exit(scope);
  if (!ok) {
    nc_iters_clear(it);
    return false;
  }
  if (it->dim > 0)
    qsort_r(it->coords, it->n, (size_t)it->dim * sizeof *it->coords, cmp_point, &it->dim);
  return true;
}

bool nc_iters_of_node(const nc_op *node, isl_ctx *ctx, nc_iters *it)
{
  isl_set *dom = nc_dataflow_node_get_domain(node, ctx);
  bool ok = nc_iters_from_set(dom, it);
  isl_set_free(dom);
  return ok;
}

int64_t nc_iters_rank(const nc_iters *it, const int64_t *coords)
{
  if (it->dim == 0)
    return it->n ? 0 : -1;
  size_t lo = 0, hi = it->n;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    int c = cmp_point(it->coords + mid * (size_t)it->dim, coords, (void *)&it->dim);
    if (c == 0)
      return (int64_t)mid;
    if (c < 0)
      lo = mid + 1;
    else
      hi = mid;
  }
  return -1;
}

void nc_iters_clear(nc_iters *it)
{
  free(it->coords);
  memset(it, 0, sizeof *it);
}

/* --- output elements per iteration ----------------------------------------------------------------------- */

typedef struct counter {
  const nc_iters *it;
  int64_t *counts;
  int64_t coords[NC_MAX_RANK];
  bool failed;
} counter;

static isl_stat count_point(isl_point *pt, void *user)
{
  counter *c = user;
  for (int i = 0; i < c->it->dim; i++) {
    isl_val *v = isl_point_get_coordinate_val(pt, isl_dim_set, i);
    c->coords[i] = v ? isl_val_get_num_si(v) : 0;
    isl_val_free(v);
  }
  isl_point_free(pt);
  int64_t r = nc_iters_rank(c->it, c->coords);
  if (r < 0) {
    c->failed = true;
    return isl_stat_error;
  }
  c->counts[r]++;
  return isl_stat_ok;
}

/* How one offset coordinate of a box is evaluated, read from isl once per
 * relation (not once per iteration and coefficient): from its integer
 * coefficients when it has no integer divisions, by isl when it has, and
 * never (a failure at the first iteration) when a coefficient is not an
 * integer. */
typedef enum { OFF_COEFFS, OFF_ISL, OFF_BAD } off_how;

typedef struct off_coord {
  off_how how;
  int64_t constant, coef[NC_MAX_RANK];
  isl_aff *aff; /* OFF_ISL: the function */
} off_coord;

static off_coord off_coord_of(isl_aff *aff, int n_in)
{
  off_coord o = {OFF_BAD, 0, {0}, NULL};
  if (!aff)
    return o;
  if (isl_aff_dim(aff, isl_dim_div) != 0) {
    o.how = OFF_ISL;
    o.aff = aff;
    return o;
  }
  isl_val *v = isl_aff_get_constant_val(aff);
  bool ok = v && isl_val_is_int(v);
  o.constant = ok ? isl_val_get_num_si(v) : 0;
  isl_val_free(v);
  for (int i = 0; ok && i < n_in; i++) {
    v = isl_aff_get_coefficient_val(aff, isl_dim_in, i);
    ok = v && isl_val_is_int(v);
    o.coef[i] = ok ? isl_val_get_num_si(v) : 0;
    isl_val_free(v);
  }
  isl_aff_free(aff);
  o.how = ok ? OFF_COEFFS : OFF_BAD;
  return o;
}

/* One offset coordinate of a box at an iteration. */
static bool eval_offset(const off_coord *o, const int64_t *coords, int n_in, int64_t *out)
{
  if (o->how == OFF_COEFFS) {
    int64_t r = o->constant;
    for (int i = 0; i < n_in; i++)
      r += o->coef[i] * coords[i];
    *out = r;
    return true;
  }
  if (o->how == OFF_BAD)
    return false;
  isl_aff *aff = o->aff;
  isl_point *pt = isl_point_zero(isl_aff_get_domain_space(aff));
  for (int i = 0; i < n_in; i++)
    pt = isl_point_set_coordinate_val(pt, isl_dim_set, i, isl_val_int_from_si(isl_aff_get_ctx(aff), coords[i]));
  isl_val *v = isl_aff_eval(isl_aff_copy(aff), pt);
  bool ok = v && isl_val_is_int(v);
  *out = ok ? isl_val_get_num_si(v) : 0;
  isl_val_free(v);
  return ok;
}

typedef struct box_walk {
  const nc_iters *it;
  nc_write_boxes *out;
  off_coord off[NC_MAX_RANK]; /* per output coordinate */
  int64_t coords[NC_MAX_RANK];
  bool failed;
} box_walk;

static isl_stat box_point(isl_point *pt, void *user)
{
  box_walk *bw = user;
  for (int i = 0; i < bw->it->dim; i++) {
    isl_val *v = isl_point_get_coordinate_val(pt, isl_dim_set, i);
    bw->coords[i] = v ? isl_val_get_num_si(v) : 0;
    isl_val_free(v);
  }
  isl_point_free(pt);
  int64_t r = nc_iters_rank(bw->it, bw->coords);
  if (r < 0) {
    bw->failed = true;
    return isl_stat_error;
  }
  bw->out->present[r] = true;
  for (int d = 0; d < bw->out->dim; d++) {
    bool ok = eval_offset(&bw->off[d], bw->coords, bw->it->dim,
                          &bw->out->offset[(size_t)r * (size_t)bw->out->dim + (size_t)d]);
    if (!ok) {
      bw->failed = true;
      return isl_stat_error;
    }
  }
  return isl_stat_ok;
}

/* The writes restricted to [lo, hi) of the first output coordinate and
 * [rlo, rhi) of the second (empty ranges: no restriction). */
static isl_map *slice_writes(isl_map *w, int64_t lo, int64_t hi, int64_t rlo, int64_t rhi)
{
  int n_out = w ? (int)isl_map_dim(w, isl_dim_out) : -1;
  if (!w || !((lo < hi && n_out >= 1) || (rlo < rhi && n_out >= 2)))
    return w;
  isl_set *slice = isl_set_universe(isl_space_range(isl_map_get_space(w)));
  if (lo < hi) {
    slice = isl_set_lower_bound_si(slice, isl_dim_set, 0, lo);
    slice = isl_set_upper_bound_si(slice, isl_dim_set, 0, hi - 1);
  }
  if (rlo < rhi && n_out >= 2) {
    slice = isl_set_lower_bound_si(slice, isl_dim_set, 1, rlo);
    slice = isl_set_upper_bound_si(slice, isl_dim_set, 1, rhi - 1);
  }
  return isl_map_intersect_range(w, slice);
}

/* slice_writes for `node`'s slices: channels [lo, hi) and rows [rlo, rhi),
 * rows on the first coordinate for a matmul's [M, N] (nc_core_node_rows_first). */
static isl_map *slice_node_writes(const nc_op *node, isl_map *w, int64_t lo, int64_t hi, int64_t rlo, int64_t rhi)
{
  return nc_core_node_rows_first(node) ? slice_writes(w, rlo, rhi, lo, hi) : slice_writes(w, lo, hi, rlo, rhi);
}

int nc_mapping_write_boxes(const nc_op *node, int64_t lo, int64_t hi, isl_ctx *ctx, nc_write_boxes *out)
{
  return nc_mapping_write_boxes_in(node, lo, hi, 0, 0, ctx, out);
}

/* The boxes of the (sliced) writes w, taken, of a node with iterations it,
 * whose writes have n_out output coordinates: nc_mapping_write_boxes_in's
 * answer, with the node's relation and iterations read once by the caller. */
static int write_boxes(const nc_iters *it, isl_map *w, int n_out, nc_write_boxes *out)
{
  memset(out, 0, sizeof *out);
  isl_multi_aff *off = NULL;
  int answer = w && n_out <= NC_MAX_RANK && it->dim <= NC_MAX_RANK && (int)isl_map_dim(w, isl_dim_in) == it->dim
                   ? nc_deps_map_fixed_box(w, &off, out->size, &out->per_iter)
                   : -1;
  if (answer == 1) {
    out->dim = n_out;
    out->n = it->n;
    out->present = nc_xcalloc(it->n + 1, sizeof *out->present);
    out->offset = nc_xcalloc((it->n + 1) * (size_t)(n_out ? n_out : 1), sizeof *out->offset);
    box_walk bw = {.it = it, .out = out};
    for (int d = 0; d < n_out; d++)
      bw.off[d] = off_coord_of(isl_multi_aff_get_at(off, d), it->dim);
    isl_set *dom = isl_map_domain(isl_map_copy(w));
    if (!dom || isl_set_foreach_point(dom, box_point, &bw) != isl_stat_ok || bw.failed)
      answer = -1;
    isl_set_free(dom);
    for (int d = 0; d < n_out; d++)
      isl_aff_free(bw.off[d].aff);
  }
  isl_multi_aff_free(off);
  isl_map_free(w);
  if (answer != 1)
    nc_write_boxes_clear(out);
  return answer;
}

int nc_mapping_write_boxes_in(const nc_op *node, int64_t lo, int64_t hi, int64_t rlo, int64_t rhi, isl_ctx *ctx,
                              nc_write_boxes *out)
{
  memset(out, 0, sizeof *out);
  nc_iters it;
  if (!nc_iters_of_node(node, ctx, &it))
    return -1;
  mapping_isl_scope scope = mapping_isl_scope_enter(ctx);
  isl_map *w = nc_dataflow_node_get_writes(node, ctx);
  int n_out = w ? (int)isl_map_dim(w, isl_dim_out) : -1;
  int answer = write_boxes(&it, slice_node_writes(node, w, lo, hi, rlo, rhi), n_out, out);
  mapping_isl_scope_exit(scope);
  nc_iters_clear(&it);
  return answer;
}

int nc_mapping_write_boxes_from(const nc_iters *it, isl_map *writes, int64_t lo, int64_t hi, int64_t rlo, int64_t rhi,
                                nc_write_boxes *out)
{
  memset(out, 0, sizeof *out);
  if (!writes)
    return -1;
  mapping_isl_scope scope = mapping_isl_scope_enter(isl_map_get_ctx(writes));
  int n_out = (int)isl_map_dim(writes, isl_dim_out);
  int answer = write_boxes(it, slice_writes(isl_map_copy(writes), lo, hi, rlo, rhi), n_out, out);
  mapping_isl_scope_exit(scope);
  return answer;
}

void nc_write_boxes_clear(nc_write_boxes *b)
{
  free(b->present);
  free(b->offset);
  memset(b, 0, sizeof *b);
}

bool nc_mapping_output_elements(const nc_op *node, int64_t lo, int64_t hi, isl_ctx *ctx, int64_t **counts,
                                  size_t *n)
{
  return nc_mapping_output_elements_in(node, lo, hi, 0, 0, ctx, counts, n);
}

/* The elements each iteration of it writes in the (sliced) writes w, taken,
 * whose unsliced relation has n_out output coordinates: a box's size where
 * the writes are boxes, a count of the points where they are not. */
static bool output_elements(const nc_iters *it, isl_map *w, int n_out, int64_t **counts, size_t *n)
{
  counter c = {it, nc_xcalloc(it->n + 1, sizeof *c.counts), {0}, false};
  nc_write_boxes boxes;
  int boxed = w ? write_boxes(it, isl_map_copy(w), n_out, &boxes) : -1;
  bool ok = boxed == 1;
  if (ok)
    for (size_t i = 0; i < it->n; i++)
      c.counts[i] = boxes.present[i] ? boxes.per_iter : 0;
  nc_write_boxes_clear(&boxes);
  if (boxed == 0) {
    isl_set *pairs = isl_map_wrap(isl_map_copy(w));
    ok = pairs && nc_set_fits_enumeration(pairs, NC_ITERS_MAX_POINTS) &&
         isl_set_foreach_point(pairs, count_point, &c) == isl_stat_ok && !c.failed;
    isl_set_free(pairs);
  }
  isl_map_free(w);
  if (ok) {
    *counts = c.counts;
    *n = it->n;
  } else {
    free(c.counts);
  }
  return ok;
}

bool nc_mapping_output_elements_in(const nc_op *node, int64_t lo, int64_t hi, int64_t rlo, int64_t rhi, isl_ctx *ctx,
                                   int64_t **counts, size_t *n)
{
  *counts = NULL;
  *n = 0;
  nc_iters it;
  if (!nc_iters_of_node(node, ctx, &it))
    return false;
  if (it.dim > NC_MAX_RANK) {
    nc_iters_clear(&it);
    return false;
  }
  mapping_isl_scope scope = mapping_isl_scope_enter(ctx);
  isl_map *w = nc_dataflow_node_get_writes(node, ctx);
  int n_out = w ? (int)isl_map_dim(w, isl_dim_out) : -1;
  bool ok = output_elements(&it, slice_node_writes(node, w, lo, hi, rlo, rhi), n_out, counts, n);
  mapping_isl_scope_exit(scope);
  nc_iters_clear(&it);
  return ok;
}

bool nc_mapping_output_elements_from(const nc_iters *it, isl_map *writes, int64_t lo, int64_t hi, int64_t rlo,
                                     int64_t rhi, int64_t **counts, size_t *n)
{
  *counts = NULL;
  *n = 0;
  if (!writes || it->dim > NC_MAX_RANK)
    return false;
  mapping_isl_scope scope = mapping_isl_scope_enter(isl_map_get_ctx(writes));
  int n_out = (int)isl_map_dim(writes, isl_dim_out);
  bool ok = output_elements(it, slice_writes(isl_map_copy(writes), lo, hi, rlo, rhi), n_out, counts, n);
  mapping_isl_scope_exit(scope);
  return ok;
}

/* --- memory planning ------------------------------------------------------------------------------------- */

bool nc_lifetimes_overlap(nc_lifetime a, nc_lifetime b) { return a.first <= b.last && b.first <= a.last; }

static int cmp_i64(const void *a, const void *b)
{
  int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
  return (x > y) - (x < y);
}

/* Saturating, so that absurd sizes in hand-written IR report an overflow instead of wrapping. */
static int64_t sat_add(int64_t a, int64_t b) { return a > INT64_MAX - b ? INT64_MAX : a + b; }
static int64_t align_up(int64_t v, int64_t a) { return a > 1 ? sat_add(v, a - 1) / a * a : v; }

int64_t nc_mapping_first_fit(size_t n, const int64_t *bytes, const nc_lifetime *life, int64_t alignment,
                             int64_t *offsets)
{
  int64_t used = 0, *cand = nc_xmalloc((n + 1) * sizeof *cand);
  for (size_t i = 0; i < n; i++) {
    size_t nc = 0;
    cand[nc++] = 0;
    for (size_t j = 0; j < i; j++)
      if (nc_lifetimes_overlap(life[i], life[j]))
        cand[nc++] = align_up(sat_add(offsets[j], bytes[j]), alignment);
    qsort(cand, nc, sizeof *cand, cmp_i64);
    for (size_t c = 0; c < nc; c++) {
      int64_t at = cand[c];
      bool clash = false;
      for (size_t j = 0; j < i && !clash; j++)
        clash = nc_lifetimes_overlap(life[i], life[j]) &&
                at < sat_add(offsets[j], bytes[j]) && offsets[j] < sat_add(at, bytes[i]);
      if (!clash) {
        offsets[i] = at;
        break;
      }
    }
    if (sat_add(offsets[i], bytes[i]) > used)
      used = sat_add(offsets[i], bytes[i]);
  }
  free(cand);
  return used;
}
