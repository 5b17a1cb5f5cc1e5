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
 * and nc_deps_pipeline's steps, on the whole pipeline's eager schedule,
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
#include "nc/ir/threading.h"

static const char *const granularities[] = {"row", "pixel", NULL};

static const nc_pass_option_def options[] = {
  {"input-granularity", NC_PASS_OPT_ENUM, "row",
   "How input sources (function arguments, host values) arrive: a row or a pixel at a time", granularities},
};

static const nc_pass_stat_def stats[] = {
  {"num-channels", "Number of channels analysed"},
  {"buffer-elements", "Sum of the channels' minimum buffers, in elements"},
  {"num-shared", "Channels equal to an earlier one (same producer domain and writes, consumer domain and read), "
                 "whose relations are that one's"},
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
 * or a node, with its domain (renamed P) in the pass's isl context. */
typedef struct stage {
  nc_value *source; /* NULL for nodes */
  nc_op *node;
  isl_set *domain;
  size_t first_channel; /* a node's: the slot of its operand 0's channel */
} stage;

/* What the analysis of one channel slot gives; the nodes' attributes are
 * built from these after the loop (an item must not change IR that others
 * read). */
typedef struct slot_out {
  nc_attr *earliest, *control; /* its maps */
  bool ok;
  nc_deps_error err; /* why it failed */
} slot_out;

typedef struct deps_state {
  nc_pass *pass;
  isl_ctx *ctx;
  nc_deps_granularity g;
  stage *stages;
  size_t n_stages;
  size_t *nodes; /* the node stages' indices, in order */
  size_t n_nodes;
  slot_out *out;                      /* per channel slot */
  nc_deps_pipeline_channel *channels; /* slot first_channel + i: node's operand i */
  size_t n_channels;
  size_t *rep;   /* per slot: the first slot equal to it (itself if none), whose channel it shares */
  size_t *owner; /* per slot: the chunk whose context holds its channel */
  isl_ctx **chunk_ctx; /* per chunk: the context its channels live in */
  size_t per_chunk;
  nc_deps_pipeline *pipe; /* the buffers' steps: stages and channels set on the threads */
  int64_t *buffers;       /* per channel slot */
  nc_deps_error *buffer_err;
  bool *buffer_ok;
} deps_state;

static size_t stage_of_value(deps_state *d, nc_value *v)
{
  nc_op *def = nc_value_get_defining_op(v);
  for (size_t s = 0; s < d->n_stages; s++)
    if ((d->stages[s].node && d->stages[s].node == def) || (d->stages[s].source && d->stages[s].source == v))
      return s;
  return d->n_stages;
}

/* Stage st's domain (renamed P) and writes into In<i>, in `ctx`. */
static bool stage_relations(isl_ctx *ctx, const stage *st, size_t i, nc_deps_granularity g, isl_set **dom,
                            isl_union_map **writes, nc_deps_error *err)
{
  char tensor[32];
  snprintf(tensor, sizeof tensor, "In%zu", i);
  if (st->source)
    return input_source(ctx, nc_value_get_type(st->source), tensor, g, dom, writes, err);
  isl_set *d = nc_dataflow_node_get_domain(st->node, ctx);
  isl_map *w = nc_dataflow_node_get_writes(st->node, ctx);
  *dom = d ? isl_set_set_tuple_name(d, "P") : NULL;
  *writes = w ? isl_union_map_from_map(isl_map_set_tuple_name(isl_map_set_tuple_name(w, isl_dim_in, "P"),
                                                                isl_dim_out, tensor))
              : NULL;
  return *dom && *writes;
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

/* Computes node stage s's channels that equal no earlier one (rep[slot] is
 * the slot itself) in `ctx`, into their slots; the others take their
 * representative's after the loop. */
static bool analyse(deps_state *d, isl_ctx *ctx, size_t s)
{
  stage *cs = &d->stages[s];
  nc_op *node = cs->node;
  nc_context *c = nc_op_get_context(node);
  size_t n = nc_op_get_num_operands(node);
  isl_set *c_dom = nc_dataflow_node_get_domain(node, ctx); /* named S, as the reads */
  nc_deps_pipeline_set_stage(d->pipe, s, c_dom, NULL); /* a failure is the schedule's to report */
  bool all = true;
  for (size_t i = 0; i < n; i++) {
    size_t slot = cs->first_channel + i;
    if (d->rep[slot] != slot)
      continue;
    slot_out *o = &d->out[slot];
    size_t p = stage_of_value(d, nc_op_get_operand(node, i));
    isl_map *read = nc_dataflow_node_get_read(node, i, ctx);
    isl_union_map *c_reads = read ? isl_union_map_from_map(read) : NULL;
    isl_set *p_dom = NULL;
    isl_union_map *p_writes = NULL;
    nc_deps_channel *ch = NULL;
    bool ok = c_reads && p < s && stage_relations(ctx, &d->stages[p], i, d->g, &p_dom, &p_writes, &o->err) &&
              c_dom && nc_deps_compute_relations(p_dom, p_writes, c_dom, c_reads, &ch, &o->err);
    if (ok) {
      isl_map *e = isl_map_coalesce(nc_deps_channel_get_earliest(ch));
      isl_map *k = isl_map_coalesce(nc_deps_channel_get_control(ch));
      o->earliest = nc_dataflow_map_attr_from_isl(c, e);
      o->control = nc_dataflow_map_attr_from_isl(c, k);
      isl_map_free(e);
      isl_map_free(k);
      d->channels[slot] = (nc_deps_pipeline_channel){ch, p, s};
      ok = o->earliest && o->control;
      if (!ok)
        snprintf(o->err.message, sizeof o->err.message, "isl failed to print the relations");
    } else {
      nc_deps_channel_destroy(ch);
    }
    o->ok = ok;
    all &= ok;
    isl_set_free(p_dom);
    isl_union_map_free(p_writes);
    isl_union_map_free(c_reads);
  }
  isl_set_free(c_dom);
  return all;
}

/* The attributes that decide a channel's relations: the producer's domain
 * and writes (or its source value) and the consumer's domain and read. */
typedef struct slot_key {
  const void *p_domain, *p_writes, *c_domain, *c_read;
} slot_key;

/* Slot `slot` (node stage s's operand i) as a key; false if it must be
 * analysed on its own (an attribute is missing or the producer does not
 * come first: its failure is its own). */
static bool slot_key_of(deps_state *d, size_t s, size_t i, slot_key *key)
{
  nc_op *node = d->stages[s].node;
  size_t p = stage_of_value(d, nc_op_get_operand(node, i));
  nc_attr *reads = nc_op_get_attr_str(node, "reads");
  if (p >= s || !reads || nc_attr_get_kind(reads) != NC_ATTR_ARRAY || i >= nc_attr_get_num_elements(reads))
    return false;
  const stage *ps = &d->stages[p];
  *key = (slot_key){ps->source ? (const void *)ps->source : nc_op_get_attr_str(ps->node, "domain"),
                    ps->source ? NULL : nc_op_get_attr_str(ps->node, "writes"), nc_op_get_attr_str(node, "domain"),
                    nc_attr_get_element(reads, i)};
  return key->p_domain && (ps->source || key->p_writes) && key->c_domain && key->c_read;
}

/* rep[] (each slot's first equal slot: attributes are uniqued, so equal
 * attributes are the same pointers) and owner[] (the chunk analysing the
 * representative, whose context its channel lives in). */
static void find_reps(deps_state *d)
{
  slot_key *keys = nc_xcalloc(d->n_channels + 1, sizeof *keys);
  size_t *distinct = nc_xcalloc(d->n_channels + 1, sizeof *distinct), n_distinct = 0;
  for (size_t j = 0; j < d->n_nodes; j++) {
    stage *st = &d->stages[d->nodes[j]];
    for (size_t i = 0, n = nc_op_get_num_operands(st->node); i < n; i++) {
      size_t slot = st->first_channel + i, r = slot;
      d->owner[slot] = j / d->per_chunk;
      if (slot_key_of(d, d->nodes[j], i, &keys[slot])) {
        for (size_t k = 0; k < n_distinct && r == slot; k++)
          if (!memcmp(&keys[distinct[k]], &keys[slot], sizeof keys[slot]))
            r = distinct[k];
        if (r == slot)
          distinct[n_distinct++] = slot;
      }
      d->rep[slot] = r;
      d->owner[slot] = d->owner[r];
    }
  }
  free(keys);
  free(distinct);
}

/* After the loop, in node order: each shared slot takes its
 * representative's channel, each node's first failing channel is reported,
 * and the nodes whose channels all succeeded get their attributes. */
static bool finish_nodes(deps_state *d)
{
  bool all = true;
  for (size_t j = 0; j < d->n_nodes; j++) {
    size_t s = d->nodes[j];
    stage *st = &d->stages[s];
    nc_op *node = st->node;
    size_t n = nc_op_get_num_operands(node);
    nc_attr **earliest = nc_xcalloc(n + 1, sizeof *earliest), **control = nc_xcalloc(n + 1, sizeof *control);
    bool ok = true;
    for (size_t i = 0; i < n && ok; i++) {
      size_t slot = st->first_channel + i, r = d->rep[slot];
      const slot_out *o = &d->out[r];
      ok = o->ok;
      if (!ok) {
        channel_error(node, i, o->err.message);
        break;
      }
      if (r != slot) {
        d->channels[slot] = (nc_deps_pipeline_channel){d->channels[r].channel,
                                                       stage_of_value(d, nc_op_get_operand(node, i)), s};
        nc_pass_stat_add(d->pass, 2, 1);
      }
      earliest[i] = o->earliest;
      control[i] = o->control;
    }
    if (ok) {
      nc_context *c = nc_op_get_context(node);
      nc_op_set_attr_str(node, "earliest", nc_attr_array(c, n, earliest));
      nc_op_set_attr_str(node, "control", nc_attr_array(c, n, control));
    }
    all &= ok;
    free(earliest);
    free(control);
  }
  return all;
}

/* Chunk k of the nodes, in an isl context of its own (isl's are not
 * thread-safe) that holds their channels until the pass ends. */
static bool analyse_chunk(size_t k, void *user)
{
  deps_state *d = user;
  isl_ctx *ctx = nc_dataflow_isl_ctx_create();
  isl_options_set_on_error(ctx, ISL_ON_ERROR_CONTINUE);
  d->chunk_ctx[k] = ctx;
  bool ok = true;
  for (size_t j = k * d->per_chunk; j < d->n_nodes && j < (k + 1) * d->per_chunk; j++)
    ok &= analyse(d, ctx, d->nodes[j]);
  return ok;
}

/* The channels whose isl objects live in chunk k's context: their waits. */
static bool channels_chunk(size_t k, void *user)
{
  deps_state *d = user;
  for (size_t c = 0; c < d->n_channels; c++) /* a shared slot comes after its representative, in its chunk */
    if (d->owner[c] == k)
      nc_deps_pipeline_set_channel_as(d->pipe, c, &d->channels[c], d->rep[c], NULL);
  return true;
}

/* The buffers of the channels in chunk k's context under the schedule. */
static bool buffers_chunk(size_t k, void *user)
{
  deps_state *d = user;
  for (size_t c = 0; c < d->n_channels; c++)
    if (d->owner[c] == k)
      d->buffer_ok[c] = nc_deps_pipeline_channel_buffer(d->pipe, c, &d->buffers[c], &d->buffer_err[c]);
  return true;
}

/* Adds a source stage for each node operand from outside the nodes. */
static bool add_sources(deps_state *d, nc_op *node)
{
  for (size_t i = 0, n = nc_op_get_num_operands(node); i < n; i++) {
    nc_value *v = nc_op_get_operand(node, i);
    if (nc_dataflow_node_get_producer(node, i) || stage_of_value(d, v) < d->n_stages)
      continue;
    stage *st = &d->stages[d->n_stages];
    *st = (stage){.source = v};
    nc_deps_error err = {{0}};
    isl_union_map *writes = NULL;
    bool ok = input_source(d->ctx, nc_value_get_type(v), "T", d->g, &st->domain, &writes, &err);
    isl_union_map_free(writes);
    if (!ok) {
      isl_set_free(st->domain);
      channel_error(node, i, err.message);
      return false;
    }
    d->n_stages++;
  }
  return true;
}

static bool add_node(deps_state *d, nc_op *node, size_t first_channel)
{
  stage *st = &d->stages[d->n_stages];
  *st = (stage){.node = node, .first_channel = first_channel};
  isl_set *dom = nc_dataflow_node_get_domain(node, d->ctx);
  isl_map *w = nc_dataflow_node_get_writes(node, d->ctx);
  bool ok = dom && w;
  isl_map_free(w);
  if (!ok) {
    isl_set_free(dom);
    return nc_op_emit_error(node, "dataflow-deps: cannot read the node's domain and writes");
  }
  st->domain = isl_set_set_tuple_name(dom, "P");
  d->nodes[d->n_nodes++] = d->n_stages++;
  return true;
}

/* The channels' buffers on the whole pipeline, set on the nodes: the
 * channels' waits and lifetimes on the threads, chunk by chunk (each in the
 * context its channels live in), the schedule between them serially; the
 * first failure in channel order is reported. */
static bool set_buffers(deps_state *d, nc_op *func, size_t n_chunks)
{
  nc_context *c = nc_op_get_context(func);
  d->buffers = nc_xcalloc(d->n_channels + 1, sizeof *d->buffers);
  d->buffer_err = nc_xcalloc(d->n_channels + 1, sizeof *d->buffer_err);
  d->buffer_ok = nc_xcalloc(d->n_channels + 1, sizeof *d->buffer_ok);
  nc_parallel_for(c, n_chunks, channels_chunk, d);
  nc_deps_error err = {{0}};
  bool ok = nc_deps_pipeline_schedule(d->pipe, &err);
  if (ok)
    nc_parallel_for(c, n_chunks, buffers_chunk, d);
  for (size_t j = 0; ok && j < d->n_channels; j++)
    if (!d->buffer_ok[j]) {
      err = d->buffer_err[j];
      ok = false;
    }
  if (!ok)
    nc_op_emit_error(func, "dataflow-deps: %s", err.message);
  for (size_t j = 0; ok && j < d->n_nodes; j++) {
    stage *st = &d->stages[d->nodes[j]];
    size_t n = nc_op_get_num_operands(st->node);
    int64_t *b = d->buffers + st->first_channel;
    nc_op_set_attr_str(st->node, "buffer_elements", nc_attr_dense_i64_array(nc_op_get_context(st->node), n, b));
    for (size_t i = 0; i < n; i++)
      nc_pass_stat_add(d->pass, 1, (uint64_t)b[i]);
  }
  free(d->buffers);
  free(d->buffer_err);
  free(d->buffer_ok);
  return ok;
}

/* The nodes are analysed in chunks on the context's threads
 * (nc_parallel_for), each chunk's channels in an isl context of its own;
 * their diagnostics come in node order and their attributes are set after
 * the loop, so the IR and the messages are the same with any number of
 * threads. The pipeline's buffers then take the channels from all chunks'
 * contexts: their isl work on the threads again, chunk by chunk, and the
 * eager schedule serially (set_buffers). */
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
  deps_state d = {.pass = pass, .ctx = nc_dataflow_isl_ctx_create(), .g = g,
                  .stages = nc_xcalloc(n_nodes + n_inputs + 1, sizeof *d.stages),
                  .nodes = nc_xcalloc(n_nodes + 1, sizeof *d.nodes), .out = nc_xcalloc(n_inputs + 1, sizeof *d.out),
                  .rep = nc_xcalloc(n_inputs + 1, sizeof *d.rep), .owner = nc_xcalloc(n_inputs + 1, sizeof *d.owner),
                  .channels = nc_xcalloc(n_inputs + 1, sizeof *d.channels), .n_channels = n_inputs};
  isl_options_set_on_error(d.ctx, ISL_ON_ERROR_CONTINUE);
  bool ok = true;
  /* sources first, then the nodes in order: producers before consumers */
  for (nc_op *node = nc_dataflow_first_node(func); node && ok; node = nc_dataflow_next_node(node))
    ok = add_sources(&d, node);
  size_t first_channel = 0;
  for (nc_op *node = nc_dataflow_first_node(func); node && ok; node = nc_dataflow_next_node(node)) {
    ok = add_node(&d, node, first_channel);
    first_channel += nc_op_get_num_operands(node);
  }
  size_t n_chunks = 0;
  if (ok) { /* the pipeline's stages: the sources' here, the nodes' on the threads (analyse) */
    d.pipe = nc_deps_pipeline_create(d.n_stages, d.n_channels);
    for (size_t s = 0; s < d.n_stages; s++)
      if (d.stages[s].source)
        nc_deps_pipeline_set_stage(d.pipe, s, d.stages[s].domain, NULL);
  }
  if (ok) { /* analyse every node, to report every bad channel */
    size_t threads = nc_context_get_num_threads(nc_op_get_context(func));
    n_chunks = threads > 1 ? 4 * threads : 1;
    n_chunks = n_chunks > d.n_nodes ? d.n_nodes : n_chunks;
    d.per_chunk = (d.n_nodes + n_chunks - 1) / n_chunks;
    d.chunk_ctx = nc_xcalloc(n_chunks, sizeof *d.chunk_ctx);
    find_reps(&d);
    nc_parallel_for(nc_op_get_context(func), n_chunks, analyse_chunk, &d);
    ok = finish_nodes(&d);
  }
  for (size_t j = 0; j < d.n_channels; j++)
    if (d.channels[j].channel)
      nc_pass_stat_add(pass, 0, 1);
  if (ok)
    ok = set_buffers(&d, func, n_chunks);
  nc_deps_pipeline_destroy(d.pipe); /* before the channels it borrows */
  for (size_t j = 0; j < d.n_channels; j++) /* a shared channel is its representative's */
    if (d.rep[j] == j)
      nc_deps_channel_destroy((nc_deps_channel *)d.channels[j].channel);
  for (size_t k = 0; k < n_chunks; k++)
    if (d.chunk_ctx[k])
      nc_dataflow_isl_ctx_destroy(d.chunk_ctx[k]);
  for (size_t s = 0; s < d.n_stages; s++)
    isl_set_free(d.stages[s].domain);
  free(d.chunk_ctx);
  free(d.stages);
  free(d.nodes);
  free(d.out);
  free(d.rep);
  free(d.owner);
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
