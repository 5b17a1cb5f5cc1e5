/* canonicalize.c: the canonicalizer: folds ops, applies every registered
 * op's canonicalization patterns with the greedy driver, erases dead ops and
 * deduplicates constants, with MLIR's options. */
#include <stdlib.h>

#include "nc/ir/diag.h"
#include "nc/ir/pass.h"
#include "nc/ir/rewrite.h"

static const char *const region_simplify_values[] = {"disabled", "normal", "aggressive", NULL};

static const nc_pass_option_def options[] = {
  {"top-down", NC_PASS_OPT_BOOL, "true", "Seed the worklist in general top-down order"},
  {"region-simplify", NC_PASS_OPT_ENUM, "normal", "Perform control flow optimizations to the region tree",
   region_simplify_values},
  {"max-iterations", NC_PASS_OPT_INT, "10", "Max. iterations between applying patterns / simplifying regions"},
  {"max-num-rewrites", NC_PASS_OPT_INT, "-1", "Max. number of pattern rewrites within an iteration"},
  {"test-convergence", NC_PASS_OPT_BOOL, "false", "Test only: Fail pass on non-convergence to detect cyclic pattern"},
  {"disable-patterns", NC_PASS_OPT_STRING_LIST, "", "Labels of patterns that should be filtered out during application"},
  {"enable-patterns", NC_PASS_OPT_STRING_LIST, "", "Labels of patterns that should be used during application"},
};

static const nc_pass_stat_def stats[] = {
  {"num-folds", "Number of ops folded"},
  {"num-rewrites", "Number of pattern rewrites applied"},
  {"num-dce'd", "Number of dead ops erased"},
};

static void free_patterns(void *p) { nc_pattern_set_destroy(p); }

static bool initialize(nc_pass *pass, nc_context *ctx)
{
  size_t nd = nc_pass_get_option_list_size(pass, "disable-patterns");
  size_t ne = nc_pass_get_option_list_size(pass, "enable-patterns");
  const char **dis = malloc((nd + 1) * sizeof *dis), **en = malloc((ne + 1) * sizeof *en);
  for (size_t i = 0; i < nd; i++)
    dis[i] = nc_pass_get_option_list_string(pass, "disable-patterns", i);
  for (size_t i = 0; i < ne; i++)
    en[i] = nc_pass_get_option_list_string(pass, "enable-patterns", i);
  nc_pattern_set *set = nc_pattern_set_create(ctx);
  nc_pattern_set_add_canonicalizations(set, nd, dis, ne, en);
  free(dis);
  free(en);
  nc_pass_set_state(pass, set, free_patterns);
  return true;
}

static bool run(nc_pass *pass, nc_op *op)
{
  nc_greedy_config cfg = nc_greedy_config_default();
  cfg.top_down = nc_pass_get_option_bool(pass, "top-down");
  cfg.max_iterations = nc_pass_get_option_int(pass, "max-iterations");
  cfg.max_num_rewrites = nc_pass_get_option_int(pass, "max-num-rewrites");
  const char *rs = nc_pass_get_option_string(pass, "region-simplify");
  cfg.region_simplify = rs[0] == 'd' ? NC_REGION_SIMPLIFY_DISABLED
                        : rs[0] == 'a' ? NC_REGION_SIMPLIFY_AGGRESSIVE
                                       : NC_REGION_SIMPLIFY_NORMAL;
  nc_greedy_stats st;
  nc_apply_patterns_greedily(op, nc_pass_get_state(pass), &cfg, &st);
  nc_pass_stat_add(pass, 0, st.folds);
  nc_pass_stat_add(pass, 1, st.rewrites);
  nc_pass_stat_add(pass, 2, st.erased);
  if (!st.converged && nc_pass_get_option_bool(pass, "test-convergence"))
    return nc_op_emit_error(op, "canonicalizer failed to converge within %lld iterations",
                            (long long)cfg.max_iterations);
  return true;
}

const nc_pass_def nc_canonicalize_pass = {
  .argument = "canonicalize",
  .name = "Canonicalizer",
  .group = "Generic",
  .summary = "Canonicalize operations",
  .description = "Folds ops, applies the canonicalization patterns of every registered op until a fixpoint, erases "
                 "dead ops and deduplicates constants (hoisting them to the entry of the enclosing isolated region).",
  .options = options, .n_options = sizeof options / sizeof *options,
  .stats = stats, .n_stats = sizeof stats / sizeof *stats,
  .initialize = initialize,
  .run = run,
};
