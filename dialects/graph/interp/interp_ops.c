/* interp_ops.c: the interpreter's dispatch table, one handler per graph op.
 *
 * A handler's `prepare` reads the op's attributes once (through the graph
 * API, which applies ONNX's defaults) into the kernel parameter structs;
 * its `run` computes the result shapes with the kernels' shape functions
 * (from the actual operand shapes, so dynamic dims work), allocates the
 * results with their declared element types and calls the kernel. The
 * table is generated from graph_ops.def, whose INTERP column names the two
 * hooks of each op: adding an op to the interpreter is naming its hooks in
 * its row (and writing them here if no existing ones fit).
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "interp_internal.h"

#define IN(k) ((k) < inst->n_in ? a->in[k] : NULL)
#define ERR a->err, a->errlen

bool ix_fail(ix_args *a, const char *fmt, ...)
{
  if (a->err && a->errlen) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(a->err, a->errlen, fmt, ap);
    va_end(ap);
  }
  return false;
}

nc_tensor *ix_alloc(nc_dtype dt, int rank, const int64_t *shape, ix_args *a)
{
  nc_tensor *t = nc_tensor_create(dt, rank, shape, 0);
  if (!t) {
    char buf[160];
    nc_tensor tmp = {.dtype = dt, .rank = rank};
    for (int i = 0; i < rank && i < NC_TENSOR_MAX_RANK; i++)
      tmp.shape[i] = shape[i];
    ix_fail(a, "cannot allocate a result of type %s (out of memory or too large)",
            nc_interp_tensor_type_str(&tmp, buf, sizeof buf));
  }
  return t;
}

/* Allocates result i with its declared element type. */
static bool out(const ix_inst *inst, ix_args *a, size_t i, int rank, const int64_t *shape)
{
  return (a->out[i] = ix_alloc(inst->out_dt[i], rank, shape, a)) != NULL;
}

/* Operands that shape functions read with another operand's rank must agree. */
static bool same_rank(ix_args *a, const nc_tensor *x, const nc_tensor *w, const char *what)
{
  return x->rank == w->rank || ix_fail(a, "%s has rank %d but the input has rank %d", what, w->rank, x->rank);
}

/* --- constants ------------------------------------------------------------------------------------------- */

/* Functions read their constants once, at creation (interp.c); this runs
 * only for nc_interp_eval_op on a graph.constant. */
static bool run_constant(const ix_inst *inst, ix_args *a)
{
  char msg[IX_ERRLEN];
  bool view;
  nc_tensor *t = ix_constant_tensor(inst->op, &view, msg, sizeof msg);
  if (!t)
    return ix_fail(a, "%s", msg);
  a->out[0] = view ? nc_tensor_clone(t) : t;
  if (view)
    free(t);
  return true;
}

/* --- data movement without arithmetic -------------------------------------------------------------------- */

/* Result 0 gets x's data in a new shape: the buffer itself if x dies here. */
static bool move_or_copy(const ix_inst *inst, ix_args *a, int rank, const int64_t *shape)
{
  nc_tensor *x = a->in[0];
  if (a->donated[0] && x->dtype == inst->out_dt[0]) { /* the shape functions keep the element count */
    nc_tensor *y = nc_xcalloc(1, sizeof *y);
    y->dtype = x->dtype;
    y->rank = rank;
    memcpy(y->shape, shape, (size_t)rank * sizeof *shape);
    y->data = x->data;
    x->data = NULL;
    a->out[0] = y;
    return true;
  }
  return out(inst, a, 0, rank, shape) && nc_kernel_reshape(x, a->out[0], ERR);
}

static bool run_identity(const ix_inst *inst, ix_args *a)
{
  return move_or_copy(inst, a, a->in[0]->rank, a->in[0]->shape);
}

static bool prep_reshape(ix_inst *inst, char *err, size_t errlen)
{
  inst->p.reshape.shape = nc_graph_attr_ints(inst->op, "shape", &inst->p.reshape.n);
  inst->p.reshape.allowzero = nc_graph_attr_int(inst->op, "allowzero", 0) != 0;
  if (!nc_op_get_attr_str(inst->op, "shape"))
    return snprintf(err, errlen, "has no 'shape' attribute"), false;
  if (inst->p.reshape.n > NC_TENSOR_MAX_RANK)
    return snprintf(err, errlen, "reshapes to rank %zu; the interpreter supports up to %d", inst->p.reshape.n,
                    NC_TENSOR_MAX_RANK), false;
  return true;
}

static bool run_reshape(const ix_inst *inst, ix_args *a)
{
  nc_tensor *x = a->in[0];
  int64_t shape[NC_TENSOR_MAX_RANK];
  int n = (int)inst->p.reshape.n;
  return nc_kernel_reshape_shape(x->rank, x->shape, n, inst->p.reshape.shape, inst->p.reshape.allowzero, shape,
                                 ERR) &&
         move_or_copy(inst, a, n, shape);
}

static bool prep_axis1(ix_inst *inst, char *err, size_t errlen)
{
  (void)err, (void)errlen;
  inst->p.axis = nc_graph_attr_int(inst->op, "axis", 1);
  return true;
}

static bool run_flatten(const ix_inst *inst, ix_args *a)
{
  nc_tensor *x = a->in[0];
  int64_t shape[2];
  return nc_kernel_flatten_shape(inst->p.axis, x->rank, x->shape, shape, ERR) && move_or_copy(inst, a, 2, shape);
}

static bool prep_axes(ix_inst *inst, char *err, size_t errlen)
{
  (void)err, (void)errlen;
  inst->p.ints.v = nc_graph_attr_ints(inst->op, "axes", &inst->p.ints.n);
  return true;
}

static bool run_squeeze(const ix_inst *inst, ix_args *a)
{
  nc_tensor *x = a->in[0];
  int64_t shape[NC_TENSOR_MAX_RANK];
  int rank;
  return nc_kernel_squeeze_shape((int)inst->p.ints.n, inst->p.ints.v, x->rank, x->shape, &rank, shape, ERR) &&
         move_or_copy(inst, a, rank, shape);
}

static bool run_unsqueeze(const ix_inst *inst, ix_args *a)
{
  nc_tensor *x = a->in[0];
  int64_t shape[NC_TENSOR_MAX_RANK];
  int rank;
  if ((size_t)x->rank + inst->p.ints.n > NC_TENSOR_MAX_RANK)
    return ix_fail(a, "the result would have rank %zu; the interpreter supports up to %d",
                   (size_t)x->rank + inst->p.ints.n, NC_TENSOR_MAX_RANK);
  return nc_kernel_unsqueeze_shape((int)inst->p.ints.n, inst->p.ints.v, x->rank, x->shape, &rank, shape, ERR) &&
         move_or_copy(inst, a, rank, shape);
}

static bool prep_transpose(ix_inst *inst, char *err, size_t errlen)
{
  (void)err, (void)errlen;
  inst->p.ints.v = nc_graph_attr_ints(inst->op, "perm", &inst->p.ints.n);
  return true;
}

static bool run_transpose(const ix_inst *inst, ix_args *a)
{
  nc_tensor *x = a->in[0];
  int64_t shape[NC_TENSOR_MAX_RANK];
  if (inst->p.ints.v && inst->p.ints.n != (size_t)x->rank)
    return ix_fail(a, "perm has %zu entries but the input has rank %d", inst->p.ints.n, x->rank);
  return nc_kernel_transpose_shape(inst->p.ints.v, x->rank, x->shape, shape, ERR) &&
         out(inst, a, 0, x->rank, shape) && nc_kernel_transpose(inst->p.ints.v, x, a->out[0], ERR);
}

static bool run_cast(const ix_inst *inst, ix_args *a)
{
  nc_tensor *x = a->in[0];
  if (!out(inst, a, 0, x->rank, x->shape))
    return false;
  ix_cast(x, a->out[0]);
  return true;
}

static bool prep_concat(ix_inst *inst, char *err, size_t errlen)
{
  if (!nc_op_get_attr_str(inst->op, "axis"))
    return snprintf(err, errlen, "has no 'axis' attribute"), false;
  inst->p.axis = nc_graph_attr_int(inst->op, "axis", 0);
  return true;
}

/* The result of concatenating every input along `axis` (float and integer
 * concat share it): checks ranks and shapes, then makes the output. */
static bool concat_out(const ix_inst *inst, ix_args *a, int64_t axis)
{
  int n = (int)inst->n_in, rank = a->in[0]->rank;
  const int64_t **shapes = nc_xmalloc((size_t)n * sizeof *shapes);
  bool ok = true;
  for (int i = 0; i < n && ok; i++) {
    shapes[i] = a->in[i]->shape;
    ok = same_rank(a, a->in[0], a->in[i], "an operand");
  }
  int64_t shape[NC_TENSOR_MAX_RANK];
  ok = ok && nc_kernel_concat_shape(axis, n, rank, shapes, shape, ERR) && out(inst, a, 0, rank, shape);
  free(shapes);
  return ok;
}

static bool run_concat(const ix_inst *inst, ix_args *a)
{
  return concat_out(inst, a, inst->p.axis) &&
         nc_kernel_concat(inst->p.axis, (int)inst->n_in, (const nc_tensor *const *)a->in, a->out[0], ERR);
}

static bool prep_split(ix_inst *inst, char *err, size_t errlen)
{
  inst->p.split.sizes = nc_graph_attr_ints(inst->op, "split", &inst->p.split.n);
  inst->p.split.axis = nc_graph_attr_int(inst->op, "axis", 0);
  if (inst->p.split.sizes && inst->p.split.n != inst->n_out)
    return snprintf(err, errlen, "has %zu 'split' sizes for %zu results", inst->p.split.n, inst->n_out), false;
  return true;
}

static bool run_split(const ix_inst *inst, ix_args *a)
{
  nc_tensor *x = a->in[0];
  int n = (int)inst->n_out;
  int64_t axis = inst->p.split.axis;
  int64_t *sizes = nc_xmalloc((size_t)n * sizeof *sizes);
  bool ok = nc_kernel_split_sizes(axis, x->rank, x->shape, n, inst->p.split.sizes, sizes, ERR);
  int ax = (int)(axis < 0 ? axis + x->rank : axis);
  for (int i = 0; i < n && ok; i++) {
    int64_t shape[NC_TENSOR_MAX_RANK];
    memcpy(shape, x->shape, sizeof shape);
    shape[ax] = sizes[i];
    ok = out(inst, a, (size_t)i, x->rank, shape);
  }
  ok = ok && nc_kernel_split(axis, n, sizes, x, a->out, ERR);
  free(sizes);
  return ok;
}

static bool prep_slice(ix_inst *inst, char *err, size_t errlen)
{
  return nc_graph_get_slice_params(inst->op, &inst->p.slice) ||
         (snprintf(err, errlen, "has malformed starts/ends/axes/steps attributes"), false);
}

static bool run_slice(const ix_inst *inst, ix_args *a)
{
  nc_tensor *x = a->in[0];
  int64_t shape[NC_TENSOR_MAX_RANK];
  return nc_kernel_slice_shape(&inst->p.slice, x->rank, x->shape, shape, ERR) && out(inst, a, 0, x->rank, shape) &&
         nc_kernel_slice(&inst->p.slice, x, a->out[0], ERR);
}

static bool prep_pad(ix_inst *inst, char *err, size_t errlen)
{
  double value;
  if (!nc_graph_get_pad_params(inst->op, &inst->p.pad, &value))
    return snprintf(err, errlen, "has malformed 'pads' or 'mode' attributes"), false;
  inst->owned[0] = ix_scalar(inst->in0_dt, value, (int64_t)value, nc_dtype_is_integer(inst->in0_dt));
  return true;
}

static bool run_pad(const ix_inst *inst, ix_args *a)
{
  nc_tensor *x = a->in[0];
  int64_t shape[NC_TENSOR_MAX_RANK];
  size_t n;
  nc_graph_attr_ints(inst->op, "pads", &n);
  if (n != 2 * (size_t)x->rank)
    return ix_fail(a, "has %zu pads for an input of rank %d (expected %d)", n, x->rank, 2 * x->rank);
  return nc_kernel_pad_shape(&inst->p.pad, x->rank, x->shape, shape, ERR) && out(inst, a, 0, x->rank, shape) &&
         nc_kernel_pad(&inst->p.pad, x, inst->owned[0], a->out[0], ERR);
}

static bool prep_resize(ix_inst *inst, char *err, size_t errlen)
{
  nc_attr *c = nc_op_get_attr_str(inst->op, "coordinate_transformation_mode");
  nc_attr *m = nc_op_get_attr_str(inst->op, "nearest_mode");
  inst->p.resize.coord = c && nc_attr_get_kind(c) == NC_ATTR_STRING ? nc_attr_get_string(c, NULL) : "half_pixel";
  inst->p.resize.nearest = m && nc_attr_get_kind(m) == NC_ATTR_STRING ? nc_attr_get_string(m, NULL)
                                                                       : "round_prefer_floor";
  inst->p.resize.linear = !strcmp(nc_graph_attr_string(inst->op, "mode", "nearest"), "linear");
  int64_t one, abd[3];
  return inst->p.resize.linear
           ? nc_kernel_resize_linear_coord(inst->p.resize.coord, 1, 1, abd, err, errlen)
           : nc_kernel_resize_nearest_map(inst->p.resize.coord, inst->p.resize.nearest, 1, 1, &one, err, errlen);
}

static bool run_resize(const ix_inst *inst, ix_args *a)
{
  nc_tensor *x = a->in[0];
  size_t n;
  const int64_t *sizes = nc_graph_attr_ints(inst->op, "sizes", &n);
  if (!sizes || n != (size_t)x->rank)
    return ix_fail(a, "has %zu sizes for an input of rank %d", n, x->rank);
  if (!out(inst, a, 0, x->rank, sizes))
    return false;
  return inst->p.resize.linear ? nc_kernel_resize_linear(inst->p.resize.coord, x, a->out[0], ERR)
                               : nc_kernel_resize_nearest(inst->p.resize.coord, inst->p.resize.nearest, x, a->out[0], ERR);
}

static bool run_channel_shuffle(const ix_inst *inst, ix_args *a)
{
  nc_tensor *x = a->in[0];
  int64_t g = nc_graph_attr_int(inst->op, "group", 0), c = x->rank >= 2 ? x->shape[1] : 0;
  if (g < 1 || c % g)
    return ix_fail(a, "group %lld does not divide %lld channels", (long long)g, (long long)c);
  if (!out(inst, a, 0, x->rank, x->shape))
    return false;
  int64_t plane = 1;
  for (int d = 2; d < x->rank; d++)
    plane *= x->shape[d];
  size_t bytes = (size_t)plane * nc_dtype_size(x->dtype);
  const char *src = x->data;
  char *dst = a->out[0]->data;
  for (int64_t n = 0; n < x->shape[0]; n++)
    for (int64_t k = 0; k < c; k++) /* result channel k = i * g + j reads j * (c / g) + i */
      memcpy(dst + (size_t)(n * c + k) * bytes, src + (size_t)(n * c + k % g * (c / g) + k / g) * bytes, bytes);
  return true;
}

/* --- products and convolutions ----------------------------------------------------------------------------- */

static bool prep_conv(ix_inst *inst, char *err, size_t errlen)
{
  return nc_graph_get_conv_params(inst->op, &inst->p.conv) ||
         (snprintf(err, errlen, "has malformed convolution attributes or an input that is not 3-D to 5-D"), false);
}

/* Shape of a convolution of x by w (any of the conv flavours). */
static bool conv_out(const ix_inst *inst, ix_args *a, const nc_tensor *x, const nc_tensor *w)
{
  int64_t shape[NC_TENSOR_MAX_RANK];
  return same_rank(a, x, w, "the weight") &&
         nc_kernel_conv_shape(&inst->p.conv, x->rank, x->shape, w->shape, shape, ERR) &&
         out(inst, a, 0, x->rank, shape);
}

static bool run_conv(const ix_inst *inst, ix_args *a)
{
  return conv_out(inst, a, a->in[0], a->in[1]) &&
         nc_kernel_conv(&inst->p.conv, a->in[0], a->in[1], IN(2), a->out[0], ERR);
}

static bool run_conv_integer(const ix_inst *inst, ix_args *a)
{
  return conv_out(inst, a, a->in[0], a->in[1]) &&
         nc_kernel_conv_integer(&inst->p.conv, a->in[0], a->in[1], IN(2), IN(3), a->out[0], ERR);
}

static bool run_qlinear_conv(const ix_inst *inst, ix_args *a)
{
  return conv_out(inst, a, a->in[0], a->in[3]) &&
         nc_kernel_qlinear_conv(&inst->p.conv, a->in[0], a->in[1], a->in[2], a->in[3], a->in[4], a->in[5], a->in[6],
                                a->in[7], IN(8), a->out[0], ERR);
}

static bool prep_conv_transpose(ix_inst *inst, char *err, size_t errlen)
{
  return nc_graph_get_conv_transpose_params(inst->op, &inst->p.conv_t) ||
         (snprintf(err, errlen, "has malformed convolution attributes or an input that is not 3-D to 5-D"), false);
}

static bool run_conv_transpose(const ix_inst *inst, ix_args *a)
{
  nc_tensor *x = a->in[0], *w = a->in[1];
  int64_t shape[NC_TENSOR_MAX_RANK];
  return same_rank(a, x, w, "the weight") &&
         nc_kernel_conv_transpose_shape(&inst->p.conv_t, x->rank, x->shape, w->shape, shape, ERR) &&
         out(inst, a, 0, x->rank, shape) && nc_kernel_conv_transpose(&inst->p.conv_t, x, w, IN(2), a->out[0], ERR);
}

/* Shape of a matmul of a by b (any of the matmul flavours). */
static bool matmul_out(const ix_inst *inst, ix_args *a, const nc_tensor *x, const nc_tensor *y)
{
  int64_t shape[NC_TENSOR_MAX_RANK];
  int rank;
  return nc_kernel_matmul_shape(x->rank, x->shape, y->rank, y->shape, &rank, shape, ERR) &&
         out(inst, a, 0, rank, shape);
}

static bool run_matmul(const ix_inst *inst, ix_args *a)
{
  return matmul_out(inst, a, a->in[0], a->in[1]) && nc_kernel_matmul(a->in[0], a->in[1], a->out[0], ERR);
}

static bool run_matmul_integer(const ix_inst *inst, ix_args *a)
{
  return matmul_out(inst, a, a->in[0], a->in[1]) &&
         nc_kernel_matmul_integer(a->in[0], a->in[1], IN(2), IN(3), a->out[0], ERR);
}

static bool run_qlinear_matmul(const ix_inst *inst, ix_args *a)
{
  return matmul_out(inst, a, a->in[0], a->in[3]) &&
         nc_kernel_qlinear_matmul(a->in[0], a->in[1], a->in[2], a->in[3], a->in[4], a->in[5], a->in[6], a->in[7],
                                  a->out[0], ERR);
}

static bool prep_gemm(ix_inst *inst, char *err, size_t errlen)
{
  (void)err, (void)errlen;
  return nc_graph_get_gemm_params(inst->op, &inst->p.gemm);
}

static bool run_gemm(const ix_inst *inst, ix_args *a)
{
  nc_tensor *x = a->in[0], *w = a->in[1], *c = IN(2);
  int64_t shape[2];
  if (x->rank != 2 || w->rank != 2)
    return ix_fail(a, "expects 2-D operands, got ranks %d and %d", x->rank, w->rank);
  return nc_kernel_gemm_shape(&inst->p.gemm, x->shape, w->shape, c ? c->rank : -1, c ? c->shape : NULL, shape,
                              ERR) &&
         out(inst, a, 0, 2, shape) && nc_kernel_gemm(&inst->p.gemm, x, w, c, a->out[0], ERR);
}

/* --- elementwise ---------------------------------------------------------------------------------------------- */

static bool prep_binary(ix_inst *inst, char *err, size_t errlen)
{
  (void)err, (void)errlen;
  return nc_graph_get_binary_op(inst->op, &inst->p.binary);
}

static bool run_binary(const ix_inst *inst, ix_args *a)
{
  nc_tensor *x = a->in[0], *y = a->in[1];
  int64_t shape[NC_TENSOR_MAX_RANK];
  int rank;
  return nc_kernel_broadcast_shape(x->rank, x->shape, y->rank, y->shape, &rank, shape, ERR) &&
         out(inst, a, 0, rank, shape) && nc_kernel_binary(inst->p.binary, x, y, a->out[0], ERR);
}

static bool run_prelu(const ix_inst *inst, ix_args *a)
{
  nc_tensor *x = a->in[0];
  return out(inst, a, 0, x->rank, x->shape) && nc_kernel_prelu(x, a->in[1], a->out[0], ERR);
}

static bool prep_variadic(ix_inst *inst, char *err, size_t errlen)
{
  (void)err, (void)errlen;
  return nc_graph_get_variadic_op(inst->op, &inst->p.variadic);
}

static bool run_variadic(const ix_inst *inst, ix_args *a)
{
  int n = (int)inst->n_in;
  int *ranks = nc_xmalloc((size_t)n * sizeof *ranks);
  const int64_t **shapes = nc_xmalloc((size_t)n * sizeof *shapes);
  for (int i = 0; i < n; i++) {
    ranks[i] = a->in[i]->rank;
    shapes[i] = a->in[i]->shape;
  }
  int64_t shape[NC_TENSOR_MAX_RANK];
  int rank;
  bool ok = nc_kernel_variadic_shape(n, ranks, shapes, &rank, shape, ERR) && out(inst, a, 0, rank, shape) &&
            nc_kernel_variadic(inst->p.variadic, n, (const nc_tensor *const *)a->in, a->out[0], ERR);
  free(ranks);
  free(shapes);
  return ok;
}

static bool prep_unary(ix_inst *inst, char *err, size_t errlen)
{
  (void)err, (void)errlen;
  return nc_graph_get_unary_op(inst->op, &inst->p.unary.kind, &inst->p.unary.p);
}

static bool run_unary(const ix_inst *inst, ix_args *a)
{
  nc_tensor *x = a->in[0];
  return out(inst, a, 0, x->rank, x->shape) &&
         nc_kernel_unary(inst->p.unary.kind, &inst->p.unary.p, x, a->out[0], ERR);
}

/* A clip bound as a one-element tensor of dt (integer bounds saturate to
 * dt's range, which leaves the clip's result unchanged). */
static nc_tensor *clip_bound(nc_dtype dt, bool is_float, double f, int64_t i, bool upper)
{
  if (!nc_dtype_is_integer(dt))
    return ix_scalar(dt, is_float ? f : (double)i, 0, false);
  if (is_float)
    return ix_int_bound(dt, f, upper);
  nc_tensor *t = ix_int_bound(dt, 0, upper), *lo = ix_int_bound(dt, -INFINITY, false),
            *hi = ix_int_bound(dt, INFINITY, true);
  int64_t l = nc_tensor_get_i64(lo, 0), h = nc_tensor_get_i64(hi, 0);
  nc_tensor_set_i64(t, 0, i < l ? l : i > h ? h : i);
  nc_tensor_destroy(lo);
  nc_tensor_destroy(hi);
  return t;
}

static bool prep_clip(ix_inst *inst, char *err, size_t errlen)
{
  (void)err, (void)errlen;
  nc_graph_clip_bounds b;
  if (!nc_graph_get_clip_bounds(inst->op, &b))
    return false;
  inst->owned[0] = b.has_min ? clip_bound(inst->in0_dt, b.is_float, b.min_f, b.min_i, false) : NULL;
  inst->owned[1] = b.has_max ? clip_bound(inst->in0_dt, b.is_float, b.max_f, b.max_i, true) : NULL;
  return true;
}

static bool run_clip(const ix_inst *inst, ix_args *a)
{
  nc_tensor *x = a->in[0];
  return out(inst, a, 0, x->rank, x->shape) && nc_kernel_clip(x, inst->owned[0], inst->owned[1], a->out[0], ERR);
}

static bool prep_softmax(ix_inst *inst, char *err, size_t errlen)
{
  (void)err, (void)errlen;
  return nc_graph_get_softmax_params(inst->op, &inst->p.softmax);
}

static bool run_softmax(const ix_inst *inst, ix_args *a)
{
  nc_tensor *x = a->in[0];
  return out(inst, a, 0, x->rank, x->shape) && nc_kernel_softmax(&inst->p.softmax, x, a->out[0], ERR);
}

static bool run_log_softmax(const ix_inst *inst, ix_args *a)
{
  nc_tensor *x = a->in[0];
  return out(inst, a, 0, x->rank, x->shape) && nc_kernel_log_softmax(&inst->p.softmax, x, a->out[0], ERR);
}

/* --- pooling, reductions, normalisation ---------------------------------------------------------------------- */

static bool prep_pool(ix_inst *inst, char *err, size_t errlen)
{
  return nc_graph_get_pool_params(inst->op, &inst->p.pool) ||
         (snprintf(err, errlen, "has malformed pooling attributes or an input that is not 3-D to 5-D"), false);
}

static bool pool_out(const ix_inst *inst, ix_args *a)
{
  nc_tensor *x = a->in[0];
  int64_t shape[NC_TENSOR_MAX_RANK];
  return nc_kernel_pool_shape(&inst->p.pool, x->rank, x->shape, shape, ERR) && out(inst, a, 0, x->rank, shape);
}

static bool run_max_pool(const ix_inst *inst, ix_args *a)
{
  return pool_out(inst, a) && nc_kernel_max_pool(&inst->p.pool, a->in[0], a->out[0], ERR);
}

static bool run_avg_pool(const ix_inst *inst, ix_args *a)
{
  return pool_out(inst, a) && nc_kernel_avg_pool(&inst->p.pool, a->in[0], a->out[0], ERR);
}

static bool global_out(const ix_inst *inst, ix_args *a)
{
  nc_tensor *x = a->in[0];
  int64_t shape[NC_TENSOR_MAX_RANK];
  return nc_kernel_global_pool_shape(x->rank, x->shape, shape, ERR) && out(inst, a, 0, x->rank, shape);
}

static bool run_global_avg_pool(const ix_inst *inst, ix_args *a)
{
  return global_out(inst, a) && nc_kernel_global_avg_pool(a->in[0], a->out[0], ERR);
}

static bool run_global_max_pool(const ix_inst *inst, ix_args *a)
{
  return global_out(inst, a) && nc_kernel_global_max_pool(a->in[0], a->out[0], ERR);
}

static bool prep_reduce(ix_inst *inst, char *err, size_t errlen)
{
  (void)err, (void)errlen;
  return nc_graph_get_reduce_params(inst->op, &inst->p.reduce.kind, &inst->p.reduce.p);
}

static bool run_reduce(const ix_inst *inst, ix_args *a)
{
  nc_tensor *x = a->in[0];
  int64_t shape[NC_TENSOR_MAX_RANK];
  int rank;
  return nc_kernel_reduce_shape(&inst->p.reduce.p, x->rank, x->shape, &rank, shape, ERR) &&
         out(inst, a, 0, rank, shape) && nc_kernel_reduce(inst->p.reduce.kind, &inst->p.reduce.p, x, a->out[0], ERR);
}

static bool prep_lrn(ix_inst *inst, char *err, size_t errlen)
{
  return nc_graph_get_lrn_params(inst->op, &inst->p.lrn) ||
         (snprintf(err, errlen, "has no valid 'size' attribute"), false);
}

static bool run_lrn(const ix_inst *inst, ix_args *a)
{
  nc_tensor *x = a->in[0];
  return out(inst, a, 0, x->rank, x->shape) && nc_kernel_lrn(&inst->p.lrn, x, a->out[0], ERR);
}

static bool prep_norm(ix_inst *inst, char *err, size_t errlen)
{
  (void)err, (void)errlen;
  return nc_graph_get_norm_epsilon(inst->op, &inst->p.epsilon);
}

static bool run_batch_norm(const ix_inst *inst, ix_args *a)
{
  nc_tensor *x = a->in[0];
  return out(inst, a, 0, x->rank, x->shape) &&
         nc_kernel_batch_norm(inst->p.epsilon, x, a->in[1], a->in[2], a->in[3], a->in[4], a->out[0], ERR);
}

static bool run_instance_norm(const ix_inst *inst, ix_args *a)
{
  nc_tensor *x = a->in[0];
  return out(inst, a, 0, x->rank, x->shape) &&
         nc_kernel_instance_norm(inst->p.epsilon, x, a->in[1], a->in[2], a->out[0], ERR);
}

/* --- quantization ---------------------------------------------------------------------------------------------- */

static bool prep_quant(ix_inst *inst, char *err, size_t errlen)
{
  (void)err, (void)errlen;
  return nc_graph_get_quant_params(inst->op, &inst->p.quant);
}

static bool run_quantize_linear(const ix_inst *inst, ix_args *a)
{
  nc_tensor *x = a->in[0];
  return out(inst, a, 0, x->rank, x->shape) &&
         nc_kernel_quantize_linear(&inst->p.quant, x, a->in[1], IN(2), a->out[0], ERR);
}

/* DynamicQuantizeLinear in f32 arithmetic, as ONNX's reference computes it. */
static bool run_dynamic_quantize(const ix_inst *inst, ix_args *a)
{
  nc_tensor *x = a->in[0];
  if (x->dtype != NC_DT_F32)
    return ix_fail(a, "needs an f32 input");
  if (!out(inst, a, 0, x->rank, x->shape) || !out(inst, a, 1, 0, NULL) || !out(inst, a, 2, 0, NULL))
    return false;
  int64_t n = nc_tensor_num_elements(x);
  const float *xv = x->data;
  float lo = 0, hi = 0;
  for (int64_t i = 0; i < n; i++) {
    if (xv[i] != xv[i])
      return ix_fail(a, "the input holds a NaN");
    lo = xv[i] < lo ? xv[i] : lo;
    hi = xv[i] > hi ? xv[i] : hi;
  }
  float scale = (hi - lo) / 255.0f;
  float zf = scale > 0 ? 0.0f - lo / scale : 0.0f;
  zf = zf < 0 ? 0 : zf > 255 ? 255 : zf;
  int64_t zp = (int64_t)nearbyintf(zf); /* the default rounding mode: half to even */
  ((float *)a->out[1]->data)[0] = scale;
  ((uint8_t *)a->out[2]->data)[0] = (uint8_t)zp;
  uint8_t *y = a->out[0]->data;
  for (int64_t i = 0; i < n; i++) {
    float q = scale > 0 ? nearbyintf(xv[i] / scale) + (float)zp : 0.0f;
    y[i] = (uint8_t)(q < 0 ? 0 : q > 255 ? 255 : q);
  }
  return true;
}

static bool run_dequantize_linear(const ix_inst *inst, ix_args *a)
{
  nc_tensor *x = a->in[0];
  return out(inst, a, 0, x->rank, x->shape) &&
         nc_kernel_dequantize_linear(&inst->p.quant, x, a->in[1], IN(2), a->out[0], ERR);
}

/* Copies n (multiplier, shift) pairs into int32 tensors owned[0] and
 * owned[1], refusing values the fixed-point rescale cannot take. */
static bool own_rescales(ix_inst *inst, const int64_t *m, const int64_t *s, size_t nm, char *err, size_t errlen)
{
  int64_t n = (int64_t)nm;
  inst->owned[0] = nc_tensor_create(NC_DT_I32, 1, &n, 0);
  inst->owned[1] = nc_tensor_create(NC_DT_I32, 1, &n, 0);
  for (size_t i = 0; i < nm; i++) {
    if (m[i] < 0 || m[i] > INT32_MAX || s[i] < 0 || s[i] > 63)
      return snprintf(err, errlen, "has multiplier %lld and shift %lld at %zu; expected [0, 2^31) and [0, 63]",
                      (long long)m[i], (long long)s[i], i), false;
    ((int32_t *)inst->owned[0]->data)[i] = (int32_t)m[i];
    ((int32_t *)inst->owned[1]->data)[i] = (int32_t)s[i];
  }
  return true;
}

/* graph.requantize (docs/design/spine.md): y = saturate(round_half_even((acc
 * + bias[c]) * multiplier[c] / 2^shift[c]) + zero_point), with relu taking
 * max(r, zero_point) before saturating, and clamp_min / clamp_max (a fused
 * Clip) bounding r. The bias add wraps in int32 (it is
 * the accumulator's arithmetic) and broadcasts along `axis`; the rest is
 * nc_kernel_requantize. */
static bool prep_requantize(ix_inst *inst, char *err, size_t errlen)
{
  size_t nm, ns;
  const int64_t *m = nc_graph_attr_ints(inst->op, "multiplier", &nm), *s = nc_graph_attr_ints(inst->op, "shift", &ns);
  if (!m || !s || nm != ns || nm == 0)
    return snprintf(err, errlen, "needs 'multiplier' and 'shift' arrays of one length"), false;
  if (!own_rescales(inst, m, s, nm, err, errlen))
    return false;
  inst->p.requant.axis = nc_graph_attr_int(inst->op, "axis", 1);
  inst->p.requant.zero_point = nc_graph_attr_int(inst->op, "output_zero_point", 0);
  const char *act = nc_graph_attr_string(inst->op, "activation", NULL);
  if (act && strcmp(act, "relu"))
    return snprintf(err, errlen, "has activation \"%s\"; requantize takes only \"relu\"", act), false;
  inst->p.requant.relu = act != NULL;
  inst->p.requant.lo = nc_graph_attr_int(inst->op, "clamp_min", INT64_MIN);
  inst->p.requant.hi = nc_graph_attr_int(inst->op, "clamp_max", INT64_MAX);
  if (inst->p.requant.lo > inst->p.requant.hi)
    return snprintf(err, errlen, "has clamp_min %lld above clamp_max %lld", (long long)inst->p.requant.lo,
                    (long long)inst->p.requant.hi), false;
  if (inst->p.requant.zero_point < INT32_MIN || inst->p.requant.zero_point > INT32_MAX)
    return snprintf(err, errlen, "has an output_zero_point outside the int32 range"), false;
  return true;
}

static bool run_requantize(const ix_inst *inst, ix_args *a)
{
  nc_tensor *acc = a->in[0], *bias = IN(1), *sum = NULL;
  int64_t count = nc_tensor_num_elements(inst->owned[0]);
  int64_t axis = inst->p.requant.axis < 0 ? inst->p.requant.axis + acc->rank : inst->p.requant.axis;
  bool per_axis = count > 1 || (bias && nc_tensor_num_elements(bias) > 1);
  if (per_axis && (axis < 0 || axis >= acc->rank))
    return ix_fail(a, "axis %lld is out of range for rank %d", (long long)inst->p.requant.axis, acc->rank);
  int64_t channels = per_axis ? acc->shape[axis] : 1;
  if (count != 1 && count != channels)
    return ix_fail(a, "has %lld multipliers for %lld channels", (long long)count, (long long)channels);
  if (acc->dtype != NC_DT_I32 || (bias && (bias->dtype != NC_DT_I32 || (nc_tensor_num_elements(bias) != 1 &&
                                                                         nc_tensor_num_elements(bias) != channels))))
    return ix_fail(a, "expects an i32 accumulator and an i32 bias of 1 or %lld elements", (long long)channels);
  if (bias) { /* acc + bias[c], wrapping in int32 */
    if (!(sum = ix_alloc(NC_DT_I32, acc->rank, acc->shape, a)))
      return false;
    int64_t inner = 1, n = nc_tensor_num_elements(acc), nb = nc_tensor_num_elements(bias);
    for (int d = (int)axis + 1; per_axis && d < acc->rank; d++)
      inner *= acc->shape[d];
    const int32_t *x = acc->data, *b = bias->data;
    int32_t *y = sum->data;
    for (int64_t i = 0; i < n; i++)
      y[i] = (int32_t)((uint32_t)x[i] + (uint32_t)b[nb == 1 ? 0 : (i / inner) % channels]);
  }
  nc_requant_params p = {.axis = axis, .count = count, .multiplier = inst->owned[0]->data,
                         .shift = inst->owned[1]->data, .zero_point = (int32_t)inst->p.requant.zero_point};
  bool ok = out(inst, a, 0, acc->rank, acc->shape) && nc_kernel_requantize(&p, sum ? sum : acc, a->out[0], ERR);
  nc_tensor_destroy(sum);
  if (ok && inst->p.requant.relu) { /* max(r, zp) before saturating = max(saturate(r), saturate(zp)) */
    nc_tensor *y = a->out[0], *zp = ix_int_bound(y->dtype, (double)inst->p.requant.zero_point, false);
    int64_t lo = nc_tensor_get_i64(zp, 0), n = nc_tensor_num_elements(y);
    for (int64_t i = 0; i < n; i++)
      if (nc_tensor_get_i64(y, i) < lo)
        nc_tensor_set_i64(y, i, lo);
    nc_tensor_destroy(zp);
  }
  if (ok && (inst->p.requant.lo != INT64_MIN || inst->p.requant.hi != INT64_MAX)) {
    /* a fused Clip: saturate(clamp(r, lo, hi)) = clamp(saturate(r), saturate(lo), saturate(hi)) */
    nc_tensor *y = a->out[0], *lt = ix_int_bound(y->dtype, (double)inst->p.requant.lo, false),
              *ht = ix_int_bound(y->dtype, (double)inst->p.requant.hi, true);
    int64_t lo = nc_tensor_get_i64(lt, 0), hi = nc_tensor_get_i64(ht, 0);
    for (int64_t i = 0, n = nc_tensor_num_elements(y); i < n; i++) {
      int64_t v = nc_tensor_get_i64(y, i);
      if (v < lo || v > hi)
        nc_tensor_set_i64(y, i, v < lo ? lo : hi);
    }
    nc_tensor_destroy(lt);
    nc_tensor_destroy(ht);
  }
  return ok;
}

/* graph.add_integer / graph.sub_integer: nc_kernel_eltwise_integer. */
static bool prep_eltwise_integer(ix_inst *inst, char *err, size_t errlen)
{
  size_t nm, ns;
  const int64_t *m = nc_graph_attr_ints(inst->op, "multiplier", &nm), *s = nc_graph_attr_ints(inst->op, "shift", &ns);
  if (!m || !s || nm != 2 || ns != 2)
    return snprintf(err, errlen, "needs 'multiplier' and 'shift' arrays of one entry per input"), false;
  nc_eltwise_integer_params *p = &inst->p.eltwise_integer;
  for (int i = 0; i < 2; i++) {
    if (m[i] < 0 || m[i] > INT32_MAX || s[i] < 0 || s[i] > 63)
      return snprintf(err, errlen, "has multiplier %lld and shift %lld at %d; expected [0, 2^31) and [0, 63]",
                      (long long)m[i], (long long)s[i], i), false;
    p->multiplier[i] = (int32_t)m[i];
    p->shift[i] = (int32_t)s[i];
  }
  int64_t zp = nc_graph_attr_int(inst->op, "output_zero_point", 0);
  if (zp < INT32_MIN || zp > INT32_MAX)
    return snprintf(err, errlen, "has an output_zero_point outside the int32 range"), false;
  p->zero_point = (int32_t)zp;
  const char *act = nc_graph_attr_string(inst->op, "activation", NULL);
  if (act && strcmp(act, "relu"))
    return snprintf(err, errlen, "has activation \"%s\"; it takes only \"relu\"", act), false;
  p->relu = act != NULL;
  p->subtract = nc_op_is(inst->op, "graph.sub_integer");
  return true;
}

static bool run_eltwise_integer(const ix_inst *inst, ix_args *a)
{
  nc_tensor *x = a->in[0];
  return out(inst, a, 0, x->rank, x->shape) &&
         nc_kernel_eltwise_integer(&inst->p.eltwise_integer, x, a->in[1], a->out[0], ERR);
}

/* graph.concat_integer: nc_kernel_concat_integer, rescales in owned[0..1]. */
static bool prep_concat_integer(ix_inst *inst, char *err, size_t errlen)
{
  size_t nm, ns;
  const int64_t *m = nc_graph_attr_ints(inst->op, "multiplier", &nm), *s = nc_graph_attr_ints(inst->op, "shift", &ns);
  if (!m || !s || nm != inst->n_in || ns != inst->n_in || !nc_op_get_attr_str(inst->op, "axis"))
    return snprintf(err, errlen, "needs an 'axis' and 'multiplier' and 'shift' arrays of one entry per input"), false;
  if (!own_rescales(inst, m, s, nm, err, errlen))
    return false;
  int64_t zp = nc_graph_attr_int(inst->op, "output_zero_point", 0);
  if (zp < INT32_MIN || zp > INT32_MAX)
    return snprintf(err, errlen, "has an output_zero_point outside the int32 range"), false;
  inst->p.concat_integer.axis = nc_graph_attr_int(inst->op, "axis", 0);
  inst->p.concat_integer.zero_point = (int32_t)zp;
  return true;
}

static bool run_concat_integer(const ix_inst *inst, ix_args *a)
{
  return concat_out(inst, a, inst->p.concat_integer.axis) &&
         nc_kernel_concat_integer(inst->p.concat_integer.axis, (int)inst->n_in, (const nc_tensor *const *)a->in,
                                  inst->owned[0]->data, inst->owned[1]->data, inst->p.concat_integer.zero_point,
                                  a->out[0], ERR);
}

/* graph.mul_integer: nc_kernel_mul_integer. */
static bool prep_mul_integer(ix_inst *inst, char *err, size_t errlen)
{
  int64_t m = nc_graph_attr_int(inst->op, "multiplier", -1), s = nc_graph_attr_int(inst->op, "shift", -1);
  int64_t zp = nc_graph_attr_int(inst->op, "output_zero_point", 0);
  if (m < 0 || m > INT32_MAX || s < 0 || s > 63 || zp < INT32_MIN || zp > INT32_MAX)
    return snprintf(err, errlen, "needs a multiplier in [0, 2^31), a shift in [0, 63] and an int32 zero point"),
           false;
  const char *act = nc_graph_attr_string(inst->op, "activation", NULL);
  if (act && strcmp(act, "relu"))
    return snprintf(err, errlen, "has activation \"%s\"; it takes only \"relu\"", act), false;
  inst->p.mul_integer.multiplier = (int32_t)m;
  inst->p.mul_integer.shift = (int32_t)s;
  inst->p.mul_integer.zero_point = (int32_t)zp;
  inst->p.mul_integer.relu = act != NULL;
  return true;
}

static bool run_mul_integer(const ix_inst *inst, ix_args *a)
{
  nc_tensor *x = a->in[0];
  return out(inst, a, 0, x->rank, x->shape) &&
         nc_kernel_mul_integer(inst->p.mul_integer.multiplier, inst->p.mul_integer.shift,
                               inst->p.mul_integer.zero_point, inst->p.mul_integer.relu, x, a->in[1], a->out[0], ERR);
}

/* graph.lut_integer: nc_kernel_lut_integer on the attribute's table. */
static bool prep_lut_integer(ix_inst *inst, char *err, size_t errlen)
{
  inst->p.lut.table = nc_graph_attr_ints(inst->op, "table", &inst->p.lut.n);
  if (!inst->p.lut.table)
    return snprintf(err, errlen, "needs a 'table' array"), false;
  return true;
}

static bool run_lut_integer(const ix_inst *inst, ix_args *a)
{
  nc_tensor *x = a->in[0];
  return out(inst, a, 0, x->rank, x->shape) &&
         nc_kernel_lut_integer(inst->p.lut.table, inst->p.lut.n, x, a->out[0], ERR);
}

/* graph.softmax_integer: nc_kernel_softmax_integer on the attribute's table (prep_lut_integer reads it). */
static bool run_softmax_integer(const ix_inst *inst, ix_args *a)
{
  nc_tensor *x = a->in[0];
  return out(inst, a, 0, x->rank, x->shape) &&
         nc_kernel_softmax_integer(inst->p.lut.table, inst->p.lut.n, x, a->out[0], ERR);
}

/* --- the table, from graph_ops.def (indexed by graph_kind) ------------------------------------------------------ */

#define DEF(OPERANDS, RESULTS, ATTRS, TRAITS, SHAPE, ACTIVATION, FOLD, PATTERNS) \
  G_ACTIVATION_##ACTIVATION == G_ACTIVATION_OWN
#define INTERP(PREPARE, RUN) PREPARE, RUN
#define GRAPH_OP(KIND, MNEMONIC, SUMMARY, ONNX, KERNEL, INTERP_, QUANT, DEF_, DESCRIPTION) \
  [KIND] = {MNEMONIC, INTERP_, DEF_},
const ix_handler ix_handlers[G_COUNT] = {
#include "../graph_ops.def"
};
#undef DEF
#undef INTERP

const ix_handler *ix_find_handler(const char *name)
{
  for (size_t k = 0; k < G_COUNT; k++)
    if (!strcmp(ix_handlers[k].name, name))
      return &ix_handlers[k];
  return NULL;
}
