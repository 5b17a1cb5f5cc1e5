/* base.h: conventions shared by every nc header.
 *
 * Ownership is written into every public signature, as in isl:
 *   NC_GIVE  the function returns a new reference/object the caller now owns
 *            and must release with the matching _destroy (free() for plain
 *            memory such as strings);
 *   NC_TAKE  the argument's ownership passes to the callee (do not use it
 *            after); the one way to say "takes ownership" (a function with a
 *            borrowing twin adds `_owned` to its name);
 *   NC_KEEP  the argument (or result) is borrowed: nobody's ownership changes.
 * An unannotated pointer parameter is borrowed; a returned pointer is always
 * NC_GIVE or NC_KEEP; `_destroy` is the one release verb. The full rules are
 * in docs/architecture.md ("Ownership and naming"); test/Lint/check_headers.py
 * checks them.
 * Objects owned by an nc_context (types, attributes, identifiers) are never
 * freed individually; their pointers are NC_KEEP everywhere and stay valid
 * until the context is destroyed.
 */
#ifndef NC_SUPPORT_BASE_H
#define NC_SUPPORT_BASE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define NC_GIVE
#define NC_TAKE
#define NC_KEEP

#if defined(__GNUC__)
#define NC_PRINTF(fmt, args) __attribute__((format(printf, fmt, args)))
#define NC_UNLIKELY(x) __builtin_expect(!!(x), 0)
#define NC_LIKELY(x) __builtin_expect(!!(x), 1)
#define NC_NORETURN __attribute__((noreturn))
#else
#define NC_PRINTF(fmt, args)
#define NC_UNLIKELY(x) (x)
#define NC_LIKELY(x) (x)
#define NC_NORETURN
#endif

/** Number of elements of a static array. */
#define NC_COUNTOF(a) (sizeof(a) / sizeof((a)[0]))

/** Aborts with a message: for broken internal invariants only, never for bad input. */
NC_NORETURN void nc_unreachable(const char *file, int line, const char *msg);
#define NC_UNREACHABLE(msg) nc_unreachable(__FILE__, __LINE__, (msg))

/** malloc/calloc/realloc that abort on out-of-memory (nc never limps on after OOM). */
NC_GIVE void *nc_xmalloc(size_t size);
NC_GIVE void *nc_xcalloc(size_t n, size_t size);
NC_GIVE void *nc_xrealloc(NC_TAKE void *p, size_t size);
/** nc_xmalloc for a large buffer about to be filled in one go (decoded weight
 * blobs): from 4 MiB up its pages are populated by one madvise call instead
 * of one page fault each. (Transparent huge pages were tried: faster on a
 * quiet machine, 2.5x slower right after another process freed memory.)
 * Freed with free(). */
NC_GIVE void *nc_xmalloc_bulk(size_t size);

#endif
