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
  int8_t **inputs, **outputs; /* batch x one inference each */
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

const nc_target_sim *nc_target_sim_lookup(const char *name)
{
  for (const nc_target_sim *const *s = nc_all_target_sims; *s; s++)
    if (!strcmp((*s)->name, name))
      return *s;
  return NULL;
}

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
  if (!(dev->sim = nc_target_sim_lookup(dev->ncb.chip.target))) {
    char known[256] = "";
    size_t n = 0;
    for (const nc_target_sim *const *s = nc_all_target_sims; *s && n < sizeof known; s++)
      n += (size_t)snprintf(known + n, sizeof known - n, "%s%s", n ? ", " : "", (*s)->name);
    set_error("the binary is for target '%s', which this runtime does not know (it knows: %s)",
              dev->ncb.chip.target, known);
    goto fail;
  }
  if (!(dev->state = dev->sim->load(&dev->ncb, err, sizeof err))) {
    set_error("%s", err);
    goto fail;
  }
  dev->inputs = nc_rt_calloc(dev->ncb.n_inputs, sizeof *dev->inputs);
  dev->input_batch = nc_rt_calloc(dev->ncb.n_inputs, sizeof *dev->input_batch);
  dev->outputs = nc_rt_calloc(dev->ncb.n_outputs, sizeof *dev->outputs);
  return dev;
fail:
  nc_device_close(dev);
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

void nc_device_close(nc_device *dev)
{
  if (!dev)
    return;
  if (dev->state)
    dev->sim->destroy(dev->state);
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

const char *nc_device_target(const nc_device *dev) { return dev ? dev->ncb.chip.target : ""; }
size_t nc_device_num_inputs(const nc_device *dev) { return dev ? dev->ncb.n_inputs : 0; }
size_t nc_device_num_outputs(const nc_device *dev) { return dev ? dev->ncb.n_outputs : 0; }

static void fill_info(const nc_ncb_tensor *t, nc_device_tensor_info *info)
{
  memset(info, 0, sizeof *info);
  memcpy(info->name, t->name, sizeof info->name);
  info->dtype = NC_DEVICE_I8;
  info->rank = (int)t->rank;
  for (uint32_t i = 0; i < t->rank; i++)
    info->dims[i] = t->dims[i];
  info->elements = info->bytes = nc_ncb_tensor_elements(t);
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

static int8_t *input_slot(nc_device *dev, size_t i, size_t n)
{
  free(dev->inputs[i]);
  dev->inputs[i] = nc_rt_malloc(n);
  dev->input_batch[i] = n / nc_ncb_tensor_elements(&dev->ncb.inputs[i]);
  return dev->inputs[i];
}

int nc_device_write_input(nc_device *dev, size_t i, const void *data, size_t bytes)
{
  if (!dev || i >= dev->ncb.n_inputs)
    return set_error("input %zu does not exist", i);
  if (!batch_of(&dev->ncb.inputs[i], bytes, "input", i))
    return -1;
  memcpy(input_slot(dev, i, bytes), data, bytes);
  return 0;
}

int nc_device_write_input_f32(nc_device *dev, size_t i, const float *data, size_t count)
{
  if (!dev || i >= dev->ncb.n_inputs)
    return set_error("input %zu does not exist", i);
  const nc_ncb_tensor *t = &dev->ncb.inputs[i];
  if (!batch_of(t, count, "input", i))
    return -1;
  int8_t *q = input_slot(dev, i, count);
  for (size_t k = 0; k < count; k++) { /* QuantizeLinear: float32 division, rint, + zero point, saturate */
    float r = nearbyintf(data[k] / t->scale);
    double v = isnan(r) ? (double)t->zero_point : (double)r + t->zero_point;
    q[k] = (int8_t)(v <= -128 ? -128 : v >= 127 ? 127 : (int)v);
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
    dev->outputs[o] = nc_rt_calloc(n * nc_ncb_tensor_elements(&dev->ncb.outputs[o]), 1);
  }
  char err[1024];
  dev->batch = 0;
  if (!dev->sim->run(dev->state, n, (const int8_t *const *)dev->inputs, dev->outputs, err, sizeof err))
    return set_error("%s", err);
  dev->batch = n;
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
  if (check_output(dev, i, bytes))
    return -1;
  memcpy(data, dev->outputs[i], bytes);
  return 0;
}

int nc_device_read_output_f32(nc_device *dev, size_t i, float *data, size_t count)
{
  if (check_output(dev, i, count))
    return -1;
  const nc_ncb_tensor *t = &dev->ncb.outputs[i];
  for (size_t k = 0; k < count; k++) /* DequantizeLinear: in double, rounded once to float */
    data[k] = (float)((double)(dev->outputs[i][k] - t->zero_point) * (double)t->scale);
  return 0;
}

int nc_device_get_stats(const nc_device *dev, nc_device_stats *stats)
{
  if (!dev || !dev->batch)
    return set_error("no successful nc_device_run to report on");
  dev->sim->stats(dev->state, stats);
  return 0;
}

size_t nc_device_num_cores(const nc_device *dev) { return dev ? dev->sim->num_cores(dev->state) : 0; }

int nc_device_get_core_stats(const nc_device *dev, size_t i, nc_device_core_stats *stats)
{
  if (!dev || i >= dev->sim->num_cores(dev->state))
    return set_error("core %zu does not exist", i);
  if (!dev->batch)
    return set_error("no successful nc_device_run to report on");
  dev->sim->core_stats(dev->state, i, stats);
  return 0;
}

int nc_device_print_stats(const nc_device *dev, FILE *out)
{
  nc_device_stats s;
  if (nc_device_get_stats(dev, &s))
    return -1;
  fprintf(out, "target:               %s (%ux%u cores, %u MACs/cycle/core at 8 bits, %.0f MHz)\n",
          dev->ncb.chip.target, dev->ncb.chip.cols, dev->ncb.chip.rows, s.macs_per_cycle, (double)s.clock_hz / 1e6);
  fprintf(out, "inferences:           %zu in %llu cycles\n", s.inferences, (unsigned long long)s.total_cycles);
  fprintf(out, "cycles/inference:     %.1f (%s)\n", s.cycles_per_inference,
          s.inferences > 1 ? "steady state: the interval between the first and the last result" : "one inference: "
                                                                                                   "its latency");
  fprintf(out, "frames/s:             %.0f at %.0f MHz\n", s.frames_per_second, (double)s.clock_hz / 1e6);
  fprintf(out, "latency:              %llu cycles (%.2f us)\n", (unsigned long long)s.latency_cycles,
          s.latency_seconds * 1e6);
  fprintf(out, "MACs/inference:       %llu\n", (unsigned long long)s.macs_per_inference);
  fprintf(out, "roofline bound:       %.3g cycles/inference (MACs / (%u cores x %u MACs/cycle))\n", s.roofline_cycles,
          s.cores_total, s.macs_per_cycle);
  fprintf(out, "achieved / bound:     %.1fx\n", s.roofline_ratio);
  fprintf(out, "cores used:           %u of %u (bound on them: %.3g cycles/inference, achieved / bound %.1fx)\n",
          s.cores_used, s.cores_total, s.used_roofline_cycles,
          s.used_roofline_cycles > 0 ? s.cycles_per_inference / s.used_roofline_cycles : 0);
  for (size_t i = 0; i < nc_device_num_cores(dev); i++) {
    nc_device_core_stats c;
    nc_device_get_core_stats(dev, i, &c);
    fprintf(out, "  core (%2d, %2d) %-16s busy %5.1f%%  MAC utilisation %6.2f%%  %llu MACs  %llu bytes sent\n", c.x,
            c.y, c.node, 100 * c.utilisation, 100 * c.mac_utilisation, (unsigned long long)c.macs,
            (unsigned long long)c.bytes_sent);
  }
  return 0;
}
