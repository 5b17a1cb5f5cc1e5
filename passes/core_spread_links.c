/* core_spread_links.c: core-spread-links, which moves whole cores around
 * the grid, after every tile's program is written, so that the busiest mesh
 * links carry less.
 *
 * Why after scheduling: core-place's search sees layers, not messages. It
 * counts every producer tile sending its whole slice to every consumer tile,
 * which a row band does not (a band sends its rows to the one or two bands
 * that read them), and it runs before core-replicate and core-colocate, whose
 * copies take the free cores nearest their originals. The networks whose
 * ceiling is the host's input link (a 224x224x3 image, ~4,700 cycles per
 * frame) then lose to one link into a stem layer: squeezenet1_1's conv1
 * bands sent 790 KB per frame to a max pool, all four bands of a copy over
 * the same last link (8,471 busy cycles per frame, the run 9,228). The
 * programs know exactly what travels: each send's bytes, its frames, its
 * multicast group, and each recv from the host (a step of the input). This
 * pass loads every directed link with the cycles per frame (bytes over the
 * link width, per message, weighted by the frames it runs on) of the XY
 * routes the simulator takes (a multicast's route tree once; the host one
 * hop beyond (0, 0)), then tries random swaps of two cells' cores (a core
 * moves with all its slots; an empty cell is a cell too) and keeps a swap
 * when it lowers the sum of the links' loads to the fourth power, which
 * weighs the busiest links most without a flat plateau. Only positions
 * change: `x`, `y` of the tiles and every recv's `from` / send's `to`.
 *
 * Costs are integers (a flow's cycles per frame times the lcm of the
 * flows' frame periods), so a link's load is exact whatever order flows
 * come and go in, and a swap's change of the sum of fourth powers is exact
 * (128 bits). That lets a swap re-route only the links that change. An XY
 * route tree is a few runs of links: in the source's row one run east and
 * one west, in each column one run south and one north of the source's row.
 * Each flow keeps the runs' ends (its `extent`); a swap recomputes the
 * extents of the swapped cores' flows (one pass over their destinations, no
 * bit set) and loads only the difference of each run that changed (a
 * destination moving in a 63-destination tree changes a few links, not the
 * whole tree). Applying a difference as a removal and an addition of the
 * same link gives the same loads, so the swaps kept are the same either way.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core_util.h"
#include "nc/dialects/core/chip_desc.h"
#include "nc/dialects/core/core.h"
#include "nc/dialects/dataflow/dataflow.h"
#include "nc/ir/pass.h"
#include "nc/support/base.h"

/* The search's innermost steps, called per link of every re-routed flow:
 * inlined into move_tree, their calls cost a fifth of the pass. */
#if defined(__GNUC__)
#define HOT static inline __attribute__((always_inline))
#else
#define HOT static inline
#endif

static const nc_pass_option_def options[] = {
  {"iterations", NC_PASS_OPT_INT, "20000", "Swaps of two cells' cores tried (0: none)"},
  {"seed", NC_PASS_OPT_INT, "1", "Seed of the swaps (the same seed, the same placement)"},
};

enum { ST_LOAD_INITIAL, ST_LOAD, ST_MOVES, ST_TOTAL_INITIAL, ST_TOTAL };

static const nc_pass_stat_def stats[] = {
  {"max-link-cycles-initial", "Cycles per frame of the busiest mesh link, before the swaps"},
  {"max-link-cycles", "Cycles per frame of the busiest mesh link, after them"},
  {"swaps", "Swaps kept"},
  {"total-link-cycles-initial", "Cycles per frame summed over the mesh links (traffic x hops), before the swaps"},
  {"total-link-cycles", "Cycles per frame summed over the mesh links, after them"},
};

/* One message stream: a source core (-1: the host, entering at (0, 0)) to
 * one or more destination cores (a multicast: its route tree loads each link
 * once), `num` / `period` cycles per frame on each link of it (`cost` in
 * the search's integer units), on one network. */
typedef struct flow {
  int64_t src;
  size_t dst, n_dst; /* into the destination list */
  int network;
  int64_t num, period, cost;
} flow;

typedef unsigned __int128 u128;

typedef struct spread {
  int64_t rows, cols, cells, n_cores;
  int64_t *cell;   /* per core: its cell */
  int64_t *owner;  /* per cell: its core or -1 */
  flow *flows;
  size_t n_flows, cap_flows;
  int64_t *dsts;
  size_t n_dsts, cap_dsts;
  size_t *inc, *inc_start; /* per core: the flows it sends or receives */
  double scale;            /* cost units per cycle per frame */
  int64_t *load;           /* per directed link and network: cycles per frame, in cost units */
  size_t words;            /* of an extent: EXT_COLS plus two per column */
  int32_t *cx, *cy;        /* per cell: its column and row (no division per destination) */
  int32_t *kx, *ky;        /* per core: its cell's column and row (kept with `cell`) */
  int32_t *extent;         /* per flow: its route tree's runs (see route_extent) */
  size_t *touched;         /* links a swap changed */
  int64_t *saved;
  size_t n_touched, cap_touched;
  uint32_t *tstamp, ttick;
} spread;

static int64_t core_of(const spread *s, int64_t x, int64_t y)
{
  if (x < 0 || y < 0 || x >= s->cols || y >= s->rows)
    return -1;
  return s->owner[y * s->cols + x];
}

static int cmp_i64_dst(const void *a, const void *b)
{
  int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
  return (x > y) - (x < y);
}

static void add_flow(spread *s, int64_t src, const int64_t *dst, size_t n_dst, int network, int64_t num,
                     int64_t period)
{
  if (n_dst == 0 || num <= 0)
    return;
  if (s->n_flows == s->cap_flows) {
    s->cap_flows = s->cap_flows ? 2 * s->cap_flows : 256;
    s->flows = nc_xrealloc(s->flows, s->cap_flows * sizeof *s->flows);
  }
  while (s->n_dsts + n_dst > s->cap_dsts) {
    s->cap_dsts = s->cap_dsts ? 2 * s->cap_dsts : 1024;
    s->dsts = nc_xrealloc(s->dsts, s->cap_dsts * sizeof *s->dsts);
  }
  memcpy(s->dsts + s->n_dsts, dst, n_dst * sizeof *dst);
  qsort(s->dsts + s->n_dsts, n_dst, sizeof *dst, cmp_i64_dst);
  s->flows[s->n_flows++] = (flow){src, s->n_dsts, n_dst, network, num, period, 0};
  s->n_dsts += n_dst;
}

/* Frames: does a tile copy (r of n; n = 1: every frame) with an instruction
 * running on frames (fr of fn; fn = 0: all the tile's) take frame f? */
static bool runs_on(int64_t r, int64_t n, int64_t fr, int64_t fn, int64_t f)
{
  return f % n == r && (fn <= 0 || f % fn == fr);
}

static int64_t gcd64(int64_t a, int64_t b)
{
  while (b)
    a %= b, a ^= b, b ^= a, a ^= b;
  return a;
}

/* A send group of `tile` (a run of sends, every one but the last marked
 * multicast): per frame of the period, the destinations that take it. */
static void add_send_group(spread *s, int64_t src, int64_t r, int64_t n, const nc_core_instr *in, size_t k,
                           double bw)
{
  int64_t period = n, dst[64];
  for (size_t i = 0; i < k; i++)
    if (in[i].frames > 0)
      period = period / gcd64(period, in[i].frames) * in[i].frames;
  int64_t num = (int64_t)ceil((double)in[0].bytes / bw);
  for (int64_t f = 0; f < period; f++) {
    size_t m = 0;
    for (size_t i = 0; i < k && m < 64; i++) {
      int64_t c = in[i].x == NC_CORE_HOST ? -1 : core_of(s, in[i].x, in[i].y); /* outputs to the host: small */
      if (c >= 0 && c != src && runs_on(r, n, in[i].frame, in[i].frames, f))
        dst[m++] = c;
    }
    add_flow(s, src, dst, m, (int)in[0].network, num, period);
  }
}

/* One input step the host sends: the tiles (cores) that receive it, per frame. */
typedef struct host_recv {
  int64_t operand_key; /* the network input (its block argument's address, as an integer) */
  int64_t iter, core, r, n, fr, fn;
  double bytes;
} host_recv;

static int cmp_host_recv(const void *a, const void *b)
{
  const host_recv *x = a, *y = b;
  if (x->operand_key != y->operand_key)
    return x->operand_key < y->operand_key ? -1 : 1;
  return x->iter < y->iter ? -1 : x->iter > y->iter;
}

static const spread *sort_spread;
static int cmp_flow(const void *a, const void *b)
{
  const flow *x = a, *y = b;
  if (x->src != y->src)
    return x->src < y->src ? -1 : 1;
  if (x->network != y->network)
    return x->network < y->network ? -1 : 1;
  if (x->n_dst != y->n_dst)
    return x->n_dst < y->n_dst ? -1 : 1;
  for (size_t i = 0; i < x->n_dst; i++) {
    int64_t p = sort_spread->dsts[x->dst + i], q = sort_spread->dsts[y->dst + i];
    if (p != q)
      return p < q ? -1 : 1;
  }
  return 0;
}

/* The integer cost unit: the lcm of the flows' periods (every num / period
 * then a whole number of units), unless a link's fourth power could then
 * overflow 128 bits in a swap's sum (all flows on one link, every link so):
 * then units of the largest power of two of a cycle (at most 2^20) that
 * fit, costs rounded. */
static void set_costs(spread *s)
{
  int64_t lcm = 1;
  double total = 0;
  for (size_t f = 0; f < s->n_flows; f++) {
    int64_t p = s->flows[f].period;
    lcm = lcm > (INT64_C(1) << 40) / p ? INT64_C(1) << 41 : lcm / gcd64(lcm, p) * p;
    total += (double)s->flows[f].num / (double)p;
  }
  double links = (double)s->cells * 8 + 1, limit = floor(pow(ldexp(1, 126) / links, 0.25)) - 1;
  double scale = (double)lcm;
  if (lcm > (INT64_C(1) << 40) || total * scale > limit)
    for (scale = 0x1p20; total * scale > limit && scale > 0x1p-20; scale /= 2)
      ;
  s->scale = scale;
  bool exact = scale == (double)lcm;
  for (size_t f = 0; f < s->n_flows; f++) {
    flow *fl = &s->flows[f];
    fl->cost = exact ? fl->num * (lcm / fl->period) : llround((double)fl->num * scale / (double)fl->period);
  }
}

/* One flow per source, network and destination set (a row band sends each
 * of its rows the same way): the swaps re-route fewer of them. */
static void merge_flows(spread *s)
{
  size_t m = 0;
  sort_spread = s;
  if (s->n_flows)
    qsort(s->flows, s->n_flows, sizeof *s->flows, cmp_flow);
  for (size_t i = 0; i < s->n_flows; i++) {
    if (m && !cmp_flow(&s->flows[m - 1], &s->flows[i]))
      s->flows[m - 1].cost += s->flows[i].cost;
    else
      s->flows[m++] = s->flows[i];
  }
  s->n_flows = m;
}

static bool collect(spread *s, nc_op *chip, nc_op *fn, double bw)
{
  isl_ctx *ictx = isl_ctx_alloc();
  host_recv *hr = NULL;
  size_t n_hr = 0, cap_hr = 0;
  nc_core_instr *group = nc_xmalloc(64 * sizeof *group);
  nc_value *step_of = NULL;
  nc_op *step_node = NULL;
  double step = 0;
  for (nc_op *t = nc_core_chip_first_tile(chip); t; t = nc_core_tile_next(t)) {
    int64_t src = core_of(s, nc_core_tile_get_x(t), nc_core_tile_get_y(t)), r = 0, n = 1;
    nc_core_tile_get_replica(t, &r, &n);
    nc_op *program = nc_core_tile_get_program(t), *node = fn ? nc_core_find_node(fn, nc_core_tile_get_node(t)) : NULL;
    size_t k = 0;
    for (nc_op *op = program ? nc_block_get_first_op(nc_core_program_get_body(program)) : NULL; op;
         op = nc_op_get_next(op)) {
      nc_core_instr in;
      if (!nc_core_instr_get(op, &in))
        continue;
      if (in.kind == NC_CORE_SEND) {
        if (k < 64)
          group[k++] = in;
        if (!in.multicast || in.x == NC_CORE_HOST) {
          add_send_group(s, src, r, n, group, k, bw);
          k = 0;
        }
      } else if (in.kind == NC_CORE_RECV && in.x == NC_CORE_HOST && node && (size_t)in.operand < nc_op_get_num_operands(node)) {
        nc_value *v = nc_op_get_operand(node, (size_t)in.operand);
        if (n_hr == cap_hr)
          hr = nc_xrealloc(hr, (cap_hr = cap_hr ? 2 * cap_hr : 256) * sizeof *hr);
        if (v != step_of || node != step_node) /* one isl count per tile and input */
          step_of = v, step_node = node,
          step = (double)nc_type_get_num_elements(nc_value_get_type(v)) /
                 (double)core_input_steps(node, (size_t)in.operand, ictx);
        hr[n_hr++] = (host_recv){(int64_t)(intptr_t)v, in.iter, src, r, n, in.frame, in.frames, step};
      }
    }
  }
  /* the host's steps: one multicast (host_multicast) per step and frame to the tiles taking it */
  bool host_mc = nc_op_get_attr_str(chip, "host_multicast") != NULL;
  if (n_hr) /* qsort of a null array: undefined even when empty */
    qsort(hr, n_hr, sizeof *hr, cmp_host_recv);
  int64_t dst[256];
  for (size_t i = 0, j; i < n_hr; i = j) {
    int64_t period = 1;
    for (j = i; j < n_hr && hr[j].operand_key == hr[i].operand_key && hr[j].iter == hr[i].iter; j++) {
      period = period / gcd64(period, hr[j].n) * hr[j].n;
      if (hr[j].fn > 0)
        period = period / gcd64(period, hr[j].fn) * hr[j].fn;
    }
    int64_t num = (int64_t)ceil(hr[i].bytes / bw);
    for (int64_t f = 0; f < period; f++) {
      size_t m = 0;
      for (size_t q = i; q < j && m < 256; q++)
        if (runs_on(hr[q].r, hr[q].n, hr[q].fr, hr[q].fn, f)) {
          if (host_mc)
            dst[m++] = hr[q].core;
          else
            add_flow(s, -1, &hr[q].core, 1, 0, num, period);
        }
      add_flow(s, -1, dst, m, 0, num, period);
    }
  }
  free(hr);
  free(group);
  isl_ctx_free(ictx);
  set_costs(s);
  merge_flows(s);
  return true;
}

/* Adds `cost` to link l's load; records the link's load before its first
 * change in this swap. */
HOT void touch(spread *s, size_t l, int64_t cost)
{
  if (s->tstamp[l] != s->ttick) {
    s->tstamp[l] = s->ttick;
    if (s->n_touched == s->cap_touched) {
      s->cap_touched = s->cap_touched ? 2 * s->cap_touched : 256;
      s->touched = nc_xrealloc(s->touched, s->cap_touched * sizeof *s->touched);
      s->saved = nc_xrealloc(s->saved, s->cap_touched * sizeof *s->saved);
    }
    s->touched[s->n_touched] = l, s->saved[s->n_touched++] = s->load[l];
  }
  s->load[l] += cost;
}

/* An extent, the runs of a flow's XY route tree: the source's column and
 * row (ext[EXT_X], ext[EXT_Y]); in its row the links out of columns
 * [x, right) eastwards and (left, x] westwards; in column c the links out of
 * rows [y, down) southwards and (up, y] northwards, down = ext[EXT_COLS +
 * 2c], up = ext[EXT_COLS + 2c + 1] (both y in a column no destination is
 * in). A destination's path is the row's run to its column, then its
 * column's run to its row. */
enum { EXT_X, EXT_Y, EXT_RIGHT, EXT_LEFT, EXT_COLS };

/* Writes flow f's extent into ext. */
static void route_extent(const spread *s, const flow *f, int32_t *ext)
{
  int32_t ax = f->src < 0 ? 0 : s->kx[f->src], ay = f->src < 0 ? 0 : s->ky[f->src], right = ax, left = ax;
  int32_t *col = ext + EXT_COLS;
  for (int64_t c = 0; c < s->cols; c++)
    col[2 * c] = col[2 * c + 1] = ay;
  const int64_t *dst = s->dsts + f->dst;
  for (size_t d = 0; d < f->n_dst; d++) {
    int32_t bx = s->kx[dst[d]], by = s->ky[dst[d]];
    right = bx > right ? bx : right;
    left = bx < left ? bx : left;
    col[2 * bx] = by > col[2 * bx] ? by : col[2 * bx];
    col[2 * bx + 1] = by < col[2 * bx + 1] ? by : col[2 * bx + 1];
  }
  ext[EXT_X] = ax, ext[EXT_Y] = ay, ext[EXT_RIGHT] = right, ext[EXT_LEFT] = left;
}

/* Adds `cost` to the links out of cells first, first + step, ... (n of
 * them) in direction dir on network net. */
HOT void touch_run(spread *s, int64_t first, int64_t step, int64_t n, int64_t dir, int64_t net, int64_t cost)
{
  for (int64_t i = 0; i < n; i++)
    touch(s, (size_t)(((first + i * step) * 4 + dir) * 2 + net), cost);
}

/* Moves a run of a line of links from [lo0, hi0) to [lo1, hi1) (positions
 * along the line: the link at position p leaves cell base + p * step):
 * -cost on the links only the old run has, +cost on those only the new one
 * has. */
HOT void move_run(spread *s, int64_t base, int64_t step, int64_t dir, int64_t net, int64_t cost, int64_t lo0,
                     int64_t hi0, int64_t lo1, int64_t hi1)
{
  if (lo0 < lo1)
    touch_run(s, base + lo0 * step, step, (lo1 < hi0 ? lo1 : hi0) - lo0, dir, net, -cost);
  if (lo1 < lo0)
    touch_run(s, base + lo1 * step, step, (lo0 < hi1 ? lo0 : hi1) - lo1, dir, net, cost);
  int64_t a = hi1 > lo0 ? hi1 : lo0, b = hi0 > lo1 ? hi0 : lo1;
  if (hi0 > hi1)
    touch_run(s, base + a * step, step, hi0 - a, dir, net, -cost);
  if (hi1 > hi0)
    touch_run(s, base + b * step, step, hi1 - b, dir, net, cost);
}

/* Loads the difference between a flow's route tree of extent `old` (NULL:
 * none) and that of extent `now`: `cost` per link on network net. */
static void move_tree(spread *s, const int32_t *old, const int32_t *now, int64_t net, int64_t cost)
{
  int64_t cols = s->cols, y = now[EXT_Y], x = now[EXT_X];
  if (!old || old[EXT_Y] != y) { /* the row's runs are on another line: all of them move */
    if (old) {
      int64_t oy = old[EXT_Y], ox = old[EXT_X];
      touch_run(s, oy * cols + ox, 1, old[EXT_RIGHT] - ox, 0, net, -cost);
      touch_run(s, oy * cols + old[EXT_LEFT] + 1, 1, ox - old[EXT_LEFT], 1, net, -cost);
    }
    touch_run(s, y * cols + x, 1, now[EXT_RIGHT] - x, 0, net, cost);
    touch_run(s, y * cols + now[EXT_LEFT] + 1, 1, x - now[EXT_LEFT], 1, net, cost);
  } else {
    move_run(s, y * cols, 1, 0, net, cost, old[EXT_X], old[EXT_RIGHT], x, now[EXT_RIGHT]);
    move_run(s, y * cols, 1, 1, net, cost, old[EXT_LEFT] + 1, old[EXT_X] + 1, now[EXT_LEFT] + 1, x + 1);
  }
  int64_t c0 = now[EXT_LEFT], c1 = now[EXT_RIGHT]; /* the columns with a destination, before or after */
  if (old)
    c0 = old[EXT_LEFT] < c0 ? old[EXT_LEFT] : c0, c1 = old[EXT_RIGHT] > c1 ? old[EXT_RIGHT] : c1;
  for (int64_t c = c0; c <= c1; c++) {
    const int32_t *o = old ? old + EXT_COLS + 2 * c : NULL, *n = now + EXT_COLS + 2 * c;
    int64_t oy = old ? old[EXT_Y] : y, od = o ? o[0] : y, ou = o ? o[1] : y;
    if (o && od == n[0] && ou == n[1] && oy == y)
      continue;
    move_run(s, c, cols, 2, net, cost, oy, od, y, n[0]);
    move_run(s, c, cols, 3, net, cost, ou + 1, oy + 1, n[1] + 1, y + 1);
  }
}

static u128 weight(int64_t load)
{
  uint64_t q = (uint64_t)load * (uint64_t)load;
  return (u128)q * q;
}

static int64_t max_load(const spread *s)
{
  int64_t m = 0;
  for (int64_t l = 0; l < s->cells * 8; l++)
    m = s->load[l] > m ? s->load[l] : m;
  return m;
}

static int64_t total_load(const spread *s)
{
  int64_t t = 0;
  for (int64_t l = 0; l < s->cells * 8; l++)
    t += s->load[l];
  return t;
}

static void swap_cells(spread *s, int64_t ca, int64_t cb)
{
  int64_t a = s->owner[ca], b = s->owner[cb];
  s->owner[ca] = b, s->owner[cb] = a;
  if (a >= 0)
    s->cell[a] = cb, s->kx[a] = s->cx[cb], s->ky[a] = s->cy[cb];
  if (b >= 0)
    s->cell[b] = ca, s->kx[b] = s->cx[ca], s->ky[b] = s->cy[ca];
}

static uint64_t next_random(uint64_t *state) /* xorshift64*: deterministic for a seed */
{
  *state ^= *state >> 12, *state ^= *state << 25, *state ^= *state >> 27;
  return *state * 2685821657736338717ull;
}

/* Re-routes the flows of core a or core b (each once) after their swap: each
 * flow's new extent goes to `next` (their indices to `changed`), its tree's
 * difference from the old one onto the loads. Returns how many. */
static size_t reroute_cores(spread *s, int64_t a, int64_t b, uint32_t *fstamp, uint32_t tick, size_t *changed,
                            int32_t *next)
{
  size_t n = 0;
  for (int side = 0; side < 2; side++) {
    int64_t c = side ? b : a;
    for (size_t k = c >= 0 ? s->inc_start[c] : 0; c >= 0 && k < s->inc_start[c + 1]; k++) {
      size_t fi = s->inc[k];
      if (fstamp[fi] == tick)
        continue;
      fstamp[fi] = tick;
      const flow *f = &s->flows[fi];
      int32_t *m = next + n * s->words, *old = s->extent + fi * s->words;
      route_extent(s, f, m);
      move_tree(s, old, m, f->network, f->cost);
      changed[n++] = fi;
    }
  }
  return n;
}

/* A swap is kept when it lowers the sum of the links' fourth powers by more
 * than 1e-9 of the busiest link's initial fourth power (plus a unit's): a
 * gain below that is noise, not worth a move. Exact: loads are integers. */
static void search(nc_pass *pass, spread *s)
{
  int64_t iters = nc_pass_get_option_int(pass, "iterations");
  uint64_t state = (uint64_t)nc_pass_get_option_int(pass, "seed") * 0x9E3779B97F4A7C15ull + 1;
  uint32_t *fstamp = nc_xcalloc(s->n_flows + 1, sizeof *fstamp), ftick = 0;
  size_t most = 0; /* the most flows two cores have */
  for (int64_t c = 0; c < s->n_cores; c++)
    most = s->inc_start[c + 1] - s->inc_start[c] > most ? s->inc_start[c + 1] - s->inc_start[c] : most;
  size_t *changed = nc_xmalloc((2 * most + 1) * sizeof *changed);
  int32_t *next = nc_xmalloc((2 * most + 1) * s->words * sizeof *next);
  long double unit4 = powl((long double)s->scale, 4);
  u128 eps = (u128)floorl(1e-9L * ((long double)weight(max_load(s)) + unit4));
  for (int64_t it = 0; it < iters && s->n_cores > 0; it++) {
    int64_t a = (int64_t)(next_random(&state) % (uint64_t)s->n_cores);
    int64_t ca = s->cell[a], cb = (int64_t)(next_random(&state) % (uint64_t)s->cells);
    if (ca == cb)
      continue;
    int64_t b = s->owner[cb];
    s->n_touched = 0;
    if (++s->ttick == 0)
      memset(s->tstamp, 0, (size_t)s->cells * 8 * sizeof *s->tstamp), s->ttick = 1;
    if (++ftick == 0)
      memset(fstamp, 0, (s->n_flows + 1) * sizeof *fstamp), ftick = 1;
    swap_cells(s, ca, cb);
    size_t n = reroute_cores(s, a, b, fstamp, ftick, changed, next);
    u128 before = 0, after = 0;
    for (size_t k = 0; k < s->n_touched; k++)
      before += weight(s->saved[k]), after += weight(s->load[s->touched[k]]);
    if (after < before && before - after > eps) {
      for (size_t k = 0; k < n; k++)
        memcpy(s->extent + changed[k] * s->words, next + k * s->words, s->words * sizeof *next);
      nc_pass_stat_add(pass, ST_MOVES, 1);
      continue;
    }
    for (size_t k = 0; k < s->n_touched; k++) /* undo */
      s->load[s->touched[k]] = s->saved[k];
    swap_cells(s, ca, cb);
  }
  free(fstamp), free(changed), free(next);
}

/* Writes the new cells: tiles' positions, recvs' `from` and sends' `to`. */
static void rewrite(spread *s, nc_op *chip, const int64_t *old_owner)
{
  int64_t *to_cell = nc_xmalloc((size_t)s->cells * sizeof *to_cell);
  for (int64_t c = 0; c < s->cells; c++)
    to_cell[c] = old_owner[c] >= 0 ? s->cell[old_owner[c]] : c;
  for (nc_op *t = nc_core_chip_first_tile(chip); t; t = nc_core_tile_next(t)) {
    int64_t c = to_cell[nc_core_tile_get_y(t) * s->cols + nc_core_tile_get_x(t)];
    nc_core_tile_set_position(t, c % s->cols, c / s->cols);
    nc_op *program = nc_core_tile_get_program(t);
    for (nc_op *op = program ? nc_block_get_first_op(nc_core_program_get_body(program)) : NULL; op;
         op = nc_op_get_next(op)) {
      nc_core_instr in;
      if (!nc_core_instr_get(op, &in) || (in.kind != NC_CORE_SEND && in.kind != NC_CORE_RECV) ||
          in.x == NC_CORE_HOST || in.x < 0 || in.y < 0 || in.x >= s->cols || in.y >= s->rows)
        continue;
      int64_t p = to_cell[in.y * s->cols + in.x], v[3] = {p % s->cols, p / s->cols, in.slot};
      nc_op_set_attr_str(op, in.kind == NC_CORE_SEND ? "to" : "from",
                         nc_attr_dense_i64_array(nc_op_get_context(op), in.slot ? 3 : 2, v));
    }
  }
  free(to_cell);
}

static bool spread_chip(nc_pass *pass, nc_op *chip)
{
  nc_chip_desc d;
  spread s = {0};
  s.rows = nc_core_chip_get_rows(chip), s.cols = nc_core_chip_get_cols(chip), s.cells = s.rows * s.cols;
  if (s.cells <= 0 || !nc_chip_desc_of_module(nc_op_get_parent_op(chip), false, &d))
    return true;
  double bw = d.link_bytes_per_cycle > 0 ? (double)d.link_bytes_per_cycle : 1;
  s.owner = nc_xmalloc((size_t)s.cells * sizeof *s.owner);
  s.cell = nc_xmalloc((size_t)s.cells * sizeof *s.cell);
  for (int64_t c = 0; c < s.cells; c++)
    s.owner[c] = -1;
  for (nc_op *t = nc_core_chip_first_tile(chip); t; t = nc_core_tile_next(t)) {
    int64_t x = nc_core_tile_get_x(t), y = nc_core_tile_get_y(t);
    if (x < 0 || y < 0 || x >= s.cols || y >= s.rows) { /* unplaced: nothing to spread */
      free(s.owner), free(s.cell);
      return true;
    }
    if (s.owner[y * s.cols + x] < 0)
      s.cell[s.n_cores] = y * s.cols + x, s.owner[y * s.cols + x] = s.n_cores++;
  }
  int64_t *old_owner = nc_xmalloc((size_t)s.cells * sizeof *old_owner);
  memcpy(old_owner, s.owner, (size_t)s.cells * sizeof *old_owner);
  collect(&s, chip, nc_core_chip_lookup_function(chip), bw);
  s.inc_start = nc_xcalloc((size_t)s.n_cores + 2, sizeof *s.inc_start);
  for (size_t f = 0; f < s.n_flows; f++) {
    if (s.flows[f].src >= 0)
      s.inc_start[s.flows[f].src + 1]++;
    for (size_t d2 = 0; d2 < s.flows[f].n_dst; d2++)
      s.inc_start[s.dsts[s.flows[f].dst + d2] + 1]++;
  }
  for (int64_t c = 0; c < s.n_cores; c++)
    s.inc_start[c + 1] += s.inc_start[c];
  s.inc = nc_xmalloc((s.inc_start[s.n_cores] + 1) * sizeof *s.inc);
  size_t *fill = nc_xcalloc((size_t)s.n_cores + 1, sizeof *fill);
  for (size_t f = 0; f < s.n_flows; f++) {
    if (s.flows[f].src >= 0)
      s.inc[s.inc_start[s.flows[f].src] + fill[s.flows[f].src]++] = f;
    for (size_t d2 = 0; d2 < s.flows[f].n_dst; d2++) {
      int64_t c = s.dsts[s.flows[f].dst + d2];
      s.inc[s.inc_start[c] + fill[c]++] = f;
    }
  }
  free(fill);
  s.load = nc_xcalloc((size_t)s.cells * 8, sizeof *s.load);
  s.tstamp = nc_xcalloc((size_t)s.cells * 8, sizeof *s.tstamp);
  s.words = EXT_COLS + 2 * (size_t)s.cols;
  s.extent = nc_xcalloc(s.n_flows * s.words + 1, sizeof *s.extent);
  s.cx = nc_xmalloc((size_t)s.cells * sizeof *s.cx);
  s.cy = nc_xmalloc((size_t)s.cells * sizeof *s.cy);
  for (int64_t c = 0; c < s.cells; c++)
    s.cx[c] = (int32_t)(c % s.cols), s.cy[c] = (int32_t)(c / s.cols);
  s.kx = nc_xmalloc(((size_t)s.n_cores + 1) * sizeof *s.kx);
  s.ky = nc_xmalloc(((size_t)s.n_cores + 1) * sizeof *s.ky);
  for (int64_t k = 0; k < s.n_cores; k++)
    s.kx[k] = s.cx[s.cell[k]], s.ky[k] = s.cy[s.cell[k]];
  s.ttick = 1;
  for (size_t f = 0; f < s.n_flows; f++) {
    int32_t *m = s.extent + f * s.words;
    route_extent(&s, &s.flows[f], m);
    move_tree(&s, NULL, m, s.flows[f].network, s.flows[f].cost);
  }
  nc_pass_stat_add(pass, ST_LOAD_INITIAL, (uint64_t)llround((double)max_load(&s) / s.scale));
  nc_pass_stat_add(pass, ST_TOTAL_INITIAL, (uint64_t)llround((double)total_load(&s) / s.scale));
  search(pass, &s);
  nc_pass_stat_add(pass, ST_LOAD, (uint64_t)llround((double)max_load(&s) / s.scale));
  nc_pass_stat_add(pass, ST_TOTAL, (uint64_t)llround((double)total_load(&s) / s.scale));
  rewrite(&s, chip, old_owner);
  free(old_owner), free(s.owner), free(s.cell), free(s.flows), free(s.dsts), free(s.inc_start), free(s.inc);
  free(s.load), free(s.tstamp), free(s.touched), free(s.saved);
  free(s.extent), free(s.cx), free(s.cy), free(s.kx), free(s.ky);
  return true;
}

static bool run(nc_pass *pass, nc_op *module)
{
  for (nc_op *op = nc_block_get_first_op(nc_module_get_body(module)); op; op = nc_op_get_next(op))
    if (nc_core_is_chip(op) && !spread_chip(pass, op))
      return false;
  return true;
}

const nc_pass_def nc_core_spread_links_pass = {
  .argument = "core-spread-links",
  .name = "CoreSpreadLinks",
  .group = "Core",
  .summary = "Move whole cores so that the busiest mesh links carry less, from the messages the programs send",
  .description =
    "Runs after core-schedule (and core-replicate, core-colocate, core-multicast). Loads every directed mesh link "
    "with the cycles per frame of the messages the programs send over it (each send's bytes at the link width, "
    "weighted by the frames it runs on; a multicast's XY route tree once; the host's input steps from (0, 0)), "
    "then tries `iterations` random swaps of two cells' cores (all their slots; an empty cell too), keeping those "
    "that lower the sum of the links' loads to the fourth power. Rewrites the tiles' `x`, `y` and every recv's "
    "`from` and send's `to`; what is computed and sent is unchanged. Statistics: the busiest link's cycles per "
    "frame before and after, and the cycles per frame summed over all links.",
  .anchor = "builtin.module",
  .options = options, .n_options = NC_COUNTOF(options),
  .stats = stats, .n_stats = NC_COUNTOF(stats),
  .run = run,
};
