/* dataflow_isl_memo.c: isl contexts that parse each set and map text once
 * (nc_dataflow_isl_ctx_create in nc/dialects/dataflow/dataflow.h).
 *
 * Passes read a node's domain and access relations again and again (the
 * scheduler per operand and band, the verifier after every pass, the
 * printer per tile), and isl's parser simplifies what it reads: on
 * ResNet-50 parsing was a fifth of the compile. A context from
 * nc_dataflow_isl_ctx_create remembers each text it parsed; a later read of
 * the same text returns a copy. The memo of a context is found through a
 * small registry (the isl readers take only the isl_ctx); a context is used
 * by one thread at a time (isl's rule), so only the registry takes a lock.
 */
#include <isl/ctx.h>
#include <isl/map.h>
#include <isl/set.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dataflow_internal.h"

typedef struct memo_entry {
  uint64_t hash;
  char *text;
  bool is_set;
  void *obj; /* isl_set or isl_map */
} memo_entry;

struct df_isl_memo {
  isl_ctx *ctx;
  memo_entry *slots; /* open addressing, cap a power of two */
  size_t cap, n;
  df_isl_memo *next;
};

static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;
static df_isl_memo *registry;

static uint64_t hash_text(const char *s)
{
  uint64_t h = 1469598103934665603ull; /* FNV-1a */
  for (; *s; s++)
    h = (h ^ (unsigned char)*s) * 1099511628211ull;
  return h;
}

isl_ctx *nc_dataflow_isl_ctx_create(void)
{
  isl_ctx *ctx = isl_ctx_alloc();
  if (!ctx)
    return NULL;
  df_isl_memo *m = nc_xcalloc(1, sizeof *m);
  m->ctx = ctx;
  m->cap = 256;
  m->slots = nc_xcalloc(m->cap, sizeof *m->slots);
  pthread_mutex_lock(&registry_lock);
  m->next = registry;
  registry = m;
  pthread_mutex_unlock(&registry_lock);
  return ctx;
}

void nc_dataflow_isl_ctx_destroy(isl_ctx *ctx)
{
  if (!ctx)
    return;
  pthread_mutex_lock(&registry_lock);
  df_isl_memo *m = NULL;
  for (df_isl_memo **p = &registry; *p; p = &(*p)->next)
    if ((*p)->ctx == ctx) {
      m = *p;
      *p = m->next;
      break;
    }
  pthread_mutex_unlock(&registry_lock);
  for (size_t i = 0; m && i < m->cap; i++) {
    memo_entry *e = &m->slots[i];
    if (!e->text)
      continue;
    if (e->is_set)
      isl_set_free(e->obj);
    else
      isl_map_free(e->obj);
    free(e->text);
  }
  if (m)
    free(m->slots);
  free(m);
  isl_ctx_free(ctx);
}

df_isl_memo *df_isl_memo_of(isl_ctx *ctx)
{
  pthread_mutex_lock(&registry_lock);
  df_isl_memo *m = registry;
  while (m && m->ctx != ctx)
    m = m->next;
  pthread_mutex_unlock(&registry_lock);
  return m;
}

static memo_entry *find_slot(df_isl_memo *m, uint64_t hash, const char *text, bool is_set)
{
  for (size_t i = hash & (m->cap - 1);; i = (i + 1) & (m->cap - 1)) {
    memo_entry *e = &m->slots[i];
    if (!e->text || (e->hash == hash && e->is_set == is_set && !strcmp(e->text, text)))
      return e;
  }
}

void *df_isl_memo_get(df_isl_memo *m, const char *text, bool is_set)
{
  memo_entry *e = find_slot(m, hash_text(text), text, is_set);
  if (!e->text)
    return NULL;
  return is_set ? (void *)isl_set_copy(e->obj) : (void *)isl_map_copy(e->obj);
}

void df_isl_memo_put(df_isl_memo *m, const char *text, bool is_set, void *obj)
{
  if (2 * (m->n + 1) > m->cap) { /* grow at half full */
    memo_entry *old = m->slots;
    size_t cap = m->cap;
    m->cap *= 2;
    m->slots = nc_xcalloc(m->cap, sizeof *m->slots);
    for (size_t i = 0; i < cap; i++)
      if (old[i].text)
        *find_slot(m, old[i].hash, old[i].text, old[i].is_set) = old[i];
    free(old);
  }
  uint64_t h = hash_text(text);
  memo_entry *e = find_slot(m, h, text, is_set);
  if (e->text)
    return;
  size_t n = strlen(text) + 1;
  *e = (memo_entry){h, memcpy(nc_xmalloc(n), text, n), is_set,
                    is_set ? (void *)isl_set_copy(obj) : (void *)isl_map_copy(obj)};
  m->n++;
}
