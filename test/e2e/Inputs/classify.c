/* classify.c: a host program driving the digits network through its
 * generated host stub (digits.h / digits.o) and nc's runtime library.
 *
 *   classify IN.f32 OUT.f32
 *
 * IN holds N images (raw float32, N x 1x1x8x8); all of them run as one
 * stream of N inferences and the N x 10 logits go to OUT. Then the first
 * image runs alone, which must give the first row again, and a wrong input
 * size must be refused with a message.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "digits.h"

static float *read_floats(const char *path, size_t *n)
{
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  fseek(f, 0, SEEK_END);
  long bytes = ftell(f);
  fseek(f, 0, SEEK_SET);
  float *x = malloc((size_t)bytes);
  *n = fread(x, sizeof *x, (size_t)bytes / sizeof *x, f);
  fclose(f);
  return x;
}

int main(int argc, char **argv)
{
  if (argc != 3) {
    fprintf(stderr, "usage: classify IN.f32 OUT.f32\n");
    return 2;
  }
  size_t n_in;
  float *x = read_floats(argv[1], &n_in);
  if (!x || n_in % DIGITS_INPUT0_ELEMENTS) {
    fprintf(stderr, "classify: cannot read images from %s\n", argv[1]);
    return 1;
  }
  size_t n = n_in / DIGITS_INPUT0_ELEMENTS;
  float *y = malloc(n * DIGITS_OUTPUT0_ELEMENTS * sizeof *y), one[DIGITS_OUTPUT0_ELEMENTS];
  if (digits_write_input(0, x, n_in) || digits_run() || digits_read_output(0, y, n * DIGITS_OUTPUT0_ELEMENTS)) {
    fprintf(stderr, "classify: %s\n", digits_error());
    return 1;
  }
  FILE *f = fopen(argv[2], "wb");
  if (!f || fwrite(y, sizeof *y, n * DIGITS_OUTPUT0_ELEMENTS, f) != n * DIGITS_OUTPUT0_ELEMENTS || fclose(f)) {
    fprintf(stderr, "classify: cannot write %s\n", argv[2]);
    return 1;
  }
  if (digits_write_input(0, x, DIGITS_INPUT0_ELEMENTS) || digits_run() ||
      digits_read_output(0, one, DIGITS_OUTPUT0_ELEMENTS) || memcmp(one, y, sizeof one)) {
    fprintf(stderr, "classify: one image alone does not give the first result again\n");
    return 1;
  }
  if (digits_write_input(0, x, DIGITS_INPUT0_ELEMENTS - 1) != -1) {
    fprintf(stderr, "classify: a wrong input size was accepted\n");
    return 1;
  }
  printf("classified %zu images; wrong size refused: %s\n", n, digits_error());
  digits_close();
  free(x);
  free(y);
  return 0;
}
