/* core_steps.c: how many messages a layer's output (or a network input)
 * travels in, for core-place's pipeline cost model.
 *
 * A producer sends one message per iteration (a row, or a pixel) to every
 * consumer tile, and the host one per input step; a message holds a link
 * ceil(bytes / link width) cycles, so many small messages cost more than
 * their bytes say. Splitting a layer finely shrinks its messages below the
 * link width, which the byte count alone hides: the steps are what shows it.
 */
#include <isl/set.h>
#include <isl/map.h>

#include "core_util.h"
#include "nc/dialects/dataflow/dataflow.h"
#include "nc/dialects/dataflow/layer.h"

static isl_stat count_point(__isl_take isl_point *p, void *user)
{
  isl_point_free(p);
  ++*(int64_t *)user;
  return isl_stat_ok;
}

static int64_t count_points(__isl_take isl_set *s)
{
  int64_t n = 0;
  if (s && isl_set_foreach_point(s, count_point, &n) < 0)
    n = 0;
  isl_set_free(s);
  return n;
}

int64_t core_node_steps(const nc_op *node, isl_ctx *ctx)
{
  int64_t n = node ? count_points(nc_dataflow_node_get_domain(node, ctx)) : 0;
  return n > 0 ? n : 1;
}

int64_t core_input_steps(const nc_op *node, size_t i, isl_ctx *ctx)
{
  isl_map *control = node ? nc_dataflow_node_get_control(node, i, ctx) : NULL;
  int64_t n = control ? count_points(isl_map_domain(control)) : 0;
  return n > 0 ? n : 1;
}

/* The host sends a whole row (or pixel) per message, including the rows no
 * iteration waits for alone: a 7x7 stride-2 conv's control relation starts
 * at input row 3, and its 221 points for 224 rows averaged 681 bytes per
 * message (22 link cycles) where the host sends 224 of 672 (21). */
int64_t core_host_steps(const nc_op *node, size_t i, isl_ctx *ctx)
{
  int64_t d[NC_MAX_RANK];
  isl_map *e = node ? nc_dataflow_node_get_earliest(node, i, ctx) : NULL;
  int dim = e ? (int)isl_map_dim(e, isl_dim_out) : -1;
  isl_map_free(e);
  if (!node || i >= nc_op_get_num_operands(node) ||
      nc_dataflow_tensor_coords(nc_value_get_type(nc_op_get_operand(node, i)), d) != 3 ||
      (dim != 1 && dim != 2) || d[1] <= 0 || d[2] <= 0)
    return core_input_steps(node, i, ctx);
  return dim == 1 ? d[1] : d[1] * d[2];
}

double core_message_cycles(double bytes, int64_t steps, double link_bytes_per_cycle)
{
  if (bytes <= 0 || steps <= 0)
    return 0;
  double per = bytes / (double)steps / link_bytes_per_cycle;
  double whole = (double)(int64_t)per;
  return (double)steps * (per > whole ? whole + 1 : whole);
}

int64_t core_node_work(const nc_op *node)
{
  nc_dataflow_layer layer;
  nc_type *out = nc_value_get_type(nc_op_get_result(node, 0));
  int64_t elems = nc_type_get_num_elements(out), per = 1, c = nc_core_node_get_out_channels(node);
  if (!nc_dataflow_node_get_layer(node, &layer))
    return elems;
  if ((layer.kind == NC_DATAFLOW_LAYER_CONV || layer.kind == NC_DATAFLOW_LAYER_MATMUL) && layer.weights) {
    int64_t w = nc_type_get_num_elements(nc_attr_get_type(layer.weights));
    per = layer.kind == NC_DATAFLOW_LAYER_CONV ? w / (c > 0 ? c : 1) : nc_type_get_shape(nc_attr_get_type(layer.weights))[0];
  } else if (layer.kind == NC_DATAFLOW_LAYER_MAX_POOL || layer.kind == NC_DATAFLOW_LAYER_AVG_POOL) {
    per = layer.kernel[0] * layer.kernel[1];
  }
  return elems > 0 && per > 0 ? elems * per : 0;
}
