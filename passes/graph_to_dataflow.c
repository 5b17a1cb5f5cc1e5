/* graph_to_dataflow.c: graph-to-dataflow, which groups a graph function's
 * ops into dataflow.node layers (docs/design/spine.md, section 2).
 *
 * Walking the function in order, each op that starts a layer takes along
 * the chain of elementwise ops that follow it, as long as each intermediate
 * value has that single use and the follower's other operands are constants:
 *   conv / conv_integer / qlinear_conv   + requantize, bias add, activation
 *   matmul / gemm / matmul_integer / qlinear_matmul + the same
 *   max_pool / avg_pool / global pools, add and other elementwise ops,
 *   concat                               + the same
 *   flatten / reshape, lut_integer       alone
 *   resize / pad / channel_shuffle       alone
 * The group (with the constants it uses, moved in or cloned when shared)
 * becomes one node whose isl attributes nc_dataflow_describe_layer computes
 * with deps.h's builders at the chosen granularity (an iteration per output
 * row, or per pixel), and whose layer kind and parameters (layer.h)
 * nc_dataflow_record_layer reads from the group: what the levels below read
 * instead of the graph ops. graph.quantize_linear / dequantize_linear stay
 * outside the nodes: they convert the function's inputs and outputs on the
 * host (recorded on the function as `dataflow.io`), so one between two
 * layers is an error. So do their constants and func.return. Any other op,
 * or a group the layer cannot express exactly, is an error at the op.
 *
 * The isl work (describing the groups) is most of the pass's time: it runs
 * on the context's threads, once per distinct main op (repeated blocks of a
 * network share a description), before any group is wrapped.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <isl/options.h>

#include "nc/dialects/dataflow/dataflow.h"
#include "nc/ir/diag.h"
#include "nc/ir/pass.h"
#include "nc/ir/threading.h"
#include "nc/passes/dataflow_layers.h"

static const char *const granularities[] = {"row", "pixel", NULL};

static const nc_pass_option_def options[] = {
  {"granularity", NC_PASS_OPT_ENUM, "row", "Work per node iteration: one output row, or one output pixel",
   granularities},
};

static const nc_pass_stat_def stats[] = {
  {"num-nodes", "Number of dataflow nodes created"},
  {"num-ops-grouped", "Number of graph ops moved into nodes (constants included)"},
  {"num-described", "Number of layer descriptions computed with isl (groups whose main ops match share one)"},
};

static bool is_quant(nc_op *op)
{
  return nc_op_is(op, "graph.quantize_linear") || nc_op_is(op, "graph.dequantize_linear");
}

/* Elementwise ops that may follow a layer's main op inside its node. */
static bool is_follower_kind(nc_op *op)
{
  static const char *const names[] = {"graph.requantize", "graph.add", "graph.sub", "graph.mul", "graph.div",
                                      "graph.prelu", "graph.max", "graph.min"};
  for (size_t i = 0; i < NC_COUNTOF(names); i++)
    if (nc_op_is(op, names[i]))
      return true;
  return nc_op_has_trait(op, NC_TRAIT_ELEMENTWISE) && !is_quant(op) && !nc_op_is(op, "graph.lut_integer") &&
         !strncmp(nc_ident_str(nc_op_get_name(op)), "graph.", 6); /* a table is a layer of its own */
}

static bool takes_followers(nc_op *head)
{
  return !nc_op_is(head, "graph.flatten") && !nc_op_is(head, "graph.reshape") && !nc_op_is(head, "graph.resize") &&
         !nc_op_is(head, "graph.pad") && !nc_op_is(head, "graph.channel_shuffle");
}

/* The op that continues the group after `cur`, or NULL. */
static nc_op *next_follower(nc_op *cur)
{
  if (nc_op_get_num_results(cur) != 1)
    return NULL;
  nc_value *v = nc_op_get_result(cur, 0);
  if (!nc_value_has_one_use(v))
    return NULL;
  nc_op *u = nc_use_get_owner(nc_value_get_first_use(v));
  if (nc_op_get_block(u) != nc_op_get_block(cur) || !is_follower_kind(u) || nc_op_get_num_results(u) != 1)
    return NULL;
  for (size_t i = 0, n = nc_op_get_num_operands(u); i < n; i++) {
    nc_value *x = nc_op_get_operand(u, i);
    nc_op *def = nc_value_get_defining_op(x);
    if (x != v && !(def && nc_op_is_constant(def)))
      return NULL;
  }
  nc_type *a = nc_value_get_type(v), *b = nc_value_get_type(nc_op_get_result(u, 0));
  if (nc_type_get_kind(a) != NC_TYPE_TENSOR || nc_type_get_kind(b) != NC_TYPE_TENSOR ||
      nc_type_get_rank(a) != nc_type_get_rank(b) ||
      memcmp(nc_type_get_shape(a), nc_type_get_shape(b), nc_type_get_rank(a) * sizeof(int64_t)))
    return NULL;
  return u;
}

/* q/dq ops run on the host: one fed by a node and feeding a layer would cut
 * the pipeline in two. */
static bool check_quant(nc_op *op)
{
  nc_op *def = nc_op_get_num_operands(op) ? nc_value_get_defining_op(nc_op_get_operand(op, 0)) : NULL;
  if (!nc_dataflow_is_node(def))
    return true;
  for (nc_use *u = nc_value_get_first_use(nc_op_get_result(op, 0)); u; u = nc_use_get_next(u)) {
    nc_op *user = nc_use_get_owner(u);
    if (!nc_op_is(user, "func.return") && !is_quant(user))
      return nc_op_emit_error(op, "is between two layers; graph-to-dataflow keeps quantize_linear and "
                                  "dequantize_linear outside the nodes, for the function's inputs and outputs only");
  }
  return true;
}

enum { MAX_KINDS = 16 };

typedef struct counter {
  const char *kind;
  int n;
} counter;

static void make_name(counter *c, size_t *nc, const char *kind, char *buf, size_t size)
{
  size_t i = 0;
  while (i < *nc && strcmp(c[i].kind, kind))
    i++;
  if (i == *nc && *nc == MAX_KINDS)
    i = 0; /* unreachable: there are fewer kinds (see nc_dataflow_layer_desc) */
  else if (i == *nc)
    c[(*nc)++] = (counter){kind, 0};
  snprintf(buf, size, "%s%d", kind, ++c[i].n);
}

/* One step of the walk: a q/dq op to check, or a group of ops (group[first
 * .. first + n)) to describe and wrap into a node. */
typedef struct step {
  nc_op *quant; /* a q/dq op, or NULL for a group */
  size_t first, n;
  nc_value **inputs; /* the group's inputs before any node is wrapped */
  size_t n_in;
  uintptr_t *key; /* what the description depends on (describe_key) */
  size_t key_len;
  uint64_t hash;
  size_t same_as; /* the first step with an equal key (it holds the description), or the step itself */
  nc_dataflow_layer_desc desc;
  char err[1024];
  bool described;
} step;

/* Everything nc_dataflow_describe_layer reads, as words: the main op's
 * name, its attributes (uniqued, so equal pointers are equal values; none
 * for the elementwise ops, nc_dataflow_describe_reads_attrs), its operands'
 * types and which input each one is (or none: a constant), its results'
 * types, the group's output type and the inputs' types. Groups with equal
 * keys get equal descriptions (ResNet-50's repeated blocks), so each key is
 * described once. */
static void describe_key(step *st, nc_op *op, nc_value *output)
{
  size_t np = nc_op_get_num_operands(op), nr = nc_op_get_num_results(op);
  size_t len = 0;
  uintptr_t *k = nc_xmalloc((6 + 2 * np + nr + st->n_in) * sizeof *k);
  k[len++] = (uintptr_t)nc_op_get_name(op);
  bool attrs = nc_dataflow_describe_reads_attrs(op);
  k[len++] = attrs ? (uintptr_t)nc_op_get_props(op) : 0;
  k[len++] = attrs ? (uintptr_t)nc_op_get_attr_dict(op) : 0;
  k[len++] = np;
  for (size_t p = 0; p < np; p++) {
    nc_value *v = nc_op_get_operand(op, p);
    size_t slot = SIZE_MAX;
    for (size_t i = 0; i < st->n_in && slot == SIZE_MAX; i++)
      if (st->inputs[i] == v)
        slot = i;
    k[len++] = (uintptr_t)nc_value_get_type(v);
    k[len++] = slot;
  }
  k[len++] = nr;
  for (size_t r = 0; r < nr; r++)
    k[len++] = (uintptr_t)nc_value_get_type(nc_op_get_result(op, r));
  k[len++] = (uintptr_t)nc_value_get_type(output);
  for (size_t i = 0; i < st->n_in; i++)
    k[len++] = (uintptr_t)nc_value_get_type(st->inputs[i]);
  uint64_t h = 1469598103934665603ull; /* FNV-1a over the words */
  for (size_t i = 0; i < len; i++)
    h = (h ^ (uint64_t)k[i]) * 1099511628211ull;
  st->key = k;
  st->key_len = len;
  st->hash = h;
}

typedef struct describe_job {
  step *steps;
  nc_op **group;
  size_t n_steps, per_chunk;
  nc_deps_granularity g;
} describe_job;

/* Chunk k of the steps' descriptions (those with no earlier equal key), in
 * an isl context of its own (isl's are not thread-safe). Reads the IR only;
 * nothing is wrapped yet. */
static bool describe_chunk(size_t k, void *user)
{
  describe_job *j = user;
  isl_ctx *ctx = NULL;
  for (size_t i = k * j->per_chunk; i < j->n_steps && i < (k + 1) * j->per_chunk; i++) {
    step *st = &j->steps[i];
    if (st->quant || st->same_as != i)
      continue;
    if (!ctx) {
      ctx = isl_ctx_alloc();
      isl_options_set_on_error(ctx, ISL_ON_ERROR_CONTINUE); /* isl failures are diagnostics, never aborts */
    }
    nc_op **group = j->group + st->first;
    st->described = nc_dataflow_describe_layer(group[0], st->n_in, st->inputs, nc_op_get_result(group[st->n - 1], 0),
                                               j->g, ctx, &st->desc, st->err, sizeof st->err);
  }
  if (ctx)
    isl_ctx_free(ctx);
  return true;
}

/* Three phases: the walk forms the groups (wrapping a group changes no
 * later group: its constants stay for other users, its result is replaced
 * by the node's) and finds the first group with the same key, the distinct
 * groups are described on the context's threads in chunks
 * (nc_parallel_for), then, in block order, each step is checked or
 * wrapped, stopping at the first error as a serial walk does: the same IR
 * and diagnostics with any number of threads. */
static bool run(nc_pass *pass, nc_op *func)
{
  nc_block *body = nc_op_get_num_regions(func) ? nc_region_get_first_block(nc_op_get_region(func, 0)) : NULL;
  if (!body)
    return true;
  nc_deps_granularity g =
    strcmp(nc_pass_get_option_string(pass, "granularity"), "pixel") ? NC_DEPS_PER_ROW : NC_DEPS_PER_PIXEL;
  size_t n = 0;
  for (nc_op *op = nc_block_get_first_op(body); op; op = nc_op_get_next(op))
    n++;
  nc_op **ops = nc_xmalloc((n + 1) * sizeof *ops), **group = nc_xmalloc((n + 1) * sizeof *group);
  step *steps = nc_xcalloc(n + 1, sizeof *steps);
  n = 0;
  for (nc_op *op = nc_block_get_first_op(body); op; op = nc_op_get_next(op))
    ops[n++] = op;
  size_t n_steps = 0, ng = 0;
  for (size_t i = 0; i < n; i++) {
    nc_op *op = ops[i];
    if (!op || nc_op_is_constant(op) || nc_op_has_trait(op, NC_TRAIT_TERMINATOR) || nc_dataflow_is_node(op))
      continue;
    step *st = &steps[n_steps++];
    if (is_quant(op)) {
      st->quant = op;
      continue;
    }
    st->first = ng;
    group[ng++] = op;
    for (nc_op *f = takes_followers(op) ? next_follower(op) : NULL; f; f = next_follower(f)) {
      group[ng++] = f;
      for (size_t j = i + 1; j < n; j++) /* followers come later in the block */
        if (ops[j] == f) {
          ops[j] = NULL;
          break;
        }
    }
    st->n = ng - st->first;
    st->n_in = nc_dataflow_group_inputs(group + st->first, st->n, &st->inputs);
    describe_key(st, op, nc_op_get_result(group[ng - 1], 0));
    st->same_as = n_steps - 1;
    for (size_t k = 0; k + 1 < n_steps; k++)
      if (!steps[k].quant && steps[k].hash == st->hash && steps[k].key_len == st->key_len &&
          !memcmp(steps[k].key, st->key, st->key_len * sizeof *st->key)) {
        st->same_as = steps[k].same_as;
        break;
      }
    nc_pass_stat_add(pass, 2, st->same_as == n_steps - 1);
  }
  nc_context *c = nc_op_get_context(func);
  size_t threads = nc_context_get_num_threads(c), chunks = threads > 1 ? 4 * threads : 1;
  chunks = chunks > n_steps ? n_steps : chunks;
  describe_job job = {steps, group, n_steps, chunks ? (n_steps + chunks - 1) / chunks : 0, g};
  nc_parallel_for(c, chunks, describe_chunk, &job);
  counter counters[MAX_KINDS];
  size_t n_counters = 0;
  bool ok = true;
  for (size_t i = 0; i < n_steps && ok; i++) {
    step *st = &steps[i];
    if (st->quant) {
      ok = check_quant(st->quant);
      continue;
    }
    nc_op *op = group[st->first];
    const step *first = &steps[st->same_as]; /* the one described */
    char name[64];
    if (!first->described) {
      ok = nc_op_emit_error(op, "cannot become a dataflow node: %s", first->err);
    } else {
      make_name(counters, &n_counters, first->desc.name_hint, name, sizeof name);
      nc_op *node = nc_dataflow_node_wrap(group + st->first, st->n, name, &first->desc);
      ok = nc_dataflow_record_layer(node);
      nc_pass_stat_add(pass, 0, 1);
      size_t moved = 0;
      for (nc_op *o = nc_block_get_first_op(nc_dataflow_node_get_body(node)); o; o = nc_op_get_next(o))
        moved += !nc_op_is(o, "dataflow.yield");
      nc_pass_stat_add(pass, 1, moved);
    }
  }
  for (size_t i = 0; i < n_steps; i++) {
    if (steps[i].described)
      nc_dataflow_layer_desc_clear(&steps[i].desc);
    free(steps[i].inputs);
    free(steps[i].key);
  }
  free(steps);
  free(ops);
  free(group);
  return ok && nc_dataflow_record_io(func);
}

const nc_pass_def nc_graph_to_dataflow_pass = {
  .argument = "graph-to-dataflow",
  .name = "GraphToDataflow",
  .group = "Dataflow",
  .summary = "Group graph ops into dataflow.node layers with isl domains and access relations",
  .description =
    "Each conv (conv, conv_integer, qlinear_conv), matrix product (matmul, gemm, matmul_integer, qlinear_matmul), "
    "pool (max_pool, avg_pool, global pools), elementwise op (add, ...) and concat becomes a dataflow.node together with "
    "the chain of elementwise ops after it (requantize, bias add, activation) whose intermediate values have no "
    "other use and whose other operands are constants; flatten and reshape are nodes of their own. A node's "
    "region holds the ops and the constants they use; its attributes give the layer's iteration domain (one "
    "iteration per output row, or per pixel with granularity=pixel) and its read and write relations, computed "
    "with isl, and its layer kind and parameters (`kind`, `params`: what the levels below read instead of the graph "
    "ops). quantize_linear and dequantize_linear stay outside the nodes (the host converts the function's inputs "
    "and outputs; their scales and zero points are recorded on the function as `dataflow.io`); any other op, or a "
    "group the layer cannot express exactly (an activation other than relu, a second bias, ...), is an error.",
  .anchor = "func.func",
  .options = options, .n_options = NC_COUNTOF(options),
  .stats = stats, .n_stats = NC_COUNTOF(stats),
  .dependent_dialects = (const char *const[]){"dataflow", NULL},
  .run = run,
};
