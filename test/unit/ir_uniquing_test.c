/* ir_uniquing_test.c: identifiers, types and attributes are uniqued by the
 * context, so equal ones are the same pointer (also when created from many
 * threads at once); constructors canonicalise what MLIR canonicalises; and
 * every float value of every float type survives print -> parse exactly.
 */
#include <math.h>
#include <pthread.h>

#include "ir_check.h"

static void test_idents(nc_context *ctx)
{
  nc_ident *a = nc_ident_get_cstr(ctx, "conv1"), *b = nc_ident_get(ctx, "conv1.weight", 5);
  CHECK(a == b, "same bytes, different calls");
  CHECK(nc_ident_get_cstr(ctx, "conv2") != a, "different bytes");
  CHECK(nc_ident_len(a) == 5 && !strcmp(nc_ident_str(a), "conv1"), "contents");
  nc_ident *z = nc_ident_get(ctx, "a\0b", 3); /* embedded NUL */
  CHECK(z != nc_ident_get_cstr(ctx, "a") && nc_ident_len(z) == 3, "embedded NUL is part of the name");
  CHECK(nc_ident_get(ctx, "", 0) == nc_ident_get(ctx, "xyz", 0), "empty identifier");
  CHECK(nc_ident_hash(a) == nc_ident_hash(b), "hash is stable");
}

static void test_types(nc_context *ctx)
{
  nc_type *i32 = nc_type_integer(ctx, 32, NC_SIGNLESS), *f32 = nc_type_f32(ctx);
  CHECK(i32 == nc_parse_type(ctx, "i32"), "builtin scalar from the parser");
  CHECK(nc_type_integer(ctx, 4, NC_SIGNED) == nc_parse_type(ctx, "si4"), "si4");
  CHECK(nc_type_integer(ctx, 4, NC_UNSIGNED) != nc_type_integer(ctx, 4, NC_SIGNED), "signedness distinguishes");
  CHECK(!nc_type_integer(ctx, 0, NC_SIGNLESS) && !nc_type_integer(ctx, 65, NC_SIGNLESS), "width limits");
  CHECK(nc_type_get_width(nc_type_bf16(ctx)) == 16 && nc_type_get_width(nc_type_index(ctx)) == 64, "widths");

  int64_t s1[] = {2, NC_DYNAMIC, 4}, s2[] = {2, NC_DYNAMIC, 4};
  nc_type *t1 = nc_type_tensor(ctx, 3, s1, f32, NULL), *t2 = nc_type_tensor(ctx, 3, s2, f32, NULL);
  CHECK(t1 == t2, "tensor types with equal shapes");
  CHECK(t1 == nc_parse_type(ctx, "tensor<2x?x4xf32>"), "tensor from the parser");
  CHECK(t1 != nc_type_tensor(ctx, 2, s1, f32, NULL), "rank distinguishes");
  CHECK(nc_type_tensor(ctx, 3, s1, f32, nc_attr_string_cstr(ctx, "enc")) != t1, "encoding distinguishes");
  CHECK(!nc_type_has_static_shape(t1) && nc_type_get_num_elements(t1) == -1, "dynamic shape");
  int64_t bad[] = {-3};
  CHECK(!nc_type_tensor(ctx, 1, bad, f32, NULL), "negative dimension refused");
  int64_t zero[] = {0};
  CHECK(!nc_type_vector(ctx, 1, zero, f32) && !nc_type_vector(ctx, 0, NULL, f32), "vectors need positive dims");
  int64_t huge[] = {INT64_MAX, 4};
  CHECK(nc_type_get_num_elements(nc_type_tensor(ctx, 2, huge, f32, NULL)) == -1, "element count overflow");

  nc_type *u = nc_type_unranked_tensor(ctx, f32);
  CHECK(u == nc_parse_type(ctx, "tensor<*xf32>") && !nc_type_has_rank(u), "unranked");

  nc_type *in[] = {i32, f32}, *out[] = {f32};
  nc_type *fn = nc_type_function(ctx, 2, in, 1, out);
  CHECK(fn == nc_parse_type(ctx, "(i32, f32) -> f32"), "function type");
  CHECK(fn != nc_type_function(ctx, 1, in, 2, in), "split of inputs/results matters");
  CHECK(nc_type_get_num_inputs(fn) == 2 && nc_type_get_result(fn, 0) == f32, "function accessors");
  nc_type *many[40];
  for (int i = 0; i < 40; i++)
    many[i] = i % 2 ? i32 : f32;
  CHECK(nc_type_function(ctx, 20, many, 20, many + 20) == nc_type_function(ctx, 20, many, 20, many + 20),
        "long function types (heap key)");
  CHECK(nc_type_tuple(ctx, 0, NULL) == nc_parse_type(ctx, "tuple<>"), "empty tuple");
  CHECK(nc_type_tuple(ctx, 2, in) == nc_parse_type(ctx, "tuple<i32, f32>"), "tuple");

  /* memrefs: the default memory space 0 and identity layouts are dropped */
  int64_t m[] = {4, 4};
  nc_type *plain = nc_type_memref(ctx, 2, m, f32, NULL, NULL);
  CHECK(nc_type_memref(ctx, 2, m, f32, NULL, nc_attr_integer(ctx, nc_type_integer(ctx, 64, NC_SIGNLESS), 0)) == plain,
        "memory space 0 is the default");
  CHECK(nc_parse_type(ctx, "memref<4x4xf32, affine_map<(d0, d1) -> (d0, d1)>>") == plain, "identity layout dropped");
  CHECK(nc_parse_type(ctx, "memref<4x4xf32, affine_map<(d0, d1) -> (d1, d0)>>") != plain, "permutation kept");
  CHECK(nc_parse_type(ctx, "memref<4x4xf32, 1>") == nc_parse_type(ctx, "memref<4x4xf32, 1 : i64>"), "space 1");

  nc_ident *foo = nc_ident_get_cstr(ctx, "foo");
  nc_type *o1 = nc_type_opaque(ctx, foo, "buf<4>", 6);
  CHECK(o1 == nc_parse_type(ctx, "!foo.buf<4>"), "dialect type, pretty form");
  CHECK(o1 == nc_parse_type(ctx, "!foo<buf<4>>"), "dialect type, bracket form has the same body (as in MLIR)");
  CHECK(o1 != nc_parse_type(ctx, "!foo<\"buf<4>\">"), "quotes are part of a bracket body");
  size_t blen;
  CHECK(nc_type_get_dialect(o1) == foo && !memcmp(nc_type_get_body(o1, &blen), "buf<4>", 6) && blen == 6, "body");
}

static void test_attrs(nc_context *ctx)
{
  nc_type *i8 = nc_type_integer(ctx, 8, NC_SIGNLESS), *u8 = nc_type_integer(ctx, 8, NC_UNSIGNED);
  nc_type *i64 = nc_type_integer(ctx, 64, NC_SIGNLESS), *f32 = nc_type_f32(ctx);
  /* integers are normalised to their type's width */
  CHECK(nc_attr_integer(ctx, i8, 255) == nc_attr_integer(ctx, i8, -1), "i8 wraps");
  CHECK(nc_attr_get_int(nc_attr_integer(ctx, u8, -1)) == 255, "ui8 zero-extends");
  CHECK(nc_attr_get_int(nc_attr_integer(ctx, nc_type_integer(ctx, 4, NC_SIGNED), 15)) == -1, "si4 sign-extends");
  CHECK(nc_attr_get_int(nc_attr_integer(ctx, nc_type_integer(ctx, 1, NC_SIGNED), 1)) == -1, "si1 is 0 or -1");
  CHECK(nc_attr_integer(ctx, nc_type_integer(ctx, 1, NC_SIGNLESS), 3) == nc_attr_bool(ctx, true), "i1 is a bool");
  CHECK(nc_attr_integer(ctx, i8, 1) != nc_attr_integer(ctx, u8, 1), "type distinguishes");
  CHECK(nc_parse_attr(ctx, "42") == nc_attr_integer(ctx, i64, 42), "bare integer is i64");
  CHECK(nc_parse_attr(ctx, "-1 : i8") == nc_attr_integer(ctx, i8, 255), "parsed integer");
  CHECK(nc_parse_attr(ctx, "true") == nc_attr_bool(ctx, true), "true");

  CHECK(nc_attr_float(ctx, f32, 0.5) == nc_attr_float_bits(ctx, f32, 0x3f000000), "float from double and bits");
  CHECK(nc_attr_float_bits(ctx, f32, 0x7fc00001) != nc_attr_float_bits(ctx, f32, 0x7fc00000), "NaN payloads differ");
  CHECK(nc_attr_float(ctx, f32, 0.0) != nc_attr_float(ctx, f32, -0.0), "-0 differs from 0");
  CHECK(nc_attr_get_float_bits(nc_attr_float(ctx, nc_type_f16(ctx), 65520.0)) == 0x7c00, "f16 rounds to inf");
  CHECK(nc_attr_get_float_bits(nc_attr_float(ctx, nc_type_bf16(ctx), 1.0)) == 0x3f80, "bf16 1.0");

  CHECK(nc_attr_string(ctx, "ab", 2) == nc_attr_string_cstr(ctx, "ab"), "strings");
  CHECK(nc_attr_string(ctx, "a\0b", 3) != nc_attr_string(ctx, "a", 1), "strings with NUL");
  CHECK(nc_parse_attr(ctx, "\"a\\00b\"") == nc_attr_string(ctx, "a\0b", 3), "escaped NUL");
  CHECK(nc_attr_unit(ctx) == nc_parse_attr(ctx, "unit"), "unit");

  nc_attr *e[] = {nc_attr_integer(ctx, i64, 1), nc_attr_unit(ctx)};
  CHECK(nc_attr_array(ctx, 2, e) == nc_parse_attr(ctx, "[1, unit]"), "array");
  CHECK(nc_attr_array(ctx, 0, NULL) == nc_parse_attr(ctx, "[]") && nc_attr_array(ctx, 0, NULL) == nc_attr_array(ctx, 0, e),
        "empty array");

  /* dictionaries are sorted; duplicates are refused */
  nc_ident *ka = nc_ident_get_cstr(ctx, "a"), *kb = nc_ident_get_cstr(ctx, "b");
  nc_named_attr ab[] = {{kb, e[0]}, {ka, e[1]}}, ba[] = {{ka, e[1]}, {kb, e[0]}}, dup[] = {{ka, e[0]}, {ka, e[1]}};
  nc_attr *d = nc_attr_dictionary(ctx, 2, ab);
  CHECK(d == nc_attr_dictionary(ctx, 2, ba), "order of entries does not matter");
  CHECK(nc_attr_get_entry(d, 0).name == ka, "sorted by name");
  CHECK(!nc_attr_dictionary(ctx, 2, dup), "duplicate keys");
  CHECK(nc_attr_dictionary(ctx, 0, NULL) == nc_attr_empty_dictionary(ctx), "empty dictionary");
  CHECK(nc_attr_dict_get(d, kb) == e[0] && nc_attr_dict_get_str(d, "a") == e[1] && !nc_attr_dict_get_str(d, "c"),
        "lookups");
  CHECK(nc_attr_dict_set(ctx, d, kb, NULL) == nc_attr_dictionary(ctx, 1, ba), "removal");
  CHECK(nc_attr_dict_set(ctx, NULL, ka, e[1]) == nc_attr_dictionary(ctx, 1, ba), "set on empty");
  /* big dictionaries use binary search */
  nc_named_attr big[40];
  for (int i = 0; i < 40; i++) {
    char name[8];
    snprintf(name, sizeof name, "k%02d", 39 - i);
    big[i] = (nc_named_attr){nc_ident_get_cstr(ctx, name), nc_attr_integer(ctx, i64, 39 - i)};
  }
  nc_attr *bd = nc_attr_dictionary(ctx, 40, big);
  CHECK(nc_attr_get_int(nc_attr_dict_get(bd, nc_ident_get_cstr(ctx, "k17"))) == 17, "binary search");
  CHECK(!nc_attr_dict_get(bd, nc_ident_get_cstr(ctx, "k40")), "missing key");

  nc_ident *nested[] = {kb};
  CHECK(nc_attr_symbol_ref(ctx, ka, 1, nested) == nc_parse_attr(ctx, "@a::@b"), "nested symbol ref");
  CHECK(nc_attr_symbol_ref(ctx, ka, 0, NULL) != nc_parse_attr(ctx, "@a::@b"), "flat ref differs");
  CHECK(nc_attr_type(ctx, f32) == nc_parse_attr(ctx, "f32"), "type attribute");
  int64_t v[] = {1, -2};
  CHECK(nc_attr_dense_i64_array(ctx, 2, v) == nc_parse_attr(ctx, "array<i64: 1, -2>"), "dense array");
  CHECK(nc_attr_dense_array_get_int(nc_parse_attr(ctx, "array<i8: -3>"), 0) == -3, "dense array element");

  /* dense elements: all-equal data is a splat, so equal data is equal attributes */
  int64_t shape[] = {2, 2};
  nc_type *t = nc_type_tensor(ctx, 2, shape, nc_type_integer(ctx, 32, NC_SIGNLESS), NULL);
  int32_t same[] = {7, 7, 7, 7}, one = 7, diff[] = {1, 2, 3, 4};
  nc_attr *splat = nc_attr_dense_elements(ctx, t, &one, 4);
  CHECK(splat && nc_attr_dense_is_splat(splat), "splat");
  CHECK(nc_attr_dense_elements(ctx, t, same, sizeof same) == splat, "all-equal data is the splat");
  CHECK(nc_parse_attr(ctx, "dense<7> : tensor<2x2xi32>") == splat, "parsed splat");
  nc_attr *full = nc_attr_dense_elements(ctx, t, diff, sizeof diff);
  CHECK(full == nc_parse_attr(ctx, "dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>"), "parsed dense");
  CHECK(nc_attr_dense_get_int(full, 3) == 4 && nc_attr_dense_get_int(splat, 3) == 7, "element access");
  CHECK(!nc_attr_dense_elements(ctx, t, diff, 12), "size must fit the type");
  void *owned = malloc(sizeof diff);
  memcpy(owned, diff, sizeof diff);
  CHECK(nc_attr_dense_elements_owned(ctx, t, owned, sizeof diff) == full, "owned buffer of existing data");
  int8_t sub[] = {15, -1};
  int64_t two[] = {2};
  nc_type *ti4 = nc_type_tensor(ctx, 1, two, nc_type_integer(ctx, 4, NC_SIGNLESS), NULL);
  nc_attr *i4 = nc_attr_dense_elements(ctx, ti4, sub, 2);
  CHECK(i4 && nc_attr_dense_is_splat(i4) && nc_attr_dense_get_int(i4, 1) == -1, "i4 values normalised (15 is -1)");
  CHECK(sub[0] == 15, "the caller's data is not modified");

  nc_ident *foo = nc_ident_get_cstr(ctx, "foo");
  CHECK(nc_attr_opaque(ctx, foo, "x<1>", 4) == nc_parse_attr(ctx, "#foo.x<1>"), "dialect attribute");
  CHECK(nc_attr_opaque(ctx, foo, "x<1>", 4) == nc_parse_attr(ctx, "#foo<x<1>>"), "bracket form");

  /* locations */
  nc_ident *file = nc_ident_get_cstr(ctx, "a.c");
  nc_attr *l1 = nc_loc_file(ctx, file, 1, 2);
  CHECK(l1 == nc_parse_attr(ctx, "loc(\"a.c\":1:2)"), "file location");
  CHECK(nc_loc_name(ctx, foo, NULL) == nc_loc_name(ctx, foo, nc_loc_unknown(ctx)), "name loc child defaults to unknown");
  nc_attr *l2 = nc_loc_name(ctx, foo, NULL);
  nc_attr *fl[] = {l1, nc_loc_unknown(ctx), l2, l1};
  nc_attr *fused = nc_loc_fused(ctx, 4, fl, NULL);
  CHECK(nc_loc_get_num_fused(fused) == 2, "fused: unknowns and duplicates dropped (%zu)", nc_loc_get_num_fused(fused));
  nc_attr *inner[] = {fused, l2};
  CHECK(nc_loc_fused(ctx, 2, inner, NULL) == fused, "fused: nested fused flattened");
  CHECK(nc_loc_fused(ctx, 1, fl, NULL) == l1, "fused: one location is itself");
  CHECK(nc_loc_fused(ctx, 0, NULL, NULL) == nc_loc_unknown(ctx), "fused: none is unknown");
  nc_attr *meta = nc_attr_string_cstr(ctx, "m");
  CHECK(nc_loc_get_num_fused(nc_loc_fused(ctx, 1, fl, meta)) == 1, "fused with metadata keeps one location");
  CHECK(nc_loc_get_num_fused(nc_loc_fused(ctx, 0, NULL, meta)) == 1, "fused with metadata and nothing: [unknown]");
  CHECK(nc_loc_get_num_fused(nc_loc_fused(ctx, 2, inner, meta)) == 2, "different metadata is not flattened");
}

/* --- threads: everybody gets the same pointers ----------------------------------------- */

enum { N_THREADS = 8, N_ITEMS = 300 };

typedef struct thread_out {
  nc_context *ctx;
  nc_ident *ids[N_ITEMS];
  nc_type *types[N_ITEMS];
  nc_attr *attrs[N_ITEMS];
} thread_out;

static void *make_things(void *arg)
{
  thread_out *o = arg;
  nc_context *ctx = o->ctx;
  for (int i = 0; i < N_ITEMS; i++) {
    char name[32];
    snprintf(name, sizeof name, "name%d", i);
    o->ids[i] = nc_ident_get_cstr(ctx, name);
    int64_t shape[] = {i + 1, 3};
    o->types[i] = nc_type_tensor(ctx, 2, shape, nc_type_integer(ctx, 1 + i % 64, NC_SIGNLESS), NULL);
    nc_attr *elts[] = {nc_attr_integer(ctx, nc_type_integer(ctx, 32, NC_SIGNLESS), i), nc_attr_string_cstr(ctx, name),
                       nc_attr_type(ctx, o->types[i])};
    nc_named_attr e = {o->ids[i], nc_attr_array(ctx, 3, elts)};
    o->attrs[i] = nc_attr_dictionary(ctx, 1, &e);
  }
  return NULL;
}

static void test_threads(void)
{
  nc_context *ctx = nc_context_create();
  static thread_out outs[N_THREADS];
  pthread_t th[N_THREADS];
  for (int t = 0; t < N_THREADS; t++) {
    outs[t].ctx = ctx;
    pthread_create(&th[t], NULL, make_things, &outs[t]);
  }
  for (int t = 0; t < N_THREADS; t++)
    pthread_join(th[t], NULL);
  int mismatches = 0;
  for (int t = 1; t < N_THREADS; t++)
    for (int i = 0; i < N_ITEMS; i++)
      mismatches += outs[t].ids[i] != outs[0].ids[i] || outs[t].types[i] != outs[0].types[i] ||
                    outs[t].attrs[i] != outs[0].attrs[i];
  CHECK(mismatches == 0, "%d objects differ between threads", mismatches);
  /* and the same as created afterwards on this thread */
  CHECK(nc_ident_get_cstr(ctx, "name17") == outs[3].ids[17], "ident after the threads");
  CHECK(nc_parse_type(ctx, "tensor<18x3xi18>") == outs[5].types[17], "type after the threads");
  nc_context_destroy(ctx);
}

/* --- floats: print -> parse is exact for every value --------------------------------- */

static int float_roundtrip(nc_context *ctx, nc_type *t, uint64_t bits)
{
  nc_attr *a = nc_attr_float_bits(ctx, t, bits);
  char *s = nc_attr_to_string(a);
  nc_attr *b = nc_parse_attr(ctx, s);
  int bad = b != a;
  if (bad && failures < 20)
    fprintf(stderr, "float 0x%llx printed as %s does not read back\n", (unsigned long long)bits, s);
  free(s);
  return bad;
}

static void test_floats(void)
{
  nc_context *ctx = nc_context_create();
  int bad = 0;
  for (uint32_t b = 0; b < 65536; b++) { /* every f16 and bf16 value, NaNs and infinities included */
    bad += float_roundtrip(ctx, nc_type_f16(ctx), b);
    bad += float_roundtrip(ctx, nc_type_bf16(ctx), b);
  }
  uint64_t x = 0x9e3779b97f4a7c15ull;
  for (int i = 0; i < 60000; i++) { /* random f32 and f64 bit patterns, plus their neighbours */
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    bad += float_roundtrip(ctx, nc_type_f32(ctx), x & 0xffffffffu);
    bad += float_roundtrip(ctx, nc_type_f64(ctx), x);
    bad += float_roundtrip(ctx, nc_type_f64(ctx), (x & 0x000fffffffffffffull) | 0x3ff0000000000000ull);
  }
  static const uint64_t f32_edge[] = {0, 0x80000000, 1, 0x7f7fffff, 0x00800000, 0x007fffff, 0x7f800000, 0xff800000,
                                      0x7fc00000, 0x7f800001, 0xffffffff, 0x3f800000, 0x4b800001};
  for (size_t i = 0; i < NC_COUNTOF(f32_edge); i++)
    bad += float_roundtrip(ctx, nc_type_f32(ctx), f32_edge[i]);
  static const uint64_t f64_edge[] = {0, 0x8000000000000000ull, 1, 0x7fefffffffffffffull, 0x0010000000000000ull,
                                      0x7ff0000000000000ull, 0x7ff8000000000000ull, 0x7ff0000000000001ull,
                                      0xffffffffffffffffull, 0x3fb999999999999aull};
  for (size_t i = 0; i < NC_COUNTOF(f64_edge); i++)
    bad += float_roundtrip(ctx, nc_type_f64(ctx), f64_edge[i]);
  CHECK(bad == 0, "%d float values do not round-trip", bad);
  /* MLIR's spelling of special values: hex bits */
  char *s = nc_attr_to_string(nc_attr_float_bits(ctx, nc_type_f32(ctx), 0x7fc00000));
  CHECK_STR(s, "0x7FC00000 : f32");
  free(s);
  s = nc_attr_to_string(nc_attr_float_bits(ctx, nc_type_f16(ctx), 0xfc00));
  CHECK_STR(s, "0xFC00 : f16");
  free(s);
  s = nc_attr_to_string(nc_attr_float(ctx, nc_type_f64(ctx), 1.5));
  CHECK_STR(s, "1.500000e+00 : f64");
  free(s);
  nc_context_destroy(ctx);
}

static void test_strings(nc_context *ctx)
{
  static const struct { const char *in, *out; } cases[] = {
    {"i32", "i32"}, {"tensor<1x?x*xf32>", NULL}, {"memref<4xf32, 1 : i64>", "memref<4xf32, 1>"},
    {"!foo<\"x y\">", "!foo<\"x y\">"}, {"!foo<abc>", "!foo.abc"}, {"(i32) -> (i32)", "(i32) -> i32"},
    {"tuple<i32,f32>", "tuple<i32, f32>"}, {"complex<f16>", "complex<f16>"}, {"vector<2x4xi8>", "vector<2x4xi8>"},
  };
  for (size_t i = 0; i < NC_COUNTOF(cases); i++) {
    nc_type *t = nc_parse_type(ctx, cases[i].in);
    if (!cases[i].out) {
      CHECK(!t, "'%s' must not parse", cases[i].in);
      continue;
    }
    char *s = t ? nc_type_to_string(t) : NULL;
    CHECK_STR(s, cases[i].out);
    free(s);
  }
  CHECK(!nc_parse_type(ctx, "i32 extra"), "trailing characters");
  CHECK(!nc_parse_attr(ctx, "1 : i32 2"), "trailing characters after an attribute");
  CHECK(!nc_parse_attr(ctx, "\"unterminated"), "unterminated string");
  char *s = nc_attr_to_string(nc_parse_attr(ctx, "{b = \"q\\\"\\\\\\n\", a = [1.0, 0x7FF0000000000000 : f64]}"));
  CHECK_STR(s, "{a = [1.000000e+00, 0x7FF0000000000000 : f64], b = \"q\\22\\\\\\0A\"}");
  free(s);
}

/* --- the memo of passed checks and facts: keyed by uniqued objects, kept across growth --- */

static void test_check_memo(void)
{
  nc_context *ctx = nc_context_create();
  nc_attr *keys[300];
  for (int i = 0; i < 300; i++)
    keys[i] = nc_attr_integer(ctx, nc_type_integer(ctx, 64, NC_SIGNLESS), i);
  CHECK(!nc_context_check_passed(ctx, keys[0]), "an empty memo holds nothing");
  for (int i = 0; i < 300; i += 2)
    nc_context_note_check_passed(ctx, keys[i]);
  nc_context_note_check_passed(ctx, keys[0]); /* twice is once */
  int wrong = 0;
  for (int i = 0; i < 300; i++)
    wrong += nc_context_check_passed(ctx, keys[i]) != (i % 2 == 0);
  CHECK(wrong == 0, "%d keys answer wrongly after the memo grew", wrong);

  /* facts: a value per (key, kind); a kind is any static address */
  static const char kind_a = 0, kind_b = 0;
  int64_t v = -7;
  CHECK(!nc_context_get_fact(ctx, keys[0], &kind_a, &v) && v == -7, "no fact yet, the value untouched");
  for (int i = 0; i < 300; i++)
    nc_context_note_fact(ctx, keys[i], &kind_a, 1000 + i);
  for (int i = 0; i < 300; i += 3)
    nc_context_note_fact(ctx, keys[i], &kind_b, -i);
  nc_context_note_fact(ctx, keys[5], &kind_a, 42); /* again: replaced */
  wrong = 0;
  for (int i = 0; i < 300; i++) {
    bool has_b = nc_context_get_fact(ctx, keys[i], &kind_b, &v);
    wrong += has_b != (i % 3 == 0) || (has_b && v != -i);
    wrong += !nc_context_get_fact(ctx, keys[i], &kind_a, &v) || v != (i == 5 ? 42 : 1000 + i);
  }
  CHECK(wrong == 0, "%d facts answer wrongly after the table grew", wrong);
  CHECK(!nc_context_check_passed(ctx, keys[1]), "facts are not passed checks");
  nc_context_destroy(ctx);
}

int main(void)
{
  nc_context *ctx = ir_context();
  unsigned h = nc_context_push_diag_handler(ctx, ir_record_diag, NULL); /* expected parse errors stay quiet */
  test_idents(ctx);
  test_types(ctx);
  test_attrs(ctx);
  test_strings(ctx);
  nc_context_pop_diag_handler(ctx, h);
  nc_context_destroy(ctx);
  test_threads();
  test_floats();
  test_check_memo();
  return ir_check_status("ir_uniquing_test");
}
