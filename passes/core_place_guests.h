/* core_place_guests.h: core-place's guest layers, kept apart from its
 * splitting and placement search: layers whose weights fill cores but whose
 * work is light (fully connected) get no cores of their own; their slices
 * live in the spare SRAM of other layers' cores (core.tile slot).
 */
#ifndef NC_PASSES_CORE_PLACE_GUESTS_H
#define NC_PASSES_CORE_PLACE_GUESTS_H

#include "nc/dialects/core/core.h"

/** Per node of `fn` (in order): whether it is a guest layer: a conv or
 * matmul, whole on one tile of `chip`, that uses each weight at most a few
 * times per frame (a fully connected layer: once) and does not fit one
 * core's SRAM; NULL when the tiles SRAM forces on such layers beyond one a
 * layer take at most `above` percent of `cores` (`above` <= 0: never) and
 * fewer than `min_extra` (<= 0: never), or when out of memory. *extra is that number of tiles. free() the array. */
NC_GIVE bool *core_guest_layers(NC_KEEP nc_op *chip, NC_KEEP nc_op *fn, isl_ctx *ictx, int64_t above,
                                int64_t min_extra, int64_t cores, int64_t *extra);

/** Guest slices placed in other tiles' cores, between packing and placement. */
typedef struct core_guests {
  nc_op **tiles;   /**< the guest slices sharing a core (detached while the others are placed) */
  nc_op **hosts;   /**< per slice: the tile whose core it shares */
  nc_op **anchors; /**< per slice: the tile it followed in the chip (NULL: the first) */
  size_t n;
  bool *first;     /**< per slice: it goes right before its host in the chip (the simulator gives a core to the
                        first of its tiles that can go on: a residual add slice then runs its frame before its host
                        conv starts the next one); NULL: none */
} core_guests;

/** Splits each guest layer's single tile into output-channel slices of
 * whatever width fits: first on the cores of `cores` that no tile uses (a
 * slice alone on a core, placed like any tile), then in the spare SRAM of
 * the other tiles, most spare first (a slice shares that tile's core), or
 * the other way round with `spare_first` (leaving free cores to
 * core-replicate's copies),
 * leaving free on a tile that reads a network input `host_frames` frames of
 * what it reads (core-host-buffers grows its input buffers to that), and
 * leaving the tiles of the nodes `no_host` marks (per node of fn, or NULL:
 * they will share a core themselves) without guests. On
 * success returns true and fills *g; when the guests do not fit, returns
 * false with *short_cores the cores they lack (0 and an error emitted: a
 * failure). */
bool core_pack_guests(nc_op *chip, NC_KEEP nc_op *fn, NC_KEEP const bool *guest, NC_KEEP const bool *no_host,
                      int64_t cores, int64_t host_frames, bool spare_first, isl_ctx *ictx, core_guests *g,
                      int64_t *short_cores);

/** Appends `tile`, which will share `host_tile`'s core, to g; with `first`
 * it will come right before its host in the chip (else where it was). */
void core_guests_add(core_guests *g, nc_op *tile, nc_op *host_tile, bool first);

/** Unlinks the slices of g that share a core from the chip (before the
 * other tiles are placed). */
void core_guests_detach(core_guests *g);

/** Links them back where they were and gives each its host's position and
 * the core's next slot; frees g's arrays. */
void core_guests_attach(nc_op *chip, core_guests *g);

/** Frees g's arrays (and the detached slices, if any). */
void core_guests_destroy(core_guests *g, bool detached);

#endif
