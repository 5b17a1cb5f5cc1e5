/* core_verify.c: the checks of a core.chip that need the whole chip: where
 * tiles are, what their buffers occupy, who sends to whom, and (when the
 * chip names its function) whether tiles, slices, computes, receives and
 * sends agree with the dataflow nodes they implement.
 */
#include <stdlib.h>
#include <string.h>

#include <isl/set.h>
#include <isl/val.h>

#include "core_internal.h"
#include "nc/dialects/dataflow/dataflow.h"
#include "nc/dialects/dataflow/layer.h"
#include "nc/ir/symbol.h"

/* --- positions ------------------------------------------------------------------------------------------- */

/* Which tiles sit at each grid position: a chain per core (tiles sharing a
 * core have distinct slots). */
typedef struct grid {
  int64_t rows, cols;
  int32_t *head;  /* rows * cols entries: the first tile on the core (-1: none), or NULL for huge grids (searched) */
  int32_t *next;  /* per tile: the next on its core */
  nc_op **tiles;
  int64_t *slot;  /* per tile: its slot (looked up once, not per message) */
  size_t n;
  const nc_op *chip;
} grid;

static void grid_init(grid *g, const nc_op *chip)
{
  g->rows = nc_core_chip_get_rows(chip);
  g->cols = nc_core_chip_get_cols(chip);
  g->chip = chip;
  g->head = g->rows > 0 && g->cols > 0 && g->rows <= ((int64_t)1 << 22) / g->cols
              ? nc_xcalloc((size_t)(g->rows * g->cols), sizeof *g->head)
              : NULL;
  for (int64_t i = 0; g->head && i < g->rows * g->cols; i++)
    g->head[i] = -1;
  size_t n = nc_core_chip_get_num_tiles(chip);
  g->next = nc_xcalloc(n + 1, sizeof *g->next);
  g->tiles = nc_xcalloc(n + 1, sizeof *g->tiles);
  g->slot = nc_xcalloc(n + 1, sizeof *g->slot);
  g->n = 0;
}

static void grid_free(grid *g)
{
  free(g->head), free(g->next), free(g->tiles), free(g->slot);
}

static bool inside(const grid *g, int64_t x, int64_t y) { return x >= 0 && y >= 0 && x < g->cols && y < g->rows; }

/* The index of the tile at (x, y, slot) in g->tiles, or -1 (none, or a huge grid without the index). */
static int32_t grid_index(const grid *g, int64_t x, int64_t y, int64_t slot)
{
  if (!g->head || !inside(g, x, y))
    return -1;
  for (int32_t i = g->head[y * g->cols + x]; i >= 0; i = g->next[i])
    if (g->slot[i] == slot)
      return i;
  return -1;
}

static nc_op *grid_get(const grid *g, int64_t x, int64_t y, int64_t slot)
{
  if (!inside(g, x, y))
    return NULL;
  if (!g->head)
    return nc_core_chip_find_tile_in_slot(g->chip, x, y, slot);
  int32_t i = grid_index(g, x, y, slot);
  return i >= 0 ? g->tiles[i] : NULL;
}

/* Adds a placed tile (inside the grid) at the end of its core's chain. */
static void grid_add(grid *g, nc_op *t)
{
  int64_t x = nc_core_tile_get_x(t), y = nc_core_tile_get_y(t);
  if (!g->head || !inside(g, x, y))
    return;
  int32_t i = (int32_t)g->n++, *p = &g->head[y * g->cols + x];
  g->tiles[i] = t, g->next[i] = -1, g->slot[i] = nc_core_tile_get_slot(t);
  while (*p >= 0)
    p = &g->next[*p];
  *p = i;
}

/* --- buffers --------------------------------------------------------------------------------------------- */

/* A conv or matmul layer requantized to fewer than 32 bits sums its products
 * in int32 first: its tile needs a scratch buffer for that accumulator
 * (dataflow-to-core's `acc`). */
/* Whether `node` accumulates in int32 and requantizes (a conv or matmul
 * with a narrower output), so its tiles need a scratch accumulator. */
static bool accumulates(nc_op *node)
{
  nc_dataflow_layer layer;
  return nc_dataflow_node_get_layer(node, &layer) &&
         (layer.kind == NC_DATAFLOW_LAYER_CONV || layer.kind == NC_DATAFLOW_LAYER_MATMUL) && layer.n_requant &&
         layer.output_bits < 32;
}

static bool check_accumulator(nc_op *tile, nc_op *node, bool accumulating)
{
  if (!accumulating || !nc_core_tile_get_num_buffers(tile))
    return true;
  for (nc_op *b = nc_core_tile_first_buffer(tile); b; b = nc_core_buffer_next(b))
    if (nc_core_buffer_get_kind(b) == NC_CORE_BUFFER_SCRATCH)
      return true;
  return nc_op_emit_error(tile, "computes %s node '%s', which accumulates in int32, but has no scratch buffer for "
                          "the accumulator", nc_dataflow_node_get_kind(node), nc_core_tile_get_node(tile));
}

static bool check_buffers(nc_op *tile, int64_t sram)
{
  size_t n = nc_core_tile_get_num_buffers(tile);
  nc_core_lifetime *life = nc_xcalloc(n + 1, sizeof *life);
  nc_op **bufs = nc_xcalloc(n + 1, sizeof *bufs);
  core_tile_buffer_lifetimes_verified(tile, life); /* the chip's regions (programs) are verified */
  size_t i = 0;
  for (nc_op *b = nc_core_tile_first_buffer(tile); b; b = nc_core_buffer_next(b))
    bufs[i++] = b;
  bool ok = true;
  for (i = 0; i < n && ok; i++) {
    int64_t off = nc_core_buffer_get_offset(bufs[i]), bytes = nc_core_buffer_get_bytes(bufs[i]);
    if (off < 0)
      continue;
    if (bytes > sram || off > sram - bytes) { /* written so that nothing overflows (bytes >= 1: verified) */
      ok = nc_op_emit_error(bufs[i], "buffer '%s' of %lld bytes at offset %lld does not fit the core's %lld bytes of "
                            "SRAM", nc_core_buffer_get_name(bufs[i]), (long long)bytes, (long long)off,
                            (long long)sram);
      break;
    }
    for (size_t j = 0; j < i && ok; j++) {
      int64_t o2 = nc_core_buffer_get_offset(bufs[j]), b2 = nc_core_buffer_get_bytes(bufs[j]);
      if (o2 < 0 || o2 >= off + bytes || off >= o2 + b2)
        continue;
      if (life[i].first <= life[j].last && life[j].first <= life[i].last) {
        nc_diag *d = nc_op_diag_error(bufs[i],
                                      "buffer '%s' at [%lld, %lld) overlaps buffer '%s' at [%lld, %lld), and both "
                                      "are live from program position %lld to %lld",
                                      nc_core_buffer_get_name(bufs[i]), (long long)off, (long long)(off + bytes),
                                      nc_core_buffer_get_name(bufs[j]), (long long)o2, (long long)(o2 + b2),
                                      (long long)(life[i].first > life[j].first ? life[i].first : life[j].first),
                                      (long long)(life[i].last < life[j].last ? life[i].last : life[j].last));
        nc_diag_attach_note(d, nc_op_get_loc(bufs[j]), "the other buffer");
        nc_diag_emit(d);
        ok = false;
      }
    }
  }
  free(life);
  free(bufs);
  return ok;
}

/* Two tiles sharing a core run interleaved, in no fixed phase of each
 * other's programs: their planned buffers must not overlap at all. */
static bool check_shared_buffers(nc_op *a, nc_op *b)
{
  for (nc_op *x = nc_core_tile_first_buffer(b); x; x = nc_core_buffer_next(x))
    for (nc_op *y = nc_core_tile_first_buffer(a); y; y = nc_core_buffer_next(y)) {
      int64_t o1 = nc_core_buffer_get_offset(x), b1 = nc_core_buffer_get_bytes(x);
      int64_t o2 = nc_core_buffer_get_offset(y), b2 = nc_core_buffer_get_bytes(y);
      if (o1 < 0 || o2 < 0 || o2 >= o1 + b1 || o1 >= o2 + b2)
        continue;
      nc_diag *d = nc_op_diag_error(x, "buffer '%s' at [%lld, %lld) overlaps buffer '%s' at [%lld, %lld) of tile "
                                    "'%s', which shares the core", nc_core_buffer_get_name(x), (long long)o1,
                                    (long long)(o1 + b1), nc_core_buffer_get_name(y), (long long)o2,
                                    (long long)(o2 + b2), nc_core_tile_get_node(a));
      nc_diag_attach_note(d, nc_op_get_loc(y), "the other buffer");
      nc_diag_emit(d);
      return false;
    }
  return true;
}

/* --- programs -------------------------------------------------------------------------------------------- */

/* A placed program: the tile has a position if its program is not empty. */
static bool check_placed(nc_op *tile, nc_block *b)
{
  if (b && !nc_block_is_empty(b) && nc_core_tile_get_x(tile) < 0)
    return nc_op_emit_error(tile, "has a program but no grid position (core-place places tiles)");
  return true;
}

/* Where a tile is: its x, y and slot, read once per program. */
typedef struct tile_at {
  int64_t x, y, slot;
} tile_at;

static tile_at tile_at_of(const nc_op *tile)
{
  return (tile_at){nc_core_tile_get_x(tile), nc_core_tile_get_y(tile), nc_core_tile_get_slot(tile)};
}

/* A decoded recv's or send's peer `in` (not the host) is another tile of
 * the chip than the one at `self`: `peer` is grid_get's. */
static bool check_endpoint(const grid *g, tile_at self, nc_op *op, const nc_core_instr *in, const nc_op *peer)
{
  const char *what = in->kind == NC_CORE_RECV ? "receives from" : "sends to";
  if (in->x == self.x && in->y == self.y && in->slot == self.slot)
    return nc_op_emit_error(op, "%s its own tile (%lld, %lld)", what, (long long)in->x, (long long)in->y);
  if (!inside(g, in->x, in->y))
    return nc_op_emit_error(op, "%s (%lld, %lld), outside the %lldx%lld grid", what, (long long)in->x,
                            (long long)in->y, (long long)g->rows, (long long)g->cols);
  if (!peer)
    return in->slot ? nc_op_emit_error(op, "%s (%lld, %lld) slot %lld, where the chip has no tile", what,
                                       (long long)in->x, (long long)in->y, (long long)in->slot)
                    : nc_op_emit_error(op, "%s (%lld, %lld), where the chip has no tile", what, (long long)in->x,
                                       (long long)in->y);
  return true;
}

/* The endpoints of a tile's program (a chip without `function`; with one,
 * check_tile_program checks them in its own pass over the program, so each
 * op is decoded once per verification). */
static bool check_program(const grid *g, nc_op *tile)
{
  nc_op *program = nc_core_tile_get_program(tile);
  nc_block *b = program ? nc_core_program_get_body(program) : NULL;
  if (!check_placed(tile, b))
    return false;
  tile_at self = tile_at_of(tile);
  for (nc_op *op = b ? nc_block_get_first_op(b) : NULL; op; op = nc_op_get_next(op)) {
    nc_core_instr in;
    if (!nc_core_instr_get(op, &in) || (in.kind != NC_CORE_RECV && in.kind != NC_CORE_SEND) ||
        (in.x == NC_CORE_HOST && in.y == NC_CORE_HOST))
      continue;
    if (!check_endpoint(g, self, op, &in, grid_get(g, in.x, in.y, in.slot)))
      return false;
  }
  return true;
}

bool core_verify_chip_regions(nc_op *chip)
{
  grid g;
  grid_init(&g, chip);
  int64_t sram = nc_core_chip_get_sram_bytes(chip);
  bool ok = true, has_function = nc_op_get_attr_str(chip, "function") != NULL; /* then programs: the symbol checks */
  for (nc_op *t = nc_core_chip_first_tile(chip); t && ok; t = nc_core_tile_next(t)) {
    int64_t x = nc_core_tile_get_x(t), y = nc_core_tile_get_y(t);
    if (x < 0)
      continue;
    if (!inside(&g, x, y)) {
      ok = nc_op_emit_error(t, "position (%lld, %lld) is outside the %lldx%lld grid (x < %lld, y < %lld)",
                            (long long)x, (long long)y, (long long)g.rows, (long long)g.cols, (long long)g.cols,
                            (long long)g.rows);
      break;
    }
    nc_op *other = grid_get(&g, x, y, nc_core_tile_get_slot(t));
    if (other && other != t) {
      nc_diag *d = nc_op_diag_error(t, "is placed in slot %lld of core (%lld, %lld), which already holds a tile of "
                                    "'%s' there", (long long)nc_core_tile_get_slot(t), (long long)x, (long long)y,
                                    nc_core_tile_get_node(other));
      nc_diag_attach_note(d, nc_op_get_loc(other), "the other tile");
      nc_diag_emit(d);
      ok = false;
      break;
    }
    grid_add(&g, t);
  }
  for (nc_op *t = nc_core_chip_first_tile(chip); t && ok; t = nc_core_tile_next(t))
    ok = check_buffers(t, sram) && (has_function || check_program(&g, t));
  for (int64_t c = 0; ok && g.head && c < g.rows * g.cols; c++)
    for (int32_t i = g.head[c]; i >= 0 && ok; i = g.next[i])
      for (int32_t j = g.next[i]; j >= 0 && ok; j = g.next[j])
        ok = check_shared_buffers(g.tiles[i], g.tiles[j]);
  grid_free(&g);
  return ok;
}

/* --- against the function -------------------------------------------------------------------------------- */

typedef struct node_info {
  nc_op *node;
  int64_t n_iters; /* -1 if unknown */
  const char *name; /* the node's name ("" if none), read once: every tile and peer is looked up by it */
  /* what every tile of the node is checked against, decoded from the node's
   * layer once per verification (known: false until then) */
  bool known, accumulates;
  int64_t out_channels, out_rows, in_channels;
  int32_t first_tile, last_tile; /* the chip's tiles named after the node, a chain in chip order (-1: none) */
} node_info;

static node_info *node_facts(node_info *ni)
{
  if (!ni->known) {
    ni->known = true;
    ni->accumulates = accumulates(ni->node);
    ni->out_channels = nc_core_node_get_out_channels(ni->node);
    ni->out_rows = nc_core_node_get_out_rows(ni->node);
    ni->in_channels = nc_core_node_get_in_channels(ni->node, NULL);
  }
  return ni;
}

typedef struct fn_view {
  node_info *nodes;
  size_t n;
  isl_ctx *ctx; /* made on the first count a fact does not answer (NULL until then) */
  core_isl_scope scope;
  node_info **by_name; /* the nodes sorted by name (each tile and peer is looked up) */
  node_info **of_tile; /* per grid tile index (grid_index): its node, looked up once (NULL: not yet) */
  nc_op **tiles;       /* every tile of the chip, in chip order */
  int32_t *next_tile;  /* per entry of tiles: the next tile of the same node name (-1: none) */
  size_t n_tiles;
} fn_view;

/* Adds tile t (the chip's next, in order) to the chain of node ni, the first
 * node of its name: the slice checks read a node's tiles from its chain, not
 * from a walk over the whole chip per node. */
static void bucket_tile(fn_view *v, node_info *ni, nc_op *t)
{
  int32_t k = (int32_t)v->n_tiles++;
  v->tiles[k] = t, v->next_tile[k] = -1;
  if (ni->last_tile >= 0)
    v->next_tile[ni->last_tile] = k;
  else
    ni->first_tile = k;
  ni->last_tile = k;
}

/* Iterates `t` over the tiles named after node `ni` (all bucketed: the
 * chip's tiles each name a node when the slices are checked), in chip order. */
#define FOR_NODE_TILES(v, ni, t)                                                                                      \
  for (int32_t t##_k = (ni)->first_tile; t##_k >= 0; t##_k = (v)->next_tile[t##_k])                                  \
    for (nc_op *t = (v)->tiles[t##_k]; t; t = NULL)

static const char *name_of(const node_info *ni) { return ni->name; }

static int cmp_node_name(const void *a, const void *b)
{
  return strcmp(name_of(*(node_info *const *)a), name_of(*(node_info *const *)b));
}

static void index_nodes(fn_view *v)
{
  v->by_name = nc_xcalloc(v->n + 1, sizeof *v->by_name);
  for (size_t i = 0; i < v->n; i++) {
    const char *s = nc_dataflow_node_get_name(v->nodes[i].node);
    v->nodes[i].name = s ? s : "";
    v->by_name[i] = &v->nodes[i];
  }
  qsort(v->by_name, v->n, sizeof *v->by_name, cmp_node_name);
}

/* The first node (in function order) named `name`, or NULL. */
static node_info *find_node(fn_view *v, const char *name)
{
  size_t lo = 0, hi = v->n;
  while (lo < hi) { /* the first entry not below name */
    size_t mid = lo + (hi - lo) / 2;
    if (strcmp(name_of(v->by_name[mid]), name) < 0)
      lo = mid + 1;
    else
      hi = mid;
  }
  node_info *best = NULL; /* names are unique in a verified function; if not, the first as before */
  for (; lo < v->n && !strcmp(name_of(v->by_name[lo]), name); lo++)
    if (!best || v->by_name[lo] < best)
      best = v->by_name[lo];
  return best;
}

/* The kind of the context's facts n_iters records: a domain's point count. */
static const char n_iters_fact = 0;

static int64_t n_iters(fn_view *v, node_info *ni)
{
  if (ni->n_iters == -2) { /* the number of points of the domain (it is bounded: the node verified) */
    /* counted once per distinct domain attribute (uniqued), not after every pass */
    nc_attr *key = nc_op_get_attr_str(ni->node, "domain");
    nc_context *nctx = nc_op_get_context(ni->node);
    if (key && nc_context_get_fact(nctx, key, &n_iters_fact, &ni->n_iters))
      return ni->n_iters;
    if (!v->ctx)
      v->ctx = nc_dataflow_isl_ctx_create(), v->scope = core_isl_scope_enter(v->ctx);
    isl_set *dom = nc_dataflow_node_get_domain(ni->node, v->ctx);
    isl_val *count = dom && isl_set_is_bounded(dom) == isl_bool_true ? isl_set_count_val(dom) : NULL;
    ni->n_iters = count && isl_val_is_int(count) == isl_bool_true ? isl_val_get_num_si(count) : -1;
    isl_val_free(count);
    isl_set_free(dom);
    if (key)
      nc_context_note_fact(nctx, key, &n_iters_fact, ni->n_iters);
  }
  return ni->n_iters;
}

/* Whether t is the first copy of its node's tiles (replica 0 or none): the
 * slice checks look at one copy, check_replicas at the copies. */
static bool first_copy(nc_op *t)
{
  int64_t r, n;
  nc_core_tile_get_replica(t, &r, &n);
  return r == 0;
}

/* A replicated node: every tile has the same replica count n and each copy
 * r < n has as many tiles (copies of the same slices). */
static bool check_replicas(nc_op *chip, fn_view *v, node_info *ni, node_info *b)
{
  const char *name = nc_dataflow_node_get_name(ni->node);
  int64_t n = -1, count[NC_CORE_MAX_REPLICAS] = {0};
  FOR_NODE_TILES(v, b, t) {
    int64_t r, m;
    nc_core_tile_get_replica(t, &r, &m);
    if (n >= 0 && m != n)
      return nc_op_emit_error(t, "is copy %lld of %lld of node '%s', whose other tiles are copies of %lld: every "
                              "tile of a replicated node has the same `replica` count", (long long)r, (long long)m,
                              name, (long long)n);
    n = m;
    if (r >= 0 && r < NC_CORE_MAX_REPLICAS)
      count[r]++;
  }
  for (int64_t r = 1; r < n; r++)
    if (count[r] != count[0])
      return nc_op_emit_error(chip, "node '%s' has %lld tiles in copy 0 but %lld in copy %lld (`replica`): each copy "
                              "holds every slice", name, (long long)count[0], (long long)count[r], (long long)r);
  return true;
}

/* A recv or send naming a replica (copy p of pn) runs only on that copy's
 * frames: the tile's own replica or the instruction's `frames` implies them. */
static bool check_peer_frames(nc_op *tile, nc_op *op, const nc_core_instr *in, nc_op *peer)
{
  int64_t p, pn, a, an;
  if (!peer || !nc_core_tile_get_replica(peer, &p, &pn))
    return true;
  nc_core_tile_get_replica(tile, &a, &an);
  if (nc_core_frames_imply(a, an, p, pn) || (in->frames && nc_core_frames_imply(in->frame, in->frames, p, pn)))
    return true;
  return nc_op_emit_error(op, "%s a tile of '%s' that handles frames f with f mod %lld == %lld, on frames it does not "
                          "handle: give it `frames = array<i64: %lld, %lld>`", in->kind == NC_CORE_RECV ?
                          "receives from" : "sends to", nc_core_tile_get_node(peer), (long long)pn, (long long)p,
                          (long long)p, (long long)pn);
}

static int cmp_slice4(const void *a, const void *b)
{
  const int64_t *x = a, *y = b;
  for (int i = 0; i < 4; i++)
    if (x[i] != y[i])
      return (x[i] > y[i]) - (x[i] < y[i]);
  return 0;
}

static int cmp_slice6(const void *a, const void *b)
{
  const int64_t *x = a, *y = b;
  for (int i = 0; i < 6; i++)
    if (x[i] != y[i])
      return (x[i] > y[i]) - (x[i] < y[i]);
  return 0;
}

static bool check_partition(nc_op *chip, const char *name, const char *what, const int64_t *s, size_t n,
                            size_t stride, int64_t c);

/* A node with row bands: the tiles' slices (channels x rows, a missing
 * range meaning all of them) are disjoint rectangles covering every output
 * channel x row; tiles with in_channels sharing one rectangle form its
 * input-channel group, whose in_channels partition operand 0's channels. */
static bool check_row_slices(nc_op *chip, fn_view *v, node_info *ni, node_info *b, size_t n)
{
  const char *name = nc_dataflow_node_get_name(ni->node);
  int64_t c = node_facts(ni)->out_channels, r = ni->out_rows, cin = ni->in_channels;
  int64_t (*s)[6] = nc_xcalloc(n, sizeof *s), area = 0;
  size_t i = 0, n_in = 0;
  FOR_NODE_TILES(v, b, t)
    if (first_copy(t)) {
      if (!nc_core_tile_get_out_channels(t, &s[i][0], &s[i][1]))
        s[i][0] = 0, s[i][1] = c;
      if (!nc_core_tile_get_out_rows(t, &s[i][2], &s[i][3]))
        s[i][2] = 0, s[i][3] = r;
      if (nc_core_tile_get_in_channels(t, &s[i][4], &s[i][5]))
        n_in++;
      else
        s[i][4] = 0, s[i][5] = cin;
      if (n > 1 && !nc_op_get_attr_str(t, "out_channels") && !nc_op_get_attr_str(t, "out_rows")) {
        free(s);
        return nc_op_emit_error(chip, "node '%s' has %zu tiles, so each must compute a slice of its output "
                                      "(out_channels, out_rows)", name, n);
      }
      i++;
    }
  qsort(s, n, sizeof *s, cmp_slice6);
  size_t *group = nc_xcalloc(n + 1, sizeof *group), n_groups = 0; /* the first tile of each rectangle */
  for (i = 0; i < n; i++)
    if (!n_groups || memcmp(s[i], s[group[n_groups - 1]], 4 * sizeof **s)) {
      group[n_groups++] = i;
      area += (s[i][1] - s[i][0]) * (s[i][3] - s[i][2]);
    }
  bool ok = true;
  for (size_t gi = 0; gi < n_groups && ok; gi++)
    for (size_t gj = gi + 1; gj < n_groups && ok; gj++) {
      const int64_t *a = s[group[gi]], *b = s[group[gj]];
      if (a[0] < b[1] && b[0] < a[1] && a[2] < b[3] && b[2] < a[3])
        ok = nc_op_emit_error(chip, "the slices of node '%s''s tiles overlap: channels [%lld, %lld) x rows [%lld, "
                                    "%lld) and channels [%lld, %lld) x rows [%lld, %lld)", name,
                              (long long)a[0], (long long)a[1], (long long)a[2], (long long)a[3],
                              (long long)b[0], (long long)b[1], (long long)b[2], (long long)b[3]);
    }
  if (ok && area != c * r)
    ok = nc_op_emit_error(chip, "the slices (out_channels x out_rows) of node '%s''s tiles must partition its %lld "
                                "output channels x %lld rows: they leave a gap", name, (long long)c, (long long)r);
  for (size_t g = 0; ok && g < n_groups; g++) { /* each band's input-channel group */
    size_t m = (g + 1 < n_groups ? group[g + 1] : n) - group[g];
    if (m > 1 && !n_in)
      ok = nc_op_emit_error(chip, "the slices of node '%s''s tiles overlap: %zu tiles compute channels [%lld, %lld) "
                                  "x rows [%lld, %lld)", name, m, (long long)s[group[g]][0], (long long)s[group[g]][1],
                            (long long)s[group[g]][2], (long long)s[group[g]][3]);
    else if (n_in)
      ok = check_partition(chip, name, "in_channels", &s[group[g]][4], m, 6, cin);
  }
  free(group);
  free(s);
  return ok;
}

/* Whether sorted ranges s[i][k], s[i][k+1] (i < n, step `stride` int64s) partition [0, c); else a diagnostic. */
static bool check_partition(nc_op *chip, const char *name, const char *what, const int64_t *s, size_t n,
                            size_t stride, int64_t c)
{
  int64_t next = 0;
  for (size_t i = 0; i < n; i++) {
    const int64_t *r = s + i * stride;
    if (r[0] != next)
      return nc_op_emit_error(chip, "the %s of node '%s''s tiles must partition its %lld %s channels: %s at channel "
                              "%lld", what, name, (long long)c, what[0] == 'o' ? "output" : "input",
                              r[0] > next ? "a gap" : "an overlap", (long long)next);
    next = r[1];
  }
  if (next != c)
    return nc_op_emit_error(chip, "the %s of node '%s''s tiles must partition its %lld %s channels, not [0, %lld)",
                            what, name, (long long)c, what[0] == 'o' ? "output" : "input", (long long)next);
  return true;
}

/* The tiles of each node: one whole tile, or slices whose out_channels
 * partition its output channels and, within each output slice (an
 * input-channel group), whose in_channels partition operand 0's input
 * channels; with row bands (check_row_slices) the groups are the tiles of
 * one output channels x rows rectangle. */
static bool check_slices(nc_op *chip, fn_view *v, node_info *ni)
{
  const char *name = nc_dataflow_node_get_name(ni->node);
  size_t n = 0, n_split = 0, n_in = 0, n_rows = 0;
  node_info *b = find_node(v, ni->name); /* the tiles named after ni: the chain of the first node of its name */
  if (!check_replicas(chip, v, ni, b))
    return false;
  FOR_NODE_TILES(v, b, t)
    if (first_copy(t)) {
      int64_t lo, hi;
      n++;
      n_split += nc_core_tile_get_out_channels(t, &lo, &hi);
      n_in += nc_core_tile_get_in_channels(t, &lo, &hi);
      n_rows += nc_core_tile_get_out_rows(t, &lo, &hi);
    }
  if (n_rows)
    return check_row_slices(chip, v, ni, b, n);
  if (n <= 1 && n_split == 0 && n_in == 0)
    return true;
  if (n_split != n && (n_in == 0 || n_split != 0))
    return nc_op_emit_error(chip, "node '%s' has %zu tiles, so each must compute a slice of its output channels "
                                  "(out_channels)%s", name, n, n_in ? " or all of them (none has out_channels)" : "");
  int64_t c = node_facts(ni)->out_channels, cin = ni->in_channels;
  int64_t (*s)[4] = nc_xcalloc(n, sizeof *s);
  size_t i = 0;
  FOR_NODE_TILES(v, b, t)
    if (first_copy(t)) {
      if (!nc_core_tile_get_out_channels(t, &s[i][0], &s[i][1]))
        s[i][0] = 0, s[i][1] = c;
      if (!nc_core_tile_get_in_channels(t, &s[i][2], &s[i][3]))
        s[i][2] = 0, s[i][3] = cin;
      i++;
    }
  qsort(s, n, sizeof *s, cmp_slice4);
  /* the output slices (one per group) partition the output channels */
  int64_t(*outs)[4] = nc_xcalloc(n, sizeof *outs);
  size_t n_groups = 0;
  for (i = 0; i < n; i++)
    if (!n_groups || s[i][0] != outs[n_groups - 1][0] || s[i][1] != outs[n_groups - 1][1])
      memcpy(outs[n_groups++], s[i], sizeof *outs);
  bool ok = check_partition(chip, name, "out_channels", &outs[0][0], n_groups, 4, c);
  for (size_t g = 0, first = 0; ok && g < n_groups; g++) { /* each group's input slices partition the inputs */
    size_t m = 0;
    while (first + m < n && s[first + m][0] == outs[g][0] && s[first + m][1] == outs[g][1])
      m++;
    if (m > 1 || n_in)
      ok = check_partition(chip, name, "in_channels", &s[first][2], m, 4, cin);
    first += m;
  }
  free(outs);
  free(s);
  return ok;
}

/* True if `consumer` reads `producer`'s result (or, with a NULL producer,
 * an operand from outside the nodes). */
static bool reads_from(nc_op *consumer, nc_op *producer)
{
  for (size_t i = 0, n = nc_op_get_num_operands(consumer); i < n; i++)
    if (nc_dataflow_node_get_producer(consumer, i) == producer)
      return true;
  return false;
}

/* True if `consumer` reads `producer`'s result through a channel concat
 * without tiles (core-fold-concat: the producer sends to the concat's readers). */
static bool reads_through_concat(nc_op *consumer, nc_op *producer)
{
  for (size_t i = 0, n = nc_op_get_num_operands(consumer); i < n; i++) {
    nc_op *c = nc_dataflow_node_get_producer(consumer, i);
    if (c && nc_core_node_is_foldable_concat(c) && reads_from(c, producer))
      return true;
  }
  return false;
}

static bool result_leaves_nodes(nc_op *node)
{
  for (nc_use *u = nc_value_get_first_use(nc_op_get_result(node, 0)); u; u = nc_use_get_next(u))
    if (!nc_dataflow_is_node(nc_use_get_owner(u)))
      return true;
  return false;
}

/* A partial-sum recv or send: between two tiles of one input-channel group
 * (same node, out_channels and out_rows, both with in_channels), from a tile
 * to the group's reducer. */
static bool check_partial_sum(nc_op *tile, nc_op *op, const nc_core_instr *in, nc_op *peer)
{
  int64_t a0 = 0, a1 = 0, b0 = 0, b1 = 0, r0 = 0, r1 = 0, q0 = 0, q1 = 0, lo, hi;
  bool recv = in->kind == NC_CORE_RECV;
  if (!peer || strcmp(nc_core_tile_get_node(peer), nc_core_tile_get_node(tile)) ||
      !nc_core_tile_get_in_channels(tile, &lo, &hi) || !nc_core_tile_get_in_channels(peer, &lo, &hi) ||
      nc_core_tile_get_out_channels(tile, &a0, &a1) != nc_core_tile_get_out_channels(peer, &b0, &b1) || a0 != b0 ||
      a1 != b1 || nc_core_tile_get_out_rows(tile, &r0, &r1) != nc_core_tile_get_out_rows(peer, &q0, &q1) ||
      r0 != q0 || r1 != q1)
    return nc_op_emit_error(op, "%s partial sums (network 1) %s a tile outside its input-channel group (a tile of "
                            "node '%s' with in_channels and the same out_channels and out_rows)",
                            recv ? "receives" : "sends", recv ? "from" : "to", nc_core_tile_get_node(tile));
  if (!nc_core_tile_is_reducer(recv ? tile : peer))
    return nc_op_emit_error(op, "%s partial sums (network 1) %s a tile that is not the group's reducer (the slice "
                            "at input channel 0)", recv ? "receives" : "sends", recv ? "on" : "to");
  return true;
}

static bool check_tile_program(fn_view *v, const grid *g, nc_op *tile, node_info *ni)
{
  nc_op *node = ni->node;
  const char *name = nc_dataflow_node_get_name(node);
  nc_op *program = nc_core_tile_get_program(tile);
  nc_block *b = program ? nc_core_program_get_body(program) : NULL;
  size_t n_ops = nc_op_get_num_operands(node);
  if (!check_placed(tile, b))
    return false;
  tile_at self = tile_at_of(tile);
  for (nc_op *op = b ? nc_block_get_first_op(b) : NULL; op; op = nc_op_get_next(op)) {
    nc_core_instr in;
    if (!nc_core_instr_get(op, &in))
      continue;
    bool host = in.x == NC_CORE_HOST && in.y == NC_CORE_HOST;
    bool talks = in.kind == NC_CORE_RECV || in.kind == NC_CORE_SEND;
    int32_t gi = host || !talks ? -1 : grid_index(g, in.x, in.y, in.slot);
    nc_op *peer = host || !talks ? NULL : gi >= 0 ? g->tiles[gi] : grid_get(g, in.x, in.y, in.slot);
    if (talks && !host && !check_endpoint(g, self, op, &in, peer)) /* check_program's checks, in this pass */
      return false;
    node_info *pi = NULL; /* the peer's node, looked up once per peer tile */
    if (gi >= 0 && !(pi = v->of_tile[gi]))
      pi = v->of_tile[gi] = find_node(v, nc_core_tile_get_node(peer));
    else if (gi < 0 && peer)
      pi = find_node(v, nc_core_tile_get_node(peer));
    if (in.kind != NC_CORE_COMPUTE && in.kind != NC_CORE_WAIT && !check_peer_frames(tile, op, &in, peer))
      return false;
    if (in.kind == NC_CORE_COMPUTE) {
      int64_t total = n_iters(v, ni);
      if (total >= 0 && in.end > total)
        return nc_op_emit_error(op, "computes iterations [%lld, %lld) but node '%s' has %lld", (long long)in.begin,
                                (long long)in.end, name, (long long)total);
    } else if (in.network == NC_CORE_NET_PARTIAL_SUM) {
      if (!check_partial_sum(tile, op, &in, peer))
        return false;
    } else if (in.kind == NC_CORE_RECV) {
      if (in.operand >= (int64_t)n_ops)
        return nc_op_emit_error(op, "receives operand %lld but node '%s' has %zu operand%s", (long long)in.operand,
                                name, n_ops, n_ops == 1 ? "" : "s");
      nc_op *producer = nc_dataflow_node_get_producer(node, (size_t)in.operand);
      if (in.channel_offset || (producer && pi && pi->node != producer && nc_core_node_is_foldable_concat(producer))) {
        /* a folded concat's input, from a tile of its producer */
        int64_t off = -1;
        for (size_t k = 0; producer && pi && k < nc_op_get_num_operands(producer) && off < 0; k++)
          if (nc_dataflow_node_get_producer(producer, k) == pi->node)
            off = nc_core_concat_channel_offset(producer, k);
        if (!producer || !nc_core_node_is_foldable_concat(producer) || off != in.channel_offset)
          return nc_op_emit_error(op, "receives operand %lld of '%s' at channel_offset %lld, but that operand is no "
                                  "folded concat whose input from the sender starts at that channel",
                                  (long long)in.operand, name, (long long)in.channel_offset);
        producer = pi->node;
      }
      if (!producer && !host)
        return nc_op_emit_error(op, "receives operand %lld of '%s' from (%lld, %lld), but that operand comes from "
                                    "the host (-1, -1)",
                                (long long)in.operand, name, (long long)in.x, (long long)in.y);
      if (producer && (!pi || pi->node != producer))
        return nc_op_emit_error(op, "receives operand %lld of '%s' from %s%s%s, not from a tile of its producer '%s'",
                                (long long)in.operand, name, host ? "the host" : "a tile of '",
                                host ? "" : nc_core_tile_get_node(peer), host ? "" : "'",
                                nc_dataflow_node_get_name(producer));
      int64_t total = producer ? n_iters(v, pi) : -1;
      if (total >= 0 && in.iter >= total)
        return nc_op_emit_error(op, "waits for iteration %lld of '%s', which has %lld", (long long)in.iter,
                                nc_dataflow_node_get_name(producer), (long long)total);
    } else if (in.kind == NC_CORE_SEND) {
      int64_t total = n_iters(v, ni);
      if (total >= 0 && in.iter >= total)
        return nc_op_emit_error(op, "sends iteration %lld but node '%s' has %lld", (long long)in.iter, name,
                                (long long)total);
      if (host ? !result_leaves_nodes(node)
               : !(pi && (reads_from(pi->node, node) || reads_through_concat(pi->node, node))))
        return nc_op_emit_error(op, "sends to %s%s%s, which does not read the output of '%s'",
                                host ? "the host" : "a tile of '", host ? "" : nc_core_tile_get_node(peer),
                                host ? "" : "'", name);
    }
  }
  return true;
}

bool core_verify_chip_symbols(nc_op *chip, nc_symbol_table_collection *tables)
{
  nc_attr *ref = nc_op_get_attr_str(chip, "function");
  if (!ref)
    return true;
  nc_op *fn = nc_symbol_lookup_nearest(tables, chip, ref);
  if (!fn)
    return nc_op_emit_error(chip, "implements function '@%s', which does not exist",
                            nc_core_chip_get_function_name(chip) ? nc_core_chip_get_function_name(chip) : "?");
  fn_view v = {.nodes = nc_xcalloc(nc_dataflow_num_nodes(fn) + 1, sizeof *v.nodes)};
  grid g;
  grid_init(&g, chip);
  for (nc_op *t = nc_core_chip_first_tile(chip); t; t = nc_core_tile_next(t))
    grid_add(&g, t);
  size_t n_tiles = nc_core_chip_get_num_tiles(chip);
  v.of_tile = nc_xcalloc(g.n + 1, sizeof *v.of_tile);
  v.tiles = nc_xcalloc(n_tiles + 1, sizeof *v.tiles);
  v.next_tile = nc_xcalloc(n_tiles + 1, sizeof *v.next_tile);
  for (nc_op *n = nc_dataflow_first_node(fn); n; n = nc_dataflow_next_node(n))
    v.nodes[v.n++] = (node_info){n, -2, .first_tile = -1, .last_tile = -1};
  index_nodes(&v);
  bool ok = true;
  for (nc_op *t = nc_core_chip_first_tile(chip); t && ok; t = nc_core_tile_next(t)) {
    node_info *ni = find_node(&v, nc_core_tile_get_node(t));
    if (!ni) {
      ok = nc_op_emit_error(t, "computes node '%s', which function '@%s' does not have", nc_core_tile_get_node(t),
                            nc_core_chip_get_function_name(chip));
      break;
    }
    if (v.n_tiles < n_tiles)
      bucket_tile(&v, ni, t);
    node_facts(ni);
    int64_t lo, hi, c = ni->out_channels;
    if (nc_core_tile_get_out_channels(t, &lo, &hi) && hi > c)
      ok = c > 0 ? nc_op_emit_error(t, "computes output channels [%lld, %lld) of node '%s', which has %lld",
                                    (long long)lo, (long long)hi, nc_core_tile_get_node(t), (long long)c)
                 : nc_op_emit_error(t, "splits node '%s' by output channels, but a %s node is not split",
                                    nc_core_tile_get_node(t), nc_dataflow_node_get_kind(ni->node));
    int64_t rows = ni->out_rows;
    if (ok && nc_core_tile_get_out_rows(t, &lo, &hi) && hi > rows)
      ok = rows > 0 ? nc_op_emit_error(t, "computes output rows [%lld, %lld) of node '%s', which has %lld",
                                       (long long)lo, (long long)hi, nc_core_tile_get_node(t), (long long)rows)
                    : nc_op_emit_error(t, "splits node '%s' by output rows, but its output has no rows",
                                       nc_core_tile_get_node(t));
    int64_t cin = ni->in_channels;
    if (ok && nc_core_tile_get_in_channels(t, &lo, &hi) && hi > cin)
      ok = cin > 0 ? nc_op_emit_error(t, "sums over input channels [%lld, %lld) of node '%s', which has %lld",
                                      (long long)lo, (long long)hi, nc_core_tile_get_node(t), (long long)cin)
                   : nc_op_emit_error(t, "splits node '%s' by input channels, but only a conv with group 1 or a "
                                      "matmul sums over them", nc_core_tile_get_node(t));
    ok = ok && check_accumulator(t, ni->node, ni->accumulates) && check_tile_program(&v, &g, t, ni);
  }
  for (size_t i = 0; i < v.n && ok; i++)
    ok = check_slices(chip, &v, &v.nodes[i]);
  if (v.ctx) {
    core_isl_scope_exit(v.scope);
    nc_dataflow_isl_ctx_destroy(v.ctx);
  }
  free(v.by_name);
  free(v.of_tile);
  free(v.tiles);
  free(v.next_tile);
  free(v.nodes);
  grid_free(&g);
  return ok;
}
