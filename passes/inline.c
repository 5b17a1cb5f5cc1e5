/* inline.c: inlines func.call ops whose callee is a func.func with a
 * single-block body, callees first, so chains of calls inline completely.
 *
 * A deliberately small version of MLIR's inliner: calls into recursive
 * functions (any cycle of the call graph) stay calls; so do calls marked or
 * targeting functions marked `no_inline`, and calls into bodies holding ops
 * nc does not know (their legality to inline is unknown, as in MLIR). As in
 * MLIR, the `default-pipeline` (canonicalize) runs on each function before
 * calls in it are inlined, inlined ops get `callsite(callee at caller)`
 * locations, and private functions left without uses are erased. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "nc/ir/diag.h"
#include "nc/ir/pass.h"
#include "nc/ir/symbol.h"

typedef struct pipeline_state {
  nc_pass_manager *pm;
  pthread_mutex_t mu;
} pipeline_state;

typedef struct fn {
  nc_op *op;
  struct fn **callees; /* resolved callees of the calls in the body */
  size_t n_callees, cap_callees;
  int index, low;      /* Tarjan */
  bool on_stack, recursive, done;
} fn;

typedef struct inliner {
  nc_context *ctx;
  fn *fns;
  size_t n_fns, cap_fns;
  nc_symbol_table_collection *tables;
  fn **stack;
  size_t n_stack;
  int next_index;
  fn **order; /* callees before callers */
  size_t n_order;
  uint64_t inlined;
} inliner;

static void *grow(void *p, size_t *cap, size_t elt)
{
  *cap = *cap ? *cap * 2 : 16;
  p = realloc(p, *cap * elt);
  if (!p)
    abort();
  return p;
}

static fn *find_fn(inliner *in, nc_op *op)
{
  for (size_t i = 0; i < in->n_fns; i++)
    if (in->fns[i].op == op)
      return &in->fns[i];
  return NULL;
}

static nc_walk_result collect_fn(nc_op *op, void *user)
{
  inliner *in = user;
  if (!nc_op_is(op, "func.func"))
    return NC_WALK_ADVANCE;
  if (in->n_fns == in->cap_fns)
    in->fns = grow(in->fns, &in->cap_fns, sizeof *in->fns);
  memset(&in->fns[in->n_fns], 0, sizeof *in->fns);
  in->fns[in->n_fns++].op = op;
  return NC_WALK_SKIP;
}

/* The func.func a call refers to, or NULL. */
static nc_op *resolve(inliner *in, nc_op *call)
{
  nc_op *callee = nc_symbol_lookup_nearest(in->tables, call, nc_op_get_attr_str(call, "callee"));
  return callee && nc_op_is(callee, "func.func") ? callee : NULL;
}

typedef struct call_walk {
  inliner *in;
  fn *caller;
} call_walk;

static nc_walk_result collect_call(nc_op *op, void *user)
{
  call_walk *w = user;
  if (op != w->caller->op && nc_op_is(op, "func.func"))
    return NC_WALK_SKIP;
  if (!nc_op_is(op, "func.call"))
    return NC_WALK_ADVANCE;
  nc_op *target = resolve(w->in, op);
  fn *callee = target ? find_fn(w->in, target) : NULL;
  if (callee) {
    if (w->caller->n_callees == w->caller->cap_callees)
      w->caller->callees = grow(w->caller->callees, &w->caller->cap_callees, sizeof *w->caller->callees);
    w->caller->callees[w->caller->n_callees++] = callee;
  }
  return NC_WALK_ADVANCE;
}

/* Tarjan's SCCs: marks functions on call-graph cycles and lists functions
 * callees first. */
static void visit(inliner *in, fn *f)
{
  f->index = f->low = ++in->next_index;
  in->stack[in->n_stack++] = f;
  f->on_stack = true;
  for (size_t i = 0; i < f->n_callees; i++) {
    fn *c = f->callees[i];
    if (c == f)
      f->recursive = true;
    if (!c->index) {
      visit(in, c);
      f->low = c->low < f->low ? c->low : f->low;
    } else if (c->on_stack) {
      f->low = c->index < f->low ? c->index : f->low;
    }
  }
  if (f->low != f->index)
    return;
  size_t start = in->n_stack;
  while (in->stack[start - 1] != f)
    start--;
  start--;
  bool cycle = in->n_stack - start > 1;
  for (size_t i = start; i < in->n_stack; i++) {
    fn *m = in->stack[i];
    m->on_stack = false;
    m->recursive |= cycle;
    in->order[in->n_order++] = m;
  }
  in->n_stack = start;
}

static nc_walk_result find_unknown_op(nc_op *op, void *user)
{
  (void)user;
  return nc_op_get_def(op) ? NC_WALK_ADVANCE : NC_WALK_INTERRUPT;
}

static bool can_inline(const fn *callee, nc_op *call)
{
  nc_op *f = callee->op;
  nc_region *body = nc_op_get_region(f, 0);
  nc_block *entry = nc_region_get_first_block(body);
  if (callee->recursive || !entry || nc_block_get_next(entry))
    return false;
  nc_op *term = nc_block_get_last_op(entry);
  if (!term || !nc_op_is(term, "func.return"))
    return false;
  if (nc_op_get_attr_str(call, "no_inline") || nc_op_get_attr_str(f, "no_inline"))
    return false;
  if (nc_block_get_num_args(entry) != nc_op_get_num_operands(call) ||
      nc_op_get_num_operands(term) != nc_op_get_num_results(call))
    return false;
  return nc_op_walk(f, NC_WALK_PRE_ORDER, find_unknown_op, NULL) != NC_WALK_INTERRUPT;
}

typedef struct loc_walk {
  nc_context *ctx;
  nc_attr *caller;
} loc_walk;

static nc_location callsite(loc_walk *w, nc_location loc)
{
  return nc_location_from_attr(nc_loc_callsite(w->ctx, nc_location_get_attr(w->ctx, loc), w->caller));
}

static nc_walk_result remap_loc(nc_op *op, void *user)
{
  loc_walk *w = user;
  nc_op_set_loc(op, callsite(w, nc_op_get_loc(op)));
  for (size_t r = 0; r < nc_op_get_num_regions(op); r++)
    for (nc_block *b = nc_region_get_first_block(nc_op_get_region(op, r)); b; b = nc_block_get_next(b))
      for (size_t i = 0; i < nc_block_get_num_args(b); i++) {
        nc_value *arg = nc_block_get_arg(b, i);
        nc_block_arg_set_loc(arg, callsite(w, nc_value_get_loc(arg)));
      }
  return NC_WALK_ADVANCE;
}

/* Replaces `call` by a copy of the callee's body. */
static void inline_call(inliner *in, nc_op *call, nc_op *callee)
{
  nc_block *entry = nc_region_get_first_block(nc_op_get_region(callee, 0));
  nc_mapping *map = nc_mapping_create();
  for (size_t i = 0; i < nc_block_get_num_args(entry); i++)
    nc_mapping_map_value(map, nc_block_get_arg(entry, i), nc_op_get_operand(call, i));
  nc_location call_loc = nc_op_get_loc(call);
  loc_walk w = {in->ctx, nc_location_is_unknown(call_loc) ? NULL : nc_location_get_attr(in->ctx, call_loc)};
  nc_op *term = nc_block_get_last_op(entry);
  for (nc_op *op = nc_block_get_first_op(entry); op != term; op = nc_op_get_next(op)) {
    nc_op *copy = nc_op_clone(op, map);
    if (w.caller)
      nc_op_walk(copy, NC_WALK_PRE_ORDER, remap_loc, &w);
    nc_op_insert_before(copy, call);
  }
  size_t n = nc_op_get_num_results(call);
  nc_value **results = malloc((n + 1) * sizeof *results);
  for (size_t i = 0; i < n; i++) {
    nc_value *v = nc_op_get_operand(term, i);
    nc_value *m = nc_mapping_lookup_value(map, v);
    results[i] = m ? m : v;
  }
  nc_op_replace_all_uses_with(call, results);
  nc_op_erase(call);
  free(results);
  nc_mapping_destroy(map);
  in->inlined++;
}

typedef struct inline_walk {
  inliner *in;
  fn *caller;
  nc_op **calls;
  size_t n, cap;
} inline_walk;

static nc_walk_result gather_calls(nc_op *op, void *user)
{
  inline_walk *w = user;
  if (op != w->caller->op && nc_op_is(op, "func.func"))
    return NC_WALK_SKIP;
  if (nc_op_is(op, "func.call")) {
    if (w->n == w->cap)
      w->calls = grow(w->calls, &w->cap, sizeof *w->calls);
    w->calls[w->n++] = op;
  }
  return NC_WALK_ADVANCE;
}

static void inline_into(inliner *in, fn *caller)
{
  inline_walk w = {in, caller, NULL, 0, 0};
  nc_op_walk(caller->op, NC_WALK_PRE_ORDER, gather_calls, &w);
  for (size_t i = 0; i < w.n; i++) {
    nc_op *target = resolve(in, w.calls[i]);
    fn *callee = target ? find_fn(in, target) : NULL;
    if (callee && callee != caller && can_inline(callee, w.calls[i]))
      inline_call(in, w.calls[i], target);
  }
  free(w.calls);
}

/* --- dead private functions -------------------------------------------------------------- */

typedef struct use_count {
  inliner *in;
  size_t *uses; /* per fn */
} use_count;

static bool count_use(nc_op *user, nc_attr *ref, void *u)
{
  use_count *c = u;
  nc_op *target = nc_symbol_lookup_nearest(c->in->tables, user, ref);
  fn *f = target ? find_fn(c->in, target) : NULL;
  if (f && !nc_op_is_ancestor(f->op, user))
    c->uses[f - c->in->fns]++;
  return true;
}

/* Erases private functions nothing refers to (MLIR's inliner drops dead
 * callables); repeats, since erasing one may leave another unused. */
static void erase_dead(inliner *in, nc_op *root)
{
  for (bool changed = true; changed;) {
    changed = false;
    use_count c = {in, calloc(in->n_fns + 1, sizeof(size_t))};
    if (!c.uses)
      abort();
    nc_symbol_walk_uses(root, count_use, &c);
    for (size_t i = 0; i < in->n_fns; i++) {
      fn *f = &in->fns[i];
      if (f->done || c.uses[i] || !nc_symbol_is_private(f->op))
        continue;
      nc_op_erase(f->op);
      f->done = true;
      changed = true;
    }
    free(c.uses);
    /* the symbol tables are stale now */
    nc_symbol_table_collection_destroy(in->tables);
    in->tables = nc_symbol_table_collection_create();
  }
}

static bool run(nc_pass *pass, nc_op *op)
{
  inliner in = {.ctx = nc_op_get_context(op), .tables = nc_symbol_table_collection_create()};
  for (size_t r = 0; r < nc_op_get_num_regions(op); r++)
    for (nc_block *b = nc_region_get_first_block(nc_op_get_region(op, r)); b; b = nc_block_get_next(b))
      for (nc_op *c = nc_block_get_first_op(b); c; c = nc_op_get_next(c))
        nc_op_walk(c, NC_WALK_PRE_ORDER, collect_fn, &in);
  for (size_t i = 0; i < in.n_fns; i++) {
    call_walk w = {&in, &in.fns[i]};
    nc_op_walk(in.fns[i].op, NC_WALK_PRE_ORDER, collect_call, &w);
  }
  in.stack = malloc((in.n_fns + 1) * sizeof *in.stack);
  in.order = malloc((in.n_fns + 1) * sizeof *in.order);
  if (!in.stack || !in.order)
    abort();
  for (size_t i = 0; i < in.n_fns; i++)
    if (!in.fns[i].index)
      visit(&in, &in.fns[i]);

  pipeline_state *pipeline = nc_pass_get_state(pass);
  bool ok = true;
  for (size_t i = 0; i < in.n_order && ok; i++) {
    fn *f = in.order[i];
    if (pipeline && !nc_region_is_empty(nc_op_get_region(f->op, 0))) {
      /* one pass manager per pass instance: runs on sibling modules take turns */
      pthread_mutex_lock(&pipeline->mu);
      ok = nc_pass_manager_run(pipeline->pm, f->op, NULL);
      pthread_mutex_unlock(&pipeline->mu);
    }
    inline_into(&in, f);
  }
  if (ok)
    erase_dead(&in, op);
  nc_pass_stat_add(pass, 0, in.inlined);
  for (size_t i = 0; i < in.n_fns; i++)
    free(in.fns[i].callees);
  free(in.fns);
  free(in.stack);
  free(in.order);
  nc_symbol_table_collection_destroy(in.tables);
  return ok;
}

static void free_pipeline(void *state)
{
  pipeline_state *p = state;
  nc_pass_manager_destroy(p->pm);
  pthread_mutex_destroy(&p->mu);
  free(p);
}

/* Builds the pass manager of the default pipeline once per pass instance. */
static bool initialize(nc_pass *pass, nc_context *ctx)
{
  const char *text = nc_pass_get_option_string(pass, "default-pipeline");
  if (!*text)
    return true;
  nc_pass_manager *pm = nc_pass_manager_create(ctx, "any");
  if (!nc_pass_manager_add_passes(pm, text)) {
    nc_pass_manager_destroy(pm);
    return false;
  }
  pipeline_state *state = malloc(sizeof *state);
  if (!state)
    abort();
  state->pm = pm;
  pthread_mutex_init(&state->mu, NULL);
  nc_pass_set_state(pass, state, free_pipeline);
  return true;
}

static const nc_pass_option_def options[] = {
  {"default-pipeline", NC_PASS_OPT_PIPELINE, "canonicalize",
   "The optimizer pipeline run on each function before calls in it are inlined"},
};

static const nc_pass_stat_def stats[] = {
  {"num-inlined-calls", "Number of inlined calls"},
};

const nc_pass_def nc_inline_pass = {
  .argument = "inline",
  .name = "Inliner",
  .group = "Generic",
  .summary = "Inline function calls",
  .anchor = "builtin.module",
  .description = "Replaces each func.call of a func.func with a single-block body by a copy of the body, callees "
                 "first; calls into recursive functions are kept. Runs `default-pipeline` on each function first "
                 "and erases private functions left unused.",
  .options = options, .n_options = 1,
  .stats = stats, .n_stats = 1,
  .initialize = initialize,
  .run = run,
};
