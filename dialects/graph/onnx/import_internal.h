/* import_internal.h: what the files of the ONNX importer share.
 *
 * import.c drives the import: it walks the graph in topological order with
 * a map from ONNX tensor names to imp_value records and calls one handler
 * per node (import_ops.c for the ops of the graph dialect, import_fold.c for
 * the shape ops that only exist at import time). A value is either
 * materialized (an nc_value), known at import time (a host tensor, turned
 * into a graph.constant only when an op needs it as an operand), or, for
 * small integer vectors, partially known (elements copied from dynamic dims).
 */
#ifndef NC_DIALECTS_GRAPH_ONNX_IMPORT_INTERNAL_H
#define NC_DIALECTS_GRAPH_ONNX_IMPORT_INTERNAL_H

#include "nc/dialects/graph/kernels.h"
#include "nc/dialects/graph/onnx.h"
#include "nc/ir/diag.h"
#include "nc/support/arena.h"
#include "onnx_proto_internal.h"

/** Largest number of attributes of one graph op built by a handler. */
#define IMP_MAX_ATTRS 16
/** Longest partially known vector (shape vectors are short; the cap keeps
 * chains of Concat from growing them without bound, outside the budget). */
#define IMP_MAX_PARTIAL 4096

/* A tensor type during import: rank -1 means unranked, a dim of -1 dynamic.
 * Each dynamic dim carries a symbol (sym > 0; 0 for static dims): dims with
 * the same symbol are equal at run time (graph inputs' dims of one dim_param
 * name, and dims shape inference carries through unchanged), which lets a
 * Reshape recognise that a target element copies one of its input's dims. */
typedef struct imp_type {
  nc_dtype dt;
  int rank;
  int64_t dims[NC_TENSOR_MAX_RANK];
  int32_t sym[NC_TENSOR_MAX_RANK];
} imp_type;

typedef struct imp_value imp_value;

/* A partially known rank-0 or rank-1 integer value (what Shape of a tensor
 * with dynamic dims gives): element i is vals[i] if sym[i] is 0, otherwise
 * the run-time size of the dynamic dims of symbol sym[i]. */
typedef struct imp_partial {
  nc_dtype dt; /* i64, or i32 after a Cast */
  int rank;    /* 0 or 1 */
  int64_t n;
  int64_t *vals;
  int32_t *sym;
} imp_partial;

struct imp_value {
  const char *name;               /* the ONNX tensor name */
  imp_type type;
  nc_value *value;                /* the IR value, once materialized */
  nc_tensor *known;               /* owned; the value if known at import time */
  const Onnx__TensorProto *init;  /* an initializer not converted yet */
  imp_partial *partial;           /* owned; set when partially known */
  nc_tensor *splat;               /* owned; one element filling `type` (a large ConstantOfShape) */
};

typedef struct importer {
  nc_context *ctx;
  const nc_onnx_model *model;
  const Onnx__GraphProto *g;
  const char *label;      /* the model's name in messages */
  nc_attr *file_loc;      /* loc("<label>":0:0) */
  int64_t opset;          /* default-domain opset */
  nc_block *body;
  nc_arena *arena;        /* scratch memory of the whole import */
  imp_value **slots;      /* open-addressing map name -> value */
  size_t cap, count;
  const Onnx__ValueInfoProto **vi_slots; /* map name -> declared type (value_info, outputs) */
  size_t vi_cap;
  size_t budget;          /* bytes that values computed at import time may still take */
  bool failed;            /* an error was emitted */
  int32_t next_sym;       /* the last symbol of dynamic dims handed out */
} importer;

typedef struct imp_op imp_op;

/* The node being imported. */
typedef struct node_ctx {
  importer *im;
  const Onnx__NodeProto *n;
  size_t index;
  const char *op_type;
  const imp_op *op;  /* its entry in the handler table */
  bool *used;        /* which attributes the handler consulted */
  imp_value **in;    /* n->n_input entries; NULL for absent optional inputs */
  size_t n_in;
  nc_attr *loc;      /* loc("<node name>"), or unknown */
  imp_value **capture; /* when set, imp_emit's result 0 goes here instead of defining the node's output 0 (a
                          QOperator op's float op between its dequantize and quantize, import_qoperator.c) */
} node_ctx;

/* Attributes of the graph op a handler builds. */
typedef struct imp_attrs {
  size_t n;
  nc_named_attr a[IMP_MAX_ATTRS];
} imp_attrs;

/* One entry of the handler table (import_ops.c; graph_ops.def's ONNX
 * column): ONNX op type, handler, the graph op it makes and the kernel op
 * code of that graph op (NULL and 0 for the ONNX operators nc evaluates or
 * rewrites without an op of their own), and the first opset with the op. */
typedef bool (*imp_handler)(node_ctx *nc);
struct imp_op {
  const char *op_type;
  imp_handler fn;
  const char *graph;
  int kernel_op;
  int since;
};

/* --- import.c: diagnostics ---------------------------------------------- */

/** Emits "node 'N' (Type, opset K): <message>" at the node; returns false. */
bool imp_error(node_ctx *nc, const char *fmt, ...) NC_PRINTF(2, 3);
/** Emits "node 'N' (Type, opset K): <what> is not supported"; returns false. */
bool imp_unsupported(node_ctx *nc, const char *what_fmt, ...) NC_PRINTF(2, 3);
/** Emits "node 'N': op type 'T' (opset K) is not supported<: detail>";
 * `fmt` may be NULL. Returns false. */
bool imp_unsupported_op(node_ctx *nc, const char *fmt, ...) NC_PRINTF(2, 3);

/* --- import_types.c: attributes ------------------------------------------ */

/** The attribute `name` (marked as consulted), or NULL. */
const Onnx__AttributeProto *imp_attr(node_ctx *nc, const char *name);
/** Marks an attribute as understood without reading it. */
void imp_attr_ignore(node_ctx *nc, const char *name);
/** Reads an INT attribute (def if absent); false + error if of another type. */
bool imp_attr_int(node_ctx *nc, const char *name, int64_t def, int64_t *out);
/** Reads a FLOAT attribute. */
bool imp_attr_float(node_ctx *nc, const char *name, double def, double *out);
/** Reads a STRING attribute into the arena (def if absent). */
bool imp_attr_string(node_ctx *nc, const char *name, const char *def, const char **out);
/** Reads an INTS attribute: *vals points into the model; *present tells. */
bool imp_attr_ints(node_ctx *nc, const char *name, const int64_t **vals, size_t *n, bool *present);
/** Reads a FLOATS attribute. */
bool imp_attr_floats(node_ctx *nc, const char *name, const float **vals, size_t *n, bool *present);

/* --- import.c: values ----------------------------------------------------- */

/** Input i, or NULL if absent (past the end or named ""). */
imp_value *imp_input(node_ctx *nc, size_t i);
/** Input i, or NULL after an error saying it is missing. */
imp_value *imp_input_required(node_ctx *nc, size_t i, const char *what);
/** The known value of v (converting an initializer on first use), or NULL. */
nc_tensor *imp_known(importer *im, imp_value *v);
/** True if every present input of the node is known. */
bool imp_all_known(node_ctx *nc);
/** Reads known input i (an integer tensor of rank <= 1) as int64 values in
 * the arena; false + error naming `what` if it is not known or not integer. */
bool imp_const_ints(node_ctx *nc, size_t i, const char *what, int64_t **vals, int64_t *n);
/** Reads known one-element input i as a double; false + error otherwise. */
bool imp_const_scalar(node_ctx *nc, size_t i, const char *what, double *out);
/** Number of outputs the node defines (non-empty names). */
size_t imp_num_outputs(node_ctx *nc);
/** True if output i exists and is used by a later node or a graph output. */
bool imp_output_used(node_ctx *nc, size_t i);

/** A zero-filled tensor for a value computed at import time, charged to the
 * budget; NULL (no diagnostic) if it would exceed it. */
nc_tensor *imp_fold_alloc(node_ctx *nc, nc_dtype dt, int rank, const int64_t *shape);
/** Defines output i as the known tensor t (taking it). */
bool imp_set_known(node_ctx *nc, size_t i, NC_TAKE nc_tensor *t);
/** Output i is `element` (one element) repeated over `shape`: materialized as
 * a splat dense attribute, never expanded (ConstantOfShape). */
bool imp_set_splat(node_ctx *nc, size_t i, NC_TAKE nc_tensor *element, int rank, const int64_t *shape);
/** Defines output i as a partially known int64 vector (taking it). */
bool imp_set_partial(node_ctx *nc, size_t i, NC_TAKE imp_partial *p);
/** Defines output i as another name for v (Identity, Dropout). */
bool imp_set_alias(node_ctx *nc, size_t i, imp_value *v);
/** A new unnamed-in-the-graph known value (for operands nc adds, such as a
 * zero point); `name` names its graph.constant. Takes t. */
imp_value *imp_new_known(node_ctx *nc, NC_TAKE nc_tensor *t, const char *name);
/** The dense form of a (validated) sparse tensor, charged to the budget;
 * NULL + message if it is too large or its values cannot be converted. */
nc_tensor *imp_densify(importer *im, const Onnx__SparseTensorProto *s, char *err, size_t errlen);
/** A partial vector of n elements in the arena. */
imp_partial *imp_partial_new(importer *im, int rank, int64_t n);
/** The partially known form of v (NULL if neither known nor partial);
 * known int vectors are converted on the fly. */
imp_partial *imp_partial_of(importer *im, imp_value *v);

/** The IR value of v, materializing a known value as a graph.constant. */
nc_value *imp_materialize(importer *im, imp_value *v);
/** Creates the graph op `name` with these operands (NULL entries are
 * skipped), attributes and result types, appends it and binds the node's
 * outputs 0..n_results-1 to its results. Returns the op or NULL. */
nc_op *imp_emit(node_ctx *nc, const char *name, size_t n_operands, imp_value *const *operands,
                const imp_attrs *attrs, size_t n_results, const imp_type *result_types);
/** Creates a graph op for an intermediate value (no ONNX output), e.g. the
 * reshape of a legacy broadcast, located at `loc("<node name>/<role>")`;
 * returns a new unnamed value. */
imp_value *imp_emit_temp(node_ctx *nc, const char *role, const char *name, size_t n_operands,
                         imp_value *const *operands, const imp_attrs *attrs, const imp_type *result_type);

/* --- import_types.c: attribute building ---------------------------------- */

void imp_add_i64(node_ctx *nc, imp_attrs *a, const char *name, int64_t v);
void imp_add_i64s(node_ctx *nc, imp_attrs *a, const char *name, size_t n, const int64_t *v);
void imp_add_f32(node_ctx *nc, imp_attrs *a, const char *name, double v);
void imp_add_str(node_ctx *nc, imp_attrs *a, const char *name, const char *v);

/* --- import_types.c: types and shapes ------------------------------------ */

/** Shape function run by imp_infer: computes out->rank and out->dims from
 * the inputs' dims (all static), or returns false + message. */
typedef bool (*imp_shape_fn)(const void *ud, int n, const imp_type *const *in, imp_type *out, char *err,
                             size_t errlen);
/** Runs `fn` on the input types; dynamic dims are handled by running it with
 * two substitutes and marking the dims that differ dynamic. Unranked inputs
 * give an unranked result. out->dt is left as the caller set it. False + an
 * error naming the node if the shapes are invalid. */
bool imp_infer(node_ctx *nc, imp_shape_fn fn, const void *ud, int n, const imp_type *const *in, imp_type *out);
/** A new symbol for a dynamic dim unrelated to any other. */
int32_t imp_fresh_sym(importer *im);
/** Numpy broadcast of two types (dynamic-aware). */
bool imp_broadcast(node_ctx *nc, const imp_type *a, const imp_type *b, imp_type *out);
/** Normalizes an axis in [-rank, rank) (or [-rank, rank] with `inclusive`). */
bool imp_axis(node_ctx *nc, const char *what, int64_t axis, int rank, bool inclusive, int64_t *out);
/** The type of a host tensor. */
imp_type imp_type_of_tensor(const nc_tensor *t);
/** True if every dim is known. */
bool imp_type_is_static(const imp_type *t);
/** Writes "[1,?,8]" (or "[*]") into buf. */
const char *imp_type_str(const imp_type *t, char *buf, size_t len);
/** The nc element type of a dtype. */
nc_type *imp_elt_type(nc_context *ctx, nc_dtype dt);
/** The nc tensor type of t. */
nc_type *imp_nc_type(nc_context *ctx, const imp_type *t);
/** The type a value info declares (*onnx_elt gets its ONNX element type);
 * false if it declares none nc can hold. */
bool imp_type_from_value_info(const Onnx__ValueInfoProto *vi, imp_type *out, int32_t *onnx_elt);

/* --- import_ops.c / import_fold.c ------------------------------------------------- */

/** The handler of an op type of the default domain, or NULL. */
const imp_op *imp_find_handler(const char *op_type);
/** The handler of op_type in a domain other than ONNX's ("com.microsoft"), or NULL. */
const imp_op *imp_find_domain_handler(const char *domain, const char *op_type);

/* Fold-only shape ops (import_fold.c), listed in import_ops.c's table. */
bool imp_fold_shape(node_ctx *nc);
bool imp_fold_size(node_ctx *nc);
bool imp_fold_gather(node_ctx *nc);
bool imp_fold_constant_of_shape(node_ctx *nc);
bool imp_fold_range(node_ctx *nc);
bool imp_fold_expand(node_ctx *nc);
bool imp_fold_tile(node_ctx *nc);
bool imp_fold_compare(node_ctx *nc);
bool imp_fold_logic(node_ctx *nc);
bool imp_fold_not(node_ctx *nc);
bool imp_fold_where(node_ctx *nc);
bool imp_fold_rounding(node_ctx *nc);
bool imp_fold_reduce_prod(node_ctx *nc);
bool imp_fold_mod(node_ctx *nc);

/** Converts t to dtype `to` as ONNX Cast does (floats to integers truncate,
 * anything nonzero to bool is true); NULL if over the budget. */
nc_tensor *imp_cast_tensor(node_ctx *nc, const nc_tensor *t, nc_dtype to);
/** Partial-vector forms of data movement, shared with import_ops.c: they set
 * output 0 and return true if they handled the node (a partially known
 * input), or leave *handled false. */
bool imp_partial_concat(node_ctx *nc, int64_t axis, bool *handled);
bool imp_partial_unsqueeze(node_ctx *nc, const int64_t *axes, int64_t naxes, bool *handled);
bool imp_partial_squeeze(node_ctx *nc, const int64_t *axes, int64_t naxes, bool *handled);
bool imp_partial_slice(node_ctx *nc, const nc_slice_params *p, bool *handled);
bool imp_partial_cast(node_ctx *nc, nc_dtype to, bool *handled);

#endif
