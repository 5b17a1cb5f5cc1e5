/* chip_desc_fuzz.c: libFuzzer target for chip descriptions: arbitrary bytes
 * as the JSON text of a northpole description, read the way
 * nc_target_load_desc reads a --target-desc file (targets/common/desc_json.c
 * and mesh_desc.c through the target's parse_desc).
 *
 * A description is either refused with at least one error diagnostic
 * (file:line:col), or read into a #core.desc attribute whose printed form
 * parses back to the same attribute. Seeds are in corpus/chip_desc/.
 */
#include <stdlib.h>
#include <string.h>

#include "nc/dialects/dialects.h"
#include "nc/ir.h"
#include "nc/ir/asm.h"
#include "nc/passes/passes.h"
#include "nc/targets/targets.h"

static size_t n_errors;

static bool count_errors(const nc_diag *d, void *user)
{
  (void)user;
  if (nc_diag_get_severity(d) == NC_SEV_ERROR)
    n_errors++;
  return true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  static const nc_target_def *t;
  if (!t) {
    nc_register_all_passes();
    nc_register_all_targets();
    if (!(t = nc_target_lookup("northpole")))
      abort();
  }
  nc_context *ctx = nc_context_create();
  nc_register_all_dialects(ctx);
  nc_target_register_dialects(ctx);
  nc_context_push_diag_handler(ctx, count_errors, NULL);
  n_errors = 0;
  nc_attr *desc = t->parse_desc(ctx, (const char *)data, size, "<fuzz>", t->userData);
  if (!desc && !n_errors)
    __builtin_trap(); /* refused without saying why */
  if (desc) {
    char *text = nc_attr_to_string(desc);
    if (nc_parse_attr(ctx, text) != desc)
      __builtin_trap(); /* the printed description does not read back */
    free(text);
  }
  nc_context_destroy(ctx);
  return 0;
}
