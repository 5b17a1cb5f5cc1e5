/* strutil.h: small string helpers shared by tools ("did you mean" hints,
 * option values, error messages into caller buffers). */
#ifndef NC_SUPPORT_STRUTIL_H
#define NC_SUPPORT_STRUTIL_H

#include "nc/support/base.h"

/** Levenshtein distance between two byte strings. */
size_t nc_edit_distance(const char *a, size_t al, const char *b, size_t bl);

/** Parses a whole decimal integer option value in [lo, hi] into *out. False
 * for an empty value, trailing characters, or a value out of range (also one
 * beyond int64: never wrapped or clamped). */
bool nc_parse_int_in_range(NC_KEEP const char *s, int64_t lo, int64_t hi, int64_t *out);

/** Formats the message into err[0..errlen), truncated to fit (nothing when
 * err is NULL or errlen 0): the (char *err, size_t errlen) error form of
 * nc's loaders. Returns false, so a failing function can `return
 * nc_error_format(err, errlen, ...)`. */
bool nc_error_format(char *err, size_t errlen, const char *fmt, ...) NC_PRINTF(3, 4);

#endif
