/* pass_registry.c: the process-wide registry of passes and named pipelines,
 * pass instances with typed option values and statistics, and --help.
 * The registry has one lock: passes written in Python (python/) and plugins
 * may register while other threads parse pipelines. Definitions are never
 * removed, so a looked-up pointer stays valid without the lock.
 */
#include "pass_internal.h"

#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

static const nc_pass_def **passes;
static size_t n_passes, cap_passes;
static const nc_pipeline_def **pipelines;
static size_t n_pipelines, cap_pipelines;
static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;

static int cmp_pass(const void *a, const void *b)
{
  return strcmp((*(const nc_pass_def *const *)a)->argument, (*(const nc_pass_def *const *)b)->argument);
}

static int cmp_pipe(const void *a, const void *b)
{
  return strcmp((*(const nc_pipeline_def *const *)a)->argument, (*(const nc_pipeline_def *const *)b)->argument);
}

static const nc_pipeline_def *lookup_pipeline_locked(const char *arg, size_t len)
{
  for (size_t i = 0; i < n_pipelines; i++)
    if (strlen(pipelines[i]->argument) == len && !memcmp(pipelines[i]->argument, arg, len))
      return pipelines[i];
  return NULL;
}

static const nc_pass_def *lookup_pass_locked(const char *arg, size_t len)
{
  for (size_t i = 0; i < n_passes; i++)
    if (strlen(passes[i]->argument) == len && !memcmp(passes[i]->argument, arg, len))
      return passes[i];
  return NULL;
}

static void register_pass_locked(const nc_pass_def *def)
{
  for (size_t i = 0; i < n_passes; i++)
    if (passes[i] == def)
      return;
  if (n_passes == cap_passes) {
    cap_passes = cap_passes ? cap_passes * 2 : 32;
    passes = nc_xrealloc(passes, cap_passes * sizeof *passes);
  }
  passes[n_passes++] = def;
  qsort(passes, n_passes, sizeof *passes, cmp_pass);
}

void nc_pass_register(const nc_pass_def *def)
{
  pthread_mutex_lock(&registry_lock);
  register_pass_locked(def);
  pthread_mutex_unlock(&registry_lock);
}

bool nc_pass_register_unique(const nc_pass_def *def)
{
  pthread_mutex_lock(&registry_lock);
  const nc_pass_def *old = lookup_pass_locked(def->argument, strlen(def->argument));
  bool ok = !old && !lookup_pipeline_locked(def->argument, strlen(def->argument));
  if (ok)
    register_pass_locked(def);
  pthread_mutex_unlock(&registry_lock);
  return ok;
}

void nc_pipeline_register(const nc_pipeline_def *def)
{
  pthread_mutex_lock(&registry_lock);
  bool known = false;
  for (size_t i = 0; i < n_pipelines; i++)
    known |= pipelines[i] == def;
  if (!known) {
    if (n_pipelines == cap_pipelines) {
      cap_pipelines = cap_pipelines ? cap_pipelines * 2 : 8;
      pipelines = nc_xrealloc(pipelines, cap_pipelines * sizeof *pipelines);
    }
    pipelines[n_pipelines++] = def;
    qsort(pipelines, n_pipelines, sizeof *pipelines, cmp_pipe);
  }
  pthread_mutex_unlock(&registry_lock);
}

const nc_pass_def *nc_pass_lookup(const char *arg, size_t len)
{
  pthread_mutex_lock(&registry_lock);
  const nc_pass_def *d = lookup_pass_locked(arg, len);
  pthread_mutex_unlock(&registry_lock);
  return d;
}

const nc_pipeline_def *nc_pipeline_lookup(const char *arg, size_t len)
{
  pthread_mutex_lock(&registry_lock);
  const nc_pipeline_def *d = lookup_pipeline_locked(arg, len);
  pthread_mutex_unlock(&registry_lock);
  return d;
}

size_t nc_pass_registry_size(void)
{
  pthread_mutex_lock(&registry_lock);
  size_t n = n_passes;
  pthread_mutex_unlock(&registry_lock);
  return n;
}

const nc_pass_def *nc_pass_registry_get(size_t i)
{
  pthread_mutex_lock(&registry_lock);
  const nc_pass_def *d = i < n_passes ? passes[i] : NULL;
  pthread_mutex_unlock(&registry_lock);
  return d;
}

size_t nc_pipeline_registry_size(void)
{
  pthread_mutex_lock(&registry_lock);
  size_t n = n_pipelines;
  pthread_mutex_unlock(&registry_lock);
  return n;
}

const nc_pipeline_def *nc_pipeline_registry_get(size_t i)
{
  pthread_mutex_lock(&registry_lock);
  const nc_pipeline_def *d = i < n_pipelines ? pipelines[i] : NULL;
  pthread_mutex_unlock(&registry_lock);
  return d;
}

static const char *kind_name(nc_pass_option_kind k)
{
  switch (k) {
  case NC_PASS_OPT_BOOL: return "";
  case NC_PASS_OPT_INT: return "=<int>";
  case NC_PASS_OPT_STRING: return "=<string>";
  case NC_PASS_OPT_ENUM: return "=<value>";
  case NC_PASS_OPT_INT_LIST: return "=<int,...>";
  case NC_PASS_OPT_STRING_LIST: return "=<string,...>";
  default: return "=<pipeline>";
  }
}

static int cmp_opt(const void *a, const void *b)
{
  return strcmp((*(const nc_pass_option_def *const *)a)->name, (*(const nc_pass_option_def *const *)b)->name);
}

/* Options sorted by name, as mlir-opt's --help lists them. */
static void print_options(FILE *out, const nc_pass_option_def *o, size_t n)
{
  const nc_pass_option_def **v = nc_xmalloc((n + 1) * sizeof *v);
  for (size_t i = 0; i < n; i++)
    v[i] = &o[i];
  qsort(v, n, sizeof *v, cmp_opt);
  for (size_t i = 0; i < n; i++) {
    char flag[128];
    snprintf(flag, sizeof flag, "--%s%s", v[i]->name, kind_name(v[i]->kind));
    fprintf(out, "        %-44s - %s", flag, v[i]->summary ? v[i]->summary : "");
    if (v[i]->default_value && *v[i]->default_value)
      fprintf(out, " (default: %s)", v[i]->default_value);
    fprintf(out, "\n");
    for (const char *const *e = v[i]->enum_values; e && *e; e++)
      fprintf(out, "          =%s\n", *e);
  }
  free(v);
}

void nc_pass_registry_print_help(FILE *out)
{
  /* groups in order of first appearance among sorted passes */
  const char *groups[64];
  size_t ng = 0;
  pthread_mutex_lock(&registry_lock);
  for (size_t i = 0; i < n_passes; i++) {
    const char *g = passes[i]->group ? passes[i]->group : "Other";
    bool seen = false;
    for (size_t k = 0; k < ng; k++)
      seen |= !strcmp(groups[k], g);
    if (!seen && ng < 64)
      groups[ng++] = g;
  }
  for (size_t k = 0; k < ng; k++) {
    fprintf(out, "    %s passes:\n", groups[k]);
    for (size_t i = 0; i < n_passes; i++) {
      const nc_pass_def *d = passes[i];
      if (strcmp(d->group ? d->group : "Other", groups[k]))
        continue;
      fprintf(out, "      --%-44s -   %s%s%s%s\n", d->argument, d->summary ? d->summary : "",
              d->anchor ? " (on " : "", d->anchor ? d->anchor : "", d->anchor ? ")" : "");
      print_options(out, d->options, d->n_options);
    }
  }
  if (n_pipelines) {
    fprintf(out, "    Pass pipelines:\n");
    for (size_t i = 0; i < n_pipelines; i++) {
      fprintf(out, "      --%-44s -   %s\n", pipelines[i]->argument,
              pipelines[i]->summary ? pipelines[i]->summary : "");
      print_options(out, pipelines[i]->options, pipelines[i]->n_options);
    }
  }
  pthread_mutex_unlock(&registry_lock);
}

void nc_pass_registry_print_list(FILE *out)
{
  pthread_mutex_lock(&registry_lock);
  for (size_t i = 0; i < n_passes; i++)
    fprintf(out, "%s\n", passes[i]->argument);
  for (size_t i = 0; i < n_pipelines; i++)
    fprintf(out, "%s\n", pipelines[i]->argument);
  pthread_mutex_unlock(&registry_lock);
}

/* --- strings and edit distance ------------------------------------------------------------ */

void nc_str_append(char **buf, size_t *len, size_t *cap, const char *s, size_t n)
{
  if (*len + n + 1 > *cap) {
    *cap = (*len + n + 1) * 2;
    *buf = nc_xrealloc(*buf, *cap);
  }
  memcpy(*buf + *len, s, n);
  *len += n;
  (*buf)[*len] = 0;
}

/* --- option values ----------------------------------------------------------------------------- */

static void opt_error(nc_context *ctx, unsigned src, size_t at, const char *fmt, ...) NC_PRINTF(4, 5);
static void opt_error(nc_context *ctx, unsigned src, size_t at, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  nc_location loc = at == SIZE_MAX ? nc_location_unknown() : nc_location_from_source(src, at);
  nc_diag_emit(nc_diag_createv(ctx, NC_SEV_ERROR, loc, fmt, ap));
  va_end(ap);
}

static void free_val(optval *v)
{
  free(v->text);
  free(v->ints);
  for (size_t i = 0; i < v->n && v->strs; i++)
    free(v->strs[i]);
  free(v->strs);
  memset(v, 0, sizeof *v);
}

static char *dupn(const char *s, size_t n)
{
  char *d = nc_xmalloc(n + 1);
  memcpy(d, s, n);
  d[n] = 0;
  return d;
}

/* Splits a list value on commas outside brackets and quotes. */
static size_t split_list(const char *s, size_t n, const char **parts, size_t *lens, size_t max)
{
  size_t k = 0, start = 0;
  int depth = 0;
  bool quote = false;
  if (!n)
    return 0;
  for (size_t i = 0; i <= n; i++) {
    char c = i < n ? s[i] : ',';
    if (quote) {
      quote = c != '"';
      continue;
    }
    if (c == '"')
      quote = true;
    else if (c == '{' || c == '(' || c == '[')
      depth++;
    else if (c == '}' || c == ')' || c == ']')
      depth--;
    else if (c == ',' && depth == 0) {
      if (k < max) {
        parts[k] = s + start;
        lens[k] = i - start;
      }
      k++;
      start = i + 1;
    }
  }
  return k;
}

static bool unquote(const char **s, size_t *n)
{
  if (*n >= 2 && (((*s)[0] == '"' && (*s)[*n - 1] == '"') || ((*s)[0] == '{' && (*s)[*n - 1] == '}'))) {
    (*s)++;
    *n -= 2;
    return true;
  }
  return false;
}

static bool set_value(nc_context *ctx, const nc_pass_option_def *od, optval *v, const char *s, size_t n, unsigned src,
                      size_t at, const char *owner)
{
  free_val(v);
  const char *raw = s;
  size_t rawn = n;
  switch (od->kind) {
  case NC_PASS_OPT_BOOL:
    if ((n == 4 && !memcmp(s, "true", 4)) || (n == 1 && s[0] == '1'))
      v->b = true;
    else if ((n == 5 && !memcmp(s, "false", 5)) || (n == 1 && s[0] == '0'))
      v->b = false;
    else {
      opt_error(ctx, src, at, "invalid value '%.*s' for option '%s' of '%s' (expected true or false)", (int)n, s,
                od->name, owner);
      return false;
    }
    v->text = nc_xmalloc(6);
    strcpy(v->text, v->b ? "true" : "false");
    return true;
  case NC_PASS_OPT_INT: {
    char *tmp = dupn(s, n), *end;
    errno = 0;
    long long x = strtoll(tmp, &end, 10);
    bool ok = n && *end == 0 && errno == 0;
    free(tmp);
    if (!ok) {
      opt_error(ctx, src, at, "invalid value '%.*s' for option '%s' of '%s' (expected an integer)", (int)n, s, od->name,
                owner);
      return false;
    }
    if ((od->min || od->max) && (x < od->min || x > od->max)) {
      opt_error(ctx, src, at, "invalid value '%.*s' for option '%s' of '%s' (expected an integer from %lld to %lld)",
                (int)n, s, od->name, owner, (long long)od->min, (long long)od->max);
      return false;
    }
    v->i = x;
    v->text = nc_xmalloc(24);
    snprintf(v->text, 24, "%lld", x);
    return true;
  }
  case NC_PASS_OPT_ENUM: {
    for (const char *const *e = od->enum_values; e && *e; e++)
      if (strlen(*e) == n && !memcmp(*e, s, n)) {
        v->text = dupn(s, n);
        return true;
      }
    const char *best = NULL;
    size_t bd = SIZE_MAX;
    for (const char *const *e = od->enum_values; e && *e; e++) {
      size_t d = nc_edit_distance(s, n, *e, strlen(*e));
      if (d < bd) {
        bd = d;
        best = *e;
      }
    }
    if (best && bd <= 3)
      opt_error(ctx, src, at, "invalid value '%.*s' for option '%s' of '%s'; did you mean '%s'?", (int)n, s, od->name,
                owner, best);
    else
      opt_error(ctx, src, at, "invalid value '%.*s' for option '%s' of '%s'", (int)n, s, od->name, owner);
    return false;
  }
  case NC_PASS_OPT_STRING:
  case NC_PASS_OPT_PIPELINE: {
    bool quoted = unquote(&s, &n);
    /* a nested pipeline is checked here, so errors point into the whole text */
    if (od->kind == NC_PASS_OPT_PIPELINE && n) {
      if (at == SIZE_MAX) { /* a default or a value set by code: no text to point into */
        char *copy = dupn(s, n);
        v->text = nc_pipeline_check_elements(ctx, UINT_MAX, copy, 0, n);
        free(copy);
      } else {
        size_t start = at + (quoted ? 1 : 0);
        v->text = nc_pipeline_check_elements(ctx, src, s - start, start, start + n);
      }
      return v->text != NULL;
    }
    v->text = dupn(s, n);
    return true;
  }
  case NC_PASS_OPT_INT_LIST:
  case NC_PASS_OPT_STRING_LIST: {
    unquote(&s, &n);
    size_t k = split_list(s, n, NULL, NULL, 0);
    const char **parts = nc_xmalloc((k + 1) * sizeof *parts);
    size_t *lens = nc_xmalloc((k + 1) * sizeof *lens);
    split_list(s, n, parts, lens, k);
    v->n = k;
    if (od->kind == NC_PASS_OPT_INT_LIST)
      v->ints = nc_xcalloc(k + 1, sizeof *v->ints);
    else
      v->strs = nc_xcalloc(k + 1, sizeof *v->strs);
    bool ok = true;
    for (size_t i = 0; i < k && ok; i++) {
      if (od->kind == NC_PASS_OPT_INT_LIST) {
        char *tmp = dupn(parts[i], lens[i]), *end;
        v->ints[i] = strtoll(tmp, &end, 10);
        ok = lens[i] && *end == 0;
        free(tmp);
        if (!ok)
          opt_error(ctx, src, at, "invalid value '%.*s' in list option '%s' of '%s' (expected integers)", (int)lens[i],
                    parts[i], od->name, owner);
      } else {
        const char *ps = parts[i];
        size_t pl = lens[i];
        unquote(&ps, &pl);
        v->strs[i] = dupn(ps, pl);
      }
    }
    free(parts);
    free(lens);
    if (!ok)
      return false;
    v->text = dupn(raw, rawn);
    return true;
  }
  }
  return false;
}

/* Parses "k=v k2={...} k3" into option values. */
static bool parse_options(nc_context *ctx, nc_pass *p, const nc_pass_option_def *defs, size_t nd, const char *s,
                          size_t n, unsigned src, size_t base, const char *owner)
{
  size_t i = 0;
  while (i < n) {
    while (i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n'))
      i++;
    if (i >= n)
      break;
    size_t kstart = i;
    while (i < n && s[i] != '=' && s[i] != ' ' && s[i] != '\t' && s[i] != '\n')
      i++;
    size_t klen = i - kstart;
    const char *val = NULL;
    size_t vlen = 0, vstart = i;
    if (i < n && s[i] == '=') {
      i++;
      vstart = i;
      int depth = 0;
      bool quote = false;
      while (i < n) {
        char c = s[i];
        if (quote) {
          quote = c != '"';
        } else if (c == '"') {
          quote = true;
        } else if (c == '{' || c == '(' || c == '[') {
          depth++;
        } else if (c == '}' || c == ')' || c == ']') {
          depth--;
        } else if ((c == ' ' || c == '\t' || c == '\n') && depth <= 0) {
          break;
        }
        i++;
      }
      val = s + vstart;
      vlen = i - vstart;
    }
    size_t k;
    for (k = 0; k < nd; k++)
      if (strlen(defs[k].name) == klen && !memcmp(defs[k].name, s + kstart, klen))
        break;
    size_t at = base == SIZE_MAX ? SIZE_MAX : base + kstart;
    if (k == nd) {
      const char *best = NULL;
      size_t bd = SIZE_MAX;
      for (size_t j = 0; j < nd; j++) {
        size_t d = nc_edit_distance(s + kstart, klen, defs[j].name, strlen(defs[j].name));
        if (d < bd) {
          bd = d;
          best = defs[j].name;
        }
      }
      if (best && bd <= 3 && bd < klen)
        opt_error(ctx, src, at, "no such option '%.*s' for '%s'; did you mean '%s'?", (int)klen, s + kstart, owner, best);
      else
        opt_error(ctx, src, at, "no such option '%.*s' for '%s'", (int)klen, s + kstart, owner);
      return false;
    }
    if (!val) {
      if (defs[k].kind != NC_PASS_OPT_BOOL) {
        opt_error(ctx, src, at, "option '%s' of '%s' needs a value ('%s=...')", defs[k].name, owner, defs[k].name);
        return false;
      }
      val = "true";
      vlen = 4;
    }
    if (!set_value(ctx, &defs[k], &p->values[k], val, vlen, src, base == SIZE_MAX ? SIZE_MAX : base + vstart, owner))
      return false;
  }
  return true;
}

/* A pass (or a named pipeline's option holder) with its options at their defaults. */
static nc_pass *pass_alloc(nc_context *ctx, const nc_pass_def *def, const nc_pipeline_def *pipe, unsigned src)
{
  nc_pass *p = nc_xcalloc(1, sizeof *p);
  p->def = def;
  p->pipe = pipe;
  p->ctx = ctx;
  const nc_pass_option_def *defs = def ? def->options : pipe->options;
  size_t nd = def ? def->n_options : pipe->n_options;
  const char *owner = def ? def->argument : pipe->argument;
  p->values = nc_xcalloc(nd + 1, sizeof *p->values);
  if (def && def->n_stats)
    p->stats = nc_xcalloc(def->n_stats, sizeof *p->stats);
  if (def && def->n_timers)
    p->timers = nc_xcalloc(def->n_timers, sizeof *p->timers);
  for (size_t k = 0; k < nd; k++) {
    const char *dv = defs[k].default_value ? defs[k].default_value : "";
    if (!set_value(ctx, &defs[k], &p->values[k], dv, strlen(dv), src, SIZE_MAX, owner))
      NC_UNREACHABLE("invalid default value in a pass definition");
  }
  return p;
}

bool nc_pass_initialize(nc_context *ctx, nc_pass *p, unsigned src, size_t base)
{
  size_t errors = nc_diag_thread_errors();
  if (p->def && p->def->initialize && !p->def->initialize(p, ctx)) {
    if (nc_diag_thread_errors() == errors)
      opt_error(ctx, src, base, "pass '%s' cannot run with these options", p->def->argument);
    return false;
  }
  p->pending = false;
  return true;
}

nc_pass *nc_pass_create(nc_context *ctx, const nc_pass_def *def, const nc_pipeline_def *pipe, const char *opts,
                        size_t opts_len, unsigned src, size_t base)
{
  nc_pass *p = pass_alloc(ctx, def, pipe, src);
  const nc_pass_option_def *defs = def ? def->options : pipe->options;
  size_t nd = def ? def->n_options : pipe->n_options;
  const char *owner = def ? def->argument : pipe->argument;
  if ((opts && !parse_options(ctx, p, defs, nd, opts, opts_len, src, base, owner)) ||
      !nc_pass_initialize(ctx, p, src, base == SIZE_MAX ? SIZE_MAX : base)) {
    nc_pass_destroy(p);
    return NULL;
  }
  return p;
}

nc_pass *nc_pass_create_named(nc_context *ctx, const char *argument)
{
  const nc_pass_def *def = nc_pass_lookup(argument, strlen(argument));
  if (!def) {
    nc_emit_error(ctx, nc_location_unknown(), "'%s' does not refer to a registered pass", argument);
    return NULL;
  }
  nc_pass *p = pass_alloc(ctx, def, NULL, 0);
  p->pending = true;
  return p;
}

bool nc_pass_set_option(nc_pass *p, const char *name, const char *value)
{
  const nc_pass_option_def *defs = p->def->options;
  size_t k, nd = p->def->n_options;
  for (k = 0; k < nd && strcmp(defs[k].name, name); k++)
    ;
  if (k == nd) {
    nc_emit_error(p->ctx, nc_location_unknown(), "no such option '%s' for '%s'", name, p->def->argument);
    return false;
  }
  if (!p->pending) {
    nc_emit_error(p->ctx, nc_location_unknown(), "option '%s' of '%s' set after the pass was added", name,
                  p->def->argument);
    return false;
  }
  if (defs[k].kind == NC_PASS_OPT_STRING) { /* the value as given: nothing to unquote, nothing to escape */
    free_val(&p->values[k]);
    p->values[k].text = dupn(value, strlen(value));
    return true;
  }
  return set_value(p->ctx, &defs[k], &p->values[k], value, strlen(value), 0, SIZE_MAX, p->def->argument);
}

bool nc_pass_set_option_bool(nc_pass *p, const char *name, bool value)
{
  return nc_pass_set_option(p, name, value ? "true" : "false");
}

bool nc_pass_set_option_int(nc_pass *p, const char *name, int64_t value)
{
  char text[24]; /* INT64_MIN takes 20 */
  snprintf(text, sizeof text, "%lld", (long long)value);
  return nc_pass_set_option(p, name, text);
}

void nc_pass_destroy(nc_pass *p)
{
  if (!p)
    return;
  size_t nd = p->def ? p->def->n_options : p->pipe->n_options;
  for (size_t k = 0; k < nd; k++)
    free_val(&p->values[k]);
  free(p->values);
  free(p->stats);
  free(p->clock.slot_ns);
  for (size_t t = 0; p->def && t < p->def->n_timers; t++)
    free(p->timers[t].slot_ns);
  free(p->timers);
  if (p->free_state)
    p->free_state(p->state);
  free(p);
}

static const optval *find(const nc_pass *p, const char *name, nc_pass_option_kind *kind)
{
  const nc_pass_option_def *defs = p->def ? p->def->options : p->pipe->options;
  size_t nd = p->def ? p->def->n_options : p->pipe->n_options;
  for (size_t k = 0; k < nd; k++)
    if (!strcmp(defs[k].name, name)) {
      if (kind)
        *kind = defs[k].kind;
      return &p->values[k];
    }
  NC_UNREACHABLE("a pass asked for an option it does not declare");
}

const nc_pass_def *nc_pass_get_def(const nc_pass *p) { return p->def; }
bool nc_pass_get_option_bool(const nc_pass *p, const char *name) { return find(p, name, NULL)->b; }
int64_t nc_pass_get_option_int(const nc_pass *p, const char *name) { return find(p, name, NULL)->i; }
const char *nc_pass_get_option_string(const nc_pass *p, const char *name) { return find(p, name, NULL)->text; }
size_t nc_pass_get_option_list_size(const nc_pass *p, const char *name) { return find(p, name, NULL)->n; }
int64_t nc_pass_get_option_list_int(const nc_pass *p, const char *name, size_t i) { return find(p, name, NULL)->ints[i]; }
const char *nc_pass_get_option_list_string(const nc_pass *p, const char *name, size_t i)
{
  return find(p, name, NULL)->strs[i];
}

void nc_pass_stat_add(nc_pass *p, size_t i, uint64_t n) { atomic_fetch_add(&p->stats[i], n); }
uint64_t nc_pass_stat_get(const nc_pass *p, size_t i) { return atomic_load(&((nc_pass *)p)->stats[i]); }

void nc_pass_timer_add(nc_pass *p, size_t i, double seconds)
{
  if (i < p->def->n_timers && seconds > 0)
    nc_clock_add(&p->timers[i], (uint64_t)(seconds * 1e9));
}

void nc_pass_set_state(nc_pass *p, void *state, void (*free_state)(void *))
{
  p->state = state;
  p->free_state = free_state;
}

void *nc_pass_get_state(const nc_pass *p) { return p->state; }

static int cmp_idx(const void *a, const void *b, void *ctx);

void nc_pass_options_to_string(const nc_pass *p, char **buf, size_t *len, size_t *cap)
{
  const nc_pass_option_def *defs = p->def ? p->def->options : p->pipe->options;
  size_t nd = p->def ? p->def->n_options : p->pipe->n_options;
  if (!nd)
    return;
  /* options print sorted by name, like mlir-opt; empty lists are omitted */
  size_t *order = nc_xmalloc(nd * sizeof *order);
  for (size_t k = 0; k < nd; k++)
    order[k] = k;
  qsort_r(order, nd, sizeof *order, cmp_idx, (void *)defs);
  bool first = true;
  for (size_t j = 0; j < nd; j++) {
    size_t k = order[j];
    const optval *v = &p->values[k];
    bool is_list = defs[k].kind == NC_PASS_OPT_INT_LIST || defs[k].kind == NC_PASS_OPT_STRING_LIST;
    if (is_list && v->n == 0)
      continue;
    nc_str_append(buf, len, cap, first ? "{" : " ", 1);
    first = false;
    nc_str_append(buf, len, cap, defs[k].name, strlen(defs[k].name));
    nc_str_append(buf, len, cap, "=", 1);
    bool needs_quote = defs[k].kind == NC_PASS_OPT_PIPELINE ||
                       (defs[k].kind == NC_PASS_OPT_STRING && (strpbrk(v->text, " \t{}") || !*v->text));
    if (needs_quote)
      nc_str_append(buf, len, cap, "{", 1);
    nc_str_append(buf, len, cap, v->text, strlen(v->text));
    if (needs_quote)
      nc_str_append(buf, len, cap, "}", 1);
  }
  if (!first)
    nc_str_append(buf, len, cap, "}", 1);
  free(order);
}

static int cmp_idx(const void *a, const void *b, void *ctx)
{
  const nc_pass_option_def *defs = ctx;
  return strcmp(defs[*(const size_t *)a].name, defs[*(const size_t *)b].name);
}
