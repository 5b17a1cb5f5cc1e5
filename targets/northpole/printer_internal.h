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
  int32_t clamp_min, clamp_max; /* with NP_FLAG_CLAMP: the bounds of a fused Clip (the tile's clamp trailer) */
  size_t n_requant, n_bias;  /* per layer: 1 or all channels; 0 or all channels */
  int32_t *multiplier, *shift;
  int64_t *bias;
  const int8_t *weights;     /* conv [M, C/g, kh, kw]; matmul [K, N]: the attribute's data, or owned_weights */
  int8_t *owned_weights;     /* a splat's expansion (freed by np_layer_clear) */
  int64_t weight_rows, weight_row_bytes; /* conv: M and C/g*kh*kw */
  int weight_bits;           /* 4 or 2: a conv's or matmul's weights go packed (NP_FLAG_PACKED_WEIGHTS); else 8 */
  int64_t k, n;              /* matmul */
  int64_t macs_per_element, vops_per_element;
  size_t n_affine;           /* NP_FLAG_IN_AFFINE: input channels of operand 0 mapped on receive (layer.h input_affine) */
  const int64_t *affine;     /* their 4 x n_affine + 2 entries, borrowed from the node's params */
} np_layer;

/** The weight slices several tiles hold, written once in the
 * NP_SECTION_WEIGHTS section (printer_weights.c). */
typedef struct np_weight_pool {
  nc_bytes bytes;                 /* the section being built */
  struct np_weight_slice *slices; /* the shared keys, sorted */
  size_t n;
  struct np_weight_fill *fills;   /* strided slices reserved, written by np_weight_pool_finish */
  size_t n_fills, cap_fills, n_bound;
  bool log;                       /* a tile's log (np_weight_pool_log): shared slices recorded, not placed */
  struct np_weight_use *uses;     /* the log's shared-slice references, placed by np_weight_pool_commit */
  size_t n_uses, cap_uses;
} np_weight_pool;

/** Counts the chip's tiles by key (node, output and input channels) and
 * keeps the keys two or more tiles share. */
void np_weight_pool_init(np_weight_pool *pool, nc_op *chip);
/** The tile's shared slice, or -1 when no other tile holds its weights. */
int64_t np_weight_pool_slot(const np_weight_pool *pool, nc_op *tile);
/** Writes a tile's weight field: `runs` runs of `len` elements, `stride`
 * apart from base, a byte each (bits 8) or packed two or four a byte (bits 4
 * or 2, NP_FLAG_PACKED_WEIGHTS); inline, or (slot >= 0) a reference to the
 * pool's one copy, written on the slot's first use. Pads b to 8 bytes. With
 * a pool and `lasting` (base stays valid until np_weight_pool_finish),
 * strided runs are reserved (zeros) and filled by np_weight_pool_finish,
 * once the tile's section is bound (np_weight_pool_commit). */
void np_put_weights(nc_bytes *b, np_weight_pool *pool, int64_t slot, const int8_t *base, int64_t runs, int64_t len,
                    int64_t stride, int bits, bool lasting);
/** Fills the reserved strided slices (on ctx's threads), adds the weights
 * section to w (when any slice is shared) and clears the pool. */
void np_weight_pool_finish(np_weight_pool *pool, nc_context *ctx, nc_ncb_writer *w);
/** Frees the pool without writing it. */
void np_weight_pool_clear(np_weight_pool *pool);
/** A log for one tile printed apart from the others (on another thread):
 * np_put_weights with it writes the tile's bytes as with `pool`, but leaves
 * the offsets of shared slices to np_weight_pool_commit and keeps the tile's
 * deferred fills. It reads pool's keys, which must outlive it. */
np_weight_pool np_weight_pool_log(const np_weight_pool *pool);
/** Places a tile's log in the pool, as printing that tile with the pool
 * would have (tiles committed in IR order give the same bytes): shared
 * slices on their first use, their offsets into the tile's bytes `tile`
 * (which no longer move), its fills bound to them. Clears the log. */
void np_weight_pool_commit(np_weight_pool *pool, np_weight_pool *log, nc_bytes *tile);
/** Frees a log (not the pool's keys). */
void np_weight_pool_log_clear(np_weight_pool *log);

/** Reads the layer of a dataflow.node; false after a diagnostic. *rangeChecked
 * names the packed weights whose range was checked last (NULL at first): the
 * check is skipped for them and *rangeChecked updated, so the tiles of one
 * layer check it once. */
bool np_layer_read(nc_op *node, np_layer *l, const void **rangeChecked);
void np_layer_clear(np_layer *l);
/** Writes the window, requantize, bias and weight fields of a tile section
 * (np_format.h) for output channels [lo, hi). */
void np_layer_write(nc_bytes *b, const np_layer *l, int64_t lo, int64_t hi, np_weight_pool *pool, int64_t slot);
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
void np_layer_write_sliced(nc_bytes *b, const np_layer *l, int64_t lo, int64_t hi, const np_in_slice *s,
                           np_weight_pool *pool, int64_t slot);
/** The tile record's trailer for an input-channel slice (np_format.h). */
void np_put_in_slice(nc_bytes *b, const np_in_slice *s);

#endif
