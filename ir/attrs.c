/* attrs.c: construction, uniquing and queries of builtin attributes and
 * locations.
 *
 * Dense element data is stored once as raw bytes in a malloc'ed buffer owned
 * by the context (weights can be hundreds of megabytes); all-equal data is
 * stored as a splat so that equal attributes are the same pointer.
 */
#include "ir-internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "nc/support/tensor.h"

void *nc_uniq_new(nc_context *ctx, size_t size);

/* --- floats ------------------------------------------------------------------------ */

static uint64_t round_from_double(double v, int ebits, int mbits)
{
  uint64_t x;
  memcpy(&x, &v, 8);
  uint64_t sign = (x >> 63) << (ebits + mbits);
  int e = (int)((x >> 52) & 0x7ff);
  uint64_t m = x & ((1ull << 52) - 1);
  uint64_t emax = (1ull << ebits) - 1;
  if (e == 0x7ff) /* inf / nan: keep the top payload bits and make nan quiet */
    return m ? sign | (emax << mbits) | (1ull << (mbits - 1)) | (m >> (52 - mbits)) : sign | (emax << mbits);
  if (e == 0 && m == 0)
    return sign;
  int bias = (1 << (ebits - 1)) - 1;
  uint64_t sig = e ? (m | (1ull << 52)) : m;
  int exp = e ? e - 1023 : -1022;
  int te = exp + bias;
  int shift = te >= 1 ? 52 - mbits : 52 - mbits + (1 - te);
  if (shift > 60)
    return sign;
  uint64_t kept = sig >> shift, rem = sig & ((1ull << shift) - 1), half = 1ull << (shift - 1);
  if (rem > half || (rem == half && (kept & 1)))
    kept++;
  if (te >= 1) {
    if (kept >> (mbits + 1)) {
      kept >>= 1;
      te++;
    }
    if ((uint64_t)te >= emax)
      return sign | (emax << mbits);
    return sign | ((uint64_t)te << mbits) | (kept & ((1ull << mbits) - 1));
  }
  return sign | kept; /* subnormal; a carry into the exponent field is right */
}

uint64_t nc_float_double_to_bits(const nc_type *t, double v)
{
  switch (t->kind) {
  case NC_TYPE_F64: { uint64_t b; memcpy(&b, &v, 8); return b; }
  case NC_TYPE_F32: {
    float f = (float)v;
    uint32_t b;
    memcpy(&b, &f, 4);
    if (isnan(v)) { /* keep the payload's top bits like APFloat's conversion */
      uint64_t d;
      memcpy(&d, &v, 8);
      b = (uint32_t)((d >> 63) << 31) | 0x7fc00000u | (uint32_t)((d >> 29) & 0x3fffff);
    }
    return b;
  }
  case NC_TYPE_F16: return round_from_double(v, 5, 10);
  case NC_TYPE_BF16: return round_from_double(v, 8, 7);
  default: return 0;
  }
}

double nc_float_bits_to_double(const nc_type *t, uint64_t bits)
{
  switch (t->kind) {
  case NC_TYPE_F64: { double d; memcpy(&d, &bits, 8); return d; }
  case NC_TYPE_F32: { uint32_t b = (uint32_t)bits; float f; memcpy(&f, &b, 4); return f; }
  case NC_TYPE_F16: return nc_f16_to_f32((uint16_t)bits);
  case NC_TYPE_BF16: return nc_bf16_to_f32((uint16_t)bits);
  default: return 0;
  }
}

/* --- uniquing ---------------------------------------------------------------------------- */

static uint64_t hash_key(const nc_attr *k)
{
  uint64_t h = nc_hash_combine(k->kind, (uintptr_t)k->type);
  switch (k->kind) {
  case NC_ATTR_INTEGER: return nc_hash_combine(h, (uint64_t)k->i);
  case NC_ATTR_FLOAT: return nc_hash_combine(h, k->fbits);
  case NC_ATTR_STRING: return nc_hash_combine(h, nc_hash_bytes(k->str.s, k->str.len, 9));
  case NC_ATTR_ARRAY:
    return nc_hash_combine(h, nc_hash_bytes(k->array.elts, k->array.n * sizeof(nc_attr *), 10));
  case NC_ATTR_DENSE_ARRAY:
    return nc_hash_combine(h ^ k->darray.n,
                           nc_hash_bytes(k->darray.data, k->darray.n * nc_dense_element_size(k->type), 11));
  case NC_ATTR_DICTIONARY:
    return nc_hash_combine(h, nc_hash_bytes(k->dict.entries, k->dict.n * sizeof(nc_named_attr), 12));
  case NC_ATTR_SYMBOL_REF:
    return nc_hash_combine(nc_hash_combine(h, (uintptr_t)k->symref.root),
                           nc_hash_bytes(k->symref.nested, k->symref.n * sizeof(nc_ident *), 13));
  case NC_ATTR_DENSE_ELEMENTS:
    return nc_hash_combine(h ^ k->splat, nc_hash_bytes(k->dense.data, k->dense.nbytes, 14));
  case NC_ATTR_DENSE_RESOURCE: return nc_hash_combine(h, (uintptr_t)k->res);
  case NC_ATTR_OPAQUE: case NC_ATTR_BUILTIN_OPAQUE:
    return nc_hash_combine(nc_hash_combine(h, (uintptr_t)k->opaque.dialect), nc_hash_bytes(k->opaque.body, k->opaque.len, 15));
  case NC_ATTR_DIALECT:
    return nc_hash_combine(nc_hash_combine(h, (uintptr_t)k->defined.def),
                           nc_dialect_storage_hash(k->defined.def, k->defined.storage));
  case NC_ATTR_LOC_FILE:
    return nc_hash_combine(nc_hash_combine(h, (uintptr_t)k->floc.file), ((uint64_t)k->floc.line << 32) | k->floc.col);
  case NC_ATTR_LOC_NAME: return nc_hash_combine(nc_hash_combine(h, (uintptr_t)k->nloc.name), (uintptr_t)k->nloc.child);
  case NC_ATTR_LOC_CALLSITE:
    return nc_hash_combine(nc_hash_combine(h, (uintptr_t)k->cloc.callee), (uintptr_t)k->cloc.caller);
  case NC_ATTR_LOC_FUSED:
    return nc_hash_combine(nc_hash_combine(h, (uintptr_t)k->fused.meta),
                           nc_hash_bytes(k->fused.locs, k->fused.n * sizeof(nc_attr *), 16));
  default: return h;
  }
}

/* memcmp that accepts NULL for empty ranges (keys of empty arrays have no storage). */
static bool mem_eq(const void *a, const void *b, size_t n) { return !n || !memcmp(a, b, n); }

static bool attr_eq(const void *stored, const void *key)
{
  const nc_attr *a = stored, *b = key;
  if (a->kind != b->kind || a->type != b->type)
    return false;
  switch (a->kind) {
  case NC_ATTR_INTEGER: return a->i == b->i;
  case NC_ATTR_FLOAT: return a->fbits == b->fbits;
  case NC_ATTR_STRING: return a->str.len == b->str.len && mem_eq(a->str.s, b->str.s, a->str.len);
  case NC_ATTR_ARRAY:
    return a->array.n == b->array.n && mem_eq(a->array.elts, b->array.elts, a->array.n * sizeof(nc_attr *));
  case NC_ATTR_DENSE_ARRAY:
    return a->darray.n == b->darray.n &&
           mem_eq(a->darray.data, b->darray.data, a->darray.n * nc_dense_element_size(a->type));
  case NC_ATTR_DICTIONARY:
    return a->dict.n == b->dict.n && mem_eq(a->dict.entries, b->dict.entries, a->dict.n * sizeof(nc_named_attr));
  case NC_ATTR_SYMBOL_REF:
    return a->symref.root == b->symref.root && a->symref.n == b->symref.n &&
           mem_eq(a->symref.nested, b->symref.nested, a->symref.n * sizeof(nc_ident *));
  case NC_ATTR_DENSE_ELEMENTS:
    return a->splat == b->splat && a->dense.nbytes == b->dense.nbytes &&
           mem_eq(a->dense.data, b->dense.data, a->dense.nbytes);
  case NC_ATTR_DENSE_RESOURCE: return a->res == b->res;
  case NC_ATTR_OPAQUE: case NC_ATTR_BUILTIN_OPAQUE:
    return a->opaque.dialect == b->opaque.dialect && a->opaque.len == b->opaque.len &&
           mem_eq(a->opaque.body, b->opaque.body, a->opaque.len);
  case NC_ATTR_DIALECT:
    return a->defined.def == b->defined.def && nc_dialect_storage_equal(a->defined.def, a->defined.storage, b->defined.storage);
  case NC_ATTR_LOC_FILE:
    return a->floc.file == b->floc.file && a->floc.line == b->floc.line && a->floc.col == b->floc.col;
  case NC_ATTR_LOC_NAME: return a->nloc.name == b->nloc.name && a->nloc.child == b->nloc.child;
  case NC_ATTR_LOC_CALLSITE: return a->cloc.callee == b->cloc.callee && a->cloc.caller == b->cloc.caller;
  case NC_ATTR_LOC_FUSED:
    return a->fused.meta == b->fused.meta && a->fused.n == b->fused.n &&
           mem_eq(a->fused.locs, b->fused.locs, a->fused.n * sizeof(nc_attr *));
  default: return true;
  }
}

/* Set by nc_attr_dense_elements_owned and nc_attr_dialect_owned: what the
 * key points to may be adopted. */
static _Thread_local bool key_owned;

/* Copies an attribute's payload (pointers, entries, dense values up to 8
 * bytes wide) 8-byte aligned: the arena's default 16 would pad every other
 * payload behind a 40-byte attribute. */
static void *payload_dup(nc_arena *ar, const void *p, size_t size)
{
  void *d = nc_arena_alloc_aligned(ar, size ? size : 1, 8);
  if (size)
    memcpy(d, p, size);
  return d;
}

static void *attr_make(nc_context *ctx, const void *key)
{
  const nc_attr *k = key;
  nc_attr *a = nc_uniq_new_inline(ctx, sizeof *a);
  *a = *k;
  a->ctx_id = ctx->id;
  nc_arena *ar = ctx->arena;
  switch (k->kind) {
  case NC_ATTR_STRING: a->str.s = nc_arena_strndup(ar, k->str.s, k->str.len); break;
  case NC_ATTR_ARRAY: a->array.elts = payload_dup(ar, k->array.elts, k->array.n * sizeof(nc_attr *)); break;
  case NC_ATTR_DENSE_ARRAY:
    a->darray.data = payload_dup(ar, k->darray.data, k->darray.n * nc_dense_element_size(k->type));
    break;
  case NC_ATTR_DICTIONARY:
    a->dict.entries = payload_dup(ar, k->dict.entries, k->dict.n * sizeof(nc_named_attr));
    break;
  case NC_ATTR_SYMBOL_REF:
    a->symref.nested = payload_dup(ar, k->symref.nested, k->symref.n * sizeof(nc_ident *));
    break;
  case NC_ATTR_DENSE_ELEMENTS:
    if (key_owned) {
      key_owned = false; /* adopted */
    } else {
      void *d = nc_xmalloc(k->dense.nbytes);
      if (k->dense.nbytes)
        memcpy(d, k->dense.data, k->dense.nbytes);
      a->dense.data = d;
    }
    break;
  case NC_ATTR_OPAQUE: case NC_ATTR_BUILTIN_OPAQUE:
    a->opaque.body = nc_arena_strndup(ar, k->opaque.body, k->opaque.len);
    break;
  case NC_ATTR_DIALECT:
    a->defined.storage = nc_dialect_storage_clone(ctx, k->defined.def, k->defined.storage, key_owned);
    key_owned = false;
    break;
  case NC_ATTR_LOC_FUSED: a->fused.locs = payload_dup(ar, k->fused.locs, k->fused.n * sizeof(nc_attr *)); break;
  default: break;
  }
  return a;
}

static nc_attr *unique(nc_context *ctx, nc_attr *k)
{
  k->ctx_id = ctx->id;
  return nc_uniq_get(ctx, &ctx->attrs, hash_key(k), k, attr_eq, attr_make);
}

static nc_attr key_of(nc_attr_kind kind, nc_type *type)
{
  nc_attr k;
  memset(&k, 0, sizeof k);
  k.kind = (uint8_t)kind;
  k.type = type;
  return k;
}

void nc_attrs_init_builtins(nc_context *ctx);
void nc_attrs_init_builtins(nc_context *ctx)
{
  nc_attr k = key_of(NC_ATTR_UNIT, NULL);
  ctx->unit = unique(ctx, &k);
  k = key_of(NC_ATTR_INTEGER, ctx->int_types[NC_SIGNLESS][1]);
  k.i = 1;
  ctx->true_attr = unique(ctx, &k);
  k.i = 0;
  ctx->false_attr = unique(ctx, &k);
  k = key_of(NC_ATTR_DICTIONARY, NULL);
  ctx->empty_dict = unique(ctx, &k);
  k = key_of(NC_ATTR_LOC_UNKNOWN, NULL);
  ctx->unknown_loc = unique(ctx, &k);
}

/* --- constructors --------------------------------------------------------------------- */

static int64_t normalize_int(const nc_type *t, int64_t v)
{
  unsigned w = t->kind == NC_TYPE_INDEX ? 64 : t->width;
  if (w >= 64)
    return v;
  if (t->signedness == NC_UNSIGNED || (w == 1 && t->signedness == NC_SIGNLESS)) /* i1 is 0 or 1, si1 0 or -1 */
    return (int64_t)((uint64_t)v & ((1ull << w) - 1));
  return (int64_t)((uint64_t)v << (64 - w)) >> (64 - w);
}

nc_attr *nc_attr_integer(nc_context *ctx, nc_type *type, int64_t value)
{
  if (type->kind == NC_TYPE_INTEGER && type->width == 1 && type->signedness == NC_SIGNLESS)
    return (value & 1) ? ctx->true_attr : ctx->false_attr;
  nc_attr k = key_of(NC_ATTR_INTEGER, type);
  k.i = normalize_int(type, value);
  return unique(ctx, &k);
}

nc_attr *nc_attr_bool(nc_context *ctx, bool value) { return value ? ctx->true_attr : ctx->false_attr; }

nc_attr *nc_attr_float_bits(nc_context *ctx, nc_type *type, uint64_t bits)
{
  nc_attr k = key_of(NC_ATTR_FLOAT, type);
  unsigned w = type->width;
  k.fbits = w >= 64 ? bits : bits & ((1ull << w) - 1);
  return unique(ctx, &k);
}

nc_attr *nc_attr_float(nc_context *ctx, nc_type *type, double value)
{
  return nc_attr_float_bits(ctx, type, nc_float_double_to_bits(type, value));
}

nc_attr *nc_attr_string(nc_context *ctx, const char *s, size_t len)
{
  nc_attr k = key_of(NC_ATTR_STRING, NULL);
  k.str.s = s;
  k.str.len = len;
  return unique(ctx, &k);
}

nc_attr *nc_attr_string_cstr(nc_context *ctx, const char *s) { return nc_attr_string(ctx, s, strlen(s)); }
nc_attr *nc_attr_unit(nc_context *ctx) { return ctx->unit; }

nc_attr *nc_attr_array(nc_context *ctx, size_t n, nc_attr *const *elts)
{
  nc_attr k = key_of(NC_ATTR_ARRAY, NULL);
  k.array.n = n;
  k.array.elts = (nc_attr **)elts;
  return unique(ctx, &k);
}

size_t nc_dense_element_size(const nc_type *elt)
{
  switch (elt->kind) {
  case NC_TYPE_INTEGER: return elt->width <= 8 ? 1 : elt->width <= 16 ? 2 : elt->width <= 32 ? 4 : 8;
  case NC_TYPE_INDEX: case NC_TYPE_F64: return 8;
  case NC_TYPE_F32: return 4;
  case NC_TYPE_F16: case NC_TYPE_BF16: return 2;
  case NC_TYPE_COMPLEX: return 2 * nc_dense_element_size(elt->complex.elt);
  default: return 0;
  }
}

nc_attr *nc_attr_dense_array(nc_context *ctx, nc_type *elt, size_t n, const void *data)
{
  nc_attr k = key_of(NC_ATTR_DENSE_ARRAY, elt);
  k.darray.n = n;
  k.darray.data = data;
  return unique(ctx, &k);
}

nc_attr *nc_attr_dense_i64_array(nc_context *ctx, size_t n, const int64_t *vals)
{
  return nc_attr_dense_array(ctx, ctx->int_types[NC_SIGNLESS][64], n, vals);
}

static int cmp_ident(const nc_ident *a, const nc_ident *b)
{
  size_t n = a->len < b->len ? a->len : b->len;
  int c = memcmp(a->str, b->str, n);
  return c ? c : (a->len > b->len) - (a->len < b->len);
}

static int cmp_named(const void *x, const void *y)
{
  return cmp_ident(((const nc_named_attr *)x)->name, ((const nc_named_attr *)y)->name);
}

nc_attr *nc_attr_dictionary(nc_context *ctx, size_t n, const nc_named_attr *entries)
{
  if (n == 0)
    return ctx->empty_dict;
  nc_named_attr buf[16];
  nc_named_attr *sorted = n <= 16 ? buf : nc_xmalloc(n * sizeof *sorted);
  memcpy(sorted, entries, n * sizeof *sorted);
  bool is_sorted = true;
  for (size_t i = 1; i < n && is_sorted; i++)
    is_sorted = cmp_ident(sorted[i - 1].name, sorted[i].name) < 0;
  if (!is_sorted)
    qsort(sorted, n, sizeof *sorted, cmp_named);
  nc_attr *r = NULL;
  for (size_t i = 1; i < n; i++)
    if (sorted[i - 1].name == sorted[i].name)
      goto out;
  nc_attr k = key_of(NC_ATTR_DICTIONARY, NULL);
  k.dict.n = n;
  k.dict.entries = sorted;
  r = unique(ctx, &k);
out:
  if (sorted != buf)
    free(sorted);
  return r;
}

nc_attr *nc_attr_empty_dictionary(nc_context *ctx) { return ctx->empty_dict; }

nc_attr *nc_attr_type(nc_context *ctx, nc_type *type)
{
  nc_attr k = key_of(NC_ATTR_TYPE, type);
  return unique(ctx, &k);
}

nc_attr *nc_attr_symbol_ref(nc_context *ctx, nc_ident *root, size_t n, nc_ident *const *nested)
{
  nc_attr k = key_of(NC_ATTR_SYMBOL_REF, NULL);
  k.symref.root = root;
  k.symref.n = n;
  k.symref.nested = (nc_ident **)nested;
  return unique(ctx, &k);
}

/* Normalises sub-byte integers and detects all-equal data (stored as splat). */
static bool prepare_dense(nc_type *type, void *data, size_t *nbytes, bool *splat)
{
  if (!nc_type_has_static_shape(type) || (type->kind != NC_TYPE_TENSOR && type->kind != NC_TYPE_VECTOR))
    return false;
  nc_type *elt = type->shaped.elt;
  size_t es = nc_dense_element_size(elt);
  int64_t n = nc_type_get_num_elements(type);
  if (!es || n < 0)
    return false;
  if (*nbytes != es && (uint64_t)*nbytes != (uint64_t)n * es)
    return false;
  if (elt->kind == NC_TYPE_INTEGER && elt->width < es * 8) { /* e.g. i4, i24: extend the value's bits */
    unsigned char *p = data;
    for (size_t i = 0; i < *nbytes; i += es) {
      uint64_t v = 0;
      memcpy(&v, p + i, es); /* little-endian */
      v = (uint64_t)normalize_int(elt, (int64_t)v);
      memcpy(p + i, &v, es);
    }
  }
  *splat = *nbytes == es && n != 1;
  if (!*splat && n > 1) {
    const char *p = data;
    size_t i = es;
    while (i < *nbytes && !memcmp(p, p + i, es))
      i += es;
    if (i >= *nbytes) {
      *splat = true;
      *nbytes = es;
    }
  }
  return true;
}

nc_attr *nc_attr_dense_elements(nc_context *ctx, nc_type *type, const void *data, size_t nbytes)
{
  bool splat;
  nc_type *elt = nc_type_is_shaped(type) ? type->shaped.elt : NULL;
  void *copy = NULL;
  if (elt && elt->kind == NC_TYPE_INTEGER && elt->width < nc_dense_element_size(elt) * 8) { /* normalising writes */
    copy = nc_xmalloc(nbytes ? nbytes : 1);
    memcpy(copy, data, nbytes);
    data = copy;
  }
  nc_attr *r = NULL;
  if (prepare_dense(type, (void *)data, &nbytes, &splat)) {
    nc_attr k = key_of(NC_ATTR_DENSE_ELEMENTS, type);
    k.dense.data = data;
    k.dense.nbytes = nbytes;
    k.splat = splat;
    r = unique(ctx, &k);
  }
  free(copy);
  return r;
}

nc_attr *nc_attr_dense_elements_owned(nc_context *ctx, nc_type *type, void *data, size_t nbytes)
{
  bool splat;
  if (!prepare_dense(type, data, &nbytes, &splat)) {
    free(data);
    return NULL;
  }
  nc_attr k = key_of(NC_ATTR_DENSE_ELEMENTS, type);
  k.dense.data = data;
  k.dense.nbytes = nbytes;
  k.splat = splat;
  key_owned = true;
  nc_attr *r = unique(ctx, &k);
  if (key_owned) { /* an equal attribute existed: drop our buffer */
    key_owned = false;
    free(data);
  } else if (r->dense.nbytes < 4096 && r->dense.data == data) {
    /* adopted; shrink splats so big buffers do not linger */
    void *small = nc_xrealloc(data, r->dense.nbytes ? r->dense.nbytes : 1);
    r->dense.data = small;
  }
  return r;
}

nc_attr *nc_attr_dense_resource(nc_context *ctx, nc_type *type, nc_resource *res)
{
  nc_attr k = key_of(NC_ATTR_DENSE_RESOURCE, type);
  k.res = res;
  return unique(ctx, &k);
}

nc_attr *nc_attr_opaque(nc_context *ctx, nc_ident *dialect, const char *body, size_t len)
{
  nc_attr k = key_of(NC_ATTR_OPAQUE, NULL);
  k.opaque.dialect = dialect;
  k.opaque.body = body;
  k.opaque.len = len;
  return unique(ctx, &k);
}

nc_attr *nc_attr_builtin_opaque(nc_context *ctx, nc_ident *keyword, const char *body, size_t len)
{
  nc_attr k = key_of(NC_ATTR_BUILTIN_OPAQUE, NULL);
  k.opaque.dialect = keyword;
  k.opaque.body = body;
  k.opaque.len = len;
  return unique(ctx, &k);
}

/* --- dialect attributes with storage (dialect_attrs.h) ------------------------------------ */

static nc_attr *dialect_attr(nc_context *ctx, const nc_dialect_attr_def *def, void *storage, bool owned)
{
  nc_ident *ns = nc_dialect_storage_def_namespace(ctx, def, false);
  if (!ns) {
    if (owned && def->destroy)
      def->destroy(storage, def->user_data);
    return NULL;
  }
  nc_attr k = key_of(NC_ATTR_DIALECT, NULL);
  k.defined.dialect = ns;
  k.defined.def = def;
  k.defined.storage = storage;
  key_owned = owned;
  nc_attr *r = unique(ctx, &k);
  if (key_owned) { /* an equal attribute existed: release what the key owns */
    key_owned = false;
    if (def->destroy)
      def->destroy(storage, def->user_data);
  }
  return r;
}

nc_attr *nc_attr_dialect(nc_context *ctx, const nc_dialect_attr_def *def, const void *storage)
{
  return dialect_attr(ctx, def, (void *)storage, false);
}

nc_attr *nc_attr_dialect_owned(nc_context *ctx, const nc_dialect_attr_def *def, void *storage)
{
  return dialect_attr(ctx, def, storage, true);
}

nc_attr *nc_attr_dialect_checked(nc_context *ctx, nc_location loc, const nc_dialect_attr_def *def, const void *storage)
{
  if (def->verify && !def->verify(ctx, loc, storage, def->user_data))
    return NULL;
  return nc_attr_dialect(ctx, def, storage);
}

bool nc_attr_isa(const nc_attr *a, const nc_dialect_attr_def *def)
{
  return a && a->kind == NC_ATTR_DIALECT && a->defined.def == def;
}

const nc_dialect_attr_def *nc_attr_dialect_get_def(const nc_attr *a)
{
  return a && a->kind == NC_ATTR_DIALECT ? a->defined.def : NULL;
}

const void *nc_attr_dialect_get_storage(const nc_attr *a) { return a->defined.storage; }

nc_ident *nc_attr_dialect_get_namespace(const nc_attr *a)
{
  return a->kind == NC_ATTR_DIALECT ? a->defined.dialect : a->kind == NC_ATTR_OPAQUE ? a->opaque.dialect : NULL;
}

/* --- queries ----------------------------------------------------------------------------- */

nc_attr_kind nc_attr_get_kind(const nc_attr *a) { return (nc_attr_kind)a->kind; }
nc_context *nc_attr_get_context(const nc_attr *a) { return nc_context_by_id(a->ctx_id); }
nc_type *nc_attr_get_type(const nc_attr *a) { return a->type; }
bool nc_attr_is_location(const nc_attr *a) { return a->kind >= NC_ATTR_LOC_UNKNOWN; }
int64_t nc_attr_get_int(const nc_attr *a) { return a->i; }
double nc_attr_get_float(const nc_attr *a) { return nc_float_bits_to_double(a->type, a->fbits); }
uint64_t nc_attr_get_float_bits(const nc_attr *a) { return a->fbits; }

const char *nc_attr_get_string(const nc_attr *a, size_t *len)
{
  if (len)
    *len = a->str.len;
  return a->str.s;
}

bool nc_attr_is_string_eq(const nc_attr *a, const char *s)
{
  return a && a->kind == NC_ATTR_STRING && strlen(s) == a->str.len && !memcmp(a->str.s, s, a->str.len);
}

size_t nc_attr_get_num_elements(const nc_attr *a)
{
  switch (a->kind) {
  case NC_ATTR_ARRAY: return a->array.n;
  case NC_ATTR_DENSE_ARRAY: return a->darray.n;
  case NC_ATTR_DICTIONARY: return a->dict.n;
  default: return 0;
  }
}

nc_attr *nc_attr_get_element(const nc_attr *a, size_t i) { return a->array.elts[i]; }
nc_named_attr nc_attr_get_entry(const nc_attr *a, size_t i) { return a->dict.entries[i]; }

nc_attr *nc_attr_dict_get(const nc_attr *d, const nc_ident *name)
{
  if (!d || d->kind != NC_ATTR_DICTIONARY)
    return NULL;
  if (d->dict.n <= 8) {
    for (size_t i = 0; i < d->dict.n; i++)
      if (d->dict.entries[i].name == name)
        return d->dict.entries[i].value;
    return NULL;
  }
  size_t lo = 0, hi = d->dict.n;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    int c = cmp_ident(d->dict.entries[mid].name, name);
    if (c == 0)
      return d->dict.entries[mid].value;
    if (c < 0)
      lo = mid + 1;
    else
      hi = mid;
  }
  return NULL;
}

nc_attr *nc_attr_dict_get_str(const nc_attr *d, const char *name)
{
  if (!d || d->kind != NC_ATTR_DICTIONARY)
    return NULL;
  size_t len = strlen(name);
  for (size_t i = 0; i < d->dict.n; i++)
    if (d->dict.entries[i].name->len == len && !memcmp(d->dict.entries[i].name->str, name, len))
      return d->dict.entries[i].value;
  return NULL;
}

nc_attr *nc_attr_dict_set(nc_context *ctx, nc_attr *d, nc_ident *name, nc_attr *value)
{
  size_t n = d && d->kind == NC_ATTR_DICTIONARY ? d->dict.n : 0;
  nc_named_attr buf[16];
  nc_named_attr *e = n + 1 <= 16 ? buf : nc_xmalloc((n + 1) * sizeof *e);
  size_t m = 0;
  bool found = false;
  for (size_t i = 0; i < n; i++) {
    if (d->dict.entries[i].name == name) {
      found = true;
      if (value)
        e[m++] = (nc_named_attr){name, value};
    } else {
      e[m++] = d->dict.entries[i];
    }
  }
  if (!found && value)
    e[m++] = (nc_named_attr){name, value};
  nc_attr *r = nc_attr_dictionary(ctx, m, e);
  if (e != buf)
    free(e);
  return r;
}

static int64_t read_int(const nc_type *elt, const char *p)
{
  size_t es = nc_dense_element_size(elt);
  bool uns = elt->kind == NC_TYPE_INTEGER &&
             (elt->signedness == NC_UNSIGNED || (elt->width == 1 && elt->signedness == NC_SIGNLESS));
  switch (es) {
  case 1: return uns ? (int64_t)*(const uint8_t *)p : (int64_t)*(const int8_t *)p;
  case 2: { int16_t v; memcpy(&v, p, 2); return uns ? (int64_t)(uint16_t)v : v; }
  case 4: { int32_t v; memcpy(&v, p, 4); return uns ? (int64_t)(uint32_t)v : v; }
  default: { int64_t v; memcpy(&v, p, 8); return v; }
  }
}

static double read_float(const nc_type *elt, const char *p)
{
  size_t es = nc_dense_element_size(elt);
  uint64_t bits = 0;
  memcpy(&bits, p, es);
  return nc_float_bits_to_double(elt, bits);
}

int64_t nc_attr_dense_array_get_int(const nc_attr *a, size_t i)
{
  return read_int(a->type, (const char *)a->darray.data + i * nc_dense_element_size(a->type));
}

double nc_attr_dense_array_get_float(const nc_attr *a, size_t i)
{
  return read_float(a->type, (const char *)a->darray.data + i * nc_dense_element_size(a->type));
}

const void *nc_attr_dense_array_get_data(const nc_attr *a) { return a->darray.data; }
nc_type *nc_attr_get_type_value(const nc_attr *a) { return a->type; }
nc_ident *nc_attr_symbol_ref_get_root(const nc_attr *a) { return a->symref.root; }
size_t nc_attr_symbol_ref_get_num_nested(const nc_attr *a) { return a->symref.n; }
nc_ident *nc_attr_symbol_ref_get_nested(const nc_attr *a, size_t i) { return a->symref.nested[i]; }

const void *nc_attr_dense_get_data(const nc_attr *a, size_t *nbytes)
{
  if (nbytes)
    *nbytes = a->dense.nbytes;
  return a->dense.data;
}

bool nc_attr_dense_is_splat(const nc_attr *a) { return a->splat; }

const void *nc_attr_elements_get_data(const nc_attr *a, size_t *nbytes, bool *splat)
{
  if (a->kind == NC_ATTR_DENSE_ELEMENTS) {
    if (nbytes)
      *nbytes = a->dense.nbytes;
    if (splat)
      *splat = a->splat;
    return a->dense.data;
  }
  if (a->kind != NC_ATTR_DENSE_RESOURCE || !a->res->data)
    return NULL;
  size_t es = nc_dense_element_size(a->type->shaped.elt);
  int64_t n = nc_type_get_num_elements(a->type);
  if (n < 0 || (uint64_t)a->res->size != (uint64_t)n * es) {
    if (a->res->size == es && es) {
      if (nbytes) *nbytes = es;
      if (splat) *splat = true;
      return a->res->data;
    }
    return NULL;
  }
  if (nbytes)
    *nbytes = a->res->size;
  if (splat)
    *splat = false;
  return a->res->data;
}

static const char *element_ptr(const nc_attr *a, int64_t i)
{
  size_t nbytes;
  bool splat;
  const char *d = nc_attr_elements_get_data(a, &nbytes, &splat);
  if (!d)
    return NULL;
  return splat ? d : d + (size_t)i * nc_dense_element_size(a->type->shaped.elt);
}

int64_t nc_attr_dense_get_int(const nc_attr *a, int64_t i)
{
  const char *p = element_ptr(a, i);
  return p ? read_int(a->type->shaped.elt, p) : 0;
}

double nc_attr_dense_get_float(const nc_attr *a, int64_t i)
{
  const char *p = element_ptr(a, i);
  if (!p)
    return 0;
  nc_type *elt = a->type->shaped.elt;
  return nc_type_is_float(elt) ? read_float(elt, p) : (double)read_int(elt, p);
}

nc_resource *nc_attr_dense_resource_get(const nc_attr *a) { return a->res; }
nc_ident *nc_attr_opaque_get_dialect(const nc_attr *a) { return a->opaque.dialect; }
const char *nc_attr_opaque_get_body(const nc_attr *a, size_t *len)
{
  if (len)
    *len = a->opaque.len;
  return a->opaque.body;
}

/* --- locations ------------------------------------------------------------------------------ */

nc_attr *nc_loc_unknown(nc_context *ctx) { return ctx->unknown_loc; }

nc_attr *nc_loc_file(nc_context *ctx, nc_ident *file, unsigned line, unsigned col)
{
  nc_attr k = key_of(NC_ATTR_LOC_FILE, NULL);
  k.floc.file = file;
  k.floc.line = line;
  k.floc.col = col;
  return unique(ctx, &k);
}

nc_attr *nc_loc_name(nc_context *ctx, nc_ident *name, nc_attr *child)
{
  nc_attr k = key_of(NC_ATTR_LOC_NAME, NULL);
  k.nloc.name = name;
  k.nloc.child = child ? child : ctx->unknown_loc;
  return unique(ctx, &k);
}

nc_attr *nc_loc_callsite(nc_context *ctx, nc_attr *callee, nc_attr *caller)
{
  nc_attr k = key_of(NC_ATTR_LOC_CALLSITE, NULL);
  k.cloc.callee = callee;
  k.cloc.caller = caller;
  return unique(ctx, &k);
}

nc_attr *nc_loc_fused(nc_context *ctx, size_t n, nc_attr *const *locs, nc_attr *meta)
{
  /* canonical as in MLIR's FusedLoc::get: unknowns dropped, fused locations
   * with the same metadata flattened, duplicates removed, and a single
   * location without metadata stands for itself */
  size_t cap = n, m = 0;
  for (size_t i = 0; i < n; i++)
    if (locs[i]->kind == NC_ATTR_LOC_FUSED && locs[i]->fused.meta == meta)
      cap += locs[i]->fused.n;
  nc_attr *buf[16], **set = cap <= 16 ? buf : nc_xmalloc(cap * sizeof *set);
  for (size_t i = 0; i < n; i++) {
    bool flatten = locs[i]->kind == NC_ATTR_LOC_FUSED && locs[i]->fused.meta == meta;
    size_t nk = flatten ? locs[i]->fused.n : 1;
    for (size_t j = 0; j < nk; j++) {
      nc_attr *l = flatten ? locs[i]->fused.locs[j] : locs[i];
      bool seen = l->kind == NC_ATTR_LOC_UNKNOWN;
      for (size_t k = 0; k < m && !seen; k++)
        seen = set[k] == l;
      if (!seen)
        set[m++] = l;
    }
  }
  nc_attr *r;
  if (m == 0 && !meta) {
    r = ctx->unknown_loc;
  } else if (m == 1 && !meta) {
    r = set[0];
  } else {
    if (m == 0)
      set[m++] = ctx->unknown_loc;
    nc_attr k = key_of(NC_ATTR_LOC_FUSED, NULL);
    k.fused.n = m;
    k.fused.locs = set;
    k.fused.meta = meta;
    r = unique(ctx, &k);
  }
  if (set != buf)
    free(set);
  return r;
}

nc_ident *nc_loc_get_file(const nc_attr *l) { return l->floc.file; }
unsigned nc_loc_get_line(const nc_attr *l) { return l->floc.line; }
unsigned nc_loc_get_col(const nc_attr *l) { return l->floc.col; }
nc_ident *nc_loc_get_name(const nc_attr *l) { return l->nloc.name; }
nc_attr *nc_loc_get_child(const nc_attr *l) { return l->nloc.child; }
nc_attr *nc_loc_get_callee(const nc_attr *l) { return l->cloc.callee; }
nc_attr *nc_loc_get_caller(const nc_attr *l) { return l->cloc.caller; }
size_t nc_loc_get_num_fused(const nc_attr *l) { return l->fused.n; }
nc_attr *nc_loc_get_fused(const nc_attr *l, size_t i) { return l->fused.locs[i]; }
nc_attr *nc_loc_get_metadata(const nc_attr *l) { return l->fused.meta; }

nc_location nc_location_unknown(void) { return (nc_location){0}; }
nc_location nc_location_from_attr(nc_attr *loc)
{
  return (nc_location){loc && loc->kind != NC_ATTR_LOC_UNKNOWN ? (uintptr_t)loc : 0};
}
nc_location nc_location_from_source(unsigned id, size_t offset)
{
  return (nc_location){((uintptr_t)offset << 24) | ((uintptr_t)id << 1) | 1u};
}
bool nc_location_is_unknown(nc_location loc) { return loc.raw == 0; }

nc_attr *nc_location_get_attr(nc_context *ctx, nc_location loc)
{
  if (!loc.raw)
    return ctx->unknown_loc;
  if (!(loc.raw & 1))
    return (nc_attr *)loc.raw;
  unsigned id = (unsigned)((loc.raw >> 1) & 0x7fffff), line, col;
  nc_context_get_line_col(ctx, id, loc.raw >> 24, &line, &col);
  return nc_loc_file(ctx, nc_context_get_source_name(ctx, id), line, col);
}

static bool first_file_loc(const nc_attr *a, nc_ident **file, unsigned *line, unsigned *col)
{
  switch (a->kind) {
  case NC_ATTR_LOC_FILE:
    *file = a->floc.file;
    *line = a->floc.line;
    *col = a->floc.col;
    return true;
  case NC_ATTR_LOC_NAME: return first_file_loc(a->nloc.child, file, line, col);
  case NC_ATTR_LOC_CALLSITE: return first_file_loc(a->cloc.callee, file, line, col);
  case NC_ATTR_LOC_FUSED:
    for (size_t i = 0; i < a->fused.n; i++)
      if (first_file_loc(a->fused.locs[i], file, line, col))
        return true;
    return false;
  default: return false;
  }
}

bool nc_location_get_file_line_col(nc_context *ctx, nc_location loc, nc_ident **file, unsigned *line, unsigned *col)
{
  if (!loc.raw)
    return false;
  if (loc.raw & 1) {
    unsigned id = (unsigned)((loc.raw >> 1) & 0x7fffff);
    nc_context_get_line_col(ctx, id, loc.raw >> 24, line, col);
    *file = nc_context_get_source_name(ctx, id);
    return true;
  }
  return first_file_loc((const nc_attr *)loc.raw, file, line, col);
}

bool nc_location_equal(nc_context *ctx, nc_location a, nc_location b)
{
  if (a.raw == b.raw)
    return true;
  return nc_location_get_attr(ctx, a) == nc_location_get_attr(ctx, b);
}
