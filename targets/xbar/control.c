/* control.c: from dataflow-deps' `earliest` relation to the control
 * program a crossbar core runs (cmnnc's approach: the polyhedral relation
 * itself is the state machine).
 *
 * Algorithm: isl_map_lexmax_pw_multi_aff turns { S[c] -> P[p] } into pieces
 * (domain, multi_aff); isl_set_compute_divs gives every existential of a
 * piece's domain an explicit floor division; each basic set of the domain
 * becomes its divisions and constraint rows, each output affine expression
 * its own divisions plus integer coefficients over a common denominator.
 * The result is the data of runtime/xbar_control.h: its size depends on
 * the relation's shape (strides, pads, borders), not on the number of
 * iterations.
 * Limits: no parameters (the shapes are constants); coefficients and
 * denominators must fit in 2^31, at most 16 divisions per row, 256
 * constraints per basic set, 4096 pieces (the format's bounds).
 *
 * The C form (--emit=control-c) is printed by isl: its AST generator for the
 * consumer's loops, and isl_ast_build_expr_from_pw_aff / _from_set for the
 * producer iteration each consumer iteration waits for.
 */
#include "control.h"

#include <isl/aff.h>
#include <isl/ast.h>
#include <isl/ast_build.h>
#include <isl/constraint.h>
#include <isl/ctx.h>
#include <isl/id.h>
#include <isl/local_space.h>
#include <isl/options.h>
#include <isl/union_map.h>
#include <isl/space.h>
#include <isl/val.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/xbar_control.h"

typedef struct emitter {
  int64_t *w;
  size_t n, cap;
  int n_in;
  bool ok;
  char *err;
  size_t errlen;
} emitter;

static void put(emitter *e, int64_t v)
{
  if (e->n == e->cap) {
    e->cap = e->cap ? 2 * e->cap : 64;
    int64_t *w = realloc(e->w, e->cap * sizeof *w);
    if (!w)
      abort();
    e->w = w;
  }
  e->w[e->n++] = v;
}

static void failf(emitter *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void failf(emitter *e, const char *fmt, ...)
{
  if (!e->ok)
    return;
  e->ok = false;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(e->err, e->errlen, fmt, ap);
  va_end(ap);
}

/* An integer isl_val within the format's bounds, taken. */
static int64_t int_of(emitter *e, __isl_take isl_val *v)
{
  int64_t r = 0;
  if (!v || !isl_val_is_int(v))
    failf(e, "control: a coefficient is not an integer");
  else {
    long x = isl_val_get_num_si(v);
    if (x < -XBAR_CONTROL_MAX_COEFF || x > XBAR_CONTROL_MAX_COEFF)
      failf(e, "control: coefficient %ld exceeds the format's bound 2^31", x);
    r = x;
  }
  isl_val_free(v);
  return r;
}

/* An aff over (n_in set dims, n_div divs) as [den] coeff[n_in + n_div] const, scaled to integers. */
static void put_aff(emitter *e, __isl_keep isl_aff *aff, int n_div, bool with_den)
{
  isl_val *den = isl_aff_get_denominator_val(aff);
  if (with_den)
    put(e, int_of(e, isl_val_copy(den)));
  for (int i = 0; i < e->n_in; i++)
    put(e, int_of(e, isl_val_mul(isl_aff_get_coefficient_val(aff, isl_dim_in, i), isl_val_copy(den))));
  for (int i = 0; i < n_div; i++)
    put(e, int_of(e, isl_val_mul(isl_aff_get_coefficient_val(aff, isl_dim_div, i), isl_val_copy(den))));
  put(e, int_of(e, isl_val_mul(isl_aff_get_constant_val(aff), isl_val_copy(den))));
  isl_val_free(den);
}

/* The divisions of a local space, each over the set dims and the earlier divisions. */
static void put_divs(emitter *e, __isl_keep isl_local_space *ls)
{
  isl_size n_div = isl_local_space_dim(ls, isl_dim_div);
  if (n_div < 0 || n_div > XBAR_CONTROL_MAX_DIVS) {
    failf(e, "control: %d divisions exceed the format's bound %d", (int)n_div, XBAR_CONTROL_MAX_DIVS);
    return;
  }
  put(e, n_div);
  for (int d = 0; d < n_div; d++) {
    isl_aff *div = isl_local_space_get_div(ls, d);
    if (!div) {
      failf(e, "control: a division has no explicit expression");
      return;
    }
    for (int later = d; later < n_div; later++) {
      isl_val *c = isl_aff_get_coefficient_val(div, isl_dim_div, later);
      if (!c || !isl_val_is_zero(c))
        failf(e, "control: division %d refers to a later division", d);
      isl_val_free(c);
    }
    put_aff(e, div, d, true);
    isl_aff_free(div);
  }
}

typedef struct cons_ctx {
  emitter *e;
  int n_div;
} cons_ctx;

static isl_stat put_constraint(__isl_take isl_constraint *c, void *userData)
{
  cons_ctx *cc = userData;
  emitter *e = cc->e;
  put(e, isl_constraint_is_equality(c) ? 0 : 1);
  for (int i = 0; i < e->n_in; i++)
    put(e, int_of(e, isl_constraint_get_coefficient_val(c, isl_dim_set, i)));
  for (int i = 0; i < cc->n_div; i++)
    put(e, int_of(e, isl_constraint_get_coefficient_val(c, isl_dim_div, i)));
  put(e, int_of(e, isl_constraint_get_constant_val(c)));
  isl_constraint_free(c);
  return isl_stat_ok;
}

static isl_stat put_bset(__isl_take isl_basic_set *bset, void *userData)
{
  emitter *e = userData;
  isl_local_space *ls = isl_basic_set_get_local_space(bset);
  put_divs(e, ls);
  isl_local_space_free(ls);
  isl_size n_div = isl_basic_set_dim(bset, isl_dim_div);
  size_t count_at = e->n;
  put(e, 0);
  size_t before = e->n;
  cons_ctx cc = {e, (int)n_div};
  if (n_div < 0 || isl_basic_set_foreach_constraint(bset, put_constraint, &cc) < 0)
    failf(e, "control: isl failed on a piece's constraints");
  size_t row = (size_t)e->n_in + (size_t)(n_div < 0 ? 0 : n_div) + 2;
  size_t cons = (e->n - before) / row;
  if (cons > XBAR_CONTROL_MAX_CONS)
    failf(e, "control: %zu constraints exceed the format's bound %d", cons, XBAR_CONTROL_MAX_CONS);
  e->w[count_at] = (int64_t)cons;
  isl_basic_set_free(bset);
  return isl_stat_ok;
}

static isl_stat count_bset(__isl_take isl_basic_set *bset, void *userData)
{
  (*(int64_t *)userData)++;
  isl_basic_set_free(bset);
  return isl_stat_ok;
}

static isl_stat put_piece(__isl_take isl_set *set, __isl_take isl_multi_aff *maff, void *userData)
{
  emitter *e = userData;
  set = isl_set_compute_divs(set);
  int64_t n_bsets = 0;
  if (!set || isl_set_foreach_basic_set(set, count_bset, &n_bsets) < 0)
    failf(e, "control: isl failed on a piece's domain");
  if (n_bsets > XBAR_CONTROL_MAX_BSETS)
    failf(e, "control: %lld basic sets exceed the format's bound %d", (long long)n_bsets, XBAR_CONTROL_MAX_BSETS);
  put(e, n_bsets);
  if (set)
    isl_set_foreach_basic_set(set, put_bset, e);
  isl_size n_out = isl_multi_aff_dim(maff, isl_dim_out);
  for (int o = 0; o < n_out; o++) {
    isl_aff *aff = isl_multi_aff_get_aff(maff, o);
    isl_local_space *ls = isl_aff_get_domain_local_space(aff); /* a set space: isl gives divs of those only */
    put_divs(e, ls);
    isl_local_space_free(ls);
    isl_size n_div = isl_aff_dim(aff, isl_dim_div);
    put_aff(e, aff, n_div < 0 ? 0 : (int)n_div, true);
    isl_aff_free(aff);
  }
  isl_set_free(set);
  isl_multi_aff_free(maff);
  return e->ok ? isl_stat_ok : isl_stat_error;
}

bool xbar_control_compile(isl_map *earliest, int64_t **words, size_t *n_words, char *err, size_t errlen)
{
  *words = NULL;
  *n_words = 0;
  emitter e = {.ok = true, .err = err, .errlen = errlen};
  if (!earliest) {
    failf(&e, "control: no earliest relation");
    return false;
  }
  isl_ctx *ctx = isl_map_get_ctx(earliest);
  int saved = isl_options_get_on_error(ctx);
  isl_options_set_on_error(ctx, ISL_ON_ERROR_CONTINUE);
  isl_size n_in = isl_map_dim(earliest, isl_dim_in), n_out = isl_map_dim(earliest, isl_dim_out);
  isl_size n_par = isl_map_dim(earliest, isl_dim_param);
  if (n_in < 0 || n_out < 0 || n_par != 0 || n_in > XBAR_CONTROL_MAX_DIMS || n_out > XBAR_CONTROL_MAX_DIMS) {
    failf(&e, "control: the earliest relation must map at most %d dimensions to at most %d, without parameters",
          XBAR_CONTROL_MAX_DIMS, XBAR_CONTROL_MAX_DIMS);
  } else {
    e.n_in = (int)n_in;
    isl_pw_multi_aff *pma = isl_map_lexmax_pw_multi_aff(isl_map_copy(earliest));
    isl_size pieces = pma ? isl_pw_multi_aff_n_piece(pma) : -1;
    if (pieces < 0 || pieces > XBAR_CONTROL_MAX_PIECES)
      failf(&e, "control: isl could not split the earliest relation into at most %d pieces",
            XBAR_CONTROL_MAX_PIECES);
    put(&e, n_in);
    put(&e, n_out);
    put(&e, pieces);
    if (e.ok && isl_pw_multi_aff_foreach_piece(pma, put_piece, &e) < 0)
      failf(&e, "control: isl failed on the earliest relation's pieces");
    isl_pw_multi_aff_free(pma);
    char check_err[256];
    if (e.ok && !xbar_control_check(e.w, e.n, (int)n_in, (int)n_out, NULL, check_err, sizeof check_err))
      failf(&e, "control: the compiled program is invalid: %s", check_err);
  }
  isl_ctx_reset_error(ctx);
  isl_options_set_on_error(ctx, saved);
  if (!e.ok) {
    free(e.w);
    return false;
  }
  *words = e.w;
  *n_words = e.n;
  return true;
}

/* --- C form -------------------------------------------------------------------------------------------- */

/* Moves the set dims of a set to parameters named as they are (c0, c1, .. when unnamed). */
static __isl_give isl_set *dims_to_params(__isl_take isl_set *s, int n)
{
  for (int i = 0; i < n; i++)
    if (!isl_set_get_dim_name(s, isl_dim_set, i)) {
      char b[16];
      snprintf(b, sizeof b, "c%d", i);
      s = isl_set_set_dim_name(s, isl_dim_set, i, b);
    }
  return isl_set_move_dims(s, isl_dim_param, 0, isl_dim_set, 0, n);
}

static __isl_give isl_pw_aff *pa_dims_to_params(__isl_take isl_pw_aff *pa, __isl_keep isl_set *dom, int n)
{
  for (int i = 0; i < n; i++) {
    const char *name = isl_set_get_dim_name(dom, isl_dim_set, i);
    char b[16];
    if (!name) {
      snprintf(b, sizeof b, "c%d", i);
      name = b;
    }
    pa = isl_pw_aff_set_dim_id(pa, isl_dim_in, i, isl_id_alloc(isl_pw_aff_get_ctx(pa), name, NULL));
  }
  return isl_pw_aff_move_dims(pa, isl_dim_param, 0, isl_dim_in, 0, n);
}

static char *expr_text(__isl_keep isl_ast_build *b, __isl_take isl_ast_expr *x)
{
  (void)b;
  char *s = x ? isl_ast_expr_to_C_str(x) : NULL;
  isl_ast_expr_free(x);
  return s;
}

bool xbar_control_print_c(FILE *out, isl_set *domain, isl_map *earliest, const char *stage, const char *producer,
                          char *err, size_t errlen)
{
  isl_ctx *ctx = isl_set_get_ctx(domain);
  int saved = isl_options_get_on_error(ctx);
  isl_options_set_on_error(ctx, ISL_ON_ERROR_CONTINUE);
  bool ok = false;
  isl_size n = isl_set_dim(domain, isl_dim_set);
  isl_pw_multi_aff *pma = isl_map_lexmax_pw_multi_aff(isl_map_copy(earliest));
  isl_set *dom = isl_set_copy(domain);
  for (int i = 0; n > 0 && i < n; i++)
    if (!isl_set_get_dim_name(dom, isl_dim_set, i)) {
      char b[16];
      snprintf(b, sizeof b, "c%d", i);
      dom = isl_set_set_dim_name(dom, isl_dim_set, i, b);
    }
  isl_set *context = dims_to_params(isl_set_copy(dom), n < 0 ? 0 : (int)n);
  isl_ast_build *build = isl_ast_build_from_context(isl_set_copy(context));
  isl_size n_out = pma ? isl_pw_multi_aff_dim(pma, isl_dim_out) : -1;
  if (n < 0 || n_out < 0 || !build)
    goto done;

  /* what the core provides: waiting for a producer iteration, firing an iteration */
  fprintf(out, "void wait_for_%s(", producer);
  for (int o = 0; o < n_out; o++)
    fprintf(out, "%slong", o ? ", " : "");
  fprintf(out, "%s);\nvoid fire_%s(", n_out ? "" : "void", stage);
  for (int i = 0; i < n; i++)
    fprintf(out, "%slong", i ? ", " : "");
  fprintf(out, "%s);\n\n", n ? "" : "void");
  /* the wait function: in the relation's domain, wait for the producer iteration */
  fprintf(out, "/* %s waits for %s: before iteration (", stage, producer);
  for (int i = 0; i < n; i++)
    fprintf(out, "%s%s", i ? ", " : "", isl_set_get_dim_name(dom, isl_dim_set, i));
  fprintf(out, ") fires, %s must have completed the iteration below */\n", producer);
  fprintf(out, "static inline void %s_wait_%s(", stage, producer);
  for (int i = 0; i < n; i++)
    fprintf(out, "%slong %s", i ? ", " : "", isl_set_get_dim_name(dom, isl_dim_set, i));
  fprintf(out, "%s)\n{\n", n ? "" : "void");
  isl_set *in_rel = isl_pw_multi_aff_domain(isl_pw_multi_aff_copy(pma));
  for (int i = 0; i < n; i++)
    in_rel = isl_set_set_dim_name(in_rel, isl_dim_set, i, isl_set_get_dim_name(dom, isl_dim_set, i));
  char *cond = expr_text(build, isl_ast_build_expr_from_set(build, dims_to_params(in_rel, (int)n)));
  if (!cond)
    goto done;
  bool always = !strcmp(cond, "1");
  if (always)
    fprintf(out, "  wait_for_%s(", producer);
  else
    fprintf(out, "  if (%s)\n    wait_for_%s(", cond, producer);
  free(cond);
  for (int o = 0; o < n_out; o++) {
    isl_pw_aff *pa = pa_dims_to_params(isl_pw_multi_aff_get_pw_aff(pma, o), dom, (int)n);
    char *x = expr_text(build, isl_ast_build_expr_from_pw_aff(build, pa));
    if (!x)
      goto done;
    fprintf(out, "%s%s", o ? ", " : "", x);
    free(x);
  }
  fprintf(out, ");\n}\n\n");

  /* the consumer's loops, in its (lexicographic) order */
  {
    isl_map *sched = isl_map_identity(isl_space_map_from_set(isl_set_get_space(dom)));
    sched = isl_map_intersect_domain(sched, isl_set_copy(dom));
    sched = isl_map_set_tuple_name(sched, isl_dim_in, stage);
    sched = isl_map_reset_tuple_id(sched, isl_dim_out);
    isl_ast_build *lb = isl_ast_build_alloc(ctx);
    isl_id_list *names = isl_id_list_alloc(ctx, (int)n);
    for (int i = 0; i < n; i++)
      names = isl_id_list_add(names, isl_id_alloc(ctx, isl_set_get_dim_name(dom, isl_dim_set, i), NULL));
    lb = isl_ast_build_set_iterators(lb, names);
    isl_ast_node *node = isl_ast_build_node_from_schedule_map(lb, isl_union_map_from_map(sched));
    isl_ast_build_free(lb);
    char *loops = node ? isl_ast_node_to_C_str(node) : NULL;
    isl_ast_node_free(node);
    if (!loops)
      goto done;
    fprintf(out, "/* %s: each iteration waits, then fires */\n#define %s(", stage, stage);
    for (int i = 0; i < n; i++)
      fprintf(out, "%s%s", i ? ", " : "", isl_set_get_dim_name(dom, isl_dim_set, i));
    fprintf(out, ") do { %s_wait_%s(", stage, producer);
    for (int i = 0; i < n; i++)
      fprintf(out, "%s%s", i ? ", " : "", isl_set_get_dim_name(dom, isl_dim_set, i));
    fprintf(out, "); fire_%s(", stage);
    for (int i = 0; i < n; i++)
      fprintf(out, "%s%s", i ? ", " : "", isl_set_get_dim_name(dom, isl_dim_set, i));
    fprintf(out, "); } while (0)\n\n/* the core's program: %s's iterations in order */\nvoid %s_run(void)\n{\n", stage,
            stage);
    for (char *line = loops; *line;) {
      size_t len = strcspn(line, "\n");
      if (len)
        fprintf(out, "  %.*s\n", (int)len, line);
      line += len + (line[len] == '\n');
    }
    fprintf(out, "}\n");
    free(loops);
  }
  ok = true;
done:
  if (!ok)
    snprintf(err, errlen, "control-c: isl failed to print the control of %s", stage);
  isl_ast_build_free(build);
  isl_set_free(context);
  isl_set_free(dom);
  isl_pw_multi_aff_free(pma);
  isl_ctx_reset_error(ctx);
  isl_options_set_on_error(ctx, saved);
  return ok;
}
