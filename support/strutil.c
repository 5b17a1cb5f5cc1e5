/* strutil.c: string helpers (see nc/support/strutil.h). */
#include "nc/support/strutil.h"

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
