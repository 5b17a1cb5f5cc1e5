/* passes.h: nc's passes. Each pass lives in one file of passes/ and is
 * listed once in passes/registry.c. */
#ifndef NC_PASSES_PASSES_H
#define NC_PASSES_PASSES_H

#include "nc/ir/pass.h"

/** Registers every pass and named pipeline listed in passes/registry.def,
 * except the test passes. */
void nc_register_all_passes(void);

/** Registers the test passes and pipelines (passes/test/: test-pass-crash,
 * test-named-pipeline, ...), which nc-opt offers only with
 * --enable-test-passes or NC_ENABLE_TEST_PASSES=1 in the environment. */
void nc_register_test_passes(void);

#endif
