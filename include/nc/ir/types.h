/* types.h: builtin types, uniqued by the context (equality is ==).
 *
 * Spelled as in MLIR: i1..i64 (and any width up to 64, e.g. the hardware's
 * i2 and i4), si8/ui8 signedness variants, index, f16, bf16, f32, f64, none,
 * function types `(i32) -> f32`, `tensor<1x?x8xf32>`, `tensor<*xf32>`,
 * `memref<4x4xf32, 1>`, `vector<4xf32>`, `tuple<...>`, `complex<f32>` and
 * dialect types `!dialect.name<...>` kept as opaque text.
 */
#ifndef NC_IR_TYPES_H
#define NC_IR_TYPES_H

#include "nc/ir/context.h"

/** The kinds of types. */
typedef enum nc_type_kind {
  NC_TYPE_INTEGER,
  NC_TYPE_INDEX,
  NC_TYPE_F16,
  NC_TYPE_BF16,
  NC_TYPE_F32,
  NC_TYPE_F64,
  NC_TYPE_NONE,
  NC_TYPE_FUNCTION,
  NC_TYPE_TENSOR,          /* ranked tensor */
  NC_TYPE_UNRANKED_TENSOR,
  NC_TYPE_MEMREF,          /* ranked memref */
  NC_TYPE_UNRANKED_MEMREF,
  NC_TYPE_VECTOR,
  NC_TYPE_TUPLE,
  NC_TYPE_COMPLEX,
  NC_TYPE_OPAQUE,          /* !dialect.body: a dialect type kept as text */
  NC_TYPE_DIALECT,         /* !dialect.mnemonic<...> of a registered definition (dialect_attrs.h) */
} nc_type_kind;

/** Signedness of integer types: `i8` is signless, `si8` signed, `ui8` unsigned. */
typedef enum nc_signedness { NC_SIGNLESS, NC_SIGNED, NC_UNSIGNED } nc_signedness;

/** The marker for a dynamic (`?`) dimension. */
#define NC_DYNAMIC INT64_MIN
/** The widest integer type nc supports. */
#define NC_MAX_INT_WIDTH 64
/** The largest rank of shaped types. */
#define NC_MAX_RANK 64

/** Integer type of `width` bits (1..64); NULL if the width is out of range. */
NC_KEEP nc_type *nc_type_integer(nc_context *ctx, unsigned width, nc_signedness s);
/** `index`. */
NC_KEEP nc_type *nc_type_index(nc_context *ctx);
/** `f16`, `bf16`, `f32`, `f64`, `none`. */
NC_KEEP nc_type *nc_type_f16(nc_context *ctx);
NC_KEEP nc_type *nc_type_bf16(nc_context *ctx);
NC_KEEP nc_type *nc_type_f32(nc_context *ctx);
NC_KEEP nc_type *nc_type_f64(nc_context *ctx);
NC_KEEP nc_type *nc_type_none(nc_context *ctx);
/** Function type `(inputs) -> results`; the arrays are copied. */
NC_KEEP nc_type *nc_type_function(nc_context *ctx, size_t n_inputs, nc_type *const *inputs,
                                  size_t n_results, nc_type *const *results);
/** Ranked tensor; dims may be NC_DYNAMIC; `encoding` may be NULL. NULL if a
 * dim is negative (other than NC_DYNAMIC) or rank > NC_MAX_RANK. */
NC_KEEP nc_type *nc_type_tensor(nc_context *ctx, size_t rank, const int64_t *shape,
                                nc_type *elt, nc_attr *encoding);
/** `tensor<*xelt>`. */
NC_KEEP nc_type *nc_type_unranked_tensor(nc_context *ctx, nc_type *elt);
/** Ranked memref; `layout` and `memory_space` may be NULL. */
NC_KEEP nc_type *nc_type_memref(nc_context *ctx, size_t rank, const int64_t *shape, nc_type *elt,
                                nc_attr *layout, nc_attr *memory_space);
/** `memref<*xelt, space>`; `memory_space` may be NULL. */
NC_KEEP nc_type *nc_type_unranked_memref(nc_context *ctx, nc_type *elt, nc_attr *memory_space);
/** Fixed-size vector (all dims > 0). */
NC_KEEP nc_type *nc_type_vector(nc_context *ctx, size_t rank, const int64_t *shape, nc_type *elt);
/** `tuple<...>`. */
NC_KEEP nc_type *nc_type_tuple(nc_context *ctx, size_t n, nc_type *const *types);
/** `complex<elt>`. */
NC_KEEP nc_type *nc_type_complex(nc_context *ctx, nc_type *elt);
/** A dialect type `!dialect.body` (body is the text after the dot, e.g.
 * `buffer<4xi8>`); as in MLIR, a body that is not an identifier optionally
 * followed by `<...>` prints as `!dialect<body>`, so it must have balanced
 * brackets and quotes to read back. */
NC_KEEP nc_type *nc_type_opaque(nc_context *ctx, nc_ident *dialect, const char *body, size_t len);

/** The type's kind. */
nc_type_kind nc_type_get_kind(NC_KEEP const nc_type *t);
/** The context that owns the type. */
NC_KEEP nc_context *nc_type_get_context(NC_KEEP const nc_type *t);

/** True for integer types (not index). */
bool nc_type_is_integer(NC_KEEP const nc_type *t);
/** True for an integer type of exactly this width (any signedness). */
bool nc_type_is_integer_of_width(NC_KEEP const nc_type *t, unsigned width);
/** True for signless integer types. */
bool nc_type_is_signless_integer(NC_KEEP const nc_type *t);
/** True for index. */
bool nc_type_is_index(NC_KEEP const nc_type *t);
/** True for f16, bf16, f32, f64. */
bool nc_type_is_float(NC_KEEP const nc_type *t);
/** Integer width, or float width; 64 for index; 0 otherwise. */
unsigned nc_type_get_width(NC_KEEP const nc_type *t);
/** Signedness of an integer type. */
nc_signedness nc_type_get_signedness(NC_KEEP const nc_type *t);

/** True for tensors, memrefs and vectors (ranked or not). */
bool nc_type_is_shaped(NC_KEEP const nc_type *t);
/** True for ranked tensors and unranked tensors. */
bool nc_type_is_tensor(NC_KEEP const nc_type *t);
/** True if a shaped type has a rank. */
bool nc_type_has_rank(NC_KEEP const nc_type *t);
/** Rank of a ranked shaped type. */
size_t nc_type_get_rank(NC_KEEP const nc_type *t);
/** Dimensions of a ranked shaped type (NC_DYNAMIC for `?`). */
NC_KEEP const int64_t *nc_type_get_shape(NC_KEEP const nc_type *t);
/** True if ranked and no dim is dynamic. */
bool nc_type_has_static_shape(NC_KEEP const nc_type *t);
/** Product of the dims of a static shape (1 for rank 0); -1 if not static
 * or if the product overflows int64. */
int64_t nc_type_get_num_elements(NC_KEEP const nc_type *t);
/** Element type of a shaped or complex type; the type itself otherwise. */
NC_KEEP nc_type *nc_type_get_element_type(NC_KEEP const nc_type *t);
/** Tensor encoding or memref layout (may be NULL). */
NC_KEEP nc_attr *nc_type_get_encoding(NC_KEEP const nc_type *t);
/** Memref memory space (may be NULL). */
NC_KEEP nc_attr *nc_type_get_memory_space(NC_KEEP const nc_type *t);
/** The same kind of shaped type with a new shape and element type (uniqued
 * in the context, like every type). */
NC_KEEP nc_type *nc_type_clone_shaped(NC_KEEP const nc_type *t, size_t rank, const int64_t *shape, nc_type *elt);

/** Number of inputs / results of a function type. */
size_t nc_type_get_num_inputs(NC_KEEP const nc_type *t);
size_t nc_type_get_num_results(NC_KEEP const nc_type *t);
/** Input / result i of a function type. */
NC_KEEP nc_type *nc_type_get_input(NC_KEEP const nc_type *t, size_t i);
NC_KEEP nc_type *nc_type_get_result(NC_KEEP const nc_type *t, size_t i);
/** Number of element types of a tuple and element i. */
size_t nc_type_get_num_tuple_types(NC_KEEP const nc_type *t);
NC_KEEP nc_type *nc_type_get_tuple_type(NC_KEEP const nc_type *t, size_t i);
/** Dialect namespace of an opaque or defined dialect type; body text of an
 * opaque one. */
NC_KEEP nc_ident *nc_type_get_dialect(NC_KEEP const nc_type *t);
NC_KEEP const char *nc_type_get_body(NC_KEEP const nc_type *t, size_t *len);

#endif
