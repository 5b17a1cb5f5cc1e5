/* graph_quantize_release.c: graph-quantize frees the float weights it
 * replaced.
 *
 * The float weights of an imported model are as large as the model, and
 * once the integer graph stands nothing reads them; uniqued in the context,
 * their blobs would otherwise stay until the compile ends and set its peak
 * memory (VGG-19: 548 MB of 860). Only when the context's owner says its
 * resources are referenced by nothing but the IR the passes run on
 * (nc_context_set_resources_releasable: nc-compile on an ONNX model), and
 * only blobs no op of the function refers to any more; a layer's weights go
 * as soon as the layer is rewritten (when their constant has no other use),
 * so the float and integer weights never all stand together.
 */
#include "graph_quantize_internal.h"

#include <stdlib.h>

#include "nc/ir/context.h"

/* The resource of a dense_resource attribute, also inside arrays and
 * dictionaries, marked as still referenced. */
static void mark_attr(gq_map *cand, const nc_attr *a)
{
  if (!a)
    return;
  switch (nc_attr_get_kind(a)) {
  case NC_ATTR_DENSE_RESOURCE: {
    nc_resource *r = nc_attr_dense_resource_get(a);
    if (gq_map_get(cand, r) != SIZE_MAX)
      gq_map_put(cand, r, 0);
    break;
  }
  case NC_ATTR_ARRAY:
    for (size_t i = 0; i < nc_attr_get_num_elements(a); i++)
      mark_attr(cand, nc_attr_get_element(a, i));
    break;
  case NC_ATTR_DICTIONARY:
    for (size_t i = 0; i < nc_attr_get_num_elements(a); i++)
      mark_attr(cand, nc_attr_get_entry(a, i).value);
    break;
  default:
    break;
  }
}

static nc_walk_result mark_op(nc_op *op, void *userData)
{
  mark_attr(userData, nc_op_get_attr_dict(op));
  mark_attr(userData, nc_op_get_props(op));
  return NC_WALK_ADVANCE;
}

void gq_collect_blob(gq_map *cand, nc_op *dead)
{
  if (!nc_context_get_resources_releasable(nc_op_get_context(dead)))
    return;
  nc_attr *v = nc_op_get_attr_str(dead, "value");
  if (v && nc_attr_get_kind(v) == NC_ATTR_DENSE_RESOURCE)
    gq_map_put(cand, nc_attr_dense_resource_get(v), 1);
}

void gq_drop_weights(nc_op *layer)
{
  if (!nc_context_get_resources_releasable(nc_op_get_context(layer)) || nc_op_get_num_operands(layer) < 2)
    return;
  nc_value *w = nc_op_get_operand(layer, 1);
  nc_op *c = nc_value_get_defining_op(w);
  nc_attr *v = c && nc_value_has_one_use(w) ? nc_op_get_attr_str(c, "value") : NULL;
  /* an imported model's constants own their blobs (one graph.constant per
   * initializer), so one use of the constant is one use of the blob */
  if (v && nc_attr_get_kind(v) == NC_ATTR_DENSE_RESOURCE)
    nc_resource_drop_data(nc_attr_dense_resource_get(v));
}

size_t gq_release_blobs(gq_map *cand, nc_op *func)
{
  if (!cand->n)
    return 0;
  nc_op_walk(func, NC_WALK_PRE_ORDER, mark_op, cand);
  size_t released = 0;
  for (size_t i = 0; i < cand->cap; i++)
    if (cand->keys[i] && cand->vals[i] == 1) {
      nc_resource_drop_data((nc_resource *)cand->keys[i]);
      released++;
    }
  return released;
}
