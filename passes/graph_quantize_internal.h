/* graph_quantize_internal.h: what the files of graph-quantize share
 * (graph_quantize.c rewrites, graph_quantize_calibrate.c measures).
 */
#ifndef NC_PASSES_GRAPH_QUANTIZE_INTERNAL_H
#define NC_PASSES_GRAPH_QUANTIZE_INTERNAL_H

#include "graph_util.h"
#include "nc/ir/diag.h"

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

/** QDQ graphs (graph_quantize_qdq.c). For op a graph.quantize_linear or
 * graph.dequantize_linear: 1 if it is half of an activation's
 * QuantizeLinear -> DequantizeLinear pair nc takes as it is (int8, zero
 * point 0, one constant scale, written to *scale), -1 after an error at the
 * offending node, 0 for any other op. */
int gq_qdq_check(NC_KEEP nc_op *op, float *scale);
/** True if a user of v is such a QuantizeLinear: the model's own scale for
 * v, written to *scale. */
bool gq_qdq_model_scale(NC_KEEP nc_value *v, float *scale);
#endif
