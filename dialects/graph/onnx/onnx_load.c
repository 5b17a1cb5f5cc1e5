/* onnx_load.c: loading and validating ONNX models; tensor .pb files.
 *
 * Loading is three steps. (1) A schema-guided scan of the protobuf wire
 * format checks every length and bounds message nesting, because
 * protobuf-c's unpacker recurses without limit and a few kilobytes of
 * nested subgraphs would overflow the stack. (2) protobuf-c unpacks the
 * ModelProto. (3) One walk over every graph (main graph, subgraphs held in
 * attributes, functions, training graphs) validates what the importer will
 * rely on, reads external tensor data into raw_data, and replaces absent
 * names by "" (see nc_onnx_model in onnx_proto.h). Each error is one line
 * naming the path to the offending object.
 *
 * A model file is mapped, not read, and protobuf-c unpacks a copy of its
 * wire bytes with the main graph's initializers' raw_data left out (a few
 * kilobytes for a 500 MB model); those raw_data then point into the
 * mapping. protobuf-c would otherwise copy every weight out of the file
 * buffer, holding the weights twice before the importer copies them a third
 * time. The importer borrows an initializer's bytes where they lie in the
 * mapping as its blob holds them (nc_onnx_model_borrow_tensor: the mapping
 * is shared and goes with its last user), and otherwise copies them from the
 * mapping once, giving each piece's pages back as it goes
 * (nc_onnx_model_tensor_to_host).
 */
#include "onnx_proto_internal.h"
#include "nc/support/file.h"
#include "nc/support/mapped.h"
#include "nc/support/strutil.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* Protobuf messages cannot exceed 2 GiB; larger models use external data. */
#define MAX_PROTO_BYTES ((size_t)INT32_MAX)

static char *xstrdup(const char *s)
{
  size_t n = strlen(s) + 1;
  return memcpy(nc_xmalloc(n), s, n);
}

const char *onnx_clean_name(const char *s, char *buf, size_t n)
{
  size_t i = 0;
  for (; s && s[i] && i + 4 < n; i++)
    buf[i] = (unsigned char)s[i] < 0x20 || s[i] == 0x7f ? '?' : s[i];
  if (s && s[i])
    memcpy(buf + i, "...", 3), i += 3;
  buf[i] = 0;
  return buf;
}

/* ---- protobuf wire pre-check --------------------------------------------- */

/* Why a varint could not be read: the bytes ran out, or ten bytes all said
 * "more follows" (longer than any 64-bit value). */
static const char *varint_problem;

static bool read_varint(const uint8_t *p, size_t len, size_t *pos, uint64_t *v)
{
  uint64_t r = 0;
  for (int i = 0; i < 10 && *pos < len; i++) {
    uint8_t b = p[(*pos)++];
    r |= (uint64_t)(b & 0x7f) << (7 * i);
    if (!(b & 0x80)) {
      *v = r;
      return true;
    }
  }
  varint_problem = *pos < len ? "overlong varint (more than 10 bytes)" : "truncated varint";
  return false;
}

/* Checks that p[0..len) is a well-formed encoding of a `desc` message whose
 * submessages nest at most NC_ONNX_MAX_NESTING deep. `base` is the offset of
 * p in the whole input, for messages. */
static bool wire_check(const ProtobufCMessageDescriptor *desc, const uint8_t *p, size_t len, size_t base,
                       int depth, char *msg, size_t msglen)
{
  size_t pos = 0;
  while (pos < len) {
    size_t start = pos;
    uint64_t key, v;
    if (!read_varint(p, len, &pos, &key)) {
      snprintf(msg, msglen, "malformed protobuf at byte %zu: %s field key", base + start,
               strcmp(varint_problem, "truncated varint") ? "overlong (more than 10 bytes)" : "truncated");
      return false;
    }
    uint64_t num = key >> 3;
    if (num == 0 || num > 0x1fffffff) {
      snprintf(msg, msglen, "malformed protobuf at byte %zu: invalid field number %llu", base + start,
               (unsigned long long)num);
      return false;
    }
    switch (key & 7) {
    case 0:
      if (!read_varint(p, len, &pos, &v)) {
        snprintf(msg, msglen, "malformed protobuf at byte %zu: %s", base + start, varint_problem);
        return false;
      }
      break;
    case 1:
    case 5: {
      size_t w = (key & 7) == 1 ? 8 : 4;
      if (len - pos < w) {
        snprintf(msg, msglen, "malformed protobuf at byte %zu: truncated fixed-width field", base + start);
        return false;
      }
      pos += w;
      break;
    }
    case 2: {
      if (!read_varint(p, len, &pos, &v) || v > len - pos) {
        snprintf(msg, msglen, "malformed protobuf at byte %zu: field %llu runs past the end of its message",
                 base + start, (unsigned long long)num);
        return false;
      }
      const ProtobufCFieldDescriptor *f = desc ? protobuf_c_message_descriptor_get_field(desc, (unsigned)num) : NULL;
      if (f && f->type == PROTOBUF_C_TYPE_MESSAGE) {
        if (depth + 1 >= NC_ONNX_MAX_NESTING) {
          snprintf(msg, msglen, "malformed protobuf at byte %zu: messages nested deeper than %d", base + start,
                   NC_ONNX_MAX_NESTING);
          return false;
        }
        if (!wire_check(f->descriptor, p + pos, (size_t)v, base + pos, depth + 1, msg, msglen))
          return false;
      }
      pos += (size_t)v;
      break;
    }
    default:
      snprintf(msg, msglen, "malformed protobuf at byte %zu: unsupported wire type %u", base + start,
               (unsigned)(key & 7));
      return false;
    }
  }
  return true;
}

/* Reads a whole regular file of at most `limit` bytes. */
static bool read_file(const char *path, size_t limit, uint8_t **buf, size_t *len, char *msg, size_t msglen)
{
  FILE *f = fopen(path, "rb");
  if (!f) {
    snprintf(msg, msglen, "cannot open: %s", strerror(errno));
    return false;
  }
  struct stat st;
  if (fstat(fileno(f), &st) || !S_ISREG(st.st_mode)) {
    snprintf(msg, msglen, "not a regular file");
    fclose(f);
    return false;
  }
  if ((uint64_t)st.st_size > limit) {
    snprintf(msg, msglen, "file of %lld bytes exceeds protobuf's 2 GiB limit", (long long)st.st_size);
    fclose(f);
    return false;
  }
  *len = (size_t)st.st_size;
  *buf = nc_xmalloc(*len);
  bool ok = fread(*buf, 1, *len, f) == *len;
  if (!ok) {
    snprintf(msg, msglen, "read failed: %s", ferror(f) ? strerror(errno) : "file shrank while reading");
    free(*buf);
    *buf = NULL;
  }
  fclose(f);
  return ok;
}

/* ---- validation ---------------------------------------------------------- */

typedef struct ext_file {
  dev_t dev;
  ino_t ino;
} ext_file;

/* State of one validation walk. `where` is the path to the object being
 * checked ("node 'l0' (Loop): attribute 'body': initializer 'w'"). */
typedef struct loader {
  char *err;
  size_t errlen;
  const char *base_dir; /* NULL: external data is refused */
  char *base_real;      /* realpath(base_dir), computed on first use */
  ext_file *files;      /* distinct external files seen */
  size_t nfiles;
  uint64_t budget, used; /* their total size; bytes loaded from them */
  char where[1024];
  size_t wlen;
} loader;

#define NO_INDEX ((size_t)-1)

/* Appends "<kind> '<name>'" (or "<kind> #<index>" if unnamed, or just
 * "<kind>" for NO_INDEX) and an optional " (<extra>)" to the path; returns
 * the mark to pop back to. */
static size_t push(loader *L, const char *kind, const char *name, size_t index, const char *extra)
{
  size_t mark = L->wlen, room = sizeof L->where - L->wlen;
  char nb[128], eb[128];
  int n;
  if (name && *name)
    n = snprintf(L->where + L->wlen, room, "%s%s '%s'", mark ? ": " : "", kind, onnx_clean_name(name, nb, sizeof nb));
  else if (index != NO_INDEX)
    n = snprintf(L->where + L->wlen, room, "%s%s #%zu", mark ? ": " : "", kind, index);
  else
    n = snprintf(L->where + L->wlen, room, "%s%s", mark ? ": " : "", kind);
  if (n > 0)
    L->wlen += (size_t)n < room ? (size_t)n : room - 1;
  if (extra && *extra) {
    room = sizeof L->where - L->wlen;
    n = snprintf(L->where + L->wlen, room, " (%s)", onnx_clean_name(extra, eb, sizeof eb));
    if (n > 0)
      L->wlen += (size_t)n < room ? (size_t)n : room - 1;
  }
  return mark;
}

static void pop(loader *L, size_t mark)
{
  L->wlen = mark;
  L->where[mark] = 0;
}

NC_PRINTF(2, 3)
static bool fail(loader *L, const char *fmt, ...)
{
  if (!L->err || !L->errlen)
    return false;
  int n = L->wlen ? snprintf(L->err, L->errlen, "%s: ", L->where) : 0;
  if (n < 0 || (size_t)n >= L->errlen)
    return false;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(L->err + n, L->errlen - (size_t)n, fmt, ap);
  va_end(ap);
  return false;
}

/* Absent optional strings become "" so that the importer never sees NULL. */
static void fill(char **s)
{
  if (!*s)
    *s = xstrdup("");
}

static bool parse_u64(const char *s, uint64_t *v)
{
  if (!s || !*s)
    return false;
  uint64_t r = 0;
  for (; *s; s++) {
    if (*s < '0' || *s > '9' || r > ((uint64_t)INT64_MAX - (uint64_t)(*s - '0')) / 10)
      return false;
    r = r * 10 + (uint64_t)(*s - '0');
  }
  *v = r;
  return true;
}

static bool has_inline_data(const Onnx__TensorProto *t)
{
  return t->has_raw_data || t->n_float_data || t->n_int32_data || t->n_string_data || t->n_int64_data ||
         t->n_double_data || t->n_uint64_data;
}

/* Reads a tensor's external data into raw_data. The file must lie inside the
 * model's directory, also after resolving symlinks. */
static bool load_external(loader *L, Onnx__TensorProto *t)
{
  const char *loc = NULL, *off_s = NULL, *len_s = NULL;
  for (size_t i = 0; i < t->n_external_data; i++) {
    const Onnx__StringStringEntryProto *e = t->external_data[i];
    if (!e->key)
      continue;
    if (!strcmp(e->key, "location"))
      loc = e->value;
    else if (!strcmp(e->key, "offset"))
      off_s = e->value;
    else if (!strcmp(e->key, "length"))
      len_s = e->value;
  }
  char lb[128], desc[256];
  if (!L->base_dir)
    return fail(L, "uses external data, which cannot be resolved for a model loaded from memory "
                   "without a base directory");
  if (!loc || !*loc)
    return fail(L, "external data has no 'location'");
  onnx_clean_name(loc, lb, sizeof lb);
  if (has_inline_data(t))
    return fail(L, "has both external data and inline data");
  if (t->has_data_type && t->data_type == NC_ONNX_STRING)
    return fail(L, "STRING tensors cannot use external data");
  int64_t need = nc_onnx_tensor_get_num_bytes(t);
  if (need < 0) /* bad data type or dims: let the checker say which */
    return nc_onnx_tensor_check(t, L->where, L->err, L->errlen);
  onnx_describe_tensor(t, desc, sizeof desc);
  if (loc[0] == '/')
    return fail(L, "external data location '%s' is an absolute path", lb);
  /* `..` components are judged by where the path resolves (below), so
   * inner/../w.bin is fine and ../w.bin is not */
  uint64_t off = 0, len = 0;
  if (off_s && !parse_u64(off_s, &off))
    return fail(L, "external data 'offset' is not a non-negative integer");
  if (len_s && !parse_u64(len_s, &len))
    return fail(L, "external data 'length' is not a non-negative integer");

  if (!L->base_real && !(L->base_real = realpath(L->base_dir, NULL)))
    return fail(L, "cannot resolve the model directory: %s", strerror(errno));
  char path[PATH_MAX];
  if (snprintf(path, sizeof path, "%s/%s", L->base_real, loc) >= (int)sizeof path)
    return fail(L, "external data location '%s' is too long", lb);
  char *real = realpath(path, NULL);
  if (!real)
    return fail(L, "cannot open external data file '%s': %s", lb, strerror(errno));
  size_t bl = strlen(L->base_real);
  bool is_base = !strcmp(real, L->base_real);
  bool inside = !strncmp(real, L->base_real, bl) && (real[bl] == '/' || (bl == 1 && real[1]));
  struct stat st;
  /* checked before open: opening a FIFO or a device for reading can block forever */
  bool regular = inside && stat(real, &st) == 0 && S_ISREG(st.st_mode);
  int fd = regular ? open(real, O_RDONLY | O_CLOEXEC | O_NONBLOCK) : -1;
  free(real);
  if (is_base)
    return fail(L, "external data location '%s' is the model directory itself, not a file", lb);
  if (!inside)
    return fail(L, "external data location '%s' resolves outside the model directory", lb);
  if (!regular)
    return fail(L, "external data file '%s' is not a regular file", lb);
  if (fd < 0)
    return fail(L, "cannot open external data file '%s': %s", lb, strerror(errno));
  if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
    close(fd);
    return fail(L, "external data file '%s' is not a regular file", lb);
  }
  uint64_t size = (uint64_t)st.st_size;
  if (off > size) {
    close(fd);
    return fail(L, "external data offset %llu is past the end of '%s' (%llu bytes)", (unsigned long long)off, lb,
                (unsigned long long)size);
  }
  if (!len_s)
    len = size - off;
  if (len > size - off) {
    close(fd);
    return fail(L, "external data offset %llu + length %llu runs past the end of '%s' (%llu bytes)",
                (unsigned long long)off, (unsigned long long)len, lb, (unsigned long long)size);
  }
  if (len != (uint64_t)need) {
    close(fd);
    return fail(L, "external data has %llu bytes, %s need %lld", (unsigned long long)len, desc, (long long)need);
  }
  /* Tensors may share a file but not overlap: loading more bytes than the
   * distinct files hold would let a small model allocate without bound. */
  size_t k = 0;
  while (k < L->nfiles && (L->files[k].dev != st.st_dev || L->files[k].ino != st.st_ino))
    k++;
  if (k == L->nfiles) {
    L->files = nc_xrealloc(L->files, (L->nfiles + 1) * sizeof *L->files);
    L->files[L->nfiles++] = (ext_file){st.st_dev, st.st_ino};
    L->budget += size;
  }
  if (len > L->budget - L->used) {
    close(fd);
    return fail(L, "external data regions add up to more bytes than the external files hold (overlapping tensors?)");
  }
  L->used += len;
  uint8_t *data = len ? nc_xmalloc((size_t)len) : NULL;
  for (uint64_t got = 0; got < len;) {
    ssize_t r = pread(fd, data + got, (size_t)(len - got), (off_t)(off + got));
    if (r < 0 && errno == EINTR)
      continue;
    if (r <= 0) {
      int e = errno;
      close(fd);
      free(data);
      return fail(L, "cannot read external data file '%s': %s", lb, r < 0 ? strerror(e) : "file shrank");
    }
    got += (uint64_t)r;
  }
  close(fd);
  t->has_raw_data = 1;
  t->raw_data.data = data;
  t->raw_data.len = (size_t)len;
  for (size_t i = 0; i < t->n_external_data; i++)
    protobuf_c_message_free_unpacked(&t->external_data[i]->base, NULL);
  free(t->external_data);
  t->external_data = NULL;
  t->n_external_data = 0;
  t->data_location = ONNX__TENSOR_PROTO__DATA_LOCATION__DEFAULT;
  return true;
}

static bool check_tensor(loader *L, Onnx__TensorProto *t)
{
  fill(&t->name);
  fill(&t->doc_string);
  if (t->has_data_location && t->data_location == ONNX__TENSOR_PROTO__DATA_LOCATION__EXTERNAL &&
      !load_external(L, t))
    return false;
  return nc_onnx_tensor_check(t, L->wlen ? L->where : "tensor", L->err, L->errlen);
}

static bool check_shape(loader *L, const Onnx__TensorShapeProto *s)
{
  for (size_t i = 0; s && i < s->n_dim; i++) {
    const Onnx__TensorShapeProto__Dimension *d = s->dim[i];
    if (d->value_case == ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_VALUE && d->dim_value < 0)
      return fail(L, "dimension %zu of the type is negative (%lld)", i, (long long)d->dim_value);
  }
  return true;
}

static bool check_elem_type(loader *L, bool has, int32_t elem_type)
{
  if (!has || elem_type == NC_ONNX_UNDEFINED)
    return fail(L, "tensor type has no elem_type");
  if (elem_type < 0 || elem_type >= NC_ONNX_DATA_TYPE_COUNT)
    return fail(L, "tensor type has unknown elem_type %d", (int)elem_type);
  return true;
}

/* `required`: an empty type is an error (main-graph inputs and outputs). */
static bool check_type(loader *L, const Onnx__TypeProto *tp, bool required)
{
  switch (tp->value_case) {
  case ONNX__TYPE_PROTO__VALUE_TENSOR_TYPE:
    return check_elem_type(L, tp->tensor_type->has_elem_type, tp->tensor_type->elem_type) &&
           check_shape(L, tp->tensor_type->shape);
  case ONNX__TYPE_PROTO__VALUE_SPARSE_TENSOR_TYPE:
    return check_elem_type(L, tp->sparse_tensor_type->has_elem_type, tp->sparse_tensor_type->elem_type) &&
           check_shape(L, tp->sparse_tensor_type->shape);
  case ONNX__TYPE_PROTO__VALUE_SEQUENCE_TYPE:
    if (!tp->sequence_type->elem_type)
      return fail(L, "sequence type has no elem_type");
    return check_type(L, tp->sequence_type->elem_type, true);
  case ONNX__TYPE_PROTO__VALUE_OPTIONAL_TYPE:
    if (!tp->optional_type->elem_type)
      return fail(L, "optional type has no elem_type");
    return check_type(L, tp->optional_type->elem_type, true);
  case ONNX__TYPE_PROTO__VALUE_MAP_TYPE: {
    int32_t k = tp->map_type->key_type;
    if (!tp->map_type->has_key_type || k < NC_ONNX_UINT8 || k > NC_ONNX_UINT64 || k == NC_ONNX_BOOL ||
        k == NC_ONNX_FLOAT16 || k == NC_ONNX_DOUBLE)
      return fail(L, "map type has no valid key_type");
    if (!tp->map_type->value_type)
      return fail(L, "map type has no value_type");
    return check_type(L, tp->map_type->value_type, true);
  }
  default:
    return required ? fail(L, "has no type") : true;
  }
}

/* Graph inputs and outputs must be named (`named`); main-graph ones must
 * also be typed (`typed`). */
static bool check_value_info(loader *L, Onnx__ValueInfoProto *vi, const char *kind, size_t i, bool named,
                             bool typed)
{
  fill(&vi->name);
  fill(&vi->doc_string);
  size_t mark = push(L, kind, vi->name, i, NULL);
  bool ok = true;
  if (named && !*vi->name)
    ok = fail(L, "has no name");
  else if (vi->type)
    ok = check_type(L, vi->type, typed);
  else if (typed)
    ok = fail(L, "has no type");
  pop(L, mark);
  return ok;
}

/* Reads element i of a checked INT64 tensor. */
static int64_t get_i64(const Onnx__TensorProto *t, int64_t i)
{
  if (!t->has_raw_data)
    return t->int64_data[i];
  int64_t v;
  memcpy(&v, t->raw_data.data + i * 8, 8);
  return v;
}

static bool check_sparse(loader *L, Onnx__SparseTensorProto *s)
{
  if (!s->values)
    return fail(L, "sparse tensor has no values");
  size_t mark = push(L, "values", NULL, NO_INDEX, NULL);
  bool ok = check_tensor(L, s->values);
  pop(L, mark);
  if (!ok)
    return false;
  if (s->values->n_dims != 1)
    return fail(L, "sparse tensor values must be 1-D, not rank %zu", s->values->n_dims);
  Onnx__TensorProto dense = ONNX__TENSOR_PROTO__INIT;
  dense.n_dims = s->n_dims;
  dense.dims = s->dims;
  int64_t count = nc_onnx_tensor_get_num_elements(&dense), nnz = s->values->dims[0];
  if (count < 0)
    return fail(L, "sparse tensor dims are negative or too large");
  if (nnz > count)
    return fail(L, "sparse tensor has %lld values but only %lld elements", (long long)nnz, (long long)count);
  if (!s->indices)
    return nnz ? fail(L, "sparse tensor has no indices") : true;
  mark = push(L, "indices", NULL, NO_INDEX, NULL);
  ok = check_tensor(L, s->indices);
  pop(L, mark);
  if (!ok)
    return false;
  const Onnx__TensorProto *ix = s->indices;
  if (ix->data_type != NC_ONNX_INT64)
    return fail(L, "sparse tensor indices must be INT64, not %s", nc_onnx_data_type_name(ix->data_type));
  bool linear = ix->n_dims == 1 && ix->dims[0] == nnz;
  bool coords = ix->n_dims == 2 && ix->dims[0] == nnz && ix->dims[1] == (int64_t)s->n_dims;
  if (!linear && !coords)
    return fail(L, "sparse tensor indices must have shape [%lld] or [%lld,%zu]", (long long)nnz, (long long)nnz,
                s->n_dims);
  for (int64_t i = 0; i < nnz; i++) {
    if (linear) {
      int64_t v = get_i64(ix, i);
      if (v < 0 || v >= count)
        return fail(L, "sparse tensor index %lld is out of range [0,%lld)", (long long)v, (long long)count);
      continue;
    }
    for (size_t j = 0; j < s->n_dims; j++) {
      int64_t v = get_i64(ix, i * (int64_t)s->n_dims + (int64_t)j);
      if (v < 0 || v >= s->dims[j])
        return fail(L, "sparse tensor index %lld in dimension %zu is out of range [0,%lld)", (long long)v, j,
                    (long long)s->dims[j]);
    }
  }
  return true;
}

static bool check_graph(loader *L, Onnx__GraphProto *g, bool is_main);

/* IR version 1 attributes may lack a type: infer it from the value set. */
static int infer_attribute_type(const Onnx__AttributeProto *a)
{
  if (a->t) return ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__TENSOR;
  if (a->g) return ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__GRAPH;
  if (a->sparse_tensor) return ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__SPARSE_TENSOR;
  if (a->tp) return ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__TYPE_PROTO;
  if (a->n_floats) return ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__FLOATS;
  if (a->n_ints) return ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INTS;
  if (a->n_strings) return ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__STRINGS;
  if (a->n_tensors) return ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__TENSORS;
  if (a->n_graphs) return ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__GRAPHS;
  if (a->n_sparse_tensors) return ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__SPARSE_TENSORS;
  if (a->n_type_protos) return ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__TYPE_PROTOS;
  if (a->has_f) return ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__FLOAT;
  if (a->has_i) return ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INT;
  if (a->has_s) return ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__STRING;
  return ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__UNDEFINED;
}

static bool check_attribute_value(loader *L, Onnx__AttributeProto *a)
{
  if (a->ref_attr_name && *a->ref_attr_name)
    return true; /* a reference to an attribute of the enclosing function */
  if (!a->has_type || a->type == ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__UNDEFINED) {
    a->type = infer_attribute_type(a);
    a->has_type = 1;
    if (a->type == ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__UNDEFINED)
      return fail(L, "has no type and no value");
  }
  switch ((int)a->type) {
  case ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__FLOAT: case ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INT:
  case ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__STRING: case ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__FLOATS:
  case ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INTS: case ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__STRINGS:
  case ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__TENSORS: case ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__GRAPHS:
  case ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__SPARSE_TENSORS: case ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__TYPE_PROTOS:
    break;
  case ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__TENSOR:
    if (!a->t)
      return fail(L, "TENSOR attribute has no tensor");
    break;
  case ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__GRAPH:
    if (!a->g)
      return fail(L, "GRAPH attribute has no graph");
    break;
  case ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__SPARSE_TENSOR:
    if (!a->sparse_tensor)
      return fail(L, "SPARSE_TENSOR attribute has no sparse tensor");
    break;
  case ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__TYPE_PROTO:
    if (!a->tp)
      return fail(L, "TYPE_PROTO attribute has no type");
    break;
  default:
    return fail(L, "unknown attribute type %d", (int)a->type);
  }
  /* Validate every value present, whatever the type says. */
  if (a->t && !check_tensor(L, a->t))
    return false;
  if (a->g && !check_graph(L, a->g, false))
    return false;
  if (a->sparse_tensor && !check_sparse(L, a->sparse_tensor))
    return false;
  if (a->tp && !check_type(L, a->tp, false))
    return false;
  bool ok = true;
  for (size_t i = 0; ok && i < a->n_tensors; i++) {
    size_t mark = push(L, "tensor", a->tensors[i]->name, i, NULL);
    ok = check_tensor(L, a->tensors[i]);
    pop(L, mark);
  }
  for (size_t i = 0; ok && i < a->n_graphs; i++) {
    size_t mark = push(L, "graph", a->graphs[i]->name, i, NULL);
    ok = check_graph(L, a->graphs[i], false);
    pop(L, mark);
  }
  for (size_t i = 0; ok && i < a->n_sparse_tensors; i++) {
    size_t mark = push(L, "sparse tensor", NULL, i, NULL);
    ok = check_sparse(L, a->sparse_tensors[i]);
    pop(L, mark);
  }
  for (size_t i = 0; ok && i < a->n_type_protos; i++)
    ok = check_type(L, a->type_protos[i], false);
  return ok;
}

static bool check_node(loader *L, Onnx__NodeProto *n, size_t index)
{
  fill(&n->name);
  fill(&n->op_type);
  fill(&n->domain);
  fill(&n->doc_string);
  size_t mark = push(L, "node", n->name, index, n->op_type);
  bool ok = *n->op_type ? true : fail(L, "has no op_type");
  for (size_t i = 0; ok && i < n->n_attribute; i++) {
    Onnx__AttributeProto *a = n->attribute[i];
    fill(&a->name);
    fill(&a->doc_string);
    size_t amark = push(L, "attribute", a->name, i, NULL);
    ok = *a->name ? check_attribute_value(L, a) : fail(L, "has no name");
    pop(L, amark);
  }
  pop(L, mark);
  return ok;
}

static bool check_graph(loader *L, Onnx__GraphProto *g, bool is_main)
{
  fill(&g->name);
  fill(&g->doc_string);
  bool ok = true;
  for (size_t i = 0; ok && i < g->n_initializer; i++) {
    Onnx__TensorProto *t = g->initializer[i];
    size_t mark = push(L, "initializer", t->name, i, NULL);
    ok = t->name && *t->name ? check_tensor(L, t) : fail(L, "has no name");
    pop(L, mark);
  }
  for (size_t i = 0; ok && i < g->n_sparse_initializer; i++) {
    Onnx__SparseTensorProto *s = g->sparse_initializer[i];
    size_t mark = push(L, "sparse initializer", s->values ? s->values->name : NULL, i, NULL);
    ok = check_sparse(L, s);
    pop(L, mark);
  }
  /* Types of subgraph inputs and outputs may be left to inference. */
  for (size_t i = 0; ok && i < g->n_input; i++)
    ok = check_value_info(L, g->input[i], "input", i, true, is_main);
  for (size_t i = 0; ok && i < g->n_output; i++)
    ok = check_value_info(L, g->output[i], "output", i, true, is_main);
  for (size_t i = 0; ok && i < g->n_value_info; i++)
    ok = check_value_info(L, g->value_info[i], "value_info", i, false, false);
  for (size_t i = 0; ok && i < g->n_node; i++)
    ok = check_node(L, g->node[i], i);
  return ok;
}

static bool check_model(loader *L, Onnx__ModelProto *m)
{
  for (size_t i = 0; i < m->n_opset_import; i++)
    fill(&m->opset_import[i]->domain);
  fill(&m->producer_name);
  fill(&m->producer_version);
  fill(&m->domain);
  fill(&m->doc_string);
  if (!m->graph)
    return fail(L, "model has no graph");
  bool ok = check_graph(L, m->graph, true);
  for (size_t i = 0; ok && i < m->n_functions; i++) {
    Onnx__FunctionProto *f = m->functions[i];
    fill(&f->name);
    fill(&f->domain);
    fill(&f->doc_string);
    size_t mark = push(L, "function", f->name, i, NULL);
    for (size_t j = 0; ok && j < f->n_node; j++)
      ok = check_node(L, f->node[j], j);
    pop(L, mark);
  }
  for (size_t i = 0; ok && i < m->n_training_info; i++) {
    Onnx__TrainingInfoProto *ti = m->training_info[i];
    size_t mark = push(L, "training_info", NULL, i, NULL);
    if (ti->initialization) {
      size_t gm = push(L, "initialization", ti->initialization->name, NO_INDEX, NULL);
      ok = check_graph(L, ti->initialization, false);
      pop(L, gm);
    }
    if (ok && ti->algorithm) {
      size_t gm = push(L, "algorithm", ti->algorithm->name, NO_INDEX, NULL);
      ok = check_graph(L, ti->algorithm, false);
      pop(L, gm);
    }
    pop(L, mark);
  }
  return ok;
}

/* ---- mapped files: raw_data left in the file ----------------------------- */

/* Field numbers in onnx.proto: ModelProto.graph, GraphProto.initializer,
 * TensorProto.raw_data. */
enum { MODEL_GRAPH = 7, GRAPH_INITIALIZER = 5, TENSOR_RAW_DATA = 9 };

typedef struct bytebuf {
  uint8_t *p;
  size_t n, cap;
} bytebuf;

static void buf_put(bytebuf *b, const void *src, size_t n)
{
  if (b->n + n > b->cap) {
    b->cap = (b->n + n) * 2 + 256;
    b->p = nc_xrealloc(b->p, b->cap);
  }
  if (n)
    memcpy(b->p + b->n, src, n);
  b->n += n;
}

static void buf_varint(bytebuf *b, uint64_t v)
{
  uint8_t t[10];
  size_t n = 0;
  do {
    t[n++] = (uint8_t)((v & 0x7f) | (v > 0x7f ? 0x80 : 0));
    v >>= 7;
  } while (v);
  buf_put(b, t, n);
}

/* One field of a message that wire_check accepted: its number, wire type,
 * the extent [start, end) of the whole field and, for length-delimited
 * fields, of its payload. */
typedef struct wire_field {
  uint64_t num;
  unsigned type;
  size_t start, end, data, len;
} wire_field;

static void next_field(const uint8_t *p, size_t len, size_t *pos, wire_field *f)
{
  uint64_t key = 0, v = 0;
  f->start = *pos;
  read_varint(p, len, pos, &key);
  f->num = key >> 3;
  f->type = (unsigned)(key & 7);
  if (f->type == 0)
    read_varint(p, len, pos, &v);
  else if (f->type == 1 || f->type == 5)
    *pos += f->type == 1 ? 8 : 4;
  else {
    read_varint(p, len, pos, &v);
    f->data = *pos;
    f->len = (size_t)v;
    *pos += (size_t)v;
  }
  f->end = *pos;
}

/* Where each initializer's raw_data lies in the file (len SIZE_MAX: none). */
typedef struct raw_span {
  size_t off, len;
} raw_span;

/* Appends p[0..len), a TensorProto, to `out` without its raw_data, whose
 * place it records in `span`. False if raw_data appears twice (left to
 * protobuf-c's merging rules, i.e. not stripped). */
static bool strip_tensor(const uint8_t *p, size_t len, size_t base, bytebuf *out, raw_span *span)
{
  span->len = SIZE_MAX;
  for (size_t pos = 0; pos < len;) {
    wire_field f;
    next_field(p, len, &pos, &f);
    if (f.num == TENSOR_RAW_DATA && f.type == 2) {
      if (span->len != SIZE_MAX)
        return false;
      *span = (raw_span){base + f.data, f.len};
    } else {
      buf_put(out, p + f.start, f.end - f.start);
    }
  }
  return true;
}

static bool strip_graph(const uint8_t *p, size_t len, size_t base, bytebuf *out, raw_span **spans, size_t *n)
{
  for (size_t pos = 0; pos < len;) {
    wire_field f;
    next_field(p, len, &pos, &f);
    if (f.num != GRAPH_INITIALIZER || f.type != 2) {
      buf_put(out, p + f.start, f.end - f.start);
      continue;
    }
    bytebuf t = {0};
    *spans = nc_xrealloc(*spans, (*n + 1) * sizeof **spans);
    bool ok = strip_tensor(p + f.data, f.len, base + f.data, &t, &(*spans)[*n]);
    (*n)++;
    if (ok) {
      buf_varint(out, (uint64_t)GRAPH_INITIALIZER << 3 | 2);
      buf_varint(out, t.n);
      buf_put(out, t.p, t.n);
    }
    free(t.p);
    if (!ok)
      return false;
  }
  return true;
}

/* The ModelProto p[0..len) (checked by wire_check) without the raw_data of
 * its graph's initializers, whose places go to *spans (one per initializer,
 * in order). False (nothing to free) when the model has several graph fields
 * (protobuf merges them) or a tensor with two raw_data: then it is unpacked
 * as it is. */
static bool strip_model(const uint8_t *p, size_t len, bytebuf *out, raw_span **spans, size_t *n)
{
  *spans = NULL;
  *n = 0;
  *out = (bytebuf){0};
  bool ok = true, seen_graph = false;
  for (size_t pos = 0; ok && pos < len;) {
    wire_field f;
    next_field(p, len, &pos, &f);
    if (f.num != MODEL_GRAPH || f.type != 2) {
      buf_put(out, p + f.start, f.end - f.start);
      continue;
    }
    ok = !seen_graph;
    seen_graph = true;
    bytebuf g = {0};
    ok = ok && strip_graph(p + f.data, f.len, f.data, &g, spans, n);
    if (ok) {
      buf_varint(out, (uint64_t)MODEL_GRAPH << 3 | 2);
      buf_varint(out, g.n);
      buf_put(out, g.p, g.n);
    }
    free(g.p);
  }
  if (!ok) {
    free(out->p);
    free(*spans);
    *out = (bytebuf){0};
    *spans = NULL;
  }
  return ok;
}

/* Unpacks the mapped model p[0..len) without copying its initializers'
 * raw_data (see the top of the file); records the tensors pointing into the
 * mapping in `model`. NULL + message if protobuf-c cannot decode it. */
static Onnx__ModelProto *unpack_mapped(const uint8_t *p, size_t len, nc_onnx_model *model)
{
  bytebuf out;
  raw_span *spans;
  size_t n;
  if (!strip_model(p, len, &out, &spans, &n))
    return onnx__model_proto__unpack(NULL, len, p);
  Onnx__ModelProto *m = onnx__model_proto__unpack(NULL, out.n, out.p ? out.p : (const uint8_t *)"");
  free(out.p);
  if (m && m->graph && m->graph->n_initializer == n) {
    model->mapped = nc_xcalloc(n + 1, sizeof *model->mapped);
    for (size_t i = 0; i < n; i++) {
      if (spans[i].len == SIZE_MAX)
        continue;
      Onnx__TensorProto *t = m->graph->initializer[i];
      t->has_raw_data = 1;
      t->raw_data.len = spans[i].len;
      t->raw_data.data = (uint8_t *)p + spans[i].off;
      model->mapped[model->n_mapped++] = t;
    }
  } else if (m) { /* cannot happen for a stripped wire wire_check accepted; be safe */
    onnx__model_proto__free_unpacked(m, NULL);
    m = onnx__model_proto__unpack(NULL, len, p);
  }
  free(spans);
  return m;
}

/* Gives the whole pages inside data[0..len) back to the kernel; a mapped
 * file's pages are read again from the file if touched. */
static void release_pages(const void *data, size_t len)
{
  uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
  uintptr_t a = ((uintptr_t)data + page - 1) & ~(page - 1), b = ((uintptr_t)data + len) & ~(page - 1);
  if (b > a)
    madvise((void *)a, b - a, MADV_DONTNEED);
}

static bool is_mapped(const nc_onnx_model *m, const Onnx__TensorProto *t)
{
  return m->map && t->has_raw_data && t->raw_data.data >= (const uint8_t *)m->map &&
         t->raw_data.len <= m->map_len - (size_t)(t->raw_data.data - (const uint8_t *)m->map);
}

/* Copies of at least HUGE bytes go to memory backed by transparent huge
 * pages where the kernel offers them (madvise mode): a fresh 4 KB page costs
 * a fault each, and those faults were most of the import's time (resnet50's
 * misaligned initializers, about 80 MB). */
enum { HUGE = 2 << 20 };

/* n bytes (malloc'ed: free() them) whose whole 2 MB runs are advised as huge
 * pages; NULL if they cannot be had (the caller keeps its own buffer). */
static void *huge_alloc(size_t n)
{
  void *p = NULL;
  if (posix_memalign(&p, HUGE, n))
    return NULL;
  size_t whole = n & ~((size_t)HUGE - 1); /* a partial run at the end stays in small pages */
  if (whole)
    madvise(p, whole, MADV_HUGEPAGE);
  return p;
}

nc_tensor *nc_onnx_model_tensor_to_host(const nc_onnx_model *m, const Onnx__TensorProto *t, char *err,
                                        size_t errlen)
{
  if (!is_mapped(m, t))
    return nc_onnx_tensor_to_host(t, err, errlen);
  enum { PIECE = 8 << 20 };
  nc_dtype dt;
  bool plain = nc_onnx_data_type_to_dtype(t->data_type, &dt) && dt != NC_DT_BOOL && t->n_dims <= NC_TENSOR_MAX_RANK &&
               nc_onnx_tensor_get_num_bytes(t) == (int64_t)t->raw_data.len && t->raw_data.len >= HUGE;
  if (!plain) {
    nc_tensor *h = nc_onnx_tensor_to_host(t, err, errlen);
    release_pages(t->raw_data.data, t->raw_data.len);
    return h;
  }
  /* bytes as they are (no sub-byte unpacking, no bool normalizing), piece by piece */
  nc_tensor *h = nc_onnx_tensor_check(t, "tensor", err, errlen) ? nc_tensor_create(dt, (int)t->n_dims, t->dims, 0)
                                                                  : NULL;
  if (!h || nc_tensor_num_bytes(h) != t->raw_data.len) {
    nc_tensor_destroy(h);
    return nc_onnx_tensor_to_host(t, err, errlen); /* its message */
  }
  void *big = huge_alloc(t->raw_data.len);
  if (big) {
    free(h->data);
    h->data = big;
  }
  for (size_t off = 0; off < t->raw_data.len; off += PIECE) {
    size_t n = t->raw_data.len - off < PIECE ? t->raw_data.len - off : PIECE;
    memcpy((uint8_t *)h->data + off, t->raw_data.data + off, n);
    release_pages(t->raw_data.data + off, n);
  }
  return h;
}

/* The model file's mapping, shared by the model and the resources that
 * borrow initializers' bytes from it (refs counts them all): the IR can
 * outlive the model, and a resource is let go of on whatever thread a pass
 * drops it. */
struct nc_onnx_map {
  void *base;
  size_t len;
  _Atomic size_t refs;
};

static struct nc_onnx_map *map_share(void *base, size_t len)
{
  struct nc_onnx_map *s = nc_xmalloc(sizeof *s);
  s->base = base;
  s->len = len;
  atomic_init(&s->refs, 1);
  return s;
}

void nc_onnx_map_release(void *ref, const void *data, size_t size)
{
  (void)data;
  (void)size;
  struct nc_onnx_map *s = ref;
  if (atomic_fetch_sub(&s->refs, 1) != 1)
    return;
  nc_mapped_file_remove(s->base);
  munmap(s->base, s->len);
  free(s);
}

const void *nc_onnx_model_borrow_tensor(const nc_onnx_model *m, const Onnx__TensorProto *t, nc_dtype *dt,
                                        size_t *nbytes, void **ref)
{
  nc_dtype d;
  if (!m->share || !is_mapped(m, t) || !nc_onnx_data_type_to_dtype(t->data_type, &d) || d >= NC_DT_BOOL ||
      t->n_dims > NC_TENSOR_MAX_RANK || (uintptr_t)t->raw_data.data % nc_dtype_size(d) ||
      !nc_onnx_tensor_check(t, "tensor", NULL, 0))
    return NULL;
  size_t n = nc_dtype_size(d); /* the host tensor's bytes: elements times their size, without overflow */
  for (size_t i = 0; i < t->n_dims; i++) {
    if (t->dims[i] < 0 || (t->dims[i] && n > SIZE_MAX / (size_t)t->dims[i]))
      return NULL;
    n *= (size_t)t->dims[i];
  }
  if (!n || n != t->raw_data.len)
    return NULL;
  atomic_fetch_add(&m->share->refs, 1);
  *dt = d;
  *nbytes = n;
  *ref = m->share;
  return t->raw_data.data;
}

/* ---- public API ---------------------------------------------------------- */

/* Loads p[0..len); `model` (a new empty model) is filled, or freed on
 * failure. With `mapped`, p is m->map and the initializers' bytes stay there. */
static nc_onnx_model *load(nc_onnx_model *model, const uint8_t *p, size_t len, bool mapped, const char *base_dir,
                           char *err, size_t errlen)
{
  char msg[256];
  if (!wire_check(&onnx__model_proto__descriptor, p, len, 0, 0, msg, sizeof msg)) {
    nc_error_format(err, errlen, "not a valid ONNX model: %s", msg);
    nc_onnx_model_destroy(model);
    return NULL;
  }
  Onnx__ModelProto *m = mapped ? unpack_mapped(p, len, model) : onnx__model_proto__unpack(NULL, len, p);
  if (!m) {
    nc_error_format(err, errlen, "not a valid ONNX model: protobuf-c cannot decode it as a ModelProto");
    nc_onnx_model_destroy(model);
    return NULL;
  }
  model->proto = m;
  loader L = {.err = err, .errlen = errlen, .base_dir = base_dir};
  bool ok = check_model(&L, m);
  free(L.base_real);
  free(L.files);
  if (!ok) {
    nc_onnx_model_destroy(model);
    return NULL;
  }
  return model;
}

nc_onnx_model *nc_onnx_model_load_from_memory(const void *buf, size_t len, const char *base_dir, char *err,
                                              size_t errlen)
{
  return load(nc_xcalloc(1, sizeof(nc_onnx_model)), buf ? buf : (const uint8_t *)"", len, false, base_dir, err,
              errlen);
}

/* Maps a whole regular file of at most `limit` bytes (read-only, private). */
static bool map_file(const char *path, size_t limit, void **map, size_t *len, char *msg, size_t msglen)
{
  *map = NULL;
  int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) {
    snprintf(msg, msglen, "cannot open: %s", strerror(errno));
    return false;
  }
  struct stat st;
  if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
    snprintf(msg, msglen, "not a regular file");
    close(fd);
    return false;
  }
  if ((uint64_t)st.st_size > limit) {
    snprintf(msg, msglen, "file of %lld bytes exceeds protobuf's 2 GiB limit", (long long)st.st_size);
    close(fd);
    return false;
  }
  *len = (size_t)st.st_size;
  if (*len) {
    *map = mmap(NULL, *len, PROT_READ, MAP_PRIVATE, fd, 0);
    if (*map == MAP_FAILED) {
      *map = NULL;
      snprintf(msg, msglen, "cannot map: %s", strerror(errno));
      close(fd);
      return false;
    }
  }
  close(fd);
  nc_mapped_file_add(*map, *len, path); /* a truncation while it is read: a diagnostic, not a crash */
  return true;
}

nc_onnx_model *nc_onnx_model_load(const char *path, char *err, size_t errlen)
{
  char msg[1024];
  void *map;
  size_t len;
  if (!map_file(path, MAX_PROTO_BYTES, &map, &len, msg, sizeof msg)) {
    nc_error_format(err, errlen, "%s: %s", path, msg);
    return NULL;
  }
  /* External data is relative to the model's directory. */
  const char *slash = strrchr(path, '/');
  char *dir;
  if (!slash)
    dir = xstrdup(".");
  else if (slash == path)
    dir = xstrdup("/");
  else {
    size_t n = (size_t)(slash - path);
    dir = memcpy(nc_xmalloc(n + 1), path, n);
    dir[n] = 0;
  }
  nc_onnx_model *m = nc_xcalloc(1, sizeof *m);
  m->map = map;
  m->map_len = len;
  m->share = map ? map_share(map, len) : NULL;
  m = load(m, map ? map : (const uint8_t *)"", len, map != NULL, dir, msg, sizeof msg);
  free(dir);
  if (!m) {
    nc_error_format(err, errlen, "%s: %s", path, msg);
    return NULL;
  }
  m->path = xstrdup(path);
  return m;
}

void nc_onnx_model_destroy(nc_onnx_model *m)
{
  if (!m)
    return;
  for (size_t i = 0; i < m->n_mapped; i++) { /* bytes of the mapping, not protobuf-c's to free */
    m->mapped[i]->raw_data.data = NULL;
    m->mapped[i]->raw_data.len = 0;
    m->mapped[i]->has_raw_data = 0;
  }
  if (m->proto)
    onnx__model_proto__free_unpacked(m->proto, NULL);
  if (m->share)
    nc_onnx_map_release(m->share, NULL, 0); /* unmapped unless a resource still borrows from it */
  else if (m->map) {
    nc_mapped_file_remove(m->map);
    munmap(m->map, m->map_len);
  }
  free(m->mapped);
  free(m->path);
  free(m);
}

bool nc_onnx_model_has_opset(const nc_onnx_model *m, const char *domain)
{
  bool want_default = !domain || !*domain || !strcmp(domain, "ai.onnx");
  for (size_t i = 0; i < m->proto->n_opset_import; i++) {
    const char *d = m->proto->opset_import[i]->domain ? m->proto->opset_import[i]->domain : "";
    if (want_default ? !*d || !strcmp(d, "ai.onnx") : !strcmp(d, domain))
      return true;
  }
  return false;
}

int64_t nc_onnx_model_get_opset(const nc_onnx_model *m, const char *domain)
{
  bool want_default = !domain || !*domain || !strcmp(domain, "ai.onnx");
  for (size_t i = 0; i < m->proto->n_opset_import; i++) {
    const Onnx__OperatorSetIdProto *o = m->proto->opset_import[i];
    const char *d = o->domain ? o->domain : "";
    bool is_default = !*d || !strcmp(d, "ai.onnx");
    if (want_default ? is_default : !strcmp(d, domain))
      return o->has_version ? o->version : -1;
  }
  return -1;
}

const Onnx__TensorProto *nc_onnx_graph_find_initializer(const Onnx__GraphProto *g, const char *name)
{
  for (size_t i = 0; i < g->n_initializer; i++)
    if (g->initializer[i]->name && !strcmp(g->initializer[i]->name, name))
      return g->initializer[i];
  return NULL;
}

const Onnx__AttributeProto *nc_onnx_node_find_attribute(const Onnx__NodeProto *node, const char *name)
{
  for (size_t i = 0; i < node->n_attribute; i++)
    if (node->attribute[i]->name && !strcmp(node->attribute[i]->name, name))
      return node->attribute[i];
  return NULL;
}

int32_t nc_onnx_value_info_get_elem_type(const Onnx__ValueInfoProto *vi)
{
  if (!vi->type || vi->type->value_case != ONNX__TYPE_PROTO__VALUE_TENSOR_TYPE || !vi->type->tensor_type->has_elem_type)
    return NC_ONNX_UNDEFINED;
  return vi->type->tensor_type->elem_type;
}

int nc_onnx_value_info_get_shape(const Onnx__ValueInfoProto *vi, int64_t *dims, int max_rank)
{
  if (!vi->type || vi->type->value_case != ONNX__TYPE_PROTO__VALUE_TENSOR_TYPE || !vi->type->tensor_type->shape)
    return -1;
  const Onnx__TensorShapeProto *s = vi->type->tensor_type->shape;
  for (size_t i = 0; i < s->n_dim && (int)i < max_rank; i++)
    dims[i] = s->dim[i]->value_case == ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_VALUE ? s->dim[i]->dim_value : -1;
  return s->n_dim > INT_MAX ? INT_MAX : (int)s->n_dim;
}

/* ---- tensor .pb files ---------------------------------------------------- */

nc_tensor *nc_onnx_pb_read_from_memory(const void *buf, size_t len, const char *label, char **name, char *err,
                                       size_t errlen)
{
  char msg[1024];
  const uint8_t *p = buf ? buf : (const uint8_t *)"";
  if (!label)
    label = "<memory>";
  if (name)
    *name = NULL;
  if (!wire_check(&onnx__tensor_proto__descriptor, p, len, 0, 0, msg, sizeof msg)) {
    nc_error_format(err, errlen, "%s: not a serialized TensorProto: %s", label, msg);
    return NULL;
  }
  Onnx__TensorProto *t = onnx__tensor_proto__unpack(NULL, len, p);
  if (!t) {
    nc_error_format(err, errlen, "%s: not a serialized TensorProto: protobuf-c cannot decode it", label);
    return NULL;
  }
  nc_tensor *h = nc_onnx_tensor_to_host(t, msg, sizeof msg);
  if (!h)
    nc_error_format(err, errlen, "%s: %s", label, msg);
  else if (name)
    *name = xstrdup(t->name ? t->name : "");
  nc_onnx_tensor_proto_destroy(t);
  return h;
}

nc_tensor *nc_onnx_pb_read(const char *path, char **name, char *err, size_t errlen)
{
  char msg[256];
  uint8_t *buf;
  size_t len;
  if (name)
    *name = NULL;
  if (!read_file(path, MAX_PROTO_BYTES, &buf, &len, msg, sizeof msg)) {
    nc_error_format(err, errlen, "%s: %s", path, msg);
    return NULL;
  }
  nc_tensor *t = nc_onnx_pb_read_from_memory(buf, len, path, name, err, errlen);
  free(buf);
  return t;
}

bool nc_onnx_pb_write(const char *path, const nc_tensor *t, const char *name, char *err, size_t errlen)
{
  Onnx__TensorProto *p = nc_onnx_tensor_from_host(t, name);
  size_t len = onnx__tensor_proto__get_packed_size(p);
  uint8_t *buf = nc_xmalloc(len);
  onnx__tensor_proto__pack(p, buf);
  nc_onnx_tensor_proto_destroy(p);
  bool ok = nc_file_write_all(path, buf, len, err, errlen);
  free(buf);
  return ok;
}
