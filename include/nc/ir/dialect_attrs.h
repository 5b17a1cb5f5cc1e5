/* dialect_attrs.h: attributes and types that dialects define with real
 * storage (MLIR's AttrDef / TypeDef with parameters).
 *
 * A dialect lists static nc_dialect_attr_def / nc_dialect_type_def tables in
 * its nc_dialect_def, as it lists its ops. Each names a mnemonic (`set` for
 * `#dataflow.set<...>`), the size of a C storage struct, and hooks over that
 * storage: parse (the text after the mnemonic, through the nc_asm_parser API
 * of asm.h, so nested types/attributes and diagnostics at file:line:col come
 * for free), print, verify, hash, equal, copy and destroy. The context
 * uniques attributes and types by their storage, so equality stays `==`.
 *
 * The short way: a struct whose fields are listed as nc_dialect_param rows
 * (name, kind, offsetof) needs no hooks at all: it parses and prints as
 * `#dialect.mnemonic<key = value, ...>` and hashes and compares field by
 * field. Unregistered dialects and unknown mnemonics stay opaque text
 * (NC_ATTR_OPAQUE / NC_TYPE_OPAQUE), so foreign IR still round-trips.
 */
#ifndef NC_IR_DIALECT_ATTRS_H
#define NC_IR_DIALECT_ATTRS_H

#include "nc/ir/asm.h"
#include "nc/support/arena.h"

/** The kinds of fields a parameter row can describe. */
typedef enum nc_dialect_param_kind {
  NC_PARAM_I64,    /* int64_t, written as an integer literal */
  NC_PARAM_I32,    /* int32_t, range-checked */
  NC_PARAM_BOOL,   /* bool, `true` / `false` */
  NC_PARAM_F64,    /* double, a float or integer literal */
  NC_PARAM_STRING, /* nc_ident * (interned, so compared by pointer), a string literal */
  NC_PARAM_ATTR,   /* nc_attr *, any attribute */
  NC_PARAM_TYPE,   /* nc_type *, any type */
} nc_dialect_param_kind;

/** One `key = value` parameter: a field of the storage struct. */
typedef struct nc_dialect_param {
  const char *name;            /* the key */
  nc_dialect_param_kind kind;
  size_t offset;               /* offsetof(storage struct, field) */
  bool optional;               /* may be left out: the field stays zero and is not printed while zero */
  const char *summary;         /* one line, for the docs */
} nc_dialect_param;

/** A dialect attribute or type definition (both have the same shape; the
 * typedefs nc_dialect_attr_def and nc_dialect_type_def say which table it is
 * in). Every hook gets `user_data` last. Hooks left NULL have defaults:
 * parse/print use `params`, hash/equal use `params` or else the storage's
 * bytes (then the struct must have no padding, or zeroed padding), copy is
 * a byte copy, destroy does nothing. */
struct nc_dialect_storage_def {
  const char *mnemonic;        /* e.g. "set" for #dataflow.set<...> */
  const char *summary;         /* one line, for the docs */
  const char *description;     /* Markdown, for the docs */
  size_t storage_size;         /* bytes of the storage struct */
  const nc_dialect_param *params; size_t n_params; /* optional `<key = value, ...>` fields */
  /** Parses the text after the mnemonic (usually `<...>`; it may be empty)
   * into `storage` (zero-filled, storage_size bytes). Report errors with
   * nc_asm_parser_error at nc_asm_parser_get_loc. On failure `destroy` is
   * still called on the storage, so leave it consistent. */
  bool (*parse)(nc_asm_parser *p, void *storage, void *user_data);
  /** Prints the text after the mnemonic: nothing, or `<...>` with balanced
   * brackets (what MLIR's pretty dialect syntax accepts). */
  void (*print)(nc_asm_printer *p, NC_KEEP const void *storage, void *user_data);
  /** Checks the parameters; emits errors at `loc` and returns false if bad.
   * Runs when parsing and in nc_attr_dialect_checked / nc_type_dialect_checked. */
  bool (*verify)(nc_context *ctx, nc_location loc, NC_KEEP const void *storage, void *user_data);
  /** Hash and equality of storages (equal storages must hash equal). */
  uint64_t (*hash)(NC_KEEP const void *storage, void *user_data);
  bool (*equal)(NC_KEEP const void *a, NC_KEEP const void *b, void *user_data);
  /** Makes the context's copy of a key: `dst` already holds a byte copy of
   * `src`; deep-copy what the storage points to, from `arena` (the context's,
   * freed with it) or malloc (then free it in destroy). Runs under the
   * context's uniquing lock: it must not create types or attributes. */
  void (*copy)(nc_arena *arena, void *dst, NC_KEEP const void *src, void *user_data);
  /** Releases what a storage owns (not the storage itself): for the context's
   * copies when it is destroyed, and for the storages the parser fills. */
  void (*destroy)(void *storage, void *user_data);
  void *user_data;
};

/* --- attributes ------------------------------------------------------------- */

/** The uniqued attribute `#dialect.mnemonic...` of `def` with parameters
 * `storage` (borrowed: the context keeps its own copy, made with def->copy).
 * The dialect whose `attrs` table holds `def` must be registered in `ctx`;
 * NULL otherwise. No verification (see nc_attr_dialect_checked). */
NC_KEEP nc_attr *nc_attr_dialect(nc_context *ctx, NC_KEEP const nc_dialect_attr_def *def, NC_KEEP const void *storage);
/** Like nc_attr_dialect but takes ownership of what `storage` points to
 * (the struct's bytes are still copied): it becomes the context's copy if
 * the attribute is new, or is released with def->destroy if it exists. */
NC_KEEP nc_attr *nc_attr_dialect_owned(nc_context *ctx, NC_KEEP const nc_dialect_attr_def *def, NC_TAKE void *storage);
/** Like nc_attr_dialect, after def->verify (errors at `loc`); NULL if it fails. */
NC_KEEP nc_attr *nc_attr_dialect_checked(nc_context *ctx, nc_location loc, NC_KEEP const nc_dialect_attr_def *def,
                                         NC_KEEP const void *storage);
/** True if `a` is an attribute of `def` (false for NULL). */
bool nc_attr_isa(NC_KEEP const nc_attr *a, NC_KEEP const nc_dialect_attr_def *def);
/** The definition of a dialect attribute (NC_ATTR_DIALECT), else NULL. */
NC_KEEP const nc_dialect_attr_def *nc_attr_dialect_get_def(NC_KEEP const nc_attr *a);
/** The storage of a dialect attribute (the context's copy; do not modify). */
NC_KEEP const void *nc_attr_dialect_get_storage(NC_KEEP const nc_attr *a);
/** The namespace of a dialect attribute or of an opaque one. */
NC_KEEP nc_ident *nc_attr_dialect_get_namespace(NC_KEEP const nc_attr *a);

/* --- types ------------------------------------------------------------------ */

/** The uniqued type `!dialect.mnemonic...`; as nc_attr_dialect. */
NC_KEEP nc_type *nc_type_dialect(nc_context *ctx, NC_KEEP const nc_dialect_type_def *def, NC_KEEP const void *storage);
/** As nc_attr_dialect_owned. */
NC_KEEP nc_type *nc_type_dialect_owned(nc_context *ctx, NC_KEEP const nc_dialect_type_def *def, NC_TAKE void *storage);
/** As nc_attr_dialect_checked. */
NC_KEEP nc_type *nc_type_dialect_checked(nc_context *ctx, nc_location loc, NC_KEEP const nc_dialect_type_def *def,
                                         NC_KEEP const void *storage);
/** True if `t` is a type of `def` (false for NULL). */
bool nc_type_isa(NC_KEEP const nc_type *t, NC_KEEP const nc_dialect_type_def *def);
/** The definition of a dialect type (NC_TYPE_DIALECT), else NULL. */
NC_KEEP const nc_dialect_type_def *nc_type_dialect_get_def(NC_KEEP const nc_type *t);
/** The storage of a dialect type. */
NC_KEEP const void *nc_type_dialect_get_storage(NC_KEEP const nc_type *t);

/* --- `<key = value, ...>` helpers (the defaults, for hand-written hooks) ------ */

/** Parses `<key = value, ...>` into the fields of `storage`: keys in any
 * order, each at most once, every non-optional key present. */
bool nc_dialect_params_parse(nc_asm_parser *p, const nc_dialect_param *params, size_t n_params, void *storage);
/** Prints `<key = value, ...>` in table order (optional fields only if nonzero). */
void nc_dialect_params_print(nc_asm_printer *p, const nc_dialect_param *params, size_t n_params,
                             NC_KEEP const void *storage);
/** Field-by-field hash and equality over the parameter rows. */
uint64_t nc_dialect_params_hash(const nc_dialect_param *params, size_t n_params, NC_KEEP const void *storage);
bool nc_dialect_params_equal(const nc_dialect_param *params, size_t n_params, NC_KEEP const void *a,
                             NC_KEEP const void *b);

/** Writes the Markdown reference of a dialect's attribute or type
 * definitions (`## Attributes` / `## Types`; nothing if there are none). */
void nc_dialect_storage_defs_write_docs(const char *dialect, const char *sigil, const nc_dialect_storage_def *defs,
                                        size_t n, FILE *out);

#endif
