/* npy_fuzz.c: libFuzzer target for the .npy reader.
 *
 * Feeds arbitrary bytes to nc_npy_read_from_memory(); a file that loads must
 * hold exactly as many data bytes as its shape needs, and every refusal must
 * carry a one-line message naming the input.
 * Build: clang -fsanitize=fuzzer,address,undefined with support/npy.c,
 * support/tensor.c and support/base.c; seeds are in corpus/npy/.
 */
#include "nc/support/npy.h"

#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  char err[512];
  err[0] = 0;
  nc_tensor *t = nc_npy_read_from_memory(data, size, "fuzz.npy", err, sizeof err);
  if (t) {
    size_t bytes = nc_tensor_num_bytes(t);
    if (bytes > size)
      __builtin_trap(); /* never more data than the input holds */
    volatile unsigned char sink = 0;
    for (size_t i = 0; i < bytes; i++)
      sink ^= ((const unsigned char *)t->data)[i];
    (void)sink;
    nc_tensor_destroy(t);
  } else if (strncmp(err, "fuzz.npy: ", 10) || strchr(err, '\n')) {
    __builtin_trap();
  }
  return 0;
}
