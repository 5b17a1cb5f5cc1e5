/* dataflow_describe.c: the iteration domain, access relations and MACs of a
 * layer, read from its graph ops (nc_dataflow_describe_layer), for
 * graph-to-dataflow. It lives in passes/ because it reads graph ops: no
 * dialect below the graph level does (the kind and parameters of the layer
 * are recorded by dataflow_layer_record.c).
 *
 * Convs and pools take their relations from deps.h's builders (windows with
 * strides, pads, dilations, clipped to the tensor), flatten and the vector
 * gemm too; elementwise layers (add, activations, requantize, ...) and
 * concatenations along the channels iterate over the output's rows or pixels
 * and read the same row or pixel of each operand, numpy broadcasting written
 * into the relation; a matmul [M, K] x [K, N] (M > 1) iterates over the rows m
 * of its result, each reading row m of its input; anything else (a
 * matmul with a transposed A, a reshape that is not a flatten, a layer on tensors
 * that are not [1, C, H, W], except a resize of one image into a batch, whose
 * rows or pixels write every image) is one iteration S[] that reads its whole
 * inputs and writes its whole output: coarse but exact. Inputs a layer's main
 * op does not give a window to (e.g. non-constant weights) are read whole by
 * every iteration. Every relation goes through isl and is printed by isl.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <isl/options.h>
#include <isl/space.h>

#include "nc/passes/dataflow_layers.h"
#include "nc/dialects/graph/graph.h"
#include "nc/dialects/graph/kernels.h"

typedef struct lctx {
  isl_ctx *ctx;
  nc_deps_granularity g;
  char *err;
  size_t errlen;
} lctx;

static bool fail(lctx *l, const char *fmt, ...) NC_PRINTF(2, 3);
static bool fail(lctx *l, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(l->err, l->errlen, fmt, ap);
  va_end(ap);
  return false;
}

static char *mprintf(const char *fmt, ...) NC_PRINTF(1, 2);
static char *mprintf(const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  char *s = NULL;
  if (vasprintf(&s, fmt, ap) < 0)
    abort();
  va_end(ap);
  return s;
}

static const nc_type *vtype(nc_value *v) { return nc_value_get_type(v); }

static char *df_set_text(isl_set *s) { return s ? isl_set_to_str(s) : NULL; }
static char *df_map_text(isl_map *m) { return m ? isl_map_to_str(m) : NULL; }

/* The box of all elements of a tensor, { Name[i0, ..] : 0 <= ik < dk }. */
static isl_set *box(lctx *l, const char *name, const nc_type *t)
{
  int64_t dims[NC_MAX_RANK];
  int n = nc_dataflow_tensor_coords(t, dims);
  return n < 0 ? NULL : nc_dataflow_tensor_box(l->ctx, name, n, dims);
}

/* domain x (all elements of the tensor) */
static isl_map *whole(lctx *l, isl_set *domain, const char *name, const nc_type *t)
{
  isl_set *b = box(l, name, t);
  return b ? isl_map_from_domain_and_range(isl_set_copy(domain), b) : NULL;
}

static isl_map *umap_to_map(isl_union_map *u)
{
  return u ? isl_map_from_union_map(u) : NULL;
}

/* --- the layers' relations ------------------------------------------------------------------------------ */

typedef struct layer {
  const char *kind;
  isl_set *domain;
  isl_map *writes;
  isl_map **reads;   /* per head operand (NULL: read whole) */
  int64_t macs;
} layer;

static bool image(const nc_type *t, nc_deps_shape *s)
{
  int64_t d[NC_MAX_RANK];
  if (nc_dataflow_tensor_coords(t, d) != 3 || nc_type_get_rank(t) != 4)
    return false;
  *s = (nc_deps_shape){d[0], d[1], d[2]};
  return true;
}

/* The image of a result [1, C, H, W], or of a batch [N, C, H, W] of copies of one image (a resize into a
 * batch) with *n = N (else 1). */
static bool result_image(const nc_type *t, nc_deps_shape *s, int64_t *n)
{
  *n = 1;
  if (nc_type_get_rank(t) == 4 && nc_type_has_static_shape(t) && nc_type_get_shape(t)[0] > 1) {
    const int64_t *d = nc_type_get_shape(t);
    *s = (nc_deps_shape){d[1], d[2], d[3]};
    *n = d[0];
    return true;
  }
  return image(t, s);
}

static char *in_name(size_t i) { return mprintf("In%zu", i); }

/* Takes a builder's layer: its domain, writes and its read of operand slot `slot`. */
static bool from_builder(lctx *l, layer *L, nc_deps_layer *dl, size_t slot, const nc_deps_error *e, bool ok)
{
  if (!ok)
    return fail(l, "%s", e->message);
  L->domain = nc_deps_layer_get_domain(dl);
  L->writes = umap_to_map(nc_deps_layer_get_writes(dl));
  L->reads[slot] = umap_to_map(nc_deps_layer_get_reads(dl));
  nc_deps_layer_destroy(dl);
  return L->domain && L->writes && L->reads[slot];
}

/* The window of a conv or pool whose input is `in` and output `out`: ONNX's
 * pads (auto_pad resolved), then end padding grown until the floor formula
 * gives the output's size (ceil_mode); padding is never read. */
static bool window(lctx *l, const int64_t *kernel, const int64_t *strides, const int64_t *dilations,
                   const int64_t *pads, nc_auto_pad ap, nc_deps_shape in, nc_deps_shape out, nc_deps_window *w)
{
  int64_t k[2], s[2], d[2], pb[2], pe[2], ins[2] = {in.height, in.width}, outs[2] = {out.height, out.width};
  for (int a = 0; a < 2; a++) {
    k[a] = kernel[a];
    s[a] = strides[a] ? strides[a] : 1;
    d[a] = dilations[a] ? dilations[a] : 1;
    pb[a] = pads[a];
    pe[a] = pads[2 + a];
    if (ap == NC_AUTO_PAD_VALID) {
      pb[a] = pe[a] = 0;
    } else if (ap == NC_AUTO_PAD_SAME_UPPER || ap == NC_AUTO_PAD_SAME_LOWER) {
      int64_t o = (ins[a] + s[a] - 1) / s[a], total = (o - 1) * s[a] + d[a] * (k[a] - 1) + 1 - ins[a];
      total = total > 0 ? total : 0;
      pb[a] = ap == NC_AUTO_PAD_SAME_UPPER ? total / 2 : total - total / 2;
      pe[a] = total - pb[a];
    }
    if (k[a] < 1 || s[a] < 1 || d[a] < 1 || pb[a] < 0 || pe[a] < 0)
      return fail(l, "unsupported window (kernel %lld, stride %lld, dilation %lld, pads %lld/%lld)", (long long)k[a],
                  (long long)s[a], (long long)d[a], (long long)pb[a], (long long)pe[a]);
    int64_t span = d[a] * (k[a] - 1) + 1;
    if (ins[a] + pb[a] + pe[a] < span || (ins[a] + pb[a] + pe[a] - span) / s[a] + 1 < outs[a])
      pe[a] = (outs[a] - 1) * s[a] + span - ins[a] - pb[a];
    if ((ins[a] + pb[a] + pe[a] - span) / s[a] + 1 != outs[a])
      return fail(l, "the window does not produce the result's %s size %lld", a ? "horizontal" : "vertical",
                  (long long)outs[a]);
  }
  *w = (nc_deps_window){k[0], k[1], s[0], s[1], pb[0], pb[1], pe[0], pe[1], d[0], d[1]};
  return true;
}

static bool conv_layer(lctx *l, nc_op *op, size_t slot_x, size_t slot_w, const char *x_name, layer *L)
{
  nc_conv_params p;
  nc_deps_shape in, out;
  if (!nc_graph_get_conv_params(op, &p) || !image(vtype(nc_op_get_operand(op, slot_x)), &in) ||
      !image(vtype(nc_op_get_result(op, 0)), &out))
    return fail(l, "only 2-D convolutions of a batch of one ([1, C, H, W]) with static shapes are supported");
  const int64_t *ws = nc_type_get_shape(vtype(nc_op_get_operand(op, slot_w)));
  int64_t kernel[2] = {p.kernel_shape[0] ? p.kernel_shape[0] : ws[2], p.kernel_shape[1] ? p.kernel_shape[1] : ws[3]};
  nc_deps_window w;
  if (!window(l, kernel, p.strides, p.dilations, p.pads, p.auto_pad, in, out, &w))
    return false;
  int64_t group = p.group ? p.group : 1;
  L->kind = "conv";
  L->macs = out.channels * out.height * out.width * (in.channels / group) * kernel[0] * kernel[1];
  nc_deps_layer *dl = NULL;
  nc_deps_error e;
  bool ok = nc_deps_layer_conv2d(l->ctx, "S", x_name, "Out", in, out.channels, &w, l->g, &dl, &e);
  return from_builder(l, L, dl, slot_x, &e, ok);
}

static bool pool_layer(lctx *l, nc_op *op, const char *x_name, layer *L)
{
  nc_pool_params p;
  nc_deps_shape in, out;
  if (!nc_graph_get_pool_params(op, &p) || !image(vtype(nc_op_get_operand(op, 0)), &in) ||
      !image(vtype(nc_op_get_result(op, 0)), &out))
    return fail(l, "only 2-D pooling of a batch of one ([1, C, H, W]) with static shapes is supported");
  nc_deps_window w;
  if (!window(l, p.kernel_shape, p.strides, p.dilations, p.pads, p.auto_pad, in, out, &w))
    return false;
  L->kind = "pool";
  nc_deps_layer *dl = NULL;
  nc_deps_error e;
  bool ok = nc_deps_layer_pool2d(l->ctx, "S", x_name, "Out", in, &w, l->g, &dl, &e);
  return from_builder(l, L, dl, 0, &e, ok);
}

static bool global_pool_layer(lctx *l, nc_op *op, const char *x_name, layer *L)
{
  nc_deps_shape in, out;
  if (!image(vtype(nc_op_get_operand(op, 0)), &in) || !image(vtype(nc_op_get_result(op, 0)), &out))
    return fail(l, "only 2-D global pooling of a batch of one ([1, C, H, W]) is supported");
  L->kind = "global_pool";
  nc_deps_layer *dl = NULL;
  nc_deps_error e;
  bool ok = nc_deps_layer_global_pool(l->ctx, "S", x_name, "Out", in, &dl, &e);
  return from_builder(l, L, dl, 0, &e, ok);
}

/* One iteration S[] reading every input whole and writing the whole output. */
static bool single_iteration(lctx *l, nc_op *op, const char *kind, layer *L)
{
  L->kind = kind;
  L->domain = isl_set_read_from_str(l->ctx, "{ S[] }");
  L->writes = L->domain ? whole(l, L->domain, "Out", vtype(nc_op_get_result(op, 0))) : NULL;
  return L->domain && L->writes;
}

static bool matmul_layer(lctx *l, nc_op *op, size_t slot_a, const char *a_name, layer *L)
{
  const nc_type *at = vtype(nc_op_get_operand(op, slot_a)), *yt = vtype(nc_op_get_result(op, 0));
  if (!nc_type_has_static_shape(at) || !nc_type_has_static_shape(yt))
    return fail(l, "matrix products need static shapes");
  size_t ar = nc_type_get_rank(at);
  const int64_t *as = nc_type_get_shape(at);
  nc_gemm_params gp;
  int64_t k = as[ar - 1];
  if (nc_graph_get_gemm_params(op, &gp) && gp.trans_a && ar == 2)
    k = as[0];
  L->macs = nc_type_get_num_elements(yt) * k;
  int64_t ad[NC_MAX_RANK], yd[NC_MAX_RANK];
  if (nc_dataflow_tensor_coords(at, ad) == 1 && nc_dataflow_tensor_coords(yt, yd) == 1 && ar == 2 &&
      !(nc_op_is(op, "graph.gemm") && gp.trans_a)) { /* [1, K] x [K, N]: deps.h's gemm */
    L->kind = "matmul";
    nc_deps_layer *dl = NULL;
    nc_deps_error e;
    bool ok = nc_deps_layer_gemm(l->ctx, "S", a_name, "Out", ad[0], yd[0], &dl, &e);
    return from_builder(l, L, dl, slot_a, &e, ok);
  }
  if (nc_dataflow_tensor_coords(at, ad) == 2 && nc_dataflow_tensor_coords(yt, yd) == 2 && ad[0] == yd[0] &&
      ad[1] == k && !(nc_op_is(op, "graph.gemm") && gp.trans_a)) { /* [M, K] x [K, N]: an iteration per row m */
    L->kind = "matmul";
    char *dom = mprintf("{ S[m] : 0 <= m < %lld }", (long long)yd[0]);
    char *wr = mprintf("{ S[m] -> Out[m, n] : 0 <= m < %lld and 0 <= n < %lld }", (long long)yd[0], (long long)yd[1]);
    char *rd = mprintf("{ S[m] -> %s[m, i] : 0 <= m < %lld and 0 <= i < %lld }", a_name, (long long)yd[0], (long long)k);
    L->domain = isl_set_read_from_str(l->ctx, dom);
    L->writes = isl_map_read_from_str(l->ctx, wr);
    L->reads[slot_a] = isl_map_read_from_str(l->ctx, rd);
    free(dom), free(wr), free(rd);
    return L->domain && L->writes && L->reads[slot_a];
  }
  return single_iteration(l, op, "matmul", L);
}

static bool flatten_layer(lctx *l, nc_op *op, const char *x_name, layer *L)
{
  const char *kind = nc_op_is(op, "graph.flatten") ? "flatten" : "reshape";
  nc_deps_shape in;
  int64_t yd[NC_MAX_RANK];
  const nc_type *yt = vtype(nc_op_get_result(op, 0));
  if (image(vtype(nc_op_get_operand(op, 0)), &in) && nc_dataflow_tensor_coords(yt, yd) == 1 &&
      nc_type_get_rank(yt) == 2 && yd[0] == in.channels * in.height * in.width) {
    L->kind = kind;
    nc_deps_layer *dl = NULL;
    nc_deps_error e;
    bool ok = nc_deps_layer_flatten(l->ctx, "S", x_name, "Out", in, l->g, &dl, &e);
    return from_builder(l, L, dl, 0, &e, ok);
  }
  return single_iteration(l, op, kind, L);
}

/* Ops whose operands broadcast as in numpy (dims aligned from the right). */
static bool numpy_broadcast(nc_op *op)
{
  static const char *const names[] = {"graph.add", "graph.sub", "graph.mul", "graph.div", "graph.pow",
                                      "graph.max", "graph.min", "graph.sum", "graph.mean", "graph.prelu",
                                      "graph.mul_integer"};
  for (size_t i = 0; i < NC_COUNTOF(names); i++)
    if (nc_op_is(op, names[i]))
      return true;
  return false;
}

/* graph.concat of [1, C_i, H, W] tensors along the channels: each iteration
 * reads its row or pixel of every input, as an elementwise op does. */
static bool channel_concat(nc_op *op)
{
  if ((!nc_op_is(op, "graph.concat") && !nc_op_is(op, "graph.concat_integer")) || nc_op_get_num_results(op) != 1)
    return false;
  nc_type *t = nc_value_get_type(nc_op_get_result(op, 0));
  int64_t axis = nc_graph_attr_int(op, "axis", 0);
  return nc_type_get_kind(t) == NC_TYPE_TENSOR && nc_type_get_rank(t) == 4 && (axis == 1 || axis == -3);
}

static bool same_shape(const nc_type *a, const nc_type *b)
{
  return nc_type_get_rank(a) == nc_type_get_rank(b) &&
         !memcmp(nc_type_get_shape(a), nc_type_get_shape(b), nc_type_get_rank(a) * sizeof(int64_t));
}

/* Elementwise over an image output [1, C, H, W]: iterations S[y, x] or S[y];
 * operand slot p reads its element of each output element (broadcast dims
 * read index 0). */
static bool elementwise_layer(lctx *l, nc_op *op, const char *kind, const int *slot_input, layer *L)
{
  const nc_type *yt = vtype(nc_op_get_result(op, 0));
  nc_deps_shape o;
  if (!image(yt, &o))
    return single_iteration(l, op, kind, L);
  bool row = l->g == NC_DEPS_PER_ROW;
  L->kind = kind;
  char *dom = row ? mprintf("{ S[y] : 0 <= y < %lld }", (long long)o.height)
                  : mprintf("{ S[y, x] : 0 <= y < %lld and 0 <= x < %lld }", (long long)o.height, (long long)o.width);
  L->domain = isl_set_read_from_str(l->ctx, dom);
  free(dom);
  const char *tuple = row ? "S[y]" : "S[y, x]";
  char *dcon = row ? mprintf("0 <= y < %lld", (long long)o.height)
                   : mprintf("0 <= y < %lld and 0 <= x < %lld", (long long)o.height, (long long)o.width);
  char *wr = row ? mprintf("{ %s -> Out[c, y, x] : %s and 0 <= c < %lld and 0 <= x < %lld }", tuple, dcon,
                           (long long)o.channels, (long long)o.width)
                 : mprintf("{ %s -> Out[c, y, x] : %s and 0 <= c < %lld }", tuple, dcon, (long long)o.channels);
  L->writes = isl_map_read_from_str(l->ctx, wr);
  free(wr);
  const int64_t *ys = nc_type_get_shape(yt);
  static const char *const var[4] = {"0", "c", "y", "x"};
  for (size_t p = 0, np = nc_op_get_num_operands(op); p < np && L->domain && L->writes; p++) {
    if (slot_input[p] < 0)
      continue;
    const nc_type *t = vtype(nc_op_get_operand(op, p));
    if (nc_type_get_kind(t) != NC_TYPE_TENSOR || !nc_type_has_static_shape(t) || nc_type_get_rank(t) > 4 ||
        (!numpy_broadcast(op) && !channel_concat(op) && !same_shape(t, yt)))
      continue; /* read whole (e.g. requantize's per-channel bias, broadcast along `axis`) */
    size_t r = nc_type_get_rank(t);
    const int64_t *s = nc_type_get_shape(t);
    size_t skip = r >= 2 && s[0] == 1 ? 1 : 0;
    char *buf;
    size_t len;
    int64_t c_ext = 0, x_ext = 0; /* the operand's extents of the variables it uses */
    FILE *f = open_memstream(&buf, &len);
    if (!f)
      abort();
    fprintf(f, "{ %s -> In%d[", tuple, slot_input[p]);
    for (size_t j = skip; j < r; j++) {
      size_t od = j + 4 - r;
      const char *e = s[j] == 1 && ys[od] != 1 ? "0" : var[od];
      if (od == 1 && e == var[1])
        c_ext = s[j];
      if (od == 3 && e == var[3])
        x_ext = s[j];
      fprintf(f, "%s%s", j > skip ? ", " : "", e);
    }
    /* only variables that appear in a tuple may be constrained (isl would take
     * others for parameters) */
    fprintf(f, "] : %s", dcon);
    if (c_ext)
      fprintf(f, " and 0 <= c < %lld", (long long)c_ext);
    if (x_ext && row)
      fprintf(f, " and 0 <= x < %lld", (long long)x_ext);
    fputs(" }", f);
    fclose(f);
    isl_map *m = isl_map_read_from_str(l->ctx, buf);
    free(buf);
    if (!m) {
      free(dcon);
      return fail(l, "isl rejected an elementwise access");
    }
    L->reads[p] = m;
  }
  free(dcon);
  return L->domain && L->writes;
}

/* A layer that moves elements of an image [1, C, H, W] into an image output
 * [1, OC, OH, OW] (resize, pad, channel shuffle): iterations S[y] or
 * S[y, x] as for elementwise layers, output element (c, y, x) reading input
 * element (ci, yi, xi): rc, ry and rx constraints on ci, yi and xi (of c, y
 * and x), in isl syntax; outputs whose source falls outside the
 * input (constant padding) read nothing. */
static bool moved_layer(lctx *l, nc_op *op, const char *x_name, const char *kind, const char *rc, const char *ry,
                        const char *rx, layer *L)
{
  nc_deps_shape in, o;
  int64_t batch;
  if (!image(vtype(nc_op_get_operand(op, 0)), &in) || !result_image(vtype(nc_op_get_result(op, 0)), &o, &batch))
    return fail(l, "only [1, C, H, W] tensors of static shape are supported");
  bool row = l->g == NC_DEPS_PER_ROW;
  L->kind = kind;
  char *dom = row ? mprintf("{ S[y] : 0 <= y < %lld }", (long long)o.height)
                  : mprintf("{ S[y, x] : 0 <= y < %lld and 0 <= x < %lld }", (long long)o.height, (long long)o.width);
  /* a batch result: each iteration writes its row or pixel into every image */
  char *wr = batch > 1 ? mprintf("{ %s -> Out[n, c, y, x] : 0 <= n < %lld and 0 <= c < %lld and 0 <= y < %lld and "
                                 "0 <= x < %lld }", row ? "S[y]" : "S[y, x]", (long long)batch,
                                 (long long)o.channels, (long long)o.height, (long long)o.width)
                       : mprintf("{ %s -> Out[c, y, x] : 0 <= c < %lld and 0 <= y < %lld and 0 <= x < %lld }",
                                 row ? "S[y]" : "S[y, x]", (long long)o.channels, (long long)o.height,
                                 (long long)o.width);
  char *rd = mprintf("{ %s -> %s[ci, yi, xi] : exists (c%s : 0 <= c < %lld and 0 <= y < %lld and 0 <= x < %lld "
                     "and %s and %s and %s and 0 <= ci < %lld and 0 <= yi < %lld and 0 <= xi < %lld) }",
                     row ? "S[y]" : "S[y, x]", x_name, row ? ", x" : "", (long long)o.channels, (long long)o.height,
                     (long long)o.width, rc, ry, rx, (long long)in.channels, (long long)in.height,
                     (long long)in.width);
  L->domain = isl_set_read_from_str(l->ctx, dom);
  L->writes = isl_map_read_from_str(l->ctx, wr);
  isl_map *m = isl_map_read_from_str(l->ctx, rd);
  free(dom);
  free(wr);
  free(rd);
  if (!m)
    return fail(l, "isl rejected the access of a %s layer", kind);
  L->reads[0] = m;
  return L->domain && L->writes;
}

/* The input coordinate `i` an output coordinate `o` of a pad by `p` before
 * (and `e` after) a dim of `n` reads, as an isl constraint: constant mode
 * i = o - p (outside the input: nothing), edge the nearest edge element,
 * reflect the mirror image without the edge, wrap the other end. Reflect and
 * wrap pads wider than the dim repeat with periods 2 (n - 1) and n (np.pad);
 * pads within the dim keep the plain piecewise form. */
static bool pad_source(const char *mode, const char *o, const char *i, int64_t p, int64_t e, int64_t n, char *buf,
                       size_t len)
{
  long long P = p, N = n, T = 2 * (n - 1);
  bool wide = p >= n || e >= n;
  if (!strcmp(mode, "constant"))
    snprintf(buf, len, "%s = %s - %lld", i, o, P);
  else if (!strcmp(mode, "edge") || (n == 1 && (!strcmp(mode, "reflect") || !strcmp(mode, "wrap"))))
    snprintf(buf, len, "((%s < %lld and %s = 0) or (%lld <= %s < %lld and %s = %s - %lld) or (%s >= %lld and %s = %lld))",
             o, P, i, P, o, P + N, i, o, P, o, P + N, i, N - 1);
  else if (!strcmp(mode, "reflect") && !wide)
    snprintf(buf, len, "((%s < %lld and %s = %lld - %s) or (%lld <= %s < %lld and %s = %s - %lld) or (%s >= %lld and "
             "%s = %lld - %s))", o, P, i, P, o, P, o, P + N, i, o, P, o, P + N, i, 2 * (N - 1) + P, o);
  else if (!strcmp(mode, "reflect")) /* r = (o - p) mod 2 (n - 1); i = r, or 2 (n - 1) - r past the far edge */
    snprintf(buf, len, "((((%s - %lld) mod %lld) < %lld and %s = (%s - %lld) mod %lld) or (((%s - %lld) mod %lld) >= "
             "%lld and %s = %lld - ((%s - %lld) mod %lld)))", o, P, T, N, i, o, P, T, o, P, T, N, i, T, o, P, T);
  else if (!strcmp(mode, "wrap"))
    snprintf(buf, len, "%s = (%s - %lld) mod %lld", i, o, P, N);
  else
    return false;
  return true;
}

/* The constraint "i is floor((a o + b) / d) or that + 1": d i <= a o + b < d i + d, or the same with b + d. */
static void linear_source(const int64_t abd[3], const char *o, const char *i, char *buf, size_t len)
{
  long long a = abd[0], b = abd[1], d = abd[2];
  snprintf(buf, len, "(%lld%s <= %lld%s + %lld < %lld%s + %lld or %lld%s <= %lld%s + %lld < %lld%s + %lld)", d, i, a, o,
           b, d, i, d, d, i, a, o, b + d, d, i, d);
}

/* resize (nearest, whole factors checked by the layer record; linear), pad, shuffle */
static bool resample_layer(lctx *l, nc_op *op, const char *x_name, layer *L)
{
  nc_deps_shape in, o;
  const nc_type *yt = vtype(nc_op_get_result(op, 0));
  int64_t batch;
  if (nc_op_is(op, "graph.pad") && nc_type_get_rank(yt) == 2) /* a [1, N] vector: one iteration */
    return single_iteration(l, op, "pad", L);
  /* one image into a batch of copies: iterations over its rows or pixels, each writing every image */
  if (image(vtype(nc_op_get_operand(op, 0)), &in) && nc_type_get_rank(yt) == 4 && nc_type_get_shape(yt)[0] != 1 &&
      !nc_op_is(op, "graph.resize"))
    return fail(l, "a layer cannot change the batch dim: layers move one [1, C, H, W] image (run each image of a "
                "batch as its own inference)");
  if (!image(vtype(nc_op_get_operand(op, 0)), &in) || !result_image(yt, &o, &batch))
    return fail(l, "only [1, C, H, W] tensors of static shape are supported");
  char ry[256], rx[256], rc[256] = "ci = c";
  if (nc_op_is(op, "graph.resize") && !strcmp(nc_graph_attr_string(op, "mode", "nearest"), "linear")) {
    /* the neighbours floor(c) and floor(c) + 1 of the source coordinate c, clamped (the layer record keeps
     * floor(c) within [-1, in - 1], so clamping is the intersection with the input) */
    int64_t abd[2][3];
    const char *cm = nc_graph_attr_string(op, "coordinate_transformation_mode", "half_pixel");
    char err[200];
    if (!nc_kernel_resize_linear_coord(cm, in.height, o.height, abd[0], err, sizeof err) ||
        !nc_kernel_resize_linear_coord(cm, in.width, o.width, abd[1], err, sizeof err))
      return fail(l, "%s", err);
    linear_source(abd[0], "y", "yi", ry, sizeof ry);
    linear_source(abd[1], "x", "xi", rx, sizeof rx);
    if (in.channels != o.channels) { /* linear along the channels too */
      int64_t abc[3];
      if (!nc_kernel_resize_linear_coord(cm, in.channels, o.channels, abc, err, sizeof err))
        return fail(l, "%s", err);
      linear_source(abc, "c", "ci", rc, sizeof rc);
    }
    return moved_layer(l, op, x_name, "resize", rc, ry, rx, L);
  }
  if (nc_op_is(op, "graph.resize")) {
    if (o.channels != in.channels) { /* ci = clamp(floor((a c + b) / d), 0, C - 1) */
      int64_t abd[3];
      char err[200];
      if (!nc_kernel_resize_nearest_coord(nc_graph_attr_string(op, "coordinate_transformation_mode", "half_pixel"),
                                          nc_graph_attr_string(op, "nearest_mode", "round_prefer_floor"),
                                          in.channels, o.channels, abd, err, sizeof err))
        return fail(l, "%s", err);
      long long a = abd[0], b = abd[1], d = abd[2], n = in.channels;
      snprintf(rc, sizeof rc, "((%lld*c + %lld < 0 and ci = 0) or (%lld*c + %lld >= %lld and ci = %lld) or "
               "(%lld <= %lld*c + %lld - %lld*ci < %lld))", a, b, a, b, n * d, n - 1, 0LL, a, b, d, d);
    }
    if (o.height % in.height || o.width % in.width)
      return fail(l, "a resize by a factor that is not whole has no dataflow layer");
    snprintf(ry, sizeof ry, "yi = floor(y / %lld)", (long long)(o.height / in.height));
    snprintf(rx, sizeof rx, "xi = floor(x / %lld)", (long long)(o.width / in.width));
    return moved_layer(l, op, x_name, "resize", rc, ry, rx, L);
  }
  if (nc_op_is(op, "graph.pad")) {
    size_t n;
    const int64_t *p = nc_graph_attr_ints(op, "pads", &n);
    if (!p || n != 8)
      return fail(l, "only pads of [1, C, H, W] tensors are supported");
    const char *mode = nc_graph_attr_string(op, "mode", "constant");
    if (!pad_source(mode, "y", "yi", p[2], p[6], in.height, ry, sizeof ry) ||
        !pad_source(mode, "x", "xi", p[3], p[7], in.width, rx, sizeof rx))
      return fail(l, "a pad in mode \"%s\" has no dataflow layer", mode);
    return moved_layer(l, op, x_name, "pad", rc, ry, rx, L);
  }
  snprintf(ry, sizeof ry, "yi = y");
  snprintf(rx, sizeof rx, "xi = x");
  int64_t g = nc_graph_attr_int(op, "group", 1); /* graph.channel_shuffle */
  if (g < 1 || o.channels % g)
    return fail(l, "a channel shuffle needs a group count dividing the channels");
  snprintf(rc, sizeof rc, "ci = (c - %lld * floor(c / %lld)) * %lld + floor(c / %lld)", (long long)g, (long long)g,
           (long long)(o.channels / g), (long long)g);
  return moved_layer(l, op, x_name, "shuffle", rc, ry, rx, L);
}

/* --- the public entry ------------------------------------------------------------------------------------ */

static const char *const elementwise_ops[] = {
  "graph.add", "graph.sub", "graph.mul", "graph.div", "graph.pow", "graph.max", "graph.min", "graph.sum",
  "graph.mean", "graph.prelu", "graph.requantize", "graph.mul_integer",
};

static bool is_elementwise(nc_op *op)
{
  for (size_t i = 0; i < NC_COUNTOF(elementwise_ops); i++)
    if (nc_op_is(op, elementwise_ops[i]))
      return true;
  return nc_op_has_trait(op, NC_TRAIT_ELEMENTWISE) && nc_op_get_num_results(op) == 1 &&
         !strncmp(nc_ident_str(nc_op_get_name(op)), "graph.", 6);
}

/* Which builder describes a main op (the dispatch of
 * nc_dataflow_describe_layer, in its order). */
typedef enum layer_branch {
  B_CONV, B_POOL, B_GLOBAL_POOL, B_MATMUL, B_FLATTEN, B_RESAMPLE, B_CHANNEL_CONCAT, B_CONCAT, B_TRANSPOSE,
  B_SOFTMAX, B_ELEMENTWISE, B_NONE,
} layer_branch;

static layer_branch branch_of(nc_op *op)
{
  if (nc_op_is(op, "graph.conv") || nc_op_is(op, "graph.conv_integer") || nc_op_is(op, "graph.qlinear_conv"))
    return B_CONV;
  if (nc_op_is(op, "graph.max_pool") || nc_op_is(op, "graph.avg_pool"))
    return B_POOL;
  if (nc_op_is(op, "graph.global_max_pool") || nc_op_is(op, "graph.global_avg_pool"))
    return B_GLOBAL_POOL;
  if (nc_op_is(op, "graph.matmul") || nc_op_is(op, "graph.matmul_integer") || nc_op_is(op, "graph.gemm") ||
      nc_op_is(op, "graph.qlinear_matmul"))
    return B_MATMUL;
  if (nc_op_is(op, "graph.flatten") || nc_op_is(op, "graph.reshape"))
    return B_FLATTEN;
  if (nc_op_is(op, "graph.resize") || nc_op_is(op, "graph.pad") || nc_op_is(op, "graph.channel_shuffle"))
    return B_RESAMPLE;
  if (channel_concat(op))
    return B_CHANNEL_CONCAT;
  if (nc_op_is(op, "graph.concat") || nc_op_is(op, "graph.concat_integer"))
    return B_CONCAT;
  if (nc_op_is(op, "graph.transpose"))
    return B_TRANSPOSE;
  if (nc_op_is(op, "graph.softmax_integer"))
    return B_SOFTMAX;
  return is_elementwise(op) ? B_ELEMENTWISE : B_NONE;
}

bool nc_dataflow_describe_reads_attrs(nc_op *op)
{
  /* elementwise_layer and single_iteration read only types for these (an
   * add_integer's multipliers are the layer's parameters, not its shape) */
  return branch_of(op) != B_ELEMENTWISE;
}

bool nc_dataflow_describe_layer(nc_op *op, size_t n_inputs, nc_value *const *inputs, nc_value *output,
                                nc_deps_granularity g, isl_ctx *ctx, nc_dataflow_layer_desc *desc, char *err,
                                size_t errlen)
{
  memset(desc, 0, sizeof *desc);
  lctx l = {ctx, g, err, errlen};
  int saved_on_error = isl_options_get_on_error(ctx); /* isl errors are messages here, never aborts */
  isl_options_set_on_error(ctx, ISL_ON_ERROR_CONTINUE);
  isl_ctx_reset_error(ctx);
  size_t np = nc_op_get_num_operands(op);
  layer L = {NULL, NULL, NULL, nc_xcalloc(np + 1, sizeof *L.reads), 0};
  int *slot_input = nc_xmalloc((np + 1) * sizeof *slot_input); /* head operand -> input index or -1 */
  for (size_t p = 0; p < np; p++) {
    slot_input[p] = -1;
    for (size_t i = 0; i < n_inputs; i++)
      if (inputs[i] == nc_op_get_operand(op, p))
        slot_input[p] = (int)i;
  }
  const nc_type *ht = nc_op_get_num_results(op) == 1 ? vtype(nc_op_get_result(op, 0)) : NULL;
  const nc_type *ot = vtype(output);
  bool ok = true;
  if (!ht || nc_type_get_kind(ht) != NC_TYPE_TENSOR || !nc_type_has_static_shape(ht) ||
      nc_type_get_kind(ot) != NC_TYPE_TENSOR || !nc_type_has_static_shape(ot))
    ok = fail(&l, "layers need one result, a tensor of static shape");
  else if (nc_type_get_rank(ht) != nc_type_get_rank(ot) ||
           memcmp(nc_type_get_shape(ht), nc_type_get_shape(ot), nc_type_get_rank(ot) * sizeof(int64_t)))
    ok = fail(&l, "the ops after the layer's main op must keep its result's shape");
  char *x0 = NULL;
  if (ok && np && slot_input[0] < 0 && !is_elementwise(op) && !channel_concat(op) &&
      !nc_op_is(op, "graph.concat") && !nc_op_is(op, "graph.concat_integer"))
    ok = fail(&l, "the layer's data operand must be a node input, not a constant");
  if (ok && np && slot_input[0] >= 0)
    x0 = in_name((size_t)slot_input[0]);
  layer_branch b = branch_of(op);
  if (!ok) {
  } else if (b == B_CONV) {
    ok = conv_layer(&l, op, 0, nc_op_is(op, "graph.qlinear_conv") ? 3 : 1, x0, &L);
  } else if (b == B_POOL) {
    ok = pool_layer(&l, op, x0, &L);
  } else if (b == B_GLOBAL_POOL) {
    ok = global_pool_layer(&l, op, x0, &L);
  } else if (b == B_MATMUL) {
    ok = matmul_layer(&l, op, 0, x0, &L);
  } else if (b == B_FLATTEN) {
    ok = flatten_layer(&l, op, x0, &L);
  } else if (b == B_RESAMPLE) {
    ok = resample_layer(&l, op, x0, &L);
  } else if (b == B_CHANNEL_CONCAT) {
    ok = elementwise_layer(&l, op, "concat", slot_input, &L);
  } else if (b == B_CONCAT) { /* e.g. of [1, N] vectors */
    ok = single_iteration(&l, op, "concat", &L);
  } else if (b == B_TRANSPOSE) { /* any element may read any: one iteration */
    ok = single_iteration(&l, op, "transpose", &L);
  } else if (b == B_SOFTMAX) { /* each output reads its whole row: one iteration */
    ok = single_iteration(&l, op, "softmax", &L);
  } else if (b == B_ELEMENTWISE) {
    const char *hint = nc_op_is(op, "graph.add")           ? "add"
                       : nc_op_is(op, "graph.lut_integer") ? "lut"
                       : nc_op_is(op, "graph.mul_integer") ? "mul"
                                                           : "elementwise";
    ok = elementwise_layer(&l, op, hint, slot_input, &L);
  } else {
    ok = fail(&l, "'%s' has no dataflow layer", nc_ident_str(nc_op_get_name(op)));
  }
  free(x0);
  if (ok && (!L.domain || !L.writes))
    ok = fail(&l, "isl failed to build the layer: %s",
              isl_ctx_last_error_msg(ctx) ? isl_ctx_last_error_msg(ctx) : "unknown error");

  /* per input: the union of the relations of the head operands it feeds, or whole */
  isl_map **reads = nc_xcalloc(n_inputs + 1, sizeof *reads);
  for (size_t p = 0; ok && p < np; p++) {
    int i = slot_input[p];
    if (i < 0)
      continue;
    char *name = in_name((size_t)i);
    isl_map *m = L.reads[p] ? isl_map_copy(L.reads[p]) : whole(&l, L.domain, name, vtype(inputs[i]));
    free(name);
    reads[i] = reads[i] ? isl_map_union(reads[i], m) : m;
    ok = reads[i] != NULL;
  }
  for (size_t i = 0; ok && i < n_inputs; i++) {
    if (!reads[i]) { /* used by an op after the main one */
      char *name = in_name(i);
      reads[i] = whole(&l, L.domain, name, vtype(inputs[i]));
      free(name);
    }
    if (!reads[i])
      ok = fail(&l, "input %zu: needs a tensor of static shape", i);
  }
  if (ok) {
    desc->kind = NULL;
    desc->name_hint = L.kind;
    desc->macs = L.macs;
    desc->domain = df_set_text(L.domain);
    desc->writes = df_map_text(L.writes);
    desc->n_reads = n_inputs;
    desc->reads = nc_xcalloc(n_inputs + 1, sizeof *desc->reads);
    for (size_t i = 0; i < n_inputs; i++) {
      reads[i] = isl_map_coalesce(reads[i]);
      desc->reads[i] = df_map_text(reads[i]);
      ok &= desc->reads[i] != NULL;
    }
    ok &= desc->domain && desc->writes;
    if (!ok) {
      nc_dataflow_layer_desc_clear(desc);
      fail(&l, "isl failed to print the layer");
    }
  }
  for (size_t i = 0; i < n_inputs; i++)
    isl_map_free(reads[i]);
  free(reads);
  for (size_t p = 0; p < np; p++)
    isl_map_free(L.reads[p]);
  free(L.reads);
  isl_set_free(L.domain);
  isl_map_free(L.writes);
  free(slot_input);
  isl_options_set_on_error(ctx, saved_on_error);
  return ok;
}
