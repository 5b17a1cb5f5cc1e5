/* arith-internal.h: what the files of the arith dialect share: op ids (the
 * index of each op in the op table, so that "is this an arith.addi" is one
 * pointer comparison), constant matchers, the fold hooks (fold.c), the
 * canonicalization patterns (patterns.c) and the custom syntax (syntax.c).
 */
#ifndef NC_DIALECTS_ARITH_INTERNAL_H
#define NC_DIALECTS_ARITH_INTERNAL_H

#include "nc/dialects/arith.h"
#include "nc/ir/asm.h"
#include "nc/ir/diag.h"
#include "nc/ir/dialect_attrs.h"

/** Index of every op in nc_arith_ops (ops.c). */
enum arith_op_id {
  ARITH_CONSTANT,
  ARITH_ADDI, ARITH_SUBI, ARITH_MULI,
  ARITH_DIVSI, ARITH_DIVUI, ARITH_CEILDIVSI, ARITH_CEILDIVUI, ARITH_FLOORDIVSI, ARITH_REMSI, ARITH_REMUI,
  ARITH_ANDI, ARITH_ORI, ARITH_XORI,
  ARITH_SHLI, ARITH_SHRSI, ARITH_SHRUI,
  ARITH_MAXSI, ARITH_MINSI, ARITH_MAXUI, ARITH_MINUI,
  ARITH_CMPI, ARITH_SELECT,
  ARITH_INDEX_CAST, ARITH_INDEX_CASTUI, ARITH_EXTSI, ARITH_EXTUI, ARITH_TRUNCI,
  ARITH_SITOFP, ARITH_UITOFP, ARITH_FPTOSI, ARITH_FPTOUI, ARITH_BITCAST, ARITH_EXTF, ARITH_TRUNCF,
  ARITH_ADDF, ARITH_SUBF, ARITH_MULF, ARITH_DIVF, ARITH_REMF, ARITH_NEGF,
  ARITH_MAXIMUMF, ARITH_MINIMUMF, ARITH_MAXNUMF, ARITH_MINNUMF, ARITH_CMPF,
  ARITH_NUM_OPS
};

extern const nc_op_def nc_arith_ops[ARITH_NUM_OPS];

/** True if `op` is the arith op `id`. */
static inline bool arith_is(const nc_op *op, enum arith_op_id id) { return op && nc_op_get_def(op) == &nc_arith_ops[id]; }

/** True if a registered arith op has the operands, result and required
 * attributes of its definition: folds and patterns touch only such ops, so
 * unverified IR (nc-opt --no-verify) cannot crash them. */
bool arith_well_formed(NC_KEEP const nc_op *op);

/** The op defining `v` if it is a well-formed arith op `id`, else NULL. */
static inline nc_op *arith_def(const nc_value *v, enum arith_op_id id)
{
  nc_op *d = v ? nc_value_get_defining_op(v) : NULL;
  return arith_is(d, id) && arith_well_formed(d) ? d : NULL;
}

/* --- integers as bits -------------------------------------------------------------------------- */

/** Bit width of an integer/index/float type or of a shaped type's elements (index: 64). */
unsigned arith_elt_width(NC_KEEP const nc_type *t);
/** All ones in the low `w` bits. */
static inline uint64_t arith_mask(unsigned w) { return w >= 64 ? ~0ull : (1ull << w) - 1; }
/** Sign-extends the low `w` bits. */
static inline int64_t arith_sext(uint64_t v, unsigned w)
{
  return w >= 64 ? (int64_t)v : (int64_t)(v << (64 - w)) >> (64 - w);
}

/* --- constant matchers (MLIR's m_Zero, m_One, m_ConstantInt, ...) ------------------------------ */

/** An integer attribute or a splat dense integer attribute: its value as bits. */
bool arith_int_or_splat(NC_KEEP nc_attr *a, uint64_t *bits, unsigned *width);
/** A float attribute or a splat dense float attribute: its value as raw bits. */
bool arith_float_or_splat(NC_KEEP nc_attr *a, uint64_t *bits, NC_KEEP nc_type **elt);
/** m_Zero / m_One on a constant attribute. */
bool arith_attr_is_zero(NC_KEEP nc_attr *a);
bool arith_attr_is_one(NC_KEEP nc_attr *a);
/** m_ConstantInt with an all-ones value. */
bool arith_attr_is_all_ones(NC_KEEP nc_attr *a);
/** The zero of an integer/index/float type or a static shaped type of them, or NULL. */
NC_KEEP nc_attr *arith_zero_attr(nc_context *ctx, nc_type *type);
/** `true`/`false`, or a splat of it for a static shaped type; NULL for dynamic shapes. */
NC_KEEP nc_attr *arith_bool_attr(nc_context *ctx, nc_type *type, bool value);
/** i1 with the shape of `type` (i1 for scalars). */
NC_KEEP nc_type *arith_i1_same_shape(nc_context *ctx, nc_type *type);
/** Evaluates an integer comparison predicate on `w`-bit values. */
bool arith_cmpi_eval(int64_t pred, uint64_t a, uint64_t b, unsigned w);
/** Swapping the operands of a comparison: slt <-> sgt, eq stays eq, ... */
int64_t arith_cmpi_swap(int64_t pred);
/** The negation of a comparison: slt <-> sge, eq <-> ne, ... */
int64_t arith_cmpi_invert(int64_t pred);

/* --- flags ------------------------------------------------------------------------------------- */

/** MLIR's diagnostics for unknown flags. */
#define arith_overflow_expected "expected ::mlir::arith::IntegerOverflowFlags to be one of: none, nsw, nuw"
#define arith_fastmath_expected \
  "expected ::mlir::arith::FastMathFlags to be one of: none, reassoc, nnan, ninf, nsz, arcp, contract, afn, fast"
/** The dialect's attribute definitions: #arith.overflow, #arith.fastmath (syntax.c). */
#define ARITH_NUM_ATTRS 2
extern const nc_dialect_attr_def arith_attr_defs[ARITH_NUM_ATTRS];
/** True if `a` is an #arith.fastmath (fastmath) or #arith.overflow attribute. */
bool arith_attr_is_flags(NC_KEEP const nc_attr *a, bool fastmath);

/* --- fold hooks (fold.c, fold_float.c) ---------------------------------------------------------- */

#define ARITH_FOLD(name) bool arith_fold_##name(nc_op *op, nc_attr *const *consts, nc_fold_result *res)
/* Defines a fold hook that runs only on well-formed ops. */
#define ARITH_DEFINE_FOLD(name)                                                             \
  static bool fold_##name##_impl(nc_op *op, nc_attr *const *consts, nc_fold_result *res);   \
  bool arith_fold_##name(nc_op *op, nc_attr *const *consts, nc_fold_result *res)            \
  {                                                                                         \
    return arith_well_formed(op) && fold_##name##_impl(op, consts, res);                    \
  }                                                                                         \
  static bool fold_##name##_impl(nc_op *op, nc_attr *const *consts, nc_fold_result *res)
ARITH_FOLD(constant);
ARITH_FOLD(addi); ARITH_FOLD(subi); ARITH_FOLD(muli);
ARITH_FOLD(divsi); ARITH_FOLD(divui); ARITH_FOLD(ceildivsi); ARITH_FOLD(ceildivui); ARITH_FOLD(floordivsi);
ARITH_FOLD(remsi); ARITH_FOLD(remui);
ARITH_FOLD(andi); ARITH_FOLD(ori); ARITH_FOLD(xori);
ARITH_FOLD(shli); ARITH_FOLD(shrsi); ARITH_FOLD(shrui);
ARITH_FOLD(maxsi); ARITH_FOLD(minsi); ARITH_FOLD(maxui); ARITH_FOLD(minui);
ARITH_FOLD(cmpi); ARITH_FOLD(select);
ARITH_FOLD(index_cast); ARITH_FOLD(index_castui); ARITH_FOLD(extsi); ARITH_FOLD(extui); ARITH_FOLD(trunci);
ARITH_FOLD(sitofp); ARITH_FOLD(uitofp); ARITH_FOLD(fptosi); ARITH_FOLD(fptoui); ARITH_FOLD(bitcast);
ARITH_FOLD(extf); ARITH_FOLD(truncf);
ARITH_FOLD(addf); ARITH_FOLD(subf); ARITH_FOLD(mulf); ARITH_FOLD(divf); ARITH_FOLD(remf); ARITH_FOLD(negf);
ARITH_FOLD(maximumf); ARITH_FOLD(minimumf); ARITH_FOLD(maxnumf); ARITH_FOLD(minnumf); ARITH_FOLD(cmpf);
#undef ARITH_FOLD

/** Elementwise constant folding (MLIR's constFoldBinaryOp / constFoldCastOp):
 * both operands integer attributes of one type, both splats, or both dense
 * elements. `fn` computes one element and returns false to refuse the fold. */
typedef bool (*arith_bin_fn)(uint64_t a, uint64_t b, unsigned w, uint64_t *r, void *state);
typedef bool (*arith_cast_fn)(uint64_t a, NC_KEEP nc_type *from, NC_KEEP nc_type *to, uint64_t *r);
NC_KEEP nc_attr *arith_fold_binary(nc_context *ctx, NC_KEEP nc_attr *lhs, NC_KEEP nc_attr *rhs,
                                   NC_KEEP nc_type *result_type, bool is_float, arith_bin_fn fn, void *state);
NC_KEEP nc_attr *arith_fold_cast(nc_context *ctx, NC_KEEP nc_attr *in, NC_KEEP nc_type *result_type, bool from_float,
                                 arith_cast_fn fn);
/** Raw bits of a float of type `t` from a double, rounded to nearest even. */
uint64_t arith_double_to_bits(NC_KEEP const nc_type *t, double v);
double arith_bits_to_double(NC_KEEP const nc_type *t, uint64_t bits);
/** The raw bits of the float type `t` nearest to the integer (sign, magnitude). */
uint64_t arith_int_to_float_bits(NC_KEEP const nc_type *t, bool negative, uint64_t magnitude);

/* --- canonicalization patterns (patterns.c) ----------------------------------------------------- */

#define ARITH_PATTERN(name) bool arith_pat_##name(nc_op *op, nc_rewriter *rw)
/* Defines a pattern that matches only well-formed ops. */
#define ARITH_DEFINE_PATTERN(name)                                          \
  static bool pat_##name##_impl(nc_op *op, nc_rewriter *rw);                \
  bool arith_pat_##name(nc_op *op, nc_rewriter *rw)                         \
  {                                                                         \
    return arith_well_formed(op) && pat_##name##_impl(op, rw);              \
  }                                                                         \
  static bool pat_##name##_impl(nc_op *op, nc_rewriter *rw)
ARITH_PATTERN(addi_add_constant); ARITH_PATTERN(addi_sub_constant_rhs); ARITH_PATTERN(addi_sub_constant_lhs);
ARITH_PATTERN(addi_mul_negative_one_rhs); ARITH_PATTERN(addi_mul_negative_one_lhs);
ARITH_PATTERN(subi_rhs_add_constant); ARITH_PATTERN(subi_lhs_add_constant);
ARITH_PATTERN(subi_rhs_sub_constant_rhs); ARITH_PATTERN(subi_rhs_sub_constant_lhs);
ARITH_PATTERN(subi_lhs_sub_constant_rhs); ARITH_PATTERN(subi_lhs_sub_constant_lhs);
ARITH_PATTERN(subi_sub_lhs_rhs_lhs);
ARITH_PATTERN(muli_muli_constant);
ARITH_PATTERN(xori_not_cmpi); ARITH_PATTERN(xori_of_extui); ARITH_PATTERN(xori_of_extsi);
ARITH_PATTERN(andi_of_extui); ARITH_PATTERN(andi_of_extsi);
ARITH_PATTERN(ori_of_extui); ARITH_PATTERN(ori_of_extsi);
ARITH_PATTERN(cmpi_extsi); ARITH_PATTERN(cmpi_extui);
ARITH_PATTERN(select_not_cond); ARITH_PATTERN(redundant_select_true); ARITH_PATTERN(redundant_select_false);
ARITH_PATTERN(select_i1_to_not); ARITH_PATTERN(select_to_extui);
ARITH_PATTERN(index_cast_of_index_cast); ARITH_PATTERN(index_cast_of_extsi);
ARITH_PATTERN(index_castui_of_index_castui); ARITH_PATTERN(index_castui_of_extui);
ARITH_PATTERN(bitcast_of_bitcast); ARITH_PATTERN(extsi_of_extui);
ARITH_PATTERN(trunci_extsi_to_extsi); ARITH_PATTERN(trunci_extui_to_extui); ARITH_PATTERN(trunci_shrsi_to_trunci_shrui);
ARITH_PATTERN(mulf_of_negf); ARITH_PATTERN(divf_of_negf);
ARITH_PATTERN(cmpf_int_to_fp_const);
#undef ARITH_PATTERN

/* --- custom syntax (syntax.c) -------------------------------------------------------------------- */

/** MLIR's formats with an optional flag attribute (`overflow<nsw>`,
 * `fastmath<fast>`) or rounding mode, which declarative formats cannot spell:
 *   $lhs `,` $rhs (`overflow` `` $overflowFlags^)? attr-dict `:` type($result)
 *   $lhs `,` $rhs (`fastmath` `` $fastmath^)? attr-dict `:` type($result)
 *   $operand (`fastmath` `` $fastmath^)? attr-dict `:` type($result)
 *   $predicate `,` $lhs `,` $rhs (`fastmath` `` $fastmath^)? attr-dict `:` type($lhs)
 *   $in ($roundingmode^)? (`fastmath` `` $fastmath^)? attr-dict `:` type($in) `to` type($out)
 * One parser/printer reads the op's table to know which parts it has. */
bool arith_parse_flagged(nc_asm_parser *p, nc_op_builder *b);
void arith_print_flagged(nc_asm_printer *p, nc_op *op);
/** arith.select: `%c, %a, %b attr-dict : [cond_type ,] type`. */
bool arith_parse_select(nc_asm_parser *p, nc_op_builder *b);
void arith_print_select(nc_asm_printer *p, nc_op *op);

#endif
