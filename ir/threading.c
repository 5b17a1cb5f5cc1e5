/* threading.c: the context's pool of worker threads (threading.h), shared
 * by the pass manager's parallel nested pipelines and nc_parallel_for, as
 * MLIR shares MLIRContext's thread pool between the pass manager and
 * mlir::parallelFor: one set of threads per context, so a pass that loops
 * in parallel inside a pipeline never starts a second pool.
 *
 * The pool runs one job at a time: every participating worker and the
 * submitting thread call the job's function, which takes items until none
 * are left. A job submitted while another runs (another thread of the
 * program), or from inside a job, runs on the submitting thread alone, so
 * nesting never waits for a busy pool (no deadlock).
 */
#include "pass_internal.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "nc/ir/threading.h"

enum { MAX_THREADS = 256 };

struct nc_thread_pool {
  pthread_mutex_t mu;
  pthread_cond_t cv_work, cv_done;
  pthread_t *threads;
  size_t n, cap;     /* worker threads (the submitter is one more) */
  void (*fn)(void *job);
  void *job;
  size_t limit;      /* workers with a slot below it take part in the job */
  uint64_t gen;
  size_t busy;
  bool active, stop;
};

typedef struct worker_arg {
  nc_thread_pool *pool;
  size_t slot;
  uint64_t seen;
} worker_arg;

static _Thread_local size_t tl_slot;   /* worker index in its pool (0: not a worker) */
static _Thread_local bool tl_in_job;   /* running a job's function */
static _Thread_local size_t tl_scope;  /* a pass manager run's thread count (0: none) */

size_t nc_run_thread_slot(void) { return tl_slot; }
bool nc_thread_in_job(void) { return tl_in_job; }

size_t nc_thread_scope_set(size_t n)
{
  size_t old = tl_scope;
  tl_scope = n;
  return old;
}

static void *pool_worker(void *arg)
{
  worker_arg *wa = arg;
  nc_thread_pool *p = wa->pool;
  tl_slot = wa->slot;
  uint64_t seen = wa->seen;
  free(wa);
  pthread_mutex_lock(&p->mu);
  for (;;) {
    while (!p->stop && p->gen == seen)
      pthread_cond_wait(&p->cv_work, &p->mu);
    if (p->stop)
      break;
    seen = p->gen;
    void (*fn)(void *) = p->fn;
    void *job = p->job;
    bool part = tl_slot < p->limit;
    pthread_mutex_unlock(&p->mu);
    if (part) {
      tl_in_job = true;
      fn(job);
      tl_in_job = false;
    }
    pthread_mutex_lock(&p->mu);
    if (--p->busy == 0)
      pthread_cond_signal(&p->cv_done);
  }
  pthread_mutex_unlock(&p->mu);
  return NULL;
}

/* Starts workers until there are n (fewer if the system refuses); p->mu held. */
static void pool_grow(nc_thread_pool *p, size_t n)
{
  if (n > p->cap) {
    p->threads = nc_xrealloc(p->threads, n * sizeof *p->threads);
    p->cap = n;
  }
  while (p->n < n) {
    worker_arg *wa = nc_xmalloc(sizeof *wa);
    *wa = (worker_arg){p, p->n + 1, p->gen};
    if (pthread_create(&p->threads[p->n], NULL, pool_worker, wa) != 0) {
      free(wa);
      break; /* fewer workers: the submitter does the rest */
    }
    p->n++;
  }
}

static nc_thread_pool *pool_of(nc_context *ctx)
{
  pthread_mutex_lock(&ctx->lock);
  if (!ctx->thread_pool) {
    nc_thread_pool *p = nc_xcalloc(1, sizeof *p);
    pthread_mutex_init(&p->mu, NULL);
    pthread_cond_init(&p->cv_work, NULL);
    pthread_cond_init(&p->cv_done, NULL);
    ctx->thread_pool = p;
  }
  nc_thread_pool *p = ctx->thread_pool;
  pthread_mutex_unlock(&ctx->lock);
  return p;
}

static void run_inline(void (*fn)(void *), void *job)
{
  bool saved = tl_in_job;
  tl_in_job = true;
  fn(job);
  tl_in_job = saved;
}

void nc_thread_pool_run(nc_context *ctx, size_t n_threads, void (*fn)(void *), void *job)
{
  if (n_threads <= 1 || tl_in_job) {
    run_inline(fn, job);
    return;
  }
  nc_thread_pool *p = pool_of(ctx);
  pthread_mutex_lock(&p->mu);
  if (p->active || p->stop) { /* another thread's job: do this one here */
    pthread_mutex_unlock(&p->mu);
    run_inline(fn, job);
    return;
  }
  pool_grow(p, n_threads - 1);
  p->active = true;
  p->fn = fn;
  p->job = job;
  p->limit = n_threads;
  p->gen++;
  p->busy = p->n;
  pthread_cond_broadcast(&p->cv_work);
  pthread_mutex_unlock(&p->mu);
  run_inline(fn, job);
  pthread_mutex_lock(&p->mu);
  while (p->busy)
    pthread_cond_wait(&p->cv_done, &p->mu);
  p->active = false;
  pthread_mutex_unlock(&p->mu);
}

void nc_thread_pool_destroy(nc_thread_pool *p)
{
  if (!p)
    return;
  pthread_mutex_lock(&p->mu);
  p->stop = true;
  pthread_cond_broadcast(&p->cv_work);
  pthread_mutex_unlock(&p->mu);
  for (size_t i = 0; i < p->n; i++)
    pthread_join(p->threads[i], NULL);
  pthread_mutex_destroy(&p->mu);
  pthread_cond_destroy(&p->cv_work);
  pthread_cond_destroy(&p->cv_done);
  free(p->threads);
  free(p);
}

/* --- settings ------------------------------------------------------------------------------ */

void nc_context_enable_multithreading(nc_context *ctx, bool enable) { ctx->threading_off = !enable; }
bool nc_context_is_multithreading_enabled(nc_context *ctx) { return !ctx->threading_off; }
void nc_context_set_num_threads(nc_context *ctx, int n) { ctx->num_threads = n < 0 ? 0 : n; }

size_t nc_thread_count(nc_context *ctx, int requested)
{
  long n = requested > 0 ? requested : ctx->num_threads;
  const char *env = getenv("NC_NUM_THREADS");
  if (n <= 0 && env)
    n = atol(env);
  if (n <= 0)
    n = sysconf(_SC_NPROCESSORS_ONLN);
  return n <= 0 ? 1 : n > MAX_THREADS ? MAX_THREADS : (size_t)n;
}

size_t nc_context_get_num_threads(nc_context *ctx)
{
  if (tl_in_job)
    return 1;
  if (tl_scope)
    return tl_scope;
  return ctx->threading_off ? 1 : nc_thread_count(ctx, 0);
}

/* --- parallel for --------------------------------------------------------------------------- */

typedef struct pf_job {
  nc_parallel_fn fn;
  void *user;
  size_t n;
  _Atomic size_t next;
  nc_diag_capture **caps; /* item i's diagnostics */
  bool *ok;
} pf_job;

static void pf_run(void *arg)
{
  pf_job *j = arg;
  for (;;) {
    size_t i = atomic_fetch_add(&j->next, 1);
    if (i >= j->n)
      break;
    nc_diag_capture *c = nc_diag_capture_begin();
    j->ok[i] = j->fn(i, j->user);
    nc_diag_capture_end(c);
    j->caps[i] = c;
  }
}

bool nc_parallel_for(nc_context *ctx, size_t n, nc_parallel_fn fn, void *userData)
{
  size_t threads = nc_context_get_num_threads(ctx);
  bool ok = true;
  if (threads <= 1 || n <= 1) {
    for (size_t i = 0; i < n; i++)
      if (!fn(i, userData))
        ok = false;
    return ok;
  }
  pf_job job = {.fn = fn, .user = userData, .n = n};
  job.caps = nc_xcalloc(n, sizeof *job.caps);
  job.ok = nc_xcalloc(n, sizeof *job.ok);
  nc_thread_pool_run(ctx, threads < n ? threads : n, pf_run, &job);
  for (size_t i = 0; i < n; i++) { /* in item order, as a serial loop would */
    nc_diag_capture_flush(job.caps[i], ctx);
    if (!job.ok[i])
      ok = false;
  }
  free(job.caps);
  free(job.ok);
  return ok;
}
