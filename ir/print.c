/* print.c: the output buffer, and printing of types and attributes in
 * MLIR's syntax.
 *
 * Floats print as MLIR does: six significant digits (`1.500000e+00`) when
 * that reads back to the same bits, else the shortest decimal that does,
 * else (inf, nan) the raw bits in hex, so every value round-trips exactly.
 * Large dense data prints as hex.
 */
#include "ir-internal.h"
#include "nc/support/hex.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* --- output buffer -------------------------------------------------------------------------- */

void nc_out_flush(nc_out *o)
{
  if (o->file && o->len) {
    fwrite(o->buf, 1, o->len, o->file);
    o->len = 0;
  }
}

/* Makes room for `need` more bytes: flushes a file-backed buffer, grows an
 * in-memory one. */
void nc_out_flush_or_grow(nc_out *o, size_t need);
void nc_out_flush_or_grow(nc_out *o, size_t need)
{
  if (o->cap - o->len >= need)
    return;
  if (o->file) {
    nc_out_flush(o);
    if (o->cap >= need)
      return;
  }
  size_t cap = o->cap ? o->cap : 256;
  while (cap - o->len < need)
    cap *= 2;
  o->buf = nc_xrealloc(o->buf, cap);
  o->cap = cap;
}

void nc_out_write(nc_out *o, const char *s, size_t n)
{
  if (o->len + n > o->cap) {
    if (o->file) {
      nc_out_flush(o);
      if (n > o->cap) {
        fwrite(s, 1, n, o->file);
        return;
      }
    } else {
      size_t cap = o->cap ? o->cap : 256;
      while (cap < o->len + n)
        cap *= 2;
      o->buf = nc_xrealloc(o->buf, cap);
      o->cap = cap;
    }
  }
  memcpy(o->buf + o->len, s, n);
  o->len += n;
}

void nc_out_vprintf(nc_out *o, const char *fmt, va_list ap)
{
  char buf[256];
  va_list again;
  va_copy(again, ap);
  int n = vsnprintf(buf, sizeof buf, fmt, ap);
  if (n >= 0 && (size_t)n < sizeof buf) {
    nc_out_write(o, buf, (size_t)n);
  } else if (n >= 0) {
    char *big = nc_xmalloc((size_t)n + 1);
    vsnprintf(big, (size_t)n + 1, fmt, again);
    nc_out_write(o, big, (size_t)n);
    free(big);
  }
  va_end(again);
}

void nc_out_printf(nc_out *o, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  nc_out_vprintf(o, fmt, ap);
  va_end(ap);
}

static void out_u64(nc_out *o, uint64_t v)
{
  char buf[24];
  int i = 24;
  do {
    buf[--i] = (char)('0' + v % 10);
    v /= 10;
  } while (v);
  nc_out_write(o, buf + i, (size_t)(24 - i));
}

static void out_i64(nc_out *o, int64_t v)
{
  if (v < 0) {
    nc_out_char(o, '-');
    out_u64(o, 0 - (uint64_t)v);
  } else {
    out_u64(o, (uint64_t)v);
  }
}

/* --- strings and identifiers ---------------------------------------------------------------- */

static const char hexdig[] = "0123456789ABCDEF";

void nc_out_string_literal(nc_out *o, const char *s, size_t len)
{
  nc_out_char(o, '"');
  size_t run = 0;
  for (size_t i = 0; i < len; i++) {
    unsigned char c = (unsigned char)s[i];
    if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\') {
      run++;
      continue;
    }
    nc_out_write(o, s + i - run, run);
    run = 0;
    if (c == '\\') { /* as llvm::printEscapedString does */
      nc_out_write(o, "\\\\", 2);
      continue;
    }
    char esc[3] = {'\\', hexdig[c >> 4], hexdig[c & 15]};
    nc_out_write(o, esc, 3);
  }
  nc_out_write(o, s + len - run, run);
  nc_out_char(o, '"');
}

static bool is_bare_id(const char *s, size_t len)
{
  if (!len || !((s[0] >= 'a' && s[0] <= 'z') || (s[0] >= 'A' && s[0] <= 'Z') || s[0] == '_'))
    return false;
  for (size_t i = 1; i < len; i++) {
    char c = s[i];
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '$' ||
          c == '.'))
      return false;
  }
  return true;
}

/* A bare identifier if it is one, else a string literal. */
static void out_keyword_or_string(nc_out *o, const char *s, size_t len)
{
  if (is_bare_id(s, len))
    nc_out_write(o, s, len);
  else
    nc_out_string_literal(o, s, len);
}

void nc_out_symbol(nc_out *o, const char *s, size_t len);
void nc_out_symbol(nc_out *o, const char *s, size_t len)
{
  nc_out_char(o, '@');
  out_keyword_or_string(o, s, len);
}

/* --- floats ------------------------------------------------------------------------------------------ */

static bool reads_back(const nc_type *t, const char *s, uint64_t bits)
{
  if (t->kind == NC_TYPE_F32) {
    float f = strtof(s, NULL);
    uint32_t b;
    memcpy(&b, &f, 4);
    return b == (uint32_t)bits;
  }
  return nc_float_double_to_bits(t, strtod(s, NULL)) == bits;
}

/* Returns true if it printed the bits in hex (which need a type to read back as a float). */
static bool out_float_bits(nc_out *o, const nc_type *t, uint64_t bits)
{
  double d = nc_float_bits_to_double(t, bits);
  char buf[64];
  if (isfinite(d)) {
    /* six significant digits padded with a zero, as APFloat::toString(6, 0, false) */
    snprintf(buf, sizeof buf, "%.5e", d);
    char *e = strchr(buf, 'e');
    memmove(e + 1, e, strlen(e) + 1);
    *e = '0';
    if (reads_back(t, buf, bits)) {
      nc_out_str(o, buf);
      return false;
    }
    int lo = t->kind == NC_TYPE_F64 ? 15 : 7, hi = t->kind == NC_TYPE_F64 ? 17 : 9;
    for (int prec = lo; prec <= hi; prec++) {
      snprintf(buf, sizeof buf, "%.*g", prec, d);
      if (reads_back(t, buf, bits)) {
        if (!strchr(buf, '.') && !strchr(buf, 'e')) /* the lexer needs a '.' */
          strcat(buf, ".0");
        else if (!strchr(buf, '.')) { /* 1e+20 -> 1.0e+20 */
          e = strchr(buf, 'e');
          memmove(e + 2, e, strlen(e) + 1);
          e[0] = '.';
          e[1] = '0';
        }
        nc_out_str(o, buf);
        return false;
      }
    }
  }
  /* inf, nan (and anything that does not read back): the bits in hex */
  unsigned digits = t->width / 4;
  nc_out_str(o, "0x");
  for (int i = (int)digits - 1; i >= 0; i--)
    nc_out_char(o, hexdig[(bits >> (4 * i)) & 15]);
  return true;
}

bool nc_out_float(nc_out *o, const nc_attr *a) { return out_float_bits(o, a->type, a->fbits); }

/* --- types --------------------------------------------------------------------------------------------- */

static void out_dims(nc_out *o, const nc_type *t)
{
  for (uint32_t i = 0; i < t->shaped.rank; i++) {
    if (t->shaped.shape[i] == NC_DYNAMIC)
      nc_out_char(o, '?');
    else
      out_i64(o, t->shaped.shape[i]);
    nc_out_char(o, 'x');
  }
}

/* MLIR's isDialectSymbolSimpleEnoughForPrettyForm: an identifier, then
 * nothing or a body in angle brackets. */
static bool pretty_body(const char *s, size_t len)
{
  size_t i = 1;
  if (!len || !((s[0] >= 'a' && s[0] <= 'z') || (s[0] >= 'A' && s[0] <= 'Z')))
    return false;
  while (i < len && ((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') || (s[i] >= '0' && s[i] <= '9') ||
                     s[i] == '_' || s[i] == '.'))
    i++;
  return i == len || (s[i] == '<' && s[len - 1] == '>');
}

/* `!dialect.body` when the body allows it, else `!dialect<body>` (the body
 * is raw text, as the parser keeps it). */
static void out_opaque(nc_out *o, char sigil, const nc_ident *dialect, const char *body, size_t len)
{
  nc_out_char(o, sigil);
  nc_out_write(o, dialect->str, dialect->len);
  bool pretty = pretty_body(body, len);
  nc_out_char(o, pretty ? '.' : '<');
  nc_out_write(o, body, len);
  if (!pretty)
    nc_out_char(o, '>');
}

/* `#dialect.mnemonic` and what the definition prints after it. */
static void out_defined(nc_out *o, char sigil, const nc_ident *dialect, const nc_dialect_storage_def *def,
                        const void *storage, const nc_print_flags *flags)
{
  nc_out_char(o, sigil);
  nc_out_write(o, dialect->str, dialect->len);
  nc_out_char(o, '.');
  nc_out_str(o, def->mnemonic);
  nc_out_dialect_storage(o, flags, def, storage);
}

static void out_int_value(nc_out *o, const nc_type *t, int64_t v);

/* Like MLIR, a memref's memory space elides the default i64 of an integer. */
static void out_attr_elide_i64(nc_out *o, const nc_attr *a)
{
  const nc_type *t = a->type;
  if (a->kind == NC_ATTR_INTEGER && t->kind == NC_TYPE_INTEGER && t->width == 64 && t->signedness == NC_SIGNLESS)
    out_int_value(o, t, a->i);
  else
    nc_out_attr(o, a, NULL);
}

void nc_out_type(nc_out *o, const nc_type *t)
{
  switch (t->kind) {
  case NC_TYPE_INTEGER:
    if (t->signedness == NC_SIGNED)
      nc_out_write(o, "si", 2);
    else if (t->signedness == NC_UNSIGNED)
      nc_out_write(o, "ui", 2);
    else
      nc_out_char(o, 'i');
    out_u64(o, t->width);
    break;
  case NC_TYPE_INDEX: nc_out_str(o, "index"); break;
  case NC_TYPE_F16: nc_out_str(o, "f16"); break;
  case NC_TYPE_BF16: nc_out_str(o, "bf16"); break;
  case NC_TYPE_F32: nc_out_str(o, "f32"); break;
  case NC_TYPE_F64: nc_out_str(o, "f64"); break;
  case NC_TYPE_NONE: nc_out_str(o, "none"); break;
  case NC_TYPE_FUNCTION: {
    nc_out_char(o, '(');
    for (uint32_t i = 0; i < t->func.n_inputs; i++) {
      if (i)
        nc_out_write(o, ", ", 2);
      nc_out_type(o, t->func.types[i]);
    }
    nc_out_write(o, ") -> ", 5);
    uint32_t nr = t->func.n_results;
    nc_type *const *rs = t->func.types + t->func.n_inputs;
    bool paren = nr != 1 || rs[0]->kind == NC_TYPE_FUNCTION;
    if (paren)
      nc_out_char(o, '(');
    for (uint32_t i = 0; i < nr; i++) {
      if (i)
        nc_out_write(o, ", ", 2);
      nc_out_type(o, rs[i]);
    }
    if (paren)
      nc_out_char(o, ')');
    break;
  }
  case NC_TYPE_TENSOR:
  case NC_TYPE_VECTOR:
  case NC_TYPE_MEMREF:
    nc_out_str(o, t->kind == NC_TYPE_TENSOR ? "tensor<" : t->kind == NC_TYPE_VECTOR ? "vector<" : "memref<");
    out_dims(o, t);
    nc_out_type(o, t->shaped.elt);
    if (t->shaped.encoding) {
      nc_out_write(o, ", ", 2);
      nc_out_attr(o, t->shaped.encoding, NULL);
    }
    if (t->shaped.space) {
      nc_out_write(o, ", ", 2);
      out_attr_elide_i64(o, t->shaped.space);
    }
    nc_out_char(o, '>');
    break;
  case NC_TYPE_UNRANKED_TENSOR:
  case NC_TYPE_UNRANKED_MEMREF:
    nc_out_str(o, t->kind == NC_TYPE_UNRANKED_TENSOR ? "tensor<*x" : "memref<*x");
    nc_out_type(o, t->shaped.elt);
    if (t->shaped.space) {
      nc_out_write(o, ", ", 2);
      out_attr_elide_i64(o, t->shaped.space);
    }
    nc_out_char(o, '>');
    break;
  case NC_TYPE_TUPLE:
    nc_out_str(o, "tuple<");
    for (uint32_t i = 0; i < t->tuple.n; i++) {
      if (i)
        nc_out_write(o, ", ", 2);
      nc_out_type(o, t->tuple.types[i]);
    }
    nc_out_char(o, '>');
    break;
  case NC_TYPE_COMPLEX:
    nc_out_str(o, "complex<");
    nc_out_type(o, t->complex.elt);
    nc_out_char(o, '>');
    break;
  case NC_TYPE_OPAQUE:
    out_opaque(o, '!', t->opaque.dialect, t->opaque.body, t->opaque.len);
    break;
  case NC_TYPE_DIALECT:
    out_defined(o, '!', t->defined.dialect, t->defined.def, t->defined.storage, NULL);
    break;
  }
}

/* --- attributes ----------------------------------------------------------------------------------------- */

void nc_out_attr_value(nc_out *o, const nc_attr *a, const nc_print_flags *flags);

static void out_int_value(nc_out *o, const nc_type *t, int64_t v)
{
  if (t->kind == NC_TYPE_INTEGER && t->width == 1 && t->signedness == NC_SIGNLESS)
    nc_out_str(o, v ? "true" : "false");
  else if (t->kind == NC_TYPE_INTEGER && t->signedness == NC_UNSIGNED)
    out_u64(o, (uint64_t)v);
  else
    out_i64(o, v);
}

static void out_loc_body(nc_out *o, const nc_attr *l);

static void out_loc_inner(nc_out *o, const nc_attr *l)
{
  switch (l->kind) {
  case NC_ATTR_LOC_UNKNOWN: nc_out_str(o, "unknown"); break;
  case NC_ATTR_LOC_FILE:
    nc_out_string_literal(o, l->floc.file->str, l->floc.file->len);
    nc_out_char(o, ':');
    out_u64(o, l->floc.line);
    nc_out_char(o, ':');
    out_u64(o, l->floc.col);
    break;
  case NC_ATTR_LOC_NAME:
    nc_out_string_literal(o, l->nloc.name->str, l->nloc.name->len);
    if (l->nloc.child && l->nloc.child->kind != NC_ATTR_LOC_UNKNOWN) {
      nc_out_char(o, '(');
      out_loc_inner(o, l->nloc.child);
      nc_out_char(o, ')');
    }
    break;
  case NC_ATTR_LOC_CALLSITE:
    nc_out_str(o, "callsite(");
    out_loc_inner(o, l->cloc.callee);
    nc_out_str(o, " at ");
    out_loc_inner(o, l->cloc.caller);
    nc_out_char(o, ')');
    break;
  case NC_ATTR_LOC_FUSED:
    nc_out_str(o, "fused");
    if (l->fused.meta) {
      nc_out_char(o, '<');
      nc_out_attr(o, l->fused.meta, NULL);
      nc_out_char(o, '>');
    }
    nc_out_char(o, '[');
    for (size_t i = 0; i < l->fused.n; i++) {
      if (i)
        nc_out_write(o, ", ", 2);
      out_loc_inner(o, l->fused.locs[i]);
    }
    nc_out_char(o, ']');
    break;
  default: break;
  }
}

static void out_loc_body(nc_out *o, const nc_attr *l)
{
  nc_out_str(o, "loc(");
  out_loc_inner(o, l);
  nc_out_char(o, ')');
}

/* Writes element i of raw dense data. */
static void out_element(nc_out *o, const nc_type *elt, const unsigned char *p)
{
  if (nc_type_is_float(elt)) {
    uint64_t bits = 0;
    memcpy(&bits, p, nc_dense_element_size(elt));
    out_float_bits(o, elt, bits);
    return;
  }
  size_t es = nc_dense_element_size(elt);
  bool uns = elt->kind == NC_TYPE_INTEGER &&
             (elt->signedness == NC_UNSIGNED || (elt->width == 1 && elt->signedness == NC_SIGNLESS));
  int64_t v;
  switch (es) {
  case 1: v = uns ? (int64_t)p[0] : (int64_t)(int8_t)p[0]; break;
  case 2: { int16_t x; memcpy(&x, p, 2); v = uns ? (int64_t)(uint16_t)x : x; break; }
  case 4: { int32_t x; memcpy(&x, p, 4); v = uns ? (int64_t)(uint32_t)x : x; break; }
  default: memcpy(&v, p, 8); break;
  }
  out_int_value(o, elt, v);
}

static void out_hex_bytes(nc_out *o, const unsigned char *p, size_t n)
{
  /* encode straight into the output buffer, a buffer-full at a time */
  while (n) {
    if (o->cap - o->len < 2) {
      char tmp[2];
      nc_hex_encode(p, 1, tmp);
      nc_out_write(o, tmp, 2);
      p++;
      n--;
      continue;
    }
    size_t k = (o->cap - o->len) / 2;
    if (k > n)
      k = n;
    nc_hex_encode(p, k, o->buf + o->len);
    o->len += 2 * k;
    p += k;
    n -= k;
    if (n)
      nc_out_flush_or_grow(o, 2 * (n < 65536 ? n : 65536));
  }
}

static void out_nested(nc_out *o, const nc_type *t, const unsigned char *data, size_t *idx, uint32_t dim)
{
  const nc_type *elt = t->shaped.elt;
  size_t es = nc_dense_element_size(elt);
  if (dim == t->shaped.rank) {
    out_element(o, elt, data + (*idx)++ * es);
    return;
  }
  nc_out_char(o, '[');
  for (int64_t i = 0; i < t->shaped.shape[dim]; i++) {
    if (i)
      nc_out_write(o, ", ", 2);
    out_nested(o, t, data, idx, dim + 1);
  }
  nc_out_char(o, ']');
}

static void out_dense(nc_out *o, const nc_attr *a, const nc_print_flags *flags)
{
  const nc_type *t = a->type, *elt = t->shaped.elt;
  int64_t n = nc_type_get_num_elements(t);
  int64_t threshold = flags && flags->hex_threshold ? flags->hex_threshold : 100;
  if (flags && flags->elide_elements_larger && n > flags->elide_elements_larger && !a->splat) {
    nc_out_str(o, "dense_resource<__elided__> : ");
    nc_out_type(o, t);
    return;
  }
  nc_out_str(o, "dense<");
  const unsigned char *data = a->dense.data;
  if (a->splat) {
    out_element(o, elt, data);
  } else if (n > threshold) {
    nc_out_str(o, "\"0x");
    if (elt->kind == NC_TYPE_INTEGER && elt->width == 1) {
      unsigned char byte = 0;
      for (int64_t i = 0; i < n; i++) {
        byte |= (unsigned char)((data[i] & 1) << (i % 8));
        if (i % 8 == 7 || i == n - 1) {
          out_hex_bytes(o, &byte, 1);
          byte = 0;
        }
      }
    } else if (elt->kind == NC_TYPE_INTEGER && (elt->width + 7) / 8 != nc_dense_element_size(elt)) {
      size_t es = nc_dense_element_size(elt), wire = (elt->width + 7) / 8; /* MLIR's bytes per element */
      for (size_t i = 0; i < a->dense.nbytes; i += es)
        out_hex_bytes(o, data + i, wire);
    } else {
      out_hex_bytes(o, data, a->dense.nbytes);
    }
    nc_out_char(o, '"');
  } else if (n == 0) {
    /* nothing between the brackets, as MLIR prints empty tensors */
  } else if (t->shaped.rank == 0) {
    out_element(o, elt, data);
  } else {
    size_t idx = 0;
    out_nested(o, t, data, &idx, 0);
  }
  nc_out_str(o, "> : ");
  nc_out_type(o, t);
}

void nc_out_attr(nc_out *o, const nc_attr *a, const nc_print_flags *flags)
{
  switch (a->kind) {
  case NC_ATTR_INTEGER:
    out_int_value(o, a->type, a->i);
    if (!(a->type->kind == NC_TYPE_INTEGER && a->type->width == 1 && a->type->signedness == NC_SIGNLESS)) {
      nc_out_write(o, " : ", 3);
      nc_out_type(o, a->type);
    }
    break;
  case NC_ATTR_FLOAT:
    nc_out_float(o, a);
    nc_out_write(o, " : ", 3);
    nc_out_type(o, a->type);
    break;
  case NC_ATTR_STRING: nc_out_string_literal(o, a->str.s, a->str.len); break;
  case NC_ATTR_UNIT: nc_out_str(o, "unit"); break;
  case NC_ATTR_ARRAY:
    nc_out_char(o, '[');
    for (size_t i = 0; i < a->array.n; i++) {
      if (i)
        nc_out_write(o, ", ", 2);
      /* like MLIR, array elements elide the default i64 / f64 types (but
       * not of a float printed as hex bits, which would read as an integer) */
      const nc_attr *e = a->array.elts[i];
      if (e->kind == NC_ATTR_INTEGER && e->type->kind == NC_TYPE_INTEGER && e->type->width == 64 &&
          e->type->signedness == NC_SIGNLESS) {
        out_int_value(o, e->type, e->i);
      } else if (e->kind == NC_ATTR_FLOAT && e->type->kind == NC_TYPE_F64) {
        if (nc_out_float(o, e))
          nc_out_str(o, " : f64");
      } else {
        nc_out_attr(o, e, flags);
      }
    }
    nc_out_char(o, ']');
    break;
  case NC_ATTR_DENSE_ARRAY: {
    nc_out_str(o, "array<");
    nc_out_type(o, a->type);
    size_t es = nc_dense_element_size(a->type);
    for (size_t i = 0; i < a->darray.n; i++) {
      nc_out_write(o, i ? ", " : ": ", 2);
      out_element(o, a->type, (const unsigned char *)a->darray.data + i * es);
    }
    nc_out_char(o, '>');
    break;
  }
  case NC_ATTR_DICTIONARY:
    nc_out_char(o, '{');
    for (size_t i = 0; i < a->dict.n; i++) {
      if (i)
        nc_out_write(o, ", ", 2);
      const nc_named_attr *e = &a->dict.entries[i];
      out_keyword_or_string(o, e->name->str, e->name->len);
      if (e->value->kind != NC_ATTR_UNIT) {
        nc_out_write(o, " = ", 3);
        nc_out_attr(o, e->value, flags);
      }
    }
    nc_out_char(o, '}');
    break;
  case NC_ATTR_TYPE: nc_out_type(o, a->type); break;
  case NC_ATTR_SYMBOL_REF:
    nc_out_symbol(o, a->symref.root->str, a->symref.root->len);
    for (size_t i = 0; i < a->symref.n; i++) {
      nc_out_write(o, "::", 2);
      nc_out_symbol(o, a->symref.nested[i]->str, a->symref.nested[i]->len);
    }
    break;
  case NC_ATTR_DENSE_ELEMENTS: out_dense(o, a, flags); break;
  case NC_ATTR_DENSE_RESOURCE:
    nc_out_str(o, "dense_resource<");
    out_keyword_or_string(o, a->res->name->str, a->res->name->len);
    nc_out_str(o, "> : ");
    nc_out_type(o, a->type);
    break;
  case NC_ATTR_OPAQUE: out_opaque(o, '#', a->opaque.dialect, a->opaque.body, a->opaque.len); break;
  case NC_ATTR_DIALECT: out_defined(o, '#', a->defined.dialect, a->defined.def, a->defined.storage, flags); break;
  case NC_ATTR_BUILTIN_OPAQUE:
    nc_out_write(o, a->opaque.dialect->str, a->opaque.dialect->len);
    nc_out_char(o, '<');
    nc_out_write(o, a->opaque.body, a->opaque.len);
    nc_out_char(o, '>');
    break;
  default: /* locations */
    out_loc_body(o, a);
    break;
  }
}

/* Prints an integer or float attribute without its type (custom formats). */
void nc_out_attr_value(nc_out *o, const nc_attr *a, const nc_print_flags *flags);
void nc_out_attr_value(nc_out *o, const nc_attr *a, const nc_print_flags *flags)
{
  if (a->kind == NC_ATTR_INTEGER)
    out_int_value(o, a->type, a->i);
  else if (a->kind == NC_ATTR_FLOAT)
    nc_out_float(o, a);
  else
    nc_out_attr(o, a, flags);
}

void nc_out_loc_inner(nc_out *o, const nc_attr *l);
void nc_out_loc_inner(nc_out *o, const nc_attr *l) { out_loc_inner(o, l); }
void nc_out_keyword_or_string(nc_out *o, const char *s, size_t len);
void nc_out_keyword_or_string(nc_out *o, const char *s, size_t len) { out_keyword_or_string(o, s, len); }
void nc_out_u64(nc_out *o, uint64_t v);
void nc_out_u64(nc_out *o, uint64_t v) { out_u64(o, v); }
void nc_out_hex(nc_out *o, const unsigned char *p, size_t n);
void nc_out_hex(nc_out *o, const unsigned char *p, size_t n) { out_hex_bytes(o, p, n); }

/* --- public helpers ------------------------------------------------------------------------------------------- */

static char *finish_string(nc_out *o)
{
  nc_out_char(o, 0);
  return o->buf;
}

void nc_type_print(const nc_type *t, FILE *out)
{
  char buf[4096];
  nc_out o = {buf, 0, sizeof buf, out};
  nc_out_type(&o, t);
  nc_out_flush(&o);
}

void nc_attr_print(const nc_attr *a, FILE *out)
{
  char buf[4096];
  nc_out o = {buf, 0, sizeof buf, out};
  nc_out_attr(&o, a, NULL);
  nc_out_flush(&o);
}

char *nc_type_to_string(const nc_type *t)
{
  nc_out o = {0};
  nc_out_type(&o, t);
  return finish_string(&o);
}

char *nc_attr_to_string(const nc_attr *a)
{
  nc_out o = {0};
  nc_out_attr(&o, a, NULL);
  return finish_string(&o);
}
