/* core_util.h: what the core passes (dataflow-to-core, core-place,
 * core-schedule, core-plan-memory) share about putting a dataflow node on a
 * core: the buffers it needs, read from its layer (layer.h) and its
 * dataflow-deps attributes, never from the graph ops in its region.
 */
#ifndef NC_PASSES_CORE_UTIL_H
#define NC_PASSES_CORE_UTIL_H

#include "nc/dialects/core/core.h"
#include "nc/passes/mapping.h"

/** The buffers a tile computing output channels [lo, hi) of `node` needs
 * (lo = hi = 0: the whole node), in this order:
 *   weights  the layer's weights, the part of them for [lo, hi) (they are
 *            per output channel);
 *   bias     the layer's bias and lut and 8 bytes per requantization
 *            multiplier/shift pair, again the part for [lo, hi);
 *   in<k>    per operand, buffer_elements[k] elements (needs dataflow-deps);
 *   out      the most elements one iteration writes into [lo, hi);
 *   acc      (scratch) as many int32 accumulators, for a conv or matmul that
 *            requantizes (its sums are wider than its output).
 * Buffers of 0 bytes are left out. *specs is malloc'ed. Returns false with
 * a message in err when the node lacks what is needed. */
bool core_node_buffers(NC_KEEP const nc_op *node, int64_t lo, int64_t hi, isl_ctx *ctx,
                       NC_GIVE nc_core_buffer_spec **specs, size_t *n, char *err, size_t errlen);

/** Iterations of a node per frame (its domain's points; at least 1): the
 * messages it sends to each consumer tile (core_steps.c). */
int64_t core_node_steps(NC_KEEP const nc_op *node, isl_ctx *ctx);

/** Steps in which operand i of `node` arrives (the domain of its control
 * relation; at least 1): for a network input, the messages the host sends. */
int64_t core_input_steps(NC_KEEP const nc_op *node, size_t i, isl_ctx *ctx);

/** Link cycles of `bytes` sent in `steps` equal messages, each holding a
 * link ceil(message bytes / link width) cycles. */
double core_message_cycles(double bytes, int64_t steps, double link_bytes_per_cycle);

#endif
