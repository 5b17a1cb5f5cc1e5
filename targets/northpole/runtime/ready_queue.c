/* ready_queue.c: the simulator's choice of which tile goes next, without
 * asking every core at every step.
 *
 * np_sim_run steps, each time, the tile that can go on earliest (ties: the
 * one first in the binary). A tile is asked through its entry: its core's
 * first tile when it shares its core (core_pick chooses among them), else
 * itself. An entry's answer (np_tile entry_ready, entry_at, entry_pick)
 * changes only when one of its tiles steps or gets a message, so sim.c
 * marks just those entries dirty, asks them again, and this file keeps the
 * ready entries in a binary min-heap on (entry_at, entry_pick): a step costs
 * O(dirty entries x log entries) instead of a walk over every tile, which
 * was a few percent of a ResNet-50 run with about 300 of them. The order is
 * exactly the walk's: the picks are distinct tiles, so (at, pick) is total.
 */
#include <stdlib.h>

#include "../../common/runtime/rt_util.h"
#include "np_sim.h"

void np_ready_reset(np_ready *q, size_t n_tiles)
{
  if (q->cap < n_tiles) {
    free(q->heap), free(q->pos), free(q->dirty);
    q->heap = nc_rt_malloc((n_tiles + 1) * sizeof *q->heap);
    q->pos = nc_rt_malloc((n_tiles + 1) * sizeof *q->pos);
    q->dirty = nc_rt_malloc((n_tiles + 1) * sizeof *q->dirty);
    q->cap = n_tiles;
  }
  for (size_t i = 0; i < n_tiles; i++)
    q->pos[i] = -1;
  q->n = q->n_dirty = 0;
}

void np_ready_destroy(np_ready *q)
{
  free(q->heap), free(q->pos), free(q->dirty);
  *q = (np_ready){0};
}

/* Whether entry a goes before entry b. */
static bool before(const np_tile *tiles, int32_t a, int32_t b)
{
  const np_tile *x = &tiles[a], *y = &tiles[b];
  return x->entry_at < y->entry_at || (x->entry_at == y->entry_at && x->entry_pick < y->entry_pick);
}

static void place(np_ready *q, size_t i, int32_t e)
{
  q->heap[i] = e;
  q->pos[e] = (int32_t)i;
}

static void sift_up(np_ready *q, const np_tile *tiles, size_t i)
{
  int32_t e = q->heap[i];
  while (i > 0 && before(tiles, e, q->heap[(i - 1) / 2])) {
    place(q, i, q->heap[(i - 1) / 2]);
    i = (i - 1) / 2;
  }
  place(q, i, e);
}

static void sift_down(np_ready *q, const np_tile *tiles, size_t i)
{
  int32_t e = q->heap[i];
  for (;;) {
    size_t c = 2 * i + 1;
    if (c >= q->n)
      break;
    if (c + 1 < q->n && before(tiles, q->heap[c + 1], q->heap[c]))
      c++;
    if (!before(tiles, q->heap[c], e))
      break;
    place(q, i, q->heap[c]);
    i = c;
  }
  place(q, i, e);
}

void np_ready_update(np_ready *q, const np_tile *tiles, int32_t e)
{
  int32_t i = q->pos[e];
  if (tiles[e].entry_ready) {
    if (i < 0) {
      q->heap[q->n] = e;
      sift_up(q, tiles, q->n++);
      return;
    }
    sift_up(q, tiles, (size_t)i);
    sift_down(q, tiles, (size_t)q->pos[e]);
    return;
  }
  if (i < 0)
    return;
  q->pos[e] = -1;
  int32_t last = q->heap[--q->n];
  if ((size_t)i == q->n)
    return;
  place(q, (size_t)i, last);
  sift_up(q, tiles, (size_t)i);
  sift_down(q, tiles, (size_t)q->pos[last]);
}

int32_t np_ready_first(const np_ready *q) { return q->n ? q->heap[0] : -1; }
