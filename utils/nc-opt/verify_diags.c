/* verify_diags.c: `expected-error@+1 {{...}}` checking, as mlir-opt does it.
 *
 * Syntax, as MLIR's regex reads it: `expected-(error|warning|note|remark)(-re)?
 * *(@above|@below|@+N|@-N|@unknown)? *{{text}}`; @unknown expects a diagnostic
 * with no location in this file (line 0 below); without -re the text must be a substring of the message; with
 * -re, `{{...}}` parts inside the text are POSIX extended regexes and the rest
 * is literal.
 */
#include "verify_diags.h"

#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct expectation {
  nc_severity sev;
  unsigned line;
  char *text;
  bool is_regex;
  regex_t re;
  bool matched;
  size_t offset; /* where the expectation is written, for its diagnostic */
} expectation;

struct nc_diag_verifier {
  nc_context *ctx;
  unsigned source;
  unsigned handler;
  expectation *ex;
  size_t n, cap;
  bool ok;
};

static const struct { const char *name; nc_severity sev; } kinds[] = {
  {"error", NC_SEV_ERROR}, {"warning", NC_SEV_WARNING}, {"note", NC_SEV_NOTE}, {"remark", NC_SEV_REMARK}};

static const char *sev_name(nc_severity s)
{
  for (size_t i = 0; i < NC_COUNTOF(kinds); i++)
    if (kinds[i].sev == s)
      return kinds[i].name;
  return "?";
}

/* Builds an extended regex from `text` whose {{...}} parts are regexes. */
static char *to_regex(const char *text)
{
  size_t n = strlen(text);
  char *out = nc_xmalloc(2 * n + 3), *o = out;
  for (const char *s = text; *s;) {
    if (s[0] == '{' && s[1] == '{') {
      const char *e = strstr(s + 2, "}}");
      if (!e)
        e = s + strlen(s);
      *o++ = '(';
      memcpy(o, s + 2, (size_t)(e - s - 2));
      o += e - s - 2;
      *o++ = ')';
      s = *e ? e + 2 : e;
      continue;
    }
    if (strchr(".[]()*+?{}|^$\\", *s))
      *o++ = '\\';
    *o++ = *s++;
  }
  *o = 0;
  return out;
}

static bool handler(const nc_diag *d, void *user);

nc_diag_verifier *nc_diag_verifier_create(nc_context *ctx, unsigned id, size_t start, size_t end)
{
  nc_diag_verifier *v = nc_xcalloc(1, sizeof *v);
  v->ctx = ctx;
  v->source = id;
  v->ok = true;
  size_t len;
  const char *src = nc_context_get_source(ctx, id, &len);
  const char *p = src + start, *e = src + (end < len ? end : len);
  while ((p = memmem(p, (size_t)(e - p), "expected-", 9))) {
    const char *at = p;
    p += 9;
    nc_severity sev = NC_SEV_ERROR;
    size_t k;
    for (k = 0; k < NC_COUNTOF(kinds); k++) {
      size_t kl = strlen(kinds[k].name);
      if ((size_t)(e - p) >= kl && !memcmp(p, kinds[k].name, kl)) {
        sev = kinds[k].sev;
        p += kl;
        break;
      }
    }
    if (k == NC_COUNTOF(kinds))
      continue;
    bool re = false;
    if (e - p >= 3 && !memcmp(p, "-re", 3)) {
      re = true;
      p += 3;
    }
    unsigned line, col;
    nc_context_get_line_col(ctx, id, (size_t)(at - src), &line, &col);
    while (p < e && *p == ' ')
      p++;
    if (p < e && *p == '@') {
      p++;
      if (e - p >= 7 && !memcmp(p, "unknown", 7)) {
        line = 0;
        p += 7;
      } else if (e - p >= 5 && !memcmp(p, "above", 5)) {
        line--;
        p += 5;
      } else if (e - p >= 5 && !memcmp(p, "below", 5)) {
        line++;
        p += 5;
      } else if (p < e && (*p == '+' || *p == '-')) {
        char sign = *p++;
        long off = strtol(p, (char **)&p, 10);
        line = sign == '+' ? line + (unsigned)off : line - (unsigned)off;
      }
    }
    while (p < e && (*p == ' ' || *p == '\t'))
      p++;
    if (e - p < 2 || p[0] != '{' || p[1] != '{')
      continue; /* prose that mentions expected-error, as MLIR reads it */
    /* the text runs to the last }} on the line */
    const char *nl = memchr(p, '\n', (size_t)(e - p));
    if (!nl)
      nl = e;
    const char *close = NULL;
    for (const char *q = p + 2; q + 1 < nl; q++)
      if (q[0] == '}' && q[1] == '}')
        close = q;
    if (!close) {
      nc_emit_error(ctx, nc_location_from_source(id, (size_t)(at - src)), "expected }} to end expected-%s", sev_name(sev));
      v->ok = false;
      continue;
    }
    if (v->n == v->cap) {
      v->cap = v->cap ? v->cap * 2 : 16;
      v->ex = nc_xrealloc(v->ex, v->cap * sizeof *v->ex);
    }
    expectation *x = &v->ex[v->n];
    memset(x, 0, sizeof *x);
    x->sev = sev;
    x->line = line;
    x->offset = (size_t)(at - src);
    x->text = nc_xmalloc((size_t)(close - p - 2) + 1);
    memcpy(x->text, p + 2, (size_t)(close - p - 2));
    x->text[close - p - 2] = 0;
    if (re) {
      char *pattern = to_regex(x->text);
      int rc = regcomp(&x->re, pattern, REG_EXTENDED | REG_NOSUB);
      free(pattern);
      if (rc) {
        nc_emit_error(ctx, nc_location_from_source(id, x->offset), "invalid regex in expected-%s-re", sev_name(sev));
        free(x->text);
        v->ok = false;
        continue;
      }
      x->is_regex = true;
    }
    v->n++;
    p = close + 2;
  }
  if (!v->ok) {
    for (size_t i = 0; i < v->n; i++) {
      if (v->ex[i].is_regex)
        regfree(&v->ex[i].re);
      free(v->ex[i].text);
    }
    free(v->ex);
    free(v);
    return NULL;
  }
  v->handler = nc_context_push_diag_handler(ctx, handler, v);
  return v;
}

static bool matches(const expectation *x, const char *msg)
{
  return x->is_regex ? regexec(&x->re, msg, 0, NULL, 0) == 0 : strstr(msg, x->text) != NULL;
}

static void check_one(nc_diag_verifier *v, const nc_diag *d)
{
  nc_ident *file;
  unsigned line = 0, col;
  nc_location loc = nc_diag_get_loc(d);
  bool in_file = nc_location_get_file_line_col(v->ctx, loc, &file, &line, &col) &&
                 file == nc_context_get_source_name(v->ctx, v->source);
  if (!in_file)
    line = 0; /* matched by @unknown expectations */
  for (size_t i = 0; i < v->n; i++) {
    expectation *x = &v->ex[i];
    if (!x->matched && x->sev == nc_diag_get_severity(d) && x->line == line && matches(x, nc_diag_get_message(d))) {
      x->matched = true;
      return;
    }
  }
  v->ok = false;
  nc_diag *u = nc_diag_create(v->ctx, NC_SEV_ERROR, loc, "unexpected %s: %s", sev_name(nc_diag_get_severity(d)),
                              nc_diag_get_message(d));
  nc_diag_print(u, v->ctx, stderr);
  nc_diag_destroy(u);
}

static bool handler(const nc_diag *d, void *user)
{
  nc_diag_verifier *v = user;
  check_one(v, d);
  for (size_t i = 0; i < nc_diag_get_num_notes(d); i++)
    check_one(v, nc_diag_get_note(d, i));
  return true;
}

bool nc_diag_verifier_finish(nc_diag_verifier *v)
{
  nc_context_pop_diag_handler(v->ctx, v->handler);
  bool ok = v->ok;
  for (size_t i = 0; i < v->n; i++) {
    expectation *x = &v->ex[i];
    if (!x->matched) {
      ok = false;
      nc_diag *d = nc_diag_create(v->ctx, NC_SEV_ERROR, nc_location_from_source(v->source, x->offset),
                                  "expected %s \"%s\" was not produced", sev_name(x->sev), x->text);
      nc_diag_print(d, v->ctx, stderr);
      nc_diag_destroy(d);
    }
    if (x->is_regex)
      regfree(&x->re);
    free(x->text);
  }
  free(v->ex);
  free(v);
  return ok;
}
