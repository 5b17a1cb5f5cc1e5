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
const char *nc_dtype_name(nc_dtype dt);
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

#endif
