/* pass_pipeline.c: MLIR's textual pass pipeline language, parsed into pass
 * managers and printed back.
 *
 *   pipeline := anchor '(' elements ')'
 *   elements := element (',' element)*
 *   element  := name ('{' options '}')? ('(' elements ')')?
 *
 * An element with a parenthesised body is a nested pass manager anchored on
 * the op `name`; otherwise it is a pass or a named pipeline. Errors point at
 * the offending character of the whole pipeline string and suggest the
 * closest registered name.
 */
#include "pass_internal.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

nc_pass_manager *nc_pass_manager_create(nc_context *ctx, const char *anchor)
{
  nc_pass_manager *pm = nc_xcalloc(1, sizeof *pm);
  pm->ctx = ctx;
  size_t n = strlen(anchor);
  pm->anchor = nc_xmalloc(n + 1);
  memcpy(pm->anchor, anchor, n + 1);
  pm->anchor_id = strcmp(anchor, "any") ? nc_ident_get_cstr(ctx, anchor) : NULL;
  return pm;
}

void nc_pass_manager_destroy(nc_pass_manager *pm)
{
  if (!pm)
    return;
  for (size_t i = 0; i < pm->n; i++) {
    nc_pass_destroy(pm->entries[i].pass);
    nc_pass_manager_destroy(pm->entries[i].nested);
  }
  free(pm->entries);
  free(pm->anchor);
  free(pm->clock.slot_ns);
  free(pm);
}

const char *nc_pass_manager_get_anchor(const nc_pass_manager *pm) { return pm->anchor; }

static pm_entry *push_entry(nc_pass_manager *pm)
{
  if (pm->n == pm->cap) {
    pm->cap = pm->cap ? pm->cap * 2 : 8;
    pm->entries = nc_xrealloc(pm->entries, pm->cap * sizeof *pm->entries);
  }
  pm_entry *e = &pm->entries[pm->n++];
  memset(e, 0, sizeof *e);
  return e;
}

nc_pass_manager *nc_pass_manager_nest(nc_pass_manager *pm, const char *anchor)
{
  nc_pass_manager *n = nc_pass_manager_create(pm->ctx, anchor);
  n->parent = pm;
  push_entry(pm)->nested = n;
  return n;
}

size_t nc_pass_manager_size(const nc_pass_manager *pm)
{
  size_t n = 0;
  for (size_t i = 0; i < pm->n; i++)
    n += pm->entries[i].pass ? 1 : nc_pass_manager_size(pm->entries[i].nested);
  return n;
}

size_t nc_pass_manager_get_num_entries(const nc_pass_manager *pm) { return pm->n; }

typedef struct pparser {
  nc_context *ctx;
  const char *s;
  size_t n, i;
  unsigned src;
  bool has_src;
} pparser;

static nc_location ploc(pparser *p, size_t at)
{
  return p->has_src ? nc_location_from_source(p->src, at) : nc_location_unknown();
}

static bool perror_at(pparser *p, size_t at, const char *fmt, ...) NC_PRINTF(3, 4);
static bool perror_at(pparser *p, size_t at, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  nc_diag_emit(nc_diag_createv(p->ctx, NC_SEV_ERROR, ploc(p, at), fmt, ap));
  va_end(ap);
  return false;
}

static void skip_ws(pparser *p)
{
  while (p->i < p->n && (p->s[p->i] == ' ' || p->s[p->i] == '\t' || p->s[p->i] == '\n' || p->s[p->i] == '\r'))
    p->i++;
}

static bool name_char(char c)
{
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-' ||
         c == '.' || c == '$';
}

/* The registered pass/pipeline name closest to `s`, if close enough. */
static const char *suggest(const char *s, size_t n)
{
  const char *best = NULL;
  size_t bd = SIZE_MAX;
  for (size_t i = 0; i < nc_pass_registry_size(); i++) {
    const char *a = nc_pass_registry_get(i)->argument;
    size_t d = nc_edit_distance(s, n, a, strlen(a));
    if (d < bd) {
      bd = d;
      best = a;
    }
  }
  for (size_t i = 0; i < nc_pipeline_registry_size(); i++) {
    const char *a = nc_pipeline_registry_get(i)->argument;
    size_t d = nc_edit_distance(s, n, a, strlen(a));
    if (d < bd) {
      bd = d;
      best = a;
    }
  }
  return best && bd <= (n < 6 ? 2 : 3) && bd < n ? best : NULL;
}

/* Finds the bracket that closes the one at `open`, skipping quoted strings.
 * On a mismatch, points at the innermost bracket left open. */
static bool find_close(pparser *p, size_t open, size_t *close)
{
  size_t stack[256];
  size_t depth = 0;
  bool quote = false;
  for (size_t i = open; i < p->n; i++) {
    char c = p->s[i];
    if (quote) {
      quote = c != '"';
      continue;
    }
    if (c == '"') {
      quote = true;
    } else if (c == '(' || c == '{' || c == '[') {
      if (depth == NC_COUNTOF(stack))
        return perror_at(p, i, "pass pipeline nested too deeply");
      stack[depth++] = i;
    } else if (c == ')' || c == '}' || c == ']') {
      if (!depth)
        break;
      char o = p->s[stack[depth - 1]];
      if ((o == '(' && c != ')') || (o == '{' && c != '}') || (o == '[' && c != ']'))
        return perror_at(p, stack[depth - 1], "encountered unbalanced parentheses while parsing pipeline");
      if (--depth == 0) {
        *close = i;
        return true;
      }
    }
  }
  return perror_at(p, depth ? stack[depth - 1] : open, "encountered unbalanced parentheses while parsing pipeline");
}

static bool parse_elements(pparser *p, nc_pass_manager *pm);

/* Brackets must balance within [start, end). */
static bool check_brackets(pparser *p, size_t start, size_t end)
{
  size_t saved = p->n;
  p->n = end;
  bool quote = false;
  for (size_t i = start; i < end; i++) {
    char c = p->s[i];
    if (quote) {
      quote = c != '"';
    } else if (c == '"') {
      quote = true;
    } else if (c == '(' || c == '{' || c == '[') {
      size_t close;
      if (!find_close(p, i, &close)) {
        p->n = saved;
        return false;
      }
      i = close;
    } else if (c == ')' || c == '}' || c == ']') {
      p->n = saved;
      return perror_at(p, i, "encountered unbalanced parentheses while parsing pipeline");
    }
  }
  p->n = saved;
  return true;
}

static bool add_pass_checked(pparser *p, nc_pass_manager *pm, const nc_pass_def *def, size_t name_at, size_t oa,
                             size_t ol, bool has_opts)
{
  if (def->anchor && strcmp(def->anchor, pm->anchor))
    return perror_at(p, name_at,
                     "'%s' runs on '%s' ops and cannot be scheduled on '%s'; nest it, e.g. '%s(%s)'",
                     def->argument, def->anchor, pm->anchor, def->anchor, def->argument);
  nc_pass *ps = nc_pass_create(p->ctx, def, NULL, has_opts ? p->s + oa : NULL, ol, p->src, p->has_src ? oa : SIZE_MAX);
  if (!ps)
    return false;
  push_entry(pm)->pass = ps;
  return true;
}

static bool parse_element(pparser *p, nc_pass_manager *pm)
{
  skip_ws(p);
  size_t start = p->i;
  while (p->i < p->n && name_char(p->s[p->i]))
    p->i++;
  size_t nlen = p->i - start;
  if (!nlen) {
    if (p->i < p->n && (p->s[p->i] == ')' || p->s[p->i] == '}'))
      return perror_at(p, p->i, "encountered unbalanced parentheses while parsing pipeline");
    return perror_at(p, p->i, "expected pass or pipeline name");
  }
  const char *name = p->s + start;
  skip_ws(p);
  size_t oa = 0, ol = 0;
  bool has_opts = false;
  if (p->i < p->n && p->s[p->i] == '{') {
    size_t close;
    if (!find_close(p, p->i, &close))
      return false;
    oa = p->i + 1;
    ol = close - oa;
    has_opts = true;
    p->i = close + 1;
    skip_ws(p);
  }
  if (p->i < p->n && p->s[p->i] == '(') {
    if (has_opts)
      return perror_at(p, oa - 1, "options are not allowed on an op anchor");
    size_t close;
    if (!find_close(p, p->i, &close))
      return false;
    char *anchor = nc_xmalloc(nlen + 1);
    memcpy(anchor, name, nlen);
    anchor[nlen] = 0;
    nc_pass_manager *nested = nc_pass_manager_nest(pm, anchor);
    free(anchor);
    size_t save_n = p->n;
    p->i++;
    p->n = close;
    bool ok = parse_elements(p, nested);
    p->n = save_n;
    p->i = close + 1;
    return ok;
  }
  const nc_pass_def *def = nc_pass_lookup(name, nlen);
  if (def)
    return add_pass_checked(p, pm, def, start, oa, ol, has_opts);
  const nc_pipeline_def *pipe = nc_pipeline_lookup(name, nlen);
  if (pipe) {
    nc_pass *holder = nc_pass_create(p->ctx, NULL, pipe, has_opts ? p->s + oa : NULL, ol, p->src,
                                     p->has_src ? oa : SIZE_MAX);
    if (!holder)
      return false;
    size_t errors_before = nc_diag_thread_errors();
    bool ok = pipe->build(pm, holder, pipe->userData);
    nc_pass_destroy(holder);
    if (!ok && nc_diag_thread_errors() > errors_before)
      return false; /* the builder said why (e.g. a chip description at file:line:col): one error is enough */
    if (!ok)
      return perror_at(p, start, "failed to build pipeline '%s'", pipe->argument);
    return true;
  }
  const char *hint = suggest(name, nlen);
  if (hint)
    return perror_at(p, start, "'%.*s' does not refer to a registered pass or pass pipeline; did you mean '%s'?",
                     (int)nlen, name, hint);
  return perror_at(p, start, "'%.*s' does not refer to a registered pass or pass pipeline", (int)nlen, name);
}

static bool parse_elements(pparser *p, nc_pass_manager *pm)
{
  skip_ws(p);
  if (p->i >= p->n)
    return true; /* empty pipeline: `builtin.module()` */
  for (;;) {
    if (!parse_element(p, pm))
      return false;
    skip_ws(p);
    if (p->i >= p->n)
      return true;
    if (p->s[p->i] != ',')
      return perror_at(p, p->i, "expected ',' or ')' in pass pipeline");
    p->i++;
  }
}

/* Parses the anchored top level; returns the anchor name span. */
static bool parse_top(pparser *p, size_t *astart, size_t *alen, size_t *open, size_t *close)
{
  skip_ws(p);
  *astart = p->i;
  while (p->i < p->n && name_char(p->s[p->i]))
    p->i++;
  *alen = p->i - *astart;
  skip_ws(p);
  if (!*alen || p->i >= p->n || p->s[p->i] != '(')
    return perror_at(p, *astart, "expected pass pipeline to be wrapped with the anchor operation type, e.g. "
                                 "'builtin.module(...)'");
  *open = p->i;
  if (!find_close(p, p->i, close))
    return false;
  size_t j = *close + 1;
  while (j < p->n && (p->s[j] == ' ' || p->s[j] == '\n' || p->s[j] == '\t'))
    j++;
  if (j < p->n)
    return perror_at(p, j, "unexpected text after the pass pipeline");
  return true;
}

static bool parse_into(nc_context *ctx, nc_pass_manager *pm, nc_pass_manager **created, const char *text)
{
  size_t len = strlen(text);
  char *copy = nc_xmalloc(len + 1);
  memcpy(copy, text, len + 1);
  unsigned src = nc_context_add_source_owned(ctx, "<pass-pipeline>", copy, len);
  pparser p = {ctx, copy, len, 0, src, true};
  size_t as = 0, al = 0, open = 0, close = 0;
  if (!parse_top(&p, &as, &al, &open, &close))
    return false;
  char *anchor = nc_xmalloc(al + 1);
  memcpy(anchor, copy + as, al);
  anchor[al] = 0;
  if (created) {
    pm = *created = nc_pass_manager_create(ctx, anchor);
  } else if (strcmp(anchor, pm->anchor)) {
    perror_at(&p, as, "pipeline anchored on '%s' cannot run on '%s'", anchor, pm->anchor);
    free(anchor);
    return false;
  }
  free(anchor);
  p.i = open + 1;
  p.n = close;
  bool ok = parse_elements(&p, pm);
  if (!ok && created) {
    nc_pass_manager_destroy(*created);
    *created = NULL;
  }
  return ok;
}

char *nc_pipeline_check_elements(nc_context *ctx, unsigned src, const char *text, size_t start, size_t end)
{
  pparser p = {ctx, text, end, start, src, src != UINT_MAX};
  nc_pass_manager *pm = nc_pass_manager_create(ctx, "any");
  char *norm = NULL;
  if (check_brackets(&p, start, end) && parse_elements(&p, pm)) {
    /* "any(elements)" -> "elements" */
    norm = nc_pass_manager_to_string(pm);
    size_t n = strlen(norm);
    memmove(norm, norm + 4, n - 5);
    norm[n - 5] = 0;
  }
  nc_pass_manager_destroy(pm);
  return norm;
}

bool nc_pass_manager_add_passes(nc_pass_manager *pm, const char *elements)
{
  size_t len = strlen(elements);
  char *copy = nc_xmalloc(len + 1);
  memcpy(copy, elements, len + 1);
  /* not "<pass-pipeline>": diagnostics find their source line by name */
  unsigned src = nc_context_add_source_owned(pm->ctx, "<named-pipeline>", copy, len);
  pparser p = {pm->ctx, copy, len, 0, src, true};
  return check_brackets(&p, 0, len) && parse_elements(&p, pm);
}

bool nc_pass_manager_parse_pipeline(nc_pass_manager *pm, const char *text)
{
  return parse_into(pm->ctx, pm, NULL, text);
}

nc_pass_manager *nc_pass_pipeline_parse(nc_context *ctx, const char *text)
{
  nc_pass_manager *pm = NULL;
  parse_into(ctx, NULL, &pm, text);
  return pm;
}

bool nc_pass_manager_add_pass(nc_pass_manager *pm, const char *argument, const char *options)
{
  pparser p = {pm->ctx, options ? options : "", options ? strlen(options) : 0, 0, 0, false};
  const nc_pass_def *def = nc_pass_lookup(argument, strlen(argument));
  if (def)
    return add_pass_checked(&p, pm, def, 0, 0, p.n, options != NULL);
  const nc_pipeline_def *pipe = nc_pipeline_lookup(argument, strlen(argument));
  if (pipe) {
    nc_pass *holder = nc_pass_create(pm->ctx, NULL, pipe, options, p.n, 0, SIZE_MAX);
    if (!holder)
      return false;
    bool ok = pipe->build(pm, holder, pipe->userData);
    nc_pass_destroy(holder);
    return ok;
  }
  const char *hint = suggest(argument, strlen(argument));
  nc_emit_error(pm->ctx, nc_location_unknown(), "'%s' does not refer to a registered pass or pass pipeline%s%s%s",
                argument, hint ? "; did you mean '" : "", hint ? hint : "", hint ? "'?" : "");
  return false;
}

bool nc_pass_manager_add_owned_pass(nc_pass_manager *pm, nc_pass *pass)
{
  const nc_pass_def *def = pass->def;
  bool ok = pass->pending;
  if (!ok)
    nc_emit_error(pm->ctx, nc_location_unknown(), "pass '%s' was added to a pass manager already", def->argument);
  else if ((ok = !def->anchor || !strcmp(def->anchor, pm->anchor)) == false)
    nc_emit_error(pm->ctx, nc_location_unknown(),
                  "'%s' runs on '%s' ops and cannot be scheduled on '%s'; nest it, e.g. '%s(%s)'", def->argument,
                  def->anchor, pm->anchor, def->anchor, def->argument);
  if (!ok || !nc_pass_initialize(pm->ctx, pass, 0, SIZE_MAX)) {
    if (pass->pending) /* a pass already in a pass manager belongs to it */
      nc_pass_destroy(pass);
    return false;
  }
  push_entry(pm)->pass = pass;
  return true;
}

static void to_string(const nc_pass_manager *pm, char **buf, size_t *len, size_t *cap)
{
  nc_str_append(buf, len, cap, pm->anchor, strlen(pm->anchor));
  nc_str_append(buf, len, cap, "(", 1);
  for (size_t i = 0; i < pm->n; i++) {
    if (i)
      nc_str_append(buf, len, cap, ",", 1);
    const pm_entry *e = &pm->entries[i];
    if (e->pass) {
      nc_str_append(buf, len, cap, e->pass->def->argument, strlen(e->pass->def->argument));
      nc_pass_options_to_string(e->pass, buf, len, cap);
    } else {
      to_string(e->nested, buf, len, cap);
    }
  }
  nc_str_append(buf, len, cap, ")", 1);
}

char *nc_pass_manager_to_string(const nc_pass_manager *pm)
{
  char *buf = NULL;
  size_t len = 0, cap = 0;
  nc_str_append(&buf, &len, &cap, "", 0);
  to_string(pm, &buf, &len, &cap);
  return buf;
}

nc_context *nc_pass_manager_get_context(const nc_pass_manager *pm) { return pm->ctx; }
