/* graph_util.c: helpers shared by the graph passes: graph.constant values as
 * host tensors and back (dense literals only for small tensors, blobs for
 * the rest), resource names, per-dtype rounding, bias operands, and the run
 * hook of the pattern passes. See graph_util.h. */
#include "graph_util.h"
#include "nc/dialects/graph/interp.h"

#include <stdio.h>
#include <string.h>

bool gp_is_graph_op(const nc_op *op) { return nc_op_get_dialect(op) == &nc_graph_dialect; }

bool gp_is(const nc_op *op, const char *short_name)
{
  const char *n = nc_ident_str(nc_op_get_name(op));
  return !strncmp(n, "graph.", 6) && !strcmp(n + 6, short_name) && gp_is_graph_op(op);
}

nc_tensor *gp_tensor_for_type(const nc_type *t, size_t limit_bytes)
{
  nc_dtype dt;
  if (nc_type_get_kind(t) != NC_TYPE_TENSOR || !nc_type_has_static_shape(t) ||
      nc_type_get_rank(t) > NC_TENSOR_MAX_RANK || !nc_interp_dtype_from_type(nc_type_get_element_type(t), &dt))
    return NULL;
  return nc_tensor_create(dt, (int)nc_type_get_rank(t), nc_type_get_shape(t), limit_bytes);
}

nc_tensor *gp_tensor_from_attr(nc_attr *value)
{
  nc_attr_kind k = nc_attr_get_kind(value);
  if (k != NC_ATTR_DENSE_ELEMENTS && k != NC_ATTR_DENSE_RESOURCE)
    return NULL;
  size_t nbytes;
  bool splat;
  const void *data = nc_attr_elements_get_data(value, &nbytes, &splat);
  nc_tensor *t = gp_tensor_for_type(nc_attr_get_type(value), 0);
  if (!data || !t) {
    nc_tensor_destroy(t);
    return NULL;
  }
  size_t total = nc_tensor_num_bytes(t), esz = nc_dtype_size(t->dtype);
  if (splat && nbytes == esz) {
    for (size_t off = 0; off < total; off += esz)
      memcpy((char *)t->data + off, data, esz);
  } else if (nbytes == total) {
    if (total)
      memcpy(t->data, data, total);
  } else {
    nc_tensor_destroy(t);
    return NULL;
  }
  return t;
}

nc_tensor *gp_constant_tensor(nc_value *v)
{
  nc_op *def = nc_value_get_defining_op(v);
  if (!def || !gp_is(def, "constant"))
    return NULL;
  nc_attr *value = nc_op_get_attr_str(def, "value");
  return value ? gp_tensor_from_attr(value) : NULL;
}

bool gp_constant_view(nc_value *v, nc_tensor *view)
{
  nc_op *def = nc_value_get_defining_op(v);
  nc_attr *value = def && gp_is(def, "constant") ? nc_op_get_attr_str(def, "value") : NULL;
  nc_attr_kind k = value ? nc_attr_get_kind(value) : NC_ATTR_DENSE_ELEMENTS;
  if (!value || (k != NC_ATTR_DENSE_ELEMENTS && k != NC_ATTR_DENSE_RESOURCE))
    return false;
  size_t nbytes;
  bool splat;
  const void *data = nc_attr_elements_get_data(value, &nbytes, &splat);
  const nc_type *t = nc_attr_get_type(value);
  nc_dtype dt;
  if (!data || splat || nc_type_get_kind(t) != NC_TYPE_TENSOR || !nc_type_has_static_shape(t) ||
      nc_type_get_rank(t) > NC_TENSOR_MAX_RANK || !nc_interp_dtype_from_type(nc_type_get_element_type(t), &dt))
    return false;
  memset(view, 0, sizeof *view);
  view->dtype = dt;
  view->rank = (int)nc_type_get_rank(t);
  for (int i = 0; i < view->rank; i++)
    view->shape[i] = nc_type_get_shape(t)[i];
  view->data = (void *)data;
  return nbytes == nc_tensor_num_bytes(view);
}

nc_attr *gp_attr_from_tensor(nc_context *ctx, const nc_tensor *t, nc_type *type, const char *name_hint,
                             int64_t dense_limit)
{
  size_t total = nc_tensor_num_bytes(t), esz = nc_dtype_size(t->dtype);
  int64_t n = nc_tensor_num_elements(t);
  bool splat = n > 0;
  for (size_t off = esz; splat && off < total; off += esz)
    splat = !memcmp((const char *)t->data + off, t->data, esz);
  if (splat && n > 1)
    return nc_attr_dense_elements(ctx, type, t->data, esz);
  if (n <= dense_limit)
    return nc_attr_dense_elements(ctx, type, t->data, total);
  nc_resource *r = nc_resource_create(ctx, name_hint, t->data, total, (uint32_t)esz);
  return nc_attr_dense_resource(ctx, type, r);
}

nc_value *gp_create_constant(nc_rewriter *rw, nc_attr *value, nc_location loc)
{
  nc_op *c = nc_graph_create_constant(nc_rewriter_get_context(rw), value, loc);
  if (!c)
    return NULL;
  nc_rewriter_insert(rw, c);
  return nc_op_get_result(c, 0);
}

const char *gp_name_hint(nc_value *v, const char *suffix, const char *fallback, char *buf, size_t len)
{
  const char *base = fallback;
  nc_op *def = nc_value_get_defining_op(v);
  nc_attr *value = def && gp_is(def, "constant") ? nc_op_get_attr_str(def, "value") : NULL;
  if (value && nc_attr_get_kind(value) == NC_ATTR_DENSE_RESOURCE) {
    base = nc_ident_str(nc_resource_get_name(nc_attr_dense_resource_get(value)));
  } else if (def) {
    nc_attr *loc = nc_location_get_attr(nc_op_get_context(def), nc_op_get_loc(def));
    if (loc && nc_attr_get_kind(loc) == NC_ATTR_LOC_NAME)
      base = nc_ident_str(nc_loc_get_name(loc));
  }
  snprintf(buf, len, "%s%s", base, suffix);
  return buf;
}

nc_value *gp_create_tensor_constant(nc_rewriter *rw, const nc_tensor *t, nc_type *type, nc_value *like,
                                    const char *suffix, const char *fallback, nc_location loc)
{
  char hint[256];
  gp_name_hint(like, suffix, fallback, hint, sizeof hint);
  return gp_create_constant(rw, gp_attr_from_tensor(nc_rewriter_get_context(rw), t, type, hint, GP_DENSE_LIMIT), loc);
}

void gp_set_bias_operand(nc_op *op, nc_value *bias)
{
  if (nc_op_get_num_operands(op) > 2)
    nc_op_set_operand(op, 2, bias);
  else
    nc_op_insert_operands(op, 2, 1, &bias);
}

double gp_round(nc_dtype dt, double v)
{
  switch (dt) {
  case NC_DT_F32: return (float)v;
  case NC_DT_F16: return nc_f16_to_f32(nc_f32_to_f16((float)v));
  case NC_DT_BF16: return nc_bf16_to_f32(nc_f32_to_bf16((float)v));
  default: return v;
  }
}

bool gp_only_user(nc_value *v, const nc_op *user)
{
  return nc_value_has_one_use(v) && nc_use_get_owner(nc_value_get_first_use(v)) == user;
}

void gp_free_pattern_set(void *set) { nc_pattern_set_destroy(set); }

bool gp_run_patterns(nc_pass *pass, nc_op *func)
{
  nc_greedy_config cfg = nc_greedy_config_default();
  cfg.fold = false; /* the passes' patterns do their own folding, if any */
  nc_greedy_stats st;
  nc_apply_patterns_greedily(func, nc_pass_get_state(pass), &cfg, &st);
  nc_pass_stat_add(pass, 0, st.rewrites);
  return true;
}
