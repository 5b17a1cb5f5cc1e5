/* func.c: the func dialect (func.func, func.return, func.call) with MLIR's
 * own syntax, so that an MLIR user's functions parse and print unchanged.
 *
 * func.func needs hand-written syntax (named arguments with attributes and
 * locations in the signature), which no declarative format can say; return
 * and call use declarative formats.
 */
#include <stdlib.h>
#include <string.h>

#include "nc/dialects/dialects.h"
#include "nc/ir/asm.h"
#include "nc/ir/diag.h"
#include "nc/ir/symbol.h"

/* --- func.func ------------------------------------------------------------------------------ */

static nc_type *func_type(nc_op *op)
{
  nc_attr *a = nc_op_get_attr_str(op, "function_type");
  return a && nc_attr_get_kind(a) == NC_ATTR_TYPE ? nc_attr_get_type_value(a) : NULL;
}

static bool parse_result_list(nc_asm_parser *p, nc_type ***types, nc_attr ***attrs, size_t *n, bool *any_attr)
{
  size_t cap = 0;
  bool paren = nc_asm_parse_optional_punct(p, "(");
  if (paren && nc_asm_parse_optional_punct(p, ")"))
    return true;
  do {
    if (*n == cap) {
      cap = cap ? cap * 2 : 4;
      *types = nc_xrealloc(*types, cap * sizeof **types);
      *attrs = nc_xrealloc(*attrs, cap * sizeof **attrs);
    }
    if (!nc_asm_parse_type(p, &(*types)[*n]))
      return false;
    (*attrs)[*n] = NULL;
    if (paren && !nc_asm_parse_optional_attr_dict(p, &(*attrs)[*n]))
      return false;
    *any_attr |= (*attrs)[*n] != NULL;
    (*n)++;
  } while (paren && nc_asm_parse_optional_punct(p, ","));
  return !paren || nc_asm_parse_punct(p, ")");
}

static nc_attr *dict_array(nc_context *ctx, size_t n, nc_attr **dicts)
{
  nc_attr **elts = nc_xmalloc((n + 1) * sizeof *elts);
  for (size_t i = 0; i < n; i++)
    elts[i] = dicts[i] ? dicts[i] : nc_attr_empty_dictionary(ctx);
  nc_attr *a = nc_attr_array(ctx, n, elts);
  free(elts);
  return a;
}

static bool parse_func(nc_asm_parser *p, nc_op_builder *b)
{
  nc_context *ctx = nc_asm_parser_get_context(p);
  static const char *const vis[] = {"private", "public", "nested"};
  for (size_t i = 0; i < 3; i++)
    if (nc_asm_parse_optional_keyword(p, vis[i])) {
      nc_op_builder_set_attr(b, "sym_visibility", nc_attr_string_cstr(ctx, vis[i]));
      break;
    }
  nc_attr *name;
  if (!nc_asm_parse_symbol_name(p, &name))
    return false;
  nc_op_builder_set_attr(b, "sym_name", name);

  nc_asm_argument *args = NULL;
  nc_type **in = NULL, **out = NULL;
  nc_attr **in_attrs = NULL, **out_attrs = NULL;
  size_t n_in = 0, n_out = 0, cap = 0;
  bool named = false, any_in_attr = false, any_out_attr = false, ok = false;
  if (!nc_asm_parse_punct(p, "("))
    goto out;
  if (!nc_asm_parse_optional_punct(p, ")")) {
    do {
      if (n_in == cap) {
        cap = cap ? cap * 2 : 4;
        args = nc_xrealloc(args, cap * sizeof *args);
        in = nc_xrealloc(in, cap * sizeof *in);
        in_attrs = nc_xrealloc(in_attrs, cap * sizeof *in_attrs);
      }
      bool present;
      if (!nc_asm_parse_optional_argument(p, true, true, &args[n_in], &present))
        goto out;
      if (present) {
        if (n_in && !named) {
          nc_asm_parser_error(p, args[n_in].ssa.loc, "expected type instead of SSA identifier");
          goto out;
        }
        named = true;
      } else {
        if (named) {
          nc_asm_parser_error(p, nc_asm_parser_get_loc(p), "expected SSA identifier");
          goto out;
        }
        memset(&args[n_in], 0, sizeof args[n_in]);
        args[n_in].loc = nc_asm_parser_get_loc(p);
        if (!nc_asm_parse_type(p, &args[n_in].type) || !nc_asm_parse_optional_attr_dict(p, &args[n_in].attrs) ||
            !nc_asm_parse_optional_location(p, &args[n_in].loc))
          goto out;
      }
      in[n_in] = args[n_in].type;
      in_attrs[n_in] = args[n_in].attrs;
      any_in_attr |= args[n_in].attrs != NULL;
      n_in++;
    } while (nc_asm_parse_optional_punct(p, ","));
    if (!nc_asm_parse_punct(p, ")"))
      goto out;
  }
  if (nc_asm_parse_optional_punct(p, "->") && !parse_result_list(p, &out, &out_attrs, &n_out, &any_out_attr))
    goto out;
  nc_op_builder_set_attr(b, "function_type", nc_attr_type(ctx, nc_type_function(ctx, n_in, in, n_out, out)));
  if (any_in_attr)
    nc_op_builder_set_attr(b, "arg_attrs", dict_array(ctx, n_in, in_attrs));
  if (any_out_attr)
    nc_op_builder_set_attr(b, "res_attrs", dict_array(ctx, n_out, out_attrs));
  nc_attr *extra;
  if (!nc_asm_parse_optional_attr_dict_with_keyword(p, &extra))
    goto out;
  nc_op_builder_merge_attr_dict(b, extra);
  nc_region *body = nc_op_builder_add_region(b);
  bool present;
  nc_location body_loc = nc_asm_parser_get_loc(p);
  if (!named && n_in) {
    if (nc_asm_parse_optional_punct(p, "{")) {
      nc_asm_parser_error(p, body_loc, "expected named arguments for a function with a body");
      goto out;
    }
  }
  if (!nc_asm_parse_optional_region(p, body, named ? n_in : 0, args, true, &present))
    goto out;
  if (present && nc_region_is_empty(body)) { /* `{}` would read back as a declaration */
    nc_asm_parser_error(p, body_loc, "expected non-empty function body");
    goto out;
  }
  ok = true;
out:
  free(args);
  free(in);
  free(out);
  free(in_attrs);
  free(out_attrs);
  return ok;
}

static void print_func(nc_asm_printer *p, nc_op *op)
{
  nc_attr *vis = nc_op_get_attr_str(op, "sym_visibility");
  nc_asm_print(p, " ");
  if (vis && nc_attr_get_kind(vis) == NC_ATTR_STRING) { /* an explicit "public" prints too, as in MLIR */
    size_t len;
    const char *s = nc_attr_get_string(vis, &len);
    nc_asm_printn(p, s, len);
    nc_asm_print(p, " ");
  }
  size_t nlen;
  const char *name = nc_attr_get_string(nc_op_get_attr_str(op, "sym_name"), &nlen);
  nc_asm_print_symbol_name(p, name, nlen);
  nc_type *ft = func_type(op);
  nc_attr *arg_attrs = nc_op_get_attr_str(op, "arg_attrs"), *res_attrs = nc_op_get_attr_str(op, "res_attrs");
  nc_region *body = nc_op_get_region(op, 0);
  nc_block *entry = nc_region_get_first_block(body);
  nc_asm_print(p, "(");
  for (size_t i = 0; i < nc_type_get_num_inputs(ft); i++) {
    if (i)
      nc_asm_print(p, ", ");
    nc_attr *attrs = arg_attrs && i < nc_attr_get_num_elements(arg_attrs) ? nc_attr_get_element(arg_attrs, i) : NULL;
    if (entry && i < nc_block_get_num_args(entry)) {
      nc_asm_print_argument(p, nc_block_get_arg(entry, i), attrs);
    } else {
      nc_asm_print_type(p, nc_type_get_input(ft, i));
      if (attrs && nc_attr_get_num_elements(attrs)) {
        nc_asm_print(p, " ");
        nc_asm_print_attr(p, attrs);
      }
    }
  }
  nc_asm_print(p, ")");
  size_t nr = nc_type_get_num_results(ft);
  if (nr) {
    bool any_attr = false;
    for (size_t i = 0; res_attrs && i < nc_attr_get_num_elements(res_attrs); i++)
      any_attr |= nc_attr_get_num_elements(nc_attr_get_element(res_attrs, i)) > 0;
    bool paren = nr > 1 || any_attr || nc_type_get_kind(nc_type_get_result(ft, 0)) == NC_TYPE_FUNCTION;
    nc_asm_print(p, paren ? " -> (" : " -> ");
    for (size_t i = 0; i < nr; i++) {
      if (i)
        nc_asm_print(p, ", ");
      nc_asm_print_type(p, nc_type_get_result(ft, i));
      nc_attr *ra = res_attrs && i < nc_attr_get_num_elements(res_attrs) ? nc_attr_get_element(res_attrs, i) : NULL;
      if (ra && nc_attr_get_num_elements(ra)) {
        nc_asm_print(p, " ");
        nc_asm_print_attr(p, ra);
      }
    }
    if (paren)
      nc_asm_print(p, ")");
  }
  static const char *const elided[] = {"sym_name", "function_type", "sym_visibility", "arg_attrs", "res_attrs"};
  nc_attr *all = nc_op_get_attr_dict(op);
  nc_attr *props = nc_op_get_props(op);
  /* inherent attributes other than the elided ones print too */
  if (props)
    for (size_t i = 0; i < nc_attr_get_num_elements(props); i++) {
      nc_named_attr e = nc_attr_get_entry(props, i);
      bool skip = false;
      for (size_t k = 0; k < NC_COUNTOF(elided); k++)
        skip |= !strcmp(nc_ident_str(e.name), elided[k]);
      if (!skip)
        all = nc_attr_dict_set(nc_op_get_context(op), all, e.name, e.value);
    }
  nc_asm_print_optional_attr_dict_with_keyword(p, all, NC_COUNTOF(elided), elided);
  if (!nc_region_is_empty(body)) {
    nc_asm_print(p, " ");
    nc_asm_print_region(p, body, false, true);
  }
}

static bool verify_func(nc_op *op)
{
  nc_type *ft = func_type(op);
  if (!ft)
    return nc_op_emit_error(op, "requires a function_type attribute of function type");
  nc_attr *arg_attrs = nc_op_get_attr_str(op, "arg_attrs"), *res_attrs = nc_op_get_attr_str(op, "res_attrs");
  if (arg_attrs && nc_attr_get_num_elements(arg_attrs) != nc_type_get_num_inputs(ft))
    return nc_op_emit_error(op, "expects argument attribute array to have the same number of elements as the number of "
                                "function arguments, got %zu, but expected %zu",
                            nc_attr_get_num_elements(arg_attrs), nc_type_get_num_inputs(ft));
  if (res_attrs && nc_attr_get_num_elements(res_attrs) != nc_type_get_num_results(ft))
    return nc_op_emit_error(op, "expects result attribute array to have the same number of elements as the number of "
                                "function results, got %zu, but expected %zu",
                            nc_attr_get_num_elements(res_attrs), nc_type_get_num_results(ft));
  nc_block *entry = nc_region_get_first_block(nc_op_get_region(op, 0));
  if (!entry) {
    nc_attr *vis = nc_op_get_attr_str(op, "sym_visibility");
    if (vis && !nc_attr_is_string_eq(vis, "private"))
      return nc_op_emit_error(op, "symbol declaration cannot have public visibility");
    if (!vis)
      return nc_op_emit_error(op, "symbol declaration cannot have public visibility");
    return true;
  }
  if (nc_block_get_num_args(entry) != nc_type_get_num_inputs(ft))
    return nc_op_emit_error(op, "entry block must have %zu arguments to match function signature",
                            nc_type_get_num_inputs(ft));
  for (size_t i = 0; i < nc_type_get_num_inputs(ft); i++) {
    nc_type *a = nc_value_get_type(nc_block_get_arg(entry, i)), *f = nc_type_get_input(ft, i);
    if (a != f) {
      char *sa = nc_type_to_string(a), *sf = nc_type_to_string(f);
      nc_op_emit_error(op, "type of entry block argument #%zu('%s') must match the type of the corresponding argument in "
                           "function signature('%s')",
                       i, sa, sf);
      free(sa);
      free(sf);
      return false;
    }
  }
  return true;
}

/* --- func.return ------------------------------------------------------------------------------ */

static bool verify_return(nc_op *op)
{
  nc_op *fn = nc_op_get_parent_op(op);
  nc_type *ft = fn ? func_type(fn) : NULL;
  if (!ft)
    return true;
  size_t n = nc_op_get_num_operands(op), nr = nc_type_get_num_results(ft);
  size_t nlen;
  const char *name = nc_attr_get_string(nc_op_get_attr_str(fn, "sym_name"), &nlen);
  if (n != nr)
    return nc_op_emit_error(op, "has %zu operands, but enclosing function (@%.*s) returns %zu", n, (int)nlen, name, nr);
  for (size_t i = 0; i < n; i++) {
    nc_type *t = nc_value_get_type(nc_op_get_operand(op, i)), *r = nc_type_get_result(ft, i);
    if (t != r) {
      char *st = nc_type_to_string(t), *sr = nc_type_to_string(r);
      nc_op_emit_error(op, "type of return operand %zu ('%s') doesn't match function result type ('%s') in function @%.*s",
                       i, st, sr, (int)nlen, name);
      free(st);
      free(sr);
      return false;
    }
  }
  return true;
}

/* --- func.call ----------------------------------------------------------------------------------- */

static bool verify_call_uses(nc_op *op, nc_symbol_table_collection *tables)
{
  nc_attr *callee = nc_op_get_attr_str(op, "callee");
  nc_op *fn = nc_symbol_lookup_nearest(tables, op, callee);
  nc_ident *root = nc_attr_symbol_ref_get_root(callee);
  if (!fn || !nc_op_is(fn, "func.func"))
    return nc_op_emit_error(op, "'%s' does not reference a valid function", nc_ident_str(root));
  nc_type *ft = func_type(fn);
  if (!ft)
    return true;
  if (nc_op_get_num_operands(op) != nc_type_get_num_inputs(ft))
    return nc_op_emit_error(op, "incorrect number of operands for callee");
  for (size_t i = 0; i < nc_type_get_num_inputs(ft); i++)
    if (nc_value_get_type(nc_op_get_operand(op, i)) != nc_type_get_input(ft, i)) {
      char *e = nc_type_to_string(nc_type_get_input(ft, i)), *g = nc_type_to_string(nc_value_get_type(nc_op_get_operand(op, i)));
      nc_op_emit_error(op, "operand type mismatch: expected operand type '%s', but provided '%s' for operand number %zu", e,
                       g, i);
      free(e);
      free(g);
      return false;
    }
  if (nc_op_get_num_results(op) != nc_type_get_num_results(ft))
    return nc_op_emit_error(op, "incorrect number of results for callee");
  for (size_t i = 0; i < nc_type_get_num_results(ft); i++)
    if (nc_value_get_type(nc_op_get_result(op, i)) != nc_type_get_result(ft, i)) {
      char *e = nc_type_to_string(nc_type_get_result(ft, i)), *g = nc_type_to_string(nc_value_get_type(nc_op_get_result(op, i)));
      nc_op_emit_error(op, "result type mismatch at index %zu: expected '%s', but got '%s'", i, e, g);
      free(e);
      free(g);
      return false;
    }
  return true;
}

/* --- tables ---------------------------------------------------------------------------------------- */

static const nc_attr_def func_attrs[] = {
  {"sym_name", &nc_ac_symbol_name, false, NULL, "the function's name"},
  {"function_type", &nc_ac_function_type, false, NULL, "the function's type"},
  {"sym_visibility", &nc_ac_string, true, NULL, "public, private or nested"},
  {"arg_attrs", &nc_ac_dict_array, true, NULL, "per-argument attribute dictionaries"},
  {"res_attrs", &nc_ac_dict_array, true, NULL, "per-result attribute dictionaries"},
};
static const nc_region_def func_regions[] = {{"body", false, false, "the function body (empty for a declaration)"}};
static const char *const return_parents[] = {"func.func", NULL};
static const nc_value_def return_operands[] = {{"operands", NULL, NC_ARITY_VARIADIC, "the returned values"}};
/* as in MLIR 19 (the version nc's files interoperate with): later versions
 * add arg_attrs, res_attrs and no_inline, which here stay discardable */
static const nc_attr_def call_attrs[] = {
  {"callee", &nc_ac_flat_symbol_ref, false, NULL, "the called function"},
};
static const nc_value_def call_operands[] = {{"operands", NULL, NC_ARITY_VARIADIC, "the arguments"}};
static const nc_value_def call_results[] = {{"results", NULL, NC_ARITY_VARIADIC, "the returned values"}};

static const nc_op_def func_ops[] = {
  {
    .name = "func.func",
    .summary = "An operation with a name containing a single SSACFG region",
    .description = "`func.func @name(%arg0: T {attrs}) -> (R {attrs}) attributes {...} { body }` as in MLIR; a "
                   "declaration (private, no body) lists argument types only.",
    .attrs = func_attrs, .n_attrs = NC_COUNTOF(func_attrs),
    .regions = func_regions, .n_regions = 1,
    .traits = NC_TRAIT_ISOLATED_FROM_ABOVE | NC_TRAIT_SYMBOL | NC_TRAIT_CALLABLE,
    .verify = verify_func,
    .parse = parse_func,
    .print = print_func,
    .default_dialect = "func",
  },
  {
    .name = "func.return",
    .summary = "Function return operation",
    .description = "Returns control and values from a `func.func`; types must match the function's results.",
    .operands = return_operands, .n_operands = 1,
    .traits = NC_TRAIT_PURE | NC_TRAIT_HAS_PARENT | NC_TRAIT_RETURN_LIKE | NC_TRAIT_TERMINATOR,
    .parents = return_parents,
    .verify = verify_return,
    .assembly_format = "attr-dict ($operands^ `:` type($operands))?",
  },
  {
    .name = "func.call",
    .summary = "Call operation",
    .description = "Calls the function named by the `callee` symbol with the operands; types must match its signature.",
    .operands = call_operands, .n_operands = 1,
    .results = call_results, .n_results = 1,
    .attrs = call_attrs, .n_attrs = NC_COUNTOF(call_attrs),
    .traits = NC_TRAIT_CALL,
    .verify_symbol_uses = verify_call_uses,
    .assembly_format = "$callee `(` $operands `)` attr-dict `:` functional-type($operands, results)",
  },
};

const nc_dialect_def nc_func_dialect = {
  .name = "func",
  .summary = "The func dialect: functions, calls and returns",
  .description = "MLIR's `func` dialect, with MLIR's syntax.",
  .ops = func_ops,
  .n_ops = NC_COUNTOF(func_ops),
};
