/* graph_quantize_clip.c: the range each activation scale covers
 * (graph-quantize{calibration-method=maxabs|percentile|mse}).
 *
 * max-abs keeps every calibration value representable, which at 4 and 2
 * bits spends most levels on rare outliers; clipping at a percentile of
 * |x|, or at the bound that minimises the squared quantization error of
 * the calibration values (saturation included), trades those outliers for
 * resolution. Both work on a histogram of |x| so that the cost is linear in
 * the activations, never a sort.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "graph_quantize_internal.h"

enum { BINS = 2048, CANDIDATES = 128 };

bool gq_calib_method_parse(const char *s, gq_calib_method *out)
{
  if (!strcmp(s, "maxabs"))
    *out = GQ_CALIB_MAXABS;
  else if (!strcmp(s, "percentile"))
    *out = GQ_CALIB_PERCENTILE;
  else if (!strcmp(s, "mse"))
    *out = GQ_CALIB_MSE;
  else
    return false;
  return true;
}

/* Squared error of quantizing a value at `v` with step s = clip / qmax:
 * rounding inside the range, saturation beyond it. */
static double sq_err(double v, double clip, int qmax)
{
  double s = clip / qmax, q = rint(v / s);
  q = q > qmax ? qmax : q;
  double d = v - q * s;
  return d * d;
}

double gq_clip_range(const float *x, int64_t n, gq_calib_method method, double percentile, int qmax)
{
  double max = 0;
  for (int64_t k = 0; k < n; k++)
    max = fabs((double)x[k]) > max ? fabs((double)x[k]) : max; /* false for NaN */
  if (method == GQ_CALIB_MAXABS || max == 0)
    return max;
  int64_t *hist = nc_xcalloc(BINS, sizeof *hist), total = 0;
  for (int64_t k = 0; k < n; k++) {
    double a = fabs((double)x[k]);
    if (a == a) {
      int64_t b = (int64_t)(a / max * BINS);
      hist[b >= BINS ? BINS - 1 : b]++;
      total++;
    }
  }
  double best = max;
  if (method == GQ_CALIB_PERCENTILE) { /* the upper edge of the bin holding the percentile */
    double want = percentile / 100.0 * (double)total;
    int64_t seen = 0;
    for (int b = 0; b < BINS; b++) {
      seen += hist[b];
      if ((double)seen >= want) {
        best = max * (b + 1) / BINS;
        break;
      }
    }
  } else { /* GQ_CALIB_MSE: the candidate clip with the least error over the bin centres */
    double best_err = INFINITY;
    for (int c = 1; c <= CANDIDATES; c++) {
      double clip = max * c / CANDIDATES, err = 0;
      for (int b = 0; b < BINS; b++)
        if (hist[b])
          err += (double)hist[b] * sq_err(max * (b + 0.5) / BINS, clip, qmax);
      if (err < best_err)
        best_err = err, best = clip;
    }
  }
  free(hist);
  return best;
}
