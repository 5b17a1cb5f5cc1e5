/* passes.h: nc's passes. Each pass lives in one file of passes/ and is
 * listed once in passes/registry.c. */
#ifndef NC_PASSES_PASSES_H
#define NC_PASSES_PASSES_H

#include "nc/ir/pass.h"

/** Registers every pass and named pipeline listed in passes/registry.c. */
void nc_register_all_passes(void);

#endif
