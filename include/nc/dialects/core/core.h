/* core.h: the public API of the `core` dialect: work placed on the cores of
 * a 2-D grid (docs/design/spine.md, section 3; docs/dialects/core.md).
 *
 *   core.chip {target, rows, cols, sram_bytes, function = @f}   the grid
 *     core.tile {x, y, slot?, node, out_channels = array<i64: lo, hi>?,
 *                out_rows = array<i64: lo, hi>?,
 *                replica = array<i64: r, n>?}                   one core's work (copy r of n:
 *                                                               frames f with f mod n == r)
 *       core.buffer {name, kind, bytes, offset}                SRAM buffers
 *       core.program                                           its static schedule:
 *         core.recv {from, operand, iter}   wait for a producer iteration's data
 *         core.compute {begin, end}         run node iterations [begin, end)
 *         core.send {to, iter, bytes, multicast?} send an iteration's output
 *         (recv and send: frames = array<i64: r, n>? on frames f mod n == r only)
 *         core.wait {cycles}                explicit delay
 *
 * Conventions every stage shares:
 *   - A tile computes (part of) one dataflow.node of the chip's function: the
 *     node named by `node`, restricted to output channels [lo, hi) (the first
 *     coordinate of the node's `Out`) when `out_channels` is present, and
 *     to output rows [lo, hi) (the second coordinate) when `out_rows` is:
 *     it computes only the iterations writing an element of that slice.
 *   - Iteration i of a node is the i-th point of its `domain` in
 *     lexicographic order (nc_iters, nc/passes/mapping.h); `core.compute {begin, end}` runs
 *     iterations begin .. end-1 in order; `iter` of a send is the sender's
 *     iteration, `iter` of a recv the producer's. The producer of an operand
 *     read from outside the nodes (a function argument) is the host, at
 *     position (-1, -1): an input source sending the tensor in row-major
 *     order, rows (P[y]) or pixels (P[y, x]) as dataflow-deps assumed (its
 *     `earliest` relation's range says which), iteration = row-major index.
 *     The tiles producing the function's results send them to the host.
 *   - Several tiles may share a core (time-multiplexed within a frame,
 *     core-colocate): each has its own `slot` there (0 when absent), and a
 *     recv's `from` / send's `to` names it as `array<i64: x, y, slot>`
 *     (`array<i64: x, y>` for slot 0). Their buffers share the core's SRAM.
 *   - A message is identified by (sender position and slot, sender iteration); it
 *     carries the sender's output elements of that iteration (its channel
 *     slice), lands in the receiver's input buffer of the recv's operand, and
 *     serves every recv of that (from, iter) on the receiving tile.
 *   - Sizes are bytes; an element of an N-bit type takes N/8 bytes, rounded
 *     up over a whole buffer (int4 weights take half the bytes of int8).
 *   - `offset` is -1 until core-plan-memory assigns addresses.
 */
#ifndef NC_DIALECTS_CORE_CORE_H
#define NC_DIALECTS_CORE_CORE_H

#include <isl/ctx.h>
#include <isl/set.h>

#include "nc/dialects/core/chip_desc.h"
#include "nc/ir/ods.h"

/** The core dialect definition (registered by nc_register_all_dialects). */
extern const nc_dialect_def nc_core_dialect;

/** The most tiles one core holds (`slot` < NC_CORE_MAX_SLOTS). */
#define NC_CORE_MAX_SLOTS 64

/** The most copies of a node (`replica`) and the largest frame period (`frames`). */
#define NC_CORE_MAX_REPLICAS 255

/** The position that stands for the host in `from` / `to`. */
#define NC_CORE_HOST (-1)

/* ------------------------------------------------------------------------ */
/* Chips and tiles                                                           */
/* ------------------------------------------------------------------------ */

/** True if `op` is a core.chip / core.tile / core.buffer / core.program. */
bool nc_core_is_chip(NC_KEEP const nc_op *op);
bool nc_core_is_tile(NC_KEEP const nc_op *op);
bool nc_core_is_buffer(NC_KEEP const nc_op *op);
bool nc_core_is_program(NC_KEEP const nc_op *op);

/** Creates a detached core.chip with an empty body for the grid and SRAM of
 * `desc`, implementing the function named `function` (NULL: no reference). */
NC_GIVE nc_op *nc_core_chip_create(nc_context *ctx, nc_location loc, NC_KEEP const nc_chip_desc *desc,
                                   const char *function);
/** The grid, the SRAM per core and the target name. */
int64_t nc_core_chip_get_rows(NC_KEEP const nc_op *chip);
int64_t nc_core_chip_get_cols(NC_KEEP const nc_op *chip);
int64_t nc_core_chip_get_sram_bytes(NC_KEEP const nc_op *chip);
NC_KEEP const char *nc_core_chip_get_target(NC_KEEP const nc_op *chip);
/** The name of the function the chip implements, or NULL. */
NC_KEEP const char *nc_core_chip_get_function_name(NC_KEEP const nc_op *chip);
/** That function, looked up in the symbol table enclosing the chip, or NULL. */
NC_KEEP nc_op *nc_core_chip_lookup_function(NC_KEEP nc_op *chip);
/** The dataflow.node named `name` in `func`, or NULL. */
NC_KEEP nc_op *nc_core_find_node(NC_KEEP nc_op *func, const char *name);
/** The chip's body block. */
NC_KEEP nc_block *nc_core_chip_get_body(NC_KEEP const nc_op *chip);
/** Tiles in order (the chip's body holds only tiles). */
NC_KEEP nc_op *nc_core_chip_first_tile(NC_KEEP const nc_op *chip);
NC_KEEP nc_op *nc_core_tile_next(NC_KEEP const nc_op *tile);
size_t nc_core_chip_get_num_tiles(NC_KEEP const nc_op *chip);
/** The tile placed at (x, y) in slot 0, or NULL. */
NC_KEEP nc_op *nc_core_chip_find_tile(NC_KEEP const nc_op *chip, int64_t x, int64_t y);
/** The tile placed at (x, y) in `slot`, or NULL. */
NC_KEEP nc_op *nc_core_chip_find_tile_in_slot(NC_KEEP const nc_op *chip, int64_t x, int64_t y, int64_t slot);

/** Appends a tile for node `node` at (x, y) (-1, -1: not placed) to the
 * chip's body, with an empty program and no buffers; `lo` < `hi` sets
 * out_channels (pass lo = hi = 0 for a whole node). The tile is owned by
 * the chip. */
NC_KEEP nc_op *nc_core_tile_create(nc_op *chip, nc_location loc, const char *node, int64_t x, int64_t y,
                                   int64_t lo, int64_t hi);
/** Position; -1 when not placed. */
int64_t nc_core_tile_get_x(NC_KEEP const nc_op *tile);
int64_t nc_core_tile_get_y(NC_KEEP const nc_op *tile);
void nc_core_tile_set_position(nc_op *tile, int64_t x, int64_t y);
/** Which of the tiles sharing its core the tile is (`slot`, 0 when absent). */
int64_t nc_core_tile_get_slot(NC_KEEP const nc_op *tile);
/** Sets the slot (0 removes the attribute). */
void nc_core_tile_set_slot(nc_op *tile, int64_t slot);
/** The name of the node the tile computes. */
NC_KEEP const char *nc_core_tile_get_node(NC_KEEP const nc_op *tile);
/** The tile's output channels [lo, hi); false (and *lo = *hi = 0) when the
 * tile computes the whole node. */
bool nc_core_tile_get_out_channels(NC_KEEP const nc_op *tile, int64_t *lo, int64_t *hi);
void nc_core_tile_set_out_channels(nc_op *tile, int64_t lo, int64_t hi);
/** The tile's output rows [lo, hi) (the second coordinate of the node's
 * `Out[c, y, x]`); false (and *lo = *hi = 0) when the tile computes every
 * row. A row-band tile computes only the iterations writing its rows. */
bool nc_core_tile_get_out_rows(NC_KEEP const nc_op *tile, int64_t *lo, int64_t *hi);
void nc_core_tile_set_out_rows(nc_op *tile, int64_t lo, int64_t hi);
/** The input channels [lo, hi) of operand 0 the tile sums over
 * (`in_channels`: the tile computes int32 partial sums that the group's
 * reducer adds); false (and *lo = *hi = 0) when it reads all of them. */
bool nc_core_tile_get_in_channels(NC_KEEP const nc_op *tile, int64_t *lo, int64_t *hi);
void nc_core_tile_set_in_channels(nc_op *tile, int64_t lo, int64_t hi);
/** Whether the tile requantizes and sends activations: a tile without
 * in_channels, or the reducer of an input-channel group (the slice starting
 * at channel 0), which adds the group's partial sums. */
bool nc_core_tile_is_reducer(NC_KEEP const nc_op *tile);
/** The frames the tile handles (`replica = array<i64: r, n>`): frame f when
 * f mod n == r, a copy of the node's work on alternate frames
 * (core-replicate); false (and *r = 0, *n = 1) when it handles every frame. */
bool nc_core_tile_get_replica(NC_KEEP const nc_op *tile, int64_t *r, int64_t *n);
void nc_core_tile_set_replica(nc_op *tile, int64_t r, int64_t n);
/** Whether frame residues (a mod an) and (b mod bn) can hold at once, i.e.
 * some frame f has f mod an == a and f mod bn == b (an, bn >= 1). */
bool nc_core_frames_meet(int64_t a, int64_t an, int64_t b, int64_t bn);
/** Whether every frame with f mod an == a also has f mod bn == b. */
bool nc_core_frames_imply(int64_t a, int64_t an, int64_t b, int64_t bn);
/** The tile's core.program (NULL if malformed). */
NC_KEEP nc_op *nc_core_tile_get_program(NC_KEEP const nc_op *tile);
/** Buffers in order (the ops before the program). */
NC_KEEP nc_op *nc_core_tile_first_buffer(NC_KEEP const nc_op *tile);
NC_KEEP nc_op *nc_core_buffer_next(NC_KEEP const nc_op *buffer);
size_t nc_core_tile_get_num_buffers(NC_KEEP const nc_op *tile);
/** The buffer named `name`, or NULL. */
NC_KEEP nc_op *nc_core_tile_find_buffer(NC_KEEP const nc_op *tile, const char *name);
/** Removes every buffer of the tile. */
void nc_core_tile_clear_buffers(nc_op *tile);

/* ------------------------------------------------------------------------ */
/* Buffers                                                                   */
/* ------------------------------------------------------------------------ */

/** What a buffer holds. */
typedef enum nc_core_buffer_kind {
  NC_CORE_BUFFER_WEIGHTS, /**< the layer's weights (constant) */
  NC_CORE_BUFFER_BIAS,    /**< its other constants: bias, requantize multipliers and shifts */
  NC_CORE_BUFFER_INPUT,   /**< an operand's input (line) buffer, filled by the NoC */
  NC_CORE_BUFFER_OUTPUT,  /**< one iteration's output, until it is sent */
  NC_CORE_BUFFER_SCRATCH, /**< working memory of a compute (wide accumulators) */
} nc_core_buffer_kind;

/** "weights", "bias", "input", "output", "scratch". */
NC_KEEP const char *nc_core_buffer_kind_name(nc_core_buffer_kind kind);
/** The kind named `name`; false if there is none. */
bool nc_core_buffer_kind_from_name(const char *name, nc_core_buffer_kind *kind);

/** Adds a buffer before the tile's program (offset -1 for "not planned"). */
NC_KEEP nc_op *nc_core_tile_add_buffer(nc_op *tile, const char *name, nc_core_buffer_kind kind, int64_t bytes,
                                       int64_t offset);
NC_KEEP const char *nc_core_buffer_get_name(NC_KEEP const nc_op *buffer);
nc_core_buffer_kind nc_core_buffer_get_kind(NC_KEEP const nc_op *buffer);
int64_t nc_core_buffer_get_bytes(NC_KEEP const nc_op *buffer);
int64_t nc_core_buffer_get_offset(NC_KEEP const nc_op *buffer);
void nc_core_buffer_set_offset(nc_op *buffer, int64_t offset);
/** Sets the buffer's size (core-host-buffers grows input buffers). */
void nc_core_buffer_set_bytes(nc_op *buffer, int64_t bytes);
/** For an input buffer named "in<k>", k; otherwise -1. */
int nc_core_buffer_get_operand(NC_KEEP const nc_op *buffer);

/* ------------------------------------------------------------------------ */
/* Programs                                                                  */
/* ------------------------------------------------------------------------ */

/** The networks a message travels on (core.send / core.recv `network`). */
typedef enum nc_core_network {
  NC_CORE_NET_ACTIVATION = 0, /**< activations (the default) */
  NC_CORE_NET_PARTIAL_SUM = 1, /**< int32 partial sums, to the reducer of an input-channel group */
} nc_core_network;

/** The kinds of program instructions. */
typedef enum nc_core_instr_kind {
  NC_CORE_RECV,
  NC_CORE_COMPUTE,
  NC_CORE_SEND,
  NC_CORE_WAIT,
} nc_core_instr_kind;

/** One program op, decoded. Fields a kind does not use are 0. */
typedef struct nc_core_instr {
  nc_core_instr_kind kind;
  int64_t x, y;           /**< recv: `from`; send: `to` (NC_CORE_HOST for the host) */
  int64_t slot;           /**< recv, send: the peer's slot on its core (0 unless it shares the core) */
  int64_t operand;        /**< recv */
  int64_t iter;           /**< recv: the producer's iteration; send: the sender's */
  int64_t begin, end;     /**< compute */
  int64_t bytes;          /**< send */
  int64_t cycles;         /**< wait */
  bool multicast;         /**< send: it and the next send leave as one message (core-multicast) */
  int64_t network;        /**< recv, send: nc_core_network */
  int64_t frame, frames;  /**< recv, send: run only on frames f with f mod frames == frame (`frames =
                               array<i64: frame, frames>`); frames 0: every frame the tile handles */
  int64_t channel_offset; /**< recv: the channels the message lands further along the operand (a folded
                               concat's input, core-fold-concat); 0 otherwise */
} nc_core_instr;

/** The program's body block (ops in execution order). */
NC_KEEP nc_block *nc_core_program_get_body(NC_KEEP const nc_op *program);
/** Number of ops in the program. */
size_t nc_core_program_get_size(NC_KEEP const nc_op *program);
/** Decodes a program op; false if `op` is not a well-formed program op. */
bool nc_core_instr_get(NC_KEEP const nc_op *op, nc_core_instr *out);
/** Appends an instruction to the program. */
NC_KEEP nc_op *nc_core_program_append(nc_op *program, nc_location loc, NC_KEEP const nc_core_instr *instr);
/** Removes every op of the program. */
void nc_core_program_clear(nc_op *program);

/* ------------------------------------------------------------------------ */
/* What a node needs on a core                                               */
/* ------------------------------------------------------------------------ */

/** One buffer a node needs (what the core passes compute for a node). */
typedef struct nc_core_buffer_spec {
  char name[24];
  nc_core_buffer_kind kind;
  int64_t bytes;
} nc_core_buffer_spec;

/** The extent of the node's output along its first coordinate (output
 * channels of a conv or pool, features of a matmul; a matmul's [M, N]
 * result with M > 1: its last, N): how far it can be split; 0 if the node
 * is not split by output channels (a copy layer, or a node without a valid
 * layer). */
int64_t nc_core_node_get_out_channels(NC_KEEP const nc_op *node);

/** The extent of the node's output along its second coordinate (rows y of
 * `Out[c, y, x]`; a matmul's [M, N] result: its first, M): how far it can
 * be split into row bands; 0 if the node's output has no rows (not three
 * coordinates, nor a matmul's two) or it is a copy layer. */
int64_t nc_core_node_get_out_rows(NC_KEEP const nc_op *node);

/** Whether the node's rows come before its channels among its output's
 * coordinates: a matmul's [M, N] result (rows m, output features n), whose
 * out_rows slice coordinate 0 and out_channels coordinate 1 (the others'
 * out_channels slice coordinate 0 and out_rows coordinate 1). */
bool nc_core_node_rows_first(NC_KEEP const nc_op *node);

/** Whether `node` is a channel concat of [C_i, H, W] node results that only
 * moves data: every input taken as it is (no rescale, or the identity 2^s /
 * 2^s; its zero point and element type those of the result). core-fold-concat
 * folds such a node away: its producers send to the tiles that read it, each
 * recv naming the channel its input starts at (`channel_offset`). */
bool nc_core_node_is_foldable_concat(NC_KEEP const nc_op *node);

/** The first channel of a channel concat's result that operand k fills (the
 * channels of operands 0 .. k-1); -1 if `node` is no channel concat. */
int64_t nc_core_concat_channel_offset(NC_KEEP const nc_op *node, size_t k);

/** The extent of operand 0's input channels (a conv with group 1: its
 * channels; a matmul: K), how far the node can be split by input channels
 * with partial sums; 0 if it cannot be. In *coord (if not NULL), the
 * coordinate of operand 0 (dataflow coordinates) that holds them. */
int64_t nc_core_node_get_in_channels(NC_KEEP const nc_op *node, int *coord);

/** Bytes of `elements` elements of type `elt` in memory: 4- and 2-bit
 * values take an int8 container each (buffers, the binary). */
int64_t nc_core_bytes(int64_t elements, NC_KEEP const nc_type *elt);

/** Bytes of a message of `elements` elements of type `elt` on the NoC:
 * packed, two 4-bit or four 2-bit values a byte (rounded up). */
int64_t nc_core_message_bytes(int64_t elements, NC_KEEP const nc_type *elt);

/* ------------------------------------------------------------------------ */
/* Memory planning                                                           */
/* ------------------------------------------------------------------------ */

/** When a buffer is in use, as positions in the tile's program (inclusive).
 * Weights, bias and input buffers (which the NoC may fill at any time) live
 * through the whole program [0, size]; the output from the first compute to
 * the last send; scratch from the first to the last compute. */
typedef struct nc_core_lifetime {
  int64_t first, last;
} nc_core_lifetime;

/** The lifetime of each of the tile's buffers, in buffer order
 * (nc_core_tile_get_num_buffers entries). */
void nc_core_tile_buffer_lifetimes(NC_KEEP const nc_op *tile, nc_core_lifetime *out);

#endif
