/* graph_shape_quant.c: shape inference and checks of the integer ops
 * graph-quantize emits besides conv/matmul/requantize/add: concat_integer,
 * mul_integer, lut_integer and softmax_integer, and the checks every
 * fixed-point op shares (graph_shape_nn.c's requantize and add_integer use
 * them too). Each checks its fixed-point parameters as the interpreter will
 * read them, so a malformed op is a verifier error at its location, never a
 * kernel failure at run time.
 */
#include <stdio.h>
#include <string.h>

#include "graph_internal.h"

nc_type *graph_int_result(gx *g, bool zero_point)
{
  nc_type *hint = g->out[0] && nc_type_is_tensor(g->out[0]) ? g_elt(g->out[0]) : NULL;
  nc_type *elt = hint ? hint : nc_type_integer(g->ctx, 8, NC_SIGNLESS);
  if (!nc_type_is_integer(elt) || nc_type_get_width(elt) < 2 || nc_type_get_width(elt) > 32) {
    gx_error(g, "expects a 2- to 32-bit integer result element type");
    return NULL;
  }
  if (!zero_point)
    return elt;
  unsigned w = nc_type_get_width(elt);
  bool is_unsigned = nc_type_get_signedness(elt) == NC_UNSIGNED;
  int64_t lo = is_unsigned ? 0 : -((int64_t)1 << (w - 1)), hi = is_unsigned ? ((int64_t)1 << w) - 1 : -lo - 1;
  int64_t zp = gx_int(g, "output_zero_point", 0);
  if (zp < lo || zp > hi) {
    gx_error(g, "expects 'output_zero_point' (%lld) in the result element type's range [%lld, %lld]", (long long)zp,
             (long long)lo, (long long)hi);
    return NULL;
  }
  return elt;
}

bool graph_check_rescales(gx *g, const int64_t *m, const int64_t *s, size_t n)
{
  for (size_t i = 0; i < n; i++) {
    if (m[i] < 0 || m[i] > INT32_MAX)
      return gx_error(g, "expects multipliers in [0, 2^31), got %lld at %zu", (long long)m[i], i);
    if (s[i] < 0 || s[i] > 63)
      return gx_error(g, "expects shifts in [0, 63], got %lld at %zu", (long long)s[i], i);
  }
  return true;
}

bool graph_check_relu_only(gx *g)
{
  const char *act = gx_str(g, "activation", NULL);
  if (act && strcmp(act, "relu"))
    return gx_error(g, "expects 'activation' to be \"relu\" (or absent), got \"%s\"", act);
  return true;
}

bool graph_infer_concat_integer(gx *g)
{
  size_t nm, ns;
  const int64_t *m = gx_ints(g, "multiplier", &nm), *s = gx_ints(g, "shift", &ns);
  if (nm != g->n_in || ns != g->n_in)
    return gx_error(g, "expects 'multiplier' and 'shift' to have one entry per input (%zu), got %zu and %zu",
                    g->n_in, nm, ns);
  if (!graph_check_rescales(g, m, s, nm))
    return false;
  int64_t out[NC_MAX_RANK];
  size_t rank;
  if (!graph_concat_shape(g, false, out, &rank))
    return false;
  nc_type *elt = graph_int_result(g, true);
  if (!elt)
    return false;
  gx_set(g, 0, rank, out, elt);
  return true;
}

bool graph_infer_mul_integer(gx *g)
{
  nc_type *a = g->in[0], *b = g->in[1];
  for (int i = 0; i < 2; i++) {
    nc_type *e = g_elt(g->in[i]);
    if (!nc_type_is_integer(e) || nc_type_get_width(e) > 16)
      return gx_error(g, "expects integer inputs of at most 16 bits (the exact product fits 64 bits)");
  }
  size_t ra = g_rank(a), rb = g_rank(b);
  if (rb > ra)
    return gx_error(g, "expects b to have at most a's rank");
  for (size_t d = 0; d < rb; d++) {
    int64_t bd = g_dims(b)[d], ad = g_dims(a)[d + ra - rb];
    if (bd != 1 && !g_dyn(bd) && !g_dyn(ad) && bd != ad)
      return gx_error(g, "expects b to broadcast to a's shape (dim %zu: %lld vs %lld)", d, (long long)bd,
                      (long long)ad);
  }
  int64_t m = gx_int(g, "multiplier", -1), s = gx_int(g, "shift", -1);
  if (!graph_check_rescales(g, &m, &s, 1) || !graph_check_relu_only(g))
    return false;
  nc_type *elt = graph_int_result(g, true);
  if (!elt)
    return false;
  gx_set(g, 0, ra, g_dims(a), elt);
  return true;
}

bool graph_infer_lut_integer(gx *g)
{
  nc_type *x = g->in[0], *xe = g_elt(x);
  size_t n;
  gx_ints(g, "table", &n);
  unsigned w = nc_type_is_integer(xe) ? nc_type_get_width(xe) : 0;
  if (w < 2 || w > 16)
    return gx_error(g, "expects a 2- to 16-bit integer input (the table's index)");
  if (n != (size_t)1 << w)
    return gx_error(g, "expects 'table' to have 2^%u = %zu entries (one per input value), got %zu", w,
                    (size_t)1 << w, n);
  nc_type *elt = graph_int_result(g, false);
  if (!elt)
    return false;
  gx_set(g, 0, g_rank(x), g_dims(x), elt);
  return true;
}

bool graph_infer_softmax_integer(gx *g)
{
  nc_type *x = g->in[0], *xe = g_elt(x);
  size_t n;
  const int64_t *t = gx_ints(g, "table", &n);
  unsigned w = nc_type_is_integer(xe) ? nc_type_get_width(xe) : 0;
  if (w < 2 || w > 16 || g_rank(x) < 1)
    return gx_error(g, "expects a 2- to 16-bit integer input of rank >= 1");
  if (n != (size_t)1 << w)
    return gx_error(g, "expects 'table' to have 2^%u = %zu entries, got %zu", w, (size_t)1 << w, n);
  for (size_t i = 0; i < n; i++)
    if (t[i] < 0 || t[i] > INT32_MAX || (i + 1 == n && t[i] < 1))
      return gx_error(g, "expects table entries in [0, 2^31) and a positive last one (entry %zu is %lld)", i,
                      (long long)t[i]);
  nc_type *elt = graph_int_result(g, false);
  if (!elt)
    return false;
  gx_set(g, 0, g_rank(x), g_dims(x), elt);
  return true;
}
