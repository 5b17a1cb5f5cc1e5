/* interp_values.c: tensors and types for the graph interpreter.
 *
 * The mapping between IR element types and host dtypes, graph.constant
 * values as tensors (used in place when the attribute's bytes are aligned),
 * Cast (which has no kernel: it is a plain conversion loop, written here
 * with its ONNX semantics) and the fused activations, which run the same
 * kernels as the unfused ops so that fusing never changes a result.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "interp_internal.h"

/* --- dtypes and types ---------------------------------------------------------------------------------------- */

bool nc_interp_dtype_from_type(const nc_type *elt, nc_dtype *dt)
{
  switch (nc_type_get_kind(elt)) {
  case NC_TYPE_F32: *dt = NC_DT_F32; return true;
  case NC_TYPE_F64: *dt = NC_DT_F64; return true;
  case NC_TYPE_F16: *dt = NC_DT_F16; return true;
  case NC_TYPE_BF16: *dt = NC_DT_BF16; return true;
  case NC_TYPE_INTEGER: break;
  default: return false;
  }
  nc_signedness s = nc_type_get_signedness(elt);
  unsigned w = nc_type_get_width(elt);
  if (s == NC_SIGNED || (s == NC_UNSIGNED && w == 1))
    return false;
  bool u = s == NC_UNSIGNED;
  switch (w) {
  case 1: *dt = NC_DT_BOOL; return true;
  case 2: *dt = u ? NC_DT_U2 : NC_DT_I2; return true;
  case 4: *dt = u ? NC_DT_U4 : NC_DT_I4; return true;
  case 8: *dt = u ? NC_DT_U8 : NC_DT_I8; return true;
  case 16: *dt = u ? NC_DT_U16 : NC_DT_I16; return true;
  case 32: *dt = u ? NC_DT_U32 : NC_DT_I32; return true;
  case 64: *dt = u ? NC_DT_U64 : NC_DT_I64; return true;
  default: return false;
  }
}

nc_type *nc_interp_type_from_dtype(nc_context *ctx, nc_dtype dt)
{
  switch (dt) {
  case NC_DT_F32: return nc_type_f32(ctx);
  case NC_DT_F64: return nc_type_f64(ctx);
  case NC_DT_F16: return nc_type_f16(ctx);
  case NC_DT_BF16: return nc_type_bf16(ctx);
  case NC_DT_BOOL: return nc_type_integer(ctx, 1, NC_SIGNLESS);
  case NC_DT_I2: return nc_type_integer(ctx, 2, NC_SIGNLESS);
  case NC_DT_U2: return nc_type_integer(ctx, 2, NC_UNSIGNED);
  case NC_DT_I4: return nc_type_integer(ctx, 4, NC_SIGNLESS);
  case NC_DT_U4: return nc_type_integer(ctx, 4, NC_UNSIGNED);
  case NC_DT_I8: return nc_type_integer(ctx, 8, NC_SIGNLESS);
  case NC_DT_U8: return nc_type_integer(ctx, 8, NC_UNSIGNED);
  case NC_DT_I16: return nc_type_integer(ctx, 16, NC_SIGNLESS);
  case NC_DT_U16: return nc_type_integer(ctx, 16, NC_UNSIGNED);
  case NC_DT_I32: return nc_type_integer(ctx, 32, NC_SIGNLESS);
  case NC_DT_U32: return nc_type_integer(ctx, 32, NC_UNSIGNED);
  case NC_DT_I64: return nc_type_integer(ctx, 64, NC_SIGNLESS);
  case NC_DT_U64: return nc_type_integer(ctx, 64, NC_UNSIGNED);
  default: return NULL;
  }
}

bool nc_interp_tensor_matches_type(const nc_tensor *t, const nc_type *type)
{
  nc_dtype dt;
  if (nc_type_get_kind(type) != NC_TYPE_TENSOR || !nc_interp_dtype_from_type(nc_type_get_element_type(type), &dt) ||
      dt != t->dtype || nc_type_get_rank(type) != (size_t)t->rank)
    return false;
  const int64_t *dims = nc_type_get_shape(type);
  for (int i = 0; i < t->rank; i++)
    if (dims[i] != NC_DYNAMIC && dims[i] != t->shape[i])
      return false;
  return true;
}

const char *nc_interp_tensor_type_str(const nc_tensor *t, char *buf, size_t len)
{
  size_t n = (size_t)snprintf(buf, len, "tensor<");
  for (int i = 0; i < t->rank && n < len; i++)
    n += (size_t)snprintf(buf + n, len - n, "%lldx", (long long)t->shape[i]);
  if (n < len) {
    const char *name = nc_dtype_name(t->dtype);
    /* the IR spells bool i1 and unsigned types ui8, ... (nc_dtype_name: "u8") */
    if (t->dtype == NC_DT_BOOL)
      name = "i1";
    snprintf(buf + n, len - n, "%s%s>", name[0] == 'u' ? "ui" : "", name[0] == 'u' ? name + 1 : name);
  }
  return buf;
}

/* --- scalars and constants ------------------------------------------------------------------------------------- */

nc_tensor *ix_scalar(nc_dtype dt, double v, int64_t iv, bool is_int)
{
  nc_tensor *t = nc_tensor_create(dt, 0, NULL, 0);
  if (!t)
    NC_UNREACHABLE("a one-element tensor cannot fail to allocate");
  if (is_int)
    nc_tensor_set_i64(t, 0, iv);
  else
    nc_tensor_set_f64(t, 0, v);
  return t;
}

nc_tensor *ix_constant_tensor(nc_op *op, bool *view, char *err, size_t errlen)
{
  nc_attr *value = nc_op_get_attr_str(op, "value");
  nc_type *type = value ? nc_attr_get_type(value) : NULL;
  nc_dtype dt;
  *view = false;
  if (!type || nc_type_get_kind(type) != NC_TYPE_TENSOR || !nc_type_has_static_shape(type) ||
      !nc_interp_dtype_from_type(nc_type_get_element_type(type), &dt)) {
    snprintf(err, errlen, "has no 'value' of a statically shaped tensor type the interpreter supports");
    return NULL;
  }
  size_t rank = nc_type_get_rank(type);
  if (rank > NC_TENSOR_MAX_RANK) {
    snprintf(err, errlen, "has a value of rank %zu; the interpreter supports up to %d", rank, NC_TENSOR_MAX_RANK);
    return NULL;
  }
  size_t nbytes;
  bool splat;
  const void *data = nc_attr_elements_get_data(value, &nbytes, &splat);
  if (!data) {
    snprintf(err, errlen, "has no data for its value (a dense_resource blob that is missing or of the wrong size)");
    return NULL;
  }
  const int64_t *dims = nc_type_get_shape(type);
  size_t es = nc_dtype_size(dt);
  if (!splat && ((uintptr_t)data % es) == 0) {
    nc_tensor *t = nc_xcalloc(1, sizeof *t);
    t->dtype = dt;
    t->rank = (int)rank;
    memcpy(t->shape, dims, rank * sizeof *dims);
    t->data = (void *)(uintptr_t)data; /* never written: constants are only read */
    *view = true;
    return t;
  }
  nc_tensor *t = nc_tensor_create(dt, (int)rank, dims, 0);
  if (!t) {
    snprintf(err, errlen, "has a value too large to allocate");
    return NULL;
  }
  if (splat) {
    int64_t n = nc_tensor_num_elements(t);
    for (int64_t i = 0; i < n; i++)
      memcpy((char *)t->data + (size_t)i * es, data, es);
  } else {
    memcpy(t->data, data, nbytes);
  }
  return t;
}

/* --- Cast ---------------------------------------------------------------------------------------------------------- */

static bool is_float_dt(nc_dtype dt)
{
  return dt == NC_DT_F32 || dt == NC_DT_F64 || dt == NC_DT_F16 || dt == NC_DT_BF16;
}

/* ONNX Cast, as numpy's astype on x86 where numpy defines it:
 *  - to bool: nonzero (and NaN) is true;
 *  - integer to integer: wraps to the target width (two's complement);
 *  - float to integer: truncates toward zero; NaN gives 0; values beyond
 *    the int64 range saturate to it (u64: beyond [0, 2^64)), then wrap to
 *    the target width, so 300.7 -> i8 gives 44 as numpy does;
 *  - integer to float: rounds to nearest even, directly from the integer;
 *  - float to float: rounds to nearest even (f64 -> f16/bf16 goes through
 *    f32, a double rounding that can differ from numpy in the last bit). */
void ix_cast(const nc_tensor *x, nc_tensor *y)
{
  int64_t n = nc_tensor_num_elements(x);
  nc_dtype from = x->dtype, to = y->dtype;
  if (from == to) {
    memcpy(y->data, x->data, nc_tensor_num_bytes(x));
    return;
  }
  bool ff = is_float_dt(from), ft = is_float_dt(to);
  if (from == NC_DT_F32 && to == NC_DT_F16) {
    const float *xp = x->data;
    uint16_t *yp = y->data;
    for (int64_t i = 0; i < n; i++)
      yp[i] = nc_f32_to_f16(xp[i]);
    return;
  }
  for (int64_t i = 0; i < n; i++) {
    if (to == NC_DT_BOOL) {
      nc_tensor_set_i64(y, i, ff ? nc_tensor_get_f64(x, i) != 0 : nc_tensor_get_i64(x, i) != 0);
    } else if (!ff && !ft) {
      nc_tensor_set_i64(y, i, nc_tensor_get_i64(x, i));
    } else if (ff && !ft) {
      double v = nc_tensor_get_f64(x, i);
      if (to == NC_DT_U64 && v >= 9223372036854775808.0)
        ((uint64_t *)y->data)[i] = v >= 18446744073709551616.0 ? UINT64_MAX : (uint64_t)v;
      else
        nc_tensor_set_i64(y, i, nc_tensor_get_i64(x, i)); /* truncates, saturating to int64 */
    } else if (!ff) {
      /* integer to float, rounded once */
      int64_t v = nc_tensor_get_i64(x, i);
      bool u = from == NC_DT_U64;
      if (to == NC_DT_F64)
        ((double *)y->data)[i] = u ? (double)(uint64_t)v : (double)v;
      else
        nc_tensor_set_f64(y, i, u ? (double)(float)(uint64_t)v : (double)(float)v);
    } else {
      nc_tensor_set_f64(y, i, nc_tensor_get_f64(x, i));
    }
  }
}

/* --- fused activations ----------------------------------------------------------------------------------------- */

bool ix_activation_supported(const nc_graph_activation *act, nc_dtype dt)
{
  if (act->kind == NC_GRAPH_ACT_NONE || is_float_dt(dt))
    return true;
  return dt != NC_DT_BOOL && (act->kind == NC_GRAPH_ACT_RELU || act->kind == NC_GRAPH_ACT_CLIP);
}

/* The integer range of dt (u64 capped at INT64_MAX). */
static void int_range(nc_dtype dt, int64_t *lo, int64_t *hi)
{
  switch (dt) {
  case NC_DT_I64: *lo = INT64_MIN, *hi = INT64_MAX; return;
  case NC_DT_U64: *lo = 0, *hi = INT64_MAX; return;
  case NC_DT_BOOL: *lo = 0, *hi = 1; return;
  default: break;
  }
  int bits = dt == NC_DT_I2 || dt == NC_DT_U2 ? 2 : dt == NC_DT_I4 || dt == NC_DT_U4 ? 4 : (int)nc_dtype_size(dt) * 8;
  bool sgn = nc_dtype_is_signed(dt);
  *lo = sgn ? -((int64_t)1 << (bits - 1)) : 0;
  *hi = sgn ? ((int64_t)1 << (bits - 1)) - 1 : ((int64_t)1 << bits) - 1;
}

nc_tensor *ix_int_bound(nc_dtype dt, double v, bool upper)
{
  int64_t lo, hi;
  int_range(dt, &lo, &hi);
  double r = upper ? floor(v) : ceil(v);
  int64_t b = isnan(r) ? 0 : r <= (double)lo ? lo : r >= (double)hi ? hi : (int64_t)r;
  return ix_scalar(dt, 0, b, true);
}

void ix_apply_activation(const nc_graph_activation *act, nc_tensor *y)
{
  int64_t n = nc_tensor_num_elements(y);
  if (y->dtype == NC_DT_F32 && act->kind != NC_GRAPH_ACT_SIGMOID && act->kind != NC_GRAPH_ACT_TANH) {
    /* in place, with exactly the kernels' formulas */
    float *p = y->data, alpha = (float)act->alpha;
    float lo = act->has_min ? (float)act->min : -INFINITY, hi = act->has_max ? (float)act->max : INFINITY;
    switch (act->kind) {
    case NC_GRAPH_ACT_RELU:
      for (int64_t i = 0; i < n; i++)
        p[i] = p[i] < 0 ? 0.0f : p[i];
      return;
    case NC_GRAPH_ACT_LEAKY_RELU:
      for (int64_t i = 0; i < n; i++)
        p[i] = p[i] < 0 ? alpha * p[i] : p[i];
      return;
    case NC_GRAPH_ACT_CLIP:
      if (isnan(lo) || isnan(hi)) {
        for (int64_t i = 0; i < n; i++)
          p[i] = NAN;
        return;
      }
      for (int64_t i = 0; i < n; i++) {
        float v = p[i] < lo ? lo : p[i];
        p[i] = v > hi ? hi : v;
      }
      return;
    default: return;
    }
  }
  /* everything else runs the unfused op's kernel into a scratch tensor */
  nc_tensor *tmp = nc_tensor_create(y->dtype, y->rank, y->shape, 0);
  if (!tmp)
    NC_UNREACHABLE("out of memory applying a fused activation");
  bool ok = true;
  if (act->kind == NC_GRAPH_ACT_CLIP) {
    bool is_int = nc_dtype_is_integer(y->dtype);
    nc_tensor *lo = !act->has_min ? NULL : is_int ? ix_int_bound(y->dtype, act->min, false)
                                                  : ix_scalar(y->dtype, act->min, 0, false);
    nc_tensor *hi = !act->has_max ? NULL : is_int ? ix_int_bound(y->dtype, act->max, true)
                                                  : ix_scalar(y->dtype, act->max, 0, false);
    ok = nc_kernel_clip(y, lo, hi, tmp, NULL, 0);
    nc_tensor_destroy(lo);
    nc_tensor_destroy(hi);
  } else {
    nc_unary_op op = act->kind == NC_GRAPH_ACT_RELU         ? NC_UNARY_RELU
                     : act->kind == NC_GRAPH_ACT_LEAKY_RELU ? NC_UNARY_LEAKY_RELU
                     : act->kind == NC_GRAPH_ACT_SIGMOID    ? NC_UNARY_SIGMOID
                                                            : NC_UNARY_TANH;
    nc_unary_params p = nc_unary_params_default(op);
    p.alpha = act->alpha;
    ok = nc_kernel_unary(op, &p, y, tmp, NULL, 0);
  }
  if (!ok)
    NC_UNREACHABLE("a fused activation the interpreter accepted failed");
  void *d = y->data;
  y->data = tmp->data;
  tmp->data = d;
  nc_tensor_destroy(tmp);
}
