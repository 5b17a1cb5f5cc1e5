/* graph_shape_nn.c: shape inference and checks of the layer ops: the
 * convolutions (float, integer, quantized), transposed convolution, matrix
 * products, Gemm, pooling, normalisation and (de)quantization.
 *
 * Window sizes (conv, conv_transpose, pools) come from the reference
 * kernels' own shape functions (nc/dialects/graph/kernels.h), called one
 * spatial dim at a time so that a dynamic dim elsewhere does not stop the
 * others from being computed: the IR and the interpreter cannot disagree.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "graph_internal.h"

/* --- shared checks --------------------------------------------------------------------------------- */

static bool check_bool_attr(gx *g, const char *name)
{
  int64_t v = gx_int(g, name, 0);
  if (v != 0 && v != 1)
    return gx_error(g, "expects '%s' to be 0 or 1, got %lld", name, (long long)v);
  return true;
}

/* An i64 array attribute with `want` entries, each >= lo. */
static bool check_ints(gx *g, const char *name, size_t want, int64_t lo, const char *what)
{
  size_t n;
  const int64_t *v = gx_ints(g, name, &n);
  if (!v)
    return true;
  if (n != want)
    return gx_error(g, "expects '%s' to have %zu entries (%s), got %zu", name, want, what, n);
  for (size_t i = 0; i < n; i++)
    if (v[i] < lo)
      return gx_error(g, "expects '%s' entries to be at least %lld, got %lld", name, (long long)lo, (long long)v[i]);
  return true;
}

static bool check_auto_pad(gx *g, nc_auto_pad *ap)
{
  const char *s = gx_str(g, "auto_pad", "NOTSET");
  if (!nc_auto_pad_from_string(s, ap))
    return gx_error(g, "expects 'auto_pad' to be one of NOTSET, SAME_UPPER, SAME_LOWER, VALID, got \"%s\"", s);
  return true;
}

/* Window attributes common to conv, conv_transpose and the pools. */
static bool check_window_attrs(gx *g, size_t nsp, bool dilations, nc_auto_pad *ap)
{
  return check_ints(g, "kernel_shape", nsp, 1, "one per spatial dim") &&
         check_ints(g, "strides", nsp, 1, "one per spatial dim") &&
         (!dilations || check_ints(g, "dilations", nsp, 1, "one per spatial dim")) &&
         check_ints(g, "pads", 2 * nsp, 0, "begin and end per spatial dim") && check_auto_pad(g, ap);
}

static int64_t at(const int64_t *v, size_t i, int64_t dflt) { return v ? v[i] : dflt; }

/* A scalar-like operand: rank 0, or rank 1 with one element. */
static bool scalar_like(const nc_type *t)
{
  return g_rank(t) == 0 || (g_rank(t) == 1 && (g_dyn(g_dims(t)[0]) || g_dims(t)[0] == 1));
}

/* Operand i is a scalar, or (if per_len != 0) a 1-D tensor of per_len entries. */
static bool check_scale_like(gx *g, size_t i, const char *what, int64_t per_len, const char *per_what)
{
  nc_type *t = g->in[i];
  if (scalar_like(t))
    return true;
  if (per_len && g_rank(t) == 1 && (g_dyn(per_len) || g_dyn(g_dims(t)[0]) || g_dims(t)[0] == per_len))
    return true;
  char b[96];
  if (per_len)
    return gx_error(g, "expects %s to be a scalar or of shape [%s] = [%lld], got %s", what, per_what,
                    (long long)per_len, g_shape_str(b, sizeof b, g_rank(t), g_dims(t)));
  return gx_error(g, "expects %s to be a scalar, got %s", what, g_shape_str(b, sizeof b, g_rank(t), g_dims(t)));
}

static bool check_spatial_rank(gx *g, size_t i, const char *what)
{
  size_t r = g_rank(g->in[i]);
  if (r < 3 || r > 2 + NC_KERNEL_MAX_SPATIAL)
    return gx_error(g, "expects %s of rank 3 to 5 ([N, C, D1, ...]), got rank %zu", what, r);
  return true;
}

/* A given kernel_shape (ks) must equal the weight's spatial dims (wd: the
 * weight's dims). */
static bool check_kernel_shape(gx *g, const int64_t *ks, const int64_t *wd, size_t nsp)
{
  for (size_t i = 0; ks && i < nsp; i++)
    if (!g_dyn(wd[2 + i]) && ks[i] != wd[2 + i])
      return gx_error(g, "expects 'kernel_shape' entry %zu (%lld) to equal the weight's spatial dim (%lld)", i,
                      (long long)ks[i], (long long)wd[2 + i]);
  return true;
}

static nc_type *i32_type(gx *g) { return nc_type_integer(g->ctx, 32, NC_SIGNLESS); }

/* --- convolution --------------------------------------------------------------------------------------- */

/* Output dims of a convolution of x (operand xi) with w (operand wi); bias
 * operand bi (or -1) must be [M]. */
static bool conv_core(gx *g, size_t xi, size_t wi, int bi, nc_type *elt)
{
  nc_type *x = g->in[xi], *w = g->in[wi];
  if (!check_spatial_rank(g, xi, "input"))
    return false;
  size_t rank = g_rank(x), nsp = rank - 2;
  if (g_rank(w) != rank)
    return gx_error(g, "expects weight of rank %zu like the input, got rank %zu", rank, g_rank(w));
  nc_auto_pad ap;
  if (!check_window_attrs(g, nsp, true, &ap))
    return false;
  const int64_t *xd = g_dims(x), *wd = g_dims(w);
  int64_t group = gx_int(g, "group", 1);
  if (group < 1)
    return gx_error(g, "expects 'group' to be positive, got %lld", (long long)group);
  if (!g_dyn(xd[1]) && !g_dyn(wd[1]) && xd[1] != g_sat_mul(wd[1], group))
    return gx_error(g, "expects input channels (%lld) to equal weight channels x group (%lld)", (long long)xd[1],
                    (long long)g_sat_mul(wd[1], group));
  if (!g_dyn(wd[0]) && wd[0] % group)
    return gx_error(g, "expects output channels (%lld) to be divisible by group (%lld)", (long long)wd[0],
                    (long long)group);
  size_t n;
  const int64_t *ks = gx_ints(g, "kernel_shape", &n), *st = gx_ints(g, "strides", &n),
                *dl = gx_ints(g, "dilations", &n), *pd = gx_ints(g, "pads", &n);
  if (!check_kernel_shape(g, ks, wd, nsp))
    return false;
  if (bi >= 0 && (size_t)bi < g->n_in) {
    nc_type *b = g->in[bi];
    const int64_t *bd = g_dims(b);
    if (g_rank(b) != 1 || (!g_dyn(bd[0]) && !g_dyn(wd[0]) && bd[0] != wd[0])) {
      char s[96];
      return gx_error(g, "expects bias of shape [M] = [%lld], got %s", (long long)wd[0],
                      g_shape_str(s, sizeof s, g_rank(b), bd));
    }
  }
  int64_t out[2 + NC_KERNEL_MAX_SPATIAL] = {xd[0], wd[0]};
  for (size_t i = 0; i < nsp; i++) {
    int64_t in = xd[2 + i], k = ks ? ks[i] : wd[2 + i];
    if (g_dyn(in) || g_dyn(k)) {
      out[2 + i] = NC_DYNAMIC;
      continue;
    }
    nc_conv_params p = {.strides = {at(st, i, 1)}, .dilations = {at(dl, i, 1)},
                        .pads = {at(pd, i, 0), at(pd, nsp + i, 0)}, .auto_pad = ap};
    int64_t xs[3] = {1, 1, in}, ws[3] = {1, 1, k}, os[3];
    char err[160];
    if (!nc_kernel_conv_shape(&p, 3, xs, ws, os, err, sizeof err)) {
      int64_t d = at(dl, i, 1), ek = k - 1 > (INT64_MAX - 1) / d ? INT64_MAX : d * (k - 1) + 1;
      int64_t padded = ap ? in : g_sat_add(in, g_sat_add(at(pd, i, 0), at(pd, nsp + i, 0)));
      if (ek > padded)
        return gx_error(g, "expects the dilated kernel (%lld) to fit in the padded input (%lld) in spatial dim %zu",
                        (long long)ek, (long long)padded, i);
      return gx_error(g, "spatial dim %zu: %s", i, g_kernel_msg(err));
    }
    out[2 + i] = os[2];
  }
  gx_set(g, 0, rank, out, elt);
  return true;
}

bool graph_infer_conv(gx *g)
{
  switch (g->kind) {
  case G_CONV:
    if (!g_same_elt(g, 0, 1) || (g->n_in > 2 && !g_same_elt(g, 0, 2)))
      return false;
    return conv_core(g, 0, 1, 2, g_elt(g->in[0]));
  case G_CONV_INTEGER:
    if ((g->n_in > 2 && !g_same_elt(g, 0, 2)) || (g->n_in > 3 && !g_same_elt(g, 1, 3)))
      return false;
    if (!conv_core(g, 0, 1, -1, i32_type(g)))
      return false;
    if (g->n_in > 2 && !check_scale_like(g, 2, "x_zero_point", 0, NULL))
      return false;
    return g->n_in <= 3 || check_scale_like(g, 3, "w_zero_point", g_dims(g->in[1])[0], "M");
  default: { /* qlinear_conv: x, x_scale, x_zp, w, w_scale, w_zp, y_scale, y_zp, b? */
    if (!g_same_elt(g, 0, 2) || !g_same_elt(g, 3, 5))
      return false;
    nc_type *elt = g_elt(g->in[7]);
    if (!conv_core(g, 0, 3, 8, elt))
      return false;
    int64_t m = g_dims(g->in[3])[0];
    return check_scale_like(g, 1, "x_scale", 0, NULL) && check_scale_like(g, 2, "x_zero_point", 0, NULL) &&
           check_scale_like(g, 4, "w_scale", m, "M") && check_scale_like(g, 5, "w_zero_point", m, "M") &&
           check_scale_like(g, 6, "y_scale", 0, NULL) && check_scale_like(g, 7, "y_zero_point", 0, NULL);
  }
  }
}

bool graph_infer_conv_transpose(gx *g)
{
  nc_type *x = g->in[0], *w = g->in[1];
  if (!g_same_elt(g, 0, 1) || (g->n_in > 2 && !g_same_elt(g, 0, 2)) || !check_spatial_rank(g, 0, "input"))
    return false;
  size_t rank = g_rank(x), nsp = rank - 2;
  if (g_rank(w) != rank)
    return gx_error(g, "expects weight of rank %zu like the input, got rank %zu", rank, g_rank(w));
  nc_auto_pad ap;
  if (!check_window_attrs(g, nsp, true, &ap) || !check_ints(g, "output_padding", nsp, 0, "one per spatial dim") ||
      !check_ints(g, "output_shape", nsp, 0, "one per spatial dim"))
    return false;
  const int64_t *xd = g_dims(x), *wd = g_dims(w);
  int64_t group = gx_int(g, "group", 1);
  if (group < 1)
    return gx_error(g, "expects 'group' to be positive, got %lld", (long long)group);
  if (!g_dyn(xd[1]) && !g_dyn(wd[0]) && xd[1] != wd[0])
    return gx_error(g, "expects input channels (%lld) to equal the weight's first dim (%lld)", (long long)xd[1],
                    (long long)wd[0]);
  if (!g_dyn(xd[1]) && xd[1] % group)
    return gx_error(g, "expects input channels (%lld) to be divisible by group (%lld)", (long long)xd[1],
                    (long long)group);
  if (!g_dyn(wd[1]) && wd[1] > INT64_MAX / group)
    return gx_error(g, "expects output channels (%lld x group %lld) to fit in 64 bits", (long long)wd[1],
                    (long long)group);
  int64_t m = g_dyn(wd[1]) ? NC_DYNAMIC : wd[1] * group;
  if (g->n_in > 2) {
    nc_type *b = g->in[2];
    const int64_t *bd = g_dims(b);
    if (g_rank(b) != 1 || (!g_dyn(bd[0]) && !g_dyn(m) && bd[0] != m)) {
      char s[96];
      return gx_error(g, "expects bias of shape [M] = [%lld], got %s", (long long)m,
                      g_shape_str(s, sizeof s, g_rank(b), bd));
    }
  }
  size_t n;
  const int64_t *ks = gx_ints(g, "kernel_shape", &n), *st = gx_ints(g, "strides", &n),
                *dl = gx_ints(g, "dilations", &n), *pd = gx_ints(g, "pads", &n),
                *op = gx_ints(g, "output_padding", &n), *os = gx_ints(g, "output_shape", &n);
  if (!check_kernel_shape(g, ks, wd, nsp))
    return false;
  int64_t out[2 + NC_KERNEL_MAX_SPATIAL] = {xd[0], m};
  for (size_t i = 0; i < nsp; i++) {
    int64_t in = xd[2 + i], k = ks ? ks[i] : wd[2 + i];
    if (g_dyn(in) || g_dyn(k)) {
      out[2 + i] = os ? os[i] : NC_DYNAMIC;
      continue;
    }
    nc_conv_transpose_params p = {.strides = {at(st, i, 1)}, .dilations = {at(dl, i, 1)},
                                  .pads = {at(pd, i, 0), at(pd, nsp + i, 0)}, .output_padding = {at(op, i, 0)},
                                  .output_shape = {at(os, i, 0)}, .has_output_shape = os != NULL, .auto_pad = ap};
    int64_t xs[3] = {1, 1, in}, ws[3] = {1, 1, k}, o[3];
    char err[160];
    if (!nc_kernel_conv_transpose_shape(&p, 3, xs, ws, o, err, sizeof err))
      return gx_error(g, "spatial dim %zu: %s", i, g_kernel_msg(err));
    out[2 + i] = o[2];
  }
  gx_set(g, 0, rank, out, g_elt(x));
  return true;
}

/* --- matrix products ---------------------------------------------------------------------------------------- */

static bool matmul_core(gx *g, size_t ai, size_t bi, nc_type *elt, int64_t *m, int64_t *nn)
{
  nc_type *a = g->in[ai], *b = g->in[bi];
  size_t ra = g_rank(a), rb = g_rank(b);
  if (ra < 1 || rb < 1)
    return gx_error(g, "expects operands of rank at least 1, got ranks %zu and %zu", ra, rb);
  const int64_t *ad = g_dims(a), *bd = g_dims(b);
  int64_t ka = ad[ra - 1], kb = rb == 1 ? bd[0] : bd[rb - 2];
  if (!g_dyn(ka) && !g_dyn(kb) && ka != kb)
    return gx_error(g, "expects the contraction dims to match, got %lld (a's last dim) and %lld (b's %s dim)",
                    (long long)ka, (long long)kb, rb == 1 ? "only" : "second-to-last");
  size_t na = ra > 2 ? ra - 2 : 0, nb = rb > 2 ? rb - 2 : 0, nbatch;
  int64_t out[NC_MAX_RANK + 2];
  bool ok = g_broadcast(na, ad, nb, bd, &nbatch, out);
  if (!ok) {
    char s1[160], s2[160];
    gx_error(g, "expects broadcastable batch dims, got %s and %s", g_shape_str(s1, sizeof s1, na, ad),
             g_shape_str(s2, sizeof s2, nb, bd));
  } else {
    size_t r = nbatch;
    *m = ra > 1 ? ad[ra - 2] : 1;
    *nn = rb > 1 ? bd[rb - 1] : 1;
    if (ra > 1)
      out[r++] = *m;
    if (rb > 1)
      out[r++] = *nn;
    int kr;
    int64_t ks[NC_TENSOR_MAX_RANK];
    char err[160];
    bool is_static = nc_type_has_static_shape(a) && nc_type_has_static_shape(b);
    if (is_static && ra <= NC_TENSOR_MAX_RANK && rb <= NC_TENSOR_MAX_RANK &&
        nc_kernel_matmul_shape((int)ra, ad, (int)rb, bd, &kr, ks, err, sizeof err) && (size_t)kr == r)
      memcpy(out, ks, r * sizeof *out); /* the interpreter's own answer */
    gx_set(g, 0, r, out, elt);
  }
  return ok;
}

bool graph_infer_matmul(gx *g)
{
  int64_t m, n;
  switch (g->kind) {
  case G_MATMUL:
    return g_same_elt(g, 0, 1) && matmul_core(g, 0, 1, g_elt(g->in[0]), &m, &n);
  case G_MATMUL_INTEGER:
    if ((g->n_in > 2 && !g_same_elt(g, 0, 2)) || (g->n_in > 3 && !g_same_elt(g, 1, 3)) ||
        !matmul_core(g, 0, 1, i32_type(g), &m, &n))
      return false;
    return (g->n_in <= 2 || check_scale_like(g, 2, "a_zero_point", m, "M")) &&
           (g->n_in <= 3 || check_scale_like(g, 3, "b_zero_point", n, "N"));
  default: /* qlinear_matmul: a, a_scale, a_zp, b, b_scale, b_zp, y_scale, y_zp */
    if (!g_same_elt(g, 0, 2) || !g_same_elt(g, 3, 5) || !matmul_core(g, 0, 3, g_elt(g->in[7]), &m, &n))
      return false;
    return check_scale_like(g, 1, "a_scale", m, "M") && check_scale_like(g, 2, "a_zero_point", m, "M") &&
           check_scale_like(g, 4, "b_scale", n, "N") && check_scale_like(g, 5, "b_zero_point", n, "N") &&
           check_scale_like(g, 6, "y_scale", 0, NULL) && check_scale_like(g, 7, "y_zero_point", 0, NULL);
  }
}

bool graph_infer_gemm(gx *g)
{
  nc_type *a = g->in[0], *b = g->in[1];
  if (!g_same_elt(g, 0, 1) || (g->n_in > 2 && !g_same_elt(g, 0, 2)) || !check_bool_attr(g, "trans_a") ||
      !check_bool_attr(g, "trans_b"))
    return false;
  if (g_rank(a) != 2 || g_rank(b) != 2)
    return gx_error(g, "expects a and b of rank 2, got ranks %zu and %zu", g_rank(a), g_rank(b));
  bool ta = gx_int(g, "trans_a", 0), tb = gx_int(g, "trans_b", 0);
  const int64_t *ad = g_dims(a), *bd = g_dims(b);
  int64_t m = ad[ta ? 1 : 0], ka = ad[ta ? 0 : 1], kb = bd[tb ? 1 : 0], n = bd[tb ? 0 : 1];
  if (!g_dyn(ka) && !g_dyn(kb) && ka != kb)
    return gx_error(g, "expects the contraction dims to match, got %lld (from a) and %lld (from b)", (long long)ka,
                    (long long)kb);
  int64_t out[2] = {m, n};
  if (g->n_in > 2) {
    nc_type *c = g->in[2];
    size_t rc = g_rank(c);
    const int64_t *cd = g_dims(c);
    bool ok = rc <= 2;
    for (size_t k = 0; ok && k < rc; k++) {
      int64_t cv = cd[rc - 1 - k], ov = out[1 - k];
      ok = cv == 1 || g_dyn(cv) || g_dyn(ov) || cv == ov;
    }
    if (!ok) {
      char s1[96], s2[96];
      return gx_error(g, "expects c (%s) to broadcast unidirectionally to [M, N] = %s",
                      g_shape_str(s1, sizeof s1, rc, cd), g_shape_str(s2, sizeof s2, 2, out));
    }
  }
  gx_set(g, 0, 2, out, g_elt(a));
  return true;
}

/* --- pooling ---------------------------------------------------------------------------------------------- */

bool graph_infer_pool(gx *g)
{
  nc_type *x = g->in[0];
  if (!check_spatial_rank(g, 0, "input"))
    return false;
  size_t rank = g_rank(x), nsp = rank - 2;
  bool is_max = g->kind == G_MAX_POOL;
  nc_auto_pad ap;
  size_t n;
  const int64_t *ks = gx_ints(g, "kernel_shape", &n);
  if (!ks || n != nsp)
    return gx_error(g, "expects 'kernel_shape' to have %zu entries (one per spatial dim), got %zu", nsp, n);
  if (!check_window_attrs(g, nsp, is_max, &ap) || !check_bool_attr(g, "ceil_mode") ||
      !check_bool_attr(g, is_max ? "storage_order" : "count_include_pad"))
    return false;
  const int64_t *st = gx_ints(g, "strides", &n), *dl = is_max ? gx_ints(g, "dilations", &n) : NULL,
                *pd = gx_ints(g, "pads", &n), *xd = g_dims(x);
  bool ceil_mode = gx_int(g, "ceil_mode", 0);
  int64_t out[2 + NC_KERNEL_MAX_SPATIAL] = {xd[0], xd[1]};
  for (size_t i = 0; i < nsp; i++) {
    int64_t in = xd[2 + i];
    if (g_dyn(in)) {
      out[2 + i] = NC_DYNAMIC;
      continue;
    }
    nc_pool_params p = {.kernel_shape = {ks[i]}, .strides = {at(st, i, 1)}, .dilations = {at(dl, i, 1)},
                        .pads = {at(pd, i, 0), at(pd, nsp + i, 0)}, .auto_pad = ap, .ceil_mode = ceil_mode};
    int64_t xs[3] = {1, 1, in}, o[3];
    char err[160];
    if (!nc_kernel_pool_shape(&p, 3, xs, o, err, sizeof err)) {
      int64_t d = at(dl, i, 1), ek = ks[i] - 1 > (INT64_MAX - 1) / d ? INT64_MAX : d * (ks[i] - 1) + 1;
      int64_t padded = ap ? in : g_sat_add(in, g_sat_add(at(pd, i, 0), at(pd, nsp + i, 0)));
      if (ek > padded)
        return gx_error(g, "expects the window (%lld) to fit in the padded input (%lld) in spatial dim %zu",
                        (long long)ek, (long long)padded, i);
      return gx_error(g, "spatial dim %zu: %s", i, g_kernel_msg(err));
    }
    out[2 + i] = o[2];
  }
  gx_set(g, 0, rank, out, g_elt(x));
  return true;
}

bool graph_infer_global_pool(gx *g)
{
  nc_type *x = g->in[0];
  size_t rank = g_rank(x);
  if (rank < 3)
    return gx_error(g, "expects input of rank at least 3 ([N, C, D1, ...]), got rank %zu", rank);
  int64_t out[NC_MAX_RANK];
  for (size_t i = 0; i < rank; i++)
    out[i] = i < 2 ? g_dims(x)[i] : 1;
  gx_set(g, 0, rank, out, g_elt(x));
  return true;
}

/* --- normalisation ------------------------------------------------------------------------------------------ */

static bool check_per_channel(gx *g, size_t i, const char *what, int64_t c)
{
  nc_type *t = g->in[i];
  if (g_rank(t) == 1 && (g_dyn(c) || g_dyn(g_dims(t)[0]) || g_dims(t)[0] == c))
    return true;
  char s[96];
  return gx_error(g, "expects %s of shape [C] = [%lld], got %s", what, (long long)c,
                  g_shape_str(s, sizeof s, g_rank(t), g_dims(t)));
}

bool graph_infer_norm(gx *g)
{
  nc_type *x = g->in[0];
  size_t rank = g_rank(x), min_rank = g->kind == G_INSTANCE_NORM ? 3 : 2;
  if (rank < min_rank)
    return gx_error(g, "expects input of rank at least %zu ([N, C%s]), got rank %zu", min_rank,
                    min_rank == 3 ? ", D1, ..." : ", ...", rank);
  if (g->kind == G_LRN) {
    int64_t size = gx_int(g, "size", 0);
    if (size < 1)
      return gx_error(g, "expects 'size' to be positive, got %lld", (long long)size);
  } else {
    static const char *const names[] = {"scale", "b", "mean", "var"};
    int64_t c = g_dims(x)[1];
    for (size_t i = 1; i < g->n_in; i++)
      if (!check_per_channel(g, i, names[i - 1], c))
        return false;
  }
  g->out[0] = x;
  return true;
}

/* --- quantization -------------------------------------------------------------------------------------------- */

bool graph_infer_quant(gx *g)
{
  nc_type *x = g->in[0], *scale = g->in[1];
  bool q = g->kind == G_QUANTIZE_LINEAR;
  const char *sname = q ? "y_scale" : "x_scale", *zname = q ? "y_zero_point" : "x_zero_point";
  if (q && !check_bool_attr(g, "saturate"))
    return false;
  if (!q && g->n_in > 2 && !g_same_elt(g, 0, 2))
    return false;
  char s1[96], s2[96];
  if (!scalar_like(scale)) {
    size_t axis;
    if (g_rank(scale) != 1)
      return gx_error(g, "expects %s to be a scalar or 1-D (per axis), got rank %zu", sname, g_rank(scale));
    if (!g_axis(g, "'axis'", gx_int(g, "axis", 1), g_rank(x), false, &axis))
      return false;
    int64_t d = g_dims(x)[axis], s = g_dims(scale)[0];
    if (!g_dyn(d) && !g_dyn(s) && d != s)
      return gx_error(g, "expects %s of shape [x.shape[axis]] = [%lld] for per-axis quantization, got [%lld]", sname,
                      (long long)d, (long long)s);
  }
  if (g->n_in > 2) {
    nc_type *zp = g->in[2];
    bool same = g_rank(zp) == g_rank(scale);
    for (size_t i = 0; same && i < g_rank(zp); i++)
      same = g_dyn(g_dims(zp)[i]) || g_dyn(g_dims(scale)[i]) || g_dims(zp)[i] == g_dims(scale)[i];
    if (!same)
      return gx_error(g, "expects %s (%s) to have the shape of %s (%s)", zname,
                      g_shape_str(s1, sizeof s1, g_rank(zp), g_dims(zp)), sname,
                      g_shape_str(s2, sizeof s2, g_rank(scale), g_dims(scale)));
  }
  if (!q) {
    gx_set(g, 0, g_rank(x), g_dims(x), g_elt(scale));
    return true;
  }
  nc_type *hint = g->out[0] && nc_type_is_tensor(g->out[0]) ? g_elt(g->out[0]) : NULL;
  nc_type *zp_elt = g->n_in > 2 ? g_elt(g->in[2]) : NULL;
  nc_type *elt = hint ? hint : zp_elt ? zp_elt : nc_type_integer(g->ctx, 8, NC_UNSIGNED);
  if (zp_elt && elt != zp_elt) {
    char *a = nc_type_to_string(elt), *b = nc_type_to_string(zp_elt);
    gx_error(g, "expects the result element type (%s) to be y_zero_point's (%s)", a, b);
    free(a);
    free(b);
    return false;
  }
  if (!nc_type_is_integer(elt) || nc_type_get_width(elt) < 2 || nc_type_get_width(elt) > 32)
    return gx_error(g, "expects a 2- to 32-bit integer result element type");
  gx_set(g, 0, g_rank(x), g_dims(x), elt);
  return true;
}

/* graph.requantize: multiplier/shift pairs (one, or one per channel along
 * axis), a bias of one element or [C], the zero point inside the result's
 * range, relu only, clamp_min <= clamp_max; the result has acc's shape and
 * the declared element type (i8 by default). */
bool graph_infer_requantize(gx *g)
{
  nc_type *acc = g->in[0];
  size_t nm, ns;
  const int64_t *m = gx_ints(g, "multiplier", &nm), *s = gx_ints(g, "shift", &ns);
  if (nm == 0 || nm != ns)
    return gx_error(g, "expects 'multiplier' and 'shift' to have the same number of entries (at least one), got "
                       "%zu and %zu", nm, ns);
  if (!graph_check_rescales(g, m, s, nm))
    return false;
  int64_t nb = 1;
  if (g->n_in > 1) {
    nc_type *b = g->in[1];
    if (g_rank(b) > 1)
      return gx_error(g, "expects a bias of rank 0 or 1, got rank %zu", g_rank(b));
    nb = g_rank(b) ? g_dims(b)[0] : 1;
  }
  if (nm > 1 || nb != 1) { /* per channel along axis (a dynamic bias dim counts as per channel) */
    size_t axis;
    if (!g_axis(g, "'axis'", gx_int(g, "axis", 1), g_rank(acc), false, &axis))
      return false;
    int64_t c = g_dims(acc)[axis];
    if (!g_dyn(c) && nm != 1 && (int64_t)nm != c)
      return gx_error(g, "expects 1 or %lld multipliers (acc.shape[axis]), got %zu", (long long)c, nm);
    if (!g_dyn(c) && !g_dyn(nb) && nb != 1 && nb != c)
      return gx_error(g, "expects a bias of 1 or %lld elements (acc.shape[axis]), got %lld", (long long)c,
                      (long long)nb);
  }
  int64_t lo = gx_int(g, "clamp_min", INT64_MIN), hi = gx_int(g, "clamp_max", INT64_MAX);
  if (lo > hi)
    return gx_error(g, "expects clamp_min (%lld) at most clamp_max (%lld)", (long long)lo, (long long)hi);
  nc_type *elt = graph_check_relu_only(g) ? graph_int_result(g, true) : NULL;
  if (!elt)
    return false;
  gx_set(g, 0, g_rank(acc), g_dims(acc), elt);
  return true;
}

/* graph.add_integer / graph.sub_integer: two inputs of one static or
 * dynamic shape, a multiplier/shift pair per input, the zero point inside
 * the result's range, relu only; the result has the inputs' shape and the
 * declared element type (i8 by default). */
bool graph_infer_eltwise_integer(gx *g)
{
  nc_type *a = g->in[0], *b = g->in[1];
  if (g_rank(a) != g_rank(b) || memcmp(g_dims(a), g_dims(b), g_rank(a) * sizeof(int64_t)))
    return gx_error(g, "expects inputs of the same shape");
  size_t nm, ns;
  const int64_t *m = gx_ints(g, "multiplier", &nm), *s = gx_ints(g, "shift", &ns);
  if (nm != 2 || ns != 2)
    return gx_error(g, "expects 'multiplier' and 'shift' to have one entry per input (2), got %zu and %zu", nm, ns);
  if (!graph_check_rescales(g, m, s, nm))
    return false;
  nc_type *elt = graph_check_relu_only(g) ? graph_int_result(g, true) : NULL;
  if (!elt)
    return false;
  gx_set(g, 0, g_rank(a), g_dims(a), elt);
  return true;
}

/* --- fusion attributes --------------------------------------------------------------------------------------- */

bool graph_check_activation(gx *g)
{
  static const char *const names[] = {"relu", "leaky_relu", "clip", "sigmoid", "tanh"};
  const char *act = gx_str(g, "activation", NULL);
  bool known = false;
  for (size_t i = 0; act && i < NC_COUNTOF(names); i++)
    known |= !strcmp(act, names[i]);
  if (act && !known)
    return gx_error(g, "expects 'activation' to be one of relu, leaky_relu, clip, sigmoid, tanh, got \"%s\"", act);
  bool leaky = act && !strcmp(act, "leaky_relu"), clip = act && !strcmp(act, "clip");
  if (gx_attr(g, "activation_alpha") && !leaky)
    return gx_error(g, "expects 'activation_alpha' only with activation \"leaky_relu\"");
  if ((gx_attr(g, "activation_min") || gx_attr(g, "activation_max")) && !clip)
    return gx_error(g, "expects 'activation_min' and 'activation_max' only with activation \"clip\"");
  return true;
}

bool graph_infer_dynamic_quant(gx *g)
{
  nc_type *x = g->in[0];
  if (nc_type_get_element_type(x) != nc_type_f32(g->ctx))
    return gx_error(g, "expects an f32 input");
  nc_type *u8 = nc_type_integer(g->ctx, 8, NC_UNSIGNED);
  gx_set(g, 0, g_rank(x), g_dims(x), u8);
  gx_set(g, 1, 0, NULL, nc_type_f32(g->ctx));
  gx_set(g, 2, 0, NULL, u8);
  return true;
}
