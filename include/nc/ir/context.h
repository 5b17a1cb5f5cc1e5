/* context.h: the context that owns everything uniqued, and interned names.
 *
 * An nc_context owns identifiers, types, attributes, resource blobs, loaded
 * source buffers, registered dialects and the memory pool that operations,
 * blocks and regions are allocated from. Uniquing makes equality a pointer
 * comparison for identifiers, types and attributes. All uniquing functions
 * are thread-safe, so passes running in parallel may create types and
 * attributes; the IR itself (ops, blocks) is not synchronised: one thread
 * per isolated op at a time, as in MLIR.
 */
#ifndef NC_IR_CONTEXT_H
#define NC_IR_CONTEXT_H

#include "nc/support/base.h"

typedef struct nc_context nc_context;
typedef struct nc_ident nc_ident;
typedef struct nc_type nc_type;
typedef struct nc_attr nc_attr;
typedef struct nc_op nc_op;
typedef struct nc_value nc_value;
typedef struct nc_use nc_use;
typedef struct nc_block nc_block;
typedef struct nc_region nc_region;
typedef struct nc_op_def nc_op_def;
typedef struct nc_dialect_def nc_dialect_def;
typedef struct nc_dialect nc_dialect;
typedef struct nc_resource nc_resource;

/** Creates a context with the builtin dialect registered. */
NC_GIVE nc_context *nc_context_create(void);
/** Destroys the context and everything it owns: every type, attribute,
 * identifier, resource and every op/block/region allocated in it (whether or
 * not it was destroyed before). */
void nc_context_destroy(NC_TAKE nc_context *ctx);

/** Whether ops and types of dialects that are not registered are accepted
 * (mlir-opt's --allow-unregistered-dialect). Off by default. */
void nc_context_set_allow_unregistered_dialects(nc_context *ctx, bool allow);
/** See nc_context_set_allow_unregistered_dialects. */
bool nc_context_get_allow_unregistered_dialects(NC_KEEP nc_context *ctx);

/* --- identifiers ---------------------------------------------------------- */

/** Interns `len` bytes of `str` (need not be NUL-terminated). The same bytes
 * always give the same pointer. */
NC_KEEP nc_ident *nc_ident_get(nc_context *ctx, const char *str, size_t len);
/** Interns a NUL-terminated string. */
NC_KEEP nc_ident *nc_ident_get_cstr(nc_context *ctx, const char *str);
/** The identifier's NUL-terminated bytes. */
NC_KEEP const char *nc_ident_str(NC_KEEP const nc_ident *id);
/** The identifier's length in bytes. */
size_t nc_ident_len(NC_KEEP const nc_ident *id);
/** The identifier's precomputed hash. */
uint64_t nc_ident_hash(NC_KEEP const nc_ident *id);

/* --- dialects --------------------------------------------------------------- */

/** Registers a dialect (its ops, hooks and dependent dialects). Registering
 * the same definition twice is a no-op; returns false if another dialect
 * already uses the namespace. The definition must outlive the context. */
bool nc_context_register_dialect(nc_context *ctx, NC_KEEP const nc_dialect_def *def);
/** The registered dialect with this namespace, or NULL. */
NC_KEEP const nc_dialect_def *nc_context_lookup_dialect(nc_context *ctx, const char *ns, size_t len);
/** The definition of the registered op with this full name ("arith.addi"),
 * or NULL. */
NC_KEEP const nc_op_def *nc_context_lookup_op_def(nc_context *ctx, const char *name, size_t len);
/** Calls fn for every registered dialect, in registration order. */
void nc_context_foreach_dialect(nc_context *ctx, void (*fn)(NC_KEEP const nc_dialect_def *, void *), void *user);

/* --- resources (dense_resource blobs) ---------------------------------------- */

/** Creates a resource blob with a name unique in the context: `name_hint`
 * itself if free, else `name_hint_1`, `name_hint_2`, ... (characters that
 * cannot appear in a bare identifier become '_', since the textual form, in
 * MLIR too, keys resources by bare identifiers). The bytes are copied;
 * `alignment` is the blob's required alignment (a power of two, >= 1). */
NC_KEEP nc_resource *nc_resource_create(nc_context *ctx, const char *name_hint,
                                        const void *data, size_t size, uint32_t alignment);
/** Like nc_resource_create but takes ownership of a malloc'ed buffer. */
NC_KEEP nc_resource *nc_resource_create_owned(nc_context *ctx, const char *name_hint,
                                              NC_TAKE void *data, size_t size, uint32_t alignment);
/** How a resource lets go of bytes it borrowed (nc_resource_create_borrowed):
 * called once with the `user` pointer, the data and the size it was given. */
typedef void (*nc_resource_release_fn)(void *user, const void *data, size_t size);
/** Like nc_resource_create but borrows `data` instead of copying it, as MLIR's
 * AsmResourceBlob with a deleter does: the bytes must stay valid and
 * unchanged until the resource lets go of them, and they are never written.
 * It lets go when its data is dropped (nc_resource_drop_data) or replaced,
 * or when the context is destroyed, by calling `release(user, data, size)`
 * (release may be NULL: nothing to do). If `data` is not aligned to
 * `alignment`, the bytes are copied at once and released at once, so every
 * resource's data honours its alignment. */
NC_KEEP nc_resource *nc_resource_create_borrowed(nc_context *ctx, const char *name_hint, NC_KEEP const void *data,
                                                 size_t size, uint32_t alignment, nc_resource_release_fn release,
                                                 void *user);
/** True if the resource's bytes are borrowed (nc_resource_create_borrowed) and
 * not yet let go of. */
bool nc_resource_is_borrowed(NC_KEEP const nc_resource *r);
/** The resource named `name`, or NULL. */
NC_KEEP nc_resource *nc_resource_lookup(nc_context *ctx, const char *name, size_t len);
/** The resource's unique name. */
NC_KEEP nc_ident *nc_resource_get_name(NC_KEEP const nc_resource *r);
/** The blob's bytes, or NULL if the resource was referenced but never given data. */
NC_KEEP const void *nc_resource_get_data(NC_KEEP const nc_resource *r);
/** The blob's size in bytes. */
size_t nc_resource_get_size(NC_KEEP const nc_resource *r);
/** The blob's alignment. */
uint32_t nc_resource_get_alignment(NC_KEEP const nc_resource *r);
/** Frees the blob's bytes (or lets go of borrowed ones); its name stays
 * taken, and it then reads as a resource never given data. Only for a resource nothing refers to any more
 * (see nc_context_set_resources_releasable). */
void nc_resource_drop_data(NC_KEEP nc_resource *r);
/** Declares that the only IR referring to the context's resources is what
 * passes run on (one module, as in nc-compile), so a pass that erases the
 * last op using a resource may release its bytes. Off by default: a context
 * may hold other modules, or attributes its callers keep. */
void nc_context_set_resources_releasable(nc_context *ctx, bool releasable);
/** Whether nc_context_set_resources_releasable turned releasing on. */
bool nc_context_get_resources_releasable(NC_KEEP const nc_context *ctx);

/* --- source buffers ----------------------------------------------------------- */

/** Registers a source buffer under a file name so diagnostics can show its
 * lines. The context does not copy `data`: the caller keeps it alive as long
 * as the context. Returns the buffer id. */
unsigned nc_context_add_source(nc_context *ctx, const char *filename, const char *data, size_t len);
/** Like nc_context_add_source, but the context takes the malloc'ed `data`
 * and frees it when destroyed. */
unsigned nc_context_add_source_owned(nc_context *ctx, const char *filename, NC_TAKE char *data, size_t len);
/** Reads a whole file (or stdin for "-") into a new source buffer. Returns
 * false and sets errno-style message in `err` on failure. */
bool nc_context_load_file(nc_context *ctx, const char *path, unsigned *id, char *err, size_t errlen);
/** The buffer's bytes and length. */
NC_KEEP const char *nc_context_get_source(nc_context *ctx, unsigned id, size_t *len);
/** The buffer's file name. */
NC_KEEP nc_ident *nc_context_get_source_name(nc_context *ctx, unsigned id);
/** The source buffer (by name) from which the parser read the whole-file
 * location `"file":0:0`, NULL if it read none (or only from `file` itself).
 * IR printed with its locations keeps the ONNX model's file as the
 * location of its function; tools report it at the IR file they read. */
NC_KEEP nc_ident *nc_context_get_whole_file_reader(nc_context *ctx, NC_KEEP nc_ident *file);
/** Converts a byte offset in a source buffer to a 1-based line and column. */
void nc_context_get_line_col(nc_context *ctx, unsigned id, size_t offset, unsigned *line, unsigned *col);
/** Finds the buffer registered under `filename`, if any. */
bool nc_context_find_source(nc_context *ctx, const char *filename, size_t len, unsigned *id);

/* --- memo of passed checks ------------------------------------------------ */

/** Records that a pure, costly check of the uniqued object `key` (an
 * attribute or type of this context, which lives as long as it) passed, so
 * a verifier that runs after every pass can skip it next time: the dataflow
 * dialect checks a node's isl relations once per distinct set of relations
 * and types, not once per pass. Thread-safe. */
void nc_context_note_check_passed(nc_context *ctx, NC_KEEP const void *key);
/** Whether nc_context_note_check_passed recorded `key`. Thread-safe. */
bool nc_context_check_passed(nc_context *ctx, NC_KEEP const void *key);

/** Records `value`, a costly pure function of the uniqued object `key` (an
 * attribute or type of this context), under `kind` (the address of a static
 * object of the caller, which tells users of one key apart): the core
 * verifier counts a node's iterations once per distinct domain, not after
 * every pass. Recording a (key, kind) again replaces its value. Thread-safe. */
void nc_context_note_fact(nc_context *ctx, NC_KEEP const void *key, const void *kind, int64_t value);
/** Whether nc_context_note_fact recorded (key, kind); if so, *value is its
 * value. Thread-safe. */
bool nc_context_get_fact(nc_context *ctx, NC_KEEP const void *key, const void *kind, int64_t *value);

#endif
