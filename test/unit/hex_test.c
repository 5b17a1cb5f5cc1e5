/* hex_test.c: nc_hex_encode/nc_hex_decode against printf and a bad-digit check,
 * at every length around the SIMD block sizes. */
#include "nc/support/hex.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int main(void) {
  for (int n = 0; n < 300; n++) {
    unsigned char in[300] = {0}, back[300] = {0}; char txt[600] = {0};
    for (int i = 0; i < n; i++) in[i] = (unsigned char)rand();
    nc_hex_encode(in, n, txt);
    for (int i = 0; i < n; i++) { char r[3]; snprintf(r, 3, "%02X", in[i]); if (memcmp(r, txt + 2*i, 2)) { printf("enc bad %d\n", n); return 1; } }
    for (int i = 0; i < 2*n; i++) if (rand()%2) txt[i] = (char)(txt[i] >= 'A' ? txt[i] + 32 : txt[i]);
    size_t bad;
    if (!nc_hex_decode(txt, n, back, &bad) || memcmp(in, back, n)) { printf("dec bad %d\n", n); return 1; }
    if (n > 5) { txt[2*n-3] = 'g'; if (nc_hex_decode(txt, n, back, &bad) || bad != (size_t)(2*n-4)) { printf("bad detect %d %zu\n", n, bad); return 1; } }
  }
  puts("ok"); return 0;
}
