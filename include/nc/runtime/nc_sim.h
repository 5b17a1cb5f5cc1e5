/* nc_sim.h: the runtime side of a target, for those who write one: how a
 * target's loader and simulator plug into the runtime ABI (nc_runtime.h),
 * and the named figures a simulator reports.
 *
 * Every target provides one const nc_target_sim (a struct of function
 * pointers, as QBE's targets are). The runtime finds it by the target name
 * in a binary's header: built-in targets through a table generated from the
 * folders of targets/, plugins through nc_runtime_register_sim. A simulator
 * works on any element type the container describes (nc_ncb_dtype) and
 * reports its figures as named values, not as a fixed struct, so a
 * crossbar chip reports crossbar utilisation and a spiking chip spikes
 * without an edit here. The keys every target reports are listed in
 * docs/targets/figures.md.
 *
 * Plain C, no dependency but libc: this is in the runtime library that host
 * programs link.
 */
#ifndef NC_RUNTIME_NC_SIM_H
#define NC_RUNTIME_NC_SIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "nc/support/base.h"
#include <stdio.h>

#include "nc/runtime/nc_trace.h"
#include "nc/runtime/ncb.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------ */
/* Figures: named values                                                     */
/* ------------------------------------------------------------------------ */

/** The kind of a figure's value. */
typedef enum nc_figure_kind {
  NC_FIGURE_INT,  /**< int64 */
  NC_FIGURE_REAL, /**< double */
  NC_FIGURE_TEXT, /**< a string */
  NC_FIGURE_PAIR, /**< two int64s, i and j (a core's [x, y]) */
  NC_FIGURE_INTS, /**< a list of int64s, ints[0 .. i - 1] (one per inference) */
} nc_figure_kind;

/** One named value ("cycles_per_inference" = 1234). */
typedef struct nc_figure {
  const char *key;
  nc_figure_kind kind;
  int64_t i, j;
  double r;
  const char *text;
  const int64_t *ints;
} nc_figure;

/** An ordered set of figures plus, per core (or tile, or crossbar: whatever
 * the target's unit of placement is), a nested set: the `cores` array of
 * --stats-json. Adding a key that is already there replaces its value. */
typedef struct nc_figures nc_figures;

/** An empty set. */
NC_GIVE nc_figures *nc_figures_create(void);
/** Frees the set, its cores and every string it holds. */
void nc_figures_destroy(NC_TAKE nc_figures *f);
/** Empties the set (and its cores) for reuse. */
void nc_figures_reset(nc_figures *f);
/** Sets a figure (the key and text are copied). */
void nc_figures_set_int(nc_figures *f, const char *key, int64_t value);
void nc_figures_set_real(nc_figures *f, const char *key, double value);
void nc_figures_set_text(nc_figures *f, const char *key, const char *value);
void nc_figures_set_pair(nc_figures *f, const char *key, int64_t first, int64_t second);
/** Sets a list of n int64s (copied; a JSON array). */
void nc_figures_set_ints(nc_figures *f, const char *key, const int64_t *values, size_t n);
/** Appends a per-core set and returns it (owned by f). */
NC_KEEP nc_figures *nc_figures_add_core(nc_figures *f);
/** Appends a per-link set (the `links` array, written only when there is
 * one) and returns it (owned by f). */
NC_KEEP nc_figures *nc_figures_add_link(nc_figures *f);
/** Number of per-link sets and set i. */
size_t nc_figures_num_links(const nc_figures *f);
NC_KEEP const nc_figures *nc_figures_get_link(const nc_figures *f, size_t i);
/** Number of figures and figure i (in the order they were first set). */
size_t nc_figures_count(const nc_figures *f);
NC_KEEP const nc_figure *nc_figures_get(const nc_figures *f, size_t i);
/** The figure named `key`, or NULL. */
NC_KEEP const nc_figure *nc_figures_find(const nc_figures *f, const char *key);
/** Number of per-core sets and set i. */
size_t nc_figures_num_cores(const nc_figures *f);
NC_KEEP const nc_figures *nc_figures_get_core(const nc_figures *f, size_t i);
/** Writes the set as one JSON object, the per-core sets as its "cores"
 * array (reals with 17 significant digits; NaN and infinities as null).
 * Returns false if writing failed. */
bool nc_figures_write_json(const nc_figures *f, FILE *out);

/* ------------------------------------------------------------------------ */
/* A target's simulator                                                      */
/* ------------------------------------------------------------------------ */

/** Told that `done` of `total` inferences of a run are complete. */
typedef void (*nc_sim_progress_fn)(size_t done, size_t total, void *userData);

/** A target's loader and simulator. Every callback receives the struct's
 * `userData`. */
typedef struct nc_target_sim {
  /** The target name binaries carry in their header ("northpole"). */
  const char *name;
  /** Checks the meaning of every one of the target's sections of a parsed
   * binary (the container is already checked) and builds the simulator's
   * state; the state may point into `ncb->data`, which outlives it. NULL
   * with a one-line message in err. */
  void *(*load)(const nc_ncb *ncb, char *err, size_t errlen, void *userData);
  /** Sets a simulator option (nc-run --noise=SEED,SIGMA sets "noise"); false
   * with a message for an unknown key or a bad value. May be NULL: no
   * options. */
  bool (*set_option)(void *state, const char *key, const char *value, char *err, size_t errlen, void *userData);
  /** Runs `batch` inferences: inputs[i] holds batch x the elements of input
   * i in the storage type of its descriptor (nc_ncb_dtype_storage_bytes),
   * one inference after another; outputs[i] receives batch x the elements
   * of output i. Errors ("schedule error: ...") come back in err. */
  bool (*run)(void *state, size_t batch, const void *const *inputs, void *const *outputs, char *err, size_t errlen,
              void *userData);
  /** The figures of the last run, into `out` (empty on entry). */
  void (*figures)(const void *state, nc_figures *out, void *userData);
  /** Frees the state. */
  void (*destroy)(void *state, void *userData);
  void *userData;
  /** Makes later runs report their timeline to `trace` (NULL: stop), at the
   * points where the simulator accounts cycles: names its tracks, sets the
   * chip's clock, then one event per compute, send, wait... (nc_trace.h).
   * The trace outlives the runs. May be NULL: the target cannot trace. */
  void (*set_trace)(void *state, nc_trace *trace, void *userData);
  /** Makes later runs call `progress` (NULL: stop) with `progressData` each
   * time an inference's outputs are complete: `done` of `total` (nc-run's
   * progress on a terminal). May be NULL: the target reports no progress. */
  void (*set_progress)(void *state, nc_sim_progress_fn progress, void *progressData, void *userData);
  /** The target's own views of an HTML report (nc-run --report), as a JSON
   * array of generic view kinds over its figures, e.g.
   * [{"kind": "heatmap", "figure": "cell_utilisation", "title": "...", "note": "..."},
   *  {"kind": "layer_bars", "figure": "bytes_sent", "title": "..."}]
   * (docs/reports.md lists the kinds). May be NULL: the generic views only. */
  const char *report_views;
} nc_target_sim;

/** Makes a simulator known to the runtime (a plugin target calls this when
 * it is loaded); idempotent. False if another simulator has that name. */
bool nc_runtime_register_sim(const nc_target_sim *sim);

/** The simulator for a target name (built in or registered), or NULL. */
NC_KEEP const nc_target_sim *nc_runtime_lookup_sim(const char *name);

#ifdef __cplusplus
}
#endif

#endif
