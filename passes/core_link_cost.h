/* core_link_cost.h: what receiving costs a tile in balance-minmax's model
 * (core_split_rows.c, refine_minmax), kept apart from the split choice.
 */
#ifndef NC_PASSES_CORE_LINK_COST_H
#define NC_PASSES_CORE_LINK_COST_H

#include <stddef.h>

/** One producer of a tile's input, as balance-minmax's model sees it: the
 * bytes per frame of its messages the tile receives, and how many of the
 * producer's tiles send them. */
typedef struct core_link_source {
  double bytes; /**< bytes per frame the tile receives from this producer */
  double tiles; /**< the producer's tiles those bytes come from (the host: 1) */
} core_link_source;

/** Cycles per frame the links into one tile are busy receiving from the
 * `n` producers `src`, at `bw` bytes per cycle per link, with at most
 * `max_links` links into a core taking its messages. The messages of one
 * sending tile follow one XY route and enter over one link, so a producer
 * of t tiles brings its bytes over min(t, max_links) links at most (link
 * contention: a producer in few tiles sends over few links whatever the
 * other producers do), and all of them over as many links as tiles send,
 * max_links at most; the tile is as slow as the busier of the two.
 * `max_links` <= 1: every byte over one link (the model's old margin). */
double core_link_recv_cycles(const core_link_source *src, size_t n, double bw, double max_links);

#endif
