/* base.c: the few process-wide helpers every layer uses (checked allocation,
 * internal-invariant aborts). */
#include "nc/support/base.h"

#include <stdio.h>
#include <stdlib.h>
#ifdef __linux__
#include <sys/mman.h>
#endif

void nc_unreachable(const char *file, int line, const char *msg)
{
  fprintf(stderr, "nc: internal error at %s:%d: %s\n", file, line, msg);
  abort();
}

static void *check(void *p, size_t size)
{
  if (!p && size) {
    fprintf(stderr, "nc: out of memory (%zu bytes)\n", size);
    abort();
  }
  return p;
}

void *nc_xmalloc(size_t size) { return check(malloc(size ? size : 1), size); }
void *nc_xcalloc(size_t n, size_t size) { return check(calloc(n ? n : 1, size ? size : 1), n * size); }
void *nc_xrealloc(void *p, size_t size) { return check(realloc(p, size ? size : 1), size); }

void *nc_xmalloc_bulk(size_t size)
{
  enum { HUGE = 2u << 20 };
  if (size < 2 * HUGE)
    return nc_xmalloc(size);
  void *p = check(aligned_alloc(HUGE, (size + HUGE - 1) / HUGE * HUGE), size);
#ifdef MADV_HUGEPAGE
  madvise(p, size / HUGE * HUGE, MADV_HUGEPAGE); /* advice only: failure is harmless */
#endif
  return p;
}
