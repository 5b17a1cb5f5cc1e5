/* count_ops.c: an example pass plugin (docs/plugins.md). Its pass,
 * example-count-ops, counts the ops in each function's body (optionally only
 * those named by its `op-name` option), records the count on the function
 * as a discardable attribute `example.num_ops = N : i64` and adds it to the
 * statistic `num-ops`. It shows what a plugin needs: a pass definition as
 * for a built-in pass, a registration callback, and the one exported
 * function nc-opt looks for, nc_get_pass_plugin_info.
 *
 * Build: cc -std=c11 -shared -fPIC $(pkg-config --cflags nc) -o count_ops.so count_ops.c
 * Run:   nc-opt --load-pass-plugin=./count_ops.so in.mlir \
 *          --pass-pipeline='builtin.module(func.func(example-count-ops{op-name=arith.addi}))' */
#include <string.h>

#include "nc/ir/pass.h"
#include "nc/ir/types.h"
#include "nc/plugin.h"

typedef struct count_state {
  const char *only; /* op name to count, or "" for every op */
  int64_t n;
} count_state;

static nc_walk_result count(nc_op *op, void *user)
{
  count_state *s = user;
  if (!*s->only || !strcmp(nc_ident_str(nc_op_get_name(op)), s->only))
    s->n++;
  return NC_WALK_ADVANCE;
}

static bool run(nc_pass *pass, nc_op *func)
{
  count_state s = {nc_pass_get_option_string(pass, "op-name"), 0};
  for (size_t r = 0; r < nc_op_get_num_regions(func); r++)
    for (nc_block *b = nc_region_get_first_block(nc_op_get_region(func, r)); b; b = nc_block_get_next(b))
      for (nc_op *op = nc_block_get_first_op(b); op; op = nc_op_get_next(op))
        nc_op_walk(op, NC_WALK_PRE_ORDER, count, &s);
  nc_context *ctx = nc_op_get_context(func);
  nc_op_set_attr_str(func, "example.num_ops", nc_attr_integer(ctx, nc_type_integer(ctx, 64, NC_SIGNLESS), s.n));
  nc_pass_stat_add(pass, 0, (uint64_t)s.n);
  return true;
}

static const nc_pass_option_def options[] = {
  {.name = "op-name", .kind = NC_PASS_OPT_STRING, .default_value = "", .summary = "Count only ops of this name"},
};

static const nc_pass_stat_def stats[] = {
  {.name = "num-ops", .summary = "Number of ops counted"},
};

static const nc_pass_def count_ops_pass = {
  .argument = "example-count-ops",
  .name = "ExampleCountOps",
  .group = "Example plugin",
  .summary = "Record the number of ops of each function as example.num_ops",
  .description = "Counts the ops nested in each function's body (all of them, or those named by `op-name`) and sets "
                 "the function's discardable attribute `example.num_ops`.",
  .anchor = "func.func",
  .options = options, .n_options = NC_COUNTOF(options),
  .stats = stats, .n_stats = NC_COUNTOF(stats),
  .run = run,
};

static void register_passes(void *user_data)
{
  (void)user_data;
  nc_pass_register(&count_ops_pass);
}

static const nc_plugin_info info = {
  .api_version = NC_PLUGIN_API_VERSION,
  .name = "count-ops",
  .version = "1.0",
  .register_passes = register_passes,
};

NC_PLUGIN_EXPORT NC_KEEP const nc_plugin_info *nc_get_pass_plugin_info(void)
{
  return &info;
}
