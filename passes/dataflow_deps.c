/* dataflow_deps.c: dataflow-deps, the element-granularity dependence
 * analysis of every channel of a dataflow function (docs/design/spine.md,
 * section 2; the isl formulation is docs/dataflow-dependences.md).
 *
 * For each node (the consumer, statement S) and each of its operands, the
 * producer is the node defining the operand, or, for a function argument or
 * a value a host op computes (quantize_linear of an argument), an input
 * source writing the tensor in row-major order (rows or pixels, option
 * input-granularity; one source per value, however many nodes read it). The
 * producer's statement is renamed P and its output Out the consumer's In<i>,
 * then deps.h's nc_deps_compute_relations gives
 *   earliest[i] = { S[..] -> P[..] }  the producer iteration each consumer
 *                                     iteration waits for (monotone lexmax)
 *   control[i]  = { P[..] -> S[..] }  the last consumer iteration allowed
 *                                     once the producer's iteration is done
 * and nc_deps_pipeline_buffers, on the whole pipeline's eager schedule,
 *   buffer_elements[i]                the channel's minimum buffer
 * which equals the single channel's buffer when the consumer has one input,
 * and is larger on the other inputs of a join (a residual add waits for its
 * slowest input). All are set on the consumer. isl errors (a channel that
 * carries nothing, unbounded sets, enumeration limits) become diagnostics at
 * the node.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <isl/options.h>

#include "nc/dialects/dataflow/dataflow.h"
#include "nc/ir/diag.h"
#include "nc/ir/pass.h"

static const char *const granularities[] = {"row", "pixel", NULL};

static const nc_pass_option_def options[] = {
  {"input-granularity", NC_PASS_OPT_ENUM, "row",
   "How input sources (function arguments, host values) arrive: a row or a pixel at a time", granularities},
};

static const nc_pass_stat_def stats[] = {
  {"num-channels", "Number of channels analysed"},
  {"buffer-elements", "Sum of the channels' minimum buffers, in elements"},
};

/* An input source writing `t` (named `tensor`) in row-major order. */
static bool input_source(isl_ctx *ctx, nc_type *t, const char *tensor, nc_deps_granularity g, isl_set **dom,
                         isl_union_map **writes, nc_deps_error *err)
{
  int64_t d[NC_MAX_RANK];
  int n = nc_dataflow_tensor_coords(t, d);
  if (n < 0) {
    snprintf(err->message, sizeof err->message, "the input's type must be a statically shaped tensor");
    return false;
  }
  if (n == 3 && nc_type_get_rank(t) == 4) {
    nc_deps_layer *l = NULL;
    if (!nc_deps_layer_input(ctx, "P", tensor, (nc_deps_shape){d[0], d[1], d[2]}, g, &l, err))
      return false;
    *dom = nc_deps_layer_get_domain(l);
    *writes = nc_deps_layer_get_writes(l);
    nc_deps_layer_destroy(l);
    return *dom && *writes;
  }
  /* other tensors: one element per iteration (pixel), or all at once (row) */
  char *dt, *wt;
  size_t dl, wl;
  FILE *fd = open_memstream(&dt, &dl), *fw = open_memstream(&wt, &wl);
  if (!fd || !fw)
    abort();
  bool each = g == NC_DEPS_PER_PIXEL;
  fputs("{ P[", fd);
  fputs("{ P[", fw);
  for (int i = 0; each && i < n; i++) {
    fprintf(fd, "%si%d", i ? ", " : "", i);
    fprintf(fw, "%si%d", i ? ", " : "", i);
  }
  fprintf(fw, "] -> %s[", tensor);
  for (int i = 0; i < n; i++)
    fprintf(fw, "%si%d", i ? ", " : "", i);
  fputc(']', fd);
  fputc(']', fw);
  for (int i = 0; i < n; i++) {
    if (each)
      fprintf(fd, "%s0 <= i%d < %lld", i ? " and " : " : ", i, (long long)d[i]);
    fprintf(fw, "%s0 <= i%d < %lld", i ? " and " : " : ", i, (long long)d[i]);
  }
  fputs(" }", fd);
  fputs(" }", fw);
  fclose(fd);
  fclose(fw);
  *dom = isl_set_read_from_str(ctx, dt);
  *writes = isl_union_map_read_from_str(ctx, wt);
  free(dt);
  free(wt);
  if (!*dom || !*writes)
    snprintf(err->message, sizeof err->message, "isl failed to build the input source");
  return *dom && *writes;
}

/* A stage of the pipeline: an input source (a value from outside the nodes)
 * or a node, with its domain renamed P and its writes into T. */
typedef struct stage {
  nc_value *source; /* NULL for nodes */
  nc_op *node;
  isl_set *domain;
  isl_union_map *writes;
} stage;

typedef struct deps_state {
  nc_pass *pass;
  isl_ctx *ctx;
  stage *stages;
  size_t n_stages;
  nc_deps_pipeline_channel *channels;
  size_t n_channels;
} deps_state;

static size_t stage_of_value(deps_state *d, nc_value *v)
{
  nc_op *def = nc_value_get_defining_op(v);
  for (size_t s = 0; s < d->n_stages; s++)
    if ((d->stages[s].node && d->stages[s].node == def) || (d->stages[s].source && d->stages[s].source == v))
      return s;
  return d->n_stages;
}

/* The producer's writes as writes into In<i>. */
static isl_union_map *writes_as(stage *p, size_t i)
{
  char tensor[32];
  snprintf(tensor, sizeof tensor, "In%zu", i);
  isl_map *w = isl_map_from_union_map(isl_union_map_copy(p->writes));
  return isl_union_map_from_map(isl_map_set_tuple_name(w, isl_dim_out, tensor));
}

static void channel_error(nc_op *node, size_t i, const char *msg)
{
  nc_op *p = nc_dataflow_node_get_producer(node, i);
  nc_diag *d = nc_op_diag_error(node, "dataflow-deps: channel %zu (from %s%s%s): %s", i,
                                p ? "node '" : "the input source", p ? nc_dataflow_node_get_name(p) : "", p ? "'" : "",
                                msg[0] ? msg : "cannot read the relations");
  if (p)
    nc_diag_attach_note(d, nc_op_get_loc(p), "producer defined here");
  nc_diag_emit(d);
}

/* Computes node s's channels and sets earliest and control. */
static bool analyse(deps_state *d, size_t s)
{
  nc_op *node = d->stages[s].node;
  nc_context *c = nc_op_get_context(node);
  size_t n = nc_op_get_num_operands(node);
  nc_attr **earliest = nc_xcalloc(n + 1, sizeof *earliest), **control = nc_xcalloc(n + 1, sizeof *control);
  isl_set *c_dom = nc_dataflow_node_get_domain(node, d->ctx); /* named S, as the reads */
  bool ok = true;
  for (size_t i = 0; i < n && ok; i++) {
    nc_deps_error err = {{0}};
    size_t p = stage_of_value(d, nc_op_get_operand(node, i));
    isl_map *read = nc_dataflow_node_get_read(node, i, d->ctx);
    isl_union_map *c_reads = read ? isl_union_map_from_map(read) : NULL;
    isl_union_map *p_writes = c_reads && p < s ? writes_as(&d->stages[p], i) : NULL;
    nc_deps_channel *ch = NULL;
    ok = p_writes && c_dom && nc_deps_compute_relations(d->stages[p].domain, p_writes, c_dom, c_reads, &ch, &err);
    if (ok) {
      isl_map *e = isl_map_coalesce(nc_deps_channel_get_earliest(ch));
      isl_map *k = isl_map_coalesce(nc_deps_channel_get_control(ch));
      earliest[i] = nc_dataflow_map_attr_from_isl(c, e);
      control[i] = nc_dataflow_map_attr_from_isl(c, k);
      isl_map_free(e);
      isl_map_free(k);
      d->channels[d->n_channels++] = (nc_deps_pipeline_channel){ch, p, s};
      ok = earliest[i] && control[i];
      if (!ok)
        snprintf(err.message, sizeof err.message, "isl failed to print the relations");
      nc_pass_stat_add(d->pass, 0, 1);
    } else {
      nc_deps_channel_destroy(ch);
    }
    if (!ok)
      channel_error(node, i, err.message);
    isl_union_map_free(p_writes);
    isl_union_map_free(c_reads);
  }
  if (ok) {
    nc_op_set_attr_str(node, "earliest", nc_attr_array(c, n, earliest));
    nc_op_set_attr_str(node, "control", nc_attr_array(c, n, control));
  }
  isl_set_free(c_dom);
  free(earliest);
  free(control);
  return ok;
}

/* Adds a source stage for each node operand from outside the nodes. */
static bool add_sources(deps_state *d, nc_op *node, nc_deps_granularity g)
{
  for (size_t i = 0, n = nc_op_get_num_operands(node); i < n; i++) {
    nc_value *v = nc_op_get_operand(node, i);
    if (nc_dataflow_node_get_producer(node, i) || stage_of_value(d, v) < d->n_stages)
      continue;
    stage *st = &d->stages[d->n_stages];
    *st = (stage){.source = v};
    nc_deps_error err = {{0}};
    if (!input_source(d->ctx, nc_value_get_type(v), "T", g, &st->domain, &st->writes, &err)) {
      isl_set_free(st->domain);
      isl_union_map_free(st->writes);
      channel_error(node, i, err.message);
      return false;
    }
    d->n_stages++;
  }
  return true;
}

static bool add_node(deps_state *d, nc_op *node)
{
  stage *st = &d->stages[d->n_stages];
  *st = (stage){.node = node};
  isl_set *dom = nc_dataflow_node_get_domain(node, d->ctx);
  isl_map *w = nc_dataflow_node_get_writes(node, d->ctx);
  if (!dom || !w) {
    isl_set_free(dom);
    isl_map_free(w);
    return nc_op_emit_error(node, "dataflow-deps: cannot read the node's domain and writes");
  }
  st->domain = isl_set_set_tuple_name(dom, "P");
  st->writes = isl_union_map_from_map(isl_map_set_tuple_name(w, isl_dim_in, "P"));
  d->n_stages++;
  return true;
}

static bool run(nc_pass *pass, nc_op *func)
{
  nc_deps_granularity g =
    strcmp(nc_pass_get_option_string(pass, "input-granularity"), "pixel") ? NC_DEPS_PER_ROW : NC_DEPS_PER_PIXEL;
  size_t n_nodes = 0, n_inputs = 0;
  for (nc_op *node = nc_dataflow_first_node(func); node; node = nc_dataflow_next_node(node)) {
    n_nodes++;
    n_inputs += nc_op_get_num_operands(node);
  }
  if (!n_nodes)
    return true;
  deps_state d = {pass, nc_dataflow_isl_ctx_create(), nc_xcalloc(n_nodes + n_inputs + 1, sizeof *d.stages), 0,
                  nc_xcalloc(n_inputs + 1, sizeof *d.channels), 0};
  isl_options_set_on_error(d.ctx, ISL_ON_ERROR_CONTINUE);
  bool ok = true;
  /* sources first, then the nodes in order: producers before consumers */
  for (nc_op *node = nc_dataflow_first_node(func); node && ok; node = nc_dataflow_next_node(node))
    ok = add_sources(&d, node, g);
  for (nc_op *node = nc_dataflow_first_node(func); node && ok; node = nc_dataflow_next_node(node))
    ok = add_node(&d, node);
  bool stages_ok = ok; /* analyse every node, to report every bad channel */
  for (size_t s = 0; s < d.n_stages && stages_ok; s++)
    if (d.stages[s].node)
      ok &= analyse(&d, s);
  if (ok) {
    int64_t *buffers = nc_xcalloc(d.n_channels + 1, sizeof *buffers);
    isl_set **domains = nc_xcalloc(d.n_stages + 1, sizeof *domains);
    for (size_t s = 0; s < d.n_stages; s++)
      domains[s] = d.stages[s].domain;
    nc_deps_error err = {{0}};
    ok = nc_deps_pipeline_buffers(d.n_stages, domains, d.n_channels, d.channels, buffers, &err);
    if (!ok)
      nc_op_emit_error(func, "dataflow-deps: %s", err.message);
    for (size_t j = 0, s = 0; ok && s < d.n_stages; s++) {
      nc_op *node = d.stages[s].node;
      if (!node)
        continue;
      size_t n = nc_op_get_num_operands(node);
      nc_op_set_attr_str(node, "buffer_elements", nc_attr_dense_i64_array(nc_op_get_context(node), n, buffers + j));
      for (size_t i = 0; i < n; i++)
        nc_pass_stat_add(pass, 1, (uint64_t)buffers[j + i]);
      j += n;
    }
    free(domains);
    free(buffers);
  }
  for (size_t j = 0; j < d.n_channels; j++)
    nc_deps_channel_destroy((nc_deps_channel *)d.channels[j].channel);
  for (size_t s = 0; s < d.n_stages; s++) {
    isl_set_free(d.stages[s].domain);
    isl_union_map_free(d.stages[s].writes);
  }
  free(d.stages);
  free(d.channels);
  nc_dataflow_isl_ctx_destroy(d.ctx);
  return ok;
}

const nc_pass_def nc_dataflow_deps_pass = {
  .argument = "dataflow-deps",
  .name = "DataflowDeps",
  .group = "Dataflow",
  .summary = "Compute each channel's dependences, earliest start points, control and minimum buffer with isl",
  .description =
    "For every operand of every dataflow.node (a channel from the node producing it, or from an input source "
    "for function arguments and host values, writing rows or pixels in row-major order), computes with isl the "
    "element dependences of the node's reads on the producer's writes and sets, per operand: `earliest` "
    "(`{ S[..] -> P[..] }`: the producer iteration each iteration waits for, the prefix lexmax of the last one "
    "it reads from), `control` (`{ P[..] -> S[..] }`: the last iteration allowed once a producer iteration is "
    "done) and `buffer_elements` (the minimum number of elements the channel must hold). See "
    "docs/dataflow-dependences.md.",
  .anchor = "func.func",
  .options = options, .n_options = NC_COUNTOF(options),
  .stats = stats, .n_stats = NC_COUNTOF(stats),
  .run = run,
};
