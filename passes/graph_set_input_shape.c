/* graph_set_input_shape.c: graph-set-input-shape{shapes=NAME:1x3x224x224,...}
 * gives function inputs the static shapes the user names.
 *
 * Exported models often leave the batch (or more) dynamic (`?`), and every
 * pass that maps onto hardware needs static shapes; nothing in the model
 * says what the dynamic dims should be, so the user does (nc-compile
 * --input-shape). An input is named as the model names it (the ONNX input
 * name, the argument's location), or by its position as `#0`, `#1`, ... A
 * static dim must keep its size; a wrong name, rank or size is an error at
 * the function. graph-shape-inference then carries the shapes through the
 * graph and into the function's results.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nc/ir/diag.h"
#include "nc/ir/pass.h"
#include "nc/support/strutil.h"

static const nc_pass_option_def options[] = {
  {"shapes", NC_PASS_OPT_STRING_LIST, "",
   "NAME:D0xD1x... per input to fix (NAME: the model's input name, or #i for argument i)"},
};

static const nc_pass_stat_def stats[] = {{"num-inputs", "Number of inputs given a static shape"}};

static const char *arg_name(nc_context *ctx, nc_value *arg)
{
  nc_attr *a = nc_location_get_attr(ctx, nc_value_get_loc(arg));
  return a && nc_attr_get_kind(a) == NC_ATTR_LOC_NAME ? nc_ident_str(nc_loc_get_name(a)) : NULL;
}

/* Parses "D0xD1x..." (positive sizes) into dims; the rank, or -1. */
static int parse_dims(const char *s, int64_t *dims)
{
  int rank = 0;
  while (*s) {
    const char *end = strchr(s, 'x');
    size_t len = end ? (size_t)(end - s) : strlen(s);
    char buf[32];
    int64_t d;
    if (rank == NC_MAX_RANK || !len || len >= sizeof buf)
      return -1;
    memcpy(buf, s, len);
    buf[len] = 0;
    if (!nc_parse_int_in_range(buf, 1, INT64_MAX / 4, &d))
      return -1;
    dims[rank++] = d;
    s += len + (end ? 1 : 0);
    if (end && !*s)
      return -1;
  }
  return rank;
}

/* The argument `name` names ("#i" or a location name), or -1. */
static int find_arg(nc_context *ctx, nc_block *block, const char *name)
{
  size_t n = nc_block_get_num_args(block);
  if (name[0] == '#') {
    int64_t i;
    return nc_parse_int_in_range(name + 1, 0, (int64_t)n - 1, &i) ? (int)i : -1;
  }
  for (size_t i = 0; i < n; i++) {
    const char *an = arg_name(ctx, nc_block_get_arg(block, i));
    if (an && !strcmp(an, name))
      return (int)i;
  }
  return -1;
}

/* "image, mask" or "#0, #1" for the error that names the inputs. */
static void list_names(nc_context *ctx, nc_block *block, char *buf, size_t len)
{
  buf[0] = 0;
  for (size_t i = 0, n = nc_block_get_num_args(block); i < n; i++) {
    const char *an = arg_name(ctx, nc_block_get_arg(block, i));
    size_t used = strlen(buf);
    if (an)
      snprintf(buf + used, len - used, "%s'%s'", i ? ", " : "", an);
    else
      snprintf(buf + used, len - used, "%s#%zu", i ? ", " : "", i);
  }
}

static bool set_one(nc_op *func, nc_block *block, const char *spec, nc_type **ins)
{
  nc_context *ctx = nc_op_get_context(func);
  const char *colon = strrchr(spec, ':');
  if (!colon || colon == spec)
    return nc_op_emit_error(func, "graph-set-input-shape: '%s' is not NAME:D0xD1x... (e.g. input:1x3x224x224)",
                            spec);
  char *name = strndup(spec, (size_t)(colon - spec));
  int64_t dims[NC_MAX_RANK];
  int rank = parse_dims(colon + 1, dims);
  int i = find_arg(ctx, block, name);
  bool ok = true;
  if (rank < 1) {
    ok = nc_op_emit_error(func, "graph-set-input-shape: '%s' is not a shape of positive sizes D0xD1x... (for "
                          "input '%s')", colon + 1, name);
  } else if (i < 0) {
    char names[512];
    list_names(ctx, block, names, sizeof names);
    ok = nc_op_emit_error(func, "graph-set-input-shape: the function has no input '%s' (its inputs: %s)", name,
                          names);
  } else {
    nc_value *arg = nc_block_get_arg(block, (size_t)i);
    nc_type *t = nc_value_get_type(arg);
    char *ts = nc_type_to_string(t);
    if (!nc_type_is_tensor(t) || (int)nc_type_get_rank(t) != rank) {
      ok = nc_op_emit_error(func, "graph-set-input-shape: input '%s' is '%s', which does not have rank %d", name, ts,
                            rank);
    } else {
      const int64_t *old = nc_type_get_shape(t);
      for (int d = 0; ok && d < rank; d++)
        if (old[d] != NC_DYNAMIC && old[d] != dims[d])
          ok = nc_op_emit_error(func, "graph-set-input-shape: input '%s' is '%s': dim %d is %lld, not %lld", name,
                                ts, d, (long long)old[d], (long long)dims[d]);
      if (ok) {
        ins[i] = nc_type_tensor(ctx, (size_t)rank, dims, nc_type_get_element_type(t), NULL);
        nc_value_set_type(arg, ins[i]);
      }
    }
    free(ts);
  }
  free(name);
  return ok;
}

static bool run(nc_pass *pass, nc_op *func)
{
  size_t n = nc_pass_get_option_list_size(pass, "shapes");
  nc_region *body = nc_op_get_num_regions(func) ? nc_op_get_region(func, 0) : NULL;
  nc_block *block = body ? nc_region_get_first_block(body) : NULL;
  nc_attr *fa = nc_op_get_attr_str(func, "function_type");
  nc_type *ft = fa ? nc_attr_get_type_value(fa) : NULL;
  if (!n || !block || !ft || nc_type_get_kind(ft) != NC_TYPE_FUNCTION)
    return true; /* nothing to set, or a declaration */
  size_t ni = nc_type_get_num_inputs(ft), nr = nc_type_get_num_results(ft);
  if (ni != nc_block_get_num_args(block))
    return nc_op_emit_error(func, "graph-set-input-shape: the function type does not match its arguments");
  nc_type **ins = nc_xcalloc(ni + 1, sizeof *ins), **outs = nc_xcalloc(nr + 1, sizeof *outs);
  for (size_t i = 0; i < ni; i++)
    ins[i] = nc_type_get_input(ft, i);
  for (size_t i = 0; i < nr; i++)
    outs[i] = nc_type_get_result(ft, i);
  bool ok = true;
  for (size_t k = 0; ok && k < n; k++)
    ok = set_one(func, block, nc_pass_get_option_list_string(pass, "shapes", k), ins);
  nc_op *ret = ok ? nc_block_get_terminator(block) : NULL;
  for (size_t r = 0; ret && nc_op_is(ret, "func.return") && r < nr && r < nc_op_get_num_operands(ret); r++)
    if (nc_value_is_block_arg(nc_op_get_operand(ret, r))) /* an input returned as it is: the result's type too */
      outs[r] = nc_value_get_type(nc_op_get_operand(ret, r));
  if (ok) {
    nc_context *ctx = nc_op_get_context(func);
    nc_op_set_attr_str(func, "function_type", nc_attr_type(ctx, nc_type_function(ctx, ni, ins, nr, outs)));
    nc_pass_stat_add(pass, 0, n);
  }
  free(ins);
  free(outs);
  return ok;
}

const nc_pass_def nc_graph_set_input_shape_pass = {
  .argument = "graph-set-input-shape",
  .name = "GraphSetInputShape",
  .group = "Graph",
  .summary = "Give function inputs the static shapes the user names (fixes dynamic dims)",
  .description =
    "For each NAME:D0xD1x... of `shapes`, the function input NAME (the model's input name, as its location says, "
    "or #i for argument i) gets that static shape: its dynamic dims take the given sizes, its static dims must "
    "already have them. A name the function does not have, a different rank or a different static size is an "
    "error at the function naming the inputs it has. Run graph-shape-inference after it.",
  .anchor = "func.func",
  .options = options, .n_options = NC_COUNTOF(options),
  .stats = stats, .n_stats = NC_COUNTOF(stats),
  .run = run,
};
