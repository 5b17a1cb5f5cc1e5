/* ods.h: operation and dialect definitions as data (an ODS in C).
 *
 * A dialect is a static nc_dialect_def listing static nc_op_def tables. An
 * op definition declares operands and results (with type constraints and
 * arity), attributes (with constraints, optionality and defaults), regions,
 * successors, traits, optional verify/fold hooks and canonicalization
 * patterns, a declarative assembly format, and documentation. The verifier,
 * the generic parser/printer, the format engine, canonicalize and the
 * Markdown reference (`nc-opt --dump-dialect-docs=NAME`) all read these
 * tables; nothing about an op is written twice.
 */
#ifndef NC_IR_ODS_H
#define NC_IR_ODS_H

#include <stdio.h>

#include "nc/ir/ops.h"

/* --- constraints -------------------------------------------------------------- */

/** A predicate on types with a human description (used in diagnostics and docs). */
typedef struct nc_type_constraint {
  const char *summary;                /* e.g. "tensor of any type" */
  bool (*pred)(NC_KEEP const nc_type *t);
} nc_type_constraint;

/** How a custom assembly format spells an attribute. */
typedef enum nc_attr_syntax {
  NC_ATTR_SYNTAX_FULL,        /* the attribute as written anywhere: `1 : i64` */
  NC_ATTR_SYNTAX_IMPLIED_TYPE,/* value without its type, which the constraint implies: `1` */
  NC_ATTR_SYNTAX_ENUM,        /* a keyword naming an enum case, stored as i64 */
  NC_ATTR_SYNTAX_SYMBOL_NAME, /* a string attribute spelled `@name` */
  NC_ATTR_SYNTAX_TYPE,        /* a type attribute spelled as the type */
  NC_ATTR_SYNTAX_STRING,      /* a string attribute spelled "..." */
} nc_attr_syntax;

/** One case of an enum attribute. */
typedef struct nc_enum_case {
  const char *name;
  int64_t value;
} nc_enum_case;

/** A predicate on attributes, with its custom-format spelling. */
typedef struct nc_attr_constraint {
  const char *summary;                      /* e.g. "64-bit signless integer attribute" */
  bool (*pred)(NC_KEEP const nc_attr *a);
  nc_attr_syntax syntax;
  nc_type *(*implied_type)(nc_context *ctx); /* for NC_ATTR_SYNTAX_IMPLIED_TYPE */
  const nc_enum_case *cases;                 /* for NC_ATTR_SYNTAX_ENUM */
  size_t n_cases;
} nc_attr_constraint;

/** Common type constraints. */
extern const nc_type_constraint nc_tc_any;            /* any type */
extern const nc_type_constraint nc_tc_integer;        /* integer (any signedness) */
extern const nc_type_constraint nc_tc_signless_integer;
extern const nc_type_constraint nc_tc_index;
extern const nc_type_constraint nc_tc_i1;
extern const nc_type_constraint nc_tc_float;
extern const nc_type_constraint nc_tc_signless_integer_or_index;
extern const nc_type_constraint nc_tc_signless_integer_like; /* int/index or tensor/vector of them */
extern const nc_type_constraint nc_tc_bool_like;             /* i1 or tensor/vector of i1 */
extern const nc_type_constraint nc_tc_float_like;            /* float or tensor/vector of floats */
extern const nc_type_constraint nc_tc_signless_integer_or_float_like;
extern const nc_type_constraint nc_tc_tensor;                /* ranked or unranked tensor */
extern const nc_type_constraint nc_tc_ranked_tensor;
extern const nc_type_constraint nc_tc_memref;
extern const nc_type_constraint nc_tc_function;

/** Common attribute constraints. */
extern const nc_attr_constraint nc_ac_any;
extern const nc_attr_constraint nc_ac_i64;            /* I64Attr: printed without type */
extern const nc_attr_constraint nc_ac_i32;
extern const nc_attr_constraint nc_ac_index;
extern const nc_attr_constraint nc_ac_f32;
extern const nc_attr_constraint nc_ac_f64;
extern const nc_attr_constraint nc_ac_bool;           /* BoolAttr */
extern const nc_attr_constraint nc_ac_unit;
extern const nc_attr_constraint nc_ac_string;
extern const nc_attr_constraint nc_ac_symbol_name;    /* string spelled @name */
extern const nc_attr_constraint nc_ac_flat_symbol_ref;
extern const nc_attr_constraint nc_ac_symbol_ref;
extern const nc_attr_constraint nc_ac_type;
extern const nc_attr_constraint nc_ac_function_type;  /* TypeAttrOf<FunctionType> */
extern const nc_attr_constraint nc_ac_array;
extern const nc_attr_constraint nc_ac_dict_array;     /* array of dictionaries */
extern const nc_attr_constraint nc_ac_dictionary;
extern const nc_attr_constraint nc_ac_i64_array;      /* array<i64: ...> */
extern const nc_attr_constraint nc_ac_f32_array;      /* array<f32: ...> */
extern const nc_attr_constraint nc_ac_typed;          /* integer, float or elements attribute */
extern const nc_attr_constraint nc_ac_elements;       /* dense or dense_resource elements */
extern const nc_attr_constraint nc_ac_location;

/* --- op definitions ------------------------------------------------------------- */

/** Operand / result arity. */
typedef enum nc_arity { NC_ARITY_ONE, NC_ARITY_OPTIONAL, NC_ARITY_VARIADIC } nc_arity;

/** A declared operand or result group. */
typedef struct nc_value_def {
  const char *name;
  const nc_type_constraint *type; /* NULL means any type */
  nc_arity arity;
  const char *summary;
} nc_value_def;

/** A declared inherent attribute. */
typedef struct nc_attr_def {
  const char *name;
  const nc_attr_constraint *constraint; /* NULL means any attribute */
  bool optional;
  const char *default_value; /* textual attribute used when absent (optional attrs), or NULL */
  const char *summary;
} nc_attr_def;

/** A declared region. */
typedef struct nc_region_def {
  const char *name;
  bool variadic;
  bool single_block;
  const char *summary;
} nc_region_def;

/** A declared successor. */
typedef struct nc_successor_def {
  const char *name;
  bool variadic;
} nc_successor_def;

/** Op traits, as in MLIR. */
enum nc_trait {
  NC_TRAIT_PURE = 1u << 0,              /* no memory effects, speculatable */
  NC_TRAIT_COMMUTATIVE = 1u << 1,
  NC_TRAIT_TERMINATOR = 1u << 2,
  NC_TRAIT_ISOLATED_FROM_ABOVE = 1u << 3,
  NC_TRAIT_SAME_OPERANDS_AND_RESULT_TYPE = 1u << 4,
  NC_TRAIT_SAME_TYPE_OPERANDS = 1u << 5,
  NC_TRAIT_SAME_OPERANDS_AND_RESULT_SHAPE = 1u << 6,
  NC_TRAIT_SAME_OPERANDS_AND_RESULT_ELEMENT_TYPE = 1u << 7,
  NC_TRAIT_SYMBOL_TABLE = 1u << 8,
  NC_TRAIT_SYMBOL = 1u << 9,
  NC_TRAIT_NO_TERMINATOR = 1u << 10,
  NC_TRAIT_SINGLE_BLOCK = 1u << 11,
  NC_TRAIT_RETURN_LIKE = 1u << 12,
  NC_TRAIT_CONSTANT_LIKE = 1u << 13,
  NC_TRAIT_GRAPH_REGION = 1u << 14,     /* regions need no SSA dominance */
  NC_TRAIT_ATTR_SIZED_OPERAND_SEGMENTS = 1u << 15,
  NC_TRAIT_ATTR_SIZED_RESULT_SEGMENTS = 1u << 16,
  NC_TRAIT_ELEMENTWISE = 1u << 17,
  NC_TRAIT_IDEMPOTENT = 1u << 18,
  NC_TRAIT_INVOLUTION = 1u << 19,
  NC_TRAIT_RECURSIVE_MEMORY_EFFECTS = 1u << 20,
  NC_TRAIT_MEM_READ = 1u << 21,
  NC_TRAIT_MEM_WRITE = 1u << 22,
  NC_TRAIT_MEM_ALLOC = 1u << 23,
  NC_TRAIT_MEM_FREE = 1u << 24,
  NC_TRAIT_HAS_PARENT = 1u << 25,       /* parent op names in nc_op_def.parents */
  NC_TRAIT_CALLABLE = 1u << 26,         /* function-like: body region, function_type */
  NC_TRAIT_CALL = 1u << 27,             /* call-like: callee symbol */
};

/** Name of a single trait bit ("Pure", "Commutative", ...). */
NC_KEEP const char *nc_trait_name(uint64_t trait);

/** What a fold hook returns for one result: a constant attribute or an
 * existing value. */
typedef struct nc_fold_result {
  nc_attr *attr;
  nc_value *value;
} nc_fold_result;

/** Fold hook: `consts[i]` is the constant value of operand i or NULL. On
 * success fill every result (or, for an in-place fold that only changed the
 * op's attributes/operands, set results[i].value to the op's own results)
 * and return true. Must not create or erase ops. */
typedef bool (*nc_fold_fn)(nc_op *op, nc_attr *const *consts, nc_fold_result *results);

/** The rewriter passed to patterns (see nc/ir/rewrite.h). */
typedef struct nc_rewriter nc_rewriter;

/** A canonicalization (or any rewrite) pattern rooted at one op kind. */
typedef struct nc_pattern {
  const char *name;
  unsigned benefit;
  /** Returns true if it changed the IR, which it must do only through `rw`. */
  bool (*match_and_rewrite)(nc_op *op, nc_rewriter *rw);
  /** Used instead when match_and_rewrite is NULL: the same contract, with
   * `userData` (patterns made at run time, e.g. the Python bindings'). */
  bool (*match_and_rewrite_with_data)(nc_op *op, nc_rewriter *rw, void *userData);
  /** Passed to match_and_rewrite_with_data. */
  void *userData;
} nc_pattern;

/** Parser and printer handles for custom assembly hooks (see nc/ir/asm.h). */
typedef struct nc_asm_parser nc_asm_parser;
typedef struct nc_asm_printer nc_asm_printer;
typedef struct nc_op_builder nc_op_builder;

/** Dialect attribute and type definitions with real storage (see
 * nc/ir/dialect_attrs.h); one struct serves both tables. */
typedef struct nc_dialect_storage_def nc_dialect_storage_def;
typedef nc_dialect_storage_def nc_dialect_attr_def;
typedef nc_dialect_storage_def nc_dialect_type_def;

/** Symbol table cache used by symbol-use verification (see nc/ir/symbol.h). */
typedef struct nc_symbol_table_collection nc_symbol_table_collection;

/** Result type inference hook, for formats that do not spell result types:
 * given the op's operand types and attributes, fill `types` (n_results
 * of them, the count is the op's declared result count). */
typedef bool (*nc_infer_types_fn)(nc_context *ctx, nc_location loc, size_t n_operands, nc_type *const *operand_types,
                                  NC_KEEP nc_attr *props, size_t n_results, nc_type **types);

/** An operation definition. */
struct nc_op_def {
  const char *name;          /* full name, e.g. "arith.addi" */
  const char *summary;       /* one line */
  const char *description;   /* Markdown */
  const nc_value_def *operands; size_t n_operands;
  const nc_value_def *results; size_t n_results;
  const nc_attr_def *attrs; size_t n_attrs;
  const nc_region_def *regions; size_t n_regions;
  const nc_successor_def *successors; size_t n_successors;
  uint64_t traits;
  const char *const *parents; /* for NC_TRAIT_HAS_PARENT: NULL-terminated op names */
  /** Extra verification after the table-driven checks. */
  bool (*verify)(nc_op *op);
  /** Verification that needs regions verified first (like MLIR's verifyRegions). */
  bool (*verify_regions)(nc_op *op);
  /** Symbol-use verification (SymbolUserOpInterface). */
  bool (*verify_symbol_uses)(nc_op *op, nc_symbol_table_collection *tables);
  nc_fold_fn fold;
  const nc_pattern *canonicalize; size_t n_canonicalize;
  nc_infer_types_fn infer_types;
  /** Declarative assembly format, e.g. "$lhs `,` $rhs attr-dict `:` type($result)". */
  const char *assembly_format;
  /** Hand-written custom syntax, only for what formats cannot say (func.func). */
  bool (*parse)(nc_asm_parser *p, nc_op_builder *b);
  void (*print)(nc_asm_printer *p, nc_op *op);
  /** Dialect whose prefix may be omitted for ops nested in this op's regions. */
  const char *default_dialect;
};

/** A dialect definition. */
struct nc_dialect_def {
  const char *name;          /* namespace, e.g. "arith" */
  const char *summary;
  const char *description;   /* Markdown */
  const nc_op_def *ops; size_t n_ops;
  const nc_dialect_def *const *dependents; size_t n_dependents; /* registered along with it */
  /** Builds a detached constant op producing `value` of `type`, or NULL. */
  nc_op *(*materialize_constant)(nc_context *ctx, nc_attr *value, nc_type *type, nc_location loc);
  /** Checks the body of a dialect attribute / type kept as text (one whose
   * mnemonic is not in `attrs` / `types`); NULL accepts any. */
  bool (*verify_attr)(nc_context *ctx, nc_location loc, NC_KEEP nc_attr *a);
  bool (*verify_type)(nc_context *ctx, nc_location loc, NC_KEEP nc_type *t);
  /** Attributes and types with real storage, by mnemonic (dialect_attrs.h). */
  const nc_dialect_attr_def *attrs; size_t n_attrs;
  const nc_dialect_type_def *types; size_t n_types;
};

/** True if the op has all the given trait bits. Unregistered ops have none. */
bool nc_op_has_trait(NC_KEEP const nc_op *op, uint64_t traits);
/** True if the op's regions may use values in any order (graph regions, and
 * all regions of unregistered ops, as in MLIR). */
bool nc_op_has_graph_regions(NC_KEEP const nc_op *op);
/** True if the op has no memory effects (Pure, or RecursiveMemoryEffects with
 * only pure ops nested). Unregistered ops are never side-effect free. */
bool nc_op_is_pure(NC_KEEP nc_op *op);
/** True if the op is an ancestor-free constant (ConstantLike with no operands). */
bool nc_op_is_constant(NC_KEEP const nc_op *op);
/** The constant attribute of a ConstantLike op (its fold result), or NULL. */
NC_KEEP nc_attr *nc_op_get_constant_value(NC_KEEP nc_op *op);
/** The index of an attribute in def->attrs, or -1. */
int nc_op_def_find_attr(NC_KEEP const nc_op_def *def, const char *name);
/** The dialect definition that owns a registered op, or NULL. */
NC_KEEP const nc_dialect_def *nc_op_get_dialect(NC_KEEP const nc_op *op);

/** Writes the Markdown reference of a registered dialect (from its tables). */
bool nc_dialect_write_docs(nc_context *ctx, const char *dialect, FILE *out);

#endif
