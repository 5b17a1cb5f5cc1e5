/* pass_registry_threads_test.c: the pass registry's lock. Threads register
 * passes (as passes written in Python or loaded from plugins do, at any
 * time) while other threads parse pipelines naming registered passes and
 * list the registry; every registration lands once, and
 * nc_pass_register_unique refuses a second definition of a name (a pass's
 * or a pipeline's) in one step.
 */
#include <pthread.h>
#include <stdio.h>

#include "ir_check.h"
#include "nc/passes/passes.h"

#define N_REGISTERERS 4
#define N_PER_THREAD 64

static bool run_nothing(nc_pass *pass, nc_op *op)
{
  (void)pass;
  (void)op;
  return true;
}

static nc_pass_def defs[N_REGISTERERS][N_PER_THREAD];
static nc_pass_def dups[N_REGISTERERS][N_PER_THREAD]; /* same arguments, other definitions */
static char names[N_REGISTERERS][N_PER_THREAD][32];
static int refused[N_REGISTERERS];

static void *registerer(void *arg)
{
  int t = (int)(intptr_t)arg;
  for (int i = 0; i < N_PER_THREAD; i++) {
    snprintf(names[t][i], sizeof names[t][i], "test-thread-%d-%d", t, i);
    defs[t][i] = (nc_pass_def){.argument = names[t][i], .name = names[t][i], .run = run_nothing};
    dups[t][i] = defs[t][i];
    if (i % 2)
      nc_pass_register(&defs[t][i]);
    else
      CHECK(nc_pass_register_unique(&defs[t][i]), "register_unique %s", names[t][i]);
    refused[t] += !nc_pass_register_unique(&dups[t][i]);
  }
  return NULL;
}

static void *parser(void *arg)
{
  (void)arg;
  nc_context *ctx = ir_context();
  for (int i = 0; i < 200; i++) {
    nc_pass_manager *pm = nc_pass_pipeline_parse(ctx, "builtin.module(func.func(cse,canonicalize),symbol-dce)");
    CHECK(pm != NULL, "parse while registering");
    nc_pass_manager_destroy(pm);
    size_t n = nc_pass_registry_size();
    CHECK(n > 0 && nc_pass_registry_get(n - 1) != NULL, "registry listing");
    CHECK(nc_pass_lookup("cse", 3) != NULL, "lookup");
  }
  nc_context_destroy(ctx);
  return NULL;
}

int main(void)
{
  nc_register_all_passes();
  size_t before = nc_pass_registry_size();
  pthread_t th[N_REGISTERERS + 2];
  for (int t = 0; t < N_REGISTERERS; t++)
    pthread_create(&th[t], NULL, registerer, (void *)(intptr_t)t);
  for (int t = N_REGISTERERS; t < N_REGISTERERS + 2; t++)
    pthread_create(&th[t], NULL, parser, NULL);
  for (int t = 0; t < N_REGISTERERS + 2; t++)
    pthread_join(th[t], NULL);
  CHECK(nc_pass_registry_size() == before + N_REGISTERERS * N_PER_THREAD, "every pass registered once (%zu)",
        nc_pass_registry_size() - before);
  for (int t = 0; t < N_REGISTERERS; t++) {
    CHECK(refused[t] == N_PER_THREAD, "duplicates refused (%d)", refused[t]);
    for (int i = 0; i < N_PER_THREAD; i++)
      CHECK(nc_pass_lookup(names[t][i], strlen(names[t][i])) == &defs[t][i], "lookup %s", names[t][i]);
  }
  /* a name taken by a named pipeline is refused too */
  nc_register_test_passes();
  size_t n_pipes = nc_pipeline_registry_size();
  CHECK(n_pipes > 0, "a named pipeline");
  const nc_pipeline_def *pipe = nc_pipeline_registry_get(0);
  nc_pass_def clash = {.argument = pipe->argument, .name = "clash", .run = run_nothing};
  CHECK(!nc_pass_register_unique(&clash), "pipeline name refused");
  CHECK(nc_pass_registry_get(nc_pass_registry_size()) == NULL, "out of range");
  return ir_check_status("pass_registry_threads_test");
}
