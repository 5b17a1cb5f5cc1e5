/* targets.h: nc's targets, for tools (nc-compile, nc-opt, nc-translate,
 * nc-run) and Python: finding a target, its chip description, its named
 * pipeline, its printer, and host stubs for its binaries.
 *
 * A target is a const struct of function pointers (targets/target.h), one
 * per folder of targets/, listed by a table the build generates from the
 * folders. Simulating a binary needs none of this: the runtime ABI
 * (include/nc/runtime/nc_runtime.h) finds the simulator by the target name
 * in the binary's header.
 */
#ifndef NC_TARGETS_TARGETS_H
#define NC_TARGETS_TARGETS_H

#include "nc/dialects/core/chip_desc.h"
#include "nc/ir/ops.h"

typedef struct nc_target nc_target;

/** Registers every target's named pipeline (e.g. `northpole-pipeline`) with
 * the pass registry (idempotent; call after nc_register_all_passes). */
void nc_register_all_targets(void);

/** The target called `name`, or NULL. */
NC_KEEP const nc_target *nc_target_lookup(const char *name);
/** Number of targets and target i (sorted by name). */
size_t nc_target_count(void);
NC_KEEP const nc_target *nc_target_get(size_t i);
/** The target's name, summary, and its named pipeline's argument. */
NC_KEEP const char *nc_target_get_name(NC_KEEP const nc_target *t);
NC_KEEP const char *nc_target_get_summary(NC_KEEP const nc_target *t);
NC_KEEP const char *nc_target_get_pipeline_name(NC_KEEP const nc_target *t);
/** The JSON text of the target's default chip description. */
NC_KEEP const char *nc_target_get_default_desc(NC_KEEP const nc_target *t);

/** The chip description to compile for: the file at `path` (errors are
 * diagnostics at path:line:col through ctx), or the target's default when
 * path is NULL or "". Also checks the description is for this target's kind
 * of chip (its 8-bit rate, NoC and clock are present). */
bool nc_target_load_desc(NC_KEEP const nc_target *t, nc_context *ctx, const char *path, nc_chip_desc *desc);

/** The one core.chip of a core-level module; NULL after an error at a
 * second chip, or at the module when it has none (telling to run `target`'s
 * pipeline to the core level first; NULL target: "the target's"). */
NC_KEEP nc_op *nc_target_find_chip(NC_KEEP nc_op *module, const char *target);

/** The target a core-level module is for: the `target` of its core.chip
 * (an error at the chip, or at the module when there is none, and NULL
 * when no target has that name). */
NC_KEEP const nc_target *nc_target_of_module(NC_KEEP nc_op *module);

/** Prints the binary of a module at the core level (see nc_target's
 * print_binary): a malloc'ed image, or NULL after diagnostics. */
NC_GIVE uint8_t *nc_target_print_binary(NC_KEEP const nc_target *t, NC_KEEP nc_op *module,
                                        NC_KEEP const nc_chip_desc *desc, size_t *size);

#endif
