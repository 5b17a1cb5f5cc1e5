/* ncb_fuzz.c: libFuzzer target for the .ncb loader (the container parser
 * and the NorthPole sections' checks).
 *
 * Random bytes rarely get past the checksums, so the harness first makes
 * them right: every section's CRC in the table and the header's CRC are
 * recomputed (when the table is in bounds) before nc_device_open_memory. A
 * binary that loads must describe itself consistently; every refusal must
 * carry a one-line message. Seeds are in corpus/ncb/.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nc/runtime/nc_runtime.h"
#include "nc/runtime/ncb.h"
#include "ncb_checksums.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  uint8_t *b = malloc(size ? size : 1);
  memcpy(b, data, size);
  ncb_fix_checksums(b, size);
  nc_device *dev = nc_device_open_memory(b, size);
  free(b);
  if (!dev) {
    const char *e = nc_device_error();
    if (!*e || strchr(e, '\n')) {
      fprintf(stderr, "refusal without a one-line message: '%s'\n", e);
      __builtin_trap();
    }
    return 0;
  }
  nc_device_tensor_info info;
  if (nc_device_num_inputs(dev) < 1 || nc_device_input_info(dev, 0, &info) || !info.elements) {
    fprintf(stderr, "a binary loaded without a usable input\n");
    __builtin_trap();
  }
  nc_device_destroy(dev);
  return 0;
}
