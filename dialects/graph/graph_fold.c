/* graph_fold.c: folds of the graph ops and the dialect's constant
 * materializer.
 *
 * Folds here are the structural ones canonicalize should always do: no-op
 * data movement (identity, reshapes to the same type, identity transposes,
 * casts to the same type, one-operand sum/max/min/mean, pools whose windows
 * are single elements, pads of zero size) disappears; chains of
 * reshapes and of transposes collapse; reshaping a `dense` constant gives a
 * constant. Two canonicalization patterns finish the job: a flatten,
 * squeeze or unsqueeze of a single-use reshape-like op becomes one
 * graph.reshape of the original input (so flatten chains collapse; pairs
 * that cancel, such as unsqueeze/squeeze, fold away in any case),
 * and a transpose that only moves size-1 dims becomes a graph.reshape; a
 * constant-zero pad before a conv or average pool becomes its padding; a
 * float reduce_mean / reduce_max over the two spatial dims of [N, C, H, W]
 * becomes a global pool.
 * Arithmetic on constants is left to the constant-folding pass,
 * which evaluates ops with the reference interpreter. A fold never replaces a
 * value by one of another type, so no user's type changes.
 */
#include <stdlib.h>
#include <string.h>

#include "graph_internal.h"
#include "nc/ir/rewrite.h"

bool graph_fold_constant(nc_op *op, nc_attr *const *consts, nc_fold_result *results)
{
  (void)consts;
  nc_attr *v = nc_op_get_attr_str(op, "value");
  if (!v)
    return false;
  results[0].attr = v;
  return true;
}

/* Folds op to its first operand when that has the result's type. */
static bool to_operand(nc_op *op, nc_fold_result *results)
{
  nc_value *x = nc_op_get_operand(op, 0);
  if (nc_value_get_type(x) != nc_value_get_type(nc_op_get_result(op, 0)))
    return false;
  results[0].value = x;
  return true;
}

bool graph_fold_identity(nc_op *op, nc_attr *const *consts, nc_fold_result *results)
{
  (void)consts;
  return to_operand(op, results);
}

bool graph_fold_cast(nc_op *op, nc_attr *const *consts, nc_fold_result *results)
{
  (void)consts;
  return to_operand(op, results);
}

bool graph_fold_variadic(nc_op *op, nc_attr *const *consts, nc_fold_result *results)
{
  (void)consts;
  return nc_op_get_num_operands(op) == 1 && to_operand(op, results);
}

/* A pool whose every window is one input element (kernel 1, stride 1, so
 * with the result's type the input's there is no padding): the input. Such
 * pools come from adaptive pools exported at their input's size (vgg's
 * 7x7 -> 7x7 avgpool). */
bool graph_fold_pool(nc_op *op, nc_attr *const *consts, nc_fold_result *results)
{
  (void)consts;
  nc_pool_params p;
  nc_type *t = nc_value_get_type(nc_op_get_operand(op, 0));
  if (nc_op_get_num_results(op) != 1 || !nc_type_is_tensor(t) || nc_type_get_rank(t) < 3 ||
      nc_type_get_rank(t) > 2 + NC_KERNEL_MAX_SPATIAL || !nc_graph_get_pool_params(op, &p))
    return false;
  for (size_t i = 0; i + 2 < nc_type_get_rank(t); i++)
    if (p.kernel_shape[i] != 1 || (p.strides[i] != 0 && p.strides[i] != 1))
      return false;
  return to_operand(op, results);
}

/* A pad of zero everywhere: the input. */
bool graph_fold_pad(nc_op *op, nc_attr *const *consts, nc_fold_result *results)
{
  (void)consts;
  size_t n;
  const int64_t *pads = nc_graph_attr_ints(op, "pads", &n);
  for (size_t i = 0; pads && i < n; i++)
    if (pads[i])
      return false;
  return pads && to_operand(op, results);
}

/* A global pool of a plane of one element: the input. */
bool graph_fold_global_pool(nc_op *op, nc_attr *const *consts, nc_fold_result *results)
{
  (void)consts;
  return to_operand(op, results);
}

static bool is_reshape_like(int kind)
{
  return kind == G_RESHAPE || kind == G_FLATTEN || kind == G_SQUEEZE || kind == G_UNSQUEEZE;
}

bool graph_fold_reshape(nc_op *op, nc_attr *const *consts, nc_fold_result *results)
{
  if (to_operand(op, results))
    return true;
  nc_context *ctx = nc_op_get_context(op);
  nc_value *res = nc_op_get_result(op, 0);
  nc_type *rt = nc_value_get_type(res);
  /* a reshape-like op undoing another (unsqueeze of squeeze, ...) */
  nc_op *def = nc_value_get_defining_op(nc_op_get_operand(op, 0));
  if (def && is_reshape_like(graph_kind_of(def)) && nc_value_get_type(nc_op_get_operand(def, 0)) == rt) {
    results[0].value = nc_op_get_operand(def, 0);
    return true;
  }
  if (!nc_type_has_static_shape(rt))
    return false;
  /* a reshaped dense constant is a constant with the same bytes */
  if (consts && consts[0] && nc_attr_get_kind(consts[0]) == NC_ATTR_DENSE_ELEMENTS) {
    size_t nbytes;
    const void *data = nc_attr_dense_get_data(consts[0], &nbytes);
    nc_attr *c = nc_attr_dense_elements(ctx, rt, data, nbytes);
    if (c) {
      results[0].attr = c;
      return true;
    }
  }
  /* reshape(reshape-like(x)) -> reshape(x) with the static result shape */
  nc_op *inner = nc_value_get_defining_op(nc_op_get_operand(op, 0));
  if (graph_kind_of(op) != G_RESHAPE || !inner || !is_reshape_like(graph_kind_of(inner)))
    return false;
  size_t rank = nc_type_get_rank(rt);
  const int64_t *dims = nc_type_get_shape(rt);
  bool has_zero = false;
  for (size_t i = 0; i < rank; i++)
    has_zero |= dims[i] == 0;
  nc_op_set_operand(op, 0, nc_op_get_operand(inner, 0));
  nc_op_set_attr_str(op, "shape", nc_attr_dense_i64_array(ctx, rank, dims));
  if (has_zero)
    nc_op_set_attr_str(op, "allowzero", nc_attr_integer(ctx, nc_type_integer(ctx, 64, NC_SIGNLESS), 1));
  else
    nc_op_remove_attr(op, nc_ident_get_cstr(ctx, "allowzero"));
  results[0].value = res;
  return true;
}

/* The permutation of a transpose (perm or reversed dims); false if malformed. */
static bool get_perm(nc_op *op, int64_t *perm, size_t *rank)
{
  nc_type *t = nc_value_get_type(nc_op_get_operand(op, 0));
  *rank = nc_type_get_rank(t);
  if (*rank > NC_MAX_RANK)
    return false;
  size_t n;
  const int64_t *p = nc_graph_attr_ints(op, "perm", &n);
  if (p && n != *rank)
    return false;
  for (size_t i = 0; i < *rank; i++)
    perm[i] = p ? p[i] : (int64_t)(*rank - 1 - i);
  return true;
}

bool graph_fold_transpose(nc_op *op, nc_attr *const *consts, nc_fold_result *results)
{
  (void)consts;
  int64_t perm[NC_MAX_RANK], inner_perm[NC_MAX_RANK];
  size_t rank, inner_rank;
  if (!get_perm(op, perm, &rank))
    return false;
  bool identity = true;
  for (size_t i = 0; i < rank; i++)
    identity &= perm[i] == (int64_t)i;
  if (identity)
    return to_operand(op, results);
  /* transpose(transpose(x, p1), p2) = transpose(x, p1[p2[i]]) */
  nc_op *inner = nc_value_get_defining_op(nc_op_get_operand(op, 0));
  if (!inner || graph_kind_of(inner) != G_TRANSPOSE || !get_perm(inner, inner_perm, &inner_rank) ||
      inner_rank != rank)
    return false;
  int64_t composed[NC_MAX_RANK];
  for (size_t i = 0; i < rank; i++) {
    if (perm[i] < 0 || perm[i] >= (int64_t)rank)
      return false;
    composed[i] = inner_perm[perm[i]];
  }
  nc_context *ctx = nc_op_get_context(op);
  nc_op_set_operand(op, 0, nc_op_get_operand(inner, 0));
  nc_op_set_attr_str(op, "perm", nc_attr_dense_i64_array(ctx, rank, composed));
  results[0].value = nc_op_get_result(op, 0);
  return true;
}

/* --- canonicalization patterns ------------------------------------------------------------------------------ */

/* Replaces op by graph.reshape(x) to op's static result type. */
static bool replace_by_reshape(nc_op *op, nc_value *x, nc_rewriter *rw)
{
  nc_context *ctx = nc_rewriter_get_context(rw);
  nc_type *rt = nc_value_get_type(nc_op_get_result(op, 0));
  size_t rank = nc_type_get_rank(rt);
  const int64_t *dims = nc_type_get_shape(rt);
  bool has_zero = false;
  for (size_t i = 0; i < rank; i++)
    has_zero |= dims[i] == 0;
  nc_named_attr attrs[2] = {{nc_ident_get_cstr(ctx, "shape"), nc_attr_dense_i64_array(ctx, rank, dims)},
                            {nc_ident_get_cstr(ctx, "allowzero"),
                             nc_attr_integer(ctx, nc_type_integer(ctx, 64, NC_SIGNLESS), 1)}};
  nc_op *r = nc_rewriter_create(rw, &(nc_op_state){.ctx = ctx, .name = "graph.reshape", .loc = nc_op_get_loc(op),
                                                   .n_operands = 1, .operands = &x, .n_results = 1,
                                                   .result_types = &rt, .n_attrs = has_zero ? 2 : 1,
                                                   .attrs = attrs});
  if (!r)
    return false;
  nc_rewriter_replace_op_with_op(rw, op, r);
  return true;
}

/* flatten / squeeze / unsqueeze of a reshape-like op that nothing else uses:
 * one reshape of the original input (graph.reshape does this in its fold,
 * whatever the uses; here an inner op that stays keeps its readable form). */
static bool compose_reshape_like(nc_op *op, nc_rewriter *rw)
{
  nc_value *x = nc_op_get_operand(op, 0);
  nc_op *inner = nc_value_get_defining_op(x);
  if (!inner || !is_reshape_like(graph_kind_of(inner)) || !nc_value_has_one_use(x) ||
      !nc_type_has_static_shape(nc_value_get_type(nc_op_get_result(op, 0))))
    return false;
  return replace_by_reshape(op, nc_op_get_operand(inner, 0), rw);
}

/* A transpose that keeps the order of the dims other than size-1 ones moves
 * no data: it is a reshape. */
static bool transpose_to_reshape(nc_op *op, nc_rewriter *rw)
{
  int64_t perm[NC_MAX_RANK];
  size_t rank;
  nc_value *x = nc_op_get_operand(op, 0);
  nc_type *xt = nc_value_get_type(x);
  if (!get_perm(op, perm, &rank) || !nc_type_has_static_shape(xt))
    return false;
  const int64_t *dims = nc_type_get_shape(xt);
  int64_t last = -1;
  for (size_t i = 0; i < rank; i++) {
    if (perm[i] < 0 || perm[i] >= (int64_t)rank)
      return false;
    if (dims[perm[i]] == 1)
      continue;
    if (perm[i] < last)
      return false;
    last = perm[i];
  }
  return replace_by_reshape(op, x, rw);
}

/* A transpose that moves a leading dim of size one (a batch of one) away
 * from the front: inserting or removing a size-1 dim anywhere leaves the
 * row-major order of the elements alone, so it is the transpose that keeps
 * that dim first and orders the others as `perm` does, then a reshape to
 * the result's shape. The levels below run transposes whose batch of one
 * stays first (a copy layer with `perm`); the reshape composes with its
 * readers' (a flatten after an NCHW -> HWNC permute becomes an NHWC one).
 * Not when it reads or feeds a transpose: the two compose first (fold). */
static bool transpose_keep_unit_batch_first(nc_op *op, nc_rewriter *rw)
{
  int64_t perm[NC_MAX_RANK], keep[NC_MAX_RANK], kdims[NC_MAX_RANK];
  size_t rank;
  nc_value *x = nc_op_get_operand(op, 0);
  nc_type *xt = nc_value_get_type(x), *rt = nc_value_get_type(nc_op_get_result(op, 0));
  if (!get_perm(op, perm, &rank) || rank < 2 || !nc_type_has_static_shape(xt) || !nc_type_has_static_shape(rt) ||
      nc_type_get_shape(xt)[0] != 1 || perm[0] == 0)
    return false;
  nc_op *d = nc_value_get_defining_op(x);
  if (d && graph_kind_of(d) == G_TRANSPOSE)
    return false;
  for (nc_use *u = nc_value_get_first_use(nc_op_get_result(op, 0)); u; u = nc_use_get_next(u))
    if (graph_kind_of(nc_use_get_owner(u)) == G_TRANSPOSE)
      return false;
  const int64_t *dims = nc_type_get_shape(xt);
  keep[0] = 0, kdims[0] = 1;
  for (size_t i = 0, k = 1; i < rank; i++) {
    if (perm[i] < 0 || perm[i] >= (int64_t)rank)
      return false;
    if (perm[i] != 0) {
      keep[k] = perm[i];
      kdims[k++] = dims[perm[i]];
    }
  }
  nc_context *ctx = nc_rewriter_get_context(rw);
  nc_type *kt = nc_type_tensor(ctx, rank, kdims, nc_type_get_element_type(xt), NULL);
  nc_named_attr attr = {nc_ident_get_cstr(ctx, "perm"), nc_attr_dense_i64_array(ctx, rank, keep)};
  nc_op *t = nc_rewriter_create(rw, &(nc_op_state){.ctx = ctx, .name = "graph.transpose", .loc = nc_op_get_loc(op),
                                                   .n_operands = 1, .operands = &x, .n_results = 1,
                                                   .result_types = &kt, .n_attrs = 1, .attrs = &attr});
  return t && replace_by_reshape(op, nc_op_get_result(t, 0), rw);
}

/* conv / avg_pool of a constant-zero graph.pad that pads only spatial dims
 * (by >= 0): the pad becomes the window's own padding (the pads add up).
 * An average pool must count the padded zeros as the pad op did: it folds
 * when it has count_include_pad, or no padding of its own (it then gets
 * count_include_pad; a ceil_mode window past the end padding counts the
 * same positions either way). Torch exports nn.ZeroPad2d / F.pad this way. */
static bool fold_pad_into_window(nc_op *op, nc_rewriter *rw)
{
  nc_value *x = nc_op_get_operand(op, 0);
  nc_op *pad = nc_value_get_defining_op(x);
  if (!pad || graph_kind_of(pad) != G_PAD || strcmp(nc_graph_attr_string(pad, "mode", "constant"), "constant") ||
      strcmp(nc_graph_attr_string(op, "auto_pad", "NOTSET"), "NOTSET"))
    return false;
  nc_attr *value = nc_op_get_attr_str(pad, "value");
  if (value && nc_attr_get_float(value) != 0.0)
    return false;
  size_t rank = nc_type_get_rank(nc_value_get_type(x)), np, no;
  const int64_t *pp = nc_graph_attr_ints(pad, "pads", &np), *own = nc_graph_attr_ints(op, "pads", &no);
  size_t nsp = rank - 2;
  if (rank < 3 || rank > NC_MAX_RANK || !pp || np != 2 * rank || (own && no != 2 * nsp))
    return false;
  bool avg = graph_kind_of(op) == G_AVG_POOL, has_own = false;
  int64_t sum[2 * NC_MAX_RANK];
  for (size_t e = 0; e < 2; e++) {
    if (pp[e * rank] || pp[e * rank + 1]) /* batch and channel dims */
      return false;
    for (size_t i = 0; i < nsp; i++) {
      int64_t p = pp[e * rank + 2 + i], o = own ? own[e * nsp + i] : 0;
      if (p < 0)
        return false;
      has_own |= o != 0;
      sum[e * nsp + i] = p + o;
    }
  }
  if (avg && has_own && !nc_graph_attr_int(op, "count_include_pad", 0))
    return false;
  nc_context *ctx = nc_op_get_context(op);
  nc_op_set_operand(op, 0, nc_op_get_operand(pad, 0));
  nc_op_set_attr_str(op, "pads", nc_attr_dense_i64_array(ctx, 2 * nsp, sum));
  if (avg)
    nc_op_set_attr_str(op, "count_include_pad", nc_attr_integer(ctx, nc_type_integer(ctx, 64, NC_SIGNLESS), 1));
  nc_rewriter_modified(rw, op);
  return true;
}

/* reshape [N, C, H, W] -> [N, g, C/g, H, W], transpose (0, 2, 1, 3, 4),
 * reshape to [N, C, H, W] (ShuffleNet's channel shuffle as torch exports
 * it): one graph.channel_shuffle, a layer the targets can move data by. */
static bool form_channel_shuffle(nc_op *op, nc_rewriter *rw)
{
  nc_op *tr = nc_value_get_defining_op(nc_op_get_operand(op, 0));
  nc_op *r1 = tr && graph_kind_of(tr) == G_TRANSPOSE ? nc_value_get_defining_op(nc_op_get_operand(tr, 0)) : NULL;
  if (!r1 || graph_kind_of(r1) != G_RESHAPE || !nc_value_has_one_use(nc_op_get_result(tr, 0)))
    return false;
  nc_value *x = nc_op_get_operand(r1, 0);
  nc_type *xt = nc_value_get_type(x), *mt = nc_value_get_type(nc_op_get_result(r1, 0));
  nc_type *yt = nc_value_get_type(nc_op_get_result(op, 0));
  size_t n;
  const int64_t *perm = nc_graph_attr_ints(tr, "perm", &n);
  static const int64_t shuffle[5] = {0, 2, 1, 3, 4};
  if (!perm || n != 5 || memcmp(perm, shuffle, sizeof shuffle) || nc_type_get_kind(xt) != NC_TYPE_TENSOR ||
      !nc_type_has_static_shape(xt) || !nc_type_has_static_shape(mt) || nc_type_get_rank(xt) != 4 ||
      nc_type_get_rank(mt) != 5 || xt != yt)
    return false;
  const int64_t *xs = nc_type_get_shape(xt), *ms = nc_type_get_shape(mt);
  if (ms[0] != xs[0] || ms[1] * ms[2] != xs[1] || ms[3] != xs[2] || ms[4] != xs[3])
    return false;
  nc_context *ctx = nc_rewriter_get_context(rw);
  nc_named_attr attr = {nc_ident_get_cstr(ctx, "group"), nc_attr_integer(ctx, nc_type_integer(ctx, 64, NC_SIGNLESS),
                                                                          ms[1])};
  nc_op *s = nc_rewriter_create(rw, &(nc_op_state){.ctx = ctx, .name = "graph.channel_shuffle",
                                                   .loc = nc_op_get_loc(op), .n_operands = 1, .operands = &x,
                                                   .n_results = 1, .result_types = &yt, .n_attrs = 1, .attrs = &attr});
  if (!s)
    return false;
  nc_rewriter_replace_op_with_op(rw, op, s);
  return true;
}

/* reduce_mean / reduce_max of an [N, C, H, W] tensor over exactly its two
 * spatial dims (TensorFlow exports and torch's x.mean((2, 3)) write global
 * pooling this way): one global_avg_pool / global_max_pool, a layer the
 * targets run, then a reshape to [N, C] when the dims are not kept. */
static bool reduce_to_global_pool(nc_op *op, nc_rewriter *rw)
{
  nc_value *x = nc_op_get_operand(op, 0);
  nc_type *xt = nc_value_get_type(x), *rt = nc_value_get_type(nc_op_get_result(op, 0));
  size_t n;
  const int64_t *axes = nc_graph_attr_ints(op, "axes", &n);
  if (!axes || n != 2 || nc_type_get_kind(xt) != NC_TYPE_TENSOR || !nc_type_has_static_shape(xt) ||
      nc_type_get_rank(xt) != 4 || !nc_type_is_float(nc_type_get_element_type(xt)))
    return false;
  int64_t a = axes[0] < 0 ? axes[0] + 4 : axes[0], b = axes[1] < 0 ? axes[1] + 4 : axes[1];
  if (!((a == 2 && b == 3) || (a == 3 && b == 2)))
    return false;
  const int64_t *xs = nc_type_get_shape(xt);
  nc_context *ctx = nc_rewriter_get_context(rw);
  int64_t ps[4] = {xs[0], xs[1], 1, 1};
  nc_type *pt = nc_type_tensor(ctx, 4, ps, nc_type_get_element_type(xt), NULL);
  bool keep = nc_graph_attr_int(op, "keepdims", 1) != 0;
  nc_op *p = nc_rewriter_create(rw, &(nc_op_state){.ctx = ctx,
                                                   .name = graph_kind_of(op) == G_REDUCE_MEAN ? "graph.global_avg_pool"
                                                                                             : "graph.global_max_pool",
                                                   .loc = nc_op_get_loc(op), .n_operands = 1, .operands = &x,
                                                   .n_results = 1, .result_types = keep ? &rt : &pt});
  if (!p)
    return false;
  if (keep) {
    nc_rewriter_replace_op_with_op(rw, op, p);
    return true;
  }
  return replace_by_reshape(op, nc_op_get_result(p, 0), rw);
}

const nc_pattern graph_reduce_patterns[] = {{"ReduceToGlobalPool", 1, reduce_to_global_pool}};
const nc_pattern graph_pad_into_window_patterns[] = {{"FoldPadIntoWindow", 1, fold_pad_into_window}};
const nc_pattern graph_reshape_like_patterns[] = {{"ComposeReshapeLike", 1, compose_reshape_like}};
const nc_pattern graph_transpose_patterns[] = {{"TransposeToReshape", 1, transpose_to_reshape},
                                               {"TransposeKeepUnitBatchFirst", 1, transpose_keep_unit_batch_first}};
const nc_pattern graph_channel_shuffle_patterns[] = {{"FormChannelShuffle", 3, form_channel_shuffle}};

nc_op *graph_materialize_constant(nc_context *ctx, nc_attr *value, nc_type *type, nc_location loc)
{
  nc_attr_kind k = nc_attr_get_kind(value);
  if ((k != NC_ATTR_DENSE_ELEMENTS && k != NC_ATTR_DENSE_RESOURCE) || nc_attr_get_type(value) != type)
    return NULL;
  return nc_graph_create_constant(ctx, value, loc);
}
