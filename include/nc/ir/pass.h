/* pass.h: passes declared as data, the pass registry, pass managers and
 * MLIR's textual pipeline language.
 *
 * A pass is a static nc_pass_def (name, command-line argument, summary,
 * description, typed options, statistics, the op it anchors on, a run
 * function). Registering it is one line in passes/registry.c. A pass manager
 * holds passes and nested pass managers anchored on op names, exactly like
 * MLIR's OpPassManager, and is built from text such as
 *   builtin.module(func.func(canonicalize{max-iterations=3},cse),symbol-dce)
 * Nested pass managers whose ops are IsolatedFromAbove run in parallel over
 * sibling ops; diagnostics, printed IR and statistics come out in the same
 * order as a single-threaded run.
 */
#ifndef NC_IR_PASS_H
#define NC_IR_PASS_H

#include <stdio.h>

#include "nc/ir/asm.h"

/** Kinds of pass options. */
typedef enum nc_pass_option_kind {
  NC_PASS_OPT_BOOL,
  NC_PASS_OPT_INT,      /* int64 */
  NC_PASS_OPT_STRING,
  NC_PASS_OPT_ENUM,     /* one of `enum_values` */
  NC_PASS_OPT_INT_LIST, /* comma-separated int64 */
  NC_PASS_OPT_STRING_LIST,
  NC_PASS_OPT_PIPELINE, /* a nested pass pipeline, as text */
} nc_pass_option_kind;

/** A declared pass option. */
typedef struct nc_pass_option_def {
  const char *name;            /* e.g. "max-iterations" */
  nc_pass_option_kind kind;
  const char *default_value;   /* textual default ("10", "true", "normal", "" for empty lists) */
  const char *summary;
  const char *const *enum_values; /* NULL-terminated, for NC_PASS_OPT_ENUM */
  int64_t min, max;               /* NC_PASS_OPT_INT: the accepted range (both 0: any int64) */
} nc_pass_option_def;

/** A declared statistic (a counter the pass bumps; summed over threads). */
typedef struct nc_pass_stat_def {
  const char *name;     /* e.g. "num-cse'd" */
  const char *summary;  /* e.g. "Number of operations CSE'd" */
} nc_pass_stat_def;

typedef struct nc_pass nc_pass;

/** A pass definition. */
typedef struct nc_pass_def {
  const char *argument;  /* command-line name, e.g. "cse" */
  const char *name;      /* display name in IR dumps and reports, e.g. "CSE" */
  const char *group;     /* --help group, e.g. "Generic", "Test", "Graph" */
  const char *summary;
  const char *description;
  const char *anchor;    /* op name the pass runs on, or NULL for any op */
  const nc_pass_option_def *options; size_t n_options;
  const nc_pass_stat_def *stats; size_t n_stats;
  const char *const *dependent_dialects; /* NULL-terminated dialect names, may be NULL */
  /** Optional: checks option values once when the pass is created; emits a
   * diagnostic at `loc` and returns false if they are unusable. */
  bool (*initialize)(nc_pass *pass, nc_context *ctx);
  /** Runs the pass on `op`. Returns false on failure (after emitting a
   * diagnostic; if it emits none, the pass manager reports which pass
   * failed on which op). Must only touch `op` and what it contains. */
  bool (*run)(nc_pass *pass, nc_op *op);
  /** Optional: names of the pass's phases ("Calibration"), timed with
   * nc_pass_timer_add and shown under the pass by --mlir-timing, as MLIR's
   * nested timing scopes are. */
  const char *const *timers; size_t n_timers;
} nc_pass_def;

/** A pass manager: passes and nested pass managers (below). */
typedef struct nc_pass_manager nc_pass_manager;
/** A named pipeline: a pipeline registered under one name with options of its own. */
typedef struct nc_pipeline_def {
  const char *argument;
  const char *summary;
  const nc_pass_option_def *options; size_t n_options;
  /** Appends the pipeline's passes to `pm` (anchored on whatever the caller
   * nests it in), reading option values from `pass` (nc_pass_get_option_*). */
  bool (*build)(nc_pass_manager *pm, nc_pass *options, void *userData);
  /** Passed to build. */
  void *userData;
} nc_pipeline_def;

/* --- registry --------------------------------------------------------------------------- */

/** Registers a pass definition (idempotent). The registry is locked:
 * registration and lookups may come from several threads. */
void nc_pass_register(NC_KEEP const nc_pass_def *def);
/** Registers `def` unless a pass or pipeline with its argument exists (one
 * atomic step, for passes registered at run time, e.g. from Python); returns
 * whether it was registered. */
bool nc_pass_register_unique(NC_KEEP const nc_pass_def *def);
/** Registers a named pipeline (idempotent). */
void nc_pipeline_register(NC_KEEP const nc_pipeline_def *def);
/** Finds a pass / pipeline by argument, or NULL. */
NC_KEEP const nc_pass_def *nc_pass_lookup(const char *argument, size_t len);
NC_KEEP const nc_pipeline_def *nc_pipeline_lookup(const char *argument, size_t len);
/** Number and i-th registered pass / pipeline (sorted by argument). */
size_t nc_pass_registry_size(void);
NC_KEEP const nc_pass_def *nc_pass_registry_get(size_t i);
size_t nc_pipeline_registry_size(void);
NC_KEEP const nc_pipeline_def *nc_pipeline_registry_get(size_t i);
/** Prints every pass and pipeline with summaries and options, grouped
 * (`--help`), or one argument per line (`--list-passes`). */
void nc_pass_registry_print_help(FILE *out);
void nc_pass_registry_print_list(FILE *out);

/* --- pass instances ---------------------------------------------------------------------- */

/** The definition of a pass instance. */
NC_KEEP const nc_pass_def *nc_pass_get_def(NC_KEEP const nc_pass *p);
/** Option values (the option must exist and have that kind). */
bool nc_pass_get_option_bool(NC_KEEP const nc_pass *p, const char *name);
int64_t nc_pass_get_option_int(NC_KEEP const nc_pass *p, const char *name);
NC_KEEP const char *nc_pass_get_option_string(NC_KEEP const nc_pass *p, const char *name); /* also enums, pipelines */
size_t nc_pass_get_option_list_size(NC_KEEP const nc_pass *p, const char *name);
int64_t nc_pass_get_option_list_int(NC_KEEP const nc_pass *p, const char *name, size_t i);
NC_KEEP const char *nc_pass_get_option_list_string(NC_KEEP const nc_pass *p, const char *name, size_t i);
/** Adds `n` to statistic number `i` (thread-safe). */
void nc_pass_stat_add(nc_pass *p, size_t i, uint64_t n);
/** Current value of statistic i. */
uint64_t nc_pass_stat_get(NC_KEEP const nc_pass *p, size_t i);
/** Adds `seconds` (measured with nc_time_wall) to the pass's phase timer i
 * (an index into its def's `timers`); safe from the run's worker threads. */
void nc_pass_timer_add(nc_pass *p, size_t i, double seconds);
/** Tells the pass manager that the pass now running on this thread has left
 * the IR it runs on as it found it (MLIR's markAllAnalysesPreserved), so the
 * verification after it (--verify-each) is skipped: the IR is the one
 * verified before. Call it only from a pass's run function; a pass that does
 * not call it is taken to have changed the IR. A run still verifies the whole
 * IR at its end unless its last pass verified it. */
void nc_pass_mark_unchanged(nc_pass *p);
/** Writes text to the pass manager's output stream (stderr unless the run
 * options say otherwise), the way IR dumps are written: text written by a
 * pass running in parallel over sibling ops comes out in op order, as in a
 * single-threaded run. For passes whose job is to print (print-op-stats,
 * view-op-graph). */
void nc_pass_printf(const char *fmt, ...) NC_PRINTF(1, 2);
void nc_pass_write(const char *s, size_t n);
/** Per-instance scratch pointer a pass may set in `initialize` (freed by the
 * pass's own code; the pointer is shared by all threads running the pass). */
void nc_pass_set_state(nc_pass *p, void *state, void (*free_state)(void *));
NC_KEEP void *nc_pass_get_state(NC_KEEP const nc_pass *p);

/* --- pass managers ---------------------------------------------------------------------- */

/** Options of a whole run, named after mlir-opt's flags. */
typedef struct nc_pass_run_options {
  bool verify_each;            /* default true */
  bool disable_threading;      /* --mlir-disable-threading */
  int num_threads;             /* 0: $NC_NUM_THREADS, else one per CPU (at most 256) */
  /* IR printing instrumentation */
  bool print_before_all, print_after_all;
  bool print_after_change;     /* after-dumps only when the pass changed the IR (alone: after every pass) */
  bool print_after_failure;    /* after-dumps only when a pass failed */
  bool print_module_scope;     /* dump the whole top-level op (disables threading) */
  const char *print_before;    /* comma-separated pass arguments */
  const char *print_after;
  const char *print_tree_dir;  /* --mlir-print-ir-tree-dir */
  nc_print_flags print_flags;  /* how dumped IR is printed */
  FILE *print_stream;          /* where IR dumps go (default stderr) */
  /* timing and statistics */
  bool timing;                 /* --mlir-timing */
  bool timing_tree;            /* --mlir-timing-display=tree (mlir-opt's default) or list */
  bool statistics;             /* --mlir-pass-statistics */
  bool statistics_list;        /* --mlir-pass-statistics-display=list (default pipeline) */
  /* crash/failure reproducer */
  const char *reproducer_file; /* --mlir-pass-pipeline-crash-reproducer: on failure or crash,
                                  the IR before the failing pass and the pipeline that reruns it */
  /* progress (nc-compile's on a terminal): called before each top-level entry with the pass's
     argument (a nested pipeline: its anchor), its index and the number of entries, and once
     more with NULL and index == total when the run ends (also after a failure) */
  void (*progress)(const char *pass, size_t index, size_t total, void *userData);
  void *progress_user_data;
} nc_pass_run_options;

/** The default run options (verify_each on). */
nc_pass_run_options nc_pass_run_options_default(void);

/** Creates an empty pass manager anchored on `anchor` ("builtin.module",
 * "func.func", or "any"). */
NC_GIVE nc_pass_manager *nc_pass_manager_create(nc_context *ctx, const char *anchor);
/** Frees a pass manager and its passes. */
void nc_pass_manager_destroy(NC_TAKE nc_pass_manager *pm);
/** The context the pass manager was created in. */
NC_KEEP nc_context *nc_pass_manager_get_context(NC_KEEP const nc_pass_manager *pm);
/** The op name this pass manager runs on ("any" for op-agnostic). */
NC_KEEP const char *nc_pass_manager_get_anchor(NC_KEEP const nc_pass_manager *pm);
/** Appends a nested pass manager anchored on `anchor` and returns it (owned
 * by pm). */
NC_KEEP nc_pass_manager *nc_pass_manager_nest(nc_pass_manager *pm, const char *anchor);
/** Appends a pass with its default options; `options` ("k=v k2=v2" or NULL)
 * overrides them. Returns false (with a diagnostic) on an unknown pass or
 * option, or if the pass is anchored on a different op than `pm`. */
bool nc_pass_manager_add_pass(nc_pass_manager *pm, const char *argument, const char *options);
/** A pass of the registered `argument`, its options at their defaults, to
 * be given option values with nc_pass_set_option* and then appended with
 * nc_pass_manager_add_owned_pass: the typed way to build a pipeline in code,
 * as MLIR creates a pass with its options and then adds it (no text to
 * assemble, quote or truncate). NULL, with an error, for an unknown pass. */
NC_GIVE nc_pass *nc_pass_create_named(nc_context *ctx, const char *argument);
/** Sets option `name` of a pass from nc_pass_create_named, not yet added:
 * a string option takes `value` exactly as given (any characters); other
 * kinds parse it as on a command line. False, with an error, for an unknown
 * option, a value of the wrong kind, or a pass already added. */
bool nc_pass_set_option(nc_pass *p, const char *name, const char *value);
/** nc_pass_set_option for a bool or int option. */
bool nc_pass_set_option_bool(nc_pass *p, const char *name, bool value);
bool nc_pass_set_option_int(nc_pass *p, const char *name, int64_t value);
/** Appends `pass` (from nc_pass_create_named) to `pm`, taking it, after its
 * initialize hook has accepted the option values. On failure (an error: it
 * runs on another op than pm's anchor, or initialize refuses) the pass is
 * destroyed and false returned. */
bool nc_pass_manager_add_owned_pass(nc_pass_manager *pm, NC_TAKE nc_pass *pass);
/** Frees a pass that no pass manager holds (from nc_pass_create_named). */
void nc_pass_destroy(NC_TAKE nc_pass *pass);
/** Appends pipeline elements written as text without an anchor, e.g.
 * "func.func(canonicalize{max-iterations=3},cse),symbol-dce", to `pm`: the
 * way a named pipeline says what it expands to. Errors are diagnostics. */
bool nc_pass_manager_add_passes(nc_pass_manager *pm, const char *elements);
/** Parses MLIR's textual pipeline syntax and appends it to `pm` (whose anchor
 * must match the text's top-level anchor). Errors are diagnostics pointing at
 * the offending character of the pipeline string, with "did you mean" hints. */
bool nc_pass_manager_parse_pipeline(nc_pass_manager *pm, const char *text);
/** Parses a pipeline text into a new pass manager anchored as the text says. */
NC_GIVE nc_pass_manager *nc_pass_pipeline_parse(nc_context *ctx, const char *text);
/** Writes the pipeline back as text with every option (parses back to the
 * same pipeline). Returns a malloc'ed string. */
NC_GIVE char *nc_pass_manager_to_string(NC_KEEP const nc_pass_manager *pm);
/** Number of passes (counting nested ones). */
size_t nc_pass_manager_size(NC_KEEP const nc_pass_manager *pm);
/** Number of top-level entries (passes and nested pass managers): the N of
 * mlir-opt's "Pass Manager with N passes". */
size_t nc_pass_manager_get_num_entries(NC_KEEP const nc_pass_manager *pm);

/** Runs the pipeline on `op` (whose name must match the anchor). Returns
 * false if a pass failed or verification after a pass failed. */
bool nc_pass_manager_run(nc_pass_manager *pm, nc_op *op, NC_KEEP const nc_pass_run_options *opts);
/** Writes the statistics report (after a run). */
void nc_pass_manager_print_statistics(NC_KEEP const nc_pass_manager *pm, bool list, FILE *out);

/* --- timing ------------------------------------------------------------------------------ */

/** A timing report in MLIR's format, filled by nc_pass_manager_run and by
 * tools that time their own phases (Parser, Output). */
typedef struct nc_timing nc_timing;
/** Creates an empty report. */
NC_GIVE nc_timing *nc_timing_create(void);
/** Frees a report. */
void nc_timing_destroy(NC_TAKE nc_timing *t);
/** Records a top-level phase ("Parser", "Output", ...) with wall and user
 * seconds; user time is wall time summed over the threads that worked on the
 * phase (equal to wall for single-threaded phases, as in MLIR's reports, which
 * show the user column only when the two differ). */
void nc_timing_add(nc_timing *t, const char *name, double wall, double user);
/** Attaches a timing to a pass manager run (pass rows go under it). */
void nc_pass_manager_set_timing(nc_pass_manager *pm, nc_timing *t);
/** Prints the report; `tree` for --mlir-timing-display=tree. `total_user` is
 * ignored: the total user time is the wall time plus the extra time that
 * parallel pipelines spent on other threads. */
void nc_timing_print(NC_KEEP const nc_timing *t, bool tree, double total_wall, double total_user, FILE *out);
/** Wall clock and this process's CPU time, in seconds (a monotonic clock). */
double nc_time_wall(void);
double nc_time_user(void);

#endif
