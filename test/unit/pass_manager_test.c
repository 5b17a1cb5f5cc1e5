/* pass_manager_test.c: the pass manager's C API (nc/ir/pass.h): a pass
 * declared in the test (typed options, a statistic, initialize, output with
 * nc_pass_printf), pipelines built by code and parsed from text and printed
 * back, errors as diagnostics, runs with and without threads giving the same
 * output, dumps and statistics, and named pipelines.
 */
#include "ir_check.h"
#include "nc/passes/passes.h"

/* --- a pass declared here: counts ops named by its `name` option ----------------------- */

static const char *const modes[] = {"quiet", "loud", NULL};
static const nc_pass_option_def count_options[] = {
  {"name", NC_PASS_OPT_STRING, "foo.op", "Op name to count"},
  {"limit", NC_PASS_OPT_INT, "-1", "Fail when more are found (-1: no limit)"},
  {"mode", NC_PASS_OPT_ENUM, "quiet", "Print a line per function", modes},
  {"tags", NC_PASS_OPT_STRING_LIST, "", "Free-form tags"},
  {"sizes", NC_PASS_OPT_INT_LIST, "", "Free-form sizes"},
};
static const nc_pass_stat_def count_stats[] = {{"num-counted", "Number of ops counted"}};
static int initialized;

static bool count_init(nc_pass *pass, nc_context *ctx)
{
  (void)ctx;
  initialized++;
  return nc_pass_get_option_list_size(pass, "sizes") != 1 || nc_pass_get_option_list_int(pass, "sizes", 0) >= 0;
}

typedef struct count_walk {
  const char *name;
  uint64_t n;
} count_walk;

static nc_walk_result count_op(nc_op *op, void *user)
{
  count_walk *w = user;
  w->n += nc_op_is(op, w->name);
  return NC_WALK_ADVANCE;
}

static bool count_run(nc_pass *pass, nc_op *op)
{
  count_walk w = {nc_pass_get_option_string(pass, "name"), 0};
  nc_op_walk(op, NC_WALK_PRE_ORDER, count_op, &w);
  nc_pass_stat_add(pass, 0, w.n);
  if (!strcmp(nc_pass_get_option_string(pass, "mode"), "loud"))
    nc_pass_printf("%s: %llu\n", nc_ident_str(nc_symbol_get_name(op)), (unsigned long long)w.n);
  int64_t limit = nc_pass_get_option_int(pass, "limit");
  if (limit >= 0 && (int64_t)w.n > limit)
    return nc_op_emit_error(op, "%llu ops, more than %lld", (unsigned long long)w.n, (long long)limit);
  return true;
}

static const nc_pass_def count_pass = {
  .argument = "test-count",
  .name = "TestCount",
  .group = "Unit",
  .summary = "Count ops by name",
  .anchor = "func.func",
  .options = count_options, .n_options = NC_COUNTOF(count_options),
  .stats = count_stats, .n_stats = 1,
  .initialize = count_init,
  .run = count_run,
};

/* --- helpers ------------------------------------------------------------------------------- */

static char *to_string(nc_pass_manager *pm)
{
  char *s = nc_pass_manager_to_string(pm);
  return s;
}

/* Runs pm on a fresh parse of `text`; returns what the run wrote (dumps and
 * pass output) and the diagnostics it emitted, in `ir_diags`. */
static char *run_capture(nc_context *ctx, nc_pass_manager *pm, const char *text, nc_pass_run_options o, bool *ok)
{
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  o.print_stream = f;
  nc_op *m = ir_parse(ctx, text);
  ir_diags[0] = 0;
  unsigned h = nc_context_push_diag_handler(ctx, ir_record_diag, NULL);
  *ok = nc_pass_manager_run(pm, m, &o);
  nc_context_pop_diag_handler(ctx, h);
  fclose(f);
  nc_op_destroy(m);
  return buf;
}

static const char *many_functions(void)
{
  static char text[1 << 16];
  size_t n = 0;
  for (int i = 0; i < 40; i++)
    n += (size_t)snprintf(text + n, sizeof text - n,
                          "func.func @f%d() {\n%s  \"foo.op\"() : () -> ()\n  return\n}\n", i,
                          i % 3 ? "  \"foo.op\"() : () -> ()\n" : "");
  return text;
}

/* --- tests ------------------------------------------------------------------------------------ */

static void test_build_and_print(nc_context *ctx)
{
  nc_pass_manager *pm = nc_pass_manager_create(ctx, "builtin.module");
  CHECK_STR(nc_pass_manager_get_anchor(pm), "builtin.module");
  nc_pass_manager *fpm = nc_pass_manager_nest(pm, "func.func");
  CHECK(nc_pass_manager_add_pass(fpm, "test-count", "name=func.return mode=loud tags=a,b sizes=1,2"), "add_pass");
  CHECK(nc_pass_manager_add_pass(pm, "symbol-dce", NULL), "add_pass without options");
  CHECK(nc_pass_manager_add_passes(pm, "func.func(cse),test-named-pipeline{count=2 cse=false}"), "add_passes");
  CHECK(nc_pass_manager_get_num_entries(pm) == 5, "entries: %zu", nc_pass_manager_get_num_entries(pm));
  CHECK(nc_pass_manager_size(pm) == 5, "passes: %zu", nc_pass_manager_size(pm));
  char *s = to_string(pm);
  CHECK_STR(s, "builtin.module(func.func(test-count{limit=-1 mode=loud name=func.return sizes=1,2 tags=a,b}),symbol-dce,"
               "func.func(cse),func.func(canonicalize{max-iterations=10 max-num-rewrites=-1 region-simplify=normal "
               "test-convergence=false top-down=true}),func.func(canonicalize{max-iterations=10 max-num-rewrites=-1 "
               "region-simplify=normal test-convergence=false top-down=true}))");
  /* the text parses back to the same pipeline */
  nc_pass_manager *again = nc_pass_pipeline_parse(ctx, s);
  CHECK(again != NULL, "the printed pipeline parses");
  if (again) {
    char *s2 = to_string(again);
    CHECK_STR(s2, s);
    free(s2);
    nc_pass_manager_destroy(again);
  }
  free(s);
  nc_pass_manager_destroy(pm);
}

static void test_errors(nc_context *ctx)
{
  ir_diags[0] = 0;
  unsigned h = nc_context_push_diag_handler(ctx, ir_record_diag, NULL);
  nc_pass_manager *pm = nc_pass_manager_create(ctx, "builtin.module");
  CHECK(!nc_pass_manager_add_pass(pm, "test-cout", NULL), "unknown pass");
  CHECK(!nc_pass_manager_add_pass(pm, "test-count", NULL), "anchored elsewhere");
  nc_pass_manager *fpm = nc_pass_manager_nest(pm, "func.func");
  CHECK(!nc_pass_manager_add_pass(fpm, "test-count", "mode=lod"), "bad enum");
  CHECK(!nc_pass_manager_add_pass(fpm, "test-count", "sizes=-1"), "initialize refuses");
  CHECK(!nc_pass_manager_add_passes(pm, "cse,(symbol-dce"), "unbalanced");
  CHECK(nc_pass_pipeline_parse(ctx, "builtin.module(func.func(test-count{limt=1}))") == NULL, "bad option name");
  nc_context_pop_diag_handler(ctx, h);
  CHECK_STR(ir_diags, "error: 'test-cout' does not refer to a registered pass or pass pipeline; did you mean 'test-count'?\n"
                      "error: 'test-count' runs on 'func.func' ops and cannot be scheduled on 'builtin.module'; nest it, "
                      "e.g. 'func.func(test-count)'\n"
                      "error: invalid value 'lod' for option 'mode' of 'test-count'; did you mean 'loud'?\n"
                      "error: pass 'test-count' cannot run with these options\n"
                      "error: encountered unbalanced parentheses while parsing pipeline\n"
                      "error: no such option 'limt' for 'test-count'; did you mean 'limit'?\n");
  CHECK(nc_pass_manager_size(pm) == 0, "failed additions leave nothing behind");
  nc_pass_manager_destroy(pm);
}

/* Passes built in code: created by name, options set by name and typed
 * value (a string taken as given, whatever it holds), then added. */
static void test_typed_options(nc_context *ctx)
{
  nc_pass_manager *pm = nc_pass_manager_create(ctx, "builtin.module");
  nc_pass_manager *fpm = nc_pass_manager_nest(pm, "func.func");
  int before = initialized;
  nc_pass *p = nc_pass_create_named(ctx, "test-count");
  CHECK(p != NULL, "create_named");
  CHECK(initialized == before, "initialize waits for the options");
  char long_name[600]; /* longer than any fixed option buffer the targets had */
  memset(long_name, 'x', sizeof long_name - 1);
  long_name[sizeof long_name - 1] = 0;
  memcpy(long_name, "a \"q\" {b}", 9);
  CHECK(nc_pass_set_option(p, "name", long_name), "a string as given");
  CHECK(nc_pass_set_option_int(p, "limit", INT64_MIN), "an int");
  CHECK(nc_pass_set_option(p, "mode", "loud"), "an enum");
  CHECK(nc_pass_set_option(p, "sizes", "3,4"), "a list");
  CHECK_STR(nc_pass_get_option_string(p, "name"), long_name);
  CHECK(nc_pass_get_option_int(p, "limit") == INT64_MIN, "limit");
  CHECK(nc_pass_manager_add_owned_pass(fpm, p), "add_owned_pass");
  CHECK(initialized == before + 1, "initialize ran once, on the options set");
  char *s = to_string(pm);
  CHECK(strstr(s, "test-count{limit=-9223372036854775808 mode=loud name={a \"q\" {b}xxx") != NULL, "printed: %.120s", s);
  free(s);

  ir_diags[0] = 0;
  unsigned h = nc_context_push_diag_handler(ctx, ir_record_diag, NULL);
  CHECK(nc_pass_create_named(ctx, "test-cout") == NULL, "unknown pass");
  CHECK(nc_pass_create_named(ctx, "test-named-pipeline") == NULL, "a named pipeline is no pass");
  nc_pass *q = nc_pass_create_named(ctx, "test-count");
  CHECK(!nc_pass_set_option(q, "limt", "1"), "unknown option");
  CHECK(!nc_pass_set_option(q, "mode", "lod"), "bad enum");
  CHECK(!nc_pass_set_option_bool(q, "limit", true), "bool for an int");
  CHECK(!nc_pass_manager_add_owned_pass(pm, q), "anchored elsewhere (and destroyed)");
  q = nc_pass_create_named(ctx, "test-count");
  CHECK(nc_pass_set_option(q, "sizes", "-1"), "a list the pass refuses at initialize");
  CHECK(!nc_pass_manager_add_owned_pass(fpm, q), "initialize refuses (and it is destroyed)");
  CHECK(!nc_pass_set_option(p, "mode", "quiet"), "options are set before adding");
  CHECK(!nc_pass_manager_add_owned_pass(fpm, p), "added twice");
  nc_pass_destroy(nc_pass_create_named(ctx, "test-count")); /* never added */
  nc_context_pop_diag_handler(ctx, h);
  CHECK_STR(ir_diags, "error: 'test-cout' does not refer to a registered pass\n"
                      "error: 'test-named-pipeline' does not refer to a registered pass\n"
                      "error: no such option 'limt' for 'test-count'\n"
                      "error: invalid value 'lod' for option 'mode' of 'test-count'; did you mean 'loud'?\n"
                      "error: invalid value 'true' for option 'limit' of 'test-count' (expected an integer)\n"
                      "error: 'test-count' runs on 'func.func' ops and cannot be scheduled on 'builtin.module'; nest it, "
                      "e.g. 'func.func(test-count)'\n"
                      "error: pass 'test-count' cannot run with these options\n"
                      "error: option 'mode' of 'test-count' set after the pass was added\n"
                      "error: pass 'test-count' was added to a pass manager already\n");
  CHECK(nc_pass_manager_size(pm) == 1, "failed additions leave nothing behind: %zu", nc_pass_manager_size(pm));
  nc_pass_manager_destroy(pm);
}

static void test_runs(nc_context *ctx)
{
  nc_pass_manager *pm = nc_pass_pipeline_parse(ctx, "builtin.module(func.func(test-count{mode=loud limit=1},cse))");
  CHECK(pm != NULL, "parse");
  if (!pm)
    return;
  const char *text = many_functions();
  nc_pass_run_options serial = nc_pass_run_options_default();
  serial.disable_threading = true;
  serial.print_after_all = true;
  nc_pass_run_options parallel = serial;
  parallel.disable_threading = false;
  parallel.num_threads = 4;
  bool ok1, ok2;
  char *out1 = run_capture(ctx, pm, text, serial, &ok1);
  char diags1[sizeof ir_diags];
  strcpy(diags1, ir_diags);
  char *out2 = run_capture(ctx, pm, text, parallel, &ok2);
  CHECK(!ok1 && !ok2, "functions with two foo.op fail");
  CHECK_STR(out2, out1);
  CHECK_STR(ir_diags, diags1);
  CHECK(!strncmp(out1, "f0: 1\n// -----// IR Dump After TestCount (test-count) //----- //\nfunc.func @f0() {", 60),
        "output starts with f0's line and dump: %.80s", out1);
  CHECK(strstr(out1, "f1: 2\n// -----// IR Dump After TestCount Failed (test-count) //----- //") != NULL,
        "f1 fails and its dump says so");
  CHECK(!strncmp(diags1, "error: 'func.func' op 2 ops, more than 1\n", 41), "diagnostics: %.60s", diags1);
  /* statistics of the last run, summed over threads */
  char *st = NULL;
  size_t stlen = 0;
  FILE *f = open_memstream(&st, &stlen);
  nc_pass_manager_print_statistics(pm, false, f);
  fclose(f);
  CHECK(strstr(st, "'func.func' Pipeline\n  TestCount\n    (S) 66 num-counted - Number of ops counted\n") != NULL,
        "statistics:\n%s", st);
  free(st);
  free(out1);
  free(out2);
  nc_pass_manager_destroy(pm);
  CHECK(initialized >= 1, "initialize ran");
}

int main(void)
{
  nc_register_all_passes();
  nc_register_test_passes();
  nc_pass_register(&count_pass);
  nc_pass_register(&count_pass); /* idempotent */
  CHECK(nc_pass_lookup("test-count", 10) == &count_pass, "lookup");
  CHECK(nc_pipeline_lookup("test-named-pipeline", 19) != NULL, "pipeline lookup");
  nc_context *ctx = ir_context();
  test_build_and_print(ctx);
  test_errors(ctx);
  test_typed_options(ctx);
  test_runs(ctx);
  nc_context_destroy(ctx);
  return ir_check_status("pass_manager_test");
}
