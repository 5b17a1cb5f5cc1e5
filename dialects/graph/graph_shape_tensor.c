/* graph_shape_tensor.c: shape inference and checks of the elementwise ops
 * (numpy broadcasting) and the data-movement ops: reductions, concat, split,
 * slice, the reshape family, transpose and pad.
 *
 * Dims stay dynamic (`?`) exactly when they depend on a dynamic input dim.
 * Where the reference kernels have a shape function and the input is static,
 * its answer is the one used (so the IR agrees with the interpreter), after
 * checks of our own that give MLIR-style messages.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "graph_internal.h"

static bool check_bool_attr(gx *g, const char *name)
{
  int64_t v = gx_int(g, name, 0);
  if (v != 0 && v != 1)
    return gx_error(g, "expects '%s' to be 0 or 1, got %lld", name, (long long)v);
  return true;
}

static bool fits_kernels(size_t rank) { return rank <= NC_TENSOR_MAX_RANK; }

/* Normalises a list of axes into mark[] (distinct, in [-rank, rank)). */
static bool mark_axes(gx *g, const char *name, const int64_t *axes, size_t n, size_t rank, bool *mark)
{
  for (size_t i = 0; i < rank; i++)
    mark[i] = false;
  int64_t r = (int64_t)rank;
  for (size_t i = 0; i < n; i++) {
    if (axes[i] < -r || axes[i] >= r)
      return gx_error(g, "expects '%s' entries to be in [%lld, %lld], got %lld", name, (long long)-r,
                      (long long)(r - 1), (long long)axes[i]);
    size_t a = (size_t)(axes[i] < 0 ? axes[i] + r : axes[i]);
    if (mark[a])
      return gx_error(g, "expects '%s' to have distinct entries, dim %zu repeats", name, a);
    mark[a] = true;
  }
  return true;
}

/* --- elementwise ------------------------------------------------------------------------------------------ */

static bool broadcast_all(gx *g, size_t first, size_t n, nc_type *elt)
{
  int64_t out[NC_MAX_RANK], tmp[NC_MAX_RANK];
  size_t r = g_rank(g->in[first]);
  memcpy(out, g_dims(g->in[first]), r * sizeof *out);
  for (size_t i = first + 1; i < first + n; i++) {
    size_t ri = g_rank(g->in[i]), rr;
    if (!g_broadcast(r, out, ri, g_dims(g->in[i]), &rr, tmp)) {
      char s1[160], s2[160];
      return gx_error(g, "expects broadcast-compatible operands, got %s and %s (operand #%zu)",
                      g_shape_str(s1, sizeof s1, r, out), g_shape_str(s2, sizeof s2, ri, g_dims(g->in[i])), i);
    }
    r = rr;
    memcpy(out, tmp, r * sizeof *out);
  }
  gx_set(g, 0, r, out, elt);
  return true;
}

static bool check_clip_bound(gx *g, const char *name, bool is_float)
{
  nc_attr *a = gx_attr(g, name);
  if (!a)
    return true;
  bool f = nc_attr_get_kind(a) == NC_ATTR_FLOAT;
  if (f != is_float)
    return gx_error(g, "expects '%s' to be %s attribute for a tensor of %s", name, is_float ? "an f32" : "an i64",
                    is_float ? "floats" : "integers");
  return true;
}

bool graph_infer_elementwise(gx *g)
{
  nc_type *x = g->in[0];
  switch (g->kind) {
  case G_ADD: case G_SUB: case G_MUL: case G_DIV:
    return g_same_elt(g, 0, 1) && broadcast_all(g, 0, 2, g_elt(x));
  case G_POW:
    return broadcast_all(g, 0, 2, g_elt(x));
  case G_MAX: case G_MIN: case G_SUM: case G_MEAN:
    for (size_t i = 1; i < g->n_in; i++)
      if (!g_same_elt(g, 0, i))
        return false;
    return broadcast_all(g, 0, g->n_in, g_elt(x));
  case G_PRELU: {
    nc_type *s = g->in[1];
    size_t rx = g_rank(x), rs = g_rank(s);
    const int64_t *xd = g_dims(x), *sd = g_dims(s);
    bool ok = rs <= rx;
    for (size_t k = 0; ok && k < rs; k++) {
      int64_t a = xd[rx - 1 - k], b = sd[rs - 1 - k];
      ok = b == 1 || g_dyn(a) || g_dyn(b) || a == b;
    }
    if (!ok) {
      char s1[160], s2[160];
      return gx_error(g, "expects slope (%s) to broadcast unidirectionally to the input (%s)",
                      g_shape_str(s1, sizeof s1, rs, sd), g_shape_str(s2, sizeof s2, rx, xd));
    }
    if (!g_same_elt(g, 0, 1))
      return false;
    g->out[0] = x;
    return true;
  }
  case G_CLIP: {
    bool is_float = nc_type_is_float(g_elt(x));
    if (!check_clip_bound(g, "min", is_float) || !check_clip_bound(g, "max", is_float))
      return false;
    g->out[0] = x;
    return true;
  }
  case G_SOFTMAX: case G_LOG_SOFTMAX: {
    size_t axis;
    if (g_rank(x) == 0)
      return gx_error(g, "expects an input of rank at least 1");
    if (!g_axis(g, "'axis'", gx_int(g, "axis", -1), g_rank(x), false, &axis))
      return false;
    g->out[0] = x;
    return true;
  }
  default: /* unary */
    g->out[0] = x;
    return true;
  }
}

/* --- reductions --------------------------------------------------------------------------------------------- */

bool graph_infer_reduce(gx *g)
{
  nc_type *x = g->in[0];
  size_t rank = g_rank(x), n;
  const int64_t *axes = gx_ints(g, "axes", &n), *xd = g_dims(x);
  bool keep = gx_int(g, "keepdims", 1), noop = gx_int(g, "noop_with_empty_axes", 0), red[NC_MAX_RANK];
  if (!check_bool_attr(g, "keepdims") || !check_bool_attr(g, "noop_with_empty_axes") ||
      !mark_axes(g, "axes", axes, n, rank, red))
    return false;
  int64_t out[NC_MAX_RANK];
  size_t r = 0;
  for (size_t i = 0; i < rank; i++) {
    bool reduced = n ? red[i] : !noop;
    if (!reduced)
      out[r++] = xd[i];
    else if (keep)
      out[r++] = 1;
  }
  if (nc_type_has_static_shape(x) && fits_kernels(rank)) {
    nc_reduce_params p = {(int)n, axes, keep, noop};
    int64_t ks[NC_TENSOR_MAX_RANK];
    int kr;
    char err[160];
    if (!nc_kernel_reduce_shape(&p, (int)rank, xd, &kr, ks, err, sizeof err))
      return gx_error(g, "%s", g_kernel_msg(err));
    memcpy(out, ks, (size_t)kr * sizeof *out);
    r = (size_t)kr;
  }
  gx_set(g, 0, r, out, g_elt(x));
  return true;
}

/* --- concat and split ----------------------------------------------------------------------------------------- */

bool graph_concat_shape(gx *g, bool same_elt, int64_t out[NC_MAX_RANK], size_t *rank_out)
{
  nc_type *x = g->in[0];
  size_t rank = g_rank(x), axis;
  if (rank == 0)
    return gx_error(g, "expects operands of rank at least 1");
  if (!g_axis(g, "'axis'", gx_int(g, "axis", 0), rank, false, &axis))
    return false;
  memcpy(out, g_dims(x), rank * sizeof *out);
  for (size_t i = 1; i < g->n_in; i++) {
    nc_type *t = g->in[i];
    if (same_elt && !g_same_elt(g, 0, i))
      return false;
    if (g_rank(t) != rank)
      return gx_error(g, "expects all operands to have rank %zu like operand #0, operand #%zu has rank %zu", rank, i,
                      g_rank(t));
    const int64_t *d = g_dims(t);
    for (size_t k = 0; k < rank; k++) {
      if (k == axis) {
        if (!g_dyn(out[k]) && !g_dyn(d[k]) && out[k] > INT64_MAX - d[k])
          return gx_error(g, "expects the concatenated dim to fit in 64 bits");
        out[k] = g_dyn(out[k]) || g_dyn(d[k]) ? NC_DYNAMIC : out[k] + d[k];
      } else if (g_dyn(out[k])) {
        out[k] = d[k];
      } else if (!g_dyn(d[k]) && d[k] != out[k]) {
        return gx_error(g, "expects operand #%zu to match the other operands in dim %zu (%lld vs %lld)", i, k,
                        (long long)d[k], (long long)out[k]);
      }
    }
  }
  *rank_out = rank;
  return true;
}

bool graph_infer_concat(gx *g)
{
  int64_t out[NC_MAX_RANK];
  size_t rank;
  if (!graph_concat_shape(g, true, out, &rank))
    return false;
  gx_set(g, 0, rank, out, g_elt(g->in[0]));
  return true;
}

bool graph_infer_split(gx *g)
{
  nc_type *x = g->in[0];
  size_t rank = g_rank(x), axis, n;
  if (g->n_out == 0)
    return gx_error(g, "needs its number of results to infer their types");
  if (rank == 0)
    return gx_error(g, "expects an input of rank at least 1");
  if (!g_axis(g, "'axis'", gx_int(g, "axis", 0), rank, false, &axis))
    return false;
  const int64_t *split = gx_ints(g, "split", &n);
  int64_t dim = g_dims(x)[axis];
  if (split) {
    if (n != g->n_out)
      return gx_error(g, "expects 'split' to have one entry per result (%zu), got %zu", g->n_out, n);
    int64_t sum = 0;
    for (size_t i = 0; i < n; i++) {
      if (split[i] < 0)
        return gx_error(g, "expects 'split' entries to be non-negative, got %lld", (long long)split[i]);
      sum = g_sat_add(sum, split[i]);
    }
    if (!g_dyn(dim) && sum != dim)
      return gx_error(g, "expects 'split' to sum to the split dim (%lld), got %lld", (long long)dim, (long long)sum);
  }
  int64_t *sizes = nc_xcalloc(g->n_out + 1, sizeof *sizes), shape[NC_MAX_RANK];
  bool ok = true;
  if (!g_dyn(dim) && dim > INT64_MAX - (int64_t)g->n_out)
    ok = gx_error(g, "expects a split dim below 2^63 - %zu", g->n_out);
  else if (!g_dyn(dim) && fits_kernels(rank)) {
    char err[160];
    int64_t xs[NC_TENSOR_MAX_RANK];
    for (size_t i = 0; i < rank; i++)
      xs[i] = g_dyn(g_dims(x)[i]) ? 1 : g_dims(x)[i];
    if (!nc_kernel_split_sizes((int64_t)axis, (int)rank, xs, (int)g->n_out, split, sizes, err, sizeof err))
      ok = gx_error(g, "%s", g_kernel_msg(err));
  } else {
    for (size_t i = 0; i < g->n_out; i++)
      sizes[i] = split ? split[i] : NC_DYNAMIC;
  }
  for (size_t i = 0; ok && i < g->n_out; i++) {
    memcpy(shape, g_dims(x), rank * sizeof *shape);
    shape[axis] = sizes[i];
    gx_set(g, i, rank, shape, g_elt(x));
  }
  free(sizes);
  return ok;
}

/* --- slice --------------------------------------------------------------------------------------------------- */

bool graph_infer_slice(gx *g)
{
  nc_type *x = g->in[0];
  size_t rank = g_rank(x), ns, ne, na, nst;
  const int64_t *starts = gx_ints(g, "starts", &ns), *ends = gx_ints(g, "ends", &ne);
  const int64_t *axes = gx_ints(g, "axes", &na), *steps = gx_ints(g, "steps", &nst);
  if (ne != ns)
    return gx_error(g, "expects 'starts' and 'ends' to have the same number of entries, got %zu and %zu", ns, ne);
  if (axes && na != ns)
    return gx_error(g, "expects 'axes' to have one entry per start (%zu), got %zu", ns, na);
  if (steps && nst != ns)
    return gx_error(g, "expects 'steps' to have one entry per start (%zu), got %zu", ns, nst);
  if (ns > rank)
    return gx_error(g, "expects at most one start per input dim (%zu), got %zu", rank, ns);
  bool mark[NC_MAX_RANK];
  if (axes && !mark_axes(g, "axes", axes, na, rank, mark))
    return false;
  int64_t out[NC_MAX_RANK];
  memcpy(out, g_dims(x), rank * sizeof *out);
  for (size_t i = 0; i < ns; i++) {
    size_t a = axes ? (size_t)(axes[i] < 0 ? axes[i] + (int64_t)rank : axes[i]) : i;
    int64_t step = steps ? steps[i] : 1;
    if (step == 0)
      return gx_error(g, "expects 'steps' entries to be nonzero");
    if (g_dyn(out[a]))
      continue;
    int64_t ax = 0, len;
    nc_slice_params p = {1, &starts[i], &ends[i], &ax, &step};
    char err[160];
    if (!nc_kernel_slice_shape(&p, 1, &out[a], &len, err, sizeof err))
      return gx_error(g, "%s", g_kernel_msg(err));
    out[a] = len;
  }
  gx_set(g, 0, rank, out, g_elt(x));
  return true;
}

/* --- reshape, flatten, squeeze, unsqueeze ------------------------------------------------------------------------ */

static bool infer_reshape(gx *g)
{
  nc_type *x = g->in[0];
  size_t rank = g_rank(x), n;
  const int64_t *shape = gx_ints(g, "shape", &n), *xd = g_dims(x);
  bool allowzero = gx_int(g, "allowzero", 0);
  if (!check_bool_attr(g, "allowzero"))
    return false;
  if (n > NC_MAX_RANK)
    return gx_error(g, "expects at most %d entries in 'shape', got %zu", NC_MAX_RANK, n);
  int64_t out[NC_MAX_RANK], known = 1;
  int infer = -1;
  bool has_zero = false, dyn = false;
  for (size_t i = 0; i < n; i++) {
    int64_t d = shape[i];
    if (d < -1)
      return gx_error(g, "expects 'shape' entries to be at least -1, got %lld", (long long)d);
    if (d == -1) {
      if (infer >= 0)
        return gx_error(g, "expects at most one -1 in 'shape'");
      infer = (int)i;
      continue;
    }
    if (d == 0 && !allowzero) {
      if (i >= rank)
        return gx_error(g, "expects 'shape' entry %zu (0, copying the input dim) to index an input dim (rank %zu)", i,
                        rank);
      d = xd[i];
    }
    out[i] = d;
    has_zero |= d == 0;
    if (g_dyn(d))
      dyn = true;
    else if (d && known > INT64_MAX / d)
      return gx_error(g, "expects 'shape' to have fewer than 2^63 elements");
    else
      known *= d;
  }
  if (infer >= 0 && allowzero && has_zero)
    return gx_error(g, "expects no -1 in 'shape' together with a 0 under 'allowzero'");
  int64_t total = nc_type_get_num_elements(x);
  if (infer >= 0) {
    /* -1 is computable when every dynamic input dim is copied by a 0 at
     * its own index: the unknown factors then cancel */
    bool cancels = !allowzero;
    int64_t in_known = 1;
    for (size_t i = 0; i < rank && cancels; i++) {
      bool copied = i < n && shape[i] == 0;
      if (g_dyn(xd[i]))
        cancels = copied;
      else if (!copied && xd[i] && in_known > INT64_MAX / xd[i])
        cancels = false;
      else if (!copied)
        in_known *= xd[i];
    }
    int64_t out_known = 1;
    for (size_t i = 0; i < n && cancels; i++)
      if ((int)i != infer && !(shape[i] == 0 && i < rank))
        out_known *= out[i];
    out[infer] = cancels && out_known && in_known % out_known == 0 ? in_known / out_known : NC_DYNAMIC;
  }
  if (total >= 0 && !dyn) {
    bool fits = infer >= 0 ? known && total % known == 0 : known == total;
    if (!fits) {
      char s1[160], s2[160];
      return gx_error(g, "expects 'shape' %s to hold the input's %lld elements (input shape %s)",
                      g_ints_str(s1, sizeof s1, n, shape), (long long)total, g_shape_str(s2, sizeof s2, rank, xd));
    }
  }
  if (total >= 0 && fits_kernels(rank) && fits_kernels(n)) {
    int64_t ks[NC_TENSOR_MAX_RANK];
    char err[160];
    if (!nc_kernel_reshape_shape((int)rank, xd, (int)n, shape, allowzero, ks, err, sizeof err))
      return gx_error(g, "%s", g_kernel_msg(err));
    memcpy(out, ks, n * sizeof *out);
  }
  gx_set(g, 0, n, out, g_elt(x));
  return true;
}

static int64_t dim_product(const int64_t *d, size_t n)
{
  int64_t p = 1;
  for (size_t i = 0; i < n; i++) {
    if (g_dyn(d[i]) || (d[i] && p > INT64_MAX / d[i]))
      return NC_DYNAMIC; /* unknown (or beyond int64, which no tensor reaches) */
    p *= d[i];
  }
  return p;
}

bool graph_infer_reshape(gx *g)
{
  nc_type *x = g->in[0];
  size_t rank = g_rank(x), n, r = 0;
  const int64_t *xd = g_dims(x);
  int64_t out[NC_MAX_RANK];
  switch (g->kind) {
  case G_RESHAPE:
    return infer_reshape(g);
  case G_FLATTEN: {
    size_t axis;
    if (!g_axis(g, "'axis'", gx_int(g, "axis", 1), rank, true, &axis))
      return false;
    out[0] = dim_product(xd, axis);
    out[1] = dim_product(xd + axis, rank - axis);
    gx_set(g, 0, 2, out, g_elt(x));
    return true;
  }
  case G_SQUEEZE: {
    const int64_t *axes = gx_ints(g, "axes", &n);
    bool drop[NC_MAX_RANK];
    if (!mark_axes(g, "axes", axes, n, rank, drop))
      return false;
    for (size_t i = 0; i < rank; i++) {
      if (axes && drop[i] && !g_dyn(xd[i]) && xd[i] != 1)
        return gx_error(g, "expects dim %zu to have size 1 to squeeze it, got %lld", i, (long long)xd[i]);
      if (!(axes ? drop[i] : xd[i] == 1))
        out[r++] = xd[i];
    }
    gx_set(g, 0, r, out, g_elt(x));
    return true;
  }
  default: { /* unsqueeze */
    const int64_t *axes = gx_ints(g, "axes", &n);
    if (rank + n > NC_MAX_RANK)
      return gx_error(g, "expects a result rank of at most %d, got %zu", NC_MAX_RANK, rank + n);
    bool ins[NC_MAX_RANK];
    if (!mark_axes(g, "axes", axes, n, rank + n, ins))
      return false;
    for (size_t i = 0, j = 0; i < rank + n; i++)
      out[i] = ins[i] ? 1 : xd[j++];
    gx_set(g, 0, rank + n, out, g_elt(x));
    return true;
  }
  }
}

/* --- transpose and pad ------------------------------------------------------------------------------------------ */

bool graph_infer_transpose(gx *g)
{
  nc_type *x = g->in[0];
  size_t rank = g_rank(x), n;
  const int64_t *perm = gx_ints(g, "perm", &n), *xd = g_dims(x);
  int64_t out[NC_MAX_RANK];
  bool seen[NC_MAX_RANK] = {false}, ok = !perm || n == rank;
  for (size_t i = 0; ok && i < rank; i++) {
    int64_t p = perm ? perm[i] : (int64_t)(rank - 1 - i);
    ok = p >= 0 && p < (int64_t)rank && !seen[p];
    if (ok) {
      seen[p] = true;
      out[i] = xd[p];
    }
  }
  if (!ok) {
    char s[200];
    return gx_error(g, "expects 'perm' to be a permutation of [0, %zu), got %s", rank,
                    g_ints_str(s, sizeof s, n, perm));
  }
  gx_set(g, 0, rank, out, g_elt(x));
  return true;
}

bool graph_infer_pad(gx *g)
{
  nc_type *x = g->in[0];
  size_t rank = g_rank(x), n;
  const int64_t *pads = gx_ints(g, "pads", &n), *xd = g_dims(x);
  const char *mode = gx_str(g, "mode", "constant");
  nc_pad_mode m;
  if (!nc_pad_mode_from_string(mode, &m))
    return gx_error(g, "expects 'mode' to be one of constant, reflect, edge, wrap, got \"%s\"", mode);
  if (n != 2 * rank)
    return gx_error(g, "expects 'pads' to have %zu entries (begin and end per dim), got %zu", 2 * rank, n);
  int64_t out[NC_MAX_RANK];
  for (size_t i = 0; i < rank; i++) {
    if (g_dyn(xd[i])) {
      out[i] = NC_DYNAMIC;
      continue;
    }
    int64_t p2[2] = {pads[i], pads[rank + i]};
    nc_pad_params p = {m, 0, NULL, p2};
    char err[160];
    if (!nc_kernel_pad_shape(&p, 1, &xd[i], &out[i], err, sizeof err))
      return gx_error(g, "expects pads (%lld, %lld) to leave a valid size in dim %zu (of size %lld)",
                      (long long)p2[0], (long long)p2[1], i, (long long)xd[i]);
  }
  gx_set(g, 0, rank, out, g_elt(x));
  return true;
}

bool graph_infer_resize(gx *g)
{
  nc_type *x = g->in[0];
  size_t rank = g_rank(x), n;
  const int64_t *sizes = gx_ints(g, "sizes", &n);
  if (n != rank)
    return gx_error(g, "expects 'sizes' to have %zu entries (one per dim), got %zu", rank, n);
  const char *cm = gx_str(g, "coordinate_transformation_mode", "half_pixel");
  const char *nm = gx_str(g, "nearest_mode", "round_prefer_floor");
  const char *mode = gx_str(g, "mode", "nearest");
  int64_t one, abd[3];
  char err[200];
  if (strcmp(mode, "nearest") && strcmp(mode, "linear"))
    return gx_error(g, "expects 'mode' to be nearest or linear, got \"%s\"", mode);
  if (!strcmp(mode, "linear") && gx_attr(g, "nearest_mode"))
    return gx_error(g, "has a 'nearest_mode', which only mode nearest uses");
  if (!strcmp(mode, "linear") ? !nc_kernel_resize_linear_coord(cm, 1, 1, abd, err, sizeof err)
                              : !nc_kernel_resize_nearest_map(cm, nm, 1, 1, &one, err, sizeof err))
    return gx_error(g, "%s", err + strlen("resize: "));
  for (size_t i = 0; i < rank; i++)
    if (sizes[i] < 1)
      return gx_error(g, "expects positive 'sizes', got %lld in dim %zu", (long long)sizes[i], i);
  gx_set(g, 0, rank, sizes, g_elt(x));
  return true;
}

bool graph_infer_channel_shuffle(gx *g)
{
  nc_type *x = g->in[0];
  int64_t group = gx_int(g, "group", 0);
  if (g_rank(x) < 2)
    return gx_error(g, "expects an input of rank >= 2, got rank %zu", g_rank(x));
  int64_t c = g_dims(x)[1];
  if (group < 1 || (!g_dyn(c) && c % group))
    return gx_error(g, "expects 'group' to divide the %lld channels, got %lld", (long long)c, (long long)group);
  g->out[0] = x;
  return true;
}
