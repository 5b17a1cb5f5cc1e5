/* printer_internal.h: shared by the NorthPole printer's files. */
#ifndef NC_TARGETS_NORTHPOLE_PRINTER_INTERNAL_H
#define NC_TARGETS_NORTHPOLE_PRINTER_INTERNAL_H

#include "nc/ir/ops.h"
#include "nc/runtime/ncb.h"
#include "printer.h"
#include "runtime/np_format.h"
#include "runtime/np_limits.h"

/** A layer as a core runs it (whole node; tiles write their channel slice). */
typedef struct np_layer {
  uint32_t kind, flags;
  unsigned bits;             /* the result's width: 8, 4 or 2 (the tile record's flags >> NP_WIDTH_SHIFT) */
  int64_t kernel[2], stride[2], pad[4], dilation[2], group;
  int32_t zero_point;
  size_t n_requant, n_bias;  /* per layer: 1 or all channels; 0 or all channels */
  int32_t *multiplier, *shift;
  int64_t *bias;
  const int8_t *weights;     /* conv [M, C/g, kh, kw]; matmul [K, N]: the attribute's data, or owned_weights */
  int8_t *owned_weights;     /* a splat's expansion (freed by np_layer_clear) */
  int64_t weight_rows, weight_row_bytes; /* conv: M and C/g*kh*kw */
  int64_t k, n;              /* matmul */
  int64_t macs_per_element, vops_per_element;
} np_layer;

/** Reads the layer of a dataflow.node; false after a diagnostic. */
bool np_layer_read(nc_op *node, np_layer *l);
void np_layer_clear(np_layer *l);
/** Writes the window, requantize, bias and weight fields of a tile section
 * (np_format.h) for output channels [lo, hi). */
void np_layer_write(nc_bytes *b, const np_layer *l, int64_t lo, int64_t hi);
/** The layer record's geometry: kernel, stride, pad, dilation, group and
 * zero point, which every layer kind writes first. */
void np_layer_write_geometry(nc_bytes *b, const np_layer *l);

/** A tile's input-channel slice (core.tile in_channels; printer_psum.c). */
typedef struct np_in_slice {
  int64_t lo, hi, cin;  /* lo = hi = 0: all input channels */
  uint32_t flags;       /* NP_FLAG_PARTIAL, NP_FLAG_REDUCE or 0 */
  uint32_t n_partials;  /* a reducer: the other tiles of its group */
} np_in_slice;

/** Reads the tile's in_channels and its role in its group; false after a diagnostic. */
bool np_tile_in_slice(nc_op *tile, nc_op *node, np_in_slice *s);
/** np_layer_write for a tile summing over input channels s (flags != 0):
 * the weights of the slice, no bias or requantization on a partial-sum tile. */
void np_layer_write_sliced(nc_bytes *b, const np_layer *l, int64_t lo, int64_t hi, const np_in_slice *s);
/** The tile record's trailer for an input-channel slice (np_format.h). */
void np_put_in_slice(nc_bytes *b, const np_in_slice *s);

#endif
