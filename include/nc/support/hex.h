/* hex.h: fast hex encoding and decoding (weight blobs travel as hex text). */
#ifndef NC_SUPPORT_HEX_H
#define NC_SUPPORT_HEX_H

#include "nc/support/base.h"

/** Decodes `2 * n` hex digits (either case) at `s` into `n` bytes at `out`.
 * Returns false, with *bad_at set to the offset of the first bad digit pair,
 * if a character is not a hex digit. */
bool nc_hex_decode(const char *s, size_t n, unsigned char *out, size_t *bad_at);
/** Encodes `n` bytes as `2 * n` upper-case hex digits at `out` (no NUL). */
void nc_hex_encode(const unsigned char *p, size_t n, char *out);

#endif
