/* np_noc.h: the NorthPole simulator's network on chip (noc.c): XY routes
 * over the mesh links, two networks (activations, partial sums), per-link
 * bandwidth, and links reserved as busy intervals (a message takes the first
 * idle gap that fits, in the order the sends are issued). */
#ifndef NC_TARGETS_NORTHPOLE_NP_NOC_H
#define NC_TARGETS_NORTHPOLE_NP_NOC_H

#include <stdbool.h>
#include <stdint.h>

#include "nc/runtime/nc_trace.h"

/** The networks a send can travel on (the send instruction's network word). */
enum { NP_NET_ACTIVATION = 0, NP_NET_PARTIAL_SUM = 1, NP_NUM_NETS = 2 };

/** Link directions out of a core: +x, -x, +y, -y. */
enum { NP_DIR_EAST = 0, NP_DIR_WEST = 1, NP_DIR_SOUTH = 2, NP_DIR_NORTH = 3, NP_NUM_DIRS = 4 };

/** One link's reservations: busy from iv[2i] to iv[2i + 1] (exclusive) for
 * lo <= i < hi, sorted, disjoint and never touching (touching ones merge). */
typedef struct np_link {
  uint64_t *iv;
  uint32_t lo, hi, cap; /* the live intervals, and room for cap */
} np_link;

/** The links of both networks and their reservations and loads. */
typedef struct np_noc {
  uint32_t rows, cols, link_bytes_per_cycle, hop_latency_cycles;
  uint32_t local_bytes_per_cycle; /* a message to a tile on the sender's own core: an SRAM copy at this rate */
  np_link *links;        /* per link: its busy intervals that may still matter */
  uint64_t horizon;      /* no send from now on reserves a link before this cycle (np_noc_advance) */
  uint64_t *bytes, *busy; /* per link: bytes carried and cycles busy in this run */
  uint64_t *mc_stamp, *mc_head; /* per link: the multicast that last crossed it, and when its head left it */
  uint64_t mc_count;            /* multicasts sent (the stamps) */
  nc_trace *trace;        /* NULL, or where each link's load goes as a counter (1 busy, 0 idle) */
} np_noc;

/** Sets up the links of a rows x cols mesh (all free, no load); a message
 * to the sender's own core costs ceil(bytes / link width) until
 * np_noc_set_local_rate says otherwise. */
void np_noc_init(np_noc *n, uint32_t rows, uint32_t cols, uint32_t link_bytes_per_cycle, uint32_t hop_latency_cycles);
/** Messages between tiles of one core (core.tile slot) are copies within
 * its SRAM at `bytes_per_cycle` (0: the link width): no link, no hop. */
void np_noc_set_local_rate(np_noc *n, uint32_t bytes_per_cycle);
/** Cycles a local copy of `bytes` takes (np_noc_set_local_rate). */
uint64_t np_noc_local_cycles(const np_noc *n, uint64_t bytes);
/** Cycles the sender at (sx, sy) is busy sending `bytes` to the nd cores
 * at (dxy[2i], dxy[2i+1]) as one message (a unicast: nd = 1; the host: any
 * core outside the mesh): its port's ceil(bytes / link width) if one is
 * another core, or the local copy's cycles if one is its own core, the
 * longer of the two if both (the port and the copy run side by side). */
uint64_t np_noc_sender_cycles(const np_noc *n, int64_t sx, int64_t sy, const int64_t *dxy, uint64_t nd,
                              uint64_t bytes);
/** Frees the links (n itself is the caller's). */
void np_noc_destroy(np_noc *n);
/** Makes every link free at cycle 0 with no load (a new run). */
void np_noc_reset(np_noc *n);
/** Tells the network that no message sent from now on leaves before cycle
 * `now` (the simulator's earliest clock that can still send): each link then
 * drops the intervals that end by `now` when it is next reserved, which keeps
 * long runs in bounded memory and does not change any time. A later message
 * whose head would reach a link before the latest `now` waits until then. */
void np_noc_advance(np_noc *n, uint64_t now);
/** Number of directed links, both networks. */
uint64_t np_noc_num_links(const np_noc *n);
/** Link index of the link leaving (x, y) in direction dir on network net. */
uint64_t np_noc_link(const np_noc *n, int net, uint32_t x, uint32_t y, int dir);
/** Hops of the XY route from (sx, sy) to (dx, dy). */
uint64_t np_noc_hops(int64_t sx, int64_t sy, int64_t dx, int64_t dy);
/** Ends the link-load counters of a traced run: writes every link's
 * remaining busy intervals (1 at each start, 0 at each end). */
void np_noc_trace_end(np_noc *n);
/** Sends `bytes` from core (sx, sy) to (dx, dy) on network net, leaving at
 * cycle t: reserves every link of the XY route (x first, then y) in turn,
 * each for ceil(bytes / link width) cycles: the first idle gap of the link
 * that long at or after the message's head reaches it (the head reaches the
 * next link a hop latency after the gap starts); returns the cycle the
 * message's tail arrives. A core outside the mesh costs hops only. (The
 * simulator delivers a message to the sender's own core itself, as a local
 * copy: np_noc_local_cycles.) */
uint64_t np_noc_send(np_noc *n, int net, int64_t sx, int64_t sy, int64_t dx, int64_t dy, uint64_t t, uint64_t bytes);
/** Multicasts `bytes` from (sx, sy) to the nd cores at (dxy[2i], dxy[2i+1])
 * on network net, leaving at cycle t: the union of their XY routes (a tree:
 * they share the source's row, then each column) is reserved link by link as
 * np_noc_send does, each link once; arrival[i] is when the tail reaches
 * destination i. A destination outside the mesh costs hops only. */
void np_noc_multicast(np_noc *n, int net, int64_t sx, int64_t sy, const int64_t *dxy, uint64_t nd, uint64_t t,
                      uint64_t bytes, uint64_t *arrival);

#endif
