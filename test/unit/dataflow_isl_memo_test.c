/* dataflow_isl_memo_test.c: isl contexts from nc_dataflow_isl_ctx_create
 * parse each text once. A second read of the same text is the remembered
 * object (a copy: the same pointer, its reference count up), equal to a
 * fresh parse; a set and a map of one text stay apart; a bad text is
 * refused with its message on every read (failures are not remembered);
 * a plain isl context parses every time; freeing the context frees what it
 * remembered (the sanitized build checks for leaks).
 */
#include <isl/ctx.h>
#include <isl/map.h>
#include <isl/set.h>
#include <string.h>

#include "check.h"
#include "nc/dialects/dataflow/dataflow.h"

int main(void)
{
  const char *dom = "{ S[c, y] : 0 <= c < 16 and 0 <= y < 2c + 1 }";
  const char *rel = "{ S[y] -> In[y + 1] : 0 <= y < 8 }";
  char err[512];
  isl_ctx *ctx = nc_dataflow_isl_ctx_create();
  CHECK(ctx != NULL, "context");
  isl_set *a = nc_dataflow_parse_isl_set(ctx, dom, err, sizeof err);
  isl_set *b = nc_dataflow_parse_isl_set(ctx, dom, err, sizeof err);
  CHECK(a && a == b, "the second read is the remembered set (%p, %p)", (void *)a, (void *)b);
  isl_set_free(b);
  isl_map *m = nc_dataflow_parse_isl_map(ctx, rel, err, sizeof err), *m2 = nc_dataflow_parse_isl_map(ctx, rel, NULL, 0);
  CHECK(m && m == m2, "maps too");
  CHECK(!nc_dataflow_parse_isl_map(ctx, dom, NULL, 0), "a set's text read as a map is refused after the set");
  for (int i = 0; i < 2; i++) {
    err[0] = 0;
    CHECK(!nc_dataflow_parse_isl_set(ctx, "{ S[c : }", err, sizeof err) && strstr(err, "invalid isl set"),
          "read %d of a bad text: '%s'", i, err);
  }
  /* many texts: the table grows and still finds each */
  char text[128];
  isl_set *first = NULL;
  for (int i = 0; i < 1000; i++) {
    snprintf(text, sizeof text, "{ T[i] : 0 <= i < %d }", i + 1);
    isl_set *s = nc_dataflow_parse_isl_set(ctx, text, NULL, 0);
    if (i == 0)
      first = s;
    else
      isl_set_free(s);
  }
  isl_set *again = nc_dataflow_parse_isl_set(ctx, "{ T[i] : 0 <= i < 1 }", NULL, 0);
  CHECK(first && again == first, "found after growing");
  isl_set_free(again);
  isl_set_free(first);

  isl_ctx *plain = isl_ctx_alloc();
  isl_set *p = nc_dataflow_parse_isl_set(plain, dom, NULL, 0), *q = nc_dataflow_parse_isl_set(plain, dom, NULL, 0);
  CHECK(p && q && p != q, "a plain context parses every time");
  isl_set *a_in_plain = nc_dataflow_parse_isl_set(plain, dom, NULL, 0);
  CHECK(isl_set_is_equal(p, a_in_plain) == isl_bool_true, "equal parses");
  isl_set_free(p);
  isl_set_free(q);
  isl_set_free(a_in_plain);
  isl_ctx_free(plain);

  isl_set_free(a);
  isl_map_free(m);
  isl_map_free(m2);
  nc_dataflow_isl_ctx_destroy(ctx);
  nc_dataflow_isl_ctx_destroy(NULL);
  return failures != 0;
}
