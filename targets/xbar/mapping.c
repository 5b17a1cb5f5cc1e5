/* mapping.c: the xbar target's mapping of layers onto crossbar cores.
 *
 * Algorithm (PUMA's and PIMCOMP-NN's, simplified):
 * 1. Tiling: a stage's weight matrix (rows = inputs Cin*kh*kw or K, cols =
 *    outputs) needs ceil(rows / R) x ceil(cols / C) crossbars of R x C
 *    cells; each crossbar is one core. The row tiles' partial sums are added
 *    by the digital unit of the core holding row tile 0 (the owner).
 *    Digital stages (pools, copies) take one core each.
 * 2. Replication: the pipeline runs at the pace of its slowest stage, whose
 *    crossbars each do iterations / replicas MVMs per inference. While
 *    spare cores remain, the stage with the most MVMs per crossbar (ties:
 *    the earliest) gets one more replica (row_tiles x col_tiles cores) if
 *    it fits and has fewer replicas than iterations; when it does not fit,
 *    replication stops (replicating any other stage would not speed up the
 *    pipeline). Iteration i runs on replica i mod replicas.
 * 3. Placement: cores are handed out in pipeline order along a serpentine
 *    over the mesh rows, so neighbouring stages sit on neighbouring cores.
 * Limits: one crossbar per core; all MVMs of a replica cost the same (the
 *    model ignores the digital stages' speed when balancing); no weight
 *    bit-slicing across columns (a cell holds a whole weight); placement is
 *    not optimised for NoC distance beyond the serpentine.
 */
#include "mapping.h"

#include <stdio.h>
#include <stdlib.h>

static int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

int64_t xbar_map_core_at(int64_t i, int64_t mesh_cols)
{
  int64_t y = i / mesh_cols, x = i % mesh_cols;
  return y * mesh_cols + (y % 2 ? mesh_cols - 1 - x : x);
}

void xbar_map_clear(xbar_map_stage *stages, size_t n)
{
  for (size_t i = 0; i < n; i++) {
    free(stages[i].cores);
    stages[i].cores = NULL;
  }
}

bool xbar_map_plan(xbar_map_stage *st, size_t n, int64_t R, int64_t C, int64_t mesh_rows, int64_t mesh_cols,
                   char *err, size_t errlen)
{
  int64_t total = mesh_rows * mesh_cols, used = 0;
  for (size_t i = 0; i < n; i++) {
    st[i].cores = NULL;
    if (st[i].mvm) {
      st[i].row_tiles = ceil_div(st[i].rows, R);
      st[i].col_tiles = ceil_div(st[i].cols, C);
    } else {
      st[i].row_tiles = st[i].col_tiles = 1;
    }
    st[i].replicas = 1;
    used += st[i].row_tiles * st[i].col_tiles;
  }
  if (used > total) {
    snprintf(err, errlen,
             "the pipeline needs %lld cores without replication (crossbars of %lld x %lld cells and one core per "
             "digital stage), but the mesh has %lld: %lld too many",
             (long long)used, (long long)R, (long long)C, (long long)total, (long long)(used - total));
    return false;
  }
  for (;;) {
    size_t best = n;
    int64_t best_load = 0;
    for (size_t i = 0; i < n; i++) {
      if (!st[i].mvm || st[i].replicas >= st[i].iterations)
        continue;
      int64_t load = ceil_div(st[i].iterations, st[i].replicas);
      if (load > best_load) {
        best_load = load;
        best = i;
      }
    }
    if (best == n)
      break;
    /* the bottleneck: is it a stage that can no longer be replicated? */
    int64_t worst = 0;
    for (size_t i = 0; i < n; i++)
      if (st[i].mvm && ceil_div(st[i].iterations, st[i].replicas) > worst)
        worst = ceil_div(st[i].iterations, st[i].replicas);
    if (worst > best_load)
      break;
    int64_t need = st[best].row_tiles * st[best].col_tiles;
    if (used + need > total)
      break;
    st[best].replicas++;
    used += need;
  }
  int64_t next = 0;
  for (size_t i = 0; i < n; i++) {
    st[i].n_cores = st[i].replicas * st[i].row_tiles * st[i].col_tiles;
    st[i].cores = malloc((size_t)st[i].n_cores * sizeof *st[i].cores);
    if (!st[i].cores)
      abort();
    for (int64_t k = 0; k < st[i].n_cores; k++)
      st[i].cores[k] = xbar_map_core_at(next++, mesh_cols);
  }
  return true;
}
