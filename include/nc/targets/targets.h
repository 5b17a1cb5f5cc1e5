/* targets.h: nc's targets, for tools (nc-compile, nc-opt, nc-translate,
 * nc-run) and Python: finding a target, its descriptions and options,
 * building its pipeline, printing its binaries, and host stubs.
 *
 * A target is an nc_target_def (nc/targets/target.h): the built-in ones
 * come from a table the build generates from the folders of targets/,
 * plugins add theirs with nc_target_register. Simulating a binary needs
 * none of this: the runtime ABI (nc/runtime/nc_runtime.h) finds the
 * simulator by the target name in the binary's header.
 */
#ifndef NC_TARGETS_TARGETS_H
#define NC_TARGETS_TARGETS_H

#include "nc/targets/target.h"

/** Registers every built-in target (its passes, named pipeline and
 * simulator) and the target-layer passes (`target-attach`); idempotent.
 * Call after nc_register_all_passes. */
void nc_register_all_targets(void);

/** Registers the dialects of every registered target with `ctx` (call after
 * nc_register_all_dialects). */
void nc_target_register_dialects(nc_context *ctx);

/** The target called `name`, or NULL. */
NC_KEEP const nc_target_def *nc_target_lookup(const char *name);
/** Number of targets and target i (sorted by name). */
size_t nc_target_count(void);
NC_KEEP const nc_target_def *nc_target_get(size_t i);
/** The argument of the target's named pipeline ("northpole-pipeline"). */
NC_KEEP const char *nc_target_get_pipeline_name(NC_KEEP const nc_target_def *t);
/** The option `name` of the target's pipeline (its own or a common one:
 * target-desc, stop-after), or NULL. */
NC_KEEP const nc_pass_option_def *nc_target_find_option(NC_KEEP const nc_target_def *t, const char *name);
/** Writes the target's options, built-in descriptions, levels and extra
 * outputs, as `nc-compile --target=X --help` shows them. */
void nc_target_print_help(NC_KEEP const nc_target_def *t, FILE *out);

/** Reads the chip description `desc` for target t: the name of one of its
 * built-in descriptions, a JSON file path, or NULL / "" for its default.
 * Returns the typed description attribute (owned by the context, as every
 * attribute), or NULL after diagnostics at file:line:col. */
NC_KEEP nc_attr *nc_target_load_desc(NC_KEEP const nc_target_def *t, nc_context *ctx, const char *desc);

/** Sets nc.target and nc.chip on a module. */
void nc_target_attach(nc_op *module, NC_KEEP const nc_target_def *t, NC_KEEP nc_attr *desc);
/** The target a module was attached to (its nc.target), or NULL; with
 * `emit`, an error at the module says why (none attached, unknown name). */
NC_KEEP const nc_target_def *nc_target_of_module(NC_KEEP nc_op *module, bool emit);
/** The module's chip description (nc.chip), or NULL. */
NC_KEEP nc_attr *nc_target_get_desc(NC_KEEP nc_op *module);

/** Option values for a target's pipeline, checked against its options. */
typedef struct nc_target_options nc_target_options;
NC_GIVE nc_target_options *nc_target_options_create(NC_KEEP const nc_target_def *t);
void nc_target_options_destroy(NC_TAKE nc_target_options *o);
/** Sets option `name` to `value` (text, as on a command line). False with a
 * message in err for an unknown option or a value of the wrong kind. */
bool nc_target_options_set(nc_target_options *o, const char *name, const char *value, char *err, size_t errlen);
/** A pass manager (anchored on builtin.module) running the target's
 * pipeline with these options up to `stop_after` (NULL: the last level):
 * target-attach, then the target's passes. NULL after diagnostics. */
NC_GIVE nc_pass_manager *nc_target_create_pipeline(nc_context *ctx, NC_KEEP const nc_target_options *o,
                                                   const char *stop_after);

/** Adds to a target's pipeline `pm` (anchored on builtin.module) the passes
 * that take a quantized graph to dataflow, func.func(graph-to-dataflow,
 * dataflow-deps) at `granularity` ("row" or "pixel"; NULL: the passes'
 * default), then target-check-layers: a layer the target does not run is
 * refused right there, at its node, before the target's own passes meet it.
 * False after diagnostics. */
bool nc_target_add_dataflow_passes(nc_pass_manager *pm, const char *granularity);

/** nc_target_add_dataflow_passes with the pass named `between` (NULL:
 * none; a func.func pass without options, such as northpole's
 * dataflow-fold-input-affine) run after graph-to-dataflow and before
 * dataflow-deps, where a target may still change which nodes there are. */
bool nc_target_add_dataflow_passes_with(nc_pass_manager *pm, const char *granularity, const char *between);

/** Prints the binary of a module at the target's last level: a malloc'ed
 * image of *size bytes, or NULL after diagnostics. */
NC_GIVE uint8_t *nc_target_print_binary(NC_KEEP nc_op *module, size_t *size);
/** As nc_target_print_binary, but streams the image to `write` section by
 * section (peak memory: the sections, not sections plus image). Returns false
 * after diagnostics or if a write failed (no diagnostic: the caller's). */
bool nc_target_print_binary_to(NC_KEEP nc_op *module, bool (*write)(const void *data, size_t n, void *userData),
                               void *userData);

/** Checks every dataflow node in `op` (a module, a function, or a node)
 * against the layer kinds and parameters target `t` declares
 * (nc_target_def.layers; none declared: all pass). False after an error at
 * each node of a kind t does not run or holding a parameter t does not
 * read for its kind. */
bool nc_target_check_layers(NC_KEEP nc_op *op, NC_KEEP const nc_target_def *t);

/** The target's extra output `name`, or NULL. */
NC_KEEP const nc_target_emit_def *nc_target_find_emit(NC_KEEP const nc_target_def *t, const char *name);

/** Loads a target plugin (a shared library exporting
 * nc_get_target_plugin_info, nc/plugin.h), whose callback registers its
 * targets with nc_target_register. False with a message in err. */
bool nc_target_load_plugin(const char *path, char *err, size_t errlen);

#endif
