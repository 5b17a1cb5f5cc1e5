/* context.c: the context, uniquing tables, interned identifiers, dialect and
 * op registration, resources, source buffers and the IR memory pool.
 *
 * One mutex guards all uniquing tables: lookups are short, and passes that
 * run in parallel create few new types or attributes. IR objects come from
 * per-thread pools (size classes with free lists carved from arenas), so
 * threads never contend when they create or erase ops.
 */
#include "ir-internal.h"
#include "nc/support/mapped.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* --- uniquing tables -------------------------------------------------------------- */

static uint64_t stored_hash(const void *p) { return nc_uniq_hash_of(p); }

/* The hash an object of `t` keeps: all 64 bits, or the low 32 (hash_inline). */
static inline uint64_t table_hash(const nc_uniq_table *t, const void *p)
{
  uint32_t h;
  if (!t->hash_inline)
    return stored_hash(p);
  memcpy(&h, (const char *)p + 4, sizeof h);
  return h;
}

/* Uniqued objects are allocated with an 8-byte hash header in front. */
static void *uniq_alloc(nc_context *ctx, size_t size, uint64_t hash)
{
  uint64_t *p = nc_arena_alloc_aligned(ctx->arena, size + 8, 8);
  p[0] = hash;
  return p + 1;
}

/* Slots hold pointers tagged in their top 16 bits (unused by user-space
 * addresses) with the top bits of the object's hash, so a probe skips
 * non-matching slots without touching the object: with millions of uniqued
 * attributes, that dereference was the parser's main cache miss. A pointer
 * that uses those bits is stored untagged (tag 0) and always compared. */
#define TAG_SHIFT 48
static inline void *slot_ptr(void *s) { return (void *)((uintptr_t)s & (((uintptr_t)1 << TAG_SHIFT) - 1)); }
static inline uintptr_t slot_tag(uint64_t hash) { return (uintptr_t)((hash >> TAG_SHIFT) | 1) << TAG_SHIFT; }
static inline void *tag_slot(void *e, uint64_t hash)
{
  return ((uintptr_t)e >> TAG_SHIFT) ? e : (void *)((uintptr_t)e | slot_tag(hash));
}

void *nc_uniq_slot(const nc_uniq_table *t, size_t i) { return t->slots[i] ? slot_ptr(t->slots[i]) : NULL; }

static void uniq_grow(nc_uniq_table *t)
{
  size_t ncap = t->cap ? t->cap * 2 : 256;
  void **slots = nc_xcalloc(ncap, sizeof *slots);
  for (size_t i = 0; i < t->cap; i++) {
    void *s = t->slots[i];
    if (!s)
      continue;
    size_t j = table_hash(t, slot_ptr(s)) & (ncap - 1);
    while (slots[j])
      j = (j + 1) & (ncap - 1);
    slots[j] = s;
  }
  free(t->slots);
  t->slots = slots;
  t->cap = ncap;
}

void *nc_uniq_get(nc_context *ctx, nc_uniq_table *t, uint64_t hash, const void *key, nc_uniq_eq_fn eq,
                  nc_uniq_make_fn make)
{
  pthread_mutex_lock(&ctx->lock);
  if ((t->count + 1) * 4 > t->cap * 3)
    uniq_grow(t);
  size_t mask = t->cap - 1, i = hash & mask;
  uintptr_t tag = slot_tag(hash);
  void *s;
  while ((s = t->slots[i])) {
    uintptr_t st = (uintptr_t)s & ~(((uintptr_t)1 << TAG_SHIFT) - 1);
    if (st == tag || !st) {
      void *e = slot_ptr(s);
      if (table_hash(t, e) == (t->hash_inline ? (uint32_t)hash : hash) && eq(e, key)) {
        pthread_mutex_unlock(&ctx->lock);
        return e;
      }
    }
    i = (i + 1) & mask;
  }
  void *e = make(ctx, key);
  if (t->hash_inline) {
    uint32_t h = (uint32_t)hash;
    memcpy((char *)e + 4, &h, sizeof h);
  } else {
    ((uint64_t *)e)[-1] = hash;
  }
  t->slots[i] = tag_slot(e, hash);
  t->count++;
  pthread_mutex_unlock(&ctx->lock);
  return e;
}

/* Objects built by `make` callbacks must be allocated with this. */
void *nc_uniq_new(nc_context *ctx, size_t size);
void *nc_uniq_new(nc_context *ctx, size_t size) { return uniq_alloc(ctx, size, 0); }
void *nc_uniq_new_inline(nc_context *ctx, size_t size) { return nc_arena_alloc_aligned(ctx->arena, size, 8); }

/* --- identifiers ----------------------------------------------------------------------- */

typedef struct ident_key { const char *s; size_t len; uint64_t hash; } ident_key;

static bool ident_eq(const void *stored, const void *key)
{
  const nc_ident *id = stored;
  const ident_key *k = key;
  return id->len == k->len && memcmp(id->str, k->s, k->len) == 0;
}

static void *ident_make(nc_context *ctx, const void *key)
{
  const ident_key *k = key;
  nc_ident *id = uniq_alloc(ctx, sizeof(nc_ident) + k->len + 1, 0);
  id->len = (uint32_t)k->len;
  id->hash = k->hash;
  id->op_info = NULL;
  memcpy(id->str, k->s, k->len);
  id->str[k->len] = 0;
  return id;
}

nc_ident *nc_ident_get(nc_context *ctx, const char *str, size_t len)
{
  uint64_t h = nc_hash_bytes(str, len, 0x1d);
  ident_key k = {str, len, h};
  return nc_uniq_get(ctx, &ctx->idents, h, &k, ident_eq, ident_make);
}

nc_ident *nc_ident_get_cstr(nc_context *ctx, const char *str) { return nc_ident_get(ctx, str, strlen(str)); }
const char *nc_ident_str(const nc_ident *id) { return id->str; }
size_t nc_ident_len(const nc_ident *id) { return id->len; }
uint64_t nc_ident_hash(const nc_ident *id) { return id->hash; }

/* --- IR pool ------------------------------------------------------------------------------ */

#define POOL_GRAIN 16
#define POOL_CLASSES 64 /* up to 1024 bytes */

struct nc_pool {
  nc_pool *next;
  nc_arena *arena;
  void *free[POOL_CLASSES + 1];
};

struct nc_big_alloc {
  nc_big_alloc *prev, *next;
  size_t _pad[2];
};

static nc_pool *current_pool(nc_context *ctx)
{
  nc_pool *p = pthread_getspecific(ctx->pool_key);
  if (NC_LIKELY(p))
    return p;
  p = nc_xcalloc(1, sizeof *p);
  p->arena = nc_arena_create();
  pthread_mutex_lock(&ctx->lock);
  p->next = ctx->pools;
  ctx->pools = p;
  pthread_mutex_unlock(&ctx->lock);
  pthread_setspecific(ctx->pool_key, p);
  return p;
}

void *nc_ctx_alloc(nc_context *ctx, size_t size)
{
  size_t cls = (size + POOL_GRAIN - 1) / POOL_GRAIN;
  if (cls == 0)
    cls = 1;
  if (cls <= POOL_CLASSES) {
    nc_pool *p = current_pool(ctx);
    void *m = p->free[cls];
    if (m) {
      p->free[cls] = *(void **)m;
      return m;
    }
    return nc_arena_alloc(p->arena, cls * POOL_GRAIN);
  }
  nc_big_alloc *b = nc_xmalloc(sizeof *b + size);
  pthread_mutex_lock(&ctx->lock);
  b->prev = NULL;
  b->next = ctx->big_allocs;
  if (b->next)
    b->next->prev = b;
  ctx->big_allocs = b;
  pthread_mutex_unlock(&ctx->lock);
  return b + 1;
}

void *nc_ctx_calloc(nc_context *ctx, size_t size)
{
  void *p = nc_ctx_alloc(ctx, size);
  memset(p, 0, size);
  return p;
}

void nc_ctx_free(nc_context *ctx, void *m, size_t size)
{
  if (!m)
    return;
  size_t cls = (size + POOL_GRAIN - 1) / POOL_GRAIN;
  if (cls == 0)
    cls = 1;
  if (cls <= POOL_CLASSES) {
    nc_pool *p = current_pool(ctx);
    *(void **)m = p->free[cls];
    p->free[cls] = m;
    return;
  }
  nc_big_alloc *b = (nc_big_alloc *)m - 1;
  pthread_mutex_lock(&ctx->lock);
  if (b->prev)
    b->prev->next = b->next;
  else
    ctx->big_allocs = b->next;
  if (b->next)
    b->next->prev = b->prev;
  pthread_mutex_unlock(&ctx->lock);
  free(b);
}

/* --- context --------------------------------------------------------------------------------- */

extern const nc_dialect_def nc_builtin_dialect;
void nc_context_init_builtins(nc_context *ctx); /* types.c/attrs.c caches */

/* Live contexts by id: an attribute names its context with 2 bytes instead
 * of an 8-byte pointer (a 300k-op file has 600k attributes or more). */
#define MAX_CONTEXTS 65536
static nc_context *live_contexts[MAX_CONTEXTS];
static pthread_mutex_t live_lock = PTHREAD_MUTEX_INITIALIZER;

nc_context *nc_context_by_id(uint16_t id) { return live_contexts[id]; }

static uint16_t context_id_take(nc_context *ctx)
{
  pthread_mutex_lock(&live_lock);
  size_t i = 0;
  while (i < MAX_CONTEXTS && live_contexts[i])
    i++;
  if (i == MAX_CONTEXTS)
    NC_UNREACHABLE("more than 65536 live nc contexts");
  live_contexts[i] = ctx;
  pthread_mutex_unlock(&live_lock);
  return (uint16_t)i;
}

static void context_id_release(nc_context *ctx)
{
  pthread_mutex_lock(&live_lock);
  live_contexts[ctx->id] = NULL;
  pthread_mutex_unlock(&live_lock);
}

nc_context *nc_context_create(void)
{
  nc_context *ctx = nc_xcalloc(1, sizeof *ctx);
  ctx->id = context_id_take(ctx);
  ctx->attrs.hash_inline = true;
  pthread_mutexattr_t attr;
  pthread_mutexattr_init(&attr);
  pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_RECURSIVE);
  pthread_mutex_init(&ctx->lock, &attr);
  pthread_mutexattr_destroy(&attr);
  ctx->arena = nc_arena_create();
  if (pthread_key_create(&ctx->pool_key, NULL) != 0)
    NC_UNREACHABLE("out of pthread keys");
  nc_context_init_builtins(ctx);
  nc_context_register_dialect(ctx, &nc_builtin_dialect);
  return ctx;
}

static void resource_let_go(nc_resource *r);

void nc_context_destroy(nc_context *ctx)
{
  if (!ctx)
    return;
  nc_thread_pool_destroy(ctx->thread_pool); /* its workers are idle: no job outlives its call */
  for (size_t i = 0; i < ctx->idents.cap; i++) {
    nc_ident *id = ctx->idents.slots ? nc_uniq_slot(&ctx->idents, i) : NULL;
    if (id && id->op_info) {
      if (id->op_info->format)
        nc_format_destroy(id->op_info->format);
      free(id->op_info->attr_names);
      free(id->op_info);
    }
  }
  for (size_t i = 0; i < ctx->resources.cap; i++) {
    nc_resource *r = ctx->resources.slots ? nc_uniq_slot(&ctx->resources, i) : NULL;
    if (r)
      resource_let_go(r);
  }
  for (size_t i = 0; i < ctx->attrs.cap; i++) {
    nc_attr *a = ctx->attrs.slots ? nc_uniq_slot(&ctx->attrs, i) : NULL;
    if (a && a->kind == NC_ATTR_DENSE_ELEMENTS)
      free((void *)a->dense.data); /* dense data is malloc'ed (can be huge) */
    else if (a && a->kind == NC_ATTR_DIALECT && a->defined.def->destroy)
      a->defined.def->destroy(a->defined.storage, a->defined.def->user_data);
  }
  for (size_t i = 0; i < ctx->types.cap; i++) {
    nc_type *t = ctx->types.slots ? nc_uniq_slot(&ctx->types, i) : NULL;
    if (t && t->kind == NC_TYPE_DIALECT && t->defined.def->destroy)
      t->defined.def->destroy(t->defined.storage, t->defined.def->user_data);
  }
  for (nc_pool *p = ctx->pools, *n; p; p = n) {
    n = p->next;
    nc_arena_destroy(p->arena);
    free(p);
  }
  for (nc_big_alloc *b = ctx->big_allocs, *n; b; b = n) {
    n = b->next;
    free(b);
  }
  for (size_t i = 0; i < ctx->n_sources; i++) {
    nc_source *s = &ctx->sources[i];
    if (s->mapped) {
      nc_mapped_file_remove(s->data);
      munmap((void *)s->data, s->len);
    }
    else if (s->owned)
      free((void *)s->data);
    free(s->lines);
  }
  free(ctx->sources);
  free(ctx->whole_file_reads);
  free(ctx->checked.slots);
  free(ctx->facts.slots);
  free(ctx->handlers);
  free(ctx->dialects);
  free(ctx->idents.slots);
  free(ctx->types.slots);
  free(ctx->attrs.slots);
  free(ctx->resources.slots);
  pthread_key_delete(ctx->pool_key);
  pthread_mutex_destroy(&ctx->lock);
  context_id_release(ctx);
  nc_arena_destroy(ctx->arena);
  free(ctx);
}

#define MAX_WHOLE_FILE_READS 64

void nc_context_note_whole_file_read(nc_context *ctx, nc_ident *file, nc_ident *source)
{
  if (file == source)
    return;
  pthread_mutex_lock(&ctx->lock);
  size_t i = 0;
  while (i < ctx->n_whole_file_reads && ctx->whole_file_reads[i].file != file)
    i++;
  if (i == ctx->n_whole_file_reads && i < MAX_WHOLE_FILE_READS) {
    if (!ctx->whole_file_reads)
      ctx->whole_file_reads = nc_xcalloc(MAX_WHOLE_FILE_READS, sizeof *ctx->whole_file_reads);
    ctx->whole_file_reads[ctx->n_whole_file_reads].file = file;
    ctx->whole_file_reads[ctx->n_whole_file_reads++].source = source;
  }
  pthread_mutex_unlock(&ctx->lock);
}

nc_ident *nc_context_get_whole_file_reader(nc_context *ctx, nc_ident *file)
{
  nc_ident *r = NULL;
  pthread_mutex_lock(&ctx->lock);
  for (size_t i = 0; i < ctx->n_whole_file_reads && !r; i++)
    if (ctx->whole_file_reads[i].file == file)
      r = ctx->whole_file_reads[i].source;
  pthread_mutex_unlock(&ctx->lock);
  return r;
}

/* Fibonacci hashing of a pointer (its low bits are alignment zeros). */
static size_t checked_slot(const void *key, size_t cap)
{
  return (size_t)(((uint64_t)(uintptr_t)key * 0x9E3779B97F4A7C15ull) >> 20) & (cap - 1);
}

static bool checked_find(nc_context *ctx, const void *key, size_t *slot)
{
  size_t cap = ctx->checked.cap, i = checked_slot(key, cap);
  for (; ctx->checked.slots[i]; i = (i + 1) & (cap - 1))
    if (ctx->checked.slots[i] == key)
      return *slot = i, true;
  return *slot = i, false;
}

bool nc_context_check_passed(nc_context *ctx, const void *key)
{
  pthread_mutex_lock(&ctx->lock);
  size_t i;
  bool found = ctx->checked.cap && checked_find(ctx, key, &i);
  pthread_mutex_unlock(&ctx->lock);
  return found;
}

void nc_context_note_check_passed(nc_context *ctx, const void *key)
{
  pthread_mutex_lock(&ctx->lock);
  if ((ctx->checked.count + 1) * 2 > ctx->checked.cap) {
    size_t old_cap = ctx->checked.cap, i;
    const void **old = ctx->checked.slots;
    ctx->checked.cap = old_cap ? old_cap * 2 : 64;
    ctx->checked.slots = nc_xcalloc(ctx->checked.cap, sizeof *ctx->checked.slots);
    for (size_t j = 0; j < old_cap; j++)
      if (old[j] && !checked_find(ctx, old[j], &i))
        ctx->checked.slots[i] = old[j];
    free(old);
  }
  size_t i;
  if (!checked_find(ctx, key, &i)) {
    ctx->checked.slots[i] = key;
    ctx->checked.count++;
  }
  pthread_mutex_unlock(&ctx->lock);
}

/* One remembered fact: (key, kind) -> value; an empty slot has key NULL. */
struct nc_memo_slot {
  const void *key, *kind;
  int64_t value;
};

static bool fact_find(nc_context *ctx, const void *key, const void *kind, size_t *slot)
{
  size_t cap = ctx->facts.cap, i = checked_slot(key, cap) ^ (checked_slot(kind, cap) >> 1);
  for (; ctx->facts.slots[i].key; i = (i + 1) & (cap - 1))
    if (ctx->facts.slots[i].key == key && ctx->facts.slots[i].kind == kind)
      return *slot = i, true;
  return *slot = i, false;
}

bool nc_context_get_fact(nc_context *ctx, const void *key, const void *kind, int64_t *value)
{
  pthread_mutex_lock(&ctx->lock);
  size_t i;
  bool found = ctx->facts.cap && fact_find(ctx, key, kind, &i);
  if (found)
    *value = ctx->facts.slots[i].value;
  pthread_mutex_unlock(&ctx->lock);
  return found;
}

void nc_context_note_fact(nc_context *ctx, const void *key, const void *kind, int64_t value)
{
  pthread_mutex_lock(&ctx->lock);
  if ((ctx->facts.count + 1) * 2 > ctx->facts.cap) {
    size_t old_cap = ctx->facts.cap, i;
    struct nc_memo_slot *old = ctx->facts.slots;
    ctx->facts.cap = old_cap ? old_cap * 2 : 64;
    ctx->facts.slots = nc_xcalloc(ctx->facts.cap, sizeof *ctx->facts.slots);
    for (size_t j = 0; j < old_cap; j++)
      if (old[j].key && !fact_find(ctx, old[j].key, old[j].kind, &i))
        ctx->facts.slots[i] = old[j];
    free(old);
  }
  size_t i;
  if (!fact_find(ctx, key, kind, &i))
    ctx->facts.count++;
  ctx->facts.slots[i] = (struct nc_memo_slot){key, kind, value};
  pthread_mutex_unlock(&ctx->lock);
}

void nc_context_set_allow_unregistered_dialects(nc_context *ctx, bool allow) { ctx->allow_unregistered = allow; }
bool nc_context_get_allow_unregistered_dialects(nc_context *ctx) { return ctx->allow_unregistered; }

/* --- dialects and op infos ------------------------------------------------------------ */

bool nc_context_register_dialect(nc_context *ctx, const nc_dialect_def *def)
{
  pthread_mutex_lock(&ctx->lock);
  for (size_t i = 0; i < ctx->n_dialects; i++) {
    if (ctx->dialects[i] == def) {
      pthread_mutex_unlock(&ctx->lock);
      return true;
    }
    if (strcmp(ctx->dialects[i]->name, def->name) == 0) {
      pthread_mutex_unlock(&ctx->lock);
      return false;
    }
  }
  if (ctx->n_dialects == ctx->cap_dialects) {
    ctx->cap_dialects = ctx->cap_dialects ? ctx->cap_dialects * 2 : 8;
    ctx->dialects = nc_xrealloc(ctx->dialects, ctx->cap_dialects * sizeof *ctx->dialects);
  }
  ctx->dialects[ctx->n_dialects++] = def;
  /* op infos created before registration (e.g. parsed as unregistered) are
   * refreshed lazily by nc_context_get_op_info */
  pthread_mutex_unlock(&ctx->lock);
  for (size_t i = 0; i < def->n_dependents; i++)
    nc_context_register_dialect(ctx, def->dependents[i]);
  return true;
}

const nc_dialect_def *nc_context_lookup_dialect(nc_context *ctx, const char *ns, size_t len)
{
  const nc_dialect_def *found = NULL;
  pthread_mutex_lock(&ctx->lock);
  for (size_t i = 0; i < ctx->n_dialects && !found; i++)
    if (strlen(ctx->dialects[i]->name) == len && memcmp(ctx->dialects[i]->name, ns, len) == 0)
      found = ctx->dialects[i];
  pthread_mutex_unlock(&ctx->lock);
  return found;
}

void nc_context_foreach_dialect(nc_context *ctx, void (*fn)(const nc_dialect_def *, void *), void *user)
{
  for (size_t i = 0; i < ctx->n_dialects; i++)
    fn(ctx->dialects[i], user);
}

static const nc_op_def *find_def(const nc_dialect_def *d, const char *name, size_t len)
{
  for (size_t i = 0; i < d->n_ops; i++)
    if (strlen(d->ops[i].name) == len && memcmp(d->ops[i].name, name, len) == 0)
      return &d->ops[i];
  return NULL;
}

const nc_op_def *nc_context_lookup_op_def(nc_context *ctx, const char *name, size_t len)
{
  const char *dot = memchr(name, '.', len);
  if (!dot)
    return NULL;
  const nc_dialect_def *d = nc_context_lookup_dialect(ctx, name, (size_t)(dot - name));
  return d ? find_def(d, name, len) : NULL;
}

nc_op_info *nc_context_get_op_info(nc_context *ctx, nc_ident *name)
{
  nc_op_info *info = __atomic_load_n(&name->op_info, __ATOMIC_ACQUIRE);
  if (NC_LIKELY(info && (info->def || info->epoch == __atomic_load_n(&ctx->n_dialects, __ATOMIC_ACQUIRE))))
    return info;
  pthread_mutex_lock(&ctx->lock);
  info = name->op_info;
  const char *dot = memchr(name->str, '.', name->len);
  const nc_dialect_def *d = dot ? nc_context_lookup_dialect(ctx, name->str, (size_t)(dot - name->str)) : NULL;
  if (!info || (!info->dialect && d)) {
    nc_op_info *ni = info ? info : nc_xcalloc(1, sizeof *ni);
    ni->name = name;
    ni->ctx = ctx;
    ni->dialect = d;
    ni->def = d ? find_def(d, name->str, name->len) : NULL;
    if (ni->def) {
      ni->traits = ni->def->traits;
      if (ni->def->n_attrs) {
        ni->attr_names = nc_xcalloc(ni->def->n_attrs, sizeof *ni->attr_names);
        for (size_t i = 0; i < ni->def->n_attrs; i++)
          ni->attr_names[i] = nc_ident_get_cstr(ctx, ni->def->attrs[i].name);
      }
      if (ni->def->default_dialect)
        ni->default_dialect = nc_ident_get_cstr(ctx, ni->def->default_dialect);
    }
    __atomic_store_n(&name->op_info, ni, __ATOMIC_RELEASE);
    info = ni;
  }
  info->epoch = ctx->n_dialects;
  pthread_mutex_unlock(&ctx->lock);
  return info;
}

/* --- resources --------------------------------------------------------------------------- */

/* Frees the resource's bytes, or lets go of borrowed ones (their release
 * called once); data is left dangling for the caller to reset. */
static void resource_let_go(nc_resource *r)
{
  if (!r->borrowed) {
    free(r->data);
    return;
  }
  if (r->release)
    r->release(r->release_user, r->data, r->size);
  r->borrowed = false;
  r->release = NULL;
  r->release_user = NULL;
}

typedef struct res_key { const char *s; size_t len; bool fresh; } res_key;

static bool res_eq(const void *stored, const void *key)
{
  const nc_resource *r = stored;
  const res_key *k = key;
  return !k->fresh && r->name->len == k->len && memcmp(r->name->str, k->s, k->len) == 0;
}

static void *res_make(nc_context *ctx, const void *key)
{
  const res_key *k = key;
  nc_resource *r = uniq_alloc(ctx, sizeof *r, 0);
  memset(r, 0, sizeof *r);
  r->name = nc_ident_get(ctx, k->s, k->len);
  r->alignment = 1;
  return r;
}

nc_resource *nc_resource_lookup(nc_context *ctx, const char *name, size_t len)
{
  uint64_t h = nc_hash_bytes(name, len, 0x7e5);
  pthread_mutex_lock(&ctx->lock);
  nc_resource *found = NULL;
  if (ctx->resources.cap) {
    size_t mask = ctx->resources.cap - 1;
    for (size_t i = h & mask; ctx->resources.slots[i]; i = (i + 1) & mask) {
      nc_resource *r = nc_uniq_slot(&ctx->resources, i);
      if (stored_hash(r) == h && r->name->len == len && memcmp(r->name->str, name, len) == 0) {
        found = r;
        break;
      }
    }
  }
  pthread_mutex_unlock(&ctx->lock);
  return found;
}

static nc_resource *resource_new_unique(nc_context *ctx, const char *hint)
{
  /* resource keys are bare identifiers in the textual form (MLIR accepts
   * nothing else): other characters become '_' */
  size_t hl = strlen(hint);
  char *buf = nc_xmalloc(hl + 25), *o = buf;
  if (!((hint[0] >= 'a' && hint[0] <= 'z') || (hint[0] >= 'A' && hint[0] <= 'Z') || hint[0] == '_'))
    *o++ = '_';
  for (const char *s = hint; *s; s++)
    *o++ = (*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') || *s == '_' ||
                   *s == '$' || *s == '.'
             ? *s
             : '_';
  *o = 0;
  hl = (size_t)(o - buf);
  pthread_mutex_lock(&ctx->lock); /* recursive: keeps the name free until inserted */
  for (unsigned n = 1; nc_resource_lookup(ctx, buf, strlen(buf)); n++)
    snprintf(buf + hl, 24, "_%u", n);
  size_t len = strlen(buf);
  res_key k = {buf, len, false};
  nc_resource *r = nc_uniq_get(ctx, &ctx->resources, nc_hash_bytes(buf, len, 0x7e5), &k, res_eq, res_make);
  pthread_mutex_unlock(&ctx->lock);
  free(buf);
  return r;
}

nc_resource *nc_resource_create_owned(nc_context *ctx, const char *hint, void *data, size_t size, uint32_t align)
{
  nc_resource *r = resource_new_unique(ctx, hint && *hint ? hint : "blob");
  nc_resource_set_data(r, data, size, align);
  return r;
}

nc_resource *nc_resource_create(nc_context *ctx, const char *hint, const void *data, size_t size, uint32_t align)
{
  void *copy = nc_xmalloc(size);
  if (size)
    memcpy(copy, data, size);
  return nc_resource_create_owned(ctx, hint, copy, size, align);
}

nc_resource *nc_resource_get_or_declare(nc_context *ctx, const char *name, size_t len, uint32_t parse_id)
{
  nc_resource *r = nc_resource_lookup(ctx, name, len);
  if (r && r->parse_id == parse_id)
    return r;
  if (r) { /* the name belongs to an earlier parse or to the API: rename */
    char *hint = nc_xmalloc(len + 1);
    memcpy(hint, name, len);
    hint[len] = 0;
    r = resource_new_unique(ctx, hint);
    free(hint);
  } else {
    res_key k = {name, len, false};
    r = nc_uniq_get(ctx, &ctx->resources, nc_hash_bytes(name, len, 0x7e5), &k, res_eq, res_make);
  }
  r->parse_id = parse_id;
  return r;
}

void nc_resource_set_data(nc_resource *r, void *data, size_t size, uint32_t alignment)
{
  resource_let_go(r);
  r->data = data;
  r->size = size;
  r->alignment = alignment ? alignment : 1;
}

nc_resource *nc_resource_create_borrowed(nc_context *ctx, const char *hint, const void *data, size_t size,
                                         uint32_t align, nc_resource_release_fn release, void *user)
{
  if (!data || (uintptr_t)data % (align ? align : 1)) { /* stored bytes honour the alignment */
    nc_resource *r = nc_resource_create(ctx, hint, data, size, align);
    if (release)
      release(user, data, size);
    return r;
  }
  nc_resource *r = resource_new_unique(ctx, hint && *hint ? hint : "blob");
  nc_resource_set_data(r, (void *)(uintptr_t)data, size, align); /* never written: resources are read-only */
  r->borrowed = true;
  r->release = release;
  r->release_user = user;
  return r;
}

bool nc_resource_is_borrowed(const nc_resource *r) { return r->borrowed; }

void nc_resource_drop_data(nc_resource *r)
{
  resource_let_go(r);
  r->data = NULL;
  r->size = 0;
}

void nc_context_set_resources_releasable(nc_context *ctx, bool releasable) { ctx->resources_releasable = releasable; }
bool nc_context_get_resources_releasable(const nc_context *ctx) { return ctx->resources_releasable; }

nc_ident *nc_resource_get_name(const nc_resource *r) { return r->name; }
const void *nc_resource_get_data(const nc_resource *r) { return r->data; }
size_t nc_resource_get_size(const nc_resource *r) { return r->size; }
uint32_t nc_resource_get_alignment(const nc_resource *r) { return r->alignment; }

/* --- source buffers ------------------------------------------------------------------------ */

static unsigned add_source(nc_context *ctx, const char *name, const char *data, size_t len, bool owned, bool mapped)
{
  pthread_mutex_lock(&ctx->lock);
  if (ctx->n_sources == ctx->cap_sources) {
    ctx->cap_sources = ctx->cap_sources ? ctx->cap_sources * 2 : 4;
    ctx->sources = nc_xrealloc(ctx->sources, ctx->cap_sources * sizeof *ctx->sources);
  }
  unsigned id = (unsigned)ctx->n_sources++;
  ctx->sources[id] = (nc_source){nc_ident_get_cstr(ctx, name), data, len, owned, mapped, NULL, 0};
  pthread_mutex_unlock(&ctx->lock);
  return id;
}

unsigned nc_context_add_source(nc_context *ctx, const char *name, const char *data, size_t len)
{
  return add_source(ctx, name, data, len, false, false);
}

unsigned nc_context_add_source_owned(nc_context *ctx, const char *name, char *data, size_t len)
{
  return add_source(ctx, name, data, len, true, false);
}

bool nc_context_load_file(nc_context *ctx, const char *path, unsigned *id, char *err, size_t errlen)
{
  if (strcmp(path, "-") == 0) {
    size_t cap = 1 << 16, len = 0;
    char *buf = nc_xmalloc(cap);
    for (;;) {
      if (len == cap)
        buf = nc_xrealloc(buf, cap *= 2);
      size_t n = fread(buf + len, 1, cap - len, stdin);
      if (n == 0)
        break;
      len += n;
    }
    if (ferror(stdin)) {
      snprintf(err, errlen, "cannot read standard input");
      free(buf);
      return false;
    }
    *id = add_source(ctx, "<stdin>", buf, len, true, false);
    return true;
  }
  int fd = open(path, O_RDONLY);
  if (fd < 0) {
    snprintf(err, errlen, "cannot open '%s': %s", path, strerror(errno));
    return false;
  }
  struct stat st;
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    /* not a regular file (a pipe, say): read it like stdin */
    size_t cap = 1 << 16, len = 0;
    char *buf = nc_xmalloc(cap);
    ssize_t n;
    for (;;) {
      if (len == cap)
        buf = nc_xrealloc(buf, cap *= 2);
      n = read(fd, buf + len, cap - len);
      if (n <= 0)
        break;
      len += (size_t)n;
    }
    close(fd);
    if (n < 0) {
      snprintf(err, errlen, "cannot read '%s': %s", path, strerror(errno));
      free(buf);
      return false;
    }
    *id = add_source(ctx, path, buf, len, true, false);
    return true;
  }
  size_t len = (size_t)st.st_size;
  const char *data = "";
  bool mapped = false;
  if (len) {
    void *m = mmap(NULL, len, PROT_READ, MAP_PRIVATE, fd, 0);
    if (m == MAP_FAILED) {
      snprintf(err, errlen, "cannot map '%s': %s", path, strerror(errno));
      close(fd);
      return false;
    }
    madvise(m, len, MADV_SEQUENTIAL);
    nc_mapped_file_add(m, len, path); /* a truncation while it is read: a diagnostic, not a crash */
    data = m;
    mapped = true;
  }
  close(fd);
  *id = add_source(ctx, path, data, len, false, mapped);
  return true;
}

nc_source *nc_context_source(nc_context *ctx, unsigned id) { return id < ctx->n_sources ? &ctx->sources[id] : NULL; }

const char *nc_context_get_source(nc_context *ctx, unsigned id, size_t *len)
{
  nc_source *s = nc_context_source(ctx, id);
  if (!s)
    return NULL;
  if (len)
    *len = s->len;
  return s->data;
}

nc_ident *nc_context_get_source_name(nc_context *ctx, unsigned id)
{
  nc_source *s = nc_context_source(ctx, id);
  return s ? s->name : NULL;
}

bool nc_context_find_source(nc_context *ctx, const char *name, size_t len, unsigned *id)
{
  for (size_t i = ctx->n_sources; i-- > 0;) {
    nc_ident *n = ctx->sources[i].name;
    if (n->len == len && memcmp(n->str, name, len) == 0) {
      *id = (unsigned)i;
      return true;
    }
  }
  return false;
}

void nc_context_get_line_col(nc_context *ctx, unsigned id, size_t offset, unsigned *line, unsigned *col)
{
  nc_source *s = nc_context_source(ctx, id);
  if (!s) {
    *line = *col = 0;
    return;
  }
  pthread_mutex_lock(&ctx->lock);
  if (!s->lines) {
    size_t cap = 1024, n = 0;
    uint32_t *lines = nc_xmalloc(cap * sizeof *lines);
    lines[n++] = 0;
    for (const char *p = s->data, *end = s->data + s->len; (p = memchr(p, '\n', (size_t)(end - p)));) {
      p++;
      if (n == cap)
        lines = nc_xrealloc(lines, (cap *= 2) * sizeof *lines);
      lines[n++] = (uint32_t)(p - s->data);
    }
    s->lines = lines;
    s->n_lines = n;
  }
  pthread_mutex_unlock(&ctx->lock);
  if (offset > s->len)
    offset = s->len;
  size_t lo = 0, hi = s->n_lines; /* last line start <= offset */
  while (hi - lo > 1) {
    size_t mid = (lo + hi) / 2;
    if (s->lines[mid] <= offset)
      lo = mid;
    else
      hi = mid;
  }
  *line = (unsigned)lo + 1;
  *col = (unsigned)(offset - s->lines[lo]) + 1;
}
