/* graph_quantize_trial.c: the trials of mixed precision
 * (graph-quantize{mixed=true}): the function quantized at candidate widths,
 * run in the reference interpreter, and put back as it was.
 *
 * A trial needs the real integer graph (the same rounding, saturation and
 * scales as the final one), so it uses graph_quantize.c's rewrite itself,
 * in the function: the integer ops are built beside the float ones, run,
 * then every op that was not there before is erased and the results are put
 * back. Nothing is cloned, printed or re-read. What would pile up over many
 * trials is kept small: each layer's weights are quantized once per width
 * (gq_wcache) under a blob name the real rewrite never takes, and biases are
 * inline attributes. The search itself is graph_quantize_mixed.c.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "graph_quantize_internal.h"
#include "nc/dialects/graph/interp.h"

gq_wentry *gq_wcache_find(gq_wcache *c, nc_op *op, int bits)
{
  for (size_t i = 0; i < c->n; i++)
    if (c->e[i].op == op && c->e[i].bits == bits)
      return &c->e[i];
  return NULL;
}

void gq_wcache_add(gq_wcache *c, nc_op *op, int bits, nc_attr *w, const double *sw, int64_t channels)
{
  if (c->n == c->cap) {
    c->cap = c->cap ? 2 * c->cap : 16;
    c->e = nc_xrealloc(c->e, c->cap * sizeof *c->e);
  }
  double *copy = nc_xmalloc((size_t)(channels + 1) * sizeof *copy);
  memcpy(copy, sw, (size_t)channels * sizeof *copy);
  c->e[c->n++] = (gq_wentry){op, bits, w, copy};
}

void gq_wcache_free(gq_wcache *c)
{
  for (size_t i = 0; i < c->n; i++)
    free(c->e[i].sw);
  free(c->e);
}

/* Mixed precision's trials: the integer graph is built in the function
 * itself, run in the interpreter, then erased again (every op that was not
 * there before, the results put back), so nothing is copied or re-read. */
typedef struct trial_state {
  const gq_plan *p;
  const nc_tensor *view;
  const double *ranges[3]; /* each layer's range at 8, 4 and 2 bits */
  gq_map orig;             /* the function's ops before any trial */
  gq_wcache cache;
} trial_state;

static bool trial(const int *bits, nc_tensor **out, void *user)
{
  trial_state *t = user;
  const gq_plan *p = t->p;
  size_t n_ret = nc_op_get_num_operands(p->ret);
  nc_value **saved = nc_xcalloc(n_ret + 1, sizeof *saved);
  for (size_t r = 0; r < n_ret; r++)
    saved[r] = nc_op_get_operand(p->ret, r);
  double *max_abs = nc_xcalloc(p->n_layers + 1, sizeof *max_abs);
  for (size_t k = 0; k < p->n_layers; k++)
    max_abs[k] = t->ranges[bits[k] == 8 ? 0 : bits[k] == 4 ? 1 : 2][k];
  rewrite rw;
  gq_rewrite_init(&rw, p);
  rw.cache = &t->cache;
  bool ok = gq_rewrite_graph(p, &rw, bits, max_abs);
  gq_rewrite_free(&rw);
  *out = NULL;
  if (ok) {
    nc_interp *it = nc_interp_create(p->func);
    size_t n_out = 0;
    nc_tensor **res = NULL;
    ok = it && nc_interp_run(it, 1, &t->view, &n_out, &res) && n_out > 0;
    if (ok) {
      *out = res[0];
      res[0] = NULL;
    }
    nc_interp_outputs_destroy(n_out, res);
    nc_interp_destroy(it);
  }
  for (size_t r = 0; r < n_ret; r++) /* undo: users before producers */
    nc_op_set_operand(p->ret, r, saved[r]);
  for (nc_op *op = nc_op_get_prev(p->ret), *prev; op; op = prev) {
    prev = nc_op_get_prev(op);
    if (gq_map_get(&t->orig, op) == SIZE_MAX)
      nc_op_erase(op);
  }
  free(saved);
  free(max_abs);
  return ok;
}

bool gq_mixed_widths(gq_plan *p, const gq_mixed_options *o, const nc_tensor *view, int64_t samples, int64_t total,
                     const bool *is_conv, int *lbits, gq_mixed_result *res)
{
  size_t n = p->n_layers;
  int *b4 = nc_xcalloc(n + 1, sizeof *b4), *qmax = nc_xcalloc(n + 1, sizeof *qmax);
  bool *candidate = nc_xcalloc(n + 1, sizeof *candidate);
  double *ranges[3] = {NULL, NULL, NULL};
  bool ok = gq_layer_bits(p->func, 4, o->overrides, n, p->layers, is_conv, b4);
  for (size_t k = 0; ok && k < n; k++) /* searched: what --precision=4 would narrow, not the model's own widths */
    candidate[k] = is_conv[k] && b4[k] != lbits[k] && !gq_qdq_model_bits(nc_op_get_result(p->layers[k], 0));
  gq_calib_method method = o->method;
  double pct = o->percentile, in_max = 0;
  for (int w = 0; ok && w < 3; w++) {
    ranges[w] = nc_xcalloc(n + 1, sizeof *ranges[w]);
    if (w > 0 && method != GQ_CALIB_MSE) { /* maxabs and percentile do not depend on the width */
      memcpy(ranges[w], ranges[0], n * sizeof *ranges[w]);
      continue;
    }
    for (size_t k = 0; k < n; k++)
      qmax[k] = w == 0 ? 127 : w == 1 ? 7 : 1;
    ok = gq_calibrate_method(p->func, view, n, p->layers, qmax, method, pct, ranges[w], w == 0 ? &p->in_max : &in_max);
  }
  for (size_t k = 0; ok && k < n; k++)
    for (int w = 0; ok && w < 3; w++)
      if (!isfinite(ranges[w][k]))
        ok = nc_op_emit_error(p->layers[k], "graph-quantize: the result of '%s' is not finite on the calibration "
                              "data", nc_ident_str(nc_op_get_name(p->layers[k])));
  trial_state t = {p, view, {ranges[0], ranges[1], ranges[2]}, {0}, {0}};
  gq_map_init(&t.orig, p->n_ops + 1);
  for (size_t k = 0; k < p->n_ops; k++)
    gq_map_put(&t.orig, p->ops[k], k);
  gq_pipeline *pipeline = ok ? gq_pipeline_create(p->func, n, p->layers, o->multicast, o->balance) : NULL;
  ok = ok && gq_mixed_choose(p->func, view, samples, total, n, p->layers, candidate, o->budget, pipeline, trial, &t,
                             lbits, res);
  gq_pipeline_destroy(pipeline);
  gq_map_free(&t.orig);
  gq_wcache_free(&t.cache);
  free(b4);
  free(qmax);
  free(candidate);
  for (int w = 0; w < 3; w++)
    free(ranges[w]);
  return ok;
}
