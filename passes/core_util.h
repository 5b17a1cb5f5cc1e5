/* core_util.h: what the core passes (dataflow-to-core, core-place,
 * core-schedule, core-plan-memory) share about putting a dataflow node on a
 * core: the buffers it needs, read from its layer (layer.h) and its
 * dataflow-deps attributes, never from the graph ops in its region.
 */
#ifndef NC_PASSES_CORE_UTIL_H
#define NC_PASSES_CORE_UTIL_H

#include "nc/dialects/core/chip_desc.h"
#include "nc/dialects/core/core.h"
#include "nc/dialects/dataflow/layer.h"
#include "nc/passes/mapping.h"

/** The width (4 or 2) at which a conv's or matmul's weights are packed,
 * two or four a byte, in SRAM and the binary: weights of that integer width
 * in a layer whose output has it too (the tile record's width); 0 when they
 * take a byte each. */
int core_packed_weight_bits(NC_KEEP const nc_dataflow_layer *layer);

/** The buffers a tile computing output channels [lo, hi) of `node` needs
 * (lo = hi = 0: the whole node), in this order:
 *   weights  the layer's weights, the part of them for [lo, hi) (they are
 *            per output channel), packed at core_packed_weight_bits;
 *   bias     the layer's bias and lut and 8 bytes per requantization
 *            multiplier/shift pair, again the part for [lo, hi);
 *   in<k>    per operand, buffer_elements[k] elements (needs dataflow-deps);
 *   out      the most elements one iteration writes into [lo, hi);
 *   acc      (scratch) as many int32 accumulators, for a conv or matmul that
 *            requantizes (its sums are wider than its output).
 * Buffers of 0 bytes are left out. *specs is malloc'ed. Returns false with
 * a message in err when the node lacks what is needed. */
bool core_node_buffers(NC_KEEP const nc_op *node, int64_t lo, int64_t hi, isl_ctx *ctx,
                       NC_GIVE nc_core_buffer_spec **specs, size_t *n, char *err, size_t errlen);

/** Splits tile, the node's single tile, into k output-channel slices
 * [C*j/k, C*(j+1)/k) in place (tile keeps slice 0; the others follow it),
 * each with its buffers (core_node_buffers). False with an error emitted
 * on the node when its buffers cannot be sized. */
bool core_tile_split_channels(nc_op *tile, NC_KEEP nc_op *node, int64_t k, isl_ctx *ictx);

/** Iterations of a node per frame (its domain's points; at least 1): the
 * messages it sends to each consumer tile (core_steps.c). */
int64_t core_node_steps(NC_KEEP const nc_op *node, isl_ctx *ctx);

/** Steps in which operand i of `node` arrives (the domain of its control
 * relation; at least 1): for a network input, about the messages the host
 * sends (rows that complete no iteration, such as the first rows of a
 * strided conv with a taller kernel, are not counted; core_host_steps). */
int64_t core_input_steps(NC_KEEP const nc_op *node, size_t i, isl_ctx *ctx);

/** The messages in which the host streams network input operand i of
 * `node`: one per row of its [C, H, W] coordinates, or per pixel when the
 * node's `earliest` relation has 2-D steps (input-granularity=pixel), as the
 * northpole simulator's host sends them; core_input_steps if the input is
 * not [C, H, W] or the node has no `earliest` relation. */
int64_t core_host_steps(NC_KEEP const nc_op *node, size_t i, isl_ctx *ctx);

/** Work per frame of a whole node: its output elements times the
 * multiply-accumulates (conv, matmul: one weight row) or vector operations
 * (pool window, 1 for the rest) per element, as the printer counts them
 * (core_steps.c; core-place's and core-replicate's cost models). */
int64_t core_node_work(NC_KEEP const nc_op *node);

/** The SRAM bytes of `tile`'s buffers (core-colocate's packing, core-place's add and small guests). */
int64_t core_tile_bytes(nc_op *tile);

/** The single tile on `chip` of the node named `name` when that tile computes the whole node (no channel,
 * row or input-channel range) in slot 0; NULL when the node is split or absent (core-place's add and
 * small guests). */
nc_op *core_chip_whole_tile(nc_op *chip, const char *name);

/** Whether tensors `a` and `b` have the same tensor coordinates (at least
 * three: [C, H, W]), as a residual add's operands and result do
 * (core-place{add-guests}, core-schedule's channel-restricted receives). */
bool core_same_chw_shape(NC_KEEP const nc_type *a, NC_KEEP const nc_type *b);

/** Link cycles of `bytes` sent in `steps` equal messages, each holding a
 * link ceil(message bytes / link width) cycles. */
double core_message_cycles(double bytes, int64_t steps, double link_bytes_per_cycle);

/** The buffers of a tile of `node` computing output channels [lo, hi)
 * (lo = hi = 0: all) over input channels [in_lo, in_hi) of operand 0
 * (in_lo = in_hi = 0: all; nc_core_node_get_in_channels): the weights and
 * operand 0's line buffer shrink to the slice; a tile that is not its
 * group's reducer (in_lo > 0) has no bias and sends int32 partial sums (its
 * `out` holds 4 bytes per element); the reducer gets a scratch `psum` for the
 * partial sums it adds. As core_node_buffers otherwise. */
bool core_node_buffers_sliced(NC_KEEP const nc_op *node, int64_t lo, int64_t hi, int64_t in_lo, int64_t in_hi,
                              isl_ctx *ctx, NC_GIVE nc_core_buffer_spec **specs, size_t *n, char *err, size_t errlen);

/** core-place's input-channel split of `node` (core_split_channels.c): with
 * `forced` > 0, that many input slices (at most its input channels) and the
 * fewest output slices that fit `sram`; otherwise the split with the fewest
 * tiles (at most max_tiles if > 0) whose largest tile fits, if one with input
 * slices exists. *ks (in: the output slices chosen so far) and *kin are set
 * only when input slices are chosen (*kin > 1); false after a diagnostic. */
bool core_choose_input_split(nc_op *node, int64_t sram, int64_t forced, int64_t max_tiles, isl_ctx *ctx, int64_t *ks,
                             int64_t *kin);
/** Splits the single, whole tile of `node` into ks output slices times kin
 * input slices (tiles of one output slice together, the reducer first), in
 * place, with their buffers. False after a diagnostic. */
bool core_split_input_channels(nc_op *tile, nc_op *node, int64_t ks, int64_t kin, isl_ctx *ctx);

/** The tiles of a chip by core and slot (several tiles may share a core). */
typedef struct core_tile_map {
  int64_t rows, cols;
  size_t n;
  nc_op **tiles;  /**< in chip order */
  int32_t *head;  /**< per core (y * cols + x): its first tile's index, -1: none */
  int32_t *next;  /**< per tile: the next tile on its core, -1: none */
  int64_t *slot;  /**< per tile: its slot when the map was built */
} core_tile_map;

/** Builds the map of the chip's placed tiles (owned by *m; core_tile_map_destroy);
 * it keeps their positions and slots as they are now. */
void core_tile_map_init(core_tile_map *m, NC_KEEP nc_op *chip);
void core_tile_map_destroy(core_tile_map *m);
/** The index of the tile at (x, y) in `slot`, or -1. */
int32_t core_tile_map_find(NC_KEEP const core_tile_map *m, int64_t x, int64_t y, int64_t slot);
/** How many tiles the core (x, y) holds. */
size_t core_tile_map_count(NC_KEEP const core_tile_map *m, int64_t x, int64_t y);

/** ceil(bytes / bw) as a double: a message's port cycles. */
double core_ceil_cycles(int64_t bytes, double bw);
/** Cycles a message of `bytes` costs a sender at core (x, y) whose
 * destination is core (to_x, to_y): a local copy at a byte per 8-bit MAC
 * lane per cycle (the core's SRAM) when it is the same core, else the
 * port's ceil(bytes / link width), as the northpole simulator counts them. */
double core_send_cycles(NC_KEEP const nc_chip_desc *d, int64_t x, int64_t y, int64_t to_x, int64_t to_y, int64_t bytes);
/** Cycles per frame of one tile of `node`: its share of the node's work at
 * its width's MAC rate plus its sends (core_send_cycles; a multicast group's
 * once with `multicast`: the longer of its port's and its local copy's). */
double core_tile_cycles(NC_KEEP nc_op *tile, NC_KEEP nc_op *node, NC_KEEP const nc_chip_desc *d, bool multicast);
/** Adds to recv[i] (the map's tile i) the link cycles of the messages sent
 * to it per frame from other cores (a local copy takes no link), over the
 * links a core receives on (core-place's model). */
void core_receive_cycles(NC_KEEP nc_op *chip, NC_KEEP const nc_chip_desc *d, NC_KEEP const core_tile_map *map,
                         double *recv);

#endif
