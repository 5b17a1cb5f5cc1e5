/* core_spread_links.c: core-spread-links, which moves whole cores so that
 * no mesh link carries much more than the others.
 *
 * core-place spreads the link load of the layers as it places them, but
 * the traffic changes after it: core-fold-concat sends a concat's inputs
 * straight to its readers (in a densenet block every layer's output goes to
 * every later layer), core-replicate puts each copy on the free core
 * nearest to the original and gives it its own frames' consumers, and
 * core-multicast merges sends into trees. In densenet121 at 8 bits one link
 * then carried about 24k cycles per frame while no core was busier than
 * 20k: the link set the pace (docs/targets/northpole.md, "Where densenet
 * waits").
 *
 * The pass reads the final programs: every send group (a multicast and its
 * members) becomes a flow from its core to the cores of the members that
 * run on a frame (copies' `frames`), weighted by its port cycles per frame,
 * routed XY as the simulator does (a multicast's tree carries it once per
 * link). Then, while it lowers the busiest link's load, it swaps the
 * contents of two cores (all their slots; one may be free) within
 * `radius` hops: of the cores whose flows cross the busiest link, the swap
 * giving the lowest busiest link, then the lowest sum of squared loads.
 * Cores talking to the host stay (the host's link is at (0, 0)). Every
 * recv and send naming a moved core is renamed; the programs, and so the
 * results, are otherwise the same. Deterministic: no randomness, ties by
 * index.
 */
#include <stdlib.h>
#include <string.h>

#include "core_util.h"
#include "nc/dialects/core/chip_desc.h"
#include "nc/dialects/core/core.h"
#include "nc/ir/diag.h"
#include "nc/ir/pass.h"

static const nc_pass_option_def options[] = {
  {"iterations", NC_PASS_OPT_INT, "200", "Swaps at most (0: none)"},
  {"radius", NC_PASS_OPT_INT, "4", "How far (hops) a core may move in one swap"},
};

enum { ST_BEFORE, ST_AFTER, ST_SWAPS };
static const nc_pass_stat_def stats[] = {
  {"max-link-load-before", "The busiest link's cycles per frame (XY routes of the programs' sends), before"},
  {"max-link-load-after", "The busiest link's cycles per frame, after"},
  {"core-swaps", "Swaps of two cores' contents"},
};

/* Weights are cycles per frame times SCALE: a flow that runs on f of L
 * frames (L <= lcm of the copy counts, each at most NC_CORE_MAX_REPLICAS)
 * weighs an exact integer. */
#define SCALE 720720 /* lcm(1..16) */

typedef struct flow {
  int32_t src, net; /* the source core (y * cols + x, as first placed) and network */
  int64_t w;        /* port cycles per frame x SCALE */
  size_t dst, nd;   /* its destination cores: pool[dst .. dst + nd) */
} flow;

typedef struct spread {
  int64_t rows, cols, cells;
  flow *f;
  size_t n, cap;
  int32_t *pool;
  size_t n_pool, cap_pool;
  int32_t *loc;          /* per core as first placed: where its tiles are now */
  int64_t *load;         /* per link (net, cell, direction): cycles per frame x SCALE */
  uint32_t *stamp, cur;  /* per link: the flow that last added to it (multicast trees) */
  size_t *inc, *inc_at;  /* per core: the flows from or to it, inc[inc_at[c] .. inc_at[c + 1]) */
  uint32_t *fstamp, fcur; /* per flow: touched in this swap */
  size_t *touched;       /* the flows a swap moves */
} spread;

static int64_t gcd64(int64_t a, int64_t b)
{
  while (b) {
    int64_t t = a % b;
    a = b, b = t;
  }
  return a;
}

static void add_flow(spread *s, int32_t src, int32_t net, int64_t w, const int32_t *dst, size_t nd)
{
  if (s->n == s->cap)
    s->f = nc_xrealloc(s->f, (s->cap = s->cap ? 2 * s->cap : 256) * sizeof *s->f);
  while (s->n_pool + nd > s->cap_pool)
    s->pool = nc_xrealloc(s->pool, (s->cap_pool = s->cap_pool ? 2 * s->cap_pool : 1024) * sizeof *s->pool);
  memcpy(s->pool + s->n_pool, dst, nd * sizeof *dst);
  s->f[s->n++] = (flow){src, net, w, s->n_pool, nd};
  s->n_pool += nd;
}

static int cmp_i32(const void *a, const void *b)
{
  int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
  return (x > y) - (x < y);
}

/* The flows of one send group (sends g[0..n), the last one not multicast)
 * of a tile at core `src` that is copy r of rn. */
static void group_flows(spread *s, int32_t src, int64_t r, int64_t rn, const nc_core_instr *g, size_t n, double bw)
{
  int64_t L = rn;
  for (size_t i = 0; i < n; i++)
    if (g[i].frames > 0)
      L = L / gcd64(L, g[i].frames) * g[i].frames;
  int32_t *dst = nc_xcalloc(n + 1, sizeof *dst);
  int64_t cycles = (int64_t)core_ceil_cycles(g[0].bytes, bw);
  for (int64_t f = r; f < L; f += rn) {
    size_t nd = 0;
    for (size_t i = 0; i < n; i++) {
      if (g[i].frames > 0 && f % g[i].frames != g[i].frame)
        continue;
      if (g[i].x == NC_CORE_HOST || g[i].y == NC_CORE_HOST)
        dst[nd++] = 0; /* the host, beyond (0, 0) */
      else if (g[i].x >= 0 && g[i].y >= 0 && g[i].x < s->cols && g[i].y < s->rows)
        dst[nd++] = (int32_t)(g[i].y * s->cols + g[i].x);
    }
    if (!nd)
      continue;
    qsort(dst, nd, sizeof *dst, cmp_i32);
    size_t u = 1;
    for (size_t i = 1; i < nd; i++)
      if (dst[i] != dst[u - 1])
        dst[u++] = dst[i];
    add_flow(s, src, (int32_t)g[0].network, cycles * (SCALE / L), dst, u);
  }
  free(dst);
}

static const spread *sort_base;
static int cmp_flow(const void *a, const void *b)
{
  const flow *x = a, *y = b;
  if (x->src != y->src)
    return x->src < y->src ? -1 : 1;
  if (x->net != y->net)
    return x->net < y->net ? -1 : 1;
  if (x->nd != y->nd)
    return x->nd < y->nd ? -1 : 1;
  int c = memcmp(sort_base->pool + x->dst, sort_base->pool + y->dst, x->nd * sizeof(int32_t));
  if (c)
    return c;
  return (x->dst > y->dst) - (x->dst < y->dst);
}

/* Adds (sign 1) or removes (-1) flow i's load along its XY tree. */
static void apply(spread *s, size_t i, int64_t sign)
{
  const flow *f = &s->f[i];
  if (++s->cur == 0) {
    memset(s->stamp, 0, (size_t)(2 * s->cells * 4) * sizeof *s->stamp);
    s->cur = 1;
  }
  int64_t sx = s->loc[f->src] % s->cols, sy = s->loc[f->src] / s->cols;
  for (size_t k = 0; k < f->nd; k++) {
    int32_t d = s->pool[f->dst + k];
    int64_t dx = s->loc[d] % s->cols, dy = s->loc[d] / s->cols, x = sx, y = sy;
    while (x != dx || y != dy) {
      int dir = x != dx ? (dx > x ? 0 : 1) : (dy > y ? 2 : 3);
      size_t l = (size_t)(((f->net ? 1 : 0) * s->cells + y * s->cols + x) * 4 + dir);
      if (s->stamp[l] != s->cur)
        s->stamp[l] = s->cur, s->load[l] += sign * f->w;
      x += dir == 0 ? 1 : dir == 1 ? -1 : 0;
      y += dir == 2 ? 1 : dir == 3 ? -1 : 0;
    }
  }
}

static bool crosses(spread *s, size_t i, size_t link)
{
  const flow *f = &s->f[i];
  int64_t lnet = (int64_t)link / 4 / s->cells, lcell = (int64_t)link / 4 % s->cells, ldir = (int64_t)link % 4;
  if ((f->net ? 1 : 0) != lnet)
    return false;
  int64_t sx = s->loc[f->src] % s->cols, sy = s->loc[f->src] / s->cols;
  for (size_t k = 0; k < f->nd; k++) {
    int32_t d = s->pool[f->dst + k];
    int64_t dx = s->loc[d] % s->cols, dy = s->loc[d] / s->cols, x = sx, y = sy;
    while (x != dx || y != dy) {
      int dir = x != dx ? (dx > x ? 0 : 1) : (dy > y ? 2 : 3);
      if (y * s->cols + x == lcell && dir == ldir)
        return true;
      x += dir == 0 ? 1 : dir == 1 ? -1 : 0;
      y += dir == 2 ? 1 : dir == 3 ? -1 : 0;
    }
  }
  return false;
}

/* The busiest link (lowest index on ties), its load, and the sum of squares. */
static int64_t busiest(const spread *s, size_t *at, double *sq)
{
  int64_t most = -1;
  *at = 0;
  double q = 0;
  for (size_t l = 0; l < (size_t)(2 * s->cells * 4); l++) {
    double v = (double)s->load[l];
    q += v * v;
    if (s->load[l] > most)
      most = s->load[l], *at = l;
  }
  *sq = q;
  return most;
}

/* Swaps the contents of cores at positions pa and pb (owners a, b: the cores
 * as first placed, which `at` maps positions to), moving their flows' load. */
static void swap_cells(spread *s, int32_t *at, int32_t pa, int32_t pb)
{
  int32_t a = at[pa], b = at[pb];
  size_t n = 0;
  if (++s->fcur == 0) {
    memset(s->fstamp, 0, s->n * sizeof *s->fstamp);
    s->fcur = 1;
  }
  for (int w = 0; w < 2; w++) {
    int32_t c = w ? b : a;
    for (size_t k = s->inc_at[c]; k < s->inc_at[c + 1]; k++)
      if (s->fstamp[s->inc[k]] != s->fcur)
        s->fstamp[s->inc[k]] = s->fcur, s->touched[n++] = s->inc[k];
  }
  for (size_t i = 0; i < n; i++)
    apply(s, s->touched[i], -1);
  s->loc[a] = pb, s->loc[b] = pa;
  at[pa] = b, at[pb] = a;
  for (size_t i = 0; i < n; i++)
    apply(s, s->touched[i], 1);
}

/* Renames the core of every recv and send as the swaps moved it, and moves the tiles. */
static void rename_cores(nc_op *chip, const spread *s)
{
  for (nc_op *t = nc_core_chip_first_tile(chip); t; t = nc_core_tile_next(t)) {
    nc_op *program = nc_core_tile_get_program(t);
    size_t n = nc_core_program_get_size(program), m = 0;
    nc_core_instr *in = nc_xcalloc(n + 1, sizeof *in);
    nc_location *loc = nc_xcalloc(n + 1, sizeof *loc);
    bool changed = false;
    for (nc_op *op = nc_block_get_first_op(nc_core_program_get_body(program)); op; op = nc_op_get_next(op)) {
      if (!nc_core_instr_get(op, &in[m]))
        continue;
      loc[m] = nc_op_get_loc(op);
      nc_core_instr *c = &in[m++];
      if ((c->kind == NC_CORE_SEND || c->kind == NC_CORE_RECV) && c->x >= 0 && c->y >= 0 && c->x < s->cols &&
          c->y < s->rows) {
        int32_t p = s->loc[c->y * s->cols + c->x];
        if (p != c->y * s->cols + c->x)
          c->x = p % s->cols, c->y = p / s->cols, changed = true;
      }
    }
    if (changed) {
      nc_core_program_clear(program);
      for (size_t i = 0; i < m; i++)
        nc_core_program_append(program, loc[i], &in[i]);
    }
    free(in), free(loc);
  }
  for (nc_op *t = nc_core_chip_first_tile(chip); t; t = nc_core_tile_next(t)) {
    int64_t x = nc_core_tile_get_x(t), y = nc_core_tile_get_y(t);
    if (x >= 0 && y >= 0 && x < s->cols && y < s->rows) {
      int32_t p = s->loc[y * s->cols + x];
      nc_core_tile_set_position(t, p % s->cols, p / s->cols);
    }
  }
}

static bool spread_chip(nc_pass *pass, nc_op *chip)
{
  nc_chip_desc d;
  if (!nc_chip_desc_of_module(nc_op_get_parent_op(chip), true, &d))
    return false;
  double bw = d.link_bytes_per_cycle > 0 ? (double)d.link_bytes_per_cycle : 1;
  spread s = {.rows = nc_core_chip_get_rows(chip), .cols = nc_core_chip_get_cols(chip)};
  s.cells = s.rows * s.cols;
  if (s.cells <= 1)
    return true;
  bool *fixed = nc_xcalloc((size_t)s.cells, sizeof *fixed);
  /* the flows */
  for (nc_op *t = nc_core_chip_first_tile(chip); t; t = nc_core_tile_next(t)) {
    int64_t x = nc_core_tile_get_x(t), y = nc_core_tile_get_y(t), r = 0, rn = 1;
    if (x < 0 || y < 0 || x >= s.cols || y >= s.rows)
      continue;
    int32_t src = (int32_t)(y * s.cols + x);
    if (!nc_core_tile_get_replica(t, &r, &rn) || rn < 1)
      r = 0, rn = 1;
    nc_op *program = nc_core_tile_get_program(t);
    size_t cap = 16, n = 0;
    nc_core_instr *g = nc_xcalloc(cap, sizeof *g);
    for (nc_op *op = nc_block_get_first_op(nc_core_program_get_body(program)); op; op = nc_op_get_next(op)) {
      nc_core_instr in;
      if (!nc_core_instr_get(op, &in))
        continue;
      if ((in.kind == NC_CORE_SEND || in.kind == NC_CORE_RECV) && (in.x == NC_CORE_HOST || in.y == NC_CORE_HOST))
        fixed[src] = true;
      if (in.kind != NC_CORE_SEND)
        continue;
      if (n == cap)
        g = nc_xrealloc(g, (cap *= 2) * sizeof *g);
      g[n++] = in;
      if (!in.multicast)
        group_flows(&s, src, r, rn, g, n, bw), n = 0;
    }
    if (n)
      group_flows(&s, src, r, rn, g, n, bw);
    free(g);
  }
  fixed[0] = true; /* the host's corner */
  /* merge equal flows */
  sort_base = &s;
  if (s.n)
    qsort(s.f, s.n, sizeof *s.f, cmp_flow);
  size_t u = 0;
  for (size_t i = 0; i < s.n; i++) {
    if (u && s.f[u - 1].src == s.f[i].src && s.f[u - 1].net == s.f[i].net && s.f[u - 1].nd == s.f[i].nd &&
        !memcmp(s.pool + s.f[u - 1].dst, s.pool + s.f[i].dst, s.f[i].nd * sizeof(int32_t)))
      s.f[u - 1].w += s.f[i].w;
    else
      s.f[u++] = s.f[i];
  }
  s.n = u;
  /* the flows of each core */
  s.inc_at = nc_xcalloc((size_t)s.cells + 2, sizeof *s.inc_at);
  for (size_t i = 0; i < s.n; i++) {
    s.inc_at[s.f[i].src + 1]++;
    for (size_t k = 0; k < s.f[i].nd; k++)
      if (s.pool[s.f[i].dst + k] != s.f[i].src)
        s.inc_at[s.pool[s.f[i].dst + k] + 1]++;
  }
  for (int64_t c = 0; c < s.cells; c++)
    s.inc_at[c + 1] += s.inc_at[c];
  s.inc = nc_xcalloc(s.inc_at[s.cells] + 1, sizeof *s.inc);
  size_t *fill = nc_xcalloc((size_t)s.cells + 1, sizeof *fill);
  for (size_t i = 0; i < s.n; i++) {
    s.inc[s.inc_at[s.f[i].src] + fill[s.f[i].src]++] = i;
    for (size_t k = 0; k < s.f[i].nd; k++) {
      int32_t c = s.pool[s.f[i].dst + k];
      if (c != s.f[i].src)
        s.inc[s.inc_at[c] + fill[c]++] = i;
    }
  }
  free(fill);
  s.loc = nc_xcalloc((size_t)s.cells, sizeof *s.loc);
  int32_t *at = nc_xcalloc((size_t)s.cells, sizeof *at);
  for (int64_t c = 0; c < s.cells; c++)
    s.loc[c] = at[c] = (int32_t)c;
  s.load = nc_xcalloc((size_t)(2 * s.cells * 4), sizeof *s.load);
  s.stamp = nc_xcalloc((size_t)(2 * s.cells * 4), sizeof *s.stamp);
  s.fstamp = nc_xcalloc(s.n + 1, sizeof *s.fstamp);
  s.touched = nc_xcalloc(s.n + 1, sizeof *s.touched);
  for (size_t i = 0; i < s.n; i++)
    apply(&s, i, 1);
  size_t top = 0;
  double sq;
  int64_t before = busiest(&s, &top, &sq), now = before;
  int64_t iters = nc_pass_get_option_int(pass, "iterations"), radius = nc_pass_get_option_int(pass, "radius"), swaps = 0;
  bool *cand = nc_xcalloc((size_t)s.cells, sizeof *cand);
  for (int64_t it = 0; it < iters && now > 0; it++) {
    memset(cand, 0, (size_t)s.cells * sizeof *cand);
    for (size_t i = 0; i < s.n; i++)
      if (crosses(&s, i, top)) {
        cand[s.loc[s.f[i].src]] = true;
        for (size_t k = 0; k < s.f[i].nd; k++)
          cand[s.loc[s.pool[s.f[i].dst + k]]] = true;
      }
    int64_t best = now, bpa = -1, bpb = -1;
    double best_sq = sq;
    for (int32_t pa = 0; pa < s.cells; pa++) {
      if (!cand[pa] || fixed[at[pa]])
        continue;
      int64_t ax = pa % s.cols, ay = pa / s.cols;
      for (int32_t pb = 0; pb < s.cells; pb++) {
        int64_t bx = pb % s.cols, by = pb / s.cols;
        int64_t dist = (ax > bx ? ax - bx : bx - ax) + (ay > by ? ay - by : by - ay);
        if (pb == pa || fixed[at[pb]] || dist > radius)
          continue;
        swap_cells(&s, at, pa, pb);
        size_t l;
        double q;
        int64_t m = busiest(&s, &l, &q);
        if (m < best || (m == best && bpa >= 0 && q < best_sq))
          best = m, best_sq = q, bpa = pa, bpb = pb;
        swap_cells(&s, at, pa, pb);
      }
    }
    if (bpa < 0)
      break;
    swap_cells(&s, at, (int32_t)bpa, (int32_t)bpb);
    now = busiest(&s, &top, &sq);
    swaps++;
  }
  if (swaps)
    rename_cores(chip, &s);
  nc_pass_stat_add(pass, ST_BEFORE, (uint64_t)((before + SCALE / 2) / SCALE));
  nc_pass_stat_add(pass, ST_AFTER, (uint64_t)((now + SCALE / 2) / SCALE));
  nc_pass_stat_add(pass, ST_SWAPS, (uint64_t)swaps);
  free(cand), free(fixed), free(at), free(s.loc), free(s.load), free(s.stamp), free(s.fstamp), free(s.touched), free(s.inc),
    free(s.inc_at), free(s.f), free(s.pool);
  return true;
}

static bool run(nc_pass *pass, nc_op *module)
{
  bool ok = true;
  for (nc_op *op = nc_block_get_first_op(nc_module_get_body(module)); op && ok; op = nc_op_get_next(op))
    if (nc_core_is_chip(op))
      ok = spread_chip(pass, op);
  return ok;
}

const nc_pass_def nc_core_spread_links_pass = {
  .argument = "core-spread-links",
  .name = "CoreSpreadLinks",
  .group = "Core",
  .summary = "Swap whole cores to lower the busiest mesh link's load (XY routes of the final sends)",
  .description =
    "After core-replicate and core-multicast: every send group of the programs is a flow from its core to the "
    "cores of the members that run on a frame (copies' frames), weighing its port cycles per frame, along XY "
    "routes (a multicast's tree carries it once per link). While the busiest link's load goes down, at most "
    "`iterations` times, swaps the contents of two cores (every slot; one may be free) at most `radius` hops "
    "apart, one of them a core with a flow across the busiest link: the swap leaving the lowest busiest link, then "
    "the lowest sum of squared loads. Cores that talk to the host and the corner (0, 0) stay. Recvs and sends are "
    "renamed; nothing else changes.",
  .anchor = "builtin.module",
  .options = options, .n_options = NC_COUNTOF(options),
  .stats = stats, .n_stats = NC_COUNTOF(stats),
  .run = run,
};
