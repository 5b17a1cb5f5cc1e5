/* resize.c: ONNX Resize (and Upsample, its older form). Mode nearest: each
 * output element copies one input element, chosen per dim by ONNX's
 * coordinate transformation and nearest rounding; only index arithmetic, so
 * the same kernel serves float and integer tensors bit for bit. Mode linear:
 * floats as onnx's reference computes them (in double, the last dim first),
 * integers with fixed-point weights of NC_RESIZE_LINEAR_BITS fraction bits
 * from the exact rational source coordinate and one round-half-even at the
 * end, the rule the dataflow layer and the simulators implement. Cubic is
 * not implemented (the importer refuses it).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kernels_internal.h"

bool nc_kernel_resize_nearest_map(const char *coord_mode, const char *nearest_mode, int64_t in_len,
                                  int64_t out_len, int64_t *map, char *err, size_t errlen)
{
  if (in_len < 1 || out_len < 0)
    return nc_kerr(err, errlen, "resize: bad sizes %lld -> %lld", (long long)in_len, (long long)out_len);
  double scale = (double)out_len / (double)in_len;
  for (int64_t o = 0; o < out_len; o++) {
    double x;
    if (!strcmp(coord_mode, "half_pixel"))
      x = ((double)o + 0.5) / scale - 0.5;
    else if (!strcmp(coord_mode, "pytorch_half_pixel"))
      x = out_len > 1 ? ((double)o + 0.5) / scale - 0.5 : 0;
    else if (!strcmp(coord_mode, "asymmetric"))
      x = (double)o / scale;
    else if (!strcmp(coord_mode, "align_corners"))
      x = out_len > 1 ? (double)o * (double)(in_len - 1) / (double)(out_len - 1) : 0;
    else if (!strcmp(coord_mode, "tf_half_pixel_for_nn"))
      x = ((double)o + 0.5) / scale;
    else
      return nc_kerr(err, errlen, "resize: unsupported coordinate_transformation_mode \"%s\"", coord_mode);
    double r;
    if (!strcmp(nearest_mode, "round_prefer_floor"))
      r = x == floor(x) + 0.5 ? floor(x) : round(x);
    else if (!strcmp(nearest_mode, "round_prefer_ceil"))
      r = x == floor(x) + 0.5 ? ceil(x) : round(x);
    else if (!strcmp(nearest_mode, "floor"))
      r = floor(x);
    else if (!strcmp(nearest_mode, "ceil"))
      r = ceil(x);
    else
      return nc_kerr(err, errlen, "resize: unsupported nearest_mode \"%s\"", nearest_mode);
    int64_t i = (int64_t)r;
    map[o] = i < 0 ? 0 : i >= in_len ? in_len - 1 : i;
  }
  return true;
}

bool nc_kernel_resize_nearest(const char *coord_mode, const char *nearest_mode, const nc_tensor *x, nc_tensor *y,
                              char *err, size_t errlen)
{
  if (!nc_k_check_in("resize", "X", x, err, errlen) ||
      !nc_k_check_out("resize", y, x->dtype, x->rank, y->shape, err, errlen))
    return false;
  int rank = x->rank;
  int64_t total = 0, maps_len = 0, off[NC_TENSOR_MAX_RANK + 1];
  for (int d = 0; d < rank; d++) {
    off[d] = maps_len;
    maps_len += y->shape[d];
  }
  int64_t *maps = nc_xmalloc((size_t)(maps_len ? maps_len : 1) * sizeof *maps);
  for (int d = 0; d < rank; d++)
    if (!nc_kernel_resize_nearest_map(coord_mode, nearest_mode, x->shape[d], y->shape[d], maps + off[d], err,
                                      errlen)) {
      free(maps);
      return false;
    }
  int64_t xst[NC_TENSOR_MAX_RANK], idx[NC_TENSOR_MAX_RANK] = {0};
  int64_t s = 1;
  for (int d = rank - 1; d >= 0; d--)
    xst[d] = s, s *= x->shape[d];
  total = 1;
  for (int d = 0; d < rank; d++)
    total *= y->shape[d];
  size_t es = nc_dtype_size(x->dtype);
  const char *src = x->data;
  char *dst = y->data;
  for (int64_t e = 0; e < total; e++) {
    int64_t at = 0;
    for (int d = 0; d < rank; d++)
      at += maps[off[d] + idx[d]] * xst[d];
    memcpy(dst + (size_t)e * es, src + (size_t)at * es, es);
    for (int d = rank - 1; d >= 0 && ++idx[d] == y->shape[d]; d--)
      idx[d] = 0;
  }
  free(maps);
  return true;
}

bool nc_kernel_resize_nearest_coord(const char *coord_mode, const char *nearest_mode, int64_t in_len,
                                    int64_t out_len, int64_t abd[3], char *err, size_t errlen)
{
  if (in_len < 1 || out_len < 1 || in_len > INT32_MAX || out_len > INT32_MAX)
    return nc_kerr(err, errlen, "resize: bad sizes %lld -> %lld", (long long)in_len, (long long)out_len);
  int64_t a, b, d; /* the source coordinate (a o + b) / d */
  bool one = out_len == 1;
  if (!strcmp(coord_mode, "half_pixel") || (!strcmp(coord_mode, "pytorch_half_pixel") && !one))
    a = 2 * in_len, b = in_len - out_len, d = 2 * out_len;
  else if (!strcmp(coord_mode, "pytorch_half_pixel"))
    a = 0, b = 0, d = 1;
  else if (!strcmp(coord_mode, "asymmetric"))
    a = in_len, b = 0, d = out_len;
  else if (!strcmp(coord_mode, "align_corners"))
    a = one ? 0 : in_len - 1, b = 0, d = one ? 1 : out_len - 1;
  else if (!strcmp(coord_mode, "tf_half_pixel_for_nn"))
    a = 2 * in_len, b = in_len, d = 2 * out_len;
  else
    return nc_kerr(err, errlen, "resize: unsupported coordinate_transformation_mode \"%s\"", coord_mode);
  /* the rounding as a floor: ceil(x) = floor(x + (d - 1) / d), round half down ceil(x - 1/2), half up floor(x + 1/2) */
  if (!strcmp(nearest_mode, "floor"))
    abd[0] = a, abd[1] = b, abd[2] = d;
  else if (!strcmp(nearest_mode, "ceil"))
    abd[0] = a, abd[1] = b + d - 1, abd[2] = d;
  else if (!strcmp(nearest_mode, "round_prefer_floor"))
    abd[0] = 2 * a, abd[1] = 2 * b + d - 1, abd[2] = 2 * d;
  else if (!strcmp(nearest_mode, "round_prefer_ceil"))
    abd[0] = 2 * a, abd[1] = 2 * b + d, abd[2] = 2 * d;
  else
    return nc_kerr(err, errlen, "resize: unsupported nearest_mode \"%s\"", nearest_mode);
  /* the index map computes in double: the exact form must agree with it everywhere */
  int64_t *map = nc_xmalloc((size_t)out_len * sizeof *map);
  bool ok = nc_kernel_resize_nearest_map(coord_mode, nearest_mode, in_len, out_len, map, err, errlen);
  for (int64_t o = 0; ok && o < out_len; o++) {
    int64_t n = abd[0] * o + abd[1], q = n / abd[2] - (n % abd[2] != 0 && n < 0);
    ok = map[o] == (q < 0 ? 0 : q >= in_len ? in_len - 1 : q);
    if (!ok)
      nc_kerr(err, errlen, "resize: the nearest index of output %lld (%lld -> %lld) is not floor((a o + b) / d) "
              "exactly", (long long)o, (long long)in_len, (long long)out_len);
  }
  free(map);
  return ok;
}

/* --- mode linear -------------------------------------------------------------------------------------------------- */

bool nc_kernel_resize_linear_coord(const char *coord_mode, int64_t in_len, int64_t out_len, int64_t abd[3],
                                   char *err, size_t errlen)
{
  if (in_len < 1 || out_len < 1)
    return nc_kerr(err, errlen, "resize: bad sizes %lld -> %lld", (long long)in_len, (long long)out_len);
  bool pytorch = !strcmp(coord_mode, "pytorch_half_pixel");
  if (pytorch && out_len == 1) {
    abd[0] = 0, abd[1] = -1, abd[2] = 2;
  } else if (pytorch || !strcmp(coord_mode, "half_pixel")) { /* ((2o + 1) in - out) / (2 out) */
    abd[0] = 2 * in_len, abd[1] = in_len - out_len, abd[2] = 2 * out_len;
  } else if (!strcmp(coord_mode, "asymmetric")) {
    abd[0] = in_len, abd[1] = 0, abd[2] = out_len;
  } else if (!strcmp(coord_mode, "align_corners")) {
    abd[0] = out_len > 1 ? in_len - 1 : 0, abd[1] = 0, abd[2] = out_len > 1 ? out_len - 1 : 1;
  } else {
    return nc_kerr(err, errlen, "resize: coordinate_transformation_mode \"%s\" has no linear mode (half_pixel, "
                   "pytorch_half_pixel, asymmetric, align_corners)", coord_mode);
  }
  return true;
}

static int64_t floor_div(int64_t n, int64_t d)
{
  int64_t q = n / d;
  return q - (n % d != 0 && n < 0);
}

void nc_kernel_resize_linear_tap(const int64_t abd[3], int64_t n, int64_t o, int64_t *i0, int64_t *i1, int64_t *w1)
{
  int64_t num = abd[0] * o + abd[1], f = floor_div(num, abd[2]);
  *w1 = nc_div_round_half_even((num - f * abd[2]) << NC_RESIZE_LINEAR_BITS, abd[2]);
  *i0 = f < 0 ? 0 : f >= n ? n - 1 : f;
  *i1 = f + 1 < 0 ? 0 : f + 1 >= n ? n - 1 : f + 1;
}

/* The source coordinate as onnx's reference computes it (resize.py's
 * interpolate_1d_with_x): in double, with scale = out / in. */
static double reference_coord(const char *mode, int64_t in_len, int64_t out_len, int64_t o)
{
  double scale = (double)out_len / (double)in_len;
  if (!strcmp(mode, "align_corners"))
    return out_len == 1 ? 0. : (double)o * (double)(in_len - 1) / (double)(out_len - 1);
  if (!strcmp(mode, "asymmetric"))
    return (double)o / scale;
  if (!strcmp(mode, "pytorch_half_pixel") && out_len == 1)
    return -0.5;
  return ((double)o + 0.5) / scale - 0.5;
}

typedef struct taps {
  int64_t i0, i1, w1; /* integer */
  double r;           /* float: the second's weight; the first's is 1 - r */
} taps;

bool nc_kernel_resize_linear(const char *coord_mode, const nc_tensor *x, nc_tensor *y, char *err, size_t errlen)
{
  if (!nc_k_check_in("resize", "X", x, err, errlen) ||
      !nc_k_check_out("resize", y, x->dtype, x->rank, y->shape, err, errlen))
    return false;
  bool integer = nc_dtype_is_integer(x->dtype);
  if (integer && (nc_dtype_size(x->dtype) > 2 || x->dtype == NC_DT_BOOL))
    return nc_kerr(err, errlen, "resize: mode linear on %s (integers of at most 16 bits only)",
                   nc_dtype_name(x->dtype));
  int rank = x->rank;
  int64_t off[NC_TENSOR_MAX_RANK + 1], n_taps = 0, total = 1;
  for (int d = 0; d < rank; d++) {
    off[d] = n_taps;
    n_taps += y->shape[d];
    total *= y->shape[d];
  }
  taps *t = nc_xmalloc((size_t)(n_taps ? n_taps : 1) * sizeof *t);
  int interp[NC_TENSOR_MAX_RANK], k = 0; /* the dims with a nonzero weight */
  for (int d = 0; d < rank; d++) {
    int64_t abd[3];
    if (!nc_kernel_resize_linear_coord(coord_mode, x->shape[d], y->shape[d], abd, err, errlen)) {
      free(t);
      return false;
    }
    bool any = false;
    for (int64_t o = 0; o < y->shape[d]; o++) {
      taps *p = &t[off[d] + o];
      nc_kernel_resize_linear_tap(abd, x->shape[d], o, &p->i0, &p->i1, &p->w1);
      any |= integer && p->w1 != 0;
      if (!integer) { /* the reference's neighbours: floor(c) and floor(c) + 1 clamped, weight c - floor(c) */
        double c = reference_coord(coord_mode, x->shape[d], y->shape[d], o), f = floor(c);
        int64_t fi = (int64_t)f, n = x->shape[d];
        p->i0 = fi < 0 ? 0 : fi >= n ? n - 1 : fi;
        p->i1 = fi + 1 < 0 ? 0 : fi + 1 >= n ? n - 1 : fi + 1;
        p->r = c - f;
        any |= p->r != 0; /* a weight of 0 gives the first neighbour exactly */
      }
    }
    if (any)
      interp[k++] = d;
  }
  if (integer && k > 4) {
    free(t);
    return nc_kerr(err, errlen, "resize: mode linear on integers interpolates at most 4 dims, not %d", k);
  }
  int64_t xst[NC_TENSOR_MAX_RANK], idx[NC_TENSOR_MAX_RANK] = {0};
  int64_t s = 1;
  for (int d = rank - 1; d >= 0; d--)
    xst[d] = s, s *= x->shape[d];
  for (int64_t e = 0; e < total; e++) {
    int64_t base = 0; /* the offset of the dims that copy index i0 */
    for (int d = 0; d < rank; d++)
      base += t[off[d] + idx[d]].i0 * xst[d];
    if (integer) {
      int64_t acc = 0;
      for (int corner = 0; corner < 1 << k; corner++) {
        int64_t at = base, w = 1;
        for (int j = 0; j < k; j++) {
          const taps *p = &t[off[interp[j]] + idx[interp[j]]];
          bool hi = corner >> j & 1;
          at += ((hi ? p->i1 : p->i0) - p->i0) * xst[interp[j]];
          w *= hi ? p->w1 : ((int64_t)1 << NC_RESIZE_LINEAR_BITS) - p->w1;
        }
        if (w)
          acc += w * nc_elem_load_i64(x->data, x->dtype, at);
      }
      nc_elem_store_i64(y->data, y->dtype, e, nc_round_half_even_shift(acc, NC_RESIZE_LINEAR_BITS * k));
    } else {
      /* the reference's nesting: interpolate the last dim first, then combine outward */
      double v[16];
      int64_t n_corner = (int64_t)1 << k;
      double *vals = n_corner <= (int64_t)NC_COUNTOF(v) ? v : nc_xmalloc((size_t)n_corner * sizeof *vals);
      for (int64_t corner = 0; corner < n_corner; corner++) { /* bit j: dim interp[j] takes i1 */
        int64_t at = base;
        for (int j = 0; j < k; j++) {
          const taps *p = &t[off[interp[j]] + idx[interp[j]]];
          at += ((corner >> j & 1 ? p->i1 : p->i0) - p->i0) * xst[interp[j]];
        }
        vals[corner] = nc_elem_load_f64(x->data, x->dtype, at);
      }
      for (int j = k - 1; j >= 0; j--) { /* fold dim interp[j] (bit j, the highest left) */
        const taps *p = &t[off[interp[j]] + idx[interp[j]]];
        int64_t half = (int64_t)1 << j;
        for (int64_t c = 0; c < half; c++)
          vals[c] = (1 - p->r) * vals[c] + p->r * vals[c + half];
      }
      nc_elem_store_f64(y->data, y->dtype, e, vals[0]);
      if (vals != v)
        free(vals);
    }
    for (int d = rank - 1; d >= 0 && ++idx[d] == y->shape[d]; d--)
      idx[d] = 0;
  }
  free(t);
  return true;
}
