/* target_attach.c: target-attach{target=NAME desc=DESC}, the first pass of
 * every target's pipeline (as MLIR's nvvm-attach-target is for GPU
 * modules): reads the chip description once, when the pass is created
 * (a built-in description's name or a JSON file; errors at file:line:col),
 * and sets it on the module as the typed attribute nc.chip, with the target
 * name as nc.target. Every later pass and the printer read the chip from
 * there, so the description is never re-read along the way.
 */
#include <stdlib.h>
#include <string.h>

#include "nc/ir/diag.h"
#include "nc/targets/targets.h"

typedef struct attach_state {
  const nc_target_def *target;
  nc_attr *desc;
} attach_state;

static bool initialize(nc_pass *pass, nc_context *ctx)
{
  const char *name = nc_pass_get_option_string(pass, "target");
  const nc_target_def *t = nc_target_lookup(name);
  if (!t) {
    nc_diag *d = nc_diag_create(ctx, NC_SEV_ERROR, nc_location_unknown(), "target-attach: unknown target '%s'", name);
    for (size_t i = 0; i < nc_target_count(); i++)
      nc_diag_attach_note(d, nc_location_unknown(), "known target: %s", nc_target_get(i)->name);
    nc_diag_emit(d);
    return false;
  }
  nc_attr *desc = nc_target_load_desc(t, ctx, nc_pass_get_option_string(pass, "desc"));
  if (!desc)
    return false;
  attach_state *s = nc_xmalloc(sizeof *s);
  *s = (attach_state){t, desc};
  nc_pass_set_state(pass, s, free);
  return true;
}

static bool run(nc_pass *pass, nc_op *module)
{
  const attach_state *s = nc_pass_get_state(pass);
  nc_target_attach(module, s->target, s->desc);
  return true;
}

static const nc_pass_option_def options[] = {
  {"target", NC_PASS_OPT_STRING, "", "The target (nc-compile --list-targets)"},
  {"desc", NC_PASS_OPT_STRING, "", "Its chip description: a built-in one's name or a JSON file (empty: the default)"},
};

const nc_pass_def nc_pass_target_attach = {
  .argument = "target-attach",
  .name = "TargetAttach",
  .group = "Target",
  .summary = "Attach a target and its chip description (nc.target, nc.chip) to the module",
  .description = "Reads the chip description once and sets it on the module as a typed attribute; the target's "
                 "passes and printer read it from there.",
  .anchor = "builtin.module",
  .options = options, .n_options = NC_COUNTOF(options),
  .initialize = initialize,
  .run = run,
};
