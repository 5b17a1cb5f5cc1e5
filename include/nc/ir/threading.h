/* threading.h: the context's thread pool, and a parallel for over it.
 *
 * As MLIR's MLIRContext owns a thread pool (getThreadPool) that the pass
 * manager runs sibling ops on and that passes reach with
 * mlir::parallelFor(ctx, ...), an nc_context owns one pool of worker
 * threads, started on first use: the pass manager runs nested pipelines on
 * it (pass.h) and a pass, a printer or any code holding the context runs
 * independent work items on it with nc_parallel_for. Threading follows the
 * run's options while a pass manager runs (--mlir-disable-threading,
 * num_threads) and the context's settings below otherwise.
 *
 * Determinism: each item should write only its own slot of the caller's
 * data; the diagnostics an item emits are held back and delivered in item
 * order once all items are done, so output is the same with and without
 * threads. Calls nested inside an item, or inside a pipeline already running
 * in parallel, run their items on the calling thread (no deadlock, no
 * oversubscription).
 */
#ifndef NC_IR_THREADING_H
#define NC_IR_THREADING_H

#include "nc/ir/context.h"

/** Whether work of this context may run on several threads (default true):
 * MLIRContext::disableMultithreading's switch. When off, nested pipelines
 * and nc_parallel_for run on the calling thread. */
void nc_context_enable_multithreading(nc_context *ctx, bool enable);
/** See nc_context_enable_multithreading. */
bool nc_context_is_multithreading_enabled(NC_KEEP nc_context *ctx);
/** Sets how many threads (the caller counted) the context's parallel work
 * uses; 0 (the default): $NC_NUM_THREADS, else one per CPU; at most 256.
 * A pass manager run's own num_threads option wins while it runs. */
void nc_context_set_num_threads(nc_context *ctx, int n);
/** The number of threads nc_parallel_for would use when called now from
 * this thread: 1 with multithreading off (for the context, or for the pass
 * manager run this thread is in), inside an item or a parallel pipeline. */
size_t nc_context_get_num_threads(NC_KEEP nc_context *ctx);

/** A work item of nc_parallel_for: item `i` of the loop; false reports a
 * failure (after emitting a diagnostic, if it wants one shown). */
typedef bool (*nc_parallel_fn)(size_t i, void *userData);

/** Runs fn(i, userData) for every i in [0, n), on the context's thread pool
 * and the calling thread, in no particular order and returning when all are
 * done (mlir::failableParallelForEach over indices). Every item runs even
 * if another fails; returns false iff some item returned false. Items must
 * be independent: each writes its own results (e.g. slot i of an array);
 * shared IR may be read, and types and attributes created (uniquing is
 * thread-safe), but IR that another item reads must not change. The
 * diagnostics items emit are delivered in item order after the loop; text
 * an item writes with nc_pass_printf is not ordered (do not). isl contexts
 * are not thread-safe: an item that uses isl makes its own isl_ctx. Runs
 * serially when the context's threading is off or one thread is configured. */
bool nc_parallel_for(nc_context *ctx, size_t n, nc_parallel_fn fn, void *userData);

#endif
