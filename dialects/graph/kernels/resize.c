/* resize.c: ONNX Resize in mode nearest (and Upsample, its older form): each
 * output element copies one input element, chosen per dim by ONNX's
 * coordinate transformation and nearest rounding. Only index arithmetic, so
 * the same kernel serves float and integer tensors bit for bit; linear and
 * cubic modes are not implemented (the importer refuses them).
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
