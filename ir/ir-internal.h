/* ir-internal.h: data layout of the IR, shared by the files of ir/ only.
 *
 * Public code sees handles (the headers in include/nc/ir); the layouts live here so the
 * parser, printer and verifier can be fast. An op is one pool allocation:
 *   [nc_op][results: nc_value x n][operands: nc_use x cap][regions][successors]
 * so results find their op by pointer arithmetic and a typical op with two
 * operands and one result takes under 200 bytes.
 */
#ifndef NC_IR_INTERNAL_H
#define NC_IR_INTERNAL_H

#include <pthread.h>
#include <stdarg.h>

#include "nc/ir/asm.h"
#include "nc/ir/diag.h"
#include "nc/ir/dialect_attrs.h"
#include "nc/ir/ods.h"
#include "nc/ir/symbol.h"
#include "nc/support/arena.h"
#include "nc/support/hash.h"

typedef struct nc_op_info nc_op_info;

struct nc_ident {
  uint64_t hash;
  nc_op_info *op_info; /* set once the name is used as an op name */
  uint32_t len;
  char str[];
};

struct nc_type {
  uint8_t kind;
  uint8_t signedness;
  uint32_t width;
  uint64_t hash;
  nc_context *ctx;
  union {
    struct { uint32_t n_inputs, n_results; nc_type **types; } func; /* inputs then results */
    struct { uint32_t rank; int64_t *shape; nc_type *elt; nc_attr *encoding; nc_attr *space; } shaped;
    struct { uint32_t n; nc_type **types; } tuple;
    struct { nc_type *elt; } complex;
    struct { nc_ident *dialect; const char *body; size_t len; } opaque;
    struct { nc_ident *dialect; const nc_dialect_storage_def *def; void *storage; } defined; /* NC_TYPE_DIALECT */
  };
};

struct nc_resource {
  nc_ident *name;
  void *data;          /* malloc'ed, borrowed (release set), or NULL until defined */
  size_t size;
  nc_resource_release_fn release; /* borrowed bytes: called (if set) once when they are let go */
  void *release_user;
  bool borrowed;       /* data is not malloc'ed: let go of through release, never freed */
  uint32_t alignment;
  uint32_t parse_id;   /* the parse that defined/declared it (name reuse across parses) */
};

struct nc_attr {
  uint8_t kind;
  uint8_t splat;      /* dense elements */
  uint16_t ctx_id;    /* the context, by its id (nc_context_by_id): 40 bytes an attribute, not 48 */
  uint32_t hash;      /* the uniquing hash's low bits (attributes have no 8-byte hash header) */
  nc_type *type;
  union {
    int64_t i;
    uint64_t fbits;
    struct { const char *s; size_t len; } str;
    struct { size_t n; nc_attr **elts; } array;
    struct { size_t n; nc_named_attr *entries; } dict;
    struct { size_t n; const void *data; } darray;
    struct { nc_ident *root; size_t n; nc_ident **nested; } symref;
    struct { const void *data; size_t nbytes; } dense;
    nc_resource *res;
    struct { nc_ident *dialect; const char *body; size_t len; } opaque;
    struct { nc_ident *dialect; const nc_dialect_storage_def *def; void *storage; } defined; /* NC_ATTR_DIALECT */
    struct { nc_ident *file; unsigned line, col; } floc;
    struct { nc_ident *name; nc_attr *child; } nloc;
    struct { nc_attr *callee, *caller; } cloc;
    struct { size_t n; nc_attr **locs; nc_attr *meta; } fused;
  };
};

_Static_assert(offsetof(nc_attr, hash) == 4 && sizeof(nc_attr) == 40, "nc_attr keeps its hash at byte 4 (context.c)");

/* Per-op-name information, created the first time a name is seen. */
struct nc_op_info {
  nc_context *ctx;
  nc_ident *name;
  const nc_op_def *def;            /* NULL for unregistered ops */
  const nc_dialect_def *dialect;   /* NULL if the dialect is not registered */
  nc_ident **attr_names;           /* interned names of def->attrs */
  nc_ident *default_dialect;
  void *format;                    /* compiled assembly format (asm_format.c) */
  bool format_failed;
  nc_attr *default_props;           /* default-valued attributes (ods.h default_value), parsed once */
  int defaults_state;              /* 0: not parsed yet, 1: parsed */
  uint64_t traits;
  size_t epoch;                    /* ctx->n_dialects when def/dialect were looked up */
};

struct nc_use {
  nc_value *value;
  nc_use *next;
  nc_use **prev; /* the pointer that points at this use */
  nc_op *owner;
};

#define NC_VALUE_ARG 1u
struct nc_value {
  nc_type *type;
  nc_use *first_use;
  uint32_t bits;      /* index << 1 | NC_VALUE_ARG */
  uint32_t print_id;  /* scratch for the printer */
};

typedef struct nc_block_arg {
  nc_value v;
  nc_block *block;
  nc_location loc;
} nc_block_arg;

struct nc_block_use {
  nc_block *block;
  nc_block_use *next;
  nc_block_use **prev;
  nc_op *owner;
};

struct nc_region {
  nc_block *first, *last;
  nc_op *op;
};

struct nc_block {
  nc_context *ctx;
  nc_block *prev, *next;
  nc_region *region;
  nc_op *first, *last;
  nc_block_arg **args;
  uint32_t n_args, cap_args;
  nc_block_use *first_use;
  bool order_valid;
  uint32_t print_id;
};

#define NC_OP_OPERANDS_SEPARATE 1u /* operands live in their own allocation */
#define NC_OP_IN_WORKLIST 2u       /* greedy driver: queued */
#define NC_OP_ERASED 4u            /* greedy driver: erased, memory freed later */
#define NC_OP_KNOWN_CONSTANT 8u    /* greedy driver: deduplicated constant */
struct nc_op {
  nc_op *prev, *next;
  nc_block *block;
  nc_op_info *info;
  nc_location loc;
  nc_attr *attrs;      /* discardable dictionary, NULL when empty */
  nc_attr *props;
  nc_use *operands;    /* the inline slots after the results, or a heap array once grown */
  uint32_t n_operands, cap_operands;
  uint32_t inline_operands; /* operand slots inside the op's own allocation */
  uint32_t n_results;
  uint32_t order;      /* position in block for is_before_in_block */
  uint16_t n_regions;
  uint8_t n_succs;
  uint8_t flags;
};

/* An op is one allocation: the nc_op, its results, its inline operand slots,
 * its regions, its successors. Regions and successors are found from the
 * counts rather than stored as pointers (16 bytes an op saved). */
static inline nc_value *nc_op_results(const nc_op *op) { return (nc_value *)(op + 1); }
static inline nc_region *nc_op_regions(const nc_op *op)
{
  return (nc_region *)((nc_use *)(nc_op_results(op) + op->n_results) + op->inline_operands);
}
static inline nc_block_use *nc_op_succs(const nc_op *op) { return (nc_block_use *)(nc_op_regions(op) + op->n_regions); }
static inline nc_op *nc_result_owner(const nc_value *v)
{
  return (nc_op *)((const char *)(v - (v->bits >> 1)) - sizeof(nc_op));
}

/* --- context internals --------------------------------------------------------------- */

typedef struct nc_source {
  nc_ident *name;
  const char *data;
  size_t len;
  bool owned, mapped;
  uint32_t *lines;  /* offsets of line starts, built lazily */
  size_t n_lines;
} nc_source;

typedef struct nc_uniq_table {
  void **slots;
  size_t cap, count;
  /* Objects keep the low 32 bits of their hash at byte 4 (nc_attr's hash)
   * instead of in an 8-byte header: attributes are the most numerous. */
  bool hash_inline;
} nc_uniq_table;

typedef struct nc_pool nc_pool;
typedef struct nc_big_alloc nc_big_alloc;

typedef struct nc_handler_entry {
  nc_diag_handler fn;
  void *user;
  unsigned id;
} nc_handler_entry;

struct nc_context {
  pthread_mutex_t lock;
  nc_arena *arena;
  nc_uniq_table idents, types, attrs, resources;
  const nc_dialect_def **dialects;
  size_t n_dialects, cap_dialects;
  bool allow_unregistered;
  bool resources_releasable;

  nc_type *int_types[3][NC_MAX_INT_WIDTH + 1];
  nc_type *index_type, *f16, *bf16, *f32, *f64, *none;
  nc_attr *unit, *true_attr, *false_attr, *empty_dict, *unknown_loc;

  nc_source *sources;
  size_t n_sources, cap_sources;

  nc_handler_entry *handlers;
  size_t n_handlers, cap_handlers;
  unsigned next_handler_id;
  size_t num_errors;

  pthread_key_t pool_key;
  nc_pool *pools;
  nc_big_alloc *big_allocs;
  uint32_t next_parse_id;

  nc_attr *external_resources; /* dictionary key -> dictionary, from the last parse */
  struct { nc_ident *file, *source; } *whole_file_reads; /* see nc_context_get_whole_file_reader */
  uint16_t id;                 /* its slot in the table of live contexts (nc_context_by_id) */
  size_t n_whole_file_reads;
  struct { const void **slots; size_t count, cap; } checked; /* nc_context_check_passed's set */
  struct { struct nc_memo_slot *slots; size_t count, cap; } facts; /* nc_context_get_fact's table */
  struct nc_thread_pool *thread_pool; /* threading.c: started on first parallel use */
  bool threading_off;                 /* nc_context_enable_multithreading(false) */
  int num_threads;                    /* nc_context_set_num_threads (0: default) */
};

/* --- the context's thread pool (threading.c) --- */
typedef struct nc_thread_pool nc_thread_pool;
/* Runs fn(job) on the calling thread and n_threads - 1 workers of ctx's pool
 * (started or added as needed), each calling fn until the job has no items
 * left; returns when all have returned. On the calling thread alone when
 * n_threads <= 1, from inside a job, or while another thread's job runs. */
void nc_thread_pool_run(nc_context *ctx, size_t n_threads, void (*fn)(void *job), void *job);
/* Stops and joins the workers (the context's destruction). */
void nc_thread_pool_destroy(nc_thread_pool *p);
/* Whether the calling thread is running a job's function now. */
bool nc_thread_in_job(void);
/* Index of the calling thread among its pool's workers (0: not a worker). */
size_t nc_run_thread_slot(void);
/* Sets the thread count of parallel work started from this thread (a pass
 * manager run's: 1 without threading; 0: the context's own settings);
 * returns the previous value. */
size_t nc_thread_scope_set(size_t n);
/* Threads for `requested` (> 0), else the context's setting, else
 * $NC_NUM_THREADS, else one per CPU; 1 to 256. */
size_t nc_thread_count(nc_context *ctx, int requested);

/* The live context with this id (attributes store ids, not pointers). */
nc_context *nc_context_by_id(uint16_t id);

/* Records that the parser read the whole-file location `"file":0:0` from
 * the source buffer `source` (at most a few dozen are kept). */
void nc_context_note_whole_file_read(nc_context *ctx, nc_ident *file, nc_ident *source);

/* Pool allocation of IR objects (ops, blocks, regions, arguments). */
void *nc_ctx_alloc(nc_context *ctx, size_t size);
void *nc_ctx_calloc(nc_context *ctx, size_t size);
void nc_ctx_free(nc_context *ctx, void *p, size_t size);

/* Every uniqued object (identifier, type, attribute, resource) is allocated
 * behind an 8-byte header holding its hash. */
static inline uint64_t nc_uniq_hash_of(const void *p) { return ((const uint64_t *)p)[-1]; }
/* Objects of a hash_inline table (attributes) are allocated with this,
 * without the header. */
void *nc_uniq_new_inline(nc_context *ctx, size_t size);

/* Uniquing helpers (context.c): lookup-or-insert under the context lock.
 * Slots are tagged pointers: read them with nc_uniq_slot. */
void *nc_uniq_slot(const nc_uniq_table *t, size_t i);
typedef bool (*nc_uniq_eq_fn)(const void *stored, const void *key);
typedef void *(*nc_uniq_make_fn)(nc_context *ctx, const void *key);
void *nc_uniq_get(nc_context *ctx, nc_uniq_table *t, uint64_t hash, const void *key, nc_uniq_eq_fn eq,
                  nc_uniq_make_fn make);

/* Op info for a name (created on first use). */
nc_op_info *nc_context_get_op_info(nc_context *ctx, nc_ident *name);

/* Resource handling for the parser. */
nc_resource *nc_resource_get_or_declare(nc_context *ctx, const char *name, size_t len, uint32_t parse_id);
void nc_resource_set_data(nc_resource *r, void *data, size_t size, uint32_t alignment);

/* Source buffer whose bytes contain `p`, for diagnostics of the parser. */
nc_source *nc_context_source(nc_context *ctx, unsigned id);

/* Thread-local capture hook (diag.c). */
bool nc_diag_try_capture(const nc_diag *d);

/* Formats (asm_format.c). */
bool nc_format_parse_op(nc_asm_parser *p, nc_op_builder *b, nc_op_info *info);
void nc_format_print_op(nc_asm_printer *p, nc_op *op, nc_op_info *info);
void *nc_format_compile(nc_context *ctx, const nc_op_def *def, char *err, size_t errlen);
void nc_format_destroy(void *format);

/* Printer helpers shared with diag.c and asm_format.c. */
typedef struct nc_out nc_out;
struct nc_out {
  char *buf;
  size_t len, cap;
  FILE *file; /* flushed to when the buffer fills; NULL to grow in memory */
};
void nc_out_flush(nc_out *o);
void nc_out_write(nc_out *o, const char *s, size_t n);
void nc_out_printf(nc_out *o, const char *fmt, ...) NC_PRINTF(2, 3);
void nc_out_vprintf(nc_out *o, const char *fmt, va_list ap) NC_PRINTF(2, 0);
void nc_out_type(nc_out *o, const nc_type *t);
void nc_out_attr(nc_out *o, const nc_attr *a, const nc_print_flags *flags);
void nc_out_string_literal(nc_out *o, const char *s, size_t len);
bool nc_out_float(nc_out *o, const nc_attr *a); /* true if printed as hex bits */
static inline void nc_out_char(nc_out *o, char c)
{
  if (NC_UNLIKELY(o->len == o->cap))
    nc_out_write(o, &c, 1);
  else
    o->buf[o->len++] = c;
}
static inline void nc_out_str(nc_out *o, const char *s) { nc_out_write(o, s, strlen(s)); }

/* Float helpers (attrs.c). */
double nc_float_bits_to_double(const nc_type *t, uint64_t bits);
uint64_t nc_float_double_to_bits(const nc_type *t, double v);
bool nc_type_is_float_kind(int kind);

/* Dialect attributes and types with storage (dialect_attrs.c). */
/* Hash of a storage under its definition's hook or defaults. */
uint64_t nc_dialect_storage_hash(const nc_dialect_storage_def *def, const void *storage);
bool nc_dialect_storage_equal(const nc_dialect_storage_def *def, const void *a, const void *b);
/* The context's copy of a key storage (under the uniquing lock); `adopt`
 * takes over what the key points to instead of calling def->copy. */
void *nc_dialect_storage_clone(nc_context *ctx, const nc_dialect_storage_def *def, const void *storage, bool adopt);
/* The definition named by the mnemonic at the start of `body` in the
 * registered dialect `dd` (types or attributes); *mlen gets its length. */
const nc_dialect_storage_def *nc_dialect_find_storage_def(const nc_dialect_def *dd, bool is_type, const char *body,
                                                          size_t len, size_t *mlen);
/* The namespace of the registered dialect whose table holds `def`, or NULL. */
nc_ident *nc_dialect_storage_def_namespace(nc_context *ctx, const nc_dialect_storage_def *def, bool is_type);
/* Prints the text after the mnemonic (print hook or parameter list). */
void nc_out_dialect_storage(nc_out *o, const nc_print_flags *flags, const nc_dialect_storage_def *def,
                            const void *storage);

/* Verification of one op against its definition (verify.c), used by parse-time checks too. */
bool nc_verify_op_def(nc_op *op);

/* Invalidate the order indices of a block. */
static inline void nc_block_invalidate_order(nc_block *b) { if (b) b->order_valid = false; }

#endif
