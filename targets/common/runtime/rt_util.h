/* rt_util.h: small helpers of the runtime library (which links nothing of
 * nc but itself, so it cannot use nc_support's allocators). */
#ifndef NC_TARGETS_RT_UTIL_H
#define NC_TARGETS_RT_UTIL_H

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#if defined(__GNUC__)
#define NC_RT_PRINTF(fmt, args) __attribute__((format(printf, fmt, args)))
#else
#define NC_RT_PRINTF(fmt, args)
#endif

/* Allocation that aborts on out-of-memory (as nc_xmalloc does). */
static inline void *nc_rt_oom(void *p)
{
  if (!p) {
    fputs("nc runtime: out of memory\n", stderr);
    abort();
  }
  return p;
}
static inline void *nc_rt_malloc(size_t n) { return nc_rt_oom(malloc(n ? n : 1)); }
static inline void *nc_rt_calloc(size_t n, size_t size) { return nc_rt_oom(calloc(n ? n : 1, size ? size : 1)); }
static inline void *nc_rt_realloc(void *p, size_t n) { return nc_rt_oom(realloc(p, n ? n : 1)); }

#endif
