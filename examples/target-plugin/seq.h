/* seq.h: the byte layout of the seq target's .ncb sections, shared by its
 * printer (seq_target.c, which links nc's IR) and its simulator (seq_sim.c,
 * which needs only the runtime headers): one place says what each byte
 * means, so the two cannot drift apart.
 *
 * All integers are little-endian (nc_bytes_put_* / nc_cursor_*).
 *   chip section (SEQ_SECTION_CHIP, id 0):
 *     u64 macs_per_cycle, u64 clock_hz, u32 n_layers, u32 output_layer,
 *     char name[32]
 *   layer section (SEQ_SECTION_LAYER, id = its position, 0 first):
 *     u32 kind (seq_kind), u32 source (a layer index, or SEQ_SOURCE_INPUT),
 *     shape in, shape out (each u32 rank, SEQ_MAX_RANK x i64 dims),
 *     i64 kernel[2], stride[2], dilation[2], pads[4], group,
 *     i64 input_zero_point, weight_zero_point, output_zero_point,
 *     i64 clamp_min, clamp_max,
 *     u32 n_requant, then n_requant x (i64 multiplier, i64 shift),
 *     u64 n_weights, n_weights x i8, zeros to a multiple of 8,
 *     u64 n_bias, n_bias x i32
 */
#ifndef SEQ_H
#define SEQ_H

#include "nc/runtime/nc_sim.h"

/** Section types of a seq binary. */
enum { SEQ_SECTION_CHIP = 1, SEQ_SECTION_LAYER = 2 };

/** The layer kinds the seq simulator runs (its own numbering: the binary
 * must not change meaning when nc adds a kind to layer.h). */
typedef enum seq_kind { SEQ_CONV = 1, SEQ_MATMUL = 2, SEQ_MAX_POOL = 3, SEQ_COPY = 4 } seq_kind;

/** A layer's `source` when it reads the network's input. */
#define SEQ_SOURCE_INPUT 0xFFFFFFFFu
/** Largest rank of a layer's tensor coordinates. */
#define SEQ_MAX_RANK 4
/** Bounds the loader checks (and the description reader applies). */
#define SEQ_MAX_MACS_PER_CYCLE (INT64_C(1) << 20)
#define SEQ_MAX_CLOCK_HZ (INT64_C(1) << 40)

/** The simulator (seq_sim.c). */
extern const nc_target_sim seq_sim;

#endif
