/* report.c: nc-compile --report=DIR. What the compile knows, as pictures:
 * the dataflow graph and the placement (Graphviz, passes/graph_pictures.c),
 * the quantization report (the target's quant-report option, when it has
 * one), and the figures of the compiled binary: one inference simulated on
 * zero inputs by the target's simulator (cycles, placement, SRAM, per-layer
 * work; the schedule is static, so these are the figures of any input), its
 * timeline (schedule and memory views) and the target's own views. nc_report.py draws the page
 * (utils/nc-report/tool_report.c says why it stays in Python).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "nc/passes/graph_pictures.h"
#include "nc/runtime/nc_runtime.h"
#include "nc/runtime/nc_trace.h"
#include "nc/support/file.h"
#include "report.h"
#include "../nc-report/tool_report.h"

/* Writes DIR/NAME.dot with `draw` and renders DIR/NAME.svg; the file to show (malloc'ed), or NULL. */
static char *picture(const char *dir, const char *name, bool (*draw)(nc_op *, FILE *), nc_op *module)
{
  char *text = NULL, file[64], err[1024];
  size_t len = 0;
  FILE *f = open_memstream(&text, &len);
  bool drawn = draw(module, f);
  fclose(f);
  char *shown = NULL;
  snprintf(file, sizeof file, "%s.dot", name);
  char *dot = nc_tool_report_path(dir, file);
  if (drawn && nc_file_write_all(dot, text, len, err, sizeof err)) {
    snprintf(file, sizeof file, "%s.svg", name);
    char *svg = nc_tool_report_path(dir, file);
    if (nc_tool_report_render_dot("nc-compile", dot, svg)) {
      shown = svg;
    } else {
      free(svg);
      shown = dot;
      dot = NULL;
    }
  } else if (drawn) {
    fprintf(stderr, "nc-compile: error: %s\n", err);
  }
  free(dot);
  free(text);
  return shown;
}

/* The figures of one inference on zero inputs into DIR/stats.json (and the target's views into
 * DIR/views.json); a target without a simulator gets a note and the target's name only. */
static bool figures(const char *dir, const char *target, const uint8_t *image, size_t size, bool *has_views,
                    bool *traced)
{
  char *stats = nc_tool_report_path(dir, "stats.json"), *trace_path = nc_tool_report_path(dir, "trace.json");
  char err[1024];
  nc_device *dev = nc_device_open_memory(image, size);
  bool ok = dev != NULL;
  /* the inference's timeline too, for the schedule and memory views, when the simulator traces */
  nc_file_writer *trace_w = ok && !nc_device_set_trace(dev, NULL) ? nc_file_writer_open(trace_path, err, sizeof err)
                                                                  : NULL;
  nc_trace *trace = trace_w ? nc_trace_create(nc_file_writer_stream(trace_w), 0) : NULL;
  if (trace)
    nc_device_set_trace(dev, trace);
  for (size_t i = 0; ok && i < nc_device_num_inputs(dev); i++) {
    nc_device_tensor_info info;
    nc_device_input_info(dev, i, &info);
    void *zeros = calloc(1, info.bytes + 1);
    ok = zeros && !nc_device_write_input(dev, i, zeros, info.bytes);
    free(zeros);
  }
  ok = ok && !nc_device_run(dev);
  if (trace) {
    nc_device_set_trace(dev, NULL);
    if (nc_trace_finish(trace) && ok)
      *traced = nc_file_writer_commit(trace_w, err, sizeof err); /* a trace that cannot be written is left out */
    else
      nc_file_writer_abort(trace_w);
  }  if (!ok) {
    fprintf(stderr, "nc-compile: note: --report: no simulated figures for target '%s' (%s)\n", target,
            nc_device_error());
    char text[256];
    int n = snprintf(text, sizeof text, "{\"target\": \"%s\", \"cores\": []}\n", target);
    ok = nc_file_write_all(stats, text, (size_t)n, err, sizeof err);
  } else {
    nc_file_writer *w = nc_file_writer_open(stats, err, sizeof err);
    ok = w && !nc_device_write_stats_json(dev, nc_file_writer_stream(w));
    if (w && !ok)
      nc_file_writer_abort(w);
    ok = ok && nc_file_writer_commit(w, err, sizeof err);
    const char *views = nc_device_report_views(dev);
    if (ok && views) {
      char *path = nc_tool_report_path(dir, "views.json");
      ok = nc_file_write_all(path, views, strlen(views), err, sizeof err);
      *has_views = ok;
      free(path);
    }
  }
  if (!ok)
    fprintf(stderr, "nc-compile: error: --report: %s\n", err);
  nc_device_destroy(dev);
  free(stats);
  free(trace_path);
  return ok;
}

bool nc_compile_write_report(const char *dir, const char *model, const char *target, nc_op *module,
                             const uint8_t *image, size_t size, const char *quant_report)
{
  bool has_views = false, traced = false;
  if (!figures(dir, target, image, size, &has_views, &traced))
    return false;
  char *graphs[2] = {picture(dir, "dataflow", nc_graph_picture_dataflow, module),
                     picture(dir, "cores", nc_graph_picture_cores, module)};
  char *args[8] = {0}, title[512];
  size_t n = 0;
  for (size_t i = 0; i < 2; i++)
    if (graphs[i]) {
      args[n] = malloc(strlen(graphs[i]) + 16);
      sprintf(args[n++], "--graph=%s", graphs[i]);
    }
  if (quant_report && !access(quant_report, R_OK)) {
    args[n] = malloc(strlen(quant_report) + 32);
    sprintf(args[n++], "--quant-report=%s", quant_report);
  }
  if (traced) {
    char *trace = nc_tool_report_path(dir, "trace.json");
    args[n] = malloc(strlen(trace) + 16);
    sprintf(args[n++], "--trace=%s", trace);
    free(trace);
  }
  if (has_views) {
    char *views = nc_tool_report_path(dir, "views.json");
    args[n] = malloc(strlen(views) + 16);
    sprintf(args[n++], "--views=%s", views);
    free(views);
  }
  const char *base = strrchr(model, '/');
  snprintf(title, sizeof title, "--title=nc-compile report: %s for %s (figures of one simulated inference)",
           base ? base + 1 : model, target);
  const char *argv[10];
  for (size_t i = 0; i < n; i++)
    argv[i] = args[i];
  argv[n] = title;
  argv[n + 1] = NULL;
  bool ok = nc_tool_report_page("nc-compile", dir, argv);
  for (size_t i = 0; i < n; i++)
    free(args[i]);
  free(graphs[0]);
  free(graphs[1]);
  return ok;
}
