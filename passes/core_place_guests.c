/* core_place_guests.c: core-place's guest layers (core-place{guest-above}).
 *
 * Every weight stays in SRAM, so a network whose fully connected weights
 * fill much of the chip (the VGGs: 123.6 M weights for 1.6% of vgg11's
 * MACs) gives those layers most of the cores when each slice gets a core of
 * its own: 165 of 256 at 8 bits, each computing a few hundred cycles per
 * frame while the convs, on the 91 cores left, are the pipeline's slowest
 * stages. A core runs several tiles interleaved (core.tile slot), so the
 * slices of such layers can instead sit in the SRAM the conv tiles leave
 * spare and compute in their cores' idle time: the convs get the grid.
 *
 * core-place then balances the other layers as if the guests took no core
 * and cost nothing (their work is a few hundred cycles per slice), and
 * afterwards cuts each guest layer into output-channel slices of whatever
 * width fits: first on the cores no tile uses, then in the spare SRAM of
 * the other tiles, the most spare first. When they do not fit, core-place
 * balances again with that many fewer cores (core_pack_guests reports how
 * many). The slices that share a core are left out of the placement search
 * and follow their host tile onto its core, in the core's next slot.
 */
#include <stdlib.h>
#include <string.h>

#include "core_place_guests.h"
#include "core_util.h"
#include "nc/dialects/dataflow/dataflow.h"
#include "nc/dialects/dataflow/layer.h"
#include "nc/ir/diag.h"

/* A guest layer uses each weight at most this many times per frame. */
#define GUEST_REUSE 4

/* The bytes of a tile of `node` computing output channels [lo, hi) (0, 0: all). */
static bool slice_bytes(nc_op *node, int64_t lo, int64_t hi, isl_ctx *ictx, int64_t *bytes)
{
  nc_core_buffer_spec *specs;
  size_t n;
  char err[512];
  if (!core_node_buffers(node, lo, hi, ictx, &specs, &n, err, sizeof err))
    return nc_op_emit_error(node, "core-place: %s", err);
  *bytes = 0;
  for (size_t i = 0; i < n; i++)
    *bytes = *bytes > INT64_MAX - specs[i].bytes ? INT64_MAX : *bytes + specs[i].bytes;
  free(specs);
  return true;
}

/* A slice of w channels takes base + w * per bytes (weights, bias, output
 * and accumulators are per channel; the input buffer is not). */
static bool slice_model(nc_op *node, isl_ctx *ictx, int64_t *base, int64_t *per)
{
  int64_t one, two;
  if (!slice_bytes(node, 0, 1, ictx, &one) || !slice_bytes(node, 0, 2, ictx, &two))
    return false;
  *per = two - one, *base = one - *per;
  return *per > 0 && *base >= 0;
}

/* The most channels (at most `want`) whose slice of `node` fits `room` bytes,
 * checked exactly (packed weights round per slice). */
static int64_t fitting(nc_op *node, int64_t lo, int64_t want, int64_t room, int64_t base, int64_t per,
                       isl_ctx *ictx, int64_t *bytes)
{
  int64_t s = room > base ? (room - base) / per : 0;
  s = s < want ? s : want;
  while (s > 0 && (!slice_bytes(node, lo, lo + s, ictx, bytes) || *bytes > room))
    s--;
  return s;
}

static bool light(nc_op *node)
{
  nc_dataflow_layer l;
  if (!nc_dataflow_node_get_layer(node, &l) || !l.weights ||
      (l.kind != NC_DATAFLOW_LAYER_CONV && l.kind != NC_DATAFLOW_LAYER_MATMUL))
    return false;
  int64_t w = nc_type_get_num_elements(nc_attr_get_type(l.weights));
  return w > 0 && core_node_work(node) <= GUEST_REUSE * w && nc_core_node_get_out_channels(node) >= 2;
}

/* The single tile of `node` on the chip, when it computes the whole node. */
static nc_op *whole_tile(nc_op *chip, nc_op *node)
{
  nc_op *found = NULL;
  const char *name = nc_dataflow_node_get_name(node);
  for (nc_op *t = nc_core_chip_first_tile(chip); t; t = nc_core_tile_next(t)) {
    int64_t lo, hi;
    if (strcmp(nc_core_tile_get_node(t), name))
      continue;
    if (found || nc_core_tile_get_out_channels(t, &lo, &hi) || nc_core_tile_get_out_rows(t, &lo, &hi) ||
        nc_core_tile_get_in_channels(t, &lo, &hi))
      return NULL;
    found = t;
  }
  return found;
}

bool *core_guest_layers(nc_op *chip, nc_op *fn, isl_ctx *ictx, int64_t above, int64_t min_extra, int64_t cores,
                        int64_t *extra)
{
  *extra = 0;
  if (above <= 0 && min_extra <= 0)
    return NULL;
  size_t n = nc_dataflow_num_nodes(fn), i = 0;
  bool *guest = calloc(n + 1, sizeof *guest);
  int64_t sram = nc_core_chip_get_sram_bytes(chip);
  if (!guest)
    return NULL;
  for (nc_op *node = nc_dataflow_first_node(fn); node; node = nc_dataflow_next_node(node), i++) {
    int64_t whole, base, per;
    if (!light(node) || !whole_tile(chip, node) || !slice_bytes(node, 0, 0, ictx, &whole) || whole <= sram ||
        !slice_model(node, ictx, &base, &per) || base >= sram || (sram - base) / per < 1)
      continue;
    int64_t c = nc_core_node_get_out_channels(node), fit = (sram - base) / per;
    guest[i] = true;
    *extra += (c + fit - 1) / fit - 1;
  }
  bool share = above > 0 && *extra * 100 > cores * above, count = min_extra > 0 && *extra >= min_extra;
  if (!share && !count) {
    free(guest);
    return NULL;
  }
  return guest;
}

/* A tile that may take guests, and the SRAM it leaves. */
typedef struct host {
  nc_op *tile;
  int64_t spare;
  int64_t guests;
} host;

static int by_spare(const void *a, const void *b)
{
  const host *x = a, *y = b;
  return x->spare != y->spare ? (x->spare < y->spare ? 1 : -1) : 0;
}

/* The bytes core-host-buffers will want on tile t's core for the input
 * buffers the host writes: `frames` frames of what the tile reads of each
 * network input (a band: its rows and the window's halo). A guest slice must
 * leave them free, or the host, which writes only where a buffer has room,
 * waits on credits at every row: vgg11 at 4 bits packed its stem's eight
 * channel slices, each reading the whole image, to the byte with fully
 * connected slices, and their input buffers grew by 9 KB instead of 300 KB. */
static int64_t host_room(nc_op *t, nc_op *fn, int64_t frames)
{
  nc_op *node = frames > 0 ? nc_core_find_node(fn, nc_core_tile_get_node(t)) : NULL;
  if (!node)
    return 0;
  int64_t lo = 0, hi = 0, out_rows = nc_core_node_get_out_rows(node), room = 0;
  bool band = nc_core_tile_get_out_rows(t, &lo, &hi) && out_rows > 0 && hi > lo;
  nc_dataflow_layer l;
  bool window = nc_dataflow_node_get_layer(node, &l) &&
                (l.kind == NC_DATAFLOW_LAYER_CONV || l.kind == NC_DATAFLOW_LAYER_MAX_POOL ||
                 l.kind == NC_DATAFLOW_LAYER_AVG_POOL);
  for (size_t o = 0, m = nc_op_get_num_operands(node); o < m; o++) {
    if (nc_dataflow_node_get_producer(node, o)) /* from a tile, not the host */
      continue;
    nc_type *ty = nc_value_get_type(nc_op_get_operand(node, o));
    int64_t d[NC_MAX_RANK], bytes = nc_type_get_num_elements(ty); /* the host sends int8: a byte an element */
    if (band && nc_dataflow_tensor_coords(ty, d) == 3 && d[1] > 0) { /* [C, H, W]: the rows the band reads */
      int64_t rows = ((hi - lo) * d[1] + out_rows - 1) / out_rows;
      if (window && l.stride[0] > 0)
        rows = (hi - lo - 1) * l.stride[0] + (l.kernel[0] - 1) * (l.dilation[0] > 0 ? l.dilation[0] : 1) + 1;
      bytes = bytes / d[1] * (rows < d[1] ? rows : d[1]);
    }
    room = bytes > 0 && bytes <= (INT64_MAX / 2 - room) / frames ? room + bytes * frames : INT64_MAX / 2;
  }
  return room;
}

typedef struct guest_layer {
  nc_op *node, *tile;
  int64_t base, per;
} guest_layer;

static int by_per(const void *a, const void *b)
{
  const guest_layer *x = a, *y = b;
  return x->per != y->per ? (x->per < y->per ? 1 : -1) : 0;
}

void core_guests_add(core_guests *g, nc_op *tile, nc_op *host_tile, bool first)
{
  g->first = nc_xrealloc(g->first, (g->n + 1) * sizeof *g->first);
  g->first[g->n] = first;
  g->tiles = nc_xrealloc(g->tiles, (g->n + 1) * sizeof *g->tiles);
  g->hosts = nc_xrealloc(g->hosts, (g->n + 1) * sizeof *g->hosts);
  g->anchors = nc_xrealloc(g->anchors, (g->n + 1) * sizeof *g->anchors);
  g->tiles[g->n] = tile, g->hosts[g->n] = host_tile, g->anchors[g->n++] = NULL;
}

/* A new tile of `node` for channels [lo, hi) after `prev`, with its buffers. */
static nc_op *add_slice(nc_op *chip, nc_op *prev, nc_op *node, int64_t lo, int64_t hi, isl_ctx *ictx)
{
  nc_core_buffer_spec *specs;
  size_t n;
  char err[512];
  if (!core_node_buffers(node, lo, hi, ictx, &specs, &n, err, sizeof err)) {
    nc_op_emit_error(node, "core-place: %s", err);
    return NULL;
  }
  nc_op *t = nc_core_tile_create(chip, nc_op_get_loc(prev), nc_dataflow_node_get_name(node), -1, -1, lo, hi);
  nc_op_move_after(t, prev);
  for (size_t i = 0; i < n; i++)
    nc_core_tile_add_buffer(t, specs[i].name, specs[i].kind, specs[i].bytes, -1);
  free(specs);
  return t;
}

bool core_pack_guests(nc_op *chip, nc_op *fn, const bool *guest, const bool *no_host, int64_t cores,
                      int64_t host_frames, bool spare_first, isl_ctx *ictx, core_guests *g, int64_t *short_cores)
{
  memset(g, 0, sizeof *g);
  *short_cores = 0;
  int64_t sram = nc_core_chip_get_sram_bytes(chip), free_cores = cores;
  size_t n_nodes = nc_dataflow_num_nodes(fn), n_layers = 0, n_hosts = 0, i = 0;
  guest_layer *layers = nc_xcalloc(n_nodes + 1, sizeof *layers);
  host *hosts = nc_xcalloc(nc_core_chip_get_num_tiles(chip) + 1, sizeof *hosts);
  bool ok = true;
  for (nc_op *node = nc_dataflow_first_node(fn); node; node = nc_dataflow_next_node(node), i++)
    if (guest[i]) {
      guest_layer *l = &layers[n_layers];
      l->node = node, l->tile = whole_tile(chip, node);
      if (!l->tile || !slice_model(node, ictx, &l->base, &l->per)) {
        ok = nc_op_emit_error(node, "core-place: guest layer '%s' is not one whole tile", nc_dataflow_node_get_name(node));
        break;
      }
      n_layers++;
    }
  for (nc_op *t = nc_core_chip_first_tile(chip); t && ok; t = nc_core_tile_next(t)) {
    bool is_guest = false;
    for (size_t k = 0; k < n_layers && !is_guest; k++)
      is_guest = layers[k].tile == t;
    if (is_guest)
      continue;
    size_t q = 0;
    for (nc_op *m = no_host ? nc_dataflow_first_node(fn) : NULL; m && !is_guest; m = nc_dataflow_next_node(m), q++)
      is_guest = no_host[q] && !strcmp(nc_core_tile_get_node(t), nc_dataflow_node_get_name(m));
    if (is_guest) /* a tile that will share a core itself (core_place_small.c) */
      continue;
    int64_t bytes = 0;
    for (nc_op *b = nc_core_tile_first_buffer(t); b; b = nc_core_buffer_next(b))
      bytes += nc_core_buffer_get_bytes(b);
    hosts[n_hosts++] = (host){t, sram - bytes - host_room(t, fn, host_frames), 0};
    free_cores--;
  }
  qsort(layers, n_layers, sizeof *layers, by_per); /* the widest columns first, into the largest spares */
  double missing = 0;
  for (size_t k = 0; k < n_layers && ok; k++) {
    guest_layer *l = &layers[k];
    int64_t c = nc_core_node_get_out_channels(l->node), lo = 0, bytes = 0;
    nc_op *prev = l->tile;
    for (int round = 0; round < 2 && lo < c && ok; round++) {
      if ((round == 0) != spare_first) { /* cores of their own while there are */
        while (lo < c && free_cores > 0 && ok) {
          int64_t s = fitting(l->node, lo, c - lo, sram, l->base, l->per, ictx, &bytes);
          if (s < 1)
            break;
          ok = (prev = add_slice(chip, prev, l->node, lo, lo + s, ictx)) != NULL;
          lo += s, free_cores--;
        }
        continue;
      }
      qsort(hosts, n_hosts, sizeof *hosts, by_spare);
      for (size_t h = 0; h < n_hosts && lo < c && ok; h++) {
        if (hosts[h].guests + 1 >= NC_CORE_MAX_SLOTS)
          continue;
        int64_t s = fitting(l->node, lo, c - lo, hosts[h].spare, l->base, l->per, ictx, &bytes);
        if (s < 1)
          break; /* sorted: no later host has more room */
        if (!(prev = add_slice(chip, prev, l->node, lo, lo + s, ictx))) {
          ok = false;
          break;
        }
        core_guests_add(g, prev, hosts[h].tile, false);
        hosts[h].spare -= bytes, hosts[h].guests++;
        lo += s;
      }
    }
    if (lo < c) /* what the rest would need on cores of their own */
      missing += (double)(c - lo) / (double)((sram - l->base) / l->per) + 1;
    else if (ok)
      nc_op_erase(l->tile);
  }
  if (ok && missing > 0)
    *short_cores = (int64_t)missing + 1;
  free(layers), free(hosts);
  if (!ok || missing > 0) {
    core_guests_destroy(g, false);
    return false;
  }
  return true;
}

void core_guests_detach(core_guests *g)
{
  if (!g->n)
    return;
  /* chip order, each with the tile it followed among those that stay */
  nc_op *chip = nc_op_get_parent_op(g->tiles[0]), *anchor = NULL;
  core_guests sorted = {nc_xcalloc(g->n, sizeof(nc_op *)), nc_xcalloc(g->n, sizeof(nc_op *)),
                        nc_xcalloc(g->n, sizeof(nc_op *)), 0, nc_xcalloc(g->n, sizeof(bool))};
  for (nc_op *t = nc_core_chip_first_tile(chip); t; t = nc_core_tile_next(t)) {
    size_t j = 0;
    while (j < g->n && g->tiles[j] != t)
      j++;
    if (j == g->n) {
      anchor = t;
      continue;
    }
    sorted.first[sorted.n] = g->first && g->first[j];
    sorted.tiles[sorted.n] = t, sorted.hosts[sorted.n] = g->hosts[j], sorted.anchors[sorted.n++] = anchor;
  }
  for (size_t j = 0; j < sorted.n; j++)
    nc_op_remove(sorted.tiles[j]);
  free(g->tiles), free(g->hosts), free(g->anchors), free(g->first);
  *g = sorted;
}

void core_guests_attach(nc_op *chip, core_guests *g)
{
  for (size_t j = 0, last = 0; j < g->n; j++) {
    nc_op *t = g->tiles[j], *h = g->hosts[j];
    bool first = g->first && g->first[j];
    if (first)
      nc_op_insert_before(t, h);
    else if (last > 0 && g->anchors[j] == g->anchors[last - 1])
      nc_op_insert_after(t, g->tiles[last - 1]);
    else if (g->anchors[j])
      nc_op_insert_after(t, g->anchors[j]);
    else if (nc_core_chip_first_tile(chip))
      nc_op_insert_before(t, nc_core_chip_first_tile(chip));
    else
      nc_block_append_op(nc_core_chip_get_body(chip), t);
    int64_t slot = 1;
    for (size_t k = 0; k < j; k++)
      slot += g->hosts[k] == h;
    nc_core_tile_set_position(t, nc_core_tile_get_x(h), nc_core_tile_get_y(h));
    nc_core_tile_set_slot(t, slot);
    last = first ? last : j + 1;
  }
  core_guests_destroy(g, false);
}

void core_guests_destroy(core_guests *g, bool detached)
{
  for (size_t j = 0; detached && j < g->n; j++)
    nc_op_destroy(g->tiles[j]);
  free(g->tiles), free(g->hosts), free(g->anchors), free(g->first);
  memset(g, 0, sizeof *g);
}
