/* nc-opt: mlir-opt's twin. Reads IR (a file or stdin), parses, verifies,
 * runs a pass pipeline and prints the result.
 *
 * Flags follow mlir-opt's names so tests and habits carry over. Passes can be
 * given as a pipeline (--pass-pipeline='builtin.module(func.func(cse))') or as
 * legacy flags (-cse -canonicalize='max-iterations=3'), not both.
 * Plugins (--load-pass-plugin=X.so, --load-dialect-plugin=X.so) are loaded
 * before anything else is parsed, so their passes work as legacy flags and
 * show in --help.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nc/support/mapped.h"
#include "nc/support/file.h"
#include "nc/dialects/dialects.h"
#include "nc/dialects/graph/onnx.h"
#include "nc/ir/asm.h"
#include "nc/ir/diag.h"
#include "nc/ir/pass.h"
#include "nc/passes/passes.h"
#include "nc/plugin.h"
#include "nc/support/strutil.h"
#include "nc/targets/targets.h"
#include "python_pass.h"
#include "verify_diags.h"

typedef struct options {
  const char *input;
  const char *output;
  bool split;
  bool verify_diags;
  bool allow_unregistered;
  bool show_dialects;
  const char *docs_dialect;
  bool no_verify;
  bool list_passes;
  const char *pipeline;      /* --pass-pipeline */
  char *legacy;              /* pipeline built from legacy pass flags */
  bool dump_pipeline;
  bool run_reproducer;
  bool timing;
  nc_print_flags print;
  nc_pass_run_options run;
} options;

static void usage(FILE *out)
{
  fprintf(out,
          "OVERVIEW: nc modular optimizer driver\n\n"
          "USAGE: nc-opt [options] <input file>\n\n"
          "OPTIONS:\n"
          "  -o <file>                                 Output file (default: stdout)\n"
          "  --split-input-file                        Split the input on '// -----' and process each chunk\n"
          "  --enable-test-passes                      Offer the passes that test the pass manager (test-pass-crash, ...)\n"
          "  --verify-diagnostics                      Check diagnostics against expected-* comments\n"
          "  --allow-unregistered-dialect              Allow ops and types of unregistered dialects\n"
          "  --no-verify                               Do not verify the IR after parsing\n"
          "  --show-dialects                           List the registered dialects\n"
          "  --dump-dialect-docs=<dialect>             Write the dialect's Markdown reference\n"
          "  --list-passes                             List pass and pipeline names, one per line\n"
          "  --load-pass-plugin=<file>                 Load passes from a plugin library (docs/plugins.md)\n"
          "  --load-dialect-plugin=<file>              Load dialects from a plugin library\n"
          "  --load-python-pass=<file.py>              Load passes written in Python (docs/tutorials/python.md)\n"
          "\n Printing:\n"
          "  --mlir-print-op-generic                   Print ops in the generic form\n"
          "  --mlir-print-debuginfo                    Print locations\n"
          "  --mlir-print-local-scope                  Print locations inline instead of as #loc aliases\n"
          "  --mlir-elide-elementsattrs-if-larger=<n>  Elide dense attributes with more than n elements\n"
          "\n Pass management:\n"
          "  --pass-pipeline=<pipeline>                A textual pipeline, e.g. 'builtin.module(func.func(cse))'\n"
          "  -<pass>[=<options>]                       Add a pass (legacy form, under builtin.module; passes on\n"
          "                                            other ops are nested, e.g. func.func(<pass>))\n"
          "  --dump-pass-pipeline                      Print the fully expanded pipeline to stderr\n"
          "  --verify-each=<bool>                      Verify the IR after each pass (default true)\n"
          "  --mlir-disable-threading                  Run nested pipelines on one thread (else on\n"
          "                                            NC_NUM_THREADS threads, default: one per CPU)\n"
          "  --mlir-print-ir-before-all / --mlir-print-ir-after-all\n"
          "  --mlir-print-ir-before=<passes> / --mlir-print-ir-after=<passes>\n"
          "  --mlir-print-ir-after-change / --mlir-print-ir-after-failure / --mlir-print-ir-module-scope\n"
          "  --mlir-print-ir-tree-dir=<dir>            Print IR dumps into files under <dir>\n"
          "  --mlir-timing                             Report execution time\n"
          "  --mlir-timing-display=list|tree           Report as a list or a tree (default tree)\n"
          "  --mlir-pass-statistics                    Report pass statistics\n"
          "  --mlir-pass-statistics-display=list|pipeline  (default pipeline)\n"
          "  --mlir-pass-pipeline-crash-reproducer=<file>  Write a reproducer when a pass fails or crashes\n"
          "  --run-reproducer                          Run the pipeline recorded in the input's reproducer\n"
          "  --help                                    Show this help\n"
          "\nAvailable passes and pipelines:\n");
  nc_pass_registry_print_help(out);
}

enum {
  OPT_SPLIT = 256, OPT_VERIFY_DIAGS, OPT_UNREG, OPT_GENERIC, OPT_DEBUGINFO, OPT_LOCAL_SCOPE, OPT_ELIDE,
  OPT_SHOW_DIALECTS, OPT_DOCS, OPT_NO_VERIFY, OPT_HELP, OPT_ENABLE_TEST_PASSES, OPT_LIST_PASSES, OPT_PIPELINE, OPT_DUMP_PIPELINE,
  OPT_VERIFY_EACH, OPT_NO_THREADS, OPT_BEFORE_ALL, OPT_AFTER_ALL, OPT_BEFORE, OPT_AFTER, OPT_AFTER_CHANGE,
  OPT_AFTER_FAILURE, OPT_MODULE_SCOPE, OPT_TREE_DIR, OPT_TIMING, OPT_TIMING_DISPLAY, OPT_STATS, OPT_STATS_DISPLAY,
  OPT_REPRODUCER, OPT_RUN_REPRODUCER, OPT_LOAD_PASS_PLUGIN, OPT_LOAD_DIALECT_PLUGIN,
};

static const struct option long_opts[] = {
  {"split-input-file", no_argument, NULL, OPT_SPLIT},
  {"verify-diagnostics", no_argument, NULL, OPT_VERIFY_DIAGS},
  {"allow-unregistered-dialect", no_argument, NULL, OPT_UNREG},
  {"mlir-print-op-generic", no_argument, NULL, OPT_GENERIC},
  {"mlir-print-debuginfo", no_argument, NULL, OPT_DEBUGINFO},
  {"mlir-print-local-scope", no_argument, NULL, OPT_LOCAL_SCOPE},
  {"mlir-elide-elementsattrs-if-larger", required_argument, NULL, OPT_ELIDE},
  {"show-dialects", no_argument, NULL, OPT_SHOW_DIALECTS},
  {"dump-dialect-docs", required_argument, NULL, OPT_DOCS},
  {"no-verify", no_argument, NULL, OPT_NO_VERIFY},
  {"help", no_argument, NULL, OPT_HELP},
  {"enable-test-passes", no_argument, NULL, OPT_ENABLE_TEST_PASSES},
  {"list-passes", no_argument, NULL, OPT_LIST_PASSES},
  {"pass-pipeline", required_argument, NULL, OPT_PIPELINE},
  {"dump-pass-pipeline", no_argument, NULL, OPT_DUMP_PIPELINE},
  {"verify-each", optional_argument, NULL, OPT_VERIFY_EACH},
  {"mlir-disable-threading", no_argument, NULL, OPT_NO_THREADS},
  {"mlir-print-ir-before-all", no_argument, NULL, OPT_BEFORE_ALL},
  {"mlir-print-ir-after-all", no_argument, NULL, OPT_AFTER_ALL},
  {"mlir-print-ir-before", required_argument, NULL, OPT_BEFORE},
  {"mlir-print-ir-after", required_argument, NULL, OPT_AFTER},
  {"mlir-print-ir-after-change", no_argument, NULL, OPT_AFTER_CHANGE},
  {"mlir-print-ir-after-failure", no_argument, NULL, OPT_AFTER_FAILURE},
  {"mlir-print-ir-module-scope", no_argument, NULL, OPT_MODULE_SCOPE},
  {"mlir-print-ir-tree-dir", required_argument, NULL, OPT_TREE_DIR},
  {"mlir-timing", no_argument, NULL, OPT_TIMING},
  {"mlir-timing-display", required_argument, NULL, OPT_TIMING_DISPLAY},
  {"mlir-pass-statistics", no_argument, NULL, OPT_STATS},
  {"mlir-pass-statistics-display", required_argument, NULL, OPT_STATS_DISPLAY},
  {"mlir-pass-pipeline-crash-reproducer", required_argument, NULL, OPT_REPRODUCER},
  {"run-reproducer", no_argument, NULL, OPT_RUN_REPRODUCER},
  {"load-pass-plugin", required_argument, NULL, OPT_LOAD_PASS_PLUGIN},
  {"load-dialect-plugin", required_argument, NULL, OPT_LOAD_DIALECT_PLUGIN},
  {"load-python-pass", required_argument, NULL, OPT_LOAD_DIALECT_PLUGIN}, /* loaded first, as plugins */
  {NULL, 0, NULL, 0},
};

static bool is_static_option(const char *name, size_t len)
{
  if (len == 1 && name[0] == 'o')
    return true;
  for (const struct option *o = long_opts; o->name; o++)
    if (strlen(o->name) == len && !memcmp(o->name, name, len))
      return true;
  return false;
}

static void append(char **buf, size_t *len, size_t *cap, const char *s, size_t n)
{
  if (*len + n + 1 > *cap) {
    *cap = (*len + n + 1) * 2;
    *buf = nc_xrealloc(*buf, *cap);
  }
  memcpy(*buf + *len, s, n);
  *len += n;
  (*buf)[*len] = 0;
}

/* Moves legacy pass flags (-cse, --canonicalize=opts) out of argv into a
 * builtin.module(...) pipeline; returns the remaining argc. As in mlir-opt,
 * passes anchored on other ops nest implicitly (adjacent ones share one
 * nested pipeline): -test-function-pass gives func.func(test-function-pass). */
static int take_legacy_passes(int argc, char **argv, options *o)
{
  int out = 1;
  char *buf = NULL;
  size_t len = 0, cap = 0;
  const char *open_anchor = NULL; /* anchor of the nested group being filled */
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (a[0] != '-' || !a[1] || !strcmp(a, "--")) {
      argv[out++] = argv[i];
      continue;
    }
    const char *name = a + (a[1] == '-' ? 2 : 1);
    const char *eq = strchr(name, '=');
    size_t nlen = eq ? (size_t)(eq - name) : strlen(name);
    const nc_pass_def *def = nc_pass_lookup(name, nlen);
    if (is_static_option(name, nlen) || (!def && !nc_pipeline_lookup(name, nlen))) {
      argv[out++] = argv[i];
      continue;
    }
    const char *anchor = def && def->anchor && strcmp(def->anchor, "builtin.module") ? def->anchor : NULL;
    if (open_anchor && (!anchor || strcmp(anchor, open_anchor))) {
      append(&buf, &len, &cap, ")", 1);
      open_anchor = NULL;
    }
    if (len && !(open_anchor && buf[len - 1] == '('))
      append(&buf, &len, &cap, ",", 1);
    if (anchor && !open_anchor) {
      append(&buf, &len, &cap, anchor, strlen(anchor));
      append(&buf, &len, &cap, "(", 1);
      open_anchor = anchor;
    }
    append(&buf, &len, &cap, name, nlen);
    if (eq) {
      append(&buf, &len, &cap, "{", 1);
      append(&buf, &len, &cap, eq + 1, strlen(eq + 1));
      append(&buf, &len, &cap, "}", 1);
    }
  }
  if (open_anchor)
    append(&buf, &len, &cap, ")", 1);
  if (buf) {
    size_t need = len + 32;
    char *p = nc_xmalloc(need);
    snprintf(p, need, "builtin.module(%s)", buf);
    free(buf);
    o->legacy = p;
  }
  return out;
}

/* Loads a plugin, printing why not. */
static bool load_plugin(const char *path, nc_plugin_kind kind)
{
  char err[1024];
  if (nc_plugin_load(path, kind, err, sizeof err))
    return true;
  fprintf(stderr, "nc-opt: error: %s\n", err);
  return false;
}

static bool load_pass_plugin(const char *path) { return load_plugin(path, NC_PLUGIN_PASS); }
static bool load_dialect_plugin(const char *path) { return load_plugin(path, NC_PLUGIN_DIALECT); }

/* Loads the plugins and Python passes named by --load-pass-plugin,
 * --load-dialect-plugin and --load-python-pass (as -flag=X, --flag=X,
 * -flag X or --flag X) in command-line order, before the other flags are
 * parsed: their passes may appear as legacy pass flags. */
static bool load_plugins(int argc, char **argv)
{
  static const struct {
    const char *flag, *what;
    bool (*load)(const char *path);
  } flags[] = {{"load-pass-plugin", "a plugin file", load_pass_plugin},
               {"load-dialect-plugin", "a plugin file", load_dialect_plugin},
               {"load-python-pass", "a Python file", nc_opt_load_python_pass}};
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--"))
      break;
    if (a[0] != '-')
      continue;
    const char *name = a + (a[1] == '-' ? 2 : 1);
    for (size_t f = 0; f < NC_COUNTOF(flags); f++) {
      size_t n = strlen(flags[f].flag);
      if (strncmp(name, flags[f].flag, n) || (name[n] && name[n] != '='))
        continue;
      const char *path = name[n] == '=' ? name + n + 1 : i + 1 < argc ? argv[++i] : NULL;
      if (!path || !*path) {
        fprintf(stderr, "nc-opt: error: option '--%s' requires %s\n", flags[f].flag, flags[f].what);
        return false;
      }
      if (!flags[f].load(path))
        return false;
    }
  }
  return true;
}

static bool parse_bool(const char *s, bool *out)
{
  if (!s || !strcmp(s, "true") || !strcmp(s, "1")) {
    *out = true;
    return true;
  }
  if (!strcmp(s, "false") || !strcmp(s, "0")) {
    *out = false;
    return true;
  }
  return false;
}

static bool parse_args(int argc, char **argv, options *o)
{
  memset(o, 0, sizeof *o);
  o->run = nc_pass_run_options_default();
  if (!load_plugins(argc, argv))
    return false;
  argc = take_legacy_passes(argc, argv, o);
  int c;
  opterr = 0;
  while ((c = getopt_long_only(argc, argv, ":o:", long_opts, NULL)) != -1) {
    switch (c) {
    case ':':
      fprintf(stderr, "nc-opt: option '%s' requires a value\n", argv[optind - 1]);
      return false;
    case 'o': o->output = optarg; break;
    case OPT_SPLIT: o->split = true; break;
    case OPT_VERIFY_DIAGS: o->verify_diags = true; break;
    case OPT_UNREG: o->allow_unregistered = true; break;
    case OPT_GENERIC: o->print.generic = true; break;
    case OPT_DEBUGINFO: o->print.debuginfo = true; break;
    case OPT_LOCAL_SCOPE: o->print.local_scope = true; break;
    case OPT_ELIDE: {
      int64_t n;
      if (!nc_parse_int_in_range(optarg, 0, INT64_MAX, &n)) {
        fprintf(stderr, "nc-opt: --mlir-elide-elementsattrs-if-larger needs a count, not '%s'\n", optarg);
        return false;
      }
      o->print.elide_elements_larger = n;
      break;
    }
    case OPT_SHOW_DIALECTS: o->show_dialects = true; break;
    case OPT_DOCS: o->docs_dialect = optarg; break;
    case OPT_NO_VERIFY: o->no_verify = true; break;
    case OPT_HELP: usage(stdout); exit(0);
    case OPT_ENABLE_TEST_PASSES: break; /* read before parsing (wants_test_passes) */
    case OPT_LIST_PASSES: o->list_passes = true; break;
    case OPT_PIPELINE: o->pipeline = optarg; break;
    case OPT_DUMP_PIPELINE: o->dump_pipeline = true; break;
    case OPT_VERIFY_EACH:
      if (!parse_bool(optarg, &o->run.verify_each)) {
        fprintf(stderr, "nc-opt: invalid value '%s' for --verify-each (expected true or false)\n", optarg);
        return false;
      }
      break;
    case OPT_NO_THREADS: o->run.disable_threading = true; break;
    case OPT_BEFORE_ALL: o->run.print_before_all = true; break;
    case OPT_AFTER_ALL: o->run.print_after_all = true; break;
    case OPT_BEFORE: o->run.print_before = optarg; break;
    case OPT_AFTER: o->run.print_after = optarg; break;
    case OPT_AFTER_CHANGE: o->run.print_after_change = true; break;
    case OPT_AFTER_FAILURE: o->run.print_after_failure = true; break;
    case OPT_MODULE_SCOPE: o->run.print_module_scope = true; break;
    case OPT_TREE_DIR: o->run.print_tree_dir = optarg; break;
    case OPT_TIMING: o->timing = true; break;
    case OPT_TIMING_DISPLAY:
      if (strcmp(optarg, "list") && strcmp(optarg, "tree")) {
        fprintf(stderr, "nc-opt: --mlir-timing-display must be 'list' or 'tree'\n");
        return false;
      }
      o->run.timing_tree = !strcmp(optarg, "tree");
      break;
    case OPT_STATS: o->run.statistics = true; break;
    case OPT_STATS_DISPLAY:
      if (strcmp(optarg, "list") && strcmp(optarg, "pipeline")) {
        fprintf(stderr, "nc-opt: --mlir-pass-statistics-display must be 'list' or 'pipeline'\n");
        return false;
      }
      o->run.statistics_list = !strcmp(optarg, "list");
      break;
    case OPT_REPRODUCER: o->run.reproducer_file = optarg; break;
    case OPT_RUN_REPRODUCER: o->run_reproducer = true; break;
    case OPT_LOAD_PASS_PLUGIN:
    case OPT_LOAD_DIALECT_PLUGIN: break; /* loaded by load_plugins */
    default: {
      const char *bad = argv[optind - 1];
      fprintf(stderr, "nc-opt: unknown option '%s'", bad);
      /* suggest the closest pass or flag */
      const char *name = bad + (bad[1] == '-' ? 2 : 1);
      size_t nlen = strcspn(name, "=");
      const char *best = NULL;
      size_t bd = SIZE_MAX;
      for (size_t i = 0; i < nc_pass_registry_size(); i++) {
        const char *a = nc_pass_registry_get(i)->argument;
        size_t d = nc_edit_distance(name, nlen, a, strlen(a));
        if (d < bd) {
          bd = d;
          best = a;
        }
      }
      for (const struct option *lo = long_opts; lo->name; lo++) {
        size_t d = nc_edit_distance(name, nlen, lo->name, strlen(lo->name));
        if (d < bd) {
          bd = d;
          best = lo->name;
        }
      }
      if (best && bd <= 3)
        fprintf(stderr, "; did you mean '--%s'?", best);
      fprintf(stderr, "\n");
      return false;
    }
    }
  }
  if (optind < argc)
    o->input = argv[optind++];
  if (optind < argc) {
    fprintf(stderr, "nc-opt: too many positional arguments: '%s'\n", argv[optind]);
    return false;
  }
  if (!o->input)
    o->input = "-";
  if (o->pipeline && o->legacy) {
    fprintf(stderr, "nc-opt: '--pass-pipeline' cannot be used with individual pass flags\n");
    return false;
  }
  o->run.print_flags = o->print;
  return true;
}

static void print_dialect_name(const nc_dialect_def *d, void *user)
{
  bool *first = user;
  printf("%s%s", *first ? "" : ", ", d->name);
  *first = false;
}

/* Processes bytes [start, end) of the source: parse, verify, run, print. */
static bool process(nc_context *ctx, unsigned id, size_t start, size_t end, const char *onnx_path, const options *o,
                    nc_pass_manager *main_pm, FILE *out)
{
  nc_diag_verifier *dv = NULL;
  if (o->verify_diags && !onnx_path && !(dv = nc_diag_verifier_create(ctx, id, start, end)))
    return false;
  nc_timing *timing = o->timing ? nc_timing_create() : NULL;
  double w0 = nc_time_wall();
  /* like mlir-opt, the Parser row includes verifying the parsed IR */
  nc_op *module = onnx_path ? nc_onnx_import_file(ctx, onnx_path) : nc_parse_source_range(ctx, id, start, end);
  bool ok = module != NULL;
  if (ok && !o->no_verify)
    ok = nc_op_verify(module);
  if (timing) {
    double t = nc_time_wall() - w0;
    nc_timing_add(timing, "Parser", t, t);
  }
  const char *text = NULL;
  nc_pass_run_options run = o->run;
  if (ok && o->run_reproducer) {
    nc_attr *p = nc_context_get_external_resource(ctx, "mlir_reproducer", "pipeline");
    nc_attr *dt = nc_context_get_external_resource(ctx, "mlir_reproducer", "disable_threading");
    nc_attr *ve = nc_context_get_external_resource(ctx, "mlir_reproducer", "verify_each");
    if (!p || nc_attr_get_kind(p) != NC_ATTR_STRING) {
      nc_emit_error(ctx, nc_location_from_source(id, start), "no mlir_reproducer pipeline in the input's external resources");
      ok = false;
    } else {
      text = nc_attr_get_string(p, NULL);
      if (dt && nc_attr_get_kind(dt) == NC_ATTR_INTEGER)
        run.disable_threading = nc_attr_get_int(dt) != 0;
      if (ve && nc_attr_get_kind(ve) == NC_ATTR_INTEGER)
        run.verify_each = nc_attr_get_int(ve) != 0;
    }
  }
  nc_pass_manager *pm = main_pm, *owned = NULL;
  if (ok && text) {
    pm = owned = nc_pass_pipeline_parse(ctx, text);
    ok = pm != NULL;
  }
  if (ok && pm) {
    if (ok && timing)
      nc_pass_manager_set_timing(pm, timing);
    if (ok)
      ok = nc_pass_manager_run(pm, module, &run);
    if (pm && o->run.statistics)
      nc_pass_manager_print_statistics(pm, o->run.statistics_list, stderr);
  }
  if (ok) {
    double pw = nc_time_wall();
    nc_op_print(module, out, &o->print);
    fflush(out);
    if (timing) {
      double t = nc_time_wall() - pw;
      nc_timing_add(timing, "Output", t, t);
    }
  }
  if (timing) {
    nc_timing_print(timing, o->run.timing_tree, nc_time_wall() - w0, 0, stderr);
    nc_timing_destroy(timing);
  }
  nc_pass_manager_destroy(owned);
#ifdef NC_FREE_AT_EXIT
  nc_op_destroy(module);
#else
  (void)0; /* the module lives until exit: freeing a big one op by op costs seconds */
#endif
  if (dv)
    return nc_diag_verifier_finish(dv);
  return ok;
}

static nc_context *new_context(const options *o)
{
  nc_context *ctx = nc_context_create();
  nc_register_all_dialects(ctx);
  nc_target_register_dialects(ctx);
  nc_context_set_allow_unregistered_dialects(ctx, o->allow_unregistered);
  return ctx;
}

/* Each chunk of --split-input-file gets a fresh context, as in mlir-opt, so
 * names (resources, aliases) of one chunk never affect another. */
static bool process_chunk(const char *name, const char *data, size_t len, size_t start, size_t end, const options *o,
                          const char *pipeline, FILE *out)
{
  nc_context *ctx = new_context(o);
  unsigned id = nc_context_add_source(ctx, name, data, len);
  nc_pass_manager *pm = pipeline ? nc_pass_pipeline_parse(ctx, pipeline) : NULL;
  bool ok = (!pipeline || pm) && process(ctx, id, start, end, NULL, o, pm, out);
  nc_pass_manager_destroy(pm);
  nc_context_destroy(ctx);
  return ok;
}

static bool has_suffix(const char *s, const char *suffix)
{
  size_t n = strlen(s), m = strlen(suffix);
  return n >= m && !strcmp(s + n - m, suffix);
}

/* --enable-test-passes (or NC_ENABLE_TEST_PASSES=1) registers the passes of
 * passes/test/; it is read before the other flags because legacy pass flags
 * (-test-pass-failure) are recognised by looking the registry up. */
static bool wants_test_passes(int argc, char **argv)
{
  const char *env = getenv("NC_ENABLE_TEST_PASSES");
  if (env && !strcmp(env, "1"))
    return true;
  for (int i = 1; i < argc && strcmp(argv[i], "--"); i++)
    if (!strcmp(argv[i], "--enable-test-passes") || !strcmp(argv[i], "-enable-test-passes"))
      return true;
  return false;
}

int main(int argc, char **argv)
{
  nc_mapped_file_install_handler("nc-opt"); /* an input truncated while mapped: a diagnostic */
  nc_register_all_passes();
  if (wants_test_passes(argc, argv))
    nc_register_test_passes();
  nc_register_all_targets(); /* the targets' named pipelines (northpole-pipeline) */
  options o;
  if (!parse_args(argc, argv, &o))
    return 1;
  nc_context *ctx = new_context(&o);
  int rc = 0;
  nc_pass_manager *pm = NULL;
  /* the output replaces its file only when the whole run succeeds (nc/support/file.h) */
  char err_out[1024];
  nc_file_writer *writer = nc_file_writer_open(o.output ? o.output : "-", err_out, sizeof err_out);
  if (!writer) {
    fprintf(stderr, "nc-opt: error: %s\n", err_out);
    nc_context_destroy(ctx);
    free(o.legacy);
    return 1;
  }
  FILE *out = nc_file_writer_stream(writer);
  if (o.show_dialects) {
    bool first = true;
    printf("Available Dialects: ");
    nc_context_foreach_dialect(ctx, print_dialect_name, &first);
    printf("\n");
    goto done;
  }
  if (o.list_passes) {
    nc_pass_registry_print_list(stdout);
    goto done;
  }
  if (o.docs_dialect) {
    if (!nc_dialect_write_docs(ctx, o.docs_dialect, out)) {
      fprintf(stderr, "nc-opt: unknown dialect '%s'\n", o.docs_dialect);
      rc = 1;
    }
    goto done;
  }
  /* the pipeline is parsed before the input, so pipeline errors come first */
  const char *text = o.pipeline ? o.pipeline : o.legacy;
  if (text) {
    pm = nc_pass_pipeline_parse(ctx, text);
    if (!pm) {
      rc = 1;
      goto done;
    }
    if (o.dump_pipeline) {
      char *s = nc_pass_manager_to_string(pm);
      fprintf(stderr, "Pass Manager with %zu passes:\n%s\n\n", nc_pass_manager_get_num_entries(pm), s);
      free(s);
    }
  }
  if (has_suffix(o.input, ".onnx")) { /* ONNX models are imported directly */
    if (o.split) {
      fprintf(stderr, "nc-opt: --split-input-file does not apply to ONNX models\n");
      rc = 1;
      goto done;
    }
    rc = process(ctx, 0, 0, 0, o.input, &o, pm, out) ? 0 : 1;
    goto done;
  }
  unsigned id;
  char err[512];
  if (!nc_context_load_file(ctx, o.input, &id, err, sizeof err)) {
    fprintf(stderr, "nc-opt: %s\n", err);
    rc = 1;
    goto done;
  }
  size_t len;
  const char *src = nc_context_get_source(ctx, id, &len);
  if (!o.split) {
    rc = process(ctx, id, 0, len, NULL, &o, pm, out) ? 0 : 1;
  } else {
    /* chunks are separated by lines that start with the marker */
    static const char marker[] = "// -----";
    size_t start = 0;
    bool first = true, all_ok = true;
    for (;;) {
      size_t end = len, next = len;
      for (const char *p = src + start; (p = memmem(p, (size_t)(src + len - p), marker, sizeof marker - 1));
           p += sizeof marker - 1) {
        if (p == src || p[-1] == '\n') {
          end = (size_t)(p - src);
          const char *nl = memchr(p, '\n', (size_t)(src + len - p));
          next = nl ? (size_t)(nl - src) + 1 : len;
          break;
        }
      }
      if (!first)
        fputs("// -----\n", out);
      first = false;
      all_ok &= process_chunk(nc_ident_str(nc_context_get_source_name(ctx, id)), src, len, start, end, &o, text, out);
      if (end == len)
        break;
      start = next;
    }
    rc = all_ok ? 0 : 1;
  }
done:
  if (rc != 0) {
    nc_file_writer_abort(writer);
  } else if (!nc_file_writer_commit(writer, err_out, sizeof err_out)) {
    fprintf(stderr, "nc-opt: error: %s\n", err_out);
    rc = 1;
  }
  nc_pass_manager_destroy(pm);
#ifdef NC_FREE_AT_EXIT
  nc_context_destroy(ctx);
#endif
  free(o.legacy);
  return rc;
}
