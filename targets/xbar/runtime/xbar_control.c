/* xbar_control.c: checking and evaluating the xbar target's control
 * programs (the format is in xbar_control.h). The check walks the words
 * once with a bounds-checked cursor, so a hostile binary can make it fail
 * but never read out of bounds; evaluation uses overflow-checked int64
 * arithmetic and floor division. */
#include "xbar_control.h"

#include <stdarg.h>
#include <stdio.h>

typedef struct walker {
  const int64_t *w;
  size_t n, pos;
  char *err;
  size_t errlen;
} walker;

static bool fail(walker *k, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static bool fail(walker *k, const char *fmt, ...)
{
  if (k->err && k->errlen) {
    va_list ap;
    va_start(ap, fmt);
    int m = snprintf(k->err, k->errlen, "control program word %zu: ", k->pos);
    if (m >= 0 && (size_t)m < k->errlen)
      vsnprintf(k->err + m, k->errlen - (size_t)m, fmt, ap);
    va_end(ap);
  }
  return false;
}

static bool take(walker *k, const char *what, int64_t lo, int64_t hi, int64_t *v)
{
  if (k->pos >= k->n)
    return fail(k, "the program ends where %s was expected", what);
  int64_t x = k->w[k->pos];
  if (x < lo || x > hi)
    return fail(k, "%s is %lld, outside [%lld, %lld]", what, (long long)x, (long long)lo, (long long)hi);
  k->pos++;
  *v = x;
  return true;
}

/* den coeff[n_vars] const */
static bool check_row(walker *k, const char *what, int64_t n_vars, bool has_den)
{
  int64_t v;
  if (has_den && !take(k, "a denominator", 1, XBAR_CONTROL_MAX_COEFF, &v))
    return false;
  for (int64_t i = 0; i <= n_vars; i++)
    if (!take(k, what, -XBAR_CONTROL_MAX_COEFF, XBAR_CONTROL_MAX_COEFF, &v))
      return false;
  return true;
}

static bool check_divs(walker *k, int n_in, int64_t *n_div)
{
  if (!take(k, "a number of divisions", 0, XBAR_CONTROL_MAX_DIVS, n_div))
    return false;
  for (int64_t d = 0; d < *n_div; d++)
    if (!check_row(k, "a division coefficient", n_in + d, true))
      return false;
  return true;
}

bool xbar_control_check(const int64_t *words, size_t n, int n_in, int n_out, xbar_control *out, char *err,
                        size_t errlen)
{
  walker k = {words, n, 0, err, errlen};
  int64_t a, b, pieces;
  if (!take(&k, "the number of consumer dimensions", 0, XBAR_CONTROL_MAX_DIMS, &a) ||
      !take(&k, "the number of producer dimensions", 0, XBAR_CONTROL_MAX_DIMS, &b) ||
      !take(&k, "the number of pieces", 0, XBAR_CONTROL_MAX_PIECES, &pieces))
    return false;
  if (a != n_in || b != n_out) {
    k.pos = 0;
    return fail(&k, "the program maps %lld to %lld dimensions, but the consumer has %d and the producer %d",
                (long long)a, (long long)b, n_in, n_out);
  }
  for (int64_t p = 0; p < pieces; p++) {
    int64_t bsets;
    if (!take(&k, "a number of basic sets", 1, XBAR_CONTROL_MAX_BSETS, &bsets))
      return false;
    for (int64_t s = 0; s < bsets; s++) {
      int64_t divs, cons, kind;
      if (!check_divs(&k, n_in, &divs) || !take(&k, "a number of constraints", 0, XBAR_CONTROL_MAX_CONS, &cons))
        return false;
      for (int64_t c = 0; c < cons; c++)
        if (!take(&k, "a constraint kind", 0, 1, &kind) || !check_row(&k, "a constraint coefficient", n_in + divs, false))
          return false;
    }
    for (int o = 0; o < n_out; o++) {
      int64_t divs;
      if (!check_divs(&k, n_in, &divs) || !check_row(&k, "an expression coefficient", n_in + divs, true))
        return false;
    }
  }
  if (k.pos != n)
    return fail(&k, "%zu words follow the end of the program", n - k.pos);
  if (out)
    *out = (xbar_control){words, n, n_in, n_out, (size_t)pieces};
  return true;
}

/* --- evaluation ------------------------------------------------------------------------------------------- */

static int64_t floor_div(int64_t a, int64_t d)
{
  int64_t q = a / d;
  return (a % d != 0 && ((a < 0) != (d < 0))) ? q - 1 : q;
}

/* sum coeff[i] * vars[i] + const, the words at *pos; false on overflow. */
static bool affine(const int64_t *w, size_t *pos, const int64_t *vars, int64_t n_vars, int64_t *sum)
{
  int64_t s = 0;
  for (int64_t i = 0; i < n_vars; i++) {
    int64_t t;
    if (__builtin_mul_overflow(w[*pos + (size_t)i], vars[i], &t) || __builtin_add_overflow(s, t, &s))
      return false;
  }
  if (__builtin_add_overflow(s, w[*pos + (size_t)n_vars], &s))
    return false;
  *pos += (size_t)n_vars + 1;
  *sum = s;
  return true;
}

/* Reads the divs at *pos, appending their values to vars[n_in..]. */
static bool eval_divs(const int64_t *w, size_t *pos, int64_t *vars, int n_in, int64_t *n_div)
{
  *n_div = w[(*pos)++];
  for (int64_t d = 0; d < *n_div; d++) {
    int64_t den = w[(*pos)++], s;
    if (!affine(w, pos, vars, n_in + d, &s))
      return false;
    vars[n_in + d] = floor_div(s, den);
  }
  return true;
}

xbar_control_result xbar_control_eval(const xbar_control *c, const int64_t *in, int64_t *out)
{
  const int64_t *w = c->words;
  size_t pos = 3;
  int64_t vars[XBAR_CONTROL_MAX_DIMS + XBAR_CONTROL_MAX_DIVS];
  for (int i = 0; i < c->n_in; i++)
    vars[i] = in[i];
  for (size_t p = 0; p < c->n_pieces; p++) {
    int64_t bsets = w[pos++];
    bool inside = false;
    for (int64_t s = 0; s < bsets; s++) {
      int64_t divs, sum;
      if (!eval_divs(w, &pos, vars, c->n_in, &divs))
        return XBAR_CONTROL_OVERFLOW;
      int64_t cons = w[pos++];
      bool ok = true;
      for (int64_t k = 0; k < cons; k++) {
        int64_t kind = w[pos++];
        if (!affine(w, &pos, vars, c->n_in + divs, &sum))
          return XBAR_CONTROL_OVERFLOW;
        if (kind == 0 ? sum != 0 : sum < 0)
          ok = false;
      }
      inside = inside || ok;
    }
    for (int o = 0; o < c->n_out; o++) {
      int64_t divs, sum;
      if (!eval_divs(w, &pos, vars, c->n_in, &divs))
        return XBAR_CONTROL_OVERFLOW;
      int64_t den = w[pos++];
      if (!affine(w, &pos, vars, c->n_in + divs, &sum))
        return XBAR_CONTROL_OVERFLOW;
      if (inside)
        out[o] = floor_div(sum, den);
    }
    if (inside)
      return XBAR_CONTROL_WAIT;
  }
  return XBAR_CONTROL_NONE;
}
