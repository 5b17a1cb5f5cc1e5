/* graph_verify.c: verification of graph ops, and the plumbing every shape
 * function shares.
 *
 * A graph op verifies by running its shape inference (which checks operand
 * ranks, shapes, element types and attribute values and reports the first
 * problem as an MLIR-style "'graph.x' op ..." error) and then comparing the
 * declared result types with the inferred ones: same element type and rank,
 * equal dims wherever both are static. Inference and verification are thus
 * one piece of code and cannot disagree.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "graph_internal.h"
#include "nc/ir/asm.h"

/* --- gx helpers ------------------------------------------------------------------------------------ */

bool gx_error(gx *g, const char *fmt, ...)
{
  char msg[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  nc_emit_error(g->ctx, g->loc, "'%s' op %s", g->name, msg);
  return false;
}

nc_attr *gx_attr(gx *g, const char *name) { return nc_attr_dict_get_str(g->props, name); }

int64_t gx_int(gx *g, const char *name, int64_t dflt)
{
  nc_attr *a = gx_attr(g, name);
  return a && nc_attr_get_kind(a) == NC_ATTR_INTEGER ? nc_attr_get_int(a) : dflt;
}

double gx_float(gx *g, const char *name, double dflt)
{
  nc_attr *a = gx_attr(g, name);
  if (a && nc_attr_get_kind(a) == NC_ATTR_FLOAT)
    return nc_attr_get_float(a);
  return a && nc_attr_get_kind(a) == NC_ATTR_INTEGER ? (double)nc_attr_get_int(a) : dflt;
}

const char *gx_str(gx *g, const char *name, const char *dflt)
{
  nc_attr *a = gx_attr(g, name);
  return a && nc_attr_get_kind(a) == NC_ATTR_STRING ? nc_attr_get_string(a, NULL) : dflt;
}

const int64_t *gx_ints(gx *g, const char *name, size_t *n)
{
  nc_attr *a = gx_attr(g, name);
  if (!a || nc_attr_get_kind(a) != NC_ATTR_DENSE_ARRAY) {
    *n = 0;
    return NULL;
  }
  *n = nc_attr_get_num_elements(a);
  return nc_attr_dense_array_get_data(a);
}

void gx_set(gx *g, size_t i, size_t rank, const int64_t *shape, nc_type *elt)
{
  g->out[i] = nc_type_tensor(g->ctx, rank, shape, elt, NULL);
}

const char *g_shape_str(char *buf, size_t len, size_t rank, const int64_t *shape)
{
  size_t o = (size_t)snprintf(buf, len, "[");
  for (size_t i = 0; i < rank && o < len; i++) {
    if (g_dyn(shape[i]))
      o += (size_t)snprintf(buf + o, len - o, "%s?", i ? ", " : "");
    else
      o += (size_t)snprintf(buf + o, len - o, "%s%lld", i ? ", " : "", (long long)shape[i]);
  }
  if (o < len)
    snprintf(buf + o, len - o, "]");
  return buf;
}

const char *g_ints_str(char *buf, size_t len, size_t n, const int64_t *v)
{
  size_t o = (size_t)snprintf(buf, len, "[");
  for (size_t i = 0; i < n && o < len; i++)
    o += (size_t)snprintf(buf + o, len - o, "%s%lld", i ? ", " : "", (long long)v[i]);
  if (o < len)
    snprintf(buf + o, len - o, "]");
  return buf;
}

bool g_broadcast(size_t ra, const int64_t *a, size_t rb, const int64_t *b, size_t *rout, int64_t *out)
{
  size_t r = ra > rb ? ra : rb;
  for (size_t k = 0; k < r; k++) { /* k counts from the right */
    int64_t x = k < ra ? a[ra - 1 - k] : 1, y = k < rb ? b[rb - 1 - k] : 1, z;
    if (x == 1)
      z = y;
    else if (y == 1)
      z = x;
    else if (g_dyn(x))
      z = y; /* a dynamic dim must be 1 or y at run time: the result is y (or ? if y is ?) */
    else if (g_dyn(y) || x == y)
      z = x;
    else
      return false;
    out[r - 1 - k] = z;
  }
  *rout = r;
  return true;
}

bool g_axis(gx *g, const char *what, int64_t axis, size_t rank, bool inclusive, size_t *out)
{
  int64_t r = (int64_t)rank, hi = inclusive ? r : r - 1;
  if (axis < -r || axis > hi)
    return gx_error(g, "expects %s (%lld) to be in [%lld, %lld]", what, (long long)axis, (long long)-r, (long long)hi);
  *out = (size_t)(axis < 0 ? axis + r : axis);
  return true;
}

bool g_same_elt(gx *g, size_t i, size_t j)
{
  nc_type *a = g_elt(g->in[i]), *b = g_elt(g->in[j]);
  if (a == b)
    return true;
  char *sa = nc_type_to_string(a), *sb = nc_type_to_string(b);
  gx_error(g, "expects operand #%zu to have element type %s like operand #%zu, got %s", j, sa, i, sb);
  free(sa);
  free(sb);
  return false;
}

/* --- running inference --------------------------------------------------------------------------------- */

/* Operand counts, attribute constraints and required attributes, as the
 * generic verifier checks them, so shape functions may trust both. */
static bool check_table(gx *g, const nc_op_def *d)
{
  size_t fixed = 0, var = 0;
  bool variadic = false;
  for (size_t i = 0; i < d->n_operands; i++) {
    if (d->operands[i].arity == NC_ARITY_ONE)
      fixed++;
    else
      var++;
    variadic |= d->operands[i].arity == NC_ARITY_VARIADIC;
  }
  if (variadic && g->n_in <= fixed)
    return gx_error(g, "expects at least %zu operand%s, got %zu", fixed + 1, fixed ? "s" : "", g->n_in);
  if (!variadic && var && (g->n_in < fixed || g->n_in > fixed + var))
    return gx_error(g, "expects %zu to %zu operands, got %zu", fixed, fixed + var, g->n_in);
  if (!var && g->n_in != fixed)
    return gx_error(g, "expects %zu operand%s, got %zu", fixed, fixed == 1 ? "" : "s", g->n_in);
  for (size_t i = 0; i < g->n_in; i++) {
    size_t grp = 0, k = 0;
    /* the constraint of operand i: groups in order, optional ones positional */
    for (; grp < d->n_operands; grp++) {
      size_t cnt = d->operands[grp].arity == NC_ARITY_VARIADIC ? g->n_in - fixed - (var - 1) : 1;
      if (i < k + cnt)
        break;
      k += cnt;
    }
    const nc_type_constraint *tc = grp < d->n_operands ? d->operands[grp].type : NULL;
    if (!g->in[i])
      return gx_error(g, "operand #%zu has no type", i);
    if (tc && !tc->pred(g->in[i])) {
      char *s = nc_type_to_string(g->in[i]);
      gx_error(g, "operand #%zu must be %s, but got '%s'", i, tc->summary, s);
      free(s);
      return false;
    }
  }
  for (size_t k = 0; k < d->n_attrs; k++) {
    const nc_attr_def *ad = &d->attrs[k];
    nc_attr *a = gx_attr(g, ad->name);
    if (!a && !ad->optional)
      return gx_error(g, "requires attribute '%s'", ad->name);
    if (a && ad->constraint && !ad->constraint->pred(a))
      return gx_error(g, "attribute '%s' failed to satisfy constraint: %s", ad->name, ad->constraint->summary);
  }
  if (g->props && nc_attr_get_kind(g->props) != NC_ATTR_DICTIONARY)
    return gx_error(g, "properties must be a dictionary");
  return true;
}

bool graph_infer_hook(graph_kind kind, nc_context *ctx, nc_location loc, size_t n_operands,
                      nc_type *const *operand_types, nc_attr *props, size_t n_results, nc_type **types)
{
  const nc_op_def *d = &nc_graph_dialect.ops[kind];
  gx g = {ctx, loc, kind, d->name, n_operands, operand_types, props, n_results, types};
  if (!check_table(&g, d))
    return false;
  bool variadic_results = d->n_results && d->results[0].arity == NC_ARITY_VARIADIC;
  if (!variadic_results && n_results != d->n_results)
    return gx_error(&g, "expects %zu result%s, got %zu", d->n_results, d->n_results == 1 ? "" : "s", n_results);
  if (!graph_infer(&g))
    return false;
  /* a hint may have brought in an element type the op does not allow */
  for (size_t i = 0; d->n_results && i < n_results; i++) {
    const nc_type_constraint *tc = d->results[variadic_results || i >= d->n_results ? 0 : i].type;
    if (!tc->pred(types[i])) {
      char *s = nc_type_to_string(types[i]);
      gx_error(&g, "result #%zu must be %s, but got '%s'", i, tc->summary, s);
      free(s);
      return false;
    }
  }
  return true;
}

bool graph_infer_constant(gx *g)
{
  nc_attr *v = gx_attr(g, "value");
  nc_type *t = nc_attr_get_type(v);
  if (!t || nc_type_get_kind(t) != NC_TYPE_TENSOR || !nc_type_has_static_shape(t))
    return gx_error(g, "expects 'value' to have a statically shaped tensor type");
  g->out[0] = t;
  return true;
}

bool graph_infer_identity(gx *g)
{
  g->out[0] = g->in[0];
  return true;
}

bool graph_infer_cast(gx *g)
{
  nc_type *hint = g->out[0];
  if (!hint || nc_type_get_kind(hint) != NC_TYPE_TENSOR)
    return gx_error(g, "needs the declared result type to know the target element type");
  gx_set(g, 0, g_rank(g->in[0]), g_dims(g->in[0]), g_elt(hint));
  return true;
}

/* Each kind's shape function and whether it takes the fused activation
 * attributes, from graph_ops.def's DEF column. */
static const struct shape_row {
  bool (*infer)(gx *g);
  graph_activation_use activation;
} shape_rows[] = {
#define DEF(OPERANDS, RESULTS, ATTRS, TRAITS, SHAPE, ACTIVATION, FOLD, PATTERNS) {SHAPE, G_ACTIVATION_##ACTIVATION}
#define GRAPH_OP(KIND, MNEMONIC, SUMMARY, ONNX, KERNEL, INTERP, QUANT, DEF_, DESCRIPTION) DEF_,
#include "graph_ops.def"
#undef DEF
};
_Static_assert(NC_COUNTOF(shape_rows) == G_COUNT, "one shape row per graph op");

bool graph_infer(gx *g)
{
  const struct shape_row *r = &shape_rows[g->kind];
  return r->infer(g) && (r->activation != G_ACTIVATION_FUSED || graph_check_activation(g));
}

/* --- verification ------------------------------------------------------------------------------------------ */

bool nc_graph_types_compatible(const nc_type *inferred, const nc_type *declared)
{
  if (!inferred || !declared || nc_type_get_kind(inferred) != NC_TYPE_TENSOR ||
      nc_type_get_kind(declared) != NC_TYPE_TENSOR)
    return inferred == declared;
  if (g_elt(inferred) != g_elt(declared) || g_rank(inferred) != g_rank(declared))
    return false;
  const int64_t *a = g_dims(inferred), *b = g_dims(declared);
  for (size_t i = 0; i < g_rank(inferred); i++)
    if (!g_dyn(a[i]) && !g_dyn(b[i]) && a[i] != b[i])
      return false;
  return true;
}

static char *types_str(size_t n, nc_type *const *t)
{
  size_t len = 0, cap = 64;
  char *s = nc_xmalloc(cap);
  s[0] = 0;
  for (size_t i = 0; i < n; i++) {
    char *one = nc_type_to_string(t[i]);
    size_t need = len + strlen(one) + 3;
    if (need > cap) {
      cap = need * 2;
      s = nc_xrealloc(s, cap);
    }
    len += (size_t)sprintf(s + len, "%s%s", i ? ", " : "", one);
    free(one);
  }
  return s;
}

bool graph_verify(nc_op *op)
{
  int kind = graph_kind_of(op);
  if (kind < 0)
    return true;
  size_t n = nc_op_get_num_results(op), no = nc_op_get_num_operands(op);
  nc_type **declared = nc_xcalloc(n + 1, sizeof *declared), **inferred = nc_xcalloc(n + 1, sizeof *inferred);
  nc_type **in = nc_xcalloc(no + 1, sizeof *in);
  for (size_t i = 0; i < n; i++)
    declared[i] = inferred[i] = nc_value_get_type(nc_op_get_result(op, i));
  for (size_t i = 0; i < no; i++)
    in[i] = nc_value_get_type(nc_op_get_operand(op, i));
  bool ok = graph_infer_hook((graph_kind)kind, nc_op_get_context(op), nc_op_get_loc(op), no, in,
                             nc_op_get_props(op), n, inferred);
  for (size_t i = 0; ok && i < n; i++)
    /* a constant's type is exactly its value's (folds rely on it) */
    if (kind == G_CONSTANT ? inferred[i] != declared[i] : !nc_graph_types_compatible(inferred[i], declared[i])) {
      char *a = types_str(n, inferred), *b = types_str(n, declared);
      nc_op_emit_error(op, "inferred type(s) '%s' are incompatible with return type(s) of operation '%s'", a, b);
      free(a);
      free(b);
      ok = false;
    }
  free(declared);
  free(inferred);
  free(in);
  return ok;
}
