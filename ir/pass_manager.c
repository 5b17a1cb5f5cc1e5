/* pass_manager.c: running pass pipelines, in parallel over isolated sibling
 * ops, with mlir-opt's instrumentation: IR printing before/after passes,
 * verification after each pass, timing, statistics, and crash/failure
 * reproducers.
 *
 * Determinism: when a nested pipeline runs on sibling ops in parallel, each
 * op's diagnostics and printed IR are captured by its worker and replayed in
 * op order afterwards, and every op runs even if a sibling fails, so the
 * output is the same with and without threads.
 */
#include "pass_internal.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <fcntl.h>
#include <unistd.h>

/* --- clocks ---------------------------------------------------------------------------------- */

static uint64_t ns_of(clockid_t c)
{
  struct timespec ts;
  clock_gettime(c, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

double nc_time_wall(void) { return (double)ns_of(CLOCK_MONOTONIC) * 1e-9; }
double nc_time_user(void) { return (double)ns_of(CLOCK_PROCESS_CPUTIME_ID) * 1e-9; }

nc_pass_run_options nc_pass_run_options_default(void)
{
  nc_pass_run_options o;
  memset(&o, 0, sizeof o);
  o.verify_each = true;
  return o;
}

/* --- run state ---------------------------------------------------------------------------------- */

typedef struct run_ctx {
  const nc_pass_run_options *opts;
  nc_context *ctx;
  nc_op *top;
  FILE *stream;
  bool threading;
} run_ctx;

/* Where IR dumps of the current thread go while a parallel worker runs. */
static _Thread_local nc_out *tl_sink;
static _Thread_local bool tl_in_worker;

/* The current reproducer text, written on failure or from the crash handler. */
static char *repro_text;
static size_t repro_len;
static const char *repro_file;
static volatile sig_atomic_t repro_armed;

static void emit_text(run_ctx *rc, const char *s, size_t n)
{
  if (tl_sink)
    nc_out_write(tl_sink, s, n);
  else {
    fwrite(s, 1, n, rc->stream);
    fflush(rc->stream);
  }
}

static bool in_list(const char *list, const char *arg)
{
  if (!list)
    return false;
  size_t n = strlen(arg);
  for (const char *p = list; *p;) {
    const char *e = strchr(p, ',');
    size_t l = e ? (size_t)(e - p) : strlen(p);
    if (l == n && !memcmp(p, arg, n))
      return true;
    if (!e)
      break;
    p = e + 1;
  }
  return false;
}

static void print_ir(run_ctx *rc, const char *when, const nc_pass_def *d, nc_op *op, bool failed)
{
  nc_op *target = rc->opts->print_module_scope ? rc->top : op;
  char header[512];
  int n = snprintf(header, sizeof header, "// -----// IR Dump %s %s (%s)%s //----- //\n", when, d->name ? d->name : d->argument,
                   d->argument, failed ? " Failed" : "");
  size_t len;
  char *text = nc_op_print_to_string(target, &rc->opts->print_flags, &len);
  emit_text(rc, header, (size_t)n);
  emit_text(rc, text, len);
  emit_text(rc, "\n", 1);
  free(text);
}

/* --- tree dir ------------------------------------------------------------------------------------- */

static void mkdirs(char *path)
{
  for (char *p = path + 1; *p; p++)
    if (*p == '/') {
      *p = 0;
      mkdir(path, 0777);
      *p = '/';
    }
  mkdir(path, 0777);
}

static void op_path(nc_op *op, char *buf, size_t cap)
{
  nc_op *chain[64];
  size_t n = 0;
  for (nc_op *a = op; a && n < 64; a = nc_op_get_parent_op(a))
    chain[n++] = a;
  size_t len = 0;
  buf[0] = 0;
  for (size_t i = n; i-- > 0;) {
    const char *name = nc_ident_str(nc_op_get_name(chain[i]));
    nc_attr *sym = nc_op_get_attr_str(chain[i], "sym_name");
    size_t sl = 0;
    const char *s = sym && nc_attr_get_kind(sym) == NC_ATTR_STRING ? nc_attr_get_string(sym, &sl) : "no-symbol-name";
    if (!sym || nc_attr_get_kind(sym) != NC_ATTR_STRING)
      sl = strlen(s);
    int w = snprintf(buf + len, cap - len, "%s%s_%.*s", len ? "/" : "", name, (int)sl, s);
    if (w < 0 || (size_t)w >= cap - len)
      break;
    for (char *c = buf + len; *c; c++)
      if (*c == '.' || (c > buf + len && *c == '/'))
        *c = '_';
    len += (size_t)w;
  }
}

static void print_to_tree(run_ctx *rc, const nc_pass_def *d, nc_op *op, size_t index)
{
  char path[2048], dir[4096];
  op_path(op, path, sizeof path);
  snprintf(dir, sizeof dir, "%s/%s", rc->opts->print_tree_dir, path);
  mkdirs(dir);
  char file[4200];
  snprintf(file, sizeof file, "%s/%zu_%s.mlir", dir, index, d->argument);
  FILE *f = fopen(file, "w");
  if (!f) {
    nc_emit_error(rc->ctx, nc_location_unknown(), "cannot write '%s': %s", file, strerror(errno));
    return;
  }
  nc_op_print(rc->opts->print_module_scope ? rc->top : op, f, &rc->opts->print_flags);
  fclose(f);
}

/* --- reproducers ------------------------------------------------------------------------------------ */

static void crash_handler(int sig)
{
  if (repro_armed && repro_text) {
    int fd = open(repro_file, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd >= 0) {
      for (size_t off = 0; off < repro_len;) {
        ssize_t w = write(fd, repro_text + off, repro_len - off);
        if (w <= 0)
          break;
        off += (size_t)w;
      }
      close(fd);
      static const char msg[] = "nc: crash while running a pass; reproducer written to ";
      if (write(2, msg, sizeof msg - 1) < 0 || write(2, repro_file, strlen(repro_file)) < 0 || write(2, "\n", 1) < 0) {
      }
    }
  }
  signal(sig, SIG_DFL);
  raise(sig);
}

static void install_crash_handlers(void)
{
  static const int sigs[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT};
  for (size_t i = 0; i < NC_COUNTOF(sigs); i++)
    signal(sigs[i], crash_handler);
}

/* The pipeline that reruns just this pass: its anchors around it. */
static char *local_pipeline(const nc_pass_manager *pm, const nc_pass *pass)
{
  const nc_pass_manager *chain[64];
  size_t n = 0;
  for (const nc_pass_manager *p = pm; p && n < 64; p = p->parent)
    chain[n++] = p;
  char *buf = NULL;
  size_t len = 0, cap = 0;
  nc_str_append(&buf, &len, &cap, "", 0);
  for (size_t i = n; i-- > 0;) {
    nc_str_append(&buf, &len, &cap, chain[i]->anchor, strlen(chain[i]->anchor));
    nc_str_append(&buf, &len, &cap, "(", 1);
  }
  nc_str_append(&buf, &len, &cap, pass->def->argument, strlen(pass->def->argument));
  nc_pass_options_to_string(pass, &buf, &len, &cap);
  for (size_t i = 0; i < n; i++)
    nc_str_append(&buf, &len, &cap, ")", 1);
  return buf;
}

static void snapshot(run_ctx *rc, const nc_pass_manager *pm, const nc_pass *pass)
{
  nc_print_flags pf = {.debuginfo = true};
  size_t len;
  char *ir = nc_op_print_to_string(rc->top, &pf, &len);
  char *pipe = local_pipeline(pm, pass);
  char *buf = NULL;
  size_t blen = 0, cap = 0;
  /* merge into the printed resource section if there is one */
  char *meta = strstr(ir, "\n{-#\n");
  char section[1024];
  int sn = snprintf(section, sizeof section,
                    "  external_resources: {\n    mlir_reproducer: {\n      pipeline: \"%s\",\n"
                    "      disable_threading: %s,\n      verify_each: %s\n    }\n  }\n",
                    pipe, rc->threading ? "false" : "true", rc->opts->verify_each ? "true" : "false");
  if (meta) {
    char *end = strstr(meta, "\n#-}");
    nc_str_append(&buf, &blen, &cap, ir, (size_t)(end - ir));
    nc_str_append(&buf, &blen, &cap, ",\n", 2);
    nc_str_append(&buf, &blen, &cap, section, (size_t)sn);
    nc_str_append(&buf, &blen, &cap, "#-}\n", 4);
  } else {
    nc_str_append(&buf, &blen, &cap, ir, len);
    nc_str_append(&buf, &blen, &cap, "\n{-#\n", 5);
    nc_str_append(&buf, &blen, &cap, section, (size_t)sn);
    nc_str_append(&buf, &blen, &cap, "#-}\n", 4);
  }
  free(ir);
  free(pipe);
  repro_armed = 0;
  char *old = repro_text;
  repro_text = buf;
  repro_len = blen;
  repro_armed = 1;
  free(old);
}

static void write_reproducer(run_ctx *rc, const nc_pass *pass, nc_op *op)
{
  FILE *f = fopen(rc->opts->reproducer_file, "w");
  if (!f) {
    nc_emit_error(rc->ctx, nc_location_unknown(), "cannot write reproducer '%s': %s", rc->opts->reproducer_file,
                  strerror(errno));
    return;
  }
  fwrite(repro_text, 1, repro_len, f);
  fclose(f);
  nc_emit_remark(rc->ctx, nc_op_get_loc(op), "pass '%s' failed; reproducer generated at '%s'", pass->def->argument,
                 rc->opts->reproducer_file);
}

/* --- running -------------------------------------------------------------------------------------- */

static bool pm_run(run_ctx *rc, nc_pass_manager *pm, nc_op *op);

static bool run_pass(run_ctx *rc, nc_pass_manager *pm, size_t index, nc_pass *pass, nc_op *op)
{
  const nc_pass_def *d = pass->def;
  const nc_pass_run_options *o = rc->opts;
  bool before = o->print_before_all || in_list(o->print_before, d->argument);
  bool after = o->print_after_all || in_list(o->print_after, d->argument) ||
               (o->print_after_change && !o->print_after && !o->print_before_all && !o->print_before);
  if (before && !o->print_tree_dir)
    print_ir(rc, "Before", d, op, false);
  char *fp = NULL;
  size_t fp_len = 0;
  if (o->print_after_change && after)
    fp = nc_op_print_to_string(o->print_module_scope ? rc->top : op, &o->print_flags, &fp_len);
  if (o->reproducer_file)
    snapshot(rc, pm, pass);

  size_t errors_before = nc_diag_thread_errors();
  uint64_t w0 = ns_of(CLOCK_MONOTONIC), u0 = ns_of(CLOCK_THREAD_CPUTIME_ID);
  bool ok = d->run(pass, op);
  atomic_fetch_add(&pass->wall_ns, ns_of(CLOCK_MONOTONIC) - w0);
  atomic_fetch_add(&pass->user_ns, ns_of(CLOCK_THREAD_CPUTIME_ID) - u0);
  if (!ok && nc_diag_thread_errors() == errors_before) {
    nc_ident *sym = nc_symbol_get_name(op);
    nc_op_emit_error(op, "pass '%s' failed%s%s%s", d->argument, sym ? " on @" : "", sym ? nc_ident_str(sym) : "",
                     "");
  }
  if (ok && o->verify_each)
    ok = nc_op_verify(op);
  if (!ok) {
    if (o->print_after_failure)
      print_ir(rc, "After", d, op, true);
    if (o->reproducer_file)
      write_reproducer(rc, pass, op);
  } else if (after) {
    bool changed = true;
    if (fp) {
      size_t len;
      char *now = nc_op_print_to_string(o->print_module_scope ? rc->top : op, &o->print_flags, &len);
      changed = len != fp_len || memcmp(now, fp, len);
      free(now);
    }
    if (changed) {
      if (o->print_tree_dir)
        print_to_tree(rc, d, op, index);
      else
        print_ir(rc, "After", d, op, false);
    }
  }
  free(fp);
  return ok;
}

typedef struct task {
  nc_op *op;
  bool ok;
  nc_diag_capture *cap;
  nc_out out;
} task;

typedef struct pool {
  run_ctx *rc;
  nc_pass_manager *pm;
  task *tasks;
  size_t n;
  _Atomic size_t next;
  _Atomic uint64_t user_ns;
} pool;

static void run_task(pool *pl, task *t)
{
  tl_sink = &t->out;
  t->cap = nc_diag_capture_begin();
  t->ok = pm_run(pl->rc, pl->pm, t->op);
  nc_diag_capture_end(t->cap);
  tl_sink = NULL;
}

static void *worker(void *arg)
{
  pool *pl = arg;
  tl_in_worker = true;
  uint64_t u0 = ns_of(CLOCK_THREAD_CPUTIME_ID);
  for (;;) {
    size_t i = atomic_fetch_add(&pl->next, 1);
    if (i >= pl->n)
      break;
    run_task(pl, &pl->tasks[i]);
  }
  atomic_fetch_add(&pl->user_ns, ns_of(CLOCK_THREAD_CPUTIME_ID) - u0);
  tl_in_worker = false;
  return NULL;
}

static int thread_count(const run_ctx *rc)
{
  if (rc->opts->num_threads > 0)
    return rc->opts->num_threads;
  const char *env = getenv("NC_NUM_THREADS");
  if (env && atoi(env) > 0)
    return atoi(env);
  long n = sysconf(_SC_NPROCESSORS_ONLN);
  return n > 0 ? (int)n : 1;
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
  uint64_t w0 = ns_of(CLOCK_MONOTONIC), u0 = ns_of(CLOCK_THREAD_CPUTIME_ID);
  bool ok = true;
  int threads = thread_count(rc);
  if (rc->threading && !tl_in_worker && n > 1 && all_isolated && threads > 1) {
    pool pl = {.rc = rc, .pm = nested, .n = n};
    pl.tasks = nc_xcalloc(n, sizeof *pl.tasks);
    for (size_t i = 0; i < n; i++)
      pl.tasks[i].op = ops[i];
    size_t nt = (size_t)threads < n ? (size_t)threads : n;
    pthread_t *th = nc_xmalloc(nt * sizeof *th);
    size_t started = 0;
    for (size_t i = 1; i < nt; i++)
      if (pthread_create(&th[i], NULL, worker, &pl) == 0)
        started = i;
      else
        break;
    worker(&pl); /* the calling thread works too */
    for (size_t i = 1; i <= started; i++)
      pthread_join(th[i], NULL);
    free(th);
    for (size_t i = 0; i < n; i++) { /* replay in op order */
      task *t = &pl.tasks[i];
      if (t->out.len)
        emit_text(rc, t->out.buf, t->out.len);
      free(t->out.buf);
      nc_diag_capture_flush(t->cap, rc->ctx);
      ok &= t->ok;
    }
    free(pl.tasks);
    atomic_fetch_add(&nested->user_ns, atomic_load(&pl.user_ns));
  } else {
    for (size_t i = 0; i < n; i++)
      ok &= pm_run(rc, nested, ops[i]);
    atomic_fetch_add(&nested->user_ns, ns_of(CLOCK_THREAD_CPUTIME_ID) - u0);
  }
  atomic_fetch_add(&nested->wall_ns, ns_of(CLOCK_MONOTONIC) - w0);
  free(ops);
  return ok;
}

static bool pm_run(run_ctx *rc, nc_pass_manager *pm, nc_op *op)
{
  for (size_t i = 0; i < pm->n; i++) {
    pm_entry *e = &pm->entries[i];
    bool ok = e->pass ? run_pass(rc, pm, i, e->pass, op) : run_nested(rc, e->nested, op);
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
  run_ctx rc = {opts, pm->ctx, op, opts->print_stream ? opts->print_stream : stderr, !opts->disable_threading};
  if (opts->print_module_scope || opts->reproducer_file)
    rc.threading = false; /* both need a consistent view of the whole module */
  if (opts->reproducer_file) {
    repro_file = opts->reproducer_file;
    install_crash_handlers();
  }
  uint64_t w0 = ns_of(CLOCK_MONOTONIC), u0 = ns_of(CLOCK_THREAD_CPUTIME_ID);
  bool ok = pm_run(&rc, pm, op);
  atomic_fetch_add(&pm->wall_ns, ns_of(CLOCK_MONOTONIC) - w0);
  atomic_fetch_add(&pm->user_ns, ns_of(CLOCK_THREAD_CPUTIME_ID) - u0);
  if (opts->reproducer_file) {
    repro_armed = 0;
    free(repro_text);
    repro_text = NULL;
    repro_len = 0;
  }
  return ok;
}

/* --- statistics ----------------------------------------------------------------------------------- */

static void print_banner(FILE *out, const char *title)
{
  fprintf(out, "===-------------------------------------------------------------------------===\n");
  int pad = (int)(80 - strlen(title)) / 2;
  fprintf(out, "%*s%s\n", pad > 0 ? pad : 0, "", title);
  fprintf(out, "===-------------------------------------------------------------------------===\n");
}

static void print_pass_stats(FILE *out, const nc_pass *p, int indent)
{
  fprintf(out, "%*s%s\n", indent, "", p->def->name ? p->def->name : p->def->argument);
  for (size_t s = 0; s < p->def->n_stats; s++)
    fprintf(out, "%*s(S) %llu %s - %s\n", indent + 2, "", (unsigned long long)nc_pass_stat_get(p, s),
            p->def->stats[s].name, p->def->stats[s].summary);
}

static void stats_tree(const nc_pass_manager *pm, FILE *out, int indent)
{
  for (size_t i = 0; i < pm->n; i++) {
    const pm_entry *e = &pm->entries[i];
    if (e->pass) {
      print_pass_stats(out, e->pass, indent);
    } else {
      fprintf(out, "%*s'%s' Pipeline\n", indent, "", e->nested->anchor);
      stats_tree(e->nested, out, indent + 2);
    }
  }
}

static void collect_passes(const nc_pass_manager *pm, const nc_pass ***v, size_t *n, size_t *cap)
{
  for (size_t i = 0; i < pm->n; i++) {
    if (pm->entries[i].nested) {
      collect_passes(pm->entries[i].nested, v, n, cap);
      continue;
    }
    if (*n == *cap) {
      *cap = *cap ? *cap * 2 : 16;
      *v = nc_xrealloc(*v, *cap * sizeof **v);
    }
    (*v)[(*n)++] = pm->entries[i].pass;
  }
}

void nc_pass_manager_print_statistics(const nc_pass_manager *pm, bool list, FILE *out)
{
  print_banner(out, "... Pass statistics report ...");
  if (!list) {
    fprintf(out, "'%s' Pipeline\n", pm->anchor);
    stats_tree(pm, out, 2);
    return;
  }
  const nc_pass **v = NULL;
  size_t n = 0, cap = 0;
  collect_passes(pm, &v, &n, &cap);
  for (size_t i = 0; i < n; i++) {
    bool seen = false;
    for (size_t j = 0; j < i; j++)
      seen |= v[j]->def == v[i]->def;
    if (seen)
      continue;
    fprintf(out, "%s\n", v[i]->def->name ? v[i]->def->name : v[i]->def->argument);
    for (size_t s = 0; s < v[i]->def->n_stats; s++) {
      uint64_t sum = 0;
      for (size_t j = i; j < n; j++)
        if (v[j]->def == v[i]->def)
          sum += nc_pass_stat_get(v[j], s);
      fprintf(out, "  (S) %llu %s - %s\n", (unsigned long long)sum, v[i]->def->stats[s].name, v[i]->def->stats[s].summary);
    }
  }
  free(v);
}

/* --- timing -------------------------------------------------------------------------------------------- */

typedef struct trow {
  char *name;
  double wall, user;
  int indent;
} trow;

struct nc_timing {
  trow *rows;
  size_t n, cap;
  nc_pass_manager *pm;
  size_t pm_pos; /* rows before this index come before the pipeline */
};

nc_timing *nc_timing_create(void) { return nc_xcalloc(1, sizeof(nc_timing)); }

void nc_timing_destroy(nc_timing *t)
{
  if (!t)
    return;
  for (size_t i = 0; i < t->n; i++)
    free(t->rows[i].name);
  free(t->rows);
  free(t);
}

static void add_row(nc_timing *t, const char *name, double wall, double user, int indent)
{
  if (t->n == t->cap) {
    t->cap = t->cap ? t->cap * 2 : 16;
    t->rows = nc_xrealloc(t->rows, t->cap * sizeof *t->rows);
  }
  size_t l = strlen(name);
  char *s = nc_xmalloc(l + 1);
  memcpy(s, name, l + 1);
  t->rows[t->n++] = (trow){s, wall, user, indent};
}

void nc_timing_add(nc_timing *t, const char *name, double wall, double user) { add_row(t, name, wall, user, 0); }

void nc_pass_manager_set_timing(nc_pass_manager *pm, nc_timing *t)
{
  pm->timing = t;
  t->pm = pm;
  t->pm_pos = t->n;
}

static void pm_rows(const nc_pass_manager *pm, nc_timing *t, int indent)
{
  for (size_t i = 0; i < pm->n; i++) {
    const pm_entry *e = &pm->entries[i];
    if (e->pass) {
      add_row(t, e->pass->def->name ? e->pass->def->name : e->pass->def->argument, atomic_load(&e->pass->wall_ns) * 1e-9,
              atomic_load(&e->pass->user_ns) * 1e-9, indent);
    } else {
      char name[256];
      snprintf(name, sizeof name, "'%s' Pipeline", e->nested->anchor);
      add_row(t, name, atomic_load(&e->nested->wall_ns) * 1e-9, atomic_load(&e->nested->user_ns) * 1e-9, indent);
      pm_rows(e->nested, t, indent + 2);
    }
  }
}

static int cmp_rows(const void *a, const void *b)
{
  double x = ((const trow *)a)->wall, y = ((const trow *)b)->wall;
  return (x < y) - (x > y);
}

void nc_timing_print(const nc_timing *tc, bool tree, double total_wall, double total_user, FILE *out)
{
  /* assemble rows: phases before the pipeline, pass rows, phases after */
  nc_timing all = {0};
  for (size_t i = 0; i < tc->pm_pos && i < tc->n; i++)
    add_row(&all, tc->rows[i].name, tc->rows[i].wall, tc->rows[i].user, 0);
  size_t pass_start = all.n;
  if (tc->pm)
    pm_rows(tc->pm, &all, 0);
  size_t pass_end = all.n;
  for (size_t i = tc->pm_pos; i < tc->n; i++)
    add_row(&all, tc->rows[i].name, tc->rows[i].wall, tc->rows[i].user, 0);
  if (!tree) {
    /* list view: passes merged by name (pipelines dropped), sorted by time */
    nc_timing merged = {0};
    for (size_t i = 0; i < all.n; i++) {
      bool is_pass = i >= pass_start && i < pass_end;
      if (is_pass && strstr(all.rows[i].name, "' Pipeline"))
        continue;
      size_t j;
      for (j = 0; j < merged.n; j++)
        if (!strcmp(merged.rows[j].name, all.rows[i].name))
          break;
      if (j == merged.n)
        add_row(&merged, all.rows[i].name, 0, 0, 0);
      merged.rows[j].wall += all.rows[i].wall;
      merged.rows[j].user += all.rows[i].user;
    }
    qsort(merged.rows, merged.n, sizeof *merged.rows, cmp_rows);
    for (size_t i = 0; i < all.n; i++)
      free(all.rows[i].name);
    free(all.rows);
    all = merged;
  }
  double sum_wall = 0, sum_user = 0;
  for (size_t i = 0; i < all.n; i++)
    if (all.rows[i].indent == 0 && !(tree && false)) {
      sum_wall += all.rows[i].wall;
      sum_user += all.rows[i].user;
    }
  print_banner(out, "... Execution time report ...");
  fprintf(out, "  Total Execution Time: %.4f seconds\n\n", total_wall);
  fprintf(out, "  ----User Time----  ----Wall Time----  ----Name----\n");
  double tw = total_wall > 0 ? total_wall : 1, tu = total_user > 0 ? total_user : 1;
  for (size_t i = 0; i < all.n; i++) {
    trow *r = &all.rows[i];
    fprintf(out, "  %8.4f (%5.1f%%)  %8.4f (%5.1f%%)  %*s%s\n", r->user, 100 * r->user / tu, r->wall, 100 * r->wall / tw,
            r->indent, "", r->name);
  }
  double rest_w = total_wall - sum_wall, rest_u = total_user - sum_user;
  if (rest_w < 0)
    rest_w = 0;
  if (rest_u < 0)
    rest_u = 0;
  fprintf(out, "  %8.4f (%5.1f%%)  %8.4f (%5.1f%%)  Rest\n", rest_u, 100 * rest_u / tu, rest_w, 100 * rest_w / tw);
  fprintf(out, "  %8.4f (100.0%%)  %8.4f (100.0%%)  Total\n", total_user, total_wall);
  for (size_t i = 0; i < all.n; i++)
    free(all.rows[i].name);
  free(all.rows);
}
