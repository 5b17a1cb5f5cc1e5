/* np_ready_test.c: the NorthPole simulator's ready queue (np_ready_*,
 * targets/northpole/runtime/ready_queue.c) against the walk over every
 * entry it replaces in np_sim_run: after each batch of random updates
 * (entries becoming ready, moving earlier or later, equal times, dropping
 * out), np_ready_first names the ready entry with the least (entry_at,
 * entry_pick), or -1 when none is ready; a reset empties the queue. */
#include <stdlib.h>

#include "../../targets/northpole/runtime/np_sim.h"
#include "check.h"

enum { N = 37 };

/* The walk: the ready entry with the least (at, pick), or -1. */
static int32_t walk_first(const np_tile *t)
{
  int32_t best = -1;
  for (int32_t i = 0; i < N; i++)
    if (t[i].entry_ready && (best < 0 || t[i].entry_at < t[best].entry_at ||
                             (t[i].entry_at == t[best].entry_at && t[i].entry_pick < t[best].entry_pick)))
      best = i;
  return best;
}

int main(void)
{
  static np_tile t[N];
  np_ready q = {0};
  uint32_t seed = 12345;
  for (int round = 0; round < 3; round++) {
    np_ready_reset(&q, N);
    for (int32_t i = 0; i < N; i++)
      t[i].entry_ready = false, t[i].entry_pick = (i * 7) % N; /* distinct picks, not in entry order */
    CHECK(np_ready_first(&q) == -1, "round %d: an empty queue names entry %d", round, np_ready_first(&q));
    for (int step = 0; step < 4000; step++) {
      int batch = 1 + step % 3;
      for (int b = 0; b < batch; b++) {
        seed = seed * 1103515245u + 12345u;
        int32_t e = (int32_t)((seed >> 8) % N);
        t[e].entry_ready = (seed >> 20) % 5 != 0;
        t[e].entry_at = (seed >> 4) % 16; /* few times: many ties, broken by pick */
        np_ready_update(&q, t, e);
      }
      int32_t got = np_ready_first(&q), want = walk_first(t);
      CHECK(got == want, "round %d step %d: first %d, the walk gives %d", round, step, got, want);
      if (got != want)
        break;
    }
  }
  np_ready_destroy(&q);
  return failures != 0;
}
