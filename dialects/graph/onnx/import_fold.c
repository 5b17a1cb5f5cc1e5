/* import_fold.c: ONNX shape ops evaluated at import time.
 *
 * PyTorch and other exporters compute shapes inside the graph (Shape,
 * Gather, Unsqueeze, Concat, ConstantOfShape, Range, Where, Expand, ...).
 * The graph dialect has no such ops: with static shapes these chains are
 * evaluated here, with the kernels or with the small loops below, and their
 * results become attributes (Reshape's shape) or constants. Shape of a
 * tensor with dynamic dims gives a partially known vector whose unknown
 * elements remember which dim they copy; Gather, Slice, Concat, Squeeze,
 * Unsqueeze and Cast carry such vectors through (import_data.c resolves
 * them in Reshape). A node here whose inputs are not known at import time is
 * an unsupported op. Everything allocated is charged to the import budget,
 * so a small hostile model cannot ask for gigabytes.
 */
#include "import_internal.h"

#include <math.h>
#include <string.h>

/* The error for a fold-only node whose inputs are computed at run time. */
static bool not_foldable(node_ctx *nc)
{
  for (size_t i = 0; i < nc->n_in; i++)
    if (nc->in[i] && !nc->in[i]->known && !nc->in[i]->init) {
      char nb[160];
      return imp_unsupported_op(nc, "nc evaluates it only at import time, and its input '%s' is %s",
                                onnx_clean_name(nc->in[i]->name, nb, sizeof nb),
                             nc->in[i]->partial ? "derived from dynamic dimensions" : "computed at run time");
    }
  return imp_unsupported_op(nc, "nc evaluates it only at import time");
}

/* ConstantOfShape results with more elements than this become splats. */
#define IMP_SPLAT_THRESHOLD 4096

static bool too_large(node_ctx *nc)
{
  return imp_error(nc, "its result is too large to compute at import time");
}

nc_tensor *imp_cast_tensor(node_ctx *nc, const nc_tensor *t, nc_dtype to)
{
  nc_tensor *y = imp_fold_alloc(nc, to, t->rank, t->shape);
  if (!y)
    return NULL;
  int64_t n = nc_tensor_num_elements(t);
  bool from_int = nc_dtype_is_integer(t->dtype), to_int = nc_dtype_is_integer(to);
  for (int64_t i = 0; i < n; i++) {
    if (to == NC_DT_BOOL)
      nc_tensor_set_i64(y, i, from_int ? nc_tensor_get_i64(t, i) != 0 : nc_tensor_get_f64(t, i) != 0);
    else if (from_int && to_int)
      nc_tensor_set_i64(y, i, nc_tensor_get_i64(t, i));
    else if (to_int)
      nc_tensor_set_i64(y, i, nc_tensor_get_i64(t, i)); /* truncates toward zero */
    else if (t->dtype == NC_DT_I64 || t->dtype == NC_DT_U64)
      nc_tensor_set_f64(y, i, t->dtype == NC_DT_I64 ? (double)nc_tensor_get_i64(t, i) : nc_tensor_get_f64(t, i));
    else
      nc_tensor_set_f64(y, i, nc_tensor_get_f64(t, i));
  }
  return y;
}

/* ---- partially known vectors ---------------------------------------------------------------------------- */
/* Unknown elements are the symbols of the dynamic dims they copy. */

/* True if some input is partial and every present input is known or partial. */
static bool partial_inputs(node_ctx *nc, size_t n)
{
  bool any = false;
  for (size_t i = 0; i < n && i < nc->n_in; i++) {
    imp_value *v = nc->in[i];
    if (!v)
      continue;
    any |= v->partial != NULL;
    if (!v->partial && !imp_partial_of(nc->im, v))
      return false;
  }
  return any;
}

bool imp_partial_concat(node_ctx *nc, int64_t axis, bool *handled)
{
  *handled = false;
  if (!partial_inputs(nc, nc->n_in))
    return true;
  int64_t total = 0;
  for (size_t i = 0; i < nc->n_in; i++) {
    imp_partial *p = imp_partial_of(nc->im, nc->in[i]);
    if (p->rank != 1)
      return imp_error(nc, "concatenates a scalar");
    total += p->n;
  }
  if (axis != 0 && axis != -1)
    return imp_error(nc, "axis %lld is out of range for rank 1", (long long)axis);
  if (total > IMP_MAX_PARTIAL)
    return imp_unsupported(nc, "a shape vector of %lld elements", (long long)total);
  imp_partial *r = imp_partial_new(nc->im, 1, total);
  r->dt = imp_partial_of(nc->im, nc->in[0])->dt;
  int64_t k = 0;
  for (size_t i = 0; i < nc->n_in; i++) {
    imp_partial *p = imp_partial_of(nc->im, nc->in[i]);
    for (int64_t j = 0; j < p->n; j++, k++) {
      r->vals[k] = p->vals[j];
      r->sym[k] = p->sym[j];
    }
  }
  *handled = true;
  return imp_set_partial(nc, 0, r);
}

bool imp_partial_unsqueeze(node_ctx *nc, const int64_t *axes, int64_t naxes, bool *handled)
{
  *handled = false;
  if (!partial_inputs(nc, 1))
    return true;
  imp_partial *p = nc->in[0]->partial;
  if (p->rank != 0 || naxes != 1 || (axes[0] != 0 && axes[0] != -1))
    return imp_unsupported(nc, "unsqueezing a shape vector to rank %lld", (long long)(p->rank + naxes));
  imp_partial *r = imp_partial_new(nc->im, 1, 1);
  r->dt = p->dt;
  r->vals[0] = p->vals[0];
  r->sym[0] = p->sym[0];
  *handled = true;
  return imp_set_partial(nc, 0, r);
}

bool imp_partial_squeeze(node_ctx *nc, const int64_t *axes, int64_t naxes, bool *handled)
{
  *handled = false;
  if (!partial_inputs(nc, 1))
    return true;
  imp_partial *p = nc->in[0]->partial;
  if (p->rank != 1 || p->n != 1 || naxes > 1 || (naxes == 1 && axes[0] != 0 && axes[0] != -1))
    return imp_error(nc, "cannot squeeze a shape vector of %lld elements", (long long)p->n);
  imp_partial *r = imp_partial_new(nc->im, 0, 1);
  r->dt = p->dt;
  r->vals[0] = p->vals[0];
  r->sym[0] = p->sym[0];
  *handled = true;
  return imp_set_partial(nc, 0, r);
}

bool imp_partial_slice(node_ctx *nc, const nc_slice_params *sp, bool *handled)
{
  *handled = false;
  if (!partial_inputs(nc, 1))
    return true;
  imp_partial *p = nc->in[0]->partial;
  if (p->rank != 1)
    return imp_error(nc, "cannot slice a scalar");
  int64_t shape[1] = {p->n}, out[1];
  char err[512];
  if (!nc_kernel_slice_shape(sp, 1, shape, out, err, sizeof err))
    return imp_error(nc, "%s", err);
  int64_t start = 0, step = 1;
  for (int i = 0; i < sp->n; i++) {
    if (sp->axes && sp->axes[i] != 0 && sp->axes[i] != -1)
      return imp_error(nc, "axis %lld is out of range for rank 1", (long long)sp->axes[i]);
    step = sp->steps ? sp->steps[i] : 1;
    start = sp->starts[i] < 0 ? sp->starts[i] + p->n : sp->starts[i];
    start = step > 0 ? (start < 0 ? 0 : start > p->n ? p->n : start)
                     : (start < 0 ? 0 : start > p->n - 1 ? p->n - 1 : start);
  }
  imp_partial *r = imp_partial_new(nc->im, 1, out[0]);
  r->dt = p->dt;
  for (int64_t k = 0; k < out[0]; k++) {
    int64_t j = start + k * step;
    r->vals[k] = p->vals[j];
    r->sym[k] = p->sym[j];
  }
  *handled = true;
  return imp_set_partial(nc, 0, r);
}

bool imp_partial_cast(node_ctx *nc, nc_dtype to, bool *handled)
{
  *handled = false;
  if (!nc->in[0]->partial)
    return true;
  if (to != NC_DT_I64 && to != NC_DT_I32)
    return imp_unsupported(nc, "casting a vector derived from dynamic dimensions to %s", nc_dtype_name(to));
  imp_partial *p = nc->in[0]->partial, *r = imp_partial_new(nc->im, p->rank, p->n);
  memcpy(r->vals, p->vals, (size_t)p->n * sizeof *r->vals);
  memcpy(r->sym, p->sym, (size_t)p->n * sizeof *r->sym);
  r->dt = to;
  *handled = true;
  return imp_set_partial(nc, 0, r);
}

/* ---- Shape, Size ---------------------------------------------------------------------------------------- */

bool imp_fold_shape(node_ctx *nc)
{
  imp_value *x = imp_input_required(nc, 0, "data");
  if (!x)
    return false;
  int64_t start, end;
  if (!imp_attr_int(nc, "start", 0, &start) || !imp_attr_int(nc, "end", INT64_MAX, &end))
    return false;
  int rank = x->type.rank;
  if (rank < 0)
    return imp_unsupported(nc, "Shape of an input of unknown rank");
  start = start < 0 ? start + rank : start;
  end = end < 0 ? end + rank : end;
  start = start < 0 ? 0 : start > rank ? rank : start;
  end = end < 0 ? 0 : end > rank ? rank : end;
  imp_partial *p = imp_partial_new(nc->im, 1, end > start ? end - start : 0);
  for (int64_t k = 0; k < p->n; k++) {
    int64_t d = x->type.dims[start + k];
    p->vals[k] = d < 0 ? -1 : d;
    p->sym[k] = d < 0 ? x->type.sym[start + k] : 0;
  }
  return imp_set_partial(nc, 0, p);
}

bool imp_fold_size(node_ctx *nc)
{
  imp_value *x = imp_input_required(nc, 0, "data");
  if (!x)
    return false;
  if (!imp_type_is_static(&x->type))
    return imp_unsupported_op(nc, "nc evaluates it only at import time, and its input has dynamic dimensions");
  nc_tensor *t = nc_tensor_create(NC_DT_I64, 0, NULL, 0);
  int64_t n = 1;
  for (int i = 0; i < x->type.rank; i++)
    n *= x->type.dims[i];
  ((int64_t *)t->data)[0] = n;
  return imp_set_known(nc, 0, t);
}

/* ---- Gather --------------------------------------------------------------------------------------------- */

bool imp_fold_gather(node_ctx *nc)
{
  imp_value *data = imp_input_required(nc, 0, "data"), *idx = imp_input_required(nc, 1, "indices");
  if (!data || !idx)
    return false;
  int64_t axis;
  if (!imp_attr_int(nc, "axis", 0, &axis))
    return false;
  nc_tensor *ik = imp_known(nc->im, idx);
  if (!ik)
    return not_foldable(nc);
  if (!nc_dtype_is_integer(ik->dtype))
    return imp_error(nc, "indices must be integers");
  int64_t ni = nc_tensor_num_elements(ik);
  if (data->partial) { /* picking elements of a shape vector */
    imp_partial *p = data->partial;
    if (p->rank != 1 || (axis != 0 && axis != -1) || ik->rank > 1)
      return imp_unsupported(nc, "gathering from a shape vector along axis %lld", (long long)axis);
    if (ni > IMP_MAX_PARTIAL)
      return imp_unsupported(nc, "a shape vector of %lld elements", (long long)ni);
    imp_partial *r = imp_partial_new(nc->im, ik->rank, ni);
    r->dt = p->dt;
    for (int64_t k = 0; k < ni; k++) {
      int64_t j = nc_tensor_get_i64(ik, k);
      j = j < 0 ? j + p->n : j;
      if (j < 0 || j >= p->n)
        return imp_error(nc, "index %lld is out of range [0, %lld)", (long long)nc_tensor_get_i64(ik, k),
                         (long long)p->n);
      r->vals[k] = p->vals[j];
      r->sym[k] = p->sym[j];
    }
    return imp_set_partial(nc, 0, r);
  }
  nc_tensor *dk = imp_known(nc->im, data);
  if (!dk)
    return not_foldable(nc);
  int64_t a;
  if (!imp_axis(nc, "axis", axis, dk->rank, false, &a))
    return false;
  int out_rank = dk->rank - 1 + ik->rank;
  if (out_rank > NC_TENSOR_MAX_RANK)
    return imp_unsupported(nc, "a result of rank %d", out_rank);
  int64_t shape[NC_TENSOR_MAX_RANK], outer = 1, inner = 1, dim = dk->shape[a];
  int r = 0;
  for (int i = 0; i < a; i++)
    outer *= shape[r++] = dk->shape[i];
  for (int i = 0; i < ik->rank; i++)
    shape[r++] = ik->shape[i];
  for (int i = (int)a + 1; i < dk->rank; i++)
    inner *= shape[r++] = dk->shape[i];
  nc_tensor *y = imp_fold_alloc(nc, dk->dtype, out_rank, shape);
  if (!y)
    return too_large(nc);
  size_t es = nc_dtype_size(dk->dtype), row = (size_t)inner * es;
  for (int64_t o = 0; o < outer; o++)
    for (int64_t k = 0; k < ni; k++) {
      int64_t j = nc_tensor_get_i64(ik, k);
      j = j < 0 ? j + dim : j;
      if (j < 0 || j >= dim) {
        nc_tensor_destroy(y);
        return imp_error(nc, "index %lld is out of range [0, %lld)", (long long)nc_tensor_get_i64(ik, k),
                         (long long)dim);
      }
      memcpy((char *)y->data + (size_t)(o * ni + k) * row, (char *)dk->data + (size_t)(o * dim + j) * row, row);
    }
  return imp_set_known(nc, 0, y);
}

/* ---- ConstantOfShape, Range, Expand, Tile --------------------------------------------------------------- */

bool imp_fold_constant_of_shape(node_ctx *nc)
{
  int64_t *shape, n;
  if (!imp_input_required(nc, 0, "input"))
    return false;
  if (!imp_known(nc->im, nc->in[0]))
    return not_foldable(nc);
  if (!imp_const_ints(nc, 0, "input", &shape, &n))
    return false;
  if (n > NC_TENSOR_MAX_RANK)
    return imp_unsupported(nc, "a result of rank %lld", (long long)n);
  for (int64_t i = 0; i < n; i++)
    if (shape[i] < 0)
      return imp_error(nc, "dimension %lld of the shape is negative (%lld)", (long long)i, (long long)shape[i]);
  const Onnx__AttributeProto *a = imp_attr(nc, "value");
  nc_tensor *v = NULL;
  char err[512];
  if (a) {
    if (a->type != ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__TENSOR)
      return imp_error(nc, "attribute 'value' must be a TENSOR");
    if (!(v = nc_onnx_tensor_to_host(a->t, err, sizeof err)))
      return imp_error(nc, "its value cannot be imported: %s", err);
    if (nc_tensor_num_elements(v) != 1) {
      nc_tensor_destroy(v);
      return imp_error(nc, "attribute 'value' must have one element");
    }
  }
  /* a large fill stays one element (a splat constant); small ones stay known,
   * for the shape computations that read them */
  int64_t elements = 1;
  for (int64_t i = 0; i < n; i++)
    elements = shape[i] && elements > INT64_MAX / shape[i] ? INT64_MAX : elements * shape[i];
  if (elements > IMP_SPLAT_THRESHOLD) {
    if (!v) {
      float zero = 0;
      v = nc_tensor_create(NC_DT_F32, 0, NULL, 0);
      if (!v)
        return too_large(nc);
      memcpy(v->data, &zero, sizeof zero);
    }
    return imp_set_splat(nc, 0, v, (int)n, shape);
  }
  nc_tensor *y = imp_fold_alloc(nc, v ? v->dtype : NC_DT_F32, (int)n, shape);
  if (!y) {
    nc_tensor_destroy(v);
    return too_large(nc);
  }
  if (v) {
    size_t es = nc_dtype_size(v->dtype);
    for (int64_t i = 0, m = nc_tensor_num_elements(y); i < m; i++)
      memcpy((char *)y->data + (size_t)i * es, v->data, es);
  }
  nc_tensor_destroy(v);
  return imp_set_known(nc, 0, y);
}

bool imp_fold_range(node_ctx *nc)
{
  for (size_t i = 0; i < 3; i++)
    if (!imp_input_required(nc, i, i == 0 ? "start" : i == 1 ? "limit" : "delta"))
      return false;
  if (!imp_all_known(nc))
    return not_foldable(nc);
  nc_tensor *s = imp_known(nc->im, nc->in[0]), *l = imp_known(nc->im, nc->in[1]), *d = imp_known(nc->im, nc->in[2]);
  if (nc_tensor_num_elements(s) != 1 || nc_tensor_num_elements(l) != 1 || nc_tensor_num_elements(d) != 1)
    return imp_error(nc, "start, limit and delta must be scalars");
  bool is_int = nc_dtype_is_integer(s->dtype);
  double fs = nc_tensor_get_f64(s, 0), fl = nc_tensor_get_f64(l, 0), fd = nc_tensor_get_f64(d, 0);
  if (fd == 0 || isnan(fs) || isnan(fl) || isnan(fd))
    return imp_error(nc, "delta is zero or a value is NaN");
  double count = ceil((fl - fs) / fd);
  if (!(count <= 1e12))
    return too_large(nc);
  int64_t n = count > 0 ? (int64_t)count : 0;
  nc_tensor *y = imp_fold_alloc(nc, s->dtype, 1, &n);
  if (!y)
    return too_large(nc);
  int64_t is = nc_tensor_get_i64(s, 0), id = nc_tensor_get_i64(d, 0);
  for (int64_t i = 0; i < n; i++) {
    if (is_int)
      nc_tensor_set_i64(y, i, (int64_t)((uint64_t)is + (uint64_t)i * (uint64_t)id));
    else
      nc_tensor_set_f64(y, i, fs + (double)i * fd);
  }
  return imp_set_known(nc, 0, y);
}

bool imp_fold_expand(node_ctx *nc)
{
  if (!imp_input_required(nc, 0, "input") || !imp_input_required(nc, 1, "shape"))
    return false;
  if (!imp_all_known(nc))
    return not_foldable(nc);
  nc_tensor *x = imp_known(nc->im, nc->in[0]);
  int64_t *shape, n, out[NC_TENSOR_MAX_RANK];
  int rank;
  char err[512];
  if (!imp_const_ints(nc, 1, "shape", &shape, &n))
    return false;
  if (n > NC_TENSOR_MAX_RANK)
    return imp_unsupported(nc, "a result of rank %lld", (long long)n);
  if (!nc_kernel_expand_shape(x->rank, x->shape, (int)n, shape, &rank, out, err, sizeof err))
    return imp_error(nc, "%s", err);
  nc_tensor *y = imp_fold_alloc(nc, x->dtype, rank, out);
  if (!y)
    return too_large(nc);
  if (!nc_kernel_expand(x, y, err, sizeof err)) {
    nc_tensor_destroy(y);
    return imp_error(nc, "%s", err);
  }
  return imp_set_known(nc, 0, y);
}

bool imp_fold_tile(node_ctx *nc)
{
  if (!imp_input_required(nc, 0, "input") || !imp_input_required(nc, 1, "repeats"))
    return false;
  if (!imp_all_known(nc))
    return not_foldable(nc);
  nc_tensor *x = imp_known(nc->im, nc->in[0]);
  int64_t *rep, n, shape[NC_TENSOR_MAX_RANK];
  if (!imp_const_ints(nc, 1, "repeats", &rep, &n))
    return false;
  if (n != x->rank)
    return imp_error(nc, "'repeats' has %lld values for a tensor of rank %d", (long long)n, x->rank);
  for (int i = 0; i < x->rank; i++) {
    if (rep[i] < 0 || (rep[i] && x->shape[i] > INT64_MAX / rep[i]))
      return imp_error(nc, "repeat %lld is invalid", (long long)rep[i]);
    shape[i] = x->shape[i] * rep[i];
  }
  nc_tensor *y = imp_fold_alloc(nc, x->dtype, x->rank, shape);
  if (!y)
    return too_large(nc);
  size_t es = nc_dtype_size(x->dtype);
  for (int64_t i = 0, m = nc_tensor_num_elements(y); i < m; i++) {
    int64_t rem = i, src = 0, stride = 1;
    for (int d = x->rank - 1; d >= 0; d--) {
      int64_t c = rem % shape[d];
      rem /= shape[d];
      src += (c % x->shape[d]) * stride;
      stride *= x->shape[d];
    }
    memcpy((char *)y->data + (size_t)i * es, (char *)x->data + (size_t)src * es, es);
  }
  return imp_set_known(nc, 0, y);
}

/* ---- elementwise logic with numpy broadcasting ---------------------------------------------------------- */

/* The row-major index into a tensor of shape `in` (right-aligned against
 * `out`) of element i of `out`. */
static int64_t bcast_index(int64_t i, int out_rank, const int64_t *out, int in_rank, const int64_t *in)
{
  int64_t src = 0, stride = 1;
  for (int d = out_rank - 1; d >= 0; d--) {
    int64_t c = i % out[d];
    i /= out[d];
    int k = d - (out_rank - in_rank);
    if (k >= 0) {
      src += (in[k] == 1 ? 0 : c) * stride;
      stride *= in[k];
    }
  }
  return src;
}

/* Folds y[i] = f(inputs at i) over n broadcast inputs into a tensor of dtype dt. */
typedef void (*elem_fn)(const void *ud, nc_tensor *const *in, const int64_t *idx, nc_tensor *y, int64_t i);
static bool fold_elementwise(node_ctx *nc, int n, nc_dtype dt, elem_fn fn, const void *ud)
{
  for (int i = 0; i < n; i++)
    if (!imp_input_required(nc, (size_t)i, "input"))
      return false;
  if (!imp_all_known(nc))
    return not_foldable(nc);
  nc_tensor *in[3];
  imp_type t = {.dt = dt, .rank = 0};
  for (int i = 0; i < n; i++) {
    in[i] = imp_known(nc->im, nc->in[i]);
    imp_type ti = imp_type_of_tensor(in[i]), r = {.dt = dt};
    if (!imp_broadcast(nc, &t, &ti, &r))
      return false;
    t = r;
  }
  nc_tensor *y = imp_fold_alloc(nc, dt, t.rank, t.dims);
  if (!y)
    return too_large(nc);
  int64_t idx[3];
  for (int64_t i = 0, m = nc_tensor_num_elements(y); i < m; i++) {
    for (int k = 0; k < n; k++)
      idx[k] = bcast_index(i, t.rank, t.dims, in[k]->rank, in[k]->shape);
    fn(ud, in, idx, y, i);
  }
  return imp_set_known(nc, 0, y);
}

static void elem_compare(const void *ud, nc_tensor *const *in, const int64_t *idx, nc_tensor *y, int64_t i)
{
  const char *op = ud;
  int c;
  if (nc_dtype_is_integer(in[0]->dtype) && in[0]->dtype != NC_DT_U64) {
    int64_t a = nc_tensor_get_i64(in[0], idx[0]), b = nc_tensor_get_i64(in[1], idx[1]);
    c = a < b ? -1 : a > b;
  } else {
    double a = nc_tensor_get_f64(in[0], idx[0]), b = nc_tensor_get_f64(in[1], idx[1]);
    c = a < b ? -1 : a > b ? 1 : a == b ? 0 : 2; /* 2: unordered */
  }
  bool r = !strcmp(op, "Equal") ? c == 0 : !strcmp(op, "Less") ? c == -1 : !strcmp(op, "Greater") ? c == 1
         : !strcmp(op, "LessOrEqual") ? (c == -1 || c == 0) : (c == 1 || c == 0);
  nc_tensor_set_i64(y, i, r);
}

bool imp_fold_compare(node_ctx *nc)
{
  if (imp_input(nc, 0) && imp_input(nc, 1) && nc->in[0]->type.dt != nc->in[1]->type.dt)
    return imp_error(nc, "operands have different element types");
  return fold_elementwise(nc, 2, NC_DT_BOOL, elem_compare, nc->op_type);
}

static void elem_logic(const void *ud, nc_tensor *const *in, const int64_t *idx, nc_tensor *y, int64_t i)
{
  const char *op = ud;
  bool a = nc_tensor_get_i64(in[0], idx[0]) != 0, b = nc_tensor_get_i64(in[1], idx[1]) != 0;
  nc_tensor_set_i64(y, i, !strcmp(op, "And") ? a && b : !strcmp(op, "Or") ? a || b : a != b);
}

bool imp_fold_logic(node_ctx *nc) { return fold_elementwise(nc, 2, NC_DT_BOOL, elem_logic, nc->op_type); }

static void elem_not(const void *ud, nc_tensor *const *in, const int64_t *idx, nc_tensor *y, int64_t i)
{
  nc_tensor_set_i64(y, i, nc_tensor_get_i64(in[0], idx[0]) == 0);
}

bool imp_fold_not(node_ctx *nc) { return fold_elementwise(nc, 1, NC_DT_BOOL, elem_not, NULL); }

static void elem_where(const void *ud, nc_tensor *const *in, const int64_t *idx, nc_tensor *y, int64_t i)
{
  int k = nc_tensor_get_i64(in[0], idx[0]) ? 1 : 2;
  size_t es = nc_dtype_size(y->dtype);
  memcpy((char *)y->data + (size_t)i * es, (char *)in[k]->data + (size_t)idx[k] * es, es);
}

bool imp_fold_where(node_ctx *nc)
{
  if (!imp_input_required(nc, 1, "X") || !imp_input_required(nc, 2, "Y"))
    return false;
  if (nc->in[1]->type.dt != nc->in[2]->type.dt)
    return imp_error(nc, "X and Y have different element types");
  return fold_elementwise(nc, 3, nc->in[1]->type.dt, elem_where, NULL);
}

/* ---- Floor/Ceil/Round, ReduceProd, Mod ------------------------------------------------------------------ */

bool imp_fold_rounding(node_ctx *nc)
{
  imp_value *x = imp_input_required(nc, 0, "X");
  if (!x)
    return false;
  nc_tensor *xk = imp_known(nc->im, x);
  if (!xk)
    return not_foldable(nc);
  nc_unary_op op = !strcmp(nc->op_type, "Floor") ? NC_UNARY_FLOOR
                 : !strcmp(nc->op_type, "Ceil") ? NC_UNARY_CEIL : NC_UNARY_ROUND;
  nc_unary_params p = nc_unary_params_default(op);
  nc_tensor *y = imp_fold_alloc(nc, xk->dtype, xk->rank, xk->shape);
  char err[512];
  if (!y)
    return too_large(nc);
  if (!nc_kernel_unary(op, &p, xk, y, err, sizeof err)) {
    nc_tensor_destroy(y);
    return imp_error(nc, "%s", err);
  }
  return imp_set_known(nc, 0, y);
}

bool imp_fold_reduce_prod(node_ctx *nc)
{
  imp_value *x = imp_input_required(nc, 0, "data");
  if (!x)
    return false;
  int64_t keepdims, noop = 0, n = 0, *axes = NULL;
  if (!imp_attr_int(nc, "keepdims", 1, &keepdims))
    return false;
  if (nc->im->opset >= 18) {
    if (!imp_attr_int(nc, "noop_with_empty_axes", 0, &noop))
      return false;
    if (imp_input(nc, 1) && !imp_const_ints(nc, 1, "axes", &axes, &n))
      return false;
  } else {
    const int64_t *v;
    size_t k;
    bool has;
    if (!imp_attr_ints(nc, "axes", &v, &k, &has))
      return false;
    axes = (int64_t *)v;
    n = (int64_t)k;
  }
  nc_tensor *xk = imp_known(nc->im, x);
  if (!xk)
    return not_foldable(nc);
  if (noop && !n)
    return imp_set_alias(nc, 0, x);
  if (n > NC_TENSOR_MAX_RANK)
    return imp_error(nc, "has %lld axes", (long long)n);
  nc_reduce_params p = {.naxes = (int)n, .axes = axes, .keepdims = keepdims != 0};
  int rank;
  int64_t shape[NC_TENSOR_MAX_RANK];
  char err[512];
  if (!nc_kernel_reduce_shape(&p, xk->rank, xk->shape, &rank, shape, err, sizeof err))
    return imp_error(nc, "%s", err);
  nc_tensor *y = imp_fold_alloc(nc, xk->dtype, rank, shape);
  if (!y)
    return too_large(nc);
  if (!nc_kernel_reduce(NC_REDUCE_PROD, &p, xk, y, err, sizeof err)) {
    nc_tensor_destroy(y);
    return imp_error(nc, "%s", err);
  }
  return imp_set_known(nc, 0, y);
}

bool imp_fold_mod(node_ctx *nc)
{
  if (!imp_input_required(nc, 0, "A") || !imp_input_required(nc, 1, "B"))
    return false;
  int64_t fmod;
  if (!imp_attr_int(nc, "fmod", 0, &fmod))
    return false;
  if (!imp_all_known(nc))
    return not_foldable(nc);
  nc_tensor *a = imp_known(nc->im, nc->in[0]), *b = imp_known(nc->im, nc->in[1]);
  imp_type ta = imp_type_of_tensor(a), tb = imp_type_of_tensor(b), t = {.dt = a->dtype};
  if (!imp_broadcast(nc, &ta, &tb, &t))
    return false;
  nc_tensor *y = imp_fold_alloc(nc, t.dt, t.rank, t.dims);
  char err[512];
  if (!y)
    return too_large(nc);
  if (!nc_kernel_binary(fmod ? NC_BINARY_FMOD : NC_BINARY_MOD, a, b, y, err, sizeof err)) {
    nc_tensor_destroy(y);
    return imp_error(nc, "%s", err);
  }
  return imp_set_known(nc, 0, y);
}
