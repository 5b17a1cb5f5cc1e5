/* deps_buffer.c: the minimum buffer of a channel, by sweeping the timeline.
 *
 * isl has already given each channel element its lifetime as two producer
 * iterations (first write, release step; deps_compute.c). What is left is
 * counting, which isl cannot do without barvinok: the producer's iterations
 * are enumerated and sorted into timeline steps, every element's lifetime
 * [write, release] becomes +1/-1 events on those steps, and a prefix sum
 * gives the live count per step. Cost: O(|D_P| log |D_P| + elements), with
 * points enumerated by isl_set_foreach_point on the bounded relations. */
#include "deps_internal.h"

#include <isl/point.h>
#include <isl/space.h>
#include <isl/val.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

bool nc_deps_point_coordinate(isl_point *pnt, int pos, int64_t *out)
{
  isl_val *v = isl_point_get_coordinate_val(pnt, isl_dim_set, pos);
  bool ok = v && isl_val_is_int(v) == isl_bool_true && isl_val_cmp_si(v, INT32_MAX) <= 0 &&
            isl_val_cmp_si(v, INT32_MIN) >= 0;
  if (ok)
    *out = isl_val_get_num_si(v);
  isl_val_free(v);
  return ok;
}

isl_stat nc_deps_points_collect(isl_point *pnt, void *user)
{
  nc_deps_points *pts = user;
  if (pts->count >= NC_DEPS_MAX_ENUMERATED_POINTS) {
    pts->too_many = true;
    isl_point_free(pnt);
    return isl_stat_error;
  }
  if (pts->count == pts->cap) {
    pts->cap = pts->cap ? 2 * pts->cap : 256;
    pts->v = nc_xrealloc(pts->v, (size_t)pts->cap * (size_t)(pts->n ? pts->n : 1) * sizeof *pts->v);
  }
  for (int i = 0; i < pts->n; i++)
    if (!nc_deps_point_coordinate(pnt, i, &pts->v[pts->count * pts->n + i])) {
      pts->bad_value = true; /* not an integer in int32 range */
      isl_point_free(pnt);
      return isl_stat_error;
    }
  pts->count++;
  isl_point_free(pnt);
  return isl_stat_ok;
}

static int lex_cmp(const int64_t *a, const int64_t *b, int n)
{
  for (int i = 0; i < n; i++)
    if (a[i] != b[i])
      return a[i] < b[i] ? -1 : 1;
  return 0;
}

void nc_deps_points_sort(nc_deps_points *pts)
{
  int n = pts->n;
  if (pts->count < 2 || n == 0)
    return;
  int64_t *src = pts->v, *dst = nc_xmalloc((size_t)pts->count * (size_t)n * sizeof *dst);
  for (int64_t width = 1; width < pts->count; width *= 2) {
    for (int64_t lo = 0; lo < pts->count; lo += 2 * width) {
      int64_t mid = lo + width < pts->count ? lo + width : pts->count;
      int64_t hi = lo + 2 * width < pts->count ? lo + 2 * width : pts->count;
      int64_t i = lo, j = mid, k = lo;
      while (i < mid || j < hi) {
        bool take_left = j >= hi || (i < mid && lex_cmp(&src[i * n], &src[j * n], n) <= 0);
        memcpy(&dst[k++ * n], &src[(take_left ? i++ : j++) * n], (size_t)n * sizeof *dst);
      }
    }
    int64_t *t = src;
    src = dst;
    dst = t;
  }
  free(dst);
  pts->v = src;
}

int64_t nc_deps_points_find(const nc_deps_points *pts, const int64_t *key)
{
  int64_t lo = 0, hi = pts->count - 1;
  while (lo <= hi) {
    int64_t mid = lo + (hi - lo) / 2;
    int c = lex_cmp(&pts->v[mid * pts->n], key, pts->n);
    if (c == 0)
      return mid;
    if (c < 0)
      lo = mid + 1;
    else
      hi = mid - 1;
  }
  return -1;
}

/* State of the lifetime sweep over the channel's elements. */
typedef struct sweep {
  const nc_deps_points *steps; /* the producer's iterations in timeline order */
  int64_t *delta;      /* steps->count + 1 event counters */
  int64_t *scratch;    /* 2 * steps->n coordinates of the current point */
  int64_t elements;
  bool too_many, bad_point;
} sweep;

/* One point [T[e] -> [P[write] -> P[release]]]: the last 2n coordinates
 * are the two producer iterations. */
static isl_stat add_lifetime(isl_point *pnt, void *user)
{
  sweep *sw = user;
  int n = sw->steps->n;
  isl_space *space = isl_point_get_space(pnt);
  isl_size total = isl_space_dim(space, isl_dim_set);
  isl_space_free(space);
  int64_t *w = sw->scratch;
  bool ok = total >= 2 * n;
  for (int i = 0; ok && i < 2 * n; i++)
    ok = nc_deps_point_coordinate(pnt, (int)total - 2 * n + i, &w[i]);
  isl_point_free(pnt);
  int64_t first = ok ? nc_deps_points_find(sw->steps, w) : -1;
  int64_t release = ok ? nc_deps_points_find(sw->steps, w + n) : -1;
  if (first < 0 || release < first) {
    sw->bad_point = true;
    return isl_stat_error;
  }
  if (++sw->elements > NC_DEPS_MAX_ENUMERATED_POINTS) {
    sw->too_many = true;
    return isl_stat_error;
  }
  sw->delta[first]++;
  sw->delta[release + 1]--;
  return isl_stat_ok;
}

/* The single point `row` of `space` as a set. */
static isl_set *point_set(isl_space *space, const int64_t *row, int n)
{
  isl_set *set = isl_set_universe(space);
  for (int i = 0; i < n; i++)
    set = isl_set_fix_si(set, isl_dim_set, (unsigned)i, (int)row[i]); /* |row[i]| <= 2^31 */
  return set;
}

bool nc_deps_buffer_compute(struct nc_deps_channel *ch, nc_deps_error *err)
{
  isl_ctx *ctx = isl_set_get_ctx(ch->p_domain);
  isl_size n = isl_set_dim(ch->p_domain, isl_dim_set);
  if (n < 0)
    return nc_deps_fail_isl(err, ctx, "buffer");
  nc_deps_points steps = {.n = n};
  if (isl_set_foreach_point(ch->p_domain, nc_deps_points_collect, &steps) < 0) {
    free(steps.v);
    if (steps.too_many)
      return nc_deps_fail(err, "buffer: the producer has more than %lld iterations",
                          (long long)NC_DEPS_MAX_ENUMERATED_POINTS);
    if (steps.bad_value)
      return nc_deps_fail(err, "buffer: a producer iteration is not an integer point");
    return nc_deps_fail_isl(err, ctx, "buffer");
  }
  nc_deps_points_sort(&steps);

  isl_union_set *lifetimes = isl_union_map_wrap(isl_union_map_range_product(
      isl_union_map_copy(ch->first_write), isl_union_map_copy(ch->release)));
  sweep sw = {&steps, nc_xcalloc((size_t)steps.count + 1, sizeof(int64_t)),
              nc_xcalloc(2 * (size_t)n + 1, sizeof(int64_t)), 0, false, false};
  isl_stat st = lifetimes ? isl_union_set_foreach_point(lifetimes, add_lifetime, &sw)
                          : isl_stat_error;
  isl_union_set_free(lifetimes);
  bool ok = st >= 0;
  if (!ok) {
    if (sw.too_many)
      nc_deps_fail(err, "buffer: the channel carries more than %lld elements",
                   (long long)NC_DEPS_MAX_ENUMERATED_POINTS);
    else if (sw.bad_point)
      nc_deps_fail(err, "buffer: an element's lifetime lies outside the producer's domain");
    else
      nc_deps_fail_isl(err, ctx, "buffer");
  } else {
    int64_t live = 0, best = -1, at = 0;
    for (int64_t t = 0; t < steps.count; t++) {
      live += sw.delta[t];
      if (live > best) {
        best = live;
        at = t;
      }
    }
    ch->buffer_size = best;
    ch->buffer_peak = point_set(isl_set_get_space(ch->p_domain), &steps.v[at * n], n);
    ok = ch->buffer_peak || nc_deps_fail_isl(err, ctx, "buffer");
  }
  free(sw.delta);
  free(sw.scratch);
  free(steps.v);
  return ok;
}
