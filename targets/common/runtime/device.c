/* device.c: the runtime ABI (include/nc/runtime/nc_runtime.h) on top of the
 * .ncb container and the targets' simulators: open = read + check the
 * container + load into the simulator the header names; inputs are held
 * on the host side until nc_device_run hands them to the simulator; the
 * float entry points quantize and dequantize exactly as ONNX's
 * QuantizeLinear / DequantizeLinear (and nc's interpreter) do.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nc/runtime/nc_runtime.h"
#include "rt_util.h"
#include "sim.h"

struct nc_device {
  uint8_t *image; /* the binary; sections (and the simulator's state) point into it */
  size_t size;
  nc_ncb ncb;
  const nc_target_sim *sim;
  void *state;
  uint8_t **inputs, **outputs; /* batch x one inference each, in each tensor's storage type */
  nc_figures *figures;         /* of the last run */
  size_t *input_batch;        /* N of each written input (0: not written) */
  size_t batch;               /* N of the last successful run (0: none) */
};

static _Thread_local char last_error[1024];

static int set_error(const char *fmt, ...) NC_RT_PRINTF(1, 2);
static int set_error(const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(last_error, sizeof last_error, fmt, ap);
  va_end(ap);
  return -1;
}

const char *nc_device_error(void) { return last_error; }

/* Simulators registered at run time (plugins), after the built-in ones.
 * Registration happens when a plugin is loaded, before devices are opened. */
#define MAX_REGISTERED_SIMS 64
static const nc_target_sim *registered_sims[MAX_REGISTERED_SIMS];
static size_t n_registered_sims;

const nc_target_sim *nc_runtime_lookup_sim(const char *name)
{
  for (const nc_target_sim *const *s = nc_all_target_sims; *s; s++)
    if (!strcmp((*s)->name, name))
      return *s;
  for (size_t i = 0; i < n_registered_sims; i++)
    if (!strcmp(registered_sims[i]->name, name))
      return registered_sims[i];
  return NULL;
}

bool nc_runtime_register_sim(const nc_target_sim *sim)
{
  const nc_target_sim *old = nc_runtime_lookup_sim(sim->name);
  if (old)
    return old == sim;
  if (n_registered_sims == MAX_REGISTERED_SIMS)
    return false;
  registered_sims[n_registered_sims++] = sim;
  return true;
}

/* "a, b, c": the names of every known simulator. */
static void known_sims(char *out, size_t n)
{
  size_t len = 0;
  out[0] = 0;
  for (const nc_target_sim *const *s = nc_all_target_sims; *s && len < n; s++)
    len += (size_t)snprintf(out + len, n - len, "%s%s", len ? ", " : "", (*s)->name);
  for (size_t i = 0; i < n_registered_sims && len < n; i++)
    len += (size_t)snprintf(out + len, n - len, "%s%s", len ? ", " : "", registered_sims[i]->name);
}

/* Bytes of n elements of tensor t in host buffers. */
static size_t storage(const nc_ncb_tensor *t, size_t n) { return n * nc_ncb_dtype_storage_bytes(t->dtype); }

/* Takes ownership of image (malloc'ed). */
static nc_device *open_image(uint8_t *image, size_t size)
{
  char err[768];
  nc_device *dev = nc_rt_calloc(1, sizeof *dev);
  dev->image = image;
  dev->size = size;
  last_error[0] = 0;
  if (!nc_ncb_parse(image, size, &dev->ncb, err, sizeof err)) {
    set_error("%s", err);
    goto fail;
  }
  if (!(dev->sim = nc_runtime_lookup_sim(dev->ncb.target))) {
    char known[256];
    known_sims(known, sizeof known);
    set_error("the binary is for target '%s', which this runtime does not know (it knows: %s)", dev->ncb.target,
              known);
    goto fail;
  }
  if (!(dev->state = dev->sim->load(&dev->ncb, err, sizeof err, dev->sim->userData))) {
    set_error("%s", err);
    goto fail;
  }
  dev->inputs = nc_rt_calloc(dev->ncb.n_inputs, sizeof *dev->inputs);
  dev->input_batch = nc_rt_calloc(dev->ncb.n_inputs, sizeof *dev->input_batch);
  dev->outputs = nc_rt_calloc(dev->ncb.n_outputs, sizeof *dev->outputs);
  dev->figures = nc_figures_create();
  return dev;
fail:
  nc_device_destroy(dev);
  return NULL;
}

nc_device *nc_device_open(const char *path)
{
  FILE *f = fopen(path, "rb");
  if (!f) {
    set_error("cannot open '%s': %s", path, strerror(errno));
    return NULL;
  }
  size_t cap = 1 << 16, len = 0;
  uint8_t *buf = nc_rt_malloc(cap);
  for (size_t n; (n = fread(buf + len, 1, cap - len, f)) > 0;)
    if ((len += n) == cap)
      buf = nc_rt_realloc(buf, cap *= 2);
  bool bad = ferror(f);
  fclose(f);
  if (bad) {
    free(buf);
    set_error("cannot read '%s'", path);
    return NULL;
  }
  return open_image(buf, len);
}

nc_device *nc_device_open_memory(const void *data, size_t size)
{
  if (!data && size) {
    set_error("nc_device_open_memory: NULL data");
    return NULL;
  }
  uint8_t *copy = nc_rt_malloc(size);
  if (size)
    memcpy(copy, data, size);
  return open_image(copy, size);
}

void nc_device_destroy(nc_device *dev)
{
  if (!dev)
    return;
  if (dev->state)
    dev->sim->destroy(dev->state, dev->sim->userData);
  nc_figures_destroy(dev->figures);
  for (size_t i = 0; dev->inputs && i < dev->ncb.n_inputs; i++)
    free(dev->inputs[i]);
  for (size_t i = 0; dev->outputs && i < dev->ncb.n_outputs; i++)
    free(dev->outputs[i]);
  free(dev->inputs);
  free(dev->outputs);
  free(dev->input_batch);
  nc_ncb_clear(&dev->ncb);
  free(dev->image);
  free(dev);
}

const char *nc_device_target(const nc_device *dev) { return dev ? dev->ncb.target : ""; }
size_t nc_device_num_inputs(const nc_device *dev) { return dev ? dev->ncb.n_inputs : 0; }
size_t nc_device_num_outputs(const nc_device *dev) { return dev ? dev->ncb.n_outputs : 0; }

static void fill_info(const nc_ncb_tensor *t, nc_device_tensor_info *info)
{
  memset(info, 0, sizeof *info);
  memcpy(info->name, t->name, sizeof info->name);
  info->dtype = (int)t->dtype;
  info->rank = (int)t->rank;
  for (uint32_t i = 0; i < t->rank; i++)
    info->dims[i] = t->dims[i];
  info->elements = nc_ncb_tensor_elements(t);
  info->bytes = storage(t, info->elements);
  info->scale = t->scale;
  info->zero_point = t->zero_point;
}

int nc_device_input_info(const nc_device *dev, size_t i, nc_device_tensor_info *info)
{
  if (!dev || i >= dev->ncb.n_inputs)
    return set_error("input %zu does not exist", i);
  fill_info(&dev->ncb.inputs[i], info);
  return 0;
}

int nc_device_output_info(const nc_device *dev, size_t i, nc_device_tensor_info *info)
{
  if (!dev || i >= dev->ncb.n_outputs)
    return set_error("output %zu does not exist", i);
  fill_info(&dev->ncb.outputs[i], info);
  return 0;
}

/* The batch N that `n` elements of input/output t make, or 0 (after an error). */
static size_t batch_of(const nc_ncb_tensor *t, size_t n, const char *what, size_t i)
{
  size_t per = nc_ncb_tensor_elements(t);
  if (n == 0 || n % per) {
    set_error("%s %zu ('%s') takes a multiple of %zu elements (one inference), not %zu", what, i, t->name, per, n);
    return 0;
  }
  return n / per;
}

/* A new buffer for n elements of input i. */
static uint8_t *input_slot(nc_device *dev, size_t i, size_t n)
{
  free(dev->inputs[i]);
  dev->inputs[i] = nc_rt_malloc(storage(&dev->ncb.inputs[i], n));
  dev->input_batch[i] = n / nc_ncb_tensor_elements(&dev->ncb.inputs[i]);
  return dev->inputs[i];
}

/* Element k of a host buffer of dtype t as an integer (integer dtypes). */
static int64_t load_int(uint32_t dtype, const uint8_t *p, size_t k)
{
  switch (dtype) {
  case NC_NCB_DTYPE_U8: return p[k];
  case NC_NCB_DTYPE_I16: { int16_t v; memcpy(&v, p + 2 * k, 2); return v; }
  case NC_NCB_DTYPE_I32: { int32_t v; memcpy(&v, p + 4 * k, 4); return v; }
  default: return (int8_t)p[k];
  }
}

static void store_int(uint32_t dtype, uint8_t *p, size_t k, int64_t v)
{
  switch (dtype) {
  case NC_NCB_DTYPE_U8: p[k] = (uint8_t)v; break;
  case NC_NCB_DTYPE_I16: { int16_t x = (int16_t)v; memcpy(p + 2 * k, &x, 2); break; }
  case NC_NCB_DTYPE_I32: { int32_t x = (int32_t)v; memcpy(p + 4 * k, &x, 4); break; }
  default: p[k] = (uint8_t)(int8_t)v;
  }
}

int nc_device_write_input(nc_device *dev, size_t i, const void *data, size_t bytes)
{
  if (!dev || i >= dev->ncb.n_inputs)
    return set_error("input %zu does not exist", i);
  const nc_ncb_tensor *t = &dev->ncb.inputs[i];
  size_t esize = nc_ncb_dtype_storage_bytes(t->dtype);
  if (bytes % esize)
    return set_error("input %zu ('%s') takes whole %zu-byte elements, not %zu bytes", i, t->name, esize, bytes);
  size_t count = bytes / esize;
  if (!batch_of(t, count, "input", i))
    return -1;
  int64_t lo, hi;
  if (nc_ncb_dtype_range(t->dtype, &lo, &hi))
    for (size_t k = 0; k < count; k++) {
      int64_t v = load_int(t->dtype, data, k);
      if (v < lo || v > hi)
        return set_error("input %zu ('%s'): element %zu is %lld, outside the %s range [%lld, %lld]", i, t->name, k,
                         (long long)v, nc_ncb_dtype_name(t->dtype), (long long)lo, (long long)hi);
    }
  memcpy(input_slot(dev, i, count), data, bytes);
  return 0;
}

int nc_device_write_input_f32(nc_device *dev, size_t i, const float *data, size_t count)
{
  if (!dev || i >= dev->ncb.n_inputs)
    return set_error("input %zu does not exist", i);
  const nc_ncb_tensor *t = &dev->ncb.inputs[i];
  if (!batch_of(t, count, "input", i))
    return -1;
  uint8_t *q = input_slot(dev, i, count);
  int64_t lo, hi;
  if (!nc_ncb_dtype_range(t->dtype, &lo, &hi)) { /* a float input takes the values as they are */
    memcpy(q, data, count * sizeof *data);
    return 0;
  }
  for (size_t k = 0; k < count; k++) { /* QuantizeLinear: float32 division, rint, + zero point, saturate */
    float r = nearbyintf(data[k] / t->scale);
    double v = isnan(r) ? (double)t->zero_point : (double)r + t->zero_point;
    store_int(t->dtype, q, k, v <= (double)lo ? lo : v >= (double)hi ? hi : (int64_t)v);
  }
  return 0;
}

int nc_device_run(nc_device *dev)
{
  if (!dev)
    return set_error("no device");
  size_t n = 0;
  for (size_t i = 0; i < dev->ncb.n_inputs; i++) {
    if (!dev->input_batch[i])
      return set_error("input %zu ('%s') was not written", i, dev->ncb.inputs[i].name);
    if (i && dev->input_batch[i] != n)
      return set_error("input %zu holds %zu inferences, input 0 holds %zu", i, dev->input_batch[i], n);
    n = dev->input_batch[i];
  }
  for (size_t o = 0; o < dev->ncb.n_outputs; o++) {
    free(dev->outputs[o]);
    dev->outputs[o] = nc_rt_calloc(storage(&dev->ncb.outputs[o], n * nc_ncb_tensor_elements(&dev->ncb.outputs[o])), 1);
  }
  char err[1024];
  dev->batch = 0;
  nc_figures_reset(dev->figures);
  if (!dev->sim->run(dev->state, n, (const void *const *)dev->inputs, (void *const *)dev->outputs, err, sizeof err,
                     dev->sim->userData))
    return set_error("%s", err);
  dev->batch = n;
  dev->sim->figures(dev->state, dev->figures, dev->sim->userData);
  return 0;
}

static int check_output(const nc_device *dev, size_t i, size_t n)
{
  if (!dev || i >= dev->ncb.n_outputs)
    return set_error("output %zu does not exist", i);
  if (!dev->batch)
    return set_error("no successful nc_device_run to read output %zu from", i);
  size_t want = dev->batch * nc_ncb_tensor_elements(&dev->ncb.outputs[i]);
  if (n != want)
    return set_error("output %zu ('%s') of the last run has %zu elements, not %zu", i, dev->ncb.outputs[i].name,
                     want, n);
  return 0;
}

int nc_device_read_output(nc_device *dev, size_t i, void *data, size_t bytes)
{
  if (!dev || i >= dev->ncb.n_outputs)
    return set_error("output %zu does not exist", i);
  size_t esize = nc_ncb_dtype_storage_bytes(dev->ncb.outputs[i].dtype);
  if (bytes % esize || check_output(dev, i, bytes / esize))
    return bytes % esize ? set_error("output %zu holds whole %zu-byte elements, not %zu bytes", i, esize, bytes) : -1;
  memcpy(data, dev->outputs[i], bytes);
  return 0;
}

int nc_device_read_output_f32(nc_device *dev, size_t i, float *data, size_t count)
{
  if (check_output(dev, i, count))
    return -1;
  const nc_ncb_tensor *t = &dev->ncb.outputs[i];
  int64_t lo, hi;
  if (!nc_ncb_dtype_range(t->dtype, &lo, &hi)) {
    memcpy(data, dev->outputs[i], count * sizeof *data);
    return 0;
  }
  for (size_t k = 0; k < count; k++) /* DequantizeLinear: in double, rounded once to float */
    data[k] = (float)((double)(load_int(t->dtype, dev->outputs[i], k) - t->zero_point) * (double)t->scale);
  return 0;
}

int nc_device_set_option(nc_device *dev, const char *key, const char *value)
{
  if (!dev)
    return set_error("no device");
  char err[512] = "";
  if (!dev->sim->set_option)
    return set_error("target '%s' has no simulator options (not even '%s')", dev->ncb.target, key);
  if (!dev->sim->set_option(dev->state, key, value, err, sizeof err, dev->sim->userData))
    return set_error("%s", err[0] ? err : "bad simulator option");
  return 0;
}

int nc_device_set_trace(nc_device *dev, nc_trace *trace)
{
  if (!dev)
    return set_error("no device");
  if (!dev->sim->set_trace)
    return set_error("the simulator of target '%s' cannot write a trace", dev->ncb.target);
  dev->sim->set_trace(dev->state, trace, dev->sim->userData);
  return 0;
}

int nc_device_set_progress(nc_device *dev, void (*progress)(size_t done, size_t total, void *userData), void *userData)
{
  if (!dev)
    return set_error("no device");
  if (!dev->sim->set_progress)
    return set_error("the simulator of target '%s' reports no progress", dev->ncb.target);
  dev->sim->set_progress(dev->state, progress, userData, dev->sim->userData);
  return 0;
}

const char *nc_device_report_views(const nc_device *dev)
{
  return dev ? dev->sim->report_views : NULL;
}

const nc_figures *nc_device_get_figures(const nc_device *dev)
{
  if (!dev || !dev->batch) {
    set_error("no successful nc_device_run to report on");
    return NULL;
  }
  return dev->figures;
}

int nc_device_write_stats_json(const nc_device *dev, FILE *out)
{
  const nc_figures *f = nc_device_get_figures(dev);
  if (!f)
    return -1;
  return nc_figures_write_json(f, out) ? 0 : set_error("cannot write the figures");
}

static void print_value(const nc_figure *it, FILE *out)
{
  if (it->kind == NC_FIGURE_INT)
    fprintf(out, "%lld", (long long)it->i);
  else if (it->kind == NC_FIGURE_REAL)
    fprintf(out, "%.6g", it->r);
  else if (it->kind == NC_FIGURE_PAIR)
    fprintf(out, "(%lld, %lld)", (long long)it->i, (long long)it->j);
  else if (it->kind == NC_FIGURE_INTS) { /* one per inference: a long run shows its ends, the JSON has them all */
    for (int64_t k = 0; k < it->i; k++) {
      if (it->i > 8 && k == 4) {
        fprintf(out, " ...");
        k = it->i - 4;
      }
      fprintf(out, k ? " %lld" : "%lld", (long long)it->ints[k]);
    }
    if (it->i > 8)
      fprintf(out, " (%lld in all)", (long long)it->i);
  }
  else
    fputs(it->text, out);
}

int nc_device_print_stats(const nc_device *dev, FILE *out)
{
  const nc_figures *f = nc_device_get_figures(dev);
  if (!f)
    return -1;
  for (size_t i = 0; i < nc_figures_count(f); i++) {
    const nc_figure *it = nc_figures_get(f, i);
    fprintf(out, "%-28s ", it->key);
    print_value(it, out);
    fputc('\n', out);
  }
  for (size_t c = 0; c < nc_figures_num_cores(f); c++) {
    const nc_figures *core = nc_figures_get_core(f, c);
    fputs(" ", out);
    for (size_t i = 0; i < nc_figures_count(core); i++) {
      const nc_figure *it = nc_figures_get(core, i);
      fprintf(out, " %s=", it->key);
      print_value(it, out);
    }
    fputc('\n', out);
  }
  return ferror(out) ? set_error("cannot write the figures") : 0;
}
