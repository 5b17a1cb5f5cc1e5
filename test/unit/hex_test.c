/* hex_test.c: nc_hex_encode/nc_hex_decode against printf and a bad-digit
 * check at every length around the SIMD block sizes, and a weight-sized
 * decode into nc_xmalloc_bulk memory (the parser's path for large blobs).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "nc/support/base.h"
#include "nc/support/hex.h"

static void test_lengths(void)
{
  for (size_t n = 0; n < 300; n++) {
    unsigned char in[300] = {0}, back[300] = {0};
    char txt[600] = {0};
    for (size_t i = 0; i < n; i++)
      in[i] = (unsigned char)rand();
    nc_hex_encode(in, n, txt);
    for (size_t i = 0; i < n; i++) {
      char r[3];
      snprintf(r, sizeof r, "%02X", in[i]);
      CHECK(!memcmp(r, txt + 2 * i, 2), "length %zu: byte %zu encodes as %.2s, not %s", n, i, txt + 2 * i, r);
    }
    for (size_t i = 0; i < 2 * n; i++) /* decoding accepts either case */
      if (rand() % 2 && txt[i] >= 'A')
        txt[i] = (char)(txt[i] + 32);
    size_t bad;
    CHECK(nc_hex_decode(txt, n, back, &bad) && !memcmp(in, back, n), "length %zu: round trip", n);
    if (n > 5) {
      txt[2 * n - 3] = 'g';
      CHECK(!nc_hex_decode(txt, n, back, &bad) && bad == 2 * n - 4, "length %zu: bad digit reported at %zu", n, bad);
    }
  }
}

static void test_bulk(void)
{
  size_t n = (5u << 20) + 3; /* above the populate threshold, not page-aligned */
  unsigned char *in = nc_xmalloc(n);
  char *txt = nc_xmalloc(2 * n);
  for (size_t i = 0; i < n; i++)
    in[i] = (unsigned char)(i * 2654435761u >> 13);
  nc_hex_encode(in, n, txt);
  unsigned char *out = nc_xmalloc_bulk(n);
  size_t bad;
  CHECK(nc_hex_decode(txt, n, out, &bad) && !memcmp(in, out, n), "5 MiB decode into a bulk buffer");
  free(out);
  unsigned char *small = nc_xmalloc_bulk(100);
  memset(small, 1, 100);
  free(small);
  free(txt);
  free(in);
}

int main(void)
{
  test_lengths();
  test_bulk();
  if (failures)
    return 1;
  puts("hex_test: ok");
  return 0;
}
