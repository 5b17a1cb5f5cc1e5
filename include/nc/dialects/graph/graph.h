/* graph.h: the public API of the `graph` dialect (tensor ops as in ONNX).
 *
 * The op definitions themselves are data (dialects/graph/graph_dialect.c,
 * reference in docs/dialects/graph.md, design in docs/design/graph-dialect.md).
 * This header gives what other code needs besides the generic op API:
 *  - shape inference (the same code the verifier and the parser run), to
 *    build graph ops without computing result types by hand;
 *  - attribute readers that apply ONNX's defaults, since absent optional
 *    attributes mean the default and nobody may rely on their presence;
 *  - the kernel parameter structs of kernels.h filled from an op's
 *    attributes, so the interpreter and every lowering read attributes in one
 *    way.
 * Functions taking an `nc_op *` expect a verified op; given another op kind
 * they return false (or the default).
 */
#ifndef NC_DIALECTS_GRAPH_GRAPH_H
#define NC_DIALECTS_GRAPH_GRAPH_H

#include "nc/dialects/graph/kernels.h"
#include "nc/ir/ods.h"

/** The graph dialect definition (registered by nc_register_all_dialects). */
extern const nc_dialect_def nc_graph_dialect;

/* ------------------------------------------------------------------------ */
/* Shape inference                                                           */
/* ------------------------------------------------------------------------ */

/** Infers the result types of graph op `op_name` ("graph.conv") from operand
 * types and an attribute dictionary (`attrs`, NULL for none), checking the
 * operands and attributes as the verifier does and emitting the first problem
 * as an error at `loc`. `types` has n_results entries; on entry each may hold
 * a hint (the type the caller intends) or NULL: graph.cast,
 * graph.quantize_linear and graph.requantize (i8 without a hint) take their
 * result element type from the hint, and graph.split needs n_results. Results are ranked tensors whose dims are
 * static where the operands' are, dynamic (`?`) otherwise. Optional operands
 * are positional: pass the leading ones that are present. */
bool nc_graph_infer_types(nc_context *ctx, const char *op_name, nc_location loc, size_t n_operands,
                          NC_KEEP nc_type *const *operand_types, NC_KEEP nc_attr *attrs, size_t n_results,
                          nc_type **types);

/** Infers the result types of an existing graph op from its operands and
 * attributes (its current result types are the hints); fills
 * types[nc_op_get_num_results(op)]. Errors are emitted at the op. */
bool nc_graph_infer_result_types(NC_KEEP nc_op *op, nc_type **types);

/** True if a declared type is compatible with an inferred one: both ranked
 * tensors of the same element type and rank whose dims agree wherever both
 * are static (what the verifier demands of every graph op's results). */
bool nc_graph_types_compatible(NC_KEEP const nc_type *inferred, NC_KEEP const nc_type *declared);

/** Creates a detached graph op whose result types are inferred (see
 * nc_graph_infer_types for `result_hints`, which may be NULL). `attrs` are
 * the op's attributes (inherent or discardable, as nc_op_create takes them).
 * Returns NULL after emitting an error at `loc` if inference fails. */
NC_GIVE nc_op *nc_graph_create_op(nc_context *ctx, const char *op_name, nc_location loc, size_t n_operands,
                                  nc_value *const *operands, size_t n_attrs, const nc_named_attr *attrs,
                                  size_t n_results, nc_type *const *result_hints);

/** Creates a detached graph.constant holding `value` (a dense or
 * dense_resource elements attribute of a statically shaped tensor type). */
NC_GIVE nc_op *nc_graph_create_constant(nc_context *ctx, NC_KEEP nc_attr *value, nc_location loc);

/* ------------------------------------------------------------------------ */
/* Attributes with ONNX defaults                                             */
/* ------------------------------------------------------------------------ */

/** An integer attribute of the op, or `dflt` if absent (or not an integer). */
int64_t nc_graph_attr_int(NC_KEEP const nc_op *op, const char *name, int64_t dflt);
/** A float attribute (an integer attribute is converted), or `dflt`. */
double nc_graph_attr_float(NC_KEEP const nc_op *op, const char *name, double dflt);
/** A string attribute as a NUL-terminated string, or `dflt`. */
NC_KEEP const char *nc_graph_attr_string(NC_KEEP const nc_op *op, const char *name, NC_KEEP const char *dflt);
/** An `array<i64: ...>` attribute: its entries (owned by the context) and
 * their count in *n; NULL with *n = 0 if absent. */
NC_KEEP const int64_t *nc_graph_attr_ints(NC_KEEP const nc_op *op, const char *name, size_t *n);

/* ------------------------------------------------------------------------ */
/* Kernel parameters from attributes (defaults applied)                      */
/* ------------------------------------------------------------------------ */

/** graph.conv, graph.conv_integer, graph.qlinear_conv: kernel_shape (0s when
 * absent: taken from W), strides and dilations (1s), pads (0s), auto_pad,
 * group (1). False for other ops or inputs of more than 3 spatial dims. */
bool nc_graph_get_conv_params(NC_KEEP const nc_op *op, nc_conv_params *p);

/** graph.conv_transpose: as conv plus output_padding and output_shape. */
bool nc_graph_get_conv_transpose_params(NC_KEEP const nc_op *op, nc_conv_transpose_params *p);

/** graph.max_pool, graph.avg_pool. */
bool nc_graph_get_pool_params(NC_KEEP const nc_op *op, nc_pool_params *p);

/** graph.gemm: alpha, beta (1.0), trans_a, trans_b (0). */
bool nc_graph_get_gemm_params(NC_KEEP const nc_op *op, nc_gemm_params *p);

/** graph.reduce_*: the reduction and its parameters (axes point into the
 * attribute, owned by the context). */
bool nc_graph_get_reduce_params(NC_KEEP const nc_op *op, nc_reduce_op *kind, nc_reduce_params *p);

/** graph.slice: starts, ends, axes (NULL: 0..n-1), steps (NULL: 1s), all
 * pointing into the attributes. */
bool nc_graph_get_slice_params(NC_KEEP const nc_op *op, nc_slice_params *p);

/** graph.pad: mode and pads (2 * rank entries, begins then ends, pointing
 * into the attribute); *value is the constant-mode fill value (0.0). */
bool nc_graph_get_pad_params(NC_KEEP const nc_op *op, nc_pad_params *p, double *value);

/** graph.softmax, graph.log_softmax: axis (-1), opset 13 semantics. */
bool nc_graph_get_softmax_params(NC_KEEP const nc_op *op, nc_softmax_params *p);

/** graph.lrn: size, alpha (1e-4), beta (0.75), bias (1.0). */
bool nc_graph_get_lrn_params(NC_KEEP const nc_op *op, nc_lrn_params *p);

/** graph.quantize_linear, graph.dequantize_linear: axis (1), no blocking. */
bool nc_graph_get_quant_params(NC_KEEP const nc_op *op, nc_quant_params *p);

/** The epsilon of graph.batch_norm / graph.instance_norm (1e-5). */
bool nc_graph_get_norm_epsilon(NC_KEEP const nc_op *op, double *epsilon);

/** How graph-quantize treats an op (the QUANT column of graph_ops.def). */
typedef enum nc_graph_quant_class {
  NC_GRAPH_QUANT_NONE,         /**< no integer form: an error */
  NC_GRAPH_QUANT_CONSTANT,     /**< graph.constant: quantized where a layer uses it */
  NC_GRAPH_QUANT_LAYER,        /**< conv / gemm / matmul: integer conv or matmul + graph.requantize */
  NC_GRAPH_QUANT_PASS_THROUGH, /**< runs on int8 as it is, keeping its input's scale */
  NC_GRAPH_QUANT_FOLD_FIRST,   /**< no integer form, but graph-optimize folds it into the layer before it */
} nc_graph_quant_class;

/** The quantization class of a graph op definition (NONE for any other op). */
nc_graph_quant_class nc_graph_get_quant_class(NC_KEEP const nc_op_def *def);

/** Unary ops (those with a UNARY kernel op in graph_ops.def: graph.identity,
 * sqrt, exp, relu, sigmoid, leaky_relu, ...): the kernel op and its
 * alpha/beta/gamma (ONNX defaults). */
bool nc_graph_get_unary_op(NC_KEEP const nc_op *op, nc_unary_op *kind, nc_unary_params *p);

/** Binary ops (BINARY in graph_ops.def: graph.add, sub, mul, div, pow, prelu). */
bool nc_graph_get_binary_op(NC_KEEP const nc_op *op, nc_binary_op *kind);

/** Variadic ops (VARIADIC in graph_ops.def: graph.max, min, sum, mean). */
bool nc_graph_get_variadic_op(NC_KEEP const nc_op *op, nc_variadic_op *kind);

/** The bounds of graph.clip: an absent bound is unbounded. Float tensors use
 * the f32 `min`/`max` attributes (in min_f/max_f), integer tensors the i64
 * ones (in min_i/max_i); is_float says which. */
typedef struct nc_graph_clip_bounds {
  bool is_float;
  bool has_min, has_max;
  double min_f, max_f;
  int64_t min_i, max_i;
} nc_graph_clip_bounds;
bool nc_graph_get_clip_bounds(NC_KEEP const nc_op *op, nc_graph_clip_bounds *b);

/** A fused activation (the `activation` attributes graph passes set on conv,
 * conv_transpose, gemm, matmul and add). */
typedef enum nc_graph_activation_kind {
  NC_GRAPH_ACT_NONE,
  NC_GRAPH_ACT_RELU,
  NC_GRAPH_ACT_LEAKY_RELU, /* alpha: activation_alpha (0.01) */
  NC_GRAPH_ACT_CLIP,       /* bounds: activation_min / activation_max (absent: unbounded) */
  NC_GRAPH_ACT_SIGMOID,
  NC_GRAPH_ACT_TANH,
} nc_graph_activation_kind;

/** A fused activation as stored on an op: kind and parameters. */
typedef struct nc_graph_activation {
  nc_graph_activation_kind kind;
  double alpha;
  bool has_min, has_max;
  double min, max;
} nc_graph_activation;

/** Reads the fused activation of an op (kind NONE if there is none); false
 * only if the `activation` string is not one of the known names. */
bool nc_graph_get_activation(NC_KEEP const nc_op *op, nc_graph_activation *act);

#endif
