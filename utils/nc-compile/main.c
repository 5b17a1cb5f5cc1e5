/* nc-compile: one shot from a model to a target binary.
 *
 *   nc-compile model.onnx --target=NAME [--target-desc=NAME|FILE] [--<target option>=VALUE ...]
 *              -o model.ncb [--emit=<level>|binary|host-stub|<target output>]
 *
 * It imports the model (ONNX, or graph-dialect IR), runs the target's named
 * pipeline (<name>-pipeline, the one `nc-opt --pass-pipeline` runs) and
 * writes the result: IR at the level --emit names, the binary (the target's
 * printer), a host stub (an object file with the binary embedded plus its C
 * header, generated with LLVM), or one of the target's own outputs. The
 * driver knows no target's options: any --<name>=<value> it does not know
 * itself is looked up in the target's declared options and passed through
 * (`nc-compile --target=NAME --help` lists them). IR that already names a
 * target (nc.target) is not lowered again. Output files are written only
 * once everything has succeeded.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nc/support/mapped.h"
#include "nc/support/strutil.h"
#include "nc/support/file.h"
#include "nc/dialects/dialects.h"
#include "nc/dialects/graph/onnx.h"
#include "nc/ir/asm.h"
#include "nc/ir/diag.h"
#include "nc/ir/pass.h"
#include "nc/ir/threading.h"
#include "nc/passes/passes.h"
#include "nc/targets/host_stub.h"
#include "nc/targets/targets.h"
#include "report.h"
#include "../nc-report/tool_report.h"

typedef struct options {
  const char *model, *output, *target, *emit;
  const char *stub_name, *stub_header;
  const char *report;       /* --report=DIR */
  const char *quant_report; /* the quant-report option's file (--report sets one) */
  char *report_quant;       /* DIR/quant.json when --report set it */
  char *input_shapes; /* --input-shape values joined with ',' (NULL: none) */
  bool dump_pipeline, timing, statistics, help;
  bool no_threads;     /* --mlir-disable-threading */
  bool no_verify_each; /* --verify-each=false */
  nc_print_flags print;
  /* --<target option>=<value>, checked once the target is known */
  size_t n_pass;
  const char **pass_names, **pass_values;
} options;

static void usage(FILE *out)
{
  fprintf(out,
          "OVERVIEW: nc-compile: a model in, a target binary out\n\n"
          "USAGE: nc-compile MODEL [options]\n\n"
          "MODEL is an ONNX model (.onnx) or graph-dialect IR (.mlir); IR that already names a\n"
          "target (nc.target) is printed without running the pipeline again.\n\n"
          "OPTIONS:\n"
          "  --target=<name>                  Target (default: northpole); --list-targets shows them\n"
          "  --target-desc=<name|file>        Chip description: a built-in one or a JSON file\n"
          "  --input-shape=<name>:<DxDx...>   Give input <name> (or #i) that static shape, fixing its dynamic\n"
          "                                   dims (repeatable, or comma-separated), e.g. input:1x3x224x224\n"
          "  --<option>=<value>               An option of the target's pipeline (see --target=<name> --help),\n"
          "                                   e.g. --calibration=train.npy\n"
          "  --emit=<level>                   An IR level of the target (graph, ..., its last), binary (default),\n"
          "                                   host-stub (an object file + C header calling the runtime ABI), or\n"
          "                                   one of the target's own outputs\n"
          "  -o <file>                        Output (IR: default stdout; binary: MODEL.ncb; host-stub: MODEL.o)\n"
          "  --host-stub-name=<identifier>    Prefix of the host stub's symbols (default: from the output name)\n"
          "  --host-stub-header=<file>        The host stub's header (default: the object's name with .h)\n"
          "  --load-target-plugin=<file.so>   Load a target built out of tree\n"
          "  --report=<dir>                   Write an HTML report to dir/index.html: figures of one simulated\n"
          "                                   inference, dataflow and placement pictures, quantization report\n"
          "  --dump-pass-pipeline             Print the pipeline that runs to stderr\n"
          "  --mlir-timing                    Report the time of the import, each pass and the output\n"
          "  --verify-each=<bool>             Verify the IR after each pass (default true; false: once, after\n"
          "                                   the import, as the printer checks what it writes)\n"
          "  --mlir-disable-threading         Compile on one thread (else on NC_NUM_THREADS threads, default: one\n"
          "                                   per CPU); the output is the same either way\n"
          "  --mlir-pass-statistics           Report the passes' statistics (e.g. core-place's traffic-hops before\n"
          "                                   and after its search, stage imbalance) to stderr\n"
          "  --mlir-print-op-generic, --mlir-print-debuginfo, --mlir-elide-elementsattrs-if-larger=<n>\n"
          "                                   How IR is printed\n"
          "  --list-targets                   List the targets\n"
          "  --help                           Show this help (with --target: also the target's options)\n");
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
  char *s = nc_xmalloc(stem + strlen(ext) + 1);
  memcpy(s, base, stem);
  strcpy(s + stem, ext);
  return s;
}

/* Where diagnostics print: they name the model the user gave (see nc_diag_print_for_input). */
typedef struct diag_sink {
  nc_context *ctx;
  const char *model;
} diag_sink;

static bool print_diag(const nc_diag *d, void *user)
{
  const diag_sink *sink = user;
  nc_diag_print_for_input(d, sink->ctx, "nc-compile", sink->model, stderr);
  return true;
}

/* --input-shape: graph-set-input-shape on every function, before the target's pipeline. */
static bool set_input_shapes(nc_context *ctx, const options *o, nc_op *module)
{
  nc_pass_manager *pm = nc_pass_manager_create(ctx, "builtin.module");
  char *opts = nc_xmalloc(strlen(o->input_shapes) + 8);
  sprintf(opts, "shapes=%s", o->input_shapes);
  bool ok = nc_pass_manager_add_pass(nc_pass_manager_nest(pm, "func.func"), "graph-set-input-shape", opts);
  nc_pass_run_options ro = nc_pass_run_options_default();
  ok = ok && nc_pass_manager_run(pm, module, &ro);
  free(opts);
  nc_pass_manager_destroy(pm);
  return ok;
}

static void progress(const char *pass, size_t index, size_t total, void *userData)
{
  nc_tool_progress_update(userData, pass ? pass : "done", index, total);
}

/* Runs the target's pipeline; the pass manager stays alive in *pm_out
 * (the timing report reads its clocks), destroyed by the caller. */
static bool run_pipeline(nc_context *ctx, const options *o, const nc_target_def *t, const char *stop, nc_op *module,
                         nc_timing *timing, nc_pass_manager **pm_out)
{
  nc_target_options *to = nc_target_options_create(t);
  bool ok = true;
  char err[512];
  for (size_t i = 0; ok && i < o->n_pass; i++)
    if (!(ok = nc_target_options_set(to, o->pass_names[i], o->pass_values[i], err, sizeof err)))
      fprintf(stderr, "nc-compile: error: %s\n", err);
  nc_pass_manager *pm = ok ? nc_target_create_pipeline(ctx, to, stop) : NULL;
  nc_target_options_destroy(to);
  if (!pm)
    return false;
  if (o->dump_pipeline) {
    char *s = nc_pass_manager_to_string(pm);
    fprintf(stderr, "Pass Manager with %zu passes:\n%s\n", nc_pass_manager_get_num_entries(pm), s);
    free(s);
  }
  nc_pass_run_options ro = nc_pass_run_options_default();
  nc_tool_progress *prog = nc_tool_progress_create("nc-compile"); /* pass names on a terminal */
  ro.progress = progress;
  ro.progress_user_data = prog;
  if (timing) {
    ro.timing = ro.timing_tree = true;
    nc_pass_manager_set_timing(pm, timing);
  }
  ro.statistics = o->statistics;
  ro.verify_each = !o->no_verify_each;
  ok = nc_pass_manager_run(pm, module, &ro);
  nc_tool_progress_destroy(prog);
  if (o->statistics)
    nc_pass_manager_print_statistics(pm, false, stderr);
  *pm_out = pm;
  return ok;
}

typedef struct stream_sink {
  FILE *f;
  int error; /* errno of the first failed write, else 0 */
} stream_sink;

static bool fwrite_chunk(const void *data, size_t n, void *userData)
{
  stream_sink *s = userData;
  if (fwrite(data, 1, n, s->f) == n)
    return true;
  s->error = errno ? errno : EIO;
  return false;
}

/* The binary, streamed section by section into `path` (written to a temporary
 * and renamed on success): the whole image never sits in memory, so a large
 * network's peak RSS is the IR plus its sections, not plus a copy. */
static bool stream_binary(nc_op *module, const char *path)
{
  char err[1024];
  nc_file_writer *w = nc_file_writer_open(path, err, sizeof err);
  if (!w) {
    fprintf(stderr, "nc-compile: error: %s\n", err);
    return false;
  }
  stream_sink sink = {nc_file_writer_stream(w), 0};
  if (!nc_target_print_binary_to(module, fwrite_chunk, &sink)) {
    nc_file_writer_abort(w);
    if (sink.error)
      fprintf(stderr, "nc-compile: error: %s: write failed: %s\n", path, strerror(sink.error));
    return false;
  }
  bool ok = nc_file_writer_commit(w, err, sizeof err);
  if (!ok)
    fprintf(stderr, "nc-compile: error: %s\n", err);
  return ok;
}

static bool write_bytes(const char *path, const void *data, size_t n)
{
  char err[1024];
  bool ok = nc_file_write_all(path, data, n, err, sizeof err);
  if (!ok)
    fprintf(stderr, "nc-compile: error: %s\n", err);
  return ok;
}

static int level_index(const nc_target_def *t, const char *s)
{
  for (size_t i = 0; i < t->n_levels; i++)
    if (!strcmp(t->levels[i], s))
      return (int)i;
  return -1;
}

static bool write_ir(nc_op *module, const options *o)
{
  char *text;
  size_t len;
  FILE *f = open_memstream(&text, &len);
  nc_op_print(module, f, &o->print);
  fclose(f);
  bool ok = write_bytes(o->output ? o->output : "-", text, len);
  free(text);
  return ok;
}

static bool write_stub(const uint8_t *image, size_t size, const options *o)
{
  char *def = o->output ? NULL : derived_name(o->model, ".o"), name[80], err[1024];
  const char *obj = o->output ? o->output : def;
  if (o->stub_name)
    snprintf(name, sizeof name, "%s", o->stub_name);
  else
    nc_host_stub_name_from_path(obj, name, sizeof name);
  bool ok = nc_host_stub_write(image, size, name, obj, o->stub_header, err, sizeof err);
  if (!ok)
    fprintf(stderr, "nc-compile: error: %s\n", err);
  free(def);
  return ok;
}

static bool write_emit(nc_op *module, const nc_target_emit_def *e, const nc_target_def *t, const options *o)
{
  char *text;
  size_t len;
  FILE *f = open_memstream(&text, &len);
  bool ok = e->emit(module, f, t->userData);
  fclose(f);
  ok = ok && write_bytes(o->output ? o->output : "-", text, len);
  free(text);
  return ok;
}

static bool compile(nc_context *ctx, const options *o)
{
  const nc_target_def *t = nc_target_lookup(o->target);
  if (!t) {
    fprintf(stderr, "nc-compile: error: unknown target '%s' (see --list-targets)\n", o->target);
    return false;
  }
  const char *emit = o->emit ? o->emit : "binary";
  int level = level_index(t, emit);
  const nc_target_emit_def *extra = nc_target_find_emit(t, emit);
  if (level < 0 && !extra && strcmp(emit, "binary") && strcmp(emit, "host-stub")) {
    fprintf(stderr, "nc-compile: error: target '%s' cannot emit '%s' (see --target=%s --help)\n", t->name, emit,
            t->name);
    return false;
  }
  const char *ext = ext_of(o->model);
  if (strcmp(ext, ".onnx") && strcmp(ext, ".mlir")) {
    fprintf(stderr, "%s: error: unknown model format '%s' (expected .onnx or .mlir)\n", o->model, ext);
    return false;
  }
  /* --mlir-timing reports the whole compile: import, passes, output */
  nc_timing *timing = o->timing ? nc_timing_create() : NULL;
  nc_pass_manager *pm = NULL;
  double w0 = nc_time_wall(), t0 = w0;
  nc_op *module = !strcmp(ext, ".onnx") ? nc_onnx_import_file(ctx, o->model) : nc_parse_file(ctx, o->model);
  bool ok = module && nc_op_verify(module);
  /* the imported module is the only IR using its weight blobs: passes may
   * free those they replace (graph-quantize: the float weights) */
  if (module && !strcmp(ext, ".onnx"))
    nc_context_set_resources_releasable(ctx, true);
  if (timing) {
    double t1 = nc_time_wall();
    nc_timing_add(timing, !strcmp(ext, ".onnx") ? "Import" : "Parser", t1 - t0, t1 - t0);
  }
  bool lowered = ok && nc_op_get_attr_str(module, "nc.target");
  if (lowered) { /* the IR says which target it is for */
    const nc_target_def *mt = nc_target_of_module(module, true);
    ok = mt != NULL;
    t = ok ? mt : t;
    if (ok && level >= 0 && level + 1 < (int)t->n_levels) {
      fprintf(stderr, "%s: error: the model is already lowered for target '%s'; --emit=%s is behind it\n", o->model,
              t->name, emit);
      ok = false;
    }
  }
  for (size_t i = 0; ok && lowered && i < o->n_pass; i++) {
    if (strcmp(o->pass_names[i], "target-desc")) {
      fprintf(stderr, "%s: error: --%s has no effect: the model is already lowered for target '%s'\n", o->model,
              o->pass_names[i], t->name);
      ok = false;
    } else { /* another description of the same chip (its rates); the printer checks the grid still fits */
      nc_attr *desc = nc_target_load_desc(t, ctx, o->pass_values[i]);
      ok = desc != NULL;
      if (ok)
        nc_target_attach(module, t, desc);
    }
  }
  if (ok && lowered && o->input_shapes) {
    fprintf(stderr, "%s: error: --input-shape has no effect: the model is already lowered for target '%s'\n", o->model,
            t->name);
    ok = false;
  }
  if (ok && !lowered && o->input_shapes)
    ok = set_input_shapes(ctx, o, module);
  if (ok && !lowered)
    ok = run_pipeline(ctx, o, t, level >= 0 ? emit : NULL, module, timing, &pm);
  t0 = nc_time_wall();
  bool output = ok;
  if (ok && level >= 0) {
    ok = write_ir(module, o);
  } else if (ok && extra) {
    ok = write_emit(module, extra, t, o);
  } else if (ok && !o->report && !strcmp(emit, "binary")) {
    char *def = o->output ? NULL : derived_name(o->model, ".ncb");
    ok = stream_binary(module, o->output ? o->output : def);
    free(def);
  } else if (ok) {
    size_t size = 0;
    uint8_t *image = nc_target_print_binary(module, &size);
    ok = image != NULL;
    if (ok && o->report)
      ok = nc_compile_write_report(o->report, o->model, t->name, module, image, size, o->quant_report);
    if (ok && !strcmp(emit, "binary")) {
      char *def = o->output ? NULL : derived_name(o->model, ".ncb");
      ok = write_bytes(o->output ? o->output : def, image, size);
      free(def);
    } else if (ok) {
      ok = write_stub(image, size, o);
    }
    free(image);
  }
  if (timing) {
    double t1 = nc_time_wall();
    if (output)
      nc_timing_add(timing, "Output", t1 - t0, t1 - t0);
    nc_timing_print(timing, true, t1 - w0, 0, stderr);
    nc_timing_destroy(timing);
  }
  if (pm)
    nc_pass_manager_destroy(pm);
  if (module)
    nc_op_destroy(module);
  return ok;
}

/* --- arguments ------------------------------------------------------------------------------------------------------ */

/* The value of option `name` at argv[*i] ("--name=v" or "--name v"), or NULL
 * if argv[*i] is not that option. */
static const char *value_of(int argc, char **argv, int *i, const char *name, bool *missing)
{
  const char *a = argv[*i] + 2;
  size_t n = strlen(name);
  if (strncmp(a, name, n))
    return NULL;
  if (a[n] == '=')
    return a + n + 1;
  if (a[n])
    return NULL;
  if (*i + 1 >= argc) {
    *missing = true;
    return NULL;
  }
  return argv[++*i];
}

static bool load_plugin(const char *path)
{
  char err[1024];
  if (nc_target_load_plugin(path, err, sizeof err))
    return true;
  fprintf(stderr, "nc-compile: error: %s\n", err);
  return false;
}

static void list_targets(void)
{
  for (size_t i = 0; i < nc_target_count(); i++) {
    const nc_target_def *t = nc_target_get(i);
    printf("%-12s %s (family: %s; pipeline: %s)\n", t->name, t->summary, t->family ? t->family : "none",
           nc_target_get_pipeline_name(t));
  }
}

/* --report=DIR: the directory, and the quantization report into it when the target writes one. */
static bool report_options(options *o)
{
  if (o->emit && strcmp(o->emit, "binary") && strcmp(o->emit, "host-stub")) {
    fprintf(stderr, "nc-compile: error: --report needs a binary (--emit=binary or host-stub), not --emit=%s\n",
            o->emit);
    return false;
  }
  if (!nc_tool_report_mkdir("nc-compile", o->report))
    return false;
  const nc_target_def *t = nc_target_lookup(o->target);
  bool calibrated = false; /* the quant report measures on the calibration inputs */
  for (size_t i = 0; i < o->n_pass; i++) {
    if (!strcmp(o->pass_names[i], "quant-report"))
      o->quant_report = o->pass_values[i];
    calibrated |= !strcmp(o->pass_names[i], "calibration");
  }
  for (size_t i = 0; t && calibrated && !o->quant_report && i < t->n_options; i++)
    if (!strcmp(t->options[i].name, "quant-report")) {
      o->quant_report = o->report_quant = nc_tool_report_path(o->report, "quant.json");
      o->pass_names[o->n_pass] = strdup("quant-report");
      o->pass_values[o->n_pass++] = o->report_quant;
    }
  return true;
}

static bool parse_args(int argc, char **argv, options *o, int *status)
{
  *o = (options){.target = "northpole"};
  *status = 1;
  o->pass_names = nc_xcalloc((size_t)argc, sizeof *o->pass_names);
  o->pass_values = nc_xcalloc((size_t)argc, sizeof *o->pass_values);
  for (int i = 1; i < argc; i++) { /* plugins first: they add targets the other options may name */
    bool missing = false;
    const char *v = !strncmp(argv[i], "--", 2) ? value_of(argc, argv, &i, "load-target-plugin", &missing) : NULL;
    if (missing) {
      fprintf(stderr, "nc-compile: error: --load-target-plugin needs a file\n");
      return false;
    }
    if (v && !load_plugin(v))
      return false;
  }
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i], *v;
    bool missing = false;
    if (!strcmp(a, "-o")) {
      if (i + 1 >= argc) {
        fprintf(stderr, "nc-compile: error: -o needs a file name\n");
        return false;
      }
      o->output = argv[++i];
    } else if (strncmp(a, "--", 2) || !a[2]) {
      if (o->model) {
        fprintf(stderr, "nc-compile: error: more than one model given ('%s' and '%s')\n", o->model, a);
        return false;
      }
      o->model = a;
    } else if (!strcmp(a, "--help")) {
      o->help = true;
    } else if (!strcmp(a, "--list-targets")) {
      list_targets();
      *status = 0;
      return false;
    } else if (!strcmp(a, "--dump-pass-pipeline")) {
      o->dump_pipeline = true;
    } else if (!strcmp(a, "--mlir-timing")) {
      o->timing = true;
    } else if (!strcmp(a, "--verify-each") || !strncmp(a, "--verify-each=", 14)) {
      const char *b = a[13] ? a + 14 : "true";
      if (strcmp(b, "true") && strcmp(b, "false")) {
        fprintf(stderr, "nc-compile: error: invalid value '%s' for --verify-each (expected true or false)\n", b);
        *status = 1;
        return false;
      }
      o->no_verify_each = !strcmp(b, "false");
    } else if (!strcmp(a, "--mlir-disable-threading")) {
      o->no_threads = true;
    } else if (!strcmp(a, "--mlir-pass-statistics")) {
      o->statistics = true;
    } else if (!strcmp(a, "--mlir-print-op-generic")) {
      o->print.generic = true;
    } else if (!strcmp(a, "--mlir-print-debuginfo")) {
      o->print.debuginfo = true;
    } else if ((v = value_of(argc, argv, &i, "load-target-plugin", &missing))) {
      /* loaded above */
    } else if ((v = value_of(argc, argv, &i, "mlir-elide-elementsattrs-if-larger", &missing))) {
      int64_t n;
      bool ok = nc_parse_int_in_range(v, 0, INT64_MAX, &n);
      o->print.elide_elements_larger = n;
      if (!ok) {
        fprintf(stderr, "nc-compile: error: --mlir-elide-elementsattrs-if-larger needs a count, not '%s'\n", v);
        return false;
      }
    } else if ((v = value_of(argc, argv, &i, "target", &missing))) {
      o->target = v;
    } else if ((v = value_of(argc, argv, &i, "report", &missing))) {
      o->report = v;
    } else if ((v = value_of(argc, argv, &i, "emit", &missing))) {
      o->emit = v;
    } else if ((v = value_of(argc, argv, &i, "input-shape", &missing))) {
      if (!*v || strchr(v, ' ') || strchr(v, '{') || strchr(v, '}')) {
        fprintf(stderr, "nc-compile: error: --input-shape needs NAME:D0xD1x... (e.g. input:1x3x224x224), not '%s'\n",
                v);
        return false;
      }
      size_t had = o->input_shapes ? strlen(o->input_shapes) : 0;
      o->input_shapes = nc_xrealloc(o->input_shapes, had + strlen(v) + 2);
      sprintf(o->input_shapes + had, "%s%s", had ? "," : "", v);
    } else if ((v = value_of(argc, argv, &i, "host-stub-name", &missing))) {
      if (!nc_host_stub_name_ok(v)) {
        fprintf(stderr, "nc-compile: error: --host-stub-name needs a C identifier, not '%s'\n", v);
        return false;
      }
      o->stub_name = v;
    } else if ((v = value_of(argc, argv, &i, "host-stub-header", &missing))) {
      o->stub_header = v;
    } else if (!missing) { /* a target option: --name=value (checked against the target later) */
      const char *eq = strchr(a + 2, '=');
      if (!eq) {
        fprintf(stderr, "nc-compile: error: unknown option '%s' (target options take --name=value; see --help)\n",
                a);
        return false;
      }
      o->pass_names[o->n_pass] = strndup(a + 2, (size_t)(eq - a - 2));
      o->pass_values[o->n_pass++] = eq + 1;
    }
    if (missing) {
      fprintf(stderr, "nc-compile: error: option '%s' needs a value\n", a);
      return false;
    }
  }
  if (o->help) {
    usage(stdout);
    const nc_target_def *t = nc_target_lookup(o->target);
    if (t) {
      fputc('\n', stdout);
      nc_target_print_help(t, stdout);
    }
    *status = 0;
    return false;
  }
  if (!o->model) {
    fprintf(stderr, "nc-compile: error: no model given (see --help)\n");
    return false;
  }
  if (o->report && !report_options(o))
    return false;
  if (o->emit && !strcmp(o->emit, "host-stub") && o->output && !strcmp(o->output, "-")) {
    fprintf(stderr, "nc-compile: error: a host stub is two files; give -o with a file name\n");
    return false;
  }
  return true;
}

int main(int argc, char **argv)
{
  nc_mapped_file_install_handler("nc-compile"); /* an input truncated while mapped: a diagnostic */
  nc_register_all_passes();
  nc_register_all_targets();
  options o;
  int status;
  bool parsed = parse_args(argc, argv, &o, &status);
  if (parsed) {
    nc_context *ctx = nc_context_create();
    nc_context_enable_multithreading(ctx, !o.no_threads); /* the passes' and the printer's parallel loops */
    nc_register_all_dialects(ctx);
    nc_target_register_dialects(ctx);
    diag_sink sink = {ctx, o.model};
    unsigned h = nc_context_push_diag_handler(ctx, print_diag, &sink);
    status = compile(ctx, &o) ? 0 : 1;
    nc_context_pop_diag_handler(ctx, h);
    nc_context_destroy(ctx);
  }
  for (size_t i = 0; i < o.n_pass; i++)
    free((char *)o.pass_names[i]);
  free(o.pass_names);
  free(o.pass_values);
  free(o.input_shapes);
  free(o.report_quant);
  return status;
}
