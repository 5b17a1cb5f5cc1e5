/* printer_psum.c: the NorthPole printer's part for tiles that sum over a
 * slice of a layer's input channels (core.tile `in_channels`,
 * docs/dialects/core.md): their role (a partial-sum tile or the group's
 * reducer), the sliced weights, and the record's trailer (np_format.h).
 * Kept apart from printer_layer.c, which describes whole layers.
 */
#include <string.h>

#include "nc/dialects/core/core.h"
#include "nc/ir/diag.h"
#include "printer_internal.h"

bool np_tile_in_slice(nc_op *tile, nc_op *node, np_in_slice *s)
{
  memset(s, 0, sizeof *s);
  if (!nc_core_tile_get_in_channels(tile, &s->lo, &s->hi))
    return true;
  int64_t cin = nc_core_node_get_in_channels(node, NULL);
  if (cin <= 0 || s->lo < 0 || s->hi <= s->lo || s->hi > cin)
    return nc_op_emit_error(tile, "in_channels [%lld, %lld) are not input channels of node '%s' (a conv with group "
                            "1 or a matmul)", (long long)s->lo, (long long)s->hi, nc_core_tile_get_node(tile));
  s->cin = cin;
  s->flags = s->lo == 0 ? NP_FLAG_REDUCE : NP_FLAG_PARTIAL;
  int64_t a0 = 0, a1 = 0, y0 = 0, y1 = 0, r0, n0, r1, n1;
  nc_core_tile_get_out_channels(tile, &a0, &a1);
  nc_core_tile_get_out_rows(tile, &y0, &y1);
  nc_core_tile_get_replica(tile, &r0, &n0);
  for (nc_op *t = nc_core_chip_first_tile(nc_op_get_parent_op(tile)); t && s->lo == 0; t = nc_core_tile_next(t)) {
    int64_t b0 = 0, b1 = 0, z0 = 0, z1 = 0, lo, hi;
    nc_core_tile_get_out_channels(t, &b0, &b1);
    nc_core_tile_get_out_rows(t, &z0, &z1); /* each row band's group has its own reducer */
    nc_core_tile_get_replica(t, &r1, &n1); /* a copy's partial sums go to its own copy of the reducer */
    if (t != tile && r1 == r0 && !strcmp(nc_core_tile_get_node(t), nc_core_tile_get_node(tile)) && b0 == a0 && b1 == a1 &&
        z0 == y0 && z1 == y1 && nc_core_tile_get_in_channels(t, &lo, &hi))
      s->n_partials++;
  }
  if (s->lo == 0 && !s->n_partials)
    return nc_op_emit_error(tile, "sums over input channels [%lld, %lld) of node '%s', but no other tile adds the "
                            "rest", (long long)s->lo, (long long)s->hi, nc_core_tile_get_node(tile));
  return true;
}

void np_layer_write_sliced(nc_bytes *b, const np_layer *l, int64_t lo, int64_t hi, const np_in_slice *s,
                           np_weight_pool *pool, int64_t slot)
{
  bool partial = s->flags & NP_FLAG_PARTIAL;
  np_layer_write_geometry(b, l);
  /* a partial-sum tile neither adds the bias nor requantizes: its reducer does, once */
  uint32_t nr = partial ? 0 : (uint32_t)(l->n_requant > 1 ? hi - lo : (int64_t)l->n_requant);
  nc_bytes_put_u32(b, nr);
  for (uint32_t i = 0; i < nr; i++) nc_bytes_put_i32(b, l->multiplier[l->n_requant > 1 ? lo + i : i]);
  for (uint32_t i = 0; i < nr; i++) nc_bytes_put_i32(b, l->shift[l->n_requant > 1 ? lo + i : i]);
  uint32_t nb = l->n_bias && !partial ? (uint32_t)(hi - lo) : 0;
  nc_bytes_put_u32(b, nb);
  for (uint32_t i = 0; i < nb; i++) nc_bytes_put_i32(b, l->bias[lo + i]);
  int64_t n = s->hi - s->lo;
  if (l->kind == NP_KIND_CONV) { /* [hi - lo, n, kh, kw]: channels s->lo.. of rows lo..hi */
    int64_t khw = l->weight_row_bytes / s->cin;
    np_put_weights(b, pool, slot, l->weights + lo * l->weight_row_bytes + s->lo * khw, hi - lo, n * khw,
                   l->weight_row_bytes, l->weight_bits, !l->owned_weights);
  } else { /* matmul [n, hi - lo]: rows s->lo.. and columns lo..hi of [K, N] */
    np_put_weights(b, pool, slot, l->weights + s->lo * l->n + lo, n, hi - lo, l->n, l->weight_bits, !l->owned_weights);
  }
}

void np_put_in_slice(nc_bytes *b, const np_in_slice *s)
{
  nc_bytes_put_i64(b, s->lo);
  nc_bytes_put_i64(b, s->hi);
  nc_bytes_put_u32(b, s->n_partials);
  nc_bytes_put_u32(b, 0);
}
