/* core_place.c: core-place, which gives every tile of a core.chip a grid
 * position (docs/design/spine.md, section 3).
 *
 * Simple for now (greedy, no search): first, a node whose buffers do not
 * fit one core's SRAM is split by output channels over the fewest tiles
 * whose largest slice fits (balanced slices [C*j/k, C*(j+1)/k)), at most
 * max-tiles-per-layer of them when that option is set; splitting cannot
 * shrink the input line buffers, so a node whose inputs alone overflow is
 * left whole for core-plan-memory to report. Then the tiles, in pipeline
 * order, are laid along a serpentine path (row 0 left to right, row 1 right
 * to left, ...), so consecutive layers, and the slices of a split layer,
 * sit on neighbouring cores: a chain of layers talks over single NoC hops.
 * The statistic noc-hops sums the Manhattan distance of every producer ->
 * consumer tile pair. A network with more tiles than cores is an error.
 *
 * With balance (the northpole pipeline sets it) the grid's spare cores then
 * go to the pipeline's slowest stage: cores run their layers concurrently,
 * so cycles per frame are the busiest core's; greedily, the one extra
 * output-channel split that most shortens the slowest estimated stage
 * (compute at the chip's rate plus the sends of its slice to every consumer
 * tile) is made until none helps or the cores run out.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core_util.h"
#include "nc/dialects/core/core.h"
#include "nc/dialects/dataflow/dataflow.h"
#include "nc/ir/diag.h"
#include "nc/ir/pass.h"

static const nc_pass_option_def options[] = {
  {"max-tiles-per-layer", NC_PASS_OPT_INT, "0",
   "Split a layer that does not fit one core over at most this many cores (0: as many as it needs)"},
  {"balance", NC_PASS_OPT_BOOL, "false",
   "Give the grid's spare cores, one output-channel split at a time, to the layer with the most cycles per core"},
  {"search-iterations", NC_PASS_OPT_INT, "0",
   "Moves tried by the placement search that lowers traffic x hops (0: keep the serpentine placement)"},
  {"seed", NC_PASS_OPT_INT, "1", "Seed of the placement search (the same seed, the same placement)"},
  {"remarks", NC_PASS_OPT_BOOL, "false", "With balance: a remark per layer with its cores and estimated cycles"},
};

static const nc_pass_stat_def stats[] = {
  {"num-tiles", "Number of tiles placed"},
  {"num-split-layers", "Number of layers split over several tiles"},
  {"noc-hops", "Sum of the NoC distances of all producer -> consumer tile pairs"},
  {"max-core-cycles", "Estimated cycles per frame (compute + sends) of the busiest core: the slowest pipeline stage"},
  {"stage-imbalance-pct", "Busiest core's estimated cycles over the mean core's, in percent (100: balanced)"},
  {"traffic-hops-initial", "Bytes per frame x NoC hops over all tile pairs, serpentine placement"},
  {"traffic-hops", "Bytes per frame x NoC hops over all tile pairs, final placement"},
};

static int64_t sum_bytes(const nc_core_buffer_spec *s, size_t n, bool inputs_only)
{
  int64_t t = 0;
  for (size_t i = 0; i < n; i++)
    if (!inputs_only || s[i].kind == NC_CORE_BUFFER_INPUT)
      t += s[i].bytes;
  return t;
}

/* Bytes a tile of `node` computing `s` of its channels needs. */
static bool slice_bytes(nc_op *node, int64_t s, isl_ctx *ictx, int64_t *bytes)
{
  nc_core_buffer_spec *specs;
  size_t n;
  char err[512];
  if (!core_node_buffers(node, 0, s, ictx, &specs, &n, err, sizeof err))
    return nc_op_emit_error(node, "core-place: %s", err);
  *bytes = sum_bytes(specs, n, false);
  free(specs);
  return true;
}

/* The number of tiles for a node needing `whole` bytes with `fixed` of them
 * in unsplittable input buffers. */
static bool choose_split(nc_op *node, int64_t whole, int64_t fixed, int64_t sram, int64_t max_tiles, isl_ctx *ictx,
                         int64_t *k)
{
  int64_t c = nc_core_node_get_out_channels(node);
  *k = 1;
  if (whole <= sram || c <= 1 || fixed >= sram)
    return true;
  int64_t limit = max_tiles > 0 && max_tiles < c ? max_tiles : c;
  int64_t room = sram - fixed, guess = (whole - fixed) / room + ((whole - fixed) % room != 0); /* channel-proportional */
  for (*k = guess < 2 ? 2 : guess; *k < limit; ++*k) {
    int64_t bytes;
    if (!slice_bytes(node, (c + *k - 1) / *k, ictx, &bytes))
      return false;
    if (bytes <= sram)
      return true;
  }
  *k = limit;
  return true;
}

/* Splits the (single, whole) tile of a node into k slices, in place. */
static bool split_tile(nc_op *tile, nc_op *node, int64_t k, isl_ctx *ictx)
{
  int64_t c = nc_core_node_get_out_channels(node);
  nc_op *prev = tile;
  for (int64_t j = 0; j < k; j++) {
    int64_t lo = c * j / k, hi = c * (j + 1) / k;
    nc_core_buffer_spec *specs;
    size_t n;
    char err[512];
    if (!core_node_buffers(node, lo, hi, ictx, &specs, &n, err, sizeof err))
      return nc_op_emit_error(node, "core-place: %s", err);
    nc_op *t = tile;
    if (j == 0) {
      nc_core_tile_set_out_channels(tile, lo, hi);
      nc_core_tile_clear_buffers(tile);
    } else {
      t = nc_core_tile_create(nc_op_get_parent_op(tile), nc_op_get_loc(tile), nc_core_tile_get_node(tile), -1, -1,
                              lo, hi);
      nc_op_move_after(t, prev);
      prev = t;
    }
    for (size_t i = 0; i < n; i++)
      nc_core_tile_add_buffer(t, specs[i].name, specs[i].kind, specs[i].bytes, -1);
    free(specs);
  }
  return true;
}

static size_t tiles_of(nc_op *chip, const char *node)
{
  size_t n = 0;
  for (nc_op *t = nc_core_chip_first_tile(chip); t; t = nc_core_tile_next(t))
    n += !strcmp(nc_core_tile_get_node(t), node);
  return n;
}

static bool split_nodes(nc_pass *pass, nc_op *chip, nc_op *fn, isl_ctx *ictx)
{
  int64_t sram = nc_core_chip_get_sram_bytes(chip), max_tiles = nc_pass_get_option_int(pass, "max-tiles-per-layer");
  for (nc_op *t = nc_core_chip_first_tile(chip); t; t = nc_core_tile_next(t)) {
    nc_op *node = nc_core_find_node(fn, nc_core_tile_get_node(t));
    if (!node)
      return nc_op_emit_error(t, "core-place: the chip's function has no node '%s'", nc_core_tile_get_node(t));
    int64_t lo, hi;
    if (nc_core_tile_get_out_channels(t, &lo, &hi) || tiles_of(chip, nc_core_tile_get_node(t)) > 1)
      continue; /* split already (by an earlier run or by hand) */
    int64_t whole = 0, fixed = 0, k;
    for (nc_op *b = nc_core_tile_first_buffer(t); b; b = nc_core_buffer_next(b)) {
      int64_t bytes = nc_core_buffer_get_bytes(b); /* sums saturate: hand-written sizes may be absurd */
      whole = whole > INT64_MAX - bytes ? INT64_MAX : whole + bytes;
      if (nc_core_buffer_get_kind(b) == NC_CORE_BUFFER_INPUT)
        fixed = fixed > INT64_MAX - bytes ? INT64_MAX : fixed + bytes;
    }
    if (!choose_split(node, whole, fixed, sram, max_tiles, ictx, &k))
      return false;
    if (k > 1) {
      if (!split_tile(t, node, k, ictx))
        return false;
      nc_pass_stat_add(pass, 1, 1);
    }
  }
  return true;
}


/* --- balancing ------------------------------------------------------------------------------------------- */

/* A layer's estimated compute per frame in MAC-equivalents (the simulator's
 * cost: MACs for a conv or matmul, one vector op per window element of a
 * pool, per element otherwise) and whether output-channel slices divide it
 * (a conv of group 1 or a matmul: the slices that SRAM splitting makes). */
static int64_t layer_work(nc_op *node, bool *splittable, int64_t *out_bytes)
{
  nc_dataflow_layer l;
  *splittable = false;
  *out_bytes = 0;
  if (!nc_dataflow_node_get_layer(node, &l) || nc_op_get_num_results(node) != 1)
    return 0;
  int64_t dims[NC_MAX_RANK], elems = 1;
  int n = nc_dataflow_tensor_coords(nc_value_get_type(nc_op_get_result(node, 0)), dims);
  for (int i = 0; i < n; i++)
    elems = dims[i] > 0 && elems <= INT64_MAX / dims[i] ? elems * dims[i] : INT64_MAX;
  *out_bytes = elems; /* at 8 bits: an estimate */
  int64_t per = 1, macs = nc_dataflow_node_get_macs(node);
  if ((l.kind == NC_DATAFLOW_LAYER_CONV || l.kind == NC_DATAFLOW_LAYER_MATMUL) && macs > 0) {
    *splittable = l.kind == NC_DATAFLOW_LAYER_MATMUL || l.group == 1;
    return macs;
  }
  if (l.kernel[0] > 0 && l.kernel[1] > 0)
    per = l.kernel[0] * l.kernel[1];
  return elems <= INT64_MAX / per ? elems * per : INT64_MAX;
}

typedef struct layer_alloc {
  nc_op *node, *first_tile;
  int64_t work, out_bytes, channels, k, max_k;
  bool splittable;
} layer_alloc;

typedef struct cost_model {
  int64_t rate, link; /* MACs per cycle per core, NoC link bytes per cycle */
} cost_model;

static int64_t ceil_div(int64_t a, int64_t b) { return a / b + (a % b != 0); }

/* The estimated cycles per frame of the busiest tile of layer i: its largest
 * output-channel slice's compute (the simulator's rate) plus its port's
 * time sending that slice to every tile of every consumer (a consumer
 * split by output channels reads all its input channels on each tile). */
static int64_t layer_cycles(const layer_alloc *a, size_t m, size_t i, const cost_model *cm)
{
  const layer_alloc *l = &a[i];
  int64_t widest = l->channels > 0 ? ceil_div(l->channels, l->k) : 1;
  int64_t work = l->channels > 0 ? l->work / l->channels * widest : l->work;
  int64_t bytes = l->channels > 0 ? l->out_bytes / l->channels * widest : l->out_bytes, fanout = 0;
  for (size_t j = 0; j < m; j++)
    for (size_t o = 0, n = nc_op_get_num_operands(a[j].node); o < n; o++)
      if (nc_dataflow_node_get_producer(a[j].node, o) == l->node)
        fanout += a[j].k;
  return ceil_div(work, cm->rate) + ceil_div(bytes, cm->link) * fanout;
}

static int64_t slowest_layer(const layer_alloc *a, size_t m, const cost_model *cm)
{
  int64_t worst = 0;
  for (size_t i = 0; i < m; i++) {
    int64_t c = layer_cycles(a, m, i, cm);
    worst = c > worst ? c : worst;
  }
  return worst;
}

/* The next tile count above l->k whose widest slice is narrower, or 0. */
static int64_t next_split(const layer_alloc *l)
{
  if (!l->splittable || l->k >= l->max_k)
    return 0;
  int64_t widest = ceil_div(l->channels, l->k), k = l->k + 1;
  while (k < l->max_k && ceil_div(l->channels, k) >= widest)
    k++;
  return ceil_div(l->channels, k) < widest ? k : 0;
}

/* Cores are the pipeline's stages: cycles per frame are the busiest core's.
 * Greedy: while cores remain, the one extra split (of any layer) that most
 * shortens the slowest stage is made; none shortening it ends the search.
 * Splitting a consumer lengthens its producers' sends, which the estimate
 * counts. More slices only shrink weights and outputs, so a split that fit
 * SRAM still fits. */
static bool balance_chip(nc_pass *pass, nc_op *chip, nc_op *fn, isl_ctx *ictx)
{
  size_t n = 0;
  for (nc_op *t = nc_core_chip_first_tile(chip); t; t = nc_core_tile_next(t))
    n++;
  layer_alloc *a = calloc(n ? n : 1, sizeof *a);
  size_t m = 0;
  int64_t used = 0, max_tiles = nc_pass_get_option_int(pass, "max-tiles-per-layer");
  for (nc_op *t = nc_core_chip_first_tile(chip); t; t = nc_core_tile_next(t), used++) {
    const char *name = nc_core_tile_get_node(t);
    size_t i = 0;
    while (i < m && strcmp(nc_dataflow_node_get_name(a[i].node), name))
      i++;
    if (i < m) {
      a[i].k++;
      continue;
    }
    a[m].node = nc_core_find_node(fn, name);
    a[m].first_tile = t;
    a[m].work = layer_work(a[m].node, &a[m].splittable, &a[m].out_bytes);
    a[m].channels = nc_core_node_get_out_channels(a[m].node);
    a[m].splittable = a[m].splittable && a[m].channels > 1;
    a[m].k = 1;
    a[m].max_k = max_tiles > 0 && max_tiles < a[m].channels ? max_tiles : a[m].channels;
    m++;
  }
  nc_chip_desc desc;
  cost_model cm = {1, 1};
  nc_op *module = nc_op_get_parent_op(chip);
  if (module && nc_chip_desc_of_module(module, false, &desc)) {
    cm.rate = nc_chip_desc_macs_per_cycle(&desc, 8) > 0 ? nc_chip_desc_macs_per_cycle(&desc, 8) : 1;
    cm.link = desc.link_bytes_per_cycle > 0 ? desc.link_bytes_per_cycle : 1;
  }
  int64_t cores = nc_core_chip_get_rows(chip) * nc_core_chip_get_cols(chip);
  for (int64_t slowest = slowest_layer(a, m, &cm); used < cores;) {
    size_t best = m;
    int64_t best_k = 0, best_cost = slowest;
    for (size_t i = 0; i < m; i++) {
      int64_t k = next_split(&a[i]), old = a[i].k;
      if (!k || used + (k - old) > cores)
        continue;
      a[i].k = k;
      int64_t c = slowest_layer(a, m, &cm);
      a[i].k = old;
      if (c < best_cost)
        best = i, best_k = k, best_cost = c;
    }
    if (best == m)
      break;
    used += best_k - a[best].k;
    a[best].k = best_k;
    slowest = best_cost;
  }
  int64_t slowest = 0, total = 0;
  bool ok = true;
  for (size_t i = 0; i < m && ok; i++) {
    size_t have = tiles_of(chip, nc_dataflow_node_get_name(a[i].node));
    if ((int64_t)have != a[i].k) { /* a new split of a layer whole or split for SRAM */
      nc_op *t = a[i].first_tile;
      for (nc_op *next; (next = nc_core_tile_next(t)) && !strcmp(nc_core_tile_get_node(next), nc_core_tile_get_node(t));)
        nc_op_erase(next);
      if ((ok = split_tile(t, a[i].node, a[i].k, ictx)) && have == 1)
        nc_pass_stat_add(pass, 1, 1);
    }
    int64_t c = layer_cycles(a, m, i, &cm);
    slowest = c > slowest ? c : slowest;
    total += c * a[i].k;
    if (nc_pass_get_option_bool(pass, "remarks"))
      nc_op_emit_remark(a[i].node, "core-place: %lld core(s), about %lld cycles per core per frame",
                        (long long)a[i].k, (long long)c);
  }
  free(a);
  if (ok && m) {
    nc_pass_stat_add(pass, 3, (uint64_t)slowest);
    int64_t mean = total / (used > 0 ? used : 1);
    nc_pass_stat_add(pass, 4, (uint64_t)(mean > 0 ? slowest * 100 / mean : 100));
  }
  return ok;
}

static int64_t manhattan(nc_op *a, nc_op *b)
{
  return llabs(nc_core_tile_get_x(a) - nc_core_tile_get_x(b)) + llabs(nc_core_tile_get_y(a) - nc_core_tile_get_y(b));
}

static int64_t noc_hops(nc_op *chip, nc_op *fn)
{
  int64_t hops = 0;
  for (nc_op *c = nc_core_chip_first_tile(chip); c; c = nc_core_tile_next(c)) {
    nc_op *node = nc_core_find_node(fn, nc_core_tile_get_node(c));
    for (size_t i = 0, n = node ? nc_op_get_num_operands(node) : 0; i < n; i++) {
      nc_op *producer = nc_dataflow_node_get_producer(node, i);
      for (nc_op *p = nc_core_chip_first_tile(chip); p && producer; p = nc_core_tile_next(p))
        if (!strcmp(nc_core_tile_get_node(p), nc_dataflow_node_get_name(producer)))
          hops += manhattan(p, c);
    }
  }
  return hops;
}


/* --- placement search ------------------------------------------------------------------------------------ */

/* One producer tile -> consumer tile channel and its bytes per frame (the
 * producer's slice of its output: every consumer tile receives all of it);
 * tile n is the host, which sends the network's inputs and receives the
 * outputs of layers no node reads. */
typedef struct edge {
  size_t from, to;
  int64_t bytes;
} edge;

/* Cell -1 is the host, one hop beyond the corner tile (0, 0). */
static int64_t edge_cost(const edge *e, const int64_t *cell, int64_t cols)
{
  int64_t a = cell[e->from], b = cell[e->to];
  if (a < 0 || b < 0)
    return a < 0 && b < 0 ? 0 : e->bytes * ((a < 0 ? b : a) % cols + (a < 0 ? b : a) / cols + 1);
  return e->bytes * (llabs(a % cols - b % cols) + llabs(a / cols - b / cols));
}

static uint64_t next_random(uint64_t *state) /* xorshift64*: deterministic for a seed */
{
  *state ^= *state >> 12, *state ^= *state << 25, *state ^= *state >> 27;
  return *state * 2685821657736338717ull;
}

/* The cost change of swapping the contents of cells ca and cb (tile or -1). */
static int64_t swap_delta(const edge *e, size_t n_e, const size_t *inc, const size_t *inc_start, int64_t *cell,
                          int64_t cols, int64_t ta, int64_t tb, int64_t ca, int64_t cb)
{
  int64_t before = 0, after = 0;
  for (int pass = 0; pass < 2; pass++) {
    int64_t *sum = pass ? &after : &before;
    if (pass) {
      if (ta >= 0) cell[ta] = cb;
      if (tb >= 0) cell[tb] = ca;
    }
    for (int side = 0; side < 2; side++) {
      int64_t t = side ? tb : ta;
      for (size_t k = t >= 0 ? inc_start[t] : 0; t >= 0 && k < inc_start[t + 1]; k++) {
        const edge *x = &e[inc[k]];
        if (side && ta >= 0 && (x->from == (size_t)ta || x->to == (size_t)ta))
          continue; /* counted with ta */
        *sum += edge_cost(x, cell, cols);
      }
    }
  }
  if (ta >= 0) cell[ta] = ca;
  if (tb >= 0) cell[tb] = cb;
  (void)n_e;
  return after - before;
}

/* Simulated annealing over tile positions from the serpentine placement:
 * swap a random tile with a random cell (empty or not); a worse state is
 * accepted with probability exp(-delta / T), T falling linearly to 0; the
 * best state seen is kept, so the result is never worse than the start. */
static void search_placement(nc_pass *pass, nc_op *chip, nc_op *fn)
{
  int64_t rows = nc_core_chip_get_rows(chip), cols = nc_core_chip_get_cols(chip);
  int64_t iters = nc_pass_get_option_int(pass, "search-iterations");
  size_t n = nc_core_chip_get_num_tiles(chip), n_e = 0, cap = 16;
  nc_op **tiles = calloc(n + 1, sizeof *tiles);
  int64_t *cell = calloc(n + 1, sizeof *cell), *best = calloc(n + 1, sizeof *best);
  int64_t *owner = malloc((size_t)(rows * cols) * sizeof *owner);
  edge *e = malloc(cap * sizeof *e);
  size_t i = 0;
  for (nc_op *t = nc_core_chip_first_tile(chip); t; t = nc_core_tile_next(t), i++)
    tiles[i] = t, cell[i] = nc_core_tile_get_y(t) * cols + nc_core_tile_get_x(t);
  for (size_t c = 0; c < n; c++) {
    nc_op *node = nc_core_find_node(fn, nc_core_tile_get_node(tiles[c]));
    bool read = false;
    for (nc_op *m = nc_dataflow_first_node(fn); m && node && !read; m = nc_dataflow_next_node(m))
      for (size_t o = 0, no = nc_op_get_num_operands(m); o < no && !read; o++)
        read = nc_dataflow_node_get_producer(m, o) == node;
    for (size_t o = 0, no = node ? nc_op_get_num_operands(node) : 0; o <= no && node; o++) {
      nc_op *producer = o < no ? nc_dataflow_node_get_producer(node, o) : NULL;
      if (o == no && read)
        break;
      if (!producer) { /* a network input, or (o == no) an output: host traffic */
        bool split;
        int64_t bytes, lo, hi, ch = nc_core_node_get_out_channels(node);
        layer_work(node, &split, &bytes);
        if (o < no) {
          int64_t d[NC_MAX_RANK], k = nc_dataflow_tensor_coords(nc_value_get_type(nc_op_get_operand(node, o)), d);
          bytes = 1;
          for (int64_t j = 0; j < k; j++)
            bytes *= d[j] > 0 ? d[j] : 1;
        } else if (ch > 0 && nc_core_tile_get_out_channels(tiles[c], &lo, &hi))
          bytes = bytes / ch * (hi - lo);
        if (n_e == cap)
          e = realloc(e, (cap *= 2) * sizeof *e);
        e[n_e++] = o < no ? (edge){n, c, bytes > 0 ? bytes : 1} : (edge){c, n, bytes > 0 ? bytes : 1};
        continue;
      }
      for (size_t p = 0; p < n && producer; p++) {
        if (strcmp(nc_core_tile_get_node(tiles[p]), nc_dataflow_node_get_name(producer)))
          continue;
        bool split;
        int64_t bytes, lo, hi, ch = nc_core_node_get_out_channels(producer);
        layer_work(producer, &split, &bytes);
        if (ch > 0 && nc_core_tile_get_out_channels(tiles[p], &lo, &hi))
          bytes = bytes / ch * (hi - lo);
        if (n_e == cap)
          e = realloc(e, (cap *= 2) * sizeof *e);
        e[n_e++] = (edge){p, c, bytes > 0 ? bytes : 1};
      }
    }
  }
  cell[n] = -1;
  size_t *inc_start = calloc(n + 2, sizeof *inc_start), *inc = malloc((2 * n_e + 1) * sizeof *inc);
  for (size_t k = 0; k < n_e; k++)
    inc_start[e[k].from + 1]++, inc_start[e[k].to + 1]++;
  for (size_t k = 0; k <= n; k++)
    inc_start[k + 1] += inc_start[k];
  size_t *fill = calloc(n + 2, sizeof *fill);
  for (size_t k = 0; k < n_e; k++) {
    inc[inc_start[e[k].from] + fill[e[k].from]++] = k;
    inc[inc_start[e[k].to] + fill[e[k].to]++] = k;
  }
  int64_t cost = 0;
  for (size_t k = 0; k < n_e; k++)
    cost += edge_cost(&e[k], cell, cols);
  nc_pass_stat_add(pass, 5, (uint64_t)cost);
  for (int64_t c = 0; c < rows * cols; c++)
    owner[c] = -1;
  for (size_t k = 0; k < n; k++)
    owner[cell[k]] = (int64_t)k;
  memcpy(best, cell, (n + 1) * sizeof *cell);
  int64_t best_cost = cost, t0 = n_e ? cost / (int64_t)n_e + 1 : 1;
  uint64_t state = (uint64_t)nc_pass_get_option_int(pass, "seed") * 0x9E3779B97F4A7C15ull + 1;
  for (int64_t it = 0; it < iters && n > 1; it++) {
    int64_t ta = (int64_t)(next_random(&state) % n), cb = (int64_t)(next_random(&state) % (uint64_t)(rows * cols));
    int64_t ca = cell[ta], tb = owner[cb];
    if (cb == ca)
      continue;
    int64_t d = swap_delta(e, n_e, inc, inc_start, cell, cols, ta, tb, ca, cb);
    double temp = (double)t0 * (double)(iters - it) / (double)iters;
    double u = (double)(next_random(&state) >> 11) / 9007199254740992.0;
    if (d > 0 && !(temp > 0 && u < exp(-(double)d / temp)))
      continue;
    cell[ta] = cb, owner[cb] = ta, owner[ca] = tb;
    if (tb >= 0)
      cell[tb] = ca;
    cost += d;
    if (cost < best_cost)
      best_cost = cost, memcpy(best, cell, (n + 1) * sizeof *cell);
  }
  for (size_t k = 0; k < n; k++)
    nc_core_tile_set_position(tiles[k], best[k] % cols, best[k] / cols);
  nc_pass_stat_add(pass, 6, (uint64_t)best_cost);
  free(tiles), free(cell), free(best), free(owner), free(e), free(inc_start), free(inc), free(fill);
}

static bool place_chip(nc_pass *pass, nc_op *chip, isl_ctx *ictx)
{
  nc_op *fn = nc_core_chip_lookup_function(chip);
  if (!fn)
    return nc_op_emit_error(chip, "core-place: the chip names no function whose nodes its tiles compute "
                                  "(dataflow-to-core sets `function`)");
  for (nc_op *t = nc_core_chip_first_tile(chip); t; t = nc_core_tile_next(t))
    if (nc_core_program_get_size(nc_core_tile_get_program(t)))
      return nc_op_emit_error(t, "core-place: the tile already has a program; place tiles before core-schedule");
  if (!split_nodes(pass, chip, fn, ictx))
    return false;
  if (nc_pass_get_option_bool(pass, "balance") && !balance_chip(pass, chip, fn, ictx))
    return false;
  int64_t rows = nc_core_chip_get_rows(chip), cols = nc_core_chip_get_cols(chip);
  int64_t n = (int64_t)nc_core_chip_get_num_tiles(chip);
  if (rows <= 0 || cols <= 0 || n / cols + (n % cols != 0) > rows) { /* n > rows * cols, without overflow */
    nc_diag *d = nc_op_diag_error(chip, "core-place: the network needs %lld cores but the %lldx%lld grid has %lld",
                                  (long long)n, (long long)rows, (long long)cols, (long long)rows * cols);
    nc_diag_attach_note(d, nc_op_get_loc(chip),
                        "use a bigger grid (the chip description's \"grid\", or dataflow-to-core{rows=R cols=C}) "
                        "or split fewer layers (a chip with more SRAM per core)");
    nc_diag_emit(d);
    return false;
  }
  int64_t i = 0;
  for (nc_op *t = nc_core_chip_first_tile(chip); t; t = nc_core_tile_next(t), i++) {
    int64_t y = i / cols, x = y % 2 ? cols - 1 - i % cols : i % cols;
    nc_core_tile_set_position(t, x, y);
  }
  search_placement(pass, chip, fn);
  nc_pass_stat_add(pass, 0, (uint64_t)n);
  nc_pass_stat_add(pass, 2, (uint64_t)noc_hops(chip, fn));
  return true;
}

static bool run(nc_pass *pass, nc_op *module)
{
  isl_ctx *ictx = isl_ctx_alloc();
  bool ok = true;
  for (nc_op *op = nc_block_get_first_op(nc_module_get_body(module)); op && ok; op = nc_op_get_next(op))
    if (nc_core_is_chip(op))
      ok = place_chip(pass, op, ictx);
  isl_ctx_free(ictx);
  return ok;
}

const nc_pass_def nc_core_place_pass = {
  .argument = "core-place",
  .name = "CorePlace",
  .group = "Core",
  .summary = "Place tiles on the core grid (greedy serpentine), splitting layers that do not fit a core",
  .description =
    "Greedy for now. Splits each layer whose buffers exceed a core's SRAM by output channels over the fewest "
    "tiles whose largest slice fits (at most `max-tiles-per-layer`, 0 for no limit; a layer whose input line "
    "buffers alone overflow is left whole: splitting cannot help, core-plan-memory reports it), then lays the "
    "tiles in pipeline order along a serpentine path through the grid (row 0 left to right, row 1 right to "
    "left, ...) so that consecutive layers are NoC neighbours. Fails if the network needs more cores than the "
    "grid has. With `balance`, the grid's spare cores are then given greedily, one output-channel split at a "
    "time (convs of group 1 and matmuls), to the split that most shortens the slowest estimated pipeline stage "
    "(a tile's compute at the chip's MACs per cycle plus its port's time sending its slice to every consumer "
    "tile); statistics max-core-cycles and stage-imbalance-pct report the result, `remarks` a line per layer.",
  .anchor = "builtin.module",
  .options = options, .n_options = NC_COUNTOF(options),
  .stats = stats, .n_stats = NC_COUNTOF(stats),
  .run = run,
};
