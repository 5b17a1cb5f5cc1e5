/* pass_internal.h: data layout of passes and pass managers, shared by
 * pass_registry.c, pass_pipeline.c, pass_manager.c and pass_instrument.c. */
#ifndef NC_IR_PASS_INTERNAL_H
#define NC_IR_PASS_INTERNAL_H

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

struct nc_pass {
  const nc_pass_def *def;     /* NULL for the option holder of a named pipeline */
  const nc_pipeline_def *pipe;
  optval *values;
  _Atomic uint64_t *stats;
  void *state;
  void (*free_state)(void *);
  /* timing, summed over runs and threads (nanoseconds) */
  _Atomic uint64_t wall_ns, user_ns;
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
  _Atomic uint64_t wall_ns, user_ns; /* for the "'x' Pipeline" timing rows */
};

/* Creates a pass instance; `opts` is the text between braces (may be NULL).
 * `opts_base` is the offset of `opts` within the pipeline source `src_id` for
 * diagnostics (or SIZE_MAX when there is no source). */
nc_pass *nc_pass_create(nc_context *ctx, const nc_pass_def *def, const nc_pipeline_def *pipe, const char *opts,
                        size_t opts_len, unsigned src_id, size_t opts_base);
void nc_pass_destroy(nc_pass *p);
/* Appends the option text of a pass ("{k=v ...}" or "") to a growing string. */
void nc_pass_options_to_string(const nc_pass *p, char **buf, size_t *len, size_t *cap);
void nc_str_append(char **buf, size_t *len, size_t *cap, const char *s, size_t n);


/* Thread-local count of errors emitted by this thread (diag.c). */
size_t nc_diag_thread_errors(void);

#endif
