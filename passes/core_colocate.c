/* core_colocate.c: core-colocate, which puts light tiles on the cores of
 * the tiles they exchange data with, so that the cores they free can hold
 * copies of the heavy layers (core-replicate).
 *
 * core-place gives every tile a core of its own. A network with about as
 * many layers as cores (densenet121: 251 layers, 256 cores) then has no core
 * left to speed up its heavy layers, while its pools, concats and small
 * convs leave their cores idle most of each frame. Tiles sharing a core run
 * interleaved within a frame (the core runs whichever of its tiles can go
 * on; core.tile `slot`), so the core's cycles per frame are the sum of its
 * tiles': light tiles can share a core as long as that sum stays below the
 * pipeline's slowest stage.
 *
 * The pass runs after core-schedule (it moves tiles and renames the peers
 * of recvs and sends, the programs are otherwise unchanged) and before
 * core-replicate. With the cost model core-replicate uses (a tile's work at
 * its MAC rate plus its sends' port cycles, or its receive cycles), it looks
 * for the shortest stage B that copies could bring every layer under with
 * the cores left free: a layer of c cycles needs ceil(c / B) - 1 more copies
 * of its tiles; the cores for them are the spare ones plus those freed by
 * packing tiles of at most B cycles, lightest first, each alone on its core
 * and moved onto the core of a tile it sends to or receives from whose
 * cycles (summed over its tiles) stay at most B and whose tiles' buffers
 * still fit the SRAM together (their sizes summed, as core-plan-memory
 * lays them out one after the other). A message between two tiles of one
 * core is a local copy (core_send_cycles: no port, no link), so a tile adds
 * to a core its cycles less what its messages with the tiles there save.
 * It packs only as many tiles as the copies need. `force=N` co-locates the N lightest tiles that fit anywhere
 * (tests), whatever the cost model says.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core_util.h"
#include "nc/dialects/core/chip_desc.h"
#include "nc/dialects/core/core.h"
#include "nc/ir/diag.h"
#include "nc/ir/pass.h"

static const nc_pass_option_def options[] = {
  {"force", NC_PASS_OPT_INT, "0",
   "Co-locate exactly this many tiles, the lightest first, wherever their buffers fit (tests; 0: as the cost "
   "model says)"},
  {"max-tiles-per-core", NC_PASS_OPT_INT, "8", "The most tiles one core holds"},
  {"max-replicas", NC_PASS_OPT_INT, "16", "The most copies core-replicate makes of a layer (its max-replicas)"},
  {"multicast", NC_PASS_OPT_BOOL, "false",
   "Cost sends as core-multicast will leave them: one iteration once to all its tiles"},
};

enum { ST_TILES, ST_FREED, ST_TARGET };
static const nc_pass_stat_def stats[] = {
  {"num-colocated-tiles", "Tiles moved onto another tile's core"},
  {"cores-freed", "Cores left free for core-replicate's copies"},
  {"target-stage", "The slowest stage (cycles per frame) the packing aims at, 0 if none"},
};

/* One tile and its core's state while packing. */
typedef struct ctile {
  nc_op *op;
  size_t group;     /* its node's index */
  double cycles;    /* per frame, one copy */
  int64_t bytes;    /* its buffers, summed */
  int64_t base;     /* as a host: the bytes and tiles its core holds before packing (other slots too) */
  size_t base_count;
  size_t *peers;    /* the tiles it sends to or receives from */
  double *save;     /* per peer: the cycles their messages to each other save on one core (local copies) */
  size_t n_peers;
  size_t host;      /* the tile whose core it is on (itself unless moved) */
  double load;      /* as a host: the cycles of the tiles on its core */
  int64_t used;     /* as a host: their bytes */
  size_t count;     /* as a host: their number */
} ctile;

typedef struct packing {
  ctile *t;
  size_t n;
  int64_t sram, max_per_core;
  bool multicast; /* sends of one iteration leave as one multicast (core-multicast) */
} packing;

static void reset(packing *p)
{
  for (size_t i = 0; i < p->n; i++)
    p->t[i].host = i, p->t[i].load = p->t[i].cycles, p->t[i].used = p->t[i].base, p->t[i].count = p->t[i].base_count;
}

static int by_cycles(const void *a, const void *b, void *userData)
{
  const ctile *t = userData;
  size_t i = *(const size_t *)a, j = *(const size_t *)b;
  if (t[i].cycles != t[j].cycles)
    return t[i].cycles < t[j].cycles ? -1 : 1;
  return i < j ? -1 : i > j;
}

/* The cycles tile i would add to the core of host tile h: its own, less
 * what its messages to and from the tiles there save as local copies. */
static double added_load(const packing *p, size_t i, size_t h)
{
  double c = p->t[i].cycles;
  for (size_t k = 0; k < p->t[i].n_peers; k++)
    if (p->t[p->t[i].peers[k]].host == h)
      c -= p->t[i].save[k];
  return c > 0 ? c : 0;
}

/* The core (host tile) tile i can join under `cap` cycles (any with cap < 0),
 * or p->n: the least loaded of its peers' cores once it joins, ties to the
 * first peer; *add is what it adds there. */
static size_t best_host(const packing *p, size_t i, double cap, double *add)
{
  size_t best = p->n;
  for (size_t k = 0; k < p->t[i].n_peers; k++) {
    size_t h = p->t[p->t[i].peers[k]].host;
    const ctile *c = &p->t[h];
    if (h == i || (int64_t)c->count >= p->max_per_core || c->used > p->sram - p->t[i].bytes)
      continue;
    double a = added_load(p, i, h);
    if ((cap >= 0 && c->load + a > cap) || (best != p->n && c->load + a >= p->t[best].load + *add))
      continue;
    best = h, *add = a;
  }
  return best;
}

/* Packs tiles of at most `cap` cycles (any, cap < 0), lightest first, until
 * `want` cores are free; returns how many it freed. */
static size_t pack(packing *p, const size_t *order, double cap, size_t want)
{
  size_t freed = 0;
  reset(p);
  for (size_t k = 0; k < p->n && freed < want; k++) {
    size_t i = order[k];
    ctile *t = &p->t[i];
    if (t->host != i || t->count != 1 || (cap >= 0 && t->cycles > cap))
      continue;
    double add = 0;
    size_t h = best_host(p, i, cap, &add);
    if (h == p->n)
      continue;
    t->host = h, t->count = 0;
    p->t[h].load += add, p->t[h].used += t->bytes, p->t[h].count++;
    freed++;
  }
  return freed;
}

/* Copies core-replicate would need to bring every layer under `cap`; -1 if
 * a layer would need more than max_copies. */
static int64_t copies_needed(const packing *p, size_t n_groups, double cap, int64_t max_copies)
{
  double *most = nc_xcalloc(n_groups + 1, sizeof *most);
  int64_t *tiles = nc_xcalloc(n_groups + 1, sizeof *tiles), need = 0;
  for (size_t i = 0; i < p->n; i++) {
    size_t g = p->t[i].group;
    tiles[g]++;
    if (p->t[i].cycles > most[g])
      most[g] = p->t[i].cycles;
  }
  for (size_t g = 0; g < n_groups && need >= 0; g++) {
    int64_t copies = (int64_t)ceil(most[g] / cap);
    need = copies > max_copies ? -1 : need + tiles[g] * (copies - 1);
  }
  free(most), free(tiles);
  return need;
}

/* Renames the peers that moved in the program of `tile`. */
static void rename_peers(nc_op *tile, const core_tile_map *before, const int64_t *now, const bool *moved)
{
  nc_op *program = nc_core_tile_get_program(tile);
  size_t n = nc_core_program_get_size(program), m = 0;
  nc_core_instr *ins = nc_xcalloc(n + 1, sizeof *ins);
  nc_location *locs = nc_xcalloc(n + 1, sizeof *locs);
  bool changed = false;
  for (nc_op *op = nc_block_get_first_op(nc_core_program_get_body(program)); op; op = nc_op_get_next(op)) {
    if (!nc_core_instr_get(op, &ins[m]))
      continue;
    locs[m] = nc_op_get_loc(op);
    nc_core_instr *in = &ins[m++];
    int32_t k;
    if ((in->kind == NC_CORE_RECV || in->kind == NC_CORE_SEND) &&
        (k = core_tile_map_find(before, in->x, in->y, in->slot)) >= 0 && moved[k]) {
      in->x = now[3 * k], in->y = now[3 * k + 1], in->slot = now[3 * k + 2];
      changed = true;
    }
  }
  if (changed) {
    nc_core_program_clear(program);
    for (size_t i = 0; i < m; i++)
      nc_core_program_append(program, locs[i], &ins[i]);
  }
  free(ins), free(locs);
}

/* Moves every packed tile to its host's core, in the core's next free slot,
 * and renames it in every recv and send. */
static size_t apply(nc_op *chip, packing *p)
{
  core_tile_map before;
  core_tile_map_init(&before, chip); /* its tiles are p->t's, in the same (chip) order */
  int64_t *now = nc_xcalloc(3 * p->n + 1, sizeof *now), *next_slot = nc_xcalloc(p->n + 1, sizeof *next_slot);
  bool *moved = nc_xcalloc(p->n + 1, sizeof *moved);
  size_t n_moved = 0;
  for (size_t i = 0; i < p->n; i++) /* after every slot its core holds (core-place's guests) */
    for (size_t j = 0; j < p->n; j++)
      if (nc_core_tile_get_x(p->t[j].op) == nc_core_tile_get_x(p->t[i].op) &&
          nc_core_tile_get_y(p->t[j].op) == nc_core_tile_get_y(p->t[i].op) &&
          nc_core_tile_get_slot(p->t[j].op) + 1 > next_slot[i])
        next_slot[i] = nc_core_tile_get_slot(p->t[j].op) + 1;
  for (size_t i = 0; i < p->n; i++) {
    nc_op *t = p->t[i].op, *h = p->t[p->t[i].host].op;
    if (p->t[i].host != i) {
      nc_core_tile_set_position(t, nc_core_tile_get_x(h), nc_core_tile_get_y(h));
      nc_core_tile_set_slot(t, next_slot[p->t[i].host]++);
      moved[i] = true, n_moved++;
    }
    now[3 * i] = nc_core_tile_get_x(t), now[3 * i + 1] = nc_core_tile_get_y(t);
    now[3 * i + 2] = nc_core_tile_get_slot(t);
  }
  for (size_t i = 0; i < p->n && n_moved; i++)
    rename_peers(p->t[i].op, &before, now, moved);
  core_tile_map_destroy(&before);
  free(now), free(next_slot), free(moved);
  return n_moved;
}

/* The index of tile k among tile i's peers, or its number of peers. */
static size_t peer_index(const ctile *t, size_t k)
{
  size_t j = 0;
  while (j < t->n_peers && t->peers[j] != k)
    j++;
  return j;
}

/* Adds to the savings of tile i and its peers what each of i's messages
 * (a send, or a multicast group, to one peer tile only) saves when that
 * peer shares i's core: its port cycles less its local copy's. */
static void add_savings(packing *p, size_t i, const core_tile_map *map, const nc_chip_desc *d)
{
  ctile *t = &p->t[i];
  nc_op *program = nc_core_tile_get_program(t->op);
  int64_t x = nc_core_tile_get_x(t->op), y = nc_core_tile_get_y(t->op);
  nc_core_instr in, prev = {0};
  bool have_prev = false;
  for (nc_op *op = nc_block_get_first_op(nc_core_program_get_body(program)); op; op = nc_op_get_next(op)) {
    if (!nc_core_instr_get(op, &in))
      continue;
    bool grouped = have_prev && in.kind == NC_CORE_SEND && prev.iter == in.iter && prev.network == in.network;
    nc_op *next = nc_op_get_next(op);
    nc_core_instr after;
    bool more = next && nc_core_instr_get(next, &after) && after.kind == NC_CORE_SEND && after.iter == in.iter &&
                after.network == in.network && after.x != NC_CORE_HOST;
    int32_t k;
    if (in.kind == NC_CORE_SEND && in.x != NC_CORE_HOST && !(p->multicast && (grouped || more)) &&
        (k = core_tile_map_find(map, in.x, in.y, in.slot)) >= 0 && (size_t)k != i) {
      double s = core_send_cycles(d, x, y, x + 1, y, in.bytes) - core_send_cycles(d, x, y, x, y, in.bytes);
      size_t a = peer_index(t, (size_t)k), b = peer_index(&p->t[k], i);
      if (a < t->n_peers)
        t->save[a] += s;
      if (b < p->t[k].n_peers)
        p->t[k].save[b] += s;
    }
    have_prev = in.kind == NC_CORE_SEND && in.x != NC_CORE_HOST;
    prev = in;
  }
}

/* The tiles, their cycles, bytes, groups and peers. */
static bool collect(nc_op *chip, nc_op *fn, const nc_chip_desc *d, bool multicast, packing *p, size_t *n_groups)
{
  core_tile_map map;
  core_tile_map_init(&map, chip);
  p->n = map.n;
  p->t = nc_xcalloc(p->n + 1, sizeof *p->t);
  double *recv = nc_xcalloc(p->n + 1, sizeof *recv);
  core_receive_cycles(chip, d, &map, recv);
  nc_op **nodes = nc_xcalloc(p->n + 1, sizeof *nodes);
  bool ok = true;
  *n_groups = 0;
  for (size_t i = 0; i < p->n && ok; i++) {
    nc_op *t = map.tiles[i], *node = nc_core_find_node(fn, nc_core_tile_get_node(t));
    int64_t r, rn;
    if (!node)
      ok = nc_op_emit_error(t, "core-colocate: the tile computes '%s', which the function does not have",
                            nc_core_tile_get_node(t));
    else if (nc_core_tile_get_replica(t, &r, &rn))
      ok = nc_op_emit_error(t, "core-colocate: the tile is a replica; run core-colocate before core-replicate");
    else if (nc_core_tile_get_x(t) < 0 || !nc_core_program_get_size(nc_core_tile_get_program(t)))
      ok = nc_op_emit_error(t, "core-colocate: the tile has no core or no program; run core-place and "
                               "core-schedule first");
    if (!ok)
      break;
    ctile *c = &p->t[i];
    c->op = t;
    c->group = 0;
    while (c->group < *n_groups && nodes[c->group] != node)
      c->group++;
    if (c->group == *n_groups)
      nodes[(*n_groups)++] = node;
    c->cycles = core_tile_cycles(t, node, d, multicast);
    if (recv[i] > c->cycles)
      c->cycles = recv[i];
    c->bytes = core_tile_bytes(t);
    c->peers = nc_xcalloc(nc_core_program_get_size(nc_core_tile_get_program(t)) + 1, sizeof *c->peers);
    c->save = nc_xcalloc(nc_core_program_get_size(nc_core_tile_get_program(t)) + 1, sizeof *c->save);
    for (nc_op *op = nc_block_get_first_op(nc_core_program_get_body(nc_core_tile_get_program(t))); op;
         op = nc_op_get_next(op)) {
      nc_core_instr in;
      int32_t k;
      if (!nc_core_instr_get(op, &in) || (in.kind != NC_CORE_RECV && in.kind != NC_CORE_SEND) ||
          (k = core_tile_map_find(&map, in.x, in.y, in.slot)) < 0)
        continue;
      bool seen = false;
      for (size_t j = 0; j < c->n_peers && !seen; j++)
        seen = c->peers[j] == (size_t)k;
      if (!seen)
        c->peers[c->n_peers++] = (size_t)k;
    }
  }
  for (size_t i = 0; i < p->n && ok; i++)
    add_savings(p, i, &map, d);
  for (size_t i = 0; i < p->n; i++) {
    p->t[i].base = p->t[i].bytes, p->t[i].base_count = 1;
    size_t shared = core_tile_map_count(&map, nc_core_tile_get_x(map.tiles[i]), nc_core_tile_get_y(map.tiles[i]));
    if (!nc_core_tile_get_slot(map.tiles[i]) && shared <= 1)
      continue;
    p->t[i].n_peers = 0; /* tiles sharing a core already stay where they are, */
    p->t[i].base_count = shared; /* and only slot 0 takes more, in the SRAM all of them leave */
    if (nc_core_tile_get_slot(map.tiles[i])) {
      p->t[i].base = p->sram;
      continue;
    }
    for (size_t j = 0; j < p->n; j++)
      if (j != i && nc_core_tile_get_x(map.tiles[j]) == nc_core_tile_get_x(map.tiles[i]) &&
          nc_core_tile_get_y(map.tiles[j]) == nc_core_tile_get_y(map.tiles[i]))
        p->t[i].base += p->t[j].bytes;
  }
  core_tile_map_destroy(&map);
  free(recv), free(nodes);
  return ok;
}

/* Packs one chip's tiles; *changed tells whether a tile moved. */
static bool colocate_chip(nc_pass *pass, nc_op *chip, bool *changed)
{
  nc_op *fn = nc_core_chip_lookup_function(chip);
  nc_chip_desc d;
  if (!fn)
    return nc_op_emit_error(chip, "core-colocate: the chip names no function whose nodes its tiles compute");
  if (!nc_chip_desc_of_module(nc_op_get_parent_op(chip), true, &d))
    return false;
  int64_t force = nc_pass_get_option_int(pass, "force"), max_copies = nc_pass_get_option_int(pass, "max-replicas");
  packing p = {.sram = nc_core_chip_get_sram_bytes(chip), .max_per_core = nc_pass_get_option_int(pass, "max-tiles-per-core"),
               .multicast = nc_pass_get_option_bool(pass, "multicast")};
  if (p.max_per_core > NC_CORE_MAX_SLOTS)
    p.max_per_core = NC_CORE_MAX_SLOTS;
  size_t n_groups = 0;
  bool ok = collect(chip, fn, &d, nc_pass_get_option_bool(pass, "multicast"), &p, &n_groups);
  size_t *order = nc_xcalloc(p.n + 1, sizeof *order);
  for (size_t i = 0; i < p.n; i++)
    order[i] = i;
  qsort_r(order, p.n, sizeof *order, by_cycles, p.t);
  double target = 0;
  size_t freed = 0;
  if (ok && force > 0) {
    freed = pack(&p, order, -1, (size_t)force);
  } else if (ok && p.n > 1) {
    /* the shortest stage B the free and freed cores let copies reach: B
     * from the slowest tile down, 1% of B at a time (a step in the slowest
     * tile's percent would be coarse where B ends far below it: densenet121's
     * stem tile is 6x its B, and 2% of it skipped 2.3k cycles) */
    size_t free_cores = 0, cells = (size_t)(nc_core_chip_get_rows(chip) * nc_core_chip_get_cols(chip)), used = 0;
    core_tile_map map;
    core_tile_map_init(&map, chip);
    for (size_t c = 0; c < cells; c++)
      used += map.head[c] >= 0;
    core_tile_map_destroy(&map);
    free_cores = cells - used;
    double top = p.t[order[p.n - 1]].cycles, best = 0;
    for (double cap = top * 0.99; cap > top * 0.02; cap *= 0.99) {
      int64_t need = copies_needed(&p, n_groups, cap, max_copies);
      if (need < 0)
        break;
      if ((size_t)need <= free_cores) {
        best = cap;
        continue;
      }
      if (pack(&p, order, cap, (size_t)need - free_cores) < (size_t)need - free_cores)
        break;
      best = cap;
    }
    if (best > 0) {
      int64_t need = copies_needed(&p, n_groups, best, max_copies);
      target = best;
      freed = (size_t)need > free_cores ? pack(&p, order, best, (size_t)need - free_cores) : (reset(&p), 0);
    }
  }
  if (ok && freed) {
    size_t moved = apply(chip, &p);
    *changed |= moved > 0;
    nc_pass_stat_add(pass, ST_TILES, moved);
    nc_pass_stat_add(pass, ST_FREED, moved);
  }
  nc_pass_stat_add(pass, ST_TARGET, (uint64_t)(target + 0.5));
  for (size_t i = 0; i < p.n; i++)
    free(p.t[i].peers), free(p.t[i].save);
  free(p.t), free(order);
  return ok;
}

static bool run(nc_pass *pass, nc_op *module)
{
  bool ok = true, changed = false;
  for (nc_op *op = nc_block_get_first_op(nc_module_get_body(module)); op && ok; op = nc_op_get_next(op))
    if (nc_core_is_chip(op))
      ok = colocate_chip(pass, op, &changed);
  if (ok && !changed)
    nc_pass_mark_unchanged(pass);
  return ok;
}

const nc_pass_def nc_core_colocate_pass = {
  .argument = "core-colocate",
  .name = "CoreColocate",
  .group = "Core",
  .summary = "Put light tiles on the cores of the tiles they exchange data with, freeing cores for copies",
  .description =
    "After core-schedule and before core-replicate: finds the shortest slowest stage B (cycles per frame, "
    "core-replicate's cost model) that copies of the layers above B could reach with the grid's free cores plus "
    "the cores freed by packing tiles of at most B cycles, lightest first, each onto the core of a tile it sends "
    "to or receives from, while that core's summed cycles stay at most B and its tiles' buffers fit its SRAM "
    "together; then packs just as many tiles as the copies need. A moved tile keeps its program and takes the "
    "core's next `slot`; every recv and send naming it follows. The core runs its tiles interleaved, whichever "
    "can go on first. `force=N` co-locates the N lightest tiles that fit (tests).",
  .anchor = "builtin.module",
  .options = options, .n_options = NC_COUNTOF(options),
  .stats = stats, .n_stats = NC_COUNTOF(stats),
  .run = run,
};
