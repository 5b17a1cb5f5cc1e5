/* interp.c: the graph interpreter's core: compiling a function into
 * instructions, and running them.
 *
 * Every SSA value of the function gets a slot. At creation the function's
 * ops become instructions (interp_ops.c resolves the handler and reads the
 * attributes), constants are read into their slots for good, and a liveness
 * pass records after which instruction each temporary dies. A run fills the
 * argument slots with the caller's tensors (borrowed, never written), runs
 * the instructions in order, frees each temporary after its last use (a
 * reshape-like op whose operand dies there takes the buffer instead of
 * copying it) and hands the returned temporaries to the caller. Batched
 * inputs (leading dim N times the argument's) run as N inferences on views
 * of the inputs, and the outputs are concatenated.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "interp_internal.h"
#include "nc/ir/asm.h"
#include "nc/ir/diag.h"
#include "nc/support/hash.h"

typedef enum slot_kind { SLOT_ARG, SLOT_CONST, SLOT_TEMP } slot_kind;

struct nc_interp {
  nc_op *func;
  nc_context *ctx;
  nc_block *body;
  size_t n_args, n_outs;
  nc_type **arg_types, **out_types;
  int *out_slots;
  size_t n_insts;
  size_t max_io;      /* most operands or results of one instruction */
  ix_inst *insts;
  bool *inst_is_const;
  int **frees;        /* per instruction: slots to free after it, -1 terminated */
  int *last_use;      /* per slot: the last instruction reading it (n_insts: returned) */
  size_t n_slots;
  slot_kind *kinds;
  nc_tensor **slots;  /* run-time values; constants stay for the interpreter's life */
  bool *const_view;   /* constant slot whose data points into its attribute */
  nc_interp_observer observer;
  void *observer_user;
};

/* --- value numbering ----------------------------------------------------------------------------------------- */

typedef struct value_map {
  const nc_value **keys;
  int *vals;
  size_t cap;
} value_map;

static void vm_init(value_map *m, size_t n)
{
  m->cap = 16;
  while (m->cap < 2 * n + 1)
    m->cap *= 2;
  m->keys = nc_xcalloc(m->cap, sizeof *m->keys);
  m->vals = nc_xcalloc(m->cap, sizeof *m->vals);
}

static void vm_put(value_map *m, const nc_value *v, int slot)
{
  size_t i = nc_hash_ptr(v) & (m->cap - 1);
  while (m->keys[i])
    i = (i + 1) & (m->cap - 1);
  m->keys[i] = v;
  m->vals[i] = slot;
}

static int vm_get(const value_map *m, const nc_value *v)
{
  for (size_t i = nc_hash_ptr(v) & (m->cap - 1); m->keys[i]; i = (i + 1) & (m->cap - 1))
    if (m->keys[i] == v)
      return m->vals[i];
  return -1;
}

static void vm_free(value_map *m)
{
  free(m->keys);
  free(m->vals);
}

/* --- creation ------------------------------------------------------------------------------------------------- */

bool nc_interp_supports_op(const char *op_name)
{
  return ix_find_handler(op_name) != NULL;
}

static bool tensor_type_ok(const nc_type *t)
{
  nc_dtype dt;
  return nc_type_get_kind(t) == NC_TYPE_TENSOR && nc_type_get_rank(t) <= NC_TENSOR_MAX_RANK &&
         nc_interp_dtype_from_type(nc_type_get_element_type(t), &dt);
}

bool ix_inst_init(ix_inst *inst, nc_op *op, char *err, size_t errlen)
{
  memset(inst, 0, sizeof *inst);
  inst->op = op;
  int kind = graph_kind_of(op);
  inst->h = kind >= 0 ? &ix_handlers[kind] : NULL;
  if (!inst->h) {
    snprintf(err, errlen, "is not supported by the graph interpreter");
    return false;
  }
  inst->n_in = nc_op_get_num_operands(op);
  inst->n_out = nc_op_get_num_results(op);
  for (size_t i = 0; i < inst->n_in; i++) {
    nc_type *t = nc_value_get_type(nc_op_get_operand(op, i));
    if (!tensor_type_ok(t)) {
      char *s = nc_type_to_string(t);
      snprintf(err, errlen, "has operand #%zu of type %s, which the interpreter cannot hold (ranked tensors of "
               "rank <= %d and graph element types only)", i, s, NC_TENSOR_MAX_RANK);
      free(s);
      return false;
    }
    if (i == 0)
      nc_interp_dtype_from_type(nc_type_get_element_type(t), &inst->in0_dt);
  }
  inst->out_dt = nc_xcalloc(inst->n_out + 1, sizeof *inst->out_dt);
  inst->out_type = nc_xcalloc(inst->n_out + 1, sizeof *inst->out_type);
  for (size_t i = 0; i < inst->n_out; i++) {
    nc_type *t = nc_value_get_type(nc_op_get_result(op, i));
    if (!tensor_type_ok(t)) {
      char *s = nc_type_to_string(t);
      snprintf(err, errlen, "has result #%zu of type %s, which the interpreter cannot hold (ranked tensors of "
               "rank <= %d and graph element types only)", i, s, NC_TENSOR_MAX_RANK);
      free(s);
      return false;
    }
    inst->out_type[i] = t;
    nc_interp_dtype_from_type(nc_type_get_element_type(t), &inst->out_dt[i]);
  }
  /* a fused activation is part of the semantics of the ops that declare the
   * attribute (conv, conv_transpose, gemm, matmul, add); elsewhere it would
   * be a discardable attribute without meaning */
  const nc_op_def *def = nc_op_get_def(op);
  if (!def || nc_op_def_find_attr(def, "activation") < 0 || inst->h->own_activation) {
    inst->has_act = false;
  } else if (!nc_graph_get_activation(op, &inst->act)) {
    snprintf(err, errlen, "has an unknown fused activation \"%s\"", nc_graph_attr_string(op, "activation", ""));
    return false;
  } else {
    inst->has_act = inst->act.kind != NC_GRAPH_ACT_NONE;
  }
  if (inst->has_act && (inst->n_out != 1 || !ix_activation_supported(&inst->act, inst->out_dt[0]))) {
    snprintf(err, errlen, "has a fused activation \"%s\" on a result of type %s, which the interpreter does "
             "not support (integer results take only relu and clip)",
             nc_graph_attr_string(op, "activation", ""), nc_dtype_name(inst->out_dt[0]));
    return false;
  }
  if (inst->h->prepare && !inst->h->prepare(inst, err, errlen)) {
    if (!err[0])
      snprintf(err, errlen, "has attributes the interpreter cannot read");
    return false;
  }
  return true;
}

void ix_inst_fini(ix_inst *inst)
{
  nc_tensor_destroy(inst->owned[0]);
  nc_tensor_destroy(inst->owned[1]);
  free(inst->in);
  free(inst->out);
  free(inst->out_dt);
  free(inst->out_type);
  memset(inst, 0, sizeof *inst);
}

bool ix_inst_exec(const ix_inst *inst, ix_args *a)
{
  for (size_t i = 0; i < inst->n_out; i++)
    a->out[i] = NULL;
  a->err[0] = 0;
  bool ok = inst->h->run(inst, a);
  for (size_t i = 0; ok && i < inst->n_out; i++) {
    if (!a->out[i] || !nc_interp_tensor_matches_type(a->out[i], inst->out_type[i])) {
      char got[128];
      char *want = nc_type_to_string(inst->out_type[i]);
      if (a->out[i])
        ix_fail(a, "computed result #%zu of type %s, but the op declares %s", i,
                nc_interp_tensor_type_str(a->out[i], got, sizeof got), want);
      else
        ix_fail(a, "produced no result #%zu", i);
      free(want);
      ok = false;
    }
  }
  if (ok && inst->has_act)
    ix_apply_activation(&inst->act, a->out[0]);
  if (!ok)
    for (size_t i = 0; i < inst->n_out; i++) {
      nc_tensor_destroy(a->out[i]);
      a->out[i] = NULL;
    }
  return ok;
}

static bool op_error(nc_op *op, const char *msg)
{
  return nc_op_emit_error(op, "%s", msg);
}

nc_interp *nc_interp_create(nc_op *func)
{
  nc_context *ctx = nc_op_get_context(func);
  if (!nc_op_is(func, "func.func") || nc_op_get_num_regions(func) != 1)
    return nc_op_emit_error(func, "the graph interpreter runs func.func ops only"), NULL;
  nc_region *r = nc_op_get_region(func, 0);
  nc_block *body = nc_region_get_first_block(r);
  if (!body)
    return nc_op_emit_error(func, "is a declaration; the interpreter needs a body"), NULL;
  if (nc_block_get_next(body))
    return nc_op_emit_error(func, "has more than one block; the graph interpreter runs straight-line code"), NULL;
  nc_op *ret = nc_block_get_last_op(body);
  if (!ret || !nc_op_is(ret, "func.return"))
    return nc_op_emit_error(func, "does not end in func.return"), NULL;

  nc_interp *it = nc_xcalloc(1, sizeof *it);
  it->max_io = 1;
  it->func = func;
  it->ctx = ctx;
  it->body = body;
  it->n_args = nc_block_get_num_args(body);
  it->arg_types = nc_xcalloc(it->n_args + 1, sizeof *it->arg_types);
  size_t n_ops = 0, n_values = it->n_args;
  for (nc_op *op = nc_block_get_first_op(body); op != ret; op = nc_op_get_next(op)) {
    n_ops++;
    n_values += nc_op_get_num_results(op);
  }
  it->n_slots = n_values;
  it->kinds = nc_xcalloc(n_values + 1, sizeof *it->kinds);
  it->slots = nc_xcalloc(n_values + 1, sizeof *it->slots);
  it->const_view = nc_xcalloc(n_values + 1, sizeof *it->const_view);
  it->last_use = nc_xcalloc(n_values + 1, sizeof *it->last_use);
  it->insts = nc_xcalloc(n_ops + 1, sizeof *it->insts);
  it->inst_is_const = nc_xcalloc(n_ops + 1, sizeof *it->inst_is_const);
  it->frees = nc_xcalloc(n_ops + 1, sizeof *it->frees);
  value_map vm;
  vm_init(&vm, n_values);
  int next = 0;
  bool ok = true;
  for (size_t i = 0; i < it->n_args && ok; i++) {
    nc_value *arg = nc_block_get_arg(body, i);
    it->arg_types[i] = nc_value_get_type(arg);
    if (!tensor_type_ok(it->arg_types[i])) {
      char *s = nc_type_to_string(it->arg_types[i]);
      nc_emit_error(ctx, nc_value_get_loc(arg), "argument #%zu has type %s, which the graph interpreter cannot hold",
                    i, s);
      free(s);
      ok = false;
    }
    it->kinds[next] = SLOT_ARG;
    it->last_use[next] = -1;
    vm_put(&vm, arg, next++);
  }
  char err[IX_ERRLEN];
  for (nc_op *op = nc_block_get_first_op(body); op != ret && ok; op = nc_op_get_next(op)) {
    ix_inst *inst = &it->insts[it->n_insts];
    err[0] = 0;
    if (!ix_inst_init(inst, op, err, sizeof err)) {
      ok = op_error(op, err);
      break;
    }
    it->n_insts++;
    it->max_io = inst->n_in > it->max_io ? inst->n_in : it->max_io;
    it->max_io = inst->n_out > it->max_io ? inst->n_out : it->max_io;
    inst->in = nc_xcalloc(inst->n_in + 1, sizeof *inst->in);
    inst->out = nc_xcalloc(inst->n_out + 1, sizeof *inst->out);
    for (size_t k = 0; k < inst->n_in; k++) {
      int s = vm_get(&vm, nc_op_get_operand(op, k));
      if (s < 0) {
        ok = nc_op_emit_error(op, "uses operand #%zu, which is not defined earlier in the function", k);
        break;
      }
      inst->in[k] = s;
      it->last_use[s] = (int)(it->n_insts - 1);
    }
    for (size_t k = 0; k < inst->n_out; k++) {
      inst->out[k] = next;
      it->kinds[next] = SLOT_TEMP;
      it->last_use[next] = (int)(it->n_insts - 1); /* dies at once unless used */
      vm_put(&vm, nc_op_get_result(op, k), next++);
    }
    if (ok && nc_op_is(op, "graph.constant")) {
      it->inst_is_const[it->n_insts - 1] = true;
      it->kinds[inst->out[0]] = SLOT_CONST;
      it->slots[inst->out[0]] = ix_constant_tensor(op, &it->const_view[inst->out[0]], err, sizeof err);
      if (!it->slots[inst->out[0]])
        ok = op_error(op, err);
    }
  }
  it->n_outs = nc_op_get_num_operands(ret);
  it->out_slots = nc_xcalloc(it->n_outs + 1, sizeof *it->out_slots);
  it->out_types = nc_xcalloc(it->n_outs + 1, sizeof *it->out_types);
  for (size_t k = 0; k < it->n_outs && ok; k++) {
    nc_value *v = nc_op_get_operand(ret, k);
    int s = vm_get(&vm, v);
    if (s < 0) {
      ok = nc_op_emit_error(ret, "returns operand #%zu, which is not defined in the function", k);
      break;
    }
    it->out_slots[k] = s;
    it->out_types[k] = nc_value_get_type(v);
    it->last_use[s] = (int)it->n_insts;
  }
  vm_free(&vm);
  if (!ok) {
    nc_interp_destroy(it);
    return NULL;
  }
  /* free lists: temporaries die after their last reader */
  size_t *count = nc_xcalloc(it->n_insts + 1, sizeof *count);
  for (size_t s = 0; s < it->n_slots; s++)
    if (it->kinds[s] == SLOT_TEMP && it->last_use[s] >= 0 && (size_t)it->last_use[s] < it->n_insts)
      count[it->last_use[s]]++;
  for (size_t i = 0; i < it->n_insts; i++) {
    it->frees[i] = nc_xmalloc((count[i] + 1) * sizeof **it->frees);
    it->frees[i][0] = -1;
    count[i] = 0;
  }
  for (size_t s = 0; s < it->n_slots; s++)
    if (it->kinds[s] == SLOT_TEMP && it->last_use[s] >= 0 && (size_t)it->last_use[s] < it->n_insts) {
      size_t i = (size_t)it->last_use[s];
      it->frees[i][count[i]++] = (int)s;
      it->frees[i][count[i]] = -1;
    }
  free(count);
  return it;
}

void nc_interp_destroy(nc_interp *it)
{
  if (!it)
    return;
  for (size_t s = 0; s < it->n_slots; s++) {
    if (it->kinds[s] == SLOT_CONST && it->slots[s]) {
      if (it->const_view[s])
        free(it->slots[s]);
      else
        nc_tensor_destroy(it->slots[s]);
    }
  }
  for (size_t i = 0; i < it->n_insts; i++) {
    ix_inst_fini(&it->insts[i]);
    free(it->frees[i]);
  }
  /* an instruction whose init failed midway */
  if (it->insts)
    ix_inst_fini(&it->insts[it->n_insts]);
  free(it->insts);
  free(it->inst_is_const);
  free(it->frees);
  free(it->last_use);
  free(it->kinds);
  free(it->slots);
  free(it->const_view);
  free(it->arg_types);
  free(it->out_types);
  free(it->out_slots);
  free(it);
}

void nc_interp_set_observer(nc_interp *it, nc_interp_observer fn, void *user)
{
  it->observer = fn;
  it->observer_user = user;
}

nc_op *nc_interp_get_func(const nc_interp *it) { return it->func; }
size_t nc_interp_get_num_inputs(const nc_interp *it) { return it->n_args; }
size_t nc_interp_get_num_outputs(const nc_interp *it) { return it->n_outs; }
nc_type *nc_interp_get_input_type(const nc_interp *it, size_t i) { return i < it->n_args ? it->arg_types[i] : NULL; }
nc_type *nc_interp_get_output_type(const nc_interp *it, size_t i) { return i < it->n_outs ? it->out_types[i] : NULL; }

void nc_interp_outputs_destroy(size_t n, nc_tensor **outputs)
{
  if (!outputs)
    return;
  for (size_t i = 0; i < n; i++)
    nc_tensor_destroy(outputs[i]);
  free(outputs);
}

/* --- running -------------------------------------------------------------------------------------------------- */

/* Frees every temporary still held (after a failure). */
static void drop_temps(nc_interp *it)
{
  for (size_t s = 0; s < it->n_slots; s++) {
    if (it->kinds[s] == SLOT_TEMP)
      nc_tensor_destroy(it->slots[s]);
    if (it->kinds[s] != SLOT_CONST)
      it->slots[s] = NULL;
  }
}

/* One inference on inputs that match the argument types. */
static bool run_once(nc_interp *it, nc_tensor *const *inputs, nc_tensor **outputs)
{
  for (size_t i = 0; i < it->n_args; i++)
    it->slots[i] = inputs[i];
  nc_tensor **in = nc_xcalloc(it->max_io, sizeof *in), **out = nc_xcalloc(it->max_io, sizeof *out);
  bool *donated = nc_xcalloc(it->max_io, sizeof *donated);
  char err[IX_ERRLEN];
  bool ok = true;
  for (size_t i = 0; i < it->n_insts && ok; i++) {
    ix_inst *inst = &it->insts[i];
    if (it->inst_is_const[i]) {
      if (it->observer)
        it->observer(inst->op, 1, (const nc_tensor *const *)&it->slots[inst->out[0]], it->observer_user);
      continue;
    }
    for (size_t k = 0; k < inst->n_in; k++) {
      int s = inst->in[k];
      in[k] = it->slots[s];
      donated[k] = it->kinds[s] == SLOT_TEMP && it->last_use[s] == (int)i;
      for (size_t j = 0; j < inst->n_in && donated[k]; j++)
        donated[k] = j == k || inst->in[j] != s;
    }
    ix_args a = {.in = in, .donated = donated, .out = out, .err = err, .errlen = sizeof err};
    if (!ix_inst_exec(inst, &a)) {
      ok = op_error(inst->op, err);
      break;
    }
    for (size_t k = 0; k < inst->n_out; k++)
      it->slots[inst->out[k]] = out[k];
    if (it->observer)
      it->observer(inst->op, inst->n_out, (const nc_tensor *const *)out, it->observer_user);
    for (int *f = it->frees[i]; *f >= 0; f++) {
      nc_tensor_destroy(it->slots[*f]);
      it->slots[*f] = NULL;
    }
  }
  if (ok) {
    for (size_t k = 0; k < it->n_outs; k++) {
      int s = it->out_slots[k];
      bool first = true;
      for (size_t j = 0; j < k && first; j++)
        first = it->out_slots[j] != s;
      if (it->kinds[s] == SLOT_TEMP && first)
        outputs[k] = it->slots[s]; /* handed over; the slot is cleared below */
      else
        outputs[k] = nc_tensor_clone(it->slots[s]);
    }
    for (size_t k = 0; k < it->n_outs; k++)
      if (it->kinds[it->out_slots[k]] == SLOT_TEMP)
        it->slots[it->out_slots[k]] = NULL;
  }
  drop_temps(it);
  free(in);
  free(out);
  free(donated);
  return ok;
}

/* The batch multiple of input i: 1 if it matches its argument type, N >= 2
 * if only its leading dim is N times the argument's static one, 0 if it
 * matches neither way. */
static int64_t batch_multiple(const nc_tensor *t, const nc_type *type)
{
  if (nc_interp_tensor_matches_type(t, type))
    return 1;
  if (t->rank < 1 || nc_type_get_rank(type) != (size_t)t->rank)
    return 0;
  int64_t d0 = nc_type_get_shape(type)[0];
  if (d0 == NC_DYNAMIC || d0 <= 0 || t->shape[0] % d0 != 0 || t->shape[0] / d0 < 2)
    return 0;
  nc_tensor probe = *t;
  probe.shape[0] = d0;
  return nc_interp_tensor_matches_type(&probe, type) ? t->shape[0] / d0 : 0;
}

static void input_error(nc_interp *it, size_t i, const nc_tensor *t, const char *why)
{
  char got[128];
  char *want = nc_type_to_string(it->arg_types[i]);
  nc_emit_error(it->ctx, nc_value_get_loc(nc_block_get_arg(it->body, i)), "input #%zu has type %s but %s %s%s", i,
                nc_interp_tensor_type_str(t, got, sizeof got), "the function expects", want, why);
  free(want);
}

bool nc_interp_run(nc_interp *it, size_t n_inputs, const nc_tensor *const *inputs, size_t *n_outputs,
                   nc_tensor ***outputs)
{
  *outputs = NULL;
  *n_outputs = 0;
  if (n_inputs != it->n_args)
    return nc_op_emit_error(it->func, "expects %zu input%s, got %zu", it->n_args, it->n_args == 1 ? "" : "s",
                            n_inputs);
  int64_t batch = 1;
  int64_t *mult = nc_xcalloc(n_inputs + 1, sizeof *mult);
  for (size_t i = 0; i < n_inputs; i++) {
    mult[i] = batch_multiple(inputs[i], it->arg_types[i]);
    if (!mult[i]) {
      input_error(it, i, inputs[i], "");
      free(mult);
      return false;
    }
    if (inputs[i]->rank > 0 && mult[i] > batch)
      batch = mult[i];
  }
  for (size_t i = 0; i < n_inputs && batch > 1; i++)
    if (inputs[i]->rank > 0 && mult[i] != batch) {
      char buf[128];
      snprintf(buf, sizeof buf, " (a batched run needs every input of rank >= 1 to have %lld times the "
               "argument's leading dim)", (long long)batch);
      input_error(it, i, inputs[i], buf);
      free(mult);
      return false;
    }
  free(mult);
  nc_tensor **res = nc_xcalloc(it->n_outs + 1, sizeof *res);
  if (batch == 1) {
    if (!run_once(it, (nc_tensor *const *)inputs, res)) {
      free(res);
      return false;
    }
    *outputs = res;
    *n_outputs = it->n_outs;
    return true;
  }
  /* N inferences on views of the inputs, concatenated along dim 0 */
  nc_tensor *views = nc_xcalloc(n_inputs + 1, sizeof *views);
  nc_tensor **vp = nc_xcalloc(n_inputs + 1, sizeof *vp);
  nc_tensor **part = nc_xcalloc(it->n_outs + 1, sizeof *part);
  bool ok = true;
  for (int64_t b = 0; b < batch && ok; b++) {
    for (size_t i = 0; i < n_inputs; i++) {
      views[i] = *inputs[i];
      if (views[i].rank > 0) {
        views[i].shape[0] /= batch;
        views[i].data = (char *)inputs[i]->data + (size_t)b * nc_tensor_num_bytes(&views[i]);
      }
      vp[i] = &views[i];
    }
    if (!(ok = run_once(it, vp, part)))
      break;
    for (size_t k = 0; k < it->n_outs && ok; k++) {
      if (b == 0) {
        int64_t shape[NC_TENSOR_MAX_RANK];
        memcpy(shape, part[k]->shape, sizeof shape);
        if (part[k]->rank == 0) {
          ok = nc_op_emit_error(it->func, "cannot run a batch of %lld: output #%zu is a scalar", (long long)batch, k);
          break;
        }
        shape[0] *= batch;
        res[k] = nc_tensor_create(part[k]->dtype, part[k]->rank, shape, 0);
        if (!res[k]) {
          ok = nc_op_emit_error(it->func, "cannot allocate batched output #%zu", k);
          break;
        }
      } else {
        nc_tensor probe = *res[k];
        probe.shape[0] /= batch;
        if (probe.rank != part[k]->rank || memcmp(probe.shape, part[k]->shape, sizeof probe.shape)) {
          ok = nc_op_emit_error(it->func, "cannot run a batch: output #%zu has different shapes in inference 0 "
                                "and %lld", k, (long long)b);
          break;
        }
      }
      size_t nb = nc_tensor_num_bytes(part[k]);
      memcpy((char *)res[k]->data + (size_t)b * nb, part[k]->data, nb);
    }
    for (size_t k = 0; k < it->n_outs; k++) {
      nc_tensor_destroy(part[k]);
      part[k] = NULL;
    }
  }
  free(views);
  free(vp);
  free(part);
  if (!ok) {
    nc_interp_outputs_destroy(it->n_outs, res);
    return false;
  }
  *outputs = res;
  *n_outputs = it->n_outs;
  return true;
}

/* --- one op ------------------------------------------------------------------------------------------------------ */

bool nc_interp_eval_op(nc_op *op, const nc_tensor *const *operands, nc_tensor **results)
{
  size_t n_out = nc_op_get_num_results(op);
  for (size_t i = 0; i < n_out; i++)
    results[i] = NULL;
  ix_inst inst;
  char err[IX_ERRLEN] = "";
  if (!ix_inst_init(&inst, op, err, sizeof err)) {
    ix_inst_fini(&inst);
    return op_error(op, err);
  }
  bool ok = true;
  for (size_t i = 0; i < inst.n_in && ok; i++) {
    nc_type *t = nc_value_get_type(nc_op_get_operand(op, i));
    if (!operands[i] || !nc_interp_tensor_matches_type(operands[i], t)) {
      char got[128] = "nothing";
      char *want = nc_type_to_string(t);
      if (operands[i])
        nc_interp_tensor_type_str(operands[i], got, sizeof got);
      ok = nc_op_emit_error(op, "operand #%zu: expected %s, got %s", i, want, got);
      free(want);
    }
  }
  bool *donated = nc_xcalloc(inst.n_in + 1, sizeof *donated);
  ix_args a = {.in = (nc_tensor *const *)operands, .donated = donated, .out = results, .err = err,
               .errlen = sizeof err};
  if (ok && !ix_inst_exec(&inst, &a))
    ok = op_error(op, err);
  free(donated);
  ix_inst_fini(&inst);
  return ok;
}
