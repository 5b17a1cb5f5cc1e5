/* parallel_for_test.c: nc_parallel_for over the context's thread pool
 * (nc/ir/threading.h): every item runs once and writes its own slot; failed
 * items make the loop fail and their diagnostics come out in item order,
 * the same with and without threads; a loop nested in an item, or in a pass
 * that a threaded pipeline runs in parallel over sibling functions, runs on
 * its thread and finishes (no deadlock); a pass manager run's
 * --mlir-disable-threading and thread count reach the loops in its passes.
 */
#include <stdatomic.h>

#include "ir_check.h"
#include "nc/ir/pass.h"
#include "nc/passes/passes.h"

enum { N = 2000 };

typedef struct squares {
  int64_t out[N];
  _Atomic int calls[N];
} squares;

static bool square(size_t i, void *user)
{
  squares *s = user;
  s->out[i] = (int64_t)i * (int64_t)i;
  atomic_fetch_add(&s->calls[i], 1);
  return true;
}

static void test_items(nc_context *ctx, int threads)
{
  nc_context_set_num_threads(ctx, threads);
  static squares s;
  memset(&s, 0, sizeof s);
  CHECK(nc_parallel_for(ctx, N, square, &s), "all items succeed (%d threads)", threads);
  int bad = 0;
  for (size_t i = 0; i < N; i++)
    bad += s.out[i] != (int64_t)(i * i) || atomic_load(&s.calls[i]) != 1;
  CHECK(bad == 0, "%d items missing, wrong or run twice (%d threads)", bad, threads);
  CHECK(nc_parallel_for(ctx, 0, square, &s), "no items: success");
}

typedef struct failing {
  nc_context *ctx;
  _Atomic int ran;
} failing;

static bool fail_some(size_t i, void *user)
{
  failing *f = user;
  atomic_fetch_add(&f->ran, 1);
  if (i % 7 != 3)
    return true;
  nc_emit_error(f->ctx, nc_location_unknown(), "item %zu failed", i);
  if (i % 2)
    nc_emit_warning(f->ctx, nc_location_unknown(), "after item %zu", i);
  return false;
}

/* The diagnostics of a failing loop; every item runs. */
static void run_failing(nc_context *ctx, char *diags, size_t len)
{
  failing f = {ctx, 0};
  ir_diags[0] = 0;
  unsigned h = nc_context_push_diag_handler(ctx, ir_record_diag, NULL);
  bool ok = nc_parallel_for(ctx, 100, fail_some, &f);
  nc_context_pop_diag_handler(ctx, h);
  CHECK(!ok, "a failed item fails the loop");
  CHECK(atomic_load(&f.ran) == 100, "every item runs despite failures: %d", atomic_load(&f.ran));
  snprintf(diags, len, "%s", ir_diags);
}

static void test_errors(nc_context *ctx)
{
  static char serial[8192], threaded[8192];
  nc_context_enable_multithreading(ctx, false);
  CHECK(nc_context_get_num_threads(ctx) == 1, "threading off: one thread");
  run_failing(ctx, serial, sizeof serial);
  nc_context_enable_multithreading(ctx, true);
  nc_context_set_num_threads(ctx, 4);
  CHECK(nc_context_get_num_threads(ctx) == 4, "4 threads: %zu", nc_context_get_num_threads(ctx));
  for (int k = 0; k < 20; k++) { /* many tries: any ordering the threads take gives the same text */
    run_failing(ctx, threaded, sizeof threaded);
    CHECK_STR(threaded, serial);
  }
  CHECK(!strncmp(serial, "error: item 3 failed\nwarning: after item 3\nerror: item 10 failed\nerror: item 17 failed\n"
                         "warning: after item 17\n", 100),
        "item order: %.120s", serial);
}

/* --- nesting ------------------------------------------------------------------------------------ */

typedef struct nest {
  nc_context *ctx;
  _Atomic int inner;
  _Atomic size_t most_threads; /* the largest nc_context_get_num_threads seen inside an item */
} nest;

static bool inner_item(size_t i, void *user)
{
  (void)i;
  nest *n = user;
  atomic_fetch_add(&n->inner, 1);
  return true;
}

static bool outer_item(size_t i, void *user)
{
  (void)i;
  nest *n = user;
  size_t t = nc_context_get_num_threads(n->ctx);
  size_t m = atomic_load(&n->most_threads);
  while (t > m && !atomic_compare_exchange_weak(&n->most_threads, &m, t))
    ;
  return nc_parallel_for(n->ctx, 10, inner_item, n);
}

static void test_nested_items(nc_context *ctx)
{
  nc_context_set_num_threads(ctx, 4);
  nest n = {ctx, 0, 0};
  CHECK(nc_parallel_for(ctx, 50, outer_item, &n), "nested loops succeed");
  CHECK(atomic_load(&n.inner) == 500, "every inner item runs: %d", atomic_load(&n.inner));
  CHECK(atomic_load(&n.most_threads) == 1, "a loop inside an item runs on its thread");
}

/* A pass that loops in parallel: counts each function's items and the
 * thread count it was given (by function name's number). */
static _Atomic int pass_items[64];
static _Atomic size_t pass_threads[64];

typedef struct pass_job {
  int fn;
} pass_job;

static bool pass_item(size_t i, void *user)
{
  (void)i;
  pass_job *j = user;
  atomic_fetch_add(&pass_items[j->fn], 1);
  return true;
}

static bool loop_run(nc_pass *pass, nc_op *op)
{
  (void)pass;
  int fn = atoi(nc_ident_str(nc_symbol_get_name(op)) + 1);
  pass_threads[fn] = nc_context_get_num_threads(nc_op_get_context(op));
  pass_job j = {fn};
  return nc_parallel_for(nc_op_get_context(op), 30, pass_item, &j);
}

static const nc_pass_def loop_pass = {
  .argument = "test-parallel-loop",
  .name = "TestParallelLoop",
  .group = "Unit",
  .summary = "Loops over 30 items with nc_parallel_for",
  .anchor = "func.func",
  .run = loop_run,
};

static void run_loop_pipeline(nc_context *ctx, int n_funcs, bool threads, int num_threads)
{
  char text[1 << 14];
  size_t len = 0;
  for (int i = 0; i < n_funcs; i++)
    len += (size_t)snprintf(text + len, sizeof text - len, "func.func @f%d() {\n  return\n}\n", i);
  for (int i = 0; i < 64; i++)
    atomic_store(&pass_items[i], 0), atomic_store(&pass_threads[i], 0);
  nc_pass_manager *pm = nc_pass_pipeline_parse(ctx, "builtin.module(func.func(test-parallel-loop))");
  nc_pass_run_options o = nc_pass_run_options_default();
  o.disable_threading = !threads;
  o.num_threads = num_threads;
  nc_op *m = ir_parse(ctx, text);
  CHECK(pm && m && nc_pass_manager_run(pm, m, &o), "pipeline runs");
  for (int i = 0; i < n_funcs; i++)
    CHECK(atomic_load(&pass_items[i]) == 30, "f%d ran %d items", i, atomic_load(&pass_items[i]));
  nc_op_destroy(m);
  nc_pass_manager_destroy(pm);
}

static void test_in_pipelines(nc_context *ctx)
{
  nc_context_set_num_threads(ctx, 0);
  /* many functions in parallel: the loops inside run on their threads */
  run_loop_pipeline(ctx, 40, true, 4);
  size_t most = 0;
  for (int i = 0; i < 40; i++)
    most = pass_threads[i] > most ? pass_threads[i] : most;
  CHECK(most == 1, "loops in a parallel pipeline: one thread each (saw %zu)", most);
  /* one function: the pass runs on the caller, its loop gets the run's threads */
  run_loop_pipeline(ctx, 1, true, 3);
  CHECK(pass_threads[0] == 3, "the run's num_threads reaches the pass's loop: %zu", (size_t)pass_threads[0]);
  run_loop_pipeline(ctx, 1, false, 3);
  CHECK(pass_threads[0] == 1, "--mlir-disable-threading reaches the pass's loop: %zu", (size_t)pass_threads[0]);
  /* the context's switch is the default of runs too */
  nc_context_enable_multithreading(ctx, false);
  run_loop_pipeline(ctx, 1, true, 3);
  CHECK(pass_threads[0] == 1, "context threading off: %zu", (size_t)pass_threads[0]);
  run_loop_pipeline(ctx, 10, true, 3);
  nc_context_enable_multithreading(ctx, true);
  /* outside a run, the context's setting again */
  nc_context_set_num_threads(ctx, 2);
  CHECK(nc_context_get_num_threads(ctx) == 2, "after runs: the context's count: %zu", nc_context_get_num_threads(ctx));
}

int main(void)
{
  nc_register_all_passes();
  nc_pass_register(&loop_pass);
  nc_context *ctx = nc_context_create();
  nc_register_all_dialects(ctx);
  test_items(ctx, 1);
  test_items(ctx, 2);
  test_items(ctx, 7);
  test_errors(ctx);
  test_nested_items(ctx);
  test_in_pipelines(ctx);
  nc_context_destroy(ctx);
  /* a context whose pool never started, and one destroyed right after a loop */
  nc_context_destroy(nc_context_create());
  nc_context *c2 = nc_context_create();
  test_items(c2, 3);
  nc_context_destroy(c2);
  return ir_check_status("parallel_for_test");
}
