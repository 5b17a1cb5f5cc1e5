/* core_place_adds.h: core-place's residual adds that follow their
 * producers (core-place{add-guests}): an add is cut like the conv that
 * feeds it and each slice shares that conv tile's core (core.tile slot),
 * so the add takes no core of its own and sends its output from as many
 * ports as its producer has tiles.
 */
#ifndef NC_PASSES_CORE_PLACE_ADDS_H
#define NC_PASSES_CORE_PLACE_ADDS_H

#include "core_place_guests.h"

/** Per node of `fn` (in order): whether it is a residual add or subtract
 * of two tensors of its shape, whole on one tile of `chip`, one of whose
 * operands a conv computes; NULL when none is (or out of memory). free()
 * the array. */
NC_GIVE bool *core_add_layers(NC_KEEP nc_op *chip, NC_KEEP nc_op *fn);

/** The operand of an add whose conv producer its slices follow: the first
 * one a conv computes (-1: none). */
int core_add_followed_operand(NC_KEEP nc_op *node);

/** Cuts each add of `adds` (per node of fn) like the conv producing one of
 * its operands (each conv tile's out_channels and out_rows) and appends
 * every slice to *g with that conv tile as its host (it shares the conv
 * tile's core). The slices' buffers must fit the SRAM the host and its
 * guests already in *g leave. Returns false when one does not fit (the
 * chip is then half cut: the caller restores it) or on an error (emitted;
 * *failed set). */
bool core_pack_adds(nc_op *chip, NC_KEEP nc_op *fn, NC_KEEP const bool *adds, isl_ctx *ictx, core_guests *g,
                    bool *failed);

#endif
