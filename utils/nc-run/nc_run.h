/* nc_run.h: what nc-run's files share: the options and tensor files. */
#ifndef NC_RUN_NC_RUN_H
#define NC_RUN_NC_RUN_H

#include "nc/support/tensor.h"

typedef struct options {
  const char *model;
  const char *function;
  const char **inputs, **outputs;
  size_t n_inputs, n_outputs;
  bool print;
  bool time;
  bool stats;
  const char *stats_json;   /* --stats-json=FILE (.ncb) */
  const char *trace;        /* --trace=FILE (.ncb): the timeline as Chrome trace-event JSON */
  uint64_t trace_max_events; /* --trace-max-events=N (0: the default cap) */
  const char *report;       /* --report=DIR (.ncb): stats.json, trace.json, views.json and index.html */
  const char **sim_keys, **sim_values; /* --<key>=<value> options of the target's simulator (.ncb) */
  size_t n_sim;
  long repeat;
} options;

/** The extension of a path (".npy"), or "". */
const char *nc_run_ext_of(const char *path);
/** Reads a .npy or .pb tensor; NULL after printing `path: error: ...`. */
nc_tensor *nc_run_read_tensor(const char *path);
/** Writes a .npy or .pb tensor; false after printing an error. */
bool nc_run_write_tensor(const char *path, const nc_tensor *t);
/** Prints `path: error: problem` (dropping a leading "path: " from err). */
void nc_run_file_error(const char *path, const char *err);

/** True if MODEL is a target binary (.ncb, or a file starting with its magic). */
bool nc_run_is_binary(const char *path);
/** Runs a target binary on its simulator (binary.c). */
bool nc_run_binary(const options *o);

#endif
