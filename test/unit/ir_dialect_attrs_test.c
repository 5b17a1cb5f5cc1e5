/* ir_dialect_attrs_test.c: dialect attributes and types with real storage
 * (nc/ir/dialect_attrs.h), on a tiny `test` dialect: `#test.pair<3, "x">`
 * (hand-written hooks), `!test.vec<4 x i8>`, `#test.desc<key = value, ...>`
 * (a struct described by parameter rows, no hooks), `#test.blob<"...">`
 * (storage that owns malloc'ed memory) and `#test.flag` (no parameters).
 * Checks uniquing, storage access, parse/print round trips, hash/equal,
 * verify errors at file:line:col, ownership, threads and docs.
 */
#include <pthread.h>
#include <stddef.h>

#include "ir_check.h"
#include "nc/support/hash.h"

/* --- the test dialect ---------------------------------------------------------------------- */

typedef struct pair_storage {
  int64_t first;
  nc_ident *second;
} pair_storage;

static int pair_hash_calls;

static bool pair_parse(nc_asm_parser *p, void *storage, void *user_data)
{
  (void)user_data;
  pair_storage *s = storage;
  nc_attr *str;
  if (!nc_asm_parse_punct(p, "<") || !nc_asm_parse_integer(p, &s->first) || !nc_asm_parse_punct(p, ",") ||
      !nc_asm_parse_string(p, &str) || !nc_asm_parse_punct(p, ">"))
    return false;
  size_t len;
  const char *text = nc_attr_get_string(str, &len);
  s->second = nc_ident_get(nc_asm_parser_get_context(p), text, len);
  return true;
}

static void pair_print(nc_asm_printer *p, const void *storage, void *user_data)
{
  (void)user_data;
  const pair_storage *s = storage;
  nc_asm_printf(p, "<%lld, ", (long long)s->first);
  nc_asm_print_string(p, nc_ident_str(s->second), nc_ident_len(s->second));
  nc_asm_print(p, ">");
}

static bool pair_verify(nc_context *ctx, nc_location loc, const void *storage, void *user_data)
{
  const pair_storage *s = storage;
  if (s->first >= 0)
    return true;
  nc_emit_error(ctx, loc, "%s: the first element must be non-negative, not %lld", (const char *)user_data,
                (long long)s->first);
  return false;
}

static uint64_t pair_hash(const void *storage, void *user_data)
{
  (void)user_data;
  const pair_storage *s = storage;
  __atomic_fetch_add(&pair_hash_calls, 1, __ATOMIC_RELAXED);
  return (uint64_t)s->first * 31 + nc_ident_hash(s->second);
}

static bool pair_equal(const void *a, const void *b, void *user_data)
{
  (void)user_data;
  const pair_storage *x = a, *y = b;
  return x->first == y->first && x->second == y->second;
}

typedef struct vec_storage {
  int64_t n;
  nc_type *elt;
} vec_storage;

static bool vec_parse(nc_asm_parser *p, void *storage, void *user_data)
{
  (void)user_data;
  vec_storage *s = storage;
  return nc_asm_parse_punct(p, "<") && nc_asm_parse_integer(p, &s->n) && nc_asm_parse_keyword(p, "x") &&
         nc_asm_parse_type(p, &s->elt) && nc_asm_parse_punct(p, ">");
}

static void vec_print(nc_asm_printer *p, const void *storage, void *user_data)
{
  (void)user_data;
  const vec_storage *s = storage;
  nc_asm_printf(p, "<%lld x ", (long long)s->n);
  nc_asm_print_type(p, s->elt);
  nc_asm_print(p, ">");
}

static bool vec_verify(nc_context *ctx, nc_location loc, const void *storage, void *user_data)
{
  (void)user_data;
  const vec_storage *s = storage;
  if (s->n > 0)
    return true;
  nc_emit_error(ctx, loc, "a vec needs a positive length");
  return false;
}

/* A chip-description-like struct: no hooks, only parameter rows. Fields of
 * mixed sizes leave padding, which the field-wise default must ignore. */
typedef struct desc_storage {
  int64_t rows;
  int32_t cols;
  bool big;
  double clock_ghz;
  nc_ident *name;
  nc_type *elt;
  nc_attr *extra;
} desc_storage;

static const nc_dialect_param desc_params[] = {
  {"rows", NC_PARAM_I64, offsetof(desc_storage, rows), false, "core rows"},
  {"cols", NC_PARAM_I32, offsetof(desc_storage, cols), false, "core columns"},
  {"big", NC_PARAM_BOOL, offsetof(desc_storage, big), true, "a big chip"},
  {"clock_ghz", NC_PARAM_F64, offsetof(desc_storage, clock_ghz), true, "clock"},
  {"name", NC_PARAM_STRING, offsetof(desc_storage, name), true, "marketing name"},
  {"elt", NC_PARAM_TYPE, offsetof(desc_storage, elt), true, "element type"},
  {"extra", NC_PARAM_ATTR, offsetof(desc_storage, extra), true, "anything"},
};

/* Storage owning malloc'ed memory: copy duplicates it, destroy frees it. */
typedef struct blob_storage {
  char *text;
} blob_storage;

static int blob_destroys;

static bool blob_parse(nc_asm_parser *p, void *storage, void *user_data)
{
  (void)user_data;
  nc_attr *s;
  if (!nc_asm_parse_punct(p, "<") || !nc_asm_parse_string(p, &s) || !nc_asm_parse_punct(p, ">"))
    return false;
  ((blob_storage *)storage)->text = strdup(nc_attr_get_string(s, NULL));
  return true;
}

static void blob_print(nc_asm_printer *p, const void *storage, void *user_data)
{
  (void)user_data;
  const char *t = ((const blob_storage *)storage)->text;
  nc_asm_print(p, "<");
  nc_asm_print_string(p, t, strlen(t));
  nc_asm_print(p, ">");
}

static uint64_t blob_hash(const void *storage, void *user_data)
{
  (void)user_data;
  const char *t = ((const blob_storage *)storage)->text;
  return nc_hash_bytes(t, strlen(t), 1);
}

static bool blob_equal(const void *a, const void *b, void *user_data)
{
  (void)user_data;
  return !strcmp(((const blob_storage *)a)->text, ((const blob_storage *)b)->text);
}

static void blob_copy(nc_arena *arena, void *dst, const void *src, void *user_data)
{
  (void)arena;
  (void)user_data;
  ((blob_storage *)dst)->text = strdup(((const blob_storage *)src)->text);
}

static void blob_destroy(void *storage, void *user_data)
{
  (void)user_data;
  free(((blob_storage *)storage)->text);
  blob_destroys++;
}

static const nc_dialect_attr_def test_attrs[] = {
  {.mnemonic = "pair", .summary = "a number and a name", .storage_size = sizeof(pair_storage), .parse = pair_parse,
   .print = pair_print, .verify = pair_verify, .hash = pair_hash, .equal = pair_equal, .user_data = "test.pair"},
  {.mnemonic = "desc", .summary = "a chip description", .description = "Parameters as `key = value`.",
   .storage_size = sizeof(desc_storage), .params = desc_params, .n_params = NC_COUNTOF(desc_params)},
  {.mnemonic = "blob", .storage_size = sizeof(blob_storage), .parse = blob_parse, .print = blob_print,
   .hash = blob_hash, .equal = blob_equal, .copy = blob_copy, .destroy = blob_destroy},
  {.mnemonic = "flag", .summary = "no parameters"},
};

static const nc_dialect_type_def test_types[] = {
  {.mnemonic = "vec", .summary = "a short vector", .storage_size = sizeof(vec_storage), .parse = vec_parse,
   .print = vec_print, .verify = vec_verify},
};

static const nc_dialect_def test_dialect = {
  .name = "test",
  .summary = "attributes and types for the unit test",
  .attrs = test_attrs, .n_attrs = NC_COUNTOF(test_attrs),
  .types = test_types, .n_types = NC_COUNTOF(test_types),
};

#define PAIR (&test_attrs[0])
#define DESC (&test_attrs[1])
#define BLOB (&test_attrs[2])
#define FLAG (&test_attrs[3])
#define VEC (&test_types[0])

/* Records "line:col: message" of each diagnostic. */
static bool record_with_loc(const nc_diag *d, void *user)
{
  nc_context *ctx = user;
  nc_ident *file;
  unsigned line = 0, col = 0;
  nc_location_get_file_line_col(ctx, nc_diag_get_loc(d), &file, &line, &col);
  size_t len = strlen(ir_diags);
  snprintf(ir_diags + len, sizeof ir_diags - len, "%u:%u: %s\n", line, col, nc_diag_get_message(d));
  return true;
}

static nc_context *test_context(void)
{
  nc_context *ctx = nc_context_create();
  CHECK(nc_context_register_dialect(ctx, &test_dialect), "register");
  nc_context_push_diag_handler(ctx, record_with_loc, ctx);
  return ctx;
}

static char *to_string_and_check_reparse(nc_context *ctx, nc_attr *a)
{
  char *s = nc_attr_to_string(a);
  CHECK(nc_parse_attr(ctx, s) == a, "'%s' parses back to the same attribute", s);
  return s;
}

/* --- tests ---------------------------------------------------------------------------------------- */

static void test_attr_uniquing_and_storage(void)
{
  nc_context *ctx = test_context();
  nc_ident *x = nc_ident_get_cstr(ctx, "x"), *y = nc_ident_get_cstr(ctx, "y");
  pair_storage k1 = {3, x}, k2 = {3, x}, k3 = {4, x}, k4 = {3, y};
  nc_attr *a = nc_attr_dialect(ctx, PAIR, &k1);
  CHECK(a && nc_attr_get_kind(a) == NC_ATTR_DIALECT, "a dialect attribute");
  CHECK(nc_attr_dialect(ctx, PAIR, &k2) == a, "equal storage, same attribute");
  CHECK(nc_attr_dialect(ctx, PAIR, &k3) != a && nc_attr_dialect(ctx, PAIR, &k4) != a, "other storage, other attribute");
  CHECK(pair_hash_calls >= 4, "the hash hook is used");
  const pair_storage *s = nc_attr_dialect_get_storage(a);
  CHECK(s != &k1 && s->first == 3 && s->second == x, "the context keeps its own copy");
  CHECK(nc_attr_isa(a, PAIR) && !nc_attr_isa(a, DESC) && !nc_attr_isa(NULL, PAIR), "isa");
  CHECK(nc_attr_dialect_get_def(a) == PAIR && !nc_attr_dialect_get_def(nc_attr_unit(ctx)), "get_def");
  CHECK(!strcmp(nc_ident_str(nc_attr_dialect_get_namespace(a)), "test"), "namespace");
  CHECK(nc_attr_get_type(a) == NULL, "untyped");

  /* parse, print, round trip */
  ir_diags[0] = 0;
  CHECK(nc_parse_attr(ctx, "#test.pair<3, \"x\">") == a, "parses to the same attribute: %s", ir_diags);
  CHECK(nc_parse_attr(ctx, "#test.pair< 3 ,\n \"x\" >") == a, "whitespace does not matter");
  CHECK(nc_parse_attr(ctx, "#test<pair<3, \"x\">>") == a, "the bracket form too");
  char *str = to_string_and_check_reparse(ctx, a);
  CHECK_STR(str, "#test.pair<3, \"x\">");
  free(str);
  nc_attr *nested = nc_parse_attr(ctx, "[#test.pair<3, \"x\">, {k = #test.pair<4, \"x\">}]");
  CHECK(nested && nc_attr_get_element(nested, 0) == a, "nested in an array");
  str = nested ? to_string_and_check_reparse(ctx, nested) : NULL;
  CHECK_STR(str, "[#test.pair<3, \"x\">, {k = #test.pair<4, \"x\">}]");
  free(str);

  /* a definition with no parameters */
  nc_attr *flag = nc_parse_attr(ctx, "#test.flag");
  CHECK(flag && flag == nc_attr_dialect(ctx, FLAG, NULL) && nc_attr_isa(flag, FLAG), "#test.flag");
  str = flag ? nc_attr_to_string(flag) : NULL;
  CHECK_STR(str, "#test.flag");
  free(str);

  /* unknown mnemonics of a registered dialect stay opaque text */
  nc_attr *other = nc_parse_attr(ctx, "#test.other<1, 2>");
  CHECK(other && nc_attr_get_kind(other) == NC_ATTR_OPAQUE, "unknown mnemonic: opaque");

  /* a definition whose dialect is not registered gives NULL */
  static const nc_dialect_attr_def stray = {.mnemonic = "stray", .storage_size = 8};
  int64_t zero = 0;
  CHECK(nc_attr_dialect(ctx, &stray, &zero) == NULL, "unregistered definition");
  nc_context_destroy(ctx);
}

static void test_type(void)
{
  nc_context *ctx = test_context();
  vec_storage k = {4, nc_type_integer(ctx, 8, NC_SIGNLESS)};
  nc_type *t = nc_type_dialect(ctx, VEC, &k);
  CHECK(t && nc_type_get_kind(t) == NC_TYPE_DIALECT && nc_type_isa(t, VEC), "a dialect type");
  CHECK(nc_type_dialect(ctx, VEC, &k) == t, "uniqued");
  k.n = 5;
  CHECK(nc_type_dialect(ctx, VEC, &k) != t, "other storage, other type");
  const vec_storage *s = nc_type_dialect_get_storage(t);
  CHECK(s->n == 4 && s->elt == nc_type_integer(ctx, 8, NC_SIGNLESS), "storage");
  CHECK(nc_type_dialect_get_def(t) == VEC && !strcmp(nc_ident_str(nc_type_get_dialect(t)), "test"), "def, dialect");
  CHECK(nc_parse_type(ctx, "!test.vec<4 x i8>") == t, "parses: %s", ir_diags);
  char *str = nc_type_to_string(t);
  CHECK_STR(str, "!test.vec<4 x i8>");
  free(str);
  nc_type *tensor = nc_parse_type(ctx, "tensor<2x!test.vec<4 x i8>>");
  CHECK(tensor && nc_type_get_element_type(tensor) == t, "as an element type");
  str = tensor ? nc_type_to_string(tensor) : NULL;
  CHECK_STR(str, "tensor<2x!test.vec<4 x i8>>");
  free(str);
  nc_attr *ta = nc_parse_attr(ctx, "!test.vec<4 x i8>");
  CHECK(ta && nc_attr_get_type_value(ta) == t, "type attribute");

  /* in a whole module, generic form */
  const char *text = "\"x.op\"() {v = #test.pair<1, \"a\">} : () -> !test.vec<2 x f32>\n";
  nc_context_set_allow_unregistered_dialects(ctx, true);
  nc_op *m = nc_parse_string(ctx, text, strlen(text), "test.mlir");
  CHECK(m, "module parses: %s", ir_diags);
  if (m) {
    CHECK_PRINT(m, true,
                "\"builtin.module\"() ({\n  %0 = \"x.op\"() {v = #test.pair<1, \"a\">} : () -> !test.vec<2 x f32>\n"
                "}) : () -> ()\n");
    nc_op_destroy(m);
  }
  nc_context_destroy(ctx);
}

static void test_params(void)
{
  nc_context *ctx = test_context();
  desc_storage k1, k2;
  memset(&k1, 0x00, sizeof k1);
  memset(&k2, 0xab, sizeof k2); /* garbage in the padding */
  k1.rows = k2.rows = 16;
  k1.cols = k2.cols = 8;
  k1.big = k2.big = false;
  k1.clock_ghz = 0.0;
  k2.clock_ghz = -0.0;
  k1.name = k2.name = nc_ident_get_cstr(ctx, "np");
  k1.elt = k2.elt = NULL;
  k1.extra = k2.extra = NULL;
  nc_attr *a = nc_attr_dialect(ctx, DESC, &k1);
  CHECK(a && nc_attr_dialect(ctx, DESC, &k2) == a, "field-wise equality ignores padding and the sign of zero");
  char *str = to_string_and_check_reparse(ctx, a);
  CHECK_STR(str, "#test.desc<rows = 16, cols = 8, name = \"np\">");
  free(str);

  ir_diags[0] = 0;
  nc_attr *b = nc_parse_attr(ctx, "#test.desc<elt = i4, cols = -2, extra = [1, unit], rows = 1, big = true, "
                                  "clock_ghz = 1.25>");
  CHECK(b, "keys in any order: %s", ir_diags);
  if (b) {
    const desc_storage *s = nc_attr_dialect_get_storage(b);
    CHECK(s->rows == 1 && s->cols == -2 && s->big && s->clock_ghz == 1.25 && !s->name &&
              s->elt == nc_type_integer(ctx, 4, NC_SIGNLESS) && nc_attr_get_num_elements(s->extra) == 2,
          "fields");
    str = to_string_and_check_reparse(ctx, b);
    CHECK_STR(str, "#test.desc<rows = 1, cols = -2, big = true, clock_ghz = 1.25, elt = i4, extra = [1, unit]>");
    free(str);
  }
  desc_storage k3 = k1;
  k3.clock_ghz = 3.0;
  k3.name = NULL;
  str = nc_attr_to_string(nc_attr_dialect(ctx, DESC, &k3));
  CHECK_STR(str, "#test.desc<rows = 16, cols = 8, clock_ghz = 3.0>");
  CHECK(nc_parse_attr(ctx, str) == nc_attr_dialect(ctx, DESC, &k3), "floats read back");
  free(str);
  k3.clock_ghz = 0.1;
  str = nc_attr_to_string(nc_attr_dialect(ctx, DESC, &k3));
  CHECK_STR(str, "#test.desc<rows = 16, cols = 8, clock_ghz = 0.1>");
  free(str);
  nc_context_destroy(ctx);
}

/* Parses `text` (one attribute in an op on line 2) and expects exactly `want`
 * as the recorded diagnostics. */
static void check_error(nc_context *ctx, const char *attr_text, const char *want)
{
  char text[512];
  snprintf(text, sizeof text, "// line 1\n\"x.op\"() {a = %s} : () -> ()\n", attr_text);
  ir_diags[0] = 0;
  nc_op *m = nc_parse_string(ctx, text, strlen(text), "test.mlir");
  CHECK(!m, "'%s' must not parse", attr_text);
  if (m)
    nc_op_destroy(m);
  CHECK_STR(ir_diags, want);
}

static void test_errors(void)
{
  nc_context *ctx = test_context();
  nc_context_set_allow_unregistered_dialects(ctx, true);
  /* `"x.op"() {a = ` is 14 columns: the attribute starts at column 15 */
  check_error(ctx, "#test.pair<-1, \"x\">", "2:15: test.pair: the first element must be non-negative, not -1\n");
  check_error(ctx, "#test.pair<1 \"x\">", "2:28: expected ','\n");
  check_error(ctx, "#test.pair<1, 2>", "2:29: expected string literal\n");
  check_error(ctx, "#test.pair<1, \"x\", 3>", "2:32: expected '>'\n");
  check_error(ctx, "#test<pair<1, \"x\"> 3>", "2:34: unexpected text after the parameters of #test.pair\n");
  check_error(ctx, "#test.desc<rows = 1, colz = 2>", "2:36: unknown parameter 'colz'; expected one of: rows, cols, "
                                                     "big, clock_ghz, name, elt, extra\n");
  check_error(ctx, "#test.desc<rows = 1, rows = 2>", "2:36: parameter 'rows' appears twice\n");
  check_error(ctx, "#test.desc<rows = 1>", "2:34: missing parameter 'cols'\n");
  check_error(ctx, "#test.desc<rows = 1, cols = 4294967296>", "2:43: parameter 'cols' must fit in 32 bits\n");
  check_error(ctx, "#test.desc<rows = 1, cols = 2, big = 1>", "2:52: expected 'true' or 'false' for parameter 'big'\n");
  check_error(ctx, "#test.desc<rows = 1, cols = 2, elt = 3>", "2:52: expected type\n");
  check_error(ctx, "#test.flag<1>", "2:25: unexpected text after the parameters of #test.flag\n");
  check_error(ctx, "!test.vec<0 x i8>", "2:15: a vec needs a positive length\n");

  /* the checked constructor verifies */
  ir_diags[0] = 0;
  pair_storage bad = {-5, nc_ident_get_cstr(ctx, "x")};
  CHECK(!nc_attr_dialect_checked(ctx, nc_location_unknown(), PAIR, &bad), "checked constructor fails");
  CHECK_STR(ir_diags, "0:0: test.pair: the first element must be non-negative, not -5\n");
  bad.first = 5;
  CHECK(nc_attr_dialect_checked(ctx, nc_location_unknown(), PAIR, &bad) == nc_attr_dialect(ctx, PAIR, &bad),
        "checked constructor succeeds");
  vec_storage badv = {0, nc_type_f32(ctx)};
  CHECK(!nc_type_dialect_checked(ctx, nc_location_unknown(), VEC, &badv), "checked type constructor fails");

  /* unregistered dialects stay opaque where allowed */
  nc_attr *o = nc_parse_attr(ctx, "#zzz.pair<-1, \"x\">");
  CHECK(o && nc_attr_get_kind(o) == NC_ATTR_OPAQUE, "unregistered: opaque");
  nc_context_destroy(ctx);
}

static void test_ownership(void)
{
  blob_destroys = 0;
  nc_context *ctx = test_context();
  blob_storage k = {strdup("hello")};
  nc_attr *a = nc_attr_dialect(ctx, BLOB, &k);
  CHECK(a && ((const blob_storage *)nc_attr_dialect_get_storage(a))->text != k.text, "copied with the copy hook");
  CHECK(blob_destroys == 0, "the borrowed key is not destroyed");
  free(k.text);
  blob_storage owned = {strdup("hello")};
  CHECK(nc_attr_dialect_owned(ctx, BLOB, &owned) == a && blob_destroys == 1, "an owned duplicate key is destroyed");
  blob_storage fresh = {strdup("world")};
  char *text = fresh.text;
  nc_attr *b = nc_attr_dialect_owned(ctx, BLOB, &fresh);
  CHECK(b && b != a && ((const blob_storage *)nc_attr_dialect_get_storage(b))->text == text && blob_destroys == 1,
        "an owned new key is adopted, not copied");
  CHECK(nc_parse_attr(ctx, "#test.blob<\"hello\">") == a && blob_destroys == 2, "the parser's storage is released");
  ir_diags[0] = 0;
  CHECK(!nc_parse_attr(ctx, "#test.blob<\"hello\" 1>") && blob_destroys == 3, "released after a parse error too");
  nc_context_destroy(ctx);
  CHECK(blob_destroys == 5, "the context destroys its two copies (%d destroys)", blob_destroys);
}

typedef struct thread_arg {
  nc_context *ctx;
  nc_attr *got[64];
  nc_type *types[64];
} thread_arg;

static void *make_many(void *p)
{
  thread_arg *t = p;
  for (int i = 0; i < 64; i++) {
    pair_storage k = {i, nc_ident_get_cstr(t->ctx, "t")};
    t->got[i] = nc_attr_dialect(t->ctx, PAIR, &k);
    vec_storage v = {i + 1, nc_type_f32(t->ctx)};
    t->types[i] = nc_type_dialect(t->ctx, VEC, &v);
  }
  return NULL;
}

static void test_threads(void)
{
  nc_context *ctx = test_context();
  thread_arg args[4];
  pthread_t th[4];
  for (int i = 0; i < 4; i++) {
    args[i].ctx = ctx;
    pthread_create(&th[i], NULL, make_many, &args[i]);
  }
  for (int i = 0; i < 4; i++)
    pthread_join(th[i], NULL);
  bool same = true;
  for (int i = 1; i < 4; i++)
    for (int j = 0; j < 64; j++)
      same = same && args[i].got[j] == args[0].got[j] && args[i].types[j] == args[0].types[j];
  CHECK(same, "threads get the same uniqued attributes and types");
  nc_context_destroy(ctx);
}

static void test_docs(void)
{
  nc_context *ctx = test_context();
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  CHECK(nc_dialect_write_docs(ctx, "test", f), "docs");
  fclose(f);
  CHECK(strstr(buf, "## Attributes\n\n### `#test.pair`\n\n_a number and a name_\n"), "attribute section:\n%s", buf);
  CHECK(strstr(buf, "### `#test.desc`\n\n_a chip description_\n\nParameters as `key = value`.\n"), "description");
  CHECK(strstr(buf, "| `cols` | 32-bit integer | core columns |\n"), "parameter rows");
  CHECK(strstr(buf, "| `big` | `true` or `false` (optional) | a big chip |\n"), "optional parameter rows");
  CHECK(strstr(buf, "## Types\n\n### `!test.vec`\n\n_a short vector_\n"), "type section");
  free(buf);
  nc_context_destroy(ctx);
}

int main(void)
{
  test_attr_uniquing_and_storage();
  test_type();
  test_params();
  test_errors();
  test_ownership();
  test_threads();
  test_docs();
  return ir_check_status("ir_dialect_attrs_test");
}
