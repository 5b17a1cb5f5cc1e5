/* ncb.c: the .ncb container: CRC-32, byte buffers and cursors, the writer
 * that lays a binary out deterministically, and the parser that checks a
 * binary before any target code reads it (docs/targets/ncb-format.md).
 *
 * Runtime code: libc only, so host programs can link it.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nc/runtime/ncb.h"
#include "rt_util.h"

/* --- CRC-32 ------------------------------------------------------------------------------------------------------- */

uint32_t nc_crc32(uint32_t crc, const void *data, size_t n)
{
  /* slicing by 8 (8 table lookups per 8 bytes) for long inputs: a binary's
   * weights are hundreds of MB. Tables are rebuilt per call (2K operations,
   * 16K when slicing): no shared state, so no locking. */
  uint32_t t[8][256];
  int slices = n >= 4096 ? 8 : 1;
  for (uint32_t i = 0; i < 256; i++) {
    uint32_t c = i;
    for (int k = 0; k < 8; k++)
      c = c & 1 ? 0xEDB88320u ^ (c >> 1) : c >> 1;
    t[0][i] = c;
  }
  for (int k = 1; k < slices; k++)
    for (uint32_t i = 0; i < 256; i++)
      t[k][i] = (t[k - 1][i] >> 8) ^ t[0][t[k - 1][i] & 0xFF];
  const uint8_t *p = data;
  crc = ~crc;
  for (; slices == 8 && n >= 8; p += 8, n -= 8) {
    uint32_t lo = crc ^ ((uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24);
    uint32_t hi = (uint32_t)p[4] | (uint32_t)p[5] << 8 | (uint32_t)p[6] << 16 | (uint32_t)p[7] << 24;
    crc = t[7][lo & 0xFF] ^ t[6][(lo >> 8) & 0xFF] ^ t[5][(lo >> 16) & 0xFF] ^ t[4][lo >> 24] ^ t[3][hi & 0xFF] ^
          t[2][(hi >> 8) & 0xFF] ^ t[1][(hi >> 16) & 0xFF] ^ t[0][hi >> 24];
  }
  while (n--)
    crc = t[0][(crc ^ *p++) & 0xFF] ^ (crc >> 8);
  return ~crc;
}

/* --- byte buffers ---------------------------------------------------------------------------------------------------- */

/* Room for n more bytes, grown by doubling so appends cost amortised O(1). */
static void reserve(nc_bytes *b, size_t n)
{
  if (b->len + n > b->cap) {
    size_t cap = b->cap ? b->cap : 256;
    while (cap < b->len + n)
      cap *= 2;
    b->data = nc_rt_realloc(b->data, cap);
    b->cap = cap;
  }
}

void nc_bytes_put(nc_bytes *b, const void *data, size_t n)
{
  reserve(b, n);
  if (n)
    memcpy(b->data + b->len, data, n);
  b->len += n;
}

void nc_bytes_put_zeros(nc_bytes *b, size_t n)
{
  reserve(b, n);
  if (n)
    memset(b->data + b->len, 0, n);
  b->len += n;
}

static void put_le(nc_bytes *b, uint64_t v, int n)
{
  uint8_t buf[8];
  for (int i = 0; i < n; i++)
    buf[i] = (uint8_t)(v >> (8 * i));
  nc_bytes_put(b, buf, (size_t)n);
}

void nc_bytes_put_u32(nc_bytes *b, uint32_t v) { put_le(b, v, 4); }
void nc_bytes_put_i32(nc_bytes *b, int32_t v) { put_le(b, (uint32_t)v, 4); }
void nc_bytes_put_u64(nc_bytes *b, uint64_t v) { put_le(b, v, 8); }
void nc_bytes_put_i64(nc_bytes *b, int64_t v) { put_le(b, (uint64_t)v, 8); }

void nc_bytes_put_str(nc_bytes *b, const char *s, size_t n)
{
  char buf[256] = {0};
  size_t len = s ? strlen(s) : 0;
  if (n > sizeof buf)
    n = sizeof buf;
  memcpy(buf, s ? s : "", len < n ? len : n - 1);
  nc_bytes_put(b, buf, n);
}

void nc_bytes_align(nc_bytes *b, size_t align)
{
  static const uint8_t zeros[64];
  while (b->len % align)
    nc_bytes_put(b, zeros, align - b->len % align > 64 ? 64 : align - b->len % align);
}

void nc_bytes_clear(nc_bytes *b)
{
  free(b->data);
  *b = (nc_bytes){0};
}

/* --- cursors ----------------------------------------------------------------------------------------------------------- */

nc_cursor nc_cursor_make(const void *data, size_t len) { return (nc_cursor){.p = data, .len = len}; }

const uint8_t *nc_cursor_bytes(nc_cursor *c, size_t n)
{
  if (c->bad || n > c->len - c->pos) {
    c->bad = true;
    return NULL;
  }
  const uint8_t *p = c->p + c->pos;
  c->pos += n;
  return p;
}

static uint64_t get_le(nc_cursor *c, int n)
{
  const uint8_t *p = nc_cursor_bytes(c, (size_t)n);
  uint64_t v = 0;
  for (int i = 0; p && i < n; i++)
    v |= (uint64_t)p[i] << (8 * i);
  return v;
}

uint32_t nc_cursor_u32(nc_cursor *c) { return (uint32_t)get_le(c, 4); }
int32_t nc_cursor_i32(nc_cursor *c) { return (int32_t)(uint32_t)get_le(c, 4); }
uint64_t nc_cursor_u64(nc_cursor *c) { return get_le(c, 8); }
int64_t nc_cursor_i64(nc_cursor *c) { return (int64_t)get_le(c, 8); }

void nc_cursor_str(nc_cursor *c, char *out, size_t n)
{
  const uint8_t *p = nc_cursor_bytes(c, n);
  memset(out, 0, n);
  if (p)
    memcpy(out, p, n - 1);
}

void nc_cursor_align(nc_cursor *c, size_t align)
{
  if (c->pos % align)
    nc_cursor_bytes(c, align - c->pos % align);
}

/* --- element types --------------------------------------------------------------------------------------------------- */

/* One row per dtype: its name, host storage bytes and integer range. */
static const struct {
  uint32_t dtype;
  const char *name;
  size_t bytes;
  bool integer;
  int64_t min, max;
} dtypes[] = {
  {NC_NCB_DTYPE_I8, "i8", 1, true, -128, 127},       {NC_NCB_DTYPE_I4, "i4", 1, true, -8, 7},
  {NC_NCB_DTYPE_I2, "i2", 1, true, -2, 1},           {NC_NCB_DTYPE_U8, "u8", 1, true, 0, 255},
  {NC_NCB_DTYPE_I16, "i16", 2, true, -32768, 32767}, {NC_NCB_DTYPE_I32, "i32", 4, true, INT32_MIN, INT32_MAX},
  {NC_NCB_DTYPE_F32, "f32", 4, false, 0, 0},
};

static int dtype_row(uint32_t dtype)
{
  for (size_t i = 0; i < sizeof dtypes / sizeof *dtypes; i++)
    if (dtypes[i].dtype == dtype)
      return (int)i;
  return -1;
}

size_t nc_ncb_dtype_storage_bytes(uint32_t dtype)
{
  int r = dtype_row(dtype);
  return r < 0 ? 0 : dtypes[r].bytes;
}

const char *nc_ncb_dtype_name(uint32_t dtype)
{
  int r = dtype_row(dtype);
  return r < 0 ? NULL : dtypes[r].name;
}

bool nc_ncb_dtype_range(uint32_t dtype, int64_t *min, int64_t *max)
{
  int r = dtype_row(dtype);
  if (r < 0 || !dtypes[r].integer)
    return false;
  *min = dtypes[r].min;
  *max = dtypes[r].max;
  return true;
}

/* --- tensors ------------------------------------------------------------------------------------------------------------ */

size_t nc_ncb_tensor_elements(const nc_ncb_tensor *t)
{
  size_t n = 1;
  for (uint32_t i = 0; i < t->rank && i < NC_NCB_MAX_RANK; i++)
    n *= (size_t)t->dims[i];
  return n;
}

static void put_tensor(nc_bytes *b, const nc_ncb_tensor *t)
{
  size_t start = b->len;
  nc_bytes_put_str(b, t->name, 32);
  nc_bytes_put_u32(b, t->dtype);
  nc_bytes_put_u32(b, t->rank);
  for (int i = 0; i < NC_NCB_MAX_RANK; i++)
    nc_bytes_put_i64(b, i < (int)t->rank ? t->dims[i] : 0);
  uint32_t bits;
  memcpy(&bits, &t->scale, 4);
  nc_bytes_put_u32(b, bits);
  nc_bytes_put_i32(b, t->zero_point);
  while (b->len - start < NC_NCB_TENSOR_SIZE)
    nc_bytes_put_u32(b, 0);
}

static void get_tensor(nc_cursor *c, nc_ncb_tensor *t)
{
  nc_cursor_str(c, t->name, 32);
  t->dtype = nc_cursor_u32(c);
  t->rank = nc_cursor_u32(c);
  for (int i = 0; i < NC_NCB_MAX_RANK; i++)
    t->dims[i] = nc_cursor_i64(c);
  uint32_t bits = nc_cursor_u32(c);
  memcpy(&t->scale, &bits, 4);
  t->zero_point = nc_cursor_i32(c);
  nc_cursor_bytes(c, NC_NCB_TENSOR_SIZE - 32 - 8 - 8 * NC_NCB_MAX_RANK - 8);
}

/* --- writer -------------------------------------------------------------------------------------------------------------- */

struct nc_ncb_writer {
  char target[NC_NCB_TARGET_LEN];
  nc_ncb_tensor *tensors; /* inputs then outputs, kept apart by the flags below */
  bool *is_output;
  size_t n_tensors;
  struct { uint32_t type, id; nc_bytes bytes; } *sections;
  size_t n_sections;
};

nc_ncb_writer *nc_ncb_writer_create(const char *target)
{
  nc_ncb_writer *w = nc_rt_calloc(1, sizeof *w);
  snprintf(w->target, sizeof w->target, "%s", target);
  return w;
}

static void add_tensor(nc_ncb_writer *w, const nc_ncb_tensor *t, bool output)
{
  w->tensors = nc_rt_realloc(w->tensors, (w->n_tensors + 1) * sizeof *w->tensors);
  w->is_output = nc_rt_realloc(w->is_output, (w->n_tensors + 1) * sizeof *w->is_output);
  w->tensors[w->n_tensors] = *t;
  w->is_output[w->n_tensors++] = output;
}

void nc_ncb_writer_add_input(nc_ncb_writer *w, const nc_ncb_tensor *t) { add_tensor(w, t, false); }
void nc_ncb_writer_add_output(nc_ncb_writer *w, const nc_ncb_tensor *t) { add_tensor(w, t, true); }

nc_bytes *nc_ncb_writer_add_section(nc_ncb_writer *w, uint32_t type, uint32_t id)
{
  w->sections = nc_rt_realloc(w->sections, (w->n_sections + 1) * sizeof *w->sections);
  w->sections[w->n_sections].type = type;
  w->sections[w->n_sections].id = id;
  w->sections[w->n_sections].bytes = (nc_bytes){0};
  return &w->sections[w->n_sections++].bytes;
}

void nc_ncb_writer_destroy(nc_ncb_writer *w)
{
  if (!w)
    return;
  for (size_t i = 0; i < w->n_sections; i++)
    nc_bytes_clear(&w->sections[i].bytes);
  free(w->sections);
  free(w->tensors);
  free(w->is_output);
  free(w);
}

static void patch_u32(uint8_t *p, uint32_t v)
{
  for (int i = 0; i < 4; i++)
    p[i] = (uint8_t)(v >> (8 * i));
}

static void patch_u64(uint8_t *p, uint64_t v)
{
  for (int i = 0; i < 8; i++)
    p[i] = (uint8_t)(v >> (8 * i));
}

/* The header, descriptors and section table (offsets, sizes and CRCs of
 * the sections, which follow it 16-byte aligned) as finished bytes; *total
 * is the file size. */
static nc_bytes layout_header(const nc_ncb_writer *w, size_t *total)
{
  size_t n_in = 0, n_out = 0;
  for (size_t i = 0; i < w->n_tensors; i++)
    w->is_output[i] ? n_out++ : n_in++;
  nc_bytes b = {0};
  nc_bytes_put(&b, "NCB", 4);
  put_le(&b, NC_NCB_VERSION_MAJOR, 2);
  put_le(&b, NC_NCB_VERSION_MINOR, 2);
  nc_bytes_put_u32(&b, 0); /* header size, patched */
  nc_bytes_put_u32(&b, 0); /* header CRC, patched */
  nc_bytes_put_u64(&b, 0); /* file size, patched */
  nc_bytes_put_str(&b, w->target, NC_NCB_TARGET_LEN);
  nc_bytes_put_u32(&b, (uint32_t)n_in);
  nc_bytes_put_u32(&b, (uint32_t)n_out);
  nc_bytes_put_u32(&b, (uint32_t)w->n_sections);
  nc_bytes_put_u32(&b, 0); /* flags */
  nc_bytes_align(&b, NC_NCB_HEADER_SIZE);
  for (int pass = 0; pass < 2; pass++) /* inputs, then outputs */
    for (size_t i = 0; i < w->n_tensors; i++)
      if (w->is_output[i] == (pass == 1))
        put_tensor(&b, &w->tensors[i]);
  size_t table = b.len;
  for (size_t i = 0; i < w->n_sections * NC_NCB_SECTION_ENTRY_SIZE / 8; i++)
    nc_bytes_put_u64(&b, 0);
  size_t header_size = b.len, off = header_size;
  for (size_t i = 0; i < w->n_sections; i++) {
    const nc_bytes *s = &w->sections[i].bytes;
    off = (off + NC_NCB_ALIGN - 1) / NC_NCB_ALIGN * NC_NCB_ALIGN;
    uint8_t *e = b.data + table + i * NC_NCB_SECTION_ENTRY_SIZE;
    patch_u32(e, w->sections[i].type);
    patch_u32(e + 4, w->sections[i].id);
    patch_u64(e + 8, off);
    patch_u64(e + 16, s->len);
    patch_u32(e + 24, nc_crc32(0, s->data, s->len));
    off += s->len;
  }
  off = (off + NC_NCB_ALIGN - 1) / NC_NCB_ALIGN * NC_NCB_ALIGN;
  patch_u32(b.data + 8, (uint32_t)header_size);
  patch_u64(b.data + 16, off);
  patch_u32(b.data + 12, nc_crc32(0, b.data, header_size));
  *total = off;
  return b;
}

uint8_t *nc_ncb_writer_finish(nc_ncb_writer *w, size_t *size)
{
  size_t total;
  nc_bytes b = layout_header(w, &total);
  b.data = nc_rt_realloc(b.data, total ? total : 1); /* exact size: no doubling slack */
  b.cap = total;
  for (size_t i = 0; i < w->n_sections; i++) {
    nc_bytes_align(&b, NC_NCB_ALIGN);
    nc_bytes_put(&b, w->sections[i].bytes.data, w->sections[i].bytes.len);
    nc_bytes_clear(&w->sections[i].bytes);
  }
  nc_bytes_align(&b, NC_NCB_ALIGN);
  *size = b.len;
  nc_ncb_writer_destroy(w);
  return b.data;
}

bool nc_ncb_writer_finish_to(nc_ncb_writer *w, bool (*write)(const void *data, size_t n, void *userData),
                             void *userData)
{
  static const uint8_t zeros[NC_NCB_ALIGN];
  size_t total;
  nc_bytes b = layout_header(w, &total);
  size_t off = b.len;
  bool ok = write(b.data, b.len, userData);
  nc_bytes_clear(&b);
  for (size_t i = 0; ok && i <= w->n_sections; i++) {
    size_t pad = (NC_NCB_ALIGN - off % NC_NCB_ALIGN) % NC_NCB_ALIGN;
    ok = !pad || write(zeros, pad, userData);
    off += pad;
    if (ok && i < w->n_sections) {
      nc_bytes *s = &w->sections[i].bytes;
      ok = !s->len || write(s->data, s->len, userData);
      off += s->len;
      nc_bytes_clear(s); /* the image never exists whole in memory */
    }
  }
  nc_ncb_writer_destroy(w);
  return ok;
}

/* --- parser ---------------------------------------------------------------------------------------------------------------- */

static bool fail(char *err, size_t errlen, const char *fmt, ...) NC_RT_PRINTF(3, 4);
static bool fail(char *err, size_t errlen, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  if (err && errlen)
    vsnprintf(err, errlen, fmt, ap);
  va_end(ap);
  return false;
}

/* A fixed-width name field: printable ASCII, NUL-terminated, zero-padded. */
static bool name_ok(const char *s, size_t n)
{
  size_t len = 0;
  while (len < n && s[len])
    if (s[len] < 0x20 || s[len++] > 0x7e)
      return false;
  for (size_t i = len; i < n; i++)
    if (s[i])
      return false;
  return len < n;
}

static bool check_tensor(const nc_ncb_tensor *t, const char *what, size_t i, char *err, size_t errlen)
{
  int64_t lo, hi;
  if (!nc_ncb_dtype_name(t->dtype))
    return fail(err, errlen, "malformed: %s #%zu has unknown element type %u (known: 1 to 7)", what, i, t->dtype);
  if (t->rank < 1 || t->rank > NC_NCB_MAX_RANK)
    return fail(err, errlen, "malformed: %s #%zu has rank %u (expected 1 to %d)", what, i, t->rank, NC_NCB_MAX_RANK);
  int64_t n = 1;
  for (uint32_t d = 0; d < t->rank; d++) {
    if (t->dims[d] < 1 || t->dims[d] > (1 << 30) || (n *= t->dims[d]) > (1 << 30))
      return fail(err, errlen, "malformed: %s #%zu has a bad shape", what, i);
  }
  if (!(t->scale > 0) || t->scale > 1e30f)
    return fail(err, errlen, "malformed: %s #%zu has scale %g (expected a positive number)", what, i, (double)t->scale);
  if (nc_ncb_dtype_range(t->dtype, &lo, &hi) ? t->zero_point < lo || t->zero_point > hi : t->zero_point != 0)
    return fail(err, errlen, "malformed: %s #%zu has zero point %d, outside its %s range", what, i, t->zero_point,
                nc_ncb_dtype_name(t->dtype));
  return true;
}

bool nc_ncb_parse(const void *data, size_t size, nc_ncb *out, char *err, size_t errlen)
{
  memset(out, 0, sizeof *out);
  const uint8_t *p = data;
  if (memcmp(p, "NCB", size < 4 ? size : 4))
    return fail(err, errlen, "not an nc binary (the file does not start with the magic \"NCB\\0\")");
  if (size < 8)
    return fail(err, errlen, "truncated: %zu bytes, shorter than the %d-byte header", size, NC_NCB_HEADER_SIZE);
  nc_cursor c = nc_cursor_make(data, size);
  nc_cursor_bytes(&c, 4);
  out->version_major = (uint16_t)get_le(&c, 2);
  out->version_minor = (uint16_t)get_le(&c, 2);
  if (out->version_major != NC_NCB_VERSION_MAJOR || out->version_minor > NC_NCB_VERSION_MINOR)
    return fail(err, errlen, "unsupported .ncb format version %u.%u (this runtime reads version%s %d.0%s%.0d)",
                out->version_major, out->version_minor, NC_NCB_VERSION_MINOR ? "s" : "", NC_NCB_VERSION_MAJOR,
                NC_NCB_VERSION_MINOR ? " to 1." : "", NC_NCB_VERSION_MINOR);
  if (size < NC_NCB_HEADER_SIZE)
    return fail(err, errlen, "truncated: %zu bytes, shorter than the %d-byte header", size, NC_NCB_HEADER_SIZE);
  uint32_t header_size = nc_cursor_u32(&c), header_crc = nc_cursor_u32(&c);
  uint64_t file_size = nc_cursor_u64(&c);
  if (file_size > size)
    return fail(err, errlen, "truncated: the header says %llu bytes, the file has %zu", (unsigned long long)file_size,
                size);
  if (file_size < size)
    return fail(err, errlen, "malformed: %zu bytes after the end the header gives (%llu bytes)",
                size - (size_t)file_size, (unsigned long long)file_size);
  if (header_size < NC_NCB_HEADER_SIZE || header_size > size)
    return fail(err, errlen, "malformed: header size %u", header_size);
  uint8_t *copy = nc_rt_malloc(header_size);
  memcpy(copy, p, header_size);
  memset(copy + 12, 0, 4);
  uint32_t crc = nc_crc32(0, copy, header_size);
  free(copy);
  if (crc != header_crc)
    return fail(err, errlen, "checksum mismatch in the header: stored 0x%08x, computed 0x%08x", header_crc, crc);
  nc_cursor_str(&c, out->target, NC_NCB_TARGET_LEN);
  uint32_t n_in = nc_cursor_u32(&c), n_out = nc_cursor_u32(&c), n_sec = nc_cursor_u32(&c), flags = nc_cursor_u32(&c);
  if (!name_ok((const char *)p + 24, NC_NCB_TARGET_LEN) || !out->target[0])
    return fail(err, errlen, "malformed: bad target name in the header");
  if (flags)
    return fail(err, errlen, "malformed: header flags 0x%08x (must be 0)", flags);
  for (size_t k = 24 + NC_NCB_TARGET_LEN + 16; k < NC_NCB_HEADER_SIZE; k++)
    if (p[k])
      return fail(err, errlen, "malformed: nonzero byte %zu in the header's reserved bytes", k);
  if (n_in < 1 || n_out < 1 || n_in > 64 || n_out > 64)
    return fail(err, errlen, "malformed: %u inputs and %u outputs", n_in, n_out);
  uint64_t need = NC_NCB_HEADER_SIZE + (uint64_t)(n_in + n_out) * NC_NCB_TENSOR_SIZE +
                  (uint64_t)n_sec * NC_NCB_SECTION_ENTRY_SIZE;
  if (need != header_size)
    return fail(err, errlen, "malformed: header size %u, but %u tensors and %u sections need %llu", header_size,
                n_in + n_out, n_sec, (unsigned long long)need);
  out->data = p;
  out->size = size;
  out->n_inputs = n_in;
  out->n_outputs = n_out;
  out->inputs = nc_rt_calloc(n_in, sizeof *out->inputs);
  out->outputs = nc_rt_calloc(n_out, sizeof *out->outputs);
  c.pos = NC_NCB_HEADER_SIZE;
  for (size_t i = 0; i < n_in + n_out; i++) {
    nc_ncb_tensor *t = i < n_in ? &out->inputs[i] : &out->outputs[i - n_in];
    if (!name_ok((const char *)p + c.pos, 32)) {
      nc_ncb_clear(out);
      return fail(err, errlen, "malformed: unterminated tensor name");
    }
    get_tensor(&c, t);
    if (!check_tensor(t, i < n_in ? "input" : "output", i < n_in ? i : i - n_in, err, errlen)) {
      nc_ncb_clear(out);
      return false;
    }
  }
  out->n_sections = n_sec;
  out->sections = nc_rt_calloc(n_sec ? n_sec : 1, sizeof *out->sections);
  uint64_t prev_end = header_size;
  for (size_t i = 0; i < n_sec; i++) {
    nc_ncb_section *s = &out->sections[i];
    s->type = nc_cursor_u32(&c);
    s->id = nc_cursor_u32(&c);
    s->offset = nc_cursor_u64(&c);
    s->size = nc_cursor_u64(&c);
    s->crc = nc_cursor_u32(&c);
    uint32_t reserved = nc_cursor_u32(&c);
    if (reserved) {
      nc_ncb_clear(out);
      return fail(err, errlen, "malformed: section %zu's reserved word is 0x%08x (must be 0)", i, reserved);
    }
    if (s->offset < prev_end || s->offset > size || s->size > size - s->offset) {
      fail(err, errlen, "malformed: section %zu (bytes %llu to %llu) is out of bounds or overlaps another", i,
           (unsigned long long)s->offset, (unsigned long long)(s->offset + s->size));
      nc_ncb_clear(out); /* after the message: s points into the sections */
      return false;
    }
    for (uint64_t k = prev_end; k < s->offset; k++) /* the padding between sections is zero */
      if (p[k]) {
        fail(err, errlen, "malformed: nonzero byte %llu in the padding before section %zu", (unsigned long long)k, i);
        nc_ncb_clear(out);
        return false;
      }
    prev_end = s->offset + s->size;
    s->data = p + s->offset;
    uint32_t sc = nc_crc32(0, s->data, s->size);
    if (sc != s->crc) {
      fail(err, errlen, "checksum mismatch in section %zu (type %u, id %u): stored 0x%08x, computed 0x%08x", i,
           s->type, s->id, s->crc, sc);
      nc_ncb_clear(out);
      return false;
    }
  }
  for (uint64_t k = prev_end; k < size; k++)
    if (p[k]) {
      nc_ncb_clear(out);
      return fail(err, errlen, "malformed: nonzero byte %llu in the padding at the end", (unsigned long long)k);
    }
  return true;
}

void nc_ncb_clear(nc_ncb *ncb)
{
  free(ncb->inputs);
  free(ncb->outputs);
  free(ncb->sections);
  ncb->inputs = ncb->outputs = NULL;
  ncb->sections = NULL;
  ncb->n_inputs = ncb->n_outputs = ncb->n_sections = 0;
}
