/* layer.h: what a dataflow.node computes, in target-neutral form: a layer
 * kind plus its integer parameters and constant data.
 *
 * graph-to-dataflow reads the graph ops it groups into a node and records
 * the layer here; everything below the graph level (dataflow analyses, the
 * family dialects, their passes, targets, printers) reads only this, never
 * the graph ops in the node's region (those stay as the node's reference
 * semantics, for the interpreter and dataflow-inline). A new layer kind is
 * one row of NC_DATAFLOW_LAYER_KINDS, a new parameter one row of
 * NC_DATAFLOW_LAYER_PARAMS; a target declares the kinds it runs and the
 * parameters it reads for each (nc_target_def.layers), and nc refuses the
 * others at the node for it (target-check-layers).
 *
 * Integer semantics (quantized layers), per output element o of channel c:
 *   acc  = sum over the window/K of (x - input_zero_points[i]) * (w - weight_zero_point)   (exact, int32)
 *          [conv, matmul; pools: max of x, or the sum for avg_pool]
 *   acc += bias[c]                                   (when bias is present)
 *   y    = round_half_even(acc * multiplier[c] / 2^shift[c]) + output_zero_point
 *          (graph.requantize's fixed-point rule; one multiplier/shift, or one per output channel)
 *   y    = clamp(y, clamp_min, clamp_max)            (saturation to the output type; a fused relu
 *                                                     raises clamp_min to 0 on the stored integers, as
 *                                                     the graph ops compute it: the real zero when the
 *                                                     output zero point is 0, as graph-quantize makes it)
 *   y    = lut[y - type min]                         (when lut is present: an elementwise table)
 * A conv with input_affine first maps each input element x of channel c to
 *   clamp(round_half_even((x * w_c + b_c) * m_c / 2^s_c), lo, hi)   (a folded depthwise 1x1 conv)
 * Layers that only move data (copy, resize, pad, shuffle, concat, max pools) have no requantization
 * (n_requant == 0) and keep their input's scale. ELTWISE layers first rescale
 * each input to the output scale with input_multiplier/input_shift (the same
 * fixed-point rule, after subtracting its zero point), then combine them with
 * `op`, then add output_zero_point and clamp (an input_multiplier of 0 leaves
 * that input as it is). An ELTWISE layer with n_requant > 0 requantizes the
 * combination as above (graph.requantize whose bias is a node input: acc =
 * In0 + In1 along the channels). A float layer (widths 0) uses the geometry,
 * the weights, the bias and the clamp (relu: clamp_min 0) with float
 * arithmetic; the integer fields are unused.
 *
 * Storage (dataflow_layer_kind.c): the node's `kind` string and a `params`
 * dictionary of the non-default fields (arrays as array<i64: ...>, weights,
 * bias and lut as the constants' own elements attributes); the widths are
 * read from the types, never stored. `pads` is the explicit padding (auto_pad
 * resolved); windows a ceil_mode pool adds past it are clipped to the input.
 *
 * Tensor coordinates, iteration domains and access relations stay on the
 * node as isl attributes (dataflow.h); the layer adds what those do not say.
 */
#ifndef NC_DIALECTS_DATAFLOW_LAYER_H
#define NC_DIALECTS_DATAFLOW_LAYER_H

#include "nc/ir/attrs.h"
#include "nc/ir/ops.h"

/** The layer kinds: X(ENUM, "name", summary). One row per kind; the enum,
 * the names the `kind` attribute takes and the docs are generated from it. */
#define NC_DATAFLOW_LAYER_KINDS(X)                                                                                \
  X(CONV, "conv", "2-D convolution of a [C, H, W] input by constant weights [Cout, C/group, kh, kw] "          \
                  "(grouped, depthwise, strided, dilated, padded with the input zero point)")                   \
  X(MATMUL, "matmul", "[1, K] input times constant weights [K, N] (gemm, fully connected)")                     \
  X(MAX_POOL, "max_pool", "max over a kh x kw window (padding never wins)")                                    \
  X(AVG_POOL, "avg_pool", "average over a kh x kw window, integer division rounding half to even")             \
  X(GLOBAL_MAX_POOL, "global_max_pool", "max over each channel's whole plane")                                  \
  X(GLOBAL_AVG_POOL, "global_avg_pool", "average over each channel's whole plane")                              \
  X(ELTWISE, "eltwise", "elementwise combination of inputs of the same shape (channel broadcast allowed)")      \
  X(CONCAT, "concat", "concatenation along `axis` of the tensor coordinates")                                   \
  X(COPY, "copy", "reshape, flatten, transpose: elements moved, values unchanged; with `perm` a transpose of "  \
                  "the tensor coordinates: out coordinate k is in coordinate perm[k]")                          \
  X(LUT, "lut", "an elementwise function applied as a lookup table of 2^bits entries")                         \
  X(RESIZE, "resize", "nearest upsampling of [C, H, W] by whole factors `scale`: "                              \
                      "out[c, y, x] = in[c, y / scale_h, x / scale_w]; or, with `linear` = (a_h, b_h, d_h, a_w, "  \
                      "b_w, d_w), ONNX Resize's linear mode with source coordinate (a o + b) / d per axis "         \
                      "(integers: graph.resize's 10-bit fixed-point rule), and along C too with "                 \
                      "`linear_channels` = (a_c, b_c, d_c); a nearest one may pick channels with "                \
                      "`nearest_channels` = (a, b, d): c reads clamp(floor((a c + b) / d), 0, C - 1). "             \
                      "A resize of one image into a batch [N, C, H, W] writes that image resized N times")            \
  X(PAD, "pad", "[C, H, W] padded by `pads` (top, left, bottom, right) with the stored value `pad_value` "     \
                "(`pad_mode` constant), the mirror image without the edge (reflect), the edge element "       \
                "(edge) or the other end (wrap); reflect and wrap repeat periodically for pads wider than the dim")                                                                      \
  X(SHUFFLE, "shuffle", "channel shuffle of [C, H, W] in `group` groups: "                                        \
                        "out[c] = in[(c mod group) * (C / group) + c / group]")                                 \
  X(SOFTMAX, "softmax", "softmax along the last coordinate: an exponential table of 2^bits entries (lut) "       \
                        "indexed by x - max + 2^bits - 1, then round_half_even(e * type max / sum e)")

/** A layer kind. */
typedef enum nc_dataflow_layer_kind {
#define NC_X(e, name, summary) NC_DATAFLOW_LAYER_##e,
  NC_DATAFLOW_LAYER_KINDS(NC_X)
#undef NC_X
  NC_DATAFLOW_LAYER_NUM_KINDS
} nc_dataflow_layer_kind;

/** The layer parameters: X(ENUM, "name", summary), one row per key of a
 * node's `params` dictionary (the fields of nc_dataflow_layer a node stores;
 * the widths are read from the types). Targets declare per layer kind which
 * of them they read (nc/targets/target.h), so a parameter added here is
 * refused by every target that does not declare it, without edits there. */
#define NC_DATAFLOW_LAYER_PARAMS(X)                                                                               \
  X(KERNEL, "kernel", "window size (H, W): conv and pools")                                                     \
  X(STRIDE, "stride", "window step (H, W)")                                                                     \
  X(DILATION, "dilation", "window dilation (H, W)")                                                             \
  X(SCALE, "scale", "nearest resize: whole upsampling factors (H, W)")                                          \
  X(LINEAR, "linear", "linear resize: source coordinates along H and W")                                        \
  X(LINEAR_CHANNELS, "linear_channels", "linear resize: source coordinates along C")                            \
  X(NEAREST_CHANNELS, "nearest_channels", "nearest resize: the channel each output channel copies")             \
  X(PADS, "pads", "explicit padding (top, left, bottom, right)")                                                \
  X(PERM, "perm", "copy: a transpose of the tensor coordinates")                                                \
  X(GROUP, "group", "conv: groups; shuffle: channel groups")                                                    \
  X(COUNT_INCLUDE_PAD, "count_include_pad", "avg_pool: divide by the whole window")                             \
  X(AXIS, "axis", "concat: the tensor coordinate joined along")                                                 \
  X(PAD_VALUE, "pad_value", "pad: the value of padded elements")                                                \
  X(PAD_MODE, "pad_mode", "pad: reflect, edge or wrap instead of a constant")                                   \
  X(OP, "op", "eltwise: how the inputs combine")                                                                \
  X(INPUT_ZERO_POINTS, "input_zero_points", "zero points of the inputs")                                        \
  X(INPUT_MULTIPLIER, "input_multiplier", "eltwise, concat: each input's rescale multiplier")                   \
  X(INPUT_SHIFT, "input_shift", "eltwise, concat: each input's rescale shift")                                  \
  X(WEIGHT_ZERO_POINT, "weight_zero_point", "zero point of the weights")                                        \
  X(WEIGHTS, "weights", "constant weights: conv, matmul")                                                       \
  X(BIAS, "bias", "i32 per output channel, added before requantization")                                        \
  X(MULTIPLIER, "multiplier", "requantization multipliers")                                                     \
  X(SHIFT, "shift", "requantization shifts")                                                                    \
  X(OUTPUT_ZERO_POINT, "output_zero_point", "zero point of the output")                                         \
  X(CLAMP_MIN, "clamp_min", "lower bound after requantization (a fused relu)")                                  \
  X(CLAMP_MAX, "clamp_max", "upper bound after requantization")                                                 \
  X(LUT, "lut", "an elementwise table applied last")                                                           \
  X(INPUT_AFFINE, "input_affine", "conv: a per-input-channel requantize applied to operand 0 first (a folded "    \
                                  "batch-norm and relu): 4 x C + 2 entries")

/** A layer parameter. */
typedef enum nc_dataflow_layer_param {
#define NC_X(e, name, summary) NC_DATAFLOW_PARAM_##e,
  NC_DATAFLOW_LAYER_PARAMS(NC_X)
#undef NC_X
  NC_DATAFLOW_NUM_PARAMS
} nc_dataflow_layer_param;

/** The bit of parameter NC_DATAFLOW_PARAM_<e> in a set of parameters
 * (nc_dataflow_layer_get_params), e.g. NC_DATAFLOW_PARAM_BIT(PERM). */
#define NC_DATAFLOW_PARAM_BIT(e) ((uint64_t)1 << NC_DATAFLOW_PARAM_##e)

/** How an ELTWISE layer combines its (rescaled) inputs. */
typedef enum nc_dataflow_eltwise_op {
  NC_DATAFLOW_ELTWISE_NONE,
  NC_DATAFLOW_ELTWISE_ADD,
  NC_DATAFLOW_ELTWISE_SUB,
  NC_DATAFLOW_ELTWISE_MUL,
  NC_DATAFLOW_ELTWISE_MAX,
  NC_DATAFLOW_ELTWISE_MIN,
} nc_dataflow_eltwise_op;

/** How a PAD layer fills: ONNX Pad's modes, as numpy's np.pad (q = o - p, the offset into the input). */
typedef enum nc_dataflow_pad_mode {
  NC_DATAFLOW_PAD_CONSTANT, /**< pad_value */
  NC_DATAFLOW_PAD_REFLECT,  /**< the mirror image without the edge, repeated: r = q mod 2 (n - 1), in[r < n ? r :
                                 2 (n - 1) - r] (in[0] when n = 1); any width */
  NC_DATAFLOW_PAD_EDGE,     /**< the nearest edge element: in[clamp(q, 0, n - 1)] */
  NC_DATAFLOW_PAD_WRAP,     /**< the other end, repeated: in[q mod n]; any width */
} nc_dataflow_pad_mode;

/** Most inputs a layer records zero points and rescales for. */
#define NC_DATAFLOW_LAYER_MAX_INPUTS 32

/** A layer, decoded. Arrays and attributes are borrowed from the node's
 * attributes (valid while the node's context lives and the attribute is not
 * replaced). Fields a kind does not use are 0 / NULL. */
typedef struct nc_dataflow_layer {
  nc_dataflow_layer_kind kind;
  /* geometry: conv and pools (spatial dims in H, W order) */
  int64_t kernel[2];
  int64_t stride[2];
  int64_t dilation[2];
  int64_t pads[4];            /**< top, left, bottom, right */
  int64_t group;              /**< conv: 1; C for depthwise */
  bool count_include_pad;     /**< avg_pool: divide by the whole window */
  int64_t axis;               /**< concat: the tensor coordinate joined along */
  nc_dataflow_eltwise_op op;  /**< eltwise */
  int64_t scale[2];           /**< resize: the whole upsampling factors (H, W); 1 otherwise */
  int64_t linear[6];          /**< resize in mode linear: a, b, d of the source coordinate (a o + b) / d along H,
                                   then W (nc_kernel_resize_linear_tap); all 0 for nearest */
  int64_t linear_channels[3]; /**< resize in mode linear that also interpolates the channels: a, b, d along C
                                   (the output may have more or fewer channels); all 0 when C is kept */
  int64_t nearest_channels[3]; /**< resize in mode nearest that changes the channels: output channel c copies
                                   input channel clamp(floor((a c + b) / d), 0, C - 1) with (a, b, d)
                                   (nc_kernel_resize_nearest_coord); all 0 when C is kept */
  int64_t pad_value;          /**< pad: the value (a stored integer on integer layers) of padded elements */
  nc_dataflow_pad_mode pad_mode; /**< pad: constant (pad_value), reflect or edge */
  int64_t perm[4];            /**< copy that transposes: output tensor coordinate k is input coordinate perm[k] */
  size_t n_perm;              /**< entries of perm (the tensor's coordinates); 0: no transpose */
  /* integer semantics (see the header comment); zero points of the inputs in operand order */
  size_t n_inputs;
  int64_t input_zero_points[NC_DATAFLOW_LAYER_MAX_INPUTS];
  int64_t input_multiplier[NC_DATAFLOW_LAYER_MAX_INPUTS]; /**< eltwise/concat rescale to the output scale */
  int64_t input_shift[NC_DATAFLOW_LAYER_MAX_INPUTS];
  int64_t weight_zero_point;
  NC_KEEP nc_attr *weights;   /**< elements: conv [Cout, C/group, kh, kw], matmul [K, N]; NULL if none */
  NC_KEEP nc_attr *bias;      /**< elements: i32 [Cout]; NULL if none */
  size_t n_requant;           /**< 0 (no requantization), 1, or one per output channel */
  const int64_t *multiplier;  /**< n_requant fixed-point multipliers in [0, 2^31) */
  const int64_t *shift;       /**< n_requant right shifts in [0, 63] */
  int64_t output_zero_point;
  int64_t clamp_min, clamp_max; /**< applied after requantization; the output type's range when unused */
  NC_KEEP nc_attr *lut;       /**< elements: 2^bits entries indexed by (y - type min); NULL if none */
  /** conv only (dataflow-fold-input-affine): each element x of input channel c of operand 0 is first replaced by
   * clamp(round_half_even((x * w_c + b_c) * m_c / 2^s_c), lo, hi), a depthwise 1x1 conv folded into this one
   * (a batch-norm and relu that follow a concat). n_input_affine entries: (w_c, b_c, m_c, s_c) per channel, then lo,
   * hi; 0 and NULL when absent. */
  size_t n_input_affine;
  const int64_t *input_affine;
  /* element widths in bits (from the types, not stored: set ignores them; 0 for float) */
  unsigned input_bits, weight_bits, output_bits;
} nc_dataflow_layer;

/** The kind's name ("conv") and its kind from a name (false if unknown). */
NC_KEEP const char *nc_dataflow_layer_kind_name(nc_dataflow_layer_kind kind);
bool nc_dataflow_layer_kind_from_name(const char *name, nc_dataflow_layer_kind *kind);
/** One line describing the kind (from the table). */
NC_KEEP const char *nc_dataflow_layer_kind_summary(nc_dataflow_layer_kind kind);

/** The parameter's key in `params` ("perm"), and the parameter of a key
 * (false if unknown). */
NC_KEEP const char *nc_dataflow_layer_param_name(nc_dataflow_layer_param param);
bool nc_dataflow_layer_param_from_name(const char *name, nc_dataflow_layer_param *param);
/** One line describing the parameter (from the table). */
NC_KEEP const char *nc_dataflow_layer_param_summary(nc_dataflow_layer_param param);

/** The parameters of `layer` that differ from nc_dataflow_layer_make's
 * defaults, as bits 1 << param: exactly the keys nc_dataflow_node_set_layer
 * stores in `params`. */
uint64_t nc_dataflow_layer_get_params(NC_KEEP const nc_dataflow_layer *layer);

/** A layer of `kind` with neutral defaults: strides and dilations 1, group
 * 1, no requantization, clamp to [INT64_MIN, INT64_MAX]. */
nc_dataflow_layer nc_dataflow_layer_make(nc_dataflow_layer_kind kind);

/** Reads the layer a node records. Returns false (and emits nothing) when
 * the node has no layer or it is malformed; the verifier reports those. */
bool nc_dataflow_node_get_layer(NC_KEEP const nc_op *node, nc_dataflow_layer *out);

/** Records `layer` on the node (its `kind` and `params` attributes). */
void nc_dataflow_node_set_layer(nc_op *node, NC_KEEP const nc_dataflow_layer *layer);

/** The network inputs and outputs of a dataflow function, as the host sees
 * them: a function argument the host quantizes before sending it, or a
 * function result it dequantizes after receiving it. Stored as the func's
 * discardable attribute `dataflow.io = {inputs = [{argument, bits, name,
 * scale, zero_point}, ...], outputs = [{bits, name, result, scale,
 * zero_point}, ...]}`, in argument / result order (dataflow_layer_kind.c). */
typedef struct nc_dataflow_io {
  NC_KEEP const char *name;  /**< the model's name for it ("input", "logits") */
  double scale;              /**< real = scale * (q - zero_point) */
  int64_t zero_point;
  unsigned bits;             /**< of the quantized values (8, 4, 2) */
  NC_KEEP nc_value *value;   /**< the quantized value the nodes use (input), or that a node yields (output) */
} nc_dataflow_io;

/** Number of network inputs / outputs recorded on `func` by graph-to-dataflow. */
size_t nc_dataflow_func_get_num_io(NC_KEEP nc_op *func, bool outputs);
/** Network input or output i; false if absent or malformed. */
bool nc_dataflow_func_get_io(NC_KEEP nc_op *func, bool outputs, size_t i, nc_dataflow_io *out);

#endif
