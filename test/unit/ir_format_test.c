/* ir_format_test.c: custom syntax from declarative assembly formats, on a
 * small dialect defined here: literals, operands, attributes in each
 * spelling (implied type, enum keyword, symbol name, type, string), optional
 * groups with an anchor, variadic operands, regions, successors, type
 * inference (SameOperandsAndResultType, infer hook), functional-type. Every
 * op must print as written, and its generic form must read back to it. Also
 * printing nested ops (numbered from their isolated ancestor), printing into
 * FILE streams, and the print flags.
 */
#include "ir_check.h"

static nc_type *infer_i1(nc_context *ctx, nc_location loc, size_t n, nc_type *const *in, nc_attr *props)
{
  (void)loc, (void)n, (void)in, (void)props;
  return nc_type_integer(ctx, 1, NC_SIGNLESS);
}

static bool infer_cmp(nc_context *ctx, nc_location loc, size_t n_operands, nc_type *const *operand_types, nc_attr *props,
                      size_t n_results, nc_type **types)
{
  for (size_t i = 0; i < n_results; i++)
    types[i] = infer_i1(ctx, loc, n_operands, operand_types, props);
  return true;
}

static const nc_enum_case cmp_cases[] = {{"eq", 0}, {"ne", 1}, {"slt", 2}};
static bool is_cmp_pred(const nc_attr *a) { return nc_attr_get_kind(a) == NC_ATTR_INTEGER && nc_attr_get_int(a) <= 2; }
static const nc_attr_constraint cmp_pred = {"comparison predicate", is_cmp_pred, NC_ATTR_SYNTAX_ENUM, NULL, cmp_cases, 3};

static const nc_value_def two_operands[] = {{"lhs", &nc_tc_any, NC_ARITY_ONE, NULL}, {"rhs", &nc_tc_any, NC_ARITY_ONE, NULL}};
static const nc_value_def one_result[] = {{"result", &nc_tc_any, NC_ARITY_ONE, NULL}};
static const nc_value_def opt_operand[] = {{"x", &nc_tc_any, NC_ARITY_OPTIONAL, NULL}};
static const nc_value_def var_operands[] = {{"args", &nc_tc_any, NC_ARITY_VARIADIC, NULL}};
static const nc_value_def var_results[] = {{"outs", &nc_tc_any, NC_ARITY_VARIADIC, NULL}};
static const nc_attr_def const_attrs[] = {{"value", &nc_ac_i64, false, NULL, NULL}};
static const nc_attr_def cmp_attrs[] = {{"predicate", &cmp_pred, false, NULL, NULL}};
static const nc_attr_def sym_attrs[] = {{"sym_name", &nc_ac_symbol_name, false, NULL, NULL},
                                        {"kind", &nc_ac_string, true, NULL, NULL},
                                        {"ty", &nc_ac_type, true, NULL, NULL}};
static const nc_region_def one_region[] = {{"body", false, false, NULL}};
static const nc_successor_def one_succ[] = {{"dest", false}};

static const nc_op_def tst_ops[] = {
  {.name = "tst.add", .operands = two_operands, .n_operands = 2, .results = one_result, .n_results = 1,
   .traits = NC_TRAIT_SAME_OPERANDS_AND_RESULT_TYPE | NC_TRAIT_PURE,
   .assembly_format = "$lhs `,` $rhs attr-dict `:` type($result)"},
  {.name = "tst.const", .results = one_result, .n_results = 1, .attrs = const_attrs, .n_attrs = 1,
   .assembly_format = "$value attr-dict `:` type($result)"},
  {.name = "tst.cmp", .operands = two_operands, .n_operands = 2, .results = one_result, .n_results = 1,
   .attrs = cmp_attrs, .n_attrs = 1, .traits = NC_TRAIT_SAME_TYPE_OPERANDS, .infer_types = infer_cmp,
   .assembly_format = "$predicate $lhs `,` $rhs attr-dict `:` type($lhs)"},
  {.name = "tst.opt", .operands = opt_operand, .n_operands = 1,
   .assembly_format = "(`(` $x^ `:` type($x) `)`)? attr-dict"},
  {.name = "tst.call", .operands = var_operands, .n_operands = 1, .results = var_results, .n_results = 1,
   .assembly_format = "`(` $args `)` attr-dict `:` functional-type($args, $outs)"},
  {.name = "tst.sym", .attrs = sym_attrs, .n_attrs = 3,
   .assembly_format = "$sym_name ($kind^)? (`of` $ty^)? attr-dict"},
  {.name = "tst.wrap", .regions = one_region, .n_regions = 1, .assembly_format = "$body attr-dict"},
  {.name = "tst.br", .successors = one_succ, .n_successors = 1, .operands = var_operands, .n_operands = 1,
   .traits = NC_TRAIT_TERMINATOR, .assembly_format = "$dest (`(` $args^ `:` type($args) `)`)? attr-dict"},
  {.name = "tst.ret", .traits = NC_TRAIT_TERMINATOR, .assembly_format = "attr-dict"},
};

static const nc_dialect_def tst_dialect = {.name = "tst", .ops = tst_ops, .n_ops = NC_COUNTOF(tst_ops)};

static const char *custom = "module {\n"
                            "  %0 = \"foo.def\"() : () -> i32\n"
                            "  %1 = tst.add %0, %0 : i32\n"
                            "  %2 = tst.add %1, %0 {tag = \"t\"} : i32\n"
                            "  %3 = tst.const 42 : i64\n"
                            "  %4 = tst.const 7 {x} : i32\n"
                            "  %5 = tst.cmp slt %0, %1 : i32\n"
                            "  %6 = tst.cmp eq %5, %5 {y = 1 : i64} : i1\n"
                            "  tst.opt\n"
                            "  tst.opt(%0 : i32) {z}\n"
                            "  %7:2 = tst.call(%0, %3) : (i32, i64) -> (f32, f32)\n"
                            "  tst.call() : () -> ()\n"
                            "  %8 = tst.call(%7#1) : (f32) -> ((i32) -> i32)\n"
                            "  tst.sym @plain\n"
                            "  tst.sym @\"quoted name\" \"kind\" of tensor<2xf32> {w}\n"
                            "  tst.sym @other of i8\n"
                            "  tst.wrap {\n"
                            "    %9 = tst.add %0, %0 : i32\n"
                            "    tst.br ^bb1(%9, %9 : i32, i32)\n"
                            "  ^bb1(%10: i32, %11: i32):\n"
                            "    tst.br ^bb2\n"
                            "  ^bb2:\n"
                            "    tst.ret\n"
                            "  } {k}\n"
                            "}\n";

static void test_formats(nc_context *ctx)
{
  nc_op *m = ir_parse(ctx, custom);
  CHECK(m, "custom forms parse and verify");
  if (!m)
    return;
  CHECK_PRINT(m, false, custom);
  CHECK(nc_attr_get_int(nc_op_get_attr_str(ir_body_op(m, 5), "predicate")) == 2, "enum case stored as its value");
  CHECK(nc_type_is_integer_of_width(nc_value_get_type(nc_op_get_result(ir_body_op(m, 5), 0)), 1), "inferred i1");
  CHECK(nc_attr_get_type(nc_op_get_attr_str(ir_body_op(m, 3), "value")) == nc_type_integer(ctx, 64, NC_SIGNLESS),
        "implied i64");
  CHECK(nc_attr_is_string_eq(nc_op_get_attr_str(ir_body_op(m, 13), "sym_name"), "quoted name"), "symbol name");
  char *generic = ir_print(m, true);
  CHECK(strstr(generic, "\"tst.cmp\"(%0, %1) <{predicate = 2 : i64}> : (i32, i32) -> i1"), "generic cmp:\n%s", generic);
  CHECK(strstr(generic, "\"tst.const\"() <{value = 7 : i64}> {x} : () -> i32"), "generic const");
  nc_op *back = ir_parse(ctx, generic);
  CHECK(back, "generic form reads back");
  if (back)
    CHECK_PRINT(back, false, custom);
  free(generic);

  /* printing a nested op numbers values from its isolated ancestor, as
   * printing the whole module does; values from outside are unknown */
  nc_op *wrap = ir_body_op(m, 15);
  CHECK_PRINT(wrap, false,
              "tst.wrap {\n"
              "  %9 = tst.add %0, %0 : i32\n"
              "  tst.br ^bb1(%9, %9 : i32, i32)\n"
              "^bb1(%10: i32, %11: i32):\n"
              "  tst.br ^bb2\n"
              "^bb2:\n"
              "  tst.ret\n"
              "} {k}\n");
  nc_op *detached = nc_op_clone(ir_body_op(m, 1), NULL);
  CHECK_PRINT(detached, false, "%0 = tst.add <<UNKNOWN SSA VALUE>>, <<UNKNOWN SSA VALUE>> : i32\n");
  nc_op_destroy(detached);
  nc_op_destroy(back);
  nc_op_destroy(m);

  /* format errors */
  unsigned h = nc_context_push_diag_handler(ctx, ir_record_diag, NULL);
  static const struct { const char *text, *error; } bad[] = {
    {"%0 = \"foo.def\"() : () -> i32\n%1 = tst.cmp bogus %0, %0 : i32\n", "'bogus' is not a valid case of 'predicate'"},
    {"%0 = \"foo.def\"() : () -> i32\n%1 = tst.add %0 %0 : i32\n", "expected ','"},
    {"%0 = tst.const : i64\n", "expected attribute value"},
    {"%0 = tst.const 5 : i64 : i64\n", "expected operation name"},
    {"tst.sym plain\n", "expected valid '@'-identifier for symbol name"},
    {"%0 = \"foo.def\"() : () -> i32\ntst.opt(%0 : f32)\n", "expects different type than prior uses"},
    {"%0 = tst.call() : (i32) -> i32\n", "0 operands present, but expected 1 types"},
    {"tst.wrap { tst.br ^nowhere }\n", "reference to an undefined block"},
  };
  for (size_t i = 0; i < NC_COUNTOF(bad); i++) {
    ir_diags[0] = 0;
    nc_op *b = nc_parse_string(ctx, bad[i].text, strlen(bad[i].text), "bad.mlir");
    CHECK(!b && strstr(ir_diags, bad[i].error), "'%s': got %s", bad[i].text, ir_diags);
    nc_op_destroy(b);
  }
  nc_context_pop_diag_handler(ctx, h);
}

static void test_print_api(nc_context *ctx)
{
  nc_op *m = ir_parse(ctx, "%0 = \"foo.x\"() {d = dense<[1, 2, 3, 4]> : tensor<4xi8>} : () -> i32 loc(\"f.c\":1:2)\n");
  nc_print_flags f = {.elide_elements_larger = 2};
  size_t len;
  char *s = nc_op_print_to_string(m, &f, &len);
  CHECK_STR(s, "module {\n  %0 = \"foo.x\"() {d = dense_resource<__elided__> : tensor<4xi8>} : () -> i32\n}\n");
  CHECK(len == strlen(s), "length");
  free(s);
  f = (nc_print_flags){.hex_threshold = 3};
  s = nc_op_print_to_string(m, &f, NULL);
  CHECK(strstr(s, "dense<\"0x01020304\"> : tensor<4xi8>"), "hex threshold: %s", s);
  free(s);
  f = (nc_print_flags){.debuginfo = true};
  s = nc_op_print_to_string(m, &f, NULL);
  CHECK(strstr(s, "() -> i32 loc(#loc)\n} loc(#loc1)\n#loc = loc(\"f.c\":1:2)\n#loc1 = loc(\"test.mlir\":1:1)\n"), "aliases: %s",
        s);
  free(s);
  f = (nc_print_flags){.generic = true, .skip_regions = true};
  s = nc_op_print_to_string(m, &f, NULL);
  CHECK_STR(s, "\"builtin.module\"() : () -> ()\n");
  free(s);

  /* to FILE streams */
  char *buf = NULL;
  size_t n = 0;
  FILE *out = open_memstream(&buf, &n);
  nc_op_print(m, out, NULL);
  nc_type_print(nc_parse_type(ctx, "tensor<?xbf16>"), out);
  fputc(' ', out);
  nc_attr_print(nc_parse_attr(ctx, "[1, \"a\"]"), out);
  fclose(out);
  CHECK_STR(buf, "module {\n  %0 = \"foo.x\"() {d = dense<[1, 2, 3, 4]> : tensor<4xi8>} : () -> i32\n}\n"
                 "tensor<?xbf16> [1, \"a\"]");
  free(buf);
  nc_op_destroy(m);

  /* a big module is printed through the buffer in several writes */
  size_t cap = 8 << 20, pos = 0;
  char *text = malloc(cap);
  for (int i = 0; i < 20000; i++)
    pos += (size_t)snprintf(text + pos, cap - pos, "\"foo.op%d\"() {s = \"%0200d\"} : () -> ()\n", i % 7, i);
  (void)pos;
  nc_op *big = nc_parse_string(ctx, text, strlen(text), "big.mlir");
  CHECK(big, "big module parses");
  if (!big)
    return;
  buf = NULL;
  out = open_memstream(&buf, &n);
  nc_op_print(big, out, NULL);
  fclose(out);
  char *str = nc_op_print_to_string(big, NULL, &len);
  CHECK(n == len && !memcmp(buf, str, n) && n > 4000000, "stream and string agree (%zu vs %zu bytes)", n, len);
  free(buf);
  free(str);
  free(text);
  nc_op_destroy(big);
}

int main(void)
{
  nc_context *ctx = ir_context();
  CHECK(nc_context_register_dialect(ctx, &tst_dialect), "registered");
  CHECK(nc_context_register_dialect(ctx, &tst_dialect), "registering twice is a no-op");
  nc_dialect_def other = tst_dialect;
  CHECK(!nc_context_register_dialect(ctx, &other), "another definition for the namespace is refused");
  CHECK(nc_context_lookup_op_def(ctx, "tst.add", 7) == &tst_ops[0] && !nc_context_lookup_op_def(ctx, "tst.nope", 8),
        "op lookup");
  test_formats(ctx);
  test_print_api(ctx);
  nc_context_destroy(ctx);
  return ir_check_status("ir_format_test");
}
