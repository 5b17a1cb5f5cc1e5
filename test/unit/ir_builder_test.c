/* ir_builder_test.c: building IR through the API: creating ops, inserting
 * them before/after others, moving, erasing, replacing uses (all, or all but
 * one user), changing operands, block arguments, successors and
 * predecessors, splicing ops and regions, and cloning (with a mapping, across
 * blocks with successors, and graph regions with uses before definitions).
 * The results are checked by printing.
 */
#include "ir_check.h"

static nc_context *ctx;
static nc_type *i32;

static nc_op *make(const char *name, size_t n_operands, nc_value *const *operands, size_t n_results, size_t n_regions)
{
  nc_type *types[8] = {i32, i32, i32, i32, i32, i32, i32, i32};
  return nc_op_create(&(nc_op_state){.ctx = ctx, .name = name, .n_operands = n_operands, .operands = operands,
                                     .n_results = n_results, .result_types = types, .n_regions = n_regions});
}

static void test_create_and_insert(void)
{
  nc_op *m = nc_module_create(ctx, nc_location_unknown());
  nc_block *body = nc_module_get_body(m);
  nc_op *a = make("foo.a", 0, NULL, 1, 0);
  nc_block_append_op(body, a);
  nc_value *av = nc_op_get_result(a, 0);
  nc_op *c = make("foo.c", 1, &av, 0, 0);
  nc_block_append_op(body, c);
  nc_op *b = make("foo.b", 1, &av, 2, 0);
  nc_op_insert_before(b, c);
  nc_op *first = make("foo.first", 0, NULL, 0, 0);
  nc_block_prepend_op(body, first);
  nc_op *after = make("foo.after_a", 0, NULL, 0, 0);
  nc_op_insert_after(after, a);
  CHECK_PRINT(m, false,
              "module {\n"
              "  \"foo.first\"() : () -> ()\n"
              "  %0 = \"foo.a\"() : () -> i32\n"
              "  \"foo.after_a\"() : () -> ()\n"
              "  %1:2 = \"foo.b\"(%0) : (i32) -> (i32, i32)\n"
              "  \"foo.c\"(%0) : (i32) -> ()\n"
              "}\n");
  CHECK(nc_op_verify(m), "valid");
  CHECK(nc_op_get_block(b) == body && nc_op_get_parent_op(b) == m && nc_op_get_parent_region(b) == nc_op_get_region(m, 0),
        "parents");
  CHECK(nc_op_get_next(a) == after && nc_op_get_prev(a) == first, "siblings");
  CHECK(nc_op_is_before_in_block(first, c) && !nc_op_is_before_in_block(c, a), "order");
  CHECK(nc_value_get_num_uses(av) == 2 && !nc_value_has_one_use(av), "uses of %%0");
  CHECK(nc_value_get_defining_op(av) == a && nc_value_get_index(nc_op_get_result(b, 1)) == 1, "definitions");
  CHECK(nc_block_get_first_op(body) == first && nc_block_get_last_op(body) == c, "block ends");

  /* move, remove and re-insert, erase */
  nc_op_move_before(c, first);
  CHECK(nc_block_get_first_op(body) == c && nc_op_is_before_in_block(c, first), "moved to the front");
  nc_op_move_after(c, b);
  CHECK(nc_block_get_last_op(body) == c, "moved back to the end");
  nc_op_remove(after);
  CHECK(!nc_op_get_block(after) && nc_op_get_next(a) == b, "removed");
  nc_op_insert_after(after, c);
  CHECK(nc_block_get_last_op(body) == after, "re-inserted");
  nc_op_erase(after);
  nc_op_erase(first);
  CHECK_PRINT(m, false,
              "module {\n"
              "  %0 = \"foo.a\"() : () -> i32\n"
              "  %1:2 = \"foo.b\"(%0) : (i32) -> (i32, i32)\n"
              "  \"foo.c\"(%0) : (i32) -> ()\n"
              "}\n");

  /* replace all uses (and all but one user) */
  nc_value_replace_all_uses_except(av, nc_op_get_result(b, 1), b);
  CHECK_PRINT(m, false,
              "module {\n"
              "  %0 = \"foo.a\"() : () -> i32\n"
              "  %1:2 = \"foo.b\"(%0) : (i32) -> (i32, i32)\n"
              "  \"foo.c\"(%1#1) : (i32) -> ()\n"
              "}\n");
  nc_op *b2 = make("foo.b2", 1, &av, 2, 0);
  nc_op_insert_after(b2, b);
  nc_op_replace_all_uses_with_op(b, b2);
  CHECK(nc_value_use_empty(nc_op_get_result(b, 1)) && nc_value_has_one_use(nc_op_get_result(b2, 1)), "RAUW op");
  nc_op_erase(b);
  nc_op_replace_all_uses_with(b2, (nc_value *[]){av, av});
  CHECK_PRINT(m, false,
              "module {\n"
              "  %0 = \"foo.a\"() : () -> i32\n"
              "  %1:2 = \"foo.b2\"(%0) : (i32) -> (i32, i32)\n"
              "  \"foo.c\"(%0) : (i32) -> ()\n"
              "}\n");

  /* operands: set, insert, erase, replace all */
  nc_op_set_operand(c, 0, nc_op_get_result(b2, 0));
  nc_op_insert_operands(c, 0, 2, (nc_value *[]){av, nc_op_get_result(b2, 1)});
  nc_op_insert_operands(c, 3, 1, &av);
  CHECK(nc_op_get_num_operands(c) == 4 && nc_op_get_operand(c, 3) == av && nc_op_get_operand(c, 2) == nc_op_get_result(b2, 0),
        "inserted operands");
  nc_op_erase_operands(c, 1, 2);
  CHECK(nc_op_get_num_operands(c) == 2 && nc_op_get_operand(c, 0) == av && nc_op_get_operand(c, 1) == av, "erased");
  CHECK(nc_value_get_num_uses(av) == 3 && nc_value_use_empty(nc_op_get_result(b2, 0)), "use lists follow");
  nc_use *u = nc_op_get_operand_use(c, 1);
  CHECK(nc_use_get_owner(u) == c && nc_use_get_operand_index(u) == 1 && nc_use_get_value(u) == av, "use accessors");
  int seen = 0;
  for (nc_use *x = nc_value_get_first_use(av); x; x = nc_use_get_next(x))
    seen += nc_use_get_owner(x) == c;
  CHECK(seen == 2, "use list walk");
  nc_value *many[20];
  for (int i = 0; i < 20; i++)
    many[i] = i % 2 ? av : nc_op_get_result(b2, 1);
  nc_op_set_operands(c, 20, many); /* grows past the op's inline storage */
  CHECK(nc_op_get_num_operands(c) == 20 && nc_value_get_num_uses(av) == 11, "grown operand list");
  nc_op_set_operands(c, 1, many + 1);
  CHECK(nc_value_get_num_uses(av) == 2 && nc_value_use_empty(nc_op_get_result(b2, 1)), "shrunk operand list");
  CHECK(nc_op_verify(m), "still valid");
  nc_op_destroy(m);
}

static void test_attrs(void)
{
  nc_op *f = nc_op_create(&(nc_op_state){.ctx = ctx, .name = "func.func", .n_regions = 1});
  nc_op_set_attr_str(f, "sym_name", nc_attr_string_cstr(ctx, "f"));
  nc_op_set_attr_str(f, "function_type", nc_attr_type(ctx, nc_type_function(ctx, 0, NULL, 0, NULL)));
  nc_op_set_attr_str(f, "foo.extra", nc_attr_unit(ctx));
  CHECK(nc_attr_dict_get_str(nc_op_get_props(f), "sym_name"), "inherent attributes go to the properties");
  CHECK(nc_attr_dict_get_str(nc_op_get_attr_dict(f), "foo.extra") && !nc_attr_dict_get_str(nc_op_get_props(f), "foo.extra"),
        "others are discardable");
  CHECK(nc_attr_is_string_eq(nc_op_get_attr_str(f, "sym_name"), "f"), "lookup finds properties");
  nc_block *entry = nc_region_add_entry_block(nc_op_get_region(f, 0));
  nc_block_append_op(entry, nc_op_create(&(nc_op_state){.ctx = ctx, .name = "func.return"}));
  nc_op_set_attr_str(f, "sym_visibility", nc_attr_string_cstr(ctx, "private"));
  CHECK_PRINT(f, false, "func.func private @f() attributes {foo.extra} {\n  return\n}\n");
  CHECK_PRINT(f, true,
              "\"func.func\"() <{function_type = () -> (), sym_name = \"f\", sym_visibility = \"private\"}> ({\n"
              "  \"func.return\"() : () -> ()\n"
              "}) {foo.extra} : () -> ()\n");
  CHECK(nc_op_remove_attr(f, nc_ident_get_cstr(ctx, "sym_visibility")) &&
            !nc_op_remove_attr(f, nc_ident_get_cstr(ctx, "sym_visibility")),
        "remove");
  CHECK(nc_op_remove_attr(f, nc_ident_get_cstr(ctx, "foo.extra")) && !nc_op_get_attr_str(f, "foo.extra"), "remove discardable");
  CHECK(nc_op_get_attr_dict(f) == nc_attr_empty_dictionary(ctx), "empty dictionary, never NULL");
  CHECK(nc_op_verify(f), "valid function");
  nc_op_destroy(f);

  /* unregistered ops keep any properties attribute as is */
  nc_op *u = nc_op_create(&(nc_op_state){.ctx = ctx, .name = "foo.p", .props = nc_attr_string_cstr(ctx, "s")});
  CHECK_PRINT(u, true, "\"foo.p\"() <\"s\"> : () -> ()\n");
  nc_op_destroy(u);
  /* registered ops need a dictionary; an unknown op of a registered dialect is refused */
  unsigned h = nc_context_push_diag_handler(ctx, ir_record_diag, NULL);
  ir_diags[0] = 0;
  CHECK(!nc_op_create(&(nc_op_state){.ctx = ctx, .name = "func.return", .props = nc_attr_unit(ctx)}), "props kind");
  CHECK(!nc_op_create(&(nc_op_state){.ctx = ctx, .name = "func.nope"}), "unknown op of a registered dialect");
  nc_named_attr dup[] = {{nc_ident_get_cstr(ctx, "a"), nc_attr_unit(ctx)}, {nc_ident_get_cstr(ctx, "a"), nc_attr_unit(ctx)}};
  CHECK(!nc_op_create(&(nc_op_state){.ctx = ctx, .name = "foo.d", .n_attrs = 2, .attrs = dup}), "duplicate attributes");
  nc_context_set_allow_unregistered_dialects(ctx, false);
  CHECK(!nc_op_create(&(nc_op_state){.ctx = ctx, .name = "foo.x"}), "unregistered dialects need the flag");
  nc_context_set_allow_unregistered_dialects(ctx, true);
  nc_context_pop_diag_handler(ctx, h);
  CHECK(strstr(ir_diags, "expected a dictionary for the properties of 'func.return'") &&
            strstr(ir_diags, "unregistered operation 'func.nope'") && strstr(ir_diags, "duplicate attribute") &&
            strstr(ir_diags, "operation 'foo.x' is not registered"),
        "diagnostics: %s", ir_diags);
}

/* A function with a loop: entry -> ^bb1(%i) -> ^bb1 | ^bb2 */
static nc_op *build_loop(void)
{
  nc_op *f = nc_op_create(&(nc_op_state){.ctx = ctx, .name = "foo.func", .n_regions = 1});
  nc_region *r = nc_op_get_region(f, 0);
  nc_block *entry = nc_region_add_entry_block(r), *loop = nc_block_create(ctx), *exit = nc_block_create(ctx);
  nc_value *arg = nc_block_add_arg(entry, i32, nc_location_unknown());
  nc_region_append_block(r, exit);
  nc_region_insert_block_before(r, loop, exit);
  nc_value *iv = nc_block_add_arg(loop, i32, nc_location_unknown());
  nc_block_append_op(entry, nc_op_create(&(nc_op_state){.ctx = ctx, .name = "foo.br", .n_operands = 1, .operands = &arg,
                                                        .n_successors = 1, .successors = &loop}));
  nc_op *next = make("foo.next", 1, &iv, 1, 0);
  nc_block_append_op(loop, next);
  nc_value *nv = nc_op_get_result(next, 0);
  nc_block_append_op(loop, nc_op_create(&(nc_op_state){.ctx = ctx, .name = "foo.cond_br", .n_operands = 1, .operands = &nv,
                                                       .n_successors = 2, .successors = (nc_block *[]){loop, exit}}));
  nc_block_append_op(exit, make("foo.ret", 1, &nv, 0, 0));
  return f;
}

static const char loop_text[] = "\"foo.func\"() ({\n"
                                "^bb0(%arg0: i32):\n"
                                "  \"foo.br\"(%arg0)[^bb1] : (i32) -> ()\n"
                                "^bb1(%0: i32):\n"
                                "  %1 = \"foo.next\"(%0) : (i32) -> i32\n"
                                "  \"foo.cond_br\"(%1)[^bb1, ^bb2] : (i32) -> ()\n"
                                "^bb2:\n"
                                "  \"foo.ret\"(%1) : (i32) -> ()\n"
                                "}) : () -> ()\n";

static void test_blocks_and_successors(void)
{
  nc_op *f = build_loop();
  CHECK_PRINT(f, false, loop_text);
  nc_region *r = nc_op_get_region(f, 0);
  nc_block *entry = nc_region_get_first_block(r), *loop = nc_block_get_next(entry), *exit = nc_region_get_last_block(r);
  CHECK(nc_region_get_num_blocks(r) == 3 && nc_block_get_prev(exit) == loop, "block list");
  CHECK(nc_block_is_entry(entry) && !nc_block_is_entry(loop), "entry");
  CHECK(nc_block_get_num_predecessors(loop) == 2 && nc_block_get_num_predecessors(exit) == 1 &&
            nc_block_get_num_predecessors(entry) == 0,
        "predecessors");
  int from_self = 0;
  for (nc_block_use *u = nc_block_get_first_pred(loop); u; u = nc_block_use_get_next(u))
    from_self += nc_op_get_block(nc_block_use_get_owner(u)) == loop;
  CHECK(from_self == 1, "back edge");
  CHECK(nc_block_get_num_successors(loop) == 2 && nc_block_get_successor(loop, 1) == exit, "successors");
  nc_op *term = nc_block_get_terminator(loop);
  CHECK(term && nc_op_is(term, "foo.cond_br"), "an unregistered last op counts as a terminator");
  CHECK(nc_block_get_parent_op(loop) == f && nc_block_get_parent_region(loop) == r, "parents");
  CHECK(nc_value_get_parent_block(nc_block_get_arg(loop, 0)) == loop && nc_value_is_block_arg(nc_block_get_arg(loop, 0)),
        "argument owner");

  /* block arguments: insert in front, erase */
  nc_value *front = nc_block_insert_arg(loop, 0, nc_type_f32(ctx), nc_location_unknown());
  CHECK(nc_block_get_num_args(loop) == 2 && nc_value_get_index(front) == 0 &&
            nc_value_get_index(nc_block_get_arg(loop, 1)) == 1,
        "indices renumbered");
  nc_block_erase_arg(loop, 0);
  CHECK(nc_value_get_index(nc_block_get_arg(loop, 0)) == 0, "renumbered after erase");
  CHECK_PRINT(f, false, loop_text);

  /* retarget a successor */
  nc_op_set_successor(term, 1, loop);
  CHECK(nc_block_get_num_predecessors(exit) == 0 && nc_block_get_num_predecessors(loop) == 3, "retargeted");
  nc_op_set_successor(term, 1, exit);

  /* nc_region_take_body and splicing */
  nc_op *holder = nc_op_create(&(nc_op_state){.ctx = ctx, .name = "foo.holder", .n_regions = 1});
  nc_region_take_body(nc_op_get_region(holder, 0), r);
  CHECK(nc_region_is_empty(r) && nc_region_get_num_blocks(nc_op_get_region(holder, 0)) == 3, "body moved");
  CHECK(nc_block_get_parent_op(loop) == holder, "blocks know their new region");
  nc_region_take_body(r, nc_op_get_region(holder, 0));
  nc_op_destroy(holder);
  CHECK_PRINT(f, false, loop_text);
  nc_block *extra = nc_block_create(ctx);
  nc_block_append_op(extra, make("foo.x", 0, NULL, 0, 0));
  nc_block_append_op(extra, make("foo.y", 0, NULL, 0, 0));
  nc_block_splice_ops(exit, nc_block_get_first_op(extra));
  CHECK(nc_block_is_empty(extra) && nc_op_is(nc_block_get_last_op(exit), "foo.y"), "spliced");
  nc_block_destroy(extra);
  nc_op_erase(nc_block_get_last_op(exit));
  nc_op_erase(nc_block_get_last_op(exit));
  CHECK_PRINT(f, false, loop_text);
  CHECK(nc_op_verify(f), "valid loop");
  nc_op_destroy(f);
}

static void test_clone(void)
{
  nc_op *f = build_loop();
  nc_mapping *map = nc_mapping_create();
  nc_op *g = nc_op_clone(f, map);
  CHECK_PRINT(g, false, loop_text);
  nc_block *old_loop = nc_block_get_next(nc_region_get_first_block(nc_op_get_region(f, 0)));
  nc_block *new_loop = nc_mapping_lookup_block(map, old_loop);
  CHECK(new_loop && new_loop != old_loop && nc_block_get_parent_op(new_loop) == g, "blocks mapped");
  CHECK(nc_mapping_lookup_value(map, nc_block_get_arg(old_loop, 0)) == nc_block_get_arg(new_loop, 0), "args mapped");
  CHECK(nc_block_get_num_predecessors(new_loop) == 2 && nc_block_get_num_predecessors(old_loop) == 2,
        "successors point into the clone");
  nc_mapping_destroy(map);
  nc_op_destroy(g);
  nc_op_destroy(f);

  /* operands defined outside the cloned op are kept, or remapped */
  nc_op *m = nc_module_create(ctx, nc_location_unknown());
  nc_block *body = nc_module_get_body(m);
  nc_op *x = make("foo.x", 0, NULL, 1, 0), *y = make("foo.y", 0, NULL, 1, 0);
  nc_block_append_op(body, x);
  nc_block_append_op(body, y);
  nc_value *xv = nc_op_get_result(x, 0);
  nc_op *user = make("foo.user", 1, &xv, 0, 1);
  nc_block *ub = nc_region_add_entry_block(nc_op_get_region(user, 0));
  nc_block_append_op(ub, make("foo.inner", 1, &xv, 0, 0));
  nc_block_append_op(body, user);
  nc_block_append_op(body, nc_op_clone(user, NULL));
  map = nc_mapping_create();
  nc_mapping_map_value(map, xv, nc_op_get_result(y, 0));
  nc_block_append_op(body, nc_op_clone(user, map));
  nc_mapping_destroy(map);
  CHECK_PRINT(m, false,
              "module {\n"
              "  %0 = \"foo.x\"() : () -> i32\n"
              "  %1 = \"foo.y\"() : () -> i32\n"
              "  \"foo.user\"(%0) ({\n"
              "    \"foo.inner\"(%0) : (i32) -> ()\n"
              "  }) : (i32) -> ()\n"
              "  \"foo.user\"(%0) ({\n"
              "    \"foo.inner\"(%0) : (i32) -> ()\n"
              "  }) : (i32) -> ()\n"
              "  \"foo.user\"(%1) ({\n"
              "    \"foo.inner\"(%1) : (i32) -> ()\n"
              "  }) : (i32) -> ()\n"
              "}\n");
  nc_op_destroy(m);

  /* graph regions: a use before its definition and a cycle are cloned into
   * the clone's own values */
  const char *graph = "\"foo.graph\"() ({\n"
                      "  %0 = \"foo.add\"(%1, %2#0) : (i32, i32) -> i32\n"
                      "  %1 = \"foo.neg\"(%0) : (i32) -> i32\n"
                      "  %2:2 = \"foo.pair\"() : () -> (i32, i32)\n"
                      "}) : () -> ()\n";
  nc_op *gm = ir_parse(ctx, graph);
  nc_op *gop = ir_body_op(gm, 0);
  nc_op *gc = nc_op_clone(gop, NULL);
  nc_op_insert_after(gc, gop);
  nc_op_erase(gop);
  char *s = ir_print(gc, true);
  CHECK_STR(s, graph);
  free(s);
  nc_op *add = nc_block_get_first_op(nc_region_get_first_block(nc_op_get_region(gc, 0)));
  CHECK(nc_value_get_parent_block(nc_op_get_operand(add, 0)) == nc_op_get_block(add), "forward use remapped");
  CHECK(nc_op_verify(gm), "clone verifies");
  nc_op_destroy(gm);

  /* nc_region_clone_into appends copies of the blocks */
  f = build_loop();
  nc_op *h = nc_op_create(&(nc_op_state){.ctx = ctx, .name = "foo.func", .n_regions = 1});
  nc_region_clone_into(nc_op_get_region(f, 0), nc_op_get_region(h, 0), NULL);
  CHECK_PRINT(h, false, loop_text);
  nc_op_destroy(h);
  nc_op_destroy(f);
}

static void test_drop_and_destroy(void)
{
  /* dropping all operand uses lets ops be erased in any order */
  nc_op *m = ir_parse(ctx, "%0 = \"foo.a\"() : () -> i32\n"
                           "\"foo.r\"(%0) ({\n"
                           "  \"foo.use\"(%0) : (i32) -> ()\n"
                           "}) : (i32) -> ()\n");
  nc_op *a = ir_body_op(m, 0), *r = ir_body_op(m, 1);
  nc_op_drop_all_uses_of_operands(r);
  CHECK(nc_value_use_empty(nc_op_get_result(a, 0)), "nested uses dropped too");
  nc_op_erase(a);
  nc_op *use = nc_block_get_first_op(nc_region_get_first_block(nc_op_get_region(r, 0)));
  CHECK(!nc_op_get_operand(r, 0) && !nc_op_get_operand(use, 0), "operands are null after the drop");
  nc_op_destroy(m);
}

int main(void)
{
  ctx = ir_context();
  i32 = nc_type_integer(ctx, 32, NC_SIGNLESS);
  test_create_and_insert();
  test_attrs();
  test_blocks_and_successors();
  test_clone();
  test_drop_and_destroy();
  nc_context_destroy(ctx);
  return ir_check_status("ir_builder_test");
}
