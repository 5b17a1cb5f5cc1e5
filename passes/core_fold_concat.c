/* core_fold_concat.c: core-fold-concat, which removes the tiles of channel
 * concats that only move data (nc_core_node_is_foldable_concat: every input
 * taken as it is, as graph-quantize's shared concat scales make them).
 *
 * Such a tile receives every element of the joined tensor and sends it all
 * again through its one port: in a fire or inception module it is the
 * slowest stage although it computes nothing. Without it, the tiles of the
 * concat's producers send their channels straight to the concat's readers,
 * and each reader's recv names the channel its part starts at
 * (`channel_offset`): a [C_i, H, W] part's flat element e is element
 * e + offset x H x W of the concat, so every message lands whole.
 *
 * The pass runs after core-schedule (before core-replicate and
 * core-multicast) and rewrites the programs from the concat tile's own:
 * the producer messages it receives before computing iteration i are what
 * i is made of; where it sent i to a reader, the reader now receives those
 * messages (the ones it does not have yet) from their producers, each
 * producer sending them to every such reader where it sent them to the
 * concat. A reader thus waits for no more than before (the concat's send
 * of i came after those messages), no message carries more, and the
 * buffers hold the same elements at the same program points. A concat
 * split over several tiles, whose result leaves the nodes, that reads a
 * folded concat or whose readers already receive from its producers keeps
 * its tile. Tiles sharing a core (core.tile `slot`: core-place's guests,
 * core-colocate) are told apart by their slot everywhere: a peer is
 * (x, y, slot), and the rewritten recvs and sends name the slot of the
 * producer or reader they now reach.
 */
#include <stdlib.h>
#include <string.h>

#include "nc/dialects/core/core.h"
#include "nc/dialects/dataflow/dataflow.h"
#include "nc/ir/pass.h"

static const nc_pass_stat_def stats[] = {
  {"num-folded", "Concat tiles folded away"},
  {"num-kept", "Foldable concats left with their tiles"},
};

/* A program, decoded. */
typedef struct prog {
  nc_op *tile;
  nc_core_instr *in;
  nc_location *loc;
  size_t n;
} prog;

static void prog_read(nc_op *tile, prog *p)
{
  nc_op *program = nc_core_tile_get_program(tile);
  p->tile = tile;
  p->n = program ? nc_core_program_get_size(program) : 0;
  p->in = nc_xcalloc(p->n + 1, sizeof *p->in);
  p->loc = nc_xcalloc(p->n + 1, sizeof *p->loc);
  size_t i = 0;
  for (nc_op *op = program ? nc_block_get_first_op(nc_core_program_get_body(program)) : NULL; op;
       op = nc_op_get_next(op), i++) {
    nc_core_instr_get(op, &p->in[i]);
    p->loc[i] = nc_op_get_loc(op);
  }
}

static void prog_free(prog *p)
{
  free(p->in);
  free(p->loc);
}

/* A message the concat tile receives: producer tile (x, y, slot), its iteration, the operand. */
typedef struct msg {
  int64_t x, y, slot, iter, operand;
} msg;

/* A reader of the concat: its tile and program, and for each concat iteration
 * it receives, the messages that now replace that recv. */
typedef struct reader {
  nc_op *tile;
  prog p;
  bool *has;             /* [msg]: already forwarded to it */
  size_t *first, *count; /* [concat iteration]: its slice of `list` */
  size_t *list, n_list;
} reader;

typedef struct fold {
  nc_op *fn, *chip, *node, *tile;
  prog t;
  msg *m;
  size_t n_m;
  size_t *group_first, *group_count; /* [concat iteration]: the messages received before computing it */
  int64_t n_iters;
  reader *r;
  size_t n_r;
  size_t **dests; /* [msg]: readers it goes to, in order */
  size_t *n_dests;
} fold;

/* Whether the instruction's peer is the tile at (x, y, slot): tiles sharing a
 * core (core-colocate, core-place's guests) differ only by their slot. */
static bool names(const nc_core_instr *in, int64_t x, int64_t y, int64_t slot)
{
  return in->x == x && in->y == y && in->slot == slot;
}

/* Whether the instruction receives activations from `tile`. */
static bool is_recv_from(const nc_core_instr *in, const nc_op *tile)
{
  return in->kind == NC_CORE_RECV && in->network == NC_CORE_NET_ACTIVATION &&
         names(in, nc_core_tile_get_x(tile), nc_core_tile_get_y(tile), nc_core_tile_get_slot(tile));
}

/* The producer tile that sent message m. */
static nc_op *msg_tile(const fold *f, const msg *m)
{
  return nc_core_chip_find_tile_in_slot(f->chip, m->x, m->y, m->slot);
}

static size_t reader_of(fold *f, nc_op *tile)
{
  for (size_t i = 0; i < f->n_r; i++)
    if (f->r[i].tile == tile)
      return i;
  f->r = nc_xrealloc(f->r, (f->n_r + 1) * sizeof *f->r);
  reader *r = &f->r[f->n_r];
  memset(r, 0, sizeof *r);
  r->tile = tile;
  prog_read(tile, &r->p);
  r->has = nc_xcalloc(f->n_m + 1, sizeof *r->has);
  r->first = nc_xcalloc((size_t)f->n_iters + 1, sizeof *r->first);
  r->count = nc_xcalloc((size_t)f->n_iters + 1, sizeof *r->count);
  r->list = nc_xcalloc(f->n_m + 1, sizeof *r->list);
  return f->n_r++;
}

/* The concat tile's messages grouped by the iteration computed after them;
 * false if its program is not one this pass folds. */
static bool read_concat(fold *f)
{
  prog *t = &f->t;
  for (size_t i = 0; i < t->n; i++) {
    const nc_core_instr *in = &t->in[i];
    if (in->network || in->frames || in->channel_offset || in->x == NC_CORE_HOST)
      return false;
    if (in->kind == NC_CORE_COMPUTE && in->end > f->n_iters)
      f->n_iters = in->end;
  }
  f->m = nc_xcalloc(t->n + 1, sizeof *f->m);
  f->group_first = nc_xcalloc((size_t)f->n_iters + 1, sizeof *f->group_first);
  f->group_count = nc_xcalloc((size_t)f->n_iters + 1, sizeof *f->group_count);
  size_t pending = 0;
  for (size_t i = 0; i < t->n; i++) {
    const nc_core_instr *in = &t->in[i];
    if (in->kind == NC_CORE_RECV) {
      f->m[f->n_m++] = (msg){in->x, in->y, in->slot, in->iter, in->operand};
    } else if (in->kind == NC_CORE_COMPUTE) {
      for (int64_t it = in->begin; it < in->end; it++)
        f->group_first[it] = pending, f->group_count[it] = f->n_m - pending;
      pending = f->n_m;
    }
  }
  return true;
}

/* Where the concat sends iteration i to a reader, that reader gets the
 * messages of i's group it does not have. False if a reader cannot take them. */
static bool plan_readers(fold *f)
{
  for (size_t i = 0; i < f->t.n; i++) {
    const nc_core_instr *in = &f->t.in[i];
    if (in->kind != NC_CORE_SEND)
      continue;
    nc_op *rt = nc_core_chip_find_tile_in_slot(f->chip, in->x, in->y, in->slot);
    if (!rt || in->iter >= f->n_iters)
      return false;
    size_t ri = reader_of(f, rt);
    reader *r = &f->r[ri];
    if (ri + 1 == f->n_r) /* new: it must not receive from a producer tile already (messages match by sender) */
      for (size_t k = 0; k < r->p.n; k++)
        for (size_t j = 0; j < f->n_m; j++)
          if (r->p.in[k].kind == NC_CORE_RECV && names(&r->p.in[k], f->m[j].x, f->m[j].y, f->m[j].slot))
            return false;
    r->first[in->iter] = r->n_list;
    for (size_t j = f->group_first[in->iter]; j < f->group_first[in->iter] + f->group_count[in->iter]; j++)
      if (!r->has[j]) {
        r->has[j] = true;
        r->list[r->n_list++] = j;
        f->dests[j] = nc_xrealloc(f->dests[j], (f->n_dests[j] + 1) * sizeof **f->dests);
        f->dests[j][f->n_dests[j]++] = ri;
      }
    r->count[in->iter] = r->n_list - r->first[in->iter];
  }
  int64_t tx = nc_core_tile_get_x(f->tile), ty = nc_core_tile_get_y(f->tile), ts = nc_core_tile_get_slot(f->tile);
  for (size_t ri = 0; ri < f->n_r; ri++) /* each recv from the concat is of the activations, once per iteration */
    for (size_t k = 0; k < f->r[ri].p.n; k++) {
      const nc_core_instr *in = &f->r[ri].p.in[k];
      if (in->kind == NC_CORE_RECV && names(in, tx, ty, ts) &&
          (in->network || in->frames || in->channel_offset || in->iter >= f->n_iters))
        return false;
    }
  return true;
}

static void rewrite(nc_op *tile, const prog *p, const nc_core_instr *out, const nc_location *loc, size_t n)
{
  (void)p;
  nc_op *program = nc_core_tile_get_program(tile);
  nc_core_program_clear(program);
  for (size_t i = 0; i < n; i++)
    nc_core_program_append(program, loc[i], &out[i]);
}

static int64_t part_offset(fold *f, int64_t operand)
{
  return nc_core_concat_channel_offset(f->node, (size_t)operand);
}

static void rewrite_reader(fold *f, reader *r)
{
  size_t cap = r->p.n + r->n_list + 1, n = 0;
  nc_core_instr *out = nc_xcalloc(cap, sizeof *out);
  nc_location *loc = nc_xcalloc(cap, sizeof *loc);
  for (size_t k = 0; k < r->p.n; k++) {
    const nc_core_instr *in = &r->p.in[k];
    if (!is_recv_from(in, f->tile)) {
      out[n] = *in, loc[n++] = r->p.loc[k];
      continue;
    }
    for (size_t j = r->first[in->iter]; j < r->first[in->iter] + r->count[in->iter]; j++) {
      const msg *m = &f->m[r->list[j]];
      out[n] = (nc_core_instr){.kind = NC_CORE_RECV, .x = m->x, .y = m->y, .slot = m->slot, .operand = in->operand,
                               .iter = m->iter, .channel_offset = part_offset(f, m->operand)};
      loc[n++] = r->p.loc[k];
    }
  }
  rewrite(r->tile, &r->p, out, loc, n);
  free(out);
  free(loc);
}

/* A producer tile's sends of iteration a to the concat go to the readers of message (x, y, slot, a). */
static void rewrite_producer(fold *f, nc_op *tile)
{
  int64_t tx = nc_core_tile_get_x(f->tile), ty = nc_core_tile_get_y(f->tile), ts = nc_core_tile_get_slot(f->tile);
  int64_t px = nc_core_tile_get_x(tile), py = nc_core_tile_get_y(tile), ps = nc_core_tile_get_slot(tile);
  prog p;
  prog_read(tile, &p);
  size_t cap = p.n + 1, n = 0;
  for (size_t j = 0; j < f->n_m; j++)
    if (f->m[j].x == px && f->m[j].y == py && f->m[j].slot == ps)
      cap += f->n_dests[j];
  nc_core_instr *out = nc_xcalloc(cap, sizeof *out);
  nc_location *loc = nc_xcalloc(cap, sizeof *loc);
  for (size_t k = 0; k < p.n; k++) {
    const nc_core_instr *in = &p.in[k];
    if (in->kind != NC_CORE_SEND || !names(in, tx, ty, ts)) {
      out[n] = *in, loc[n++] = p.loc[k];
      continue;
    }
    for (size_t j = 0; j < f->n_m; j++) {
      if (f->m[j].x != px || f->m[j].y != py || f->m[j].slot != ps || f->m[j].iter != in->iter)
        continue;
      for (size_t d = 0; d < f->n_dests[j]; d++) {
        const nc_op *rt = f->r[f->dests[j][d]].tile;
        out[n] = *in;
        out[n].x = nc_core_tile_get_x(rt);
        out[n].y = nc_core_tile_get_y(rt);
        out[n].slot = nc_core_tile_get_slot(rt);
        loc[n++] = p.loc[k];
      }
      break;
    }
  }
  rewrite(tile, &p, out, loc, n);
  free(out);
  free(loc);
  prog_free(&p);
}

static void fold_free(fold *f)
{
  prog_free(&f->t);
  for (size_t i = 0; i < f->n_r; i++) {
    prog_free(&f->r[i].p);
    free(f->r[i].has), free(f->r[i].first), free(f->r[i].count), free(f->r[i].list);
  }
  for (size_t j = 0; j < f->n_m; j++)
    free(f->dests ? f->dests[j] : NULL);
  free(f->r), free(f->m), free(f->group_first), free(f->group_count), free(f->dests), free(f->n_dests);
}

/* Folds node's one tile away; false (nothing changed) if it cannot. */
static bool fold_node(nc_op *chip, nc_op *node)
{
  const char *name = nc_dataflow_node_get_name(node);
  nc_op *tile = NULL;
  for (nc_op *t = nc_core_chip_first_tile(chip); t; t = nc_core_tile_next(t))
    if (!strcmp(nc_core_tile_get_node(t), name)) {
      if (tile)
        return false; /* split over tiles */
      tile = t;
    }
  int64_t lo, hi;
  if (!tile || nc_core_tile_get_out_channels(tile, &lo, &hi) || nc_core_tile_get_out_rows(tile, &lo, &hi) ||
      nc_core_tile_get_replica(tile, &lo, &hi) || nc_core_tile_get_x(tile) < 0)
    return false;
  fold f = {.chip = chip, .node = node, .tile = tile};
  prog_read(tile, &f.t);
  bool ok = read_concat(&f);
  if (ok) {
    f.dests = nc_xcalloc(f.n_m + 1, sizeof *f.dests);
    f.n_dests = nc_xcalloc(f.n_m + 1, sizeof *f.n_dests);
    ok = plan_readers(&f);
  }
  for (size_t j = 0; ok && j < f.n_m; j++) /* every message from a placed tile of the producer */
    ok = msg_tile(&f, &f.m[j]) != NULL && part_offset(&f, f.m[j].operand) >= 0;
  if (ok) {
    for (size_t i = 0; i < f.n_r; i++)
      rewrite_reader(&f, &f.r[i]);
    for (size_t j = 0; j < f.n_m; j++) { /* each producer tile once, at its first message */
      bool first = true;
      for (size_t k = 0; k < j && first; k++)
        first = f.m[k].x != f.m[j].x || f.m[k].y != f.m[j].y || f.m[k].slot != f.m[j].slot;
      if (first)
        rewrite_producer(&f, msg_tile(&f, &f.m[j]));
    }
    nc_op_erase(tile);
  }
  fold_free(&f);
  return ok;
}

static bool run(nc_pass *pass, nc_op *module)
{
  bool changed = false;
  for (nc_op *chip = nc_block_get_first_op(nc_module_get_body(module)); chip; chip = nc_op_get_next(chip)) {
    nc_op *fn = nc_core_is_chip(chip) ? nc_core_chip_lookup_function(chip) : NULL;
    for (nc_op *n = fn ? nc_dataflow_first_node(fn) : NULL; n; n = nc_dataflow_next_node(n)) {
      if (!nc_core_node_is_foldable_concat(n))
        continue;
      bool leaves = false;
      for (nc_use *u = nc_value_get_first_use(nc_op_get_result(n, 0)); u; u = nc_use_get_next(u))
        leaves = leaves || !nc_dataflow_is_node(nc_use_get_owner(u));
      bool done = !leaves && fold_node(chip, n);
      nc_pass_stat_add(pass, done ? 0 : 1, 1);
      changed |= done;
    }
  }
  if (!changed)
    nc_pass_mark_unchanged(pass);
  return true;
}

const nc_pass_def nc_core_fold_concat_pass = {
  .argument = "core-fold-concat",
  .name = "CoreFoldConcat",
  .group = "Core",
  .summary = "Remove the tiles of channel concats that only move data: producers send to the concat's readers",
  .description =
    "For each channel concat whose inputs it takes as they are (graph-quantize's shared concat scales) and that "
    "has one placed tile, rewrites the scheduled programs so the tiles of its producers send their iterations "
    "straight to the tiles that read the concat, each of those recvs naming the channel its part starts at "
    "(`channel_offset`), and erases the concat's tile. A reader waits for exactly the messages the concat's "
    "iteration was made of. Run after core-schedule, before core-replicate and core-multicast.",
  .anchor = "builtin.module",
  .stats = stats, .n_stats = NC_COUNTOF(stats),
  .run = run,
};
