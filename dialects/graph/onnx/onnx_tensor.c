/* onnx_tensor.c: ONNX TensorProto <-> host nc_tensor (see onnx_proto.h).
 *
 * A TensorProto stores its elements in raw_data (little-endian, packed) or
 * in the one typed repeated field ONNX prescribes for its data type; the
 * rules are a table here, used both to check a tensor (so that hostile
 * files are refused before anything is allocated from their dims) and to
 * convert it. Conversion copies raw bytes directly: nc assumes a
 * little-endian host, which is checked at compile time.
 */
#include "onnx_proto_internal.h"

#include "nc/support/file.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "nc's ONNX tensor code assumes a little-endian host"
#endif

/* Which typed field holds a data type's values when raw_data is not used. */
typedef enum field { F_NONE, F_FLOAT, F_INT32, F_STRING, F_INT64, F_DOUBLE, F_UINT64 } field;

static const char *field_names[] = {
  [F_NONE] = "-", [F_FLOAT] = "float_data", [F_INT32] = "int32_data", [F_STRING] = "string_data",
  [F_INT64] = "int64_data", [F_DOUBLE] = "double_data", [F_UINT64] = "uint64_data",
};

/* bits: bits per element (0 for STRING); per: typed values per element
 * (2 for complex); sub-byte types keep one packed byte per int32_data. */
static const struct type_info {
  const char *name;
  unsigned char bits, per;
  field field;
  signed char dtype; /* nc_dtype, or -1 */
} types[NC_ONNX_DATA_TYPE_COUNT] = {
  [NC_ONNX_UNDEFINED] = {"UNDEFINED", 0, 0, F_NONE, -1},
  [NC_ONNX_FLOAT] = {"FLOAT", 32, 1, F_FLOAT, NC_DT_F32},
  [NC_ONNX_UINT8] = {"UINT8", 8, 1, F_INT32, NC_DT_U8},
  [NC_ONNX_INT8] = {"INT8", 8, 1, F_INT32, NC_DT_I8},
  [NC_ONNX_UINT16] = {"UINT16", 16, 1, F_INT32, NC_DT_U16},
  [NC_ONNX_INT16] = {"INT16", 16, 1, F_INT32, NC_DT_I16},
  [NC_ONNX_INT32] = {"INT32", 32, 1, F_INT32, NC_DT_I32},
  [NC_ONNX_INT64] = {"INT64", 64, 1, F_INT64, NC_DT_I64},
  [NC_ONNX_STRING] = {"STRING", 0, 1, F_STRING, -1},
  [NC_ONNX_BOOL] = {"BOOL", 8, 1, F_INT32, NC_DT_BOOL},
  [NC_ONNX_FLOAT16] = {"FLOAT16", 16, 1, F_INT32, NC_DT_F16},
  [NC_ONNX_DOUBLE] = {"DOUBLE", 64, 1, F_DOUBLE, NC_DT_F64},
  [NC_ONNX_UINT32] = {"UINT32", 32, 1, F_UINT64, NC_DT_U32},
  [NC_ONNX_UINT64] = {"UINT64", 64, 1, F_UINT64, NC_DT_U64},
  [NC_ONNX_COMPLEX64] = {"COMPLEX64", 64, 2, F_FLOAT, -1},
  [NC_ONNX_COMPLEX128] = {"COMPLEX128", 128, 2, F_DOUBLE, -1},
  [NC_ONNX_BFLOAT16] = {"BFLOAT16", 16, 1, F_INT32, NC_DT_BF16},
  [NC_ONNX_FLOAT8E4M3FN] = {"FLOAT8E4M3FN", 8, 1, F_INT32, -1},
  [NC_ONNX_FLOAT8E4M3FNUZ] = {"FLOAT8E4M3FNUZ", 8, 1, F_INT32, -1},
  [NC_ONNX_FLOAT8E5M2] = {"FLOAT8E5M2", 8, 1, F_INT32, -1},
  [NC_ONNX_FLOAT8E5M2FNUZ] = {"FLOAT8E5M2FNUZ", 8, 1, F_INT32, -1},
  [NC_ONNX_UINT4] = {"UINT4", 4, 1, F_INT32, NC_DT_U4},
  [NC_ONNX_INT4] = {"INT4", 4, 1, F_INT32, NC_DT_I4},
  [NC_ONNX_FLOAT4E2M1] = {"FLOAT4E2M1", 4, 1, F_INT32, -1},
  [NC_ONNX_FLOAT8E8M0] = {"FLOAT8E8M0", 8, 1, F_INT32, -1},
  [NC_ONNX_UINT2] = {"UINT2", 2, 1, F_INT32, NC_DT_U2},
  [NC_ONNX_INT2] = {"INT2", 2, 1, F_INT32, NC_DT_I2},
};

static bool known(int32_t dt) { return dt > NC_ONNX_UNDEFINED && dt < NC_ONNX_DATA_TYPE_COUNT; }

const char *nc_onnx_data_type_name(int32_t dt)
{
  return dt >= 0 && dt < NC_ONNX_DATA_TYPE_COUNT ? types[dt].name : "?";
}

bool nc_onnx_data_type_to_dtype(int32_t dt, nc_dtype *out)
{
  if (!known(dt) || types[dt].dtype < 0)
    return false;
  *out = (nc_dtype)types[dt].dtype;
  return true;
}

int32_t nc_onnx_data_type_from_dtype(nc_dtype dt)
{
  for (int32_t i = 1; i < NC_ONNX_DATA_TYPE_COUNT; i++)
    if (types[i].dtype == (int)dt)
      return i;
  NC_UNREACHABLE("every nc dtype has an ONNX data type");
}

/* ---- checking ------------------------------------------------------------ */

/* Products of nonzero dims stay below this, so that byte sizes (at most 16
 * bytes per element) and nc_tensor_num_elements() never overflow. */
#define MAX_ELEMENTS (INT64_MAX / 16)

int64_t nc_onnx_tensor_get_num_elements(const Onnx__TensorProto *t)
{
  int64_t n = 1;
  bool zero = false;
  for (size_t i = 0; i < t->n_dims; i++) {
    int64_t d = t->dims[i];
    if (d < 0)
      return -1;
    if (!d) {
      zero = true;
      continue;
    }
    if (n > MAX_ELEMENTS / d)
      return -1;
    n *= d;
  }
  return zero ? 0 : n;
}

int64_t nc_onnx_tensor_get_num_bytes(const Onnx__TensorProto *t)
{
  int64_t n = nc_onnx_tensor_get_num_elements(t);
  if (n < 0 || !t->has_data_type || !known(t->data_type) || t->data_type == NC_ONNX_STRING)
    return -1;
  unsigned bits = types[t->data_type].bits;
  return bits >= 8 ? n * (bits / 8) : (n * bits + 7) / 8;
}


void onnx_describe_tensor(const Onnx__TensorProto *t, char *out, size_t outlen)
{
  size_t n = (size_t)snprintf(out, outlen, "dims [");
  for (size_t i = 0; i < t->n_dims && n < outlen; i++)
    n += (size_t)snprintf(out + n, outlen - n, "%s%lld", i ? "," : "", (long long)t->dims[i]);
  if (n < outlen)
    snprintf(out + n, outlen - n, "] of %s", nc_onnx_data_type_name(t->data_type));
}

/* Number of typed values of field f present in t. */
static size_t typed_count(const Onnx__TensorProto *t, field f)
{
  switch (f) {
  case F_FLOAT: return t->n_float_data;
  case F_INT32: return t->n_int32_data;
  case F_STRING: return t->n_string_data;
  case F_INT64: return t->n_int64_data;
  case F_DOUBLE: return t->n_double_data;
  case F_UINT64: return t->n_uint64_data;
  default: return 0;
  }
}

bool nc_onnx_tensor_check(const Onnx__TensorProto *t, const char *what, char *err, size_t errlen)
{
  if (!what)
    what = "tensor";
  if (!t->has_data_type || t->data_type == NC_ONNX_UNDEFINED)
    return nc_file_error(err, errlen, what, "has no data_type");
  if (!known(t->data_type))
    return nc_file_error(err, errlen, what, "unknown data_type %d", (int)t->data_type);
  for (size_t i = 0; i < t->n_dims; i++)
    if (t->dims[i] < 0)
      return nc_file_error(err, errlen, what, "dimension %zu is negative (%lld)", i, (long long)t->dims[i]);
  char desc[256];
  onnx_describe_tensor(t, desc, sizeof desc);
  int64_t n = nc_onnx_tensor_get_num_elements(t);
  if (n < 0)
    return nc_file_error(err, errlen, what, "%s has too many elements", desc);
  if (t->segment)
    return nc_file_error(err, errlen, what, "segmented tensors are not supported");
  if (t->has_data_location && t->data_location == ONNX__TENSOR_PROTO__DATA_LOCATION__EXTERNAL)
    return nc_file_error(err, errlen, what, "data is stored externally and was not loaded");
  if (t->has_data_location && t->data_location != ONNX__TENSOR_PROTO__DATA_LOCATION__DEFAULT)
    return nc_file_error(err, errlen, what, "unknown data_location %d", (int)t->data_location);

  const struct type_info *ti = &types[t->data_type];
  field present = F_NONE;
  for (field f = F_FLOAT; f <= F_UINT64; f++) {
    if (!typed_count(t, f))
      continue;
    if (present != F_NONE)
      return nc_file_error(err, errlen, what, "has both %s and %s", field_names[present], field_names[f]);
    if (t->has_raw_data)
      return nc_file_error(err, errlen, what, "has both raw_data and %s", field_names[f]);
    present = f;
  }
  if (present != F_NONE && present != ti->field)
    return nc_file_error(err, errlen, what, "%s tensor has %s (its values belong in %s)", ti->name,
                field_names[present], field_names[ti->field]);
  if (ti->field == F_STRING) {
    if (t->has_raw_data)
      return nc_file_error(err, errlen, what, "STRING tensor cannot use raw_data");
    if ((int64_t)t->n_string_data != n)
      return nc_file_error(err, errlen, what, "string_data has %zu strings, %s need %lld", t->n_string_data, desc,
                  (long long)n);
    return true;
  }
  /* Bytes of raw_data, and number of typed values, the dims need. */
  uint64_t bytes = (uint64_t)nc_onnx_tensor_get_num_bytes(t);
  uint64_t values = ti->bits < 8 ? bytes : (uint64_t)n * ti->per;
  if (t->has_raw_data) {
    if (t->raw_data.len != bytes)
      return nc_file_error(err, errlen, what, "raw_data has %zu bytes, %s need %llu", t->raw_data.len, desc,
                  (unsigned long long)bytes);
  } else if (present != F_NONE) {
    if (typed_count(t, present) != values)
      return nc_file_error(err, errlen, what, "%s has %zu values, %s need %llu", field_names[present],
                  typed_count(t, present), desc, (unsigned long long)values);
  } else if (n) {
    return nc_file_error(err, errlen, what, "has no data (%s need %llu bytes)", desc, (unsigned long long)bytes);
  }
  return true;
}

/* ---- conversion ---------------------------------------------------------- */

/* Unpacks sub-byte element i (bits 2 or 4, low bits first) from packed bytes. */
static int64_t unpack(const unsigned char *bytes, int64_t i, unsigned bits, bool is_signed)
{
  unsigned per = 8 / bits, shift = (unsigned)(i % per) * bits;
  unsigned v = (bytes[i / per] >> shift) & ((1u << bits) - 1);
  if (is_signed && (v >> (bits - 1)))
    return (int64_t)v - (1 << bits);
  return v;
}

nc_tensor *nc_onnx_tensor_to_host(const Onnx__TensorProto *t, char *err, size_t errlen)
{
  char what[300];
  int n0 = snprintf(what, sizeof what, "tensor '%.250s'", t->name ? t->name : "");
  for (int i = 8; i < n0 - 1 && i < (int)sizeof what - 2; i++) /* keep the message on one line */
    if ((unsigned char)what[i] < 0x20 || what[i] == 0x7f)
      what[i] = '?';
  if (!nc_onnx_tensor_check(t, what, err, errlen))
    return NULL;
  nc_dtype dt;
  if (!nc_onnx_data_type_to_dtype(t->data_type, &dt)) {
    nc_file_error(err, errlen, what, "data type %s is not supported", nc_onnx_data_type_name(t->data_type));
    return NULL;
  }
  if (t->n_dims > NC_TENSOR_MAX_RANK) {
    nc_file_error(err, errlen, what, "rank %zu exceeds the maximum of %d", t->n_dims, NC_TENSOR_MAX_RANK);
    return NULL;
  }
  nc_tensor *h = nc_tensor_create(dt, (int)t->n_dims, t->dims, 0);
  if (!h) {
    nc_file_error(err, errlen, what, "cannot allocate the tensor");
    return NULL;
  }
  int64_t n = nc_tensor_num_elements(h);
  unsigned bits = types[t->data_type].bits;
  bool sub_byte = bits < 8, is_signed = nc_dtype_is_signed(dt);
  if (t->has_raw_data) {
    if (sub_byte) {
      for (int64_t i = 0; i < n; i++)
        ((int8_t *)h->data)[i] = (int8_t)unpack(t->raw_data.data, i, bits, is_signed);
    } else if (n) {
      memcpy(h->data, t->raw_data.data, nc_tensor_num_bytes(h));
      if (dt == NC_DT_BOOL)
        for (int64_t i = 0; i < n; i++)
          ((unsigned char *)h->data)[i] = ((unsigned char *)h->data)[i] != 0;
    }
    return h;
  }
  if (!n)
    return h;
  switch (dt) {
  case NC_DT_F32: memcpy(h->data, t->float_data, (size_t)n * 4); break;
  case NC_DT_F64: memcpy(h->data, t->double_data, (size_t)n * 8); break;
  case NC_DT_I32: memcpy(h->data, t->int32_data, (size_t)n * 4); break;
  case NC_DT_I64: memcpy(h->data, t->int64_data, (size_t)n * 8); break;
  case NC_DT_U64: memcpy(h->data, t->uint64_data, (size_t)n * 8); break;
  case NC_DT_U32:
    for (int64_t i = 0; i < n; i++)
      ((uint32_t *)h->data)[i] = (uint32_t)t->uint64_data[i];
    break;
  case NC_DT_F16: case NC_DT_BF16: /* bit patterns in the low 16 bits */
    for (int64_t i = 0; i < n; i++)
      ((uint16_t *)h->data)[i] = (uint16_t)t->int32_data[i];
    break;
  case NC_DT_I4: case NC_DT_U4: case NC_DT_I2: case NC_DT_U2: {
    /* one packed byte per int32_data value */
    size_t nb = t->n_int32_data;
    unsigned char *packed = nc_xmalloc(nb);
    for (size_t i = 0; i < nb; i++)
      packed[i] = (unsigned char)t->int32_data[i];
    for (int64_t i = 0; i < n; i++)
      ((int8_t *)h->data)[i] = (int8_t)unpack(packed, i, bits, is_signed);
    free(packed);
    break;
  }
  case NC_DT_BOOL: /* any non-zero value is true, as numpy's bool() */
    for (int64_t i = 0; i < n; i++)
      ((unsigned char *)h->data)[i] = t->int32_data[i] != 0;
    break;
  default: { /* I8 U8 I16 U16: a value outside the type is refused, never wrapped */
    int64_t lo = dt == NC_DT_I8 ? INT8_MIN : dt == NC_DT_I16 ? INT16_MIN : 0;
    int64_t hi = dt == NC_DT_I8 ? INT8_MAX : dt == NC_DT_U8 ? UINT8_MAX : dt == NC_DT_I16 ? INT16_MAX : UINT16_MAX;
    for (int64_t i = 0; i < n; i++) {
      if (t->int32_data[i] < lo || t->int32_data[i] > hi) {
        nc_file_error(err, errlen, what, "int32_data[%lld] is %d, outside the range of %s [%lld, %lld]", (long long)i,
             t->int32_data[i], nc_onnx_data_type_name(t->data_type), (long long)lo, (long long)hi);
        nc_tensor_destroy(h);
        return NULL;
      }
      nc_tensor_set_i64(h, i, t->int32_data[i]);
    }
    break;
  }
  }
  return h;
}

static char *xstrdup(const char *s)
{
  size_t n = strlen(s) + 1;
  return memcpy(nc_xmalloc(n), s, n);
}

/* Everything is allocated with malloc so that protobuf-c's
 * protobuf_c_message_free_unpacked() (default allocator) frees it. */
Onnx__TensorProto *nc_onnx_tensor_from_host(const nc_tensor *h, const char *name)
{
  Onnx__TensorProto *t = nc_xmalloc(sizeof *t);
  onnx__tensor_proto__init(t);
  t->name = name ? xstrdup(name) : NULL;
  t->has_data_type = 1;
  t->data_type = nc_onnx_data_type_from_dtype(h->dtype);
  t->n_dims = (size_t)h->rank;
  t->dims = h->rank ? nc_xmalloc((size_t)h->rank * sizeof *t->dims) : NULL;
  for (int i = 0; i < h->rank; i++)
    t->dims[i] = h->shape[i];
  int64_t n = nc_tensor_num_elements(h);
  unsigned bits = types[t->data_type].bits;
  size_t bytes = (size_t)(((uint64_t)n * bits + 7) / 8);
  t->has_raw_data = 1;
  t->raw_data.len = bytes;
  t->raw_data.data = bytes ? nc_xcalloc(bytes, 1) : NULL;
  if (bits < 8) {
    unsigned per = 8 / bits, mask = (1u << bits) - 1;
    for (int64_t i = 0; i < n; i++)
      t->raw_data.data[i / per] |= (uint8_t)((((const uint8_t *)h->data)[i] & mask) << (i % per * bits));
  } else if (bytes) {
    memcpy(t->raw_data.data, h->data, bytes);
    if (h->dtype == NC_DT_BOOL)
      for (size_t i = 0; i < bytes; i++)
        t->raw_data.data[i] = t->raw_data.data[i] != 0;
  }
  return t;
}

void nc_onnx_tensor_proto_destroy(Onnx__TensorProto *t)
{
  if (t)
    protobuf_c_message_free_unpacked(&t->base, NULL);
}
