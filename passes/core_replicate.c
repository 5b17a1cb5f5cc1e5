/* core_replicate.c: core-replicate, which copies the slowest layer's tiles
 * onto spare cores so that the copies handle alternate frames.
 *
 * A pipeline runs at the pace of its busiest core. core-place splits the
 * slow layers by output channels and rows while that pays, but a split
 * stops paying when its slices get thin (messages below the link width, halo
 * rows, the producer sending to more tiles) or when there is nothing left
 * to split (one row, one channel). Cores are often left over then. A copy of
 * a layer's tiles that handles every other frame halves the layer's cycles
 * per frame without any of those costs: each frame's data still goes to one
 * tile per slice, only to a different one. Its price is the copy's weights.
 *
 * The pass runs after core-schedule (the programs exist) and before
 * core-multicast. While the grid has spare cores, it gives the stage the
 * cost model finds slowest (cycles per frame: the share of the layer's work
 * at its width's MAC rate plus the port cycles of its sends, divided by its
 * copies) one more copy, and keeps the count of copies that gave the
 * shortest slowest stage; the host's input link, which no copy speeds up,
 * is a stage too. Each copy r of n is a clone of the tiles (`replica =
 * array<i64: r, n>`) on the free core nearest to the original; every recv
 * or send naming an original tile becomes one per copy, each with `frames
 * = array<i64: r, n>` (run on frames f with f mod n == r), leaving out the
 * copies whose frames the sender never handles; a copy's partial sums go to
 * its own copy of the reducer. Sends of one iteration are ordered by frames
 * so that core-multicast still groups them.
 */
#include <stdlib.h>
#include <string.h>

#include "core_util.h"
#include "nc/dialects/core/chip_desc.h"
#include "nc/dialects/core/core.h"
#include "nc/dialects/dataflow/dataflow.h"
#include "nc/ir/diag.h"
#include "nc/ir/pass.h"

static const nc_pass_option_def options[] = {
  {"max-replicas", NC_PASS_OPT_INT, "16", "Copies of one layer at most (1: replicate nothing)"},
  {"force", NC_PASS_OPT_INT, "0",
   "Give the slowest layer exactly this many copies when the grid has the cores (tests; 0: as the cost model "
   "says)"},
  {"multicast", NC_PASS_OPT_BOOL, "false",
   "Cost sends as core-multicast will leave them: one iteration once to all its tiles"},
};

enum { ST_LAYERS, ST_TILES, ST_BEFORE, ST_AFTER };
static const nc_pass_stat_def stats[] = {
  {"num-replicated-layers", "Layers given copies for alternate frames"},
  {"replica-tiles", "Tiles added as copies"},
  {"slowest-stage-before", "The cost model's slowest stage, cycles per frame, before"},
  {"slowest-stage-after", "The cost model's slowest stage, cycles per frame, after"},
};

/* A node's tiles (copy 0) and its copies' positions. */
typedef struct group {
  nc_op *node;
  const char *name;
  nc_op **tiles;
  size_t n;
  double cycles; /* its slowest tile's cycles per frame, one copy */
  int64_t copies;
  int64_t *pos; /* [tile][copy] -> (x, y, slot), filled when copies > 1 */
} group;

/* Cycles per frame of the host's input link: each input step once (multicast)
 * or once per tile reading it, in the rows (or pixels) the host sends. */
static double host_cycles(nc_op *chip, nc_op *fn, const nc_chip_desc *d, bool multicast, isl_ctx *ictx)
{
  double c = 0, bw = d->link_bytes_per_cycle > 0 ? (double)d->link_bytes_per_cycle : 1;
  nc_value *seen[64];
  size_t n_seen = 0;
  for (nc_op *t = nc_core_chip_first_tile(chip); t; t = nc_core_tile_next(t)) {
    nc_op *node = nc_core_find_node(fn, nc_core_tile_get_node(t));
    for (size_t o = 0, m = node ? nc_op_get_num_operands(node) : 0; o < m; o++) {
      if (nc_dataflow_node_get_producer(node, o))
        continue;
      nc_value *v = nc_op_get_operand(node, o);
      bool dup = false;
      for (size_t k = 0; k < n_seen && multicast; k++)
        dup |= seen[k] == v;
      if (dup)
        continue;
      if (n_seen < NC_COUNTOF(seen))
        seen[n_seen++] = v;
      c += core_message_cycles((double)nc_type_get_num_elements(nc_value_get_type(v)), core_host_steps(node, o, ictx),
                               bw);
    }
  }
  return c;
}

/* A core that several tiles share (core-colocate): a stage whose cycles are
 * the sum of its tiles', each divided by its group's copies. */
typedef struct shared_core {
  size_t n;
  size_t *group;  /* per tile on the core: its group */
  double *cycles; /* its cycles per frame, one copy */
} shared_core;

/* The slowest stage's cycles per frame with the copies: a group's slowest
 * tile, a shared core or the host; *which the group a copy would speed up
 * (a shared core's: its tile with the most cycles), n for the host. */
static double slowest(const group *g, size_t n, const shared_core *sc, size_t n_sc, double host, size_t *which)
{
  double most = host;
  *which = n;
  for (size_t i = 0; i < n; i++)
    if (g[i].cycles / (double)g[i].copies > most)
      most = g[i].cycles / (double)g[i].copies, *which = i;
  for (size_t i = 0; i < n_sc; i++) {
    double sum = 0, top = -1;
    size_t at = n;
    for (size_t j = 0; j < sc[i].n; j++) {
      double c = sc[i].cycles[j] / (double)g[sc[i].group[j]].copies;
      sum += c;
      if (c > top)
        top = c, at = sc[i].group[j];
    }
    if (sum > most)
      most = sum, *which = at;
  }
  return most;
}

/* --- rewriting ------------------------------------------------------------------------------------------------ */

typedef struct grid {
  int64_t rows, cols;
  core_tile_map map;  /* the copy-0 tiles by core and slot */
  int32_t *group_of;  /* per tile of the map: its group (-1: none) */
  int32_t *tile_of;   /* its index in the group */
  bool *busy;         /* per core */
} grid;

/* The free core nearest (Manhattan, then row-major) to (x, y); false if none. */
static bool nearest_free(grid *gr, int64_t x, int64_t y, int64_t *fx, int64_t *fy)
{
  int64_t best = -1;
  for (int64_t j = 0; j < gr->rows; j++)
    for (int64_t i = 0; i < gr->cols; i++) {
      if (gr->busy[j * gr->cols + i])
        continue;
      int64_t dist = (i > x ? i - x : x - i) + (j > y ? j - y : y - j);
      if (best < 0 || dist < best)
        best = dist, *fx = i, *fy = j;
    }
  return best >= 0;
}

typedef struct item {
  nc_core_instr in;
  nc_location loc;
  int64_t key; /* sends of one iteration: unconditional first, then by copy */
} item;

/* Rewrites the program of `tile` (copy a of an): every recv or send naming a
 * copy-0 tile of a replicated group names each copy whose frames meet the
 * tile's, with `frames` unless the tile's own frames imply them; a peer of
 * the tile's own group (partial sums) is the tile's own copy. */
static void rewrite_program(nc_op *tile, const group *g, const grid *gr)
{
  int64_t a, an;
  nc_core_tile_get_replica(tile, &a, &an);
  nc_op *program = nc_core_tile_get_program(tile);
  size_t n = nc_core_program_get_size(program), cap = n + 8, m = 0;
  item *out = nc_xcalloc(cap, sizeof *out);
  bool changed = false;
  size_t run = 0; /* the first item of the current run of sends of one iteration */
  for (nc_op *op = nc_block_get_first_op(nc_core_program_get_body(program)); op; op = nc_op_get_next(op)) {
    nc_core_instr in;
    if (!nc_core_instr_get(op, &in))
      continue;
    if (!(in.kind == NC_CORE_SEND && m > run && out[m - 1].in.kind == NC_CORE_SEND &&
          out[m - 1].in.iter == in.iter && out[m - 1].in.network == in.network))
      run = m;
    int32_t gi = -1, ti = -1, k;
    if ((in.kind == NC_CORE_SEND || in.kind == NC_CORE_RECV) &&
        (k = core_tile_map_find(&gr->map, in.x, in.y, in.slot)) >= 0) {
      gi = gr->group_of[k];
      ti = gr->tile_of[k];
    }
    if (gi < 0 || g[gi].copies < 2) {
      if (m == cap)
        out = nc_xrealloc(out, (cap *= 2) * sizeof *out);
      out[m++] = (item){in, nc_op_get_loc(op), -1};
      continue;
    }
    changed = true;
    const group *p = &g[gi];
    bool own = !strcmp(p->name, nc_core_tile_get_node(tile));
    for (int64_t q = 0; q < p->copies; q++) {
      if (own ? q != a : !nc_core_frames_meet(a, an, q, p->copies))
        continue;
      nc_core_instr c = in;
      c.x = p->pos[3 * ((size_t)ti * (size_t)p->copies + (size_t)q)];
      c.y = p->pos[3 * ((size_t)ti * (size_t)p->copies + (size_t)q) + 1];
      c.slot = p->pos[3 * ((size_t)ti * (size_t)p->copies + (size_t)q) + 2];
      if (!own && !nc_core_frames_imply(a, an, q, p->copies))
        c.frame = q, c.frames = p->copies;
      if (m == cap)
        out = nc_xrealloc(out, (cap *= 2) * sizeof *out);
      out[m++] = (item){c, nc_op_get_loc(op), c.frames ? q : -1};
    }
    if (in.kind == NC_CORE_SEND) /* order the run's sends by frames (stable: qsort is not, so by position too) */
      for (size_t i = run + 1; i < m; i++)
        for (size_t j = i; j > run && out[j - 1].key > out[j].key; j--) {
          item t = out[j];
          out[j] = out[j - 1], out[j - 1] = t;
        }
  }
  if (changed) {
    nc_core_program_clear(program);
    for (size_t i = 0; i < m; i++)
      nc_core_program_append(program, out[i].loc, &out[i].in);
  }
  free(out);
}

/* Clones the tiles of every group with copies > 1 onto free cores and
 * rewrites every program; false if the grid runs out (checked before). */
static bool replicate(nc_op *chip, group *g, size_t n)
{
  grid gr = {.rows = nc_core_chip_get_rows(chip), .cols = nc_core_chip_get_cols(chip)};
  size_t cells = (size_t)(gr.rows * gr.cols);
  core_tile_map_init(&gr.map, chip);
  gr.group_of = nc_xcalloc(gr.map.n + 1, sizeof *gr.group_of);
  gr.tile_of = nc_xcalloc(gr.map.n + 1, sizeof *gr.tile_of);
  gr.busy = nc_xcalloc(cells, sizeof *gr.busy);
  for (size_t i = 0; i < gr.map.n; i++)
    gr.group_of[i] = gr.tile_of[i] = -1;
  for (size_t k = 0; k < gr.map.n; k++) {
    int64_t x = nc_core_tile_get_x(gr.map.tiles[k]), y = nc_core_tile_get_y(gr.map.tiles[k]);
    if (x >= 0 && y >= 0 && x < gr.cols && y < gr.rows)
      gr.busy[y * gr.cols + x] = true;
    for (size_t i = 0; i < n && gr.group_of[k] < 0; i++)
      for (size_t j = 0; j < g[i].n; j++)
        if (g[i].tiles[j] == gr.map.tiles[k]) {
          gr.group_of[k] = (int32_t)i, gr.tile_of[k] = (int32_t)j;
          break;
        }
  }
  bool ok = true;
  for (size_t i = 0; i < n && ok; i++) {
    if (g[i].copies < 2)
      continue;
    g[i].pos = nc_xcalloc(3 * g[i].n * (size_t)g[i].copies, sizeof *g[i].pos);
    nc_op *anchor = g[i].tiles[g[i].n - 1];
    for (int64_t q = 0; q < g[i].copies && ok; q++)
      for (size_t j = 0; j < g[i].n && ok; j++) {
        nc_op *t = g[i].tiles[j];
        int64_t *p = &g[i].pos[3 * (j * (size_t)g[i].copies + (size_t)q)];
        if (q == 0) {
          p[0] = nc_core_tile_get_x(t), p[1] = nc_core_tile_get_y(t), p[2] = nc_core_tile_get_slot(t);
          nc_core_tile_set_replica(t, 0, g[i].copies);
          continue;
        }
        if (!(ok = nearest_free(&gr, nc_core_tile_get_x(t), nc_core_tile_get_y(t), &p[0], &p[1])))
          break;
        gr.busy[p[1] * gr.cols + p[0]] = true;
        nc_op *c = nc_op_clone(t, NULL);
        nc_core_tile_set_position(c, p[0], p[1]);
        nc_core_tile_set_slot(c, 0); /* alone on its free core */
        nc_core_tile_set_replica(c, q, g[i].copies);
        nc_op_insert_after(c, anchor);
        anchor = c;
      }
  }
  for (nc_op *t = nc_core_chip_first_tile(chip); t && ok; t = nc_core_tile_next(t))
    rewrite_program(t, g, &gr);
  free(gr.group_of), free(gr.tile_of), free(gr.busy);
  core_tile_map_destroy(&gr.map);
  return ok;
}

/* Copies one chip's slowest layers; *changed tells whether a copy was made. */
static bool replicate_chip(nc_pass *pass, nc_op *chip, isl_ctx *ictx, bool *changed)
{
  nc_op *fn = nc_core_chip_lookup_function(chip);
  nc_chip_desc d;
  if (!fn)
    return nc_op_emit_error(chip, "core-replicate: the chip names no function whose nodes its tiles compute");
  if (!nc_chip_desc_of_module(nc_op_get_parent_op(chip), true, &d))
    return false;
  bool multicast = nc_pass_get_option_bool(pass, "multicast");
  int64_t max_copies = nc_pass_get_option_int(pass, "max-replicas"), force = nc_pass_get_option_int(pass, "force");
  if (max_copies > NC_CORE_MAX_REPLICAS)
    max_copies = NC_CORE_MAX_REPLICAS;
  size_t n_tiles = nc_core_chip_get_num_tiles(chip), n = 0;
  group *g = nc_xcalloc(n_tiles + 1, sizeof *g);
  double *recv = nc_xcalloc(n_tiles + 1, sizeof *recv), *tc = nc_xcalloc(n_tiles + 1, sizeof *tc);
  size_t *tg = nc_xcalloc(n_tiles + 1, sizeof *tg);
  core_tile_map map;
  core_tile_map_init(&map, chip);
  core_receive_cycles(chip, &d, &map, recv);
  bool ok = true;
  size_t k = 0;
  for (nc_op *t = nc_core_chip_first_tile(chip); t && ok; t = nc_core_tile_next(t), k++) {
    int64_t r, rn;
    if (nc_core_tile_get_replica(t, &r, &rn)) {
      ok = nc_op_emit_error(t, "core-replicate: the tile is a replica already; run the pass once");
      break;
    }
    if (!nc_core_program_get_size(nc_core_tile_get_program(t))) {
      ok = nc_op_emit_error(t, "core-replicate: the tile has no program; run core-schedule first");
      break;
    }
    nc_op *node = nc_core_find_node(fn, nc_core_tile_get_node(t));
    if (!node) {
      ok = nc_op_emit_error(t, "core-replicate: the tile computes '%s', which the function does not have",
                            nc_core_tile_get_node(t));
      break;
    }
    size_t i = 0;
    while (i < n && g[i].node != node)
      i++;
    if (i == n)
      g[n++] = (group){node, nc_core_tile_get_node(t), nc_xcalloc(n_tiles, sizeof(nc_op *)), 0, 0, 1, NULL};
    g[i].tiles[g[i].n++] = t;
    double c = core_tile_cycles(t, node, &d, multicast);
    if (recv[k] > c) /* a copy receives only its frames' messages */
      c = recv[k];
    if (c > g[i].cycles)
      g[i].cycles = c;
    tc[k] = c, tg[k] = i;
  }
  /* the cores that several tiles share, and the free ones */
  int64_t spare = 0;
  shared_core *sc = nc_xcalloc((size_t)(map.rows * map.cols) + 1, sizeof *sc);
  size_t n_sc = 0;
  for (int64_t cell = 0; cell < map.rows * map.cols; cell++) {
    size_t m = 0;
    for (int32_t j = map.head[cell]; j >= 0; j = map.next[j])
      m++;
    spare += m == 0;
    if (m < 2 || !ok)
      continue;
    shared_core *c = &sc[n_sc++];
    c->group = nc_xcalloc(m, sizeof *c->group), c->cycles = nc_xcalloc(m, sizeof *c->cycles);
    for (int32_t j = map.head[cell]; j >= 0; j = map.next[j], c->n++)
      c->group[c->n] = tg[j], c->cycles[c->n] = tc[j];
  }
  double host = ok ? host_cycles(chip, fn, &d, multicast, ictx) : 0;
  size_t which;
  double before = slowest(g, n, sc, n_sc, host, &which), best = before;
  int64_t *copies = nc_xcalloc(n + 1, sizeof *copies), *best_copies = nc_xcalloc(n + 1, sizeof *best_copies);
  for (size_t i = 0; i < n; i++)
    copies[i] = best_copies[i] = 1;
  if (ok && force > 1 && which < n && (int64_t)g[which].n * (force - 1) <= spare && force <= NC_CORE_MAX_REPLICAS) {
    best_copies[which] = force; /* tests: exactly `force` copies of the slowest layer */
    g[which].copies = force;
    best = slowest(g, n, sc, n_sc, host, &which);
  } else if (ok && force <= 0) {
    /* one more copy for the slowest stage while cores remain; keep the
     * counts that gave the shortest slowest stage (ties: the fewest cores) */
    for (;;) {
      slowest(g, n, sc, n_sc, host, &which);
      if (which == n || g[which].copies >= max_copies || (int64_t)g[which].n > spare)
        break;
      spare -= (int64_t)g[which].n;
      g[which].copies++;
      copies[which] = g[which].copies;
      double after = slowest(g, n, sc, n_sc, host, &which);
      if (after < best) {
        best = after;
        memcpy(best_copies, copies, n * sizeof *copies);
      }
    }
  }
  for (size_t i = 0; i < n; i++)
    g[i].copies = best_copies[i];
  if (ok) {
    ok = replicate(chip, g, n);
    if (!ok)
      nc_op_emit_error(chip, "core-replicate: the grid has no free core for a copy");
  }
  if (ok) {
    for (size_t i = 0; i < n; i++)
      if (g[i].copies > 1) {
        *changed = true;
        nc_pass_stat_add(pass, ST_LAYERS, 1);
        nc_pass_stat_add(pass, ST_TILES, (uint64_t)(g[i].n * (size_t)(g[i].copies - 1)));
      }
    nc_pass_stat_add(pass, ST_BEFORE, (uint64_t)(before + 0.5));
    nc_pass_stat_add(pass, ST_AFTER, (uint64_t)(best + 0.5));
  }
  for (size_t i = 0; i < n; i++)
    free(g[i].tiles), free(g[i].pos);
  for (size_t i = 0; i < n_sc; i++)
    free(sc[i].group), free(sc[i].cycles);
  free(sc), free(tc), free(tg);
  core_tile_map_destroy(&map);
  free(g), free(copies), free(best_copies), free(recv);
  return ok;
}

static bool run(nc_pass *pass, nc_op *module)
{
  isl_ctx *ictx = nc_dataflow_isl_ctx_create();
  bool ok = true, changed = false;
  for (nc_op *op = nc_block_get_first_op(nc_module_get_body(module)); op && ok; op = nc_op_get_next(op))
    if (nc_core_is_chip(op))
      ok = replicate_chip(pass, op, ictx, &changed);
  nc_dataflow_isl_ctx_destroy(ictx);
  if (ok && !changed)
    nc_pass_mark_unchanged(pass);
  return ok;
}

const nc_pass_def nc_core_replicate_pass = {
  .argument = "core-replicate",
  .name = "CoreReplicate",
  .group = "Core",
  .summary = "Copy the slowest layer's tiles onto spare cores to handle alternate frames",
  .description =
    "After core-schedule and before core-multicast: while the grid has spare cores, gives the pipeline stage the "
    "cost model finds slowest (its share of the layer's work at the MAC rate plus its sends' port cycles, divided "
    "by its copies; the host's input link is a stage no copy speeds up) one more copy of all its tiles, and keeps "
    "the copy counts that gave the shortest slowest stage. Copy r of n (`core.tile replica = array<i64: r, n>`) "
    "handles frames f with f mod n == r and sits on the free core nearest to the original; every recv and send "
    "naming an original tile names each copy, with `frames = array<i64: r, n>`. `force=N` gives the slowest layer "
    "N copies (tests), `max-replicas` bounds the copies per layer.",
  .anchor = "builtin.module",
  .options = options, .n_options = NC_COUNTOF(options),
  .stats = stats, .n_stats = NC_COUNTOF(stats),
  .run = run,
};
