/* diag.c: the diagnostics engine (see nc/ir/diag.h).
 *
 * Diagnostics go to the innermost handler that accepts them, or else to the
 * default printer. A thread may install a capture instead, which the pass
 * manager uses to replay diagnostics of parallel work in a fixed order.
 */
#include "ir-internal.h"

#include <stdlib.h>
#include <string.h>

struct nc_diag {
  nc_context *ctx;
  nc_severity sev;
  nc_location loc;
  char *msg;
  size_t len;
  nc_diag **notes;
  size_t n_notes;
};

struct nc_diag_capture {
  nc_diag **diags;
  size_t n, cap, n_errors;
  nc_diag_capture *outer;
};

static _Thread_local nc_diag_capture *tl_capture;
static _Thread_local size_t tl_errors; /* errors emitted by this thread */

size_t nc_diag_thread_errors(void);
size_t nc_diag_thread_errors(void) { return tl_errors; }

static void vappend(nc_diag *d, const char *fmt, va_list ap)
{
  va_list ap2;
  va_copy(ap2, ap);
  int n = vsnprintf(NULL, 0, fmt, ap2);
  va_end(ap2);
  if (n < 0)
    return;
  d->msg = nc_xrealloc(d->msg, d->len + (size_t)n + 1);
  vsnprintf(d->msg + d->len, (size_t)n + 1, fmt, ap);
  d->len += (size_t)n;
}

nc_diag *nc_diag_createv(nc_context *ctx, nc_severity sev, nc_location loc, const char *fmt, va_list ap)
{
  nc_diag *d = nc_xcalloc(1, sizeof *d);
  d->ctx = ctx;
  d->sev = sev;
  d->loc = loc;
  d->msg = nc_xmalloc(1);
  d->msg[0] = 0;
  vappend(d, fmt, ap);
  return d;
}

nc_diag *nc_diag_create(nc_context *ctx, nc_severity sev, nc_location loc, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  nc_diag *d = nc_diag_createv(ctx, sev, loc, fmt, ap);
  va_end(ap);
  return d;
}

void nc_diag_append(nc_diag *d, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  vappend(d, fmt, ap);
  va_end(ap);
}

void nc_diag_attach_note(nc_diag *d, nc_location loc, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  nc_diag *n = nc_diag_createv(d->ctx, NC_SEV_NOTE, loc, fmt, ap);
  va_end(ap);
  d->notes = nc_xrealloc(d->notes, (d->n_notes + 1) * sizeof *d->notes);
  d->notes[d->n_notes++] = n;
}

void nc_diag_destroy(nc_diag *d)
{
  if (!d)
    return;
  for (size_t i = 0; i < d->n_notes; i++)
    nc_diag_destroy(d->notes[i]);
  free(d->notes);
  free(d->msg);
  free(d);
}

nc_diag *nc_diag_clone(const nc_diag *d)
{
  nc_diag *c = nc_xcalloc(1, sizeof *c);
  *c = *d;
  c->msg = nc_xmalloc(d->len + 1);
  memcpy(c->msg, d->msg, d->len + 1);
  c->notes = d->n_notes ? nc_xmalloc(d->n_notes * sizeof *c->notes) : NULL;
  for (size_t i = 0; i < d->n_notes; i++)
    c->notes[i] = nc_diag_clone(d->notes[i]);
  return c;
}

nc_severity nc_diag_get_severity(const nc_diag *d) { return d->sev; }
nc_location nc_diag_get_loc(const nc_diag *d) { return d->loc; }
const char *nc_diag_get_message(const nc_diag *d) { return d->msg; }
size_t nc_diag_get_num_notes(const nc_diag *d) { return d->n_notes; }
const nc_diag *nc_diag_get_note(const nc_diag *d, size_t i) { return d->notes[i]; }

static const char *sev_name(nc_severity s)
{
  switch (s) {
  case NC_SEV_ERROR: return "error";
  case NC_SEV_WARNING: return "warning";
  case NC_SEV_NOTE: return "note";
  default: return "remark";
  }
}

static void print_one(const nc_diag *d, nc_context *ctx, FILE *out)
{
  nc_ident *file;
  unsigned line, col;
  if (nc_location_get_file_line_col(ctx, d->loc, &file, &line, &col)) {
    fprintf(out, "%s:%u:%u: %s: %s\n", file->str, line, col, sev_name(d->sev), d->msg);
    unsigned id;
    size_t len;
    if (line && nc_context_find_source(ctx, file->str, file->len, &id)) {
      const char *src = nc_context_get_source(ctx, id, &len);
      unsigned l0, c0;
      nc_context_get_line_col(ctx, id, 0, &l0, &c0); /* builds the line table */
      nc_source *s = nc_context_source(ctx, id);
      const char *end = src + len;
      const char *p = line <= s->n_lines ? src + s->lines[line - 1] : end;
      const char *e = memchr(p, '\n', (size_t)(end - p));
      if (!e)
        e = end;
      if (p < end || line == 1) {
        size_t n = (size_t)(e - p), c = col ? col - 1 : 0;
        if (n > 0 && p[n - 1] == '\r')
          n--;
        if (n > 400) { /* very long lines (hex blobs): show a window around the column */
          size_t from = c > 200 ? c - 200 : 0;
          if (from > n - 400)
            from = n - 400;
          p += from;
          c = c > from ? c - from : 0;
          n = 400;
        }
        fprintf(out, "%.*s\n", (int)n, p);
        for (size_t i = 0; i < c && i <= n; i++)
          fputc(p[i] == '\t' ? '\t' : ' ', out);
        fputs("^\n", out);
      }
    }
  } else if (nc_location_is_unknown(d->loc)) {
    fprintf(out, "<unknown>:0: %s: %s\n", sev_name(d->sev), d->msg);
  } else {
    char *s = nc_attr_to_string(nc_location_get_attr(ctx, d->loc));
    fprintf(out, "%s: %s: %s\n", s, sev_name(d->sev), d->msg);
    free(s);
  }
}

void nc_diag_print(const nc_diag *d, nc_context *ctx, FILE *out)
{
  print_one(d, ctx, out);
  for (size_t i = 0; i < d->n_notes; i++)
    print_one(d->notes[i], ctx, out);
  fflush(out);
}

static void print_one_for_input(const nc_diag *d, nc_context *ctx, const char *tool, const char *input, FILE *out)
{
  nc_ident *file;
  unsigned line, col;
  nc_location loc = d->loc;
  bool has_file = nc_location_get_file_line_col(ctx, loc, &file, &line, &col);
  if (has_file && line) {
    print_one(d, ctx, out);
    return;
  }
  nc_attr *la = nc_location_get_attr(ctx, loc);
  const char *where = tool ? tool : "<unknown>:0";
  if (has_file) {
    nc_ident *reader = nc_context_get_whole_file_reader(ctx, file);
    where = reader && input && !strcmp(reader->str, input) ? input : file->str;
  } else if (la && nc_attr_get_kind(la) != NC_ATTR_LOC_UNKNOWN) {
    if (!input) {
      print_one(d, ctx, out);
      return;
    }
    where = input;
  }
  fprintf(out, "%s: %s: ", where, sev_name(d->sev));
  if (!has_file && la && nc_attr_get_kind(la) == NC_ATTR_LOC_NAME)
    fprintf(out, "at '%s': ", nc_ident_str(nc_loc_get_name(la)));
  fprintf(out, "%s\n", d->msg);
}

void nc_diag_print_for_input(const nc_diag *d, nc_context *ctx, const char *tool, const char *input, FILE *out)
{
  print_one_for_input(d, ctx, tool, input, out);
  for (size_t i = 0; i < d->n_notes; i++)
    print_one_for_input(d->notes[i], ctx, tool, input, out);
  fflush(out);
}

static void deliver(nc_diag *d)
{
  nc_context *ctx = d->ctx;
  pthread_mutex_lock(&ctx->lock);
  if (d->sev == NC_SEV_ERROR)
    ctx->num_errors++;
  /* copy the handler stack: a handler may push/pop handlers itself */
  size_t n = ctx->n_handlers;
  nc_handler_entry buf[8], *hs = n <= 8 ? buf : nc_xmalloc(n * sizeof *hs);
  if (n)
    memcpy(hs, ctx->handlers, n * sizeof *hs);
  pthread_mutex_unlock(&ctx->lock);
  bool handled = false;
  for (size_t i = n; i-- > 0 && !handled;)
    handled = hs[i].fn(d, hs[i].user);
  if (hs != buf)
    free(hs);
  if (!handled)
    nc_diag_print(d, ctx, stderr);
}

void nc_diag_emit(nc_diag *d)
{
  nc_diag_capture *c = tl_capture;
  if (d->sev == NC_SEV_ERROR)
    tl_errors++;
  if (c) {
    if (c->n == c->cap) {
      c->cap = c->cap ? c->cap * 2 : 8;
      c->diags = nc_xrealloc(c->diags, c->cap * sizeof *c->diags);
    }
    c->diags[c->n++] = d;
    if (d->sev == NC_SEV_ERROR)
      c->n_errors++;
    return;
  }
  deliver(d);
  nc_diag_destroy(d);
}

static void emitv(nc_context *ctx, nc_severity sev, nc_location loc, const char *fmt, va_list ap)
{
  nc_diag_emit(nc_diag_createv(ctx, sev, loc, fmt, ap));
}

void nc_emit_error(nc_context *ctx, nc_location loc, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  emitv(ctx, NC_SEV_ERROR, loc, fmt, ap);
  va_end(ap);
}

void nc_emit_warning(nc_context *ctx, nc_location loc, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  emitv(ctx, NC_SEV_WARNING, loc, fmt, ap);
  va_end(ap);
}

void nc_emit_remark(nc_context *ctx, nc_location loc, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  emitv(ctx, NC_SEV_REMARK, loc, fmt, ap);
  va_end(ap);
}

static nc_diag *op_diagv(nc_op *op, nc_severity sev, const char *fmt, va_list ap)
{
  nc_context *ctx = nc_op_get_context(op);
  nc_diag *d = nc_diag_create(ctx, sev, op->loc, "'%s' op ", op->info->name->str);
  vappend(d, fmt, ap);
  return d;
}

nc_diag *nc_op_diag_error(nc_op *op, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  nc_diag *d = op_diagv(op, NC_SEV_ERROR, fmt, ap);
  va_end(ap);
  return d;
}

bool nc_op_emit_error(nc_op *op, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  nc_diag_emit(op_diagv(op, NC_SEV_ERROR, fmt, ap));
  va_end(ap);
  return false;
}

void nc_op_emit_warning(nc_op *op, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  nc_diag_emit(op_diagv(op, NC_SEV_WARNING, fmt, ap));
  va_end(ap);
}

void nc_op_emit_remark(nc_op *op, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  nc_diag_emit(op_diagv(op, NC_SEV_REMARK, fmt, ap));
  va_end(ap);
}

unsigned nc_context_push_diag_handler(nc_context *ctx, nc_diag_handler fn, void *user)
{
  pthread_mutex_lock(&ctx->lock);
  if (ctx->n_handlers == ctx->cap_handlers) {
    ctx->cap_handlers = ctx->cap_handlers ? ctx->cap_handlers * 2 : 4;
    ctx->handlers = nc_xrealloc(ctx->handlers, ctx->cap_handlers * sizeof *ctx->handlers);
  }
  unsigned id = ++ctx->next_handler_id;
  ctx->handlers[ctx->n_handlers++] = (nc_handler_entry){fn, user, id};
  pthread_mutex_unlock(&ctx->lock);
  return id;
}

void nc_context_pop_diag_handler(nc_context *ctx, unsigned id)
{
  pthread_mutex_lock(&ctx->lock);
  for (size_t i = 0; i < ctx->n_handlers; i++) {
    if (ctx->handlers[i].id == id) {
      memmove(ctx->handlers + i, ctx->handlers + i + 1, (ctx->n_handlers - i - 1) * sizeof *ctx->handlers);
      ctx->n_handlers--;
      break;
    }
  }
  pthread_mutex_unlock(&ctx->lock);
}

size_t nc_context_get_num_errors(nc_context *ctx) { return ctx->num_errors; }

nc_diag_capture *nc_diag_capture_begin(void)
{
  nc_diag_capture *c = nc_xcalloc(1, sizeof *c);
  c->outer = tl_capture;
  tl_capture = c;
  return c;
}

void nc_diag_capture_end(nc_diag_capture *c)
{
  if (tl_capture == c)
    tl_capture = c->outer;
}

void nc_diag_capture_flush(nc_diag_capture *c, nc_context *ctx)
{
  nc_diag_capture_end(c);
  (void)ctx;
  for (size_t i = 0; i < c->n; i++)
    nc_diag_emit(c->diags[i]); /* goes to an outer capture if there is one */
  free(c->diags);
  free(c);
}

void nc_diag_capture_discard(nc_diag_capture *c)
{
  if (!c)
    return;
  nc_diag_capture_end(c);
  for (size_t i = 0; i < c->n; i++)
    nc_diag_destroy(c->diags[i]);
  free(c->diags);
  free(c);
}

size_t nc_diag_capture_num_errors(const nc_diag_capture *c) { return c->n_errors; }
