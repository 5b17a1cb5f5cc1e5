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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static uint32_t rd32(const uint8_t *p) { return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24; }
static uint64_t rd64(const uint8_t *p) { return rd32(p) | (uint64_t)rd32(p + 4) << 32; }
static void wr32(uint8_t *p, uint32_t v)
{
  for (int i = 0; i < 4; i++)
    p[i] = (uint8_t)(v >> (8 * i));
}

static void fix_checksums(uint8_t *b, size_t size)
{
  if (size < NC_NCB_HEADER_SIZE)
    return;
  uint32_t hsize = rd32(b + 8), n_in = rd32(b + 56), n_out = rd32(b + 60), n_sec = rd32(b + 64); /* format 2.0 */
  if (hsize > size || n_in > 64 || n_out > 64 || n_sec > 4096)
    return;
  size_t table = NC_NCB_HEADER_SIZE + (size_t)(n_in + n_out) * NC_NCB_TENSOR_SIZE;
  for (uint32_t i = 0; i < n_sec && table + (i + 1) * NC_NCB_SECTION_ENTRY_SIZE <= hsize; i++) {
    uint8_t *e = b + table + i * NC_NCB_SECTION_ENTRY_SIZE;
    uint64_t off = rd64(e + 8), len = rd64(e + 16);
    if (off <= size && len <= size - off)
      wr32(e + 24, nc_crc32(0, b + off, len));
  }
  wr32(b + 12, 0);
  wr32(b + 12, nc_crc32(0, b, hsize));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  uint8_t *b = malloc(size ? size : 1);
  memcpy(b, data, size);
  fix_checksums(b, size);
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
