/* pass_instrument.c: mlir-opt's pass instrumentation: IR dumps before and
 * after passes (to the stream or to a file tree), change detection, and
 * crash/failure reproducers.
 *
 * Dumps use mlir-opt 19's exact text: a `// -----// IR Dump After CSE (cse)
 * //----- //` header (with `('func.func' operation: @f)` at module scope and
 * `Failed` after a failure), the IR, and a blank line.
 */
#include "pass_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "nc/support/file.h"
#include "nc/support/hash.h"

/* --- fingerprints ---------------------------------------------------------------------------- */

static uint64_t mix(uint64_t h, uintptr_t v) { return nc_hash_mix(h ^ (uint64_t)v, NC_HASH_P1); }

static nc_walk_result fingerprint_op(nc_op *op, void *user)
{
  uint64_t *h = user;
  uint64_t x = mix(*h, (uintptr_t)op);
  x = mix(x, (uintptr_t)nc_op_get_name(op));
  x = mix(x, (uintptr_t)nc_op_get_attr_dict(op));
  x = mix(x, (uintptr_t)nc_op_get_props(op));
  x = mix(x, nc_op_get_loc(op).raw);
  for (size_t i = 0, n = nc_op_get_num_operands(op); i < n; i++)
    x = mix(x, (uintptr_t)nc_op_get_operand(op, i));
  for (size_t i = 0, n = nc_op_get_num_results(op); i < n; i++)
    x = mix(x, (uintptr_t)nc_value_get_type(nc_op_get_result(op, i)));
  for (size_t i = 0, n = nc_op_get_num_successors(op); i < n; i++)
    x = mix(x, (uintptr_t)nc_op_get_successor(op, i));
  for (size_t r = 0, nr = nc_op_get_num_regions(op); r < nr; r++) {
    x = mix(x, 0x5eed + r);
    for (nc_block *b = nc_region_get_first_block(nc_op_get_region(op, r)); b; b = nc_block_get_next(b)) {
      x = mix(x, (uintptr_t)b);
      for (size_t a = 0, na = nc_block_get_num_args(b); a < na; a++) {
        nc_value *arg = nc_block_get_arg(b, a);
        x = mix(mix(mix(x, (uintptr_t)arg), (uintptr_t)nc_value_get_type(arg)), nc_value_get_loc(arg).raw);
      }
    }
  }
  *h = x;
  return NC_WALK_ADVANCE;
}

uint64_t nc_op_fingerprint(nc_op *op)
{
  uint64_t h = NC_HASH_P0;
  nc_op_walk(op, NC_WALK_PRE_ORDER, fingerprint_op, &h);
  return h;
}

/* --- filters -------------------------------------------------------------------------------------- */

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

bool nc_instr_print_before(const run_ctx *rc, const nc_pass_def *d)
{
  return rc->opts->print_before_all || in_list(rc->opts->print_before, d->argument);
}

bool nc_instr_print_after(const run_ctx *rc, const nc_pass_def *d)
{
  const nc_pass_run_options *o = rc->opts;
  return o->print_after_all || in_list(o->print_after, d->argument) || (o->print_after_change && !o->print_after);
}

/* --- dumps ------------------------------------------------------------------------------------------ */

struct op_counters {
  pthread_mutex_t mu;
  nc_op **keys;
  unsigned *vals;
  size_t cap, count;
};

op_counters *nc_op_counters_create(void)
{
  op_counters *c = nc_xcalloc(1, sizeof *c);
  pthread_mutex_init(&c->mu, NULL);
  return c;
}

void nc_op_counters_destroy(op_counters *c)
{
  if (!c)
    return;
  pthread_mutex_destroy(&c->mu);
  free(c->keys);
  free(c->vals);
  free(c);
}

/* The counter slot of op, inserted with `init` if missing (caller holds mu). */
static unsigned *counter_slot(op_counters *c, nc_op *op, unsigned init)
{
  if ((c->count + 1) * 2 > c->cap) {
    size_t ncap = c->cap ? c->cap * 2 : 64;
    nc_op **keys = nc_xcalloc(ncap, sizeof *keys);
    unsigned *vals = nc_xcalloc(ncap, sizeof *vals);
    for (size_t i = 0; i < c->cap; i++) {
      if (!c->keys[i])
        continue;
      size_t j = nc_hash_mix((uintptr_t)c->keys[i], NC_HASH_P2) & (ncap - 1);
      while (keys[j])
        j = (j + 1) & (ncap - 1);
      keys[j] = c->keys[i];
      vals[j] = c->vals[i];
    }
    free(c->keys);
    free(c->vals);
    c->keys = keys;
    c->vals = vals;
    c->cap = ncap;
  }
  size_t j = nc_hash_mix((uintptr_t)op, NC_HASH_P2) & (c->cap - 1);
  while (c->keys[j] && c->keys[j] != op)
    j = (j + 1) & (c->cap - 1);
  if (!c->keys[j]) {
    c->keys[j] = op;
    c->vals[j] = init;
    c->count++;
  }
  return &c->vals[j];
}

static void append_sanitized(char **buf, size_t *len, size_t *cap, const char *s, size_t n, char from, char to)
{
  size_t start = *len;
  nc_str_append(buf, len, cap, s, n);
  for (size_t i = start; i < *len; i++)
    if ((*buf)[i] == from || (*buf)[i] == '/' || (*buf)[i] == '\\')
      (*buf)[i] = to;
}

/* Opens DIR/<op path>/<counters>_<pass>.mlir as mlir-opt does: one directory
 * per ancestor (`func_func_f`), file names prefixed by per-op dump counters. */
static nc_file_writer *open_tree_file(run_ctx *rc, const nc_pass_def *d, nc_op *op)
{
  nc_op *chain[256];
  size_t n = 0;
  for (nc_op *a = op; a && n < NC_COUNTOF(chain); a = nc_op_get_parent_op(a))
    chain[n++] = a;
  unsigned counts[256];
  pthread_mutex_lock(&rc->tree_counters->mu);
  unsigned *self = counter_slot(rc->tree_counters, op, UINT32_MAX);
  ++*self;
  for (size_t i = 0; i < n; i++)
    counts[i] = *counter_slot(rc->tree_counters, chain[i], 0);
  pthread_mutex_unlock(&rc->tree_counters->mu);

  char *path = NULL;
  size_t len = 0, cap = 0;
  nc_str_append(&path, &len, &cap, rc->opts->print_tree_dir, strlen(rc->opts->print_tree_dir));
  if (mkdir(path, 0777) != 0 && errno != EEXIST) {
    nc_emit_error(rc->ctx, nc_location_unknown(), "cannot create directory '%s': %s", path, strerror(errno));
    atomic_store(&rc->output_failed, true);
    free(path);
    return NULL;
  }
  for (size_t i = n; i-- > 0;) {
    nc_str_append(&path, &len, &cap, "/", 1);
    const char *name = nc_ident_str(nc_op_get_name(chain[i]));
    append_sanitized(&path, &len, &cap, name, strlen(name), '.', '_');
    nc_str_append(&path, &len, &cap, "_", 1);
    nc_ident *sym = nc_symbol_get_name(chain[i]);
    const char *s = sym ? nc_ident_str(sym) : "no-symbol-name";
    append_sanitized(&path, &len, &cap, s, strlen(s), '/', '_');
    if (mkdir(path, 0777) != 0 && errno != EEXIST) {
      nc_emit_error(rc->ctx, nc_location_unknown(), "cannot create directory '%s': %s", path, strerror(errno));
      atomic_store(&rc->output_failed, true);
      free(path);
      return NULL;
    }
  }
  nc_str_append(&path, &len, &cap, "/", 1);
  for (size_t i = n; i-- > 0;) {
    char num[16];
    int w = snprintf(num, sizeof num, "%u_", counts[i]);
    nc_str_append(&path, &len, &cap, num, (size_t)w);
  }
  nc_str_append(&path, &len, &cap, d->argument, strlen(d->argument));
  nc_str_append(&path, &len, &cap, ".mlir", 5);
  char err[1024];
  nc_file_writer *w = nc_file_writer_open(path, err, sizeof err);
  if (!w) {
    nc_emit_error(rc->ctx, nc_location_unknown(), "cannot write %s", err);
    atomic_store(&rc->output_failed, true);
  }
  free(path);
  return w;
}

void nc_instr_dump(run_ctx *rc, const char *when, const nc_pass *pass, nc_op *op, bool failed)
{
  const nc_pass_def *d = pass->def;
  const nc_pass_run_options *o = rc->opts;
  char *buf = NULL;
  size_t len = 0, cap = 0;
  char head[1024];
  int hn = snprintf(head, sizeof head, "// -----// IR Dump %s %s%s (%s)", when, d->name ? d->name : d->argument,
                    failed ? " Failed" : "", d->argument);
  nc_str_append(&buf, &len, &cap, head, (size_t)hn);
  if (o->print_module_scope) {
    nc_ident *sym = nc_symbol_get_name(op);
    hn = snprintf(head, sizeof head, " ('%s' operation%s%s)", nc_ident_str(nc_op_get_name(op)), sym ? ": @" : "",
                  sym ? nc_ident_str(sym) : "");
    nc_str_append(&buf, &len, &cap, head, (size_t)hn);
  }
  nc_str_append(&buf, &len, &cap, " //----- //\n", 12);
  nc_op *target = op;
  if (o->print_module_scope)
    while (nc_op_get_parent_op(target))
      target = nc_op_get_parent_op(target);
  size_t tlen;
  char *text = nc_op_print_to_string(target, &o->print_flags, &tlen);
  nc_str_append(&buf, &len, &cap, text, tlen);
  free(text);
  /* mlir-opt ends a nested op without a newline and a top-level one with one,
   * then adds a blank line */
  nc_str_append(&buf, &len, &cap, "\n\n", nc_op_get_parent_op(target) ? 1 : 2);
  if (o->print_tree_dir) {
    nc_file_writer *w = open_tree_file(rc, d, op);
    if (w) {
      char err[1024];
      fwrite(buf, 1, len, nc_file_writer_stream(w));
      if (!nc_file_writer_commit(w, err, sizeof err)) {
        nc_emit_error(rc->ctx, nc_location_unknown(), "cannot write %s", err);
        atomic_store(&rc->output_failed, true);
      }
    }
  } else {
    nc_run_emit_text(rc, buf, len);
  }
  free(buf);
}

/* --- reproducers ------------------------------------------------------------------------------------ */

/* The reproducer of the pass about to run (IR before it, the pipeline that
 * reruns it) and the message for a crash, both ready for the signal handler. */
static char *repro_text;
static size_t repro_len;
static char *crash_msg;
static size_t crash_len;
static const char *repro_file;
/* Where the signal handler writes first: a fresh file beside the reproducer,
 * renamed over it once complete (empty when the reproducer is a device or
 * pipe, written in place); open and rename are async-signal-safe. */
static char repro_tmp[4096];
static volatile sig_atomic_t repro_armed;
static struct sigaction old_actions[5];
static const int crash_signals[5] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT};
/* what the failure diagnostic names */
static char repro_what[512];

static void write_all(int fd, const char *s, size_t n)
{
  while (n) {
    ssize_t w = write(fd, s, n);
    if (w <= 0)
      return;
    s += w;
    n -= (size_t)w;
  }
}

static void crash_handler(int sig)
{
  if (repro_armed) {
    repro_armed = 0;
    int fd = repro_tmp[0] ? open(repro_tmp, O_WRONLY | O_CREAT | O_EXCL, 0644) : open(repro_file, O_WRONLY);
    if (fd >= 0) {
      write_all(fd, repro_text, repro_len);
      close(fd);
      if (repro_tmp[0] && rename(repro_tmp, repro_file) != 0)
        unlink(repro_tmp);
    }
    write_all(2, crash_msg, crash_len);
    /* as mlir-opt, whose crash recovery turns the crash into a failure:
     * the reproducer is written and reported, the run fails with status 1 */
    _exit(1);
  }
  for (size_t i = 0; i < NC_COUNTOF(crash_signals); i++)
    if (crash_signals[i] == sig)
      sigaction(sig, &old_actions[i], NULL);
  raise(sig);
}

void nc_repro_begin(run_ctx *rc)
{
  repro_file = rc->opts->reproducer_file;
  struct stat st;
  repro_tmp[0] = 0;
  if (stat(repro_file, &st) != 0 || S_ISREG(st.st_mode)) {
    int n = snprintf(repro_tmp, sizeof repro_tmp, "%s.crash%ld.tmp", repro_file, (long)getpid());
    if (n < 0 || (size_t)n >= sizeof repro_tmp)
      repro_tmp[0] = 0;
  }
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = crash_handler;
  sigemptyset(&sa.sa_mask);
  for (size_t i = 0; i < NC_COUNTOF(crash_signals); i++)
    sigaction(crash_signals[i], &sa, &old_actions[i]);
}

void nc_repro_end(run_ctx *rc)
{
  (void)rc;
  repro_armed = 0;
  for (size_t i = 0; i < NC_COUNTOF(crash_signals); i++)
    sigaction(crash_signals[i], &old_actions[i], NULL);
  free(repro_text);
  free(crash_msg);
  repro_text = crash_msg = NULL;
  repro_len = crash_len = 0;
}

/* The pipeline that reruns just this pass: its anchors around it. */
static char *local_pipeline(const nc_pass_manager *pm, const nc_pass *pass)
{
  const nc_pass_manager *chain[64];
  size_t n = 0;
  for (const nc_pass_manager *p = pm; p && n < NC_COUNTOF(chain); p = p->parent)
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

static void append_escaped(char **buf, size_t *len, size_t *cap, const char *s)
{
  for (; *s; s++) {
    if (*s == '"' || *s == '\\')
      nc_str_append(buf, len, cap, "\\", 1);
    nc_str_append(buf, len, cap, s, 1);
  }
}

/* Renders a diagnostic the way the default handler prints it. */
static char *render_diag(nc_context *ctx, nc_diag *d, size_t *len)
{
  char *s = NULL;
  FILE *f = open_memstream(&s, len);
  if (!f) {
    *len = 0;
    return NULL;
  }
  nc_diag_print(d, ctx, f);
  fclose(f);
  return s;
}

static nc_diag *failure_diag(run_ctx *rc)
{
  nc_diag *d = nc_diag_create(rc->ctx, NC_SEV_ERROR, nc_op_get_loc(rc->top),
                              "Failures have been detected while processing an MLIR pass pipeline");
  nc_diag_attach_note(d, nc_op_get_loc(rc->top), "Pipeline failed while executing [%s]: reproducer generated at `%s`",
                      repro_what, repro_file);
  return d;
}

void nc_repro_snapshot(run_ctx *rc, const nc_pass_manager *pm, const nc_pass *pass, nc_op *op)
{
  nc_print_flags pf = {.debuginfo = true};
  size_t len;
  char *ir = nc_op_print_to_string(rc->top, &pf, &len);
  char *pipe = local_pipeline(pm, pass);
  char *buf = NULL;
  size_t blen = 0, cap = 0;
  /* merge into the printed resource section if there is one */
  char *meta = strstr(ir, "\n{-#\n");
  char *end = meta ? strstr(meta, "\n#-}") : NULL;
  if (end) {
    nc_str_append(&buf, &blen, &cap, ir, (size_t)(end - ir));
    nc_str_append(&buf, &blen, &cap, ",\n", 2);
  } else {
    nc_str_append(&buf, &blen, &cap, ir, len);
    nc_str_append(&buf, &blen, &cap, "\n{-#\n", 5);
  }
  static const char head[] = "  external_resources: {\n    mlir_reproducer: {\n      pipeline: \"";
  nc_str_append(&buf, &blen, &cap, head, sizeof head - 1);
  append_escaped(&buf, &blen, &cap, pipe);
  char tail[256];
  int tn = snprintf(tail, sizeof tail, "\",\n      disable_threading: %s,\n      verify_each: %s\n    }\n  }\n#-}\n",
                    rc->opts->disable_threading ? "true" : "false", rc->opts->verify_each ? "true" : "false");
  nc_str_append(&buf, &blen, &cap, tail, (size_t)tn);
  free(ir);
  free(pipe);

  nc_ident *sym = nc_symbol_get_name(op);
  snprintf(repro_what, sizeof repro_what, "`%s` on '%s' operation%s%s", pass->def->argument,
           nc_ident_str(nc_op_get_name(op)), sym ? ": @" : "", sym ? nc_ident_str(sym) : "");
  size_t mlen;
  nc_diag *fd = failure_diag(rc);
  char *msg = render_diag(rc->ctx, fd, &mlen);
  nc_diag_destroy(fd);

  repro_armed = 0;
  char *old_text = repro_text, *old_msg = crash_msg;
  repro_text = buf;
  repro_len = blen;
  crash_msg = msg;
  crash_len = msg ? mlen : 0;
  repro_armed = 1;
  free(old_text);
  free(old_msg);
}

void nc_repro_write(run_ctx *rc)
{
  if (!repro_armed)
    return;
  repro_armed = 0;
  char err[1024];
  if (!nc_file_write_all(repro_file, repro_text, repro_len, err, sizeof err)) {
    nc_emit_error(rc->ctx, nc_location_unknown(), "cannot write reproducer %s", err);
    return;
  }
  nc_diag_emit(failure_diag(rc));
}
