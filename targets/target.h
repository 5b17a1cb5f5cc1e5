/* target.h: what a target is, as QBE has it: a const struct of function
 * pointers (and data), one per folder of targets/.
 *
 * A target folder <name>/ defines `const nc_target nc_target_<name>` here
 * and `const nc_target_sim nc_target_sim_<name>` (common/runtime/sim.h) in
 * its runtime/ subfolder; its chip description <name>.json is embedded by
 * the build as `nc_target_desc_<name>`. targets/CMakeLists.txt generates the
 * tables that list every folder, so adding a target touches nothing outside
 * its folder. Tools use the target through include/nc/targets/targets.h.
 */
#ifndef NC_TARGETS_TARGET_H
#define NC_TARGETS_TARGET_H

#include "common/runtime/sim.h"
#include "nc/dialects/core/chip_desc.h"
#include "nc/ir/pass.h"

typedef struct nc_target {
  /** --target=<name>, the name binaries carry and core.chip's `target`. */
  const char *name;
  /** One line for --help. */
  const char *summary;
  /** The default chip description: the JSON text of <name>/<name>.json. */
  const char *default_desc;
  /** The named pipeline that lowers an imported float graph to the target's
   * placed, scheduled, addressed core IR (registered with the pass registry
   * by nc_register_all_targets; options include calibration, target-desc and
   * stop-after=graph|quantized|dataflow|core). */
  const nc_pipeline_def *pipeline;
  /** The printer: the binary of `module` (the pipeline's output) for the chip
   * `desc`, as a malloc'ed image of *size bytes; the same module and
   * description always give the same bytes. NULL after emitting diagnostics
   * at the offending ops. */
  uint8_t *(*print_binary)(nc_op *module, const nc_chip_desc *desc, size_t *size);
  /** The loader and simulator (in the runtime library). */
  const nc_target_sim *sim;
} nc_target;

/** Every target (generated from the folders), NULL-terminated. */
extern const nc_target *const nc_all_targets[];

#endif
