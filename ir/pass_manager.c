/* pass_manager.c: running pass pipelines, in parallel over isolated sibling
 * ops on a pool of pthreads, with verification after each pass and the hooks
 * of the instrumentation (pass_instrument.c) and reports (pass_report.c).
 *
 * Determinism: when a nested pipeline runs on sibling ops in parallel, each
 * op's diagnostics and instrumentation text are logged by its worker, in the
 * order they happen, and replayed in op order afterwards; every sibling runs
 * even if another fails (in both modes). So output, diagnostics and
 * statistics are the same with and without threads. The threads are the
 * context's pool (threading.c), which nc_parallel_for shares.
 */
#include "pass_internal.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "nc/ir/threading.h"

/* --- clocks ---------------------------------------------------------------------------------- */

static uint64_t ns_of(clockid_t c)
{
  struct timespec ts;
  clock_gettime(c, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

uint64_t nc_clock_ns(void) { return ns_of(CLOCK_MONOTONIC); }
double nc_time_wall(void) { return (double)ns_of(CLOCK_MONOTONIC) * 1e-9; }
double nc_time_user(void) { return (double)ns_of(CLOCK_PROCESS_CPUTIME_ID) * 1e-9; }

void nc_clock_add(pm_clock *c, uint64_t ns)
{
  if (c->n_slots)
    {
    size_t slot = nc_run_thread_slot();
    c->slot_ns[slot < c->n_slots ? slot : 0] += ns;
  }
}

uint64_t nc_clock_wall(const pm_clock *c)
{
  uint64_t m = 0;
  for (size_t i = 0; i < c->n_slots; i++)
    m = c->slot_ns[i] > m ? c->slot_ns[i] : m;
  return m;
}

uint64_t nc_clock_user(const pm_clock *c)
{
  uint64_t s = 0;
  for (size_t i = 0; i < c->n_slots; i++)
    s += c->slot_ns[i];
  return s;
}

static void clock_reset(pm_clock *c, size_t n)
{
  if (c->n_slots != n) {
    free(c->slot_ns);
    c->slot_ns = nc_xcalloc(n, sizeof *c->slot_ns);
    c->n_slots = n;
  } else {
    memset(c->slot_ns, 0, n * sizeof *c->slot_ns);
  }
}

/* Clears statistics and clocks before a run (a pass manager may run many times,
 * e.g. once per --split-input-file chunk; each report covers one run). */
static void reset_counters(nc_pass_manager *pm, size_t n_slots)
{
  clock_reset(&pm->clock, n_slots);
  for (size_t i = 0; i < pm->n; i++) {
    nc_pass *p = pm->entries[i].pass;
    if (!p) {
      reset_counters(pm->entries[i].nested, n_slots);
      continue;
    }
    clock_reset(&p->clock, n_slots);
    for (size_t t = 0; t < p->def->n_timers; t++)
      clock_reset(&p->timers[t], n_slots);
    for (size_t s = 0; s < p->def->n_stats; s++)
      atomic_store(&p->stats[s], 0);
  }
}

nc_pass_run_options nc_pass_run_options_default(void)
{
  nc_pass_run_options o;
  memset(&o, 0, sizeof o);
  o.verify_each = true;
  o.timing_tree = true;
  return o;
}

/* --- per-op task logs ------------------------------------------------------------------------ */

/* What one op's run produced, in order: captured diagnostics and text. */
typedef struct task_event {
  nc_diag_capture *cap; /* or text */
  char *text;
  size_t len;
} task_event;

typedef struct task {
  nc_op *op;
  bool ok;
  task_event *ev;
  size_t n_ev, cap_ev;
  nc_diag_capture *cur;
} task;

static _Thread_local task *tl_task;
static _Thread_local bool tl_unchanged; /* the running pass called nc_pass_mark_unchanged */
static _Thread_local run_ctx *tl_run;

static task_event *push_event(task *t)
{
  if (t->n_ev == t->cap_ev) {
    t->cap_ev = t->cap_ev ? t->cap_ev * 2 : 8;
    t->ev = nc_xrealloc(t->ev, t->cap_ev * sizeof *t->ev);
  }
  task_event *e = &t->ev[t->n_ev++];
  memset(e, 0, sizeof *e);
  return e;
}

static void task_close_capture(task *t)
{
  nc_diag_capture_end(t->cur);
  push_event(t)->cap = t->cur;
  t->cur = NULL;
}

void nc_run_emit_text(run_ctx *rc, const char *s, size_t n)
{
  task *t = tl_task;
  if (!t) {
    fwrite(s, 1, n, rc ? rc->stream : stderr);
    fflush(rc ? rc->stream : stderr);
    return;
  }
  /* end the diagnostics captured so far, so the text comes after them */
  task_close_capture(t);
  task_event *e = push_event(t);
  e->text = nc_xmalloc(n + 1);
  memcpy(e->text, s, n);
  e->len = n;
  t->cur = nc_diag_capture_begin();
}

void nc_pass_mark_unchanged(nc_pass *p)
{
  (void)p;
  tl_unchanged = true;
}

void nc_pass_write(const char *s, size_t n) { nc_run_emit_text(tl_run, s, n); }

void nc_pass_printf(const char *fmt, ...)
{
  char buf[1024];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  if (n < 0)
    return;
  if ((size_t)n < sizeof buf) {
    nc_pass_write(buf, (size_t)n);
    return;
  }
  char *big = nc_xmalloc((size_t)n + 1);
  va_start(ap, fmt);
  vsnprintf(big, (size_t)n + 1, fmt, ap);
  va_end(ap);
  nc_pass_write(big, (size_t)n);
  free(big);
}

/* --- running -------------------------------------------------------------------------------------- */

static bool pm_run(run_ctx *rc, nc_pass_manager *pm, nc_op *op);

static void report_silent_failure(const nc_pass_def *d, nc_op *op)
{
  nc_ident *sym = nc_symbol_get_name(op);
  nc_emit_error(nc_op_get_context(op), nc_op_get_loc(op), "pass '%s' failed on '%s' operation%s%s", d->argument,
                nc_ident_str(nc_op_get_name(op)), sym ? ": @" : "", sym ? nc_ident_str(sym) : "");
}

/* Runs one pass on op and verifies op after it (--verify-each) unless the
 * pass said it changed nothing. *verified (may be NULL) tells whether the
 * verifier ran on op after the pass and found it valid. */
static bool run_pass(run_ctx *rc, nc_pass_manager *pm, nc_pass *pass, nc_op *op, bool *verified)
{
  const nc_pass_def *d = pass->def;
  const nc_pass_run_options *o = rc->opts;
  if (nc_instr_print_before(rc, d))
    nc_instr_dump(rc, "Before", pass, op, false);
  bool print_after = nc_instr_print_after(rc, d);
  uint64_t fp = 0;
  if (print_after && o->print_after_change)
    fp = nc_op_fingerprint(o->print_module_scope ? rc->top : op);
  if (o->reproducer_file)
    nc_repro_snapshot(rc, pm, pass, op);

  size_t errors_before = nc_diag_thread_errors();
  bool saved_unchanged = tl_unchanged; /* a pass may run a pipeline of its own */
  tl_unchanged = false;
  uint64_t t0 = nc_clock_ns();
  bool ok = d->run(pass, op);
  nc_clock_add(&pass->clock, nc_clock_ns() - t0);
  bool unchanged = tl_unchanged;
  tl_unchanged = saved_unchanged;
  if (!ok && nc_diag_thread_errors() == errors_before)
    report_silent_failure(d, op);
  bool verify = ok && o->verify_each && !unchanged;
  if (verify)
    ok = nc_op_verify(op);
  if (verified)
    *verified = verify && ok;
  if (!ok) {
    if (o->print_after_failure || print_after)
      nc_instr_dump(rc, "After", pass, op, true);
    if (o->reproducer_file)
      nc_repro_write(rc);
    return false;
  }
  if (print_after && !o->print_after_failure &&
      (!o->print_after_change || nc_op_fingerprint(o->print_module_scope ? rc->top : op) != fp))
    nc_instr_dump(rc, "After", pass, op, false);
  return true;
}

typedef struct par_job {
  run_ctx *rc;
  nc_pass_manager *pm;
  task *tasks;
  size_t n;
  _Atomic size_t next;
} par_job;

static void run_tasks(void *arg)
{
  par_job *j = arg;
  run_ctx *saved_run = tl_run;
  tl_run = j->rc;
  for (;;) {
    size_t i = atomic_fetch_add(&j->next, 1);
    if (i >= j->n)
      break;
    task *t = &j->tasks[i];
    tl_task = t;
    t->cur = nc_diag_capture_begin();
    uint64_t t0 = nc_clock_ns();
    t->ok = pm_run(j->rc, j->pm, t->op);
    nc_clock_add(&j->pm->clock, nc_clock_ns() - t0);
    task_close_capture(t);
    tl_task = NULL;
  }
  tl_run = saved_run;
}

static void replay(run_ctx *rc, task *t)
{
  for (size_t i = 0; i < t->n_ev; i++) {
    task_event *e = &t->ev[i];
    if (e->cap) {
      nc_diag_capture_flush(e->cap, rc->ctx);
    } else {
      nc_run_emit_text(rc, e->text, e->len);
      free(e->text);
    }
  }
  free(t->ev);
}

static bool run_nested(run_ctx *rc, nc_pass_manager *nested, nc_op *op)
{
  /* the ops directly nested in op's regions that the nested pipeline anchors on */
  size_t n = 0, cap = 0;
  nc_op **ops = NULL;
  bool all_isolated = true;
  for (size_t r = 0; r < nc_op_get_num_regions(op); r++)
    for (nc_block *b = nc_region_get_first_block(nc_op_get_region(op, r)); b; b = nc_block_get_next(b))
      for (nc_op *c = nc_block_get_first_op(b); c; c = nc_op_get_next(c)) {
        if (nested->anchor_id && nc_op_get_name(c) != nested->anchor_id)
          continue;
        if (n == cap) {
          cap = cap ? cap * 2 : 16;
          ops = nc_xrealloc(ops, cap * sizeof *ops);
        }
        ops[n++] = c;
        all_isolated &= nc_op_has_trait(c, NC_TRAIT_ISOLATED_FROM_ABOVE);
      }
  bool ok = true;
  if (rc->threading && !nc_thread_in_job() && n > 1 && all_isolated && rc->n_threads > 1) {
    par_job job = {.rc = rc, .pm = nested, .n = n};
    job.tasks = nc_xcalloc(n, sizeof *job.tasks);
    for (size_t i = 0; i < n; i++)
      job.tasks[i].op = ops[i];
    nc_thread_pool_run(rc->ctx, rc->n_threads < n ? rc->n_threads : n, run_tasks, &job);
    for (size_t i = 0; i < n; i++) { /* replay in op order */
      replay(rc, &job.tasks[i]);
      ok &= job.tasks[i].ok;
    }
    free(job.tasks);
  } else {
    for (size_t i = 0; i < n; i++) {
      uint64_t t0 = nc_clock_ns();
      ok &= pm_run(rc, nested, ops[i]);
      nc_clock_add(&nested->clock, nc_clock_ns() - t0);
    }
  }
  free(ops);
  return ok;
}

static bool pm_run(run_ctx *rc, nc_pass_manager *pm, nc_op *op)
{
  for (size_t i = 0; i < pm->n; i++) {
    pm_entry *e = &pm->entries[i];
    bool ok = e->pass ? run_pass(rc, pm, e->pass, op, NULL) : run_nested(rc, e->nested, op);
    if (!ok)
      return false;
  }
  return true;
}

bool nc_pass_manager_run(nc_pass_manager *pm, nc_op *op, const nc_pass_run_options *opts)
{
  nc_pass_run_options defaults = nc_pass_run_options_default();
  if (!opts)
    opts = &defaults;
  if (pm->anchor_id && nc_op_get_name(op) != pm->anchor_id) {
    nc_emit_error(pm->ctx, nc_op_get_loc(op), "can't run '%s' pass manager on '%s' op", pm->anchor,
                  nc_ident_str(nc_op_get_name(op)));
    return false;
  }
  run_ctx rc = {opts, pm->ctx, op, opts->print_stream ? opts->print_stream : stderr,
                !opts->disable_threading && nc_context_is_multithreading_enabled(pm->ctx), 1, NULL};
  /* module-scope dumps and reproducers need a consistent view of the whole op */
  if (opts->print_module_scope || opts->reproducer_file)
    rc.threading = false;
  if (rc.threading)
    rc.n_threads = nc_thread_count(pm->ctx, opts->num_threads);
  if (opts->print_tree_dir)
    rc.tree_counters = nc_op_counters_create();
  reset_counters(pm, rc.n_threads);
  if (opts->reproducer_file)
    nc_repro_begin(&rc);
  run_ctx *saved = tl_run;
  tl_run = &rc;
  /* nc_parallel_for in the passes follows the run's threading */
  size_t saved_scope = nc_thread_scope_set(rc.threading ? rc.n_threads : 1);
  uint64_t t0 = nc_clock_ns();
  bool ok = true, last_verified = false;
  for (size_t i = 0; ok && i < pm->n; i++) { /* pm_run, telling opts->progress of each top-level entry */
    pm_entry *e = &pm->entries[i];
    if (opts->progress)
      opts->progress(e->pass ? e->pass->def->argument : e->nested->anchor, i, pm->n, opts->progress_user_data);
    last_verified = false;
    ok = e->pass ? run_pass(&rc, pm, e->pass, op, &last_verified) : run_nested(&rc, e->nested, op);
  }
  if (opts->progress)
    opts->progress(NULL, pm->n, pm->n, opts->progress_user_data);
  /* a nested pass is verified on the op it ran on; what relates ops across
   * the whole IR (a core.chip naming its function's nodes, symbol uses) is
   * verified once more at the end, so a run never succeeds with IR that
   * cannot be read back (unless the last pass ran on the whole op and the
   * verifier checked it just now) */
  if (ok && opts->verify_each && pm->n && !last_verified)
    ok = nc_op_verify(op);
  nc_clock_add(&pm->clock, nc_clock_ns() - t0);
  tl_run = saved;
  nc_thread_scope_set(saved_scope);
  if (opts->reproducer_file)
    nc_repro_end(&rc);
  nc_op_counters_destroy(rc.tree_counters);
  return ok && !atomic_load(&rc.output_failed);
}
