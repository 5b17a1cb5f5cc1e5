/* print.c: nc-run --print, tensors as text for quick looks.
 *
 * The layout is numpy's: nested brackets, one innermost row per line, and
 * for tensors of more than 1000 elements only the first and last three
 * entries of each dim with "..." between them; rows longer than 100
 * columns wrap. Floats print with %.7g (f32 precision), integers exactly,
 * booleans as true/false.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "print.h"

#define EDGE 3
#define SUMMARY_THRESHOLD 1000
#define LINE_WIDTH 100

/* The output and its current column. */
typedef struct printer {
  FILE *out;
  int col;
} printer;

static void put(printer *p, const char *s)
{
  fputs(s, p->out);
  const char *nl = strrchr(s, '\n');
  p->col = nl ? (int)strlen(nl + 1) : p->col + (int)strlen(s);
}

static void elt_text(const nc_tensor *t, int64_t i, char *buf, size_t len)
{
  if (t->dtype == NC_DT_BOOL)
    snprintf(buf, len, "%s", nc_tensor_get_i64(t, i) ? "true" : "false");
  else if (t->dtype == NC_DT_U64)
    snprintf(buf, len, "%" PRIu64, ((const uint64_t *)t->data)[i]);
  else if (nc_dtype_is_integer(t->dtype))
    snprintf(buf, len, "%" PRId64, nc_tensor_get_i64(t, i));
  else
    snprintf(buf, len, "%.7g", nc_tensor_get_f64(t, i));
}

/* Prints dims [d, rank) of the sub-tensor starting at element `base`. */
static void print_dims(printer *p, const nc_tensor *t, int d, int64_t base, const int64_t *strides, bool summarize)
{
  char buf[64];
  if (d == t->rank) {
    elt_text(t, base, buf, sizeof buf);
    put(p, buf);
    return;
  }
  put(p, "[");
  int64_t n = t->shape[d];
  bool cut = summarize && n > 2 * EDGE, inner = d == t->rank - 1;
  for (int64_t i = 0; i < n; i++) {
    if (cut && i == EDGE) {
      i = n - EDGE;
      put(p, inner ? "...," : "...,\n");
      if (inner)
        put(p, " ");
      if (!inner)
        fprintf(p->out, "%*s", d + 1, ""), p->col = d + 1;
    }
    print_dims(p, t, d + 1, base + i * strides[d], strides, summarize);
    if (i + 1 < n) {
      if (inner) { /* wrap before an element that would pass the line width */
        if (cut && i + 1 == EDGE)
          snprintf(buf, sizeof buf, "...,");
        else
          elt_text(t, base + (i + 1) * strides[d], buf, sizeof buf);
        put(p, ",");
        if (p->col + 1 + (int)strlen(buf) + 1 > LINE_WIDTH)
          fprintf(p->out, "\n%*s", d + 1, ""), p->col = d + 1;
        else
          put(p, " ");
      } else {
        put(p, ",");
        for (int k = d; k < t->rank - 1; k++)
          put(p, "\n");
        fprintf(p->out, "%*s", d + 1, "");
        p->col = d + 1;
      }
    }
  }
  put(p, "]");
}

void nc_run_print_tensor(FILE *out, const nc_tensor *t)
{
  int64_t strides[NC_TENSOR_MAX_RANK], s = 1;
  for (int d = t->rank - 1; d >= 0; d--) {
    strides[d] = s;
    s *= t->shape[d];
  }
  printer p = {out, 0};
  if (nc_tensor_num_elements(t) == 0 && t->rank > 0)
    put(&p, "[]");
  else
    print_dims(&p, t, 0, 0, strides, nc_tensor_num_elements(t) > SUMMARY_THRESHOLD);
  put(&p, "\n");
}
