/* ir_location_test.c: locations. The parser records compact source
 * positions (buffer id + offset) that convert to file:line:col on demand;
 * location attributes (file, name, callsite, fused, unknown) convert to the
 * first file:line:col inside them; equality looks through both forms; block
 * arguments and ops keep theirs through printing with debug info.
 */
#include "ir_check.h"

static void check_flc(nc_context *ctx, nc_location loc, const char *file, unsigned line, unsigned col, const char *what)
{
  nc_ident *f = NULL;
  unsigned l = 0, c = 0;
  bool ok = nc_location_get_file_line_col(ctx, loc, &f, &l, &c);
  CHECK(ok && f && !strcmp(nc_ident_str(f), file) && l == line && c == col, "%s: got %s:%u:%u", what,
        f ? nc_ident_str(f) : "?", l, c);
}

int main(void)
{
  nc_context *ctx = ir_context();
  const char *src = "ab\ncd\n\nlast";
  unsigned id = nc_context_add_source(ctx, "buf.mlir", src, strlen(src));
  unsigned line, col;
  nc_context_get_line_col(ctx, id, 0, &line, &col);
  CHECK(line == 1 && col == 1, "start");
  nc_context_get_line_col(ctx, id, 4, &line, &col);
  CHECK(line == 2 && col == 2, "second line");
  nc_context_get_line_col(ctx, id, 6, &line, &col);
  CHECK(line == 3 && col == 1, "empty line");
  nc_context_get_line_col(ctx, id, 100, &line, &col);
  CHECK(line == 4 && col == 5, "past the end clamps to the end");
  size_t len;
  CHECK(nc_context_get_source(ctx, id, &len) == src && len == strlen(src), "buffer");
  CHECK(!strcmp(nc_ident_str(nc_context_get_source_name(ctx, id)), "buf.mlir"), "name");
  unsigned found;
  CHECK(nc_context_find_source(ctx, "buf.mlir", 8, &found) && found == id, "find");
  CHECK(!nc_context_find_source(ctx, "nope", 4, &found), "not found");

  /* compact locations and their attribute form */
  nc_location l = nc_location_from_source(id, 4);
  check_flc(ctx, l, "buf.mlir", 2, 2, "compact");
  nc_attr *la = nc_location_get_attr(ctx, l);
  CHECK(la == nc_loc_file(ctx, nc_ident_get_cstr(ctx, "buf.mlir"), 2, 2), "as an attribute");
  CHECK(nc_location_equal(ctx, l, nc_location_from_attr(la)), "equal across forms");
  CHECK(!nc_location_equal(ctx, l, nc_location_from_source(id, 5)), "different offsets");
  CHECK(nc_location_is_unknown(nc_location_unknown()) && nc_location_is_unknown(nc_location_from_attr(NULL)) &&
            nc_location_is_unknown(nc_location_from_attr(nc_loc_unknown(ctx))),
        "unknown");
  CHECK(nc_location_get_attr(ctx, nc_location_unknown()) == nc_loc_unknown(ctx), "unknown attribute");
  nc_ident *f;
  CHECK(!nc_location_get_file_line_col(ctx, nc_location_unknown(), &f, &line, &col), "no position in unknown");

  /* the first file location inside other kinds */
  nc_attr *file = nc_loc_file(ctx, nc_ident_get_cstr(ctx, "x.py"), 7, 9);
  nc_attr *name = nc_loc_name(ctx, nc_ident_get_cstr(ctx, "conv"), file);
  check_flc(ctx, nc_location_from_attr(name), "x.py", 7, 9, "name");
  CHECK(nc_loc_get_child(name) == file && !strcmp(nc_ident_str(nc_loc_get_name(name)), "conv"), "name parts");
  nc_attr *cs = nc_loc_callsite(ctx, nc_loc_name(ctx, nc_ident_get_cstr(ctx, "f"), NULL), name);
  CHECK(!nc_location_get_file_line_col(ctx, nc_location_from_attr(cs), &f, &line, &col),
        "a callsite uses its callee, which has no file here");
  nc_attr *cs2 = nc_loc_callsite(ctx, file, name);
  check_flc(ctx, nc_location_from_attr(cs2), "x.py", 7, 9, "callsite");
  CHECK(nc_loc_get_callee(cs2) == file && nc_loc_get_caller(cs2) == name, "callsite parts");
  nc_attr *parts[] = {nc_loc_name(ctx, nc_ident_get_cstr(ctx, "n"), NULL), file};
  nc_attr *fused = nc_loc_fused(ctx, 2, parts, nc_attr_string_cstr(ctx, "meta"));
  check_flc(ctx, nc_location_from_attr(fused), "x.py", 7, 9, "fused");
  CHECK(nc_loc_get_num_fused(fused) == 2 && nc_loc_get_fused(fused, 1) == file &&
            nc_attr_is_string_eq(nc_loc_get_metadata(fused), "meta"),
        "fused parts");
  CHECK(nc_attr_is_location(fused) && !nc_attr_is_location(nc_attr_unit(ctx)), "is location");

  /* parsed ops: compact positions, explicit locations, aliases defined
   * after use, block argument locations */
  const char *text = "\"foo.a\"() : () -> ()\n"
                     "  %v = \"foo.b\"() : () -> i32 loc(\"b.c\":3:4)\n"
                     "\"foo.r\"() ({\n"
                     "^bb0(%x: i32, %y: i32 loc(#al)):\n"
                     "  \"foo.c\"() : () -> () loc(#al)\n"
                     "}) : () -> ()\n"
                     "#al = loc(\"alias.c\":9:1)\n";
  nc_op *m = ir_parse(ctx, text);
  CHECK(m, "parses");
  check_flc(ctx, nc_op_get_loc(ir_body_op(m, 0)), "test.mlir", 1, 1, "op a");
  check_flc(ctx, nc_op_get_loc(ir_body_op(m, 1)), "b.c", 3, 4, "op b");
  nc_op *r = ir_body_op(m, 2);
  nc_block *bb = nc_region_get_first_block(nc_op_get_region(r, 0));
  check_flc(ctx, nc_value_get_loc(nc_block_get_arg(bb, 0)), "test.mlir", 4, 6, "argument x");
  check_flc(ctx, nc_value_get_loc(nc_block_get_arg(bb, 1)), "alias.c", 9, 1, "argument y (alias)");
  check_flc(ctx, nc_op_get_loc(nc_block_get_first_op(bb)), "alias.c", 9, 1, "op c (alias)");
  check_flc(ctx, nc_value_get_loc(nc_op_get_result(ir_body_op(m, 1), 0)), "b.c", 3, 4, "results use their op's location");
  nc_block_arg_set_loc(nc_block_get_arg(bb, 0), nc_location_from_attr(file));
  check_flc(ctx, nc_value_get_loc(nc_block_get_arg(bb, 0)), "x.py", 7, 9, "argument location set");
  nc_op_set_loc(ir_body_op(m, 0), nc_location_from_attr(name));
  nc_print_flags flags = {.debuginfo = true, .local_scope = true};
  char *s = nc_op_print_to_string(m, &flags, NULL);
  CHECK_STR(s, "module {\n"
               "  \"foo.a\"() : () -> () loc(\"conv\"(\"x.py\":7:9))\n"
               "  %0 = \"foo.b\"() : () -> i32 loc(\"b.c\":3:4)\n"
               "  \"foo.r\"() ({\n"
               "  ^bb0(%arg0: i32 loc(\"x.py\":7:9), %arg1: i32 loc(\"alias.c\":9:1)):\n"
               "    \"foo.c\"() : () -> () loc(\"alias.c\":9:1)\n"
               "  }) : () -> () loc(\"test.mlir\":3:1)\n"
               "} loc(\"test.mlir\":1:1)\n");
  free(s);
  nc_op_destroy(m);
  nc_context_destroy(ctx);
  return ir_check_status("ir_location_test");
}
