/* core_place_small.h: core-place's small layers (core-place{small-guests}):
 * weightless layers with little work and data (a global pool, a flatten)
 * take no core of their own; each whole tile shares the core with the most
 * idle cycles and link time, so balancing gives their cores to the slowest
 * layers.
 */
#ifndef NC_PASSES_CORE_PLACE_SMALL_H
#define NC_PASSES_CORE_PLACE_SMALL_H

#include "core_place_guests.h"

/** Per node of `fn` (in order): whether it is a small layer: no weights,
 * one operand, whole on one tile of `chip`, not marked in `taken` (per
 * node: already a guest or an add guest; NULL: none), whose tile's
 * estimated cycles per frame (compute and sends, or its input over one
 * link) are at most `percent` % of the chip's compute bound (every layer's
 * work at its MAC rate, over all the cores); NULL when none is (`percent`
 * <= 0: never; a chip without a description) or out of memory. *count: how
 * many are. free() the array. */
NC_GIVE bool *core_small_layers(NC_KEEP nc_op *chip, NC_KEEP nc_op *fn, NC_KEEP const bool *taken, int64_t percent,
                                int64_t *count);

/** Moves each small layer's whole tile onto the core of the tile (not a
 * guest itself) whose core, with the guests *g already gives it, would be
 * busiest the least with it: compute and sends, or what its links bring
 * in, whichever is longer, a message from a tile of the same core costing
 * no link; its buffers must fit that core's SRAM. Appends each to *g.
 * Returns false when one fits no core (the caller restores the chip). */
bool core_pack_small(nc_op *chip, NC_KEEP nc_op *fn, NC_KEEP const bool *small, core_guests *g);

/** The estimated compute and sends per frame (each tile its channels' and
 * rows' share of its layer's work and packed output) of the busiest core
 * holding guests in *g: its host tile's plus its guests'. Min-max's stage
 * cycles leave the guests out (vgg11 at 4 bits: conv4's slowest stage 16,097
 * cycles per frame in its model, 16,808 in the simulator with a matmul
 * slice on each core); 0 when *g is empty or the chip has no description. */
double core_hosts_busiest(NC_KEEP nc_op *chip, NC_KEEP nc_op *fn, const core_guests *g);

#endif
