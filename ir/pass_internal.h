/* pass_internal.h: data layout of passes and pass managers, and the run
 * state shared by pass_registry.c, pass_pipeline.c, pass_manager.c,
 * pass_instrument.c and pass_report.c. */
#ifndef NC_IR_PASS_INTERNAL_H
#define NC_IR_PASS_INTERNAL_H

#include <pthread.h>
#include <stdatomic.h>

#include "ir-internal.h"
#include "nc/ir/pass.h"
#include "nc/support/strutil.h"

typedef struct optval {
  char *text;      /* normalised textual value */
  bool b;
  int64_t i;
  size_t n;        /* list length */
  int64_t *ints;
  char **strs;
} optval;

/* Time spent in a pass or pipeline, one slot per worker thread of the run:
 * wall time is the largest slot, user time their sum (MLIR's definitions). */
typedef struct pm_clock {
  uint64_t *slot_ns;
  size_t n_slots;
} pm_clock;

struct nc_pass {
  const nc_pass_def *def;     /* NULL for the option holder of a named pipeline */
  const nc_pipeline_def *pipe;
  optval *values;
  _Atomic uint64_t *stats;
  void *state;
  void (*free_state)(void *);
  pm_clock clock;
  pm_clock *timers;           /* one per def->timers */
  nc_context *ctx;            /* nc_pass_create_named's: where nc_pass_set_option reports */
  bool pending;               /* created by nc_pass_create_named, not yet added (options settable) */
};

typedef struct pm_entry {
  nc_pass *pass;              /* exactly one of pass / nested */
  nc_pass_manager *nested;
} pm_entry;

struct nc_pass_manager {
  nc_context *ctx;
  char *anchor;               /* "builtin.module", "func.func", "any" */
  nc_ident *anchor_id;        /* NULL for "any" */
  pm_entry *entries;
  size_t n, cap;
  nc_pass_manager *parent;
  nc_timing *timing;
  pm_clock clock;             /* for the "'x' Pipeline" timing rows */
};

/* Creates a pass instance; `opts` is the text between braces (may be NULL).
 * `opts_base` is the offset of `opts` within the pipeline source `src_id` for
 * diagnostics (or SIZE_MAX when there is no source). */
nc_pass *nc_pass_create(nc_context *ctx, const nc_pass_def *def, const nc_pipeline_def *pipe, const char *opts,
                        size_t opts_len, unsigned src_id, size_t opts_base);
/* Runs the pass's initialize hook on its option values (diagnostics at
 * `opts_base` of `src_id`, or nowhere with SIZE_MAX). False after an error. */
bool nc_pass_initialize(nc_context *ctx, nc_pass *p, unsigned src_id, size_t opts_base);
/* Appends the option text of a pass ("{k=v ...}" or "") to a growing string. */
void nc_pass_options_to_string(const nc_pass *p, char **buf, size_t *len, size_t *cap);
void nc_str_append(char **buf, size_t *len, size_t *cap, const char *s, size_t n);
/* Parses pipeline elements in bytes [start, end) of `text` (the source
 * `src`, or UINT_MAX for none) into a throwaway pass manager, so errors point
 * into the source;
 * returns them printed back with every option (malloc'ed), or NULL. */
char *nc_pipeline_check_elements(nc_context *ctx, unsigned src, const char *text, size_t start, size_t end);

/* Thread-local count of errors emitted by this thread (diag.c). */
size_t nc_diag_thread_errors(void);

/* --- run state (pass_manager.c) ------------------------------------------------------------ */

typedef struct op_counters op_counters;

typedef struct run_ctx {
  const nc_pass_run_options *opts;
  nc_context *ctx;
  nc_op *top;
  FILE *stream;
  bool threading;
  size_t n_threads;
  op_counters *tree_counters; /* --mlir-print-ir-tree-dir file numbering */
  atomic_bool output_failed;  /* an instrumentation file could not be written: the run fails */
} run_ctx;

/* Writes instrumentation text (IR dumps, pass output): straight to the run's
 * stream, or into the current parallel task's log to be replayed in op order. */
void nc_run_emit_text(run_ctx *rc, const char *s, size_t n);
/* Nanoseconds on the monotonic clock. */
uint64_t nc_clock_ns(void);
void nc_clock_add(pm_clock *c, uint64_t ns);
uint64_t nc_clock_wall(const pm_clock *c);
uint64_t nc_clock_user(const pm_clock *c);

/* --- instrumentation (pass_instrument.c) ------------------------------------------------------ */

/* A structural fingerprint of an op and everything nested in it (pointers of
 * names, attributes, values, locations), to tell whether a pass changed it. */
uint64_t nc_op_fingerprint(nc_op *op);
bool nc_instr_print_before(const run_ctx *rc, const nc_pass_def *d);
bool nc_instr_print_after(const run_ctx *rc, const nc_pass_def *d);
/* Prints "// -----// IR Dump {Before|After} Name (arg) //----- //" and the IR. */
void nc_instr_dump(run_ctx *rc, const char *when, const nc_pass *pass, nc_op *op, bool failed);
op_counters *nc_op_counters_create(void);
void nc_op_counters_destroy(op_counters *c);
/* Reproducers: arm before a run, snapshot before each pass, write on failure. */
void nc_repro_begin(run_ctx *rc);
void nc_repro_snapshot(run_ctx *rc, const nc_pass_manager *pm, const nc_pass *pass, nc_op *op);
void nc_repro_write(run_ctx *rc);
void nc_repro_end(run_ctx *rc);

#endif
