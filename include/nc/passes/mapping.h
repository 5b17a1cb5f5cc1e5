/* mapping.h: algorithms that mapping a dataflow function onto a machine
 * needs whatever the machine is (a core grid, a crossbar chip, a BSP tile
 * machine): numbering the iterations of an isl set, counting what each
 * iteration of a node writes, and placing buffers in a memory by first fit
 * with lifetimes. They take isl objects, dataflow nodes and plain arrays,
 * never a family dialect's types, so that every target's passes share them.
 */
#ifndef NC_PASSES_MAPPING_H
#define NC_PASSES_MAPPING_H

#include <isl/ctx.h>
#include <isl/set.h>

#include "nc/ir/ops.h"

/* ------------------------------------------------------------------------ */
/* Iteration numbering                                                       */
/* ------------------------------------------------------------------------ */

/** The points of a bounded set in lexicographic order: iteration i is
 * point i (coordinates coords[i*dim .. i*dim+dim-1]). */
typedef struct nc_iters {
  size_t n;
  int dim;
  int64_t *coords;
} nc_iters;

/** The most points any enumeration here visits (iterations of a node, or
 * (iteration, element) pairs of its writes): larger domains are refused
 * before isl starts enumerating, so memory and time stay bounded. */
#define NC_ITERS_MAX_POINTS ((uint64_t)1 << 26)

/** Whether a parameter-free set is bounded and holds at most `cap` points by
 * a cheap upper bound computed without enumerating: its bounding box, or
 * when that is too large the sum of the boxes of its slices along the
 * leading dimensions (at most 2^16 slices; (iteration, element) pairs of a
 * conv's writes are bounded per iteration this way). */
bool nc_set_fits_enumeration(__isl_keep isl_set *set, uint64_t cap);

/** Enumerates a bounded, parameter-free set (at most NC_ITERS_MAX_POINTS
 * points, judged by its bounding box); false (and an empty *out) otherwise. */
bool nc_iters_from_set(__isl_keep isl_set *set, nc_iters *out);
/** A dataflow node's iterations (its domain). */
bool nc_iters_of_node(NC_KEEP const nc_op *node, isl_ctx *ctx, nc_iters *out);
/** The iteration number of a point (dim coordinates), or -1. */
int64_t nc_iters_rank(NC_KEEP const nc_iters *it, const int64_t *coords);
/** Frees the points. */
void nc_iters_clear(nc_iters *it);

/** Elements of a dataflow node's output each iteration writes into output
 * channels [lo, hi) (the output's first coordinate; a matmul's [M, N]
 * result: its second, nc_core_node_rows_first; lo = hi = 0: all), one count
 * per iteration (*counts malloc'ed, *n iterations). */
bool nc_mapping_output_elements(NC_KEEP const nc_op *node, int64_t lo, int64_t hi, isl_ctx *ctx,
                                NC_GIVE int64_t **counts, size_t *n);

/** The same restricted to rows [rlo, rhi) too (the second output
 * coordinate, a matmul's first; rlo = rhi = 0: all): what a row-band tile
 * (core.tile out_rows) writes per iteration. */
bool nc_mapping_output_elements_in(NC_KEEP const nc_op *node, int64_t lo, int64_t hi, int64_t rlo, int64_t rhi,
                                   isl_ctx *ctx, NC_GIVE int64_t **counts, size_t *n);
/** nc_mapping_output_elements_in from a node's iterations `it` and writes
 * relation (nc_iters_of_node, nc_dataflow_node_get_writes), read once by a
 * caller that asks for many slices of one node. [lo, hi) restricts the first
 * output coordinate and [rlo, rhi) the second (a caller swaps them for a
 * rows-first node, nc_core_node_rows_first). */
bool nc_mapping_output_elements_from(NC_KEEP const nc_iters *it, NC_KEEP isl_map *writes, int64_t lo, int64_t hi,
                                     int64_t rlo, int64_t rhi, NC_GIVE int64_t **counts, size_t *n);

/** The elements each iteration of a node writes, when they form a box of
 * one fixed size at an offset affine in the iteration (isl's fixed-size box
 * hull of the writes, checked to be exact): no element is enumerated. */
typedef struct nc_write_boxes {
  size_t n;                   /**< iterations (the node's domain, in order) */
  int dim;                    /**< output coordinates */
  int64_t size[NC_MAX_RANK];  /**< the box's extent per coordinate */
  int64_t per_iter;           /**< elements per box */
  bool *present;              /**< whether iteration i writes at all */
  int64_t *offset;            /**< n x dim: the box's first coordinates */
} nc_write_boxes;

/** The boxes of a node's writes into output channels [lo, hi) (as
 * nc_mapping_output_elements; lo = hi = 0: all): 1 and *out filled (release with
 * nc_write_boxes_clear), 0 when the writes are not such boxes (enumerate
 * instead), -1 on an isl error or an unenumerable domain. */
int nc_mapping_write_boxes(NC_KEEP const nc_op *node, int64_t lo, int64_t hi, isl_ctx *ctx,
                           nc_write_boxes *out);
/** The same restricted to rows [rlo, rhi) too (rlo = rhi = 0: all rows);
 * iterations writing no row of the band are not present. */
int nc_mapping_write_boxes_in(NC_KEEP const nc_op *node, int64_t lo, int64_t hi, int64_t rlo, int64_t rhi,
                              isl_ctx *ctx, nc_write_boxes *out);
/** nc_mapping_write_boxes_in for a caller that has already read the
 * node's iterations `it` and its writes relation (neither is read again);
 * without the node, [lo, hi) restricts the first output coordinate and
 * [rlo, rhi) the second (a caller swaps them for a rows-first node). */
int nc_mapping_write_boxes_from(NC_KEEP const nc_iters *it, NC_KEEP isl_map *writes, int64_t lo, int64_t hi,
                                int64_t rlo, int64_t rhi, nc_write_boxes *out);
/** Frees the boxes' arrays. */
void nc_write_boxes_clear(nc_write_boxes *b);

/* ------------------------------------------------------------------------ */
/* Memory planning                                                           */
/* ------------------------------------------------------------------------ */

/** When a buffer is in use, as positions in some program (inclusive). */
typedef struct nc_lifetime {
  int64_t first, last;
} nc_lifetime;

/** True if the two lifetimes share a position. */
bool nc_lifetimes_overlap(nc_lifetime a, nc_lifetime b);

/** First-fit allocation with lifetimes: buffers in order, each at the lowest
 * offset (a multiple of `alignment`) where it overlaps no buffer placed
 * before it whose lifetime overlaps its own. Writes the offsets and returns
 * the bytes used (the end of the highest buffer; sizes saturate, so absurd
 * ones report INT64_MAX rather than wrapping). */
int64_t nc_mapping_first_fit(size_t n, const int64_t *bytes, NC_KEEP const nc_lifetime *lifetimes,
                             int64_t alignment, int64_t *offsets);

#endif
