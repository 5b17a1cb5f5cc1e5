/* core_place.c: core-place, which gives every tile of a core.chip a grid
 * position (docs/design/spine.md, section 3).
 *
 * Simple for now (greedy, no search): first, a node whose buffers do not
 * fit one core's SRAM is split by output channels over the fewest tiles
 * whose largest slice fits (balanced slices [C*j/k, C*(j+1)/k)), at most
 * max-tiles-per-layer of them when that option is set; splitting cannot
 * shrink the input line buffers, so a node whose inputs alone overflow is
 * left whole for core-plan-memory to report. Bands of output rows
 * (row-split, row-balance) are cut in core_split_rows.c. Then the tiles, in pipeline
 * order, are laid along a serpentine path (row 0 left to right, row 1 right
 * to left, ...), so consecutive layers, and the slices of a split layer,
 * sit on neighbouring cores: a chain of layers talks over single NoC hops.
 * The statistic noc-hops sums the Manhattan distance of every producer ->
 * consumer tile pair. A network with more tiles than cores is an error.
 * A conv or matmul that output-channel slices cannot fit (or every one,
 * with input-channel-split=N) is split by input channels as well, with
 * partial sums (core_split_channels.c).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core_pipeline_cost.h"
#include "core_place_adds.h"
#include "core_place_guests.h"
#include "core_place_small.h"
#include "core_split_rows.h"
#include "core_util.h"
#include "nc/dialects/core/chip_desc.h"
#include "nc/dialects/core/core.h"
#include "nc/dialects/dataflow/dataflow.h"
#include "nc/ir/diag.h"
#include "nc/ir/pass.h"

static const nc_pass_option_def options[] = {
  {"max-tiles-per-layer", NC_PASS_OPT_INT, "0",
   "Split a layer that does not fit one core over at most this many cores (0: as many as it needs)"},
  {"balance", NC_PASS_OPT_BOOL, "false",
   "Give the grid's spare cores to the layers with the most work per core (output-channel splits), so the "
   "slowest pipeline stage is as short as it can be"},
  {"balance-lookahead", NC_PASS_OPT_INT, "16",
   "Slices one balancing round may add (to the slowest stage, then to whichever becomes the slowest) before "
   "the slowest stage must be faster than at the round's start (1: stop at the first split that does not help)"},
  {"row-split", NC_PASS_OPT_INT, "0",
   "Split every conv, pool, elementwise, table and rescaling concat layer's tiles into this many bands of output "
   "rows (0, 1: none; at most one band per row)"},
  {"row-balance", NC_PASS_OPT_BOOL, "false",
   "After the output-channel split and balancing, give the spare cores to the slowest stages as bands of output "
   "rows while that makes them faster (core_split_rows.c)"},
  {"joint-split", NC_PASS_OPT_BOOL, "false",
   "With balance and row-balance: choose each conv and max-pool layer's output-channel slices and row bands together "
   "(the slowest stage gets the combination with the fewest tiles that shrinks its largest tile) instead of channel "
   "slices first and bands on the cores left (core_split_rows.c)"},
  {"joint-split-above", NC_PASS_OPT_INT, "0",
   "With balance and row-balance: split jointly (joint-split) when the tiles SRAM alone needs beyond one a layer "
   "take more than this percentage of the cores (weights that fill much of the grid, as the VGGs' fully connected "
   "layers: channel slices first spend the few cores left unevenly; 0: only with joint-split)"},
  {"joint-rows-below", NC_PASS_OPT_INT, "0",
   "With balance and row-balance: row balancing may also give more output-channel slices to conv and max-pool "
   "layers with at most this many output rows (14x14 layers: 14 rows make bands too coarse), as joint-split does "
   "for every layer (0: none)"},
  {"balance-ties", NC_PASS_OPT_BOOL, "false",
   "Output-channel balancing goes on through ties: a round that leaves the slowest stage as slow is kept when "
   "fewer stages are that slow (two equally slow layers: split one, then the other)"},
  {"band-multicast", NC_PASS_OPT_BOOL, "false",
   "Row balancing (row-balance) costs sends as core-multicast leaves them: a row once to all the tiles that read "
   "it, not once per tile"},
  {"recv-links", NC_PASS_OPT_INT, "0",
   "Row balancing costs receiving: a stage is as slow as the bytes its largest tile receives at the link width, "
   "over as many links as tiles send to it and this many at most (0: receiving is not costed)"},
  {"multicast", NC_PASS_OPT_BOOL, "false",
   "Cost sends as core-multicast will leave them: an iteration's output once to all the tiles of its consumers, "
   "each input step once to all its tiles"},
  {"fold-concat", NC_PASS_OPT_BOOL, "false",
   "Cost channel concats that only move data as core-fold-concat will leave them: no work and no sends of their "
   "own (their producers send to their readers)"},
  {"partial-bands", NC_PASS_OPT_BOOL, "false",
   "Row balancing (row-balance) may cut layers split by input channels into bands too (each band's tiles an "
   "input-channel group of their own, whose reducer adds the band's partial sums); row-split bands them always"},
  {"plan-copies", NC_PASS_OPT_INT, "0",
   "Row balancing (row-balance) keeps the round from which copies of the slowest layers (core-replicate, at most "
   "this many copies of a layer) on the cores left reach the fastest slowest stage, and undoes the rounds after it: "
   "a copy divides a layer's cycles without the halo rows and extra messages of bands (0, 1: balance while a band "
   "helps)"},
  {"input-channel-split", NC_PASS_OPT_INT, "0",
   "Split every conv (group 1) and matmul layer into this many input-channel slices whose int32 partial sums the "
   "slice at channel 0 adds (0: only layers that output-channel slices cannot fit in SRAM; -1: none)"},
  {"balance-minmax", NC_PASS_OPT_BOOL, "false",
   "With row-balance: after its rounds, take the split whose slowest stage (costed as the simulator times it: "
   "packed bytes below 8 bits, add-guests' work and sends on their convs' tiles) is the shortest the cores allow, "
   "changing any layer's channel slices and bands, when that is faster (core_split_rows.c)"},
  {"minmax-fold-concat", NC_PASS_OPT_BOOL, "false",
   "balance-minmax costs channel concats that only move data as core-fold-concat will leave them: no tile, their "
   "producers sending to their readers (the balancing rounds' costs follow fold-concat)"},
  {"minmax-recv-links", NC_PASS_OPT_INT, "1",
   "balance-minmax receives a tile's bytes over as many links as tiles send to it and this many at most, one "
   "producer's bytes over no more links than it has tiles (each tile's messages follow one XY route: link "
   "contention; core_link_cost.h); 1: every byte over one link"},
  {"minmax-single-links", NC_PASS_OPT_INT, "0",
   "balance-minmax receives the bytes of a stage that reads one producer only over as many links as that producer "
   "has tiles and this many at most (a pool reading a banded stem: each band's messages follow a route of their "
   "own); 0: as minmax-recv-links"},
  {"search-iterations", NC_PASS_OPT_INT, "0",
   "Moves tried by the placement search that lowers traffic x hops (0: keep the serpentine placement)"},
  {"seed", NC_PASS_OPT_INT, "1", "Seed of the placement search (the same seed, the same placement)"},
  {"host-weight", NC_PASS_OPT_INT, "1",
   "The placement search and link-iterations count the host's input bytes this many times: the host streams the "
   "inputs back to back at its link's pace, not the pipeline's, so the links on its routes are busy most of the "
   "time and the flows that cross them wait (nc-run --stats-json: link_wait_cycles)"},
  {"guest-above", NC_PASS_OPT_INT, "0",
   "Give layers whose weights fill cores but whose work is light (fully connected) no cores of their own when the "
   "tiles SRAM forces on them beyond one a layer take more than this percentage of the cores: their slices share "
   "the other tiles' cores, in the SRAM those leave spare (core_place_guests.c; 0: never)"},
  {"guest-extra-cores", NC_PASS_OPT_INT, "0",
   "Make those layers guests also when the cores they take beyond one a layer number at least this many, whatever "
   "their share of the grid: the cores they free go to the slowest layers (balance-minmax); 0: only guest-above"},
  {"add-guests", NC_PASS_OPT_BOOL, "false",
   "Cut each residual add like the conv producing one of its operands and put every slice on that conv tile's "
   "core (core.tile slot), so adds take no core of their own and send from their producer's ports; balancing "
   "counts them as taking no core and no time (core_place_adds.c)"},
  {"small-guests", NC_PASS_OPT_INT, "0",
   "Give weightless layers with one operand whose single tile would take at most this percentage of the chip's "
   "compute bound (compute and sends, or its input over one link; a global pool, a flatten) no core of their own: "
   "balancing counts them as taking no core and no time, then each shares the core its estimate leaves least busy "
   "(core_place_small.c; 0: never)"},
  {"host-buffer-frames", NC_PASS_OPT_INT, "0",
   "With guest-above: frames of each network input a tile reads that the guest slices leave free in its core's "
   "SRAM, for core-host-buffers{frames} to grow its input buffers into, unless the guests fit only in that room "
   "(0: none)"},
  {"guest-spare-first", NC_PASS_OPT_BOOL, "false",
   "With guest-above: guest slices fill the other tiles' spare SRAM before they take cores no tile uses, which "
   "core-replicate's copies of the slowest layer can take instead"},
  {"link-iterations", NC_PASS_OPT_INT, "0",
   "Moves tried after the search to spread the load over the mesh links (sum of squared bytes per link, XY "
   "routes), each kept only if it lowers that sum and keeps traffic x hops within 10% of the search's (0: none)"},
};

/* Indices of stats[] (nc_pass_stat_add), in its order. */
enum {
  ST_TILES, ST_SPLIT_LAYERS, ST_NOC_HOPS, ST_MAX_TILE_WORK, ST_IMBALANCE, ST_TRAFFIC_INITIAL, ST_TRAFFIC,
  ST_ROW_SPLIT_LAYERS, ST_LINK_LOAD_INITIAL, ST_LINK_LOAD, ST_PARTIAL_SUMS, ST_HOST_ROUTE_BYTES, ST_GUESTS, ST_GUEST_RETRIES,
  ST_ADD_GUESTS, ST_ADD_RETRIES, ST_MINMAX_BEFORE, ST_MINMAX_AFTER, ST_MINMAX_SHORT, ST_SMALL_GUESTS,
  ST_SMALL_RETRIES
};

static const nc_pass_stat_def stats[] = {
  {"num-tiles", "Number of tiles placed"},
  {"num-split-layers", "Number of layers split over several tiles"},
  {"noc-hops", "Sum of the NoC distances of all producer -> consumer tile pairs"},
  {"max-tile-work", "Most work (multiply-accumulates, or vector operations) of one tile per frame"},
  {"stage-imbalance-pct", "100 x (slowest tile's work / mean tile work - 1)"},
  {"traffic-hops-initial", "Bytes per frame x NoC hops over all tile pairs, serpentine placement"},
  {"traffic-hops", "Bytes per frame x NoC hops over all tile pairs, final placement"},
  {"num-row-split-layers", "Number of layers split into bands of output rows"},
  {"max-link-load-initial", "Bytes per frame on the busiest mesh link (XY routes) before link-iterations"},
  {"max-link-load", "Bytes per frame on the busiest mesh link (XY routes), final placement"},
  {"with-partial-sums", "Number of layers split by input channels, whose partial sums a reducer tile adds"},
  {"host-route-bytes", "Bytes per frame the tiles' own flows carry over links the host's input routes use (XY), "
                       "final placement"},
  {"guest-tiles", "Slices of guest layers (guest-above) sharing another tile's core"},
  {"guest-rebalances", "Times balancing ran again on fewer cores because the guests' slices did not fit the spare SRAM"},
  {"add-guest-tiles", "Slices of residual adds sharing their producer tile's core (add-guests)"},
  {"add-guest-retries", "Times balancing ran again without add guests because an add slice did not fit its conv's core"},
  {"minmax-slowest-before", "balance-minmax: the slowest stage's cycles per frame (its model) after the balancing rounds"},
  {"minmax-slowest-after", "balance-minmax: the slowest stage's cycles per frame (its model) after it"},
  {"minmax-cores-short", "balance-minmax: cores beyond the grid the next shorter slowest stage (its model) would need: "
                         "what co-locating light tiles would have to free"},
  {"small-guest-tiles", "Tiles of small weightless layers sharing another tile's core (small-guests)"},
  {"small-guest-retries", "Times balancing ran again without small guests because one fitted no core, or because "
                          "balance-minmax's split with their cores was no faster than without them"},
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

/* Layers whose output-channel slices are independent (no cross-channel
 * combination), so balancing may split them. */
static bool splittable(nc_op *node)
{
  nc_dataflow_layer layer;
  if (!nc_dataflow_node_get_layer(node, &layer))
    return false;
  return layer.kind == NC_DATAFLOW_LAYER_CONV || layer.kind == NC_DATAFLOW_LAYER_MATMUL ||
         layer.kind == NC_DATAFLOW_LAYER_MAX_POOL;
}

static size_t tiles_of(nc_op *chip, const char *node)
{
  size_t n = 0;
  for (nc_op *t = nc_core_chip_first_tile(chip); t; t = nc_core_tile_next(t))
    n += !strcmp(nc_core_tile_get_node(t), node);
  return n;
}

static int64_t *balance_cores(nc_op *chip, nc_op *fn, int64_t cores, int64_t lookahead, const int64_t *min_k,
                              isl_ctx *ictx, bool multicast, const int64_t *kin, bool fold, bool ties, const bool *guest);

/* Whether `node` is a guest layer (guest: per node of fn, or NULL). */
static bool is_guest(nc_op *fn, const bool *guest, const nc_op *node)
{
  size_t i = 0;
  for (nc_op *m = guest ? nc_dataflow_first_node(fn) : NULL; m; m = nc_dataflow_next_node(m), i++)
    if (m == node)
      return guest[i];
  return false;
}

/* A layer split into kin input slices reads operand 0 by channel slices:
 * its producer, if whole and splittable by output channels over the same
 * channels, is split into the same kin slices (while the grid has cores),
 * so that each producer tile sends only to the consumer tiles whose slice
 * it holds: that saves (kin - 1) x its output and costs up to (kin - 1) x
 * its inputs (each producer tile receives them), so only producers whose
 * output is larger than their inputs are split. Returns the cores then used. */
static bool output_outweighs_inputs(nc_op *node)
{
  int64_t in = 0;
  for (size_t i = 0, n = nc_op_get_num_operands(node); i < n; i++)
    in += nc_type_get_num_elements(nc_value_get_type(nc_op_get_operand(node, i)));
  return nc_type_get_num_elements(nc_value_get_type(nc_op_get_result(node, 0))) > in;
}

static int64_t align_producers(nc_op *fn, nc_op **orig, size_t n, int64_t *ks, const int64_t *kin, int64_t used,
                               int64_t cores)
{
  for (size_t c = 0; c < n; c++) {
    nc_op *node = kin[c] > 1 ? nc_core_find_node(fn, nc_core_tile_get_node(orig[c])) : NULL;
    nc_op *producer = node ? nc_dataflow_node_get_producer(node, 0) : NULL;
    for (size_t p = 0; producer && p < n; p++)
      if (!strcmp(nc_core_tile_get_node(orig[p]), nc_dataflow_node_get_name(producer)) && ks[p] == 1 && kin[p] <= 1 &&
          splittable(producer) && output_outweighs_inputs(producer) &&
          nc_core_node_get_out_channels(producer) == nc_core_node_get_in_channels(node, NULL) &&
          nc_core_node_get_in_channels(node, NULL) >= kin[c] && used + kin[c] - 1 <= cores) {
        ks[p] = kin[c];
        used += kin[c] - 1;
      }
  }
  return used;
}

static bool split_nodes(nc_pass *pass, nc_op *chip, nc_op *fn, isl_ctx *ictx, bool balance, int64_t cores,
                        bool *joint, const bool *guest, int64_t guest_extra)
{
  int64_t *extra = NULL;
  int64_t sram = nc_core_chip_get_sram_bytes(chip), max_tiles = nc_pass_get_option_int(pass, "max-tiles-per-layer");
  size_t n_orig = nc_core_chip_get_num_tiles(chip), idx = 0;
  nc_op **orig = malloc((n_orig ? n_orig : 1) * sizeof *orig); /* the tiles before splitting, as balance_cores indexes them */
  if (!orig)
    return nc_op_emit_error(chip, "core-place: out of memory");
  for (nc_op *t = nc_core_chip_first_tile(chip); t; t = nc_core_tile_next(t))
    orig[idx++] = t;
  int64_t *ks = calloc(n_orig ? n_orig : 1, sizeof *ks), used = 0; /* slices per tile; 0: split already */
  int64_t *kin = calloc(n_orig ? n_orig : 1, sizeof *kin); /* input-channel slices per tile (0, 1: none) */
  int64_t forced_in = nc_pass_get_option_int(pass, "input-channel-split");
  bool ok = false, *tile_guest = calloc(n_orig ? n_orig : 1, sizeof *tile_guest); /* per tile: core_place_guests.c */
  if (!ks || !kin || !tile_guest) {
    nc_op_emit_error(chip, "core-place: out of memory");
    goto done;
  }
  for (idx = 0; idx < n_orig; idx++) { /* 1. the slices SRAM needs */
    nc_op *t = orig[idx];
    nc_op *node = nc_core_find_node(fn, nc_core_tile_get_node(t));
    if (!node) {
      nc_op_emit_error(t, "core-place: the chip's function has no node '%s'", nc_core_tile_get_node(t));
      goto done;
    }
    int64_t lo, hi;
    used++;
    if ((tile_guest[idx] = is_guest(fn, guest, node))) {
      ks[idx] = 1; /* sliced into other tiles' spare SRAM after balancing */
      continue;
    }
    if (nc_core_tile_get_out_channels(t, &lo, &hi) || tiles_of(chip, nc_core_tile_get_node(t)) > 1)
      continue; /* split already (by an earlier run or by hand) */
    int64_t whole = 0, fixed = 0;
    for (nc_op *b = nc_core_tile_first_buffer(t); b; b = nc_core_buffer_next(b)) {
      int64_t bytes = nc_core_buffer_get_bytes(b); /* sums saturate: hand-written sizes may be absurd */
      whole = whole > INT64_MAX - bytes ? INT64_MAX : whole + bytes;
      if (nc_core_buffer_get_kind(b) == NC_CORE_BUFFER_INPUT)
        fixed = fixed > INT64_MAX - bytes ? INT64_MAX : fixed + bytes;
    }
    if (!choose_split(node, whole, fixed, sram, max_tiles, ictx, &ks[idx]))
      goto done;
    int64_t slice = whole;
    if (whole > sram && forced_in == 0 && nc_core_node_get_in_channels(node, NULL) > 1 && !slice_bytes(node,
        (nc_core_node_get_out_channels(node) + ks[idx] - 1) / (ks[idx] ? ks[idx] : 1), ictx, &slice))
      goto done;
    if ((forced_in > 1 || (forced_in == 0 && slice > sram)) &&
        !core_choose_input_split(node, sram, forced_in, max_tiles, ictx, &ks[idx], &kin[idx]))
      goto done;
    used += ks[idx] * (kin[idx] > 1 ? kin[idx] : 1) - 1;
  }
  /* 2. balancing: the slices balance_cores chose, starting from the ones
   * SRAM needs, and only while the grid has cores left */
  int64_t above = nc_pass_get_option_int(pass, "joint-split-above");
  *joint = nc_pass_get_option_bool(pass, "row-balance") &&
           (nc_pass_get_option_bool(pass, "joint-split") || (above > 0 && (used + guest_extra - (int64_t)n_orig) * 100 > cores * above));
  if (balance && !*joint && !(extra = balance_cores(chip, fn, cores, nc_pass_get_option_int(pass, "balance-lookahead"), ks, ictx,
                                         nc_pass_get_option_bool(pass, "multicast"), kin,
                                         nc_pass_get_option_bool(pass, "fold-concat"),
                                         nc_pass_get_option_bool(pass, "balance-ties"), tile_guest))) {
    nc_op_emit_error(chip, "core-place: out of memory");
    goto done;
  }
  for (idx = 0; extra && idx < n_orig; idx++)
    if (ks[idx] && kin[idx] <= 1 && extra[idx] > ks[idx] && used < cores) {
      int64_t more = extra[idx] - ks[idx] < cores - used ? extra[idx] - ks[idx] : cores - used;
      ks[idx] += more, used += more;
    }
  used = align_producers(fn, orig, n_orig, ks, kin, used, cores);
  for (idx = 0; idx < n_orig; idx++) /* 3. split */
    if (kin[idx] > 1) { /* by input channels (and output channels) */
      if (!core_split_input_channels(orig[idx], nc_core_find_node(fn, nc_core_tile_get_node(orig[idx])), ks[idx],
                                     kin[idx], ictx))
        goto done;
      nc_pass_stat_add(pass, ST_SPLIT_LAYERS, 1);
      nc_pass_stat_add(pass, ST_PARTIAL_SUMS, 1);
    } else if (ks[idx] > 1) {
      if (!core_tile_split_channels(orig[idx], nc_core_find_node(fn, nc_core_tile_get_node(orig[idx])), ks[idx], ictx))
        goto done;
      nc_pass_stat_add(pass, ST_SPLIT_LAYERS, 1);
    }
  ok = true;
done:
  free(extra);
  free(ks);
  free(kin);
  free(orig);
  free(tile_guest);
  return ok;
}

/* Tiles per node (indexed by the node's unsplit tile) so that the slowest
 * pipeline stage is as short as possible with at most `cores` tiles: while
 * cores remain, one more output-channel slice for the slowest stage (and,
 * in the same round, for the stages that become the slowest: two equally
 * slow layers, or producers that now send to one more tile), kept only if
 * the slowest stage got faster. The rounds start from min_k, the slices
 * SRAM needs (0: a node split already, which stays as it is). */
static int64_t *balance_cores(nc_op *chip, nc_op *fn, int64_t cores, int64_t lookahead, const int64_t *min_k,
                              isl_ctx *ictx, bool multicast, const int64_t *kin, bool fold, bool ties, const bool *guest)
{
  size_t n = nc_core_chip_get_num_tiles(chip);
  nc_chip_desc d;
  core_stage *st = calloc(n ? n : 1, sizeof *st);
  int64_t *consumers = calloc(n > 0 ? n * n : 1, sizeof *consumers), *k = calloc(n ? n : 1, sizeof *k);
  nc_op **nodes = calloc(n ? n : 1, sizeof *nodes);
  if (!st || !consumers || !k || !nodes || !nc_chip_desc_of_module(nc_op_get_parent_op(chip), false, &d)) {
    free(st), free(consumers), free(k), free(nodes);
    return NULL;
  }
  double rate = (double)nc_chip_desc_macs_per_cycle(&d, 8), bw = (double)d.link_bytes_per_cycle;
  rate = rate > 0 ? rate : 1, bw = bw > 0 ? bw : 1;
  size_t i = 0;
  for (nc_op *t = nc_core_chip_first_tile(chip); t; t = nc_core_tile_next(t), i++) {
    nc_op *node = nc_core_find_node(fn, nc_core_tile_get_node(t));
    int64_t lo, hi;
    bool fixed = !node || nc_core_tile_get_out_channels(t, &lo, &hi) || tiles_of(chip, nc_core_tile_get_node(t)) > 1;
    nodes[i] = node;
    st[i].k = 1;
    st[i].work = node ? core_node_work(node) : 0;
    if (node) { /* a 4- or 2-bit layer runs at its width's rate: its work in 8-bit cycles shrinks */
      unsigned w = nc_type_get_width(nc_type_get_element_type(nc_value_get_type(nc_op_get_result(node, 0))));
      double wrate = (double)nc_chip_desc_macs_per_cycle(&d, w && w < 8 ? w : 8);
      if (wrate > rate)
        st[i].work = (int64_t)((double)st[i].work * rate / wrate);
    }
    st[i].out_bytes = node ? nc_type_get_num_elements(nc_value_get_type(nc_op_get_result(node, 0))) : 0;
    st[i].steps = node ? core_node_steps(node, ictx) : 1;
    st[i].multicast = multicast;
    for (size_t o = 0, m = node ? nc_op_get_num_operands(node) : 0; o < m; o++)
      if (!nc_dataflow_node_get_producer(node, o)) { /* a network input, from the host */
        st[i].host_bytes += nc_type_get_num_elements(nc_value_get_type(nc_op_get_operand(node, o)));
        st[i].host_steps = core_input_steps(node, o, ictx);
      }
    st[i].k = min_k[i] > 1 ? min_k[i] : 1; /* the slices SRAM needs (0: split already, fixed) */
    if (kin[i] > 1) /* split by input channels too: its tiles are fixed */
      st[i].k *= kin[i], fixed = true;
    st[i].limit = fixed || !splittable(node) ? st[i].k : nc_core_node_get_out_channels(node);
    st[i].limit = st[i].limit < st[i].k ? st[i].k : st[i].limit;
    if ((fold && node && nc_core_node_is_foldable_concat(node)) || guest[i]) /* no tile (core-fold-concat), or a guest */
      st[i].work = st[i].out_bytes = 0, st[i].limit = st[i].k;
  }
  for (i = 0; i < n; i++) {
    bool consumed = false;
    for (size_t j = 0; j < n; j++)
      for (size_t o = 0, m = nodes[j] ? nc_op_get_num_operands(nodes[j]) : 0; o < m && nodes[i]; o++)
        if (nc_dataflow_node_get_producer(nodes[j], o) == nodes[i])
          consumers[i * n + j] = 1, consumed = true;
    st[i].send_to_host = consumed ? 0 : 1;
  }
  if (ties) /* core_pipeline_cost.c */
    core_pipeline_balance_ties(st, consumers, n, cores, lookahead, rate, bw);
  else
    core_pipeline_balance(st, consumers, n, cores, lookahead, rate, bw);
  for (i = 0; i < n; i++)
    k[i] = st[i].k;
  free(st), free(consumers), free(nodes);
  return k;
}

static void work_stats(nc_pass *pass, nc_op *chip, nc_op *fn)
{
  int64_t most = 0, sum = 0, n = 0;
  for (nc_op *t = nc_core_chip_first_tile(chip); t; t = nc_core_tile_next(t), n++) {
    nc_op *node = nc_core_find_node(fn, nc_core_tile_get_node(t));
    int64_t w = node ? core_node_work(node) : 0, lo, hi, c = node ? nc_core_node_get_out_channels(node) : 1;
    if (nc_core_tile_get_out_channels(t, &lo, &hi) && c > 0)
      w = w / c * (hi - lo);
    int64_t rows = node ? nc_core_node_get_out_rows(node) : 0;
    if (nc_core_tile_get_out_rows(t, &lo, &hi) && rows > 0)
      w = w / rows * (hi - lo);
    int64_t cin = node ? nc_core_node_get_in_channels(node, NULL) : 0;
    if (nc_core_tile_get_in_channels(t, &lo, &hi) && cin > 0)
      w = w / cin * (hi - lo);
    most = w > most ? w : most;
    sum += w;
  }
  nc_pass_stat_add(pass, ST_MAX_TILE_WORK, (uint64_t)most);
  nc_pass_stat_add(pass, ST_IMBALANCE, sum > 0 ? (uint64_t)((double)most * n / (double)sum * 100.0 - 100.0 + 0.5) : 0);
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

/* Elements of a node's output per frame (bytes at 8 bits: an estimate). */
static int64_t out_elements(nc_op *node)
{
  int64_t dims[NC_MAX_RANK], elems = 1;
  int n = nc_op_get_num_results(node) == 1 ? nc_dataflow_tensor_coords(nc_value_get_type(nc_op_get_result(node, 0)), dims) : 0;
  for (int i = 0; i < n; i++)
    elems = dims[i] > 0 && elems <= INT64_MAX / dims[i] ? elems * dims[i] : INT64_MAX;
  return elems;
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

/* --- link load ------------------------------------------------------------------------------------------------ */

/* The bytes per frame each directed mesh link carries (4 per cell: +x, -x,
 * +y, -y) when every edge follows its XY route (the host enters and leaves
 * at (0, 0)); with multicast, a producer tile's edges (sorted by producer in
 * `order`) load each link of their route tree once. Returns the sum of the
 * squared loads (the spread the refinement lowers) and sets *max. */
static double link_loads(const edge *e, const size_t *order, size_t n_e, const int64_t *cell, int64_t cells,
                         int64_t cols, bool multicast, int64_t *load, size_t *stamp, int64_t *max)
{
  memset(load, 0, (size_t)cells * 4 * sizeof *load);
  memset(stamp, 0, (size_t)cells * 4 * sizeof *stamp);
  for (size_t k = 0; k < n_e; k++) {
    const edge *x = &e[order[k]];
    int64_t a = cell[x->from] < 0 ? 0 : cell[x->from], b = cell[x->to] < 0 ? 0 : cell[x->to];
    int64_t ax = a % cols, ay = a / cols, bx = b % cols, by = b / cols;
    while (ax != bx || ay != by) {
      int dir = ax != bx ? (bx > ax ? 0 : 1) : (by > ay ? 2 : 3);
      size_t l = (size_t)(ay * cols + ax) * 4 + (size_t)dir;
      if (!multicast || stamp[l] != x->from + 1)
        load[l] += x->bytes, stamp[l] = x->from + 1;
      ax += dir == 0 ? 1 : dir == 1 ? -1 : 0;
      ay += dir == 2 ? 1 : dir == 3 ? -1 : 0;
    }
  }
  double sq = 0;
  *max = 0;
  for (int64_t l = 0; l < cells * 4; l++) {
    sq += (double)load[l] * (double)load[l];
    *max = load[l] > *max ? load[l] : *max;
  }
  return sq;
}

static const edge *sort_edges_base;
static int cmp_edge_from(const void *a, const void *b)
{
  size_t x = sort_edges_base[*(const size_t *)a].from, y = sort_edges_base[*(const size_t *)b].from;
  return x < y ? -1 : x > y ? 1 : (*(const size_t *)a > *(const size_t *)b) - (*(const size_t *)a < *(const size_t *)b);
}

/* Bytes per frame that the flows between tiles (and to the host) carry on
 * the links the host's input stream uses: what waits behind the host, which
 * streams ahead of the pipeline (host-weight). */
static int64_t host_route_bytes(const edge *e, size_t n_e, const int64_t *cell, size_t n, int64_t cells, int64_t cols,
                                bool multicast)
{
  int64_t *host = calloc((size_t)cells * 4, sizeof *host), *chip = calloc((size_t)cells * 4, sizeof *chip), max, shared = 0;
  size_t *stamp = malloc((size_t)cells * 4 * sizeof *stamp), *order = malloc((n_e ? n_e : 1) * sizeof *order);
  size_t n_host = 0, n_chip = 0;
  if (host && chip && stamp && order) {
    for (size_t k = 0; k < n_e; k++) /* host edges first, then the rest, each in e's order (by producer) */
      if (e[k].from == n)
        order[n_host++] = k;
    for (size_t k = 0; k < n_e; k++)
      if (e[k].from != n)
        order[n_host + n_chip++] = k;
    sort_edges_base = e;
    qsort(order + n_host, n_chip, sizeof *order, cmp_edge_from);
    link_loads(e, order, n_host, cell, cells, cols, multicast, host, stamp, &max);
    link_loads(e, order + n_host, n_chip, cell, cells, cols, multicast, chip, stamp, &max);
    for (int64_t l = 0; l < cells * 4; l++)
      shared += host[l] ? chip[l] : 0;
  }
  free(host), free(chip), free(stamp), free(order);
  return shared;
}

/* After the traffic x hops search: random swaps kept only if they lower the
 * sum of squared link loads (which flattens the busiest links, the ones the
 * simulator's flows queue on) while traffic x hops stays within 10% of what
 * the search reached. `cell` is the placement (updated in place). */
static int64_t refine_link_load(nc_pass *pass, const edge *e, size_t n_e, const size_t *inc, const size_t *inc_start,
                                int64_t *cell, size_t n, int64_t rows, int64_t cols, int64_t cost, uint64_t *state)
{
  int64_t iters = nc_pass_get_option_int(pass, "link-iterations"), cells = rows * cols, max = 0;
  bool multicast = nc_pass_get_option_bool(pass, "multicast");
  int64_t *load = malloc((size_t)cells * 4 * sizeof *load), *owner = malloc((size_t)cells * sizeof *owner);
  size_t *stamp = malloc((size_t)cells * 4 * sizeof *stamp), *order = malloc((n_e ? n_e : 1) * sizeof *order);
  if (!load || !owner || !stamp || !order) {
    free(load), free(owner), free(stamp), free(order);
    return cost;
  }
  for (size_t k = 0; k < n_e; k++)
    order[k] = k;
  sort_edges_base = e;
  qsort(order, n_e, sizeof *order, cmp_edge_from);
  double sq = link_loads(e, order, n_e, cell, cells, cols, multicast, load, stamp, &max);
  nc_pass_stat_add(pass, ST_LINK_LOAD_INITIAL, (uint64_t)max);
  int64_t limit = cost + cost / 10;
  for (int64_t c = 0; c < cells; c++)
    owner[c] = -1;
  for (size_t k = 0; k < n; k++)
    owner[cell[k]] = (int64_t)k;
  for (int64_t it = 0; it < iters && n > 1; it++) {
    int64_t ta = (int64_t)(next_random(state) % n), cb = (int64_t)(next_random(state) % (uint64_t)cells);
    int64_t ca = cell[ta], tb = owner[cb], m;
    if (cb == ca)
      continue;
    int64_t d = swap_delta(e, n_e, inc, inc_start, cell, cols, ta, tb, ca, cb);
    if (cost + d > limit)
      continue;
    cell[ta] = cb;
    if (tb >= 0)
      cell[tb] = ca;
    double now = link_loads(e, order, n_e, cell, cells, cols, multicast, load, stamp, &m);
    if (now < sq) {
      sq = now, cost += d, owner[cb] = ta, owner[ca] = tb;
    } else {
      cell[ta] = ca;
      if (tb >= 0)
        cell[tb] = cb;
    }
  }
  link_loads(e, order, n_e, cell, cells, cols, multicast, load, stamp, &max);
  nc_pass_stat_add(pass, ST_LINK_LOAD, (uint64_t)max);
  free(load), free(owner), free(stamp), free(order);
  return cost;
}

/* The int32 partial sums each partial-sum tile sends its reducer per frame
 * (4 bytes per element of its output slice), appended to e. */
static size_t add_partial_sum_edges(nc_op **tiles, size_t n, nc_op *fn, edge **e, size_t n_e, size_t *cap)
{
  for (size_t c = 0; c < n; c++) {
    if (nc_core_tile_is_reducer(tiles[c]))
      continue;
    nc_op *node = nc_core_find_node(fn, nc_core_tile_get_node(tiles[c]));
    int64_t a0 = 0, a1 = 0, lo, hi, ch = node ? nc_core_node_get_out_channels(node) : 0;
    bool sliced = nc_core_tile_get_out_channels(tiles[c], &a0, &a1);
    int64_t bytes = node ? 4 * out_elements(node) : 4;
    if (sliced && ch > 0)
      bytes = bytes / ch * (a1 - a0);
    for (size_t r = 0; r < n; r++) {
      int64_t b0 = 0, b1 = 0;
      nc_core_tile_get_out_channels(tiles[r], &b0, &b1);
      if (r == c || strcmp(nc_core_tile_get_node(tiles[r]), nc_core_tile_get_node(tiles[c])) || b0 != a0 ||
          b1 != a1 || !nc_core_tile_get_in_channels(tiles[r], &lo, &hi) || lo != 0)
        continue;
      if (n_e == *cap)
        *e = realloc(*e, (*cap *= 2) * sizeof **e);
      (*e)[n_e++] = (edge){c, r, bytes > 0 ? bytes : 1};
    }
  }
  return n_e;
}

/* Simulated annealing over tile positions from the serpentine placement:
 * swap a random tile with a random cell (empty or not); a worse state is
 * accepted with probability exp(-delta / T), T falling linearly to 0; the
 * best state seen is kept, so the result is never worse than the start. */
static void search_placement(nc_pass *pass, nc_op *chip, nc_op *fn)
{
  int64_t rows = nc_core_chip_get_rows(chip), cols = nc_core_chip_get_cols(chip);
  int64_t iters = nc_pass_get_option_int(pass, "search-iterations"), host_weight = nc_pass_get_option_int(pass, "host-weight");
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
      if (o == no && !nc_core_tile_is_reducer(tiles[c]))
        break;
      if (!producer) { /* a network input, or (o == no) an output: host traffic */
        int64_t bytes = out_elements(node), lo, hi, ch = nc_core_node_get_out_channels(node);
        if (o < no) {
          int64_t d[NC_MAX_RANK], k = nc_dataflow_tensor_coords(nc_value_get_type(nc_op_get_operand(node, o)), d);
          bytes = 1;
          for (int64_t j = 0; j < k; j++)
            bytes *= d[j] > 0 ? d[j] : 1;
        } else if (ch > 0 && nc_core_tile_get_out_channels(tiles[c], &lo, &hi))
          bytes = bytes / ch * (hi - lo);
        if (n_e == cap)
          e = realloc(e, (cap *= 2) * sizeof *e);
        bytes = bytes > 0 ? bytes : 1;
        if (o < no && host_weight > 1) /* the host's input stream, at its own pace */
          bytes = bytes <= INT64_MAX / host_weight ? bytes * host_weight : INT64_MAX;
        e[n_e++] = o < no ? (edge){n, c, bytes} : (edge){c, n, bytes};
        continue;
      }
      for (size_t p = 0; p < n && producer; p++) {
        if (strcmp(nc_core_tile_get_node(tiles[p]), nc_dataflow_node_get_name(producer)) ||
            !nc_core_tile_is_reducer(tiles[p])) /* a partial-sum tile sends to its reducer only (below) */
          continue;
        int64_t bytes = out_elements(producer), lo, hi, ch = nc_core_node_get_out_channels(producer);
        if (ch > 0 && nc_core_tile_get_out_channels(tiles[p], &lo, &hi))
          bytes = bytes / ch * (hi - lo);
        if (n_e == cap)
          e = realloc(e, (cap *= 2) * sizeof *e);
        e[n_e++] = (edge){p, c, bytes > 0 ? bytes : 1};
      }
    }
  }
  n_e = add_partial_sum_edges(tiles, n, fn, &e, n_e, &cap);
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
  nc_pass_stat_add(pass, ST_TRAFFIC_INITIAL, (uint64_t)cost);
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
  if (nc_pass_get_option_int(pass, "link-iterations") > 0)
    best_cost = refine_link_load(pass, e, n_e, inc, inc_start, best, n, rows, cols, best_cost, &state);
  for (size_t k = 0; k < n; k++)
    nc_core_tile_set_position(tiles[k], best[k] % cols, best[k] / cols);
  nc_pass_stat_add(pass, ST_TRAFFIC, (uint64_t)best_cost);
  nc_pass_stat_add(pass, ST_HOST_ROUTE_BYTES, (uint64_t)host_route_bytes(e, n_e, best, n, rows * cols, cols,
                                                                         nc_pass_get_option_bool(pass, "multicast")));
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
  bool *presplit = core_nodes_split_already(chip, fn); /* hand-made splits stay */
  core_band_costs costs = {nc_pass_get_option_bool(pass, "band-multicast"), nc_pass_get_option_int(pass, "recv-links"),
                           nc_pass_get_option_bool(pass, "fold-concat"), nc_pass_get_option_bool(pass, "partial-bands"),
                           nc_pass_get_option_int(pass, "plan-copies"), nc_pass_get_option_int(pass, "joint-rows-below"),
                           NULL, nc_pass_get_option_bool(pass, "multicast"),
                           nc_pass_get_option_bool(pass, "balance-minmax"), NULL,
                           nc_pass_get_option_bool(pass, "minmax-fold-concat"),
                           nc_pass_get_option_int(pass, "minmax-recv-links"), NULL};
  int64_t minmax_cycles[3] = {0, 0, 0};
  costs.minmax_cycles = minmax_cycles;
  costs.minmax_single_links = nc_pass_get_option_int(pass, "minmax-single-links");
  int64_t banded = 0, rows = nc_core_chip_get_rows(chip), cols = nc_core_chip_get_cols(chip), cores = rows * cols;
  int64_t guest_extra = 0, reserve = 0, n_guest = 0;
  bool joint = false, ok = presplit != NULL, any_split = false;
  for (size_t k = 0, nn = presplit ? nc_dataflow_num_nodes(fn) : 0; k < nn; k++)
    any_split = any_split || presplit[k];
  bool *guest = ok && !any_split ? core_guest_layers(chip, fn, ictx, nc_pass_get_option_int(pass, "guest-above"),
                                                    nc_pass_get_option_int(pass, "guest-extra-cores"), cores,
                                                    &guest_extra)
                                 : NULL;
  bool *adds = ok && !any_split && nc_pass_get_option_bool(pass, "add-guests") ? core_add_layers(chip, fn) : NULL;
  size_t n_nodes = nc_dataflow_num_nodes(fn);
  bool *light = nc_xcalloc(n_nodes + 1, sizeof *light); /* guests, adds, small: no core, no time while balancing */
  for (size_t k = 0; k < n_nodes; k++)
    light[k] = (guest && guest[k]) || (adds && adds[k]);
  int64_t n_small = 0;
  bool *small = ok && !any_split ? core_small_layers(chip, fn, light, nc_pass_get_option_int(pass, "small-guests"),
                                                     &n_small)
                                 : NULL;
  /* with min-max, balance without the small layers first: they are tried
   * only when min-max was short of cores, and kept only when its model then
   * beats that split (resnet18 at 4 bits: 4,704 either way, 4,709 in the
   * simulator with them) */
  bool *small_later = small && nc_pass_get_option_bool(pass, "balance-minmax") ? small : NULL;
  int64_t small_base = -1; /* min-max's slowest stage without them (-1: not measured) */
  if (small_later)
    small = NULL;
  for (size_t k = 0; k < n_nodes; k++)
    n_guest += light[k] = light[k] || (small && small[k]);
  size_t n_saved = guest || adds || small || small_later ? nc_core_chip_get_num_tiles(chip) : 0;
  nc_op **saved = nc_xcalloc(n_saved + 1, sizeof *saved); /* the tiles as they came, to balance again */
  n_saved = 0;
  for (nc_op *t = guest || adds || small || small_later ? nc_core_chip_first_tile(chip) : NULL; t; t = nc_core_tile_next(t))
    saved[n_saved++] = nc_op_clone(t, NULL);
  core_guests g = {0};
  int64_t n_adds = 0;
  int64_t host_frames = nc_pass_get_option_int(pass, "host-buffer-frames");
  for (int attempt = 0; ok; attempt++) {
    costs.guests = n_guest ? light : NULL, costs.adds = adds, costs.small = small;
    /* guests' single tiles take no core: the budget counts them back */
    ok = split_nodes(pass, chip, fn, ictx, nc_pass_get_option_bool(pass, "balance"), cores - reserve + n_guest, &joint,
                     costs.guests, guest_extra) &&
         core_split_rows(chip, fn, ictx, presplit, nc_pass_get_option_int(pass, "row-split"),
                         nc_pass_get_option_bool(pass, "row-balance"), joint, &costs, cores - reserve + n_guest, &banded);
    int64_t short_cores = 0;
    if (!ok)
      break;
    bool packed = !guest || core_pack_guests(chip, fn, guest, small, cores, host_frames,
                                             nc_pass_get_option_bool(pass, "guest-spare-first"), ictx, &g, &short_cores),
         failed = false;
    bool placed = packed && !adds; /* the guests and the adds have their hosts */
    if (packed && adds) {
      size_t before = g.n;
      if (core_pack_adds(chip, fn, adds, ictx, &g, &failed)) {
        n_adds = (int64_t)(g.n - before);
        placed = true;
      } else if (failed) {
        ok = false;
        break;
      } else {
        /* an add slice does not fit its producer's core: balance again
         * without add guests */
        core_guests_destroy(&g, false);
        free(adds), adds = NULL;
        nc_pass_stat_add(pass, ST_ADD_RETRIES, 1);
      }
    }
    if (placed && small_later) {
      if (minmax_cycles[2] <= 0) { /* min-max had the cores it wanted: no small guests */
        free(small_later), small_later = NULL;
        n_small = 0;
        break;
      }
      /* min-max's slowest stage, or a core its guests make slower (its
       * model leaves them out), without them; balance again with them */
      double hosts = core_hosts_busiest(chip, fn, &g);
      small_base = minmax_cycles[1] > hosts ? minmax_cycles[1] : (int64_t)hosts;
      small = small_later, small_later = NULL;
      core_guests_destroy(&g, false);
      n_adds = 0;
    } else if (placed) {
      size_t before = g.n;
      /* kept when min-max's split beat the one without them (or, not
       * measured, the rounds'): the freed cores bought a shorter slowest stage */
      bool pack = small && core_pack_small(chip, fn, small, &g);
      double hosts = pack && small_base >= 0 ? core_hosts_busiest(chip, fn, &g) : 0;
      int64_t with = minmax_cycles[1] > hosts ? minmax_cycles[1] : (int64_t)hosts;
      if (!small || (pack && (!costs.minmax || with < (small_base >= 0 ? small_base : minmax_cycles[0])))) {
        n_small = (int64_t)(g.n - before);
        break;
      }
      /* a small layer's tile fits no core, or min-max gained nothing
       * (densenet121 at 4 bits: 8,720 -> 9,372 cycles per frame with them):
       * balance again without them */
      core_guests_destroy(&g, false);
      free(small), small = NULL;
      n_adds = n_small = 0;
      nc_pass_stat_add(pass, ST_SMALL_RETRIES, 1);
    } else if (packed) { /* without the add guests dropped above */
    } else if (!short_cores) {
      ok = false;
      break;
    } else if (host_frames > 0) { /* the same balance, the host's room given to the guests (its rows then wait) */
      host_frames = 0;
    } else {
      /* the guests do not fit the spare SRAM: balance again on fewer cores,
       * or without guests when even that fails */
      reserve += short_cores;
      nc_pass_stat_add(pass, ST_GUEST_RETRIES, 1);
      if (reserve >= cores || attempt >= 8)
        free(guest), guest = NULL, guest_extra = 0, reserve = 0;
    }
    n_guest = 0;
    for (size_t k = 0; k < n_nodes; k++)
      n_guest += light[k] = (guest && guest[k]) || (adds && adds[k]) || (small && small[k]);
    for (nc_op *t = nc_core_chip_first_tile(chip), *next; t; t = next)
      next = nc_core_tile_next(t), nc_op_erase(t);
    for (size_t k = 0; k < n_saved; k++)
      nc_block_append_op(nc_core_chip_get_body(chip), nc_op_clone(saved[k], NULL));
  }
  for (size_t k = 0; k < n_saved; k++)
    nc_op_destroy(saved[k]);
  free(saved), free(presplit), free(guest), free(adds), free(small), free(small_later), free(light);
  if (!ok) {
    core_guests_destroy(&g, false);
    return false;
  }
  nc_pass_stat_add(pass, ST_ROW_SPLIT_LAYERS, (uint64_t)banded);
  nc_pass_stat_add(pass, ST_MINMAX_BEFORE, (uint64_t)minmax_cycles[0]);
  nc_pass_stat_add(pass, ST_MINMAX_AFTER, (uint64_t)minmax_cycles[1]);
  nc_pass_stat_add(pass, ST_MINMAX_SHORT, (uint64_t)minmax_cycles[2]);
  nc_pass_stat_add(pass, ST_GUESTS, (uint64_t)((int64_t)g.n - n_adds - n_small));
  nc_pass_stat_add(pass, ST_SMALL_GUESTS, (uint64_t)n_small);
  nc_pass_stat_add(pass, ST_ADD_GUESTS, (uint64_t)n_adds);
  core_guests_detach(&g); /* placed with their hosts, after the others */
  int64_t n = (int64_t)nc_core_chip_get_num_tiles(chip);
  if (rows <= 0 || cols <= 0 || n / cols + (n % cols != 0) > rows) { /* n > rows * cols, without overflow */
    core_guests_destroy(&g, true);
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
  core_guests_attach(chip, &g);
  n = (int64_t)nc_core_chip_get_num_tiles(chip);
  nc_pass_stat_add(pass, ST_TILES, (uint64_t)n);
  nc_pass_stat_add(pass, ST_NOC_HOPS, (uint64_t)noc_hops(chip, fn));
  work_stats(pass, chip, fn);
  return true;
}

static bool initialize(nc_pass *pass, nc_context *ctx)
{
  int64_t f = nc_pass_get_option_int(pass, "host-buffer-frames");
  if (f < 0 || f > 64) { /* core-host-buffers' range */
    nc_emit_error(ctx, nc_location_unknown(), "core-place: host-buffer-frames must be between 0 and 64, not %lld",
                  (long long)f);
    return false;
  }
  return true;
}

static bool run(nc_pass *pass, nc_op *module)
{
  isl_ctx *ictx = nc_dataflow_isl_ctx_create();
  bool ok = true;
  for (nc_op *op = nc_block_get_first_op(nc_module_get_body(module)); op && ok; op = nc_op_get_next(op))
    if (nc_core_is_chip(op))
      ok = place_chip(pass, op, ictx);
  nc_dataflow_isl_ctx_destroy(ictx);
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
    "grid has. `row-balance` (after `balance`) and `row-split` cut conv, pool and elementwise layers into bands of "
    "output rows (`out_rows`, passes/core_split_rows.c). `search-iterations` (with `seed`) then runs simulated annealing over the positions, lowering bytes per frame x NoC hops over every tile pair (skip connections and the host included) and keeping the best placement seen (statistics traffic-hops-initial and traffic-hops). A conv (group 1) or matmul that output-channel slices cannot fit is split by input channels too (core.tile in_channels, partial sums added by the slice at channel 0; `input-channel-split=N` forces N slices, -1 never); `row-split` cuts such a layer into bands too (each band's input slices an input-channel group of their own), `row-balance` only with `partial-bands`.",
  .anchor = "builtin.module",
  .options = options, .n_options = NC_COUNTOF(options),
  .stats = stats, .n_stats = NC_COUNTOF(stats),
  .initialize = initialize,
  .run = run,
};
