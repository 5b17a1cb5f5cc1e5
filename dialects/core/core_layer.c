/* core_layer.c: what a dataflow.node needs on a core, shared by the core
 * passes and the targets: its iterations in order (the numbering programs
 * use), the buffers a tile computing a channel slice of it needs, how many
 * output elements each iteration writes, and the memory plan (buffer
 * lifetimes in a program, first-fit allocation).
 */
#include <stdlib.h>
#include <string.h>

#include <isl/map.h>
#include <isl/options.h>
#include <isl/point.h>
#include <isl/space.h>
#include <isl/val.h>

#include "core_internal.h"
#include "nc/dialects/dataflow/dataflow.h"

core_isl_scope core_isl_scope_enter(isl_ctx *ctx)
{
  core_isl_scope s = {ctx, isl_options_get_on_error(ctx)};
  isl_options_set_on_error(ctx, ISL_ON_ERROR_CONTINUE);
  isl_ctx_reset_error(ctx);
  return s;
}

void core_isl_scope_exit(core_isl_scope s) { isl_options_set_on_error(s.ctx, s.saved); }

/* --- iterations ------------------------------------------------------------------------------------------ */

#define MAX_POINTS ((size_t)1 << 26)

typedef struct collect {
  nc_core_iters *it;
  size_t cap;
  bool failed;
} collect;

static isl_stat add_point(isl_point *pt, void *user)
{
  collect *c = user;
  nc_core_iters *it = c->it;
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

bool nc_core_iters_from_set(isl_set *set, nc_core_iters *it)
{
  memset(it, 0, sizeof *it);
  if (!set)
    return false;
  core_isl_scope scope = core_isl_scope_enter(isl_set_get_ctx(set));
  bool ok = isl_set_is_bounded(set) == isl_bool_true && isl_set_dim(set, isl_dim_param) == 0;
  it->dim = (int)isl_set_dim(set, isl_dim_set);
  collect c = {it, 0, false};
  if (ok && it->dim >= 0)
    ok = isl_set_foreach_point(set, add_point, &c) == isl_stat_ok && !c.failed;
  core_isl_scope_exit(scope);
  if (!ok) {
    nc_core_iters_clear(it);
    return false;
  }
  if (it->dim > 0)
    qsort_r(it->coords, it->n, (size_t)it->dim * sizeof *it->coords, cmp_point, &it->dim);
  return true;
}

bool nc_core_iters_of_node(const nc_op *node, isl_ctx *ctx, nc_core_iters *it)
{
  isl_set *dom = nc_dataflow_node_get_domain(node, ctx);
  bool ok = nc_core_iters_from_set(dom, it);
  isl_set_free(dom);
  return ok;
}

int64_t nc_core_iters_rank(const nc_core_iters *it, const int64_t *coords)
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

void nc_core_iters_clear(nc_core_iters *it)
{
  free(it->coords);
  memset(it, 0, sizeof *it);
}

/* --- output elements per iteration ----------------------------------------------------------------------- */

int64_t nc_core_node_get_out_channels(const nc_op *node)
{
  const char *kind = nc_dataflow_node_get_kind(node);
  if (!strcmp(kind, "flatten") || !strcmp(kind, "reshape") || nc_op_get_num_results(node) != 1)
    return 0;
  int64_t dims[NC_MAX_RANK];
  int n = nc_dataflow_tensor_coords(nc_value_get_type(nc_op_get_result(node, 0)), dims);
  return n >= 1 ? dims[0] : 0;
}

typedef struct counter {
  const nc_core_iters *it;
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
  int64_t r = nc_core_iters_rank(c->it, c->coords);
  if (r < 0) {
    c->failed = true;
    return isl_stat_error;
  }
  c->counts[r]++;
  return isl_stat_ok;
}

bool nc_core_node_output_elements(const nc_op *node, int64_t lo, int64_t hi, isl_ctx *ctx, int64_t **counts,
                                  size_t *n)
{
  *counts = NULL;
  *n = 0;
  nc_core_iters it;
  if (!nc_core_iters_of_node(node, ctx, &it))
    return false;
  if (it.dim > NC_MAX_RANK) {
    nc_core_iters_clear(&it);
    return false;
  }
  core_isl_scope scope = core_isl_scope_enter(ctx);
  isl_map *w = nc_dataflow_node_get_writes(node, ctx);
  if (w && lo < hi && isl_map_dim(w, isl_dim_out) >= 1) {
    isl_set *slice = isl_set_universe(isl_space_range(isl_map_get_space(w)));
    slice = isl_set_lower_bound_si(slice, isl_dim_set, 0, lo);
    slice = isl_set_upper_bound_si(slice, isl_dim_set, 0, hi - 1);
    w = isl_map_intersect_range(w, slice);
  }
  counter c = {&it, nc_xcalloc(it.n + 1, sizeof *c.counts), {0}, false};
  isl_set *pairs = w ? isl_map_wrap(w) : NULL;
  bool ok = pairs && isl_set_is_bounded(pairs) == isl_bool_true &&
            isl_set_foreach_point(pairs, count_point, &c) == isl_stat_ok && !c.failed;
  isl_set_free(pairs);
  core_isl_scope_exit(scope);
  if (ok) {
    *counts = c.counts;
    *n = it.n;
  } else {
    free(c.counts);
  }
  nc_core_iters_clear(&it);
  return ok;
}

/* --- buffers --------------------------------------------------------------------------------------------- */

static unsigned type_bits(const nc_type *t)
{
  unsigned w = t ? nc_type_get_width(t) : 0;
  return w ? w : 8;
}

int64_t nc_core_bytes(int64_t elements, const nc_type *elt)
{
  int64_t bits = type_bits(elt);
  if (elements > (INT64_MAX - 7) / bits)
    return INT64_MAX;
  return (elements * bits + 7) / 8;
}

/* Which operand of a layer op holds its weights, or -1. */
static int weight_operand(const nc_op *layer)
{
  static const char *const at1[] = {"graph.conv", "graph.conv_integer", "graph.conv_transpose", "graph.matmul",
                                    "graph.matmul_integer", "graph.gemm"};
  for (size_t i = 0; layer && i < NC_COUNTOF(at1); i++)
    if (nc_op_is(layer, at1[i]))
      return 1;
  if (layer && (nc_op_is(layer, "graph.qlinear_conv") || nc_op_is(layer, "graph.qlinear_matmul")))
    return 3;
  return -1;
}

static bool feeds(nc_value *v, const nc_op *user, int operand)
{
  for (nc_use *u = nc_value_get_first_use(v); u; u = nc_use_get_next(u))
    if (nc_use_get_owner(u) == user && (int)nc_use_get_operand_index(u) == operand)
      return true;
  return false;
}

/* The part of `elements` for a slice of `s` of `c` channels: per-channel
 * data (a multiple of c elements) is sliced, anything else is kept whole. */
static int64_t sliced(int64_t elements, int64_t s, int64_t c)
{
  return c > 0 && s > 0 && elements >= c && elements % c == 0 ? elements / c * s : elements;
}

static int64_t max_of(const int64_t *v, size_t n)
{
  int64_t m = 0;
  for (size_t i = 0; i < n; i++)
    if (v[i] > m)
      m = v[i];
  return m;
}

bool nc_core_node_buffers(const nc_op *node, int64_t lo, int64_t hi, isl_ctx *ctx, nc_core_buffer_spec **specs,
                          size_t *n, char *err, size_t errlen)
{
  const char *name = nc_dataflow_node_get_name(node);
  size_t n_in = nc_op_get_num_operands(node);
  int64_t c = nc_core_node_get_out_channels(node), s = lo < hi ? hi - lo : 0;
  *specs = NULL;
  *n = 0;
  if (lo < hi && (c <= 0 || lo < 0 || hi > c)) {
    snprintf(err, errlen, "node '%s' has no output channels [%lld, %lld)", name, (long long)lo, (long long)hi);
    return false;
  }
  nc_attr *buf = nc_op_get_attr_str(node, "buffer_elements");
  if (!buf || nc_attr_get_kind(buf) != NC_ATTR_DENSE_ARRAY || nc_attr_get_num_elements(buf) != n_in) {
    snprintf(err, errlen, "node '%s' has no buffer_elements: run dataflow-deps first", name);
    return false;
  }
  int64_t *counts;
  size_t n_iters;
  if (!nc_core_node_output_elements(node, lo, hi, ctx, &counts, &n_iters)) {
    snprintf(err, errlen, "node '%s': cannot enumerate its iterations and writes with isl", name);
    return false;
  }
  int64_t per_iter = max_of(counts, n_iters);
  free(counts);

  nc_op *layer = nc_dataflow_node_get_layer_op(node);
  int w_operand = weight_operand(layer);
  int64_t weights = 0, bias = 0;
  nc_block *b = nc_dataflow_node_get_body(node);
  for (nc_op *op = b ? nc_block_get_first_op(b) : NULL; op; op = nc_op_get_next(op)) {
    if (nc_op_is(op, "graph.constant") && nc_op_get_num_results(op) == 1) {
      nc_value *v = nc_op_get_result(op, 0);
      nc_type *t = nc_value_get_type(v);
      int64_t elts = nc_type_get_num_elements(t);
      if (elts < 0)
        continue;
      int64_t bytes = nc_core_bytes(sliced(elts, s, c), nc_type_get_element_type(t));
      if (w_operand >= 0 && feeds(v, layer, w_operand))
        weights += bytes;
      else
        bias += bytes;
    } else if (nc_op_is(op, "graph.requantize")) {
      nc_attr *m = nc_op_get_attr_str(op, "multiplier");
      int64_t entries = m ? (int64_t)nc_attr_get_num_elements(m) : 1;
      bias += 8 * sliced(entries, s, c); /* an i32 multiplier and an i32 shift each */
    }
  }

  nc_core_buffer_spec *v = nc_xcalloc(n_in + 4, sizeof *v);
  size_t k = 0;
  if (weights > 0)
    v[k++] = (nc_core_buffer_spec){"weights", NC_CORE_BUFFER_WEIGHTS, weights};
  if (bias > 0)
    v[k++] = (nc_core_buffer_spec){"bias", NC_CORE_BUFFER_BIAS, bias};
  for (size_t i = 0; i < n_in; i++) {
    nc_type *t = nc_value_get_type(nc_op_get_operand(node, i));
    int64_t bytes = nc_core_bytes(nc_attr_dense_array_get_int(buf, i), nc_type_get_element_type(t));
    if (bytes > 0) {
      v[k] = (nc_core_buffer_spec){"", NC_CORE_BUFFER_INPUT, bytes};
      snprintf(v[k].name, sizeof v[k].name, "in%zu", i);
      k++;
    }
  }
  nc_type *out_elt = nc_type_get_element_type(nc_value_get_type(nc_op_get_result(node, 0)));
  if (per_iter > 0)
    v[k++] = (nc_core_buffer_spec){"out", NC_CORE_BUFFER_OUTPUT, nc_core_bytes(per_iter, out_elt)};
  if (layer && nc_op_get_num_results(layer) >= 1 && per_iter > 0) {
    nc_type *acc_elt = nc_type_get_element_type(nc_value_get_type(nc_op_get_result(layer, 0)));
    if (type_bits(acc_elt) > type_bits(out_elt))
      v[k++] = (nc_core_buffer_spec){"acc", NC_CORE_BUFFER_SCRATCH, nc_core_bytes(per_iter, acc_elt)};
  }
  *specs = v;
  *n = k;
  return true;
}

/* --- memory planning ------------------------------------------------------------------------------------- */

void nc_core_tile_buffer_lifetimes(const nc_op *tile, nc_core_lifetime *out)
{
  nc_op *program = nc_core_tile_get_program(tile);
  int64_t size = (int64_t)nc_core_program_get_size(program);
  int64_t first_compute = -1, last_compute = -1, last_send = -1, pos = 0;
  nc_block *body = program ? nc_core_program_get_body(program) : NULL;
  for (nc_op *op = body ? nc_block_get_first_op(body) : NULL; op; op = nc_op_get_next(op), pos++) {
    nc_core_instr in;
    if (!nc_core_instr_get(op, &in))
      continue;
    if (in.kind == NC_CORE_COMPUTE) {
      if (first_compute < 0)
        first_compute = pos;
      last_compute = pos;
    } else if (in.kind == NC_CORE_SEND) {
      last_send = pos;
    }
  }
  size_t i = 0;
  for (nc_op *b = nc_core_tile_first_buffer(tile); b; b = nc_core_buffer_next(b), i++) {
    nc_core_lifetime l = {0, size};
    nc_core_buffer_kind k = nc_core_buffer_get_kind(b);
    if (first_compute >= 0 && k == NC_CORE_BUFFER_OUTPUT)
      l = (nc_core_lifetime){first_compute, last_send > last_compute ? last_send : last_compute};
    else if (first_compute >= 0 && k == NC_CORE_BUFFER_SCRATCH)
      l = (nc_core_lifetime){first_compute, last_compute};
    out[i] = l;
  }
}

static int cmp_i64(const void *a, const void *b)
{
  int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
  return (x > y) - (x < y);
}

/* Saturating, so that absurd sizes in hand-written IR report an overflow instead of wrapping. */
static int64_t sat_add(int64_t a, int64_t b) { return a > INT64_MAX - b ? INT64_MAX : a + b; }
static int64_t align_up(int64_t v, int64_t a) { return a > 1 ? sat_add(v, a - 1) / a * a : v; }

int64_t nc_core_first_fit(size_t n, const int64_t *bytes, const nc_core_lifetime *life, int64_t alignment,
                          int64_t *offsets)
{
  int64_t used = 0, *cand = nc_xmalloc((n + 1) * sizeof *cand);
  for (size_t i = 0; i < n; i++) {
    size_t nc = 0;
    cand[nc++] = 0;
    for (size_t j = 0; j < i; j++)
      if (life[j].first <= life[i].last && life[i].first <= life[j].last)
        cand[nc++] = align_up(sat_add(offsets[j], bytes[j]), alignment);
    qsort(cand, nc, sizeof *cand, cmp_i64);
    for (size_t c = 0; c < nc; c++) {
      int64_t at = cand[c];
      bool clash = false;
      for (size_t j = 0; j < i && !clash; j++)
        clash = life[j].first <= life[i].last && life[i].first <= life[j].last &&
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
