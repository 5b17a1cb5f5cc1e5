/* target.c: the xbar target (docs/targets/xbar.md): a computational-memory
 * chip whose cores each hold one crossbar (IBM's cmnnc prototype, PUMA,
 * PIMCOMP-NN). The const struct ties together its built-in descriptions
 * (cmnnc.json, puma.json), its dialect and passes (xbar-map, xbar-control),
 * its pipeline, its printer, its control-c output and its simulator.
 */
#include <string.h>

#include "nc/ir/pass.h"
#include "nc/targets/target.h"
#include "nc/targets/targets.h"
#include "xbar_ir.h"

extern const nc_target_sim nc_target_sim_xbar;

static const char *const levels[] = {"graph", "quantized", "dataflow", "xbar"};

static const nc_pass_option_def options[] = {
  {"calibration", NC_PASS_OPT_STRING, "", "graph-quantize's calibration inputs (.npy, N x the input shape, f32)"},
  {"max-samples", NC_PASS_OPT_INT, "0", "Calibrate on at most this many samples (0: all)"},
};

static int level_of(const char *s)
{
  for (int i = 0; i < (int)NC_COUNTOF(levels); i++)
    if (s && !strcmp(levels[i], s))
      return i;
  return (int)NC_COUNTOF(levels) - 1;
}

/* The pipeline: graph-quantize as a pass instance given its option values
 * by name (nothing assembled as text, so a calibration path of any length
 * or characters passes as it is), the rest as fixed text. */
static bool build(nc_pass_manager *pm, const nc_pass *opts, const char *stop_after, void *userData)
{
  (void)userData;
  int stop = level_of(stop_after);
  if (!nc_pass_manager_add_pass(pm, "graph-optimize", NULL))
    return false;
  if (stop >= 1) {
    nc_pass *q = nc_pass_create_named(nc_pass_manager_get_context(pm), "graph-quantize");
    if (!q || !nc_pass_set_option(q, "calibration", nc_pass_get_option_string(opts, "calibration")) ||
        !nc_pass_set_option_int(q, "max-samples", nc_pass_get_option_int(opts, "max-samples"))) {
      nc_pass_destroy(q);
      return false;
    }
    if (!nc_pass_manager_add_owned_pass(nc_pass_manager_nest(pm, "func.func"), q))
      return false;
  }
  /* one crossbar MVM per output pixel: pixel iterations, and the host streams pixels */
  if (stop >= 2 && !nc_target_add_dataflow_passes(pm, "pixel"))
    return false;
  return stop < 3 || nc_pass_manager_add_passes(pm, "xbar-map,xbar-control");
}

static nc_attr *parse_desc(nc_context *ctx, const char *text, size_t len, const char *file, void *userData)
{
  (void)userData;
  return xbar_desc_parse_attr(ctx, text, len, file);
}

static const nc_target_emit_def emits[] = {
  {"control-c", "the control program of every node input as C (isl's AST and expressions)", xbar_emit_control_c},
};

static const nc_dialect_def *const dialects[] = {&xbar_dialect};
static const nc_pass_def *const passes[] = {&xbar_map_pass, &xbar_control_pass};

extern const char nc_target_json_xbar_cmnnc[], nc_target_json_xbar_puma[];

static const nc_target_desc_def descs[] = {
  {"cmnnc", "cmnnc-like (IBM's 64-core PCM chip): 8x8 cores of 256x256 crossbars, 8-bit inputs in one phase, "
            "133 cycles per MVM at 1 GHz", nc_target_json_xbar_cmnnc},
  {"puma", "PUMA-like: 16x16 cores of 128x128 crossbars, 1-bit DACs (8 slices of 16 cycles), 10-bit ADCs",
   nc_target_json_xbar_puma},
};

#define P(e) NC_DATAFLOW_PARAM_BIT(e)
/* what printer.c writes per stage: crossbar layers requantize to int8 with
 * zero points; the digital units move elements (their zero points are the
 * input's, kept) and clamp nothing */
#define ZERO_POINTS (P(INPUT_ZERO_POINTS) | P(OUTPUT_ZERO_POINT))
#define MVM (ZERO_POINTS | P(WEIGHT_ZERO_POINT) | P(WEIGHTS) | P(BIAS) | P(MULTIPLIER) | P(SHIFT) | P(CLAMP_MIN) | \
             P(CLAMP_MAX))
#define WINDOW (P(KERNEL) | P(STRIDE) | P(DILATION) | P(PADS))
static const nc_target_layer_def layers[] = {
  {NC_DATAFLOW_LAYER_CONV, MVM | WINDOW | P(GROUP)},
  {NC_DATAFLOW_LAYER_MATMUL, MVM},
  {NC_DATAFLOW_LAYER_MAX_POOL, ZERO_POINTS | WINDOW},
  {NC_DATAFLOW_LAYER_COPY, ZERO_POINTS},
  {NC_DATAFLOW_LAYER_RESIZE, ZERO_POINTS | P(SCALE) | P(LINEAR) | P(LINEAR_CHANNELS) | P(NEAREST_CHANNELS)},
  {NC_DATAFLOW_LAYER_PAD, ZERO_POINTS | P(PADS) | P(PAD_VALUE) | P(PAD_MODE)},
  {NC_DATAFLOW_LAYER_SHUFFLE, ZERO_POINTS | P(GROUP)},
};
#undef P

const nc_target_def nc_target_xbar = {
  .name = "xbar",
  .family = "crossbar",
  .summary = "Computational-memory crossbar chip: one crossbar per core, weights programmed once, inputs streamed "
             "(IBM cmnnc, PUMA)",
  .descs = descs, .n_descs = NC_COUNTOF(descs),
  .parse_desc = parse_desc,
  .options = options, .n_options = NC_COUNTOF(options),
  .levels = levels, .n_levels = NC_COUNTOF(levels),
  .dialects = dialects, .n_dialects = NC_COUNTOF(dialects),
  .passes = passes, .n_passes = NC_COUNTOF(passes),
  .build_pipeline = build,
  .print_binary = xbar_print_binary,
  .layers = layers, .n_layers = NC_COUNTOF(layers),
  .emits = emits, .n_emits = NC_COUNTOF(emits),
  .sim = &nc_target_sim_xbar,
};
