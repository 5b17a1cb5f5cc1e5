/* tensor.c: host tensors and element conversions (see nc/support/tensor.h). */
#include "nc/support/tensor.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const struct { const char *name; unsigned size; bool integer, is_signed; } dtypes[NC_DT_COUNT] = {
  [NC_DT_F32] = {"f32", 4, false, true},  [NC_DT_F64] = {"f64", 8, false, true},
  [NC_DT_F16] = {"f16", 2, false, true},  [NC_DT_BF16] = {"bf16", 2, false, true},
  [NC_DT_I8] = {"i8", 1, true, true},     [NC_DT_U8] = {"u8", 1, true, false},
  [NC_DT_I16] = {"i16", 2, true, true},   [NC_DT_U16] = {"u16", 2, true, false},
  [NC_DT_I32] = {"i32", 4, true, true},   [NC_DT_U32] = {"u32", 4, true, false},
  [NC_DT_I64] = {"i64", 8, true, true},   [NC_DT_U64] = {"u64", 8, true, false},
  [NC_DT_BOOL] = {"bool", 1, true, false},
  [NC_DT_I4] = {"i4", 1, true, true},     [NC_DT_U4] = {"u4", 1, true, false},
  [NC_DT_I2] = {"i2", 1, true, true},     [NC_DT_U2] = {"u2", 1, true, false},
};

size_t nc_dtype_size(nc_dtype dt) { return dt < NC_DT_COUNT ? dtypes[dt].size : 0; }
const char *nc_dtype_name(nc_dtype dt) { return dt < NC_DT_COUNT ? dtypes[dt].name : "?"; }
bool nc_dtype_is_integer(nc_dtype dt) { return dt < NC_DT_COUNT && dtypes[dt].integer; }
bool nc_dtype_is_signed(nc_dtype dt) { return dt < NC_DT_COUNT && dtypes[dt].is_signed; }

nc_tensor *nc_tensor_create(nc_dtype dt, int rank, const int64_t *shape, size_t limit_bytes)
{
  if (dt >= NC_DT_COUNT || rank < 0 || rank > NC_TENSOR_MAX_RANK)
    return NULL;
  size_t bytes = nc_dtype_size(dt);
  for (int i = 0; i < rank; i++) {
    if (shape[i] < 0)
      return NULL;
    if (shape[i] && bytes > SIZE_MAX / (size_t)shape[i])
      return NULL;
    bytes *= (size_t)shape[i];
  }
  if (limit_bytes && bytes > limit_bytes)
    return NULL;
  void *data = calloc(bytes ? bytes : 1, 1);
  if (!data)
    return NULL;
  nc_tensor *t = nc_xcalloc(1, sizeof *t);
  t->dtype = dt;
  t->rank = rank;
  for (int i = 0; i < rank; i++)
    t->shape[i] = shape[i];
  t->data = data;
  return t;
}

void nc_tensor_destroy(nc_tensor *t)
{
  if (!t)
    return;
  free(t->data);
  free(t);
}

int64_t nc_tensor_num_elements(const nc_tensor *t)
{
  int64_t n = 1;
  for (int i = 0; i < t->rank; i++)
    n *= t->shape[i];
  return n;
}

size_t nc_tensor_num_bytes(const nc_tensor *t)
{
  return (size_t)nc_tensor_num_elements(t) * nc_dtype_size(t->dtype);
}

nc_tensor *nc_tensor_clone(const nc_tensor *t)
{
  nc_tensor *c = nc_tensor_create(t->dtype, t->rank, t->shape, 0);
  if (!c)
    NC_UNREACHABLE("clone of a tensor that exists cannot fail");
  memcpy(c->data, t->data, nc_tensor_num_bytes(t));
  return c;
}

float nc_f16_to_f32(uint16_t h)
{
  uint32_t sign = (uint32_t)(h >> 15) << 31, exp = (h >> 10) & 0x1f, man = h & 0x3ff, bits;
  if (exp == 0x1f)
    bits = sign | 0x7f800000u | (man << 13);
  else if (exp)
    bits = sign | ((exp + 112) << 23) | (man << 13);
  else if (!man)
    bits = sign;
  else { /* subnormal: normalise */
    int e = -1;
    do { man <<= 1; e++; } while (!(man & 0x400));
    bits = sign | ((uint32_t)(112 - e) << 23) | ((man & 0x3ff) << 13);
  }
  float f;
  memcpy(&f, &bits, 4);
  return f;
}

uint16_t nc_f32_to_f16(float f)
{
  uint32_t x;
  memcpy(&x, &f, 4);
  uint32_t sign = (x >> 16) & 0x8000, exp = (x >> 23) & 0xff, man = x & 0x7fffff;
  if (exp == 0xff) /* inf or nan (keep a quiet bit so NaN stays NaN) */
    return (uint16_t)(sign | 0x7c00 | (man ? (0x200 | (man >> 13)) : 0));
  int e = (int)exp - 127 + 15;
  if (e >= 0x1f)
    return (uint16_t)(sign | 0x7c00);
  if (e <= 0) { /* subnormal or zero in half */
    if (e < -10)
      return (uint16_t)sign;
    man |= 0x800000;
    int shift = 14 - e;
    uint32_t half = man >> shift, rem = man & ((1u << shift) - 1), mid = 1u << (shift - 1);
    if (rem > mid || (rem == mid && (half & 1)))
      half++;
    return (uint16_t)(sign | half);
  }
  uint32_t half = sign | ((uint32_t)e << 10) | (man >> 13), rem = man & 0x1fff;
  if (rem > 0x1000 || (rem == 0x1000 && (half & 1)))
    half++; /* may carry into the exponent: that is the correct rounding */
  return (uint16_t)half;
}

float nc_bf16_to_f32(uint16_t h)
{
  uint32_t bits = (uint32_t)h << 16;
  float f;
  memcpy(&f, &bits, 4);
  return f;
}

uint16_t nc_f32_to_bf16(float f)
{
  uint32_t x;
  memcpy(&x, &f, 4);
  if ((x & 0x7fffffff) > 0x7f800000)
    return (uint16_t)((x >> 16) | 0x40);
  x += 0x7fff + ((x >> 16) & 1);
  return (uint16_t)(x >> 16);
}

double nc_tensor_get_f64(const nc_tensor *t, int64_t i)
{
  if (!nc_dtype_is_integer(t->dtype))
    return nc_elem_load_f64(t->data, t->dtype, i);
  if (t->dtype == NC_DT_U64)
    return (double)((const uint64_t *)t->data)[i];
  return (double)nc_elem_load_i64(t->data, t->dtype, i);
}

int64_t nc_tensor_get_i64(const nc_tensor *t, int64_t i)
{
  if (nc_dtype_is_integer(t->dtype))
    return nc_elem_load_i64(t->data, t->dtype, i);
  return nc_f64_to_i64_saturating(nc_elem_load_f64(t->data, t->dtype, i));
}

void nc_tensor_set_i64(nc_tensor *t, int64_t i, int64_t v)
{
  if (nc_dtype_is_integer(t->dtype))
    nc_elem_store_i64(t->data, t->dtype, i, v);
  else
    nc_elem_store_f64(t->data, t->dtype, i, (double)v);
}

void nc_tensor_set_f64(nc_tensor *t, int64_t i, double v)
{
  if (nc_dtype_is_integer(t->dtype))
    nc_elem_store_i64(t->data, t->dtype, i, isnan(v) ? 0 : (int64_t)v);
  else
    nc_elem_store_f64(t->data, t->dtype, i, v);
}
