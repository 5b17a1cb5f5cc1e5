/* verify_diags.h: mlir-opt's --verify-diagnostics: compare the diagnostics
 * emitted while processing a source range against `expected-*` comments. */
#ifndef NC_OPT_VERIFY_DIAGS_H
#define NC_OPT_VERIFY_DIAGS_H

#include "nc/ir/diag.h"

typedef struct nc_diag_verifier nc_diag_verifier;

/** Collects the expectations written in bytes [start, end) of source `id`
 * and installs a handler that checks diagnostics against them. Returns NULL
 * (after printing an error) if an expectation is malformed. */
NC_GIVE nc_diag_verifier *nc_diag_verifier_create(nc_context *ctx, unsigned id, size_t start, size_t end);
/** Removes the handler, reports expectations that were not met, and frees
 * the verifier. Returns true if every diagnostic was expected and every
 * expectation was met. */
bool nc_diag_verifier_finish(NC_TAKE nc_diag_verifier *v);

#endif
