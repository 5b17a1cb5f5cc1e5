/* translate.h: translations of nc-translate that live in their own file. */
#ifndef NC_TRANSLATE_TRANSLATE_H
#define NC_TRANSLATE_TRANSLATE_H

#include "nc/ir/context.h"

/** Options of --emit-host-stub. */
typedef struct nc_host_stub_options {
  const char *name;        /* --host-stub-name (NULL: from the output file) */
  const char *header;      /* --host-stub-header (NULL: the output with .h) */
} nc_host_stub_options;

/** --emit-host-stub: `input` is a .ncb binary, or core-level IR printed to a
 * binary first with its target's printer; `output` is the object file. */
bool emit_host_stub(nc_context *ctx, const char *input, const char *output, const nc_host_stub_options *o);

#endif
