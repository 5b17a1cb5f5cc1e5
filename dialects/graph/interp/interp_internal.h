/* interp_internal.h: what the files of the graph interpreter share.
 *
 * interp.c owns the run loop (value slots, liveness, batching, the
 * observer); interp_ops.c holds the dispatch table, generated from
 * graph_ops.def: one handler per graph op, each a `prepare` hook run once at nc_interp_create (attributes into
 * kernel parameters) and a `run` hook run per execution (shape function,
 * output allocation, kernel call). interp_cast.c has the conversions and the
 * fused activations, which are not kernels of their own.
 */
#ifndef NC_DIALECTS_GRAPH_INTERP_INTERNAL_H
#define NC_DIALECTS_GRAPH_INTERP_INTERNAL_H

#include "nc/dialects/graph/graph.h"
#include "nc/dialects/graph/interp.h"

#include "../graph_internal.h"

/** Longest kernel error message kept. */
#define IX_ERRLEN 512

typedef struct ix_inst ix_inst;

/** What a run hook gets: its operand tensors (NULL for absent optional
 * operands), whether each operand's buffer may be taken over (the operand
 * dies at this op and the interpreter owns it), and the result slots to fill
 * with new tensors. Errors go into err (one line, without the op name). */
typedef struct ix_args {
  nc_tensor *const *in;
  const bool *donated;
  nc_tensor **out;
  char *err;
  size_t errlen;
} ix_args;

/** One op kind the interpreter can run. */
typedef struct ix_handler {
  const char *name; /* full op name, "graph.conv" */
  /* Reads the op's attributes into inst->p (may be NULL: nothing to read);
   * false after writing a message into err. */
  bool (*prepare)(ix_inst *inst, char *err, size_t errlen);
  /* Computes the results. */
  bool (*run)(const ix_inst *inst, ix_args *a);
  /* The op's `activation` attribute is part of what run computes (not the
   * generic fused activation applied afterwards). */
  bool own_activation;
} ix_handler;

/** Kernel parameters of one op, read once at creation. */
typedef union ix_params {
  nc_conv_params conv;
  nc_conv_transpose_params conv_t;
  nc_pool_params pool;
  nc_gemm_params gemm;
  nc_slice_params slice;
  nc_softmax_params softmax;
  nc_lrn_params lrn;
  nc_quant_params quant;
  struct { nc_reduce_op kind; nc_reduce_params p; } reduce;
  struct { nc_unary_op kind; nc_unary_params p; } unary;
  nc_binary_op binary;
  nc_variadic_op variadic;
  double epsilon;
  int64_t axis;                                             /* concat, flatten */
  struct { const int64_t *v; size_t n; } ints;              /* squeeze/unsqueeze axes, transpose perm */
  struct { const int64_t *shape; size_t n; bool allowzero; } reshape;
  struct { const int64_t *sizes; size_t n; int64_t axis; } split; /* sizes NULL: equal parts */
  nc_pad_params pad;                                        /* the fill value is owned[0] */
  struct { int64_t axis; int64_t zero_point; bool relu; int64_t lo, hi; } requant; /* multipliers owned[0], shifts owned[1]; lo, hi: clamp_min/max */
  nc_eltwise_integer_params eltwise_integer;
  struct { int64_t axis; int32_t zero_point; } concat_integer; /* multipliers owned[0], shifts owned[1] */
  struct { int32_t multiplier, shift, zero_point; bool relu; } mul_integer;
  struct { const int64_t *table; size_t n; } lut;           /* the table points into the attribute */
  struct { const char *coord, *nearest; bool linear; } resize; /* strings of the attributes; mode linear */
} ix_params;

/** One op, ready to run. */
struct ix_inst {
  nc_op *op;
  const ix_handler *h;
  size_t n_in, n_out;
  int *in;             /* value slots of the operands */
  int *out;            /* value slots of the results */
  nc_dtype *out_dt;    /* declared element types of the results */
  nc_type **out_type;  /* declared result types */
  nc_dtype in0_dt;     /* declared element type of operand 0 (if any) */
  ix_params p;
  nc_tensor *owned[2]; /* one-element tensors prepare made: pad's value, clip's bounds (NULL: none) */
  nc_graph_activation act;
  bool has_act;
};

/** The dispatch table, indexed by graph_kind, and a lookup by name (NULL if
 * the interpreter cannot run the op). */
extern const ix_handler ix_handlers[G_COUNT];
const ix_handler *ix_find_handler(const char *name);

/** Sets up inst for op (handler, declared types, attributes, activation):
 * everything but the value slots. False with a message in err. */
bool ix_inst_init(ix_inst *inst, nc_op *op, char *err, size_t errlen);
/** Frees what ix_inst_init allocated. */
void ix_inst_fini(ix_inst *inst);
/** Runs an initialised instruction and applies its fused activation; on
 * failure frees any results already made. */
bool ix_inst_exec(const ix_inst *inst, ix_args *a);

/** A new zero-filled tensor, or NULL with an "out of memory" message. */
nc_tensor *ix_alloc(nc_dtype dt, int rank, const int64_t *shape, ix_args *a);
/** Writes a message into a->err; returns false. */
bool ix_fail(ix_args *a, const char *fmt, ...) NC_PRINTF(2, 3);

/** The value of a graph.constant as a tensor: *view tells whether its data
 * points into the attribute (free only the struct then) or is owned. NULL
 * with a message if the attribute has no data or an unsupported type. */
nc_tensor *ix_constant_tensor(nc_op *op, bool *view, char *err, size_t errlen);

/** Cast: converts x into y (same shape) with ONNX Cast semantics. */
void ix_cast(const nc_tensor *x, nc_tensor *y);
/** A one-element tensor of dtype dt holding v (or the integer iv for
 * integer dtypes when is_int). */
nc_tensor *ix_scalar(nc_dtype dt, double v, int64_t iv, bool is_int);
/** A one-element tensor of integer dtype dt holding v rounded inward (ceil
 * for a lower bound, floor for an upper one) and saturated to dt's range. */
nc_tensor *ix_int_bound(nc_dtype dt, double v, bool upper);
/** Applies a fused activation to y in place. */
void ix_apply_activation(const nc_graph_activation *act, nc_tensor *y);
/** True if the activation can be applied to results of dtype dt. */
bool ix_activation_supported(const nc_graph_activation *act, nc_dtype dt);

#endif
