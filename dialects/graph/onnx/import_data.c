/* import_data.c: ONNX data movement and constants -> graph ops.
 *
 * Concat, Split, Slice, Reshape, Flatten, Squeeze, Unsqueeze, Transpose,
 * Pad, Constant, Identity, Dropout and Cast. Their static parameters moved
 * from attributes to inputs over the opsets (Slice-10, Reshape-5, Pad-11,
 * Squeeze/Unsqueeze/Split-13, ...); whichever form a node uses, they become
 * attributes of the graph op, and an input that is not known at import time
 * is an error. Nodes whose data is known are evaluated, and small integer
 * vectors that are only partly known (shapes with dynamic dims) are carried
 * through, so that PyTorch's Shape -> Gather -> Concat -> Reshape chains
 * resolve to a plain graph.reshape.
 */
#include "import_internal.h"

#include <string.h>

/* ---- Concat --------------------------------------------------------------------------------------------- */

bool imp_concat(node_ctx *nc)
{
  if (!nc->n_in)
    return imp_error(nc, "needs at least one input");
  for (size_t i = 0; i < nc->n_in; i++)
    if (!imp_input_required(nc, i, "inputs"))
      return false;
  int64_t axis;
  if (!imp_attr(nc, "axis") && nc->im->opset >= 4)
    return imp_error(nc, "attribute 'axis' is required");
  if (!imp_attr_int(nc, "axis", 1, &axis))
    return false;
  bool handled;
  if (!imp_partial_concat(nc, axis, &handled))
    return false;
  if (handled)
    return true;
  imp_type t = nc->in[0]->type;
  if (t.rank < 0)
    return imp_error(nc, "the rank of the inputs is unknown");
  if (!imp_axis(nc, "axis", axis, t.rank, false, &axis))
    return false;
  t.dims[axis] = 0;
  for (size_t i = 0; i < nc->n_in; i++) {
    const imp_type *x = &nc->in[i]->type;
    if (x->dt != t.dt)
      return imp_error(nc, "inputs have different element types (%s and %s)", nc_dtype_name(t.dt),
                       nc_dtype_name(x->dt));
    if (x->rank != t.rank)
      return imp_error(nc, "inputs have different ranks (%d and %d)", t.rank, x->rank);
    for (int k = 0; k < t.rank; k++) {
      if (k == axis) {
        t.dims[k] = t.dims[k] < 0 || x->dims[k] < 0 ? -1 : t.dims[k] + x->dims[k];
        t.sym[k] = t.dims[k] < 0 ? -1 : 0; /* a new symbol, given below */
      } else if (t.dims[k] < 0) {
        t.dims[k] = x->dims[k];
        t.sym[k] = x->sym[k];
      } else if (x->dims[k] >= 0 && x->dims[k] != t.dims[k]) {
        char s1[128], s2[128];
        return imp_error(nc, "input shapes %s and %s differ outside axis %lld",
                         imp_type_str(&nc->in[0]->type, s1, sizeof s1), imp_type_str(x, s2, sizeof s2),
                         (long long)axis);
      }
    }
  }
  if (t.sym[axis] < 0)
    t.sym[axis] = imp_fresh_sym(nc->im);
  if (imp_all_known(nc) && imp_type_is_static(&t)) {
    nc_tensor *y = imp_fold_alloc(nc, t.dt, t.rank, t.dims);
    if (y) {
      const nc_tensor **xs = nc_arena_alloc(nc->im->arena, nc->n_in * sizeof *xs);
      for (size_t i = 0; i < nc->n_in; i++)
        xs[i] = imp_known(nc->im, nc->in[i]);
      char err[512];
      if (nc->n_in > INT32_MAX || !nc_kernel_concat(axis, (int)nc->n_in, xs, y, err, sizeof err)) {
        nc_tensor_destroy(y);
        return imp_error(nc, "cannot evaluate the node at import time: %s", nc->n_in > INT32_MAX ? "" : err);
      }
      return imp_set_known(nc, 0, y);
    }
  }
  imp_attrs attrs = {0};
  imp_add_i64(nc, &attrs, "axis", axis);
  return imp_emit(nc, nc->op->graph, nc->n_in, nc->in, &attrs, 1, &t);
}

/* ---- Split ---------------------------------------------------------------------------------------------- */

bool imp_split(node_ctx *nc)
{
  imp_value *x = imp_input_required(nc, 0, "input");
  if (!x)
    return false;
  int64_t axis, num_outputs, n_split = 0;
  int64_t *split = NULL;
  bool has_split = false;
  if (!imp_attr_int(nc, "axis", 0, &axis) || !imp_attr_int(nc, "num_outputs", 0, &num_outputs))
    return false;
  if (nc->im->opset < 13 && imp_attr(nc, "split")) {
    const int64_t *v;
    size_t n;
    if (!imp_attr_ints(nc, "split", &v, &n, &has_split))
      return false;
    split = (int64_t *)v;
    n_split = (int64_t)n;
  } else if ((nc->im->opset >= 13 || nc->im->opset < 2) && imp_input(nc, 1)) {
    if (!imp_const_ints(nc, 1, "split", &split, &n_split))
      return false;
    has_split = true;
  }
  size_t n_out = nc->n->n_output;
  if (!n_out || n_out > 4096)
    return imp_error(nc, "has %zu outputs", n_out);
  if (num_outputs && (size_t)num_outputs != n_out)
    return imp_error(nc, "attribute 'num_outputs' is %lld but the node has %zu outputs", (long long)num_outputs,
                     n_out);
  if (has_split && (size_t)n_split != n_out)
    return imp_error(nc, "'split' has %lld sizes but the node has %zu outputs", (long long)n_split, n_out);
  if (x->type.rank < 0)
    return imp_error(nc, "the rank of the input is unknown");
  if (!imp_axis(nc, "axis", axis, x->type.rank, false, &axis))
    return false;
  int64_t dim = x->type.dims[axis];
  int64_t *sizes = nc_arena_alloc(nc->im->arena, n_out * sizeof *sizes);
  char err[512];
  bool explicit_sizes = has_split;
  if (dim >= 0) {
    if (!has_split && nc->im->opset < 18 && dim % (int64_t)n_out)
      return imp_error(nc, "dimension %lld of size %lld does not split into %zu equal parts", (long long)axis,
                       (long long)dim, n_out);
    if (!nc_kernel_split_sizes(axis, x->type.rank, x->type.dims, (int)n_out, split, sizes, err, sizeof err))
      return imp_error(nc, "%s", err);
    explicit_sizes |= dim % (int64_t)n_out != 0;
  } else {
    for (size_t i = 0; i < n_out; i++) {
      if (has_split && split[i] < 0)
        return imp_error(nc, "split size %lld is negative", (long long)split[i]);
      sizes[i] = has_split ? split[i] : -1;
    }
  }
  imp_type *types = nc_arena_alloc(nc->im->arena, n_out * sizeof *types);
  for (size_t i = 0; i < n_out; i++) {
    types[i] = x->type;
    types[i].dims[axis] = sizes[i];
    types[i].sym[axis] = sizes[i] < 0 ? imp_fresh_sym(nc->im) : 0;
  }
  nc_tensor *xk = imp_known(nc->im, x);
  if (xk) {
    nc_tensor **ys = nc_arena_calloc(nc->im->arena, n_out * sizeof *ys);
    bool fits = true;
    for (size_t i = 0; fits && i < n_out; i++)
      fits = (ys[i] = imp_fold_alloc(nc, types[i].dt, types[i].rank, types[i].dims)) != NULL;
    if (fits && nc_kernel_split(axis, (int)n_out, sizes, xk, ys, err, sizeof err)) {
      bool ok = true;
      for (size_t i = 0; i < n_out; i++)
        ok = imp_set_known(nc, i, ys[i]) && ok;
      return ok;
    }
    for (size_t i = 0; i < n_out; i++)
      nc_tensor_destroy(ys[i]);
  }
  imp_attrs attrs = {0};
  if (axis)
    imp_add_i64(nc, &attrs, "axis", axis);
  if (explicit_sizes)
    imp_add_i64s(nc, &attrs, "split", n_out, sizes);
  return imp_emit(nc, nc->op->graph, 1, &x, &attrs, n_out, types) != NULL;
}

/* ---- Slice ---------------------------------------------------------------------------------------------- */

static bool shape_slice(const void *ud, int n, const imp_type *const *in, imp_type *out, char *err, size_t errlen)
{
  out->rank = in[0]->rank;
  return nc_kernel_slice_shape(ud, in[0]->rank, in[0]->dims, out->dims, err, errlen);
}

/* Reads an INTS attribute into the arena. */
static bool attr_ints_copy(node_ctx *nc, const char *name, int64_t **vals, int64_t *n, bool *present)
{
  const int64_t *v;
  size_t k;
  if (!imp_attr_ints(nc, name, &v, &k, present))
    return false;
  *vals = (int64_t *)v;
  *n = (int64_t)k;
  return true;
}

bool imp_slice(node_ctx *nc)
{
  imp_value *x = imp_input_required(nc, 0, "data");
  if (!x)
    return false;
  int64_t *starts = NULL, *ends = NULL, *axes = NULL, *steps = NULL, ns = 0, ne = 0, na = 0, nst = 0;
  bool has_s, has_e, has_a = false, has_st = false;
  if (nc->im->opset < 10) {
    if (!attr_ints_copy(nc, "starts", &starts, &ns, &has_s) || !attr_ints_copy(nc, "ends", &ends, &ne, &has_e) ||
        !attr_ints_copy(nc, "axes", &axes, &na, &has_a))
      return false;
    if (!has_s || !has_e)
      return imp_error(nc, "attributes 'starts' and 'ends' are required");
  } else {
    if (!imp_const_ints(nc, 1, "starts", &starts, &ns) || !imp_const_ints(nc, 2, "ends", &ends, &ne))
      return false;
    if ((has_a = imp_input(nc, 3) != NULL) && !imp_const_ints(nc, 3, "axes", &axes, &na))
      return false;
    if ((has_st = imp_input(nc, 4) != NULL) && !imp_const_ints(nc, 4, "steps", &steps, &nst))
      return false;
  }
  if (ne != ns || (has_a && na != ns) || (has_st && nst != ns))
    return imp_error(nc, "starts, ends, axes and steps have different lengths");
  if (ns > NC_TENSOR_MAX_RANK)
    return imp_error(nc, "slices %lld axes; tensors have at most %d", (long long)ns, NC_TENSOR_MAX_RANK);
  nc_slice_params p = {.n = (int)ns, .starts = starts, .ends = ends, .axes = axes, .steps = steps};
  bool handled;
  if (!imp_partial_slice(nc, &p, &handled))
    return false;
  if (handled)
    return true;
  imp_type t = {.dt = x->type.dt};
  const imp_type *in[1] = {&x->type};
  if (!imp_infer(nc, shape_slice, &p, 1, in, &t))
    return false;
  nc_tensor *xk = imp_known(nc->im, x);
  if (xk && imp_type_is_static(&t)) {
    nc_tensor *y = imp_fold_alloc(nc, t.dt, t.rank, t.dims);
    char err[512];
    if (y && nc_kernel_slice(&p, xk, y, err, sizeof err))
      return imp_set_known(nc, 0, y);
    nc_tensor_destroy(y);
  }
  bool unit_steps = true;
  for (int64_t i = 0; has_st && i < nst; i++)
    unit_steps &= steps[i] == 1;
  imp_attrs attrs = {0};
  imp_add_i64s(nc, &attrs, "starts", (size_t)ns, starts);
  imp_add_i64s(nc, &attrs, "ends", (size_t)ns, ends);
  if (has_a)
    imp_add_i64s(nc, &attrs, "axes", (size_t)ns, axes);
  if (has_st && !unit_steps)
    imp_add_i64s(nc, &attrs, "steps", (size_t)ns, steps);
  return imp_emit(nc, nc->op->graph, 1, &x, &attrs, 1, &t);
}

/* ---- Reshape, Flatten, Squeeze, Unsqueeze --------------------------------------------------------------- */

/* Output 0 is x's data with type t: a known x is copied, otherwise the op
 * `name` is emitted. */
static bool reshape_like(node_ctx *nc, imp_value *x, const imp_type *t, const char *name, const imp_attrs *attrs)
{
  nc_tensor *xk = imp_known(nc->im, x);
  if (xk && imp_type_is_static(t)) {
    nc_tensor *y = imp_fold_alloc(nc, t->dt, t->rank, t->dims);
    if (y) {
      memcpy(y->data, xk->data, nc_tensor_num_bytes(xk));
      return imp_set_known(nc, 0, y);
    }
  }
  return imp_emit(nc, name, 1, &x, attrs, 1, t);
}

typedef struct reshape_ud {
  int64_t n;
  const int64_t *shape;
  bool allowzero;
} reshape_ud;

static bool shape_reshape(const void *ud, int n, const imp_type *const *in, imp_type *out, char *err,
                          size_t errlen)
{
  const reshape_ud *r = ud;
  out->rank = (int)r->n;
  return nc_kernel_reshape_shape(in[0]->rank, in[0]->dims, (int)r->n, r->shape, r->allowzero, out->dims, err,
                                 errlen);
}

/* Resolves a partly known Reshape target: an unknown element k whose symbol
 * is that of the data's dim k becomes 0 ("copy"); a single remaining unknown
 * element becomes -1 ("infer"). */
static bool resolve_shape(node_ctx *nc, imp_value *data, const imp_partial *p, bool allowzero, int64_t *out)
{
  int unknown = -1, n_unknown = 0;
  bool has_minus = false;
  for (int64_t k = 0; k < p->n; k++) {
    out[k] = p->vals[k];
    has_minus |= !p->sym[k] && p->vals[k] == -1;
    if (!p->sym[k])
      continue;
    if (!allowzero && k < data->type.rank && data->type.dims[k] < 0 && data->type.sym[k] == p->sym[k]) {
      out[k] = 0;
      continue;
    }
    unknown = (int)k;
    n_unknown++;
  }
  if (n_unknown == 1 && !has_minus) {
    out[unknown] = -1;
    return true;
  }
  if (n_unknown)
    return imp_unsupported(nc, "a target shape that depends on dynamic dimensions in a way nc cannot resolve");
  return true;
}

bool imp_reshape(node_ctx *nc)
{
  imp_value *x = imp_input_required(nc, 0, "data");
  if (!x)
    return false;
  int64_t allowzero, n = 0;
  int64_t *shape = NULL;
  if (!imp_attr_int(nc, "allowzero", 0, &allowzero))
    return false;
  if (nc->im->opset < 5) {
    bool has;
    if (!attr_ints_copy(nc, "shape", &shape, &n, &has))
      return false;
    if (!has)
      return imp_error(nc, "attribute 'shape' is required");
  } else {
    imp_value *s = imp_input_required(nc, 1, "shape");
    if (!s)
      return false;
    if (s->partial) {
      n = s->partial->n;
      shape = nc_arena_alloc(nc->im->arena, (size_t)(n ? n : 1) * sizeof *shape);
      if (!resolve_shape(nc, x, s->partial, allowzero != 0, shape))
        return false;
    } else if (!imp_const_ints(nc, 1, "shape", &shape, &n)) {
      return false;
    }
  }
  if (n > NC_TENSOR_MAX_RANK)
    return imp_unsupported(nc, "a result of rank %lld (nc supports up to %d)", (long long)n, NC_TENSOR_MAX_RANK);
  /* A partly known vector reshaped to a vector stays partly known. */
  imp_partial *xp = x->partial;
  if (xp && n <= 1) {
    imp_partial *r = imp_partial_new(nc->im, (int)n, xp->n);
    r->dt = xp->dt;
    if (n == 1 && shape[0] >= 0 && shape[0] != xp->n && !(shape[0] == 0 && xp->rank == 1))
      return imp_error(nc, "cannot reshape %lld elements to [%lld]", (long long)xp->n, (long long)shape[0]);
    if (!n && xp->n != 1)
      return imp_error(nc, "cannot reshape %lld elements to a scalar", (long long)xp->n);
    memcpy(r->vals, xp->vals, (size_t)xp->n * sizeof *r->vals);
    memcpy(r->sym, xp->sym, (size_t)xp->n * sizeof *r->sym);
    return imp_set_partial(nc, 0, r);
  }
  reshape_ud ud = {.n = n, .shape = shape, .allowzero = allowzero != 0};
  imp_type t = {.dt = x->type.dt};
  const imp_type *in[1] = {&x->type};
  if (!imp_infer(nc, shape_reshape, &ud, 1, in, &t))
    return false;
  imp_attrs attrs = {0};
  imp_add_i64s(nc, &attrs, "shape", (size_t)n, shape);
  if (allowzero)
    imp_add_i64(nc, &attrs, "allowzero", 1);
  return reshape_like(nc, x, &t, nc->op->graph, &attrs);
}

static bool shape_flatten(const void *ud, int n, const imp_type *const *in, imp_type *out, char *err,
                          size_t errlen)
{
  out->rank = 2;
  return nc_kernel_flatten_shape(*(const int64_t *)ud, in[0]->rank, in[0]->dims, out->dims, err, errlen);
}

bool imp_flatten(node_ctx *nc)
{
  imp_value *x = imp_input_required(nc, 0, "input");
  if (!x)
    return false;
  int64_t axis;
  if (!imp_attr_int(nc, "axis", 1, &axis))
    return false;
  imp_type t = {.dt = x->type.dt};
  const imp_type *in[1] = {&x->type};
  if (!imp_infer(nc, shape_flatten, &axis, 1, in, &t))
    return false;
  imp_attrs attrs = {0};
  if (x->type.rank >= 0 && axis < 0)
    axis += x->type.rank;
  if (axis != 1)
    imp_add_i64(nc, &attrs, "axis", axis);
  return reshape_like(nc, x, &t, nc->op->graph, &attrs);
}

/* Squeeze/Unsqueeze axes: an attribute before opset 13, an input since. */
static bool read_axes(node_ctx *nc, bool required, int64_t **axes, int64_t *n, bool *present)
{
  *axes = NULL;
  *n = 0;
  if (nc->im->opset < 13) {
    if (!attr_ints_copy(nc, "axes", axes, n, present))
      return false;
  } else {
    *present = imp_input(nc, 1) != NULL;
    if (*present && !imp_const_ints(nc, 1, "axes", axes, n))
      return false;
  }
  if (required && !*present)
    return imp_error(nc, "'axes' is required");
  if (*n > NC_TENSOR_MAX_RANK)
    return imp_error(nc, "%lld axes for tensors of rank at most %d", (long long)*n, NC_TENSOR_MAX_RANK);
  return true;
}

typedef struct axes_ud {
  int64_t n;
  const int64_t *axes;
} axes_ud;

static bool shape_squeeze(const void *ud, int n, const imp_type *const *in, imp_type *out, char *err,
                          size_t errlen)
{
  const axes_ud *a = ud;
  return nc_kernel_squeeze_shape((int)a->n, a->axes, in[0]->rank, in[0]->dims, &out->rank, out->dims, err, errlen);
}

static bool shape_unsqueeze(const void *ud, int n, const imp_type *const *in, imp_type *out, char *err,
                            size_t errlen)
{
  const axes_ud *a = ud;
  return nc_kernel_unsqueeze_shape((int)a->n, a->axes, in[0]->rank, in[0]->dims, &out->rank, out->dims, err,
                                   errlen);
}

bool imp_squeeze(node_ctx *nc)
{
  imp_value *x = imp_input_required(nc, 0, "data");
  if (!x)
    return false;
  int64_t *axes, n;
  bool present, handled;
  if (!read_axes(nc, false, &axes, &n, &present) || !imp_partial_squeeze(nc, axes, n, &handled))
    return false;
  if (handled)
    return true;
  if (!n && !imp_type_is_static(&x->type))
    return imp_unsupported(nc, "squeezing all unit dimensions of a tensor with dynamic dimensions");
  axes_ud a = {n, axes};
  imp_type t = {.dt = x->type.dt};
  const imp_type *in[1] = {&x->type};
  if (!imp_infer(nc, shape_squeeze, &a, 1, in, &t))
    return false;
  imp_attrs attrs = {0};
  if (n)
    imp_add_i64s(nc, &attrs, "axes", (size_t)n, axes);
  return reshape_like(nc, x, &t, nc->op->graph, &attrs);
}

bool imp_unsqueeze(node_ctx *nc)
{
  imp_value *x = imp_input_required(nc, 0, "data");
  if (!x)
    return false;
  int64_t *axes, n;
  bool present, handled;
  if (!read_axes(nc, true, &axes, &n, &present) || !imp_partial_unsqueeze(nc, axes, n, &handled))
    return false;
  if (handled)
    return true;
  axes_ud a = {n, axes};
  imp_type t = {.dt = x->type.dt};
  const imp_type *in[1] = {&x->type};
  if (!imp_infer(nc, shape_unsqueeze, &a, 1, in, &t))
    return false;
  imp_attrs attrs = {0};
  imp_add_i64s(nc, &attrs, "axes", (size_t)n, axes);
  return reshape_like(nc, x, &t, nc->op->graph, &attrs);
}

/* ---- Transpose, Pad ------------------------------------------------------------------------------------- */

static bool shape_transpose(const void *ud, int n, const imp_type *const *in, imp_type *out, char *err,
                            size_t errlen)
{
  const axes_ud *p = ud;
  out->rank = in[0]->rank;
  if (p->axes && p->n != in[0]->rank) {
    snprintf(err, errlen, "perm has %lld entries for a tensor of rank %d", (long long)p->n, in[0]->rank);
    return false;
  }
  return nc_kernel_transpose_shape(p->axes, in[0]->rank, in[0]->dims, out->dims, err, errlen);
}

bool imp_transpose(node_ctx *nc)
{
  imp_value *x = imp_input_required(nc, 0, "data");
  if (!x)
    return false;
  int64_t *perm, n;
  bool has;
  if (!attr_ints_copy(nc, "perm", &perm, &n, &has))
    return false;
  axes_ud p = {n, has ? perm : NULL};
  imp_type t = {.dt = x->type.dt};
  const imp_type *in[1] = {&x->type};
  if (!imp_infer(nc, shape_transpose, &p, 1, in, &t))
    return false;
  nc_tensor *xk = imp_known(nc->im, x);
  if (xk) {
    nc_tensor *y = imp_fold_alloc(nc, t.dt, t.rank, t.dims);
    char err[512];
    if (y && nc_kernel_transpose(p.axes, xk, y, err, sizeof err))
      return imp_set_known(nc, 0, y);
    nc_tensor_destroy(y);
  }
  imp_attrs attrs = {0};
  if (has)
    imp_add_i64s(nc, &attrs, "perm", (size_t)n, perm);
  return imp_emit(nc, nc->op->graph, 1, &x, &attrs, 1, &t);
}

static bool shape_pad(const void *ud, int n, const imp_type *const *in, imp_type *out, char *err, size_t errlen)
{
  out->rank = in[0]->rank;
  return nc_kernel_pad_shape(ud, in[0]->rank, in[0]->dims, out->dims, err, errlen);
}

bool imp_pad(node_ctx *nc)
{
  imp_value *x = imp_input_required(nc, 0, "data");
  if (!x)
    return false;
  const char *mode;
  if (!imp_attr_string(nc, "mode", "constant", &mode))
    return false;
  if (strcmp(mode, "constant") && strcmp(mode, "reflect") && strcmp(mode, "edge") &&
      (strcmp(mode, "wrap") || nc->im->opset < 19))
    return imp_unsupported(nc, "mode \"%s\"%s", mode, !strcmp(mode, "wrap") ? " before opset 19" : "");
  int rank = x->type.rank;
  if (rank < 0)
    return imp_error(nc, "the rank of the input is unknown");
  int64_t *pads, np, *axes = NULL, na = 0;
  double value = 0;
  bool has;
  if (nc->im->opset < 11) {
    if (!attr_ints_copy(nc, nc->im->opset < 2 ? "paddings" : "pads", &pads, &np, &has) ||
        !imp_attr_float(nc, "value", 0.0, &value))
      return false;
    if (!has)
      return imp_error(nc, "attribute '%s' is required", nc->im->opset < 2 ? "paddings" : "pads");
  } else {
    if (!imp_const_ints(nc, 1, "pads", &pads, &np))
      return false;
    if (imp_input(nc, 2) && !imp_const_scalar(nc, 2, "constant_value", &value))
      return false;
    if (imp_input(nc, 3) && !imp_const_ints(nc, 3, "axes", &axes, &na))
      return false;
  }
  int64_t full[2 * NC_TENSOR_MAX_RANK] = {0};
  if (axes) {
    if (np != 2 * na)
      return imp_error(nc, "'pads' has %lld values for %lld axes", (long long)np, (long long)na);
    for (int64_t i = 0; i < na; i++) {
      int64_t a;
      if (!imp_axis(nc, "axis", axes[i], rank, false, &a))
        return false;
      full[a] = pads[i];
      full[a + rank] = pads[i + na];
    }
  } else {
    if (np != 2 * rank)
      return imp_error(nc, "'pads' has %lld values for a tensor of rank %d", (long long)np, rank);
    memcpy(full, pads, (size_t)np * sizeof *full);
  }
  nc_pad_params p = {.pads = full};
  if (!nc_pad_mode_from_string(mode, &p.mode))
    return imp_unsupported(nc, "mode \"%s\"", mode);
  imp_type t = {.dt = x->type.dt};
  const imp_type *in[1] = {&x->type};
  if (!imp_infer(nc, shape_pad, &p, 1, in, &t))
    return false;
  imp_attrs attrs = {0};
  imp_add_i64s(nc, &attrs, "pads", (size_t)(2 * rank), full);
  if (strcmp(mode, "constant"))
    imp_add_str(nc, &attrs, "mode", mode);
  if (value != 0)
    imp_add_f32(nc, &attrs, "value", value);
  return imp_emit(nc, nc->op->graph, 1, &x, &attrs, 1, &t);
}

/* ---- Constant, Identity, Dropout, Cast ------------------------------------------------------------------ */

bool imp_constant(node_ctx *nc)
{
  static const char *forms[] = {"value", "value_float", "value_floats", "value_int", "value_ints",
                                "sparse_value", "value_string", "value_strings"};
  const Onnx__AttributeProto *a = NULL;
  int which = -1;
  for (int i = 0; i < (int)NC_COUNTOF(forms); i++) {
    const Onnx__AttributeProto *f = imp_attr(nc, forms[i]);
    if (f && a)
      return imp_error(nc, "has both '%s' and '%s'", forms[which], forms[i]);
    if (f)
      a = f, which = i;
  }
  if (!a)
    return imp_error(nc, "has no value attribute");
  static const Onnx__AttributeProto__AttributeType want[] = {
    ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__TENSOR, ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__FLOAT,
    ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__FLOATS, ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INT,
    ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INTS, ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__SPARSE_TENSOR,
    ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__STRING, ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__STRINGS,
  };
  if (a->type != want[which])
    return imp_error(nc, "attribute '%s' has the wrong type", forms[which]);
  nc_tensor *t = NULL;
  char err[512];
  switch (which) {
  case 0:
    if (!(t = nc_onnx_tensor_to_host(a->t, err, sizeof err)))
      return imp_error(nc, "its value cannot be imported: %s", err);
    break;
  case 1:
    t = nc_tensor_create(NC_DT_F32, 0, NULL, 0);
    ((float *)t->data)[0] = a->f;
    break;
  case 2: {
    int64_t n = (int64_t)a->n_floats;
    t = nc_tensor_create(NC_DT_F32, 1, &n, 0);
    if (n) /* an empty value_floats has no array (memcpy's source must not be NULL) */
      memcpy(t->data, a->floats, a->n_floats * sizeof *a->floats);
    break;
  }
  case 3:
    t = nc_tensor_create(NC_DT_I64, 0, NULL, 0);
    ((int64_t *)t->data)[0] = a->i;
    break;
  case 4: {
    int64_t n = (int64_t)a->n_ints;
    t = nc_tensor_create(NC_DT_I64, 1, &n, 0);
    if (n) /* as value_floats */
      memcpy(t->data, a->ints, a->n_ints * sizeof *a->ints);
    break;
  }
  case 5:
    if (!(t = imp_densify(nc->im, a->sparse_tensor, err, sizeof err)))
      return imp_error(nc, "sparse_value: %s", err);
    break;
  default:
    return imp_unsupported(nc, "string constants");
  }
  return imp_set_known(nc, 0, t);
}

bool imp_identity(node_ctx *nc)
{
  imp_value *x = imp_input_required(nc, 0, "input");
  return x && imp_set_alias(nc, 0, x);
}

/* Dropout is the identity at inference; its mask output is not supported. */
bool imp_dropout(node_ctx *nc)
{
  imp_value *x = imp_input_required(nc, 0, "data");
  if (!x)
    return false;
  imp_attr_ignore(nc, "ratio");
  imp_attr_ignore(nc, "is_test");
  imp_attr_ignore(nc, "seed");
  if (imp_output_used(nc, 1))
    return imp_unsupported(nc, "the mask output");
  return imp_set_alias(nc, 0, x);
}

bool imp_cast(node_ctx *nc)
{
  imp_value *x = imp_input_required(nc, 0, "input");
  if (!x)
    return false;
  nc_dtype to;
  int64_t saturate;
  if (!imp_attr_int(nc, "saturate", 1, &saturate))
    return false;
  if (!strcmp(nc->op_type, "CastLike")) {
    imp_value *like = imp_input_required(nc, 1, "target_type");
    if (!like)
      return false;
    to = like->type.dt;
  } else {
    const Onnx__AttributeProto *a = imp_attr(nc, "to");
    int64_t code = 0;
    if (!a)
      return imp_error(nc, "attribute 'to' is required");
    if (a->type == ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__STRING && nc->im->opset < 6) {
      const char *s;
      if (!imp_attr_string(nc, "to", "", &s))
        return false;
      for (int32_t i = 1; i < NC_ONNX_DATA_TYPE_COUNT && !code; i++)
        if (!strcmp(s, nc_onnx_data_type_name(i)))
          code = i;
    } else if (!imp_attr_int(nc, "to", 0, &code)) {
      return false;
    }
    if (code < INT32_MIN || code > INT32_MAX || !nc_onnx_data_type_to_dtype((int32_t)code, &to))
      return code < INT32_MIN || code > INT32_MAX || !strcmp(nc_onnx_data_type_name((int32_t)code), "?")
               ? imp_error(nc, "attribute 'to' = %lld is not an ONNX data type", (long long)code)
               : imp_unsupported(nc, "casting to %s", nc_onnx_data_type_name((int32_t)code));
  }
  nc_tensor *xk = imp_known(nc->im, x);
  if (xk) {
    nc_tensor *y = imp_cast_tensor(nc, xk, to);
    if (y)
      return imp_set_known(nc, 0, y);
  }
  bool handled;
  if (!imp_partial_cast(nc, to, &handled))
    return false;
  if (handled)
    return true;
  if (to == x->type.dt)
    return imp_set_alias(nc, 0, x);
  imp_type t = x->type;
  t.dt = to;
  imp_attrs attrs = {0};
  if (!saturate)
    imp_add_i64(nc, &attrs, "saturate", 0);
  return imp_emit(nc, nc->op->graph, 1, &x, &attrs, 1, &t);
}
