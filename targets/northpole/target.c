/* target.c: the NorthPole target (docs/targets/northpole.md): its named
 * pipeline `northpole-pipeline`, which runs every stage of the spine
 * (docs/design/spine.md) from an imported float graph to placed, scheduled,
 * addressed core IR, and the const struct that ties the pipeline, the
 * printer (printer.c) and the simulator (runtime/) together.
 */
#include <stdio.h>
#include <string.h>

#include "nc/ir/pass.h"
#include "printer.h"
#include "target.h"

extern const char nc_target_desc_northpole[];
extern const nc_target_sim nc_target_sim_northpole;

static const char *const granularities[] = {"row", "pixel", NULL};
static const char *const levels[] = {"graph", "quantized", "dataflow", "core", NULL};

static const nc_pass_option_def options[] = {
  {"calibration", NC_PASS_OPT_STRING, "", "graph-quantize's calibration inputs (.npy, N x the input shape, f32)"},
  {"max-samples", NC_PASS_OPT_INT, "0", "Calibrate on at most this many samples (0: all)"},
  {"target-desc", NC_PASS_OPT_STRING, "", "Chip description (JSON); empty: the built-in targets/northpole/northpole.json"},
  {"granularity", NC_PASS_OPT_ENUM, "row",
   "Work per layer iteration (one output row or pixel) and how the host streams inputs (rows or pixels)",
   granularities},
  {"stop-after", NC_PASS_OPT_ENUM, "core",
   "Stop after this level: graph (graph-optimize), quantized (graph-quantize), dataflow (graph-to-dataflow, "
   "dataflow-deps), core (dataflow-to-core, core-place, core-schedule, core-plan-memory)", levels},
};

static int level_of(const char *s)
{
  for (int i = 0; levels[i]; i++)
    if (!strcmp(levels[i], s))
      return i;
  return 3;
}

static bool build(nc_pass_manager *pm, nc_pass *opts)
{
  int stop = level_of(nc_pass_get_option_string(opts, "stop-after"));
  const char *desc_path = nc_pass_get_option_string(opts, "target-desc");
  char text[4096];
  int n = snprintf(text, sizeof text, "graph-optimize");
  if (stop >= 1)
    n += snprintf(text + n, sizeof text - (size_t)n, ",func.func(graph-quantize{calibration=\"%s\" max-samples=%lld})",
                  nc_pass_get_option_string(opts, "calibration"),
                  (long long)nc_pass_get_option_int(opts, "max-samples"));
  if (stop >= 2)
    n += snprintf(text + n, sizeof text - (size_t)n,
                  ",func.func(graph-to-dataflow{granularity=%s},dataflow-deps{input-granularity=%s})",
                  nc_pass_get_option_string(opts, "granularity"), nc_pass_get_option_string(opts, "granularity"));
  if (stop >= 3) {
    char desc_opt[1200];
    if (*desc_path) {
      snprintf(desc_opt, sizeof desc_opt, "target-desc=\"%s\"", desc_path);
    } else { /* the built-in description: what dataflow-to-core takes from it, given explicitly */
      nc_chip_desc d;
      nc_chip_desc_error err;
      if (!nc_chip_desc_parse(nc_target_desc_northpole, strlen(nc_target_desc_northpole), &d, &err)) {
        fprintf(stderr, "northpole-pipeline: the built-in chip description is invalid: %s\n", err.message);
        return false;
      }
      snprintf(desc_opt, sizeof desc_opt, "rows=%lld cols=%lld sram-bytes=%lld", (long long)d.rows,
               (long long)d.cols, (long long)d.sram_bytes);
    }
    n += snprintf(text + n, sizeof text - (size_t)n,
                  ",dataflow-to-core{%s},core-place,core-schedule,core-plan-memory", desc_opt);
  }
  if (n >= (int)sizeof text) {
    fprintf(stderr, "northpole-pipeline: option values are too long\n");
    return false;
  }
  return nc_pass_manager_add_passes(pm, text);
}

static const nc_pipeline_def pipeline = {
  .argument = "northpole-pipeline",
  .summary = "ONNX-imported float graph to NorthPole core IR: graph-optimize, graph-quantize, graph-to-dataflow, "
             "dataflow-deps, dataflow-to-core, core-place, core-schedule, core-plan-memory",
  .options = options, .n_options = NC_COUNTOF(options),
  .build = build,
};

const nc_target nc_target_northpole = {
  .name = "northpole",
  .summary = "NorthPole-like grid of cores with SRAM and a mesh NoC (IBM, Science 2023)",
  .default_desc = nc_target_desc_northpole,
  .pipeline = &pipeline,
  .print_binary = np_print_binary,
  .sim = &nc_target_sim_northpole,
};
