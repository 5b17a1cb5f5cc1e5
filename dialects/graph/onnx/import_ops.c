/* import_ops.c: ONNX compute operators -> graph ops, and the handler table
 * (generated from the ONNX column of graph_ops.def: ONNX op type, first
 * opset, handler; a handler finds the graph op it makes and its kernel op
 * code in nc->op).
 *
 * One handler per ONNX operator family: it reads the attributes of every
 * opset the operator went through (opset 1 to 21; legacy forms such as the
 * `broadcast`/`axis` attributes of opset 1-6 arithmetic are rewritten into
 * today's semantics), computes the result types with the kernels' shape
 * functions, and emits the graph op with ONNX's attribute names in
 * snake_case, leaving out attributes that hold their default value.
 * Elementwise ops whose inputs are all known are evaluated instead. Data
 * movement ops are in import_data.c, fold-only shape ops in import_fold.c.
 */
#include "import_internal.h"
#include "nc/ir/ods.h"

#include <math.h>
#include <string.h>

/* ---- elementwise ---------------------------------------------------------------------------------------- */

static bool is_float(nc_dtype dt) { return !nc_dtype_is_integer(dt); }

/* Checks that inputs 0 .. n-1 are present; false + error naming the first
 * missing one. */
static bool inputs_required(node_ctx *nc, size_t n, const char *const *names)
{
  for (size_t i = 0; i < n; i++)
    if (!imp_input_required(nc, i, names[i]))
      return false;
  return true;
}

/* A known zero scalar of x's dtype standing for the missing zero point of x
 * (`role`, e.g. "a_zero_point") when the other operand's is present: the
 * dialect's optional operands come in order. */
static imp_value *zero_point_of(node_ctx *nc, const imp_value *x, const char *role, const char *fallback)
{
  char name[300];
  snprintf(name, sizeof name, "%s_%s", *nc->n->name ? nc->n->name : fallback, role);
  return imp_new_known(nc, nc_tensor_create(x->type.dt, 0, NULL, 0), name);
}

/* Evaluates a kernel into a new known output 0 of type `t`; *done is false
 * if the value would not fit the budget (the op is then emitted instead). */
typedef bool (*fold_fn)(const void *ud, nc_tensor *const *in, nc_tensor *out, char *err, size_t errlen);
static bool fold_into(node_ctx *nc, const imp_type *t, fold_fn fn, const void *ud, bool *done)
{
  *done = false;
  if (!imp_all_known(nc) || !imp_type_is_static(t))
    return true;
  nc_tensor *y = imp_fold_alloc(nc, t->dt, t->rank, t->dims);
  if (!y)
    return true;
  nc_tensor **in = nc_arena_alloc(nc->im->arena, (nc->n_in ? nc->n_in : 1) * sizeof *in);
  for (size_t i = 0; i < nc->n_in; i++)
    in[i] = nc->in[i] ? imp_known(nc->im, nc->in[i]) : NULL;
  char err[512];
  if (!fn(ud, in, y, err, sizeof err)) {
    nc_tensor_destroy(y);
    return imp_error(nc, "cannot evaluate the node at import time: %s", err);
  }
  *done = true;
  return imp_set_known(nc, 0, y);
}

typedef struct unary_ud {
  nc_unary_op op;
  nc_unary_params p;
} unary_ud;

static bool fold_unary(const void *ud, nc_tensor *const *in, nc_tensor *out, char *err, size_t errlen)
{
  const unary_ud *u = ud;
  return nc_kernel_unary(u->op, &u->p, in[0], out, err, errlen);
}

/* The attributes that parametrise a unary kernel (nc_unary_params), read
 * when the graph op declares them; written when not their default. */
static bool unary_param(node_ctx *nc, const nc_op_def *def, const char *name, double dflt, double *v,
                        imp_attrs *attrs)
{
  if (nc_op_def_find_attr(def, name) < 0)
    return true;
  if (!imp_attr_float(nc, name, dflt, v))
    return false;
  if ((float)*v != (float)dflt)
    imp_add_f32(nc, attrs, name, *v);
  return true;
}

static bool imp_unary(node_ctx *nc)
{
  imp_value *x = imp_input_required(nc, 0, "X");
  if (!x)
    return false;
  nc_unary_op op = (nc_unary_op)nc->op->kernel_op;
  unary_ud u = {.op = op, .p = nc_unary_params_default(op)};
  nc_unary_params dflt = u.p;
  imp_attrs attrs = {0};
  const nc_op_def *def = nc_context_lookup_op_def(nc->im->ctx, nc->op->graph, strlen(nc->op->graph));
  if (!unary_param(nc, def, "alpha", dflt.alpha, &u.p.alpha, &attrs) ||
      !unary_param(nc, def, "beta", dflt.beta, &u.p.beta, &attrs) ||
      !unary_param(nc, def, "gamma", dflt.gamma, &u.p.gamma, &attrs))
    return false;
  bool done;
  if (!fold_into(nc, &x->type, fold_unary, &u, &done))
    return false;
  return done || imp_emit(nc, nc->op->graph, 1, &x, &attrs, 1, &x->type);
}

/* The reshape that appends trailing unit dims to b so that numpy
 * broadcasting aligns it at `axis` of a (opset 1-6 `broadcast`/`axis`). */
static imp_value *align_legacy(node_ctx *nc, imp_value *b, int a_rank, int64_t axis)
{
  int trailing = a_rank - (int)axis - b->type.rank;
  if (trailing <= 0)
    return b;
  imp_type t = b->type;
  int64_t shape[NC_TENSOR_MAX_RANK];
  for (int i = 0; i < t.rank; i++)
    shape[i] = t.dims[i] < 0 ? 0 : t.dims[i]; /* 0 copies the dim */
  for (int i = 0; i < trailing; i++)
    shape[t.rank + i] = t.dims[t.rank + i] = 1;
  t.rank += trailing;
  nc_tensor *k = imp_known(nc->im, b);
  if (k) {
    nc_tensor *c = nc_tensor_clone(k);
    c->rank = t.rank;
    for (int i = 0; i < t.rank; i++)
      c->shape[i] = t.dims[i];
    char name[300];
    snprintf(name, sizeof name, "%s_aligned", b->name);
    return imp_new_known(nc, c, name);
  }
  imp_attrs attrs = {0};
  imp_add_i64s(nc, &attrs, "shape", (size_t)t.rank, shape);
  return imp_emit_temp(nc, "broadcast", "graph.reshape", 1, &b, &attrs, &t);
}

/* Opset 1-6 arithmetic: with broadcast=1, b is matched against a at `axis`
 * (default: the trailing dims, which is numpy's rule). */
static bool legacy_broadcast(node_ctx *nc, imp_value *a, imp_value **b)
{
  int64_t broadcast, axis;
  if (!imp_attr_int(nc, "broadcast", 0, &broadcast))
    return false;
  bool has_axis = imp_attr(nc, "axis") != NULL;
  if (!imp_attr_int(nc, "axis", 0, &axis))
    return false;
  if (!broadcast || !has_axis || a->type.rank < 0 || (*b)->type.rank < 0)
    return true;
  if (!imp_axis(nc, "axis", axis, a->type.rank, false, &axis))
    return false;
  if (axis + (*b)->type.rank > a->type.rank)
    return imp_error(nc, "B of rank %d does not fit in A of rank %d at axis %lld", (*b)->type.rank, a->type.rank,
                     (long long)axis);
  return (*b = align_legacy(nc, *b, a->type.rank, axis)) != NULL;
}

static bool fold_binary(const void *ud, nc_tensor *const *in, nc_tensor *out, char *err, size_t errlen)
{
  return nc_kernel_binary(*(const nc_binary_op *)ud, in[0], in[1], out, err, errlen);
}

static bool imp_binary(node_ctx *nc)
{
  nc_binary_op op = (nc_binary_op)nc->op->kernel_op;
  imp_value *a = imp_input_required(nc, 0, "A"), *b = imp_input_required(nc, 1, "B");
  if (!a || !b)
    return false;
  if (nc->im->opset < 7 && !legacy_broadcast(nc, a, &b))
    return false;
  if (op != NC_BINARY_POW && a->type.dt != b->type.dt)
    return imp_error(nc, "operands have different element types (%s and %s)", nc_dtype_name(a->type.dt),
                     nc_dtype_name(b->type.dt));
  imp_type t = {.dt = a->type.dt};
  if (!imp_broadcast(nc, &a->type, &b->type, &t))
    return false;
  bool done;
  imp_value *ops[2] = {a, b};
  if (!fold_into(nc, &t, fold_binary, &op, &done))
    return false;
  if (done)
    return true;
  return imp_emit(nc, nc->op->graph, 2, ops, NULL, 1, &t);
}

typedef struct variadic_ud {
  nc_variadic_op op;
  int n;
} variadic_ud;

static bool fold_variadic(const void *ud, nc_tensor *const *in, nc_tensor *out, char *err, size_t errlen)
{
  const variadic_ud *v = ud;
  return nc_kernel_variadic(v->op, v->n, (const nc_tensor *const *)in, out, err, errlen);
}

static bool imp_variadic(node_ctx *nc)
{
  if (!nc->n_in)
    return imp_error(nc, "needs at least one input");
  for (size_t i = 0; i < nc->n_in; i++)
    if (!imp_input_required(nc, i, "data_0"))
      return false;
  imp_type t = nc->in[0]->type;
  for (size_t i = 1; i < nc->n_in; i++) {
    if (nc->in[i]->type.dt != t.dt)
      return imp_error(nc, "inputs have different element types (%s and %s)", nc_dtype_name(t.dt),
                       nc_dtype_name(nc->in[i]->type.dt));
    imp_type r = {.dt = t.dt};
    if (!imp_broadcast(nc, &t, &nc->in[i]->type, &r))
      return false;
    t = r;
  }
  variadic_ud u = {(nc_variadic_op)nc->op->kernel_op, (int)nc->n_in};
  bool done;
  if (!fold_into(nc, &t, fold_variadic, &u, &done))
    return false;
  return done || imp_emit(nc, nc->op->graph, nc->n_in, nc->in, NULL, 1, &t);
}

static bool imp_prelu(node_ctx *nc)
{
  imp_value *x = imp_input_required(nc, 0, "X"), *slope = imp_input_required(nc, 1, "slope");
  if (!x || !slope)
    return false;
  /* Before opset 7, a 1-D slope of C values is per channel (dim 1). */
  if (nc->im->opset < 7 && x->type.rank > 2 && slope->type.rank == 1 && slope->type.dims[0] != 1 &&
      !(slope = align_legacy(nc, slope, x->type.rank, 1)))
    return false;
  imp_type t = {.dt = x->type.dt};
  if (!imp_broadcast(nc, &x->type, &slope->type, &t))
    return false;
  if (t.rank >= 0 && t.rank != x->type.rank)
    return imp_error(nc, "slope must broadcast to the shape of X");
  imp_value *ops[2] = {x, slope};
  return imp_emit(nc, nc->op->graph, 2, ops, NULL, 1, &x->type);
}

/* Clip bounds: attributes before opset 11, constant inputs since; f32
 * attributes for float tensors, i64 for integer ones. */
static bool clip_bound(node_ctx *nc, const imp_value *x, size_t input, const char *name, imp_attrs *attrs)
{
  if (nc->im->opset < 11) {
    double v;
    if (!imp_attr(nc, name))
      return true;
    if (!imp_attr_float(nc, name, 0, &v))
      return false;
    if (is_float(x->type.dt))
      imp_add_f32(nc, attrs, name, v);
    else
      imp_add_i64(nc, attrs, name, (int64_t)v);
    return true;
  }
  if (!imp_input(nc, input))
    return true;
  double v;
  if (!imp_const_scalar(nc, input, name, &v))
    return false;
  if (is_float(x->type.dt))
    imp_add_f32(nc, attrs, name, v);
  else
    imp_add_i64(nc, attrs, name, nc_tensor_get_i64(imp_known(nc->im, nc->in[input]), 0));
  return true;
}

static bool imp_clip(node_ctx *nc)
{
  imp_value *x = imp_input_required(nc, 0, "input");
  if (!x)
    return false;
  imp_attrs attrs = {0};
  if (!clip_bound(nc, x, 1, "min", &attrs) || !clip_bound(nc, x, 2, "max", &attrs))
    return false;
  return imp_emit(nc, nc->op->graph, 1, &x, &attrs, 1, &x->type);
}

/* ---- matrix products ------------------------------------------------------------------------------------ */

static bool shape_matmul(const void *ud, int n, const imp_type *const *in, imp_type *out, char *err, size_t errlen)
{
  return nc_kernel_matmul_shape(in[0]->rank, in[0]->dims, in[1]->rank, in[1]->dims, &out->rank, out->dims, err,
                                errlen);
}

static bool imp_matmul(node_ctx *nc)
{
  imp_value *a = imp_input_required(nc, 0, "A"), *b = imp_input_required(nc, 1, "B");
  if (!a || !b)
    return false;
  imp_type t = {.dt = a->type.dt};
  const imp_type *in[2] = {&a->type, &b->type};
  if (!imp_infer(nc, shape_matmul, NULL, 2, in, &t))
    return false;
  imp_value *ops[2] = {a, b};
  return imp_emit(nc, nc->op->graph, 2, ops, NULL, 1, &t);
}

static bool shape_gemm(const void *ud, int n, const imp_type *const *in, imp_type *out, char *err, size_t errlen)
{
  if (in[0]->rank != 2 || in[1]->rank != 2) {
    snprintf(err, errlen, "Gemm needs 2-D A and B, not ranks %d and %d", in[0]->rank, in[1]->rank);
    return false;
  }
  out->rank = 2;
  return nc_kernel_gemm_shape(ud, in[0]->dims, in[1]->dims, in[2] ? in[2]->rank : -1, in[2] ? in[2]->dims : NULL,
                              out->dims, err, errlen);
}

static bool imp_gemm(node_ctx *nc)
{
  imp_value *a = imp_input_required(nc, 0, "A"), *b = imp_input_required(nc, 1, "B"), *c = imp_input(nc, 2);
  if (!a || !b)
    return false;
  double alpha, beta;
  int64_t ta, tb;
  if (!imp_attr_float(nc, "alpha", 1.0, &alpha) || !imp_attr_float(nc, "beta", 1.0, &beta) ||
      !imp_attr_int(nc, "transA", 0, &ta) || !imp_attr_int(nc, "transB", 0, &tb))
    return false;
  if (nc->im->opset < 7)
    imp_attr_ignore(nc, "broadcast");
  nc_gemm_params p = {.alpha = alpha, .beta = beta, .trans_a = ta != 0, .trans_b = tb != 0};
  imp_type t = {.dt = a->type.dt};
  const imp_type *in[3] = {&a->type, &b->type, c ? &c->type : NULL};
  if (!imp_infer(nc, shape_gemm, &p, 3, in, &t))
    return false;
  imp_attrs attrs = {0};
  if ((float)alpha != 1.0f)
    imp_add_f32(nc, &attrs, "alpha", alpha);
  if ((float)beta != 1.0f)
    imp_add_f32(nc, &attrs, "beta", beta);
  if (ta)
    imp_add_i64(nc, &attrs, "trans_a", 1);
  if (tb)
    imp_add_i64(nc, &attrs, "trans_b", 1);
  imp_value *ops[3] = {a, b, c};
  return imp_emit(nc, nc->op->graph, 3, ops, &attrs, 1, &t);
}

static bool imp_matmul_integer(node_ctx *nc)
{
  imp_value *a = imp_input_required(nc, 0, "A"), *b = imp_input_required(nc, 1, "B");
  imp_value *azp = imp_input(nc, 2), *bzp = imp_input(nc, 3);
  if (!a || !b)
    return false;
  if (!azp && bzp)
    azp = zero_point_of(nc, a, "a_zero_point", "matmul_integer");
  imp_type t = {.dt = NC_DT_I32};
  const imp_type *in[2] = {&a->type, &b->type};
  if (!imp_infer(nc, shape_matmul, NULL, 2, in, &t))
    return false;
  imp_value *ops[4] = {a, b, azp, bzp};
  return imp_emit(nc, nc->op->graph, 4, ops, NULL, 1, &t);
}

static bool imp_qlinear_matmul(node_ctx *nc)
{
  static const char *const names[] = {"a", "a_scale", "a_zero_point", "b", "b_scale", "b_zero_point",
                                      "y_scale", "y_zero_point"};
  if (!inputs_required(nc, NC_COUNTOF(names), names))
    return false;
  imp_type t = {.dt = nc->in[7]->type.dt};
  const imp_type *in[2] = {&nc->in[0]->type, &nc->in[3]->type};
  if (!imp_infer(nc, shape_matmul, NULL, 2, in, &t))
    return false;
  return imp_emit(nc, nc->op->graph, 8, nc->in, NULL, 1, &t);
}

/* ---- convolution ---------------------------------------------------------------------------------------- */

/* Copies an INTS attribute of k (or 2k) values into dst; false + error if
 * the count is wrong. */
static bool read_spatial(node_ctx *nc, const char *name, int k, int64_t *dst, bool *present)
{
  const int64_t *v;
  size_t n;
  if (!imp_attr_ints(nc, name, &v, &n, present))
    return false;
  if (!*present)
    return true;
  if ((int)n != k)
    return imp_error(nc, "attribute '%s' has %zu values, expected %d", name, n, k);
  for (int i = 0; i < k; i++)
    dst[i] = v[i];
  return true;
}

static bool all_equal(const int64_t *v, int n, int64_t x)
{
  for (int i = 0; i < n; i++)
    if (v[i] != x)
      return false;
  return true;
}

/* Reads auto_pad; false + error for an unknown value. */
static bool read_auto_pad(node_ctx *nc, nc_auto_pad *out, const char **str)
{
  if (!imp_attr_string(nc, "auto_pad", "NOTSET", str))
    return false;
  if (!nc_auto_pad_from_string(*str, out))
    return imp_unsupported(nc, "attribute 'auto_pad' value \"%s\"", *str);
  return true;
}

/* The spatial rank of a convolution input, or -1 + error. */
static int spatial_rank(node_ctx *nc, const imp_value *x)
{
  if (x->type.rank < 0) {
    imp_error(nc, "the rank of the input is unknown");
    return -1;
  }
  int k = x->type.rank - 2;
  if (k < 1 || k > NC_KERNEL_MAX_SPATIAL) {
    imp_unsupported(nc, "an input of rank %d (nc supports 1 to %d spatial dimensions)", x->type.rank,
                    NC_KERNEL_MAX_SPATIAL);
    return -1;
  }
  return k;
}

/* The window attributes (kernel_shape, strides, pads, dilations) of a node
 * with k spatial dims, read into the arrays of the caller's parameters, and
 * which of them the node sets. Conv, ConvTranspose and the pools share them. */
typedef struct window {
  int k;
  int64_t *kernel_shape, *strides, *pads, *dilations;
  bool has_ks, has_s, has_p, has_d;
} window;

static bool read_window(node_ctx *nc, window *win)
{
  return read_spatial(nc, "kernel_shape", win->k, win->kernel_shape, &win->has_ks) &&
         read_spatial(nc, "strides", win->k, win->strides, &win->has_s) &&
         read_spatial(nc, "pads", 2 * win->k, win->pads, &win->has_p) &&
         read_spatial(nc, "dilations", win->k, win->dilations, &win->has_d);
}

/* Adds the strides and the pads (unless auto_pad decides them) that differ
 * from their defaults. */
static void add_strides_pads(node_ctx *nc, const window *win, nc_auto_pad auto_pad, imp_attrs *attrs)
{
  int k = win->k;
  if (win->has_s && !all_equal(win->strides, k, 1))
    imp_add_i64s(nc, attrs, "strides", (size_t)k, win->strides);
  if (win->has_p && auto_pad == NC_AUTO_PAD_NOTSET && !all_equal(win->pads, 2 * k, 0))
    imp_add_i64s(nc, attrs, "pads", (size_t)(2 * k), win->pads);
}

/* Conv and ConvTranspose: checks group, then adds the window attributes,
 * group and auto_pad that differ from their defaults (kernel_shape only if
 * the weights do not give it). */
static bool add_conv_attrs(node_ctx *nc, const imp_value *weights, const window *win, int64_t group,
                           nc_auto_pad auto_pad, const char *auto_pad_str, imp_attrs *attrs)
{
  int k = win->k;
  if (group < 1)
    return imp_error(nc, "attribute 'group' must be positive, not %lld", (long long)group);
  bool ks_from_w = weights->type.rank == k + 2;
  for (int i = 0; ks_from_w && i < k; i++)
    ks_from_w = weights->type.dims[2 + i] >= 0 && (!win->has_ks || win->kernel_shape[i] == weights->type.dims[2 + i]);
  if (win->has_ks && !ks_from_w)
    imp_add_i64s(nc, attrs, "kernel_shape", (size_t)k, win->kernel_shape);
  add_strides_pads(nc, win, auto_pad, attrs);
  if (win->has_d && !all_equal(win->dilations, k, 1))
    imp_add_i64s(nc, attrs, "dilations", (size_t)k, win->dilations);
  if (group != 1)
    imp_add_i64(nc, attrs, "group", group);
  if (auto_pad != NC_AUTO_PAD_NOTSET)
    imp_add_str(nc, attrs, "auto_pad", auto_pad_str);
  return true;
}

/* Reads the attributes Conv, ConvInteger and QLinearConv share and adds the
 * non-default ones to attrs; w gives the kernel shape when omitted. */
static bool read_conv(node_ctx *nc, const imp_value *x, const imp_value *w, nc_conv_params *p, imp_attrs *attrs)
{
  window win = {spatial_rank(nc, x), p->kernel_shape, p->strides, p->pads, p->dilations};
  if (win.k < 0)
    return false;
  const char *ap;
  if (!read_window(nc, &win) || !imp_attr_int(nc, "group", 1, &p->group) || !read_auto_pad(nc, &p->auto_pad, &ap) ||
      !add_conv_attrs(nc, w, &win, p->group, p->auto_pad, ap, attrs))
    return false;
  if (p->auto_pad != NC_AUTO_PAD_NOTSET)
    memset(p->pads, 0, sizeof p->pads);
  return true;
}

/* Conv-like shape functions: the output and the weights have the input's rank. */
static bool conv_ranks(const imp_type *const *in, imp_type *out, char *err, size_t errlen)
{
  out->rank = in[0]->rank;
  if (in[1]->rank == in[0]->rank)
    return true;
  snprintf(err, errlen, "the weights have rank %d, the input %d", in[1]->rank, in[0]->rank);
  return false;
}

static bool shape_conv(const void *ud, int n, const imp_type *const *in, imp_type *out, char *err, size_t errlen)
{
  return conv_ranks(in, out, err, errlen) &&
         nc_kernel_conv_shape(ud, in[0]->rank, in[0]->dims, in[1]->dims, out->dims, err, errlen);
}

/* Conv, ConvInteger and QLinearConv: reads the attributes (into attrs) and
 * infers the result type t, of element type dt. */
static bool conv_result(node_ctx *nc, const imp_value *x, const imp_value *w, nc_dtype dt, imp_attrs *attrs,
                        imp_type *t)
{
  nc_conv_params p = {0};
  if (!read_conv(nc, x, w, &p, attrs))
    return false;
  *t = (imp_type){.dt = dt};
  const imp_type *in[2] = {&x->type, &w->type};
  return imp_infer(nc, shape_conv, &p, 2, in, t);
}

static bool imp_conv(node_ctx *nc)
{
  imp_value *x = imp_input_required(nc, 0, "X"), *w = imp_input_required(nc, 1, "W"), *b = imp_input(nc, 2);
  if (!x || !w)
    return false;
  imp_attrs attrs = {0};
  imp_type t;
  if (!conv_result(nc, x, w, x->type.dt, &attrs, &t))
    return false;
  imp_value *ops[3] = {x, w, b};
  return imp_emit(nc, nc->op->graph, 3, ops, &attrs, 1, &t);
}

static bool imp_conv_integer(node_ctx *nc)
{
  imp_value *x = imp_input_required(nc, 0, "x"), *w = imp_input_required(nc, 1, "w");
  imp_value *xzp = imp_input(nc, 2), *wzp = imp_input(nc, 3);
  if (!x || !w)
    return false;
  imp_attrs attrs = {0};
  imp_type t;
  if (!conv_result(nc, x, w, NC_DT_I32, &attrs, &t))
    return false;
  if (!xzp && wzp)
    xzp = zero_point_of(nc, x, "x_zero_point", "conv_integer");
  imp_value *ops[4] = {x, w, xzp, wzp};
  return imp_emit(nc, nc->op->graph, 4, ops, &attrs, 1, &t);
}

static bool imp_qlinear_conv(node_ctx *nc)
{
  static const char *const names[] = {"x", "x_scale", "x_zero_point", "w", "w_scale", "w_zero_point",
                                      "y_scale", "y_zero_point"};
  if (!inputs_required(nc, NC_COUNTOF(names), names))
    return false;
  imp_attrs attrs = {0};
  imp_type t;
  if (!conv_result(nc, nc->in[0], nc->in[3], nc->in[7]->type.dt, &attrs, &t))
    return false;
  imp_value *ops[9] = {nc->in[0], nc->in[1], nc->in[2], nc->in[3], nc->in[4],
                       nc->in[5], nc->in[6], nc->in[7], imp_input(nc, 8)};
  return imp_emit(nc, nc->op->graph, 9, ops, &attrs, 1, &t);
}

static bool shape_conv_transpose(const void *ud, int n, const imp_type *const *in, imp_type *out, char *err,
                                 size_t errlen)
{
  return conv_ranks(in, out, err, errlen) &&
         nc_kernel_conv_transpose_shape(ud, in[0]->rank, in[0]->dims, in[1]->dims, out->dims, err, errlen);
}

static bool imp_conv_transpose(node_ctx *nc)
{
  imp_value *x = imp_input_required(nc, 0, "X"), *w = imp_input_required(nc, 1, "W"), *b = imp_input(nc, 2);
  if (!x || !w)
    return false;
  int k = spatial_rank(nc, x);
  if (k < 0)
    return false;
  nc_conv_transpose_params p = {0};
  imp_attrs attrs = {0};
  window win = {k, p.kernel_shape, p.strides, p.pads, p.dilations};
  bool has_op, has_os;
  const char *ap;
  if (!read_window(nc, &win) || !read_spatial(nc, "output_padding", k, p.output_padding, &has_op) ||
      !imp_attr_int(nc, "group", 1, &p.group) || !read_auto_pad(nc, &p.auto_pad, &ap))
    return false;
  /* output_shape may list all dims (N, C, spatial...) or just the spatial ones. */
  const int64_t *os;
  size_t nos;
  if (!imp_attr_ints(nc, "output_shape", &os, &nos, &has_os))
    return false;
  if (has_os) {
    if ((int)nos != k && (int)nos != k + 2)
      return imp_error(nc, "attribute 'output_shape' has %zu values, expected %d", nos, k);
    for (int i = 0; i < k; i++)
      p.output_shape[i] = os[nos - (size_t)k + (size_t)i];
    p.has_output_shape = true;
  }
  if (!add_conv_attrs(nc, w, &win, p.group, p.auto_pad, ap, &attrs))
    return false;
  if (has_op && !all_equal(p.output_padding, k, 0))
    imp_add_i64s(nc, &attrs, "output_padding", (size_t)k, p.output_padding);
  if (has_os)
    imp_add_i64s(nc, &attrs, "output_shape", (size_t)k, p.output_shape);
  imp_type t = {.dt = x->type.dt};
  const imp_type *in[2] = {&x->type, &w->type};
  if (!imp_infer(nc, shape_conv_transpose, &p, 2, in, &t))
    return false;
  imp_value *ops[3] = {x, w, b};
  return imp_emit(nc, nc->op->graph, 3, ops, &attrs, 1, &t);
}

/* ---- pooling -------------------------------------------------------------------------------------------- */

static bool shape_pool(const void *ud, int n, const imp_type *const *in, imp_type *out, char *err, size_t errlen)
{
  out->rank = in[0]->rank;
  return nc_kernel_pool_shape(ud, in[0]->rank, in[0]->dims, out->dims, err, errlen);
}

static bool imp_pool(node_ctx *nc)
{
  bool is_max = !strcmp(nc->op->graph, "graph.max_pool");
  imp_value *x = imp_input_required(nc, 0, "X");
  if (!x)
    return false;
  int k = spatial_rank(nc, x);
  if (k < 0)
    return false;
  nc_pool_params p = {0};
  imp_attrs attrs = {0};
  window win = {k, p.kernel_shape, p.strides, p.pads, p.dilations};
  const char *ap;
  int64_t ceil_mode, storage_order = 0, count_include_pad = 0;
  if (!read_window(nc, &win) || !read_auto_pad(nc, &p.auto_pad, &ap) || !imp_attr_int(nc, "ceil_mode", 0, &ceil_mode))
    return false;
  if (is_max && !imp_attr_int(nc, "storage_order", 0, &storage_order))
    return false;
  if (!is_max && !imp_attr_int(nc, "count_include_pad", 0, &count_include_pad))
    return false;
  if (!win.has_ks)
    return imp_error(nc, "attribute 'kernel_shape' is required");
  if (!is_max && win.has_d && !all_equal(p.dilations, k, 1))
    return imp_unsupported(nc, "attribute 'dilations' other than 1s");
  if (is_max && imp_output_used(nc, 1))
    return imp_unsupported(nc, "the Indices output");
  p.ceil_mode = ceil_mode != 0;
  p.count_include_pad = count_include_pad != 0;
  imp_add_i64s(nc, &attrs, "kernel_shape", (size_t)k, p.kernel_shape);
  add_strides_pads(nc, &win, p.auto_pad, &attrs);
  if (p.auto_pad != NC_AUTO_PAD_NOTSET)
    memset(p.pads, 0, sizeof p.pads);
  if (is_max && win.has_d && !all_equal(p.dilations, k, 1))
    imp_add_i64s(nc, &attrs, "dilations", (size_t)k, p.dilations);
  if (p.auto_pad != NC_AUTO_PAD_NOTSET)
    imp_add_str(nc, &attrs, "auto_pad", ap);
  if (ceil_mode)
    imp_add_i64(nc, &attrs, "ceil_mode", 1);
  if (storage_order)
    imp_add_i64(nc, &attrs, "storage_order", storage_order);
  if (count_include_pad)
    imp_add_i64(nc, &attrs, "count_include_pad", 1);
  imp_type t = {.dt = x->type.dt};
  const imp_type *in[1] = {&x->type};
  if (!imp_infer(nc, shape_pool, &p, 1, in, &t))
    return false;
  return imp_emit(nc, nc->op->graph, 1, &x, &attrs, 1, &t);
}

static bool shape_global_pool(const void *ud, int n, const imp_type *const *in, imp_type *out, char *err,
                              size_t errlen)
{
  out->rank = in[0]->rank;
  return nc_kernel_global_pool_shape(in[0]->rank, in[0]->dims, out->dims, err, errlen);
}

static bool imp_global_pool(node_ctx *nc)
{
  imp_value *x = imp_input_required(nc, 0, "X");
  if (!x)
    return false;
  imp_type t = {.dt = x->type.dt};
  const imp_type *in[1] = {&x->type};
  if (!imp_infer(nc, shape_global_pool, NULL, 1, in, &t))
    return false;
  return imp_emit(nc, nc->op->graph, 1, &x, NULL, 1, &t);
}

/* ---- reductions ----------------------------------------------------------------------------------------- */

static bool shape_reduce(const void *ud, int n, const imp_type *const *in, imp_type *out, char *err, size_t errlen)
{
  return nc_kernel_reduce_shape(ud, in[0]->rank, in[0]->dims, &out->rank, out->dims, err, errlen);
}

typedef struct reduce_ud {
  nc_reduce_op op;
  nc_reduce_params p;
} reduce_ud;

static bool fold_reduce(const void *ud, nc_tensor *const *in, nc_tensor *out, char *err, size_t errlen)
{
  const reduce_ud *r = ud;
  return nc_kernel_reduce(r->op, &r->p, in[0], out, err, errlen);
}

static bool imp_reduce(node_ctx *nc)
{
  nc_reduce_op op = (nc_reduce_op)nc->op->kernel_op;
  int64_t axes_input_since = op == NC_REDUCE_SUM ? 13 : 18; /* the opset from which axes is an input */
  imp_value *x = imp_input_required(nc, 0, "data");
  if (!x)
    return false;
  int64_t keepdims, noop = 0, n_axes = 0;
  int64_t *axes = NULL;
  bool has_axes = false;
  if (!imp_attr_int(nc, "keepdims", 1, &keepdims))
    return false;
  if (nc->im->opset >= axes_input_since) {
    if (!imp_attr_int(nc, "noop_with_empty_axes", 0, &noop))
      return false;
    if (imp_input(nc, 1)) {
      if (!imp_const_ints(nc, 1, "axes", &axes, &n_axes))
        return false;
      has_axes = true;
    }
  } else {
    const int64_t *v;
    size_t n;
    if (!imp_attr_ints(nc, "axes", &v, &n, &has_axes))
      return false;
    axes = (int64_t *)v;
    n_axes = (int64_t)n;
  }
  if (n_axes > NC_TENSOR_MAX_RANK)
    return imp_error(nc, "%lld axes for a tensor of rank at most %d", (long long)n_axes, NC_TENSOR_MAX_RANK);
  if (noop && !n_axes) /* an identity */
    return imp_set_alias(nc, 0, x);
  reduce_ud u = {.op = op, .p = {.naxes = (int)n_axes, .axes = axes, .keepdims = keepdims != 0}};
  imp_type t = {.dt = x->type.dt};
  const imp_type *in[1] = {&x->type};
  if (!imp_infer(nc, shape_reduce, &u.p, 1, in, &t))
    return false;
  bool done;
  if (!fold_into(nc, &t, fold_reduce, &u, &done))
    return false;
  if (done)
    return true;
  imp_attrs attrs = {0};
  if (has_axes && n_axes)
    imp_add_i64s(nc, &attrs, "axes", (size_t)n_axes, axes);
  if (!keepdims)
    imp_add_i64(nc, &attrs, "keepdims", 0);
  return imp_emit(nc, nc->op->graph, 1, &x, &attrs, 1, &t);
}

/* ---- normalisation and softmax -------------------------------------------------------------------------- */

static bool imp_lrn(node_ctx *nc)
{
  imp_value *x = imp_input_required(nc, 0, "X");
  if (!x)
    return false;
  int64_t size;
  double alpha, beta, bias;
  if (!imp_attr(nc, "size"))
    return imp_error(nc, "attribute 'size' is required");
  if (!imp_attr_int(nc, "size", 1, &size) || !imp_attr_float(nc, "alpha", 1e-4, &alpha) ||
      !imp_attr_float(nc, "beta", 0.75, &beta) || !imp_attr_float(nc, "bias", 1.0, &bias))
    return false;
  if (size < 1)
    return imp_error(nc, "attribute 'size' must be positive, not %lld", (long long)size);
  imp_attrs attrs = {0};
  imp_add_i64(nc, &attrs, "size", size);
  if ((float)alpha != 1e-4f)
    imp_add_f32(nc, &attrs, "alpha", alpha);
  if ((float)beta != 0.75f)
    imp_add_f32(nc, &attrs, "beta", beta);
  if ((float)bias != 1.0f)
    imp_add_f32(nc, &attrs, "bias", bias);
  return imp_emit(nc, nc->op->graph, 1, &x, &attrs, 1, &x->type);
}

static bool imp_batch_norm(node_ctx *nc)
{
  static const char *const names[] = {"X", "scale", "B", "input_mean", "input_var"};
  if (!inputs_required(nc, NC_COUNTOF(names), names))
    return false;
  double eps;
  int64_t training = 0, spatial = 1;
  if (!imp_attr_float(nc, "epsilon", 1e-5, &eps) || !imp_attr_int(nc, "training_mode", 0, &training) ||
      !imp_attr_int(nc, "spatial", 1, &spatial))
    return false;
  imp_attr_ignore(nc, "momentum");
  imp_attr_ignore(nc, "is_test");
  if (training)
    return imp_unsupported(nc, "training mode (training_mode = 1)");
  if (!spatial)
    return imp_unsupported(nc, "per-activation statistics (spatial = 0)");
  for (size_t i = 1; i < nc->n->n_output; i++)
    if (imp_output_used(nc, i))
      return imp_unsupported(nc, "the training-mode outputs (mean, var, saved statistics)");
  imp_attrs attrs = {0};
  if ((float)eps != 1e-5f)
    imp_add_f32(nc, &attrs, "epsilon", eps);
  return imp_emit(nc, nc->op->graph, 5, nc->in, &attrs, 1, &nc->in[0]->type);
}

static bool imp_instance_norm(node_ctx *nc)
{
  static const char *const names[] = {"input", "scale", "B"};
  if (!inputs_required(nc, NC_COUNTOF(names), names))
    return false;
  double eps;
  if (!imp_attr_float(nc, "epsilon", 1e-5, &eps))
    return false;
  imp_attrs attrs = {0};
  if ((float)eps != 1e-5f)
    imp_add_f32(nc, &attrs, "epsilon", eps);
  return imp_emit(nc, nc->op->graph, 3, nc->in, &attrs, 1, &nc->in[0]->type);
}

/* Softmax and LogSoftmax. Before opset 13 they normalise x viewed as 2-D
 * [prod(d < axis), prod(d >= axis)]; that equals normalising along `axis`
 * alone when the dims after it are all 1, and is otherwise rewritten as
 * flatten(axis) -> softmax(-1) -> reshape(shape of x). */
static bool imp_softmax(node_ctx *nc)
{
  const char *name = nc->op->graph;
  bool log = !strcmp(name, "graph.log_softmax");
  imp_value *x = imp_input_required(nc, 0, "input");
  if (!x)
    return false;
  bool coerce = nc->im->opset < 13;
  int64_t axis;
  if (!imp_attr_int(nc, "axis", coerce ? 1 : -1, &axis))
    return false;
  int rank = x->type.rank;
  if (rank < 0)
    return imp_error(nc, "the rank of the input is unknown");
  if (!imp_axis(nc, "axis", axis, rank, false, &axis))
    return false;
  bool last = true;
  for (int i = (int)axis + 1; i < rank; i++)
    last &= x->type.dims[i] == 1;
  imp_attrs attrs = {0};
  if (!coerce || last) {
    if (axis != rank - 1)
      imp_add_i64(nc, &attrs, "axis", axis);
    return imp_emit(nc, name, 1, &x, &attrs, 1, &x->type);
  }
  int n_dynamic = 0;
  int64_t shape[NC_TENSOR_MAX_RANK];
  for (int i = 0; i < rank; i++) {
    n_dynamic += x->type.dims[i] < 0;
    shape[i] = x->type.dims[i] < 0 ? -1 : x->type.dims[i];
  }
  if (n_dynamic > 1)
    return imp_unsupported(nc, "axis %lld of an input with %d dynamic dimensions (opset < 13 semantics)",
                           (long long)axis, n_dynamic);
  imp_type flat = {.dt = x->type.dt, .rank = 2, .dims = {1, 1}};
  for (int i = 0; i < rank; i++) {
    int64_t *d = &flat.dims[i >= axis];
    *d = *d < 0 || x->type.dims[i] < 0 ? -1 : *d * x->type.dims[i];
  }
  for (int i = 0; i < 2; i++)
    flat.sym[i] = flat.dims[i] < 0 ? imp_fresh_sym(nc->im) : 0;
  imp_attrs fa = {0};
  imp_add_i64(nc, &fa, "axis", axis);
  imp_value *f = imp_emit_temp(nc, "flatten", "graph.flatten", 1, &x, axis == 1 ? NULL : &fa, &flat);
  if (!f || !(f = imp_emit_temp(nc, log ? "log_softmax" : "softmax", name, 1, &f, NULL, &flat)))
    return false;
  imp_attrs ra = {0};
  imp_add_i64s(nc, &ra, "shape", (size_t)rank, shape);
  return imp_emit(nc, "graph.reshape", 1, &f, &ra, 1, &x->type);
}

/* ---- quantization --------------------------------------------------------------------------------------- */

static bool read_block_size(node_ctx *nc)
{
  int64_t block;
  if (!imp_attr_int(nc, "block_size", 0, &block))
    return false;
  return block == 0 || imp_unsupported(nc, "blocked quantization (block_size = %lld)", (long long)block);
}

static bool imp_quantize(node_ctx *nc)
{
  imp_value *x = imp_input_required(nc, 0, "x"), *scale = imp_input_required(nc, 1, "y_scale");
  imp_value *zp = imp_input(nc, 2);
  if (!x || !scale)
    return false;
  int64_t axis, saturate, out_dt;
  if (!imp_attr_int(nc, "axis", 1, &axis) || !imp_attr_int(nc, "saturate", 1, &saturate) ||
      !imp_attr_int(nc, "output_dtype", 0, &out_dt) || !read_block_size(nc))
    return false;
  imp_type t = x->type;
  t.dt = NC_DT_U8;
  if (zp)
    t.dt = zp->type.dt;
  else if (out_dt && !nc_onnx_data_type_to_dtype((int32_t)out_dt, &t.dt))
    return imp_unsupported(nc, "output_dtype %s", nc_onnx_data_type_name((int32_t)out_dt));
  if (!nc_dtype_is_integer(t.dt) || t.dt == NC_DT_BOOL)
    return imp_unsupported(nc, "quantizing to %s", nc_dtype_name(t.dt));
  imp_attrs attrs = {0};
  if (axis != 1)
    imp_add_i64(nc, &attrs, "axis", axis);
  if (!saturate)
    imp_add_i64(nc, &attrs, "saturate", 0);
  imp_value *ops[3] = {x, scale, zp};
  return imp_emit(nc, nc->op->graph, 3, ops, &attrs, 1, &t);
}

static bool imp_dequantize(node_ctx *nc)
{
  imp_value *x = imp_input_required(nc, 0, "x"), *scale = imp_input_required(nc, 1, "x_scale");
  imp_value *zp = imp_input(nc, 2);
  if (!x || !scale)
    return false;
  int64_t axis;
  if (!imp_attr_int(nc, "axis", 1, &axis) || !read_block_size(nc))
    return false;
  imp_type t = x->type;
  t.dt = scale->type.dt;
  imp_attrs attrs = {0};
  if (axis != 1)
    imp_add_i64(nc, &attrs, "axis", axis);
  imp_value *ops[3] = {x, scale, zp};
  return imp_emit(nc, nc->op->graph, 3, ops, &attrs, 1, &t);
}

/* ---- the table ------------------------------------------------------------------------------------------ */

bool imp_concat(node_ctx *nc);
bool imp_split(node_ctx *nc);
bool imp_slice(node_ctx *nc);
bool imp_reshape(node_ctx *nc);
bool imp_flatten(node_ctx *nc);
bool imp_squeeze(node_ctx *nc);
bool imp_unsqueeze(node_ctx *nc);
bool imp_transpose(node_ctx *nc);
bool imp_pad(node_ctx *nc);
bool imp_resize(node_ctx *nc);
bool imp_upsample(node_ctx *nc);
bool imp_expand(node_ctx *nc);
bool imp_qlinear_add(node_ctx *nc);
bool imp_qlinear_mul(node_ctx *nc);
bool imp_qlinear_concat(node_ctx *nc);
bool imp_qlinear_global_average_pool(node_ctx *nc);
bool imp_qlinear_average_pool(node_ctx *nc);
bool imp_qlinear_leaky_relu(node_ctx *nc);
bool imp_qlinear_sigmoid(node_ctx *nc);
bool imp_qlinear_softmax(node_ctx *nc);
bool imp_qgemm(node_ctx *nc);
bool imp_dynamic_quantize(node_ctx *nc);
bool imp_constant(node_ctx *nc);
bool imp_identity(node_ctx *nc);
bool imp_dropout(node_ctx *nc);
bool imp_cast(node_ctx *nc);

/* The ONNX operators that are a graph op's (graph_ops.def's ONNX column),
 * then those imported without a graph op of their own. */
static const imp_op ops[] = {
#define UNARY(OP) OP
#define BINARY(OP) OP
#define VARIADIC(OP) OP
#define REDUCE(OP) OP
#define NO_KERNEL_OP 0
#define ONNX(TYPE, SINCE, HANDLER, EXPORT_INPUTS) TYPE, HANDLER, SINCE
#define NO_ONNX NULL, NULL, 0
#define IMPORT_ROW(TYPE, HANDLER, SINCE, MNEMONIC, KERNEL) {TYPE, HANDLER, MNEMONIC, KERNEL, SINCE},
#define GRAPH_OP(KIND, MNEMONIC, SUMMARY, ONNX_, KERNEL, INTERP, QUANT, DEF, DESCRIPTION) \
  IMPORT_ROW_(ONNX_, MNEMONIC, KERNEL)
#define IMPORT_ROW_(...) IMPORT_ROW(__VA_ARGS__)
#include "../graph_ops.def"
#undef IMPORT_ROW_
#undef IMPORT_ROW
#undef NO_ONNX
#undef ONNX
#undef UNARY
#undef BINARY
#undef VARIADIC
#undef REDUCE
#undef NO_KERNEL_OP
  {"Dropout", imp_dropout, "graph.identity", 0, 1}, /* inference: the identity */
  {"CastLike", imp_cast, "graph.cast", 0, 15},
  {"Upsample", imp_upsample, "graph.resize", 0, 7},
  {"Expand", imp_expand, "graph.resize", 0, 8}, /* folded at import, or a broadcast of size-1 dims */
  /* evaluated at import time only */
  {"Shape", imp_fold_shape}, {"Size", imp_fold_size}, {"Gather", imp_fold_gather},
  {"ConstantOfShape", imp_fold_constant_of_shape}, {"Range", imp_fold_range},
  {"Tile", imp_fold_tile}, {"Equal", imp_fold_compare}, {"Less", imp_fold_compare},
  {"Greater", imp_fold_compare}, {"LessOrEqual", imp_fold_compare}, {"GreaterOrEqual", imp_fold_compare},
  {"And", imp_fold_logic}, {"Or", imp_fold_logic}, {"Xor", imp_fold_logic}, {"Not", imp_fold_not},
  {"Where", imp_fold_where}, {"Floor", imp_fold_rounding}, {"Ceil", imp_fold_rounding},
  {"Round", imp_fold_rounding}, {"ReduceProd", imp_fold_reduce_prod}, {"Mod", imp_fold_mod},
};

/* The com.microsoft ops nc imports: ONNX Runtime's QOperator ops (import_qoperator.c). */
static const imp_op ms_ops[] = {
  {"QLinearAdd", imp_qlinear_add, "graph.add", 0, 1},
  {"QLinearMul", imp_qlinear_mul, "graph.mul", 0, 1},
  {"QLinearConcat", imp_qlinear_concat, "graph.concat", 0, 1},
  {"QLinearGlobalAveragePool", imp_qlinear_global_average_pool, "graph.global_avg_pool", 0, 1},
  {"QLinearAveragePool", imp_qlinear_average_pool, "graph.avg_pool", 0, 1},
  {"QLinearLeakyRelu", imp_qlinear_leaky_relu, "graph.leaky_relu", 0, 1},
  {"QLinearSigmoid", imp_qlinear_sigmoid, "graph.sigmoid", 0, 1},
  {"QLinearSoftmax", imp_qlinear_softmax, "graph.softmax", 0, 1},
  {"QGemm", imp_qgemm, "graph.gemm", 0, 1},
};

const imp_op *imp_find_domain_handler(const char *domain, const char *op_type)
{
  if (!strcmp(domain, "com.microsoft"))
    for (size_t i = 0; i < NC_COUNTOF(ms_ops); i++)
      if (!strcmp(ms_ops[i].op_type, op_type))
        return &ms_ops[i];
  return NULL;
}

const imp_op *imp_find_handler(const char *op_type)
{
  for (size_t i = 0; i < NC_COUNTOF(ops); i++)
    if (ops[i].op_type && !strcmp(ops[i].op_type, op_type))
      return &ops[i];
  return NULL;
}
