/* noc.c: the NorthPole network on chip, kept out of the datapath.
 *
 * A message follows its dimension-ordered route (along x, then along y),
 * cut-through: its head moves one hop per hop latency, and each link it
 * crosses is busy ceil(bytes / link width) cycles. A link that is already
 * reserved delays the head until it is free, so flows that share a link
 * serialise and flows on disjoint links do not interact. Reservations are
 * first come, first served in the order the simulator issues the sends
 * (by the sender's clock, ties by tile index: see sim.c), which makes every
 * run reproducible. Activations and partial sums have separate links.
 * A multicast reserves the union of its destinations' routes, each link
 * once (np_noc_multicast).
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
  n->free_at = nc_rt_calloc(links ? links : 1, sizeof *n->free_at);
  n->bytes = nc_rt_calloc(links ? links : 1, sizeof *n->bytes);
  n->busy = nc_rt_calloc(links ? links : 1, sizeof *n->busy);
  n->mc_stamp = nc_rt_calloc(links ? links : 1, sizeof *n->mc_stamp);
  n->mc_head = nc_rt_calloc(links ? links : 1, sizeof *n->mc_head);
}

void np_noc_destroy(np_noc *n)
{
  free(n->free_at), free(n->bytes), free(n->busy), free(n->mc_stamp), free(n->mc_head);
  n->free_at = n->bytes = n->busy = n->mc_stamp = n->mc_head = NULL;
}

uint64_t np_noc_num_links(const np_noc *n) { return (uint64_t)NP_NUM_NETS * n->rows * n->cols * NP_NUM_DIRS; }

void np_noc_reset(np_noc *n)
{
  uint64_t links = np_noc_num_links(n);
  memset(n->free_at, 0, links * sizeof *n->free_at);
  memset(n->bytes, 0, links * sizeof *n->bytes);
  memset(n->busy, 0, links * sizeof *n->busy);
  memset(n->mc_stamp, 0, links * sizeof *n->mc_stamp);
  n->mc_count = 0;
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

void np_noc_trace_end(np_noc *n)
{
  for (uint64_t l = 0; n->trace && l < np_noc_num_links(n); l++)
    if (n->busy[l])
      trace_link(n, l, n->free_at[l], 0);
}

static uint64_t sat_add(uint64_t a, uint64_t b) { return a > UINT64_MAX - b ? UINT64_MAX : a + b; }

static int inside(const np_noc *n, int64_t x, int64_t y) { return x >= 0 && y >= 0 && x < n->cols && y < n->rows; }

/* Reserves link l for a message whose head reaches it at `head` and which
 * holds it `serial` cycles (first come, first served: it starts when the
 * link is free); returns when the head reaches the next link. */
static uint64_t reserve_link(np_noc *n, uint64_t l, uint64_t head, uint64_t serial, uint64_t bytes)
{
  uint64_t start = head > n->free_at[l] ? head : n->free_at[l];
  if (n->trace && (!n->busy[l] || start > n->free_at[l])) { /* idle until start: one step per busy period */
    if (n->busy[l])
      trace_link(n, l, n->free_at[l], 0);
    trace_link(n, l, start, 1);
  }
  n->free_at[l] = sat_add(start, serial);
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
