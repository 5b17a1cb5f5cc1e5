/* graph_quantize_internal.h: what the files of graph-quantize share
 * (graph_quantize.c rewrites, graph_quantize_calibrate.c measures).
 */
#ifndef NC_PASSES_GRAPH_QUANTIZE_INTERNAL_H
#define NC_PASSES_GRAPH_QUANTIZE_INTERNAL_H

#include <stdio.h>

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

/** If the context's resources are releasable, records the blob of `dead`
 * (a graph.constant about to be erased) in `cand` (graph_quantize_release.c). */
void gq_collect_blob(gq_map *cand, NC_KEEP nc_op *dead);
/** If the context's resources are releasable, drops the bytes of the float
 * weights of `layer` (just rewritten) when their constant has no other use:
 * nothing reads them any more, and the peak memory of a large model is its
 * float weights plus the integer ones made so far, not plus all of them. */
void gq_drop_weights(NC_KEEP nc_op *layer);
/** Releases the recorded blobs that no op of `func` refers to any more;
 * returns how many. */
size_t gq_release_blobs(gq_map *cand, NC_KEEP nc_op *func);

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

/* --- weights (graph_quantize_weights.c) --- */

/* The layer's weights in the layout of the integer op ([M, C/g, k..] for
 * conv; [K, N] times alpha for gemm and matmul), read as doubles a block of
 * rows at a time from the constant (never copied whole: a large gemm's
 * weights are hundreds of MB), with the number of output channels; bias
 * (beta * c for gemm) per channel or NULL. A conv row is one output channel
 * (`row_len` = C/g * k..); a gemm row is one k (`row_len` = N, the channels). */
typedef struct layer_data {
  nc_tensor *src; /* the constant as stored: &view, or a copy (owned) */
  nc_tensor view;
  bool owned;
  bool conv, trans_b;
  double alpha;
  int64_t rows, row_len, channels;
  int rank;
  int64_t shape[NC_TENSOR_MAX_RANK]; /* of the integer op's weights */
  double *bias;                      /* channels entries, or NULL */
} layer_data;

/** Reads the layer's weights (a view of an f32 constant, else a copy) and
 * bias; false if they are not constants. gq_layer_free releases it either way. */
bool gq_layer_read(NC_KEEP nc_op *op, layer_data *L);
void gq_layer_free(layer_data *L);
/** The layer's weights quantized per output channel to [-qmax, qmax] (a
 * pre-quantized model's keep their codes) into *wq (owned by the caller),
 * their scales into sw[0..channels) (zeros on entry); false, with nothing
 * made, when a weight or the bias is not finite. */
bool gq_weight_codes(NC_KEEP nc_op *op, const layer_data *L, int bits, double *sw, NC_GIVE nc_tensor **wq);

/** Layers' weights quantized ahead of the rewrite, in parallel
 * (graph_quantize_weights.c). */
typedef struct gq_wprep gq_wprep;
/** Plans the weights of the n layers ops[k] (conv, gemm, matmul) at widths
 * bits[k]; nothing is computed yet. */
NC_GIVE gq_wprep *gq_wprep_create(nc_context *ctx, size_t n, nc_op *const *ops, const int *bits);
/** If op's weights at `bits` are of the kinds quantized ahead (f32 conv, f32
 * gemm with transB and alpha 1, no model scales): quantizes them (with the
 * next layers', a few tens of MB at a time, split by channels over the
 * context's threads) unless done, moves their codes to *wq (NULL when not
 * finite) and scales to sw[0..channels) and returns true. Else false:
 * gq_weight_codes does it. The same codes and scales as gq_weight_codes. */
bool gq_wprep_take(gq_wprep *p, NC_KEEP nc_op *op, int bits, double *sw, NC_GIVE nc_tensor **wq);
void gq_wprep_destroy(NC_TAKE gq_wprep *p);

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
  struct gq_wcache *cache; /* mixed precision's trials: weights kept per (layer, width), biases inline (NULL: the
                              real rewrite, blobs named after the float ones) */
  bool drop_floats;         /* each layer's float weights may go once it is rewritten (gq_drop_weights) */
  gq_wprep *prep;           /* the real rewrite: weights quantized ahead in parallel (NULL: none) */
  bool share_rescales;      /* a concat input that other concats rescale alike is rescaled once, by a layer of
                               its own, when that leaves the concat only moving data (share-concat-scales) */
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

/** Splits a fused activation that is not relu or a layer's clip (sigmoid,
 * tanh, leaky_relu, an add's clip) off `op` into its own op after it, so
 * that its input is calibrated and it becomes a table (a conv's, gemm's or
 * matmul's clip with ordered bounds stays: graph.requantize's clamp). False
 * after an error. */
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

/* --- the rewrite as a whole (graph_quantize.c), for mixed precision's trials --- */

/** What the checks and the calibration found: the ops to rewrite, the
 * layers, the model's own scales. The real rewrite and mixed precision's
 * trials both build the integer graph from it. */
typedef struct gq_plan {
  nc_context *ctx;
  nc_op *func, *ret;
  nc_block *block;
  nc_value *arg;
  size_t n_ops, n_layers;
  nc_op **ops, **layers; /**< every op before the return; the quantized layers among them */
  int *kinds;            /**< per op, graph_quantize.c's op_kind */
  float *given, in_given; /**< the model's own scales (QDQ; 0: none) */
  double in_max;          /**< the input's calibrated range */
} gq_plan;

/** Starts a rewrite of p's function (free with gq_rewrite_free). */
void gq_rewrite_init(rewrite *rw, NC_KEEP const gq_plan *p);
/** Frees what gq_rewrite_init allocated (not the ops built). */
void gq_rewrite_free(rewrite *rw);
/** Builds the integer graph beside the float one (layer l at width
 * lbits[l], its output scale from the range max_abs[l] unless the model
 * gives one) and points the results at it, dequantized to f32; the float
 * ops stay, dead. False after an error at an op. */
bool gq_rewrite_graph(NC_KEEP const gq_plan *p, rewrite *rw, const int *lbits, const double *max_abs);

/** Gives each concat and the layers computing its inputs (through ops that
 * keep their input's scale) one range, the largest of the group, so their
 * scales are equal and the concat's rescales the identity
 * (graph_quantize_share.c). Layers with a model scale, another width than
 * their concat's or a relu6 bound keep theirs. */
void gq_share_concat_scales(NC_KEEP const gq_plan *p, const int *lbits, double *max_abs);

/** One layer's weights quantized at one width, kept across trials. */
typedef struct gq_wentry {
  NC_KEEP nc_op *op;
  int bits;
  NC_KEEP nc_attr *w; /**< the constant's value */
  double *sw;         /**< the per-channel scales (owned) */
} gq_wentry;

/** The weights of mixed precision's trials (rewrite.cache). */
typedef struct gq_wcache {
  gq_wentry *e;
  size_t n, cap;
} gq_wcache;

/** The entry of (op, bits), or NULL. */
NC_KEEP gq_wentry *gq_wcache_find(gq_wcache *c, NC_KEEP nc_op *op, int bits);
/** Keeps w and a copy of sw[0..channels) for (op, bits). */
void gq_wcache_add(gq_wcache *c, NC_KEEP nc_op *op, int bits, NC_KEEP nc_attr *w, const double *sw, int64_t channels);
/** Frees the entries (not the attributes, which the context owns). */
void gq_wcache_free(gq_wcache *c);

/* --- mixed precision (graph_quantize_trial.c: trials; graph_quantize_mixed.c: the search) --- */

/** The budget of graph-quantize{mixed}: the chosen widths must keep the
 * network's output within it on the calibration samples. */
typedef struct gq_mixed_budget {
  bool has_accuracy, has_sqnr;
  double max_accuracy_drop;          /**< percentage points below the float model's accuracy */
  double min_sqnr;                   /**< dB of the first output against float */
  NC_KEEP const nc_tensor *labels;   /**< one integer class per calibration sample, or NULL */
  const char *labels_path;
} gq_mixed_budget;

/** Runs the function quantized with layer k at width bits[k] on the
 * calibration inputs and gives its first output (owned) in *out; false
 * after an error. */
typedef bool (*gq_trial_fn)(const int *bits, NC_GIVE nc_tensor **out, void *userData);

/** What the search measured about one layer. */
typedef struct gq_mixed_layer {
  int64_t macs;    /**< multiply-accumulates per inference (0: not a conv / gemm / matmul) */
  bool candidate;  /**< its width was searched (not first / last, not overridden, not the model's own) */
  double drop[2];  /**< the metric lost with only this layer at 4 / 2 bits (NaN: not measured) */
} gq_mixed_layer;

/** The outcome of the search, for the table and the quant report. */
typedef struct gq_mixed_result {
  bool accuracy;          /**< the sensitivity metric is accuracy (labels), else output SQNR */
  gq_mixed_budget budget;
  int64_t samples;
  double float_accuracy;  /**< percent (labels only) */
  double base_accuracy, base_sqnr;     /**< all searched layers at 8 bits */
  double chosen_accuracy, chosen_sqnr; /**< at the chosen widths */
  double cycles_base, cycles_chosen;   /**< MAC cycles per inference on one core, summed over layers */
  bool throughput;                     /**< the objective was the pipeline's cycles per frame (a chip is known) */
  double frame_base, frame_chosen;     /**< those cycles per frame, estimated (throughput only) */
  int64_t cores;                       /**< the cores the estimate balanced over (throughput only) */
  int64_t macs_per_cycle[3];           /**< at 8, 4, 2 bits (the chip description's, or 1024 / 2048 / 4096) */
  int trials;
  gq_mixed_layer *layers;              /**< n of them (owned) */
} gq_mixed_result;

/** The pipeline a width assignment would map to (graph_quantize_throughput.c). */
typedef struct gq_pipeline gq_pipeline;

/** The stages of func's future pipeline on the chip of its module's nc.chip
 * (the description target-attach sets), layers[k]'s width read from bits[k]
 * by gq_pipeline_estimate; NULL when the module has no chip description.
 * `multicast`: sends are costed as core-multicast leaves them; `balance`:
 * spare cores go to the slowest stages (else one tile per stage). */
NC_GIVE gq_pipeline *gq_pipeline_create(NC_KEEP nc_op *func, size_t n_layers, nc_op *const *layers, bool multicast,
                                        bool balance);

/** Cycles per frame of the pipeline with layer k at bits[k]: the slowest
 * stage after core-place's balancing (core_pipeline_cost.c) over the chip's
 * cores. */
double gq_pipeline_estimate(gq_pipeline *p, const int *bits);

/** Whether layers[layer]'s stage is one of the slowest (it bounds the
 * pipeline) in the last gq_pipeline_estimate. */
bool gq_pipeline_bounds(NC_KEEP const gq_pipeline *p, size_t layer);

/** The cores gq_pipeline_estimate balances over (the chip's grid). */
int64_t gq_pipeline_cores(NC_KEEP const gq_pipeline *p);

/** Frees p (NULL: nothing). */
void gq_pipeline_destroy(NC_TAKE gq_pipeline *p);

/** Chooses the widths of the n layers on the first `samples` of the
 * `total` calibration inputs (the labels hold `total`) (bits[]: in, the widths of a plain
 * 8-bit quantization with the overrides applied; out, the chosen ones). A
 * layer with candidate[k] goes down to 4 and then 2 bits greedily while the
 * trials stay within the budget: with a `pipeline`, the move that shortens
 * its estimated cycles per frame the most per unit of measured sensitivity
 * first, and only moves that shorten it; without one, the most MAC cycles
 * saved per unit of sensitivity first. False after an error at func. */
bool gq_mixed_choose(NC_KEEP nc_op *func, NC_KEEP const nc_tensor *view, int64_t samples, int64_t total, size_t n,
                     nc_op *const *layers, const bool *candidate, NC_KEEP const gq_mixed_budget *budget,
                     gq_pipeline *pipeline, gq_trial_fn trial, void *userData, int *bits, gq_mixed_result *res);

/** graph-quantize's options mixed precision reads. */
typedef struct gq_mixed_options {
  const char *overrides;
  gq_calib_method method;
  double percentile;
  NC_KEEP const gq_mixed_budget *budget;
  bool multicast; /**< the throughput estimate costs sends as multicasts */
  bool balance;   /**< the throughput estimate balances stages over the chip's spare cores */
} gq_mixed_options;

/** Mixed precision for p's function: calibrates at each width (mse's clip
 * depends on it; sets p->in_max), then chooses lbits[] (in: the 8-bit
 * widths with overrides; out: the chosen ones) by trials that quantize the
 * function in memory, run it on `view` and undo it. is_conv[k]: layer k is
 * a conv / gemm / matmul, as gq_layer_bits takes it. False after an error. */
bool gq_mixed_widths(gq_plan *p, NC_KEEP const gq_mixed_options *o, NC_KEEP const nc_tensor *view, int64_t samples,
                     int64_t total, const bool *is_conv, int *lbits, gq_mixed_result *res);

/** Prints the chosen widths as a table on the pass manager's output stream
 * (nc_pass_printf: stderr in nc-compile and nc-opt; nc.compile's
 * CompileResult.reports in Python). */
void gq_mixed_print(size_t n, nc_op *const *layers, const int *bits, NC_KEEP const gq_mixed_result *res);

/** Writes the search as the JSON value of the report's "mixed" key. */
void gq_mixed_write_json(FILE *f, NC_KEEP const gq_mixed_result *res);

/** Frees what res owns. */
void gq_mixed_result_free(gq_mixed_result *res);

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

/** Writes the report as JSON to `path` and as a table on stderr, with
 * mixed precision's search when `mixed` is not NULL. False after an error
 * at func. */
bool gq_report_write(NC_KEEP nc_op *func, const char *path, int64_t samples, size_t n,
                     NC_KEEP const gq_report_layer *layers, NC_KEEP const gq_mixed_result *mixed);

#endif
