/* strutil.h: small string helpers shared by tools ("did you mean" hints). */
#ifndef NC_SUPPORT_STRUTIL_H
#define NC_SUPPORT_STRUTIL_H

#include "nc/support/base.h"

/** Levenshtein distance between two byte strings. */
size_t nc_edit_distance(const char *a, size_t al, const char *b, size_t bl);

#endif
