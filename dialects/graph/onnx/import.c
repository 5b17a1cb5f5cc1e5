/* import.c: ONNX model -> builtin.module with one func.func of graph ops.
 *
 * The driver of the importer (see onnx.h): it orders the nodes
 * topologically, keeps a map from ONNX tensor names to imp_value records,
 * calls each node's handler (import_ops.c, import_data.c, import_fold.c)
 * and builds the function around the ops they create. It also holds the
 * services handlers share besides attributes and types (import_types.c):
 * diagnostics naming the node, the values of the map, and the lazy
 * materialization of known values as graph.constant ops with dense_resource
 * blobs, created where the first op needs them. Each op is verified as it is
 * created, so the importer never hands out IR that does not verify.
 */
#include "import_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nc/ir/types.h"
#include "nc/support/hash.h"

/* Values computed at import time may take this much memory, plus twice the
 * size of the initializers (enough to cast every weight to a wider type). */
#define FOLD_BUDGET_BASE ((size_t)64 << 20)

/* ---- name maps ------------------------------------------------------------------------------------------ */

/* An open-addressing map from NUL-terminated names (borrowed) to pointers. */
typedef struct name_map {
  const char **keys;
  void **vals;
  size_t cap, count;
} name_map;

static size_t map_find(const name_map *m, const char *key)
{
  size_t mask = m->cap - 1, i = nc_hash_bytes(key, strlen(key), 0x0a11) & mask;
  while (m->keys[i] && strcmp(m->keys[i], key))
    i = (i + 1) & mask;
  return i;
}

static void *map_get(const name_map *m, const char *key)
{
  if (!m->cap)
    return NULL;
  size_t i = map_find(m, key);
  return m->keys[i] ? m->vals[i] : NULL;
}

static void map_put(name_map *m, const char *key, void *val)
{
  if ((m->count + 1) * 2 > m->cap) {
    name_map n = {.cap = m->cap ? m->cap * 2 : 64};
    n.keys = nc_xcalloc(n.cap, sizeof *n.keys);
    n.vals = nc_xcalloc(n.cap, sizeof *n.vals);
    for (size_t i = 0; i < m->cap; i++)
      if (m->keys[i]) {
        size_t j = map_find(&n, m->keys[i]);
        n.keys[j] = m->keys[i];
        n.vals[j] = m->vals[i];
        n.count++;
      }
    free(m->keys);
    free(m->vals);
    *m = n;
  }
  size_t i = map_find(m, key);
  if (!m->keys[i])
    m->count++;
  m->keys[i] = key;
  m->vals[i] = val;
}

static void map_free(name_map *m)
{
  free(m->keys);
  free(m->vals);
}

/* The importer's private state beyond importer (which handlers see). */
typedef struct import_state {
  importer im;
  name_map values;   /* name -> imp_value */
  name_map infos;    /* name -> declared ValueInfoProto */
  name_map users;    /* name -> (void *)1 if a node or graph output reads it */
  name_map dim_params; /* dim_param name of graph inputs -> its symbol */
  imp_value **owned; /* every imp_value created, for freeing */
  size_t n_owned, cap_owned;
} import_state;

#define STATE(im) ((import_state *)(im))

/* ---- diagnostics ---------------------------------------------------------------------------------------- */

static nc_location node_diag_loc(node_ctx *nc)
{
  importer *im = nc->im;
  if (!*nc->n->name)
    return nc_location_from_attr(im->file_loc);
  return nc_location_from_attr(nc_loc_name(im->ctx, nc_ident_get_cstr(im->ctx, nc->n->name), im->file_loc));
}

/* "node 'conv1'" or "node #3" */
static void node_label(node_ctx *nc, char *buf, size_t len)
{
  char nb[160];
  if (*nc->n->name)
    snprintf(buf, len, "node '%s'", onnx_clean_name(nc->n->name, nb, sizeof nb));
  else
    snprintf(buf, len, "node #%zu", nc->index);
}

/* "Conv" or "com.microsoft.FusedConv" */
static void op_label(node_ctx *nc, char *buf, size_t len)
{
  char ob[160], db[160];
  const char *d = nc->n->domain;
  if (!*d || !strcmp(d, "ai.onnx"))
    snprintf(buf, len, "%s", onnx_clean_name(nc->op_type, ob, sizeof ob));
  else
    snprintf(buf, len, "%s.%s", onnx_clean_name(d, db, sizeof db), onnx_clean_name(nc->op_type, ob, sizeof ob));
}

static int64_t node_opset(node_ctx *nc)
{
  const char *d = nc->n->domain;
  if (!*d || !strcmp(d, "ai.onnx"))
    return nc->im->opset;
  return nc_onnx_model_get_opset(nc->im->model, d);
}

/* Emits "node 'N' (Type, opset K): <message><suffix>" at the node. */
NC_PRINTF(3, 0)
static void node_error(node_ctx *nc, const char *suffix, const char *fmt, va_list ap)
{
  char nl[200], ol[330], msg[1024];
  node_label(nc, nl, sizeof nl);
  op_label(nc, ol, sizeof ol);
  vsnprintf(msg, sizeof msg, fmt, ap);
  nc_emit_error(nc->im->ctx, node_diag_loc(nc), "%s (%s, opset %lld): %s%s", nl, ol, (long long)node_opset(nc), msg,
                suffix);
}

bool imp_error(node_ctx *nc, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  node_error(nc, "", fmt, ap);
  va_end(ap);
  return false;
}

bool imp_unsupported(node_ctx *nc, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  node_error(nc, " is not supported", fmt, ap);
  va_end(ap);
  return false;
}

bool imp_unsupported_op(node_ctx *nc, const char *fmt, ...)
{
  char nl[200], ol[330], msg[1024] = "";
  node_label(nc, nl, sizeof nl);
  op_label(nc, ol, sizeof ol);
  if (fmt) {
    va_list ap;
    va_start(ap, fmt);
    msg[0] = ':';
    msg[1] = ' ';
    vsnprintf(msg + 2, sizeof msg - 2, fmt, ap);
    va_end(ap);
  }
  nc_emit_error(nc->im->ctx, node_diag_loc(nc), "%s: op type '%s' (opset %lld) is not supported%s", nl, ol,
                (long long)node_opset(nc), msg);
  return false;
}

NC_PRINTF(2, 3)
static bool model_error(importer *im, const char *fmt, ...)
{
  char msg[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  nc_emit_error(im->ctx, nc_location_from_attr(im->file_loc), "%s", msg);
  return false;
}

/* Checks an inferred type against what the model declares for the name (its
 * value_info or graph output): a conflict means a broken model or a wrong
 * inference, and is an error. Declared static dims where nc infers dynamic
 * ones are not taken: an op's result type is what its operands give, so
 * that ops with same-type operands and results stay consistent. */
static bool check_declared(node_ctx *nc, const char *name, const imp_type *t)
{
  const Onnx__ValueInfoProto *vi = map_get(&STATE(nc->im)->infos, name);
  imp_type d;
  int32_t et;
  if (!vi || !imp_type_from_value_info(vi, &d, &et))
    return true;
  char nb[160], s1[128], s2[128];
  if (d.dt != t->dt)
    return imp_error(nc, "output '%s' is computed as %s but the model declares %s",
                     onnx_clean_name(name, nb, sizeof nb), nc_dtype_name(t->dt), nc_onnx_data_type_name(et));
  if (d.rank < 0 || t->rank < 0)
    return true;
  bool conflict = d.rank != t->rank;
  for (int i = 0; !conflict && i < t->rank; i++)
    conflict = d.dims[i] >= 0 && t->dims[i] >= 0 && d.dims[i] != t->dims[i];
  if (conflict)
    return imp_error(nc, "output '%s' has shape %s but the model declares %s", onnx_clean_name(name, nb, sizeof nb),
                     imp_type_str(t, s1, sizeof s1), imp_type_str(&d, s2, sizeof s2));
  return true;
}

/* ---- values --------------------------------------------------------------------------------------------- */

static imp_value *new_value(importer *im, const char *name)
{
  import_state *st = STATE(im);
  imp_value *v = nc_xcalloc(1, sizeof *v);
  v->name = name;
  if (st->n_owned == st->cap_owned) {
    st->cap_owned = st->cap_owned ? st->cap_owned * 2 : 64;
    st->owned = nc_xrealloc(st->owned, st->cap_owned * sizeof *st->owned);
  }
  st->owned[st->n_owned++] = v;
  return v;
}

/* Defines output i of the node; NULL (with an error) if it is defined twice. */
static imp_value *define_output(node_ctx *nc, size_t i)
{
  const char *name = nc->n->output[i];
  import_state *st = STATE(nc->im);
  if (map_get(&st->values, name)) {
    char nb[160];
    imp_error(nc, "output '%s' is already defined (ONNX graphs are in SSA form)", onnx_clean_name(name, nb, sizeof nb));
    return NULL;
  }
  imp_value *v = new_value(nc->im, name);
  map_put(&st->values, name, v);
  return v;
}

imp_value *imp_input(node_ctx *nc, size_t i) { return i < nc->n_in ? nc->in[i] : NULL; }

imp_value *imp_input_required(node_ctx *nc, size_t i, const char *what)
{
  imp_value *v = imp_input(nc, i);
  if (!v)
    imp_error(nc, "input %zu ('%s') is missing", i, what);
  return v;
}

nc_tensor *imp_known(importer *im, imp_value *v)
{
  if (!v)
    return NULL;
  if (!v->known && v->init) {
    char err[512];
    v->known = nc_onnx_model_tensor_to_host(im->model, v->init, err, sizeof err);
    if (!v->known) {
      model_error(im, "%s", err);
      im->failed = true;
      return NULL;
    }
  }
  return v->known;
}

bool imp_all_known(node_ctx *nc)
{
  for (size_t i = 0; i < nc->n_in; i++)
    if (nc->in[i] && !nc->in[i]->known && !nc->in[i]->init)
      return false;
  for (size_t i = 0; i < nc->n_in; i++)
    if (nc->in[i] && !imp_known(nc->im, nc->in[i]))
      return false;
  return true;
}

static bool not_constant_error(node_ctx *nc, size_t i, const char *what)
{
  char nb[160];
  imp_value *v = nc->in[i];
  if (v->partial)
    return imp_error(nc, "input '%s' ('%s') depends on dynamic dimensions, so it is not known at import time", what,
                     onnx_clean_name(v->name, nb, sizeof nb));
  return imp_error(nc, "input '%s' ('%s') is computed at run time; nc needs it to be a constant", what,
                   onnx_clean_name(v->name, nb, sizeof nb));
}

bool imp_const_ints(node_ctx *nc, size_t i, const char *what, int64_t **vals, int64_t *n)
{
  imp_value *v = imp_input(nc, i);
  if (!v)
    return imp_error(nc, "input '%s' is missing", what);
  nc_tensor *t = imp_known(nc->im, v);
  if (!t)
    return nc->im->failed ? false : not_constant_error(nc, i, what);
  if (!nc_dtype_is_integer(t->dtype) || t->rank > 1)
    return imp_error(nc, "input '%s' must be an integer scalar or vector, not a %s tensor of rank %d", what,
                     nc_dtype_name(t->dtype), t->rank);
  *n = nc_tensor_num_elements(t);
  *vals = nc_arena_alloc(nc->im->arena, (size_t)(*n ? *n : 1) * sizeof **vals);
  for (int64_t k = 0; k < *n; k++)
    (*vals)[k] = nc_tensor_get_i64(t, k);
  return true;
}

bool imp_const_scalar(node_ctx *nc, size_t i, const char *what, double *out)
{
  imp_value *v = imp_input(nc, i);
  if (!v)
    return imp_error(nc, "input '%s' is missing", what);
  nc_tensor *t = imp_known(nc->im, v);
  if (!t)
    return nc->im->failed ? false : not_constant_error(nc, i, what);
  if (nc_tensor_num_elements(t) != 1)
    return imp_error(nc, "input '%s' must have one element, not %lld", what, (long long)nc_tensor_num_elements(t));
  *out = nc_tensor_get_f64(t, 0);
  return true;
}

size_t imp_num_outputs(node_ctx *nc)
{
  size_t k = 0;
  for (size_t i = 0; i < nc->n->n_output; i++)
    k += *nc->n->output[i] != 0;
  return k;
}

bool imp_output_used(node_ctx *nc, size_t i)
{
  return i < nc->n->n_output && *nc->n->output[i] && map_get(&STATE(nc->im)->users, nc->n->output[i]);
}

nc_tensor *imp_fold_alloc(node_ctx *nc, nc_dtype dt, int rank, const int64_t *shape)
{
  size_t bytes = nc_dtype_size(dt);
  for (int i = 0; i < rank; i++) {
    if (shape[i] < 0 || (shape[i] && bytes > SIZE_MAX / (size_t)shape[i]))
      return NULL;
    bytes *= (size_t)shape[i];
  }
  if (bytes > nc->im->budget)
    return NULL;
  nc_tensor *t = nc_tensor_create(dt, rank, shape, 0);
  if (t)
    nc->im->budget -= bytes;
  return t;
}

bool imp_set_known(node_ctx *nc, size_t i, nc_tensor *t)
{
  if (i >= nc->n->n_output || !*nc->n->output[i]) {
    nc_tensor_destroy(t);
    return true;
  }
  imp_value *v = define_output(nc, i);
  if (!v) {
    nc_tensor_destroy(t);
    return false;
  }
  v->known = t;
  v->type = imp_type_of_tensor(t);
  return check_declared(nc, v->name, &v->type);
}

bool imp_set_splat(node_ctx *nc, size_t i, nc_tensor *element, int rank, const int64_t *shape)
{
  if (i >= nc->n->n_output || !*nc->n->output[i]) {
    nc_tensor_destroy(element);
    return true;
  }
  imp_value *v = define_output(nc, i);
  if (!v) {
    nc_tensor_destroy(element);
    return false;
  }
  v->splat = element;
  memset(&v->type, 0, sizeof v->type);
  v->type.dt = element->dtype;
  v->type.rank = rank;
  memcpy(v->type.dims, shape, (size_t)rank * sizeof *shape);
  return check_declared(nc, v->name, &v->type);
}

bool imp_set_partial(node_ctx *nc, size_t i, imp_partial *p)
{
  if (i >= nc->n->n_output || !*nc->n->output[i])
    return true;
  bool all = true;
  for (int64_t k = 0; k < p->n; k++)
    all &= p->sym[k] == 0;
  if (all) { /* every element turned out to be known */
    nc_tensor *t = nc_tensor_create(p->dt, p->rank, &p->n, 0);
    for (int64_t k = 0; k < p->n; k++)
      nc_tensor_set_i64(t, k, p->vals[k]);
    return imp_set_known(nc, i, t);
  }
  imp_value *v = define_output(nc, i);
  if (!v)
    return false;
  v->partial = p;
  v->type = (imp_type){.dt = p->dt, .rank = p->rank, .dims = {p->n}};
  return true;
}

bool imp_set_alias(node_ctx *nc, size_t i, imp_value *src)
{
  if (i >= nc->n->n_output || !*nc->n->output[i])
    return true;
  const char *name = nc->n->output[i];
  import_state *st = STATE(nc->im);
  char nb[160];
  if (map_get(&st->values, name))
    return imp_error(nc, "output '%s' is already defined (ONNX graphs are in SSA form)",
                     onnx_clean_name(name, nb, sizeof nb));
  map_put(&st->values, name, src); /* one record, so it materializes once */
  return true;
}

imp_value *imp_new_known(node_ctx *nc, nc_tensor *t, const char *name)
{
  imp_value *v = new_value(nc->im, nc_arena_strndup(nc->im->arena, name, strlen(name)));
  v->known = t;
  v->type = imp_type_of_tensor(t);
  return v;
}

int32_t imp_fresh_sym(importer *im)
{
  if (im->next_sym == INT32_MAX)
    NC_UNREACHABLE("more dynamic dims than symbols");
  return ++im->next_sym;
}

imp_partial *imp_partial_new(importer *im, int rank, int64_t n)
{
  imp_partial *p = nc_arena_calloc(im->arena, sizeof *p);
  size_t k = (size_t)(n ? n : 1);
  p->dt = NC_DT_I64;
  p->rank = rank;
  p->n = n;
  p->vals = nc_arena_calloc(im->arena, k * sizeof *p->vals);
  p->sym = nc_arena_calloc(im->arena, k * sizeof *p->sym);
  return p;
}

imp_partial *imp_partial_of(importer *im, imp_value *v)
{
  if (!v)
    return NULL;
  if (v->partial)
    return v->partial;
  if (!v->known && !v->init)
    return NULL;
  nc_tensor *t = imp_known(im, v);
  if (!t || !nc_dtype_is_integer(t->dtype) || t->rank > 1 || nc_tensor_num_elements(t) > IMP_MAX_PARTIAL)
    return NULL;
  imp_partial *p = imp_partial_new(im, t->rank, nc_tensor_num_elements(t));
  p->dt = t->dtype;
  for (int64_t k = 0; k < p->n; k++)
    p->vals[k] = nc_tensor_get_i64(t, k);
  return p;
}

nc_tensor *imp_densify(importer *im, const Onnx__SparseTensorProto *s, char *err, size_t errlen)
{
  nc_tensor *vals = nc_onnx_tensor_to_host(s->values, err, errlen);
  if (!vals)
    return NULL;
  if (s->n_dims > NC_TENSOR_MAX_RANK) {
    snprintf(err, errlen, "rank %zu exceeds the maximum of %d", s->n_dims, NC_TENSOR_MAX_RANK);
    nc_tensor_destroy(vals);
    return NULL;
  }
  size_t bytes = nc_dtype_size(vals->dtype);
  for (size_t i = 0; i < s->n_dims; i++)
    bytes = s->dims[i] && bytes > SIZE_MAX / (size_t)s->dims[i] ? SIZE_MAX : bytes * (size_t)s->dims[i];
  nc_tensor *d = bytes <= im->budget ? nc_tensor_create(vals->dtype, (int)s->n_dims, s->dims, 0) : NULL;
  if (!d) {
    snprintf(err, errlen, "its dense form is too large to build at import time");
    nc_tensor_destroy(vals);
    return NULL;
  }
  im->budget -= bytes;
  /* the loader checked the indices: linear [nnz] or coordinates [nnz, rank] */
  int64_t nnz = nc_tensor_num_elements(vals);
  size_t es = nc_dtype_size(vals->dtype);
  const Onnx__TensorProto *ix = s->indices;
  bool linear = ix && ix->n_dims == 1;
  for (int64_t i = 0; i < nnz; i++) {
    int64_t pos = 0;
    for (size_t k = 0; k < (linear ? 1 : s->n_dims); k++) {
      int64_t j = linear ? i : i * (int64_t)s->n_dims + (int64_t)k, c;
      if (ix->has_raw_data)
        memcpy(&c, ix->raw_data.data + (size_t)j * sizeof c, sizeof c);
      else
        c = ix->int64_data[j];
      pos = linear ? c : pos * s->dims[k] + c;
    }
    memcpy((char *)d->data + (size_t)pos * es, (const char *)vals->data + (size_t)i * es, es);
  }
  nc_tensor_destroy(vals);
  return d;
}

/* Named nodes and tensors are located by their name; unnamed ones (common in
 * exported QDQ models) at the model's file, so their errors still name it
 * rather than `<unknown>:0`. */
static nc_attr *name_loc(importer *im, const char *name)
{
  return *name ? nc_loc_name(im->ctx, nc_ident_get_cstr(im->ctx, name), NULL) : im->file_loc;
}

/* A graph.constant of `value`, appended to the body, as v's value. */
static nc_value *append_constant(importer *im, imp_value *v, nc_type *type, nc_attr *value)
{
  nc_context *ctx = im->ctx;
  nc_named_attr attr = {nc_ident_get_cstr(ctx, "value"), value};
  nc_op *op = value ? nc_op_create(&(nc_op_state){.ctx = ctx, .name = "graph.constant",
                                                  .loc = nc_location_from_attr(name_loc(im, v->name)),
                                                  .n_attrs = 1, .attrs = &attr, .n_results = 1,
                                                  .result_types = &type})
                    : NULL;
  if (!op)
    return NULL;
  nc_block_append_op(im->body, op);
  return v->value = nc_op_get_result(op, 0);
}

/* An initializer whose bytes lie in the model file's mapping as the blob
 * holds them becomes a resource that borrows them (the mapping stays until
 * the resource lets go): import reads none of its pages, and the first
 * pass to need the weights reads them once. NULL if it cannot be borrowed. */
static nc_value *materialize_borrowed(importer *im, imp_value *v)
{
  nc_dtype dt;
  size_t bytes;
  void *ref;
  const void *data = nc_onnx_model_borrow_tensor(im->model, v->init, &dt, &bytes, &ref);
  if (!data)
    return NULL;
  imp_type ty = {.dt = dt, .rank = (int)v->init->n_dims};
  for (size_t i = 0; i < v->init->n_dims; i++)
    ty.dims[i] = v->init->dims[i];
  nc_type *type = imp_nc_type(im->ctx, &ty);
  nc_resource *r = nc_resource_create_borrowed(im->ctx, v->name, data, bytes, (uint32_t)nc_dtype_size(dt),
                                               nc_onnx_map_release, ref);
  return append_constant(im, v, type, nc_attr_dense_resource(im->ctx, type, r));
}

nc_value *imp_materialize(importer *im, imp_value *v)
{
  if (v->value)
    return v->value;
  nc_tensor *t = v->known;
  nc_tensor *owned = NULL;
  if (!t && v->splat) { /* one element, never expanded */
    nc_context *ctx = im->ctx;
    nc_type *type = imp_nc_type(ctx, &v->type);
    return append_constant(im, v, type,
                           nc_attr_dense_elements(ctx, type, v->splat->data, nc_dtype_size(v->splat->dtype)));
  }
  if (!t && v->init) { /* the file's bytes as they lie in its mapping, or converted straight into the blob */
    nc_value *borrowed = materialize_borrowed(im, v);
    if (borrowed)
      return borrowed;
    char err[512];
    owned = t = nc_onnx_model_tensor_to_host(im->model, v->init, err, sizeof err);
    if (!t) {
      model_error(im, "%s", err);
      return NULL;
    }
  }
  if (!t) {
    char nb[160];
    model_error(im, "tensor '%s' is derived from dynamic dimensions (through Shape), which nc cannot compute at "
                    "run time", onnx_clean_name(v->name, nb, sizeof nb));
    im->failed = true;
    return NULL;
  }
  nc_context *ctx = im->ctx;
  imp_type ty = imp_type_of_tensor(t);
  nc_type *type = imp_nc_type(ctx, &ty);
  size_t bytes = nc_tensor_num_bytes(t);
  nc_attr *value;
  if (!nc_tensor_num_elements(t)) {
    value = nc_attr_dense_elements(ctx, type, NULL, 0);
  } else {
    size_t align = nc_dtype_size(t->dtype);
    nc_resource *r;
    if (owned) {
      r = nc_resource_create_owned(ctx, v->name, owned->data, bytes, (uint32_t)align);
      owned->data = NULL;
    } else {
      r = nc_resource_create(ctx, v->name, t->data, bytes, (uint32_t)align);
    }
    value = nc_attr_dense_resource(ctx, type, r);
  }
  nc_tensor_destroy(owned); /* its data moved into the resource, or it had none */
  nc_named_attr attr = {nc_ident_get_cstr(ctx, "value"), value};
  nc_op *op = nc_op_create(&(nc_op_state){.ctx = ctx, .name = "graph.constant",
                                          .loc = nc_location_from_attr(name_loc(im, v->name)), .n_attrs = 1,
                                          .attrs = &attr, .n_results = 1, .result_types = &type});
  if (!op)
    return NULL;
  nc_block_append_op(im->body, op);
  v->value = nc_op_get_result(op, 0);
  return v->value;
}

typedef struct first_error {
  char msg[768];
  bool any;
} first_error;

static bool keep_first_error(const nc_diag *d, void *user)
{
  first_error *f = user;
  if (nc_diag_get_severity(d) == NC_SEV_ERROR && !f->any) {
    snprintf(f->msg, sizeof f->msg, "%s", nc_diag_get_message(d));
    f->any = true;
  }
  return true;
}

/* Verifies a new op at once, so that what the ONNX node got wrong (element
 * types the op does not take, say) is reported against the node. */
static bool verify_new_op(node_ctx *nc, nc_op *op)
{
  first_error f = {.any = false};
  unsigned h = nc_context_push_diag_handler(nc->im->ctx, keep_first_error, &f);
  bool ok = nc_op_verify(op);
  nc_context_pop_diag_handler(nc->im->ctx, h);
  return ok || imp_error(nc, "%s", f.any ? f.msg : "the graph op built for it does not verify");
}

static nc_op *create_op(node_ctx *nc, const char *name, nc_attr *loc, size_t n_operands, imp_value *const *operands,
                        const imp_attrs *attrs, size_t n_results, nc_type *const *types)
{
  nc_value *vals[64], **vp = n_operands <= 64 ? vals : nc_arena_alloc(nc->im->arena, n_operands * sizeof *vp);
  size_t k = 0;
  for (size_t i = 0; i < n_operands; i++) {
    if (!operands[i])
      continue;
    if (!(vp[k++] = imp_materialize(nc->im, operands[i])))
      return NULL;
  }
  nc_op *op = nc_op_create(&(nc_op_state){.ctx = nc->im->ctx, .name = name,
                                          .loc = nc_location_from_attr(loc), .n_operands = k, .operands = vp,
                                          .n_results = n_results, .result_types = types,
                                          .n_attrs = attrs ? attrs->n : 0, .attrs = attrs ? attrs->a : NULL});
  if (!op)
    return NULL;
  nc_block_append_op(nc->im->body, op);
  return verify_new_op(nc, op) ? op : NULL;
}

nc_op *imp_emit(node_ctx *nc, const char *name, size_t n_operands, imp_value *const *operands,
                const imp_attrs *attrs, size_t n_results, const imp_type *result_types)
{
  if (nc->capture && n_results == 1) {
    imp_value *v = imp_emit_temp(nc, "float", name, n_operands, operands, attrs, result_types);
    *nc->capture = v;
    return v ? nc_value_get_defining_op(v->value) : NULL;
  }
  nc_type *types[16], **tp = n_results <= 16 ? types : nc_arena_alloc(nc->im->arena, n_results * sizeof *tp);
  imp_type *rt = nc_arena_alloc(nc->im->arena, (n_results ? n_results : 1) * sizeof *rt);
  for (size_t i = 0; i < n_results; i++) {
    rt[i] = result_types[i];
    if (i < nc->n->n_output && *nc->n->output[i] && !check_declared(nc, nc->n->output[i], &rt[i]))
      return NULL;
    tp[i] = imp_nc_type(nc->im->ctx, &rt[i]);
  }
  nc_op *op = create_op(nc, name, nc->loc, n_operands, operands, attrs, n_results, tp);
  if (!op)
    return NULL;
  for (size_t i = 0; i < n_results && i < nc->n->n_output; i++) {
    if (!*nc->n->output[i])
      continue;
    imp_value *v = define_output(nc, i);
    if (!v)
      return NULL;
    v->type = rt[i];
    v->value = nc_op_get_result(op, (unsigned)i);
  }
  return op;
}

imp_value *imp_emit_temp(node_ctx *nc, const char *role, const char *name, size_t n_operands,
                         imp_value *const *operands, const imp_attrs *attrs, const imp_type *result_type)
{
  nc_type *type = imp_nc_type(nc->im->ctx, result_type);
  nc_attr *loc = nc->loc;
  if (*nc->n->name) { /* "<node>/<role>": unique, and what the exporter names the node */
    char *s = nc_arena_alloc(nc->im->arena, strlen(nc->n->name) + strlen(role) + 2);
    sprintf(s, "%s/%s", nc->n->name, role);
    loc = name_loc(nc->im, s);
  }
  nc_op *op = create_op(nc, name, loc, n_operands, operands, attrs, 1, &type);
  if (!op)
    return NULL;
  imp_value *v = new_value(nc->im, "");
  v->type = *result_type;
  v->value = nc_op_get_result(op, 0);
  return v;
}

/* ---- the graph ------------------------------------------------------------------------------------------ */

/* Orders the nodes so that every input is defined before it is used (ONNX
 * requires it, but not every producer complies). NULL + error on a cycle. */
static size_t *topo_order(importer *im, const Onnx__GraphProto *g)
{
  size_t n = g->n_node;
  size_t *order = nc_xmalloc((n ? n : 1) * sizeof *order);
  name_map producer = {0};
  for (size_t i = 0; i < n; i++)
    for (size_t k = 0; k < g->node[i]->n_output; k++)
      if (*g->node[i]->output[k] && !map_get(&producer, g->node[i]->output[k]))
        map_put(&producer, g->node[i]->output[k], (void *)(uintptr_t)(i + 1));
  /* Fast path: already sorted. */
  bool sorted = true;
  for (size_t i = 0; sorted && i < n; i++)
    for (size_t k = 0; sorted && k < g->node[i]->n_input; k++) {
      uintptr_t p = (uintptr_t)map_get(&producer, g->node[i]->input[k]);
      sorted = !p || p - 1 < i;
    }
  if (sorted) {
    for (size_t i = 0; i < n; i++)
      order[i] = i;
    map_free(&producer);
    return order;
  }
  /* Kahn's algorithm over producer -> consumer edges. */
  size_t *indeg = nc_xcalloc(n, sizeof *indeg), *start = nc_xcalloc(n + 1, sizeof *start), n_edges = 0;
  for (size_t i = 0; i < n; i++)
    for (size_t k = 0; k < g->node[i]->n_input; k++) {
      uintptr_t p = (uintptr_t)map_get(&producer, g->node[i]->input[k]);
      if (p) {
        indeg[i]++;
        start[p - 1 + 1]++;
        n_edges++;
      }
    }
  for (size_t i = 0; i < n; i++)
    start[i + 1] += start[i];
  size_t *fill = nc_xmalloc((n ? n : 1) * sizeof *fill), *edges = nc_xmalloc((n_edges ? n_edges : 1) * sizeof *edges);
  memcpy(fill, start, n * sizeof *fill);
  for (size_t i = 0; i < n; i++)
    for (size_t k = 0; k < g->node[i]->n_input; k++) {
      uintptr_t p = (uintptr_t)map_get(&producer, g->node[i]->input[k]);
      if (p)
        edges[fill[p - 1]++] = i;
    }
  size_t head = 0, tail = 0;
  for (size_t i = 0; i < n; i++)
    if (!indeg[i])
      order[tail++] = i;
  while (head < tail) {
    size_t u = order[head++];
    for (size_t e = start[u]; e < start[u + 1]; e++)
      if (!--indeg[edges[e]])
        order[tail++] = edges[e];
  }
  free(indeg);
  free(start);
  free(fill);
  free(edges);
  map_free(&producer);
  if (tail < n) {
    free(order);
    model_error(im, "the graph has a cycle (%zu nodes depend on each other)", n - tail);
    return NULL;
  }
  return order;
}

static bool import_node(importer *im, const Onnx__NodeProto *n, size_t index)
{
  import_state *st = STATE(im);
  node_ctx nc = {.im = im, .n = n, .index = index, .op_type = n->op_type};
  nc.loc = name_loc(im, n->name);
  const char *d = n->domain;
  nc.op = !*d || !strcmp(d, "ai.onnx") ? imp_find_handler(n->op_type) : imp_find_domain_handler(d, n->op_type);
  if (!nc.op)
    return imp_unsupported_op(&nc, NULL);
  if (im->opset > NC_ONNX_IMPORT_MAX_OPSET)
    return imp_unsupported_op(&nc, "nc imports opsets %d to %d", NC_ONNX_IMPORT_MIN_OPSET, NC_ONNX_IMPORT_MAX_OPSET);
  if (im->opset < nc.op->since)
    return imp_unsupported_op(&nc, "%s exists from opset %d on", n->op_type, nc.op->since);
  char nb[160];
  nc.used = nc_arena_calloc(im->arena, (n->n_attribute ? n->n_attribute : 1) * sizeof *nc.used);
  for (size_t i = 0; i < n->n_attribute; i++) {
    const Onnx__AttributeProto *a = n->attribute[i];
    if (a->ref_attr_name && *a->ref_attr_name)
      return imp_error(&nc, "attribute '%s' refers to a function attribute, which only functions may do",
                       onnx_clean_name(a->name, nb, sizeof nb));
    for (size_t j = 0; j < i; j++)
      if (!strcmp(n->attribute[j]->name, a->name))
        return imp_error(&nc, "attribute '%s' appears twice", onnx_clean_name(a->name, nb, sizeof nb));
  }
  imp_attr_ignore(&nc, "consumed_inputs"); /* an opset 1-5 memory hint */
  nc.n_in = n->n_input;
  nc.in = nc_arena_calloc(im->arena, (n->n_input ? n->n_input : 1) * sizeof *nc.in);
  for (size_t i = 0; i < n->n_input; i++) {
    if (!*n->input[i])
      continue;
    if (!(nc.in[i] = map_get(&st->values, n->input[i])))
      return imp_error(&nc, "input '%s' is not defined by a node, an initializer or a graph input",
                       onnx_clean_name(n->input[i], nb, sizeof nb));
  }
  size_t errors = nc_context_get_num_errors(im->ctx);
  if (!nc.op->fn(&nc) || nc_context_get_num_errors(im->ctx) != errors)
    return false;
  for (size_t i = 0; i < n->n_attribute; i++)
    if (!nc.used[i])
      return imp_unsupported(&nc, "attribute '%s'", onnx_clean_name(n->attribute[i]->name, nb, sizeof nb));
  return true;
}

/* A function name from the graph name: letters, digits, '_', '$', '.'. */
static const char *func_name(importer *im, const char *graph_name)
{
  if (!*graph_name)
    return "main";
  size_t n = strlen(graph_name);
  char *s = nc_arena_alloc(im->arena, n + 2), *o = s;
  if (!((graph_name[0] >= 'a' && graph_name[0] <= 'z') || (graph_name[0] >= 'A' && graph_name[0] <= 'Z') ||
        graph_name[0] == '_'))
    *o++ = '_';
  for (const char *c = graph_name; *c; c++)
    *o++ = (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') || *c == '_' ||
                   *c == '$' || *c == '.'
               ? *c
               : '_';
  *o = 0;
  return s;
}

static bool import_inputs(importer *im, const Onnx__GraphProto *g)
{
  import_state *st = STATE(im);
  char nb[160];
  for (size_t i = 0; i < g->n_initializer; i++) {
    const Onnx__TensorProto *t = g->initializer[i];
    if (map_get(&st->values, t->name))
      return model_error(im, "initializer '%s' is defined twice", onnx_clean_name(t->name, nb, sizeof nb));
    imp_value *v = new_value(im, t->name);
    v->init = t;
    nc_dtype dt;
    if (!nc_onnx_data_type_to_dtype(t->data_type, &dt))
      dt = NC_DT_F32; /* refused when used */
    v->type = (imp_type){.dt = dt, .rank = t->n_dims <= NC_TENSOR_MAX_RANK ? (int)t->n_dims : -1};
    for (int k = 0; k < v->type.rank; k++)
      v->type.dims[k] = t->dims[k];
    map_put(&st->values, t->name, v);
  }
  for (size_t i = 0; i < g->n_sparse_initializer; i++) {
    const Onnx__SparseTensorProto *sp = g->sparse_initializer[i];
    const char *name = sp->values->name;
    char err[512];
    if (!*name)
      return model_error(im, "sparse initializer #%zu has no name", i);
    if (map_get(&st->values, name))
      return model_error(im, "initializer '%s' is defined twice", onnx_clean_name(name, nb, sizeof nb));
    nc_tensor *t = imp_densify(im, sp, err, sizeof err);
    if (!t)
      return model_error(im, "sparse initializer '%s': %s", onnx_clean_name(name, nb, sizeof nb), err);
    imp_value *v = new_value(im, name);
    v->known = t;
    v->type = imp_type_of_tensor(t);
    map_put(&st->values, name, v);
  }
  for (size_t i = 0; i < g->n_input; i++) {
    const Onnx__ValueInfoProto *vi = g->input[i];
    const char *name = vi->name;
    if (!*name)
      return model_error(im, "graph input #%zu has no name", i);
    imp_value *init = map_get(&st->values, name);
    if (init) {
      if (init->init)
        continue; /* opset <= 9 style: an initializer listed as an input is a constant */
      return model_error(im, "graph input '%s' is listed twice", onnx_clean_name(name, nb, sizeof nb));
    }
    imp_type t;
    int32_t et;
    if (!imp_type_from_value_info(vi, &t, &et)) {
      if (et == NC_ONNX_UNDEFINED)
        return model_error(im, "graph input '%s' is not a tensor", onnx_clean_name(name, nb, sizeof nb));
      int64_t dims[1];
      if (nc_onnx_value_info_get_shape(vi, dims, 1) > NC_TENSOR_MAX_RANK)
        return model_error(im, "graph input '%s' has a rank above %d, the most nc supports",
                           onnx_clean_name(name, nb, sizeof nb), NC_TENSOR_MAX_RANK);
      return model_error(im, "graph input '%s' has element type %s, which nc does not support",
                         onnx_clean_name(name, nb, sizeof nb), nc_onnx_data_type_name(et));
    }
    if (t.rank < 0)
      return model_error(im, "graph input '%s' has no shape; nc needs at least its rank",
                         onnx_clean_name(name, nb, sizeof nb));
    /* dims of one dim_param name share a symbol */
    const Onnx__TensorShapeProto *shape = vi->type->tensor_type->shape;
    for (int k = 0; k < t.rank; k++) {
      if (t.dims[k] >= 0)
        continue;
      const Onnx__TensorShapeProto__Dimension *d = shape->dim[k];
      bool named =
        d->value_case == ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_PARAM && d->dim_param && *d->dim_param;
      intptr_t sym = named ? (intptr_t)map_get(&st->dim_params, d->dim_param) : 0;
      if (!sym) {
        sym = imp_fresh_sym(im);
        if (named)
          map_put(&st->dim_params, d->dim_param, (void *)sym);
      }
      t.sym[k] = (int32_t)sym;
    }
    imp_value *v = new_value(im, name);
    v->type = t;
    v->value = nc_block_add_arg(im->body, imp_nc_type(im->ctx, &t), nc_location_from_attr(name_loc(im, name)));
    map_put(&st->values, name, v);
  }
  return true;
}

static nc_op *import_graph(importer *im)
{
  import_state *st = STATE(im);
  const Onnx__GraphProto *g = im->g;
  nc_context *ctx = im->ctx;
  char nb[160];
  for (size_t i = 0; i < g->n_value_info; i++)
    map_put(&st->infos, g->value_info[i]->name, (void *)g->value_info[i]);
  for (size_t i = 0; i < g->n_output; i++)
    map_put(&st->infos, g->output[i]->name, (void *)g->output[i]);
  for (size_t i = 0; i < g->n_node; i++)
    for (size_t k = 0; k < g->node[i]->n_input; k++)
      if (*g->node[i]->input[k])
        map_put(&st->users, g->node[i]->input[k], (void *)1);
  for (size_t i = 0; i < g->n_output; i++)
    map_put(&st->users, g->output[i]->name, (void *)1);
  for (size_t i = 0; i < g->n_initializer; i++)
    im->budget += 2 * (g->initializer[i]->has_raw_data ? g->initializer[i]->raw_data.len : 0);

  im->body = nc_block_create(ctx);
  if (!import_inputs(im, g)) {
    nc_block_destroy(im->body);
    return NULL;
  }
  size_t *order = topo_order(im, g);
  bool ok = order != NULL;
  for (size_t i = 0; ok && i < g->n_node; i++)
    ok = import_node(im, g->node[order[i]], order[i]);
  free(order);

  size_t n_out = g->n_output;
  nc_value **rets = nc_arena_alloc(im->arena, (n_out ? n_out : 1) * sizeof *rets);
  nc_type **ret_types = nc_arena_alloc(im->arena, (n_out ? n_out : 1) * sizeof *ret_types);
  for (size_t i = 0; ok && i < n_out; i++) {
    const char *name = g->output[i]->name;
    imp_value *v = *name ? map_get(&st->values, name) : NULL;
    if (!v) {
      ok = model_error(im, "graph output '%s' is not produced by any node, initializer or input",
                       onnx_clean_name(name, nb, sizeof nb));
      break;
    }
    ok = (rets[i] = imp_materialize(im, v)) != NULL;
    if (ok)
      ret_types[i] = nc_value_get_type(rets[i]);
  }
  if (!ok) {
    nc_block_destroy(im->body);
    return NULL;
  }
  nc_location floc = nc_location_from_attr(im->file_loc);
  nc_op *ret = nc_op_create(&(nc_op_state){.ctx = ctx, .name = "func.return", .loc = floc, .n_operands = n_out,
                                           .operands = rets});
  if (!ret) {
    nc_block_destroy(im->body);
    return NULL;
  }
  nc_block_append_op(im->body, ret);
  size_t n_args = nc_block_get_num_args(im->body);
  nc_type **arg_types = nc_arena_alloc(im->arena, (n_args ? n_args : 1) * sizeof *arg_types);
  for (size_t i = 0; i < n_args; i++)
    arg_types[i] = nc_value_get_type(nc_block_get_arg(im->body, i));
  nc_type *fty = nc_type_function(ctx, n_args, arg_types, n_out, ret_types);
  nc_named_attr fattrs[2] = {
    {nc_ident_get_cstr(ctx, "sym_name"), nc_attr_string_cstr(ctx, func_name(im, g->name))},
    {nc_ident_get_cstr(ctx, "function_type"), nc_attr_type(ctx, fty)},
  };
  nc_op *func = nc_op_create(&(nc_op_state){.ctx = ctx, .name = "func.func", .loc = floc, .n_attrs = 2,
                                            .attrs = fattrs, .n_regions = 1});
  if (!func) {
    nc_block_destroy(im->body);
    return NULL;
  }
  nc_region_append_block(nc_op_get_region(func, 0), im->body);
  nc_op *module = nc_module_create(ctx, floc);
  nc_block_append_op(nc_module_get_body(module), func);
  return module;
}

nc_op *nc_onnx_import_model(nc_context *ctx, const nc_onnx_model *model, const char *label)
{
  if (!label)
    label = model->path ? model->path : "<memory>";
  import_state st = {0};
  importer *im = &st.im;
  im->ctx = ctx;
  im->model = model;
  im->g = model->proto->graph;
  im->label = label;
  im->file_loc = nc_loc_file(ctx, nc_ident_get_cstr(ctx, label), 0, 0);
  im->arena = nc_arena_create();
  im->budget = FOLD_BUDGET_BASE;
  im->opset = nc_onnx_model_get_opset(model, "");
  nc_op *module = NULL;
  if (im->opset < 0 && model->proto->n_opset_import == 0 && model->proto->has_ir_version &&
      model->proto->ir_version < 3)
    im->opset = 1; /* IR version 1 and 2 models predate opset_import */
  if (im->opset < 0 && nc_onnx_model_has_opset(model, ""))
    model_error(im, "opset %lld of the default domain is not a valid opset version (nc imports opsets %d to %d)",
                (long long)im->opset, NC_ONNX_IMPORT_MIN_OPSET, NC_ONNX_IMPORT_MAX_OPSET);
  else if (im->opset < 0)
    model_error(im, "the model does not import the default ONNX domain (no opset_import for \"\")");
  else if (im->opset < NC_ONNX_IMPORT_MIN_OPSET)
    model_error(im, "opset %lld of the default domain is not supported (nc imports opsets %d to %d)",
                (long long)im->opset, NC_ONNX_IMPORT_MIN_OPSET, NC_ONNX_IMPORT_MAX_OPSET);
  else
    module = import_graph(im);
  for (size_t i = 0; i < st.n_owned; i++) {
    nc_tensor_destroy(st.owned[i]->known);
    nc_tensor_destroy(st.owned[i]->splat);
    free(st.owned[i]);
  }
  free(st.owned);
  map_free(&st.values);
  map_free(&st.infos);
  map_free(&st.users);
  map_free(&st.dim_params);
  nc_arena_destroy(im->arena);
  return module;
}

/* The loader prefixes its messages with "<path>: "; diagnostics carry the
 * path in their location instead. */
static const char *strip_prefix(const char *msg, const char *path)
{
  size_t n = strlen(path);
  return !strncmp(msg, path, n) && msg[n] == ':' && msg[n + 1] == ' ' ? msg + n + 2 : msg;
}

nc_op *nc_onnx_import_file(nc_context *ctx, const char *path)
{
  char err[1024];
  nc_onnx_model *m = nc_onnx_model_load(path, err, sizeof err);
  if (!m) {
    nc_emit_error(ctx, nc_location_from_attr(nc_loc_file(ctx, nc_ident_get_cstr(ctx, path), 0, 0)), "%s",
                  strip_prefix(err, path));
    return NULL;
  }
  nc_op *module = nc_onnx_import_model(ctx, m, path);
  nc_onnx_model_destroy(m);
  return module;
}

nc_op *nc_onnx_import_from_memory(nc_context *ctx, const void *buf, size_t len, const char *label,
                                  const char *base_dir)
{
  char err[1024];
  if (!label)
    label = "<memory>";
  nc_onnx_model *m = nc_onnx_model_load_from_memory(buf, len, base_dir, err, sizeof err);
  if (!m) {
    nc_emit_error(ctx, nc_location_from_attr(nc_loc_file(ctx, nc_ident_get_cstr(ctx, label), 0, 0)), "%s", err);
    return NULL;
  }
  nc_op *module = nc_onnx_import_model(ctx, m, label);
  nc_onnx_model_destroy(m);
  return module;
}
