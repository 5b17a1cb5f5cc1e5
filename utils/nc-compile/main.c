/* nc-compile: one shot from a model to a target binary.
 *
 *   nc-compile model.onnx --target=northpole [--target-desc=FILE] [--calibration=train.npy]
 *              -o model.ncb [--emit=graph|quantized|dataflow|core|binary|host-stub]
 *
 * It imports the model (ONNX, or graph-dialect IR), runs the target's named
 * pipeline (northpole-pipeline{calibration=... target-desc=... stop-after=...},
 * the same one `nc-opt --pass-pipeline` runs) and prints the result: IR at
 * the level --emit names, the binary (the target's printer), or a host stub
 * (an object file with the binary embedded plus its C header, generated with
 * LLVM). IR that is already at the core level (it holds a core.chip) skips
 * the pipeline and is printed as it is. Output files are written only once
 * everything has succeeded.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nc/dialects/core/core.h"
#include "nc/dialects/dialects.h"
#include "nc/dialects/graph/onnx.h"
#include "nc/ir/asm.h"
#include "nc/ir/diag.h"
#include "nc/ir/pass.h"
#include "nc/passes/passes.h"
#include "nc/targets/host_stub.h"
#include "nc/targets/targets.h"

static const char *const levels[] = {"graph", "quantized", "dataflow", "core", "binary", "host-stub", NULL};
enum { EMIT_GRAPH, EMIT_QUANTIZED, EMIT_DATAFLOW, EMIT_CORE, EMIT_BINARY, EMIT_HOST_STUB };

typedef struct options {
  const char *model, *output, *target, *target_desc, *calibration, *granularity;
  const char *stub_name, *stub_header;
  long long max_samples;
  int emit;
  bool dump_pipeline, timing;
  nc_print_flags print;
} options;

static void usage(FILE *out)
{
  fprintf(out,
          "OVERVIEW: nc-compile: a model in, a target binary out\n\n"
          "USAGE: nc-compile MODEL [options]\n\n"
          "MODEL is an ONNX model (.onnx) or graph-dialect IR (.mlir); IR that already holds a\n"
          "core.chip is printed without running the pipeline.\n\n"
          "OPTIONS:\n"
          "  --target=<name>                  Target (default: northpole); --list-targets shows them\n"
          "  --target-desc=<file>             Chip description (JSON; default: the target's built-in one)\n"
          "  --calibration=<file>             Calibration inputs for quantization (.npy, N x the input shape)\n"
          "  --max-samples=<n>                Calibrate on at most n samples (default: all)\n"
          "  --granularity=row|pixel          Work per layer iteration (default: row)\n"
          "  --emit=<level>                   graph, quantized, dataflow, core (IR), binary (default) or\n"
          "                                   host-stub (an object file + C header calling the runtime ABI)\n"
          "  -o <file>                        Output (IR: default stdout; binary: MODEL.ncb; host-stub: MODEL.o)\n"
          "  --host-stub-name=<identifier>    Prefix of the host stub's symbols (default: from the output name)\n"
          "  --host-stub-header=<file>        The host stub's header (default: the object's name with .h)\n"
          "  --dump-pass-pipeline             Print the pipeline that runs to stderr\n"
          "  --mlir-timing                    Report the time of each pass\n"
          "  --mlir-print-op-generic, --mlir-print-debuginfo, --mlir-elide-elementsattrs-if-larger=<n>\n"
          "                                   How IR is printed\n"
          "  --list-targets                   List the targets\n"
          "  --help                           Show this help\n");
}

static const char *ext_of(const char *path)
{
  const char *slash = strrchr(path, '/'), *dot = strrchr(path, '.');
  return dot && (!slash || dot > slash) ? dot : "";
}

/* MODEL with its extension replaced (in the current directory). */
static char *derived_name(const char *model, const char *ext)
{
  const char *base = strrchr(model, '/');
  base = base ? base + 1 : model;
  size_t stem = strlen(base) - strlen(ext_of(base));
  char *s = malloc(stem + strlen(ext) + 1);
  memcpy(s, base, stem);
  strcpy(s + stem, ext);
  return s;
}

/* Whole-file diagnostics (`"file":0:0`, as the ONNX importer reports) print
 * as `file: error: message`; the rest as usual. */
static bool print_diag(const nc_diag *d, void *user)
{
  nc_context *ctx = user;
  nc_ident *file;
  unsigned line, col;
  if (!nc_location_get_file_line_col(ctx, nc_diag_get_loc(d), &file, &line, &col) || line)
    return false;
  static const char *sev[] = {"error", "warning", "note", "remark"};
  fprintf(stderr, "%s: %s: %s\n", nc_ident_str(file), sev[nc_diag_get_severity(d)], nc_diag_get_message(d));
  for (size_t i = 0; i < nc_diag_get_num_notes(d); i++)
    nc_diag_print(nc_diag_get_note(d, i), ctx, stderr);
  return true;
}

static bool has_chip(nc_op *module)
{
  for (nc_op *op = nc_block_get_first_op(nc_module_get_body(module)); op; op = nc_op_get_next(op))
    if (nc_core_is_chip(op))
      return true;
  return false;
}

static bool run_pipeline(nc_context *ctx, const options *o, const nc_target *t, nc_op *module)
{
  static const char *const stop[] = {"graph", "quantized", "dataflow", "core", "core", "core"};
  char text[8192];
  int n = snprintf(text, sizeof text, "builtin.module(%s{calibration=\"%s\" max-samples=%lld target-desc=\"%s\" "
                   "granularity=%s stop-after=%s})", nc_target_get_pipeline_name(t), o->calibration ? o->calibration : "",
                   o->max_samples, o->target_desc ? o->target_desc : "", o->granularity, stop[o->emit]);
  if (n >= (int)sizeof text) {
    fprintf(stderr, "nc-compile: error: option values are too long\n");
    return false;
  }
  nc_pass_manager *pm = nc_pass_pipeline_parse(ctx, text);
  if (!pm)
    return false;
  if (o->dump_pipeline) {
    char *s = nc_pass_manager_to_string(pm);
    fprintf(stderr, "Pass Manager with %zu passes:\n%s\n", nc_pass_manager_get_num_entries(pm), s);
    free(s);
  }
  nc_pass_run_options ro = nc_pass_run_options_default();
  nc_timing *timing = NULL;
  double w0 = nc_time_wall();
  if (o->timing) {
    ro.timing = ro.timing_tree = true;
    timing = nc_timing_create();
    nc_pass_manager_set_timing(pm, timing);
  }
  bool ok = nc_pass_manager_run(pm, module, &ro);
  if (timing) {
    nc_timing_print(timing, true, nc_time_wall() - w0, 0, stderr);
    nc_timing_destroy(timing);
  }
  nc_pass_manager_destroy(pm);
  return ok;
}

static bool write_bytes(const char *path, const void *data, size_t n)
{
  FILE *f = !strcmp(path, "-") ? stdout : fopen(path, "wb");
  if (!f) {
    fprintf(stderr, "nc-compile: error: cannot open '%s' for writing\n", path);
    return false;
  }
  bool ok = fwrite(data, 1, n, f) == n;
  ok = (f == stdout ? fflush(f) : fclose(f)) == 0 && ok;
  if (!ok)
    fprintf(stderr, "nc-compile: error: cannot write '%s'\n", path);
  return ok;
}

static bool compile(nc_context *ctx, const options *o)
{
  const nc_target *t = nc_target_lookup(o->target);
  if (!t) {
    fprintf(stderr, "nc-compile: error: unknown target '%s' (see --list-targets)\n", o->target);
    return false;
  }
  const char *ext = ext_of(o->model);
  nc_op *module = !strcmp(ext, ".onnx") ? nc_onnx_import_file(ctx, o->model)
                  : !strcmp(ext, ".mlir") ? nc_parse_file(ctx, o->model)
                                          : NULL;
  if (strcmp(ext, ".onnx") && strcmp(ext, ".mlir")) {
    fprintf(stderr, "%s: error: unknown model format '%s' (expected .onnx or .mlir)\n", o->model, ext);
    return false;
  }
  bool ok = module && nc_op_verify(module);
  bool at_core = ok && has_chip(module);
  if (ok && at_core && o->emit < EMIT_CORE) {
    fprintf(stderr, "%s: error: the model is already at the core level; --emit=%s is behind it\n", o->model,
            levels[o->emit]);
    ok = false;
  }
  if (ok && !at_core && o->emit >= EMIT_QUANTIZED && !o->calibration) {
    fprintf(stderr, "nc-compile: error: quantizing %s needs --calibration=FILE: a .npy of N inputs (N x the model's "
                    "input shape, f32) to measure activation ranges on\n", o->model);
    ok = false;
  }
  if (ok && !at_core)
    ok = run_pipeline(ctx, o, t, module);
  if (ok && o->emit <= EMIT_CORE) {
    char *text;
    size_t len;
    FILE *f = open_memstream(&text, &len);
    nc_op_print(module, f, &o->print);
    fclose(f);
    ok = write_bytes(o->output ? o->output : "-", text, len);
    free(text);
  } else if (ok) {
    nc_chip_desc desc;
    size_t size = 0;
    uint8_t *image = NULL;
    if (at_core) { /* core IR says which target it is for */
      const nc_target *mt = nc_target_of_module(module);
      ok = mt != NULL;
      t = ok ? mt : t;
    }
    ok = ok && nc_target_load_desc(t, ctx, o->target_desc, &desc) &&
         (image = nc_target_print_binary(t, module, &desc, &size)) != NULL;
    if (ok && o->emit == EMIT_BINARY) {
      char *def = o->output ? NULL : derived_name(o->model, ".ncb");
      ok = write_bytes(o->output ? o->output : def, image, size);
      free(def);
    } else if (ok) {
      char *def = o->output ? NULL : derived_name(o->model, ".o"), name[80], err[1024];
      const char *obj = o->output ? o->output : def;
      if (o->stub_name)
        snprintf(name, sizeof name, "%s", o->stub_name);
      else
        nc_host_stub_name_from_path(obj, name, sizeof name);
      ok = nc_host_stub_write(image, size, name, obj, o->stub_header, err, sizeof err);
      if (!ok)
        fprintf(stderr, "nc-compile: error: %s\n", err);
      free(def);
    }
    free(image);
  }
  if (module)
    nc_op_destroy(module);
  return ok;
}

enum {
  OPT_TARGET = 256, OPT_DESC, OPT_CALIB, OPT_SAMPLES, OPT_GRAN, OPT_EMIT, OPT_STUB_NAME, OPT_STUB_HEADER, OPT_DUMP,
  OPT_TIMING, OPT_GENERIC, OPT_DEBUGINFO, OPT_ELIDE, OPT_LIST, OPT_HELP,
};

static bool parse_args(int argc, char **argv, options *o, int *status)
{
  static const struct option long_opts[] = {
    {"target", required_argument, NULL, OPT_TARGET},       {"target-desc", required_argument, NULL, OPT_DESC},
    {"calibration", required_argument, NULL, OPT_CALIB},   {"max-samples", required_argument, NULL, OPT_SAMPLES},
    {"granularity", required_argument, NULL, OPT_GRAN},    {"emit", required_argument, NULL, OPT_EMIT},
    {"host-stub-name", required_argument, NULL, OPT_STUB_NAME},
    {"host-stub-header", required_argument, NULL, OPT_STUB_HEADER},
    {"dump-pass-pipeline", no_argument, NULL, OPT_DUMP},   {"mlir-timing", no_argument, NULL, OPT_TIMING},
    {"mlir-print-op-generic", no_argument, NULL, OPT_GENERIC},
    {"mlir-print-debuginfo", no_argument, NULL, OPT_DEBUGINFO},
    {"mlir-elide-elementsattrs-if-larger", required_argument, NULL, OPT_ELIDE},
    {"list-targets", no_argument, NULL, OPT_LIST},         {"help", no_argument, NULL, OPT_HELP},
    {NULL, 0, NULL, 0},
  };
  *o = (options){.target = "northpole", .granularity = "row", .emit = EMIT_BINARY};
  *status = 1;
  opterr = 0;
  int c;
  char *end;
  while ((c = getopt_long(argc, argv, "o:", long_opts, NULL)) != -1) {
    switch (c) {
    case 'o': o->output = optarg; break;
    case OPT_TARGET: o->target = optarg; break;
    case OPT_DESC: o->target_desc = optarg; break;
    case OPT_CALIB: o->calibration = optarg; break;
    case OPT_SAMPLES:
      o->max_samples = strtoll(optarg, &end, 10);
      if (*end || o->max_samples < 0) {
        fprintf(stderr, "nc-compile: error: --max-samples needs a count >= 0, not '%s'\n", optarg);
        return false;
      }
      break;
    case OPT_GRAN:
      if (strcmp(optarg, "row") && strcmp(optarg, "pixel")) {
        fprintf(stderr, "nc-compile: error: --granularity must be row or pixel, not '%s'\n", optarg);
        return false;
      }
      o->granularity = optarg;
      break;
    case OPT_EMIT:
      for (o->emit = 0; levels[o->emit] && strcmp(levels[o->emit], optarg); o->emit++)
        ;
      if (!levels[o->emit]) {
        fprintf(stderr, "nc-compile: error: --emit must be one of graph, quantized, dataflow, core, binary, "
                        "host-stub; not '%s'\n", optarg);
        return false;
      }
      break;
    case OPT_STUB_NAME:
      if (!nc_host_stub_name_ok(optarg)) {
        fprintf(stderr, "nc-compile: error: --host-stub-name needs a C identifier, not '%s'\n", optarg);
        return false;
      }
      o->stub_name = optarg;
      break;
    case OPT_STUB_HEADER: o->stub_header = optarg; break;
    case OPT_DUMP: o->dump_pipeline = true; break;
    case OPT_TIMING: o->timing = true; break;
    case OPT_GENERIC: o->print.generic = true; break;
    case OPT_DEBUGINFO: o->print.debuginfo = true; break;
    case OPT_ELIDE: o->print.elide_elements_larger = strtoll(optarg, NULL, 10); break;
    case OPT_LIST:
      for (size_t i = 0; i < nc_target_count(); i++)
        printf("%-12s %s (pipeline: %s)\n", nc_target_get_name(nc_target_get(i)),
               nc_target_get_summary(nc_target_get(i)), nc_target_get_pipeline_name(nc_target_get(i)));
      *status = 0;
      return false;
    case OPT_HELP: usage(stdout); *status = 0; return false;
    default:
      fprintf(stderr, "nc-compile: error: unknown or incomplete option '%s' (see --help)\n", argv[optind - 1]);
      return false;
    }
  }
  if (optind < argc)
    o->model = argv[optind++];
  if (optind < argc) {
    fprintf(stderr, "nc-compile: error: more than one model given ('%s' and '%s')\n", o->model, argv[optind]);
    return false;
  }
  if (!o->model) {
    fprintf(stderr, "nc-compile: error: no model given (see --help)\n");
    return false;
  }
  if (o->emit == EMIT_HOST_STUB && o->output && !strcmp(o->output, "-")) {
    fprintf(stderr, "nc-compile: error: a host stub is two files; give -o with a file name\n");
    return false;
  }
  return true;
}

int main(int argc, char **argv)
{
  nc_register_all_passes();
  nc_register_all_targets();
  options o;
  int status;
  if (!parse_args(argc, argv, &o, &status))
    return status;
  nc_context *ctx = nc_context_create();
  nc_register_all_dialects(ctx);
  unsigned h = nc_context_push_diag_handler(ctx, print_diag, ctx);
  bool ok = compile(ctx, &o);
  nc_context_pop_diag_handler(ctx, h);
  nc_context_destroy(ctx);
  return ok ? 0 : 1;
}
