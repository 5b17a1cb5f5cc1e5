/* sim.h: the runtime library's view of the targets' simulators: the
 * public interface (nc/runtime/nc_sim.h) plus the table of built-in ones,
 * which CMake generates from the folders of targets/
 * (nc_target_sims_generated.c). */
#ifndef NC_TARGETS_SIM_H
#define NC_TARGETS_SIM_H

#include "nc/runtime/nc_runtime.h"
#include "nc/runtime/nc_sim.h"

/** The simulators of every built-in target (generated), NULL-terminated. */
extern const nc_target_sim *const nc_all_target_sims[];

#endif
