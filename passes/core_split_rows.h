/* core_split_rows.h: core-place's row bands (core.tile out_rows), kept
 * apart from its output-channel splitting and placement search.
 */
#ifndef NC_PASSES_CORE_SPLIT_ROWS_H
#define NC_PASSES_CORE_SPLIT_ROWS_H

#include "nc/dialects/core/core.h"

/** What the row balancing's cost model counts beyond each stage's work and
 * sends (core-place{band-multicast recv-links}). */
typedef struct core_band_costs {
  bool multicast;     /**< a row leaves once to all the tiles that read it (core-multicast), not once per tile */
  int64_t recv_links; /**< a stage is as slow as the links into its largest tile, at most this many of them
                           sharing its incoming bytes (0: receiving is not costed) */
  bool fold_concat;   /**< channel concats that only move data cost nothing (core-fold-concat removes their tiles) */
  bool partial_bands; /**< the balancing may band layers split by input channels (each band an input-channel group) */
  int64_t plan_copies; /**< keep the balancing round from which core-replicate, with this many copies of a layer at
                            most, reaches the fastest slowest stage on the cores left (0: balance while it helps) */
  int64_t joint_rows; /**< the balancing may also give more output-channel slices to conv layers (not split by input
                           channels) with at most this many output rows, as a joint round does (0: only with joint) */
  const bool *guests; /**< per node of the function (or NULL): guest layers, whose tiles take no core of their own
                           and whose work is not costed (core_place_guests.h) */
  bool multicast_sends; /**< refine_minmax: core-multicast will send an iteration once to all its readers */
  bool minmax;        /**< after the balancing rounds, take the split whose slowest stage, timed as the simulator
                           times it, is the shortest the cores allow (each stage's fewest tiles for a bound B,
                           the least B whose tiles fit), when that is faster */
  int64_t *minmax_cycles; /**< with minmax (or NULL): [0], [1] set to the slowest stage's cycles per frame in its
                               model before and after it (equal when it kept the rounds' split); [2] to the cores
                               beyond `cores` the next shorter slowest stage would need (0: none, or it fits) */
  bool minmax_fold_concat; /**< minmax: channel concats that only move data cost nothing, their producers sending
                                to their readers (core-fold-concat will remove their tiles) */
  int64_t minmax_recv_links; /**< minmax: links into a core distinct producers' messages may take, one producer's
                                  over one link (core_link_cost.h; 0, 1: every byte over one link) */
  const bool *adds;   /**< per node of the function (or NULL): residual adds that will follow their producers'
                           tiles (core_place_adds.h): never banded, and their stages cost nothing */
  int64_t minmax_single_links; /**< minmax: links into a core that one producer's tiles' messages may take, for a
                                    stage reading that producer only (a pool after a banded stem; 0: as
                                    minmax_recv_links) */
  const bool *small;  /**< per node of the function (or NULL): small weightless layers (core_place_small.h), among
                           `guests` but leaving the other stages' channel slices free to change: their tiles
                           take a few KB of a core */
} core_band_costs;

/** Whether core-place may split `node` into bands of output rows: a conv,
 * matmul ([M, K] x [K, N]: rows m), max or average pool, elementwise, table
 * or rescaling concat layer with at least two output rows. */
bool core_node_row_splittable(NC_KEEP const nc_op *node);

/** Splits the (unplaced) tiles of the row-splittable nodes of `fn` on
 * `chip` into bands of output rows: `forced` bands per node when it is
 * above 1 (at most one per row; a layer split by input channels too, each
 * band of its input-channel group a group of its own), then, with `balance`, one more band for the
 * slowest pipeline stage while that makes it faster and the chip's `cores`
 * allow (each band of a node costs one core per channel slice); before
 * that, `balance` joins the channel slices of a node reading a network input
 * back into one tile when it fits a core (the host's link sends the input
 * to every slice), unless `presplit` (core_nodes_split_already) says
 * they came split. Nodes already banded are left alone. With `joint` (and
 * `balance`), a round may also give a conv or max-pool layer core-place
 * split (or left whole) more output-channel slices: the slowest stage gets
 * the combination of channel slices x bands with the fewest tiles that
 * makes its largest tile smaller; layers split by input channels only with
 * costs->partial_bands. `costs` says what the balancing's cost
 * model counts beyond work and sends (and whether
 * channel concats that only move data cost nothing: core-fold-concat removes
 * their tiles). *n_split counts the nodes banded. */
bool core_split_rows(nc_op *chip, nc_op *fn, isl_ctx *ictx, const bool *presplit, int64_t forced, bool balance,
                     bool joint, const core_band_costs *costs, int64_t cores, int64_t *n_split);

/** Per node of `fn` (in order): whether its tiles on `chip` are split
 * already (several tiles, or a slice), before core-place splits anything:
 * core_split_rows never joins those. NULL (and an error) when out of memory;
 * free() the array. */
NC_GIVE bool *core_nodes_split_already(NC_KEEP nc_op *chip, NC_KEEP nc_op *fn);

#endif
