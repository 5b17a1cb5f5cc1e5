/* np_format.h: the NorthPole sections of a .ncb binary, shared by the
 * printer (targets/northpole/printer.c) and the loader (loader.c).
 *
 * All integers are little-endian; "blocks" describe sets of flat element
 * indices of a tensor (row-major over its full shape, batch 1):
 *   block = {i64 start, i64 len, i64 stride, i64 count}
 *         = { start + i*stride + j : 0 <= i < count, 0 <= j < len }
 * so one output row of a conv over all its channels is one block.
 *
 * Section NP_SECTION_CHIP (id 0), exactly one: the chip the binary is for
 * (the container itself knows nothing of chips):
 *   u32 rows, cols              the core grid (1..4096 each)
 *   u64 clock_hz                (>= 1)
 *   u32 sram_bytes              per core (>= 1)
 *   u32 macs_per_cycle          per core at 8 bits (>= 1)
 *   u32 hop_latency_cycles      NoC cycles per hop
 *   u32 link_bytes_per_cycle    NoC link width (>= 1)
 *   u64 macs_per_inference      the network's multiply-accumulates
 *   u32 macs_per_cycle_4, _2    per core at 4 and 2 bits (1..2^24; absent in older
 *                               binaries, whose 40-byte section runs every layer at 8 bits)
 *
 * Section NP_SECTION_TILE (id = tile number), one per core with work:
 *   i32 x, y                    grid position
 *   u32 kind                    NP_KIND_*
 *   u32 flags                   NP_FLAG_RELU, NP_FLAG_SUBTRACT, NP_FLAG_COUNT_PAD, NP_FLAG_PARTIAL,
 *                               NP_FLAG_REDUCE, NP_FLAG_PAD_REFLECT, NP_FLAG_PAD_EDGE in bits 0..7,
 *                               NP_FLAG_REPLICA in bit 16, NP_FLAG_SHARED in bit 17,
 *                               NP_FLAG_RECV_OFFSETS in bit 18, NP_FLAG_CLAMP in bit 19,
 *                               NP_FLAG_PACKED_WEIGHTS in bit 25
 *                               (bits 16..31: further flags);
 *                               bits 8..15: the layer's width (8, 4 or 2; 0 in older binaries
 *                               means 8): results saturate to [-2^(w-1), 2^(w-1)-1], stored in
 *                               int8 containers, and MACs run at the chip's rate for w bits
 *   char node[32]               the dataflow node (layer) name
 *   i32 output_index            network output the tile's result is (-1: none)
 *   u32 n_operands              1..NP_MAX_OPERANDS, then per operand:
 *     i32 host_input            network input it reads (-1: another tile)
 *     u32 rank, i64 dims[8]     its full shape
 *   u32 rank, i64 dims[8]       the result's full shape
 *   i64 ch_lo, ch_hi            the output channels (axis 1) the tile computes
 *   i64 kernel[2], stride[2], pad[4] (top, left, bottom, right), dilation[2], group
 *   i32 zero_point              requantize output zero point
 *   u32 n_requant               0, 1 or ch_hi - ch_lo; then i32 multiplier[n], i32 shift[n]
 *                               (NP_KIND_ELTWISE: n_operands, the rescale of each operand)
 *   u32 n_bias                  0 or ch_hi - ch_lo; then i32 bias[n]
 *   u64 weight_bytes            then the int8 weights (4- and 2-bit ones in int8 containers, or packed
 *                               with NP_FLAG_PACKED_WEIGHTS: ceil(elements x width / 8) bytes), zero-padded to 8 bytes:
 *                               conv [ch_hi-ch_lo, C/group, kh, kw]; matmul [K, ch_hi-ch_lo];
 *                               with NP_WEIGHTS_SHARED (bit 63) set, the low bits are the
 *                               byte count and the next field is u64 offset: the weights are
 *                               those bytes of the NP_SECTION_WEIGHTS section (8-aligned), not
 *                               inline (the tiles of a row-banded layer hold the same slice)
 *   u32 n_buffers               then per buffer: char name[16], u32 kind (NP_BUF_*),
 *                               u32 operand (input buffers), i64 offset, i64 bytes,
 *                               i64 first, last (its lifetime: program positions, inclusive)
 *   u32 n_iterations            the node's iterations (in its domain's lexicographic
 *                               order); per iteration: u64 macs, u64 vector_ops,
 *                               u32 n_blocks, u32 0, then the blocks of output
 *                               elements the tile computes in it
 *   u32 n_instrs                then per instruction: u32 opcode, u32 0, i64 a, b, c, d
 *     NP_OP_RECV     a, b = source x, y (-1, -1: the host), c = operand, d = iteration
 *     NP_OP_COMPUTE  a, b = iterations [a, b)
 *     NP_OP_SEND     a, b = destination x, y (-1, -1: the host), c = iteration, d = bytes;
 *                    the word after the opcode is its network: 0 activations,
 *                    1 partial sums (np_noc.h; separate links, same routes); with
 *                    NP_SEND_MULTICAST (bit 8) in that word, the send and the next
 *                    one (a send of the same iteration and network to a tile) leave as
 *                    one multicast: the port sends the bytes once and each link of the
 *                    union of their XY routes carries them once
 *     NP_OP_WAIT     a = cycles
 *   with NP_FLAG_PARTIAL or NP_FLAG_REDUCE (a conv with group 1 or a matmul split by
 *   input channels), then:
 *   i64 in_lo, in_hi            the input channels of operand 0 (a conv's axis 1, a
 *                               matmul's K) the tile sums over; weights are conv
 *                               [ch_hi-ch_lo, in_hi-in_lo, kh, kw], matmul [in_hi-in_lo, ch_hi-ch_lo]
 *   u32 n_partials, u32 0       NP_FLAG_REDUCE: the tiles whose partial sums it adds (>= 1);
 *                               NP_FLAG_PARTIAL: 0
 *   with NP_FLAG_REPLICA (a copy of a layer's tiles for alternate frames), then:
 *   u32 replica, u32 replicas   the tile runs its program on inferences f with
 *                               f mod replicas == replica only (2 <= replicas <= 255)
 *   with NP_FLAG_SHARED (bit 17: the tile shares the core at x, y in a slot other than 0), then:
 *   u32 slot, u32 0             which of its tiles it is (1 <= slot < NP_MAX_SLOTS; (x, y, slot)
 *                               unique; a tile without the flag is slot 0); a recv or send names a peer's slot in bits 1..7
 *                               of the word after the opcode (0 for a tile alone on its
 *                               core). The core runs its tiles' programs interleaved: at each
 *                               step the tile that can go on earliest, the first in the binary on a tie
 *   with NP_FLAG_RECV_OFFSETS (bit 18: an operand is a concat folded away, core-fold-concat), then:
 *   u32 n, u32 0                then n x {u32 instruction, u32 0, i64 offset}: that recv
 *                               (activations) puts the message's element e at e + offset of
 *                               its operand (the sender computes the concat's input that
 *                               starts at channel offset / (H x W))
 *   with NP_FLAG_CLAMP (bit 19: NP_KIND_CONV or NP_KIND_MATMUL only; a fused Clip), then:
 *   i32 clamp_min, clamp_max    clamp_min <= clamp_max, each in the width's range: after the
 *                               relu, r = min(max(r, clamp_min), clamp_max), then saturation
 *                               (the results stay in [clamp_min, clamp_max])
 *   with NP_FLAG_IN_AFFINE (bit 20: NP_KIND_CONV only; a depthwise batch-norm and relu folded in,
 *   dataflow-fold-input-affine), then:
 *   u32 n, u32 0                n = operand 0's channels, then n x {i32 w, i32 b, i32 m, i32 s}, then
 *   i32 lo, hi                  every element x of channel c of operand 0 is replaced, as it arrives, by
 *                               clamp(round_half_even((int32)(x * w + b) * m / 2^s), lo, hi) (lo <= hi
 *                               in the width's range, 0 <= m < 2^31, 0 <= s <= 63); the tile's
 *                               iterations count one vector op per element so mapped
 *   In every tile, bits 16..23 of a recv's or send's word after the opcode
 *   are a frame period n (0: every inference the tile runs) and bits 24..31
 *   a residue r < n: the instruction runs only on inferences f with f mod n
 *   == r (a peer that is a copy handling those frames); the host sends an
 *   input step for inference f to the tiles whose recv of it runs on f.
 *   A NP_FLAG_PARTIAL tile has no requantization or bias: each iteration's
 *   int32 sums go, 4 little-endian bytes per element in block order, on the
 *   partial-sum network (send word 1, d = 4 x elements) to its reducer. A
 *   NP_FLAG_REDUCE tile (in_lo = 0) receives them with NP_OP_RECV whose word
 *   after the opcode is 1 (c = 0, d = the iteration), adds them to its own
 *   sums (int32, wrapping: the order does not matter), then adds the bias and
 *   requantizes once; a compute needs every partial sum of its elements.
 *
 * NP_KIND_ELTWISE (a residual add) has two operands of the result's shape
 * [1, C, H, W] and no weights or bias; each output element is
 *   r_i = round_half_even(x_i * multiplier[i] / 2^shift[i])   (64-bit product)
 *   r   = r_0 + r_1 + zero_point  (r_0 - r_1 with NP_FLAG_SUBTRACT)
 *   relu (NP_FLAG_RELU): r = max(r, zero_point);  y = saturate_int8(r)
 *
 * NP_KIND_AVG_POOL (average pool, global ones as one window over the plane)
 * has no weights, bias or requantization; each output element is
 *   y = round_half_even(sum of the window's int8 inputs inside the input / n)
 * where n counts those inputs, or with NP_FLAG_COUNT_PAD the window's
 * positions inside the padded input [-pad_begin, size + pad_end) per dim.
 * NP_KIND_CONCAT joins its operands [1, C_i, H, W] (or vectors [1, C_i]:
 * rank 2, H = W = 1) along the channels
 * (n_operands of them, n_requant = n_operands rescales, no weights):
 *   y[c] = saturate_int8(round_half_even(x_i[c - C_0 - ... - C_(i-1)] * multiplier[i] / 2^shift[i]) + zero_point)
 * NP_KIND_MUL multiplies operand 0 [1, C, H, W] by operand 1 of the same
 * shape or [1, C, 1, 1] (a channel gate), one rescale (n_requant = 1):
 *   r = round_half_even(x_0 * x_1 * multiplier[0] / 2^shift[0]) + zero_point, relu, saturate_int8
 * NP_KIND_LUT has one operand of the result's shape and weights = the table
 * of 256 int8 entries: y = table[x + 128].
 * NP_KIND_SOFTMAX has one operand of the result's shape [.., N] and weights =
 * 256 little-endian i32 entries e[0..255] (exp in fixed point); per row of N,
 * m = max x, y_j = round_half_even(e[x_j - m + 255] * 127 / sum_k e[x_k - m + 255]).
 *
 * NP_KIND_MOVE (nearest resize, constant pad, channel shuffle) has one operand
 * [1, C, H, W], a result [1, C, OH, OW], no weights, bias or requantization:
 *   ci = (c mod group) * (C / group) + c / group          (group 1: ci = c)
 * except a nearest resize that changes the channels: result [1, OC, OH, OW],
 * group 1 and weights = 3 little-endian i32 (a, b, d), a >= 0, d >= 1:
 *   ci = clamp(floor((a c + b) / d), 0, C - 1)
 * NP_KIND_MOVE with group 1 and NP_KIND_RESIZE may have a result [N, OC, OH,
 * OW] (a resize of one image into a batch): every image n is the same, its
 * kind's formula with c the channel within an image.
 *   yi = (y - pad_top) / kernel[0], xi = (x - pad_left) / kernel[1]   (floor)
 *   y[c, y, x] = x[ci, yi, xi] when y >= pad_top, x >= pad_left, yi < H and
 *   xi < W, else zero_point (the fill value); OH = H * kernel[0] + pad_top +
 *   pad_bottom, likewise OW. With NP_FLAG_PAD_EDGE (kernel 1) yi and xi
 *   outside the input clamp to it (the edge element); with
 *   NP_FLAG_PAD_REFLECT (kernel 1) they mirror without repeating the edge,
 *   periodically for pads of any width: r = yi mod 2 (H - 1) (floor), reads
 *   r < H ? r : 2 (H - 1) - r (0 when H = 1); with NP_FLAG_PAD_WRAP (kernel 1)
 *   they read the other end, yi mod H. At most one of the three pad flags.
 * A pad of a vector: operand [1, N] and result [1, N + pad_left +
 * pad_right] (rank 2), kernel 1, group 1, pad_top = pad_bottom = 0: the
 * vector is one row of W = N (the same formulas with H = 1).
 *
 * NP_KIND_TRANSPOSE has one operand and a result of its rank r whose dim k
 * is the operand's dim perm[k], weights = the r little-endian i32 perm[k]
 * (a permutation of 0 .. r - 1), no bias or requantization: the result's
 * element (i_0, .., i_(r-1)) copies the operand's element j with
 * j_perm[k] = i_k (ONNX Transpose).
 *
 * NP_KIND_RESIZE (ONNX Resize, mode linear) has one operand [1, C, H, W], a
 * result [1, OC, OH, OW], no bias or requantization, and weights = 6
 * little-endian i32 (a_h, b_h, d_h, a_w, b_w, d_w) when OC = C, or 9 (then
 * a_c, b_c, d_c) when the channels are interpolated too: along each axis the
 * source coordinate of output o is (a o + b) / d (a >= 0, d >= 1),
 *   f = floor((a o + b) / d), i0 = clamp(f, 0, n - 1), i1 = clamp(f + 1, 0, n - 1),
 *   w1 = round_half_even(1024 ((a o + b) - f d) / d), w0 = 1024 - w1
 *   y[c, y, x] = round_half_even(sum over the 8 corners of wc * wy * wx * x[ic, iy, ix] / 2^30)
 * (with 6 coefficients ic = c and wc = 1024: the 4 corners of H and W.)
 *
 * Section NP_SECTION_WEIGHTS (id 0), at most one: weight slices that several
 * tiles share, each starting 8-byte aligned; tiles refer to them by offset
 * (NP_WEIGHTS_SHARED). Older loaders refuse it as an unknown section type.
 *
 * Section NP_SECTION_INPUT_STREAM (id = network input): how the host streams
 * that input (the dataflow input source P[y] or P[y, x]):
 *   u32 n_iterations, then per iteration: u32 n_blocks, u32 0, blocks
 *   u32 flags                   (optional; absent means 0) NP_STREAM_MULTICAST: the host
 *                               sends each step once, as a multicast, to all the tiles
 *                               that receive it, instead of once per tile
 */
#ifndef NC_TARGETS_NORTHPOLE_NP_FORMAT_H
#define NC_TARGETS_NORTHPOLE_NP_FORMAT_H

enum { NP_SECTION_TILE = 1, NP_SECTION_INPUT_STREAM = 2, NP_SECTION_CHIP = 3, NP_SECTION_WEIGHTS = 4 };
#define NP_WEIGHTS_SHARED (1ULL << 63) /* a tile's weight_bytes: the weights are in NP_SECTION_WEIGHTS */
enum {
  NP_KIND_CONV = 1, NP_KIND_MATMUL = 2, NP_KIND_MAX_POOL = 3, NP_KIND_COPY = 4, NP_KIND_ELTWISE = 5,
  NP_KIND_AVG_POOL = 6, NP_KIND_CONCAT = 7, NP_KIND_MUL = 8, NP_KIND_LUT = 9, NP_KIND_SOFTMAX = 10,
  NP_KIND_MOVE = 11, NP_KIND_RESIZE = 12, NP_KIND_TRANSPOSE = 13,
};
enum {
  NP_FLAG_RELU = 1, NP_FLAG_SUBTRACT = 2, NP_FLAG_COUNT_PAD = 4, NP_FLAG_PAD_WRAP = 8, NP_FLAG_PARTIAL = 16,
  NP_FLAG_REDUCE = 32,
  NP_FLAG_PAD_REFLECT = 64, NP_FLAG_PAD_EDGE = 128,
  NP_FLAG_REPLICA = 1 << 16, /* bits 8..15 hold the width, so flags continue at bit 16 */
  NP_FLAG_SHARED = 1 << 17,  /* the tile shares its core in a slot other than 0: a slot trailer follows */
  NP_FLAG_RECV_OFFSETS = 1 << 18, /* recvs of a folded concat's inputs land at an element offset */
  NP_FLAG_CLAMP = 1 << 19,        /* a conv or matmul clamps its requantized results: a clamp trailer follows */
  NP_FLAG_IN_AFFINE = 1 << 20,    /* a conv maps operand 0's elements per channel on receive: an affine trailer follows */
  NP_FLAG_PACKED_WEIGHTS = 1 << 25, /* a conv's or matmul's weights at the tile's width (4 or 2 bits) are packed
                                       two or four a byte, element i in bits (i mod per-byte) x width up, low first */
};
#define NP_WIDTH_SHIFT 8 /* the tile record's flags: bits 8..15 hold the layer's width */
enum { NP_BUF_WEIGHTS = 1, NP_BUF_BIAS = 2, NP_BUF_INPUT = 3, NP_BUF_OUTPUT = 4, NP_BUF_SCRATCH = 5 };
enum { NP_OP_RECV = 1, NP_OP_COMPUTE = 2, NP_OP_SEND = 3, NP_OP_WAIT = 4 };
#define NP_SEND_MULTICAST 0x100u /* a send's network word: it and the next send are one multicast */
#define NP_FRAMES_SHIFT 16   /* a recv's or send's word: bits 16..23 the frame period, 24..31 the residue */
#define NP_SLOT_SHIFT 1      /* a recv's or send's word: bits 1..7 the peer tile's slot on its core */
#define NP_SLOT_MASK 0x7fu
#define NP_STREAM_MULTICAST 1u   /* an input stream's flags: the host multicasts each step */
#define NP_MAX_OPERANDS 32
#define NP_MAX_RANK 8

#endif
