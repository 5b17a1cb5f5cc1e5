/* deps.h: element-granularity pipeline dependences between dataflow layers.
 *
 * The isl core of nc's dependence analysis, independent of the IR. A layer is
 * an iteration domain plus read and write access relations, all isl objects
 * in isl's own syntax. For one channel (producer P -> consumer C) the analysis
 * computes, following docs/dataflow-dependences.md and the cmnnc approach:
 *
 *   Dep      = R_C . W_P^-1        consumer iteration -> producer iterations
 *   Last     = lexmax(Dep)         the last producer iteration each needs
 *   Earliest = prefix lexmax of Last over C's order (monotone: C runs in order)
 *   Control  = for each completed producer iteration, the last consumer
 *              iteration allowed to run (the inverse of Earliest); printed as
 *              an isl AST it is the control state machine of the channel
 *   Buffer   = the maximum number of elements live at once (minimum buffer)
 *
 * Conventions (fixed once, everywhere):
 *   - Tensors are addressed in UNPADDED coordinates T[c, y, x] (channel, row,
 *     column; 0 <= y < H, 0 <= x < W); a flattened vector is F[i]. Padding
 *     elements are nobody's writes, so reads are clipped to the tensor.
 *   - Every layer runs its iterations one after another in the lexicographic
 *     order of its domain.
 *   - Pipeline timeline: producer iteration p (of rank t in D_P's order)
 *     completes at step t and writes all its elements at once. Consumer
 *     iterations run in order, each as soon as possible: iteration c runs at
 *     the step of Earliest(c), right AFTER that producer iteration completed
 *     (tie: within one step the producer writes first, then every consumer
 *     iteration whose wait is satisfied runs, in order). Consumer iterations
 *     that need nothing from P and precede every iteration that does (the
 *     "free" set) may run before the first producer step.
 *   - Element lifetime: an element is live from the step of its first write
 *     through the step at which its last reader runs, both inclusive. The
 *     count at a step is taken after the producer's write and before the
 *     consumer's reads (the peak of the step). Elements the consumer never
 *     reads occupy no buffer (the channel does not forward them).
 *   - The buffer size is computed by isl for the lifetimes (first write and
 *     release step of every element as isl maps), then by enumerating the
 *     points of those bounded relations (isl_union_set_foreach_point) and
 *     sweeping the timeline: isl alone cannot count (barvinok is not used).
 *
 * Every fallible function returns false (or NULL) and fills an nc_deps_error;
 * isl errors (the isl_ctx is switched to ISL_ON_ERROR_CONTINUE for the
 * duration of each call), unbounded domains and empty channels all end there;
 * nothing aborts. Ownership: NC_GIVE/NC_TAKE/NC_KEEP for nc objects,
 * __isl_give/__isl_take/__isl_keep for isl objects.
 */
#ifndef NC_DIALECTS_DATAFLOW_DEPS_H
#define NC_DIALECTS_DATAFLOW_DEPS_H

#include "nc/support/base.h"

#include <isl/ctx.h>
#include <isl/map.h>
#include <isl/set.h>
#include <isl/union_map.h>

/** Why the last nc_deps call failed; callers may pass NULL to ignore. */
typedef struct nc_deps_error {
  char message[512];
} nc_deps_error;

/** How much work one layer iteration does. */
typedef enum nc_deps_granularity {
  NC_DEPS_PER_PIXEL, /**< one iteration per output pixel, all channels: S[y, x] */
  NC_DEPS_PER_ROW,   /**< one iteration per output row, all channels: S[y] */
} nc_deps_granularity;

/** Shape of an activation tensor T[c, y, x]. */
typedef struct nc_deps_shape {
  int64_t channels, height, width;
} nc_deps_shape;

/** A 2-D sliding window (conv or pooling) in ONNX terms. Output size per
 * axis: floor((in + pad_begin + pad_end - dilation*(kernel-1) - 1) / stride) + 1. */
typedef struct nc_deps_window {
  int64_t kernel_h, kernel_w;
  int64_t stride_h, stride_w;
  int64_t pad_top, pad_left, pad_bottom, pad_right;
  int64_t dilation_h, dilation_w;
} nc_deps_window;

/** A square window: kernel k, stride s, the same pad p on all four sides,
 * dilation d. */
nc_deps_window nc_deps_window_square(int64_t k, int64_t s, int64_t p, int64_t d);

/** Output shape of a window of `w` over `in` producing `out_channels`
 * channels; false (with a message) if a parameter is out of range or the
 * output would be empty. */
bool nc_deps_window_output_shape(NC_KEEP const nc_deps_window *w, nc_deps_shape in,
                                 int64_t out_channels, nc_deps_shape *out,
                                 nc_deps_error *err);

/* ------------------------------------------------------------------------ */
/* Layers: an iteration domain and its access relations.                     */
/* ------------------------------------------------------------------------ */

/** One layer: a statement name, its domain (one isl space) and its read and
 * write relations from that domain to tensors. Its isl objects live in the
 * isl_ctx it was built in; free the layer before the context. */
typedef struct nc_deps_layer nc_deps_layer;

/** Builds a layer from isl text: a set `domain` ("{ S[y, x] : ... }") and
 * union maps `reads`/`writes` ("{ S[y, x] -> T[c, y, x] : ... }"; "{ }" for
 * none). The domain must be one bounded, non-empty set without parameters;
 * the accesses are restricted to it. */
bool nc_deps_layer_from_str(isl_ctx *ctx, NC_KEEP const char *domain,
                            NC_KEEP const char *reads, NC_KEEP const char *writes,
                            NC_GIVE nc_deps_layer **out, nc_deps_error *err);

/** The network input as a source: S[y, x] (or S[y]) writes `out`[c, y, x]
 * for every channel, in row-major order; it reads nothing. */
bool nc_deps_layer_input(isl_ctx *ctx, NC_KEEP const char *name, NC_KEEP const char *out,
                         nc_deps_shape shape, nc_deps_granularity g,
                         NC_GIVE nc_deps_layer **layer, nc_deps_error *err);

/** 2-D convolution from `in` (shape `in_shape`) to `out` with `out_channels`
 * channels: iteration S[oy, ox] (or S[oy]) reads every input channel at
 * rows oy*stride_h - pad_top + dilation_h*ky and the like for columns
 * (0 <= ky < kernel_h), clipped to the tensor, and writes all output
 * channels of its pixel (row). */
bool nc_deps_layer_conv2d(isl_ctx *ctx, NC_KEEP const char *name, NC_KEEP const char *in,
                          NC_KEEP const char *out, nc_deps_shape in_shape,
                          int64_t out_channels, NC_KEEP const nc_deps_window *w,
                          nc_deps_granularity g, NC_GIVE nc_deps_layer **layer,
                          nc_deps_error *err);

/** Max or average pooling: the same accesses as a depth-preserving conv
 * (each pixel iteration covers all channels, so channel c reading only input
 * channel c reads the same element set). Average pooling's count_include_pad
 * does not change the accesses: padding is never read. */
bool nc_deps_layer_pool2d(isl_ctx *ctx, NC_KEEP const char *name, NC_KEEP const char *in,
                          NC_KEEP const char *out, nc_deps_shape in_shape,
                          NC_KEEP const nc_deps_window *w, nc_deps_granularity g,
                          NC_GIVE nc_deps_layer **layer, nc_deps_error *err);

/** Elementwise binary op (residual add): S[y, x] reads `in_a`[c, y, x] and
 * `in_b`[c, y, x] for every channel and writes `out`[c, y, x]. */
bool nc_deps_layer_add(isl_ctx *ctx, NC_KEEP const char *name, NC_KEEP const char *in_a,
                       NC_KEEP const char *in_b, NC_KEEP const char *out,
                       nc_deps_shape shape, nc_deps_granularity g,
                       NC_GIVE nc_deps_layer **layer, nc_deps_error *err);

/** ONNX Flatten (axis 1) of `in` (shape) into the vector `out`[i],
 * i = c*H*W + y*W + x: S[y, x] (or S[y]) reads its pixel (row), all
 * channels, and writes the matching vector elements. */
bool nc_deps_layer_flatten(isl_ctx *ctx, NC_KEEP const char *name, NC_KEEP const char *in,
                           NC_KEEP const char *out, nc_deps_shape shape,
                           nc_deps_granularity g, NC_GIVE nc_deps_layer **layer,
                           nc_deps_error *err);

/** Gemm / fully connected: one iteration S[] reads the whole vector
 * `in`[i] (0 <= i < in_features) and writes `out`[o] (0 <= o < out_features). */
bool nc_deps_layer_gemm(isl_ctx *ctx, NC_KEEP const char *name, NC_KEEP const char *in,
                        NC_KEEP const char *out, int64_t in_features, int64_t out_features,
                        NC_GIVE nc_deps_layer **layer, nc_deps_error *err);

/** Global (max or average) pooling: one iteration S[] reads the whole of
 * `in`[c, y, x] and writes `out`[c, 0, 0]. */
bool nc_deps_layer_global_pool(isl_ctx *ctx, NC_KEEP const char *name, NC_KEEP const char *in,
                               NC_KEEP const char *out, nc_deps_shape shape,
                               NC_GIVE nc_deps_layer **layer, nc_deps_error *err);

/** Frees a layer; NULL is allowed. */
void nc_deps_layer_destroy(NC_TAKE nc_deps_layer *layer);

/** The layer's iteration domain. */
__isl_give isl_set *nc_deps_layer_get_domain(NC_KEEP const nc_deps_layer *layer);
/** The layer's reads, domain -> tensor elements. */
__isl_give isl_union_map *nc_deps_layer_get_reads(NC_KEEP const nc_deps_layer *layer);
/** The layer's writes, domain -> tensor elements. */
__isl_give isl_union_map *nc_deps_layer_get_writes(NC_KEEP const nc_deps_layer *layer);
/** The domain as isl text (free with free()); NULL on isl error. */
NC_GIVE char *nc_deps_layer_domain_to_str(NC_KEEP const nc_deps_layer *layer);
/** The reads as isl text (free with free()); NULL on isl error. */
NC_GIVE char *nc_deps_layer_reads_to_str(NC_KEEP const nc_deps_layer *layer);
/** The writes as isl text (free with free()); NULL on isl error. */
NC_GIVE char *nc_deps_layer_writes_to_str(NC_KEEP const nc_deps_layer *layer);

/* ------------------------------------------------------------------------ */
/* Channels: the analysis of one producer -> consumer edge.                  */
/* ------------------------------------------------------------------------ */

/** The result of analysing one channel; holds isl objects of the inputs'
 * isl_ctx (free it before the context). */
typedef struct nc_deps_channel nc_deps_channel;

/** Largest number of elements (and of producer iterations) the buffer sweep
 * enumerates before giving up with an error; coordinates beyond +-2^31 are
 * rejected too. */
#define NC_DEPS_MAX_ENUMERATED_POINTS ((int64_t)1 << 26)

/** Analyses the channel from the producer (domain `p_domain`, writes
 * `p_writes`) to the consumer (domain `c_domain`, reads `c_reads`). Access
 * relations are restricted to their domains; the channel carries the
 * elements the producer writes and the consumer reads. Fails if a domain is
 * empty or unbounded, the channel carries nothing, or isl fails. */
bool nc_deps_compute(__isl_keep isl_set *p_domain, __isl_keep isl_union_map *p_writes,
                     __isl_keep isl_set *c_domain, __isl_keep isl_union_map *c_reads,
                     NC_GIVE nc_deps_channel **out, nc_deps_error *err);

/** nc_deps_compute without the buffer sweep, the part that enumerates the
 * channel's elements: every relation is computed, but
 * nc_deps_channel_get_buffer_size returns -1 and get_buffer_peak NULL. For
 * callers that size buffers on a whole pipeline (nc_deps_pipeline_buffers). */
bool nc_deps_compute_relations(__isl_keep isl_set *p_domain, __isl_keep isl_union_map *p_writes,
                               __isl_keep isl_set *c_domain, __isl_keep isl_union_map *c_reads,
                               NC_GIVE nc_deps_channel **out, nc_deps_error *err);

/** nc_deps_compute on isl text (parsed in `ctx`). */
bool nc_deps_compute_str(isl_ctx *ctx, NC_KEEP const char *p_domain, NC_KEEP const char *p_writes,
                         NC_KEEP const char *c_domain, NC_KEEP const char *c_reads,
                         NC_GIVE nc_deps_channel **out, nc_deps_error *err);

/** nc_deps_compute on two layers (producer's writes, consumer's reads). */
bool nc_deps_compute_layers(NC_KEEP const nc_deps_layer *producer,
                            NC_KEEP const nc_deps_layer *consumer,
                            NC_GIVE nc_deps_channel **out, nc_deps_error *err);

/** Frees a channel; NULL is allowed. */
void nc_deps_channel_destroy(NC_TAKE nc_deps_channel *ch);

/** Dep = R_C . W_P^-1: { C[c] -> P[p] : c reads an element p writes }. */
__isl_give isl_map *nc_deps_channel_get_dependences(NC_KEEP const nc_deps_channel *ch);
/** lexmax(Dep): the last producer iteration each consumer iteration reads
 * from (defined on the consumer iterations that read the channel). */
__isl_give isl_map *nc_deps_channel_get_last(NC_KEEP const nc_deps_channel *ch);
/** Earliest: for each consumer iteration c, the lexmax of Last over the
 * iterations c' <= c; monotone and defined on every iteration except the
 * free ones. Consumer iteration c may run once producer iteration
 * Earliest(c) has completed. */
__isl_give isl_map *nc_deps_channel_get_earliest(NC_KEEP const nc_deps_channel *ch);
/** The free consumer iterations: those preceding (or equal to) no iteration
 * that reads the channel; they need no producer iteration. Often empty. */
__isl_give isl_set *nc_deps_channel_get_free(NC_KEEP const nc_deps_channel *ch);
/** Control: { P[p] -> C[c] } mapping each completed producer iteration to
 * the last consumer iteration allowed to run, lexmax({c : Earliest(c) <= p}
 * plus the free set); undefined where no consumer iteration may run yet. */
__isl_give isl_map *nc_deps_channel_get_control(NC_KEEP const nc_deps_channel *ch);
/** Control restricted to its triggers: the producer iterations after which
 * the bound advances (the first defined one and every change). Injective. */
__isl_give isl_map *nc_deps_channel_get_triggers(NC_KEEP const nc_deps_channel *ch);
/** First write of each channel element: { T[e] -> P[p] } (lexmin writer). */
__isl_give isl_union_map *nc_deps_channel_get_first_write(NC_KEEP const nc_deps_channel *ch);
/** Last reader of each channel element: { T[e] -> C[c] } (lexmax reader). */
__isl_give isl_union_map *nc_deps_channel_get_last_read(NC_KEEP const nc_deps_channel *ch);
/** Release step of each channel element: { T[e] -> P[p] }, the producer
 * iteration at whose step the element's last reader runs (Earliest of it). */
__isl_give isl_union_map *nc_deps_channel_get_release(NC_KEEP const nc_deps_channel *ch);
/** Minimum buffer of the channel, in elements: the maximum over the
 * timeline's steps of the number of live elements. */
int64_t nc_deps_channel_get_buffer_size(NC_KEEP const nc_deps_channel *ch);
/** The first producer iteration at whose step the buffer peaks (one point). */
__isl_give isl_set *nc_deps_channel_get_buffer_peak(NC_KEEP const nc_deps_channel *ch);

/** The control state machine as C-like text generated by isl's AST builder
 * (isl_ast_build_node_from_schedule_map): the producer's loops in order,
 * each iteration P(...) followed, at a trigger, by C_upto(...) naming the
 * last consumer iteration now allowed to run. `*c_text` is freed with free(). */
bool nc_deps_channel_control_to_C_str(NC_KEEP const nc_deps_channel *ch, NC_GIVE char **c_text,
                                      nc_deps_error *err);

/* ------------------------------------------------------------------------ */
/* Pipelines: several channels on one timeline (joins such as a residual    */
/* add, whose iterations wait for the later of two producers).              */
/* ------------------------------------------------------------------------ */

/** One channel of a pipeline: its analysis and the stages it connects. */
typedef struct nc_deps_pipeline_channel {
  const nc_deps_channel *channel; /**< computed by nc_deps_compute (P -> C) */
  size_t producer, consumer;      /**< stage indices, producer < consumer */
} nc_deps_pipeline_channel;

/** The buffers of a whole pipeline under its eager schedule.
 *
 * Stages 0..n_stages-1 (domains `domains`, in topological order) are joined
 * by `channels`; a stage that consumes no channel is an input source. One
 * global order of events (iterations): at each step t, each source runs its
 * iteration t (sources advance together, in index order), and after each
 * source iteration every other stage runs, deepest stage first, each
 * iteration as soon as, for every channel into it, the producer iteration
 * its Earliest names has run (stages run their iterations in order). For a
 * stage with one input channel this is exactly the single-channel timeline
 * of nc_deps_compute, so the buffers agree; a stage with several inputs
 * waits for the latest of them, which the other channels must buffer for.
 * buffers[j] receives channel j's peak number of live elements (an element
 * lives from its first write through its last reader's event). The
 * iteration and element counts are limited as for nc_deps_compute. */
bool nc_deps_pipeline_buffers(size_t n_stages, __isl_keep isl_set *const *domains, size_t n_channels,
                              NC_KEEP const nc_deps_pipeline_channel *channels, int64_t *buffers,
                              nc_deps_error *err);

/** nc_deps_pipeline_buffers in steps, for callers that run its isl work on
 * threads: set every stage (enumerates its iterations), then every channel
 * (reads its Earliest and enumerates its element lifetimes; needs its two
 * stages set), schedule (serial, plain arrays), then ask each channel's
 * buffer (places the lifetimes on the schedule: no isl). Calls for different stages, or for different channels, may
 * run at the same time as long as no two of them use one isl context; the
 * schedule runs alone. A failed stage or channel keeps its error, and the
 * schedule reports the first one in the order of stages, then channels, as
 * one nc_deps_pipeline_buffers call would: the results and messages are
 * that call's. */
typedef struct nc_deps_pipeline nc_deps_pipeline;

/** A pipeline of `n_stages` stages and `n_channels` channels, none set. */
NC_GIVE nc_deps_pipeline *nc_deps_pipeline_create(size_t n_stages, size_t n_channels);

/** Frees a pipeline; NULL is allowed. */
void nc_deps_pipeline_destroy(NC_TAKE nc_deps_pipeline *p);

/** Stage s's domain (any isl context; read during the call only): checks
 * and enumerates its iterations. */
bool nc_deps_pipeline_set_stage(nc_deps_pipeline *p, size_t s, __isl_keep isl_set *domain, nc_deps_error *err);

/** Channel j (its analysis is borrowed until the pipeline is destroyed):
 * reads its Earliest, which must match its stages' domains. */
bool nc_deps_pipeline_set_channel(nc_deps_pipeline *p, size_t j, NC_KEEP const nc_deps_pipeline_channel *channel,
                                  nc_deps_error *err);

/** nc_deps_pipeline_set_channel for a channel whose analysis is channel
 * `like`'s (the same nc_deps_channel) between stages with the same
 * iterations as `like`'s: takes its waits and lifetimes instead of
 * enumerating them again (the results and messages are the same). Channel
 * `like` must have been set by a call that happened before this one on the
 * same thread (or before a synchronisation); when it failed or its stages'
 * iterations differ, the channel is enumerated as nc_deps_pipeline_set_channel
 * does. */
bool nc_deps_pipeline_set_channel_as(nc_deps_pipeline *p, size_t j, NC_KEEP const nc_deps_pipeline_channel *channel,
                                     size_t like, nc_deps_error *err);

/** Runs the eager schedule once every stage and channel is set; fails
 * with the first failed stage's or channel's error. */
bool nc_deps_pipeline_schedule(nc_deps_pipeline *p, nc_deps_error *err);

/** Channel j's peak number of live elements under the schedule (after
 * nc_deps_pipeline_schedule) into *buffer. */
bool nc_deps_pipeline_channel_buffer(NC_KEEP const nc_deps_pipeline *p, size_t j, int64_t *buffer,
                                     nc_deps_error *err);

/** Whether every image of `map` is a box of one fixed size at an offset
 * affine in the domain point (isl's fixed-size box hull of the range,
 * checked to equal the map): 1 with *offset (domain -> the box's first
 * corner; the caller frees it), sizes[0 .. out dims) and *count (elements
 * per box); 0 if not; -1 on an isl error. Counting or laying out such a
 * relation visits its domain points only. */
int nc_deps_map_fixed_box(__isl_keep isl_map *map, __isl_give isl_multi_aff **offset, int64_t *sizes,
                          int64_t *count);

#endif
