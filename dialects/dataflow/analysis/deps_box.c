/* deps_box.c: recognising relations whose every image is a box of one
 * fixed size at an offset affine in the domain point (a conv row writes K
 * channels x 1 row x W columns starting at (0, oy, 0)). Such a relation can
 * be counted and laid out per domain point without enumerating its range:
 * the analysis and the printers then visit iterations, never tensor
 * elements. isl gives the candidate (its fixed-size box hull of the range);
 * it is accepted only if it equals the relation.
 */
#include "deps_internal.h"

#include <isl/aff.h>
#include <isl/fixed_box.h>
#include <isl/local_space.h>
#include <isl/map.h>
#include <isl/val.h>

int nc_deps_map_fixed_box(isl_map *map, isl_multi_aff **offset, int64_t *sizes, int64_t *count)
{
  *offset = NULL;
  *count = 0;
  if (!map)
    return -1;
  isl_fixed_box *box = isl_map_get_range_simple_fixed_box_hull(map);
  isl_bool valid = box ? isl_fixed_box_is_valid(box) : isl_bool_error;
  if (valid != isl_bool_true) {
    isl_fixed_box_free(box);
    return valid == isl_bool_false ? 0 : -1;
  }
  isl_multi_aff *off = isl_fixed_box_get_offset(box);
  isl_multi_val *size = isl_fixed_box_get_size(box);
  isl_fixed_box_free(box);
  int n_in = (int)isl_map_dim(map, isl_dim_in), n_out = (int)isl_map_dim(map, isl_dim_out);
  int answer = off && size ? 1 : -1;
  isl_map *exact = answer == 1 ? isl_map_universe(isl_map_get_space(map)) : NULL;
  int64_t total = 1;
  for (int d = 0; d < n_out && answer == 1; d++) {
    isl_val *sz = isl_multi_val_get_at(size, d);
    int64_t extent = sz && isl_val_is_int(sz) ? isl_val_get_num_si(sz) : -1;
    isl_val_free(sz);
    if (extent < 0 || extent > INT32_MAX || (extent > 0 && total > INT64_MAX / extent)) {
      answer = 0;
      break;
    }
    sizes[d] = extent;
    total *= extent;
    /* 0 <= e_d - off_d(i) <= extent - 1, on the pair [i -> e] */
    isl_local_space *ls = isl_local_space_from_space(isl_space_wrap(isl_map_get_space(map)));
    isl_aff *e = isl_aff_var_on_domain(ls, isl_dim_set, n_in + d);
    isl_aff *lo = isl_aff_pullback_multi_aff(isl_multi_aff_get_at(off, d),
                                             isl_multi_aff_domain_map(isl_map_get_space(map)));
    isl_aff *diff = isl_aff_sub(e, lo);
    isl_set *band = isl_pw_aff_nonneg_set(isl_pw_aff_from_aff(isl_aff_copy(diff)));
    band = isl_set_intersect(
        band, isl_pw_aff_nonneg_set(isl_pw_aff_from_aff(isl_aff_add_constant_si(isl_aff_neg(diff), (int)extent - 1))));
    exact = isl_map_intersect(exact, isl_set_unwrap(band));
  }
  if (answer == 1) {
    exact = isl_map_intersect_domain(exact, isl_map_domain(isl_map_copy(map)));
    isl_bool eq = isl_map_is_equal(exact, map);
    answer = eq == isl_bool_true ? 1 : eq == isl_bool_false ? 0 : -1;
  }
  isl_map_free(exact);
  isl_multi_val_free(size);
  if (answer == 1) {
    *offset = off;
    *count = total;
  } else {
    isl_multi_aff_free(off);
  }
  return answer;
}
