/* layer_check.c: the one place where a target refuses dataflow layers it
 * cannot run (nc_target_check_layers, and the pass target-check-layers that
 * target pipelines run where they reach dataflow: nc_target_add_dataflow_passes).
 *
 * Why here and not in each target: a layer parameter added for one target
 * (a copy layer's `perm` for northpole's transpose) used to need an edit in
 * every other target (xbar, the seq plugin) so that it would not print the
 * layer as if the parameter were absent. Now a target declares, per layer
 * kind it runs, the parameters it reads (nc_target_def.layers); any other
 * kind, or a parameter at a value other than its default that the kind's
 * entry does not list, is an error at the node, naming what is not read.
 */
#include <stdio.h>
#include <string.h>

#include "nc/dialects/dataflow/dataflow.h"
#include "nc/ir/diag.h"
#include "nc/targets/targets.h"

typedef struct check {
  const nc_target_def *t;
  bool ok;
} check;

static const nc_target_layer_def *entry_for(const nc_target_def *t, nc_dataflow_layer_kind kind)
{
  for (size_t i = 0; i < t->n_layers; i++)
    if (t->layers[i].kind == kind)
      return &t->layers[i];
  return NULL;
}

/* `set`'s parameter names, comma-separated, into buf ("none" when empty). */
static void param_list(uint64_t set, char *buf, size_t len)
{
  size_t at = 0;
  buf[0] = 0;
  for (int p = 0; p < NC_DATAFLOW_NUM_PARAMS && at < len; p++)
    if (set >> p & 1)
      at += (size_t)snprintf(buf + at, len - at, "%s%s", at ? ", " : "",
                             nc_dataflow_layer_param_name((nc_dataflow_layer_param)p));
  if (!at)
    snprintf(buf, len, "none");
}

static void check_node(check *c, nc_op *node)
{
  nc_dataflow_layer l;
  if (!nc_dataflow_node_get_layer(node, &l))
    return; /* the verifier says what is wrong with it */
  const char *name = nc_dataflow_node_get_name(node), *kind = nc_dataflow_layer_kind_name(l.kind);
  const nc_target_layer_def *e = entry_for(c->t, l.kind);
  char list[1024];
  if (!e) {
    size_t at = 0;
    for (size_t i = 0; i < c->t->n_layers && at < sizeof list; i++)
      at += (size_t)snprintf(list + at, sizeof list - at, "%s%s", i ? ", " : "",
                             nc_dataflow_layer_kind_name(c->t->layers[i].kind));
    c->ok = nc_op_emit_error(node, "layer '%s' is of kind '%s', which target '%s' does not run (it runs %s)", name, kind,
                             c->t->name, list);
    return;
  }
  uint64_t unread = nc_dataflow_layer_get_params(&l) & ~e->params;
  for (int p = 0; p < NC_DATAFLOW_NUM_PARAMS; p++)
    if (unread >> p & 1) {
      param_list(e->params, list, sizeof list);
      nc_dataflow_layer_param param = (nc_dataflow_layer_param)p;
      c->ok = nc_op_emit_error(node, "layer '%s' (%s) has parameter '%s' (%s), which target '%s' does not read for %s "
                               "layers (it reads %s)", name, kind, nc_dataflow_layer_param_name(param),
                               nc_dataflow_layer_param_summary(param), c->t->name, kind, list);
    }
}

static nc_walk_result visit(nc_op *op, void *user)
{
  if (!nc_dataflow_is_node(op))
    return NC_WALK_ADVANCE;
  check_node(user, op);
  return NC_WALK_SKIP; /* a node's region holds graph ops, its reference semantics */
}

bool nc_target_check_layers(nc_op *op, const nc_target_def *t)
{
  check c = {t, true};
  if (t->n_layers)
    nc_op_walk(op, NC_WALK_PRE_ORDER, visit, &c);
  return c.ok;
}

static bool run(nc_pass *pass, nc_op *module)
{
  const nc_target_def *t = nc_target_of_module(module, true);
  nc_pass_mark_unchanged(pass); /* a check: nothing to verify again */
  return t && nc_target_check_layers(module, t);
}

const nc_pass_def nc_pass_target_check_layers = {
  .argument = "target-check-layers",
  .name = "TargetCheckLayers",
  .group = "Target",
  .summary = "Refuse dataflow layers the module's target does not run, or parameters it does not read",
  .description = "Checks every dataflow node against the layer kinds and, per kind, the layer parameters the "
                 "target attached to the module (nc.target) declares; an error at each node of another kind or "
                 "holding another parameter. Target pipelines run it right after lowering to dataflow "
                 "(nc_target_add_dataflow_passes), and printing a binary runs it.",
  .anchor = "builtin.module",
  .run = run,
};
