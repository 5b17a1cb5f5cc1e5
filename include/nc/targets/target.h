/* target.h: what a target is, for those who write one (in targets/<name>/
 * or as a plugin built out of tree against the installed headers).
 *
 * A target is a const struct of data and function pointers, as QBE's
 * targets are: its chip descriptions (built-in JSON texts and a reader for
 * its schema), its pipeline options (declared as data, passed through by
 * nc-compile without nc-compile knowing them), the dialects and passes it
 * brings (registered when the target is), the pipeline that lowers an
 * imported float graph to its last IR level, the printer of its sections
 * of the .ncb container, extra outputs (--emit=<name>), and its simulator
 * (nc_sim.h). Nothing outside the target's folder names it: the build
 * generates the table of built-in targets from the folders of targets/,
 * and nc_target_register adds one at run time: a target plugin
 * (nc/plugin.h) exports nc_get_target_plugin_info, whose register_targets
 * callback calls nc_target_register.
 *
 * The chip description is parsed once, when the pipeline is built (or by
 * the `target-attach` pass in a hand-written pipeline), into a typed
 * attribute that travels with the IR as module attributes:
 *   module attributes {nc.target = "northpole", nc.chip = #core.desc<...>}
 * Every later pass and the printer read it from there (nc_target_get_desc).
 *
 * Every callback receives the struct's `userData`.
 */
#ifndef NC_TARGETS_TARGET_H
#define NC_TARGETS_TARGET_H

#include <stdio.h>

#include "nc/dialects/dataflow/layer.h"
#include "nc/ir/ods.h"
#include "nc/ir/pass.h"
#include "nc/runtime/nc_sim.h"
#include "nc/runtime/ncb.h"

/** A built-in chip description, selectable with --target-desc=<name>. */
typedef struct nc_target_desc_def {
  const char *name;    /**< e.g. "cmnnc", "puma" */
  const char *summary; /**< one line for --help */
  const char *json;    /**< the description's JSON text */
} nc_target_desc_def;

/** An extra output of the target (nc-compile --emit=<name>), written from
 * the IR at the target's last level. */
typedef struct nc_target_emit_def {
  const char *name;    /**< e.g. "control-c" */
  const char *summary;
  /** Writes the output for `module` to `out`; false after diagnostics. */
  bool (*emit)(nc_op *module, FILE *out, void *userData);
} nc_target_emit_def;

/** A layer kind a target runs and the layer parameters it reads for it
 * (NC_DATAFLOW_PARAM_BIT(PADS) | ...). */
typedef struct nc_target_layer_def {
  nc_dataflow_layer_kind kind;
  uint64_t params;
} nc_target_layer_def;

/** A target. */
typedef struct nc_target_def {
  /** --target=<name>, the name binaries carry, the module's nc.target. */
  const char *name;
  /** The family it belongs to ("mesh", "crossbar"; docs/architecture.md). */
  const char *family;
  /** One line for --list-targets. */
  const char *summary;

  /** Built-in descriptions; the first is the default. */
  const nc_target_desc_def *descs;
  size_t n_descs;
  /** Reads a description (`len` bytes of JSON; `file` names where it came
   * from, a path or "<built-in NAME>") into the target's typed description
   * attribute. Errors are diagnostics through ctx at file:line:col saying
   * what is wrong and by how much; NULL after them. */
  NC_KEEP nc_attr *(*parse_desc)(nc_context *ctx, const char *text, size_t len, const char *file, void *userData);

  /** Options of the target's pipeline (nc-compile --<name>=<value>). The
   * registry adds `target-desc` and `stop-after` to every target. */
  const nc_pass_option_def *options;
  size_t n_options;
  /** The IR levels the pipeline passes through, in order; --emit=<level>
   * and stop-after=<level> stop after one. The last is what the printer
   * reads. */
  const char *const *levels;
  size_t n_levels;

  /** Dialects and passes the target brings (may be 0). */
  const nc_dialect_def *const *dialects;
  size_t n_dialects;
  const nc_pass_def *const *passes;
  size_t n_passes;

  /** Appends to `pm` (anchored on builtin.module) the passes that lower an
   * imported float graph, whose module already carries nc.target and
   * nc.chip, to `stop_after` (one of `levels`). Option values come from
   * `options` (nc_pass_get_option_*), which holds every option of the
   * target. False after a diagnostic. */
  bool (*build_pipeline)(nc_pass_manager *pm, NC_KEEP const nc_pass *options, const char *stop_after,
                         void *userData);

  /** Writes the target's sections of the binary of `module` (at the last
   * level) into `w`, and its input and output descriptors; the same module
   * always gives the same bytes. False after diagnostics at the offending
   * ops. */
  bool (*print_binary)(nc_op *module, nc_ncb_writer *w, void *userData);

  /** The layer kinds the target runs, each with the parameters it reads
   * (may be 0: no check). nc_target_check_layers refuses a dataflow node of
   * another kind, or one holding a parameter its kind's entry does not list
   * (a value other than the default: nc_dataflow_layer_get_params), with an
   * error at the node; it runs as `target-check-layers` where a target's
   * pipeline reaches dataflow (nc_target_add_dataflow_passes) and before
   * printing. A parameter added to the dataflow
   * layer table is thus refused by targets that do not read it, without
   * edits to them. */
  const nc_target_layer_def *layers;
  size_t n_layers;

  /** Extra outputs (may be 0). */
  const nc_target_emit_def *emits;
  size_t n_emits;

  /** The runtime side (may be NULL for a target without a simulator). */
  const nc_target_sim *sim;

  void *userData;
} nc_target_def;

/** Registers a target: its dialects (for contexts created afterwards and
 * through nc_target_register_dialects), its passes, its named pipeline
 * `<name>-pipeline` and its simulator. False (with a message on stderr) if a
 * different target with that name exists. Idempotent. */
bool nc_target_register(NC_KEEP const nc_target_def *t);

#endif
