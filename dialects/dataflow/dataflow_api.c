/* dataflow_api.c: the C API of the dataflow dialect (dataflow.h): walking
 * the nodes of a function in pipeline order, reading a node's attributes as
 * isl objects, and wrapping graph ops into a node and back (the two
 * directions graph-to-dataflow and dataflow-inline use).
 */
#include <stdlib.h>
#include <string.h>

#include <isl/space.h>

#include "dataflow_internal.h"

/* --- walking ----------------------------------------------------------------------------------------------- */

bool nc_dataflow_is_node(const nc_op *op) { return op && nc_op_is(op, "dataflow.node"); }

static nc_op *node_from(nc_op *op)
{
  while (op && !nc_dataflow_is_node(op))
    op = nc_op_get_next(op);
  return op;
}

nc_op *nc_dataflow_first_node(nc_op *func)
{
  if (!func || nc_op_get_num_regions(func) != 1)
    return NULL;
  nc_block *b = nc_region_get_first_block(nc_op_get_region(func, 0));
  return b ? node_from(nc_block_get_first_op(b)) : NULL;
}

nc_op *nc_dataflow_next_node(nc_op *node) { return node ? node_from(nc_op_get_next(node)) : NULL; }

size_t nc_dataflow_num_nodes(nc_op *func)
{
  size_t n = 0;
  for (nc_op *op = nc_dataflow_first_node(func); op; op = nc_dataflow_next_node(op))
    n++;
  return n;
}

/* --- attributes ------------------------------------------------------------------------------------------------ */

static const char *str_attr(const nc_op *node, const char *name)
{
  nc_attr *a = nc_op_get_attr_str(node, name);
  return a && nc_attr_get_kind(a) == NC_ATTR_STRING ? nc_attr_get_string(a, NULL) : "";
}

const char *nc_dataflow_node_get_name(const nc_op *node) { return str_attr(node, "name"); }
const char *nc_dataflow_node_get_kind(const nc_op *node) { return str_attr(node, "kind"); }

int64_t nc_dataflow_node_get_macs(const nc_op *node)
{
  nc_attr *a = nc_op_get_attr_str(node, "macs");
  return a && nc_attr_get_kind(a) == NC_ATTR_INTEGER ? nc_attr_get_int(a) : 0;
}

size_t nc_dataflow_node_get_num_inputs(const nc_op *node) { return nc_op_get_num_operands(node); }

nc_op *nc_dataflow_node_get_producer(const nc_op *node, size_t i)
{
  if (i >= nc_op_get_num_operands(node))
    return NULL;
  nc_op *def = nc_value_get_defining_op(nc_op_get_operand(node, i));
  return nc_dataflow_is_node(def) ? def : NULL;
}

static nc_attr *array_elt(const nc_op *node, const char *name, size_t i)
{
  nc_attr *a = nc_op_get_attr_str(node, name);
  return a && nc_attr_get_kind(a) == NC_ATTR_ARRAY && i < nc_attr_get_num_elements(a) ? nc_attr_get_element(a, i)
                                                                                       : NULL;
}

isl_set *nc_dataflow_node_get_domain(const nc_op *node, isl_ctx *ctx)
{
  return nc_dataflow_attr_get_isl_set(nc_op_get_attr_str(node, "domain"), ctx);
}

isl_map *nc_dataflow_node_get_read(const nc_op *node, size_t i, isl_ctx *ctx)
{
  return nc_dataflow_attr_get_isl_map(array_elt(node, "reads", i), ctx);
}

isl_union_map *nc_dataflow_node_get_reads(const nc_op *node, isl_ctx *ctx)
{
  isl_union_map *u = isl_union_map_empty(isl_space_params_alloc(ctx, 0));
  for (size_t i = 0, n = nc_op_get_num_operands(node); i < n && u; i++) {
    isl_map *m = nc_dataflow_node_get_read(node, i, ctx);
    if (!m) {
      isl_union_map_free(u);
      return NULL;
    }
    u = isl_union_map_add_map(u, m);
  }
  return u;
}

isl_map *nc_dataflow_node_get_writes(const nc_op *node, isl_ctx *ctx)
{
  return nc_dataflow_attr_get_isl_map(nc_op_get_attr_str(node, "writes"), ctx);
}

bool nc_dataflow_node_has_deps(const nc_op *node)
{
  return nc_op_get_attr_str(node, "earliest") && nc_op_get_attr_str(node, "control") &&
         nc_op_get_attr_str(node, "buffer_elements");
}

isl_map *nc_dataflow_node_get_earliest(const nc_op *node, size_t i, isl_ctx *ctx)
{
  return nc_dataflow_attr_get_isl_map(array_elt(node, "earliest", i), ctx);
}

isl_map *nc_dataflow_node_get_control(const nc_op *node, size_t i, isl_ctx *ctx)
{
  return nc_dataflow_attr_get_isl_map(array_elt(node, "control", i), ctx);
}

int64_t nc_dataflow_node_get_buffer_elements(const nc_op *node, size_t i)
{
  nc_attr *a = nc_op_get_attr_str(node, "buffer_elements");
  if (!a || nc_attr_get_kind(a) != NC_ATTR_DENSE_ARRAY || i >= nc_attr_get_num_elements(a))
    return -1;
  return nc_attr_dense_array_get_int(a, i);
}

/* --- the region ------------------------------------------------------------------------------------------------ */

nc_block *nc_dataflow_node_get_body(const nc_op *node)
{
  return nc_op_get_num_regions(node) ? nc_region_get_first_block(nc_op_get_region(node, 0)) : NULL;
}

nc_op *nc_dataflow_node_get_yield(const nc_op *node)
{
  nc_block *b = nc_dataflow_node_get_body(node);
  nc_op *last = b ? nc_block_get_last_op(b) : NULL;
  return last && nc_op_is(last, "dataflow.yield") ? last : NULL;
}

nc_op *nc_dataflow_node_find_op(const nc_op *node, const char *name)
{
  nc_block *b = nc_dataflow_node_get_body(node);
  for (nc_op *op = b ? nc_block_get_first_op(b) : NULL; op; op = nc_op_get_next(op))
    if (nc_op_is(op, name))
      return op;
  return NULL;
}

nc_op *nc_dataflow_node_get_layer_op(const nc_op *node)
{
  nc_block *b = nc_dataflow_node_get_body(node);
  for (nc_op *op = b ? nc_block_get_first_op(b) : NULL; op; op = nc_op_get_next(op))
    if (!nc_op_is_constant(op) && !nc_op_is(op, "dataflow.yield"))
      return op;
  return NULL;
}

/* --- wrapping and inlining -------------------------------------------------------------------------------------- */

void nc_dataflow_layer_desc_clear(nc_dataflow_layer_desc *d)
{
  free(d->domain);
  for (size_t i = 0; i < d->n_reads; i++)
    free(d->reads[i]);
  free(d->reads);
  free(d->writes);
  memset(d, 0, sizeof *d);
}

static bool in_list(nc_op *const *ops, size_t n, const nc_op *op)
{
  for (size_t i = 0; i < n; i++)
    if (ops[i] == op)
      return true;
  return false;
}

size_t nc_dataflow_group_inputs(nc_op *const *ops, size_t n_ops, nc_value ***inputs)
{
  size_t n = 0, cap = 4;
  nc_value **v = nc_xmalloc(cap * sizeof *v);
  for (size_t k = 0; k < n_ops; k++)
    for (size_t i = 0, no = nc_op_get_num_operands(ops[k]); i < no; i++) {
      nc_value *x = nc_op_get_operand(ops[k], i);
      nc_op *def = nc_value_get_defining_op(x);
      bool seen = false;
      for (size_t j = 0; j < n && !seen; j++)
        seen = v[j] == x;
      if (seen || (def && (in_list(ops, n_ops, def) || nc_op_is_constant(def))))
        continue;
      if (n == cap)
        v = nc_xrealloc(v, (cap *= 2) * sizeof *v);
      v[n++] = x;
    }
  *inputs = v;
  return n;
}

static bool only_used_by(nc_op *def, nc_op *const *ops, size_t n)
{
  for (size_t r = 0, nr = nc_op_get_num_results(def); r < nr; r++)
    for (nc_use *u = nc_value_get_first_use(nc_op_get_result(def, r)); u; u = nc_use_get_next(u))
      if (!in_list(ops, n, nc_use_get_owner(u)))
        return false;
  return true;
}

nc_op *nc_dataflow_node_wrap(nc_op *const *ops, size_t n_ops, const char *name, const nc_dataflow_layer_desc *desc)
{
  nc_op *last = ops[n_ops - 1];
  nc_context *ctx = nc_op_get_context(last);
  nc_value *out = nc_op_get_result(last, 0);

  nc_value **inputs;
  size_t n_in = nc_dataflow_group_inputs(ops, n_ops, &inputs);
  /* the group's ops and the constants they use, in block order */
  size_t n_all = n_ops, cap = n_ops + 8;
  nc_op **all = nc_xmalloc(cap * sizeof *all);
  memcpy(all, ops, n_ops * sizeof *all);
  for (size_t k = 0; k < n_ops; k++)
    for (size_t i = 0, no = nc_op_get_num_operands(ops[k]); i < no; i++) {
      nc_op *def = nc_value_get_defining_op(nc_op_get_operand(ops[k], i));
      if (!def || !nc_op_is_constant(def) || in_list(all, n_all, def))
        continue;
      if (n_all == cap)
        all = nc_xrealloc(all, (cap *= 2) * sizeof *all);
      all[n_all++] = def;
    }
  nc_block *home = nc_op_get_block(last);
  for (size_t i = 0; i < n_all; i++) /* stable: foreign-block constants first, then block order */
    for (size_t j = i + 1; j < n_all; j++) {
      bool ai = nc_op_get_block(all[i]) == home, aj = nc_op_get_block(all[j]) == home;
      if ((ai && !aj) || (ai && aj && nc_op_is_before_in_block(all[j], all[i]))) {
        nc_op *t = all[i];
        all[i] = all[j];
        all[j] = t;
      }
    }

  nc_attr **reads = nc_xmalloc((desc->n_reads + 1) * sizeof *reads);
  for (size_t i = 0; i < desc->n_reads; i++)
    reads[i] = nc_dataflow_map_attr_get(ctx, desc->reads[i]);
  nc_named_attr attrs[] = {
    {nc_ident_get_cstr(ctx, "name"), nc_attr_string_cstr(ctx, name)},
    {nc_ident_get_cstr(ctx, "kind"), nc_attr_string_cstr(ctx, desc->kind ? desc->kind : "")},
    {nc_ident_get_cstr(ctx, "domain"), nc_dataflow_set_attr_get(ctx, desc->domain)},
    {nc_ident_get_cstr(ctx, "reads"), nc_attr_array(ctx, desc->n_reads, reads)},
    {nc_ident_get_cstr(ctx, "writes"), nc_dataflow_map_attr_get(ctx, desc->writes)},
    {nc_ident_get_cstr(ctx, "macs"), nc_attr_integer(ctx, nc_type_integer(ctx, 64, NC_SIGNLESS), desc->macs)},
  };
  free(reads);
  nc_type *out_type = nc_value_get_type(out);
  nc_op *node = nc_op_create(&(nc_op_state){
    .ctx = ctx, .name = "dataflow.node", .loc = nc_op_get_loc(ops[0]), .n_operands = n_in, .operands = inputs,
    .n_results = 1, .result_types = &out_type, .n_attrs = NC_COUNTOF(attrs), .attrs = attrs, .n_regions = 1});
  nc_op_insert_before(node, last);
  nc_value_replace_all_uses_with(out, nc_op_get_result(node, 0));

  nc_block *body = nc_region_add_entry_block(nc_op_get_region(node, 0));
  nc_mapping *map = nc_mapping_create();
  for (size_t i = 0; i < n_in; i++)
    nc_mapping_map_value(map, inputs[i], nc_block_add_arg(body, nc_value_get_type(inputs[i]), nc_value_get_loc(inputs[i])));
  for (size_t k = 0; k < n_all; k++) {
    nc_op *op = all[k];
    if (!in_list(ops, n_ops, op) && !only_used_by(op, ops, n_ops)) { /* a constant others use too */
      nc_op *copy = nc_op_clone(op, NULL);
      for (size_t r = 0, nr = nc_op_get_num_results(op); r < nr; r++)
        nc_mapping_map_value(map, nc_op_get_result(op, r), nc_op_get_result(copy, r));
      nc_block_append_op(body, copy);
    } else {
      nc_op_remove(op);
      nc_block_append_op(body, op);
    }
  }
  for (nc_op *op = nc_block_get_first_op(body); op; op = nc_op_get_next(op))
    for (size_t i = 0, no = nc_op_get_num_operands(op); i < no; i++) {
      nc_value *to = nc_mapping_lookup_value(map, nc_op_get_operand(op, i));
      if (to)
        nc_op_set_operand(op, i, to);
    }
  nc_op *yield = nc_op_create(&(nc_op_state){.ctx = ctx, .name = "dataflow.yield", .loc = nc_op_get_loc(last),
                                             .n_operands = 1, .operands = &out});
  nc_block_append_op(body, yield);
  nc_mapping_destroy(map);
  free(all);
  free(inputs);
  return node;
}

void nc_dataflow_node_inline(nc_op *node)
{
  nc_block *body = nc_dataflow_node_get_body(node);
  nc_op *yield = nc_dataflow_node_get_yield(node);
  if (!body || !yield)
    return;
  for (size_t i = 0, n = nc_block_get_num_args(body); i < n && i < nc_op_get_num_operands(node); i++)
    nc_value_replace_all_uses_with(nc_block_get_arg(body, i), nc_op_get_operand(node, i));
  for (nc_op *op = nc_block_get_first_op(body), *next; op && op != yield; op = next) {
    next = nc_op_get_next(op);
    nc_op_move_before(op, node);
  }
  for (size_t i = 0, n = nc_op_get_num_results(node); i < n && i < nc_op_get_num_operands(yield); i++)
    nc_value_replace_all_uses_with(nc_op_get_result(node, i), nc_op_get_operand(yield, i));
  nc_op_erase(node);
}
