/* named_pipeline.c: test-named-pipeline, a pipeline registered under one
 * name with options of its own, the way a target registers its whole
 * lowering: `test-named-pipeline{count=2 max-iterations=3}` expands to
 * `func.func(canonicalize{max-iterations=3},cse)` twice. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nc/ir/pass.h"

static bool build(nc_pass_manager *pm, nc_pass *options, void *userData)
{
  int64_t count = nc_pass_get_option_int(options, "count");
  int64_t iters = nc_pass_get_option_int(options, "max-iterations");
  bool cse = nc_pass_get_option_bool(options, "cse");
  /* on a module, clean up each function; elsewhere, the op itself */
  bool nest = !strcmp(nc_pass_manager_get_anchor(pm), "builtin.module");
  for (int64_t i = 0; i < count; i++) {
    char text[128];
    snprintf(text, sizeof text, "%scanonicalize{max-iterations=%lld}%s%s", nest ? "func.func(" : "", (long long)iters,
             cse ? ",cse" : "", nest ? ")" : "");
    if (!nc_pass_manager_add_passes(pm, text))
      return false;
  }
  return true;
}

static const nc_pass_option_def options[] = {
  {"count", NC_PASS_OPT_INT, "1", "Number of times the cleanup is repeated", .min = 1, .max = 1000},
  {"max-iterations", NC_PASS_OPT_INT, "10", "max-iterations of each canonicalize", .min = 1, .max = 1000000},
  {"cse", NC_PASS_OPT_BOOL, "true", "Run cse after each canonicalize"},
};

const nc_pipeline_def nc_test_named_pipeline = {
  .argument = "test-named-pipeline",
  .summary = "Test a named pipeline with options: count x func.func(canonicalize{max-iterations},cse)",
  .options = options, .n_options = NC_COUNTOF(options),
  .build = build,
};
