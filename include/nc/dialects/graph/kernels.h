/* kernels.h: the compute kernels of the graph dialect's reference interpreter.
 *
 * The reference interpreter is the oracle every lowering and every target
 * simulator is checked against (bit for bit on integer graphs), so each kernel
 * implements the ONNX operator specification (opsets 7-21) exactly; where the
 * spec leaves a choice open the choice is written down here. The kernels know
 * nothing of the IR: they read and write nc_tensor (support/tensor.h), and the
 * interpreter maps each graph op to one call.
 *
 * Conventions shared by every kernel:
 *  - Each op has a shape function `nc_kernel_<op>_shape` (usable by shape
 *    inference: it reads only shapes and attributes) and a compute function
 *    `nc_kernel_<op>` that writes into an output tensor the caller allocated
 *    with the shape the shape function returned and the documented dtype.
 *  - Attributes come in small parameter structs whose all-zero value means the
 *    ONNX defaults (strides 1, no padding, group 1, ...), unless a field says
 *    otherwise.
 *  - Every function returns false and writes a one-line message into
 *    `err` (errlen bytes, may be NULL) on invalid parameters, shapes or
 *    dtypes; it never crashes and never writes outside the output tensor.
 *    Compute functions re-check the output shape and dtype.
 *  - Input tensors are NC_KEEP; output tensors are NC_KEEP too (the caller
 *    owns them, the kernel only fills their data). An output must not share
 *    memory with an input (nc_kernel_reshape alone allows y == x).
 *  - Ops whose output shape is an input's (unary, Softmax, the norms,
 *    Quantize/DequantizeLinear, Requantize) have no shape function; the
 *    integer and quantized convolutions and products use
 *    nc_kernel_conv_shape and nc_kernel_matmul_shape.
 *  - Float kernels accept f32, f64, f16 and bf16. f32 and f64 compute in their
 *    own precision; f16/bf16 compute in f32 and round once per result
 *    (round to nearest even). Float results match ONNX's numpy reference up to
 *    rounding (summation order, libm), a few ulps, not bit for bit.
 *  - Integer kernels are exact. Wrapping integer arithmetic (add, sub, mul,
 *    int32 accumulation) wraps modulo 2^bits of the result type; conversions
 *    to narrow types saturate only where the spec says "saturate".
 *  - Axis arguments may be negative (counted from the end) where ONNX allows.
 */
#ifndef NC_DIALECTS_GRAPH_KERNELS_H
#define NC_DIALECTS_GRAPH_KERNELS_H

#include "nc/support/base.h"
#include "nc/support/tensor.h"

/** Largest number of spatial dimensions of convolutions and pooling. */
#define NC_KERNEL_MAX_SPATIAL 3

/* ------------------------------------------------------------------------ */
/* Convolution                                                               */
/* ------------------------------------------------------------------------ */

/** ONNX auto_pad attribute. */
typedef enum nc_auto_pad {
  NC_AUTO_PAD_NOTSET,     /**< explicit `pads` */
  NC_AUTO_PAD_SAME_UPPER, /**< output = ceil(in / stride); odd padding at the end */
  NC_AUTO_PAD_SAME_LOWER, /**< output = ceil(in / stride); odd padding at the beginning */
  NC_AUTO_PAD_VALID,      /**< no padding */
} nc_auto_pad;

/** Parses an ONNX auto_pad string ("NOTSET", "SAME_UPPER", "SAME_LOWER",
 * "VALID"; "" counts as NOTSET); false if unknown. */
bool nc_auto_pad_from_string(NC_KEEP const char *s, nc_auto_pad *out);

/** Attributes of Conv, ConvInteger and QLinearConv. All-zero means defaults.
 * The number of spatial dimensions is the input rank minus 2 (1 to 3). */
typedef struct nc_conv_params {
  int64_t kernel_shape[NC_KERNEL_MAX_SPATIAL]; /**< all 0: taken from W; else must equal W's */
  int64_t strides[NC_KERNEL_MAX_SPATIAL];      /**< 0 means 1 */
  int64_t dilations[NC_KERNEL_MAX_SPATIAL];    /**< 0 means 1 */
  int64_t pads[2 * NC_KERNEL_MAX_SPATIAL];     /**< ONNX order: begins of each spatial dim, then ends
                                                    (for 2-D: top, left, bottom, right) */
  nc_auto_pad auto_pad;                        /**< when not NOTSET, `pads` is ignored */
  int64_t group;                               /**< 0 means 1; depthwise when group == C */
} nc_conv_params;

/** Output shape of Conv: x is [N, C, D1..Dk], w is [M, C/group, K1..Kk], both
 * of rank `rank` (3 to 5). Writes `rank` dims to out_shape:
 * out = floor((in + pad_begin + pad_end - dilation*(kernel-1) - 1) / stride) + 1;
 * SAME_*: out = ceil(in / stride), total pad = max(0, (out-1)*stride +
 * dilation*(kernel-1) + 1 - in), the odd element at the end (UPPER) or at
 * the beginning (LOWER); VALID: no pads. */
bool nc_kernel_conv_shape(NC_KEEP const nc_conv_params *p, int rank, NC_KEEP const int64_t *x_shape,
                          NC_KEEP const int64_t *w_shape, int64_t *out_shape, char *err, size_t errlen);

/** Conv (float dtypes): y = conv(x, w) + b. `b` is NULL or of shape [M].
 * x, w, b and y share one float dtype. Computed by implicit im2col (the
 * patches are packed straight from x) feeding a cache-blocked GEMM, or by a
 * direct loop when each group has one input channel (depthwise). */
bool nc_kernel_conv(NC_KEEP const nc_conv_params *p, NC_KEEP const nc_tensor *x, NC_KEEP const nc_tensor *w,
                    NC_KEEP const nc_tensor *b, NC_KEEP nc_tensor *y, char *err, size_t errlen);

/** Attributes of ConvTranspose. All-zero means defaults. */
typedef struct nc_conv_transpose_params {
  int64_t kernel_shape[NC_KERNEL_MAX_SPATIAL];   /**< all 0: taken from W */
  int64_t strides[NC_KERNEL_MAX_SPATIAL];        /**< 0 means 1 */
  int64_t dilations[NC_KERNEL_MAX_SPATIAL];      /**< 0 means 1 */
  int64_t pads[2 * NC_KERNEL_MAX_SPATIAL];       /**< begins then ends; ignored with output_shape or SAME_* */
  int64_t output_padding[NC_KERNEL_MAX_SPATIAL]; /**< extra size at the end of each spatial dim */
  int64_t output_shape[NC_KERNEL_MAX_SPATIAL];   /**< spatial output shape; used when has_output_shape */
  bool has_output_shape;
  nc_auto_pad auto_pad;
  int64_t group; /**< 0 means 1 */
} nc_conv_transpose_params;

/** Output shape of ConvTranspose: x is [N, C, D1..Dk], w is [C, M/group, K1..Kk].
 * Without output_shape: out = stride*(in-1) + output_padding + dilation*(kernel-1)
 * + 1 - pad_begin - pad_end (SAME_*: out = in*stride). With output_shape (or
 * SAME_*) the total padding stride*(in-1) + output_padding + dilation*(kernel-1)
 * + 1 - out is split as the ONNX spec says: SAME_UPPER puts total/2 at the
 * beginning, otherwise the beginning gets total - total/2 (floor division,
 * as ONNX's reference; a negative total, i.e. an output_shape larger than
 * the full result, leaves the extra positions holding just the bias). Empty
 * spatial input dims are rejected. */
bool nc_kernel_conv_transpose_shape(NC_KEEP const nc_conv_transpose_params *p, int rank,
                                    NC_KEEP const int64_t *x_shape, NC_KEEP const int64_t *w_shape,
                                    int64_t *out_shape, char *err, size_t errlen);

/** ConvTranspose (float dtypes): GEMM of w^T with x, then col2im scatter-add;
 * `b` is NULL or [M]. */
bool nc_kernel_conv_transpose(NC_KEEP const nc_conv_transpose_params *p, NC_KEEP const nc_tensor *x,
                              NC_KEEP const nc_tensor *w, NC_KEEP const nc_tensor *b, NC_KEEP nc_tensor *y,
                              char *err, size_t errlen);

/* ------------------------------------------------------------------------ */
/* Matrix products                                                           */
/* ------------------------------------------------------------------------ */

/** Output shape of MatMul (numpy matmul): 1-D a is [1, K] with the 1 dropped
 * from the result, 1-D b is [K, 1] likewise; the batch dims (all but the last
 * two) broadcast as in numpy. Writes *out_rank dims to out_shape. */
bool nc_kernel_matmul_shape(int a_rank, NC_KEEP const int64_t *a_shape, int b_rank, NC_KEEP const int64_t *b_shape,
                            int *out_rank, int64_t *out_shape, char *err, size_t errlen);

/** MatMul. Float dtypes run the blocked GEMM; integer dtypes (a, b, y of one
 * dtype) accumulate exactly in 64 bits and wrap to the dtype. */
bool nc_kernel_matmul(NC_KEEP const nc_tensor *a, NC_KEEP const nc_tensor *b, NC_KEEP nc_tensor *y, char *err,
                      size_t errlen);

/** Attributes of Gemm: y = alpha * A' B' + beta * C. */
typedef struct nc_gemm_params {
  double alpha;  /**< ONNX default 1.0 (not 0: set it) */
  double beta;   /**< ONNX default 1.0 (not 0: set it) */
  bool trans_a, trans_b;
} nc_gemm_params;

/** Output shape of Gemm: a and b are 2-D; c (c_rank may be -1 for "absent")
 * must broadcast unidirectionally to [M, N]. */
bool nc_kernel_gemm_shape(NC_KEEP const nc_gemm_params *p, NC_KEEP const int64_t *a_shape,
                          NC_KEEP const int64_t *b_shape, int c_rank, NC_KEEP const int64_t *c_shape,
                          int64_t *out_shape, char *err, size_t errlen);

/** Gemm: y = alpha*(A'B') + beta*C; `c` may be NULL (beta == 0 ignores it).
 * Float dtypes run the blocked GEMM with alpha and beta rounded to the dtype
 * (f32 for f16/bf16). Integer dtypes are exact (wrapping) when alpha == 1 and
 * beta is 1 or unused; otherwise, as ONNX's reference does, the sum is formed
 * in double and truncated toward zero. */
bool nc_kernel_gemm(NC_KEEP const nc_gemm_params *p, NC_KEEP const nc_tensor *a, NC_KEEP const nc_tensor *b,
                    NC_KEEP const nc_tensor *c, NC_KEEP nc_tensor *y, char *err, size_t errlen);

/* ------------------------------------------------------------------------ */
/* Elementwise                                                               */
/* ------------------------------------------------------------------------ */

/** Binary elementwise ops (numpy broadcasting). */
typedef enum nc_binary_op {
  NC_BINARY_ADD, NC_BINARY_SUB, NC_BINARY_MUL, NC_BINARY_DIV, NC_BINARY_POW,
  NC_BINARY_MAX, NC_BINARY_MIN,
  NC_BINARY_MOD,  /**< ONNX Mod with fmod=0: result takes the divisor's sign (integers only) */
  NC_BINARY_FMOD, /**< ONNX Mod with fmod=1: C fmod, result takes the dividend's sign */
  NC_BINARY_PRELU,/**< x < 0 ? slope*x : x (b unidirectionally broadcast to a) */
} nc_binary_op;

/** Numpy broadcast of two shapes into out_shape (rank max(a_rank, b_rank)). */
bool nc_kernel_broadcast_shape(int a_rank, NC_KEEP const int64_t *a_shape, int b_rank,
                               NC_KEEP const int64_t *b_shape, int *out_rank, int64_t *out_shape, char *err,
                               size_t errlen);

/** y = a op b with numpy broadcasting; y has a's dtype. a and b share a dtype,
 * except for POW, whose exponent may have any numeric dtype.
 * Integer semantics: ADD/SUB/MUL wrap; DIV truncates toward zero (as C and
 * as ONNX's reference, which casts numpy's true quotient back to the integer
 * type), x/0 is defined here as 0 and INT_MIN/-1 wraps to INT_MIN; MOD follows
 * numpy's floor-modulo sign rule and x mod 0 = 0; POW with an integer
 * exponent is exact repeated multiplication (wrapping), a negative exponent
 * gives 1/x^n truncated (so 0 unless |x| == 1; 0^-n = 0); an integer base
 * with a float exponent is computed in double and truncated. Float MAX and
 * MIN propagate NaN as numpy.maximum does. bool operands are rejected. */
bool nc_kernel_binary(nc_binary_op op, NC_KEEP const nc_tensor *a, NC_KEEP const nc_tensor *b,
                      NC_KEEP nc_tensor *y, char *err, size_t errlen);

/** Variadic ops Sum, Mean, Max, Min (numpy broadcasting across all inputs). */
typedef enum nc_variadic_op { NC_VARIADIC_SUM, NC_VARIADIC_MEAN, NC_VARIADIC_MAX, NC_VARIADIC_MIN } nc_variadic_op;

/** Output shape of a variadic op over n >= 1 inputs. */
bool nc_kernel_variadic_shape(int n, NC_KEEP const int *ranks, NC_KEEP const int64_t *const *shapes,
                              int *out_rank, int64_t *out_shape, char *err, size_t errlen);

/** y = x0 op x1 op ... (left to right, in the dtype's arithmetic); MEAN divides
 * the sum by n at the end (integer dtypes: truncating division). */
bool nc_kernel_variadic(nc_variadic_op op, int n, NC_KEEP const nc_tensor *const *xs, NC_KEEP nc_tensor *y,
                        char *err, size_t errlen);

/** Unary elementwise ops (y has x's shape and dtype). */
typedef enum nc_unary_op {
  NC_UNARY_IDENTITY, NC_UNARY_NEG, NC_UNARY_ABS, NC_UNARY_RELU, NC_UNARY_SIGN, /* also integer dtypes */
  NC_UNARY_SQRT, NC_UNARY_EXP, NC_UNARY_LOG, NC_UNARY_RECIPROCAL, NC_UNARY_FLOOR, NC_UNARY_CEIL,
  NC_UNARY_ROUND,       /**< half to even */
  NC_UNARY_SIGMOID, NC_UNARY_TANH, NC_UNARY_ERF,
  NC_UNARY_SOFTPLUS,    /**< log(exp(x) + 1), computed without overflow for large x */
  NC_UNARY_SOFTSIGN,    /**< x / (1 + |x|) */
  NC_UNARY_LEAKY_RELU,  /**< x < 0 ? alpha*x : x */
  NC_UNARY_ELU,         /**< x < 0 ? alpha*(exp(x)-1) : x */
  NC_UNARY_SELU,        /**< x <= 0 ? gamma*(alpha*exp(x)-alpha) : gamma*x */
  NC_UNARY_HARD_SIGMOID,/**< max(0, min(1, alpha*x + beta)) */
  NC_UNARY_HARD_SWISH,  /**< x * max(0, min(1, x/6 + 1/2)) */
  NC_UNARY_THRESHOLDED_RELU, /**< x > alpha ? x : 0 */
  NC_UNARY_CELU,        /**< max(0, x) + min(0, alpha*(exp(x/alpha)-1)) */
  NC_UNARY_COUNT
} nc_unary_op;

/** Attributes of the unary ops (alpha, beta, gamma as ONNX names them). */
typedef struct nc_unary_params {
  double alpha, beta, gamma;
} nc_unary_params;

/** ONNX default attributes of op (LeakyRelu alpha 0.01, Elu alpha 1, Selu
 * alpha 1.67326319..., gamma 1.05070102..., HardSigmoid 0.2/0.5,
 * ThresholdedRelu 1, Celu 1). */
nc_unary_params nc_unary_params_default(nc_unary_op op);

/** y = op(x). Float ops compute in the dtype's precision (f16/bf16 in f32) with
 * alpha/beta/gamma rounded to it. IDENTITY, NEG, ABS, RELU and SIGN also take
 * integer dtypes (NEG and ABS wrap: -INT_MIN = INT_MIN). */
bool nc_kernel_unary(nc_unary_op op, NC_KEEP const nc_unary_params *p, NC_KEEP const nc_tensor *x,
                     NC_KEEP nc_tensor *y, char *err, size_t errlen);

/** Clip (opset 11+ form; earlier opsets pass their attributes as 0-d tensors):
 * y = min(max(x, lo), hi) for any numeric dtype, exactly for integers. `lo`
 * and `hi` are NULL (no bound) or one-element tensors of x's dtype. A NaN x
 * stays NaN, a NaN bound makes every element NaN, and if lo > hi every
 * element becomes hi (all as numpy.clip, which ONNX's reference calls). */
bool nc_kernel_clip(NC_KEEP const nc_tensor *x, NC_KEEP const nc_tensor *lo, NC_KEEP const nc_tensor *hi,
                    NC_KEEP nc_tensor *y, char *err, size_t errlen);

/** PRelu: y = x < 0 ? slope*x : x, slope broadcast unidirectionally to x. */
bool nc_kernel_prelu(NC_KEEP const nc_tensor *x, NC_KEEP const nc_tensor *slope, NC_KEEP nc_tensor *y, char *err,
                     size_t errlen);

/** Output shape of Expand (bidirectional numpy broadcast of x with `shape`). */
bool nc_kernel_expand_shape(int x_rank, NC_KEEP const int64_t *x_shape, int n, NC_KEEP const int64_t *shape,
                            int *out_rank, int64_t *out_shape, char *err, size_t errlen);

/** Expand: copies x broadcast to y's shape (any dtype). */
bool nc_kernel_expand(NC_KEEP const nc_tensor *x, NC_KEEP nc_tensor *y, char *err, size_t errlen);

/* ------------------------------------------------------------------------ */
/* Pooling                                                                   */
/* ------------------------------------------------------------------------ */

/** Attributes of MaxPool and AveragePool. kernel_shape is required. */
typedef struct nc_pool_params {
  int64_t kernel_shape[NC_KERNEL_MAX_SPATIAL];
  int64_t strides[NC_KERNEL_MAX_SPATIAL];   /**< 0 means 1 */
  int64_t dilations[NC_KERNEL_MAX_SPATIAL]; /**< 0 means 1 */
  int64_t pads[2 * NC_KERNEL_MAX_SPATIAL];  /**< begins then ends */
  nc_auto_pad auto_pad;
  bool ceil_mode;
  bool count_include_pad; /**< AveragePool only */
} nc_pool_params;

/** Output shape of MaxPool/AveragePool on x [N, C, D1..Dk] (rank 3 to 5):
 * out = floor_or_ceil((in + pad_begin + pad_end - dilation*(kernel-1) - 1) /
 * stride) + 1; with ceil_mode a window that would start in the end padding
 * is dropped (out -= 1 when (out-1)*stride >= in + pad_begin), as the ONNX
 * spec (opset 19+) and PyTorch say. SAME_*: out = ceil(in / stride), pads as
 * for Conv; VALID: out = floor((in - dilation*(kernel-1) - 1)/stride) + 1
 * (ceil with ceil_mode). storage_order does not affect values. */
bool nc_kernel_pool_shape(NC_KEEP const nc_pool_params *p, int rank, NC_KEEP const int64_t *x_shape,
                          int64_t *out_shape, char *err, size_t errlen);

/** MaxPool over float dtypes and i8/u8. Padding never wins; a window holding
 * only padding (possible with large pads) yields the dtype's lowest value
 * (-inf for floats). NaNs are skipped unless the whole window is NaN. */
bool nc_kernel_max_pool(NC_KEEP const nc_pool_params *p, NC_KEEP const nc_tensor *x, NC_KEEP nc_tensor *y,
                        char *err, size_t errlen);

/** AveragePool (float dtypes, and i8/u8 with the integer rule below). The divisor counts the window positions inside
 * the input, or with count_include_pad the positions inside the padded input
 * [-pad_begin, in + pad_end) (so a ceil_mode window running past the end
 * padding is not divided by the full kernel size, as in PyTorch and
 * onnxruntime). Sums are accumulated in double. On i8/u8 the exact integer
 * sum is divided by that count with nc_div_round_half_even (never outside
 * the input's range, so no saturation is needed). */
bool nc_kernel_avg_pool(NC_KEEP const nc_pool_params *p, NC_KEEP const nc_tensor *x, NC_KEEP nc_tensor *y,
                        char *err, size_t errlen);

/** Output shape of GlobalAveragePool/GlobalMaxPool: [N, C, 1, ..., 1]. */
bool nc_kernel_global_pool_shape(int rank, NC_KEEP const int64_t *x_shape, int64_t *out_shape, char *err,
                                 size_t errlen);

/** GlobalAveragePool (float dtypes: mean accumulated in double; i8/u8: the
 * exact integer sum divided by the plane's size, nc_div_round_half_even). */
bool nc_kernel_global_avg_pool(NC_KEEP const nc_tensor *x, NC_KEEP nc_tensor *y, char *err, size_t errlen);

/** GlobalMaxPool (float dtypes and i8/u8). */
bool nc_kernel_global_max_pool(NC_KEEP const nc_tensor *x, NC_KEEP nc_tensor *y, char *err, size_t errlen);

/* ------------------------------------------------------------------------ */
/* Reductions                                                                */
/* ------------------------------------------------------------------------ */

/** Reduce ops. */
typedef enum nc_reduce_op {
  NC_REDUCE_SUM, NC_REDUCE_MEAN, NC_REDUCE_MAX, NC_REDUCE_MIN, NC_REDUCE_PROD,
  NC_REDUCE_SUM_SQUARE, NC_REDUCE_L1, NC_REDUCE_L2, NC_REDUCE_LOG_SUM, NC_REDUCE_LOG_SUM_EXP,
} nc_reduce_op;

/** Attributes/inputs of the Reduce* ops. */
typedef struct nc_reduce_params {
  int naxes;                 /**< number of entries in axes (0: see noop_with_empty_axes) */
  const int64_t *axes;       /**< NC_KEEP; may be negative; duplicates are an error */
  bool keepdims;             /**< ONNX default 1 (not 0: set it) */
  bool noop_with_empty_axes; /**< with naxes == 0: true = identity, false = reduce all */
} nc_reduce_params;

/** Output shape of a reduction. */
bool nc_kernel_reduce_shape(NC_KEEP const nc_reduce_params *p, int rank, NC_KEEP const int64_t *x_shape,
                            int *out_rank, int64_t *out_shape, char *err, size_t errlen);

/** Reduction; y has x's dtype. Float sums and products accumulate in double;
 * float MAX/MIN propagate NaN; LOG_SUM_EXP subtracts the maximum first.
 * Integer SUM, PROD, SUM_SQUARE and L1 wrap; integer MEAN truncates the exact
 * mean toward zero; integer L2, LOG_SUM and LOG_SUM_EXP are computed in
 * double and truncated. An empty reduction gives the identity: 0 for sums, 1 for PROD, -inf
 * (float) / the dtype's minimum for MAX, +inf / maximum for MIN, NaN for
 * MEAN of floats (0 for integers), -inf for LOG_SUM(_EXP). */
bool nc_kernel_reduce(nc_reduce_op op, NC_KEEP const nc_reduce_params *p, NC_KEEP const nc_tensor *x,
                      NC_KEEP nc_tensor *y, char *err, size_t errlen);

/* ------------------------------------------------------------------------ */
/* Normalisation and softmax                                                 */
/* ------------------------------------------------------------------------ */

/** BatchNormalization in inference mode on x [N, C, ...]: y = (x - mean) /
 * sqrt(var + epsilon) * scale + bias; scale, bias, mean, var are [C].
 * Per-channel factors are computed in double, then y = x*a + b. */
bool nc_kernel_batch_norm(double epsilon, NC_KEEP const nc_tensor *x, NC_KEEP const nc_tensor *scale,
                          NC_KEEP const nc_tensor *bias, NC_KEEP const nc_tensor *mean,
                          NC_KEEP const nc_tensor *var, NC_KEEP nc_tensor *y, char *err, size_t errlen);

/** InstanceNormalization on x [N, C, ...]: per (n, c), y = scale*(x - mean) /
 * sqrt(var + epsilon) + bias with the population variance (double math). */
bool nc_kernel_instance_norm(double epsilon, NC_KEEP const nc_tensor *x, NC_KEEP const nc_tensor *scale,
                             NC_KEEP const nc_tensor *bias, NC_KEEP nc_tensor *y, char *err, size_t errlen);

/** Attributes of LRN (ONNX defaults alpha 1e-4, beta 0.75, bias 1). */
typedef struct nc_lrn_params {
  double alpha, beta, bias;
  int64_t size; /**< required, >= 1 */
} nc_lrn_params;

/** LRN over channels of x [N, C, ...]: y = x / (bias + alpha/size *
 * sum_{c' in [c - floor((size-1)/2), c + ceil((size-1)/2)]} x[c']^2)^beta. */
bool nc_kernel_lrn(NC_KEEP const nc_lrn_params *p, NC_KEEP const nc_tensor *x, NC_KEEP nc_tensor *y, char *err,
                   size_t errlen);

/** Softmax / LogSoftmax attributes. */
typedef struct nc_softmax_params {
  int64_t axis;   /**< ONNX default: 1 before opset 13, -1 from opset 13 */
  bool coerce_2d; /**< true for opset < 13: x is viewed as [prod(d<axis), prod(d>=axis)]
                       and normalised along the second dim; false: along `axis` only */
} nc_softmax_params;

/** Softmax: exp(x - max) / sum(exp(x - max)), sums in double. Shape-preserving. */
bool nc_kernel_softmax(NC_KEEP const nc_softmax_params *p, NC_KEEP const nc_tensor *x, NC_KEEP nc_tensor *y,
                       char *err, size_t errlen);

/** LogSoftmax: x - max - log(sum(exp(x - max))). */
bool nc_kernel_log_softmax(NC_KEEP const nc_softmax_params *p, NC_KEEP const nc_tensor *x, NC_KEEP nc_tensor *y,
                           char *err, size_t errlen);

/* ------------------------------------------------------------------------ */
/* Data movement (any dtype)                                                 */
/* ------------------------------------------------------------------------ */

/** Output shape of Concat of n >= 1 inputs of equal rank along axis. */
bool nc_kernel_concat_shape(int64_t axis, int n, int rank, NC_KEEP const int64_t *const *shapes,
                            int64_t *out_shape, char *err, size_t errlen);

/** Concat. */
bool nc_kernel_concat(int64_t axis, int n, NC_KEEP const nc_tensor *const *xs, NC_KEEP nc_tensor *y, char *err,
                      size_t errlen);

/** Resolves the part sizes of Split along axis into sizes[n]: given `split`
 * (n entries summing to the dim) they are checked and copied; with split ==
 * NULL the dim is cut into n parts of ceil(dim/n), the last one smaller
 * (opset 18 num_outputs; for opset < 18 the dim must divide evenly and this
 * gives the same equal parts). */
bool nc_kernel_split_sizes(int64_t axis, int rank, NC_KEEP const int64_t *x_shape, int n,
                           NC_KEEP const int64_t *split, int64_t *sizes, char *err, size_t errlen);

/** Split x along axis into ys[0..n) of the given sizes. */
bool nc_kernel_split(int64_t axis, int n, NC_KEEP const int64_t *sizes, NC_KEEP const nc_tensor *x,
                     NC_KEEP nc_tensor *const *ys, char *err, size_t errlen);

/** Inputs of Slice (opset 10+; opset 1-9 attributes map onto it). */
typedef struct nc_slice_params {
  int n;                 /**< number of entries in starts/ends (and axes/steps) */
  const int64_t *starts; /**< NC_KEEP */
  const int64_t *ends;   /**< NC_KEEP; INT64_MAX: to the end (step > 0), INT64_MIN: to the
                              beginning (step < 0); no other special values, as in the spec */
  const int64_t *axes;   /**< NC_KEEP or NULL for 0..n-1; may be negative; no repeats */
  const int64_t *steps;  /**< NC_KEEP or NULL for all 1; nonzero */
} nc_slice_params;

/** Output shape of Slice, as ONNX defines it: negative starts/ends count from
 * the end (+dim); then for step > 0 start and end clamp to [0, dim], for
 * step < 0 start clamps to [0, dim-1] and end to [-1, dim-1]; the length is
 * max(0, ceil((end - start) / step)). */
bool nc_kernel_slice_shape(NC_KEEP const nc_slice_params *p, int rank, NC_KEEP const int64_t *x_shape,
                           int64_t *out_shape, char *err, size_t errlen);

/** Slice. */
bool nc_kernel_slice(NC_KEEP const nc_slice_params *p, NC_KEEP const nc_tensor *x, NC_KEEP nc_tensor *y,
                     char *err, size_t errlen);

/** Reshape's output shape from the `shape` input (n entries): -1 (at most
 * one) is inferred; 0 copies the input dim at that index unless allowzero, in
 * which case it means an empty dim (and -1 is then invalid with a 0). */
bool nc_kernel_reshape_shape(int rank, NC_KEEP const int64_t *x_shape, int n, NC_KEEP const int64_t *shape,
                             bool allowzero, int64_t *out_shape, char *err, size_t errlen);

/** Reshape/Flatten/Squeeze/Unsqueeze/Identity data movement: copies x's data
 * into y (same dtype and element count, any shape). */
bool nc_kernel_reshape(NC_KEEP const nc_tensor *x, NC_KEEP nc_tensor *y, char *err, size_t errlen);

/** Flatten's output shape [prod(d < axis), prod(d >= axis)], axis in [-rank, rank]. */
bool nc_kernel_flatten_shape(int64_t axis, int rank, NC_KEEP const int64_t *x_shape, int64_t *out_shape,
                             char *err, size_t errlen);

/** Squeeze's output shape: naxes == 0 drops every dim of size 1; listed
 * axes must have size 1. */
bool nc_kernel_squeeze_shape(int naxes, NC_KEEP const int64_t *axes, int rank, NC_KEEP const int64_t *x_shape,
                             int *out_rank, int64_t *out_shape, char *err, size_t errlen);

/** Unsqueeze's output shape: axes index the output (rank + naxes), may be
 * negative, must be distinct. */
bool nc_kernel_unsqueeze_shape(int naxes, NC_KEEP const int64_t *axes, int rank, NC_KEEP const int64_t *x_shape,
                               int *out_rank, int64_t *out_shape, char *err, size_t errlen);

/** Output shape of Transpose; perm NULL means reversed dims. */
bool nc_kernel_transpose_shape(NC_KEEP const int64_t *perm, int rank, NC_KEEP const int64_t *x_shape,
                               int64_t *out_shape, char *err, size_t errlen);

/** Transpose: y[i_perm[0], ..., i_perm[r-1]] = x[i_0, ..., i_{r-1}], i.e.
 * y's dim k is x's dim perm[k]. */
bool nc_kernel_transpose(NC_KEEP const int64_t *perm, NC_KEEP const nc_tensor *x, NC_KEEP nc_tensor *y,
                         char *err, size_t errlen);

/** The input index each of `out_len` outputs copies along one dim under
 * ONNX Resize's nearest mode (scale out_len / in_len): `coord_mode` is one
 * of half_pixel, pytorch_half_pixel, asymmetric, align_corners,
 * tf_half_pixel_for_nn; `nearest_mode` one of round_prefer_floor,
 * round_prefer_ceil, floor, ceil; indices clamp to [0, in_len). */
bool nc_kernel_resize_nearest_map(NC_KEEP const char *coord_mode, NC_KEEP const char *nearest_mode, int64_t in_len,
                                  int64_t out_len, int64_t *map, char *err, size_t errlen);

/** The index map of nc_kernel_resize_nearest_map in exact integer form:
 * map[o] = clamp(floor((a o + b) / d), 0, in_len - 1) with abd = (a, b, d),
 * a >= 0, d >= 1 (the rounding of `nearest_mode` folded in), checked against
 * the map for every o; false with a message when the map differs (or the
 * sizes exceed 2^31 - 1). */
bool nc_kernel_resize_nearest_coord(NC_KEEP const char *coord_mode, NC_KEEP const char *nearest_mode, int64_t in_len,
                                    int64_t out_len, int64_t abd[3], char *err, size_t errlen);

/** ONNX Resize, mode nearest, of x into y (whose shape, set by the caller,
 * gives the output sizes): y[o] = x[map_0(o_0), ..., map_r(o_r)]. Any dtype. */
bool nc_kernel_resize_nearest(NC_KEEP const char *coord_mode, NC_KEEP const char *nearest_mode,
                              NC_KEEP const nc_tensor *x, NC_KEEP nc_tensor *y, char *err, size_t errlen);

/** Fraction bits of a linear resize's integer weights: NC_RESIZE_LINEAR_BITS. */
#define NC_RESIZE_LINEAR_BITS 10

/** ONNX Resize's source coordinate of output o along one dim under mode
 * linear, as the exact rational (a * o + b) / d (d > 0, a >= 0):
 * half_pixel (o + 1/2) * in / out - 1/2, pytorch_half_pixel the same (-1/2
 * when out is 1), asymmetric o * in / out, align_corners o * (in - 1) /
 * (out - 1) (0 when out is 1). False for other modes. */
bool nc_kernel_resize_linear_coord(NC_KEEP const char *coord_mode, int64_t in_len, int64_t out_len, int64_t abd[3],
                                   char *err, size_t errlen);

/** The two input indices and the integer weight of the second that output o
 * reads along a dim with source coordinate (a * o + b) / d and n inputs:
 * f = floor((a o + b) / d), i0 = clamp(f, 0, n - 1), i1 = clamp(f + 1, 0,
 * n - 1), w1 = round_half_even(2^NC_RESIZE_LINEAR_BITS * ((a o + b) - f d) / d);
 * the first's weight is 2^NC_RESIZE_LINEAR_BITS - w1. */
void nc_kernel_resize_linear_tap(NC_KEEP const int64_t abd[3], int64_t n, int64_t o, int64_t *i0, int64_t *i1,
                                 int64_t *w1);

/** ONNX Resize, mode linear (exclude_outside changes nothing for it), of x
 * into y (shape set by the caller) with `coord_mode` as for
 * nc_kernel_resize_linear_coord; neighbours outside the input clamp to its
 * edge. Float dtypes follow ONNX's reference (onnx's resize.py) in double:
 * per dim, from the last to the first, (1 - r) * lo + r * hi with the
 * source coordinate x = (o + 0.5) / (out / in) - 0.5 etc., r = x - floor(x).
 * Integer dtypes (at most 16 bits) use fixed-point weights per dim
 * (nc_kernel_resize_linear_tap, F = NC_RESIZE_LINEAR_BITS) and one rounding:
 *   y = round_half_even(sum over the 2^k corners of (prod_d w_d) * x[corner] / 2^(F k))
 * over the k dims whose weights are not all 0 (the others copy index i0);
 * weights per dim sum to 2^F, so the result stays within the inputs' range
 * and a zero point passes through. */
bool nc_kernel_resize_linear(NC_KEEP const char *coord_mode, NC_KEEP const nc_tensor *x, NC_KEEP nc_tensor *y,
                             char *err, size_t errlen);

/** Pad modes. */
typedef enum nc_pad_mode { NC_PAD_CONSTANT, NC_PAD_REFLECT, NC_PAD_EDGE, NC_PAD_WRAP } nc_pad_mode;

/** Parses an ONNX Pad mode string ("constant", "reflect", "edge", "wrap"). */
bool nc_pad_mode_from_string(NC_KEEP const char *s, nc_pad_mode *out);

/** Inputs/attributes of Pad. */
typedef struct nc_pad_params {
  nc_pad_mode mode;
  int naxes;            /**< 0: pads cover every dim */
  const int64_t *axes;  /**< NC_KEEP; opset 18 axes, may be negative */
  const int64_t *pads;  /**< NC_KEEP; 2 * (naxes or rank) entries: begins, then ends */
} nc_pad_params;

/** Output shape of Pad: dim + begin + end (must stay >= 0). */
bool nc_kernel_pad_shape(NC_KEEP const nc_pad_params *p, int rank, NC_KEEP const int64_t *x_shape,
                         int64_t *out_shape, char *err, size_t errlen);

/** Pad. Negative pads crop first; the positive pads then extend the cropped
 * tensor: constant (value: NULL for 0, else a one-element tensor of x's
 * dtype), edge, wrap, or reflect (mirror without repeating the edge, numpy
 * 'reflect', repeated for pads longer than the dim; a dim of size 1 repeats).
 * Padding a dim of size 0 with a non-constant mode is an error. */
bool nc_kernel_pad(NC_KEEP const nc_pad_params *p, NC_KEEP const nc_tensor *x, NC_KEEP const nc_tensor *value,
                   NC_KEEP nc_tensor *y, char *err, size_t errlen);

/* ------------------------------------------------------------------------ */
/* Quantization                                                              */
/* ------------------------------------------------------------------------ */

/** Quantization granularity of QuantizeLinear/DequantizeLinear: the scale
 * (and zero point) is a scalar or 1-element tensor (per tensor), a 1-D tensor
 * of x.shape[axis] entries (per axis), or with block_size > 0 a tensor of x's
 * rank whose dim `axis` is ceil(x.shape[axis] / block_size) (blocked, opset 21). */
typedef struct nc_quant_params {
  int64_t axis;       /**< ONNX default 1 (not 0: set it) */
  int64_t block_size; /**< 0: not blocked */
} nc_quant_params;

/** QuantizeLinear: y = saturate(rint(x / scale) + zero_point), rint rounding
 * half to even. As in ONNX's reference, x / scale is one division in x's
 * dtype (f32; f16/bf16 divide in f32 and round to the dtype, as numpy does;
 * f64 in double); the rounded quotient plus the zero point then saturates to
 * y's dtype, which may be any of i2, u2, i4, u4, i8, u8, i16, u16, i32
 * (zero_point, when given, has y's dtype; NaN quantizes to the zero point,
 * a quotient beyond the int32 range saturates too). */
bool nc_kernel_quantize_linear(NC_KEEP const nc_quant_params *p, NC_KEEP const nc_tensor *x,
                               NC_KEEP const nc_tensor *scale, NC_KEEP const nc_tensor *zero_point,
                               NC_KEEP nc_tensor *y, char *err, size_t errlen);

/** DequantizeLinear: y = (x - zero_point) * scale, x any integer dtype up to
 * 32 bits, y of the scale's float dtype. The difference is exact (int64) and
 * the product is formed in double and rounded once to f32: bit-identical to
 * ONNX's reference (float32 math) for inputs of 16 bits or fewer, exact for
 * int32. f16/bf16 results are then rounded from that f32. */
bool nc_kernel_dequantize_linear(NC_KEEP const nc_quant_params *p, NC_KEEP const nc_tensor *x,
                                 NC_KEEP const nc_tensor *scale, NC_KEEP const nc_tensor *zero_point,
                                 NC_KEEP nc_tensor *y, char *err, size_t errlen);

/** ConvInteger: y (i32) = conv(x - x_zero_point, w - w_zero_point) with exact
 * int32 accumulation (wrapping). x and w are i8/u8 (also i4/u4/i2/u2);
 * x_zero_point is NULL or one element; w_zero_point is NULL, one element or
 * [M] (per output channel). Padding contributes 0 after the zero-point
 * subtraction, i.e. pads hold x_zero_point. */
bool nc_kernel_conv_integer(NC_KEEP const nc_conv_params *p, NC_KEEP const nc_tensor *x, NC_KEEP const nc_tensor *w,
                            NC_KEEP const nc_tensor *x_zero_point, NC_KEEP const nc_tensor *w_zero_point,
                            NC_KEEP nc_tensor *y, char *err, size_t errlen);

/** MatMulInteger: y (i32) = (a - a_zero_point) @ (b - b_zero_point), shapes
 * as MatMul. a_zero_point is NULL, one element or one per row of a (M); b's
 * is NULL, one element or one per column of b (N). */
bool nc_kernel_matmul_integer(NC_KEEP const nc_tensor *a, NC_KEEP const nc_tensor *b,
                              NC_KEEP const nc_tensor *a_zero_point, NC_KEEP const nc_tensor *b_zero_point,
                              NC_KEEP nc_tensor *y, char *err, size_t errlen);

/** QLinearConv: acc = conv(x - x_zp, w - w_zp) + bias in exact int32, then
 * requantized by the float rule of ONNX's reference implementation:
 *   s[m] = fl32(fl32(x_scale * w_scale[m]) / y_scale)   (float32 arithmetic)
 *   y    = saturate(rint_half_even((double)acc * (double)s[m] + y_zp))
 * with the product and the zero-point sum in double (numpy promotes int32 *
 * float32 to float64; the reference's clip-then-round equals this
 * round-then-saturate). w_scale and w_zero_point are one element or [M];
 * scales are f32; bias is NULL or i32 [M]; y_zero_point has y's dtype
 * (i8/u8, or any dtype of quantize_linear). */
bool nc_kernel_qlinear_conv(NC_KEEP const nc_conv_params *p, NC_KEEP const nc_tensor *x,
                            NC_KEEP const nc_tensor *x_scale, NC_KEEP const nc_tensor *x_zero_point,
                            NC_KEEP const nc_tensor *w, NC_KEEP const nc_tensor *w_scale,
                            NC_KEEP const nc_tensor *w_zero_point, NC_KEEP const nc_tensor *y_scale,
                            NC_KEEP const nc_tensor *y_zero_point, NC_KEEP const nc_tensor *bias,
                            NC_KEEP nc_tensor *y, char *err, size_t errlen);

/** QLinearMatMul: acc = (a - a_zp) @ (b - b_zp) in exact int32, then
 * y = saturate(rint_half_even((double)acc * s + y_zp)) with
 * s = fl32(fl32(a_scale * b_scale) / y_scale) as for QLinearConv. a's scale and
 * zero point are one element or per row (M); b's are one element or per
 * column (N). */
bool nc_kernel_qlinear_matmul(NC_KEEP const nc_tensor *a, NC_KEEP const nc_tensor *a_scale,
                              NC_KEEP const nc_tensor *a_zero_point, NC_KEEP const nc_tensor *b,
                              NC_KEEP const nc_tensor *b_scale, NC_KEEP const nc_tensor *b_zero_point,
                              NC_KEEP const nc_tensor *y_scale, NC_KEEP const nc_tensor *y_zero_point,
                              NC_KEEP nc_tensor *y, char *err, size_t errlen);

/* ------------------------------------------------------------------------ */
/* Fixed-point requantization (integer-only hardware)                        */
/* ------------------------------------------------------------------------ */

/** Rounds v / 2^shift to the nearest integer, ties to even, for shift in
 * [0, 63]: q = floor(v / 2^shift), r = v - q*2^shift; q+1 if r > 2^(shift-1)
 * or (r == 2^(shift-1) and q is odd). Exact for every int64 v (shift <= 0
 * returns v, shift > 63 acts as 63). */
int64_t nc_round_half_even_shift(int64_t v, int shift);

/** n / d rounded to the nearest integer, ties to even (d > 0; exact for
 * every int64 n): the integer average pools' division. */
int64_t nc_div_round_half_even(int64_t n, int64_t d);

/** Decomposes a real scale into an int32 multiplier and a right shift so that
 * scale ~= multiplier * 2^-shift, as TFLite's QuantizeMultiplier does but
 * rounding half to even: scale = q * 2^e with q in [0.5, 1); multiplier =
 * rint(q * 2^31) (2^31 becomes 2^30 with e+1); shift = 31 - e. The multiplier
 * is then in [2^30, 2^31) and the relative error at most 2^-31. When shift
 * would exceed 63 the multiplier is shifted right (rounding half to even) to
 * make shift 63, and may become 0. scale == 0 gives (0, 0). Fails for
 * negative, NaN or infinite scales and for scales >= 2^31 (shift < 0). */
bool nc_fixed_point_from_scale(double scale, int32_t *multiplier, int32_t *shift, char *err, size_t errlen);

/** Attributes of the fixed-point requantize kernel. */
typedef struct nc_requant_params {
  int64_t axis;              /**< channel axis for per-axis multipliers (may be negative) */
  int64_t count;             /**< 1 (per tensor) or x.shape[axis] (per axis) */
  const int32_t *multiplier; /**< NC_KEEP; count entries, each >= 0 */
  const int32_t *shift;      /**< NC_KEEP; count entries, each in [0, 63] */
  int32_t zero_point;        /**< added after rounding */
} nc_requant_params;

/** Fixed-point requantize of an int32 accumulator tensor x into y (i2..i32,
 * u2..u32, same shape):
 *   y = saturate(nc_round_half_even_shift((int64)x * multiplier, shift) + zero_point)
 * The product is exact in int64 (|x * m| < 2^62); rounding is half to even on
 * the exact product (a single rounding step, no intermediate doubling-high-mul
 * as in gemmlowp); the zero-point sum is exact in int64; saturation clamps to
 * y's dtype range. */
bool nc_kernel_requantize(NC_KEEP const nc_requant_params *p, NC_KEEP const nc_tensor *x, NC_KEEP nc_tensor *y,
                          char *err, size_t errlen);

/** Attributes of the integer elementwise kernel (graph.add_integer,
 * graph.sub_integer). */
typedef struct nc_eltwise_integer_params {
  int32_t multiplier[2]; /**< per input, >= 0: input i is worth multiplier[i] * 2^-shift[i] output steps */
  int32_t shift[2];      /**< per input, in [0, 63] */
  int32_t zero_point;    /**< added after the combination */
  bool subtract;         /**< r_0 - r_1 instead of r_0 + r_1 */
  bool relu;             /**< r = max(r, zero_point) before saturating */
} nc_eltwise_integer_params;

/** Integer elementwise add (or subtract) of a and b (same shape, integer
 * dtypes) into y (i2..i32, u2..u32, same shape), each input rescaled first:
 *   r_i = nc_round_half_even_shift((int64)x_i * multiplier[i], shift[i])
 *   r   = r_0 +/- r_1 + zero_point;  relu: r = max(r, zero_point)
 *   y   = saturate(r) */
bool nc_kernel_eltwise_integer(NC_KEEP const nc_eltwise_integer_params *p, NC_KEEP const nc_tensor *a,
                               NC_KEEP const nc_tensor *b, NC_KEEP nc_tensor *y, char *err, size_t errlen);

/** Integer concatenation along `axis` of n integer tensors (their shapes
 * equal except along axis) into y, each input rescaled to the output scale
 * first (graph.concat_integer):
 *   y = saturate(nc_round_half_even_shift((int64)x_i * multiplier[i], shift[i]) + zero_point)
 * multiplier[i] >= 0, shift[i] in [0, 63]; 2^30 with shift 30 copies x_i. */
bool nc_kernel_concat_integer(int64_t axis, int n, NC_KEEP const nc_tensor *const *xs, NC_KEEP const int32_t *multiplier,
                              NC_KEEP const int32_t *shift, int32_t zero_point, NC_KEEP nc_tensor *y, char *err,
                              size_t errlen);

/** Integer elementwise product of a and b (integers of at most 16 bits)
 * into y (a's shape and y's dtype);
 * b broadcasts to a's shape as in numpy (dims aligned from the right, each 1
 * or equal: [1, C, 1, 1] scales the channels), then one rescale
 * (graph.mul_integer):
 *   r = nc_round_half_even_shift((int64)a * b * multiplier, shift) + zero_point
 *   relu: r = max(r, zero_point);  y = saturate(r) */
bool nc_kernel_mul_integer(int32_t multiplier, int32_t shift, int32_t zero_point, bool relu,
                           NC_KEEP const nc_tensor *a, NC_KEEP const nc_tensor *b, NC_KEEP nc_tensor *y, char *err,
                           size_t errlen);

/** Elementwise table lookup (graph.lut_integer): y = table[x - min] where
 * min is the lowest value of x's integer dtype and the table has one entry
 * per value of it (2^bits; 256 for i8, 16 for i4); entries saturate to y's
 * dtype. */
bool nc_kernel_lut_integer(NC_KEEP const int64_t *table, size_t n_table, NC_KEEP const nc_tensor *x,
                           NC_KEEP nc_tensor *y, char *err, size_t errlen);

/** Builds the 2^bits-entry table of a real function f for signed `bits`-bit
 * inputs of scale in_scale and outputs of scale out_scale (zero points 0):
 *   table[i] = saturate_bits(round_half_even(f((i - 2^(bits-1)) * in_scale) / out_scale))
 * into the caller's table (2^bits entries); f's userData is passed through.
 * False (with a message) if a value of f is
 * not finite or the scales are not positive. */
bool nc_lut_build(double (*f)(double x, void *userData), void *userData, double in_scale, double out_scale,
                  unsigned bits, int64_t *table, char *err, size_t errlen);

/** Integer softmax along the last axis (graph.softmax_integer): for each
 * row, with m its maximum and n_table = 2^bits of x's dtype,
 *   e_j = table[x_j - m + n_table - 1]   (exp((x_j - m) * s_x) in fixed point, table[n_table - 1] the largest)
 *   y_j = round_half_even(e_j * out_max / sum_k e_k)   (exact integer division)
 * so y is the probability at scale 1 / out_max (out_max = the largest value of
 * y's dtype, zero point 0). Entries must be in [0, 2^31) with a positive last one. */
bool nc_kernel_softmax_integer(NC_KEEP const int64_t *table, size_t n_table, NC_KEEP const nc_tensor *x,
                               NC_KEEP nc_tensor *y, char *err, size_t errlen);

#endif
