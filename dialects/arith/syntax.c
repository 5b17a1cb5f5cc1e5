/* syntax.c: the custom syntax of the arith ops that declarative formats
 * cannot say: MLIR prints the flag attributes stripped of their dialect
 * prefix (`overflow<nsw>`, `fastmath<fast>`) and elides them at their
 * default, and arith.select spells its condition type only when it is
 * shaped. One parser/printer pair serves every flagged op by reading the op
 * table (predicate? rounding mode? which flag? a cast?).
 */
#include <string.h>

#include "arith-internal.h"

/* --- flag attributes ------------------------------------------------------------------------------- */

static const char *const overflow_names[] = {"nsw", "nuw"};
static const char *const fastmath_names[] = {"reassoc", "nnan", "ninf", "nsz", "arcp", "contract", "afn"};

/* Parses `none` or `a, b, ...` (spaces allowed) against the flag names. */
static bool parse_flag_list(const char *s, size_t len, const char *const *names, size_t n, unsigned all,
                            unsigned *flags)
{
  *flags = 0;
  size_t i = 0;
  bool any = false;
  for (;;) {
    while (i < len && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n'))
      i++;
    size_t start = i;
    while (i < len && ((s[i] >= 'a' && s[i] <= 'z') || s[i] == '_'))
      i++;
    size_t wl = i - start;
    if (!wl)
      return false;
    bool found = false;
    if (wl == 4 && !memcmp(s + start, "none", 4))
      found = true;
    else if (all && wl == 4 && !memcmp(s + start, "fast", 4))
      found = true, *flags |= all;
    for (size_t k = 0; k < n && !found; k++)
      if (strlen(names[k]) == wl && !memcmp(names[k], s + start, wl)) {
        *flags |= 1u << k;
        found = true;
      }
    if (!found)
      return false;
    any = true;
    while (i < len && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n'))
      i++;
    if (i == len)
      return any;
    if (s[i] != ',')
      return false;
    i++;
  }
}

/* MLIR's spelling: `nsw, nuw` for overflow flags, `nnan,nsz` or `fast` for fast-math flags. */
static size_t flag_text(char *buf, size_t cap, bool fastmath, unsigned flags)
{
  const char *const *names = fastmath ? fastmath_names : overflow_names;
  size_t n = fastmath ? 7 : 2, len = 0;
  if (fastmath && flags == NC_ARITH_FASTMATH_FAST)
    return (size_t)snprintf(buf, cap, "fast");
  if (!flags) { /* the usual case, printed on every op in generic form */
    memcpy(buf, "none", 5);
    return 4;
  }
  for (size_t k = 0; k < n; k++)
    if (flags & (1u << k))
      len += (size_t)snprintf(buf + len, cap - len, "%s%s", len ? (fastmath ? "," : ", ") : "", names[k]);
  return len;
}

/* `<a, b, ...>`: the flag list of either attribute, in the attribute or
 * after the op's `overflow` / `fastmath` keyword. */
static bool parse_flag_params(nc_asm_parser *p, bool fastmath, unsigned *flags)
{
  if (!nc_asm_parse_punct(p, "<"))
    return false;
  const char *const *names = fastmath ? fastmath_names : overflow_names;
  size_t n = fastmath ? 7 : 2;
  *flags = 0;
  do {
    const char *w;
    size_t len;
    nc_location wloc = nc_asm_parser_get_loc(p);
    unsigned f;
    if (!nc_asm_parse_optional_any_keyword(p, &w, &len) ||
        !parse_flag_list(w, len, names, n, fastmath ? NC_ARITH_FASTMATH_FAST : 0, &f))
      return nc_asm_parser_error(p, wloc, "%s", fastmath ? arith_fastmath_expected : arith_overflow_expected);
    *flags |= f;
  } while (nc_asm_parse_optional_punct(p, ","));
  return nc_asm_parse_punct(p, ">");
}

/* The two attributes' storage: the flag bits. user_data is non-NULL for fastmath. */
typedef struct flags_storage {
  unsigned flags;
} flags_storage;

static bool parse_flags_attr(nc_asm_parser *p, void *storage, void *user_data)
{
  return parse_flag_params(p, user_data != NULL, &((flags_storage *)storage)->flags);
}

static void print_flags_attr(nc_asm_printer *p, const void *storage, void *user_data)
{
  char buf[128];
  buf[0] = '<';
  size_t n = flag_text(buf + 1, sizeof buf - 2, user_data != NULL, ((const flags_storage *)storage)->flags);
  buf[n + 1] = '>';
  nc_asm_printn(p, buf, n + 2);
}

const nc_dialect_attr_def arith_attr_defs[ARITH_NUM_ATTRS] = {
  {.mnemonic = "overflow", .summary = "Integer overflow arith flags",
   .description = "`#arith.overflow<nsw, nuw>` (or `none`): the flags of `addi`, `subi`, `muli`, `shli`; "
                  "printed `overflow<...>` in the ops' custom syntax.",
   .storage_size = sizeof(flags_storage), .parse = parse_flags_attr, .print = print_flags_attr},
  {.mnemonic = "fastmath", .summary = "Floating point fast math flags",
   .description = "`#arith.fastmath<nnan,ninf>` (or `none`, `fast`): the fast-math flags of the float ops; "
                  "printed `fastmath<...>` in the ops' custom syntax.",
   .storage_size = sizeof(flags_storage), .parse = parse_flags_attr, .print = print_flags_attr,
   .user_data = (void *)&arith_attr_defs},
};

static nc_attr *flag_attr(nc_context *ctx, bool fastmath, unsigned flags)
{
  flags_storage st = {flags};
  const nc_dialect_attr_def *def = &arith_attr_defs[fastmath];
  nc_attr *a = nc_attr_dialect(ctx, def, &st);
  if (!a && nc_context_register_dialect(ctx, &nc_arith_dialect)) /* a context without the dialect yet */
    a = nc_attr_dialect(ctx, def, &st);
  return a;
}

nc_attr *nc_arith_overflow_attr(nc_context *ctx, unsigned flags) { return flag_attr(ctx, false, flags); }
nc_attr *nc_arith_fastmath_attr(nc_context *ctx, unsigned flags) { return flag_attr(ctx, true, flags); }

bool arith_attr_is_flags(const nc_attr *a, bool fastmath) { return nc_attr_isa(a, &arith_attr_defs[fastmath]); }

static unsigned flags_of(const nc_op *op, const char *name, bool fastmath)
{
  nc_attr *a = nc_op_get_attr_str(op, name);
  return arith_attr_is_flags(a, fastmath) ? ((const flags_storage *)nc_attr_dialect_get_storage(a))->flags : 0;
}

unsigned nc_arith_get_overflow_flags(const nc_op *op) { return flags_of(op, "overflowFlags", false); }
unsigned nc_arith_get_fastmath_flags(const nc_op *op) { return flags_of(op, "fastmath", true); }

/* --- the flagged-op parser and printer --------------------------------------------------------------- */

/* What an op's custom syntax has, read from its table. */
typedef struct shape {
  const nc_attr_def *pred, *rounding, *flag;
  bool fastmath, cast, compare;
  size_t n_operands;
} shape;

static shape shape_of(const nc_op_def *d)
{
  shape s = {0};
  for (size_t i = 0; i < d->n_attrs; i++) {
    const nc_attr_def *a = &d->attrs[i];
    if (!strcmp(a->name, "predicate"))
      s.pred = a;
    else if (!strcmp(a->name, "roundingmode"))
      s.rounding = a;
    else if (!strcmp(a->name, "fastmath"))
      s.flag = a, s.fastmath = true;
    else if (!strcmp(a->name, "overflowFlags"))
      s.flag = a;
  }
  s.n_operands = d->n_operands;
  s.cast = d->n_operands == 1 && !strcmp(d->operands[0].name, "in");
  s.compare = s.pred != NULL;
  return s;
}

/* A keyword naming one of an enum attribute's cases. */
static bool parse_enum(nc_asm_parser *p, nc_op_builder *b, const nc_attr_def *ad, bool optional)
{
  const nc_attr_constraint *c = ad->constraint;
  for (size_t k = 0; k < c->n_cases; k++)
    if (nc_asm_parse_optional_keyword(p, c->cases[k].name)) {
      nc_context *ctx = nc_asm_parser_get_context(p);
      nc_type *t = nc_type_integer(ctx, strcmp(ad->name, "roundingmode") ? 64 : 32, NC_SIGNLESS);
      nc_op_builder_set_attr(b, ad->name, nc_attr_integer(ctx, t, c->cases[k].value));
      return true;
    }
  if (optional)
    return true;
  const char *kw;
  size_t len;
  nc_location loc = nc_asm_parser_get_loc(p);
  (void)nc_asm_parse_optional_any_keyword(p, &kw, &len);
  char cases[256];
  size_t n = 0;
  for (size_t k = 0; k < c->n_cases && n < sizeof cases; k++)
    n += (size_t)snprintf(cases + n, sizeof cases - n, "%s%s", k ? ", " : "", c->cases[k].name);
  return nc_asm_parser_error(p, loc, "expected string or keyword containing one of the following enum values for "
                                     "attribute '%s' [%s]", ad->name, cases);
}

/* `<list>` after the `overflow` / `fastmath` keyword. */
static bool parse_flags(nc_asm_parser *p, nc_op_builder *b, const shape *s)
{
  const char *kw = s->fastmath ? "fastmath" : "overflow";
  if (!nc_asm_parse_optional_keyword(p, kw))
    return true;
  unsigned flags;
  if (!parse_flag_params(p, s->fastmath, &flags))
    return false;
  nc_op_builder_set_attr(b, s->flag->name, flag_attr(nc_asm_parser_get_context(p), s->fastmath, flags));
  return true;
}

bool arith_parse_flagged(nc_asm_parser *p, nc_op_builder *b)
{
  const nc_op_def *d = nc_asm_parser_get_op_def(p);
  nc_context *ctx = nc_asm_parser_get_context(p);
  shape s = shape_of(d);
  if (s.pred && (!parse_enum(p, b, s.pred, false) || !nc_asm_parse_punct(p, ",")))
    return false;
  nc_asm_operand refs[2];
  for (size_t i = 0; i < s.n_operands; i++)
    if ((i && !nc_asm_parse_punct(p, ",")) || !nc_asm_parse_operand(p, &refs[i]))
      return false;
  if (s.rounding && !parse_enum(p, b, s.rounding, true))
    return false;
  if (s.flag && !parse_flags(p, b, &s))
    return false;
  nc_attr *dict;
  if (!nc_asm_parse_optional_attr_dict(p, &dict))
    return false;
  nc_op_builder_merge_attr_dict(b, dict);
  nc_type *in, *out;
  if (!nc_asm_parse_punct(p, ":") || !nc_asm_parse_type(p, &in))
    return false;
  out = in;
  if (s.cast && (!nc_asm_parse_keyword(p, "to") || !nc_asm_parse_type(p, &out)))
    return false;
  if (s.compare)
    out = arith_i1_same_shape(ctx, in);
  for (size_t i = 0; i < s.n_operands; i++) {
    nc_value *v;
    if (!nc_asm_resolve_operand(p, &refs[i], in, &v))
      return false;
    nc_op_builder_add_operands(b, 1, &v);
  }
  nc_op_builder_add_result_types(b, 1, &out);
  return true;
}

/* attr-dict: discardable attributes plus properties the syntax does not spell. */
static void print_attr_dict(nc_asm_printer *p, nc_op *op, size_t n_elided, const char *const *elided)
{
  nc_attr *all = nc_op_get_attr_dict(op), *props = nc_op_get_props(op);
  if (props && nc_attr_get_kind(props) == NC_ATTR_DICTIONARY)
    for (size_t i = 0; i < nc_attr_get_num_elements(props); i++) {
      nc_named_attr e = nc_attr_get_entry(props, i);
      all = nc_attr_dict_set(nc_op_get_context(op), all, e.name, e.value);
    }
  nc_asm_print_optional_attr_dict(p, all, n_elided, elided);
}

static void print_enum(nc_asm_printer *p, nc_op *op, const nc_attr_def *ad)
{
  nc_attr *a = nc_op_get_attr_str(op, ad->name);
  if (a && nc_attr_get_kind(a) == NC_ATTR_INTEGER)
    for (size_t k = 0; k < ad->constraint->n_cases; k++)
      if (ad->constraint->cases[k].value == nc_attr_get_int(a)) {
        nc_asm_print(p, ad->constraint->cases[k].name);
        return;
      }
  if (a)
    nc_asm_print_attr(p, a); /* not a case: the verifier reports it */
  else
    nc_asm_print(p, "<<missing>>");
}

/* Unverified IR (nc-opt --no-verify) may hold malformed ops: print their
 * operands and types without assuming the definition's shape. */
static bool print_malformed(nc_asm_printer *p, nc_op *op)
{
  if (arith_well_formed(op))
    return false;
  nc_asm_print(p, " <<malformed>>");
  for (size_t i = 0; i < nc_op_get_num_operands(op); i++) {
    nc_asm_print(p, i ? ", " : " ");
    if (nc_op_get_operand(op, i))
      nc_asm_print_operand(p, nc_op_get_operand(op, i));
  }
  print_attr_dict(p, op, 0, NULL);
  for (size_t i = 0; i < nc_op_get_num_results(op); i++) {
    nc_asm_print(p, i ? ", " : " : ");
    nc_asm_print_type(p, nc_value_get_type(nc_op_get_result(op, i)));
  }
  return true;
}

void arith_print_flagged(nc_asm_printer *p, nc_op *op)
{
  if (print_malformed(p, op))
    return;
  shape s = shape_of(nc_op_get_def(op));
  const char *elided[3];
  size_t n_elided = 0;
  nc_asm_print(p, " ");
  if (s.pred) {
    print_enum(p, op, s.pred);
    nc_asm_print(p, ", ");
    elided[n_elided++] = s.pred->name;
  }
  for (size_t i = 0; i < nc_op_get_num_operands(op); i++) {
    if (i)
      nc_asm_print(p, ", ");
    nc_asm_print_operand(p, nc_op_get_operand(op, i));
  }
  if (s.rounding) {
    elided[n_elided++] = s.rounding->name;
    if (nc_op_get_attr_str(op, s.rounding->name)) {
      nc_asm_print(p, " ");
      print_enum(p, op, s.rounding);
    }
  }
  if (s.flag) {
    nc_attr *a = nc_op_get_attr_str(op, s.flag->name);
    unsigned f = s.fastmath ? nc_arith_get_fastmath_flags(op) : nc_arith_get_overflow_flags(op);
    bool valid = !a || f || flag_attr(nc_op_get_context(op), s.fastmath, 0) == a;
    if (valid) { /* an invalid flag attribute stays in the attr-dict */
      elided[n_elided++] = s.flag->name;
      if (f) {
        char buf[128];
        flag_text(buf, sizeof buf, s.fastmath, f);
        nc_asm_printf(p, " %s<%s>", s.fastmath ? "fastmath" : "overflow", buf);
      }
    }
  }
  print_attr_dict(p, op, n_elided, elided);
  nc_asm_print(p, " : ");
  /* type($lhs) for comparisons and type($in) for casts, else type($result) */
  if ((s.compare || s.cast) && nc_op_get_num_operands(op))
    nc_asm_print_type(p, nc_value_get_type(nc_op_get_operand(op, 0)));
  else
    nc_asm_print_type(p, nc_value_get_type(nc_op_get_result(op, 0)));
  if (s.cast) {
    nc_asm_print(p, " to ");
    nc_asm_print_type(p, nc_value_get_type(nc_op_get_result(op, 0)));
  }
}

/* --- arith.select -------------------------------------------------------------------------------------- */

bool arith_parse_select(nc_asm_parser *p, nc_op_builder *b)
{
  nc_context *ctx = nc_asm_parser_get_context(p);
  nc_asm_operand refs[3];
  for (size_t i = 0; i < 3; i++)
    if ((i && !nc_asm_parse_punct(p, ",")) || !nc_asm_parse_operand(p, &refs[i]))
      return false;
  nc_attr *dict;
  if (!nc_asm_parse_optional_attr_dict(p, &dict))
    return false;
  nc_op_builder_merge_attr_dict(b, dict);
  nc_type *cond = nc_type_integer(ctx, 1, NC_SIGNLESS), *type;
  if (!nc_asm_parse_punct(p, ":") || !nc_asm_parse_type(p, &type))
    return false;
  if (nc_asm_parse_optional_punct(p, ",")) {
    cond = type;
    if (!nc_asm_parse_type(p, &type))
      return false;
  }
  nc_type *types[3] = {cond, type, type};
  for (size_t i = 0; i < 3; i++) {
    nc_value *v;
    if (!nc_asm_resolve_operand(p, &refs[i], types[i], &v))
      return false;
    nc_op_builder_add_operands(b, 1, &v);
  }
  nc_op_builder_add_result_types(b, 1, &type);
  return true;
}

void arith_print_select(nc_asm_printer *p, nc_op *op)
{
  if (print_malformed(p, op))
    return;
  nc_asm_print(p, " ");
  for (size_t i = 0; i < nc_op_get_num_operands(op); i++) {
    if (i)
      nc_asm_print(p, ", ");
    nc_asm_print_operand(p, nc_op_get_operand(op, i));
  }
  print_attr_dict(p, op, 0, NULL);
  nc_asm_print(p, " : ");
  nc_type *cond = nc_value_get_type(nc_op_get_operand(op, 0));
  if (nc_type_is_shaped(cond)) {
    nc_asm_print_type(p, cond);
    nc_asm_print(p, ", ");
  }
  nc_asm_print_type(p, nc_value_get_type(nc_op_get_result(op, 0)));
}
