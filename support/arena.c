/* arena.c: bump-pointer arenas (see nc/support/arena.h).
 *
 * Chunks grow geometrically up to 1 MiB; a request larger than a quarter of
 * the current chunk size gets a chunk of its own so big blobs do not waste
 * the tail of a shared chunk.
 */
#include "nc/support/arena.h"

#include <stdlib.h>
#include <string.h>

typedef struct chunk {
  struct chunk *next;
  size_t size; /* usable bytes after the header */
  size_t _pad;
} chunk;

struct nc_arena {
  chunk *head;  /* current chunk, first in the list */
  char *cur, *end;
  size_t next_size;
  size_t allocated;
};

#define MIN_CHUNK ((size_t)16 << 10)
#define MAX_CHUNK ((size_t)1 << 20)

nc_arena *nc_arena_create(void)
{
  nc_arena *a = nc_xcalloc(1, sizeof *a);
  a->next_size = MIN_CHUNK;
  return a;
}

static void free_chunks(chunk *c, chunk *keep)
{
  while (c) {
    chunk *next = c->next;
    if (c != keep)
      free(c);
    c = next;
  }
}

void nc_arena_destroy(nc_arena *a)
{
  if (!a)
    return;
  free_chunks(a->head, NULL);
  free(a);
}

void nc_arena_reset(nc_arena *a)
{
  chunk *last = a->head;
  while (last && last->next)
    last = last->next;
  free_chunks(a->head, last);
  a->head = last;
  if (last) {
    last->next = NULL;
    a->cur = (char *)(last + 1);
    a->end = a->cur + last->size;
  } else {
    a->cur = a->end = NULL;
  }
  a->allocated = 0;
}

static void *slow_alloc(nc_arena *a, size_t size, size_t align)
{
  size_t need = size + align;
  if (need > a->next_size / 4) {
    /* dedicated chunk, linked behind the current one so the bump region stays */
    chunk *c = nc_xmalloc(sizeof(chunk) + need);
    c->size = need;
    if (a->head) {
      c->next = a->head->next;
      a->head->next = c;
    } else {
      c->next = NULL;
      a->head = c;
      a->cur = a->end = (char *)(c + 1) + need; /* nothing left to bump */
    }
    uintptr_t p = ((uintptr_t)(c + 1) + align - 1) & ~(uintptr_t)(align - 1);
    return (void *)p;
  }
  chunk *c = nc_xmalloc(sizeof(chunk) + a->next_size);
  c->size = a->next_size;
  c->next = a->head;
  a->head = c;
  a->cur = (char *)(c + 1);
  a->end = a->cur + c->size;
  if (a->next_size < MAX_CHUNK)
    a->next_size *= 2;
  uintptr_t p = ((uintptr_t)a->cur + align - 1) & ~(uintptr_t)(align - 1);
  a->cur = (char *)p + size;
  return (void *)p;
}

void *nc_arena_alloc_aligned(nc_arena *a, size_t size, size_t align)
{
  a->allocated += size;
  uintptr_t p = ((uintptr_t)a->cur + align - 1) & ~(uintptr_t)(align - 1);
  if (NC_LIKELY(a->cur && p + size <= (uintptr_t)a->end)) {
    a->cur = (char *)p + size;
    return (void *)p;
  }
  return slow_alloc(a, size, align);
}

void *nc_arena_alloc(nc_arena *a, size_t size) { return nc_arena_alloc_aligned(a, size, 16); }

void *nc_arena_calloc(nc_arena *a, size_t size)
{
  void *p = nc_arena_alloc(a, size);
  memset(p, 0, size);
  return p;
}

char *nc_arena_strndup(nc_arena *a, const char *s, size_t len)
{
  char *p = nc_arena_alloc_aligned(a, len + 1, 1);
  memcpy(p, s, len);
  p[len] = 0;
  return p;
}

void *nc_arena_memdup(nc_arena *a, const void *p, size_t size)
{
  void *q = nc_arena_alloc(a, size);
  if (size)
    memcpy(q, p, size);
  return q;
}

size_t nc_arena_bytes_allocated(const nc_arena *a) { return a->allocated; }
