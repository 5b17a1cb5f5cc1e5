/* attrs.h: builtin attributes and locations, uniqued by the context.
 *
 * Spelled as in MLIR: `42 : i32`, `1.5 : f32`, `"str"`, `unit`, `true`,
 * `[a, b]`, `array<i64: 1, 2>`, `{k = v}`, `i32` (type attribute), `@a::@b`,
 * `dense<...> : tensor<...>` (kept as raw little-endian bytes, never as
 * per-element objects), `dense_resource<name>`, `#dialect.body`, and the
 * builtin opaque forms `affine_map<...>`, `strided<...>` kept as text.
 * Locations are attributes too: `loc(unknown)`, `loc("f":1:2)`,
 * `loc("name"(child))`, `loc(callsite(a at b))`, `loc(fused<m>[a, b])`.
 */
#ifndef NC_IR_ATTRS_H
#define NC_IR_ATTRS_H

#include "nc/ir/types.h"

/** The kinds of attributes. */
typedef enum nc_attr_kind {
  NC_ATTR_INTEGER,        /* includes bool: an i1 integer */
  NC_ATTR_FLOAT,
  NC_ATTR_STRING,
  NC_ATTR_UNIT,
  NC_ATTR_ARRAY,
  NC_ATTR_DENSE_ARRAY,    /* array<i64: 1, 2> */
  NC_ATTR_DICTIONARY,
  NC_ATTR_TYPE,
  NC_ATTR_SYMBOL_REF,
  NC_ATTR_DENSE_ELEMENTS,
  NC_ATTR_DENSE_RESOURCE,
  NC_ATTR_OPAQUE,         /* #dialect.body */
  NC_ATTR_BUILTIN_OPAQUE, /* affine_map<...>, affine_set<...>, strided<...> kept as text */
  NC_ATTR_DIALECT,        /* #dialect.mnemonic<...> of a registered definition (dialect_attrs.h) */
  NC_ATTR_LOC_UNKNOWN,
  NC_ATTR_LOC_FILE,
  NC_ATTR_LOC_NAME,
  NC_ATTR_LOC_CALLSITE,
  NC_ATTR_LOC_FUSED,
} nc_attr_kind;

/** A (name, value) entry of a dictionary. */
typedef struct nc_named_attr {
  nc_ident *name;
  nc_attr *value;
} nc_named_attr;

/** Integer attribute; the value is truncated to the type's width and then
 * sign-extended (signless, signed) or zero-extended (unsigned). `type` must be
 * an integer type or index. */
NC_KEEP nc_attr *nc_attr_integer(nc_context *ctx, nc_type *type, int64_t value);
/** `true` / `false` (integer attributes of type i1). */
NC_KEEP nc_attr *nc_attr_bool(nc_context *ctx, bool value);
/** Float attribute of a float type, from a double (rounded to the type). */
NC_KEEP nc_attr *nc_attr_float(nc_context *ctx, nc_type *type, double value);
/** Float attribute from the raw bits of the type's format (exact, keeps NaN payloads). */
NC_KEEP nc_attr *nc_attr_float_bits(nc_context *ctx, nc_type *type, uint64_t bits);
/** String attribute (any bytes). */
NC_KEEP nc_attr *nc_attr_string(nc_context *ctx, const char *str, size_t len);
/** String attribute from a NUL-terminated string. */
NC_KEEP nc_attr *nc_attr_string_cstr(nc_context *ctx, const char *str);
/** `unit`. */
NC_KEEP nc_attr *nc_attr_unit(nc_context *ctx);
/** `[a, b, ...]`; the array is copied. */
NC_KEEP nc_attr *nc_attr_array(nc_context *ctx, size_t n, nc_attr *const *elts);
/** `array<T: ...>` of integer (i1..i64) or float (f32, f64) elements:
 * `data` holds n elements in the element type's storage (1 byte for i1/i8, 2, 4 or 8). */
NC_KEEP nc_attr *nc_attr_dense_array(nc_context *ctx, nc_type *elt, size_t n, const void *data);
/** `array<i64: ...>` from int64 values. */
NC_KEEP nc_attr *nc_attr_dense_i64_array(nc_context *ctx, size_t n, const int64_t *vals);
/** Dictionary; entries are copied and sorted by name. Returns NULL if two
 * entries have the same name. */
NC_KEEP nc_attr *nc_attr_dictionary(nc_context *ctx, size_t n, const nc_named_attr *entries);
/** The empty dictionary. */
NC_KEEP nc_attr *nc_attr_empty_dictionary(nc_context *ctx);
/** Type attribute. */
NC_KEEP nc_attr *nc_attr_type(nc_context *ctx, nc_type *type);
/** Symbol reference `@root::@n1::@n2`. */
NC_KEEP nc_attr *nc_attr_symbol_ref(nc_context *ctx, nc_ident *root, size_t n_nested, nc_ident *const *nested);
/** Dense elements of a statically shaped tensor or vector type. `data` holds
 * either all elements (row-major, element storage: 1 byte for i1..i8 and for
 * sub-byte types, 2 for i16/f16/bf16, 4, 8) or exactly one element (a
 * splat). Returns NULL if the size matches neither. Bytes are copied. */
NC_KEEP nc_attr *nc_attr_dense_elements(nc_context *ctx, nc_type *type, const void *data, size_t nbytes);
/** Like nc_attr_dense_elements but takes a malloc'ed buffer (freed at once
 * if an equal attribute already exists). */
NC_KEEP nc_attr *nc_attr_dense_elements_owned(nc_context *ctx, nc_type *type, NC_TAKE void *data, size_t nbytes);
/** `dense_resource<name> : type` referencing a context resource. */
NC_KEEP nc_attr *nc_attr_dense_resource(nc_context *ctx, nc_type *type, nc_resource *res);
/** A dialect attribute `#dialect.body` kept as text (see nc_type_opaque for
 * which bodies print as `#dialect<body>`). */
NC_KEEP nc_attr *nc_attr_opaque(nc_context *ctx, nc_ident *dialect, const char *body, size_t len);
/** A builtin attribute kept as text: `keyword<body>` for affine_map, affine_set, strided. */
NC_KEEP nc_attr *nc_attr_builtin_opaque(nc_context *ctx, nc_ident *keyword, const char *body, size_t len);

/** The attribute's kind. */
nc_attr_kind nc_attr_get_kind(NC_KEEP const nc_attr *a);
/** The context that owns the attribute. */
NC_KEEP nc_context *nc_attr_get_context(NC_KEEP const nc_attr *a);
/** The type of typed attributes (integer, float, dense, type attr's value
 * for NC_ATTR_TYPE, element type for dense arrays); NULL otherwise. */
NC_KEEP nc_type *nc_attr_get_type(NC_KEEP const nc_attr *a);
/** True for locations. */
bool nc_attr_is_location(NC_KEEP const nc_attr *a);

/** Integer value, sign-extended per the type (zero-extended for unsigned). */
int64_t nc_attr_get_int(NC_KEEP const nc_attr *a);
/** Float value as a double. */
double nc_attr_get_float(NC_KEEP const nc_attr *a);
/** Raw bits of a float attribute in its type's format. */
uint64_t nc_attr_get_float_bits(NC_KEEP const nc_attr *a);
/** Bytes of a string attribute (NUL-terminated for convenience). */
NC_KEEP const char *nc_attr_get_string(NC_KEEP const nc_attr *a, size_t *len);
/** True if a is a string attribute equal to the NUL-terminated `s`. */
bool nc_attr_is_string_eq(NC_KEEP const nc_attr *a, const char *s);
/** Number of elements of an array, dense array or dictionary. */
size_t nc_attr_get_num_elements(NC_KEEP const nc_attr *a);
/** Element i of an array attribute. */
NC_KEEP nc_attr *nc_attr_get_element(NC_KEEP const nc_attr *a, size_t i);
/** Entry i of a dictionary (sorted by name). */
nc_named_attr nc_attr_get_entry(NC_KEEP const nc_attr *a, size_t i);
/** Dictionary lookup; NULL if absent. */
NC_KEEP nc_attr *nc_attr_dict_get(NC_KEEP const nc_attr *dict, NC_KEEP const nc_ident *name);
/** Dictionary lookup by string; NULL if absent. */
NC_KEEP nc_attr *nc_attr_dict_get_str(NC_KEEP const nc_attr *dict, const char *name);
/** A copy of `dict` with `name` set to `value` (removed if value is NULL).
 * `dict` may be NULL (empty). */
NC_KEEP nc_attr *nc_attr_dict_set(nc_context *ctx, NC_KEEP nc_attr *dict, nc_ident *name, nc_attr *value);
/** Element i of a dense array as int64 / double. */
int64_t nc_attr_dense_array_get_int(NC_KEEP const nc_attr *a, size_t i);
double nc_attr_dense_array_get_float(NC_KEEP const nc_attr *a, size_t i);
/** Raw storage of a dense array. */
NC_KEEP const void *nc_attr_dense_array_get_data(NC_KEEP const nc_attr *a);
/** The type held by a type attribute. */
NC_KEEP nc_type *nc_attr_get_type_value(NC_KEEP const nc_attr *a);
/** Root and nested references of a symbol reference. */
NC_KEEP nc_ident *nc_attr_symbol_ref_get_root(NC_KEEP const nc_attr *a);
size_t nc_attr_symbol_ref_get_num_nested(NC_KEEP const nc_attr *a);
NC_KEEP nc_ident *nc_attr_symbol_ref_get_nested(NC_KEEP const nc_attr *a, size_t i);
/** Raw element bytes of a dense elements attribute (one element if splat). */
NC_KEEP const void *nc_attr_dense_get_data(NC_KEEP const nc_attr *a, size_t *nbytes);
/** True if a dense elements attribute is a splat. */
bool nc_attr_dense_is_splat(NC_KEEP const nc_attr *a);
/** Element i (row-major) of a dense elements attribute, as int64 / double
 * (works for splats too). */
int64_t nc_attr_dense_get_int(NC_KEEP const nc_attr *a, int64_t i);
double nc_attr_dense_get_float(NC_KEEP const nc_attr *a, int64_t i);
/** Bytes per stored element of a dense element type (1 for i1..i8, i2, i4). */
size_t nc_dense_element_size(NC_KEEP const nc_type *elt);
/** The resource of a dense_resource attribute. */
NC_KEEP nc_resource *nc_attr_dense_resource_get(NC_KEEP const nc_attr *a);
/** The element data of a dense elements or dense_resource attribute and
 * whether it is a splat; NULL if a resource has no data or its size does
 * not match the type. */
NC_KEEP const void *nc_attr_elements_get_data(NC_KEEP const nc_attr *a, size_t *nbytes, bool *splat);
/** Dialect (or builtin keyword) and body text of an opaque attribute. */
NC_KEEP nc_ident *nc_attr_opaque_get_dialect(NC_KEEP const nc_attr *a);
NC_KEEP const char *nc_attr_opaque_get_body(NC_KEEP const nc_attr *a, size_t *len);

/* --- locations ------------------------------------------------------------ */

/** `loc(unknown)`. */
NC_KEEP nc_attr *nc_loc_unknown(nc_context *ctx);
/** `loc("file":line:col)`. */
NC_KEEP nc_attr *nc_loc_file(nc_context *ctx, nc_ident *file, unsigned line, unsigned col);
/** `loc("name")` or `loc("name"(child))`; child may be NULL (unknown). */
NC_KEEP nc_attr *nc_loc_name(nc_context *ctx, nc_ident *name, nc_attr *child);
/** `loc(callsite(callee at caller))`. */
NC_KEEP nc_attr *nc_loc_callsite(nc_context *ctx, nc_attr *callee, nc_attr *caller);
/** `loc(fused<metadata>[locs])`; metadata may be NULL. Canonical as in MLIR:
 * unknown locations are dropped, nested fused locations with the same
 * metadata are flattened, duplicates removed; with no metadata, no location
 * gives the unknown location and a single one gives itself. */
NC_KEEP nc_attr *nc_loc_fused(nc_context *ctx, size_t n, nc_attr *const *locs, nc_attr *metadata);
/** Fields of file locations. */
NC_KEEP nc_ident *nc_loc_get_file(NC_KEEP const nc_attr *loc);
unsigned nc_loc_get_line(NC_KEEP const nc_attr *loc);
unsigned nc_loc_get_col(NC_KEEP const nc_attr *loc);
/** Name and child of a name location. */
NC_KEEP nc_ident *nc_loc_get_name(NC_KEEP const nc_attr *loc);
NC_KEEP nc_attr *nc_loc_get_child(NC_KEEP const nc_attr *loc);
/** Callee and caller of a callsite location. */
NC_KEEP nc_attr *nc_loc_get_callee(NC_KEEP const nc_attr *loc);
NC_KEEP nc_attr *nc_loc_get_caller(NC_KEEP const nc_attr *loc);
/** Locations and metadata of a fused location. */
size_t nc_loc_get_num_fused(NC_KEEP const nc_attr *loc);
NC_KEEP nc_attr *nc_loc_get_fused(NC_KEEP const nc_attr *loc, size_t i);
NC_KEEP nc_attr *nc_loc_get_metadata(NC_KEEP const nc_attr *loc);

/** A location handle: either a location attribute or a compact position in a
 * source buffer registered with the context (what the parser records for
 * every op, so a million ops do not need a million location attributes).
 * The zero value is the unknown location. */
typedef struct nc_location {
  uintptr_t raw;
} nc_location;

/** The unknown location. */
nc_location nc_location_unknown(void);
/** A handle for a location attribute (NULL gives the unknown location). */
nc_location nc_location_from_attr(NC_KEEP nc_attr *loc);
/** A handle for byte `offset` of source buffer `source_id`. */
nc_location nc_location_from_source(unsigned source_id, size_t offset);
/** True for the unknown location. */
bool nc_location_is_unknown(nc_location loc);
/** The location as an attribute (source positions become `loc("file":l:c)`). */
NC_KEEP nc_attr *nc_location_get_attr(nc_context *ctx, nc_location loc);
/** The first file:line:col inside the location (looking through name,
 * callsite and fused locations); false if there is none. */
bool nc_location_get_file_line_col(nc_context *ctx, nc_location loc, NC_KEEP nc_ident **file,
                                   unsigned *line, unsigned *col);
/** True if the two handles denote the same location. */
bool nc_location_equal(nc_context *ctx, nc_location a, nc_location b);

#endif
