/* core_place_small.c: core-place{small-guests}, small weightless layers on
 * other layers' cores.
 *
 * A network's tail holds layers with almost no work: resnet50's global
 * average pool (82 cycles per frame at 4 bits) and flatten (33) each take a
 * core of their own, while min-max balancing (core_split_rows.c) is a few
 * cores short of the next shorter slowest stage. A core runs several tiles
 * interleaved (core.tile slot), so such a layer's single tile can share a
 * core whose compute, sends and incoming links have idle time; balancing
 * then counts it as taking no core and no time, as it does the guests
 * (core_place_guests.c) and the residual adds (core_place_adds.c).
 *
 * Small means: no weights, one operand, and a whole tile (its work at its
 * width's MAC rate plus its packed output at the link width, or its input
 * at a byte an element over one link, whichever is longer) of at most a
 * given share of the chip's compute bound (every layer's work at its MAC
 * rate over all the cores: no slowest stage is shorter). A layer near that
 * bound would be the slowest stage on any core (digits' 2x2 pool: its input
 * over one link is 64 cycles, the balanced split's slowest stage 30).
 *
 * The host is chosen after balancing, from the same per-tile estimate: each
 * tile's share (channels x rows) of its layer, plus the guests its core
 * holds already; the small tile goes where the longer of compute and links
 * in grows least, a message from a tile of that core costing no link.
 */
#include <stdlib.h>
#include <string.h>

#include "core_place_small.h"
#include "core_util.h"
#include "nc/dialects/core/chip_desc.h"
#include "nc/dialects/dataflow/dataflow.h"
#include "nc/dialects/dataflow/layer.h"

/* A core's estimated cycles per frame: compute and sends, and its links in. */
typedef struct load {
  double busy, in;
} load;

/* The chip's rates the estimate reads. */
typedef struct rates {
  nc_chip_desc desc;
  double bw; /* link bytes per cycle */
} rates;

static bool rates_of(nc_op *chip, rates *r)
{
  if (!nc_chip_desc_of_module(nc_op_get_parent_op(chip), false, &r->desc) || r->desc.link_bytes_per_cycle <= 0)
    return false;
  r->bw = (double)r->desc.link_bytes_per_cycle;
  return true;
}

/* Cycles per frame of `share` of node's work at its output width's MAC rate. */
static double work_cycles(const rates *r, nc_op *node, double share)
{
  unsigned w = nc_type_get_width(nc_type_get_element_type(nc_value_get_type(nc_op_get_result(node, 0))));
  int64_t rate = nc_chip_desc_macs_per_cycle(&r->desc, w ? w : 8);
  return share * (double)core_node_work(node) / (double)(rate > 0 ? rate : 1);
}

/* The estimated load of `share` of node; `local`: the producer whose
 * messages arrive within the core (NULL: none). */
static load node_load(const rates *r, nc_op *node, double share, const nc_op *local)
{
  nc_type *out = nc_value_get_type(nc_op_get_result(node, 0));
  unsigned w = nc_type_get_width(nc_type_get_element_type(out));
  double packed = w && w < 8 ? (double)w / 8.0 : 1.0;
  load l = {work_cycles(r, node, share) + share * (double)nc_type_get_num_elements(out) * packed / r->bw, 0};
  for (size_t o = 0, n = nc_op_get_num_operands(node); o < n; o++)
    if (!local || nc_dataflow_node_get_producer(node, o) != local)
      l.in += share * (double)nc_type_get_num_elements(nc_value_get_type(nc_op_get_operand(node, o))) / r->bw;
  return l;
}

/* Tile t's estimated load: the share of its layer it computes. */
static load tile_load(const rates *r, nc_op *fn, nc_op *t, const nc_op *local)
{
  nc_op *node = nc_core_find_node(fn, nc_core_tile_get_node(t));
  if (!node || nc_op_get_num_results(node) < 1)
    return (load){0, 0};
  int64_t c = nc_core_node_get_out_channels(node), rows = nc_core_node_get_out_rows(node), lo, hi;
  double share = 1;
  if (c > 0 && nc_core_tile_get_out_channels(t, &lo, &hi))
    share *= (double)(hi - lo) / (double)c;
  if (rows > 0 && nc_core_tile_get_out_rows(t, &lo, &hi))
    share *= (double)(hi - lo) / (double)rows;
  return node_load(r, node, share, local);
}

bool *core_small_layers(nc_op *chip, nc_op *fn, const bool *taken, int64_t percent, int64_t *count)
{
  *count = 0;
  rates r;
  int64_t cores = nc_core_chip_get_rows(chip) * nc_core_chip_get_cols(chip);
  if (percent <= 0 || cores <= 0 || !rates_of(chip, &r))
    return NULL;
  double bound = 0; /* the chip's compute bound: no slowest stage is shorter */
  for (nc_op *node = nc_dataflow_first_node(fn); node; node = nc_dataflow_next_node(node))
    if (nc_op_get_num_results(node) == 1)
      bound += work_cycles(&r, node, 1.0 / (double)cores);
  size_t n = nc_dataflow_num_nodes(fn), i = 0;
  bool *small = calloc(n + 1, sizeof *small);
  for (nc_op *node = small ? nc_dataflow_first_node(fn) : NULL; node; node = nc_dataflow_next_node(node), i++) {
    nc_dataflow_layer l;
    if ((taken && taken[i]) || (nc_dataflow_node_get_layer(node, &l) && l.weights) ||
        nc_op_get_num_results(node) != 1 || nc_op_get_num_operands(node) != 1 ||
        !core_chip_whole_tile(chip, nc_dataflow_node_get_name(node)))
      continue;
    nc_op *p = nc_dataflow_node_get_producer(node, 0);
    if (nc_core_node_is_foldable_concat(node) || (p && nc_core_node_is_foldable_concat(p)))
      continue; /* core-fold-concat removes the tile, or re-routes what it reads */
    load w = node_load(&r, node, 1.0, NULL);
    if ((w.busy > w.in ? w.busy : w.in) * 100.0 > bound * (double)percent)
      continue;
    small[i] = true, ++*count;
  }
  if (!*count) {
    free(small);
    return NULL;
  }
  return small;
}

static bool in_guests(const core_guests *g, nc_op *t)
{
  for (size_t j = 0; j < g->n; j++)
    if (g->tiles[j] == t)
      return true;
  return false;
}

/* Whether the core of `host` holds a tile of node `name` (itself or a guest). */
static bool core_holds(const core_guests *g, nc_op *host, const char *name)
{
  if (!strcmp(nc_core_tile_get_node(host), name))
    return true;
  for (size_t j = 0; j < g->n; j++)
    if (g->hosts[j] == host && !strcmp(nc_core_tile_get_node(g->tiles[j]), name))
      return true;
  return false;
}

/* The longer of compute and links in on host's core with tile t (and the
 * guests t hosts) there too; *fits: their buffers fit its SRAM. */
static double with_tile(const rates *r, nc_op *fn, const core_guests *g, nc_op *host, nc_op *t, int64_t sram,
                        bool *fits)
{
  int64_t bytes = core_tile_bytes(host) + core_tile_bytes(t), guests = 1;
  load sum = tile_load(r, fn, host, NULL);
  for (size_t j = 0; j < g->n; j++)
    if (g->hosts[j] == host || g->hosts[j] == t) {
      load l = tile_load(r, fn, g->tiles[j], NULL);
      sum.busy += l.busy, sum.in += l.in, bytes += core_tile_bytes(g->tiles[j]), guests++;
    }
  nc_op *node = nc_core_find_node(fn, nc_core_tile_get_node(t)), *local = NULL;
  for (size_t o = 0, n = node ? nc_op_get_num_operands(node) : 0; o < n && !local; o++) {
    nc_op *p = nc_dataflow_node_get_producer(node, o);
    if (p && core_holds(g, host, nc_dataflow_node_get_name(p)))
      local = p;
  }
  load l = tile_load(r, fn, t, local);
  sum.busy += l.busy, sum.in += l.in;
  *fits = bytes <= sram && guests < NC_CORE_MAX_SLOTS;
  return sum.busy > sum.in ? sum.busy : sum.in;
}

bool core_pack_small(nc_op *chip, nc_op *fn, const bool *small, core_guests *g)
{
  rates r;
  if (!rates_of(chip, &r))
    return false;
  int64_t sram = nc_core_chip_get_sram_bytes(chip);
  size_t i = 0;
  for (nc_op *node = nc_dataflow_first_node(fn); node; node = nc_dataflow_next_node(node), i++) {
    if (!small[i])
      continue;
    nc_op *t = core_chip_whole_tile(chip, nc_dataflow_node_get_name(node)), *best = NULL;
    double least = 0;
    for (nc_op *h = t ? nc_core_chip_first_tile(chip) : NULL; h; h = nc_core_tile_next(h)) {
      bool is_small = false; /* a small layer's tile: a guest itself, or waiting for its host */
      size_t q = 0;
      for (nc_op *m = nc_dataflow_first_node(fn); m && !is_small; m = nc_dataflow_next_node(m), q++)
        is_small = small[q] && !strcmp(nc_core_tile_get_node(h), nc_dataflow_node_get_name(m));
      nc_op *hn = nc_core_find_node(fn, nc_core_tile_get_node(h));
      if (is_small || in_guests(g, h) || nc_core_tile_get_slot(h) || !hn || nc_core_node_is_foldable_concat(hn))
        continue; /* core-fold-concat removes a foldable concat's tile */
      bool fits;
      double c = with_tile(&r, fn, g, h, t, sram, &fits);
      if (fits && (!best || c < least))
        best = h, least = c;
    }
    if (!best)
      return false;
    for (size_t j = 0; j < g->n; j++)
      if (g->hosts[j] == t) /* its guests share the core it joins */
        g->hosts[j] = best;
    core_guests_add(g, t, best, false);
  }
  return true;
}

double core_hosts_busiest(nc_op *chip, nc_op *fn, const core_guests *g)
{
  rates r;
  double most = 0;
  if (!rates_of(chip, &r))
    return 0;
  for (size_t j = 0; j < g->n; j++) {
    bool seen = false; /* each host once: at its first guest */
    for (size_t k = 0; k < j && !seen; k++)
      seen = g->hosts[k] == g->hosts[j];
    if (seen)
      continue;
    double busy = tile_load(&r, fn, g->hosts[j], NULL).busy;
    for (size_t k = j; k < g->n; k++)
      if (g->hosts[k] == g->hosts[j])
        busy += tile_load(&r, fn, g->tiles[k], NULL).busy;
    most = busy > most ? busy : most;
  }
  return most;
}
