/* import_resize.c: ONNX Resize and Upsample -> graph.resize (modes nearest
 * and linear), and Expand of a tensor computed at run time (a broadcast of
 * its size-1 dims: exactly a nearest resize by whole factors, which every
 * level below already runs; an Expand of known inputs folds at import,
 * import_fold.c). The target sizes are resolved at import, from `sizes` or from
 * `scales` (whose products with the input's dims must be whole numbers, so
 * that the scale ONNX computes with equals sizes / in and the op needs only
 * integer sizes); the input's shape must be static. The cubic mode, a
 * region of interest (tf_crop_and_resize), `axes` and `antialias` are
 * refused with a message, never approximated.
 */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "import_internal.h"

/* Sizes from per-dim scales: each in * scale must be whole. */
static bool sizes_from_scales(node_ctx *nc, const imp_type *x, size_t n, const double *scales, int64_t *sizes)
{
  if (n != (size_t)x->rank)
    return imp_error(nc, "has %zu scales for an input of rank %d", n, x->rank);
  for (size_t i = 0; i < n; i++) {
    double s = (double)x->dims[i] * scales[i];
    if (!(scales[i] > 0) || s != floor(s) || s < 1)
      return imp_unsupported(nc, "scale %g of dim %zu (size %lld), whose output size is not a whole number,",
                             scales[i], i, (long long)x->dims[i]);
    if (s > (double)INT32_MAX) /* also keeps the conversion below defined */
      return imp_error(nc, "scale %g of dim %zu (size %lld) gives an output size of %g, too large", scales[i], i,
                       (long long)x->dims[i], s);
    sizes[i] = (int64_t)s;
  }
  return true;
}

static bool known_floats(node_ctx *nc, imp_value *v, const char *what, size_t *n, double *out)
{
  nc_tensor *t = imp_known(nc->im, v);
  if (!t || (t->dtype != NC_DT_F32 && t->dtype != NC_DT_F64 && t->dtype != NC_DT_F16) || t->rank > 1)
    return imp_unsupported(nc, "'%s' that is not a constant float vector", what);
  int64_t m = nc_tensor_num_elements(t);
  if (m > NC_TENSOR_MAX_RANK)
    return imp_error(nc, "'%s' has %lld entries", what, (long long)m);
  for (int64_t i = 0; i < m; i++)
    out[i] = nc_elem_load_f64(t->data, t->dtype, i);
  *n = (size_t)m;
  return true;
}

static bool emit_resize(node_ctx *nc, imp_value *x, const int64_t *sizes, const char *mode, const char *coord,
                        const char *nearest)
{
  imp_type t = x->type;
  memcpy(t.dims, sizes, (size_t)t.rank * sizeof *sizes);
  memset(t.sym, 0, sizeof t.sym);
  imp_attrs attrs = {0};
  imp_add_i64s(nc, &attrs, "sizes", (size_t)t.rank, sizes);
  if (strcmp(coord, "half_pixel"))
    imp_add_str(nc, &attrs, "coordinate_transformation_mode", coord);
  if (!strcmp(mode, "linear"))
    imp_add_str(nc, &attrs, "mode", mode);
  else if (strcmp(nearest, "round_prefer_floor"))
    imp_add_str(nc, &attrs, "nearest_mode", nearest);
  return imp_emit(nc, "graph.resize", 1, &x, &attrs, 1, &t);
}

static bool static_input(node_ctx *nc, imp_value *x)
{
  if (x->type.rank < 1 || !imp_type_is_static(&x->type))
    return imp_unsupported(nc, "an input of unknown shape (give the model static shapes, --input-shape)");
  return true;
}

bool imp_resize(node_ctx *nc)
{
  imp_value *x = imp_input_required(nc, 0, "X");
  if (!x || !static_input(nc, x))
    return false;
  const char *mode, *coord = "asymmetric", *nearest = "floor"; /* opset 10: as Upsample */
  if (!imp_attr_string(nc, "mode", "nearest", &mode))
    return false;
  if (strcmp(mode, "nearest") && strcmp(mode, "linear"))
    return imp_unsupported(nc, "mode \"%s\" (nc resizes in modes nearest and linear)", mode);
  int64_t antialias;
  if (!imp_attr_int(nc, "antialias", 0, &antialias))
    return false;
  if (antialias)
    return imp_unsupported(nc, "antialias");
  if (nc->im->opset >= 11 &&
      (!imp_attr_string(nc, "coordinate_transformation_mode", "half_pixel", &coord) ||
       !imp_attr_string(nc, "nearest_mode", "round_prefer_floor", &nearest)))
    return false;
  if (imp_attr(nc, "axes"))
    return imp_unsupported(nc, "attribute 'axes'");
  double unused; /* cubic_coeff_a, exclude_outside, extrapolation_value: for other modes */
  int64_t unused_i;
  if (!imp_attr_float(nc, "cubic_coeff_a", -0.75, &unused) || !imp_attr_int(nc, "exclude_outside", 0, &unused_i) ||
      !imp_attr_float(nc, "extrapolation_value", 0, &unused))
    return false;
  if (!strcmp(coord, "tf_crop_and_resize"))
    return imp_unsupported(nc, "coordinate_transformation_mode \"tf_crop_and_resize\"");
  int64_t abd[3];
  char err[200];
  if (!strcmp(mode, "linear") && !nc_kernel_resize_linear_coord(coord, 1, 1, abd, err, sizeof err))
    return imp_unsupported(nc, "%s", err + strlen("resize: "));
  int64_t sizes[NC_TENSOR_MAX_RANK];
  double scales[NC_TENSOR_MAX_RANK];
  size_t ns = 0;
  imp_value *sv = imp_input(nc, nc->im->opset >= 11 ? 2 : 1), *zv = nc->im->opset >= 11 ? imp_input(nc, 3) : NULL;
  if (sv && !known_floats(nc, sv, "scales", &ns, scales))
    return false;
  if (zv) {
    int64_t *z, nz;
    if (!imp_const_ints(nc, 3, "sizes", &z, &nz))
      return false;
    if (ns)
      return imp_error(nc, "has both 'scales' and 'sizes'");
    if (nz != x->type.rank)
      return imp_error(nc, "has %lld sizes for an input of rank %d", (long long)nz, x->type.rank);
    for (int i = 0; i < x->type.rank; i++)
      if (z[i] < 1)
        return imp_error(nc, "size %lld of dim %d is not positive", (long long)z[i], i);
    memcpy(sizes, z, (size_t)nz * sizeof *z);
  } else if (ns) {
    if (!sizes_from_scales(nc, &x->type, ns, scales, sizes))
      return false;
  } else {
    return imp_error(nc, "needs 'scales' or 'sizes'");
  }
  return emit_resize(nc, x, sizes, mode, coord, nearest);
}

/* Upsample (opsets 7 to 9): nearest is out[o] = in[floor(o / scale)],
 * linear interpolates at o / scale (asymmetric). */
bool imp_upsample(node_ctx *nc)
{
  imp_value *x = imp_input_required(nc, 0, "X");
  if (!x || !static_input(nc, x))
    return false;
  const char *mode;
  if (!imp_attr_string(nc, "mode", "nearest", &mode))
    return false;
  if (strcmp(mode, "nearest") && strcmp(mode, "linear"))
    return imp_unsupported(nc, "mode \"%s\" (nc resizes in modes nearest and linear)", mode);
  double scales[NC_TENSOR_MAX_RANK];
  size_t ns = 0;
  if (imp_input(nc, 1)) {
    if (!known_floats(nc, imp_input(nc, 1), "scales", &ns, scales))
      return false;
  } else {
    const float *f;
    bool present;
    if (!imp_attr_floats(nc, "scales", &f, &ns, &present))
      return false;
    if (!present)
      return imp_error(nc, "needs 'scales'");
    if (ns > NC_TENSOR_MAX_RANK)
      return imp_error(nc, "has %zu scales", ns);
    for (size_t i = 0; i < ns; i++)
      scales[i] = f[i];
  }
  int64_t sizes[NC_TENSOR_MAX_RANK];
  return sizes_from_scales(nc, &x->type, ns, scales, sizes) && emit_resize(nc, x, sizes, mode, "asymmetric", "floor");
}

/* Expand (opset 8 on): with known inputs, folded at import; else the input's
 * size-1 dims broadcast to the result's, out[o] = in[floor(o * in / out)]:
 * a nearest resize (asymmetric, floor), in = 1 reading element 0 and a kept
 * dim (in = out) reading o. An Expand that adds dims (a result of higher
 * rank: numpy's rule aligns the trailing dims) first reshapes the input to
 * the result's rank with leading 1s, which then broadcast like any size-1
 * dim; a result that only gains leading 1s is that reshape alone. */
bool imp_expand(node_ctx *nc)
{
  if (!imp_input_required(nc, 0, "input") || !imp_input_required(nc, 1, "shape"))
    return false;
  if (imp_all_known(nc))
    return imp_fold_expand(nc);
  imp_value *x = nc->in[0];
  if (!static_input(nc, x))
    return false;
  int64_t *shape, n, out[NC_TENSOR_MAX_RANK];
  int rank;
  char err[512];
  if (!imp_known(nc->im, nc->in[1]) && !nc->in[1]->partial)
    return imp_unsupported_op(nc, "with a 'shape' computed at run time (nc broadcasts to a constant shape)");
  if (!imp_const_ints(nc, 1, "shape", &shape, &n))
    return false;
  if (n > NC_TENSOR_MAX_RANK)
    return imp_unsupported(nc, "a result of rank %lld", (long long)n);
  if (!nc_kernel_expand_shape(x->type.rank, x->type.dims, (int)n, shape, &rank, out, err, sizeof err))
    return imp_error(nc, "%s", err);
  for (int i = 0; i < rank; i++)
    if (out[i] > (int64_t)INT32_MAX)
      return imp_error(nc, "its result's dim %d, %lld, is too large", i, (long long)out[i]);
  if (rank > x->type.rank) { /* leading 1s first: graph.reshape */
    imp_type t = x->type;
    int lead = rank - x->type.rank;
    memset(t.sym, 0, sizeof t.sym);
    t.rank = rank;
    for (int i = 0; i < rank; i++)
      t.dims[i] = i < lead ? 1 : x->type.dims[i - lead];
    imp_attrs attrs = {0};
    imp_add_i64s(nc, &attrs, "shape", (size_t)rank, t.dims);
    if (!memcmp(t.dims, out, (size_t)rank * sizeof *out))
      return imp_emit(nc, "graph.reshape", 1, &x, &attrs, 1, &t) != NULL;
    if (!(x = imp_emit_temp(nc, "leading", "graph.reshape", 1, &x, &attrs, &t)))
      return false;
  }
  return emit_resize(nc, x, out, "nearest", "asymmetric", "floor");
}
