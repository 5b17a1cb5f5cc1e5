/* core_plan_memory.c: core-plan-memory, which gives every buffer of every
 * tile an address in its core's SRAM (docs/design/spine.md, section 3).
 *
 * Buffers are allocated first fit, in the tile's buffer order, each at the
 * lowest offset (aligned to `alignment`) that overlaps no buffer already
 * placed whose lifetime overlaps its own (nc_mapping_first_fit, nc/passes/mapping.h). Lifetimes are
 * positions in the tile's program (nc_core_tile_buffer_lifetimes): weights,
 * bias and NoC-filled input buffers live through the whole program, the
 * output from the first compute to the last send, scratch from the first
 * to the last compute. With one layer per core every buffer is live at the
 * layer's computes, so today no two buffers share bytes; the lifetimes
 * matter once cores hold buffers used in different phases.
 *
 * Tiles sharing a core (`slot`, core-colocate) run interleaved, so each
 * takes its own range of the core's SRAM, after the earlier tiles'.
 *
 * A tile whose buffers need more than the core's SRAM is an error that says
 * which tile of which layer, by how many bytes, what its buffers are, and
 * what would make it fit: splitting the layer over more cores (estimated
 * from its per-channel bytes; impossible when its input line buffers alone
 * overflow), quantization to 8 bits for a float network, or a chip with more SRAM per core. All tiles
 * are checked before the pass fails; tiles that fit get their offsets.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nc/passes/mapping.h"
#include "nc/dialects/core/core.h"
#include "nc/dialects/dataflow/dataflow.h"
#include "nc/ir/diag.h"
#include "nc/ir/pass.h"

static const nc_pass_option_def options[] = {
  {"alignment", NC_PASS_OPT_INT, "1", "Align every buffer's offset to this many bytes"},
};

static const nc_pass_stat_def stats[] = {
  {"num-buffers", "Number of buffers given an address"},
  {"peak-bytes", "SRAM used by the fullest core, in bytes"},
  {"total-bytes", "SRAM used by all cores together, in bytes"},
};

static bool initialize(nc_pass *pass, nc_context *ctx)
{
  int64_t a = nc_pass_get_option_int(pass, "alignment");
  if (a < 1 || a > (1 << 20)) {
    nc_emit_error(ctx, nc_location_unknown(), "core-plan-memory: alignment must be between 1 and 1048576, not %lld",
                  (long long)a);
    return false;
  }
  return true;
}

static size_t count_tiles(nc_op *chip, const char *node)
{
  size_t n = 0;
  for (nc_op *t = nc_core_chip_first_tile(chip); t; t = nc_core_tile_next(t))
    n += !strcmp(nc_core_tile_get_node(t), node);
  return n;
}

/* What could make a tile needing `need` bytes fit `sram`: the changes that
 * would, joined into one sentence, then why splitting would not, if so. */
static void suggest(FILE *f, nc_op *chip, nc_op *tile, nc_op *node, int64_t need, int64_t sram, int64_t inputs)
{
  const char *name = nc_core_tile_get_node(tile);
  int64_t c = node ? nc_core_node_get_out_channels(node) : 0, lo, hi;
  int64_t mine = nc_core_tile_get_out_channels(tile, &lo, &hi) ? hi - lo : c;
  char changes[4][256], why[256] = "";
  int n = 0;
  if (inputs >= sram) {
    snprintf(why, sizeof why,
             "; splitting '%s' by output channels cannot help: its input line buffers alone need %lld bytes "
             "(per-pixel iterations need smaller ones: graph-to-dataflow{granularity=pixel}, in nc-compile "
             "--granularity=pixel)",
             name, (long long)inputs);
  } else if (c > 1 && mine > 0) {
    int64_t per_channel = (need - inputs) / mine + ((need - inputs) % mine != 0);
    int64_t fit = per_channel > 0 ? (sram - inputs) / per_channel : c;
    if (fit >= 1) {
      int64_t k = (c + fit - 1) / fit;
      snprintf(changes[n++], sizeof changes[0],
               "split '%s' over at least %lld cores instead of %zu (core-place max-tiles-per-layer=%lld)", name,
               (long long)k, count_tiles(chip, name), (long long)k);
    } else {
      snprintf(why, sizeof why,
               "; splitting '%s' by output channels cannot help: one channel per core needs %lld bytes", name,
               (long long)(inputs > INT64_MAX - per_channel ? INT64_MAX : inputs + per_channel));
    }
  }
  int64_t ilo, ihi;
  if (why[0] && node && nc_core_node_get_in_channels(node, NULL) > 1 && !nc_core_tile_get_in_channels(tile, &ilo, &ihi))
    snprintf(changes[n++], sizeof changes[0], "split '%s' by input channels (core-place input-channel-split, in "
             "nc-compile --input-channel-split)", name);
  unsigned bits = node ? nc_type_get_width(nc_type_get_element_type(nc_value_get_type(nc_op_get_result(node, 0))))
                       : 0;
  /* Only suggest what nc can do: graph-quantize has bits=8 alone for now. */
  if (bits > 8)
    snprintf(changes[n++], sizeof changes[0], "quantize the network to 8 bits (graph-quantize)");
  snprintf(changes[n++], sizeof changes[0], "use a chip with at least %lld bytes of SRAM per core (target-desc, in nc-compile --target-desc)",
           (long long)need);
  fputs("to fit, ", f);
  for (int i = 0; i < n; i++)
    fprintf(f, "%s%s", i == 0 ? "" : i == n - 1 ? (n > 2 ? ", or " : " or ") : ", ", changes[i]);
  fputs(why, f);
}

/* A tile that overflows and the bytes it needs. */
typedef struct overflow {
  nc_op *tile;
  int64_t need;
} overflow;

/* One error for the layer of `all[worst]` (the slice that needs the most):
 * a layer split into ten slices that all overflow is one problem, reported
 * once, with a note counting the other slices. */
static void report(nc_op *chip, nc_op *node, const overflow *all, size_t n_all, size_t worst, int64_t sram)
{
  nc_op *tile = all[worst].tile;
  int64_t need = all[worst].need;
  int64_t lo, hi, inputs = 0;
  char slice[64] = "";
  if (nc_core_tile_get_out_channels(tile, &lo, &hi))
    snprintf(slice, sizeof slice, " (output channels %lld to %lld)", (long long)lo, (long long)(hi - 1));
  nc_diag *d = nc_op_diag_error(tile,
                                "core-plan-memory: tile (%lld, %lld) of layer '%s'%s needs %lld bytes of SRAM but a "
                                "core has %lld: %lld bytes too many",
                                (long long)nc_core_tile_get_x(tile), (long long)nc_core_tile_get_y(tile),
                                nc_core_tile_get_node(tile), slice, (long long)need, (long long)sram,
                                (long long)(need - sram));
  char *text;
  size_t len;
  FILE *f = open_memstream(&text, &len);
  if (!f)
    abort();
  fputs("its buffers:", f);
  for (nc_op *b = nc_core_tile_first_buffer(tile); b; b = nc_core_buffer_next(b)) {
    fprintf(f, "%s %s %lld", b == nc_core_tile_first_buffer(tile) ? "" : ",", nc_core_buffer_get_name(b),
            (long long)nc_core_buffer_get_bytes(b));
    if (nc_core_buffer_get_kind(b) == NC_CORE_BUFFER_INPUT)
      inputs = inputs > INT64_MAX - nc_core_buffer_get_bytes(b) ? INT64_MAX : inputs + nc_core_buffer_get_bytes(b);
  }
  fclose(f);
  nc_diag_attach_note(d, nc_op_get_loc(tile), "%s", text);
  free(text);
  size_t others = 0;
  int64_t least = INT64_MAX, most = 0;
  for (size_t i = 0; i < n_all; i++)
    if (i != worst && !strcmp(nc_core_tile_get_node(all[i].tile), nc_core_tile_get_node(tile))) {
      others++;
      least = all[i].need < least ? all[i].need : least;
      most = all[i].need > most ? all[i].need : most;
    }
  if (others == 1)
    nc_diag_attach_note(d, nc_op_get_loc(tile), "1 other tile of layer '%s' does not fit either (%lld bytes)",
                        nc_core_tile_get_node(tile), (long long)most);
  else if (others > 1 && least == most)
    nc_diag_attach_note(d, nc_op_get_loc(tile), "%zu other tiles of layer '%s' do not fit either (%lld bytes each)",
                        others, nc_core_tile_get_node(tile), (long long)most);
  else if (others > 1)
    nc_diag_attach_note(d, nc_op_get_loc(tile), "%zu other tiles of layer '%s' do not fit either (%lld to %lld bytes)",
                        others, nc_core_tile_get_node(tile), (long long)least, (long long)most);
  f = open_memstream(&text, &len);
  if (!f)
    abort();
  suggest(f, chip, tile, node, need, sram, inputs);
  fclose(f);
  nc_diag_attach_note(d, node ? nc_op_get_loc(node) : nc_op_get_loc(tile), "%s", text);
  free(text);
  nc_diag_emit(d);
}

static bool plan_chip(nc_pass *pass, nc_op *chip)
{
  int64_t sram = nc_core_chip_get_sram_bytes(chip), align = nc_pass_get_option_int(pass, "alignment");
  nc_op *fn = nc_core_chip_lookup_function(chip);
  uint64_t peak = 0;
  overflow *over = NULL;
  size_t n_over = 0;
  int64_t rows = nc_core_chip_get_rows(chip), cols = nc_core_chip_get_cols(chip);
  /* per core, the bytes its earlier tiles took: tiles sharing a core (slots)
   * run interleaved, so each gets its own range, after the previous one's */
  int64_t *core_used = rows > 0 && cols > 0 && rows <= ((int64_t)1 << 22) / cols
                         ? nc_xcalloc((size_t)(rows * cols), sizeof *core_used)
                         : NULL;
  for (nc_op *t = nc_core_chip_first_tile(chip); t; t = nc_core_tile_next(t)) {
    size_t n = nc_core_tile_get_num_buffers(t), i = 0;
    int64_t *bytes = nc_xcalloc(n + 1, sizeof *bytes), *offsets = nc_xcalloc(n + 1, sizeof *offsets);
    nc_core_lifetime *core_life = nc_xcalloc(n + 1, sizeof *core_life);
    nc_lifetime *life = nc_xcalloc(n + 1, sizeof *life);
    for (nc_op *b = nc_core_tile_first_buffer(t); b; b = nc_core_buffer_next(b))
      bytes[i++] = nc_core_buffer_get_bytes(b);
    nc_core_tile_buffer_lifetimes(t, core_life); /* the core dialect's rule, which its verifier checks */
    for (i = 0; i < n; i++)
      life[i] = (nc_lifetime){core_life[i].first, core_life[i].last};
    free(core_life);
    int64_t used = nc_mapping_first_fit(n, bytes, life, align, offsets);
    int64_t x = nc_core_tile_get_x(t), y = nc_core_tile_get_y(t), start = 0;
    int64_t *core = core_used && x >= 0 && y >= 0 && x < cols && y < rows ? &core_used[y * cols + x] : NULL;
    if (core && *core > 0) {
      start = (*core + align - 1) / align * align;
      for (i = 0; i < n; i++)
        offsets[i] += start;
      used += start;
    }
    if (core && used <= sram)
      *core = used;
    if (used > sram) {
      over = nc_xrealloc(over, (n_over + 1) * sizeof *over);
      over[n_over++] = (overflow){t, used};
    } else {
      i = 0;
      for (nc_op *b = nc_core_tile_first_buffer(t); b; b = nc_core_buffer_next(b))
        nc_core_buffer_set_offset(b, offsets[i++]);
      nc_pass_stat_add(pass, 0, n);
      nc_pass_stat_add(pass, 2, (uint64_t)(used - start));
      if ((uint64_t)used > peak)
        peak = (uint64_t)used;
    }
    free(bytes);
    free(offsets);
    free(life);
  }
  free(core_used);
  nc_pass_stat_add(pass, 1, peak);
  /* one error per layer, in the order of the layers' first overflowing tiles */
  for (size_t i = 0; i < n_over; i++) {
    const char *name = nc_core_tile_get_node(over[i].tile);
    bool first = true;
    size_t worst = i;
    for (size_t j = 0; j < n_over; j++)
      if (!strcmp(nc_core_tile_get_node(over[j].tile), name)) {
        if (j < i)
          first = false;
        if (over[j].need > over[worst].need)
          worst = j;
      }
    if (first)
      report(chip, fn ? nc_core_find_node(fn, name) : NULL, over, n_over, worst, sram);
  }
  free(over);
  return n_over == 0;
}

static bool run(nc_pass *pass, nc_op *module)
{
  bool ok = true;
  for (nc_op *op = nc_block_get_first_op(nc_module_get_body(module)); op; op = nc_op_get_next(op))
    if (nc_core_is_chip(op))
      ok &= plan_chip(pass, op);
  return ok;
}

const nc_pass_def nc_core_plan_memory_pass = {
  .argument = "core-plan-memory",
  .name = "CorePlanMemory",
  .group = "Core",
  .summary = "Give every buffer an address in its core's SRAM (first fit with lifetimes)",
  .description =
    "Allocates each tile's buffers first fit, in order, at offsets aligned to `alignment`, letting buffers share "
    "bytes only when their lifetimes in the tile's program do not overlap (weights, bias and input buffers live "
    "throughout; the output from the first compute to the last send; scratch during computes). A tile that "
    "needs more than the core's SRAM is an error naming the tile and layer and by how many bytes it overflows, "
    "listing its buffers and suggesting a change: splitting the layer over more cores, 8-bit quantization, or a "
    "chip with more SRAM per core.",
  .anchor = "builtin.module",
  .options = options, .n_options = NC_COUNTOF(options),
  .stats = stats, .n_stats = NC_COUNTOF(stats),
  .initialize = initialize,
  .run = run,
};
