/* graph_quantize_report.c: how much each quantized layer loses
 * (graph-quantize{report=FILE}, nc-compile --quant-report=FILE).
 *
 * Right after the rewrite the function still holds the float ops beside the
 * integer ones, so one batched interpreter run on the calibration inputs
 * sees both results of every layer: the SQNR of the dequantized integer
 * result against the float one (10 log10 of signal over error energy, over
 * all samples) says where the bits went. Errors compound: a layer's SQNR
 * includes what the layers before it lost, which is what the output sees.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "graph_quantize_internal.h"
#include "nc/dialects/graph/interp.h"

typedef struct entry {
  double *first;   /* whichever result arrived first, as doubles (dequantized) */
  int64_t n;
  bool first_is_q; /* first holds the quantized result */
  double signal, noise;
  bool done;
} entry;

/* Element k of t as a double, integer or float. */
static double load(const nc_tensor *t, int64_t k)
{
  return nc_dtype_is_integer(t->dtype) ? (double)nc_elem_load_i64(t->data, t->dtype, k)
                                       : nc_elem_load_f64(t->data, t->dtype, k);
}

typedef struct watcher {
  gq_map float_ops, quant_ops; /* op -> layer index */
  const gq_report_layer *layers;
  entry *e;
} watcher;

static void watch(nc_op *op, size_t n_results, const nc_tensor *const *results, void *user)
{
  watcher *w = user;
  size_t fi = gq_map_get(&w->float_ops, op), qi = gq_map_get(&w->quant_ops, op);
  if (n_results == 0 || (fi == SIZE_MAX && qi == SIZE_MAX))
    return;
  bool is_q = qi != SIZE_MAX;
  size_t i = is_q ? qi : fi;
  entry *e = &w->e[i];
  const nc_tensor *t = results[0];
  int64_t n = nc_tensor_num_elements(t);
  double s = is_q ? w->layers[i].scale : 1.0;
  if (!e->first) {
    e->first = nc_xcalloc((size_t)n + 1, sizeof *e->first);
    for (int64_t k = 0; k < n; k++)
      e->first[k] = load(t, k) * s;
    e->n = n;
    e->first_is_q = is_q;
    return;
  }
  if (e->done || e->first_is_q == is_q || e->n != n)
    return;
  for (int64_t k = 0; k < n; k++) {
    double v = load(t, k) * s;
    double f = is_q ? e->first[k] : v, q = is_q ? v : e->first[k];
    e->signal += f * f;
    e->noise += (f - q) * (f - q);
  }
  e->done = true;
  free(e->first);
  e->first = NULL;
}

bool gq_report_measure(nc_op *func, const nc_tensor *view, size_t n, gq_report_layer *layers)
{
  nc_interp *it = nc_interp_create(func);
  if (!it)
    return false;
  watcher w = {.layers = layers, .e = nc_xcalloc(n + 1, sizeof(entry))};
  gq_map_init(&w.float_ops, n);
  gq_map_init(&w.quant_ops, n);
  for (size_t i = 0; i < n; i++) {
    gq_map_put(&w.float_ops, layers[i].float_op, i);
    if (layers[i].quant_op)
      gq_map_put(&w.quant_ops, layers[i].quant_op, i);
  }
  nc_interp_set_observer(it, watch, &w);
  size_t n_out = 0;
  nc_tensor **out = NULL;
  bool ok = nc_interp_run(it, 1, &view, &n_out, &out);
  if (!ok)
    nc_op_emit_error(func, "graph-quantize: the quantized graph failed on the calibration data (quant report)");
  for (size_t i = 0; i < n; i++) {
    entry *e = &w.e[i];
    layers[i].sqnr = !e->done ? NAN : e->noise == 0 ? INFINITY : 10 * log10(e->signal / e->noise);
    free(e->first);
  }
  nc_interp_outputs_destroy(n_out, out);
  nc_interp_destroy(it);
  gq_map_free(&w.float_ops);
  gq_map_free(&w.quant_ops);
  free(w.e);
  return ok;
}

static void json_number(FILE *f, double v)
{
  if (isfinite(v))
    fprintf(f, "%.4f", v);
  else
    fprintf(f, "null"); /* JSON has no infinity: an exact layer (no error) or one not measured */
}

bool gq_report_write(nc_op *func, const char *path, int64_t samples, size_t n, const gq_report_layer *layers,
                     const gq_mixed_result *mixed)
{
  FILE *f = fopen(path, "w");
  if (!f)
    return nc_op_emit_error(func, "graph-quantize: cannot write the quant report '%s': %s", path, strerror(errno));
  fprintf(f, "{\n  \"samples\": %lld,\n  \"layers\": [", (long long)samples);
  fprintf(stderr, "quant report (%lld calibration samples; SQNR of each layer's output against float):\n"
                  "  %-32s %4s %12s %10s\n", (long long)samples, "layer", "bits", "scale", "SQNR dB");
  for (size_t i = 0; i < n; i++) {
    const gq_report_layer *L = &layers[i];
    fprintf(f, "%s\n    {\"layer\": \"", i ? "," : "");
    for (const char *c = L->name; *c; c++) /* names are ONNX node names: escape what JSON needs */
      if (*c == '"' || *c == '\\')
        fprintf(f, "\\%c", *c);
      else if ((unsigned char)*c < 0x20)
        fprintf(f, "\\u%04x", (unsigned char)*c);
      else
        fputc(*c, f);
    fprintf(f, "\", \"op\": \"%s\", \"bits\": %d, \"scale\": ", L->op, L->bits);
    if (isfinite(L->scale))
      fprintf(f, "%.9g", (double)L->scale);
    else
      fprintf(f, "null");
    fprintf(f, ", \"sqnr_db\": ");
    json_number(f, L->sqnr);
    if (mixed && mixed->layers[i].macs) {
      fprintf(f, ", \"macs\": %lld, \"searched\": %s, \"drop_4\": ", (long long)mixed->layers[i].macs,
              mixed->layers[i].candidate ? "true" : "false");
      json_number(f, mixed->layers[i].drop[0]);
      fprintf(f, ", \"drop_2\": ");
      json_number(f, mixed->layers[i].drop[1]);
    }
    fprintf(f, "}");
    char db[32];
    if (isnan(L->sqnr))
      snprintf(db, sizeof db, "-");
    else
      snprintf(db, sizeof db, "%.2f", L->sqnr);
    fprintf(stderr, "  %-32s %4d %12.6g %10s\n", L->name, L->bits, L->scale, db);
  }
  fprintf(f, "\n  ]");
  if (mixed) {
    fprintf(f, ",\n  \"mixed\": ");
    gq_mixed_write_json(f, mixed);
  }
  fprintf(f, "\n}\n");
  bool ok = !ferror(f);
  ok = !fclose(f) && ok;
  return ok || nc_op_emit_error(func, "graph-quantize: writing the quant report '%s' failed", path);
}
