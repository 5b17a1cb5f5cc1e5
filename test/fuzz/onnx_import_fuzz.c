/* onnx_import_fuzz.c: libFuzzer target for the ONNX importer.
 *
 * Imports arbitrary bytes with nc_onnx_import_from_memory() (no base
 * directory, so external data is refused), then verifies and prints the
 * module; a module that verifies is exported and the export imported again.
 * Invariants: no crash, leak or sanitizer report; a refused input comes with
 * an error diagnostic and an accepted one with none; the importer only builds
 * IR that verifies; what nc exports, nc imports.
 * Build: cmake -DNC_FUZZ=ON with clang (scripts/test.sh does); seeds are in
 * corpus/onnx_import/ (models written by test/Translate/ONNX/Inputs).
 */
#include <stdlib.h>
#include <string.h>

#include "nc/dialects/dialects.h"
#include "nc/dialects/graph/onnx.h"
#include "nc/ir/asm.h"
#include "nc/ir/diag.h"

static bool count_diag(const nc_diag *d, void *user)
{
  if (nc_diag_get_severity(d) == NC_SEV_ERROR)
    ++*(size_t *)user;
  return true; /* swallowed: the fuzzer's output stays readable */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  nc_context *ctx = nc_context_create();
  nc_register_all_dialects(ctx);
  size_t errors = 0;
  unsigned h = nc_context_push_diag_handler(ctx, count_diag, &errors);
  nc_op *module = nc_onnx_import_from_memory(ctx, data, size, "fuzz.onnx", NULL);
  if (!module != (errors != 0))
    __builtin_trap(); /* refused without a reason, or accepted with errors */
  if (module) {
    if (!nc_op_verify(module))
      __builtin_trap(); /* the importer built invalid IR */
    size_t len;
    free(nc_op_print_to_string(module, NULL, &len));
    size_t onnx_len;
    void *onnx = nc_onnx_export_to_memory(module, NULL, &onnx_len);
    if (onnx) {
      nc_op *again = nc_onnx_import_from_memory(ctx, onnx, onnx_len, "exported.onnx", NULL);
      if (!again || !nc_op_verify(again))
        __builtin_trap(); /* nc cannot read what it wrote */
      nc_op_destroy(again);
      free(onnx);
    }
    nc_op_destroy(module);
  }
  nc_context_pop_diag_handler(ctx, h);
  nc_context_destroy(ctx);
  return 0;
}
