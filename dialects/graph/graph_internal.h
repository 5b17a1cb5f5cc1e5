/* graph_internal.h: what the files of the graph dialect share.
 *
 * Every graph op is one row of graph_ops.def, from which the kind enum
 * below, the op table (graph_dialect.c) and the other per-op tables of the
 * dialect are generated. Shape inference is written once per op
 * family (graph_shape_*.c) against a `gx`, which carries the operand types,
 * the attributes and where to report errors; the table's infer_types hooks,
 * the verifier (graph_verify.c) and the public API (graph_api.c) all run it.
 */
#ifndef NC_DIALECTS_GRAPH_GRAPH_INTERNAL_H
#define NC_DIALECTS_GRAPH_GRAPH_INTERNAL_H

#include <string.h>

#include "nc/dialects/graph/graph.h"
#include "nc/ir/asm.h"
#include "nc/ir/diag.h"

/** The graph ops, in table order (graph_ops.def). */
typedef enum graph_kind {
#define GRAPH_OP(KIND, ...) KIND,
#include "graph_ops.def"
  G_COUNT
} graph_kind;

/** Whether an op takes the fused `activation` attributes (graph_ops.def's
 * DEF column): no, yes (checked by shape inference, applied by the
 * interpreter after the op), or as part of the op's own semantics. */
typedef enum graph_activation_use { G_ACTIVATION_NONE, G_ACTIVATION_FUSED, G_ACTIVATION_OWN } graph_activation_use;

/** The kind of a graph op, or -1 for any other op. */
int graph_kind_of(NC_KEEP const nc_op *op);

/** One shape-inference problem: inputs, attributes, outputs, and where errors go. */
typedef struct gx {
  nc_context *ctx;
  nc_location loc;
  graph_kind kind;
  const char *name;          /* "graph.conv" */
  size_t n_in;
  nc_type *const *in;        /* operand types, flattened (optional operands positional) */
  nc_attr *props;            /* inherent attributes (a dictionary, or NULL) */
  size_t n_out;
  nc_type **out;             /* results; on entry the declared types or NULL (hints) */
} gx;

/** Runs shape inference for `kind`: checks operands and attributes
 * (reporting the first problem at g->loc) and fills g->out. */
bool graph_infer(gx *g);

/** Reports "'graph.x' op <message>" at g->loc; returns false. */
bool gx_error(gx *g, const char *fmt, ...) NC_PRINTF(2, 3);
/** An attribute, or NULL. */
nc_attr *gx_attr(gx *g, const char *name);
/** Integer / float / string attributes with their ONNX defaults. */
int64_t gx_int(gx *g, const char *name, int64_t dflt);
double gx_float(gx *g, const char *name, double dflt);
const char *gx_str(gx *g, const char *name, const char *dflt);
/** An i64 array attribute: its entries, or NULL with *n = 0 if absent. */
const int64_t *gx_ints(gx *g, const char *name, size_t *n);
/** Stores result i as a ranked tensor. */
void gx_set(gx *g, size_t i, size_t rank, const int64_t *shape, nc_type *elt);

/* --- small type helpers ----------------------------------------------------------- */

static inline bool g_dyn(int64_t d) { return d == NC_DYNAMIC; }
static inline size_t g_rank(const nc_type *t) { return nc_type_get_rank(t); }
static inline const int64_t *g_dims(const nc_type *t) { return nc_type_get_shape(t); }
static inline nc_type *g_elt(const nc_type *t) { return nc_type_get_element_type(t); }

/** Writes a shape as "[1, ?, 3]" into buf (for messages). */
const char *g_shape_str(char *buf, size_t len, size_t rank, const int64_t *shape);
/** A reference kernel's error message without its "kernel_name: " prefix. */
static inline const char *g_kernel_msg(const char *err)
{
  const char *colon = strstr(err, ": ");
  return colon ? colon + 2 : err;
}
/** Writes a list of ints as "[1, -1, 3]" (attribute values, not dims). */
const char *g_ints_str(char *buf, size_t len, size_t n, const int64_t *v);
/** Saturating addition (for sizes in messages and checks). */
static inline int64_t g_sat_add(int64_t a, int64_t b)
{
  return b > 0 && a > INT64_MAX - b ? INT64_MAX : b < 0 && a < INT64_MIN - b ? INT64_MIN : a + b;
}
/** Saturating multiplication of non-negative sizes. */
static inline int64_t g_sat_mul(int64_t a, int64_t b)
{
  return a && b > INT64_MAX / a ? INT64_MAX : a * b;
}
/** Numpy broadcast of two shapes (dynamic dims allowed); false on a conflict
 * with *bad_dim set to the result dim (counted from the right) that failed. */
bool g_broadcast(size_t ra, const int64_t *a, size_t rb, const int64_t *b, size_t *rout, int64_t *out);
/** Normalises an axis in [-rank, rank) (or [-rank, rank] with `inclusive`). */
bool g_axis(gx *g, const char *what, int64_t axis, size_t rank, bool inclusive, size_t *out);
/** Checks that an element type is the same as another operand's. */
bool g_same_elt(gx *g, size_t i, size_t j);

/* --- the families (graph_shape_nn.c, graph_shape_tensor.c) ------------------------- */

bool graph_infer_constant(gx *g);       /* graph_verify.c */
bool graph_infer_identity(gx *g);
bool graph_infer_cast(gx *g);
bool graph_infer_conv(gx *g);           /* conv, conv_integer, qlinear_conv */
bool graph_infer_conv_transpose(gx *g);
bool graph_infer_matmul(gx *g);         /* matmul, matmul_integer, qlinear_matmul */
bool graph_infer_gemm(gx *g);
bool graph_infer_pool(gx *g);
bool graph_infer_global_pool(gx *g);
bool graph_infer_norm(gx *g);           /* lrn, batch_norm, instance_norm */
bool graph_infer_quant(gx *g);          /* quantize_linear, dequantize_linear */
bool graph_infer_requantize(gx *g);     /* requantize (fixed point) */
bool graph_infer_eltwise_integer(gx *g); /* add_integer, sub_integer */
bool graph_infer_concat_integer(gx *g); /* concat_integer */
bool graph_infer_mul_integer(gx *g);    /* mul_integer */
bool graph_infer_lut_integer(gx *g);    /* lut_integer */
bool graph_infer_softmax_integer(gx *g); /* softmax_integer */
/* The integer ops' shared checks (graph_shape_quant.c), each reporting its
 * error at g: the result element type (the declared one or i8), a 2- to
 * 32-bit integer holding 'output_zero_point' when zero_point, else NULL; n
 * (multiplier, shift) pairs the fixed-point rescale can take (multipliers
 * in [0, 2^31), shifts in [0, 63]); 'activation' absent or "relu". */
nc_type *graph_int_result(gx *g, bool zero_point);
bool graph_check_rescales(gx *g, const int64_t *m, const int64_t *s, size_t n);
bool graph_check_relu_only(gx *g);
bool graph_check_activation(gx *g);     /* the fusion attributes */

bool graph_infer_elementwise(gx *g);    /* binary, variadic, unary, prelu, clip, softmax */
bool graph_infer_reduce(gx *g);
bool graph_infer_concat(gx *g);
/* Concat's result dims (the operands' dims, summed along 'axis') into out
 * and its rank into *rank; same_elt also requires one element type. */
bool graph_concat_shape(gx *g, bool same_elt, int64_t out[NC_MAX_RANK], size_t *rank);
bool graph_infer_split(gx *g);
bool graph_infer_slice(gx *g);
bool graph_infer_reshape(gx *g);        /* reshape, flatten, squeeze, unsqueeze */
bool graph_infer_transpose(gx *g);
bool graph_infer_pad(gx *g);
bool graph_infer_resize(gx *g);
bool graph_infer_dynamic_quant(gx *g);
bool graph_infer_channel_shuffle(gx *g);

/* --- hooks used by the op table ------------------------------------------------------ */

bool graph_verify(nc_op *op);
bool graph_fold_constant(nc_op *op, nc_attr *const *consts, nc_fold_result *results);
bool graph_fold_identity(nc_op *op, nc_attr *const *consts, nc_fold_result *results);
bool graph_fold_reshape(nc_op *op, nc_attr *const *consts, nc_fold_result *results);
bool graph_fold_transpose(nc_op *op, nc_attr *const *consts, nc_fold_result *results);
bool graph_fold_variadic(nc_op *op, nc_attr *const *consts, nc_fold_result *results);
bool graph_fold_cast(nc_op *op, nc_attr *const *consts, nc_fold_result *results);
bool graph_fold_pool(nc_op *op, nc_attr *const *consts, nc_fold_result *results);        /* 1x1 stride 1 */
bool graph_fold_global_pool(nc_op *op, nc_attr *const *consts, nc_fold_result *results); /* of a 1x1 plane */
bool graph_fold_pad(nc_op *op, nc_attr *const *consts, nc_fold_result *results);         /* all pads 0 */
nc_op *graph_materialize_constant(nc_context *ctx, nc_attr *value, nc_type *type, nc_location loc);
/** Canonicalization patterns (graph_fold.c): flatten / squeeze / unsqueeze of a
 * reshape-like op become one reshape; transposes moving only size-1 dims too. */
extern const nc_pattern graph_reshape_like_patterns[1];
extern const nc_pattern graph_transpose_patterns[2];
extern const nc_pattern graph_channel_shuffle_patterns[1];
/** reduce_mean / reduce_max over the two spatial dims of [N, C, H, W]: a global pool. */
extern const nc_pattern graph_reduce_patterns[1];
/** conv / avg_pool of a constant-zero spatial graph.pad: the pad becomes the window's padding. */
extern const nc_pattern graph_pad_into_window_patterns[1];

/** Runs the infer_types hook of op kind `kind` (declared in graph_dialect.c). */
bool graph_infer_hook(graph_kind kind, nc_context *ctx, nc_location loc, size_t n_operands,
                      nc_type *const *operand_types, nc_attr *props, size_t n_results, nc_type **types);

#endif
