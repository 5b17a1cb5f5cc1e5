/* np_noc.h: the NorthPole simulator's network on chip (noc.c): XY routes
 * over the mesh links, two networks (activations, partial sums), per-link
 * bandwidth and first-come first-served link reservation. */
#ifndef NC_TARGETS_NORTHPOLE_NP_NOC_H
#define NC_TARGETS_NORTHPOLE_NP_NOC_H

#include <stdint.h>

#include "nc/runtime/nc_trace.h"

/** The networks a send can travel on (the send instruction's network word). */
enum { NP_NET_ACTIVATION = 0, NP_NET_PARTIAL_SUM = 1, NP_NUM_NETS = 2 };

/** Link directions out of a core: +x, -x, +y, -y. */
enum { NP_DIR_EAST = 0, NP_DIR_WEST = 1, NP_DIR_SOUTH = 2, NP_DIR_NORTH = 3, NP_NUM_DIRS = 4 };

/** The links of both networks and their reservations and loads. */
typedef struct np_noc {
  uint32_t rows, cols, link_bytes_per_cycle, hop_latency_cycles;
  uint64_t *free_at;     /* per link: the first cycle it is free */
  uint64_t *bytes, *busy; /* per link: bytes carried and cycles busy in this run */
  nc_trace *trace;        /* NULL, or where each link's load goes as a counter (1 busy, 0 idle) */
} np_noc;

/** Sets up the links of a rows x cols mesh (all free, no load). */
void np_noc_init(np_noc *n, uint32_t rows, uint32_t cols, uint32_t link_bytes_per_cycle, uint32_t hop_latency_cycles);
/** Frees the links (n itself is the caller's). */
void np_noc_destroy(np_noc *n);
/** Makes every link free at cycle 0 with no load (a new run). */
void np_noc_reset(np_noc *n);
/** Number of directed links, both networks. */
uint64_t np_noc_num_links(const np_noc *n);
/** Link index of the link leaving (x, y) in direction dir on network net. */
uint64_t np_noc_link(const np_noc *n, int net, uint32_t x, uint32_t y, int dir);
/** Hops of the XY route from (sx, sy) to (dx, dy). */
uint64_t np_noc_hops(int64_t sx, int64_t sy, int64_t dx, int64_t dy);
/** Ends the link-load counters of a traced run: each used link drops to 0
 * when its last message has passed. */
void np_noc_trace_end(np_noc *n);
/** Sends `bytes` from core (sx, sy) to (dx, dy) on network net, leaving at
 * cycle t: reserves every link of the XY route (x first, then y) in turn,
 * each for ceil(bytes / link width) cycles from when the message's head
 * reaches it or the link is free, whichever is later; returns the cycle the
 * message's tail arrives. A core outside the mesh costs hops only. */
uint64_t np_noc_send(np_noc *n, int net, int64_t sx, int64_t sy, int64_t dx, int64_t dy, uint64_t t, uint64_t bytes);

#endif
