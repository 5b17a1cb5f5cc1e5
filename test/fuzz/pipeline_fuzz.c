/* pipeline_fuzz.c: libFuzzer target for the pass-pipeline parser
 * (--pass-pipeline text: nesting, options, quoting, named pipelines).
 *
 * Arbitrary bytes are parsed with every pass, test pass and target pipeline
 * registered. A refusal must come with an error diagnostic; an accepted
 * pipeline must print (nc_pass_manager_to_string) as text that parses again
 * and prints identically. Nothing is run. Seeds are in corpus/pipeline/.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nc/dialects/dialects.h"
#include "nc/ir.h"
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
  static bool registered;
  if (!registered) {
    nc_register_all_passes();
    nc_register_test_passes();
    nc_register_all_targets();
    registered = true;
  }
  if (memchr(data, 0, size))
    return 0; /* the pipeline is a C string on the command line */
  char *text = malloc(size + 1);
  memcpy(text, data, size);
  text[size] = 0;
  nc_context *ctx = nc_context_create();
  nc_register_all_dialects(ctx);
  nc_context_push_diag_handler(ctx, count_errors, NULL);
  n_errors = 0;
  nc_pass_manager *pm = nc_pass_pipeline_parse(ctx, text);
  if (!pm && !n_errors)
    __builtin_trap(); /* refused without saying why */
  if (pm) {
    char *printed = nc_pass_manager_to_string(pm);
    nc_pass_manager *again = nc_pass_pipeline_parse(ctx, printed);
    if (!again) {
      fprintf(stderr, "pipeline_fuzz: printed pipeline does not parse:\n%s\n", printed);
      abort();
    }
    char *printed2 = nc_pass_manager_to_string(again);
    if (strcmp(printed, printed2)) {
      fprintf(stderr, "pipeline_fuzz: printing is not a fixed point:\n%s\n%s\n", printed, printed2);
      abort();
    }
    free(printed2);
    free(printed);
    nc_pass_manager_destroy(again);
    nc_pass_manager_destroy(pm);
  }
  nc_context_destroy(ctx);
  free(text);
  return 0;
}
