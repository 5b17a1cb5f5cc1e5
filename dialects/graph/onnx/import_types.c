/* import_types.c: attribute readers and types for the ONNX importer.
 *
 * Typed readers of node attributes that record which attributes a handler
 * consulted (import.c refuses nodes with attributes nobody read), builders of
 * the graph op's attributes, and types: ONNX element types and shapes to nc
 * types, numpy broadcasting over dynamic dims, and imp_infer, which runs a
 * kernel shape function on shapes with dynamic dims by substituting two
 * different stand-ins and calling the dims that differ dynamic.
 */
#include "import_internal.h"

#include <stdio.h>
#include <string.h>

#include "nc/dialects/graph/interp.h"
#include "nc/ir/types.h"

/* ---- attributes ----------------------------------------------------------------------------------------- */

const Onnx__AttributeProto *imp_attr(node_ctx *nc, const char *name)
{
  for (size_t i = 0; i < nc->n->n_attribute; i++)
    if (!strcmp(nc->n->attribute[i]->name, name)) {
      nc->used[i] = true;
      return nc->n->attribute[i];
    }
  return NULL;
}

void imp_attr_ignore(node_ctx *nc, const char *name) { (void)imp_attr(nc, name); }

static bool attr_type_error(node_ctx *nc, const Onnx__AttributeProto *a, const char *want)
{
  char nb[160];
  return imp_error(nc, "attribute '%s' must be of type %s", onnx_clean_name(a->name, nb, sizeof nb), want);
}

bool imp_attr_int(node_ctx *nc, const char *name, int64_t def, int64_t *out)
{
  const Onnx__AttributeProto *a = imp_attr(nc, name);
  *out = def;
  if (!a)
    return true;
  if (a->type != ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INT)
    return attr_type_error(nc, a, "INT");
  *out = a->i;
  return true;
}

bool imp_attr_float(node_ctx *nc, const char *name, double def, double *out)
{
  const Onnx__AttributeProto *a = imp_attr(nc, name);
  *out = def;
  if (!a)
    return true;
  if (a->type != ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__FLOAT)
    return attr_type_error(nc, a, "FLOAT");
  *out = a->f;
  return true;
}

bool imp_attr_string(node_ctx *nc, const char *name, const char *def, const char **out)
{
  const Onnx__AttributeProto *a = imp_attr(nc, name);
  *out = def;
  if (!a)
    return true;
  if (a->type != ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__STRING)
    return attr_type_error(nc, a, "STRING");
  *out = nc_arena_strndup(nc->im->arena, a->has_s ? (const char *)a->s.data : "", a->has_s ? a->s.len : 0);
  if (strlen(*out) != (a->has_s ? a->s.len : 0))
    return imp_error(nc, "attribute '%s' holds a NUL byte", name);
  return true;
}

bool imp_attr_ints(node_ctx *nc, const char *name, const int64_t **vals, size_t *n, bool *present)
{
  const Onnx__AttributeProto *a = imp_attr(nc, name);
  *vals = NULL;
  *n = 0;
  *present = a != NULL;
  if (!a)
    return true;
  if (a->type != ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INTS)
    return attr_type_error(nc, a, "INTS");
  *vals = a->ints;
  *n = a->n_ints;
  return true;
}

bool imp_attr_floats(node_ctx *nc, const char *name, const float **vals, size_t *n, bool *present)
{
  const Onnx__AttributeProto *a = imp_attr(nc, name);
  *vals = NULL;
  *n = 0;
  *present = a != NULL;
  if (!a)
    return true;
  if (a->type != ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__FLOATS)
    return attr_type_error(nc, a, "FLOATS");
  *vals = a->floats;
  *n = a->n_floats;
  return true;
}

void imp_add_i64(node_ctx *nc, imp_attrs *a, const char *name, int64_t v)
{
  nc_context *ctx = nc->im->ctx;
  if (a->n == IMP_MAX_ATTRS)
    NC_UNREACHABLE("too many attributes for one graph op");
  nc_attr *value = nc_attr_integer(ctx, nc_type_integer(ctx, 64, NC_SIGNLESS), v);
  a->a[a->n++] = (nc_named_attr){nc_ident_get_cstr(ctx, name), value};
}

void imp_add_i64s(node_ctx *nc, imp_attrs *a, const char *name, size_t n, const int64_t *v)
{
  nc_context *ctx = nc->im->ctx;
  if (a->n == IMP_MAX_ATTRS)
    NC_UNREACHABLE("too many attributes for one graph op");
  a->a[a->n++] = (nc_named_attr){nc_ident_get_cstr(ctx, name), nc_attr_dense_i64_array(ctx, n, v)};
}

void imp_add_f32(node_ctx *nc, imp_attrs *a, const char *name, double v)
{
  nc_context *ctx = nc->im->ctx;
  if (a->n == IMP_MAX_ATTRS)
    NC_UNREACHABLE("too many attributes for one graph op");
  a->a[a->n++] = (nc_named_attr){nc_ident_get_cstr(ctx, name), nc_attr_float(ctx, nc_type_f32(ctx), v)};
}

void imp_add_str(node_ctx *nc, imp_attrs *a, const char *name, const char *v)
{
  nc_context *ctx = nc->im->ctx;
  if (a->n == IMP_MAX_ATTRS)
    NC_UNREACHABLE("too many attributes for one graph op");
  a->a[a->n++] = (nc_named_attr){nc_ident_get_cstr(ctx, name), nc_attr_string_cstr(ctx, v)};
}

/* ---- types ---------------------------------------------------------------------------------------------- */

nc_type *imp_elt_type(nc_context *ctx, nc_dtype dt)
{
  nc_type *t = nc_interp_type_from_dtype(ctx, dt);
  if (!t)
    NC_UNREACHABLE("unknown dtype");
  return t;
}

nc_type *imp_nc_type(nc_context *ctx, const imp_type *t)
{
  nc_type *elt = imp_elt_type(ctx, t->dt);
  if (t->rank < 0)
    return nc_type_unranked_tensor(ctx, elt);
  int64_t dims[NC_TENSOR_MAX_RANK];
  for (int i = 0; i < t->rank; i++)
    dims[i] = t->dims[i] < 0 ? NC_DYNAMIC : t->dims[i];
  return nc_type_tensor(ctx, (size_t)t->rank, dims, elt, NULL);
}

imp_type imp_type_of_tensor(const nc_tensor *t)
{
  imp_type r = {.dt = t->dtype, .rank = t->rank};
  for (int i = 0; i < t->rank; i++)
    r.dims[i] = t->shape[i];
  return r;
}

bool imp_type_is_static(const imp_type *t)
{
  if (t->rank < 0)
    return false;
  for (int i = 0; i < t->rank; i++)
    if (t->dims[i] < 0)
      return false;
  return true;
}

const char *imp_type_str(const imp_type *t, char *buf, size_t len)
{
  if (t->rank < 0) {
    snprintf(buf, len, "[*]");
    return buf;
  }
  size_t n = (size_t)snprintf(buf, len, "[");
  for (int i = 0; i < t->rank && n < len; i++) {
    if (t->dims[i] < 0)
      n += (size_t)snprintf(buf + n, len - n, "%s?", i ? "," : "");
    else
      n += (size_t)snprintf(buf + n, len - n, "%s%lld", i ? "," : "", (long long)t->dims[i]);
  }
  if (n < len)
    snprintf(buf + n, len - n, "]");
  return buf;
}

/* The type a value info declares; false if it declares none nc can use. */
bool imp_type_from_value_info(const Onnx__ValueInfoProto *vi, imp_type *out, int32_t *onnx_elt)
{
  int32_t et = nc_onnx_value_info_get_elem_type(vi);
  *onnx_elt = et;
  if (et == NC_ONNX_UNDEFINED || !nc_onnx_data_type_to_dtype(et, &out->dt))
    return false;
  int64_t dims[NC_TENSOR_MAX_RANK];
  int rank = nc_onnx_value_info_get_shape(vi, dims, NC_TENSOR_MAX_RANK);
  if (rank > NC_TENSOR_MAX_RANK)
    return false;
  out->rank = rank;
  memset(out->sym, 0, sizeof out->sym);
  for (int i = 0; i < rank; i++)
    out->dims[i] = dims[i];
  return true;
}

bool imp_axis(node_ctx *nc, const char *what, int64_t axis, int rank, bool inclusive, int64_t *out)
{
  int64_t hi = inclusive ? rank : rank - 1;
  if (axis < -(int64_t)rank || axis > hi)
    return imp_error(nc, "%s %lld is out of range for rank %d", what, (long long)axis, rank);
  *out = axis < 0 ? axis + rank : axis;
  return true;
}

bool imp_broadcast(node_ctx *nc, const imp_type *a, const imp_type *b, imp_type *out)
{
  out->rank = a->rank < 0 || b->rank < 0 ? -1 : (a->rank > b->rank ? a->rank : b->rank);
  for (int i = 0; i < out->rank; i++) {
    int ia = i - (out->rank - a->rank), ib = i - (out->rank - b->rank);
    int64_t x = ia >= 0 ? a->dims[ia] : 1, y = ib >= 0 ? b->dims[ib] : 1, r;
    int32_t xs = ia >= 0 ? a->sym[ia] : 0, ys = ib >= 0 ? b->sym[ib] : 0, rs = 0;
    if (x == 1)
      r = y, rs = ys;
    else if (y == 1)
      r = x, rs = xs;
    else if (x < 0 && y < 0)
      r = -1, rs = xs == ys ? xs : imp_fresh_sym(nc->im);
    else if (x < 0 || y < 0 || x == y) /* a dynamic dim against a static one takes its size */
      r = x < 0 ? y : x;
    else {
      char sa[128], sb[128];
      return imp_error(nc, "shapes %s and %s cannot be broadcast together", imp_type_str(a, sa, sizeof sa),
                       imp_type_str(b, sb, sizeof sb));
    }
    out->dims[i] = r;
    out->sym[i] = r < 0 ? rs : 0;
  }
  return true;
}

/* imp_infer runs the shape function twice with every dynamic dim replaced:
 * symbol j of the inputs becomes BASE * P[j] in the first run and
 * 2 * BASE * P[j]^2 in the second (BASE is divisible by 1..16, so that
 * Split and Reshape divide evenly). A result dim that is the same in both
 * runs is static; one that is symbol j's stand-in in both runs is dim j
 * itself (the quadratic second run makes sums and multiples of other
 * stand-ins miss); any other is a new dynamic dim. */
#define SYM_BASE INT64_C(720720)
static const int64_t SYM_P[] = {1, 2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47};
#define MAX_SYMS ((int)NC_COUNTOF(SYM_P))

static int64_t stand_in(int run, int j) { return run ? 2 * SYM_BASE * SYM_P[j] * SYM_P[j] : SYM_BASE * SYM_P[j]; }

bool imp_infer(node_ctx *nc, imp_shape_fn fn, const void *ud, int n, const imp_type *const *in, imp_type *out)
{
  int32_t syms[MAX_SYMS];
  int n_syms = 0;
  bool dynamic = false, too_many = false;
  int idx[8][NC_TENSOR_MAX_RANK]; /* stand-in index of each dynamic input dim */
  if (n > 8)
    NC_UNREACHABLE("shape functions take at most 8 inputs");
  for (int i = 0; i < n; i++) {
    if (!in[i])
      continue;
    if (in[i]->rank < 0) {
      out->rank = -1;
      return true;
    }
    for (int k = 0; k < in[i]->rank; k++) {
      if (in[i]->dims[k] >= 0)
        continue;
      dynamic = true;
      int32_t sym = in[i]->sym[k];
      int j = 0;
      while (j < n_syms && (syms[j] != sym || !sym)) /* symbol 0: unrelated to every other dim */
        j++;
      if (j == n_syms) {
        if (n_syms == MAX_SYMS) {
          too_many = true;
          j = 0;
        } else {
          syms[n_syms++] = sym;
        }
      }
      idx[i][k] = j;
    }
  }
  char err[512] = "";
  if (!dynamic) {
    out->rank = 0;
    if (!fn(ud, n, in, out, err, sizeof err))
      return imp_error(nc, "%s", err);
    memset(out->sym, 0, sizeof out->sym);
    return true;
  }
  imp_type subst[2][8], outs[2];
  const imp_type *ptrs[8];
  bool ok[2];
  for (int s = 0; s < 2; s++) {
    for (int i = 0; i < n; i++) {
      ptrs[i] = in[i] ? &subst[s][i] : NULL;
      if (!in[i])
        continue;
      subst[s][i] = *in[i];
      for (int k = 0; k < in[i]->rank; k++)
        if (in[i]->dims[k] < 0)
          subst[s][i].dims[k] = stand_in(s, idx[i][k]);
    }
    outs[s] = *out;
    ok[s] = fn(ud, n, ptrs, &outs[s], err, sizeof err);
  }
  if (!ok[0] && !ok[1])
    return imp_error(nc, "%s (with dynamic dimensions)", err);
  /* If only one run worked (stand-ins can trip a divisibility check or
   * overflow), keep its rank and call every dim dynamic. */
  bool both = ok[0] && ok[1] && outs[0].rank == outs[1].rank && !too_many;
  out->rank = outs[ok[0] ? 0 : 1].rank;
  for (int k = 0; k < out->rank; k++) {
    out->sym[k] = 0;
    if (both && outs[0].dims[k] == outs[1].dims[k]) {
      out->dims[k] = outs[0].dims[k];
      continue;
    }
    out->dims[k] = -1;
    for (int j = 0; both && j < n_syms && !out->sym[k]; j++)
      if (syms[j] && outs[0].dims[k] == stand_in(0, j) && outs[1].dims[k] == stand_in(1, j))
        out->sym[k] = syms[j];
    if (!out->sym[k])
      out->sym[k] = imp_fresh_sym(nc->im);
  }
  return true;
}
