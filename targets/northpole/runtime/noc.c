/* noc.c: the NorthPole network on chip, kept out of the datapath.
 *
 * A message follows its dimension-ordered route (along x, then along y),
 * cut-through: its head moves one hop per hop latency, and each link it
 * crosses is busy ceil(bytes / link width) cycles. Each link keeps the
 * intervals it is reserved (sorted, disjoint; touching ones merged); a
 * message takes, link after link, the first idle gap at or after its head
 * reaches the link that is long enough, so flows that share a link serialise,
 * flows on disjoint links do not interact, and a message the simulator
 * issues late (its sender's clock ran behind while it waited) still uses the
 * idle time before messages issued earlier but later in time: link time is
 * not lost to the order of the event loop. Gaps are taken first come, first
 * served in the order the simulator issues the sends (by the sender's clock,
 * ties by tile index: see sim.c), which makes every run reproducible.
 * Activations and partial sums have separate links. A multicast reserves the
 * union of its destinations' routes, each link once (np_noc_multicast).
 * A message between two tiles of one core (core-colocate's slots) takes no
 * link: it is a copy within the core's SRAM (np_noc_set_local_rate; the
 * simulator sets the core's byte rate, its 8-bit MACs per cycle), which the
 * simulator delivers itself; np_noc_sender_cycles says how long the sender
 * is busy either way.
 *
 * Memory stays bounded on long runs: the simulator tells the network the
 * earliest cycle a later send can start (np_noc_advance), and a link drops
 * the intervals that end by then when it is next reserved (and a traced run
 * writes them out then, in time order).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/runtime/rt_util.h"
#include "np_noc.h"

void np_noc_init(np_noc *n, uint32_t rows, uint32_t cols, uint32_t link_bytes_per_cycle, uint32_t hop_latency_cycles)
{
  memset(n, 0, sizeof *n);
  n->rows = rows, n->cols = cols;
  n->link_bytes_per_cycle = link_bytes_per_cycle ? link_bytes_per_cycle : 1;
  n->hop_latency_cycles = hop_latency_cycles;
  uint64_t links = np_noc_num_links(n);
  n->links = nc_rt_calloc(links ? links : 1, sizeof *n->links);
  n->bytes = nc_rt_calloc(links ? links : 1, sizeof *n->bytes);
  n->busy = nc_rt_calloc(links ? links : 1, sizeof *n->busy);
  n->mc_stamp = nc_rt_calloc(links ? links : 1, sizeof *n->mc_stamp);
  n->mc_head = nc_rt_calloc(links ? links : 1, sizeof *n->mc_head);
}

void np_noc_set_local_rate(np_noc *n, uint32_t bytes_per_cycle) { n->local_bytes_per_cycle = bytes_per_cycle; }

uint64_t np_noc_local_cycles(const np_noc *n, uint64_t bytes)
{
  uint64_t rate = n->local_bytes_per_cycle ? n->local_bytes_per_cycle : n->link_bytes_per_cycle;
  return (bytes + rate - 1) / rate;
}

uint64_t np_noc_sender_cycles(const np_noc *n, int64_t sx, int64_t sy, const int64_t *dxy, uint64_t nd,
                              uint64_t bytes)
{
  bool remote = false, local = false;
  for (uint64_t i = 0; i < nd; i++) {
    bool here = dxy[2 * i] == sx && dxy[2 * i + 1] == sy && sx >= 0 && sy >= 0 && sx < n->cols && sy < n->rows;
    local |= here, remote |= !here;
  }
  uint64_t port = remote ? (bytes + n->link_bytes_per_cycle - 1) / n->link_bytes_per_cycle : 0;
  uint64_t copy = local ? np_noc_local_cycles(n, bytes) : 0;
  return port > copy ? port : copy;
}

void np_noc_destroy(np_noc *n)
{
  for (uint64_t l = 0; n->links && l < np_noc_num_links(n); l++)
    free(n->links[l].iv);
  free(n->links), free(n->bytes), free(n->busy), free(n->mc_stamp), free(n->mc_head);
  n->links = NULL;
  n->bytes = n->busy = n->mc_stamp = n->mc_head = NULL;
}

uint64_t np_noc_num_links(const np_noc *n) { return (uint64_t)NP_NUM_NETS * n->rows * n->cols * NP_NUM_DIRS; }

void np_noc_reset(np_noc *n)
{
  uint64_t links = np_noc_num_links(n);
  for (uint64_t l = 0; l < links; l++)
    n->links[l].lo = n->links[l].hi = 0;
  memset(n->bytes, 0, links * sizeof *n->bytes);
  memset(n->busy, 0, links * sizeof *n->busy);
  memset(n->mc_stamp, 0, links * sizeof *n->mc_stamp);
  n->mc_count = 0;
  n->horizon = 0;
}

void np_noc_advance(np_noc *n, uint64_t now)
{
  if (now > n->horizon)
    n->horizon = now;
}

uint64_t np_noc_link(const np_noc *n, int net, uint32_t x, uint32_t y, int dir)
{
  return (((uint64_t)net * n->rows + y) * n->cols + x) * NP_NUM_DIRS + (uint64_t)dir;
}

uint64_t np_noc_hops(int64_t sx, int64_t sy, int64_t dx, int64_t dy)
{
  return (uint64_t)(sx > dx ? sx - dx : dx - sx) + (uint64_t)(sy > dy ? sy - dy : dy - sy);
}

/* The link-load counter of link l: "link load (x, y) east" (partial sums: "... east psum"). */
static void trace_link(const np_noc *n, uint64_t l, uint64_t at, double value)
{
  static const char *const dirs[NP_NUM_DIRS] = {"east", "west", "south", "north"};
  uint64_t dir = l % NP_NUM_DIRS, cell = l / NP_NUM_DIRS, x = cell % n->cols, y = cell / n->cols % n->rows;
  char name[64];
  snprintf(name, sizeof name, "link load (%u, %u) %s%s", (unsigned)x, (unsigned)y, dirs[dir],
           cell / n->cols / n->rows == NP_NET_PARTIAL_SUM ? " psum" : "");
  nc_trace_counter(n->trace, 1, name, at, value);
}

/* Drops link l's intervals that end by `until` (a traced run writes each as
 * one busy period: 1 at its start, 0 at its end). */
static void drop_until(np_noc *n, uint64_t l, uint64_t until)
{
  np_link *k = &n->links[l];
  for (; k->lo < k->hi && k->iv[2 * k->lo + 1] <= until; k->lo++)
    if (n->trace) {
      trace_link(n, l, k->iv[2 * k->lo], 1);
      trace_link(n, l, k->iv[2 * k->lo + 1], 0);
    }
  if (k->lo == k->hi)
    k->lo = k->hi = 0;
}

void np_noc_trace_end(np_noc *n)
{
  for (uint64_t l = 0; n->trace && l < np_noc_num_links(n); l++)
    drop_until(n, l, UINT64_MAX);
}

static uint64_t sat_add(uint64_t a, uint64_t b) { return a > UINT64_MAX - b ? UINT64_MAX : a + b; }

static int inside(const np_noc *n, int64_t x, int64_t y) { return x >= 0 && y >= 0 && x < n->cols && y < n->rows; }

/* The first of k's intervals that ends after t (k->hi if none): mostly the
 * end, where the latest reservations are. */
static uint32_t first_ending_after(const np_link *k, uint64_t t)
{
  if (k->lo == k->hi || k->iv[2 * (k->hi - 1) + 1] <= t)
    return k->hi;
  uint32_t lo = k->lo, hi = k->hi - 1; /* the answer is in [lo, hi] */
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo) / 2;
    if (k->iv[2 * mid + 1] <= t)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

/* Inserts [s, e) before k's interval i (lo <= i <= hi), merging it with the
 * neighbours it touches. The array grows only when at least half of it is
 * live, so its size stays within four times the most intervals ever live. */
static void insert_interval(np_link *k, uint32_t i, uint64_t s, uint64_t e)
{
  bool left = i > k->lo && k->iv[2 * (i - 1) + 1] == s, right = i < k->hi && k->iv[2 * i] == e;
  if (left && right) { /* fills the gap between them exactly */
    k->iv[2 * (i - 1) + 1] = k->iv[2 * i + 1];
    memmove(k->iv + 2 * i, k->iv + 2 * (i + 1), 2 * (size_t)(k->hi - i - 1) * sizeof *k->iv);
    k->hi--;
    return;
  }
  if (left || right) {
    k->iv[left ? 2 * (i - 1) + 1 : 2 * i] = left ? e : s;
    return;
  }
  if (k->hi == k->cap) {
    if (k->lo > 0 && k->lo >= k->hi - k->lo) { /* half or more dropped: move the live ones down */
      memmove(k->iv, k->iv + 2 * k->lo, 2 * (size_t)(k->hi - k->lo) * sizeof *k->iv);
      i -= k->lo, k->hi -= k->lo, k->lo = 0;
    } else {
      k->cap = k->cap ? 2 * k->cap : 4;
      k->iv = nc_rt_realloc(k->iv, 2 * (size_t)k->cap * sizeof *k->iv);
    }
  }
  memmove(k->iv + 2 * (i + 1), k->iv + 2 * i, 2 * (size_t)(k->hi - i) * sizeof *k->iv);
  k->iv[2 * i] = s, k->iv[2 * i + 1] = e;
  k->hi++;
}

/* Reserves link l for a message whose head reaches it at `head` and which
 * holds it `serial` cycles: the first idle gap of the link that long at or
 * after `head`; returns when the head reaches the next link. */
static uint64_t reserve_link(np_noc *n, uint64_t l, uint64_t head, uint64_t serial, uint64_t bytes)
{
  np_link *k = &n->links[l];
  drop_until(n, l, n->horizon);
  uint64_t start = head > n->horizon ? head : n->horizon; /* the dropped past counts as busy */
  uint32_t i = first_ending_after(k, start);
  while (i < k->hi && k->iv[2 * i] < sat_add(start, serial)) /* too short a gap before interval i */
    start = k->iv[2 * i + 1], i++;
  if (serial)
    insert_interval(k, i, start, sat_add(start, serial));
  n->busy[l] = sat_add(n->busy[l], serial);
  n->bytes[l] = sat_add(n->bytes[l], bytes);
  return sat_add(start, n->hop_latency_cycles);
}

uint64_t np_noc_send(np_noc *n, int net, int64_t sx, int64_t sy, int64_t dx, int64_t dy, uint64_t t, uint64_t bytes)
{
  uint64_t serial = (bytes + n->link_bytes_per_cycle - 1) / n->link_bytes_per_cycle;
  uint64_t hops = np_noc_hops(sx, sy, dx, dy);
  if (net < 0 || net >= NP_NUM_NETS || !inside(n, sx, sy) || !inside(n, dx, dy))
    return sat_add(sat_add(t, serial), hops * n->hop_latency_cycles);
  uint64_t head = t; /* when the head reaches the next link */
  int64_t x = sx, y = sy;
  while (x != dx || y != dy) {
    int dir = x != dx ? (dx > x ? NP_DIR_EAST : NP_DIR_WEST) : (dy > y ? NP_DIR_SOUTH : NP_DIR_NORTH);
    uint64_t l = np_noc_link(n, net, (uint32_t)x, (uint32_t)y, dir);
    head = reserve_link(n, l, head, serial, bytes);
    x += dir == NP_DIR_EAST ? 1 : dir == NP_DIR_WEST ? -1 : 0;
    y += dir == NP_DIR_SOUTH ? 1 : dir == NP_DIR_NORTH ? -1 : 0;
  }
  return sat_add(head, serial);
}

/* Multicast: each destination's XY route in turn, as np_noc_send, except
 * that a link this multicast already reserved is not reserved again: the
 * head moves on from when it left that link (the copies split where the
 * routes part, so every link of the tree carries the bytes once). */
void np_noc_multicast(np_noc *n, int net, int64_t sx, int64_t sy, const int64_t *dxy, uint64_t nd, uint64_t t,
                      uint64_t bytes, uint64_t *arrival)
{
  uint64_t serial = (bytes + n->link_bytes_per_cycle - 1) / n->link_bytes_per_cycle;
  uint64_t stamp = ++n->mc_count;
  for (uint64_t i = 0; i < nd; i++) {
    int64_t dx = dxy[2 * i], dy = dxy[2 * i + 1];
    if (net < 0 || net >= NP_NUM_NETS || !inside(n, sx, sy) || !inside(n, dx, dy)) {
      arrival[i] = sat_add(sat_add(t, serial), np_noc_hops(sx, sy, dx, dy) * n->hop_latency_cycles);
      continue;
    }

    uint64_t head = t;
    int64_t x = sx, y = sy;
    while (x != dx || y != dy) {
      int dir = x != dx ? (dx > x ? NP_DIR_EAST : NP_DIR_WEST) : (dy > y ? NP_DIR_SOUTH : NP_DIR_NORTH);
      uint64_t l = np_noc_link(n, net, (uint32_t)x, (uint32_t)y, dir);
      if (n->mc_stamp[l] == stamp) {
        head = n->mc_head[l];
      } else {
        head = reserve_link(n, l, head, serial, bytes);
        n->mc_stamp[l] = stamp, n->mc_head[l] = head;
      }
      x += dir == NP_DIR_EAST ? 1 : dir == NP_DIR_WEST ? -1 : 0;
      y += dir == NP_DIR_SOUTH ? 1 : dir == NP_DIR_NORTH ? -1 : 0;
    }
    arrival[i] = sat_add(head, serial);
  }
}
