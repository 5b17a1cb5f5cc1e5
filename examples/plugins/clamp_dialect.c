/* clamp_dialect.c: an example dialect plugin (docs/plugins.md). It adds the
 * dialect `example` with one op, written as data like nc's own dialects:
 *
 *   %y = example.clamp %x [0, 255] : i32
 *
 * clamps a signless integer to [lo, hi]. The table gives operands, result,
 * attributes, traits and the assembly format; the verify hook adds the one
 * rule a table cannot say (lo <= hi) and the fold hook folds a clamp of a
 * constant, which canonicalize materializes as an arith.constant through
 * the dialect's materialize_constant hook. The plugin exports
 * nc_get_dialect_plugin_info; nc-opt calls its callback on every context.
 *
 * Build: cc -std=c11 -shared -fPIC $(pkg-config --cflags nc) -o clamp_dialect.so clamp_dialect.c
 * Run:   nc-opt --load-dialect-plugin=./clamp_dialect.so in.mlir */
#include "nc/ir/diag.h"
#include "nc/ir/ods.h"
#include "nc/plugin.h"

static bool verify_clamp(nc_op *op)
{
  int64_t lo = nc_attr_get_int(nc_op_get_attr_str(op, "lo"));
  int64_t hi = nc_attr_get_int(nc_op_get_attr_str(op, "hi"));
  if (lo > hi)
    return nc_op_emit_error(op, "lower bound %lld is greater than upper bound %lld", (long long)lo, (long long)hi);
  return true;
}

static bool fold_clamp(nc_op *op, nc_attr *const *consts, nc_fold_result *results)
{
  if (!consts[0] || nc_attr_get_kind(consts[0]) != NC_ATTR_INTEGER)
    return false;
  int64_t lo = nc_attr_get_int(nc_op_get_attr_str(op, "lo"));
  int64_t hi = nc_attr_get_int(nc_op_get_attr_str(op, "hi"));
  int64_t v = nc_attr_get_int(consts[0]);
  v = v < lo ? lo : v > hi ? hi : v;
  results[0].attr = nc_attr_integer(nc_op_get_context(op), nc_value_get_type(nc_op_get_result(op, 0)), v);
  return true;
}

/* Folded values become arith.constant ops, as in many MLIR dialects. */
static nc_op *materialize_constant(nc_context *ctx, nc_attr *value, nc_type *type, nc_location loc)
{
  if (nc_attr_get_kind(value) != NC_ATTR_INTEGER || nc_attr_get_type(value) != type)
    return NULL;
  return nc_op_create(&(nc_op_state){.ctx = ctx, .name = "arith.constant", .loc = loc, .n_results = 1,
                                     .result_types = &type, .n_attrs = 1,
                                     .attrs = &(nc_named_attr){nc_ident_get_cstr(ctx, "value"), value}});
}

static const nc_value_def clamp_operands[] = {{.name = "input", .type = &nc_tc_signless_integer}};
static const nc_value_def clamp_results[] = {{.name = "result", .type = &nc_tc_signless_integer}};
static const nc_attr_def clamp_attrs[] = {
  {.name = "lo", .constraint = &nc_ac_i64, .summary = "lower bound"},
  {.name = "hi", .constraint = &nc_ac_i64, .summary = "upper bound"},
};

static const nc_op_def example_ops[] = {
  {
    .name = "example.clamp",
    .summary = "Clamps an integer to [lo, hi]",
    .description = "`example.clamp %x [lo, hi] : iN` is `min(max(%x, lo), hi)`; `lo` must not exceed `hi`.",
    .operands = clamp_operands, .n_operands = NC_COUNTOF(clamp_operands),
    .results = clamp_results, .n_results = NC_COUNTOF(clamp_results),
    .attrs = clamp_attrs, .n_attrs = NC_COUNTOF(clamp_attrs),
    .traits = NC_TRAIT_PURE | NC_TRAIT_SAME_OPERANDS_AND_RESULT_TYPE,
    .verify = verify_clamp,
    .fold = fold_clamp,
    .assembly_format = "$input `[` $lo `,` $hi `]` attr-dict `:` type($result)",
  },
};

static const nc_dialect_def example_dialect = {
  .name = "example",
  .summary = "An example dialect loaded from a plugin",
  .description = "One op, `example.clamp`, to show how a dialect plugin is written (examples/plugins/).",
  .ops = example_ops, .n_ops = NC_COUNTOF(example_ops),
  .materialize_constant = materialize_constant,
};

static void register_dialects(nc_context *ctx, void *user_data)
{
  (void)user_data;
  nc_context_register_dialect(ctx, &example_dialect);
}

static const nc_plugin_info info = {
  .api_version = NC_PLUGIN_API_VERSION,
  .name = "clamp-dialect",
  .version = "1.0",
  .register_dialects = register_dialects,
};

NC_PLUGIN_EXPORT NC_KEEP const nc_plugin_info *nc_get_dialect_plugin_info(void)
{
  return &info;
}
