/* base.c: the few process-wide helpers every layer uses (checked allocation,
 * internal-invariant aborts). */
#include "nc/support/base.h"

#include <stdio.h>
#include <stdint.h>
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
  void *p = nc_xmalloc(size);
#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23 /* Linux 5.14 */
#endif
  if (size >= (4u << 20)) {
    uintptr_t a = ((uintptr_t)p + 4095) & ~(uintptr_t)4095, b = ((uintptr_t)p + size) & ~(uintptr_t)4095;
    madvise((void *)a, b - a, MADV_POPULATE_WRITE); /* advice only: failure is harmless */
  }
  return p;
}
