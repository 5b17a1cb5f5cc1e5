/* arena.h: bump-pointer arenas.
 *
 * Everything uniqued by a context (identifiers, types, attributes) and the
 * scratch memory of parsers and passes lives in arenas: allocation is a
 * pointer bump, and freeing is one call for the whole arena.
 */
#ifndef NC_SUPPORT_ARENA_H
#define NC_SUPPORT_ARENA_H

#include "nc/support/base.h"

/** A growable region of memory freed all at once. Not thread-safe. */
typedef struct nc_arena nc_arena;

/** Creates an empty arena. */
NC_GIVE nc_arena *nc_arena_create(void);
/** Frees the arena and everything allocated from it. NULL is allowed. */
void nc_arena_destroy(NC_TAKE nc_arena *a);
/** Frees everything allocated so far but keeps the first chunk for reuse. */
void nc_arena_reset(nc_arena *a);
/** Returns `size` bytes aligned to 16, uninitialised; never NULL. */
NC_KEEP void *nc_arena_alloc(nc_arena *a, size_t size);
/** Like nc_arena_alloc, but zero-filled. */
NC_KEEP void *nc_arena_calloc(nc_arena *a, size_t size);
/** Returns `size` bytes aligned to `align` (a power of two). */
NC_KEEP void *nc_arena_alloc_aligned(nc_arena *a, size_t size, size_t align);
/** Copies `len` bytes of `s` and a terminating NUL into the arena. */
NC_KEEP char *nc_arena_strndup(nc_arena *a, const char *s, size_t len);
/** Copies `size` bytes of `p` into the arena. */
NC_KEEP void *nc_arena_memdup(nc_arena *a, const void *p, size_t size);
/** Bytes handed out by the arena so far (for statistics and benchmarks). */
size_t nc_arena_bytes_allocated(const nc_arena *a);

#endif
