/* graph_quantize_mixed.c: mixed precision, graph-quantize{mixed=true}
 * (nc-compile --precision=mixed): which layers may run at 4 or 2 bits.
 *
 * Narrow MACs are cheap (the chip description's ops_per_cycle doubles per
 * halving on NorthPole), but layers differ widely in how much a narrow width
 * costs the network, and only measuring tells. So the choice is made by
 * trials: the quantized graph at candidate widths runs in the reference
 * interpreter on the calibration samples (graph_quantize_trial.c quantizes in
 * memory and undoes it), and its output is compared with the float model's:
 * accuracy against labels when there are some, else the SQNR of the output.
 *   1. each searched layer alone at 4, then at 2 bits: its sensitivity (the
 *      metric lost), and whether that alone already breaks the budget;
 *   2. greedy: of the moves left (a layer one width down), take the one
 *      that shortens the pipeline's cycles per frame the most per unit of
 *      sensitivity, keep it if the trial with everything chosen so far stays
 *      within the budget, else freeze that layer; until no move left
 *      shortens the pipeline. When several stages are equally slow, no
 *      single move shortens it: then a layer of one of those stages is
 *      narrowed (most MAC cycles per unit of sensitivity), and the
 *      search ends at the first widths with the fewest cycles per frame,
 *      so such moves are kept only if the ones after them pay off.
 * At most four trials per searched layer. The objective is throughput: on a
 * spatial chip the frame rate is the busiest pipeline stage's, after the
 * cores are shared out, so a narrow layer that does not bound the pipeline
 * buys nothing and only costs accuracy. The cycles per frame are estimated
 * with core-place's own balancing (graph_quantize_throughput.c); without a
 * chip description (graph-quantize alone in nc-opt) the objective falls back
 * to MAC cycles, each layer's MACs at its width's rate on one core (the
 * roofline's sum), and every move that saves some is taken.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "graph_quantize_internal.h"
#include "nc/dialects/core/chip_desc.h"
#include "nc/dialects/graph/interp.h"
#include "nc/ir/pass.h"

enum { W8, W4, W2 };
static const int widths[3] = {8, 4, 2};

static int width_index(int bits) { return bits == 8 ? W8 : bits == 4 ? W4 : W2; }

/* Multiply-accumulates of a conv / gemm / matmul per inference: each output
 * element sums weights / output channels products. 0 for other layers. */
static int64_t layer_macs(nc_op *op)
{
  if ((!gp_is(op, "conv") && !gp_is(op, "gemm") && !gp_is(op, "matmul")) || nc_op_get_num_operands(op) < 2)
    return 0;
  nc_type *wt = nc_value_get_type(nc_op_get_operand(op, 1)), *yt = nc_value_get_type(nc_op_get_result(op, 0));
  if (!nc_type_has_static_shape(wt) || !nc_type_has_static_shape(yt) || !nc_type_get_rank(yt))
    return 0;
  int64_t channels = gp_is(op, "conv") ? nc_type_get_shape(wt)[0] : nc_type_get_shape(yt)[nc_type_get_rank(yt) - 1];
  return channels > 0 ? nc_type_get_num_elements(yt) / channels * nc_type_get_num_elements(wt) : 0;
}

/* The chip's MACs per cycle per core at 8, 4, 2 bits: from the module's
 * mesh description (nc.chip) when there is one, else NorthPole's ratios. */
static void macs_per_cycle(nc_op *func, int64_t out[3])
{
  nc_op *module = nc_op_get_parent_op(func);
  nc_chip_desc d;
  bool desc = module && nc_op_get_attr_str(module, "nc.chip") && nc_chip_desc_of_module(module, false, &d);
  for (int i = 0; i < 3; i++)
    out[i] = desc ? nc_chip_desc_macs_per_cycle(&d, (unsigned)widths[i]) : 8192 / widths[i];
}

/* --- the metric ------------------------------------------------------------------------------------------------ */

typedef struct metric {
  double accuracy; /* percent, with labels */
  double sqnr;     /* dB of the output against float (capped: an exact output is 200 dB) */
} metric;

typedef struct search {
  nc_op *func;
  const gq_mixed_budget *budget;
  int64_t samples, classes, total; /* total: the calibration file's samples (max-samples may use fewer) */
  nc_tensor *ref; /* the float output */
  gq_trial_fn trial;
  void *user;
  int trials;
} search;

static double load(const nc_tensor *t, int64_t k)
{
  return nc_dtype_is_integer(t->dtype) ? (double)nc_elem_load_i64(t->data, t->dtype, k)
                                       : nc_elem_load_f64(t->data, t->dtype, k);
}

static metric measure(const search *s, const nc_tensor *out)
{
  metric m = {0, 200};
  int64_t n = nc_tensor_num_elements(out);
  double signal = 0, noise = 0;
  for (int64_t k = 0; k < n && n == nc_tensor_num_elements(s->ref); k++) {
    double f = load(s->ref, k), q = load(out, k);
    signal += f * f;
    noise += (f - q) * (f - q);
  }
  if (noise > 0)
    m.sqnr = fmin(200, 10 * log10(signal / noise));
  if (s->budget->labels) {
    int64_t hit = 0;
    for (int64_t i = 0; i < s->samples; i++) {
      int64_t best = 0;
      for (int64_t c = 1; c < s->classes; c++) /* the first of equal scores, as numpy's argmax */
        if (load(out, i * s->classes + c) > load(out, i * s->classes + best))
          best = c;
      hit += best == nc_elem_load_i64(s->budget->labels->data, s->budget->labels->dtype, i);
    }
    m.accuracy = 100.0 * (double)hit / (double)s->samples;
  }
  return m;
}

static bool run_trial(search *s, const int *bits, metric *m)
{
  nc_tensor *out = NULL;
  s->trials++;
  if (!s->trial(bits, &out, s->user))
    return false;
  *m = measure(s, out);
  nc_tensor_destroy(out);
  return true;
}

static bool within(const search *s, const metric *m, double float_accuracy)
{
  const gq_mixed_budget *b = s->budget;
  return (!b->has_accuracy || m->accuracy >= float_accuracy - b->max_accuracy_drop - 1e-9) &&
         (!b->has_sqnr || m->sqnr >= b->min_sqnr);
}

/* The metric the sensitivities are in: accuracy points or SQNR dB lost. */
static double lost(const search *s, const metric *base, const metric *m)
{
  return s->budget->labels ? base->accuracy - m->accuracy : base->sqnr - m->sqnr;
}

/* The labels (one integer in [0, classes) per sample) and the float output's shape. */
static bool check_labels(search *s)
{
  int64_t n = nc_tensor_num_elements(s->ref);
  s->classes = s->samples > 0 ? n / s->samples : 0;
  const nc_tensor *y = s->budget->labels;
  if (!y)
    return true;
  if (s->classes < 2 || n % s->samples)
    return nc_op_emit_error(s->func, "graph-quantize: accuracy (labels=) needs one row of class scores per sample; "
                            "the output has %lld elements for %lld samples", (long long)n, (long long)s->samples);
  int64_t count = nc_tensor_num_elements(y);
  if (!nc_dtype_is_integer(y->dtype) || (y->rank != 1 && !(y->rank == 2 && y->shape[1] == 1)))
    return nc_op_emit_error(s->func, "graph-quantize: the labels '%s' must be integer classes of shape [N] (got %s "
                            "of rank %d)", s->budget->labels_path, nc_dtype_name(y->dtype), y->rank);
  if (count != s->total)
    return nc_op_emit_error(s->func, "graph-quantize: the labels '%s' hold %lld classes for %lld calibration "
                            "samples; give one per sample", s->budget->labels_path, (long long)count,
                            (long long)s->total);
  for (int64_t i = 0; i < s->samples; i++) {
    int64_t c = nc_elem_load_i64(y->data, y->dtype, i);
    if (c < 0 || c >= s->classes)
      return nc_op_emit_error(s->func, "graph-quantize: label %lld of sample %lld ('%s') is not a class of the "
                              "output's %lld", (long long)c, (long long)i, s->budget->labels_path,
                              (long long)s->classes);
  }
  return true;
}

/* --- the search ------------------------------------------------------------------------------------------------ */

static double cycles(size_t n, const gq_mixed_result *res, const int *bits)
{
  double c = 0;
  for (size_t k = 0; k < n; k++)
    if (res->layers[k].macs)
      c += (double)res->layers[k].macs / (double)res->macs_per_cycle[width_index(bits[k])];
  return c;
}

/* The drop of layer k alone at width index w (8 bits: none). */
static double drop_at(const gq_mixed_layer *L, int w) { return w == W8 ? 0 : L->drop[w - 1]; }

bool gq_mixed_choose(nc_op *func, const nc_tensor *view, int64_t samples, int64_t total, size_t n,
                     nc_op *const *layers,
                     const bool *candidate, const gq_mixed_budget *budget, gq_pipeline *pipeline, gq_trial_fn trial,
                     void *userData, int *bits, gq_mixed_result *res)
{
  memset(res, 0, sizeof *res);
  res->accuracy = budget->labels != NULL;
  res->budget = *budget;
  res->samples = samples;
  res->layers = nc_xcalloc(n + 1, sizeof *res->layers);
  macs_per_cycle(func, res->macs_per_cycle);
  for (size_t k = 0; k < n; k++) {
    gq_mixed_layer *L = &res->layers[k];
    L->macs = layer_macs(layers[k]);
    L->candidate = candidate[k] && L->macs > 0 && res->macs_per_cycle[W4] > 0;
    L->drop[0] = L->drop[1] = NAN;
  }
  search s = {func, budget, samples, 0, total, NULL, trial, userData, 0};

  /* the float output: the reference of every trial */
  nc_interp *it = nc_interp_create(func);
  size_t n_out = 0;
  nc_tensor **out = NULL;
  bool ok = it && nc_interp_run(it, 1, &view, &n_out, &out) && n_out > 0;
  nc_interp_destroy(it);
  if (ok) {
    s.ref = out[0];
    out[0] = NULL;
  }
  nc_interp_outputs_destroy(n_out, out);
  ok = ok && check_labels(&s);
  metric ref = s.ref ? measure(&s, s.ref) : (metric){0, 200};
  res->float_accuracy = ref.accuracy;

  /* 1. the base (8 bits, overrides applied), then each layer alone one or two widths down */
  int *cur = nc_xcalloc(n + 1, sizeof *cur), *pass = nc_xcalloc(n + 1, sizeof *pass); /* pass: narrowest width
                                                                                      index alone within budget */
  memcpy(cur, bits, n * sizeof *cur);
  metric base = {0}, m;
  ok = ok && run_trial(&s, cur, &base);
  bool base_ok = ok && within(&s, &base, ref.accuracy);
  for (size_t k = 0; ok && base_ok && k < n; k++) {
    gq_mixed_layer *L = &res->layers[k];
    pass[k] = W8;
    for (int w = W4; ok && L->candidate && w <= W2 && pass[k] == w - 1 && res->macs_per_cycle[w] > 0; w++) {
      cur[k] = widths[w];
      ok = run_trial(&s, cur, &m);
      L->drop[w - 1] = lost(&s, &base, &m);
      if (ok && within(&s, &m, ref.accuracy))
        pass[k] = w;
    }
    cur[k] = bits[k];
  }

  /* 2. greedy: the most cycles per frame (or MAC cycles) saved per unit of sensitivity first */
  double eps = 1e-3;
  metric chosen = base, kept = base;
  bool *bounds = nc_xcalloc(n + 1, sizeof *bounds);
  int *kept_bits = nc_xcalloc(n + 1, sizeof *kept_bits); /* the first widths with the fewest cycles per frame */
  memcpy(kept_bits, cur, n * sizeof *cur);
  double kept_frame = pipeline ? gq_pipeline_estimate(pipeline, cur) : 0;
  while (ok && base_ok) {
    size_t best = SIZE_MAX;
    bool best_shortens = false;
    double best_score = -1, best_gain = 0, now = pipeline ? gq_pipeline_estimate(pipeline, cur) : 0;
    for (size_t k = 0; k < n; k++)
      bounds[k] = pipeline && gq_pipeline_bounds(pipeline, k);
    for (size_t k = 0; k < n; k++) {
      int w = width_index(cur[k]);
      if (!res->layers[k].candidate || w >= pass[k])
        continue;
      const gq_mixed_layer *L = &res->layers[k];
      double macs = (double)L->macs;
      double gain = macs / (double)res->macs_per_cycle[w] - macs / (double)res->macs_per_cycle[w + 1];
      double cost = fmax(drop_at(L, w + 1) - drop_at(L, w), eps), score = gain / cost;
      bool shortens = false;
      if (pipeline) { /* the pipeline's cycles per frame this move saves */
        cur[k] = widths[w + 1];
        double frame = now - gq_pipeline_estimate(pipeline, cur);
        cur[k] = widths[w];
        shortens = frame > 1e-9;
        if (!shortens && !bounds[k])
          continue; /* neither the pipeline nor one of its slowest stages gets faster */
        if (best_shortens && !shortens)
          continue; /* a layer of one of several equally slow stages: only when nothing shortens the pipeline */
        if (shortens && !best_shortens)
          best_score = -1, best_gain = 0;
        if (shortens)
          score = frame / cost;
      }
      if (score > best_score || (score == best_score && gain > best_gain))
        best = k, best_score = score, best_gain = gain, best_shortens = shortens;
    }
    if (best == SIZE_MAX)
      break;
    int was = cur[best];
    cur[best] = widths[width_index(was) + 1];
    ok = run_trial(&s, cur, &m);
    if (ok && !within(&s, &m, ref.accuracy)) {
      cur[best] = was;
      pass[best] = width_index(was); /* frozen */
    } else if (ok) {
      chosen = m;
      double frame = pipeline ? gq_pipeline_estimate(pipeline, cur) : 0;
      if (pipeline && frame < kept_frame - 1e-9)
        kept_frame = frame, kept = m, memcpy(kept_bits, cur, n * sizeof *cur);
    }
  }
  if (pipeline) /* narrowing a stage among equally slow ones that never paid off is undone */
    memcpy(cur, kept_bits, n * sizeof *cur), chosen = kept;
  free(bounds);
  free(kept_bits);

  if (ok) {
    res->base_accuracy = base.accuracy, res->base_sqnr = base.sqnr;
    res->chosen_accuracy = chosen.accuracy, res->chosen_sqnr = chosen.sqnr;
    res->cycles_base = cycles(n, res, bits);
    res->cycles_chosen = cycles(n, res, cur);
    res->throughput = pipeline != NULL;
    if (pipeline) {
      res->frame_base = gq_pipeline_estimate(pipeline, bits);
      res->frame_chosen = gq_pipeline_estimate(pipeline, cur);
      res->cores = gq_pipeline_cores(pipeline);
    }
    res->trials = s.trials;
    memcpy(bits, cur, n * sizeof *cur);
    if (!base_ok)
      nc_op_emit_warning(func, "graph-quantize: mixed precision kept every layer at 8 bits: the 8-bit graph itself "
                         "misses the budget (%s)", res->accuracy ? "max-accuracy-drop" : "min-sqnr");
  }
  nc_tensor_destroy(s.ref);
  free(cur);
  free(pass);
  return ok;
}

/* --- output ---------------------------------------------------------------------------------------------------- */

static void budget_text(const gq_mixed_result *r, char *buf, size_t len)
{
  int used = 0;
  if (r->budget.has_accuracy)
    used = snprintf(buf, len, "accuracy at most %g points below float (%.2f%%)", r->budget.max_accuracy_drop,
                    r->float_accuracy);
  if (r->budget.has_sqnr)
    snprintf(buf + used, len - (size_t)used, "%soutput SQNR at least %g dB", used ? ", " : "", r->budget.min_sqnr);
}

void gq_mixed_print(size_t n, nc_op *const *layers, const int *bits, const gq_mixed_result *r)
{
  char budget[256];
  budget_text(r, budget, sizeof budget);
  nc_pass_printf("mixed precision (%lld calibration samples; budget: %s; %d trials):\n", (long long)r->samples,
          budget, r->trials);
  nc_pass_printf("  %-32s %4s %12s %10s %10s\n", "layer", "bits", "MACs", r->accuracy ? "drop@4 pt" : "drop@4 dB",
          r->accuracy ? "drop@2 pt" : "drop@2 dB");
  for (size_t k = 0; k < n; k++) {
    const gq_mixed_layer *L = &r->layers[k];
    char name[256], fallback[64], d4[32] = "-", d2[32] = "-";
    snprintf(fallback, sizeof fallback, "#%zu %s", k, nc_ident_str(nc_op_get_name(layers[k]))); /* no location name */
    gp_name_hint(nc_op_get_result(layers[k], 0), "", fallback, name, sizeof name);
    if (!isnan(L->drop[0]))
      snprintf(d4, sizeof d4, "%.2f", L->drop[0]);
    if (!isnan(L->drop[1]))
      snprintf(d2, sizeof d2, "%.2f", L->drop[1]);
    nc_pass_printf("  %-32s %4d %12lld %10s %10s%s\n", name, bits[k], (long long)L->macs, d4, d2,
            L->candidate ? "" : "  (fixed)");
  }
  if (r->accuracy)
    nc_pass_printf("  accuracy: float %.2f%%, all 8-bit %.2f%%, chosen %.2f%%\n", r->float_accuracy,
            r->base_accuracy, r->chosen_accuracy);
  nc_pass_printf("  output SQNR: all 8-bit %.2f dB, chosen %.2f dB\n", r->base_sqnr, r->chosen_sqnr);
  nc_pass_printf("  MAC cycles per inference on one core: %.0f at 8 bits, %.0f chosen (%.2fx)\n", r->cycles_base,
          r->cycles_chosen, r->cycles_chosen > 0 ? r->cycles_base / r->cycles_chosen : 1.0);
  char over[64] = "one tile per stage";
  if (r->cores > 0)
    snprintf(over, sizeof over, "balanced over %lld cores", (long long)r->cores);
  if (r->throughput)
    nc_pass_printf("  pipeline cycles per frame (estimated, %s): %.1f at 8 bits, %.1f chosen (%.2fx)\n", over,
            r->frame_base, r->frame_chosen, r->frame_chosen > 0 ? r->frame_base / r->frame_chosen : 1.0);
  else
    nc_pass_printf("  objective: MAC cycles (no chip description, nc.chip, to estimate the pipeline with)\n");
}

void gq_mixed_write_json(FILE *f, const gq_mixed_result *r)
{
  fprintf(f, "{\"metric\": \"%s\", ", r->accuracy ? "accuracy" : "sqnr");
  if (r->budget.has_accuracy)
    fprintf(f, "\"max_accuracy_drop\": %g, \"float_accuracy\": %.4f, \"base_accuracy\": %.4f, "
               "\"chosen_accuracy\": %.4f, ", r->budget.max_accuracy_drop, r->float_accuracy, r->base_accuracy,
            r->chosen_accuracy);
  if (r->budget.has_sqnr)
    fprintf(f, "\"min_sqnr\": %g, ", r->budget.min_sqnr);
  fprintf(f, "\"base_sqnr\": %.4f, \"chosen_sqnr\": %.4f, \"cycles_base\": %.0f, \"cycles_chosen\": %.0f, ",
          r->base_sqnr, r->chosen_sqnr, r->cycles_base, r->cycles_chosen);
  if (r->throughput)
    fprintf(f, "\"objective\": \"throughput\", \"frame_cycles_base\": %.4f, \"frame_cycles_chosen\": %.4f, "
               "\"cores\": %lld, ", r->frame_base, r->frame_chosen, (long long)r->cores);
  else
    fprintf(f, "\"objective\": \"mac-cycles\", ");
  fprintf(f, "\"trials\": %d}", r->trials);
}

void gq_mixed_result_free(gq_mixed_result *res)
{
  free(res->layers);
  res->layers = NULL;
}
