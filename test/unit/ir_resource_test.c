/* ir_resource_test.c: resource blobs: unique names (hint, hint_1, ...)
 * that are always bare identifiers, data and alignment, lookup, dense_resource
 * attributes reading their blob, the resource section written by the
 * printer and read back, names reused by a later parse, releasing a
 * blob's bytes (the name stays taken), and blobs that borrow their bytes
 * (released once: when dropped, or when the context goes; copied at once if
 * misaligned).
 */
#include "ir_check.h"

/* Counts a borrowed blob's releases and checks what they hand back. */
typedef struct releases {
  int n;
  const void *data;
  size_t size;
} releases;

static void count_release(void *user, const void *data, size_t size)
{
  releases *r = user;
  r->n++;
  r->data = data;
  r->size = size;
}

/* Borrowed blobs: read in place, let go of exactly once. */
static void test_borrowed(void)
{
  nc_context *ctx = ir_context();
  static const int32_t held[4] = {5, 6, 7, 8};
  releases ra = {0}, rb = {0}, rc = {0};
  nc_resource *a = nc_resource_create_borrowed(ctx, "lent", held, sizeof held, 4, count_release, &ra);
  CHECK(nc_resource_get_data(a) == held && nc_resource_is_borrowed(a) && ra.n == 0, "borrowed: no copy, not released");
  int64_t shape[] = {4};
  nc_type *t = nc_type_tensor(ctx, 1, shape, nc_type_integer(ctx, 32, NC_SIGNLESS), NULL);
  CHECK(nc_attr_dense_get_int(nc_attr_dense_resource(ctx, t, a), 3) == 8, "its elements read in place");
  nc_resource_drop_data(a);
  CHECK(ra.n == 1 && ra.data == held && ra.size == sizeof held && !nc_resource_get_data(a) &&
            !nc_resource_is_borrowed(a),
        "dropping releases it once (%d)", ra.n);
  nc_resource *b = nc_resource_create_borrowed(ctx, "lent", held, sizeof held, 4, count_release, &rb);
  CHECK(!strcmp(nc_ident_str(nc_resource_get_name(b)), "lent_1") && rb.n == 0, "unique names as other blobs");
  /* misaligned for its alignment: copied, and the borrow ends at once */
  const char *odd = (const char *)held + 1;
  nc_resource *c = nc_resource_create_borrowed(ctx, "odd", odd, 8, 4, count_release, &rc);
  CHECK(rc.n == 1 && rc.data == odd && nc_resource_get_data(c) != odd && !nc_resource_is_borrowed(c) &&
            (uintptr_t)nc_resource_get_data(c) % 4 == 0 && !memcmp(nc_resource_get_data(c), odd, 8),
        "misaligned bytes are copied and released at once");
  nc_resource *d = nc_resource_create_borrowed(ctx, "norelease", held, sizeof held, 4, NULL, NULL);
  CHECK(nc_resource_get_data(d) == held && nc_resource_is_borrowed(d), "a release callback is optional");
  nc_context_destroy(ctx);
  CHECK(rb.n == 1 && rb.data == held && ra.n == 1 && rc.n == 1, "the context releases what is still borrowed, once");
}

int main(void)
{
  nc_context *ctx = ir_context();
  int32_t data[] = {1, 2, 3};
  nc_resource *a = nc_resource_create(ctx, "weights", data, sizeof data, 4);
  nc_resource *b = nc_resource_create(ctx, "weights", data, sizeof data, 16);
  nc_resource *c = nc_resource_create(ctx, "weights", data, 4, 4);
  CHECK(!strcmp(nc_ident_str(nc_resource_get_name(a)), "weights"), "the hint when free");
  CHECK(!strcmp(nc_ident_str(nc_resource_get_name(b)), "weights_1"), "then _1: %s", nc_ident_str(nc_resource_get_name(b)));
  CHECK(!strcmp(nc_ident_str(nc_resource_get_name(c)), "weights_2"), "then _2");
  CHECK(nc_resource_lookup(ctx, "weights_1", 9) == b && !nc_resource_lookup(ctx, "weights_3", 9), "lookup");
  CHECK(nc_resource_get_size(a) == sizeof data && nc_resource_get_alignment(b) == 16, "size and alignment");
  data[0] = 99;
  CHECK(((const int32_t *)nc_resource_get_data(a))[0] == 1, "the bytes were copied");
  nc_resource *odd = nc_resource_create(ctx, "conv 1/weight-2", data, 4, 1);
  CHECK(!strcmp(nc_ident_str(nc_resource_get_name(odd)), "conv_1_weight_2"), "sanitised: %s",
        nc_ident_str(nc_resource_get_name(odd)));
  nc_resource *digit = nc_resource_create(ctx, "0abc", data, 4, 1);
  CHECK(!strcmp(nc_ident_str(nc_resource_get_name(digit)), "_0abc"), "must start like an identifier");
  nc_resource *blob = nc_resource_create(ctx, NULL, data, 4, 1);
  CHECK(!strcmp(nc_ident_str(nc_resource_get_name(blob)), "blob"), "default hint");
  void *owned = malloc(8);
  memset(owned, 0xab, 8);
  nc_resource *o = nc_resource_create_owned(ctx, "owned", owned, 8, 8);
  CHECK(nc_resource_get_data(o) == owned, "owned buffer adopted");

  /* a dense_resource attribute reads its elements from the blob */
  int64_t shape[] = {3};
  nc_type *t = nc_type_tensor(ctx, 1, shape, nc_type_integer(ctx, 32, NC_SIGNLESS), NULL);
  nc_attr *ra = nc_attr_dense_resource(ctx, t, a);
  CHECK(ra == nc_attr_dense_resource(ctx, t, a) && nc_attr_dense_resource_get(ra) == a, "uniqued");
  size_t n;
  bool splat;
  CHECK(nc_attr_elements_get_data(ra, &n, &splat) == nc_resource_get_data(a) && n == 12 && !splat, "elements");
  CHECK(nc_attr_dense_get_int(ra, 2) == 3, "element 2");
  CHECK(!nc_attr_elements_get_data(nc_attr_dense_resource(ctx, t, o), &n, &splat), "size mismatch gives no data");
  CHECK(nc_attr_elements_get_data(nc_attr_dense_resource(ctx, t, c), &n, &splat) && splat, "one element is a splat");

  /* the printer writes the blobs the IR uses; the parser reads them back */
  nc_op *m = nc_module_create(ctx, nc_location_unknown());
  nc_op *x = nc_op_create(&(nc_op_state){.ctx = ctx, .name = "foo.x"});
  nc_op_set_attr_str(x, "w", ra);
  nc_op_set_attr_str(x, "v", nc_attr_dense_resource(ctx, t, b));
  nc_block_append_op(nc_module_get_body(m), x);
  char *s = ir_print(m, false);
  CHECK_STR(s, "module {\n"
               "  \"foo.x\"() {v = dense_resource<weights_1> : tensor<3xi32>, w = dense_resource<weights> : tensor<3xi32>} "
               ": () -> ()\n"
               "}\n"
               "\n"
               "{-#\n"
               "  dialect_resources: {\n"
               "    builtin: {\n"
               "      weights_1: \"0x10000000010000000200000003000000\",\n"
               "      weights: \"0x04000000010000000200000003000000\"\n"
               "    }\n"
               "  }\n"
               "#-}\n");
  /* a second parse in the same context: its names are its own (the old
   * blobs are renamed away from, not overwritten) */
  nc_op *m2 = ir_parse(ctx, s);
  CHECK(m2, "reparsed");
  nc_attr *w2 = nc_op_get_attr_str(ir_body_op(m2, 0), "w");
  nc_resource *r2 = nc_attr_dense_resource_get(w2);
  CHECK(r2 != a && nc_resource_get_size(r2) == 12 && nc_resource_get_alignment(r2) == 4 &&
            !memcmp(nc_resource_get_data(r2), nc_resource_get_data(a), 12),
        "same data under a fresh name (%s)", nc_ident_str(nc_resource_get_name(r2)));
  CHECK(nc_attr_dense_get_int(w2, 1) == 2, "reparsed element");
  char *s2 = ir_print(m2, false);
  nc_op *m3 = ir_parse(ctx, s2);
  char *s3 = ir_print(m3, false);
  CHECK(m3 && strcmp(nc_ident_str(nc_resource_get_name(nc_attr_dense_resource_get(nc_op_get_attr_str(ir_body_op(m3, 0), "w")))),
                     nc_ident_str(nc_resource_get_name(nc_resource_lookup(ctx, "weights", 7)))) != 0,
        "names differ per parse");
  free(s);
  free(s2);
  free(s3);
  nc_op_destroy(m);
  nc_op_destroy(m2);
  nc_op_destroy(m3);

  CHECK(!nc_context_get_resources_releasable(ctx), "releasing is off by default");
  nc_context_set_resources_releasable(ctx, true);
  CHECK(nc_context_get_resources_releasable(ctx), "the owner turns it on");
  nc_resource *gone = nc_resource_create(ctx, "float_w", data, sizeof data, 4);
  nc_resource_drop_data(gone);
  CHECK(!nc_resource_get_data(gone) && nc_resource_get_size(gone) == 0, "released: no bytes");
  CHECK(nc_resource_lookup(ctx, "float_w", 7) == gone, "the name stays");
  nc_resource *next = nc_resource_create(ctx, "float_w", data, sizeof data, 4);
  CHECK(!strcmp(nc_ident_str(nc_resource_get_name(next)), "float_w_1"), "a new blob takes the next name, as before");
  nc_context_destroy(ctx);
  test_borrowed();
  return ir_check_status("ir_resource_test");
}
