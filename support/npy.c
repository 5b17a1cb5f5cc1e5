/* npy.c: NumPy .npy reader and writer (see nc/support/npy.h).
 *
 * The format: 6-byte magic "\x93NUMPY", major/minor version bytes, a header
 * length (uint16 LE in 1.0, uint32 LE in 2.0/3.0), then a Python dict literal
 * such as {'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), } padded
 * with spaces and a newline, then the raw C-order element data.
 *
 * Every length in a file is checked against the bytes actually present
 * before anything is allocated, so a hostile file cannot make us allocate
 * more than its own size (plus a bounded header cap).
 *
 * Host byte order: nc assumes a little-endian host (checked below); files
 * with big-endian element types ('>i8') are byte-swapped while reading.
 */
#include "nc/support/npy.h"
#include "nc/support/file.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "nc's tensor file code assumes a little-endian host"
#endif

static const char npy_magic[6] = {'\x93', 'N', 'U', 'M', 'P', 'Y'};

/* No valid header for a rank <= 8 array comes close to this; NumPy itself
 * refuses headers over 10000 bytes by default. */
#define NPY_MAX_HEADER (1u << 20)

/* ---- header dict parsing ------------------------------------------------- */

/* The parsed header: element type and the facts needed to read the data. */
typedef struct npy_header {
  nc_dtype dtype;
  size_t itemsize;
  bool swap; /* big-endian multi-byte elements */
  int rank;
  int64_t shape[NC_TENSOR_MAX_RANK];
} npy_header;

typedef struct cursor {
  const char *p, *begin, *end;
  char *msg; /* problem description, "" while all is well */
  size_t msglen;
} cursor;

NC_PRINTF(2, 3)
static bool bad(cursor *c, const char *fmt, ...)
{
  if (c->msg[0])
    return false; /* keep the first, most specific message */
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(c->msg, c->msglen, fmt, ap);
  va_end(ap);
  return false;
}

static void skip_ws(cursor *c)
{
  while (c->p < c->end && (*c->p == ' ' || *c->p == '\t' || *c->p == '\n' || *c->p == '\r'))
    c->p++;
}

static bool peek(cursor *c, char ch)
{
  skip_ws(c);
  return c->p < c->end && *c->p == ch;
}

static bool eat(cursor *c, char ch)
{
  if (!peek(c, ch))
    return false;
  c->p++;
  return true;
}

static bool expect(cursor *c, char ch, const char *where)
{
  if (eat(c, ch))
    return true;
  return bad(c, "bad header dict: expected '%c' %s at offset %td", ch, where, c->p - c->begin);
}

/* A Python string literal without escapes, quoted with ' or ". */
static bool parse_string(cursor *c, char *out, size_t outlen, const char *what)
{
  skip_ws(c);
  if (c->p >= c->end || (*c->p != '\'' && *c->p != '"'))
    return bad(c, "bad header dict: expected a string for %s at offset %td", what, c->p - c->begin);
  char q = *c->p++;
  size_t n = 0;
  while (c->p < c->end && *c->p != q) {
    if (*c->p == '\\' || *c->p == '\n')
      return bad(c, "bad header dict: unsupported character in string for %s", what);
    if (n + 1 >= outlen)
      return bad(c, "bad header dict: string for %s is too long", what);
    out[n++] = *c->p++;
  }
  if (c->p >= c->end)
    return bad(c, "bad header dict: unterminated string for %s", what);
  c->p++;
  out[n] = 0;
  return true;
}

static bool parse_word(cursor *c, const char *w)
{
  skip_ws(c);
  size_t n = strlen(w);
  if ((size_t)(c->end - c->p) < n || memcmp(c->p, w, n))
    return false;
  const char *after = c->p + n;
  if (after < c->end && ((*after >= 'a' && *after <= 'z') || (*after >= 'A' && *after <= 'Z') || *after == '_'))
    return false;
  c->p = after;
  return true;
}

/* Maps a descr such as '<f4' to an nc dtype. */
static bool parse_descr(cursor *c, const char *d, npy_header *h)
{
  static const struct { char kind; unsigned size; nc_dtype dt; } kinds[] = {
    {'b', 1, NC_DT_BOOL}, {'i', 1, NC_DT_I8},  {'u', 1, NC_DT_U8},  {'i', 2, NC_DT_I16},
    {'u', 2, NC_DT_U16},  {'i', 4, NC_DT_I32}, {'u', 4, NC_DT_U32}, {'i', 8, NC_DT_I64},
    {'u', 8, NC_DT_U64},  {'f', 2, NC_DT_F16}, {'f', 4, NC_DT_F32}, {'f', 8, NC_DT_F64},
  };
  const char *s = d;
  char order = '=';
  if (*s == '<' || *s == '>' || *s == '|' || *s == '=')
    order = *s++;
  char kind = *s;
  if (kind && s[1] >= '1' && s[1] <= '9' && (!s[2] || (s[2] >= '0' && s[2] <= '9' && !s[3]))) {
    unsigned size = (unsigned)atoi(s + 1);
    for (size_t i = 0; i < NC_COUNTOF(kinds); i++) {
      if (kinds[i].kind == kind && kinds[i].size == size) {
        h->dtype = kinds[i].dt;
        h->itemsize = size;
        h->swap = order == '>' && size > 1;
        return true;
      }
    }
  }
  return bad(c, "unsupported dtype '%s' (supported: b1 i1 u1 i2 u2 i4 u4 i8 u8 f2 f4 f8)", d);
}

static bool parse_shape(cursor *c, npy_header *h)
{
  if (!expect(c, '(', "for 'shape'"))
    return false;
  int n = 0;
  bool trailing_comma = false;
  while (!peek(c, ')')) {
    skip_ws(c);
    if (c->p < c->end && *c->p == '-')
      return bad(c, "negative dimension in 'shape'");
    if (c->p >= c->end || *c->p < '0' || *c->p > '9')
      return bad(c, "bad header dict: expected an integer in 'shape' at offset %td", c->p - c->begin);
    int64_t v = 0;
    while (c->p < c->end && *c->p >= '0' && *c->p <= '9') {
      int digit = *c->p++ - '0';
      if (v > (INT64_MAX - digit) / 10)
        return bad(c, "dimension in 'shape' is too large");
      v = v * 10 + digit;
    }
    if (c->p < c->end && *c->p == 'L') /* Python 2 long literal */
      c->p++;
    if (n == NC_TENSOR_MAX_RANK)
      return bad(c, "rank exceeds the maximum of %d", NC_TENSOR_MAX_RANK);
    h->shape[n++] = v;
    trailing_comma = eat(c, ',');
    if (!trailing_comma && !peek(c, ')'))
      return bad(c, "bad header dict: expected ',' or ')' in 'shape' at offset %td", c->p - c->begin);
  }
  c->p++; /* ')' */
  if (n == 1 && !trailing_comma)
    return bad(c, "bad header dict: 'shape' is not a tuple");
  h->rank = n;
  return true;
}

/* Parses the header dict; the three keys must each appear exactly once. */
static bool parse_dict(const char *text, size_t len, npy_header *h, char *msg, size_t msglen)
{
  cursor c = {text, text, text + len, msg, msglen};
  msg[0] = 0;
  bool seen_descr = false, seen_order = false, seen_shape = false;
  if (!expect(&c, '{', "at the start of the header"))
    return false;
  while (!peek(&c, '}')) {
    char key[32];
    if (!parse_string(&c, key, sizeof key, "a key"))
      return false;
    if (!expect(&c, ':', "after a key"))
      return false;
    if (!strcmp(key, "descr")) {
      if (seen_descr)
        return bad(&c, "bad header dict: duplicate key 'descr'");
      seen_descr = true;
      if (peek(&c, '['))
        return bad(&c, "unsupported dtype: structured arrays are not supported");
      char d[16];
      if (!parse_string(&c, d, sizeof d, "'descr'") || !parse_descr(&c, d, h))
        return false;
    } else if (!strcmp(key, "fortran_order")) {
      if (seen_order)
        return bad(&c, "bad header dict: duplicate key 'fortran_order'");
      seen_order = true;
      if (parse_word(&c, "True"))
        return bad(&c, "fortran_order is True: only C-order arrays are supported "
                       "(save np.ascontiguousarray(a) instead)");
      if (!parse_word(&c, "False"))
        return bad(&c, "bad header dict: 'fortran_order' must be True or False");
    } else if (!strcmp(key, "shape")) {
      if (seen_shape)
        return bad(&c, "bad header dict: duplicate key 'shape'");
      seen_shape = true;
      if (!parse_shape(&c, h))
        return false;
    } else {
      return bad(&c, "bad header dict: unexpected key '%s'", key);
    }
    if (!eat(&c, ',') && !peek(&c, '}'))
      return bad(&c, "bad header dict: expected ',' or '}' at offset %td", c.p - c.begin);
  }
  c.p++; /* '}' */
  skip_ws(&c);
  if (c.p != c.end)
    return bad(&c, "bad header dict: unexpected text after '}'");
  if (!seen_descr || !seen_order || !seen_shape)
    return bad(&c, "bad header dict: missing key '%s'",
               !seen_descr ? "descr" : !seen_order ? "fortran_order" : "shape");
  return true;
}

/* ---- reading ------------------------------------------------------------- */

/* Where the bytes come from: a file or a memory image. */
typedef struct source {
  const char *name;
  size_t size; /* total bytes available */
  FILE *f;
  const unsigned char *buf;
} source;

static bool source_read(source *s, size_t off, void *dst, size_t n)
{
  if (off > s->size || n > s->size - off)
    return false;
  if (!n)
    return true;
  if (s->buf) {
    memcpy(dst, s->buf + off, n);
    return true;
  }
  return fseeko(s->f, (off_t)off, SEEK_SET) == 0 && fread(dst, 1, n, s->f) == n;
}

static void format_shape(const npy_header *h, char *out, size_t outlen)
{
  size_t n = (size_t)snprintf(out, outlen, "(");
  for (int i = 0; i < h->rank && n < outlen; i++)
    n += (size_t)snprintf(out + n, outlen - n, "%s%lld", i ? ", " : "", (long long)h->shape[i]);
  if (n < outlen)
    snprintf(out + n, outlen - n, h->rank == 1 ? ",)" : ")");
}

static void byteswap(void *data, size_t count, size_t size)
{
  unsigned char *p = data;
  for (size_t i = 0; i < count; i++, p += size)
    for (size_t a = 0, b = size - 1; a < b; a++, b--) {
      unsigned char t = p[a];
      p[a] = p[b];
      p[b] = t;
    }
}

static nc_tensor *read_npy(source *s, char *err, size_t errlen)
{
  unsigned char pre[12];
  if (s->size < 10 || !source_read(s, 0, pre, 10)) {
    nc_file_error(err, errlen, s->name, "not a .npy file (only %zu bytes)", s->size);
    return NULL;
  }
  if (memcmp(pre, npy_magic, sizeof npy_magic)) {
    nc_file_error(err, errlen, s->name, "not a .npy file (bad magic)");
    return NULL;
  }
  unsigned major = pre[6], minor = pre[7];
  size_t hoff, hlen;
  if (major == 1 && minor == 0) {
    hoff = 10;
    hlen = (size_t)pre[8] | (size_t)pre[9] << 8;
  } else if ((major == 2 || major == 3) && minor == 0) {
    if (!source_read(s, 10, pre + 10, 2)) {
      nc_file_error(err, errlen, s->name, "truncated .npy preamble");
      return NULL;
    }
    hoff = 12;
    hlen = (size_t)pre[8] | (size_t)pre[9] << 8 | (size_t)pre[10] << 16 | (size_t)pre[11] << 24;
  } else {
    nc_file_error(err, errlen, s->name, "unsupported .npy format version %u.%u (supported: 1.0, 2.0, 3.0)", major, minor);
    return NULL;
  }
  if (hlen > s->size - hoff) {
    nc_file_error(err, errlen, s->name, "header length %zu runs past the end of the file (%zu bytes)", hlen, s->size);
    return NULL;
  }
  if (hlen > NPY_MAX_HEADER) {
    nc_file_error(err, errlen, s->name, "header of %zu bytes is too large", hlen);
    return NULL;
  }
  char *text = nc_xmalloc(hlen + 1);
  npy_header h = {0};
  char msg[256];
  bool ok = source_read(s, hoff, text, hlen);
  if (!ok)
    snprintf(msg, sizeof msg, "cannot read the header: %s", strerror(errno));
  else if (memchr(text, 0, hlen)) {
    ok = false;
    snprintf(msg, sizeof msg, "bad header dict: contains a NUL byte");
  } else {
    ok = parse_dict(text, hlen, &h, msg, sizeof msg);
  }
  free(text);
  if (!ok) {
    nc_file_error(err, errlen, s->name, "%s", msg);
    return NULL;
  }

  /* Byte size, with every partial product of nonzero dims kept within
   * int64 so that nc_tensor_num_elements() can never overflow later. */
  char shape[256];
  format_shape(&h, shape, sizeof shape);
  uint64_t prod = h.itemsize;
  bool zero = false;
  for (int i = 0; i < h.rank; i++) {
    if (!h.shape[i]) {
      zero = true;
      continue;
    }
    if (prod > (uint64_t)INT64_MAX / (uint64_t)h.shape[i]) {
      nc_file_error(err, errlen, s->name, "shape %s is too large (its byte size overflows)", shape);
      return NULL;
    }
    prod *= (uint64_t)h.shape[i];
  }
  uint64_t bytes = zero ? 0 : prod;
  size_t doff = hoff + hlen, avail = s->size - doff;
  if (bytes > avail) {
    nc_file_error(err, errlen, s->name, "shape %s of %s needs %llu bytes of data but only %zu follow the header",
         shape, nc_dtype_name(h.dtype), (unsigned long long)bytes, avail);
    return NULL;
  }
  if (bytes < avail) {
    nc_file_error(err, errlen, s->name, "%zu unexpected bytes after the data of shape %s of %s",
         avail - (size_t)bytes, shape, nc_dtype_name(h.dtype));
    return NULL;
  }
  nc_tensor *t = nc_tensor_create(h.dtype, h.rank, h.shape, 0);
  if (!t) {
    nc_file_error(err, errlen, s->name, "cannot allocate %llu bytes", (unsigned long long)bytes);
    return NULL;
  }
  if (!source_read(s, doff, t->data, (size_t)bytes)) {
    nc_file_error(err, errlen, s->name, "cannot read %llu bytes of data: %s", (unsigned long long)bytes,
         s->f && ferror(s->f) ? strerror(errno) : "file changed while reading");
    nc_tensor_destroy(t);
    return NULL;
  }
  size_t count = (size_t)bytes / h.itemsize;
  if (h.swap)
    byteswap(t->data, count, h.itemsize);
  if (h.dtype == NC_DT_BOOL) {
    unsigned char *b = t->data;
    for (size_t i = 0; i < count; i++)
      b[i] = b[i] != 0;
  }
  return t;
}

nc_tensor *nc_npy_read_from_memory(const void *buf, size_t len, const char *name, char *err, size_t errlen)
{
  source s = {name ? name : "<memory>", buf ? len : 0, NULL, buf ? buf : (const void *)""};
  return read_npy(&s, err, errlen);
}

nc_tensor *nc_npy_read(const char *path, char *err, size_t errlen)
{
  FILE *f = fopen(path, "rb");
  if (!f) {
    nc_file_error(err, errlen, path, "cannot open: %s", strerror(errno));
    return NULL;
  }
  struct stat st;
  if (fstat(fileno(f), &st) || !S_ISREG(st.st_mode)) {
    nc_file_error(err, errlen, path, "not a regular file");
    fclose(f);
    return NULL;
  }
  source s = {path, (size_t)st.st_size, f, NULL};
  nc_tensor *t = read_npy(&s, err, errlen);
  fclose(f);
  return t;
}

/* ---- writing ------------------------------------------------------------- */

bool nc_npy_write(const char *path, const nc_tensor *t, char *err, size_t errlen)
{
  static const char *descr[NC_DT_COUNT] = {
    [NC_DT_F32] = "<f4", [NC_DT_F64] = "<f8", [NC_DT_F16] = "<f2",
    [NC_DT_I8] = "|i1",  [NC_DT_U8] = "|u1",  [NC_DT_I16] = "<i2", [NC_DT_U16] = "<u2",
    [NC_DT_I32] = "<i4", [NC_DT_U32] = "<u4", [NC_DT_I64] = "<i8", [NC_DT_U64] = "<u8",
    [NC_DT_BOOL] = "|b1", [NC_DT_I4] = "|i1", [NC_DT_U4] = "|u1", [NC_DT_I2] = "|i1", [NC_DT_U2] = "|u1",
  };
  if (t->dtype >= NC_DT_COUNT || !descr[t->dtype]) {
    nc_file_error(err, errlen, path, "cannot write a %s tensor: NumPy has no such dtype", nc_dtype_name(t->dtype));
    return false;
  }
  if (t->rank < 0 || t->rank > NC_TENSOR_MAX_RANK) {
    nc_file_error(err, errlen, path, "cannot write a tensor of rank %d", t->rank);
    return false;
  }
  /* Exactly what NumPy's np.save writes (format.py, _write_array_header):
   * sorted keys, spare spaces for growing the first axis, then space padding
   * and a newline so that the data starts at a multiple of 64 bytes. */
  npy_header h = {.rank = t->rank};
  memcpy(h.shape, t->shape, sizeof h.shape);
  char shape[256], dict[512];
  format_shape(&h, shape, sizeof shape);
  int n = snprintf(dict, sizeof dict, "{'descr': '%s', 'fortran_order': False, 'shape': %s, }",
                   descr[t->dtype], shape);
  if (t->rank > 0) {
    char first[32];
    int spare = 21 - snprintf(first, sizeof first, "%lld", (long long)t->shape[0]);
    for (; spare > 0; spare--)
      dict[n++] = ' ';
  }
  size_t hlen = (size_t)n + 1, pad = 64 - (10 + hlen) % 64;
  unsigned char pre[10];
  memcpy(pre, npy_magic, sizeof npy_magic);
  pre[6] = 1;
  pre[7] = 0;
  pre[8] = (unsigned char)((hlen + pad) & 0xff);
  pre[9] = (unsigned char)((hlen + pad) >> 8);

  nc_file_writer *w = nc_file_writer_open(path, err, errlen);
  if (!w)
    return false;
  FILE *f = nc_file_writer_stream(w);
  size_t bytes = nc_tensor_num_bytes(t);
  bool ok = fwrite(pre, 1, sizeof pre, f) == sizeof pre && fwrite(dict, 1, (size_t)n, f) == (size_t)n;
  for (size_t i = 0; ok && i < pad; i++)
    ok = fputc(' ', f) != EOF;
  ok = ok && fputc('\n', f) != EOF && (!bytes || fwrite(t->data, 1, bytes, f) == bytes);
  if (!ok) {
    int saved = errno;
    nc_file_writer_abort(w);
    nc_file_error(err, errlen, path, "write failed: %s", strerror(saved));
    return false;
  }
  return nc_file_writer_commit(w, err, errlen);
}
