/* ncb_run_fuzz.c: libFuzzer mutation target for .ncb binaries that also
 * runs them: every binary that loads is simulated for one inference (built
 * with ASan+UBSan, so a signed overflow or an out-of-bounds access in the
 * simulator is a crash), its outputs read back.
 *
 * Seeds (corpus/ncb_run/) are valid binaries from nc-compile; the custom
 * mutator mostly overwrites one field-sized group of bytes in place with a
 * boundary value (0, 1, -1, INT32/INT64 extremes, 2^k) so that mutants keep
 * their layout and reach the loader's field checks and the simulator,
 * otherwise it lets libFuzzer mutate freely. Checksums are recomputed before
 * loading (random bytes rarely get past them). Refusals and run-time
 * errors must carry a one-line message.
 */
#include <stdlib.h>
#include <string.h>

#include "nc/runtime/nc_runtime.h"
#include "nc/runtime/ncb.h"
#include "ncb_checksums.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size);
size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed);

size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed)
{
  static const uint64_t values[] = {0, 1, 2, 0xFFFFFFFFFFFFFFFFull, 0x7FFFFFFFull, 0x80000000ull,
                                    0x7FFFFFFFFFFFFFFFull, 0x8000000000000000ull, 0x7FFFFFFFFFFFFFFEull, 255, 256,
                                    (uint64_t)1 << 40, (uint64_t)1 << 62, 0xFFFFFFFFull, 127, 128};
  srand(seed);
  if (size < 16 || rand() % 4 == 0)
    return LLVMFuzzerMutate(data, size, max_size);
  size_t width = (size_t)1 << (rand() % 4); /* 1, 2, 4 or 8 bytes, aligned as the format's fields are */
  size_t at = ((size_t)rand() % (size - width + 1)) & ~(width - 1);
  uint64_t v = values[(size_t)rand() % (sizeof values / sizeof *values)];
  if (rand() % 3 == 0)
    v += (uint64_t)(rand() % 5) - 2;
  for (size_t i = 0; i < width; i++)
    data[at + i] = (uint8_t)(v >> (8 * i));
  return size;
}

static void check_message(void)
{
  const char *e = nc_device_error();
  if (!*e || strchr(e, '\n'))
    __builtin_trap();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  uint8_t *b = malloc(size ? size : 1);
  memcpy(b, data, size);
  ncb_fix_checksums(b, size);
  nc_device *dev = nc_device_open_memory(b, size);
  free(b);
  if (!dev) {
    check_message();
    return 0;
  }
  bool ok = true;
  for (size_t i = 0; ok && i < nc_device_num_inputs(dev); i++) {
    nc_device_tensor_info info;
    if (nc_device_input_info(dev, i, &info) || !info.elements)
      __builtin_trap();
    float *x = malloc(info.elements * sizeof *x);
    for (size_t k = 0; k < info.elements; k++)
      x[k] = (float)((int)(k * 37 % 17) - 8) * 0.25f;
    ok = nc_device_write_input_f32(dev, i, x, info.elements) == 0;
    free(x);
  }
  if (ok && nc_device_run(dev) == 0) {
    for (size_t i = 0; i < nc_device_num_outputs(dev); i++) {
      nc_device_tensor_info info;
      if (nc_device_output_info(dev, i, &info))
        __builtin_trap();
      float *y = malloc((info.elements ? info.elements : 1) * sizeof *y);
      if (nc_device_read_output_f32(dev, i, y, info.elements))
        check_message();
      free(y);
    }
  } else {
    check_message();
  }
  nc_device_destroy(dev);
  return 0;
}
