/* strutil.c: string helpers (see nc/support/strutil.h). */
#include "nc/support/strutil.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

size_t nc_edit_distance(const char *a, size_t al, const char *b, size_t bl)
{
  size_t *row = nc_xmalloc((bl + 1) * sizeof *row);
  for (size_t j = 0; j <= bl; j++)
    row[j] = j;
  for (size_t i = 1; i <= al; i++) {
    size_t prev = row[0];
    row[0] = i;
    for (size_t j = 1; j <= bl; j++) {
      size_t cur = row[j];
      size_t best = prev + (a[i - 1] != b[j - 1]);
      if (row[j] + 1 < best)
        best = row[j] + 1;
      if (row[j - 1] + 1 < best)
        best = row[j - 1] + 1;
      row[j] = best;
      prev = cur;
    }
  }
  size_t d = row[bl];
  free(row);
  return d;
}

bool nc_parse_int_in_range(const char *s, int64_t lo, int64_t hi, int64_t *out)
{
  if (!s || !*s || isspace((unsigned char)*s))
    return false;
  char *end;
  errno = 0;
  long long v = strtoll(s, &end, 10);
  if (errno == ERANGE || *end || v < lo || v > hi)
    return false;
  *out = v;
  return true;
}

bool nc_error_format(char *err, size_t errlen, const char *fmt, ...)
{
  if (err && errlen) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
  }
  return false;
}
