/* sim.h: the runtime side of a target: loading its binaries and simulating
 * them. Every target folder provides one `const nc_target_sim
 * nc_target_sim_<name>` in its runtime/ subfolder; the runtime library finds
 * it by the target name in a binary's header through a table that CMake
 * generates from the folders (nc_target_sims_generated.c). The runtime ABI
 * (include/nc/runtime/nc_runtime.h, device.c) is written once on top of it.
 */
#ifndef NC_TARGETS_SIM_H
#define NC_TARGETS_SIM_H

#include <stdbool.h>
#include <stdint.h>

#include "nc/runtime/nc_runtime.h"
#include "nc/targets/ncb.h"

/** A target's loader and simulator (a const struct of function pointers). */
typedef struct nc_target_sim {
  /** The target name binaries carry in their header ("northpole"). */
  const char *name;
  /** Checks the meaning of every section of a parsed binary (the container
   * is already checked) and builds the simulator's state; the state may
   * point into `ncb->data`, which outlives it. NULL with a message. */
  void *(*load)(const nc_ncb *ncb, char *err, size_t errlen);
  /** Runs `batch` inferences: inputs[i] holds batch x the elements of input
   * i (int8, one inference after another); outputs[i] receives batch x the
   * elements of output i. Errors ("schedule error: ...") come back in err. */
  bool (*run)(void *state, size_t batch, const int8_t *const *inputs, int8_t *const *outputs, char *err,
              size_t errlen);
  /** Figures of the last run. */
  void (*stats)(const void *state, nc_device_stats *out);
  /** Number of cores with work and the figures of one of them. */
  size_t (*num_cores)(const void *state);
  void (*core_stats)(const void *state, size_t i, nc_device_core_stats *out);
  /** Frees the state. */
  void (*destroy)(void *state);
} nc_target_sim;

/** The simulators of every target (generated), NULL-terminated. */
extern const nc_target_sim *const nc_all_target_sims[];

/** The simulator for a target name, or NULL. */
const nc_target_sim *nc_target_sim_lookup(const char *name);

#endif
