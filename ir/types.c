/* types.c: construction, uniquing and queries of builtin types.
 *
 * Scalar types are cached in the context at creation, so the hot path of the
 * parser (i32, f32, index) never takes the uniquing lock.
 */
#include "ir-internal.h"

#include <stdlib.h>
#include <string.h>

void *nc_uniq_new(nc_context *ctx, size_t size);

static uint64_t hash_type_key(const nc_type *k)
{
  uint64_t h = nc_hash_combine(k->kind, ((uint64_t)k->signedness << 32) | k->width);
  switch (k->kind) {
  case NC_TYPE_FUNCTION:
    for (uint32_t i = 0; i < k->func.n_inputs + k->func.n_results; i++)
      h = nc_hash_combine(h, (uintptr_t)k->func.types[i]);
    h = nc_hash_combine(h, k->func.n_inputs);
    break;
  case NC_TYPE_TENSOR: case NC_TYPE_MEMREF: case NC_TYPE_VECTOR:
  case NC_TYPE_UNRANKED_TENSOR: case NC_TYPE_UNRANKED_MEMREF:
    h = nc_hash_combine(h, k->shaped.rank);
    if (k->shaped.rank)
      h = nc_hash_combine(h, nc_hash_bytes(k->shaped.shape, k->shaped.rank * sizeof(int64_t), 3));
    h = nc_hash_combine(h, (uintptr_t)k->shaped.elt);
    h = nc_hash_combine(h, (uintptr_t)k->shaped.encoding);
    h = nc_hash_combine(h, (uintptr_t)k->shaped.space);
    break;
  case NC_TYPE_TUPLE:
    for (uint32_t i = 0; i < k->tuple.n; i++)
      h = nc_hash_combine(h, (uintptr_t)k->tuple.types[i]);
    h = nc_hash_combine(h, k->tuple.n);
    break;
  case NC_TYPE_COMPLEX:
    h = nc_hash_combine(h, (uintptr_t)k->complex.elt);
    break;
  case NC_TYPE_DIALECT:
    h = nc_hash_combine(h, (uintptr_t)k->defined.def);
    h = nc_hash_combine(h, nc_dialect_storage_hash(k->defined.def, k->defined.storage));
    break;
  case NC_TYPE_OPAQUE:
    h = nc_hash_combine(h, (uintptr_t)k->opaque.dialect);
    h = nc_hash_combine(h, nc_hash_bytes(k->opaque.body, k->opaque.len, 5));
    break;
  default:
    break;
  }
  return h;
}

/* memcmp that accepts NULL for empty ranges (keys of empty tuples have no storage). */
static bool mem_eq(const void *a, const void *b, size_t n) { return !n || !memcmp(a, b, n); }

static bool type_eq(const void *stored, const void *key)
{
  const nc_type *a = stored, *b = key;
  if (a->kind != b->kind || a->width != b->width || a->signedness != b->signedness)
    return false;
  switch (a->kind) {
  case NC_TYPE_FUNCTION:
    return a->func.n_inputs == b->func.n_inputs && a->func.n_results == b->func.n_results &&
           mem_eq(a->func.types, b->func.types, (a->func.n_inputs + a->func.n_results) * sizeof(nc_type *));
  case NC_TYPE_TENSOR: case NC_TYPE_MEMREF: case NC_TYPE_VECTOR:
  case NC_TYPE_UNRANKED_TENSOR: case NC_TYPE_UNRANKED_MEMREF:
    return a->shaped.rank == b->shaped.rank && a->shaped.elt == b->shaped.elt &&
           a->shaped.encoding == b->shaped.encoding && a->shaped.space == b->shaped.space &&
           (!a->shaped.rank || mem_eq(a->shaped.shape, b->shaped.shape, a->shaped.rank * sizeof(int64_t)));
  case NC_TYPE_TUPLE:
    return a->tuple.n == b->tuple.n && mem_eq(a->tuple.types, b->tuple.types, a->tuple.n * sizeof(nc_type *));
  case NC_TYPE_COMPLEX:
    return a->complex.elt == b->complex.elt;
  case NC_TYPE_DIALECT:
    return a->defined.def == b->defined.def && nc_dialect_storage_equal(a->defined.def, a->defined.storage, b->defined.storage);
  case NC_TYPE_OPAQUE:
    return a->opaque.dialect == b->opaque.dialect && a->opaque.len == b->opaque.len &&
           mem_eq(a->opaque.body, b->opaque.body, a->opaque.len);
  default:
    return true;
  }
}

/* Set by nc_type_dialect_owned: what the key's storage points to may be adopted. */
static _Thread_local bool key_owned;

static void *type_make(nc_context *ctx, const void *key)
{
  const nc_type *k = key;
  nc_type *t = nc_uniq_new(ctx, sizeof *t);
  *t = *k;
  t->ctx = ctx;
  switch (k->kind) {
  case NC_TYPE_FUNCTION:
    t->func.types = nc_arena_memdup(ctx->arena, k->func.types, (k->func.n_inputs + k->func.n_results) * sizeof(nc_type *));
    break;
  case NC_TYPE_TENSOR: case NC_TYPE_MEMREF: case NC_TYPE_VECTOR:
    t->shaped.shape = nc_arena_memdup(ctx->arena, k->shaped.shape, k->shaped.rank * sizeof(int64_t));
    break;
  case NC_TYPE_TUPLE:
    t->tuple.types = nc_arena_memdup(ctx->arena, k->tuple.types, k->tuple.n * sizeof(nc_type *));
    break;
  case NC_TYPE_OPAQUE:
    t->opaque.body = nc_arena_strndup(ctx->arena, k->opaque.body, k->opaque.len);
    break;
  case NC_TYPE_DIALECT:
    t->defined.storage = nc_dialect_storage_clone(ctx, k->defined.def, k->defined.storage, key_owned);
    key_owned = false;
    break;
  default:
    break;
  }
  return t;
}

static nc_type *unique(nc_context *ctx, nc_type *key)
{
  key->hash = hash_type_key(key); /* copied by type_make under the lock: no racy write afterwards */
  return nc_uniq_get(ctx, &ctx->types, key->hash, key, type_eq, type_make);
}

static nc_type *simple(nc_context *ctx, nc_type_kind kind, unsigned width, nc_signedness s)
{
  nc_type k;
  memset(&k, 0, sizeof k);
  k.kind = (uint8_t)kind;
  k.width = width;
  k.signedness = (uint8_t)s;
  return unique(ctx, &k);
}

void nc_context_init_builtins(nc_context *ctx);
void nc_attrs_init_builtins(nc_context *ctx);
void nc_context_init_builtins(nc_context *ctx)
{
  for (int s = 0; s < 3; s++)
    for (unsigned w = 1; w <= NC_MAX_INT_WIDTH; w++)
      ctx->int_types[s][w] = simple(ctx, NC_TYPE_INTEGER, w, (nc_signedness)s);
  ctx->index_type = simple(ctx, NC_TYPE_INDEX, 64, NC_SIGNLESS);
  ctx->f16 = simple(ctx, NC_TYPE_F16, 16, NC_SIGNLESS);
  ctx->bf16 = simple(ctx, NC_TYPE_BF16, 16, NC_SIGNLESS);
  ctx->f32 = simple(ctx, NC_TYPE_F32, 32, NC_SIGNLESS);
  ctx->f64 = simple(ctx, NC_TYPE_F64, 64, NC_SIGNLESS);
  ctx->none = simple(ctx, NC_TYPE_NONE, 0, NC_SIGNLESS);
  nc_attrs_init_builtins(ctx);
}

nc_type *nc_type_integer(nc_context *ctx, unsigned width, nc_signedness s)
{
  if (width < 1 || width > NC_MAX_INT_WIDTH || (unsigned)s > NC_UNSIGNED)
    return NULL;
  return ctx->int_types[s][width];
}

nc_type *nc_type_index(nc_context *ctx) { return ctx->index_type; }
nc_type *nc_type_f16(nc_context *ctx) { return ctx->f16; }
nc_type *nc_type_bf16(nc_context *ctx) { return ctx->bf16; }
nc_type *nc_type_f32(nc_context *ctx) { return ctx->f32; }
nc_type *nc_type_f64(nc_context *ctx) { return ctx->f64; }
nc_type *nc_type_none(nc_context *ctx) { return ctx->none; }

nc_type *nc_type_function(nc_context *ctx, size_t ni, nc_type *const *in, size_t nr, nc_type *const *res)
{
  nc_type *buf[16];
  nc_type **types = ni + nr <= 16 ? buf : nc_xmalloc((ni + nr) * sizeof *types);
  if (ni)
    memcpy(types, in, ni * sizeof *types);
  if (nr)
    memcpy(types + ni, res, nr * sizeof *types);
  nc_type k;
  memset(&k, 0, sizeof k);
  k.kind = NC_TYPE_FUNCTION;
  k.func.n_inputs = (uint32_t)ni;
  k.func.n_results = (uint32_t)nr;
  k.func.types = types;
  nc_type *t = unique(ctx, &k);
  if (types != buf)
    free(types);
  return t;
}

static nc_type *shaped(nc_context *ctx, nc_type_kind kind, size_t rank, const int64_t *shape, nc_type *elt,
                       nc_attr *enc, nc_attr *space)
{
  if (!elt || rank > NC_MAX_RANK)
    return NULL;
  for (size_t i = 0; i < rank; i++)
    if (shape[i] < 0 && shape[i] != NC_DYNAMIC)
      return NULL;
  nc_type k;
  memset(&k, 0, sizeof k);
  k.kind = (uint8_t)kind;
  k.shaped.rank = (uint32_t)rank;
  k.shaped.shape = (int64_t *)shape;
  k.shaped.elt = elt;
  k.shaped.encoding = enc;
  k.shaped.space = space;
  return unique(ctx, &k);
}

nc_type *nc_type_tensor(nc_context *ctx, size_t rank, const int64_t *shape, nc_type *elt, nc_attr *encoding)
{
  return shaped(ctx, NC_TYPE_TENSOR, rank, shape, elt, encoding, NULL);
}

nc_type *nc_type_unranked_tensor(nc_context *ctx, nc_type *elt)
{
  return shaped(ctx, NC_TYPE_UNRANKED_TENSOR, 0, NULL, elt, NULL, NULL);
}

/* MLIR drops the default memory space (integer 0) ... */
static nc_attr *canonical_space(nc_attr *space)
{
  return space && space->kind == NC_ATTR_INTEGER && space->i == 0 ? NULL : space;
}

/* ... and identity layouts `affine_map<(d0, d1) -> (d0, d1)>`, so a memref
 * has one spelling. */
static bool is_identity_map(const nc_attr *a, size_t rank)
{
  if (!a || a->kind != NC_ATTR_BUILTIN_OPAQUE || strcmp(a->opaque.dialect->str, "affine_map"))
    return false;
  char buf[512];
  size_t n = 0;
  for (size_t i = 0; i < a->opaque.len; i++)
    if (a->opaque.body[i] != ' ' && a->opaque.body[i] != '\n' && a->opaque.body[i] != '\t') {
      if (n == sizeof buf - 1)
        return false;
      buf[n++] = a->opaque.body[i];
    }
  buf[n] = 0;
  const char *arrow = strstr(buf, ")->(");
  size_t half = arrow ? (size_t)(arrow - buf) + 1 : 0;
  if (!arrow || buf[0] != '(' || buf[n - 1] != ')' || n != 2 * half + 2 || memcmp(buf, arrow + 3, half))
    return false;
  size_t dims = half > 2 ? 1 : 0; /* `(a, b)` has one comma less than names */
  for (size_t i = 0; i < half; i++)
    dims += buf[i] == ',';
  for (size_t i = 1; i < half - 1; i++) /* plain names only: no expressions, symbols or duplicates checked by text */
    if (!(buf[i] == ',' || buf[i] == '_' || (buf[i] >= 'a' && buf[i] <= 'z') || (buf[i] >= 'A' && buf[i] <= 'Z') ||
          (buf[i] >= '0' && buf[i] <= '9')))
      return false;
  return dims == rank;
}

nc_type *nc_type_memref(nc_context *ctx, size_t rank, const int64_t *shape, nc_type *elt, nc_attr *layout,
                        nc_attr *space)
{
  if (is_identity_map(layout, rank))
    layout = NULL;
  return shaped(ctx, NC_TYPE_MEMREF, rank, shape, elt, layout, canonical_space(space));
}

nc_type *nc_type_unranked_memref(nc_context *ctx, nc_type *elt, nc_attr *space)
{
  return shaped(ctx, NC_TYPE_UNRANKED_MEMREF, 0, NULL, elt, NULL, canonical_space(space));
}

nc_type *nc_type_vector(nc_context *ctx, size_t rank, const int64_t *shape, nc_type *elt)
{
  for (size_t i = 0; i < rank; i++)
    if (shape[i] <= 0)
      return NULL;
  return rank ? shaped(ctx, NC_TYPE_VECTOR, rank, shape, elt, NULL, NULL) : NULL;
}

nc_type *nc_type_tuple(nc_context *ctx, size_t n, nc_type *const *types)
{
  nc_type k;
  memset(&k, 0, sizeof k);
  k.kind = NC_TYPE_TUPLE;
  k.tuple.n = (uint32_t)n;
  k.tuple.types = (nc_type **)types;
  return unique(ctx, &k);
}

nc_type *nc_type_complex(nc_context *ctx, nc_type *elt)
{
  nc_type k;
  memset(&k, 0, sizeof k);
  k.kind = NC_TYPE_COMPLEX;
  k.complex.elt = elt;
  return unique(ctx, &k);
}

nc_type *nc_type_opaque(nc_context *ctx, nc_ident *dialect, const char *body, size_t len)
{
  nc_type k;
  memset(&k, 0, sizeof k);
  k.kind = NC_TYPE_OPAQUE;
  k.opaque.dialect = dialect;
  k.opaque.body = body;
  k.opaque.len = len;
  return unique(ctx, &k);
}

nc_type_kind nc_type_get_kind(const nc_type *t) { return (nc_type_kind)t->kind; }
nc_context *nc_type_get_context(const nc_type *t) { return t->ctx; }
bool nc_type_is_integer(const nc_type *t) { return t->kind == NC_TYPE_INTEGER; }
bool nc_type_is_integer_of_width(const nc_type *t, unsigned w) { return t->kind == NC_TYPE_INTEGER && t->width == w; }
bool nc_type_is_signless_integer(const nc_type *t) { return t->kind == NC_TYPE_INTEGER && t->signedness == NC_SIGNLESS; }
bool nc_type_is_index(const nc_type *t) { return t->kind == NC_TYPE_INDEX; }
bool nc_type_is_float_kind(int k) { return k == NC_TYPE_F16 || k == NC_TYPE_BF16 || k == NC_TYPE_F32 || k == NC_TYPE_F64; }
bool nc_type_is_float(const nc_type *t) { return nc_type_is_float_kind(t->kind); }
unsigned nc_type_get_width(const nc_type *t)
{
  return t->kind == NC_TYPE_INTEGER || t->kind == NC_TYPE_INDEX || nc_type_is_float(t) ? t->width : 0;
}
nc_signedness nc_type_get_signedness(const nc_type *t) { return (nc_signedness)t->signedness; }

bool nc_type_is_shaped(const nc_type *t)
{
  return t->kind == NC_TYPE_TENSOR || t->kind == NC_TYPE_UNRANKED_TENSOR || t->kind == NC_TYPE_MEMREF ||
         t->kind == NC_TYPE_UNRANKED_MEMREF || t->kind == NC_TYPE_VECTOR;
}
bool nc_type_is_tensor(const nc_type *t) { return t->kind == NC_TYPE_TENSOR || t->kind == NC_TYPE_UNRANKED_TENSOR; }
bool nc_type_has_rank(const nc_type *t)
{
  return t->kind == NC_TYPE_TENSOR || t->kind == NC_TYPE_MEMREF || t->kind == NC_TYPE_VECTOR;
}
size_t nc_type_get_rank(const nc_type *t) { return nc_type_has_rank(t) ? t->shaped.rank : 0; }
const int64_t *nc_type_get_shape(const nc_type *t) { return nc_type_has_rank(t) ? t->shaped.shape : NULL; }

bool nc_type_has_static_shape(const nc_type *t)
{
  if (!nc_type_has_rank(t))
    return false;
  for (uint32_t i = 0; i < t->shaped.rank; i++)
    if (t->shaped.shape[i] == NC_DYNAMIC)
      return false;
  return true;
}

int64_t nc_type_get_num_elements(const nc_type *t)
{
  if (!nc_type_has_static_shape(t))
    return -1;
  int64_t n = 1;
  for (uint32_t i = 0; i < t->shaped.rank; i++)
    if (__builtin_mul_overflow(n, t->shaped.shape[i], &n))
      return -1;
  return n;
}

nc_type *nc_type_get_element_type(const nc_type *t)
{
  if (nc_type_is_shaped(t))
    return t->shaped.elt;
  if (t->kind == NC_TYPE_COMPLEX)
    return t->complex.elt;
  return (nc_type *)t;
}

nc_attr *nc_type_get_encoding(const nc_type *t) { return nc_type_is_shaped(t) ? t->shaped.encoding : NULL; }
nc_attr *nc_type_get_memory_space(const nc_type *t) { return nc_type_is_shaped(t) ? t->shaped.space : NULL; }

nc_type *nc_type_clone_shaped(const nc_type *t, size_t rank, const int64_t *shape, nc_type *elt)
{
  switch (t->kind) {
  case NC_TYPE_TENSOR: case NC_TYPE_UNRANKED_TENSOR:
    return nc_type_tensor(t->ctx, rank, shape, elt, t->kind == NC_TYPE_TENSOR ? t->shaped.encoding : NULL);
  case NC_TYPE_MEMREF: case NC_TYPE_UNRANKED_MEMREF:
    return nc_type_memref(t->ctx, rank, shape, elt, t->kind == NC_TYPE_MEMREF ? t->shaped.encoding : NULL,
                          t->shaped.space);
  case NC_TYPE_VECTOR:
    return nc_type_vector(t->ctx, rank, shape, elt);
  default:
    return NULL;
  }
}

size_t nc_type_get_num_inputs(const nc_type *t) { return t->kind == NC_TYPE_FUNCTION ? t->func.n_inputs : 0; }
size_t nc_type_get_num_results(const nc_type *t) { return t->kind == NC_TYPE_FUNCTION ? t->func.n_results : 0; }
nc_type *nc_type_get_input(const nc_type *t, size_t i) { return t->func.types[i]; }
nc_type *nc_type_get_result(const nc_type *t, size_t i) { return t->func.types[t->func.n_inputs + i]; }
size_t nc_type_get_num_tuple_types(const nc_type *t) { return t->kind == NC_TYPE_TUPLE ? t->tuple.n : 0; }
nc_type *nc_type_get_tuple_type(const nc_type *t, size_t i) { return t->tuple.types[i]; }
nc_ident *nc_type_get_dialect(const nc_type *t)
{
  return t->kind == NC_TYPE_OPAQUE ? t->opaque.dialect : t->kind == NC_TYPE_DIALECT ? t->defined.dialect : NULL;
}
const char *nc_type_get_body(const nc_type *t, size_t *len)
{
  if (t->kind != NC_TYPE_OPAQUE)
    return NULL;
  if (len)
    *len = t->opaque.len;
  return t->opaque.body;
}

/* --- dialect types with storage (dialect_attrs.h) ------------------------------------------- */

static nc_type *dialect_type(nc_context *ctx, const nc_dialect_type_def *def, void *storage, bool owned)
{
  nc_ident *ns = nc_dialect_storage_def_namespace(ctx, def, true);
  if (!ns) {
    if (owned && def->destroy)
      def->destroy(storage, def->user_data);
    return NULL;
  }
  nc_type k;
  memset(&k, 0, sizeof k);
  k.kind = NC_TYPE_DIALECT;
  k.defined.dialect = ns;
  k.defined.def = def;
  k.defined.storage = storage;
  key_owned = owned;
  nc_type *r = unique(ctx, &k);
  if (key_owned) { /* an equal type existed: release what the key owns */
    key_owned = false;
    if (def->destroy)
      def->destroy(storage, def->user_data);
  }
  return r;
}

nc_type *nc_type_dialect(nc_context *ctx, const nc_dialect_type_def *def, const void *storage)
{
  return dialect_type(ctx, def, (void *)storage, false);
}

nc_type *nc_type_dialect_owned(nc_context *ctx, const nc_dialect_type_def *def, void *storage)
{
  return dialect_type(ctx, def, storage, true);
}

nc_type *nc_type_dialect_checked(nc_context *ctx, nc_location loc, const nc_dialect_type_def *def, const void *storage)
{
  if (def->verify && !def->verify(ctx, loc, storage, def->user_data))
    return NULL;
  return nc_type_dialect(ctx, def, storage);
}

bool nc_type_isa(const nc_type *t, const nc_dialect_type_def *def)
{
  return t && t->kind == NC_TYPE_DIALECT && t->defined.def == def;
}

const nc_dialect_type_def *nc_type_dialect_get_def(const nc_type *t)
{
  return t && t->kind == NC_TYPE_DIALECT ? t->defined.def : NULL;
}

const void *nc_type_dialect_get_storage(const nc_type *t) { return t->defined.storage; }
