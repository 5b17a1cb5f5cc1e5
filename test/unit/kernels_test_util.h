/* kernels_test_util.h: what the kernel unit tests (test/unit/kernels_*_test.c)
 * share: CHECK (check.h), a seeded xorshift generator, tensor helpers that
 * exit on allocation failure, and the closing report. Each test defines
 * KERNELS_TEST_SEED before including this header, so that its random cases
 * are fixed from run to run and differ from the other tests' cases.
 */
#ifndef NC_TEST_KERNELS_TEST_UTIL_H
#define NC_TEST_KERNELS_TEST_UTIL_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "nc/dialects/graph/kernels.h"

#ifndef KERNELS_TEST_SEED
#error "define KERNELS_TEST_SEED (the generator's start state) before including kernels_test_util.h"
#endif

static uint64_t rng_state = KERNELS_TEST_SEED;

/* Marsaglia's xorshift64 (13, 7, 17); 32 bits of the state. */
static inline uint32_t rnd(void)
{
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 7;
  rng_state ^= rng_state << 17;
  return (uint32_t)(rng_state >> 11);
}

/* Uniform in [lo, hi] (up to the modulo bias, which does not matter here). */
static inline int64_t rnd_in(int64_t lo, int64_t hi) { return lo + (int64_t)(rnd() % (uint64_t)(hi - lo + 1)); }

static inline bool is_float(nc_dtype dt) { return !nc_dtype_is_integer(dt); }

/* A zero-filled tensor; exits if it cannot be allocated. */
static inline nc_tensor *make(nc_dtype dt, int rank, const int64_t *shape)
{
  nc_tensor *t = nc_tensor_create(dt, rank, shape, 0);
  if (!t) {
    fprintf(stderr, "cannot allocate tensor\n");
    exit(2);
  }
  return t;
}

/* A 1-D tensor of the n integers v, stored in dtype dt. */
static inline nc_tensor *vec_i(nc_dtype dt, int64_t n, const int64_t *v)
{
  nc_tensor *t = make(dt, 1, &n);
  for (int64_t i = 0; i < n; i++)
    nc_tensor_set_i64(t, i, v[i]);
  return t;
}

/* Prints the verdict; the exit status for main. */
static inline int kernels_test_report(const char *name)
{
  if (failures) {
    fprintf(stderr, "%s: %d failure(s)\n", name, failures);
    return 1;
  }
  printf("%s: ok\n", name);
  return 0;
}

#endif
