/* interp.h: the reference interpreter of the graph dialect.
 *
 * The interpreter executes a func.func whose body is graph ops and a
 * func.return, with the kernels of kernels.h: float32 (and f64/f16/bf16)
 * math, and exact integer semantics for the integer and quantized ops
 * (round half to even, saturation, int32 accumulation as ONNX defines
 * them). It is the oracle every lowering and every target simulator is
 * checked against, bit for bit on integer graphs.
 *
 * nc_interp_create compiles the function once into a list of instructions:
 * each op is dispatched by name through the interpreter's own table
 * (dialects/graph/interp/interp_ops.c), its attributes are read into the
 * kernels' parameter structs (nc_graph_get_*_params, ONNX defaults applied)
 * and graph.constant values are wrapped as tensors (dense and dense_resource
 * data are used in place, without a copy, when aligned). nc_interp_run then
 * only moves tensors: shapes are computed at run time by the kernels' shape
 * functions (so dynamic dims work) and checked against the declared result
 * types; intermediate tensors are freed after their last use, and ops that
 * only reshape take over their operand's buffer when it dies there.
 * Fused `activation` attributes (relu, leaky_relu, clip, sigmoid, tanh) are
 * applied to the op's result.
 *
 * Errors are diagnostics emitted through the function's context at the
 * offending op (or argument), so they carry the op's location; the
 * functions then return NULL or false.
 *
 * The interpreter keeps pointers into the IR (ops, attributes, resource
 * blobs): the function must stay alive and unchanged while the interpreter
 * exists. An interpreter runs one call at a time (it is not thread-safe);
 * several interpreters over one function may run in parallel.
 */
#ifndef NC_DIALECTS_GRAPH_INTERP_H
#define NC_DIALECTS_GRAPH_INTERP_H

#include "nc/ir/ops.h"
#include "nc/support/tensor.h"

/** An interpreter for one graph-dialect function. */
typedef struct nc_interp nc_interp;

/** Called after every op of a run, in program order (graph.constant ops
 * included), with the op and its result tensors (NC_KEEP: valid only during
 * the call; copy what you keep). A batched run (see nc_interp_run) calls it
 * once per op per inference. Used by calibration to record value ranges. */
typedef void (*nc_interp_observer)(NC_KEEP nc_op *op, size_t n_results, NC_KEEP const nc_tensor *const *results,
                                   void *user);

/** Compiles `func` (a verified func.func of graph ops ending in func.return)
 * for execution. Returns NULL after emitting an error at the first op the
 * interpreter cannot run (an op it does not know, a fused activation it
 * cannot apply, a constant without data, a non-tensor type). */
NC_GIVE nc_interp *nc_interp_create(NC_KEEP nc_op *func);

/** Frees the interpreter (not the function); NULL is allowed. */
void nc_interp_destroy(NC_TAKE nc_interp *it);

/** Installs (or with fn == NULL removes) the observer. */
void nc_interp_set_observer(nc_interp *it, nc_interp_observer fn, void *user);

/** The function the interpreter runs. */
NC_KEEP nc_op *nc_interp_get_func(NC_KEEP const nc_interp *it);

/** Number of inputs (function arguments) and outputs (returned values). */
size_t nc_interp_get_num_inputs(NC_KEEP const nc_interp *it);
size_t nc_interp_get_num_outputs(NC_KEEP const nc_interp *it);

/** The declared type of input / output i (a ranked tensor type). */
NC_KEEP nc_type *nc_interp_get_input_type(NC_KEEP const nc_interp *it, size_t i);
NC_KEEP nc_type *nc_interp_get_output_type(NC_KEEP const nc_interp *it, size_t i);

/** Runs the function on `inputs` (n_inputs of them, in argument order;
 * each must have the argument's dtype and rank, and its dims where they
 * are static). On success stores the number of outputs in *n_outputs and a
 * malloc'ed array of new tensors, one per returned value, in *outputs (free
 * them with nc_interp_outputs_destroy).
 *
 * Batching: if every input of rank >= 1 has a leading dim that is N times
 * the argument's static leading dim (the same N >= 2 for all of them, the
 * other dims matching), the function runs N times, on consecutive slices
 * of the inputs along dim 0, and each output is the concatenation of the N
 * results along dim 0 (every output must then have rank >= 1 and the same
 * shape in each inference). Inputs of rank 0 are shared by every inference.
 *
 * Returns false after emitting an error (at the argument for a bad input,
 * at the op for a failing kernel); *outputs is then NULL. */
bool nc_interp_run(nc_interp *it, size_t n_inputs, NC_KEEP const nc_tensor *const *inputs, size_t *n_outputs,
                   NC_GIVE nc_tensor ***outputs);

/** Frees the n tensors of an output array and the array; NULL is allowed. */
void nc_interp_outputs_destroy(size_t n, NC_TAKE nc_tensor **outputs);

/** Evaluates one graph op (attached or not) on operand tensors, as the
 * interpreter would inside a function: operands[i] for operand i (the op's
 * operand count), results[j] receives a new tensor for each result (free
 * with nc_tensor_destroy). For constant folding and tests. Returns false
 * after emitting an error at the op; results are then all NULL. */
bool nc_interp_eval_op(NC_KEEP nc_op *op, NC_KEEP const nc_tensor *const *operands, NC_GIVE nc_tensor **results);

/** True if the interpreter has a handler for the op named `op_name`
 * ("graph.conv"). */
bool nc_interp_supports_op(NC_KEEP const char *op_name);

/** The host dtype holding elements of IR element type `elt` (f32, f64, f16,
 * bf16, i1 as bool, signless i2/i4/i8/i16/i32/i64, ui2..ui64); false for
 * other types. */
bool nc_interp_dtype_from_type(NC_KEEP const nc_type *elt, nc_dtype *dt);

/** The IR element type of a host dtype (bool is i1, signed types are
 * signless, unsigned ones ui*). */
NC_KEEP nc_type *nc_interp_type_from_dtype(nc_context *ctx, nc_dtype dt);

/** True if tensor `t` may be passed for a value of `type`: same element
 * type and rank, equal dims where the type's are static. */
bool nc_interp_tensor_matches_type(NC_KEEP const nc_tensor *t, NC_KEEP const nc_type *type);

/** Writes the type of a tensor as `tensor<2x3xf32>` into buf (for messages)
 * and returns buf. */
NC_KEEP const char *nc_interp_tensor_type_str(NC_KEEP const nc_tensor *t, char *buf, size_t len);

#endif
