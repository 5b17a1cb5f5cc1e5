/* ops.c: the arith dialect's op table: MLIR 19's `arith` ops with their
 * operand, result and attribute names, traits, verifiers, folds,
 * canonicalization patterns and syntax; plus constant materialization and
 * the check of `#arith.overflow<...>` / `#arith.fastmath<...>` attributes.
 *
 * The semantics are MLIR's: integers are signless bit vectors that each op
 * interprets as signed or unsigned; every op also applies elementwise to
 * vectors and tensors.
 */
#include <stdlib.h>
#include <string.h>

#include "arith-internal.h"

/* --- type constraints ------------------------------------------------------------------------------- */

static nc_type *elt_of_like(const nc_type *t, bool memref_ok)
{
  nc_type_kind k = nc_type_get_kind(t);
  if (k == NC_TYPE_TENSOR || k == NC_TYPE_UNRANKED_TENSOR || k == NC_TYPE_VECTOR ||
      (memref_ok && (k == NC_TYPE_MEMREF || k == NC_TYPE_UNRANKED_MEMREF)))
    return nc_type_get_element_type(t);
  return nc_type_is_shaped(t) ? NULL : (nc_type *)t;
}

static bool p_fixed_int_like(const nc_type *t)
{
  nc_type *e = elt_of_like(t, false);
  return e && nc_type_is_signless_integer(e);
}

static bool p_index_cast(const nc_type *t)
{
  nc_type *e = elt_of_like(t, true);
  return e && (nc_type_is_signless_integer(e) || nc_type_is_index(e));
}

static bool p_bitcast(const nc_type *t)
{
  nc_type *e = elt_of_like(t, true);
  return e && (nc_type_is_signless_integer(e) || nc_type_is_float(e));
}

static const nc_type_constraint tc_fixed_int_like = {"signless-fixed-width-integer-like", p_fixed_int_like};
static const nc_type_constraint tc_index_cast = {"signless-integer-like or memref of signless-integer", p_index_cast};
static const nc_type_constraint tc_bitcast = {"signless-integer-or-float-like or memref of signless-integer or float",
                                              p_bitcast};

/* --- attribute constraints --------------------------------------------------------------------------- */

static const nc_enum_case cmpi_cases[] = {
  {"eq", 0}, {"ne", 1}, {"slt", 2}, {"sle", 3}, {"sgt", 4}, {"sge", 5}, {"ult", 6}, {"ule", 7}, {"ugt", 8}, {"uge", 9},
};
static const nc_enum_case cmpf_cases[] = {
  {"false", 0}, {"oeq", 1}, {"ogt", 2}, {"oge", 3}, {"olt", 4}, {"ole", 5}, {"one", 6}, {"ord", 7},
  {"ueq", 8}, {"ugt", 9}, {"uge", 10}, {"ult", 11}, {"ule", 12}, {"une", 13}, {"uno", 14}, {"true", 15},
};
static const nc_enum_case rounding_cases[] = {
  {"to_nearest_even", 0}, {"downward", 1}, {"upward", 2}, {"toward_zero", 3}, {"to_nearest_away", 4},
};

static bool int_in(const nc_attr *a, unsigned width, int64_t n)
{
  nc_type *t = nc_attr_get_type(a);
  return nc_attr_get_kind(a) == NC_ATTR_INTEGER && nc_type_is_signless_integer(t) && nc_type_get_width(t) == width &&
         nc_attr_get_int(a) >= 0 && nc_attr_get_int(a) < n;
}

static bool a_cmpi(const nc_attr *a) { return int_in(a, 64, 10); }
static bool a_cmpf(const nc_attr *a) { return int_in(a, 64, 16); }
static bool a_rounding(const nc_attr *a) { return int_in(a, 32, 5); }

static bool a_flags(const nc_attr *a, bool fastmath) { return arith_attr_is_flags(a, fastmath); }
static bool a_overflow(const nc_attr *a) { return a_flags(a, false); }
static bool a_fastmath(const nc_attr *a) { return a_flags(a, true); }

static const nc_attr_constraint ac_cmpi = {"allowed 64-bit signless integer cases: 0, 1, 2, 3, 4, 5, 6, 7, 8, 9",
                                           a_cmpi, NC_ATTR_SYNTAX_ENUM, NULL, cmpi_cases, NC_COUNTOF(cmpi_cases)};
static const nc_attr_constraint ac_cmpf = {
  "allowed 64-bit signless integer cases: 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15", a_cmpf,
  NC_ATTR_SYNTAX_ENUM, NULL, cmpf_cases, NC_COUNTOF(cmpf_cases)};
static const nc_attr_constraint ac_rounding = {"Floating point rounding mode", a_rounding, NC_ATTR_SYNTAX_ENUM, NULL,
                                               rounding_cases, NC_COUNTOF(rounding_cases)};
static const nc_attr_constraint ac_overflow = {"Integer overflow arith flags", a_overflow, NC_ATTR_SYNTAX_FULL};
static const nc_attr_constraint ac_fastmath = {"Floating point fast math flags", a_fastmath, NC_ATTR_SYNTAX_FULL};

/* --- well-formedness ---------------------------------------------------------------------------------- */

bool arith_well_formed(const nc_op *op)
{
  const nc_op_def *d = nc_op_get_def(op);
  if (!d || nc_op_get_num_operands(op) != d->n_operands || nc_op_get_num_results(op) != d->n_results)
    return false;
  for (size_t i = 0; i < d->n_operands; i++)
    if (!nc_op_get_operand(op, i))
      return false;
  for (size_t i = 0; i < d->n_attrs; i++) { /* optional flags are read defensively where used */
    if (d->attrs[i].optional)
      continue;
    nc_attr *a = nc_op_get_attr_str(op, d->attrs[i].name);
    if (!a || !d->attrs[i].constraint->pred(a))
      return false;
  }
  return true;
}

/* --- verifiers ------------------------------------------------------------------------------------------ */

static nc_type *in_type(nc_op *op) { return nc_value_get_type(nc_op_get_operand(op, 0)); }
static nc_type *out_type(nc_op *op) { return nc_value_get_type(nc_op_get_result(op, 0)); }

static bool verify_constant(nc_op *op)
{
  nc_attr *v = nc_op_get_attr_str(op, "value");
  nc_type *t = out_type(op);
  if (nc_attr_get_type(v) != t)
    return nc_op_emit_error(op, "failed to verify that all of {value, result} have same type");
  if (nc_type_is_integer(t) && !nc_type_is_signless_integer(t))
    return nc_op_emit_error(op, "integer return type must be signless");
  return true;
}

/* MLIR's verifyCompatibleShapes for one pair of types. */
static bool compatible_shapes(const nc_type *a, const nc_type *b)
{
  if (nc_type_is_shaped(a) != nc_type_is_shaped(b))
    return false;
  if (!nc_type_is_shaped(a) || !nc_type_has_rank(a) || !nc_type_has_rank(b))
    return true;
  if (nc_type_get_rank(a) != nc_type_get_rank(b))
    return false;
  for (size_t i = 0; i < nc_type_get_rank(a); i++) {
    int64_t x = nc_type_get_shape(a)[i], y = nc_type_get_shape(b)[i];
    if (x != y && x != NC_DYNAMIC && y != NC_DYNAMIC)
      return false;
  }
  return true;
}

/* The cast's element types if both sides are "like" types of the same shape and encoding. */
static bool cast_elts(nc_op *op, bool memref_ok, nc_type **src, nc_type **dst)
{
  nc_type *a = in_type(op), *b = out_type(op);
  if (nc_type_get_kind(a) == NC_TYPE_TENSOR && nc_type_get_kind(b) == NC_TYPE_TENSOR &&
      nc_type_get_encoding(a) != nc_type_get_encoding(b))
    return false;
  if (!compatible_shapes(a, b))
    return false;
  *src = elt_of_like(a, memref_ok);
  *dst = elt_of_like(b, memref_ok);
  return *src && *dst;
}

static bool is_int(const nc_type *t) { return nc_type_is_integer(t); }

/* Whether the op's operand and result types are cast compatible (CastOpInterface). */
static bool cast_compatible(nc_op *op)
{
  nc_type *s, *d;
  const nc_op_def *def = nc_op_get_def(op);
  if (def == &nc_arith_ops[ARITH_INDEX_CAST] || def == &nc_arith_ops[ARITH_INDEX_CASTUI])
    return cast_elts(op, true, &s, &d) && ((nc_type_is_index(s) && nc_type_is_signless_integer(d)) ||
                                           (nc_type_is_signless_integer(s) && nc_type_is_index(d)));
  if (def == &nc_arith_ops[ARITH_BITCAST])
    return cast_elts(op, true, &s, &d) && (is_int(s) || nc_type_is_float(s)) && (is_int(d) || nc_type_is_float(d)) &&
           nc_type_get_width(s) == nc_type_get_width(d);
  if (!cast_elts(op, false, &s, &d))
    return false;
  if (def == &nc_arith_ops[ARITH_EXTSI] || def == &nc_arith_ops[ARITH_EXTUI])
    return is_int(s) && is_int(d) && nc_type_get_width(d) > nc_type_get_width(s);
  if (def == &nc_arith_ops[ARITH_TRUNCI])
    return is_int(s) && is_int(d) && nc_type_get_width(d) < nc_type_get_width(s);
  if (def == &nc_arith_ops[ARITH_EXTF])
    return nc_type_is_float(s) && nc_type_is_float(d) && nc_type_get_width(d) > nc_type_get_width(s);
  if (def == &nc_arith_ops[ARITH_TRUNCF])
    return nc_type_is_float(s) && nc_type_is_float(d) && nc_type_get_width(d) < nc_type_get_width(s);
  if (def == &nc_arith_ops[ARITH_SITOFP] || def == &nc_arith_ops[ARITH_UITOFP])
    return is_int(s) && nc_type_is_float(d);
  return nc_type_is_float(s) && is_int(d); /* fptosi, fptoui */
}

/* Tensor shapes as MLIR's SameInputOutputTensorDims compares them (non-tensors: no dims). */
static bool same_tensor_dims(const nc_type *a, const nc_type *b)
{
  bool ta = nc_type_get_kind(a) == NC_TYPE_TENSOR, tb = nc_type_get_kind(b) == NC_TYPE_TENSOR;
  if (nc_type_get_kind(a) == NC_TYPE_UNRANKED_TENSOR || nc_type_get_kind(b) == NC_TYPE_UNRANKED_TENSOR)
    return true;
  size_t ra = ta ? nc_type_get_rank(a) : 0, rb = tb ? nc_type_get_rank(b) : 0;
  return ra == rb && (!ra || !memcmp(nc_type_get_shape(a), nc_type_get_shape(b), ra * sizeof(int64_t)));
}

static bool verify_cast(nc_op *op)
{
  nc_type *a = in_type(op), *b = out_type(op);
  if (!same_tensor_dims(a, b))
    return nc_op_emit_error(op, "failed to verify that input and output have the same tensor dimensions");
  if (!cast_compatible(op)) {
    char *sa = nc_type_to_string(a), *sb = nc_type_to_string(b);
    nc_op_emit_error(op, "operand type '%s' and result type '%s' are cast incompatible", sa, sb);
    free(sa);
    free(sb);
    return false;
  }
  return true;
}

static bool verify_compare(nc_op *op)
{
  if (out_type(op) != arith_i1_same_shape(nc_op_get_context(op), in_type(op)))
    return nc_op_emit_error(op, "failed to verify that result type has i1 element type and same shape as operands");
  return true;
}

static bool verify_select(nc_op *op)
{
  nc_type *c = in_type(op), *t = nc_value_get_type(nc_op_get_operand(op, 1));
  if (t != nc_value_get_type(nc_op_get_operand(op, 2)) || t != out_type(op))
    return nc_op_emit_error(op, "failed to verify that all of {true_value, false_value, result} have same type");
  bool ok = nc_type_is_signless_integer(c) && nc_type_is_integer_of_width(c, 1);
  if (!ok && nc_type_is_shaped(c) && nc_type_is_shaped(t) && nc_type_has_rank(c) && nc_type_has_rank(t))
    ok = nc_type_get_rank(c) == nc_type_get_rank(t) &&
         !memcmp(nc_type_get_shape(c), nc_type_get_shape(t), nc_type_get_rank(c) * sizeof(int64_t));
  else if (!ok && nc_type_is_shaped(c) && nc_type_is_shaped(t))
    ok = !nc_type_has_rank(c) && !nc_type_has_rank(t);
  if (!ok)
    return nc_op_emit_error(op, "failed to verify that condition is signless i1 or has matching shape");
  return true;
}

/* --- constants ---------------------------------------------------------------------------------------------- */

/* MLIR's ConstantOp::isBuildableWith: typed by `type`, signless, int/float/elements. */
static nc_op *materialize_constant(nc_context *ctx, nc_attr *value, nc_type *type, nc_location loc)
{
  nc_attr_kind k = nc_attr_get_kind(value);
  if (nc_attr_get_type(value) != type ||
      (k != NC_ATTR_INTEGER && k != NC_ATTR_FLOAT && k != NC_ATTR_DENSE_ELEMENTS && k != NC_ATTR_DENSE_RESOURCE))
    return NULL;
  nc_type *elt = nc_type_get_element_type(type);
  if (nc_type_is_integer(elt) && !nc_type_is_signless_integer(elt))
    return NULL;
  return nc_op_create(&(nc_op_state){.ctx = ctx, .name = "arith.constant", .loc = loc, .n_results = 1,
                                     .result_types = &type, .n_attrs = 1,
                                     .attrs = &(nc_named_attr){nc_ident_get_cstr(ctx, "value"), value}});
}

static bool constant_infer(nc_context *ctx, nc_location loc, size_t n_operands, nc_type *const *operand_types,
                           nc_attr *props, size_t n_results, nc_type **types)
{
  (void)loc, (void)n_operands, (void)operand_types, (void)n_results;
  /* an untyped value gives `none`, as in MLIR; the verifier then rejects the value */
  nc_attr *v = nc_attr_dict_get_str(props, "value");
  types[0] = v && nc_attr_get_type(v) ? nc_attr_get_type(v) : nc_type_none(ctx);
  return true;
}

static bool compare_infer(nc_context *ctx, nc_location loc, size_t n_operands, nc_type *const *operand_types,
                          nc_attr *props, size_t n_results, nc_type **types)
{
  (void)loc, (void)props, (void)n_results;
  if (!n_operands)
    return false;
  types[0] = arith_i1_same_shape(ctx, operand_types[0]);
  return true;
}

/* `#arith.overflow<...>` and `#arith.fastmath<...>` are the dialect's
 * attributes (arith_attr_defs); any other mnemonic is kept as text and
 * rejected here. */
static bool verify_attr(nc_context *ctx, nc_location loc, nc_attr *a)
{
  size_t len;
  const char *s = nc_attr_opaque_get_body(a, &len);
  nc_emit_error(ctx, loc, "unknown attribute '#arith.%.*s'; arith has #arith.overflow<...> and #arith.fastmath<...>",
                (int)len, s);
  return false;
}

/* --- tables -------------------------------------------------------------------------------------------------- */

#define ONE NC_ARITY_ONE
static const nc_value_def int_operands[] = {
  {"lhs", &nc_tc_signless_integer_like, ONE, NULL}, {"rhs", &nc_tc_signless_integer_like, ONE, NULL}};
static const nc_value_def int_result[] = {{"result", &nc_tc_signless_integer_like, ONE, NULL}};
static const nc_value_def float_operands[] = {{"lhs", &nc_tc_float_like, ONE, NULL}, {"rhs", &nc_tc_float_like, ONE, NULL}};
static const nc_value_def float_result[] = {{"result", &nc_tc_float_like, ONE, NULL}};
static const nc_value_def negf_operands[] = {{"operand", &nc_tc_float_like, ONE, NULL}};
static const nc_value_def bool_result[] = {{"result", &nc_tc_bool_like, ONE, "i1, or i1 elements of the operands' shape"}};
static const nc_value_def select_operands[] = {
  {"condition", &nc_tc_bool_like, ONE, "i1, or i1 elements of the result's shape (a mask)"},
  {"true_value", NULL, ONE, NULL},
  {"false_value", NULL, ONE, NULL},
};
static const nc_value_def any_result[] = {{"result", NULL, ONE, NULL}};

#define CAST_VALUES(id, from, to)                                       \
  static const nc_value_def id##_in[] = {{"in", from, ONE, NULL}};      \
  static const nc_value_def id##_out[] = {{"out", to, ONE, NULL}};
CAST_VALUES(index_cast, &tc_index_cast, &tc_index_cast)
CAST_VALUES(int_int, &tc_fixed_int_like, &tc_fixed_int_like)
CAST_VALUES(int_float, &tc_fixed_int_like, &nc_tc_float_like)
CAST_VALUES(float_int, &nc_tc_float_like, &tc_fixed_int_like)
CAST_VALUES(float_float, &nc_tc_float_like, &nc_tc_float_like)
CAST_VALUES(bitcast, &tc_bitcast, &tc_bitcast)
#undef CAST_VALUES

static const nc_attr_def constant_attrs[] = {{"value", &nc_ac_typed, false, NULL, "the constant, typed as the result"}};
static const nc_attr_def overflow_attrs[] = {
  {"overflowFlags", &ac_overflow, true, "#arith.overflow<none>", "nsw / nuw: overflow makes the result poison"}};
static const nc_attr_def fastmath_attrs[] = {
  {"fastmath", &ac_fastmath, true, "#arith.fastmath<none>", "fast-math flags"}};
static const nc_attr_def cmpi_attrs[] = {{"predicate", &ac_cmpi, false, NULL, "eq, ne, slt, sle, sgt, sge, ult, ule, "
                                                                              "ugt or uge"}};
static const nc_attr_def cmpf_attrs[] = {
  {"predicate", &ac_cmpf, false, NULL, "false, oeq, ogt, oge, olt, ole, one, ord, ueq, ugt, uge, ult, ule, une, uno or "
                                       "true (o: ordered, u: unordered)"},
  {"fastmath", &ac_fastmath, true, "#arith.fastmath<none>", "fast-math flags"},
};
static const nc_attr_def extf_attrs[] = {{"fastmath", &ac_fastmath, true, NULL, "fast-math flags"}};
static const nc_attr_def truncf_attrs[] = {
  {"roundingmode", &ac_rounding, true, NULL, "to_nearest_even (default), downward, upward, toward_zero or "
                                             "to_nearest_away"},
  {"fastmath", &ac_fastmath, true, NULL, "fast-math flags"},
};

#define P(fn, name, benefit) {name, benefit, arith_pat_##fn}
static const nc_pattern addi_patterns[] = {
  P(addi_add_constant, "AddIAddConstant", 2), P(addi_sub_constant_rhs, "AddISubConstantRHS", 2),
  P(addi_sub_constant_lhs, "AddISubConstantLHS", 2), P(addi_mul_negative_one_rhs, "AddIMulNegativeOneRhs", 2),
  P(addi_mul_negative_one_lhs, "AddIMulNegativeOneLhs", 2)};
static const nc_pattern subi_patterns[] = {
  P(subi_rhs_add_constant, "SubIRHSAddConstant", 2), P(subi_lhs_add_constant, "SubILHSAddConstant", 2),
  P(subi_rhs_sub_constant_rhs, "SubIRHSSubConstantRHS", 2), P(subi_rhs_sub_constant_lhs, "SubIRHSSubConstantLHS", 2),
  P(subi_lhs_sub_constant_rhs, "SubILHSSubConstantRHS", 2), P(subi_lhs_sub_constant_lhs, "SubILHSSubConstantLHS", 2),
  P(subi_sub_lhs_rhs_lhs, "SubISubILHSRHSLHS", 2)};
static const nc_pattern muli_patterns[] = {P(muli_muli_constant, "MulIMulIConstant", 2)};
static const nc_pattern xori_patterns[] = {
  P(xori_not_cmpi, "XOrINotCmpI", 2), P(xori_of_extui, "XOrIOfExtUI", 3), P(xori_of_extsi, "XOrIOfExtSI", 3)};
static const nc_pattern andi_patterns[] = {P(andi_of_extui, "AndOfExtUI", 3), P(andi_of_extsi, "AndOfExtSI", 3)};
static const nc_pattern ori_patterns[] = {P(ori_of_extui, "OrOfExtUI", 3), P(ori_of_extsi, "OrOfExtSI", 3)};
static const nc_pattern cmpi_patterns[] = {P(cmpi_extsi, "CmpIExtSI", 3), P(cmpi_extui, "CmpIExtUI", 3)};
static const nc_pattern select_patterns[] = {
  P(redundant_select_false, "RedundantSelectFalse", 2), P(redundant_select_true, "RedundantSelectTrue", 2),
  P(select_not_cond, "SelectNotCond", 2), P(select_i1_to_not, "SelectI1ToNot", 1),
  P(select_to_extui, "SelectToExtUI", 1)};
static const nc_pattern index_cast_patterns[] = {
  P(index_cast_of_index_cast, "IndexCastOfIndexCast", 2), P(index_cast_of_extsi, "IndexCastOfExtSI", 2)};
static const nc_pattern index_castui_patterns[] = {
  P(index_castui_of_index_castui, "IndexCastUIOfIndexCastUI", 2), P(index_castui_of_extui, "IndexCastUIOfExtUI", 2)};
static const nc_pattern bitcast_patterns[] = {P(bitcast_of_bitcast, "BitcastOfBitcast", 2)};
static const nc_pattern extsi_patterns[] = {P(extsi_of_extui, "ExtSIOfExtUI", 2)};
static const nc_pattern trunci_patterns[] = {
  P(trunci_extsi_to_extsi, "TruncIExtSIToExtSI", 2), P(trunci_extui_to_extui, "TruncIExtUIToExtUI", 2),
  P(trunci_shrsi_to_trunci_shrui, "TruncIShrSIToTrunciShrUI", 2)};
static const nc_pattern mulf_patterns[] = {P(mulf_of_negf, "MulFOfNegF", 3)};
static const nc_pattern divf_patterns[] = {P(divf_of_negf, "DivFOfNegF", 3)};
static const nc_pattern cmpf_patterns[] = {P(cmpf_int_to_fp_const, "CmpFIntToFPConst", 1)};
#undef P

#define ELEM (NC_TRAIT_PURE | NC_TRAIT_ELEMENTWISE)
#define BINARY (ELEM | NC_TRAIT_SAME_OPERANDS_AND_RESULT_TYPE)
#define CAST (ELEM | NC_TRAIT_SAME_OPERANDS_AND_RESULT_SHAPE)
#define PATTERNS(p) .canonicalize = p, .n_canonicalize = NC_COUNTOF(p)
#define INT_FORMAT "$lhs `,` $rhs attr-dict `:` type($result)"
#define CAST_FORMAT "$in attr-dict `:` type($in) `to` type($out)"

#define INT_BINOP(ID, mn, sum, desc, tr, fold_fn, ...)                                            \
  [ID] = {.name = "arith." mn, .summary = sum, .description = desc, .operands = int_operands, .n_operands = 2, \
          .results = int_result, .n_results = 1, .traits = BINARY | (tr), .fold = arith_fold_##fold_fn,    \
          .assembly_format = INT_FORMAT, __VA_ARGS__}
#define OVF_BINOP(ID, mn, sum, desc, tr, fold_fn, ...)                                            \
  [ID] = {.name = "arith." mn, .summary = sum, .description = desc, .operands = int_operands, .n_operands = 2, \
          .results = int_result, .n_results = 1, .attrs = overflow_attrs, .n_attrs = 1,                        \
          .traits = BINARY | (tr), .fold = arith_fold_##fold_fn, .parse = arith_parse_flagged,             \
          .print = arith_print_flagged, __VA_ARGS__}
#define FLOAT_BINOP(ID, mn, sum, desc, tr, fold_fn, ...)                                          \
  [ID] = {.name = "arith." mn, .summary = sum, .description = desc, .operands = float_operands, .n_operands = 2, \
          .results = float_result, .n_results = 1, .attrs = fastmath_attrs, .n_attrs = 1,                      \
          .traits = BINARY | (tr), .fold = arith_fold_##fold_fn, .parse = arith_parse_flagged,             \
          .print = arith_print_flagged, __VA_ARGS__}
#define CAST_OP(ID, mn, sum, desc, values, fold_fn, ...)                                                   \
  [ID] = {.name = "arith." mn, .summary = sum, .description = desc, .operands = values##_in, .n_operands = 1, \
          .results = values##_out, .n_results = 1, .traits = CAST, .verify = verify_cast,                       \
          .fold = arith_fold_##fold_fn, .assembly_format = CAST_FORMAT, __VA_ARGS__}
/* extf / truncf: float to float, with flags (fastmath; truncf: a rounding mode) in their own syntax. */
#define FLOAT_CAST_OP(ID, mn, sum, desc, fold_fn)                                                                \
  [ID] = {.name = "arith." mn, .summary = sum, .description = desc, .operands = float_float_in, .n_operands = 1, \
          .results = float_float_out, .n_results = 1, .attrs = fold_fn##_attrs,                                 \
          .n_attrs = NC_COUNTOF(fold_fn##_attrs), .traits = CAST, .verify = verify_cast,                        \
          .fold = arith_fold_##fold_fn, .parse = arith_parse_flagged, .print = arith_print_flagged}

#define DIV_NOTE " Division by zero is undefined behaviour; it is never folded."
#define SDIV_NOTE " Division by zero and `MIN / -1` are undefined behaviour; they are never folded."

const nc_op_def nc_arith_ops[ARITH_NUM_OPS] = {
  [ARITH_CONSTANT] = {
    .name = "arith.constant",
    .summary = "integer or floating point constant",
    .description = "Produces the value of its `value` attribute, an integer, float or dense elements attribute whose "
                   "type is the result type: `%c = arith.constant 42 : i32`, `%t = arith.constant dense<[1, 2]> : "
                   "tensor<2xi32>`. The canonicalizer deduplicates constants and hoists them to the start of the "
                   "enclosing isolated region; folds of other dialects' ops materialize their results as "
                   "`arith.constant`s.",
    .results = any_result, .n_results = 1,
    .attrs = constant_attrs, .n_attrs = 1,
    .traits = NC_TRAIT_PURE | NC_TRAIT_CONSTANT_LIKE,
    .verify = verify_constant,
    .fold = arith_fold_constant,
    .infer_types = constant_infer,
    .assembly_format = "attr-dict $value",
  },
  OVF_BINOP(ARITH_ADDI, "addi", "integer addition operation",
            "`%r = arith.addi %a, %b : i64`: the sum modulo 2^n (n is the bit width; index is 64 bits). Optional "
            "overflow flags: `arith.addi %a, %b overflow<nsw, nuw> : i64`. Folds `x + 0`, `(a - b) + b`, constants; "
            "reassociates constants.",
            NC_TRAIT_COMMUTATIVE, addi, PATTERNS(addi_patterns)),
  OVF_BINOP(ARITH_SUBI, "subi", "Integer subtraction operation",
            "`%r = arith.subi %a, %b : i64`: the difference modulo 2^n. Folds `x - 0`, `x - x`, `(a + b) - b`, "
            "constants; reassociates constants.",
            0, subi, PATTERNS(subi_patterns)),
  OVF_BINOP(ARITH_MULI, "muli", "Integer multiplication operation",
            "`%r = arith.muli %a, %b : i64`: the product modulo 2^n. Folds `x * 0`, `x * 1`, constants.",
            NC_TRAIT_COMMUTATIVE, muli, PATTERNS(muli_patterns)),
  INT_BINOP(ARITH_DIVSI, "divsi", "signed integer division operation",
            "`%r = arith.divsi %a, %b : i64`: signed division rounding towards zero." SDIV_NOTE, 0, divsi),
  INT_BINOP(ARITH_DIVUI, "divui", "unsigned integer division operation",
            "`%r = arith.divui %a, %b : i64`: unsigned division rounding towards zero." DIV_NOTE, 0, divui),
  INT_BINOP(ARITH_CEILDIVSI, "ceildivsi", "signed ceil integer division operation",
            "`%r = arith.ceildivsi %a, %b : i64`: signed division rounding towards positive infinity." SDIV_NOTE, 0,
            ceildivsi),
  INT_BINOP(ARITH_CEILDIVUI, "ceildivui", "unsigned ceil integer division operation",
            "`%r = arith.ceildivui %a, %b : i64`: unsigned division rounding towards positive infinity." DIV_NOTE, 0,
            ceildivui),
  INT_BINOP(ARITH_FLOORDIVSI, "floordivsi", "signed floor integer division operation",
            "`%r = arith.floordivsi %a, %b : i64`: signed division rounding towards negative infinity." SDIV_NOTE, 0,
            floordivsi),
  INT_BINOP(ARITH_REMSI, "remsi", "signed integer division remainder operation",
            "`%r = arith.remsi %a, %b : i64`: the remainder of `divsi`, with the sign of `%a`." DIV_NOTE, 0, remsi),
  INT_BINOP(ARITH_REMUI, "remui", "unsigned integer division remainder operation",
            "`%r = arith.remui %a, %b : i64`: the remainder of `divui`." DIV_NOTE, 0, remui),
  INT_BINOP(ARITH_ANDI, "andi", "integer binary and",
            "`%r = arith.andi %a, %b : i64`: bitwise and. Folds `x & 0`, `x & -1`, `x & x`, `x & ~x`, constants.",
            NC_TRAIT_COMMUTATIVE | NC_TRAIT_IDEMPOTENT, andi, PATTERNS(andi_patterns)),
  INT_BINOP(ARITH_ORI, "ori", "integer binary or",
            "`%r = arith.ori %a, %b : i64`: bitwise or. Folds `x | 0`, `x | -1`, `x | x`, `x | ~x`, constants.",
            NC_TRAIT_COMMUTATIVE | NC_TRAIT_IDEMPOTENT, ori, PATTERNS(ori_patterns)),
  INT_BINOP(ARITH_XORI, "xori", "integer binary xor",
            "`%r = arith.xori %a, %b : i64`: bitwise exclusive or. Folds `x ^ 0`, `x ^ x`, `(x ^ a) ^ a`, "
            "constants.",
            NC_TRAIT_COMMUTATIVE, xori, PATTERNS(xori_patterns)),
  OVF_BINOP(ARITH_SHLI, "shli", "integer left-shift",
            "`%r = arith.shli %a, %b : i64`: shifts left by the unsigned amount `%b`; an amount of the bit width or "
            "more gives poison and is never folded.",
            0, shli),
  INT_BINOP(ARITH_SHRSI, "shrsi", "signed integer right-shift",
            "`%r = arith.shrsi %a, %b : i64`: arithmetic shift right (the sign bit fills); an amount of the bit "
            "width or more gives poison and is never folded.",
            0, shrsi),
  INT_BINOP(ARITH_SHRUI, "shrui", "unsigned integer right-shift",
            "`%r = arith.shrui %a, %b : i64`: logical shift right (zeros fill); an amount of the bit width or more "
            "gives poison and is never folded.",
            0, shrui),
  INT_BINOP(ARITH_MAXSI, "maxsi", "signed integer maximum operation", "`%r = arith.maxsi %a, %b : i64`.",
            NC_TRAIT_COMMUTATIVE, maxsi),
  INT_BINOP(ARITH_MINSI, "minsi", "signed integer minimum operation", "`%r = arith.minsi %a, %b : i64`.",
            NC_TRAIT_COMMUTATIVE, minsi),
  INT_BINOP(ARITH_MAXUI, "maxui", "unsigned integer maximum operation", "`%r = arith.maxui %a, %b : i64`.",
            NC_TRAIT_COMMUTATIVE, maxui),
  INT_BINOP(ARITH_MINUI, "minui", "unsigned integer minimum operation", "`%r = arith.minui %a, %b : i64`.",
            NC_TRAIT_COMMUTATIVE, minui),
  [ARITH_CMPI] = {
    .name = "arith.cmpi",
    .summary = "integer comparison operation",
    .description = "`%r = arith.cmpi slt, %a, %b : i32` compares two integers (or elementwise, giving an i1 of the "
                   "same shape). Predicates (stored as i64): eq=0, ne=1, slt=2, sle=3, sgt=4, sge=5, ult=6, ule=7, "
                   "ugt=8, uge=9. The folder moves a constant to the right (swapping the predicate).",
    .operands = int_operands, .n_operands = 2,
    .results = bool_result, .n_results = 1,
    .attrs = cmpi_attrs, .n_attrs = 1,
    .traits = ELEM | NC_TRAIT_SAME_TYPE_OPERANDS,
    .verify = verify_compare,
    .fold = arith_fold_cmpi,
    PATTERNS(cmpi_patterns),
    .infer_types = compare_infer,
    .assembly_format = "$predicate `,` $lhs `,` $rhs attr-dict `:` type($lhs)",
  },
  [ARITH_SELECT] = {
    .name = "arith.select",
    .summary = "select operation",
    .description = "`%r = arith.select %cond, %a, %b : i32` is `%a` if `%cond` is true, else `%b`. With a shaped "
                   "i1 condition it selects elementwise and the condition type is written first: "
                   "`arith.select %mask, %a, %b : tensor<4xi1>, tensor<4xf32>`.",
    .operands = select_operands, .n_operands = 3,
    .results = any_result, .n_results = 1,
    .traits = ELEM,
    .verify = verify_select,
    .fold = arith_fold_select,
    PATTERNS(select_patterns),
    .parse = arith_parse_select,
    .print = arith_print_select,
  },
  CAST_OP(ARITH_INDEX_CAST, "index_cast", "index cast operation",
          "`%r = arith.index_cast %x : i32 to index` converts between index and a signless integer (exactly one "
          "side is index), sign-extending or truncating.",
          index_cast, index_cast, PATTERNS(index_cast_patterns)),
  CAST_OP(ARITH_INDEX_CASTUI, "index_castui", "unsigned index cast operation",
          "`%r = arith.index_castui %x : i32 to index`: like `index_cast`, zero-extending.", index_cast,
          index_castui, PATTERNS(index_castui_patterns)),
  CAST_OP(ARITH_EXTSI, "extsi", "integer sign extension operation",
          "`%r = arith.extsi %x : i8 to i32`: the result type must be wider.", int_int, extsi,
          PATTERNS(extsi_patterns)),
  CAST_OP(ARITH_EXTUI, "extui", "integer zero extension operation",
          "`%r = arith.extui %x : i8 to i32`: the result type must be wider.", int_int, extui),
  CAST_OP(ARITH_TRUNCI, "trunci", "integer truncation operation",
          "`%r = arith.trunci %x : i32 to i8` keeps the low bits: the result type must be narrower.", int_int, trunci,
          PATTERNS(trunci_patterns)),
  CAST_OP(ARITH_SITOFP, "sitofp", "cast from integer type to floating-point",
          "`%r = arith.sitofp %x : i32 to f32`: the signed integer's value, rounded to nearest even.", int_float,
          sitofp),
  CAST_OP(ARITH_UITOFP, "uitofp", "cast from unsigned integer type to floating-point",
          "`%r = arith.uitofp %x : i32 to f32`: the unsigned integer's value, rounded to nearest even.", int_float,
          uitofp),
  CAST_OP(ARITH_FPTOSI, "fptosi", "cast from floating-point type to integer type",
          "`%r = arith.fptosi %x : f32 to i32` rounds towards zero; NaN and out-of-range values are never folded.",
          float_int, fptosi),
  CAST_OP(ARITH_FPTOUI, "fptoui", "cast from floating-point type to integer type",
          "`%r = arith.fptoui %x : f32 to i32` rounds towards zero; NaN and out-of-range values are never folded.",
          float_int, fptoui),
  CAST_OP(ARITH_BITCAST, "bitcast", "bitcast between values of equal bit width",
          "`%r = arith.bitcast %x : f32 to i32` reinterprets the bits (the widths must be equal).", bitcast, bitcast,
          PATTERNS(bitcast_patterns)),
  FLOAT_CAST_OP(ARITH_EXTF, "extf", "cast from floating-point to wider floating-point",
                "`%r = arith.extf %x : f16 to f32`; constants fold when the conversion is exact.", extf),
  FLOAT_CAST_OP(ARITH_TRUNCF, "truncf", "cast from floating-point to narrower floating-point",
                "`%r = arith.truncf %x : f32 to f16`, with an optional rounding mode: `arith.truncf %x toward_zero : "
                "f32 to f16`; constants fold only when the conversion is exact.",
                truncf),
  FLOAT_BINOP(ARITH_ADDF, "addf", "floating point addition operation",
              "`%r = arith.addf %a, %b : f32`, with optional fast-math flags: `arith.addf %a, %b fastmath<fast> : "
              "f32`. Folds `x + -0.0` and constants (IEEE, in the type's precision).",
              NC_TRAIT_COMMUTATIVE, addf),
  FLOAT_BINOP(ARITH_SUBF, "subf", "floating point subtraction operation",
              "`%r = arith.subf %a, %b : f32`. Folds `x - +0.0` and constants.", 0, subf),
  FLOAT_BINOP(ARITH_MULF, "mulf", "floating point multiplication operation",
              "`%r = arith.mulf %a, %b : f32`. Folds `x * 1.0`, constants, and `(-a) * (-b)` to `a * b`.",
              NC_TRAIT_COMMUTATIVE, mulf, PATTERNS(mulf_patterns)),
  FLOAT_BINOP(ARITH_DIVF, "divf", "floating point division operation",
              "`%r = arith.divf %a, %b : f32`. Folds `x / 1.0`, constants, and `(-a) / (-b)` to `a / b`.", 0, divf,
              PATTERNS(divf_patterns)),
  FLOAT_BINOP(ARITH_REMF, "remf", "floating point division remainder operation",
              "`%r = arith.remf %a, %b : f32`: the remainder with the sign of `%a` (C's fmod).", 0, remf),
  [ARITH_NEGF] = {
    .name = "arith.negf",
    .summary = "floating point negation",
    .description = "`%r = arith.negf %x : f32` flips the sign bit. Folds `-(-x)` and constants.",
    .operands = negf_operands, .n_operands = 1,
    .results = float_result, .n_results = 1,
    .attrs = fastmath_attrs, .n_attrs = 1,
    .traits = BINARY,
    .fold = arith_fold_negf,
    .parse = arith_parse_flagged,
    .print = arith_print_flagged,
  },
  FLOAT_BINOP(ARITH_MAXIMUMF, "maximumf", "floating-point maximum operation",
              "`%r = arith.maximumf %a, %b : f32`: IEEE maximum (a NaN operand gives NaN; -0.0 < +0.0).",
              NC_TRAIT_COMMUTATIVE, maximumf),
  FLOAT_BINOP(ARITH_MINIMUMF, "minimumf", "floating-point minimum operation",
              "`%r = arith.minimumf %a, %b : f32`: IEEE minimum (a NaN operand gives NaN; -0.0 < +0.0).",
              NC_TRAIT_COMMUTATIVE, minimumf),
  FLOAT_BINOP(ARITH_MAXNUMF, "maxnumf", "floating-point maximum operation",
              "`%r = arith.maxnumf %a, %b : f32`: IEEE maxNum (a NaN operand gives the other operand).",
              NC_TRAIT_COMMUTATIVE, maxnumf),
  FLOAT_BINOP(ARITH_MINNUMF, "minnumf", "floating-point minimum operation",
              "`%r = arith.minnumf %a, %b : f32`: IEEE minNum (a NaN operand gives the other operand).",
              NC_TRAIT_COMMUTATIVE, minnumf),
  [ARITH_CMPF] = {
    .name = "arith.cmpf",
    .summary = "floating-point comparison operation",
    .description = "`%r = arith.cmpf olt, %a, %b : f32` compares two floats (or elementwise). Predicates (stored as "
                   "i64): false=0, oeq=1, ogt=2, oge=3, olt=4, ole=5, one=6, ord=7, ueq=8, ugt=9, uge=10, ult=11, "
                   "ule=12, une=13, uno=14, true=15; `o` predicates are false and `u` predicates true when an "
                   "operand is NaN.",
    .operands = float_operands, .n_operands = 2,
    .results = bool_result, .n_results = 1,
    .attrs = cmpf_attrs, .n_attrs = NC_COUNTOF(cmpf_attrs),
    .traits = ELEM | NC_TRAIT_SAME_TYPE_OPERANDS,
    .verify = verify_compare,
    .fold = arith_fold_cmpf,
    PATTERNS(cmpf_patterns),
    .infer_types = compare_infer,
    .parse = arith_parse_flagged,
    .print = arith_print_flagged,
  },
};

const nc_dialect_def nc_arith_dialect = {
  .name = "arith",
  .summary = "Basic integer and floating point arithmetic (MLIR's `arith`)",
  .description =
    "MLIR 19's `arith` dialect: op names, operands, attributes, syntax and folding behave as in MLIR, so the same "
    "file gives the same result through `nc-opt` and `mlir-opt`. Integers are signless bit vectors of their type's "
    "width (`index` is 64 bits) that each op reads as signed or unsigned; every op also works elementwise on vectors "
    "and tensors. Integer ops `addi`, `subi`, `muli`, `shli` carry optional overflow flags "
    "(`#arith.overflow<nsw, nuw>`, printed `overflow<nsw>`); float ops carry fast-math flags "
    "(`#arith.fastmath<nnan,ninf>`, printed `fastmath<fast>`). The canonicalizer folds constants (scalars, splats "
    "and dense elements) with two's complement wrap-around and IEEE rounding in the type's precision, and applies "
    "MLIR's identities and reassociation patterns.",
  .ops = nc_arith_ops,
  .n_ops = ARITH_NUM_OPS,
  .materialize_constant = materialize_constant,
  .verify_attr = verify_attr,
  .attrs = arith_attr_defs, .n_attrs = ARITH_NUM_ATTRS,
};

/* --- builders for other dialects and passes ---------------------------------------------------------------- */

nc_value *nc_arith_create_constant(nc_rewriter *rw, nc_attr *value, nc_location loc)
{
  return nc_rewriter_materialize_constant(rw, &nc_arith_dialect, value, nc_attr_get_type(value), loc);
}

nc_value *nc_arith_create_constant_int(nc_rewriter *rw, nc_type *type, int64_t value, nc_location loc)
{
  return nc_arith_create_constant(rw, nc_attr_integer(nc_rewriter_get_context(rw), type, value), loc);
}

static nc_value *create_one(nc_rewriter *rw, const char *name, size_t n, nc_value *const *operands, nc_type *type,
                            size_t n_attrs, const nc_named_attr *attrs, nc_location loc)
{
  nc_op *op = nc_rewriter_create(rw, &(nc_op_state){.ctx = nc_rewriter_get_context(rw), .name = name, .loc = loc,
                                                    .n_operands = n, .operands = operands, .n_results = 1,
                                                    .result_types = &type, .n_attrs = n_attrs, .attrs = attrs});
  return op ? nc_op_get_result(op, 0) : NULL;
}

nc_value *nc_arith_create_binary(nc_rewriter *rw, const char *name, nc_value *lhs, nc_value *rhs, nc_location loc)
{
  return create_one(rw, name, 2, (nc_value *[]){lhs, rhs}, nc_value_get_type(lhs), 0, NULL, loc);
}

nc_value *nc_arith_create_cmpi(nc_rewriter *rw, nc_arith_cmpi_predicate pred, nc_value *lhs, nc_value *rhs,
                               nc_location loc)
{
  nc_context *ctx = nc_rewriter_get_context(rw);
  nc_named_attr p = {nc_ident_get_cstr(ctx, "predicate"),
                     nc_attr_integer(ctx, nc_type_integer(ctx, 64, NC_SIGNLESS), (int64_t)pred)};
  return create_one(rw, "arith.cmpi", 2, (nc_value *[]){lhs, rhs}, arith_i1_same_shape(ctx, nc_value_get_type(lhs)),
                    1, &p, loc);
}

nc_value *nc_arith_create_cast(nc_rewriter *rw, const char *name, nc_value *in, nc_type *type, nc_location loc)
{
  return create_one(rw, name, 1, &in, type, 0, NULL, loc);
}
