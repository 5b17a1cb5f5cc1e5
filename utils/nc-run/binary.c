/* binary.c: nc-run on a target binary (.ncb): the runtime ABI
 * (include/nc/runtime/nc_runtime.h) opens it on the simulator of the target
 * its header names, the inputs are written (float inputs are quantized with
 * the binary's scales, int8 inputs taken as they are; a leading dim N times
 * the model's runs N inferences), the network runs, and the outputs are read
 * back (dequantized to float, or int8 when the inputs were int8). --stats
 * prints the simulated chip's figures. Errors (a malformed, truncated,
 * checksum-bad or version-mismatched binary, a schedule the chip cannot run)
 * print as `model.ncb: error: ...` and make nc-run exit with status 1.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "nc/support/file.h"
#include "nc/runtime/nc_runtime.h"
#include "nc/runtime/nc_trace.h"
#include "nc_run.h"
#include "print.h"
#include "../nc-report/tool_report.h"

bool nc_run_is_binary(const char *path)
{
  if (!strcmp(nc_run_ext_of(path), ".ncb"))
    return true;
  FILE *f = fopen(path, "rb");
  char magic[4] = {0};
  bool yes = f && fread(magic, 1, 4, f) == 4 && !memcmp(magic, "NCB", 4);
  if (f)
    fclose(f);
  return yes;
}

static double now_seconds(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void shape_text(const int64_t *dims, int rank, const char *elt, char *buf, size_t len)
{
  size_t n = (size_t)snprintf(buf, len, "tensor<");
  for (int i = 0; i < rank && n < len; i++)
    n += (size_t)snprintf(buf + n, len - n, "%lldx", (long long)dims[i]);
  snprintf(buf + (n < len ? n : len - 1), len - (n < len ? n : len - 1), "%s>", elt);
}

/* The batch N the tensor makes for a device input, or 0 after an error. */
static size_t input_batch(const char *path, size_t i, const nc_tensor *t, const nc_device_tensor_info *info)
{
  bool ok = (t->dtype == NC_DT_F32 || t->dtype == NC_DT_I8) && t->rank == info->rank && t->shape[0] > 0 &&
            t->shape[0] % info->dims[0] == 0;
  for (int d = 1; ok && d < t->rank; d++)
    ok = t->shape[d] == info->dims[d];
  if (ok)
    return (size_t)(t->shape[0] / info->dims[0]);
  char got[160], want[160];
  shape_text(t->shape, t->rank, nc_dtype_name(t->dtype), got, sizeof got);
  shape_text(info->dims, info->rank, "f32", want, sizeof want);
  fprintf(stderr, "%s: error: input #%zu ('%s') has type %s, but the binary expects %s (or i8, or a leading dim N "
                  "times %lld)\n", path, i, info->name, got, want, (long long)info->dims[0]);
  return 0;
}

static bool write_stats(nc_device *dev, const char *path)
{
  char err[1024];
  nc_file_writer *w = nc_file_writer_open(path, err, sizeof err);
  bool ok = w != NULL;
  if (ok && nc_device_write_stats_json(dev, nc_file_writer_stream(w))) {
    nc_file_writer_abort(w);
    snprintf(err, sizeof err, "%s: cannot write the figures", path);
    ok = false;
  } else if (ok) {
    ok = nc_file_writer_commit(w, err, sizeof err);
  }
  if (!ok)
    fprintf(stderr, "nc-run: error: %s\n", err);
  return ok;
}

static void progress(size_t done, size_t total, void *userData)
{
  nc_tool_progress_update(userData, "inferences", done, total);
}

/* --report=DIR after a run: the target's views beside the figures and trace, then the page. */
static bool write_report(nc_device *dev, const options *o, bool traced)
{
  char *views = nc_tool_report_path(o->report, "views.json"), *trace = nc_tool_report_path(o->report, "trace.json");
  char *trace_arg = NULL, *views_arg = NULL, title[512];
  const char *text = nc_device_report_views(dev), *args[8];
  size_t n = 0;
  bool ok = true;
  if (text) {
    char err[1024];
    ok = nc_file_write_all(views, text, strlen(text), err, sizeof err);
    if (!ok)
      fprintf(stderr, "nc-run: error: %s\n", err);
    views_arg = malloc(strlen(views) + 16);
    sprintf(views_arg, "--views=%s", views);
    args[n++] = views_arg;
  }
  if (traced) {
    const char *path = o->trace ? o->trace : trace;
    trace_arg = malloc(strlen(path) + 16);
    sprintf(trace_arg, "--trace=%s", path);
    args[n++] = trace_arg;
  }
  const char *base = strrchr(o->model, '/');
  snprintf(title, sizeof title, "--title=nc-run report: %s on %s", base ? base + 1 : o->model, nc_device_target(dev));
  args[n++] = title;
  args[n] = NULL;
  ok = ok && nc_tool_report_page("nc-run", o->report, args);
  free(views);
  free(trace);
  free(trace_arg);
  free(views_arg);
  return ok;
}

bool nc_run_binary(const options *o)
{
  double t0 = now_seconds();
  nc_device *dev = nc_device_open(o->model);
  if (!dev) {
    fprintf(stderr, "%s: error: %s\n", o->model, nc_device_error());
    return false;
  }
  double t_load = now_seconds() - t0;
  bool ok = false, as_int8 = true;
  for (size_t i = 0; i < o->n_sim; i++)
    if (nc_device_set_option(dev, o->sim_keys[i], o->sim_values[i])) {
      fprintf(stderr, "nc-run: error: --%s: %s\n", o->sim_keys[i], nc_device_error());
      nc_device_destroy(dev);
      return false;
    }
  /* --report=DIR: its figures and (when the simulator traces) its trace go into DIR */
  char *report_stats = NULL, *report_trace = NULL;
  const char *trace_path = o->trace;
  if (o->report) {
    if (!nc_tool_report_mkdir("nc-run", o->report)) {
      nc_device_destroy(dev);
      return false;
    }
    report_stats = nc_tool_report_path(o->report, "stats.json");
    if (!o->trace && !nc_device_set_trace(dev, NULL))
      trace_path = report_trace = nc_tool_report_path(o->report, "trace.json");
  }
  nc_tool_progress *prog = nc_tool_progress_create("nc-run");
  if (prog)
    nc_device_set_progress(dev, progress, prog); /* a target without progress stays quiet */
  /* the trace file is opened before the run, so a bad path fails fast */
  nc_file_writer *trace_w = NULL;
  nc_trace *trace = NULL;
  bool traced = false;
  if (trace_path) {
    char err[1024];
    if (!(trace_w = nc_file_writer_open(trace_path, err, sizeof err))) {
      fprintf(stderr, "nc-run: error: --trace: %s\n", err);
      nc_device_destroy(dev);
      nc_tool_progress_destroy(prog);
      free(report_stats);
      free(report_trace);
      return false;
    }
  }
  size_t n_in = nc_device_num_inputs(dev), n_out = nc_device_num_outputs(dev), batch = 0;
  nc_tensor **in = calloc(n_in + 1, sizeof *in), **out = calloc(n_out + 1, sizeof *out);
  if (o->n_inputs != n_in) {
    fprintf(stderr, "%s: error: the binary takes %zu input%s, but %zu --input %s given\n", o->model, n_in,
            n_in == 1 ? "" : "s", o->n_inputs, o->n_inputs == 1 ? "was" : "were");
    goto done;
  }
  if (o->n_outputs && o->n_outputs != n_out) {
    fprintf(stderr, "%s: error: the binary has %zu output%s, but %zu --output %s given\n", o->model, n_out,
            n_out == 1 ? "" : "s", o->n_outputs, o->n_outputs == 1 ? "was" : "were");
    goto done;
  }
  for (size_t i = 0; i < n_in; i++) {
    nc_device_tensor_info info;
    nc_device_input_info(dev, i, &info);
    if (!(in[i] = nc_run_read_tensor(o->inputs[i])))
      goto done;
    size_t b = input_batch(o->inputs[i], i, in[i], &info);
    if (!b)
      goto done;
    if (i && b != batch) {
      fprintf(stderr, "%s: error: input #%zu holds %zu inferences, input #0 holds %zu\n", o->inputs[i], i, b, batch);
      goto done;
    }
    batch = b;
    as_int8 &= in[i]->dtype == NC_DT_I8;
    size_t n = (size_t)nc_tensor_num_elements(in[i]);
    int rc = in[i]->dtype == NC_DT_I8 ? nc_device_write_input(dev, i, in[i]->data, n)
                                      : nc_device_write_input_f32(dev, i, in[i]->data, n);
    if (rc) {
      fprintf(stderr, "%s: error: %s\n", o->inputs[i], nc_device_error());
      goto done;
    }
  }
  double best = 0;
  for (long r = 0; r < o->repeat; r++) {
    if (trace_w && r == o->repeat - 1) { /* the last run's timeline */
      trace = nc_trace_create(nc_file_writer_stream(trace_w), o->trace_max_events);
      if (nc_device_set_trace(dev, trace)) {
        fprintf(stderr, "%s: error: --trace: %s\n", o->model, nc_device_error());
        goto done;
      }
    }
    double t1 = now_seconds();
    if (nc_device_run(dev)) {
      fprintf(stderr, "%s: error: %s\n", o->model, nc_device_error());
      goto done;
    }
    double dt = now_seconds() - t1;
    best = r == 0 || dt < best ? dt : best;
  }
  for (size_t k = 0; k < n_out; k++) {
    nc_device_tensor_info info;
    nc_device_output_info(dev, k, &info);
    int64_t shape[NC_DEVICE_MAX_RANK];
    memcpy(shape, info.dims, sizeof shape);
    shape[0] *= (int64_t)batch;
    out[k] = nc_tensor_create(as_int8 ? NC_DT_I8 : NC_DT_F32, info.rank, shape, 0);
    size_t n = (size_t)nc_tensor_num_elements(out[k]);
    if (as_int8 ? nc_device_read_output(dev, k, out[k]->data, n) : nc_device_read_output_f32(dev, k, out[k]->data, n)) {
      fprintf(stderr, "%s: error: %s\n", o->model, nc_device_error());
      goto done;
    }
  }
  if (o->time) {
    fprintf(stderr, "nc-run: load time %.3f ms (binary read, checked, loaded into the simulator)\n", t_load * 1e3);
    fprintf(stderr, "nc-run: run time %.3f ms (fastest of %ld, host time of the simulation)\n", best * 1e3, o->repeat);
  }
  ok = true;
  for (size_t k = 0; k < o->n_outputs && ok; k++)
    ok = nc_run_write_tensor(o->outputs[k], out[k]);
  for (size_t k = 0; k < n_out && o->print && ok; k++) {
    char ty[160];
    shape_text(out[k]->shape, out[k]->rank, nc_dtype_name(out[k]->dtype), ty, sizeof ty);
    printf("output #%zu: %s\n", k, ty);
    nc_run_print_tensor(stdout, out[k]);
  }
  if (ok && o->stats)
    nc_device_print_stats(dev, stdout);
  if (ok && o->stats_json)
    ok = write_stats(dev, o->stats_json);
  if (ok && report_stats)
    ok = write_stats(dev, report_stats);
  if (ok && trace) {
    char err[1024];
    uint64_t kept = nc_trace_num_events(trace), dropped = nc_trace_num_dropped(trace);
    nc_device_set_trace(dev, NULL);
    bool written = nc_trace_finish(trace);
    trace = NULL;
    if (!written) {
      nc_file_writer_abort(trace_w);
      snprintf(err, sizeof err, "%s: cannot write the trace", trace_path);
      ok = false;
    } else {
      ok = nc_file_writer_commit(trace_w, err, sizeof err);
    }
    trace_w = NULL;
    traced = ok;
    if (!ok)
      fprintf(stderr, "nc-run: error: %s\n", err);
    else if (dropped)
      fprintf(stderr, "nc-run: note: the trace is capped at %llu events (--trace-max-events); %llu later events "
                      "were dropped\n", (unsigned long long)kept, (unsigned long long)dropped);
  }
  if (ok && o->report)
    ok = write_report(dev, o, traced);
done:
  nc_tool_progress_destroy(prog);
  free(report_stats);
  free(report_trace);
  if (trace) {
    nc_device_set_trace(dev, NULL);
    nc_trace_destroy(trace);
  }
  nc_file_writer_abort(trace_w);
  for (size_t i = 0; i < n_in; i++)
    nc_tensor_destroy(in[i]);
  for (size_t k = 0; k < n_out; k++)
    nc_tensor_destroy(out[k]);
  free(in);
  free(out);
  nc_device_destroy(dev);
  return ok;
}
