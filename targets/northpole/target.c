/* target.c: the NorthPole target (docs/targets/northpole.md), a member of
 * the spatial-mesh family: its built-in description, its options, its
 * pipeline (docs/design/spine.md: graph-optimize, graph-quantize,
 * graph-to-dataflow, dataflow-deps, then the family's core passes) and the
 * const struct that ties it to its printer (printer.c) and simulator
 * (runtime/). The pipeline is built from pass instances whose options are
 * set by name and value (nc_pass_set_option*), not from text assembled in
 * buffers, so no value can be cut short or need quoting; the chip
 * description reaches the passes as the module's nc.chip attribute.
 */
#include <string.h>

#include "nc/ir/pass.h"
#include "nc/targets/mesh.h"
#include "nc/targets/targets.h"
#include "printer.h"

extern const char nc_target_json_northpole_northpole[];
extern const nc_target_sim nc_target_sim_northpole;

static const char *const granularities[] = {"row", "pixel", NULL};
static const char *const precisions[] = {"8", "4", "2", "mixed", NULL};
static const char *const methods[] = {"maxabs", "percentile", "mse", NULL};
static const char *const balance_costs[] = {"auto", "sends", "links", "links-ties", "links-copies", NULL};
static const char *const minmax_modes[] = {"auto", "true", "false", NULL};
static const char *const levels[] = {"graph", "quantized", "dataflow", "core"};

static const nc_pass_option_def options[] = {
  {"calibration", NC_PASS_OPT_STRING, "", "graph-quantize's calibration inputs (.npy, N x the input shape, f32)"},
  {"max-samples", NC_PASS_OPT_INT, "0", "Calibrate on at most this many samples (0: all)"},
  {"calibration-method", NC_PASS_OPT_ENUM, "maxabs",
   "Activation ranges: max |x|, a percentile of |x| (--calibration-percentile) or the least-squared-error clip",
   methods},
  {"calibration-percentile", NC_PASS_OPT_STRING, "99.99", "The percentile of |x| that --calibration-method=percentile clips at"},
  {"precision", NC_PASS_OPT_ENUM, "8",
   "Bits of weights and activations (first and last layers stay at 8 unless --precision-overrides names them); "
   "mixed: each layer's width chosen by measured sensitivity under --min-sqnr or --max-accuracy-drop",
   precisions},
  {"labels", NC_PASS_OPT_STRING, "", "--precision=mixed: the calibration samples' classes (.npy of integers)"},
  {"max-accuracy-drop", NC_PASS_OPT_STRING, "",
   "--precision=mixed with --labels: accuracy points below float the widths may lose (default 0.5)"},
  {"min-sqnr", NC_PASS_OPT_STRING, "", "--precision=mixed: the least SQNR (dB) of the output against float"},
  {"precision-overrides", NC_PASS_OPT_STRING, "", "Per-layer widths LAYER:BITS,... (LAYER: the layer's ONNX node name)"},
  {"quant-report", NC_PASS_OPT_STRING, "",
   "Write each quantized layer's bits, scale and SQNR (dB, against float on the calibration inputs) to this JSON "
   "file, and the table to stderr"},
  {"granularity", NC_PASS_OPT_ENUM, "row",
   "Work per layer iteration (one output row or pixel) and how the host streams inputs (rows or pixels)",
   granularities},
  {"balance", NC_PASS_OPT_BOOL, "true",
   "Spread the layers with the most work over the grid's spare cores (core-place{balance row-balance}: "
   "output-channel slices, then bands of output rows), so the slowest pipeline stage is as short as it can be"},
  {"balance-costs", NC_PASS_OPT_ENUM, "auto",
   "What balancing costs besides work: auto (links at 4 and 2 bits, sends otherwise: the faster in steady state "
   "on the torchvision CNNs, docs/targets/northpole.md), sends (sends once per tile read), links (row bands: sends as multicasts and "
   "each tile's incoming bytes over one link, and layers of at most 28 rows get channel slices and bands "
   "together, core-place{band-multicast recv-links=1 joint-rows-below=28}), links-ties (links, and "
   "channel balancing goes on through equally slow layers, core-place{balance-ties}), links-copies (links, and row "
   "balancing stops where core-replicate's copies, four of a layer at most, would do better, core-place{plan-copies=4})",
   balance_costs},
  {"multicast", NC_PASS_OPT_BOOL, "true",
   "Send an iteration's output to all the tiles of a split consumer, and each input step to all the tiles that "
   "read it, as one multicast (core-multicast; core-place's cost model counts it)"},
  {"replicate", NC_PASS_OPT_BOOL, "true",
   "Copy the slowest layer's tiles onto the cores balancing left spare, each copy handling alternate frames "
   "(core-replicate)"},
  {"colocate", NC_PASS_OPT_INT, "-1",
   "Several light layers per core, so that the cores they free take copies of the heavy ones (core-colocate): "
   "-1 as its cost model says (with --replicate), 0 never, N > 0 exactly the N lightest tiles (tests)"},
  {"spread-links", NC_PASS_OPT_INT, "20000",
   "Swaps of whole cores tried after scheduling to unload the busiest mesh links, costed from the messages the "
   "programs send (core-spread-links; 0: none)"},
  {"fold-concat", NC_PASS_OPT_BOOL, "true",
   "Give a concat and the layers computing its inputs one scale (graph-quantize{share-concat-scales}) and remove "
   "the concat's tile: its producers send to its readers (core-fold-concat)"},
  {"fold-input-affine", NC_PASS_OPT_ENUM, "auto",
   "Fold a depthwise per-channel layer (a batch-norm and relu after a concat) into the 1x1 conv that reads it: "
   "the conv's tiles apply it to the elements they receive, and it takes no tile (dataflow-fold-input-affine); "
   "auto: at 4 and 2 bits (densenet121 at 8 bits is 1.5% slower with it: balancing leaves a folded conv on two "
   "cores)",
   minmax_modes},
  {"host-weight", NC_PASS_OPT_INT, "1",
   "The placement counts the host's input bytes this many times (core-place{host-weight}): the host streams the "
   "inputs at its link's pace, ahead of the pipeline, so flows that cross its routes wait (docs/targets/northpole.md)"},
  {"host-buffer-frames", NC_PASS_OPT_INT, "2",
   "Frames of host input each input tile's buffer holds (core-host-buffers{frames}): the host writes only where "
   "a buffer has room, so a bare line buffer makes every input row wait (docs/targets/northpole.md; 0: bare)"},
  {"guests", NC_PASS_OPT_BOOL, "true",
   "With --balance: when fully connected weights would fill over a quarter of the cores, their slices share the "
   "other layers' cores instead, in the SRAM those leave spare (core-place{guest-above=25}; at 4 and 2 bits that "
   "SRAM before cores no tile uses, guest-spare-first)"},
  {"guest-extra-cores", NC_PASS_OPT_INT, "2",
   "With --guests, at 4 and 2 bits: fully connected weights that take at least this many cores beyond their "
   "layer's one share the other layers' cores too, whatever their share of the chip (core-place{guest-extra-cores}; "
   "0: only above a quarter)"},
  {"small-guests", NC_PASS_OPT_INT, "-1",
   "With --balance: weightless layers whose single tile would take at most this percentage of the chip's compute "
   "bound (a global pool, a flatten) share the least busy core instead of taking one (core-place{small-guests}; "
   "kept only where min-max's model gets faster with their cores than without; 0: never; -1: 50 at 4 and 2 bits, "
   "0 at 8). With --minmax-single-links=3, 50 takes resnet50 at 4 bits from 9,708 to 9,670 cycles per frame"},
  {"add-guests", NC_PASS_OPT_BOOL, "true",
   "With --balance: cut each residual add like the conv feeding it and run every slice on that conv tile's core, "
   "so adds take no core of their own and send from many ports (core-place{add-guests}; false: adds on cores of "
   "their own)"},
  {"balance-minmax", NC_PASS_OPT_ENUM, "auto",
   "With --balance: after the balancing rounds, take the split whose slowest stage (as the simulator times it: "
   "packed bytes on the ports, residual adds' work and sends on their convs' tiles) is the shortest the cores allow, "
   "any layer's slices and bands changed, when that is faster (core-place{balance-minmax}); at 8 bits it costs "
   "concats as core-fold-concat leaves them and receiving over up to four links (core-place{minmax-fold-concat "
   "minmax-recv-links=4}); auto: on at every width (true; false: the balancing rounds' split)",
   minmax_modes},
  {"minmax-recv-links", NC_PASS_OPT_INT, "0",
   "With --balance-minmax: the links over which min-max's model spreads a tile's received bytes "
   "(core-place{minmax-recv-links}); 0 (or less): 4 at 8 bits, 1 at 4 and 2 bits. At 4 bits 4 makes resnet50 faster "
   "(9,722 -> 9,698 cycles per frame) but densenet121 (8,720 -> 10,584) and googlenet slower, so it is not the "
   "default there (docs/targets/northpole.md)"},
  {"minmax-single-links", NC_PASS_OPT_INT, "-1",
   "With --balance-minmax: the links over which min-max's model spreads what a stage reading one producer only "
   "receives, at most as many as that producer has tiles (core-place{minmax-single-links}; with --small-guests=50, 3 "
   "gives resnet50's pool1 one tile instead of three); 0: as --minmax-recv-links; -1: 3 at 4 and 2 bits (vgg11 "
   "17,130 -> 16,800 cycles per frame), 0 at 8"},
  {"input-channel-split", NC_PASS_OPT_INT, "0",
   "Split conv and matmul layers by input channels with partial sums (core-place{input-channel-split}): 0 where "
   "output-channel slices cannot fit a core, N > 1 every such layer into N slices, -1 never"},
};

static const nc_target_desc_def descs[] = {
  {"northpole", "IBM NorthPole as published: 16x16 cores, 768 KiB each, 2048/4096/8192 ops/cycle at 8/4/2 bits, "
                "400 MHz", nc_target_json_northpole_northpole},
};

static int level_of(const char *s)
{
  for (int i = 0; i < (int)NC_COUNTOF(levels); i++)
    if (!strcmp(levels[i], s))
      return i;
  return (int)NC_COUNTOF(levels) - 1;
}

/* A pass being configured (nc_pass_create_named), or NULL after an error:
 * each setter leaves NULL behind on failure, so a chain of them needs one
 * check, at add(). */
static nc_pass *set_s(nc_pass *p, const char *name, const char *v)
{
  if (p && !nc_pass_set_option(p, name, v)) {
    nc_pass_destroy(p);
    return NULL;
  }
  return p;
}

static nc_pass *set_b(nc_pass *p, const char *name, bool v) { return set_s(p, name, v ? "true" : "false"); }

static nc_pass *set_i(nc_pass *p, const char *name, int64_t v)
{
  if (p && !nc_pass_set_option_int(p, name, v)) {
    nc_pass_destroy(p);
    return NULL;
  }
  return p;
}

/* Appends p (taking it); false if an option could not be set or pm refuses it. */
static bool add(nc_pass_manager *pm, nc_pass *p) { return p && nc_pass_manager_add_owned_pass(pm, p); }

static nc_pass *pass(nc_pass_manager *pm, const char *arg)
{
  return nc_pass_create_named(nc_pass_manager_get_context(pm), arg);
}

/* graph-quantize with the target's options. */
static nc_pass *quantize(nc_pass_manager *pm, const nc_pass *o)
{
  const char *precision = nc_pass_get_option_string(o, "precision");
  bool mixed = !strcmp(precision, "mixed");
  nc_pass *p = pass(pm, "graph-quantize");
  p = set_s(p, "calibration", nc_pass_get_option_string(o, "calibration"));
  p = set_i(p, "max-samples", nc_pass_get_option_int(o, "max-samples"));
  p = set_s(p, "bits", mixed ? "8" : precision);
  p = set_s(p, "overrides", nc_pass_get_option_string(o, "precision-overrides"));
  p = set_s(p, "method", nc_pass_get_option_string(o, "calibration-method"));
  p = set_s(p, "percentile", nc_pass_get_option_string(o, "calibration-percentile"));
  p = set_s(p, "report", nc_pass_get_option_string(o, "quant-report"));
  if (mixed) { /* graph_quantize_mixed.c; its throughput estimate costs sends as core-place will */
    p = set_b(p, "mixed", true);
    p = set_b(p, "multicast", nc_pass_get_option_bool(o, "multicast"));
    p = set_b(p, "balance", nc_pass_get_option_bool(o, "balance"));
  }
  p = set_s(p, "labels", nc_pass_get_option_string(o, "labels"));
  p = set_s(p, "max-accuracy-drop", nc_pass_get_option_string(o, "max-accuracy-drop"));
  p = set_s(p, "min-sqnr", nc_pass_get_option_string(o, "min-sqnr"));
  return set_b(p, "share-concat-scales", nc_pass_get_option_bool(o, "fold-concat"));
}

/* core-place with the target's options. */
static nc_pass *place(nc_pass_manager *pm, const nc_pass *o)
{
  bool mc = nc_pass_get_option_bool(o, "multicast"), balance = nc_pass_get_option_bool(o, "balance");
  const char *costs = nc_pass_get_option_string(o, "balance-costs"), *bits = nc_pass_get_option_string(o, "precision");
  bool narrow = !strcmp(bits, "4") || !strcmp(bits, "2");
  if (!strcmp(costs, "auto"))
    costs = narrow ? "links" : "sends";
  nc_pass *p = pass(pm, "core-place");
  p = set_i(p, "search-iterations", 20000);
  p = set_i(p, "link-iterations", 2000);
  p = set_i(p, "host-weight", nc_pass_get_option_int(o, "host-weight"));
  p = set_i(p, "input-channel-split", nc_pass_get_option_int(o, "input-channel-split"));
  if (balance) {
    p = set_b(p, "balance", true);
    p = set_i(p, "balance-lookahead", 1);
    p = set_b(p, "row-balance", true);
    p = set_b(p, "partial-bands", true);
    p = set_i(p, "joint-split-above", 25);
  }
  /* guest slices leave room for core-host-buffers' frames; at 4 and 2 bits
   * they fill spare SRAM before free cores, which core-replicate's copies
   * then take (vgg11 at 4 bits; at 8 bits vgg11 gets no copies either way) */
  if (balance && nc_pass_get_option_bool(o, "guests")) {
    p = set_i(p, "guest-above", 25);
    p = set_i(p, "host-buffer-frames", nc_pass_get_option_int(o, "host-buffer-frames"));
    if (narrow) {
      p = set_b(p, "guest-spare-first", true);
      /* resnet50's fc (3 cores of weights at 4 bits) as guests: min-max
       * gives its cores to the slowest layers (9,722 -> 9,708 cycles per
       * frame); the other models' fc layers fit one core at 4 bits */
      p = set_i(p, "guest-extra-cores", nc_pass_get_option_int(o, "guest-extra-cores"));
    }
  }
  if (balance && nc_pass_get_option_bool(o, "add-guests"))
    p = set_b(p, "add-guests", true);
  /* a global pool and a flatten (resnet50: 82 and 33 cycles per frame at 4
   * bits) on the least busy core: min-max gives their cores to the slowest
   * layers */
  int64_t small = nc_pass_get_option_int(o, "small-guests");
  if (small < 0)
    small = narrow ? 50 : 0;
  if (balance && small > 0)
    p = set_i(p, "small-guests", small);
  const char *minmax = nc_pass_get_option_string(o, "balance-minmax");
  if (balance && strcmp(minmax, "false")) {
    p = set_b(p, "balance-minmax", true);
    /* at 8 bits: folded concats and a mesh core's four links in (googlenet
     * 8,235 -> 7,600 cycles per frame); at 4 and 2 bits the one-link margin
     * and the binaries stay as they were (resnet50's 9,722) */
    if (!narrow && nc_pass_get_option_bool(o, "fold-concat"))
      p = set_b(p, "minmax-fold-concat", true);
    int64_t recv = nc_pass_get_option_int(o, "minmax-recv-links");
    if (recv > 0)
      p = set_i(p, "minmax-recv-links", recv);
    else if (!narrow)
      p = set_i(p, "minmax-recv-links", 4);
    int64_t single = nc_pass_get_option_int(o, "minmax-single-links");
    if (single < 0)
      single = narrow ? 3 : 0;
    if (single > 0)
      p = set_i(p, "minmax-single-links", single);
  }
  if (mc)
    p = set_b(p, "multicast", true);
  if (strcmp(costs, "sends")) {
    p = set_b(p, "band-multicast", true);
    p = set_i(p, "recv-links", 1);
    p = set_i(p, "joint-rows-below", 28);
  }
  if (!strcmp(costs, "links-ties"))
    p = set_b(p, "balance-ties", true);
  else if (!strcmp(costs, "links-copies"))
    p = set_i(p, "plan-copies", 4);
  return p;
}

/* The pipeline, built from pass instances whose options are set by name
 * and typed value (nc_pass_set_option*): nothing is assembled as text. */
/* Whether dataflow-fold-input-affine runs: --fold-input-affine, auto at 4 and 2 bits. */
static bool fold_input_affine(const nc_pass *o)
{
  const char *mode = nc_pass_get_option_string(o, "fold-input-affine"), *bits = nc_pass_get_option_string(o, "precision");
  return !strcmp(mode, "true") || (!strcmp(mode, "auto") && (!strcmp(bits, "4") || !strcmp(bits, "2")));
}

static bool build(nc_pass_manager *pm, const nc_pass *o, const char *stop_after, void *userData)
{
  (void)userData;
  int stop = level_of(stop_after);
  if (!nc_pass_manager_add_pass(pm, "graph-optimize", NULL)) /* a named pipeline, without options */
    return false;
  if (stop >= 1 && !add(nc_pass_manager_nest(pm, "func.func"), quantize(pm, o)))
    return false;
  if (stop >= 2 && !nc_target_add_dataflow_passes_with(pm, nc_pass_get_option_string(o, "granularity"),
                                                       fold_input_affine(o) ? "dataflow-fold-input-affine" : NULL))
    return false;
  if (stop >= 3) {
    bool mc = nc_pass_get_option_bool(o, "multicast"), rep = nc_pass_get_option_bool(o, "replicate");
    int64_t colocate = nc_pass_get_option_int(o, "colocate"), spread = nc_pass_get_option_int(o, "spread-links");
    if (!add(pm, pass(pm, "dataflow-to-core")) || !add(pm, place(pm, o)) || !add(pm, pass(pm, "core-schedule")))
      return false;
    if (nc_pass_get_option_bool(o, "fold-concat") && !add(pm, pass(pm, "core-fold-concat")))
      return false;
    if (colocate > 0 || (colocate < 0 && rep)) { /* -1: as core-colocate's cost model says, with copies to make */
      nc_pass *co = set_i(pass(pm, "core-colocate"), "force", colocate > 0 ? colocate : 0);
      if (!add(pm, mc ? set_b(co, "multicast", true) : co))
        return false;
    }
    if (rep && !add(pm, mc ? set_b(pass(pm, "core-replicate"), "multicast", true) : pass(pm, "core-replicate")))
      return false;
    if (mc && !add(pm, pass(pm, "core-multicast")))
      return false;
    if (spread > 0 && !add(pm, set_i(pass(pm, "core-spread-links"), "iterations", spread)))
      return false;
    return add(pm, set_i(pass(pm, "core-host-buffers"), "frames", nc_pass_get_option_int(o, "host-buffer-frames"))) &&
           add(pm, pass(pm, "core-plan-memory"));
  }
  return true;
}

static nc_attr *parse_desc(nc_context *ctx, const char *text, size_t len, const char *file, void *userData)
{
  return nc_mesh_desc_parse(ctx, text, len, file);
}

/* The layers printer_layer.c reads (np_layer_read, which checks the values
 * it cannot run, as a copy or max_pool that requantizes): every parameter
 * its kinds use, but a table (lut) only as a layer of its own and a
 * transpose (perm) only as a copy. */
#define ALL (((uint64_t)1 << NC_DATAFLOW_NUM_PARAMS) - 1)
#define NOT(e) (ALL & ~NC_DATAFLOW_PARAM_BIT(e))
#define PLAIN (NOT(LUT) & NOT(PERM) & NOT(OP) & NOT(INPUT_AFFINE))
static const nc_target_layer_def layers[] = {
  {NC_DATAFLOW_LAYER_CONV, PLAIN | NC_DATAFLOW_PARAM_BIT(INPUT_AFFINE)},
  {NC_DATAFLOW_LAYER_MATMUL, PLAIN},
  {NC_DATAFLOW_LAYER_MAX_POOL, PLAIN},
  {NC_DATAFLOW_LAYER_AVG_POOL, PLAIN},
  {NC_DATAFLOW_LAYER_GLOBAL_MAX_POOL, PLAIN},
  {NC_DATAFLOW_LAYER_GLOBAL_AVG_POOL, PLAIN},
  {NC_DATAFLOW_LAYER_ELTWISE, PLAIN | NC_DATAFLOW_PARAM_BIT(OP)},
  {NC_DATAFLOW_LAYER_CONCAT, PLAIN},
  {NC_DATAFLOW_LAYER_COPY, PLAIN | NC_DATAFLOW_PARAM_BIT(PERM)},
  {NC_DATAFLOW_LAYER_LUT, PLAIN | NC_DATAFLOW_PARAM_BIT(LUT)},
  {NC_DATAFLOW_LAYER_RESIZE, PLAIN},
  {NC_DATAFLOW_LAYER_PAD, PLAIN},
  {NC_DATAFLOW_LAYER_SHUFFLE, PLAIN},
  {NC_DATAFLOW_LAYER_SOFTMAX, PLAIN | NC_DATAFLOW_PARAM_BIT(LUT)},
};
#undef PLAIN
#undef NOT
#undef ALL

const nc_target_def nc_target_northpole = {
  .name = "northpole",
  .family = "mesh",
  .summary = "NorthPole-like grid of cores with SRAM and a mesh NoC (IBM, Science 2023)",
  .descs = descs, .n_descs = NC_COUNTOF(descs),
  .parse_desc = parse_desc,
  .options = options, .n_options = NC_COUNTOF(options),
  .levels = levels, .n_levels = NC_COUNTOF(levels),
  .build_pipeline = build,
  .print_binary = np_print_binary,
  .layers = layers, .n_layers = NC_COUNTOF(layers),
  .sim = &nc_target_sim_northpole,
};
