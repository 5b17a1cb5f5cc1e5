/* dialect.c: the op table of the `xbar` dialect (xbar_ir.h) and its
 * verifiers: mapping ops must tile their node's matrix exactly onto the
 * chip's crossbars, on cores of the mesh that no other op of the function
 * uses; control ops must hold a well-formed control program for an operand
 * of their node. `nc-opt --dump-dialect-docs=xbar` prints the reference.
 */
#include <stdlib.h>
#include <string.h>

#include "nc/dialects/dataflow/dataflow.h"
#include "nc/ir/diag.h"
#include "nc/ir/types.h"
#include "runtime/xbar_control.h"
#include "xbar_ir.h"

/* --- helpers --------------------------------------------------------------------------------------------- */

int64_t xbar_int_attr(const nc_op *op, const char *name)
{
  nc_attr *a = nc_op_get_attr_str(op, name);
  return a && nc_attr_get_kind(a) == NC_ATTR_INTEGER ? nc_attr_get_int(a) : 0;
}

const char *xbar_str_attr(const nc_op *op, const char *name)
{
  nc_attr *a = nc_op_get_attr_str(op, name);
  return a && nc_attr_get_kind(a) == NC_ATTR_STRING ? nc_attr_get_string(a, NULL) : "";
}

const int64_t *xbar_array_attr(const nc_op *op, const char *name, size_t *n)
{
  nc_attr *a = nc_op_get_attr_str(op, name);
  *n = 0;
  if (!a || nc_attr_get_kind(a) != NC_ATTR_DENSE_ARRAY || !nc_type_is_integer_of_width(nc_attr_get_type(a), 64))
    return NULL;
  *n = nc_attr_get_num_elements(a);
  static const int64_t none[1] = {0};
  return *n ? nc_attr_dense_array_get_data(a) : none;
}

void xbar_set_int(nc_op *op, const char *name, int64_t v)
{
  nc_context *ctx = nc_op_get_context(op);
  nc_op_set_attr_str(op, name, nc_attr_integer(ctx, nc_type_integer(ctx, 64, NC_SIGNLESS), v));
}

void xbar_set_str(nc_op *op, const char *name, const char *v)
{
  nc_op_set_attr_str(op, name, nc_attr_string(nc_op_get_context(op), v, strlen(v)));
}

void xbar_set_array(nc_op *op, const char *name, size_t n, const int64_t *v)
{
  nc_op_set_attr_str(op, name, nc_attr_dense_i64_array(nc_op_get_context(op), n, v));
}

nc_op *xbar_create_before(nc_op *anchor, const char *name)
{
  nc_op *op = nc_op_create(&(nc_op_state){.ctx = nc_op_get_context(anchor), .name = name,
                                          .loc = nc_op_get_loc(anchor)});
  if (op)
    nc_op_insert_before(op, anchor);
  return op;
}

bool xbar_module_desc(nc_op *op, xbar_desc *d)
{
  nc_op *m = nc_op_get_parent_of_name(op, "builtin.module");
  return m && xbar_desc_from_attr(nc_op_get_attr_str(m, "nc.chip"), d);
}

nc_op *xbar_find_node(nc_op *op, const char *name)
{
  nc_block *b = nc_op_get_block(op);
  for (nc_op *x = b ? nc_block_get_first_op(b) : NULL; x; x = nc_op_get_next(x))
    if (nc_dataflow_is_node(x) && !strcmp(nc_dataflow_node_get_name(x), name))
      return x;
  return NULL;
}

nc_op *xbar_find_mapping(nc_op *anchor, const char *node)
{
  nc_block *b = nc_op_get_block(anchor);
  for (nc_op *x = b ? nc_block_get_first_op(b) : NULL; x; x = nc_op_get_next(x))
    if ((nc_op_is(x, "xbar.mvm") || nc_op_is(x, "xbar.digital")) && !strcmp(xbar_str_attr(x, "node"), node))
      return x;
  return NULL;
}

nc_op *xbar_find_control(nc_op *anchor, const char *node, int64_t operand)
{
  nc_block *b = nc_op_get_block(anchor);
  for (nc_op *x = b ? nc_block_get_first_op(b) : NULL; x; x = nc_op_get_next(x))
    if (nc_op_is(x, "xbar.control") && !strcmp(xbar_str_attr(x, "node"), node) &&
        xbar_int_attr(x, "operand") == operand)
      return x;
  return NULL;
}

/* --- verifiers ------------------------------------------------------------------------------------------- */

static nc_op *node_of(nc_op *op)
{
  const char *name = xbar_str_attr(op, "node");
  nc_op *node = xbar_find_node(op, name);
  if (!node)
    nc_op_emit_error(op, "node '%s' is not a dataflow.node of this block", name);
  return node;
}

/* The cores of a mapping op (an array for xbar.mvm, one for xbar.digital). */
static const int64_t *cores_of(nc_op *op, size_t *n, int64_t *one)
{
  if (nc_op_is(op, "xbar.digital")) {
    *one = xbar_int_attr(op, "core");
    *n = 1;
    return one;
  }
  return xbar_array_attr(op, "cores", n);
}

/* Cores inside the mesh, distinct, and not used by an earlier mapping op of the block. */
static bool check_cores(nc_op *op, const int64_t *cores, size_t n)
{
  xbar_desc d;
  bool have = xbar_module_desc(op, &d);
  int64_t total = have ? d.mesh_rows * d.mesh_cols : INT64_MAX;
  for (size_t i = 0; i < n; i++) {
    if (cores[i] < 0 || cores[i] >= total)
      return nc_op_emit_error(op, "core %lld is outside the %lld x %lld mesh (cores 0 .. %lld)", (long long)cores[i],
                              (long long)d.mesh_rows, (long long)d.mesh_cols, (long long)(total - 1));
    for (size_t j = 0; j < i; j++)
      if (cores[j] == cores[i])
        return nc_op_emit_error(op, "core %lld is used twice", (long long)cores[i]);
  }
  for (nc_op *x = nc_op_get_prev(op); x; x = nc_op_get_prev(x)) {
    if (!nc_op_is(x, "xbar.mvm") && !nc_op_is(x, "xbar.digital"))
      continue;
    size_t m;
    int64_t one;
    const int64_t *other = cores_of(x, &m, &one);
    for (size_t i = 0; i < n; i++)
      for (size_t j = 0; other && j < m; j++)
        if (other[j] == cores[i]) {
          nc_diag *dg = nc_op_diag_error(op, "core %lld is already used by node '%s'", (long long)cores[i],
                                         xbar_str_attr(x, "node"));
          nc_diag_attach_note(dg, nc_op_get_loc(x), "see here");
          nc_diag_emit(dg);
          return false;
        }
  }
  return true;
}

static bool verify_mvm(nc_op *op)
{
  if (!node_of(op))
    return false;
  const char *names[] = {"rows", "cols", "row_tiles", "col_tiles", "replicas"};
  for (int i = 0; i < 5; i++)
    if (xbar_int_attr(op, names[i]) < 1)
      return nc_op_emit_error(op, "%s must be positive, not %lld", names[i], (long long)xbar_int_attr(op, names[i]));
  int64_t rows = xbar_int_attr(op, "rows"), cols = xbar_int_attr(op, "cols");
  int64_t rt = xbar_int_attr(op, "row_tiles"), ct = xbar_int_attr(op, "col_tiles"), rep = xbar_int_attr(op, "replicas");
  xbar_desc d;
  if (xbar_module_desc(op, &d)) {
    int64_t want_rt = (rows + d.xbar_rows - 1) / d.xbar_rows, want_ct = (cols + d.xbar_cols - 1) / d.xbar_cols;
    if (rt != want_rt || ct != want_ct)
      return nc_op_emit_error(op,
                              "a %lld x %lld matrix takes %lld x %lld crossbars of %lld x %lld cells, not %lld x %lld",
                              (long long)rows, (long long)cols, (long long)want_rt, (long long)want_ct,
                              (long long)d.xbar_rows, (long long)d.xbar_cols, (long long)rt, (long long)ct);
  }
  size_t n;
  const int64_t *cores = xbar_array_attr(op, "cores", &n);
  if ((int64_t)n != rt * ct * rep)
    return nc_op_emit_error(op, "cores has %zu entries; replicas x row_tiles x col_tiles is %lld", n,
                            (long long)(rt * ct * rep));
  return check_cores(op, cores, n);
}

static bool verify_digital(nc_op *op)
{
  if (!node_of(op))
    return false;
  int64_t core = xbar_int_attr(op, "core");
  return check_cores(op, &core, 1);
}

static bool verify_control(nc_op *op)
{
  nc_op *node = node_of(op);
  if (!node)
    return false;
  int64_t operand = xbar_int_attr(op, "operand");
  size_t inputs = nc_dataflow_node_get_num_inputs(node);
  if (operand < 0 || (size_t)operand >= inputs)
    return nc_op_emit_error(op, "operand %lld is not an input of node '%s', which has %zu", (long long)operand,
                            nc_dataflow_node_get_name(node), inputs);
  size_t n;
  const int64_t *w = xbar_array_attr(op, "program", &n);
  char err[256];
  if (n < 2 || !xbar_control_check(w, n, (int)(w[0] >= 0 && w[0] <= 8 ? w[0] : -1),
                                   (int)(w[1] >= 0 && w[1] <= 8 ? w[1] : -1), NULL, err, sizeof err))
    return nc_op_emit_error(op, "invalid control program: %s", n < 2 ? "fewer than 2 words" : err);
  return true;
}

/* --- tables ---------------------------------------------------------------------------------------------- */

#define N(a) (a), NC_COUNTOF(a)

static const nc_attr_def mvm_attrs[] = {
  {"node", &nc_ac_string, false, NULL, "the name of the dataflow.node (a conv or matmul) it maps"},
  {"rows", &nc_ac_i64, false, NULL, "weight matrix rows: the inputs of one MVM (Cin x kh x kw, or K)"},
  {"cols", &nc_ac_i64, false, NULL, "weight matrix columns: the outputs (Cout, or N)"},
  {"row_tiles", &nc_ac_i64, false, NULL, "ceil(rows / crossbar rows)"},
  {"col_tiles", &nc_ac_i64, false, NULL, "ceil(cols / crossbar cols)"},
  {"replicas", &nc_ac_i64, false, NULL, "copies of the tiled matrix; iteration i runs on replica i mod replicas"},
  {"cores", &nc_ac_i64_array, false, NULL, "core indices (y * mesh cols + x), [replica][row tile][col tile]"},
};
static const nc_attr_def digital_attrs[] = {
  {"node", &nc_ac_string, false, NULL, "the name of the dataflow.node (pool, copy) it runs"},
  {"core", &nc_ac_i64, false, NULL, "the core whose digital unit runs it (y * mesh cols + x)"},
};
static const nc_attr_def control_attrs[] = {
  {"node", &nc_ac_string, false, NULL, "the consumer dataflow.node"},
  {"operand", &nc_ac_i64, false, NULL, "which of its inputs"},
  {"program", &nc_ac_i64_array, false, NULL,
   "the control program (docs/targets/xbar.md): consumer iteration -> the producer iteration it waits for"},
};

static const nc_op_def xbar_ops[] = {
  {
    .name = "xbar.mvm",
    .summary = "A conv or matmul on crossbars",
    .description =
      "The weight matrix of the node `node` (rows = inputs, cols = outputs) tiled over `row_tiles` x `col_tiles` "
      "crossbars of the chip, `replicas` times; each crossbar is one core of `cores`. The row tiles' partial "
      "sums are added by the digital unit of the replica's first core.\n\nVerification: the tiling matches the "
      "module's chip description, cores lie in its mesh, and no other mapping op of the block uses them.",
    .attrs = N(mvm_attrs),
    .verify = verify_mvm,
    .assembly_format = "attr-dict",
  },
  {
    .name = "xbar.digital",
    .summary = "A layer on a core's digital unit",
    .description = "Pooling or a copy (flatten, reshape) of node `node`, on core `core`'s digital vector unit.",
    .attrs = N(digital_attrs),
    .verify = verify_digital,
    .assembly_format = "attr-dict",
  },
  {
    .name = "xbar.control",
    .summary = "The control program of one input of a node",
    .description =
      "The isl `earliest` relation of input `operand` of node `node` (dataflow-deps) compiled to data: a "
      "piecewise quasi-affine function from a consumer iteration to the producer iteration it must wait for "
      "(docs/targets/xbar.md). The core's state machine evaluates it before each MVM.",
    .attrs = N(control_attrs),
    .verify = verify_control,
    .assembly_format = "attr-dict",
  },
};

const nc_dialect_def xbar_dialect = {
  .name = "xbar",
  .summary = "Layers mapped onto computational-memory crossbars, with control programs from isl",
  .description = "The xbar target's level below `dataflow`: per dataflow.node an `xbar.mvm` (crossbar tiles and "
                 "replicas on cores) or an `xbar.digital`, and per node input an `xbar.control`. "
                 "docs/targets/xbar.md describes the mapping, the control programs and the binary.",
  .ops = xbar_ops,
  .n_ops = NC_COUNTOF(xbar_ops),
  .attrs = &xbar_desc_attr_def, .n_attrs = 1,
  .dependents = (const nc_dialect_def *const[]){&nc_dataflow_dialect}, .n_dependents = 1,
};
