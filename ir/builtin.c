/* builtin.c: the builtin dialect: builtin.module (the top-level container)
 * and builtin.unrealized_conversion_cast. The IR core needs these two and no
 * other dialect, as in MLIR. */
#include "ir-internal.h"

static bool verify_module(nc_op *op)
{
  nc_block *body = nc_op_regions(op)[0].first;
  if (body && body->n_args)
    return nc_op_emit_error(op, "region should have no arguments");
  /* as MLIR: a module's discardable attributes belong to dialects */
  nc_attr *dict = nc_op_get_attr_dict(op);
  for (size_t i = 0, n = nc_attr_get_num_elements(dict); i < n; i++) {
    const char *name = nc_ident_str(nc_attr_get_entry(dict, i).name);
    if (!strchr(name, '.'))
      return nc_op_emit_error(op, "can only contain attributes with dialect-prefixed names, found: '%s'", name);
  }
  return true;
}

static const nc_attr_def module_attrs[] = {
  {"sym_name", &nc_ac_symbol_name, true, NULL, "optional name of the module"},
  {"sym_visibility", &nc_ac_string, true, NULL, "symbol visibility"},
};

static const nc_region_def module_regions[] = {{"bodyRegion", false, true, "the module body"}};

static const nc_value_def cast_inputs[] = {{"inputs", NULL, NC_ARITY_VARIADIC, NULL}};
static const nc_value_def cast_outputs[] = {{"outputs", NULL, NC_ARITY_VARIADIC, NULL}};

static const nc_op_def builtin_ops[] = {
  {
    .name = "builtin.module",
    .summary = "A top level container operation",
    .description = "A `module` holds one block of ops and is a symbol table. A file's top-level ops are wrapped in "
                   "an implicit module when the file does not consist of exactly one module.",
    .attrs = module_attrs, .n_attrs = NC_COUNTOF(module_attrs),
    .regions = module_regions, .n_regions = 1,
    .traits = NC_TRAIT_ISOLATED_FROM_ABOVE | NC_TRAIT_NO_TERMINATOR | NC_TRAIT_SYMBOL_TABLE | NC_TRAIT_SINGLE_BLOCK |
              NC_TRAIT_GRAPH_REGION,
    .verify = verify_module,
    .assembly_format = "($sym_name^)? attr-dict-with-keyword $bodyRegion",
  },
  {
    .name = "builtin.unrealized_conversion_cast",
    .summary = "An unrealized conversion from one set of types to another",
    .description = "Marks a type conversion that a later lowering is expected to resolve.",
    .operands = cast_inputs, .n_operands = 1,
    .results = cast_outputs, .n_results = 1,
    .traits = NC_TRAIT_PURE,
    .assembly_format = "($inputs^ `:` type($inputs))? `to` type($outputs) attr-dict",
  },
};

const nc_dialect_def nc_builtin_dialect = {
  .name = "builtin",
  .summary = "The builtin dialect",
  .description = "Types, attributes and the two ops every nc program needs.",
  .ops = builtin_ops,
  .n_ops = NC_COUNTOF(builtin_ops),
};

nc_op *nc_module_create(nc_context *ctx, nc_location loc)
{
  nc_op *m = nc_op_create(&(nc_op_state){.ctx = ctx, .name = "builtin.module", .loc = loc, .n_regions = 1});
  nc_region_append_block(&nc_op_regions(m)[0], nc_block_create(ctx));
  return m;
}

nc_block *nc_module_get_body(nc_op *module) { return nc_op_regions(module)[0].first; }
