/* arith.h: the arith dialect (MLIR's `arith`, with MLIR 19's op names,
 * attributes and folding), and helpers for other dialects and passes that
 * need scalar arithmetic (addresses, loop bounds).
 */
#ifndef NC_DIALECTS_ARITH_H
#define NC_DIALECTS_ARITH_H

#include "nc/ir/rewrite.h"

/** The dialect definition (registered by dialects/registry.c). */
extern const nc_dialect_def nc_arith_dialect;

/** `arith.cmpi` predicates, stored as i64 in the `predicate` property. */
typedef enum nc_arith_cmpi_predicate {
  NC_ARITH_CMPI_EQ = 0,
  NC_ARITH_CMPI_NE = 1,
  NC_ARITH_CMPI_SLT = 2,
  NC_ARITH_CMPI_SLE = 3,
  NC_ARITH_CMPI_SGT = 4,
  NC_ARITH_CMPI_SGE = 5,
  NC_ARITH_CMPI_ULT = 6,
  NC_ARITH_CMPI_ULE = 7,
  NC_ARITH_CMPI_UGT = 8,
  NC_ARITH_CMPI_UGE = 9,
} nc_arith_cmpi_predicate;

/** `arith.cmpf` predicates, stored as i64 in the `predicate` property. */
typedef enum nc_arith_cmpf_predicate {
  NC_ARITH_CMPF_FALSE = 0,
  NC_ARITH_CMPF_OEQ = 1,
  NC_ARITH_CMPF_OGT = 2,
  NC_ARITH_CMPF_OGE = 3,
  NC_ARITH_CMPF_OLT = 4,
  NC_ARITH_CMPF_OLE = 5,
  NC_ARITH_CMPF_ONE = 6,
  NC_ARITH_CMPF_ORD = 7,
  NC_ARITH_CMPF_UEQ = 8,
  NC_ARITH_CMPF_UGT = 9,
  NC_ARITH_CMPF_UGE = 10,
  NC_ARITH_CMPF_ULT = 11,
  NC_ARITH_CMPF_ULE = 12,
  NC_ARITH_CMPF_UNE = 13,
  NC_ARITH_CMPF_UNO = 14,
  NC_ARITH_CMPF_TRUE = 15,
} nc_arith_cmpf_predicate;

/** Integer overflow flags (`#arith.overflow<nsw, nuw>`), a bit set. */
enum { NC_ARITH_OVERFLOW_NONE = 0, NC_ARITH_OVERFLOW_NSW = 1, NC_ARITH_OVERFLOW_NUW = 2 };

/** Fast-math flags (`#arith.fastmath<nnan,ninf>`), a bit set; `fast` is all of them. */
enum {
  NC_ARITH_FASTMATH_NONE = 0,
  NC_ARITH_FASTMATH_REASSOC = 1,
  NC_ARITH_FASTMATH_NNAN = 2,
  NC_ARITH_FASTMATH_NINF = 4,
  NC_ARITH_FASTMATH_NSZ = 8,
  NC_ARITH_FASTMATH_ARCP = 16,
  NC_ARITH_FASTMATH_CONTRACT = 32,
  NC_ARITH_FASTMATH_AFN = 64,
  NC_ARITH_FASTMATH_FAST = 127,
};

/** The `#arith.overflow<...>` attribute for a flag set. */
NC_KEEP nc_attr *nc_arith_overflow_attr(nc_context *ctx, unsigned flags);
/** The `#arith.fastmath<...>` attribute for a flag set. */
NC_KEEP nc_attr *nc_arith_fastmath_attr(nc_context *ctx, unsigned flags);
/** The flag set of an op's `overflowFlags` / `fastmath` property (0 if absent). */
unsigned nc_arith_get_overflow_flags(NC_KEEP const nc_op *op);
unsigned nc_arith_get_fastmath_flags(NC_KEEP const nc_op *op);

/** Creates an `arith.constant` of `value` (an integer, float or dense
 * elements attribute whose type is the result type) at the rewriter's
 * insertion point; the driver deduplicates it with equal constants. These
 * builders return the new op's result; the op is owned by its block. */
NC_KEEP nc_value *nc_arith_create_constant(nc_rewriter *rw, nc_attr *value, nc_location loc);
/** Same for an integer or index constant of `type` (the op is owned by its block). */
NC_KEEP nc_value *nc_arith_create_constant_int(nc_rewriter *rw, nc_type *type, int64_t value, nc_location loc);
/** Creates a two-operand arith op (`arith.addi`, `arith.muli`, ...) whose
 * result has the operands' type (the op is owned by its block). */
NC_KEEP nc_value *nc_arith_create_binary(nc_rewriter *rw, const char *name, nc_value *lhs, nc_value *rhs,
                                         nc_location loc);
/** Creates `arith.cmpi pred, lhs, rhs` (the op is owned by its block). */
NC_KEEP nc_value *nc_arith_create_cmpi(nc_rewriter *rw, nc_arith_cmpi_predicate pred, nc_value *lhs, nc_value *rhs,
                                       nc_location loc);
/** Creates a one-operand cast (`arith.index_cast`, `arith.extsi`, ...) to
 * `type` (the op is owned by its block). */
NC_KEEP nc_value *nc_arith_create_cast(nc_rewriter *rw, const char *name, nc_value *in, nc_type *type,
                                       nc_location loc);

#endif
