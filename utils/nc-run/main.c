/* nc-run: runs a model with the graph dialect's reference interpreter, or a
 * target binary on its simulator.
 *
 *   nc-run MODEL --input FILE [--input FILE ...] [--output FILE ...] [--print] [--stats]
 *
 * MODEL is graph-dialect IR (.mlir) or an ONNX model (.onnx, imported with
 * the ONNX importer), or a target binary (.ncb: the simulator of the target
 * its header names runs it, see binary.c); each FILE is a NumPy array (.npy) or an ONNX
 * TensorProto (.pb), chosen by its extension. Inputs bind to the
 * function's arguments in order and outputs to its results in order. An
 * input whose leading dim is N times the model's runs N inferences (see
 * nc_interp_run). Every problem is reported as `file:line:col: error: ...`
 * where there is a position (the model's IR), `file: error: ...` otherwise,
 * and makes nc-run exit with status 1.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "nc/support/strutil.h"
#include "nc/dialects/dialects.h"
#include "nc/dialects/graph/interp.h"
#include "nc/dialects/graph/onnx.h"
#include "nc/ir/asm.h"
#include "nc/ir/diag.h"
#include "nc/passes/passes.h"
#include "nc/support/npy.h"
#include "nc/targets/targets.h"
#include "nc_run.h"
#include "print.h"

const char *nc_run_ext_of(const char *path)
{
  const char *slash = strrchr(path, '/'), *dot = strrchr(path, '.');
  return dot && (!slash || dot > slash) ? dot : "";
}

/* --repeat is for timing: a million runs is far more than any measurement needs. */
#define NC_RUN_MAX_REPEAT 1000000

static void usage(FILE *out)
{
  fprintf(out,
          "OVERVIEW: runs a model with nc's graph-dialect reference interpreter, or a target\n"
          "binary on its simulator\n\n"
          "USAGE: nc-run MODEL --input FILE [--input FILE ...] [--output FILE ...] [--print] [--stats]\n\n"
          "MODEL is graph-dialect IR (.mlir), an ONNX model (.onnx) or a target binary (.ncb,\n"
          "run on the simulator of the target its header names). Tensor files are\n"
          "NumPy arrays (.npy) or ONNX TensorProtos (.pb), by extension. Inputs bind to the\n"
          "function's arguments and outputs to its results, in order; an input whose leading\n"
          "dim is N times the model's runs N inferences whose results are concatenated.\n"
          "A binary takes float inputs (quantized as its header says) and gives float outputs,\n"
          "or int8 inputs (already quantized) and gives int8 outputs.\n\n"
          "OPTIONS:\n"
          "  -i, --input <file>       An input tensor (one per function argument, in order)\n"
          "  -o, --output <file>      Where to write an output (one per result, in order)\n"
          "  --print                  Print the outputs as text\n"
          "  --function <name>        The function to run (default: the only func.func, or @main)\n"
          "  --repeat <n>             Run n times (for timing; outputs are those of the last run)\n"
          "  --time                   Print the load time and the fastest run's time to stderr\n"
          "  --stats                  (.ncb) Print the simulated chip's figures: cycles per inference,\n"
          "                           frames/s, latency, per-core utilisation, the roofline bound\n"
          "  --stats-json <file>      (.ncb) Write the figures as JSON (docs/targets/figures.md)\n"
          "  --trace <file>           (.ncb) Write the simulated timeline as Chrome trace-event JSON\n"
          "                           (open in Perfetto or chrome://tracing; docs/reports.md)\n"
          "  --trace-max-events <n>   (.ncb) Keep at most n trace events (default 1000000)\n"
          "  --report <dir>           (.ncb) Write an HTML report of the run to dir/index.html (with its\n"
          "                           figures, trace and the target's views beside it; docs/reports.md)\n"
          "  --<key>=<value>          (.ncb) An option of the target's simulator, e.g. --noise=SEED,SIGMA\n"
          "  --help                   Show this help\n");
}

/* --- diagnostics ------------------------------------------------------------------------------------------------- */

static const char *model_path;

/* Diagnostics name the model the user gave (see nc_diag_print_for_input). */
static bool print_diag(const nc_diag *d, void *user)
{
  nc_diag_print_for_input(d, user, "nc-run", model_path, stderr);
  return true;
}

/* --- model -------------------------------------------------------------------------------------------------------- */

static nc_op *load_model(nc_context *ctx, const char *path)
{
  const char *ext = nc_run_ext_of(path);
  nc_op *module = NULL;
  if (!strcmp(ext, ".mlir")) {
    module = nc_parse_file(ctx, path);
  } else if (!strcmp(ext, ".onnx")) {
    module = nc_onnx_import_file(ctx, path);
  } else {
    fprintf(stderr, "%s: error: unknown model format '%s' (expected .mlir or .onnx)\n", path, ext);
    return NULL;
  }
  if (module && !nc_op_verify(module)) {
    nc_op_destroy(module);
    module = NULL;
  }
  return module;
}

static const char *func_name(nc_op *f)
{
  nc_attr *a = nc_op_get_attr_str(f, "sym_name");
  return a && nc_attr_get_kind(a) == NC_ATTR_STRING ? nc_attr_get_string(a, NULL) : "";
}

static nc_op *find_function(nc_op *module, const char *name)
{
  nc_op *only = NULL, *main_fn = NULL;
  size_t n = 0;
  for (nc_op *op = nc_block_get_first_op(nc_module_get_body(module)); op; op = nc_op_get_next(op)) {
    if (!nc_op_is(op, "func.func") || nc_region_is_empty(nc_op_get_region(op, 0)))
      continue;
    const char *fn = func_name(op);
    if (name && !strcmp(fn, name))
      return op;
    if (!strcmp(fn, "main"))
      main_fn = op;
    only = op;
    n++;
  }
  if (name)
    fprintf(stderr, "%s: error: no function named '%s'\n", model_path, name);
  else if (n == 1)
    return only;
  else if (main_fn)
    return main_fn;
  else if (n == 0)
    fprintf(stderr, "%s: error: the model has no function with a body to run\n", model_path);
  else
    fprintf(stderr, "%s: error: the model has %zu functions; choose one with --function\n", model_path, n);
  return NULL;
}

/* "'name' " for an argument with a name location (ONNX inputs), else "". */
static void arg_label(nc_context *ctx, nc_op *func, size_t i, char *buf, size_t len)
{
  nc_value *arg = nc_block_get_arg(nc_region_get_first_block(nc_op_get_region(func, 0)), i);
  nc_attr *la = nc_location_get_attr(ctx, nc_value_get_loc(arg));
  if (la && nc_attr_get_kind(la) == NC_ATTR_LOC_NAME)
    snprintf(buf, len, " ('%s')", nc_ident_str(nc_loc_get_name(la)));
  else
    buf[0] = 0;
}

/* --- tensors ------------------------------------------------------------------------------------------------------ */

/* Prints a tensor-file error as `path: error: problem` (the readers' and
 * writers' messages start with the path already). */
void nc_run_file_error(const char *path, const char *err)
{
  size_t n = strlen(path);
  if (!strncmp(err, path, n) && !strncmp(err + n, ": ", 2))
    err += n + 2;
  fprintf(stderr, "%s: error: %s\n", path, err);
}

static bool tensor_ext_ok(const char *path)
{
  const char *ext = nc_run_ext_of(path);
  if (!strcmp(ext, ".npy") || !strcmp(ext, ".pb"))
    return true;
  fprintf(stderr, "%s: error: unknown tensor file format '%s' (expected .npy or .pb)\n", path, ext);
  return false;
}

nc_tensor *nc_run_read_tensor(const char *path)
{
  char err[512];
  nc_tensor *t = !strcmp(nc_run_ext_of(path), ".npy") ? nc_npy_read(path, err, sizeof err)
                                               : nc_onnx_pb_read(path, NULL, err, sizeof err);
  if (!t)
    nc_run_file_error(path, err);
  return t;
}

bool nc_run_write_tensor(const char *path, const nc_tensor *t)
{
  char err[512];
  bool ok = !strcmp(nc_run_ext_of(path), ".npy") ? nc_npy_write(path, t, err, sizeof err)
                                          : nc_onnx_pb_write(path, t, NULL, err, sizeof err);
  if (!ok)
    nc_run_file_error(path, err);
  return ok;
}

/* Checks input i against the argument type (or a batch multiple of it),
 * with a message naming the file; the interpreter checks again. */
static bool check_input(nc_context *ctx, nc_interp *it, size_t i, const char *path, const nc_tensor *t)
{
  nc_type *type = nc_interp_get_input_type(it, i);
  if (nc_interp_tensor_matches_type(t, type))
    return true;
  nc_tensor probe = *t;
  const int64_t *dims = nc_type_get_shape(type);
  if (t->rank >= 1 && nc_type_get_rank(type) == (size_t)t->rank && dims[0] > 0 && t->shape[0] % dims[0] == 0) {
    probe.shape[0] = dims[0];
    if (nc_interp_tensor_matches_type(&probe, type))
      return true; /* a batch */
  }
  char got[128], label[128];
  char *want = nc_type_to_string(type);
  arg_label(ctx, nc_interp_get_func(it), i, label, sizeof label);
  fprintf(stderr, "%s: error: input #%zu%s has type %s, but the model expects %s\n", path, i, label,
          nc_interp_tensor_type_str(t, got, sizeof got), want);
  free(want);
  return false;
}

static double now_seconds(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* --- main ----------------------------------------------------------------------------------------------------------- */

static bool run(nc_context *ctx, const options *o)
{
  bool ok = false;
  nc_tensor **in = nc_xcalloc(o->n_inputs + 1, sizeof *in), **outs = NULL;
  size_t n_outs = 0;
  nc_interp *it = NULL;
  double t_load = now_seconds();
  nc_op *module = load_model(ctx, o->model);
  nc_op *func = module ? find_function(module, o->function) : NULL;
  if (!func || !(it = nc_interp_create(func)))
    goto done;
  t_load = now_seconds() - t_load;
  size_t n_args = nc_interp_get_num_inputs(it), n_res = nc_interp_get_num_outputs(it);
  if (o->n_inputs != n_args) {
    fprintf(stderr, "%s: error: the model takes %zu input%s, but %zu --input %s given\n", o->model, n_args,
            n_args == 1 ? "" : "s", o->n_inputs, o->n_inputs == 1 ? "was" : "were");
    for (size_t i = 0; i < n_args; i++) {
      char label[128];
      char *s = nc_type_to_string(nc_interp_get_input_type(it, i));
      arg_label(ctx, func, i, label, sizeof label);
      fprintf(stderr, "%s: note: input #%zu%s: %s\n", o->model, i, label, s);
      free(s);
    }
    goto done;
  }
  if (o->n_outputs && o->n_outputs != n_res) {
    fprintf(stderr, "%s: error: the model has %zu output%s, but %zu --output %s given\n", o->model, n_res,
            n_res == 1 ? "" : "s", o->n_outputs, o->n_outputs == 1 ? "was" : "were");
    goto done;
  }
  for (size_t i = 0; i < o->n_inputs; i++)
    if (!(in[i] = nc_run_read_tensor(o->inputs[i])) || !check_input(ctx, it, i, o->inputs[i], in[i]))
      goto done;
  double best = 0;
  for (long r = 0; r < o->repeat; r++) {
    nc_interp_outputs_destroy(n_outs, outs);
    outs = NULL;
    double t0 = now_seconds();
    if (!nc_interp_run(it, o->n_inputs, (const nc_tensor *const *)in, &n_outs, &outs))
      goto done;
    double dt = now_seconds() - t0;
    best = r == 0 || dt < best ? dt : best;
  }
  if (o->time) {
    fprintf(stderr, "nc-run: load time %.3f ms (model read, verified, interpreter created)\n", t_load * 1e3);
    fprintf(stderr, "nc-run: run time %.3f ms (fastest of %ld)\n", best * 1e3, o->repeat);
  }
  ok = true;
  for (size_t k = 0; k < o->n_outputs && ok; k++)
    ok = nc_run_write_tensor(o->outputs[k], outs[k]);
  for (size_t k = 0; k < n_outs && o->print && ok; k++) {
    char ty[128];
    printf("output #%zu: %s\n", k, nc_interp_tensor_type_str(outs[k], ty, sizeof ty));
    nc_run_print_tensor(stdout, outs[k]);
  }
done:
  nc_interp_outputs_destroy(n_outs, outs);
  for (size_t i = 0; i < o->n_inputs; i++)
    nc_tensor_destroy(in[i]);
  free(in);
  nc_interp_destroy(it);
  if (module)
    nc_op_destroy(module);
  return ok;
}

enum { OPT_PRINT = 256, OPT_FUNCTION, OPT_REPEAT, OPT_TIME, OPT_STATS, OPT_STATS_JSON, OPT_TRACE, OPT_TRACE_MAX,
       OPT_PLUGIN, OPT_REPORT, OPT_HELP };

/* A trace with more events than this would not load in any viewer. */
#define NC_RUN_MAX_TRACE_EVENTS 1000000000

int main(int argc, char **argv)
{
  options o = {.repeat = 1};
  o.inputs = nc_xcalloc((size_t)argc + 1, sizeof *o.inputs);
  o.outputs = nc_xcalloc((size_t)argc + 1, sizeof *o.outputs);
  o.sim_keys = nc_xcalloc((size_t)argc + 1, sizeof *o.sim_keys);
  o.sim_values = nc_xcalloc((size_t)argc + 1, sizeof *o.sim_values);
  /* --<key>=<value> that is not one of nc-run's own options goes to the
   * target's simulator (nc-run knows no target's options) */
  static const char *const own[] = {"input", "output", "print", "function", "repeat", "time", "stats", "stats-json",
                                    "trace", "trace-max-events", "help", "load-target-plugin", "report"};
  int kept = 1;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i], *eq = !strncmp(a, "--", 2) ? strchr(a, '=') : NULL;
    bool is_own = false;
    for (size_t k = 0; eq && k < NC_COUNTOF(own); k++)
      is_own |= (size_t)(eq - a - 2) == strlen(own[k]) && !strncmp(a + 2, own[k], strlen(own[k]));
    if (eq && !is_own) {
      o.sim_keys[o.n_sim] = strndup(a + 2, (size_t)(eq - a - 2));
      o.sim_values[o.n_sim++] = eq + 1;
    } else {
      argv[kept++] = argv[i];
    }
  }
  argc = kept;
  static const struct option long_opts[] = {
    {"input", required_argument, NULL, 'i'},   {"output", required_argument, NULL, 'o'},
    {"print", no_argument, NULL, OPT_PRINT},   {"function", required_argument, NULL, OPT_FUNCTION},
    {"repeat", required_argument, NULL, OPT_REPEAT}, {"time", no_argument, NULL, OPT_TIME},
    {"stats", no_argument, NULL, OPT_STATS},   {"stats-json", required_argument, NULL, OPT_STATS_JSON},
    {"trace", required_argument, NULL, OPT_TRACE}, {"trace-max-events", required_argument, NULL, OPT_TRACE_MAX},
    {"load-target-plugin", required_argument, NULL, OPT_PLUGIN}, {"report", required_argument, NULL, OPT_REPORT},
    {"help", no_argument, NULL, OPT_HELP},     {NULL, 0, NULL, 0},
  };
  int status = 1, c;
  opterr = 0;
  while ((c = getopt_long(argc, argv, "i:o:", long_opts, NULL)) != -1) {
    switch (c) {
    case 'i': o.inputs[o.n_inputs++] = optarg; break;
    case 'o': o.outputs[o.n_outputs++] = optarg; break;
    case OPT_PRINT: o.print = true; break;
    case OPT_FUNCTION: o.function = optarg; break;
    case OPT_TIME: o.time = true; break;
    case OPT_STATS: o.stats = true; break;
    case OPT_STATS_JSON: o.stats_json = optarg; break;
    case OPT_TRACE: o.trace = optarg; break;
    case OPT_REPORT: o.report = optarg; break;
    case OPT_TRACE_MAX: {
      int64_t n;
      if (!nc_parse_int_in_range(optarg, 1, NC_RUN_MAX_TRACE_EVENTS, &n)) {
        fprintf(stderr, "nc-run: error: --trace-max-events needs a count from 1 to %d, not '%s'\n",
                NC_RUN_MAX_TRACE_EVENTS, optarg);
        goto out;
      }
      o.trace_max_events = (uint64_t)n;
      break;
    }
    case OPT_PLUGIN: {
      char err[1024];
      if (!nc_target_load_plugin(optarg, err, sizeof err)) {
        fprintf(stderr, "nc-run: error: %s\n", err);
        goto out;
      }
      break;
    }
    case OPT_REPEAT: {
      int64_t n;
      if (!nc_parse_int_in_range(optarg, 1, NC_RUN_MAX_REPEAT, &n)) {
        fprintf(stderr, "nc-run: error: --repeat needs a count from 1 to %d, not '%s'\n", NC_RUN_MAX_REPEAT, optarg);
        goto out;
      }
      o.repeat = (long)n;
      break;
    }
    case OPT_HELP: usage(stdout); status = 0; goto out;
    default:
      fprintf(stderr, "nc-run: error: unknown or incomplete option '%s' (see --help)\n", argv[optind - 1]);
      goto out;
    }
  }
  if (optind < argc)
    o.model = argv[optind++];
  if (optind < argc) {
    fprintf(stderr, "nc-run: error: more than one model given ('%s' and '%s')\n", o.model, argv[optind]);
    goto out;
  }
  if (!o.model) {
    fprintf(stderr, "nc-run: error: no model given (see --help)\n");
    goto out;
  }
  if (!o.n_outputs && !o.print && !o.time && !o.stats && !o.stats_json && !o.trace && !o.report) {
    fprintf(stderr, "nc-run: error: nothing to do: give --output files, --print, --stats, --stats-json, --trace, "
                    "--report or --time\n");
    goto out;
  }
  for (size_t i = 0; i < o.n_inputs; i++)
    if (!tensor_ext_ok(o.inputs[i]))
      goto out;
  for (size_t i = 0; i < o.n_outputs; i++)
    if (!tensor_ext_ok(o.outputs[i]))
      goto out;
  if ((o.stats || o.stats_json || o.trace || o.trace_max_events || o.report || o.n_sim) &&
      !nc_run_is_binary(o.model)) {
    const char *which = o.stats ? "stats" : o.stats_json ? "stats-json" : o.trace ? "trace" : o.report ? "report"
                        : o.trace_max_events ? "trace-max-events" : o.sim_keys[0];
    fprintf(stderr, "nc-run: error: --%s is for a simulated chip; give a target binary (.ncb)\n", which);
    goto out;
  }
  if (nc_run_is_binary(o.model)) { /* a target binary: its simulator (binary.c) */
    status = nc_run_binary(&o) ? 0 : 1;
    goto out;
  }
  model_path = o.model;
  nc_context *ctx = nc_context_create();
  nc_register_all_passes();
  nc_register_all_targets(); /* IR compiled for a target carries its dialects' attributes (nc.chip) */
  nc_register_all_dialects(ctx);
  nc_target_register_dialects(ctx);
  unsigned h = nc_context_push_diag_handler(ctx, print_diag, ctx);
  status = run(ctx, &o) ? 0 : 1;
  nc_context_pop_diag_handler(ctx, h);
  nc_context_destroy(ctx);
out:
  for (size_t i = 0; i < o.n_sim; i++)
    free((char *)o.sim_keys[i]);
  free(o.sim_keys);
  free(o.sim_values);
  free(o.inputs);
  free(o.outputs);
  return status;
}
