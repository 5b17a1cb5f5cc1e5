/* xbar_mapping_test.c: the xbar target's mapping algorithm
 * (targets/xbar/mapping.c): tiling counts, greedy replication towards the
 * stage with the most MVMs per crossbar, distinct cores along the
 * serpentine, and the error when a pipeline cannot fit. */
#include <stdlib.h>
#include <string.h>

#include "../../targets/xbar/mapping.h"
#include "check.h"

static int64_t load(const xbar_map_stage *s) { return (s->iterations + s->replicas - 1) / s->replicas; }

static void digits_like(void)
{
  /* conv 1->16 (9 x 16, 64 px), conv 16->32 (144 x 32, 64 px), pool, conv 32->32 (288 x 32, 16 px), flatten, fc */
  xbar_map_stage st[] = {
    {.mvm = true, .rows = 9, .cols = 16, .iterations = 64},   {.mvm = true, .rows = 144, .cols = 32, .iterations = 64},
    {.iterations = 16},                                        {.mvm = true, .rows = 288, .cols = 32, .iterations = 16},
    {.iterations = 16},                                        {.mvm = true, .rows = 512, .cols = 10, .iterations = 1},
  };
  size_t n = sizeof st / sizeof st[0];
  char err[256];
  CHECK(xbar_map_plan(st, n, 256, 256, 8, 8, err, sizeof err), "%s", err);
  CHECK(st[3].row_tiles == 2 && st[3].col_tiles == 1, "conv3 tiles %lld x %lld", (long long)st[3].row_tiles,
        (long long)st[3].col_tiles);
  CHECK(st[5].row_tiles == 2 && st[5].replicas == 1, "fc: %lld row tiles, %lld replicas", (long long)st[5].row_tiles,
        (long long)st[5].replicas);
  int64_t used = 0;
  for (size_t i = 0; i < n; i++)
    used += st[i].n_cores;
  CHECK(used <= 64, "%lld cores used", (long long)used);
  /* the greedy balance: the two big convs end with the same load, and no replica could have been added to the
   * bottleneck (it needs more cores than remain) */
  CHECK(st[0].replicas > 1 && st[1].replicas > 1, "early layers replicated: %lld, %lld", (long long)st[0].replicas,
        (long long)st[1].replicas);
  int64_t worst = 0;
  size_t wi = 0;
  for (size_t i = 0; i < n; i++)
    if (st[i].mvm && load(&st[i]) > worst) {
      worst = load(&st[i]);
      wi = i;
    }
  CHECK(used + st[wi].row_tiles * st[wi].col_tiles > 64 || st[wi].replicas == st[wi].iterations,
        "the bottleneck %zu could still be replicated (%lld cores used)", wi, (long long)used);
  CHECK(load(&st[0]) <= worst && load(&st[1]) <= worst, "loads");
  /* distinct cores inside the mesh, neighbours along the serpentine */
  char seen[64] = {0};
  for (size_t i = 0; i < n; i++)
    for (int64_t k = 0; k < st[i].n_cores; k++) {
      int64_t c = st[i].cores[k];
      CHECK(c >= 0 && c < 64 && !seen[c], "core %lld", (long long)c);
      if (c >= 0 && c < 64)
        seen[c] = 1;
    }
  for (int64_t i = 1; i < 64; i++) {
    int64_t a = xbar_map_core_at(i - 1, 8), b = xbar_map_core_at(i, 8);
    int64_t d = labs(a % 8 - b % 8) + labs(a / 8 - b / 8);
    CHECK(d == 1, "serpentine steps %lld -> %lld are %lld hops apart", (long long)a, (long long)b, (long long)d);
  }
  xbar_map_clear(st, n);
}

static void tiling_and_errors(void)
{
  /* a 1000 x 300 matrix on 128 x 128 crossbars: 8 x 3 tiles */
  xbar_map_stage st[] = {{.mvm = true, .rows = 1000, .cols = 300, .iterations = 4}};
  char err[256];
  CHECK(xbar_map_plan(st, 1, 128, 128, 4, 6, err, sizeof err), "%s", err);
  CHECK(st[0].row_tiles == 8 && st[0].col_tiles == 3 && st[0].replicas == 1, "%lld x %lld x %lld",
        (long long)st[0].row_tiles, (long long)st[0].col_tiles, (long long)st[0].replicas);
  xbar_map_clear(st, 1);
  /* 48 cores: exactly two replicas */
  CHECK(xbar_map_plan(st, 1, 128, 128, 8, 6, err, sizeof err), "%s", err);
  CHECK(st[0].replicas == 2 && st[0].n_cores == 48, "%lld replicas", (long long)st[0].replicas);
  xbar_map_clear(st, 1);
  /* replicas never exceed the iterations */
  xbar_map_stage one[] = {{.mvm = true, .rows = 10, .cols = 10, .iterations = 3}};
  CHECK(xbar_map_plan(one, 1, 128, 128, 8, 8, err, sizeof err) && one[0].replicas == 3, "%lld",
        (long long)one[0].replicas);
  xbar_map_clear(one, 1);
  /* too big: says by how much */
  CHECK(!xbar_map_plan(st, 1, 128, 128, 4, 5, err, sizeof err) && strstr(err, "24 cores") && strstr(err, "4 too many"),
        "%s", err);
}

int main(void)
{
  digits_like();
  tiling_and_errors();
  if (failures)
    fprintf(stderr, "%d check(s) failed\n", failures);
  return failures != 0;
}
