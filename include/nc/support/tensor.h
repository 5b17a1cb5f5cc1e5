/* tensor.h: a plain host tensor (dtype, shape, contiguous row-major bytes).
 *
 * This is the currency between tensor files (.npy, ONNX TensorProto), the
 * reference interpreter's kernels and the target simulators. It knows no IR.
 * Sub-byte integer types (i4/u4/i2/u2) are stored one element per byte,
 * sign- or zero-extended, exactly as the IR's dense attributes store them.
 */
#ifndef NC_SUPPORT_TENSOR_H
#define NC_SUPPORT_TENSOR_H

#include "nc/support/base.h"

/** Largest rank a host tensor can have. */
#define NC_TENSOR_MAX_RANK 8

/** Element types of host tensors. */
typedef enum nc_dtype {
  NC_DT_F32, NC_DT_F64, NC_DT_F16, NC_DT_BF16,
  NC_DT_I8, NC_DT_U8, NC_DT_I16, NC_DT_U16,
  NC_DT_I32, NC_DT_U32, NC_DT_I64, NC_DT_U64,
  NC_DT_BOOL, NC_DT_I4, NC_DT_U4, NC_DT_I2, NC_DT_U2,
  NC_DT_COUNT
} nc_dtype;

/** A dense row-major tensor that owns its data buffer. */
typedef struct nc_tensor {
  nc_dtype dtype;
  int rank;
  int64_t shape[NC_TENSOR_MAX_RANK];
  void *data; /* nc_tensor_num_elements() * nc_dtype_size() bytes, owned */
} nc_tensor;

/** Bytes per stored element (1 for bool and the sub-byte integer types). */
size_t nc_dtype_size(nc_dtype dt);
/** Short name ("f32", "i8", "bool", ...); NC_KEEP static string. */
NC_KEEP const char *nc_dtype_name(nc_dtype dt);
/** True for the integer (and bool) dtypes. */
bool nc_dtype_is_integer(nc_dtype dt);
/** True for signed integer dtypes. */
bool nc_dtype_is_signed(nc_dtype dt);

/** Creates a zero-filled tensor; returns NULL if the shape is negative or its
 * byte size overflows/exceeds `limit_bytes` (0 means no limit). */
NC_GIVE nc_tensor *nc_tensor_create(nc_dtype dt, int rank, const int64_t *shape, size_t limit_bytes);
/** Frees the tensor and its data; NULL is allowed. */
void nc_tensor_destroy(NC_TAKE nc_tensor *t);
/** Deep copy. */
NC_GIVE nc_tensor *nc_tensor_clone(NC_KEEP const nc_tensor *t);
/** Number of elements (1 for rank 0). */
int64_t nc_tensor_num_elements(NC_KEEP const nc_tensor *t);
/** Size of the data buffer in bytes. */
size_t nc_tensor_num_bytes(NC_KEEP const nc_tensor *t);
/** Element i (row-major) converted to double, whatever the dtype. */
double nc_tensor_get_f64(NC_KEEP const nc_tensor *t, int64_t i);
/** Element i converted to int64 (floats truncate toward zero). */
int64_t nc_tensor_get_i64(NC_KEEP const nc_tensor *t, int64_t i);
/** Stores v into element i, converting to the dtype (integers wrap to width,
 * f16/bf16 round to nearest even). */
void nc_tensor_set_f64(nc_tensor *t, int64_t i, double v);
/** Stores v into element i of an integer tensor (wrapping to the width). */
void nc_tensor_set_i64(nc_tensor *t, int64_t i, int64_t v);

/** IEEE half <-> float conversions (round to nearest even). */
float nc_f16_to_f32(uint16_t h);
uint16_t nc_f32_to_f16(float f);
/** bfloat16 <-> float conversions (round to nearest even). */
float nc_bf16_to_f32(uint16_t h);
uint16_t nc_f32_to_bf16(float f);

/** d truncated toward zero to int64, saturating out of range; NaN gives 0. */
static inline int64_t nc_f64_to_i64_saturating(double d)
{
  if (d != d) /* NaN */
    return 0;
  if (d >= 9.2233720368547758e18)
    return INT64_MAX;
  if (d <= -9.2233720368547758e18)
    return INT64_MIN;
  return (int64_t)d;
}

/* Element access on raw data of a known dtype: inline, for the kernels'
 * inner loops; nc_tensor_get_* and nc_tensor_set_* are built on them. */

/** Element i of float data (f32, f64, f16, bf16) as double (f16/bf16
 * widened); 0 for other dtypes. */
static inline double nc_elem_load_f64(const void *p, nc_dtype dt, int64_t i)
{
  switch (dt) {
  case NC_DT_F32: return ((const float *)p)[i];
  case NC_DT_F64: return ((const double *)p)[i];
  case NC_DT_F16: return nc_f16_to_f32(((const uint16_t *)p)[i]);
  case NC_DT_BF16: return nc_bf16_to_f32(((const uint16_t *)p)[i]);
  default: return 0;
  }
}

/** Stores v into element i of float data; f32/f16/bf16 round to nearest even
 * (f16/bf16 through f32, the value having been computed in f32). Other
 * dtypes: nothing. */
static inline void nc_elem_store_f64(void *p, nc_dtype dt, int64_t i, double v)
{
  switch (dt) {
  case NC_DT_F32: ((float *)p)[i] = (float)v; break;
  case NC_DT_F64: ((double *)p)[i] = v; break;
  case NC_DT_F16: ((uint16_t *)p)[i] = nc_f32_to_f16((float)v); break;
  case NC_DT_BF16: ((uint16_t *)p)[i] = nc_f32_to_bf16((float)v); break;
  default: break;
  }
}

/** Element i of integer data as int64 (u64 reinterpreted); 0 for float
 * dtypes. */
static inline int64_t nc_elem_load_i64(const void *p, nc_dtype dt, int64_t i)
{
  switch (dt) {
  case NC_DT_I8: case NC_DT_I4: case NC_DT_I2: return ((const int8_t *)p)[i];
  case NC_DT_U8: case NC_DT_U4: case NC_DT_U2: case NC_DT_BOOL: return ((const uint8_t *)p)[i];
  case NC_DT_I16: return ((const int16_t *)p)[i];
  case NC_DT_U16: return ((const uint16_t *)p)[i];
  case NC_DT_I32: return ((const int32_t *)p)[i];
  case NC_DT_U32: return ((const uint32_t *)p)[i];
  case NC_DT_I64: return ((const int64_t *)p)[i];
  case NC_DT_U64: return (int64_t)((const uint64_t *)p)[i];
  default: return 0;
  }
}

/** Stores v into element i of integer data, wrapping to the dtype's width
 * (sub-byte types sign- or zero-extended, bool as 0/1). Float dtypes:
 * nothing. */
static inline void nc_elem_store_i64(void *p, nc_dtype dt, int64_t i, int64_t v)
{
  switch (dt) {
  case NC_DT_I8: ((int8_t *)p)[i] = (int8_t)v; break;
  case NC_DT_U8: ((uint8_t *)p)[i] = (uint8_t)v; break;
  case NC_DT_I4: ((int8_t *)p)[i] = (int8_t)((int64_t)((uint64_t)v << 60) >> 60); break;
  case NC_DT_U4: ((uint8_t *)p)[i] = (uint8_t)(v & 0xf); break;
  case NC_DT_I2: ((int8_t *)p)[i] = (int8_t)((int64_t)((uint64_t)v << 62) >> 62); break;
  case NC_DT_U2: ((uint8_t *)p)[i] = (uint8_t)(v & 0x3); break;
  case NC_DT_BOOL: ((uint8_t *)p)[i] = v != 0; break;
  case NC_DT_I16: ((int16_t *)p)[i] = (int16_t)v; break;
  case NC_DT_U16: ((uint16_t *)p)[i] = (uint16_t)v; break;
  case NC_DT_I32: ((int32_t *)p)[i] = (int32_t)v; break;
  case NC_DT_U32: ((uint32_t *)p)[i] = (uint32_t)v; break;
  case NC_DT_I64: ((int64_t *)p)[i] = v; break;
  case NC_DT_U64: ((uint64_t *)p)[i] = (uint64_t)v; break;
  default: break;
  }
}

#endif
