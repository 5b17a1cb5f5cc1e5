/* host_credit.c: credit flow control on the host's input link.
 *
 * The host writes input rows (steps) into the input buffers of the tiles
 * that read them. On a real chip it cannot write into a full buffer: a
 * buffer's free space goes back to the writer as credits, and a write
 * waits until there are enough. Without this the simulated host ran frames
 * ahead of the chip (its messages waited in the network, which holds any
 * number), and its rows held the links on its routes while the chip's own
 * messages waited: a host that no chip has.
 *
 * Here (sim.c) the host holds one credit count per (tile, host-fed operand),
 * the operand's input buffer size in bytes (core.buffer kind "input"; a tile
 * without one gets no flow control). Writing a step takes the bytes of it
 * the tile reads (the bytes that count in the buffer, as the simulator's
 * size check counts them); they come back when the tile's compute releases
 * them (their last reader ran), at the compute's end plus the hops back to
 * the host (a credit message one hop latency per hop, on no link's time).
 * A step whose bytes exceed the whole buffer waits until it is empty (the
 * recv's size check then reports the overflow). The host sends in order,
 * so a step waiting for credits holds the ones behind it.
 *
 * Returns arrive in time order per buffer (a tile's computes end in order),
 * so the earliest cycle with enough credits is a walk along them.
 */
#include <stdlib.h>

#include "../../common/runtime/rt_util.h"
#include "np_credit.h"

void np_credits_reset(np_credits *c, int64_t capacity)
{
  c->capacity = capacity;
  c->available = capacity;
  c->lo = c->hi = 0;
}

void np_credits_destroy(np_credits *c)
{
  free(c->ret);
  c->ret = NULL;
  c->lo = c->hi = c->cap = 0;
}

void np_credits_return(np_credits *c, uint64_t at, int64_t bytes)
{
  if (c->capacity < 0 || bytes <= 0)
    return;
  if (c->lo < c->hi && c->ret[c->hi - 1].at >= at) { /* no earlier than the last: merge */
    c->ret[c->hi - 1].bytes += bytes;
    return;
  }
  if (c->hi == c->cap) {
    if (c->lo > 0) { /* move the live ones down */
      for (uint32_t i = c->lo; i < c->hi; i++)
        c->ret[i - c->lo] = c->ret[i];
      c->hi -= c->lo, c->lo = 0;
    } else {
      c->cap = c->cap ? 2 * c->cap : 8;
      c->ret = nc_rt_realloc(c->ret, c->cap * sizeof *c->ret);
    }
  }
  c->ret[c->hi++] = (np_credit_return){at, bytes};
}

bool np_credits_when(const np_credits *c, uint64_t now, int64_t bytes, uint64_t *at)
{
  *at = now;
  if (c->capacity < 0)
    return true;
  int64_t need = bytes < c->capacity ? bytes : c->capacity, have = c->available;
  for (uint32_t i = c->lo; i < c->hi && (have < need || c->ret[i].at <= now); i++) {
    have += c->ret[i].bytes;
    if (c->ret[i].at > *at)
      *at = c->ret[i].at;
  }
  return have >= need;
}

void np_credits_take(np_credits *c, uint64_t at, int64_t bytes)
{
  if (c->capacity < 0)
    return;
  for (; c->lo < c->hi && c->ret[c->lo].at <= at; c->lo++)
    c->available += c->ret[c->lo].bytes;
  if (c->lo == c->hi)
    c->lo = c->hi = 0;
  c->available -= bytes;
}
