/* asm.h: reading and writing the textual IR, and the API for custom syntax.
 *
 * The parser reads MLIR's generic syntax, custom syntax declared by op
 * assembly formats, type/attribute aliases and the `{-# ... #-}` resource
 * section; the printer writes the same. Custom-syntax hooks (nc_op_def.parse
 * and .print, used by func.func) and the declarative-format engine are
 * written against the nc_asm_parser / nc_asm_printer functions below, in the
 * spirit of MLIR's OpAsmParser / OpAsmPrinter.
 */
#ifndef NC_IR_ASM_H
#define NC_IR_ASM_H

#include <stdio.h>

#include "nc/ir/ods.h"

/* --- parsing whole files ------------------------------------------------------ */

/** Parses `len` bytes as a file called `filename` (registered with the context
 * for diagnostics). Returns the top-level builtin.module (the file's single
 * module op, or a new module wrapping the file's top-level ops), owned by the
 * caller, or NULL after emitting diagnostics. The result is not verified. */
NC_GIVE nc_op *nc_parse_string(nc_context *ctx, const char *data, size_t len, const char *filename);
/** Parses a file ("-" for stdin). */
NC_GIVE nc_op *nc_parse_file(nc_context *ctx, const char *path);
/** Parses bytes [start, end) of a registered source buffer (used for
 * --split-input-file, so that locations point into the whole file). */
NC_GIVE nc_op *nc_parse_source_range(nc_context *ctx, unsigned source_id, size_t start, size_t end);
/** Parses a type from a string; NULL (with a diagnostic) on error. */
NC_KEEP nc_type *nc_parse_type(nc_context *ctx, const char *str);
/** Parses an attribute from a string; NULL (with a diagnostic) on error. */
NC_KEEP nc_attr *nc_parse_attr(nc_context *ctx, const char *str);

/** The external resources (`{-# external_resources: { key: {...} } #-}`) seen
 * by the last parse in this context: value of entry `entry` under `key`, as an
 * attribute (strings, booleans, integers), or NULL. Used by --run-reproducer. */
NC_KEEP nc_attr *nc_context_get_external_resource(nc_context *ctx, const char *key, const char *entry);

/* --- printing ---------------------------------------------------------------------- */

/** Printing options, named after mlir-opt's flags. */
typedef struct nc_print_flags {
  bool generic;                 /* --mlir-print-op-generic */
  bool debuginfo;               /* --mlir-print-debuginfo */
  bool local_scope;             /* --mlir-print-local-scope: locations inline */
  bool skip_regions;            /* print ops without their regions */
  int64_t elide_elements_larger;/* --mlir-elide-elementsattrs-if-larger (0: never) */
  int64_t hex_threshold;        /* dense elements with more elements print as hex (0: default 100) */
} nc_print_flags;

/** Prints an op (with its nested ops) and, at the top level, the resource
 * section and location aliases. Values are numbered from the nearest
 * isolated-from-above ancestor, so printing a function nested in a module
 * gives the same names as printing the module. */
void nc_op_print(NC_KEEP nc_op *op, FILE *out, NC_KEEP const nc_print_flags *flags);
/** Same, into a malloc'ed NUL-terminated string. */
NC_GIVE char *nc_op_print_to_string(NC_KEEP nc_op *op, NC_KEEP const nc_print_flags *flags, size_t *len);
/** Prints a type / attribute. */
void nc_type_print(NC_KEEP const nc_type *t, FILE *out);
void nc_attr_print(NC_KEEP const nc_attr *a, FILE *out);
/** Prints into a malloc'ed string. */
NC_GIVE char *nc_type_to_string(NC_KEEP const nc_type *t);
NC_GIVE char *nc_attr_to_string(NC_KEEP const nc_attr *a);

/* --- custom syntax: parser side ------------------------------------------------------ */

/** An operand reference parsed before its type is known (`%x`, `%x#1`). */
typedef struct nc_asm_operand {
  const char *name;    /* points into the source, without the % */
  size_t len;
  unsigned number;     /* the #N suffix, 0 if none */
  nc_location loc;
} nc_asm_operand;

/** A value definition with an optional type, attributes and location, as in
 * function signatures `%arg0: i32 {attr} loc(...)`. */
typedef struct nc_asm_argument {
  nc_asm_operand ssa;
  nc_type *type;
  nc_attr *attrs;      /* dictionary or NULL */
  nc_location loc;     /* explicit loc(...) or the argument's position */
} nc_asm_argument;

/** The context the parser creates IR in. */
NC_KEEP nc_context *nc_asm_parser_get_context(nc_asm_parser *p);
/** Location of the next token. */
nc_location nc_asm_parser_get_loc(nc_asm_parser *p);
/** Emits an error at `loc`; returns false. */
bool nc_asm_parser_error(nc_asm_parser *p, nc_location loc, const char *fmt, ...) NC_PRINTF(3, 4);
/** Punctuation: "(", ")", "{", "}", "[", "]", "<", ">", ",", ":", "=", "->", "?", "*", "+", "...", "|". */
bool nc_asm_parse_optional_punct(nc_asm_parser *p, const char *punct);
bool nc_asm_parse_punct(nc_asm_parser *p, const char *punct);
/** Keywords (bare identifiers). */
bool nc_asm_parse_optional_keyword(nc_asm_parser *p, const char *kw);
bool nc_asm_parse_keyword(nc_asm_parser *p, const char *kw);
/** Parses any bare identifier into *out (pointing into the source). */
bool nc_asm_parse_optional_any_keyword(nc_asm_parser *p, const char **out, size_t *len);
/** Parses a string literal (escapes processed) into an attribute. */
bool nc_asm_parse_optional_string(nc_asm_parser *p, nc_attr **out);
/** Parses a string literal (escapes processed) into an attribute; an error if absent. */
bool nc_asm_parse_string(nc_asm_parser *p, nc_attr **out);
/** Parses a (possibly negative) float or integer literal as a double. */
bool nc_asm_parse_float(nc_asm_parser *p, double *out);
/** Parses a (possibly negative) integer literal. */
bool nc_asm_parse_optional_integer(nc_asm_parser *p, int64_t *out, bool *present);
bool nc_asm_parse_integer(nc_asm_parser *p, int64_t *out);
/** Types and attributes. `type_hint` (may be NULL) types bare number
 * literals, which then take no `: type` suffix (as in MLIR). */
bool nc_asm_parse_type(nc_asm_parser *p, nc_type **out);
bool nc_asm_parse_optional_type(nc_asm_parser *p, nc_type **out, bool *present);
bool nc_asm_parse_attr(nc_asm_parser *p, nc_type *type_hint, nc_attr **out);
bool nc_asm_parse_optional_attr(nc_asm_parser *p, nc_type *type_hint, nc_attr **out, bool *present);
/** `{k = v, ...}` if present; *out is NULL when absent. */
bool nc_asm_parse_optional_attr_dict(nc_asm_parser *p, nc_attr **out);
/** `attributes {k = v}` if present. */
bool nc_asm_parse_optional_attr_dict_with_keyword(nc_asm_parser *p, nc_attr **out);
/** `@name` or `@"name"` into a string attribute. */
bool nc_asm_parse_symbol_name(nc_asm_parser *p, nc_attr **out);
bool nc_asm_parse_optional_symbol_name(nc_asm_parser *p, nc_attr **out, bool *present);
/** `%name` / `%name#N` operand references. */
bool nc_asm_parse_operand(nc_asm_parser *p, nc_asm_operand *out);
bool nc_asm_parse_optional_operand(nc_asm_parser *p, nc_asm_operand *out, bool *present);
/** Resolves an operand reference to a value of `type` (creating a forward
 * reference if it is defined later). */
bool nc_asm_resolve_operand(nc_asm_parser *p, const nc_asm_operand *ref, nc_type *type, nc_value **out);
/** A value definition `%name` with `: type` (if with_type), optional
 * attribute dict (if with_attrs) and optional trailing `loc(...)`. */
bool nc_asm_parse_argument(nc_asm_parser *p, bool with_type, bool with_attrs, nc_asm_argument *out);
bool nc_asm_parse_optional_argument(nc_asm_parser *p, bool with_type, bool with_attrs, nc_asm_argument *out, bool *present);
/** Parses a `{ ... }` region into `r`; `args` become the entry block's
 * arguments (then the entry block may not have a label). `isolated` hides
 * names defined outside (IsolatedFromAbove ops). */
bool nc_asm_parse_region(nc_asm_parser *p, nc_region *r, size_t n_args, const nc_asm_argument *args, bool isolated);
bool nc_asm_parse_optional_region(nc_asm_parser *p, nc_region *r, size_t n_args, const nc_asm_argument *args,
                                  bool isolated, bool *present);
/** Parses a `^bb` successor reference. */
bool nc_asm_parse_successor(nc_asm_parser *p, nc_block **out);
bool nc_asm_parse_optional_successor(nc_asm_parser *p, nc_block **out, bool *present);
/** Optional trailing `loc(...)`; *out unchanged when absent. */
bool nc_asm_parse_optional_location(nc_asm_parser *p, nc_location *out);
/** The op name being parsed and its definition. */
NC_KEEP const nc_op_def *nc_asm_parser_get_op_def(nc_asm_parser *p);

/* The op under construction while a custom parser runs. */
/** Appends operands. */
void nc_op_builder_add_operands(nc_op_builder *b, size_t n, nc_value *const *vals);
/** Appends result types. */
void nc_op_builder_add_result_types(nc_op_builder *b, size_t n, nc_type *const *types);
/** Sets an attribute (inherent ones go to properties). */
void nc_op_builder_set_attr(nc_op_builder *b, const char *name, nc_attr *value);
/** Merges a parsed attribute dictionary. */
void nc_op_builder_merge_attr_dict(nc_op_builder *b, NC_KEEP nc_attr *dict);
/** Adds a region and returns it, to be parsed into. */
NC_KEEP nc_region *nc_op_builder_add_region(nc_op_builder *b);
/** Appends a successor. */
void nc_op_builder_add_successor(nc_op_builder *b, nc_block *succ);
/** The number of result values the op was written with (`%a, %b = ...`). */
size_t nc_op_builder_get_num_result_names(nc_op_builder *b);

/* --- custom syntax: printer side -------------------------------------------------------- */

/** Raw text. */
void nc_asm_print(nc_asm_printer *p, const char *s);
void nc_asm_printn(nc_asm_printer *p, const char *s, size_t n);
void nc_asm_printf(nc_asm_printer *p, const char *fmt, ...) NC_PRINTF(2, 3);
/** A type / attribute, as written anywhere. */
void nc_asm_print_type(nc_asm_printer *p, NC_KEEP const nc_type *t);
void nc_asm_print_attr(nc_asm_printer *p, NC_KEEP const nc_attr *a);
/** An integer/float attribute without its `: type`. */
void nc_asm_print_attr_without_type(nc_asm_printer *p, NC_KEEP const nc_attr *a);
/** A value's name (`%0`, `%arg1`, `%3#1`). */
void nc_asm_print_operand(nc_asm_printer *p, NC_KEEP const nc_value *v);
/** A block argument definition `%arg0: type` plus attributes and location. */
void nc_asm_print_argument(nc_asm_printer *p, NC_KEEP const nc_value *v, NC_KEEP nc_attr *attrs);
/** A successor `^bb1`. */
void nc_asm_print_successor(nc_asm_printer *p, NC_KEEP const nc_block *b);
/** `@name`, quoted if needed. */
void nc_asm_print_symbol_name(nc_asm_printer *p, const char *name, size_t len);
/** A string literal with escapes. */
void nc_asm_print_string(nc_asm_printer *p, const char *s, size_t len);
/** ` {k = v}` for a dictionary minus the elided names (nothing if all elided). */
void nc_asm_print_optional_attr_dict(nc_asm_printer *p, NC_KEEP nc_attr *dict, size_t n_elided,
                                     const char *const *elided);
/** Same with the `attributes` keyword. */
void nc_asm_print_optional_attr_dict_with_keyword(nc_asm_printer *p, NC_KEEP nc_attr *dict, size_t n_elided,
                                                  const char *const *elided);
/** A region in braces; entry block arguments are printed only if
 * `print_entry_args`; empty blocks print nothing between the braces. */
void nc_asm_print_region(nc_asm_printer *p, NC_KEEP nc_region *r, bool print_entry_args, bool print_empty_block);
/** A trailing ` loc(...)` if debug info is on. */
void nc_asm_print_optional_location(nc_asm_printer *p, nc_location loc);
/** The flags the printer runs with. */
NC_KEEP const nc_print_flags *nc_asm_printer_get_flags(nc_asm_printer *p);

#endif
