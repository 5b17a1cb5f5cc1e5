/* graph_quantize_calibrate.c: the calibration step of graph-quantize.
 *
 * Activation scales come from the float graph itself: the reference
 * interpreter runs it on the calibration inputs (one batched nc_interp_run,
 * i.e. one inference per sample) and an observer records, for each op whose
 * result gets its own scale, the largest |x| it ever produced. Ranges are
 * taken after fused activations, because that is what the interpreter hands
 * the observer and what the int8 result holds.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "graph_quantize_internal.h"
#include "nc/dialects/graph/interp.h"
#include "nc/ir/asm.h"
#include "nc/support/hash.h"

/* --- pointer map ------------------------------------------------------------------------------------------ */

static size_t slot_of(const gq_map *m, const void *key)
{
  size_t i = (size_t)nc_hash_mix((uint64_t)(uintptr_t)key, NC_HASH_P1) & (m->cap - 1);
  while (m->keys[i] && m->keys[i] != key)
    i = (i + 1) & (m->cap - 1);
  return i;
}

void gq_map_init(gq_map *m, size_t expected)
{
  m->cap = 16;
  while (m->cap < 2 * expected + 2)
    m->cap *= 2;
  m->keys = nc_xcalloc(m->cap, sizeof *m->keys);
  m->vals = nc_xcalloc(m->cap, sizeof *m->vals);
  m->n = 0;
}

void gq_map_free(gq_map *m)
{
  free(m->keys);
  free(m->vals);
  memset(m, 0, sizeof *m);
}

void gq_map_put(gq_map *m, const void *key, size_t val)
{
  if (2 * (m->n + 1) > m->cap) { /* grow */
    gq_map old = *m;
    gq_map_init(m, old.n + 1);
    for (size_t i = 0; i < old.cap; i++)
      if (old.keys[i])
        gq_map_put(m, old.keys[i], old.vals[i]);
    gq_map_free(&old);
  }
  size_t i = slot_of(m, key);
  if (!m->keys[i]) {
    m->keys[i] = key;
    m->n++;
  }
  m->vals[i] = val;
}

size_t gq_map_get(const gq_map *m, const void *key)
{
  size_t i = slot_of(m, key);
  return m->keys[i] ? m->vals[i] : SIZE_MAX;
}

/* --- the calibration data ------------------------------------------------------------------------------- */

static const char *shape_str(char *buf, size_t len, int rank, const int64_t *shape)
{
  size_t o = (size_t)snprintf(buf, len, "[");
  for (int i = 0; i < rank && o < len; i++)
    o += (size_t)snprintf(buf + o, len - o, "%s%lld", i ? ", " : "", (long long)shape[i]);
  if (o < len)
    snprintf(buf + o, len - o, "]");
  return buf;
}

int64_t gq_calibration_view(nc_op *func, nc_value *arg, const nc_tensor *calib, const char *path,
                            int64_t max_samples, nc_tensor *view)
{
  nc_type *t = nc_value_get_type(arg);
  int rank = (int)nc_type_get_rank(t);
  const int64_t *dims = nc_type_get_shape(t);
  char want[256], got[256];
  shape_str(want, sizeof want, rank, dims);
  shape_str(got, sizeof got, calib->rank, calib->shape);
  /* [N * d0, d1, ...] (the interpreter's batched form) or [N, d0, d1, ...] */
  bool batched = rank >= 1 && calib->rank == rank && dims[0] > 0 && calib->shape[0] % dims[0] == 0;
  bool stacked = calib->rank == rank + 1;
  for (int i = 1; batched && i < rank; i++)
    batched = calib->shape[i] == dims[i];
  for (int i = 0; stacked && i < rank; i++)
    stacked = calib->shape[i + 1] == dims[i];
  if (!batched && !stacked) {
    char forms[600], rest[256] = "";
    for (int i = 1; i < rank; i++) /* ", d1, d2, ..." */
      snprintf(rest + strlen(rest), sizeof rest - strlen(rest), ", %lld", (long long)dims[i]);
    if (rank)
      snprintf(forms, sizeof forms, "[N, %s or [N*%lld%s]", want + 1, (long long)dims[0], rest);
    else
      snprintf(forms, sizeof forms, "[N]");
    nc_op_emit_error(func, "graph-quantize: the calibration data '%s' has shape %s; expected N inputs of shape %s, "
                     "i.e. an array of shape %s", path, got, want, forms);
    return 0;
  }
  if (calib->dtype != NC_DT_F32) {
    nc_op_emit_error(func, "graph-quantize: the calibration data '%s' holds %s values; expected f32 inputs", path,
                     nc_dtype_name(calib->dtype));
    return 0;
  }
  int64_t n = stacked ? calib->shape[0] : calib->shape[0] / dims[0];
  if (n == 0) {
    nc_op_emit_error(func, "graph-quantize: the calibration data '%s' holds no samples", path);
    return 0;
  }
  if (max_samples > 0 && n > max_samples)
    n = max_samples;
  /* a NaN or infinity would make every range (and so every scale) meaningless */
  int64_t per_sample = 1;
  for (int i = 0; i < rank; i++)
    per_sample *= dims[i];
  const float *x = calib->data;
  for (int64_t k = 0; k < n * per_sample; k++)
    if (!isfinite(x[k])) {
      nc_op_emit_error(func, "graph-quantize: the calibration data '%s' holds %s at element %lld of sample %lld; "
                       "calibration needs finite values", path, isnan(x[k]) ? "NaN" : "an infinity",
                       (long long)(k % per_sample), (long long)(k / per_sample));
      return 0;
    }
  memset(view, 0, sizeof *view);
  view->dtype = NC_DT_F32;
  view->rank = rank;
  memcpy(view->shape, dims, (size_t)rank * sizeof *dims);
  if (rank)
    view->shape[0] = n * dims[0];
  view->data = calib->data; /* the first n samples, in place */
  return n;
}

/* --- running the float graph ------------------------------------------------------------------------------ */

typedef struct observer {
  gq_map index; /* op -> position in max_abs */
  double *max_abs;
  const int *qmax; /* per op, for the clipping methods */
  gq_calib_method method;
  double percentile;
} observer;

static void observe(nc_op *op, size_t n_results, const nc_tensor *const *results, void *user)
{
  observer *o = user;
  size_t i = gq_map_get(&o->index, op);
  if (i == SIZE_MAX || n_results == 0 || results[0]->dtype != NC_DT_F32)
    return;
  double m = gq_clip_range(results[0]->data, nc_tensor_num_elements(results[0]), o->method, o->percentile,
                           o->qmax ? o->qmax[i] : 127);
  o->max_abs[i] = m > o->max_abs[i] ? m : o->max_abs[i]; /* the one batched run: a single call per op */
}

bool gq_calibrate(nc_op *func, const nc_tensor *view, size_t n, nc_op *const *ops, double *max_abs,
                  double *input_max_abs)
{
  return gq_calibrate_method(func, view, n, ops, NULL, GQ_CALIB_MAXABS, 100, max_abs, input_max_abs);
}

bool gq_calibrate_method(nc_op *func, const nc_tensor *view, size_t n, nc_op *const *ops, const int *qmax,
                         gq_calib_method method, double percentile, double *max_abs, double *input_max_abs)
{
  *input_max_abs = gq_clip_range(view->data, nc_tensor_num_elements(view), method, percentile, 127);
  nc_interp *it = nc_interp_create(func);
  if (!it)
    return false;
  observer o = {.max_abs = max_abs, .qmax = qmax, .method = method, .percentile = percentile};
  gq_map_init(&o.index, n);
  for (size_t i = 0; i < n; i++) {
    gq_map_put(&o.index, ops[i], i);
    max_abs[i] = 0;
  }
  nc_interp_set_observer(it, observe, &o);
  size_t n_out = 0;
  nc_tensor **out = NULL;
  bool ok = nc_interp_run(it, 1, &view, &n_out, &out);
  if (!ok)
    nc_op_emit_error(func, "graph-quantize: the float graph failed on the calibration data");
  nc_interp_outputs_destroy(n_out, out);
  nc_interp_destroy(it);
  gq_map_free(&o.index);
  return ok;
}
