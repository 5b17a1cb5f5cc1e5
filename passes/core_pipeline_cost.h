/* core_pipeline_cost.h: the pipeline cost model that core-place's
 * balancing minimises (cycles per frame = the busiest stage's), on plain
 * arrays, so that graph-quantize{mixed} can estimate the throughput of a
 * width assignment with the very model the mapping will then use.
 */
#ifndef NC_PASSES_CORE_PIPELINE_COST_H
#define NC_PASSES_CORE_PIPELINE_COST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/** One stage of the pipeline: a layer and the tiles that compute it. */
typedef struct core_stage {
  int64_t work;           /**< MACs (or vector operations) per frame, in 8-bit cycles' units (a 4-bit layer's shrink) */
  int64_t out_bytes;      /**< output bytes per frame (core-place: a byte per element, also below 8 bits,
                               where the NoC packs them: the margin for the link contention not modelled) */
  int64_t k;              /**< tiles (output-channel slices) */
  int64_t limit;          /**< most tiles balancing may give it */
  int64_t steps;          /**< messages per frame to each consumer tile (the node's iterations) */
  int64_t host_bytes;     /**< bytes per frame each tile receives from the host (network inputs) */
  int64_t host_steps;     /**< the messages they come in */
  double send_to_host;    /**< 1 when the node's output goes to the host */
  bool multicast;         /**< sends leave as multicasts (core-multicast): once to all tiles */
} core_stage;

/** Cycles per frame of stage i's tiles: its share of the work at `rate`
 * MACs per cycle plus its sends (one message per step to each consumer
 * tile, ceil(bytes / bw) cycles each), or the messages it receives over two
 * links, whichever is longer; consumers[i * n + j] is 1 when stage j reads
 * stage i's output. */
double core_pipeline_stage_cycles(const core_stage *st, const int64_t *consumers, size_t n, size_t i, double rate,
                                  double bw);

/** Cycles per frame of the slowest of the n stages or of the host's input
 * link (core_pipeline_stage_cycles). *which is
 * the slowest stage's index, or n for the host's link. */
double core_pipeline_slowest(const core_stage *st, const int64_t *consumers, size_t n, double rate, double bw,
                             size_t *which);

/** Gives stages more output-channel slices (st[i].k, up to st[i].limit)
 * while at most `cores` tiles are used and the slowest stage gets faster:
 * each round adds one slice to the slowest stage and, up to `lookahead`
 * slices, to whichever stage becomes the slowest, and is kept only if the
 * slowest stage ends faster than at the round's start. Returns the slowest
 * stage's cycles per frame after balancing. */
double core_pipeline_balance(core_stage *st, const int64_t *consumers, size_t n, int64_t cores, int64_t lookahead,
                             double rate, double bw);

/** As core_pipeline_balance, but a round that leaves the slowest stage as
 * slow is kept too when fewer stages are that slow: with two equally slow
 * stages, splitting one does not lower the slowest stage's cycles, but the
 * next round's split of the other does (the lexicographic order of the
 * stages' cycles, highest first, decreases every round). */
double core_pipeline_balance_ties(core_stage *st, const int64_t *consumers, size_t n, int64_t cores,
                                  int64_t lookahead, double rate, double bw);

#endif
