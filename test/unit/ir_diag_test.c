/* ir_diag_test.c: the diagnostics engine: handler stack (innermost first,
 * pass-through, removal by id), error counting, notes, the printed format
 * (file:line:col, source line, caret, notes), unknown and attribute
 * locations, op diagnostics with the "'name' op" prefix, cloning, and
 * per-thread capture that replays diagnostics in a fixed order.
 */
#include <pthread.h>
#include <unistd.h>

#include "ir_check.h"

static int calls_a, calls_b;

static bool handler_a(const nc_diag *d, void *user)
{
  (void)d;
  calls_a++;
  return *(bool *)user; /* consume or pass on */
}

static bool handler_b(const nc_diag *d, void *user)
{
  (void)d;
  (void)user;
  calls_b++;
  return true;
}

static void test_handlers(nc_context *ctx)
{
  bool consume = true;
  ir_diags[0] = 0;
  unsigned bottom = nc_context_push_diag_handler(ctx, ir_record_diag, NULL);
  unsigned b = nc_context_push_diag_handler(ctx, handler_b, NULL);
  unsigned a = nc_context_push_diag_handler(ctx, handler_a, &consume);
  size_t errors = nc_context_get_num_errors(ctx);
  nc_emit_error(ctx, nc_location_unknown(), "one");
  CHECK(calls_a == 1 && calls_b == 0, "the innermost handler consumes");
  consume = false;
  nc_emit_warning(ctx, nc_location_unknown(), "two");
  CHECK(calls_a == 2 && calls_b == 1, "a handler returning false passes it on");
  CHECK(nc_context_get_num_errors(ctx) == errors + 1, "warnings are not errors");
  nc_context_pop_diag_handler(ctx, b); /* removing a handler below the top works too */
  nc_emit_remark(ctx, nc_location_unknown(), "three");
  CHECK(calls_a == 3 && calls_b == 1, "b removed");
  CHECK_STR(ir_diags, "remark: three\n");
  nc_context_pop_diag_handler(ctx, a);
  nc_context_pop_diag_handler(ctx, a); /* unknown id: no-op */
  nc_context_pop_diag_handler(ctx, bottom);
}

/* Prints a diagnostic with nc_diag_print into a string. */
static char *printed(nc_diag *d, nc_context *ctx)
{
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  nc_diag_print(d, ctx, f);
  fclose(f);
  nc_diag_destroy(d);
  return buf;
}

static void test_format(nc_context *ctx)
{
  const char *src = "line one\n\tsecond line\r\nthird";
  unsigned id = nc_context_add_source(ctx, "src.mlir", src, strlen(src));
  nc_diag *d = nc_diag_create(ctx, NC_SEV_ERROR, nc_location_from_source(id, 11), "bad %s", "thing");
  nc_diag_append(d, " (%d)", 42);
  nc_diag_attach_note(d, nc_location_from_source(id, 5), "see %s", "here");
  nc_diag_attach_note(d, nc_location_from_source(id, strlen(src)), "at the end");
  CHECK(nc_diag_get_num_notes(d) == 2 && !strcmp(nc_diag_get_message(nc_diag_get_note(d, 0)), "see here"), "notes");
  nc_diag *c = nc_diag_clone(d);
  char *s = printed(d, ctx);
  CHECK_STR(s, "src.mlir:2:3: error: bad thing (42)\n"
               "\tsecond line\n"
               "\t ^\n"
               "src.mlir:1:6: note: see here\n"
               "line one\n"
               "     ^\n"
               "src.mlir:3:6: note: at the end\n"
               "third\n"
               "     ^\n");
  char *s2 = printed(c, ctx);
  CHECK_STR(s2, s);
  free(s);
  free(s2);

  s = printed(nc_diag_create(ctx, NC_SEV_WARNING, nc_location_unknown(), "nowhere"), ctx);
  CHECK_STR(s, "<unknown>:0: warning: nowhere\n");
  free(s);
  /* a location attribute with a file nc does not have: just the first line */
  nc_attr *l = nc_loc_file(ctx, nc_ident_get_cstr(ctx, "other.py"), 7, 3);
  s = printed(nc_diag_create(ctx, NC_SEV_REMARK, nc_location_from_attr(l), "r"), ctx);
  CHECK_STR(s, "other.py:7:3: remark: r\n");
  free(s);
  /* name locations print their first file location, or themselves */
  s = printed(nc_diag_create(ctx, NC_SEV_ERROR, nc_location_from_attr(nc_loc_name(ctx, nc_ident_get_cstr(ctx, "n"), l)), "x"),
              ctx);
  CHECK_STR(s, "other.py:7:3: error: x\n");
  free(s);
  s = printed(nc_diag_create(ctx, NC_SEV_ERROR, nc_location_from_attr(nc_loc_name(ctx, nc_ident_get_cstr(ctx, "n"), NULL)),
                             "y"),
              ctx);
  CHECK_STR(s, "loc(\"n\"): error: y\n");
  free(s);
}

static void test_op_diags(nc_context *ctx)
{
  nc_op *m = ir_parse(ctx, "\"foo.x\"() : () -> ()\n");
  nc_op *x = ir_body_op(m, 0);
  ir_diags[0] = 0;
  unsigned h = nc_context_push_diag_handler(ctx, ir_record_diag, NULL);
  CHECK(!nc_op_emit_error(x, "is %s", "wrong"), "returns false");
  nc_op_emit_warning(x, "careful");
  nc_op_emit_remark(x, "fyi");
  nc_diag *d = nc_op_diag_error(x, "with a note");
  nc_diag_attach_note(d, nc_op_get_loc(m), "module");
  CHECK(nc_location_equal(ctx, nc_diag_get_loc(d), nc_op_get_loc(x)), "at the op");
  nc_diag_emit(d);
  nc_context_pop_diag_handler(ctx, h);
  CHECK_STR(ir_diags, "error: 'foo.x' op is wrong\n"
                      "warning: 'foo.x' op careful\n"
                      "remark: 'foo.x' op fyi\n"
                      "error: 'foo.x' op with a note\n"
                      "note: module\n");
  nc_op_destroy(m);
}

/* --- per-thread capture ------------------------------------------------------------ */

typedef struct job {
  nc_context *ctx;
  int index;
  nc_diag_capture *cap;
} job;

static void *worker(void *arg)
{
  job *j = arg;
  j->cap = nc_diag_capture_begin();
  for (int k = 0; k < 3; k++) {
    usleep((useconds_t)(100 * (3 - j->index))); /* finish in reverse order */
    nc_emit_error(j->ctx, nc_location_unknown(), "worker %d message %d", j->index, k);
  }
  nc_emit_warning(j->ctx, nc_location_unknown(), "worker %d warning", j->index);
  nc_diag_capture_end(j->cap);
  return NULL;
}

static void test_capture(nc_context *ctx)
{
  ir_diags[0] = 0;
  unsigned h = nc_context_push_diag_handler(ctx, ir_record_diag, NULL);
  job jobs[4];
  pthread_t th[4];
  for (int i = 0; i < 4; i++) {
    jobs[i] = (job){ctx, i, NULL};
    pthread_create(&th[i], NULL, worker, &jobs[i]);
  }
  for (int i = 0; i < 4; i++)
    pthread_join(th[i], NULL);
  CHECK(ir_diags[0] == 0, "nothing delivered while captured: %s", ir_diags);
  size_t before = nc_context_get_num_errors(ctx);
  for (int i = 0; i < 4; i++) {
    CHECK(nc_diag_capture_num_errors(jobs[i].cap) == 3, "three errors captured");
    nc_diag_capture_flush(jobs[i].cap, ctx);
  }
  CHECK(nc_context_get_num_errors(ctx) == before + 12, "counted when delivered");
  char want[2048] = "";
  for (int i = 0; i < 4; i++) {
    for (int k = 0; k < 3; k++)
      snprintf(want + strlen(want), sizeof want - strlen(want), "error: worker %d message %d\n", i, k);
    snprintf(want + strlen(want), sizeof want - strlen(want), "warning: worker %d warning\n", i);
  }
  CHECK_STR(ir_diags, want);

  /* nested captures: an inner flush goes to the outer capture */
  ir_diags[0] = 0;
  nc_diag_capture *outer = nc_diag_capture_begin();
  nc_diag_capture *inner = nc_diag_capture_begin();
  nc_emit_error(ctx, nc_location_unknown(), "inner");
  nc_diag_capture_flush(inner, ctx);
  CHECK(nc_diag_capture_num_errors(outer) == 1 && ir_diags[0] == 0, "went to the outer capture");
  nc_emit_error(ctx, nc_location_unknown(), "outer");
  nc_diag_capture_flush(outer, ctx);
  CHECK_STR(ir_diags, "error: inner\nerror: outer\n");
  /* a capture that is ended is not active any more */
  nc_diag_capture *c = nc_diag_capture_begin();
  nc_diag_capture_end(c);
  ir_diags[0] = 0;
  nc_emit_error(ctx, nc_location_unknown(), "direct");
  CHECK_STR(ir_diags, "error: direct\n");
  nc_diag_capture_flush(c, ctx);
  nc_context_pop_diag_handler(ctx, h);
}

int main(void)
{
  nc_context *ctx = ir_context();
  test_handlers(ctx);
  test_format(ctx);
  test_op_diags(ctx);
  test_capture(ctx);
  nc_context_destroy(ctx);
  return ir_check_status("ir_diag_test");
}
