/* ir_util.c: what the xbar passes and printer read off the IR besides
 * attributes: a node's iteration domain as a box, and elements of weight
 * and bias attributes. */
#include <isl/aff.h>
#include <isl/ilp.h>
#include <isl/local_space.h>
#include <isl/set.h>
#include <isl/val.h>
#include <stdio.h>
#include <string.h>

#include "nc/dialects/dataflow/dataflow.h"
#include "nc/ir/types.h"
#include "xbar_ir.h"

bool xbar_node_domain_box(nc_op *node, isl_ctx *ctx, int64_t *extents, unsigned *rank, char *err, size_t errlen)
{
  isl_set *dom = nc_dataflow_node_get_domain(node, ctx);
  isl_size n = dom ? isl_set_dim(dom, isl_dim_set) : -1;
  bool ok = n >= 0 && n <= 8;
  isl_set *box = NULL;
  if (ok)
    box = isl_set_universe(isl_set_get_space(dom));
  for (int d = 0; ok && d < n; d++) {
    isl_aff *var = isl_aff_var_on_domain(isl_local_space_from_space(isl_set_get_space(dom)), isl_dim_set, d);
    isl_val *lo = isl_set_min_val(dom, var), *hi = isl_set_max_val(dom, var);
    isl_aff_free(var);
    ok = lo && hi && isl_val_is_int(lo) && isl_val_is_int(hi) && isl_val_is_zero(lo);
    if (ok) {
      extents[d] = isl_val_get_num_si(hi) + 1;
      box = isl_set_lower_bound_si(box, isl_dim_set, d, 0);
      box = isl_set_upper_bound_si(box, isl_dim_set, d, (int)(extents[d] - 1));
    }
    isl_val_free(lo);
    isl_val_free(hi);
  }
  ok = ok && isl_set_is_equal(dom, box) == isl_bool_true;
  isl_set_free(box);
  isl_set_free(dom);
  if (!ok) {
    snprintf(err, errlen, "the iteration domain of node '%s' is not a box from 0 (the xbar target numbers "
             "iterations row-major over a box)", nc_dataflow_node_get_name(node));
    return false;
  }
  *rank = (unsigned)n;
  return true;
}

bool xbar_elements_int(const nc_attr *a, int64_t i, int64_t *v)
{
  size_t nbytes;
  bool splat;
  const void *data = a ? nc_attr_elements_get_data(a, &nbytes, &splat) : NULL;
  if (!data)
    return false;
  nc_type *elt = nc_type_get_element_type(nc_attr_get_type(a));
  size_t size = nc_dense_element_size(elt);
  size_t at = splat ? 0 : (size_t)i * size;
  if (at + size > nbytes)
    return false;
  const unsigned char *p = (const unsigned char *)data + at;
  switch (size) {
  case 1: *v = nc_type_get_signedness(elt) == NC_UNSIGNED ? (int64_t)p[0] : (int64_t)(int8_t)p[0]; return true;
  case 2: { int16_t x; memcpy(&x, p, 2); *v = x; return true; }
  case 4: { int32_t x; memcpy(&x, p, 4); *v = x; return true; }
  case 8: { int64_t x; memcpy(&x, p, 8); *v = x; return true; }
  default: return false;
  }
}
