/* ir_walk_test.c: nc_op_walk visits ops in pre-order or post-order, skips
 * the regions of an op on NC_WALK_SKIP, stops everything on
 * NC_WALK_INTERRUPT, and lets a post-order callback erase the op it is
 * given. Also region/block/op navigation helpers.
 */
#include "ir_check.h"

static const char *text = "\"foo.a\"() ({\n"
                          "  \"foo.b\"() ({\n"
                          "    \"foo.c\"() : () -> ()\n"
                          "  }) : () -> ()\n"
                          "  \"foo.d\"() : () -> ()\n"
                          "}, {\n"
                          "^bb0:\n"
                          "  \"foo.e\"()[^bb1] : () -> ()\n"
                          "^bb1:\n"
                          "  \"foo.f\"() : () -> ()\n"
                          "}) : () -> ()\n"
                          "\"foo.g\"() : () -> ()\n";

typedef struct trace {
  char buf[256];
  const char *skip, *stop, *erase;
} trace;

static nc_walk_result record(nc_op *op, void *user)
{
  trace *t = user;
  const char *name = nc_ident_str(nc_op_get_name(op));
  const char *dot = strchr(name, '.');
  strcat(t->buf, dot ? dot + 1 : name);
  strcat(t->buf, " ");
  if (t->stop && !strcmp(name, t->stop))
    return NC_WALK_INTERRUPT;
  if (t->skip && !strcmp(name, t->skip))
    return NC_WALK_SKIP;
  if (t->erase && !strncmp(name, t->erase, strlen(t->erase)))
    nc_op_erase(op);
  return NC_WALK_ADVANCE;
}

static void test_orders(nc_context *ctx)
{
  nc_op *m = ir_parse(ctx, text);
  trace t = {0};
  CHECK(nc_op_walk(m, NC_WALK_PRE_ORDER, record, &t) == NC_WALK_ADVANCE, "completes");
  CHECK_STR(t.buf, "module a b c d e f g ");
  memset(&t, 0, sizeof t);
  nc_op_walk(m, NC_WALK_POST_ORDER, record, &t);
  CHECK_STR(t.buf, "c b d e f a g module ");

  memset(&t, 0, sizeof t);
  t.skip = "foo.b";
  nc_op_walk(m, NC_WALK_PRE_ORDER, record, &t);
  CHECK_STR(t.buf, "module a b d e f g ");
  memset(&t, 0, sizeof t);
  t.skip = "foo.a";
  nc_op_walk(m, NC_WALK_PRE_ORDER, record, &t);
  CHECK_STR(t.buf, "module a g ");

  memset(&t, 0, sizeof t);
  t.stop = "foo.d";
  CHECK(nc_op_walk(m, NC_WALK_PRE_ORDER, record, &t) == NC_WALK_INTERRUPT, "interrupted");
  CHECK_STR(t.buf, "module a b c d ");
  memset(&t, 0, sizeof t);
  t.stop = "foo.e";
  CHECK(nc_op_walk(m, NC_WALK_POST_ORDER, record, &t) == NC_WALK_INTERRUPT, "interrupted in post-order");
  CHECK_STR(t.buf, "c b d e ");
  memset(&t, 0, sizeof t);
  t.stop = "builtin.module";
  CHECK(nc_op_walk(m, NC_WALK_PRE_ORDER, record, &t) == NC_WALK_INTERRUPT, "interrupt at the root");
  CHECK_STR(t.buf, "module ");

  /* a walk from a nested op covers that op only */
  memset(&t, 0, sizeof t);
  nc_op_walk(ir_body_op(m, 0), NC_WALK_POST_ORDER, record, &t);
  CHECK_STR(t.buf, "c b d e f a ");
  nc_op_destroy(m);
}

static void test_erase_in_post_order(nc_context *ctx)
{
  /* erase every op named foo.c..foo.g (all leaves and g) while walking */
  nc_op *m = ir_parse(ctx, text);
  trace t = {0};
  t.erase = "foo.";
  nc_op_walk(ir_body_op(m, 0), NC_WALK_POST_ORDER, record, &t); /* erases a and everything in it */
  CHECK_STR(t.buf, "c b d e f a ");
  CHECK_PRINT(m, false, "module {\n  \"foo.g\"() : () -> ()\n}\n");
  nc_op_destroy(m);

  /* erase only the inner ops: their parents stay (an empty block prints its label) */
  m = ir_parse(ctx, text);
  memset(&t, 0, sizeof t);
  t.erase = "foo.c";
  nc_op_walk(m, NC_WALK_POST_ORDER, record, &t);
  t.erase = "foo.d";
  nc_op_walk(m, NC_WALK_POST_ORDER, record, &t);
  CHECK_PRINT(m, false,
              "module {\n"
              "  \"foo.a\"() ({\n"
              "    \"foo.b\"() ({\n"
              "    ^bb0:\n"
              "    }) : () -> ()\n"
              "  }, {\n"
              "    \"foo.e\"()[^bb1] : () -> ()\n"
              "  ^bb1:\n"
              "    \"foo.f\"() : () -> ()\n"
              "  }) : () -> ()\n"
              "  \"foo.g\"() : () -> ()\n"
              "}\n");
  nc_op_destroy(m);
}

static void test_navigation(nc_context *ctx)
{
  nc_op *m = ir_parse(ctx, text);
  nc_op *a = ir_body_op(m, 0), *g = ir_body_op(m, 1);
  nc_region *r0 = nc_op_get_region(a, 0), *r1 = nc_op_get_region(a, 1);
  nc_op *b = nc_block_get_first_op(nc_region_get_first_block(r0));
  nc_op *c = nc_block_get_first_op(nc_region_get_first_block(nc_op_get_region(b, 0)));
  CHECK(nc_op_get_num_regions(a) == 2 && nc_region_get_parent_op(r1) == a, "regions");
  CHECK(nc_op_is_ancestor(a, c) && nc_op_is_ancestor(c, c) && !nc_op_is_ancestor(c, a) && !nc_op_is_ancestor(g, c),
        "ancestors");
  CHECK(nc_block_find_ancestor_op(nc_module_get_body(m), c) == a, "ancestor in a block");
  CHECK(!nc_block_find_ancestor_op(nc_region_get_first_block(r1), c), "no ancestor in another block");
  CHECK(nc_op_get_parent_of_name(c, "foo.a") == a && nc_op_get_parent_of_name(c, "builtin.module") == m &&
            !nc_op_get_parent_of_name(c, "foo.g"),
        "parent by name");
  CHECK(nc_region_is_ancestor(r0, nc_op_get_region(b, 0)) && !nc_region_is_ancestor(r1, nc_op_get_region(b, 0)),
        "region ancestors");
  CHECK(nc_region_get_num_blocks(r1) == 2 && nc_block_get_successor(nc_region_get_first_block(r1), 0) ==
                                                 nc_region_get_last_block(r1),
        "blocks of the second region");
  CHECK(!nc_op_get_parent_op(m) && !nc_op_get_block(m), "the module is detached");
  CHECK(nc_op_get_context(c) == ctx && nc_op_get_def(c) == NULL && nc_op_get_def(m) != NULL, "definitions");
  nc_op_destroy(m);
}

int main(void)
{
  nc_context *ctx = ir_context();
  test_orders(ctx);
  test_erase_in_post_order(ctx);
  test_navigation(ctx);
  nc_context_destroy(ctx);
  return ir_check_status("ir_walk_test");
}
