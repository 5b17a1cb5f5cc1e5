/* graph_quantize_internal.h: what the files of graph-quantize share
 * (graph_quantize.c rewrites, graph_quantize_calibrate.c measures).
 */
#ifndef NC_PASSES_GRAPH_QUANTIZE_INTERNAL_H
#define NC_PASSES_GRAPH_QUANTIZE_INTERNAL_H

#include "graph_util.h"
#include "nc/ir/diag.h"

/** How an activation's range is chosen from its calibration values. */
typedef enum gq_calib_method {
  GQ_CALIB_MAXABS,     /**< max |x|: nothing saturates */
  GQ_CALIB_PERCENTILE, /**< the given percentile of |x| */
  GQ_CALIB_MSE,        /**< the clip that minimises the squared quantization error */
} gq_calib_method;

/** A pointer -> index map (open addressing), for ops and values. */
typedef struct gq_map {
  const void **keys;
  size_t *vals;
  size_t cap; /* a power of two, at least twice the entries */
  size_t n;
} gq_map;

void gq_map_init(gq_map *m, size_t expected);
void gq_map_free(gq_map *m);
/** Sets key -> val (replacing an existing entry). */
void gq_map_put(gq_map *m, NC_KEEP const void *key, size_t val);
/** The value of key, or SIZE_MAX if absent. */
size_t gq_map_get(NC_KEEP const gq_map *m, NC_KEEP const void *key);

/** Checks that the calibration tensor holds inputs of the function argument
 * `arg` (f32, statically shaped [d0, ...]): either [N * d0, d1, ...] or
 * [N, d0, d1, ...]. Returns the number of samples N (at most max_samples
 * when that is > 0) and a view of their data in *view (no copy, shaped as
 * the interpreter's batched input [N * d0, d1, ...]); 0 after an error at
 * `func` naming `path`. */
int64_t gq_calibration_view(NC_KEEP nc_op *func, NC_KEEP nc_value *arg, NC_KEEP const nc_tensor *calib,
                            const char *path, int64_t max_samples, nc_tensor *view);

/** Runs `func` (unchanged, f32) in the reference interpreter on the
 * calibration inputs `view` and records, for each of the n ops in `ops`,
 * the largest |x| of its (first) result over all samples into max_abs[i],
 * and that of the inputs themselves into *input_max_abs (NaN is ignored; 0
 * if every value was 0). False after an error (emitted at the function or
 * the failing op). */
bool gq_calibrate(NC_KEEP nc_op *func, NC_KEEP const nc_tensor *view, size_t n, nc_op *const *ops, double *max_abs,
                  double *input_max_abs);

/* --- rewriting (graph_quantize.c), shared with graph_quantize_acts.c --- */

/** A quantized value: the int8 value replacing an f32 one, and its scale. */
typedef struct qval {
  nc_value *v;
  float scale;
} qval;

/** The rewrite in progress: old f32 values -> their quantized forms. */
typedef struct rewrite {
  nc_context *ctx;
  nc_type *i8, *i32, *i64, *f32;
  gq_map map; /* old f32 value -> index into vals */
  qval *vals;
  size_t n_vals;
} rewrite;

/** Records that `old` is now `v` with scale `scale`. */
void gq_bind(rewrite *rw, NC_KEEP nc_value *old, NC_KEEP nc_value *v, float scale);
/** The quantized form of `old`, or NULL. */
NC_KEEP const qval *gq_lookup(rewrite *rw, NC_KEEP nc_value *old);
/** v's tensor type with element type elt. */
NC_KEEP nc_type *gq_like(rewrite *rw, NC_KEEP nc_value *v, NC_KEEP nc_type *elt);
/** A named attribute. */
nc_named_attr gq_named(rewrite *rw, const char *name, NC_KEEP nc_attr *value);
/** Creates a graph op before `before` (NULL after an error at it). */
NC_KEEP nc_op *gq_add_op(rewrite *rw, nc_op *before, const char *name, nc_location loc, size_t n_in,
                         nc_value *const *in, size_t n_attrs, const nc_named_attr *attrs, NC_KEEP nc_type *hint);

/** How graph_quantize_acts.c treats an op. */
typedef enum gq_acts_class {
  GQ_ACTS_ERROR = -1, /**< it is one of these, but cannot be quantized (error emitted) */
  GQ_ACTS_NONE = 0,   /**< not one of these */
  GQ_ACTS_OP,         /**< concat, mul or activation: its result is calibrated, then gq_acts_quantize */
  GQ_ACTS_FUSED,      /**< part of a pattern its user quantizes (the sigmoid of x * sigmoid(x)) */
} gq_acts_class;

/** Splits a fused activation that is not relu / relu6 (sigmoid, tanh,
 * leaky_relu, other clips) off `op` into its own op after it, so that its
 * input is calibrated and it becomes a table. False after an error. */
bool gq_acts_unfuse(nc_op *op);
/** Classifies a float op: concat of activations, mul of two activations
 * (channel broadcast), or an activation that becomes a lookup table. */
gq_acts_class gq_acts_classify(NC_KEEP nc_op *op);
/** Quantizes an op gq_acts_classify called GQ_ACTS_OP, with its calibrated
 * output scale sy, its result `bits` wide (8, 4 or 2); binds its result. */
bool gq_acts_quantize(rewrite *rw, nc_op *op, float sy, int bits);
/** Binds op's result to x rescaled from its scale to sy: a graph.concat_integer
 * of the one input x whose multiplier and shift are x's scale / sy (the
 * fixed-point rule), of x's element type. False after an error at op. */
bool gq_acts_rescale(rewrite *rw, nc_op *op, NC_KEEP const qval *x, float sy);

/** QDQ graphs (graph_quantize_qdq.c). For op a graph.quantize_linear or
 * graph.dequantize_linear: 1 if it is half of an activation's
 * QuantizeLinear -> DequantizeLinear pair nc takes as it is (int8, zero
 * point 0, one constant scale, written to *scale), -1 after an error at the
 * offending node, 0 for any other op. */
int gq_qdq_check(NC_KEEP nc_op *op, float *scale);
/** True if a user of v is such a QuantizeLinear: the model's own scale for
 * v, written to *scale. */
bool gq_qdq_model_scale(NC_KEEP nc_value *v, float *scale);
/** The width (8, 4 or 2) of the model's QuantizeLinear -> DequantizeLinear
 * pair on v (gq_qdq_model_scale's), or 0 if v has none. */
int gq_qdq_model_bits(NC_KEEP nc_value *v);
/** The model's own weight scales, when the constant w is a pre-quantized
 * model's weights (graph-qoperator-to-qdq folded its DequantizeLinear and
 * kept the scales as nc.weight_scale / nc.weight_axis / nc.weight_qmax):
 * overwrites sw[0..channels) if those scales are per tensor or along
 * out_axis (the stored dim of the output channels) and the model's codes
 * fit in [-qmax - 1, qmax], and returns true; else leaves sw as it is and
 * returns false. */
bool gq_qdq_weight_scales(NC_KEEP nc_value *w, int64_t out_axis, int64_t channels, int qmax, double *sw);

/** gq_calibrate with the ranges chosen by `method` (gq_clip_range), each
 * op's for its own qmax[i] (the input's for 127). */
bool gq_calibrate_method(NC_KEEP nc_op *func, NC_KEEP const nc_tensor *view, size_t n, nc_op *const *ops,
                         const int *qmax, gq_calib_method method, double percentile, double *range,
                         double *input_range);


/** Parses "maxabs", "percentile" or "mse" into *out; false otherwise. */
bool gq_calib_method_parse(const char *s, gq_calib_method *out);

/** The range (clip bound >= 0) the scale of an activation with values
 * x[0..n) covers when quantized to [-qmax, qmax] by `method` (percentile in
 * (0, 100] for GQ_CALIB_PERCENTILE); NaN is ignored, 0 if every value is 0. */
double gq_clip_range(const float *x, int64_t n, gq_calib_method method, double percentile, int qmax);

/** True for the widths graph-quantize makes: 8, 4 and 2 bits. */
bool gq_bits_valid(int64_t bits);

/** The width of each of the n quantized ops in `layers` (is_conv[i]: a
 * conv / gemm / matmul, not an add) into out[i]: `bits`, except the first
 * and last conv / gemm / matmul at 8, then the comma-separated LAYER:BITS
 * entries of `overrides` (LAYER: the result's location name). False after
 * an error at `func` (a malformed entry, a bad width, an unknown layer). */
bool gq_layer_bits(NC_KEEP nc_op *func, int64_t bits, const char *overrides, size_t n, nc_op *const *layers,
                   const bool *is_conv, int *out);

/* --- the quant report (graph_quantize_report.c) --- */

/** One quantized layer in the report. */
typedef struct gq_report_layer {
  char name[128];     /**< the result's location name (as --precision-overrides spells it) */
  const char *op;     /**< the float op's name (static) */
  int bits;
  float scale;        /**< the output scale */
  NC_KEEP nc_op *float_op, *quant_op; /**< the float op and the op defining its quantized form (NULL: none) */
  double sqnr;        /**< dB; +inf when exact, NaN when not measured */
} gq_report_layer;

/** Runs `func`, holding both the float and the integer ops, on the
 * calibration inputs `view` and sets each layer's sqnr. False after an
 * error at func. */
bool gq_report_measure(NC_KEEP nc_op *func, NC_KEEP const nc_tensor *view, size_t n, gq_report_layer *layers);

/** Writes the report as JSON to `path` and as a table on stderr. False
 * after an error at func. */
bool gq_report_write(NC_KEEP nc_op *func, const char *path, int64_t samples, size_t n,
                     NC_KEEP const gq_report_layer *layers);

#endif
