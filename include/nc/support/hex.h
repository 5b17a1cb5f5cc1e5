/* hex.h: fast hex encoding and decoding (weight blobs travel as hex text). */
#ifndef NC_SUPPORT_HEX_H
#define NC_SUPPORT_HEX_H

#include "nc/support/base.h"

/** Decodes `2 * n` hex digits (either case) at `s` into `n` bytes at `out`.
 * Returns false, with *bad_at set to the offset of the first bad digit pair,
 * if a character is not a hex digit. */
bool nc_hex_decode(const char *s, size_t n, unsigned char *out, size_t *bad_at);
/** The value of one hex digit (either case), or -1 if c is not one. */
static inline int nc_hex_digit_value(char c)
{
  if (c >= '0' && c <= '9')
    return c - '0';
  if (c >= 'a' && c <= 'f')
    return c - 'a' + 10;
  if (c >= 'A' && c <= 'F')
    return c - 'A' + 10;
  return -1;
}

/** Encodes `n` bytes as `2 * n` upper-case hex digits at `out` (no NUL). */
void nc_hex_encode(const unsigned char *p, size_t n, char *out);

#endif
