/* ir_symbol_test.c: symbol tables (lookup, insert, remove, cached
 * collections), resolution of flat and nested references from the nearest
 * enclosing table, visibility, and walking the symbol uses of a region.
 */
#include "ir_check.h"

static const char *text = "module @top {\n"
                          "  func.func private @decl()\n"
                          "  func.func @f() attributes {foo.uses = [@decl, {k = @inner::@g}]} {\n"
                          "    call @decl() : () -> ()\n"
                          "    return\n"
                          "  }\n"
                          "  module @inner {\n"
                          "    func.func @g() {\n"
                          "      call @g() : () -> ()\n"
                          "      return\n"
                          "    }\n"
                          "  }\n"
                          "}\n";

typedef struct uses {
  char buf[256];
  int stop_after;
} uses;

static bool record_use(nc_op *user, nc_attr *ref, void *u)
{
  uses *x = u;
  char *s = nc_attr_to_string(ref);
  snprintf(x->buf + strlen(x->buf), sizeof x->buf - strlen(x->buf), "%s:%s ", nc_ident_str(nc_op_get_name(user)), s);
  free(s);
  return --x->stop_after != 0;
}

int main(void)
{
  nc_context *ctx = ir_context();
  nc_op *top = ir_parse(ctx, text);
  CHECK(top, "parses");
  nc_op *decl = ir_body_op(top, 0), *f = ir_body_op(top, 1), *inner = ir_body_op(top, 2);
  nc_op *g = nc_block_get_first_op(nc_module_get_body(inner));

  CHECK(nc_symbol_get_name(f) == nc_ident_get_cstr(ctx, "f") && nc_symbol_get_name(top) == nc_ident_get_cstr(ctx, "top"),
        "names");
  CHECK(!nc_symbol_get_name(nc_block_get_first_op(nc_region_get_first_block(nc_op_get_region(f, 0)))), "not a symbol");
  CHECK(nc_symbol_is_private(decl) && !nc_symbol_is_private(f), "visibility");
  CHECK(nc_symbol_get_nearest_table(g) == inner && nc_symbol_get_nearest_table(inner) == top &&
            !nc_symbol_get_nearest_table(top),
        "nearest tables");

  nc_symbol_table *t = nc_symbol_table_create(top);
  CHECK(nc_symbol_table_lookup(t, nc_ident_get_cstr(ctx, "f")) == f, "lookup");
  CHECK(nc_symbol_table_lookup(t, nc_ident_get_cstr(ctx, "inner")) == inner, "nested table is a symbol");
  CHECK(!nc_symbol_table_lookup(t, nc_ident_get_cstr(ctx, "g")), "g is in the nested table only");
  nc_symbol_table_remove(t, f);
  CHECK(!nc_symbol_table_lookup(t, nc_ident_get_cstr(ctx, "f")) && nc_symbol_table_lookup(t, nc_ident_get_cstr(ctx, "decl")),
        "removed");
  nc_symbol_table_insert(t, f);
  CHECK(nc_symbol_table_lookup(t, nc_ident_get_cstr(ctx, "f")) == f, "re-inserted");
  /* many symbols: the table grows */
  for (int i = 0; i < 100; i++) {
    char name[16];
    snprintf(name, sizeof name, "s%d", i);
    nc_op *s = nc_op_create(&(nc_op_state){.ctx = ctx, .name = "foo.sym"});
    nc_op_set_attr_str(s, "sym_name", nc_attr_string_cstr(ctx, name));
    nc_block_append_op(nc_module_get_body(top), s);
    nc_symbol_table_insert(t, s);
  }
  CHECK(nc_symbol_table_lookup(t, nc_ident_get_cstr(ctx, "s77")) && nc_symbol_table_lookup(t, nc_ident_get_cstr(ctx, "f")) == f,
        "after growth");
  nc_symbol_table_destroy(t);

  nc_symbol_table_collection *c = nc_symbol_table_collection_create();
  CHECK(nc_symbol_table_collection_get(c, top) == nc_symbol_table_collection_get(c, top), "cached");
  CHECK(nc_symbol_lookup_nearest(c, f, nc_parse_attr(ctx, "@decl")) == decl, "flat reference");
  CHECK(nc_symbol_lookup_nearest(c, f, nc_parse_attr(ctx, "@inner::@g")) == g, "nested reference");
  CHECK(nc_symbol_lookup_nearest(c, g, nc_parse_attr(ctx, "@g")) == g, "from inside the nested module");
  CHECK(!nc_symbol_lookup_nearest(c, g, nc_parse_attr(ctx, "@decl")), "only the nearest table is searched");
  CHECK(nc_symbol_lookup_nearest(c, top, nc_parse_attr(ctx, "@f")) == f, "from the table op itself");
  CHECK(!nc_symbol_lookup_nearest(c, f, nc_parse_attr(ctx, "@f::@x")), "f is not a table");
  CHECK(!nc_symbol_lookup_nearest(c, f, nc_parse_attr(ctx, "\"f\"")), "not a reference");
  nc_symbol_table_collection_destroy(c);

  uses u = {"", -1};
  CHECK(nc_symbol_walk_uses(top, record_use, &u), "completes");
  CHECK_STR(u.buf, "func.func:@decl func.func:@inner::@g func.call:@decl func.call:@g ");
  uses stop = {"", 2};
  CHECK(!nc_symbol_walk_uses(top, record_use, &stop), "stopped");
  CHECK_STR(stop.buf, "func.func:@decl func.func:@inner::@g ");
  uses own = {"", -1};
  nc_symbol_walk_uses(inner, record_use, &own);
  CHECK_STR(own.buf, "func.call:@g ");

  /* the verifier checks the calls through the same machinery */
  CHECK(nc_op_verify(top), "valid");
  nc_op_destroy(top);
  nc_context_destroy(ctx);
  return ir_check_status("ir_symbol_test");
}
