/* loader.c: reads and checks the NorthPole sections of a .ncb binary
 * (np_format.h) into the simulator's state.
 *
 * The container (magic, version, sizes, checksums) was checked by
 * nc_ncb_parse; this checks the meaning: every field in range, shapes
 * consistent with the layer kind, weights of the right size, buffers inside
 * the core's SRAM and disjoint, blocks inside their tensors, instructions
 * naming existing tiles, operands and iterations, sends of the bytes their
 * iteration produces. A binary that passes cannot make the simulator read
 * or write out of bounds; what it can still get wrong is the schedule,
 * which the simulator reports when it runs.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "../../common/runtime/rt_util.h"
#include "np_limits.h"
#include "np_sim.h"

typedef struct loader {
  nc_cursor c;
  char *err;
  size_t errlen;
  const char *where; /* "tile 3 (1, 0)" for messages */
  const nc_ncb_section *weights; /* the NP_SECTION_WEIGHTS section, or NULL */
  void *scratch; /* analyse_iterations' per-element tables, kept from tile to tile (owned) */
  size_t scratch_cap;
  struct key_run *runs; /* analyse_iterations' key runs of the tile it analyses (owned) */
  size_t n_runs, runs_cap;
  struct plan_entry *plans; /* the conv and matmul read plans made so far (owned; loader_free) */
  bool own_plans;           /* np_sim.own_memory: no tile borrows a plan */
  size_t n_plans, plans_cap;
} loader;

/* l's scratch of at least n bytes (8-aligned; contents undefined): reused
 * across tiles, so the tables' pages are faulted in once, not per tile. */
static void *loader_scratch(loader *l, size_t n)
{
  if (n > l->scratch_cap) {
    free(l->scratch);
    l->scratch_cap = n > 2 * l->scratch_cap ? n : 2 * l->scratch_cap;
    l->scratch = nc_rt_malloc(l->scratch_cap);
  }
  return l->scratch;
}

static bool bad(loader *l, const char *fmt, ...) NC_RT_PRINTF(2, 3);
static bool bad(loader *l, const char *fmt, ...)
{
  char msg[384];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  snprintf(l->err, l->errlen, "malformed: %s: %s", l->where, msg);
  return false;
}

static bool truncated(loader *l)
{
  return l->c.bad ? bad(l, "the section ends early") : true;
}

static bool read_shape(loader *l, np_shape *s)
{
  uint32_t rank = nc_cursor_u32(&l->c);
  s->rank = (int)rank;
  s->elements = 1;
  for (int i = 0; i < NP_MAX_RANK; i++)
    s->dims[i] = nc_cursor_i64(&l->c);
  if (!truncated(l))
    return false;
  if (rank < 1 || rank > NP_MAX_RANK)
    return bad(l, "a tensor of rank %u", rank);
  for (uint32_t i = 0; i < rank; i++) {
    if (s->dims[i] < 1 || s->dims[i] > NP_MAX_TENSOR_ELEMENTS || (s->elements *= s->dims[i]) > NP_MAX_TENSOR_ELEMENTS)
      return bad(l, "a tensor with a bad shape");
  }
  return true;
}

/* Reads n_iters iterations of blocks over a tensor of `elements`. */
static bool read_iters(loader *l, uint32_t n, bool with_work, int64_t elements, np_iter **iters, np_block **blocks)
{
  if (n > (1u << 24) || n > (l->c.len - l->c.pos) / (with_work ? 24 : 8)) /* each takes at least that many bytes */
    return bad(l, "%u iterations do not fit the section", n);
  *iters = nc_rt_calloc(n, sizeof **iters);
  size_t cap = 16, used = 0;
  *blocks = nc_rt_malloc(cap * sizeof **blocks);
  size_t *first = nc_rt_calloc(n, sizeof *first);
  for (uint32_t i = 0; i < n; i++) {
    np_iter *it = &(*iters)[i];
    if (with_work) {
      it->macs = nc_cursor_u64(&l->c);
      it->vector_ops = nc_cursor_u64(&l->c);
    }
    it->n_blocks = nc_cursor_u32(&l->c);
    uint32_t zero = nc_cursor_u32(&l->c);
    if (!truncated(l) || it->n_blocks > l->c.len / 32)
      return free(first), l->c.bad ? false : bad(l, "iteration %u has %u blocks", i, it->n_blocks);
    if (zero)
      return free(first), bad(l, "iteration %u: the word after n_blocks is %u, it must be 0", i, zero);
    if (it->macs > NP_MAX_ITER_WORK || it->vector_ops > NP_MAX_ITER_WORK)
      return free(first), bad(l, "iteration %u: %s %llu is larger than 2^38", i,
                              it->macs > NP_MAX_ITER_WORK ? "macs" : "vector_ops",
                              (unsigned long long)(it->macs > NP_MAX_ITER_WORK ? it->macs : it->vector_ops));
    first[i] = used;
    for (uint32_t b = 0; b < it->n_blocks; b++) {
      np_block k = {nc_cursor_i64(&l->c), nc_cursor_i64(&l->c), nc_cursor_i64(&l->c), nc_cursor_i64(&l->c)};
      if (!truncated(l))
        return free(first), false;
      /* each field is bounded before any arithmetic on it: (count - 1) * stride + len <= 2^48 + 2^24 */
      const char *field = k.len < 1 || k.len > elements       ? "len"
                          : k.count < 1 || k.count > elements ? "count"
                          : k.stride < 0 || k.stride > elements ? "stride"
                                                                : NULL;
      if (field)
        return free(first), bad(l, "iteration %u: block {%lld, %lld, %lld, %lld}: %s is outside [%d, %lld]", i,
                                (long long)k.start, (long long)k.len, (long long)k.stride, (long long)k.count, field,
                                strcmp(field, "stride") ? 1 : 0, (long long)elements);
      int64_t span = (k.count - 1) * k.stride + k.len;
      if (span > elements || k.start < 0 || k.start > elements - span)
        return free(first), bad(l, "iteration %u: block {%lld, %lld, %lld, %lld}: start must be in [0, %lld] for "
                                "the block to stay inside its tensor of %lld elements", i, (long long)k.start,
                                (long long)k.len, (long long)k.stride, (long long)k.count,
                                (long long)(span > elements ? -1 : elements - span), (long long)elements);
      if (k.count > 1 && k.stride < k.len)
        return free(first), bad(l, "iteration %u: block {%lld, %lld, %lld, %lld} overlaps itself (stride < len)",
                                i, (long long)k.start, (long long)k.len, (long long)k.stride, (long long)k.count);
      if (used == cap)
        *blocks = nc_rt_realloc(*blocks, (cap *= 2) * sizeof **blocks);
      (*blocks)[used++] = k;
      it->elements += k.len * k.count;
    }
  }
  for (uint32_t i = 0; i < n; i++)
    (*iters)[i].blocks = *blocks + first[i];
  free(first);
  return true;
}

static bool check_conv_like(loader *l, np_tile *t)
{
  const np_shape *in = &t->in[0], *out = &t->out;
  if (in->rank != 4 || out->rank != 4 || in->dims[0] != 1 || out->dims[0] != 1)
    return bad(l, "a conv or pool needs 1xCxHxW input and output");
  for (int i = 0; i < 2; i++)
    if (t->kernel[i] < 1 || t->stride[i] < 1 || t->dilation[i] < 1 ||
        t->kernel[i] > (t->kind == NP_KIND_CONV ? 64 : 4096) || t->stride[i] > 64 || /* global pools: the plane */
        t->dilation[i] > 64)
      return bad(l, "bad kernel, stride or dilation");
  for (int i = 0; i < 4; i++)
    if (t->pad[i] < 0 || t->pad[i] > 64)
      return bad(l, "bad padding");
  bool pool = t->kind == NP_KIND_MAX_POOL || t->kind == NP_KIND_AVG_POOL;
  if (pool ? in->dims[1] != out->dims[1]
                                  : t->group < 1 || in->dims[1] % t->group || out->dims[1] % t->group)
    return bad(l, "channels do not match the layer");
  /* the output must fit the window: ONNX's floor formula, or one more row/column for ceil_mode pools */
  for (int a = 0; a < 2; a++) {
    int64_t span = in->dims[2 + a] + t->pad[a] + t->pad[2 + a] - t->dilation[a] * (t->kernel[a] - 1) - 1;
    int64_t floor_out = span < 0 ? 0 : span / t->stride[a] + 1;
    if (out->dims[2 + a] != floor_out && !(pool && out->dims[2 + a] == floor_out + 1))
      return bad(l, "output size %lld does not match the window", (long long)out->dims[2 + a]);
  }
  return true;
}

/* The input channels a tile sums over: all of them, or with NP_FLAG_PARTIAL /
 * NP_FLAG_REDUCE a slice of a conv's (group 1) or matmul's (np_format.h). */
static bool check_input_slice(loader *l, np_tile *t)
{
  bool split = t->flags & (NP_FLAG_PARTIAL | NP_FLAG_REDUCE);
  const np_shape *in = &t->in[0];
  int64_t cin = t->kind == NP_KIND_CONV ? (in->rank == 4 ? in->dims[1] : 0) : in->dims[in->rank - 1];
  if (!split) {
    t->in_lo = 0, t->in_hi = t->kind == NP_KIND_CONV ? cin / (t->group > 0 ? t->group : 1) : cin;
    return true;
  }
  if ((t->flags & NP_FLAG_PARTIAL) && (t->flags & NP_FLAG_REDUCE))
    return bad(l, "flags 0x%x: a tile either sends partial sums or reduces them", t->flags);
  if (!(t->kind == NP_KIND_CONV && t->group == 1) && t->kind != NP_KIND_MATMUL)
    return bad(l, "only a conv with group 1 or a matmul sums over an input-channel slice (kind %u)", t->kind);
  if (t->in_lo < 0 || t->in_lo >= t->in_hi || t->in_hi > cin)
    return bad(l, "input channels [%lld, %lld) are not inside operand 0's %lld", (long long)t->in_lo,
               (long long)t->in_hi, (long long)cin);
  if (t->flags & NP_FLAG_REDUCE ? t->in_lo != 0 || t->n_partials < 1 || t->n_partials > NP_MAX_PARTIALS
                                : t->n_partials != 0)
    return bad(l, "%s tile with input channels from %lld adds %u partial sums (a reducer's slice starts at 0 and "
               "adds 1 to %u, a partial tile's none)", t->flags & NP_FLAG_REDUCE ? "a reducer" : "a partial-sum",
               (long long)t->in_lo, t->n_partials, NP_MAX_PARTIALS);
  if (t->output_index >= 0 && (t->flags & NP_FLAG_PARTIAL))
    return bad(l, "a partial-sum tile's result cannot be a network output");
  return true;
}

static bool check_layer(loader *l, np_tile *t)
{
  if (t->out.rank < 2 || t->ch_lo < 0 || t->ch_hi > t->out.dims[1] || t->ch_hi <= t->ch_lo)
    return bad(l, "output channels [%lld, %lld) are not inside the result", (long long)t->ch_lo, (long long)t->ch_hi);
  int64_t slice = t->ch_hi - t->ch_lo;
  if (!check_input_slice(l, t))
    return false;
  uint32_t want_ops = t->kind == NP_KIND_ELTWISE || t->kind == NP_KIND_MUL ? 2u : 1u;
  if (t->kind == NP_KIND_CONCAT ? t->n_operands < 1 : t->n_operands != want_ops)
    return bad(l, "%u operands for a layer of kind %u", t->n_operands, t->kind);
  bool per_operand = t->kind == NP_KIND_ELTWISE || t->kind == NP_KIND_CONCAT || t->kind == NP_KIND_MUL;
  uint64_t want_w = 0;
  bool requant = false;
  switch (t->kind) {
  case NP_KIND_CONV:
    if (!check_conv_like(l, t))
      return false;
    want_w = (uint64_t)slice * (uint64_t)(t->in_hi - t->in_lo) * (uint64_t)(t->kernel[0] * t->kernel[1]);
    requant = true;
    break;
  case NP_KIND_MAX_POOL:
  case NP_KIND_AVG_POOL:
    if (!check_conv_like(l, t))
      return false;
    break;
  case NP_KIND_MATMUL:
    if (t->in[0].rank != 2 || t->out.rank != 2 || t->in[0].dims[0] != t->out.dims[0])
      return bad(l, "a matmul needs [M, K] input and [M, N] output");
    want_w = (uint64_t)(t->in_hi - t->in_lo) * (uint64_t)slice;
    requant = true;
    break;
  case NP_KIND_COPY:
    if (t->in[0].elements != t->out.elements)
      return bad(l, "a copy between tensors of %lld and %lld elements", (long long)t->in[0].elements,
                 (long long)t->out.elements);
    break;
  case NP_KIND_ELTWISE: /* two operands of the result's shape, one rescale each */
    for (int i = 0; i < 2; i++)
      if (t->in[i].rank != t->out.rank || memcmp(t->in[i].dims, t->out.dims, (size_t)t->out.rank * sizeof(int64_t)))
        return bad(l, "an elementwise layer needs operands of the result's shape");
    if (t->n_requant != 2 || t->n_bias)
      return bad(l, "an elementwise layer needs one multiplier and shift per operand and no bias");
    break;
  case NP_KIND_CONCAT: { /* [1, C_i, H, W] (or [1, N_i] vector) operands joined along dim 1, one rescale each */
    int64_t c = 0;
    for (uint32_t i = 0; i < t->n_operands; i++) {
      const np_shape *x = &t->in[i];
      if ((t->out.rank != 4 && t->out.rank != 2) || x->rank != t->out.rank || x->dims[0] != 1 ||
          t->out.dims[0] != 1 || (x->rank == 4 && (x->dims[2] != t->out.dims[2] || x->dims[3] != t->out.dims[3])))
        return bad(l, "a concat needs [1, C, H, W] operands of the result's height and width, or [1, N] vectors");
      c += x->dims[1];
    }
    if (c != t->out.dims[1] || t->n_requant != t->n_operands || t->n_bias)
      return bad(l, "a concat needs operands whose channels add up to the result's and one rescale per operand");
    break;
  }
  case NP_KIND_MUL: { /* operand 1 of the result's shape or [1, C, 1, 1] */
    const np_shape *a0 = &t->in[0], *b = &t->in[1];
    bool same = b->rank == t->out.rank && !memcmp(b->dims, t->out.dims, (size_t)b->rank * sizeof(int64_t));
    bool gate = b->rank == 4 && t->out.rank == 4 && b->dims[0] == 1 && b->dims[1] == t->out.dims[1] &&
                b->dims[2] == 1 && b->dims[3] == 1;
    if (a0->rank != t->out.rank || memcmp(a0->dims, t->out.dims, (size_t)a0->rank * sizeof(int64_t)) ||
        (!same && !gate))
      return bad(l, "a product needs operand 0 of the result's shape and operand 1 the same or [1, C, 1, 1]");
    if (t->n_requant != 1 || t->n_bias)
      return bad(l, "a product needs one multiplier and shift and no bias");
    break;
  }
  case NP_KIND_MOVE: { /* resize, pad, shuffle: [1, C, H, W] -> [1, C, OH, OW] (OC channels: a nearest resize) */
    const np_shape *x = &t->in[0], *y = &t->out;
    bool channels = t->weight_bytes == 12; /* a nearest resize of the channels: a, b, d as 3 i32 */
    if (x->rank == 2 || y->rank == 2) { /* a pad of a vector [1, N] -> [1, N + left + right] */
      if (x->rank != 2 || y->rank != 2 || x->dims[0] != 1 || y->dims[0] != 1 || t->group != 1 || channels ||
          t->kernel[0] != 1 || t->kernel[1] != 1 || t->pad[0] || t->pad[2] || t->pad[1] < 0 || t->pad[3] < 0 ||
          y->dims[1] != x->dims[1] + t->pad[1] + t->pad[3])
        return bad(l, "a move layer on a vector pads [1, N] to [1, N + left + right], with nothing else");
      break;
    }
    if (x->rank != 4 || y->rank != 4 || x->dims[0] != 1 || (y->dims[0] != 1 && t->group != 1) ||
        (x->dims[1] != y->dims[1] && !channels) || t->group < 1 || x->dims[1] % t->group)
      return bad(l, "a move layer needs [1, C, H, W] operand and result (or [N, C, OH, OW]: every image the same) "
                 "and a group count dividing C");
    if (channels) {
      int64_t c[3];
      for (int k = 0; k < 3; k++) {
        const uint8_t *w = (const uint8_t *)t->weights + 4 * k;
        c[k] = (int32_t)((uint32_t)w[0] | (uint32_t)w[1] << 8 | (uint32_t)w[2] << 16 | (uint32_t)w[3] << 24);
      }
      if (c[0] < 0 || c[2] < 1 || t->group != 1)
        return bad(l, "a move layer's channel map needs a >= 0, d >= 1 and group 1, not a = %lld, d = %lld, group "
                   "%lld", (long long)c[0], (long long)c[2], (long long)t->group);
      want_w = 12;
    }
    for (int a = 0; a < 2; a++)
      if (t->kernel[a] < 1 || t->kernel[a] > 4096 || t->pad[a] < 0 || t->pad[2 + a] < 0 ||
          y->dims[2 + a] != x->dims[2 + a] * t->kernel[a] + t->pad[a] + t->pad[2 + a])
        return bad(l, "a move layer's result size does not match its factors and padding");
    uint32_t pad_flags = t->flags & (NP_FLAG_PAD_REFLECT | NP_FLAG_PAD_EDGE | NP_FLAG_PAD_WRAP);
    if (pad_flags) {
      if (pad_flags & (pad_flags - 1))
        return bad(l, "a move layer pads by reflection, its edge or wrapping, only one of them");
      for (int a = 0; a < 2; a++)
        if (t->kernel[a] != 1)
          return bad(l, "a reflect, edge or wrap pad needs factors 1");
    }
    break;
  }
  case NP_KIND_RESIZE: { /* linear: [1, C, H, W] -> [1, OC, OH, OW], 6 (or 9) i32 coordinate coefficients */
    const np_shape *x = &t->in[0], *y = &t->out;
    want_w = x->rank == 4 && y->rank == 4 && x->dims[1] != y->dims[1] ? 36 : 24; /* the channels interpolated */
    if (x->rank != 4 || y->rank != 4 || x->dims[0] != 1)
      return bad(l, "a linear resize needs a [1, C, H, W] operand and a rank-4 result (a batch: every image the "
                 "same)");
    if (t->n_requant || t->n_bias)
      return bad(l, "a linear resize has no requantization");
    if (t->weight_bytes == (uint64_t)want_w)
      for (int a = 0; a < (int)(want_w / 12); a++) {
        int64_t c[3];
        for (int k = 0; k < 3; k++) {
          const uint8_t *w = (const uint8_t *)t->weights + 4 * (3 * a + k);
          c[k] = (int32_t)((uint32_t)w[0] | (uint32_t)w[1] << 8 | (uint32_t)w[2] << 16 | (uint32_t)w[3] << 24);
        }
        if (c[0] < 0 || c[2] < 1)
          return bad(l, "a linear resize needs a >= 0 and d >= 1 on each axis, not a = %lld, d = %lld",
                     (long long)c[0], (long long)c[2]);
      }
    break;
  }
  case NP_KIND_TRANSPOSE: { /* out dim k = in dim perm[k], the perm as r i32 weights */
    const np_shape *x = &t->in[0], *y = &t->out;
    want_w = 4 * (uint64_t)y->rank;
    if (x->rank != y->rank || t->n_requant || t->n_bias || t->weight_bytes != want_w)
      return bad(l, "a transpose needs an operand of the result's rank, its permutation as weights and no "
                 "requantization");
    bool seen[NP_MAX_RANK] = {false};
    for (int k = 0; k < y->rank; k++) {
      const uint8_t *w = (const uint8_t *)t->weights + 4 * k;
      int32_t p = (int32_t)((uint32_t)w[0] | (uint32_t)w[1] << 8 | (uint32_t)w[2] << 16 | (uint32_t)w[3] << 24);
      if (p < 0 || p >= y->rank || seen[p] || y->dims[k] != x->dims[p])
        return bad(l, "a transpose's weights are not a permutation taking the operand's dims to the result's");
      seen[p] = true;
    }
    break;
  }
  case NP_KIND_SOFTMAX:
    if (t->in[0].rank != t->out.rank || memcmp(t->in[0].dims, t->out.dims, (size_t)t->out.rank * sizeof(int64_t)))
      return bad(l, "a softmax layer needs an operand of the result's shape");
    if (t->n_requant || t->n_bias)
      return bad(l, "a softmax layer has no requantization");
    want_w = 1024;
    break;
  case NP_KIND_LUT:
    if (t->in[0].rank != t->out.rank || memcmp(t->in[0].dims, t->out.dims, (size_t)t->out.rank * sizeof(int64_t)))
      return bad(l, "a table layer needs an operand of the result's shape");
    if (t->n_requant || t->n_bias)
      return bad(l, "a table layer has no requantization");
    want_w = 256;
    break;
  default:
    return bad(l, "unknown layer kind %u", t->kind);
  }
  if (t->flags & NP_FLAG_PACKED_WEIGHTS) { /* at the tile's width, two or four a byte */
    if ((t->kind != NP_KIND_CONV && t->kind != NP_KIND_MATMUL) || t->bits == 8)
      return bad(l, "packed weights need a conv or matmul layer of width 4 or 2, not kind %u at %u bits", t->kind,
                 t->bits);
    want_w = (want_w * t->bits + 7) / 8;
  }
  if (t->weight_bytes != want_w)
    return bad(l, "%llu bytes of weights, the layer needs %llu", (unsigned long long)t->weight_bytes,
               (unsigned long long)want_w);
  if (t->flags & NP_FLAG_PARTIAL ? t->n_requant || t->n_bias
                                  : !per_operand &&
      (requant ? (t->n_requant != 1 && t->n_requant != (uint64_t)slice) || (t->n_bias && t->n_bias != (uint64_t)slice)
               : t->n_requant || t->n_bias))
    return bad(l, "%u requantize multipliers and %u biases for %lld channels%s", t->n_requant, t->n_bias,
               (long long)slice, t->flags & NP_FLAG_PARTIAL ? " of partial sums (which have neither)" : "");
  for (uint32_t i = 0; i < t->n_requant; i++)
    if (t->multiplier[i] < 0 || t->shift[i] < 0 || t->shift[i] > 63)
      return bad(l, "requantize multiplier %d / shift %d out of range", t->multiplier[i], t->shift[i]);
  if (t->zero_point < -128 || t->zero_point > 127)
    return bad(l, "zero point %d outside int8", t->zero_point);
  return true;
}

static bool check_buffers(loader *l, np_tile *t, uint32_t sram)
{
  for (uint32_t i = 0; i < NP_MAX_OPERANDS; i++)
    t->in_capacity[i] = -1;
  t->out_capacity = -1;
  for (uint32_t i = 0; i < t->n_buffers; i++) {
    np_buffer *b = &t->buffers[i];
    if (b->kind < NP_BUF_WEIGHTS || b->kind > NP_BUF_SCRATCH)
      return bad(l, "buffer '%s' has unknown kind %u", b->name, b->kind);
    if (b->offset < 0)
      return bad(l, "buffer '%s' has no address (was core-plan-memory run?)", b->name);
    if (b->bytes < 1)
      return bad(l, "buffer '%s' has %lld bytes, it must have at least 1", b->name, (long long)b->bytes);
    if (b->offset > sram || b->bytes > sram - b->offset)
      return bad(l, "buffer '%s' (%lld bytes at %lld) does not fit the core's %u bytes of SRAM", b->name,
                 (long long)b->bytes, (long long)b->offset, sram);
    if (b->first < 0 || b->first > b->last || b->last > (int64_t)t->n_instrs)
      return bad(l, "buffer '%s' has lifetime [%lld, %lld] in a program of %u instructions", b->name,
                 (long long)b->first, (long long)b->last, t->n_instrs);
    for (uint32_t j = 0; j < i; j++) { /* buffers may share addresses only when their lifetimes are disjoint */
      np_buffer *o = &t->buffers[j];
      if (b->bytes && o->bytes && b->offset < o->offset + o->bytes && o->offset < b->offset + b->bytes &&
          b->first <= o->last && o->first <= b->last)
        return bad(l, "buffers '%s' and '%s' overlap while both are live", o->name, b->name);
    }
    if (b->kind == NP_BUF_INPUT) {
      if (b->operand >= t->n_operands || t->in_capacity[b->operand] >= 0)
        return bad(l, "input buffer '%s' is for operand %u", b->name, b->operand);
      t->in_capacity[b->operand] = b->bytes;
    }
    if (b->kind == NP_BUF_OUTPUT) {
      if (t->out_capacity >= 0)
        return bad(l, "a second output buffer '%s'", b->name);
      t->out_capacity = b->bytes;
    }
    if (b->kind == NP_BUF_WEIGHTS && (uint64_t)b->bytes < t->weight_bytes)
      return bad(l, "weight buffer '%s' holds %lld bytes, the weights take %llu", b->name, (long long)b->bytes,
                 (unsigned long long)t->weight_bytes);
  }
  return true;
}

static int find_tile(const np_sim *s, int64_t x, int64_t y, uint32_t slot)
{
  for (size_t i = 0; i < s->n_tiles; i++)
    if (s->tiles[i].x == x && s->tiles[i].y == y && s->tiles[i].slot == slot)
      return (int)i;
  return -1;
}

/* Tiles sharing a core run interleaved: no byte of SRAM may belong to both. */
static bool check_shared_core(loader *l, const np_sim *s, const np_tile *t)
{
  for (const np_tile *o = s->tiles; o < t; o++) {
    if (o->x != t->x || o->y != t->y)
      continue;
    for (uint32_t i = 0; i < t->n_buffers; i++)
      for (uint32_t j = 0; j < o->n_buffers; j++) {
        const np_buffer *a = &t->buffers[i], *b = &o->buffers[j];
        if (a->offset < b->offset + b->bytes && b->offset < a->offset + a->bytes)
          return bad(l, "buffer '%s' at [%lld, %lld) overlaps buffer '%s' at [%lld, %lld) of tile '%s' (slot %u), "
                     "which shares the core", a->name, (long long)a->offset, (long long)(a->offset + a->bytes),
                     b->name, (long long)b->offset, (long long)(b->offset + b->bytes), o->node, o->slot);
      }
  }
  return true;
}

/* Whether two tiles' iterations write the same output elements. */
static bool same_elements(const np_iter *a, const np_iter *b)
{
  if (a->elements != b->elements || a->n_blocks != b->n_blocks)
    return false;
  for (uint32_t k = 0; k < a->n_blocks; k++)
    if (a->blocks[k].start != b->blocks[k].start || a->blocks[k].len != b->blocks[k].len ||
        a->blocks[k].stride != b->blocks[k].stride || a->blocks[k].count != b->blocks[k].count)
      return false;
  return true;
}

/* Partial sums travel from a NP_FLAG_PARTIAL tile, on network 1 only, to a
 * NP_FLAG_REDUCE tile of the same layer and output channels that computes the
 * same elements of the iteration (the same row band), whose recvs of them
 * are on network 1 too; everything else on network 0. */
static bool check_partial_sum_instr(loader *l, np_sim *s, np_tile *t, uint32_t i)
{
  const np_instr *in = &t->prog[i];
  if (in->op != NP_OP_SEND && in->op != NP_OP_RECV)
    return true;
  bool psum = in->zero == NP_NET_PARTIAL_SUM, partial = t->flags & NP_FLAG_PARTIAL;
  if (in->op == NP_OP_SEND && psum != partial)
    return bad(l, "instruction %u sends on network %u, but %s", i, in->zero,
               partial ? "a partial-sum tile sends on the partial-sum network (1) only"
                       : "only a partial-sum tile sends on the partial-sum network (1)");
  if (!psum)
    return true;
  if (in->op == NP_OP_RECV && (!(t->flags & NP_FLAG_REDUCE) || in->c != 0))
    return bad(l, "instruction %u receives partial sums (network 1) into %s", i,
               t->flags & NP_FLAG_REDUCE ? "an operand other than 0" : "a tile that is no reducer");
  int peer = find_tile(s, in->a, in->b, in->slot);
  const np_tile *p = peer >= 0 ? &s->tiles[peer] : NULL;
  uint32_t want = in->op == NP_OP_SEND ? NP_FLAG_REDUCE : NP_FLAG_PARTIAL;
  if (!p || !(p->flags & want) || strcmp(p->node, t->node) || p->ch_lo != t->ch_lo || p->ch_hi != t->ch_hi)
    return bad(l, "instruction %u %s partial sums %s (%lld, %lld), which is no %s tile of '%s' with output channels "
               "[%lld, %lld)", i, in->op == NP_OP_SEND ? "sends" : "receives", in->op == NP_OP_SEND ? "to" : "from",
               (long long)in->a, (long long)in->b, in->op == NP_OP_SEND ? "reducer" : "partial-sum", t->node,
               (long long)t->ch_lo, (long long)t->ch_hi);
  if (in->op == NP_OP_SEND && in->c >= 0 && in->c < t->n_iters && in->c < p->n_iters &&
      !same_elements(&t->iters[in->c], &p->iters[in->c])) /* a row band's group adds its own rows' sums */
    return bad(l, "instruction %u sends the partial sums of iteration %lld to (%lld, %lld), which computes other "
               "elements of that iteration (a reducer of another row band?)", i, (long long)in->c, (long long)in->a,
               (long long)in->b);
  return true;
}

static bool check_program(loader *l, np_sim *s, np_tile *t)
{
  for (uint32_t i = 0; i < t->n_instrs; i++) {
    np_instr *in = &t->prog[i];
    bool host = in->a == -1 && in->b == -1;
    if (in->slot && (host || in->slot >= NP_MAX_SLOTS))
      return bad(l, "instruction %u names slot %u: a tile's slot is 0 to %u, and the host has none", i, in->slot,
                 NP_MAX_SLOTS - 1);
    if (!host && in->a == t->x && in->b == t->y && in->slot == t->slot &&
        (in->op == NP_OP_SEND || in->op == NP_OP_RECV))
      return bad(l, "instruction %u %s its own tile", i, in->op == NP_OP_SEND ? "sends to" : "receives from");
    if ((in->frames || in->frame) &&
        ((in->op != NP_OP_SEND && in->op != NP_OP_RECV) || in->frames < 2 || in->frame >= in->frames))
      return bad(l, "instruction %u runs on frames %u mod %u: only a recv or send has frames, a residue r of a "
                 "period n with 0 <= r < n and n >= 2", i, in->frame, in->frames);
    if (in->op == NP_OP_SEND && (in->zero & NP_SEND_MULTICAST)) { /* one multicast with the next send */
      const np_instr *next = i + 1 < t->n_instrs ? &t->prog[i + 1] : NULL;
      in->multicast = true, in->zero &= ~NP_SEND_MULTICAST;
      if (host || !next || next->op != NP_OP_SEND || next->c != in->c || (next->zero & ~NP_SEND_MULTICAST) != in->zero ||
          (next->a == -1 && next->b == -1))
        return bad(l, "instruction %u is a multicast send, but the next instruction is no send of the same iteration "
                   "and network to a tile", i);
    }
    if (in->zero && !((in->op == NP_OP_SEND || in->op == NP_OP_RECV) && in->zero < NP_NUM_NETS))
      return bad(l, "instruction %u: the word after the opcode is %u, it must be 0%s", i, in->zero,
                 in->op == NP_OP_SEND || in->op == NP_OP_RECV ? " (activation network) or 1 (partial-sum network)"
                                                              : "");
    if (!check_partial_sum_instr(l, s, t, i))
      return false;
    switch (in->op) {
    case NP_OP_RECV:
      if (in->c < 0 || in->c >= t->n_operands)
        return bad(l, "instruction %u receives operand %lld of %u", i, (long long)in->c, t->n_operands);
      if (in->zero != NP_NET_PARTIAL_SUM && host != (t->host_input[in->c] >= 0))
        return bad(l, "instruction %u receives operand %lld from %s, but it comes from %s", i, (long long)in->c,
                   host ? "the host" : "a tile", t->host_input[in->c] >= 0 ? "the host" : "a tile");
      if (!host && find_tile(s, in->a, in->b, in->slot) < 0)
        return bad(l, "instruction %u receives from (%lld, %lld) slot %u, which holds no tile", i, (long long)in->a,
                   (long long)in->b, in->slot);
      if (host && t->host_input[in->c] >= 0 && (in->d < 0 || in->d >= s->streams[t->host_input[in->c]].n_iters))
        return bad(l, "instruction %u receives input step %lld, which the host does not send", i, (long long)in->d);
      if (in->d < 0)
        return bad(l, "instruction %u receives iteration %lld", i, (long long)in->d);
      break;
    case NP_OP_COMPUTE:
      if (in->a < 0 || in->a >= in->b || in->b > t->n_iters)
        return bad(l, "instruction %u computes iterations [%lld, %lld) of %u", i, (long long)in->a, (long long)in->b,
                   t->n_iters);
      break;
    case NP_OP_SEND:
      if (in->c < 0 || in->c >= t->n_iters)
        return bad(l, "instruction %u sends iteration %lld of %u", i, (long long)in->c, t->n_iters);
      if (host ? t->output_index < 0 : find_tile(s, in->a, in->b, in->slot) < 0)
        return bad(l, "instruction %u sends to (%lld, %lld) slot %u, which %s", i, (long long)in->a,
                   (long long)in->b, in->slot, host ? "is the host, but the tile's result is no network output"
                                                    : "holds no tile");
      if (in->d != np_message_bytes(t, t->iters[in->c].elements))
        return bad(l, "instruction %u sends %lld bytes for iteration %lld, which produces %lld here", i,
                   (long long)in->d, (long long)in->c, (long long)np_message_bytes(t, t->iters[in->c].elements));
      break;
    case NP_OP_WAIT:
      if (in->a < 0 || in->a > NP_MAX_WAIT_CYCLES)
        return bad(l, "instruction %u waits %lld cycles, outside [0, 2^40]", i, (long long)in->a);
      break;
    default:
      return bad(l, "instruction %u has unknown opcode %u", i, in->op);
    }
  }
  return true;
}

typedef struct last_ctx {
  int32_t **last_read; /* per operand, per element */
  int32_t iter;
  uint64_t reads;
} last_ctx;

static void record_last(uint32_t operand, int64_t idx, void *user)
{
  last_ctx *c = user;
  c->last_read[operand][idx] = c->iter;
  c->reads++;
}

/* The most input reads the loader enumerates for one tile (a bound on the
 * work a malformed binary can ask of it). */
#define MAX_READS ((uint64_t)1 << 28)

/* Keys key + j * step (0 <= j < n) first read by iteration `iter`, from output element e on (np_read_key_span);
 * `each`: found element by element, marked with np_foreach_read (else np_mark_reads). */
typedef struct key_run {
  int32_t iter;
  bool each;
  int64_t e, key, step, n;
} key_run;

/* A conv's or matmul's read plan (np_inbuf_plan's tables, owned by the first tile that made it) and what
 * made it: the tile's read geometry and its key runs. A later tile with equal ones reads the same input
 * elements in the same iterations (the key names them, np_read_key), so it borrows the tables: the
 * channel slices of a layer split by output channels differ only in the channels they compute. */
typedef struct plan_entry {
  const np_tile *t;
  key_run *runs; /* owned */
  size_t n_runs;
  uint64_t reads;
} plan_entry;

static bool same_key_runs(const key_run *a, const key_run *b, size_t n)
{
  for (size_t i = 0; i < n; i++)
    if (a[i].iter != b[i].iter || a[i].key != b[i].key || a[i].n != b[i].n || (a[i].n > 1 && a[i].step != b[i].step))
      return false;
  return true;
}

/* Appends a key run to l's list. */
static void add_key_run(loader *l, key_run r)
{
  if (l->n_runs == l->runs_cap) {
    l->runs_cap = l->runs_cap ? 2 * l->runs_cap : 256;
    l->runs = nc_rt_realloc(l->runs, l->runs_cap * sizeof *l->runs);
  }
  l->runs[l->n_runs++] = r;
}

/* The end of the run of keys seen in iteration i from j on, below n (keys consecutive): 16 at a time with
 * a branch-free compare the compiler vectorises, then singly. The channel planes of a conv tile read the
 * same keys, so all but its first plane's runs are seen. */
static int64_t seen_end(const int32_t *seen, int64_t j, int64_t n, int32_t i)
{
  while (j + 16 <= n) {
    uint32_t d = 0;
    for (int q = 0; q < 16; q++)
      d |= (uint32_t)(seen[j + q] ^ i);
    if (d)
      break;
    j += 16;
  }
  while (j < n && seen[j] == i)
    j++;
  return j;
}

/* Checks that the iteration blocks stay inside the tile's channels and never
 * write an element twice, and finds the last iteration reading each input
 * element (for buffer occupancy): output elements with the same read key
 * (np_read_key) read the same inputs, so each key is listed once per
 * iteration (as runs of keys), then the reads of the listed keys are marked;
 * a conv or matmul whose geometry and key runs another tile had borrows that
 * tile's plan instead (plan_entry). */
static bool analyse_iterations(loader *l, np_tile *t)
{
  int64_t inner = 1, n_keys, step0, span0;
  for (int d = 2; d < t->out.rank; d++)
    inner *= t->out.dims[d];
  np_read_key(t, 0, &n_keys);
  np_read_key_span(t, 0, &step0, &span0);
  /* the key is the element itself (residual adds, pools, copies...): each is computed once, so it is new to
   * its iteration and needs no seen table */
  bool by_element = span0 == INT64_MAX;
  if (by_element)
    n_keys = 0;
  /* the tables, in the loader's scratch: written (a bit per output element), last_read of each operand, seen */
  size_t written_bytes = (size_t)np_bits_words(t->out.elements) * sizeof(uint64_t);
  size_t bytes = written_bytes + (size_t)n_keys * sizeof(int32_t);
  for (uint32_t k = 0; k < t->n_operands; k++)
    bytes += (size_t)t->in[k].elements * sizeof(int32_t);
  uint64_t *written = loader_scratch(l, bytes);
  memset(written, 0, written_bytes);
  int32_t *at = (int32_t *)(void *)((char *)written + written_bytes);
  int32_t *last_read[NP_MAX_OPERANDS] = {0};
  for (uint32_t k = 0; k < t->n_operands; k++) {
    last_read[k] = at;
    at += t->in[k].elements;
  }
  int32_t *seen = at;
  memset(seen, 0xFF, (size_t)n_keys * sizeof *seen);
  l->n_runs = 0;
  int64_t plane = inner * t->out.dims[1]; /* one image's elements */
  for (uint32_t i = 0; i < t->n_iters; i++) {
    const np_iter *it = &t->iters[i];
    for (uint32_t b = 0; b < it->n_blocks; b++)
      for (int64_t r = 0; r < it->blocks[b].count && it->blocks[b].len > 0; r++) {
        int64_t e0 = it->blocks[b].start + r * it->blocks[b].stride, e1 = e0 + it->blocks[b].len;
        /* a run inside one image covers its channels from e0's to e1 - 1's: checked once, keys without
         * divisions; any doubt (or error) takes the element-by-element walk, which names the element */
        if (e0 / plane == (e1 - 1) / plane && e0 / inner % t->out.dims[1] >= t->ch_lo &&
            (e1 - 1) / inner % t->out.dims[1] < t->ch_hi && np_bits_none(written, e0, e1 - e0)) {
          np_bits_set(written, e0, e1 - e0);
          if (by_element) {
            add_key_run(l, (key_run){(int32_t)i, false, e0, e0, 1, e1 - e0});
            continue;
          }
          for (int64_t e = e0; e < e1;) {
            int64_t step, span, key = np_read_key_span(t, e, &step, &span), n = span < e1 - e ? span : e1 - e;
            for (int64_t j = 0; j < n;) {
              if (seen[key + j * step] == (int32_t)i) {
                j = step == 1 ? seen_end(seen + key, j + 1, n, (int32_t)i) : j + 1;
                continue;
              }
              /* a run of keys not seen in this iteration: conv and pooling mark its reads a row at a time */
              int64_t j0 = j;
              for (; j < n && seen[key + j * step] != (int32_t)i; j++)
                seen[key + j * step] = (int32_t)i;
              add_key_run(l, (key_run){(int32_t)i, false, e + j0, key + j0 * step, step, j - j0});
            }
            e += n;
          }
          continue;
        }
        for (int64_t e = e0; e < e1; e++) {
          int64_t ch = e / inner % t->out.dims[1], key = np_read_key(t, e, NULL);
          if (ch < t->ch_lo || ch >= t->ch_hi)
            return bad(l, "iteration %u computes channel %lld, outside the tile's [%lld, %lld)", i, (long long)ch,
                       (long long)t->ch_lo, (long long)t->ch_hi);
          if (np_bit(written, e))
            return bad(l, "iteration %u computes output element %lld, which an iteration before computes too", i,
                       (long long)e);
          np_bit_set(written, e);
          if (by_element || seen[key] != (int32_t)i) {
            if (!by_element)
              seen[key] = (int32_t)i;
            add_key_run(l, (key_run){(int32_t)i, true, e, key, 1, 1});
          }
        }
      }
  }
  bool cached = (t->kind == NP_KIND_CONV || t->kind == NP_KIND_MATMUL) && t->n_operands == 1 && !l->own_plans;
  for (size_t p = 0; cached && p < l->n_plans; p++) {
    const plan_entry *q = &l->plans[p];
    if (q->n_runs == l->n_runs && q->t->n_iters == t->n_iters && np_same_reads(q->t, t) &&
        same_key_runs(q->runs, l->runs, l->n_runs)) {
      t->read[0] = q->t->read[0], t->release_off[0] = q->t->release_off[0];
      t->release_runs[0] = q->t->release_runs[0];
      t->plan_borrowed = true;
      return true;
    }
  }
  for (uint32_t k = 0; k < t->n_operands; k++)
    memset(last_read[k], 0xFF, (size_t)t->in[k].elements * sizeof(int32_t));
  last_ctx c = {last_read, 0, 0};
  for (size_t j = 0; j < l->n_runs; j++) {
    const key_run *r = &l->runs[j];
    int64_t reads;
    c.iter = r->iter;
    if (!r->each && c.reads <= MAX_READS && (reads = np_mark_reads(t, r->e, r->n, r->iter, last_read)) >= 0)
      c.reads += (uint64_t)reads;
    else
      for (int64_t q = 0; q < r->n && c.reads <= MAX_READS; q++)
        np_foreach_read(t, r->e + q, record_last, &c);
    if (c.reads > MAX_READS)
      return bad(l, "the layer reads more than %llu input elements per inference, too many to simulate",
                 (unsigned long long)MAX_READS);
  }
  for (uint32_t k = 0; k < t->n_operands; k++)
    np_inbuf_plan(t, k, last_read[k]);
  if (cached) {
    if (l->n_plans == l->plans_cap) {
      l->plans_cap = l->plans_cap ? 2 * l->plans_cap : 64;
      l->plans = nc_rt_realloc(l->plans, l->plans_cap * sizeof *l->plans);
    }
    key_run *runs = nc_rt_malloc((l->n_runs + 1) * sizeof *runs);
    memcpy(runs, l->runs, l->n_runs * sizeof *runs);
    l->plans[l->n_plans++] = (plan_entry){t, runs, l->n_runs, c.reads};
  }
  return true;
}

/* Packed weights (NP_FLAG_PACKED_WEIGHTS) as the int8 the datapath reads,
 * sign-extended; a slice of the weights section is unpacked once for all
 * the tiles that hold it (at: its offset, UINT64_MAX for inline ones). */
static const int8_t *unpack_weights(np_sim *s, const uint8_t *p, uint64_t bytes, unsigned bits, uint64_t at)
{
  for (size_t i = 0; at != UINT64_MAX && i < s->n_unpacked; i++)
    if (s->unpacked_at[i] == at)
      return s->unpacked[i];
  unsigned per = 8 / bits;
  int8_t *w = nc_rt_calloc(bytes * per + 1, 1);
  if (bits == 4) /* two codes a byte, low nibble first: shifts the compiler vectorises */
    for (uint64_t i = 0; i < bytes; i++) {
      w[2 * i] = (int8_t)(uint8_t)(p[i] << 4) >> 4;
      w[2 * i + 1] = (int8_t)p[i] >> 4;
    }
  else
    for (uint64_t i = 0; i < bytes * per; i++) {
      unsigned v = (p[i / per] >> (i % per * bits)) & ((1u << bits) - 1);
      w[i] = (int8_t)(v >= 1u << (bits - 1) ? (int)v - (1 << bits) : (int)v);
    }
  s->unpacked = nc_rt_realloc(s->unpacked, (s->n_unpacked + 1) * sizeof *s->unpacked);
  s->unpacked_at = nc_rt_realloc(s->unpacked_at, (s->n_unpacked + 1) * sizeof *s->unpacked_at);
  s->unpacked[s->n_unpacked] = w;
  s->unpacked_at[s->n_unpacked++] = at;
  return w;
}

/* Adds the operand and result elements of the tile section at l->c to *elements: the shapes alone, read ahead
 * of load_tile, so a binary over NP_MAX_ACTIVATIONS is refused before any tile's (elementwise) analysis. */
static bool tile_activations(loader *l, int64_t *elements)
{
  nc_cursor *c = &l->c;
  char name[32];
  for (int i = 0; i < 4; i++) /* x, y, kind, flags */
    nc_cursor_u32(c);
  nc_cursor_str(c, name, sizeof name);
  nc_cursor_i32(c); /* output index */
  uint32_t n = nc_cursor_u32(c);
  if (!truncated(l))
    return false;
  if (n < 1 || n > NP_MAX_OPERANDS)
    return bad(l, "%u operands", n);
  np_shape shape;
  for (uint32_t k = 0; k <= n; k++) {
    if (k < n)
      nc_cursor_i32(c); /* the network input it reads */
    if (!read_shape(l, &shape))
      return false;
    if ((*elements += shape.elements) > NP_MAX_ACTIVATIONS)
      return bad(l, "the tiles hold more than %lld activations in all, too many to simulate",
                 (long long)NP_MAX_ACTIVATIONS);
  }
  return true;
}

static bool load_tile(loader *l, np_sim *s, np_tile *t)
{
  nc_cursor *c = &l->c;
  t->x = nc_cursor_i32(c);
  t->y = nc_cursor_i32(c);
  t->kind = nc_cursor_u32(c);
  t->flags = nc_cursor_u32(c);
  nc_cursor_str(c, t->node, sizeof t->node);
  t->output_index = nc_cursor_i32(c);
  t->n_operands = nc_cursor_u32(c);
  if (!truncated(l))
    return false;
  for (const char *q = t->node; *q; q++)
    if (*q < 0x20 || *q > 0x7e)
      return bad(l, "the node name has a byte that is not printable ASCII");
  if (t->x < 0 || t->y < 0 || (uint32_t)t->x >= s->chip.cols || (uint32_t)t->y >= s->chip.rows)
    return bad(l, "position (%d, %d) is outside the %ux%u grid", t->x, t->y, s->chip.cols, s->chip.rows);
  t->bits = (t->flags >> NP_WIDTH_SHIFT) & 0xff;
  t->flags &= ~(0xffu << NP_WIDTH_SHIFT); /* flags in bits 0..7 and 16..31 */
  if (!t->bits)
    t->bits = 8; /* an older binary */
  if (!np_width_ok(t->bits))
    return bad(l, "layer width %u bits is not 8, 4 or 2", t->bits);
  t->out_max = (int32_t)((1u << (t->bits - 1)) - 1);
  t->out_min = -t->out_max - 1;
  t->rate = t->bits == 8 ? s->chip.macs_per_cycle : t->bits == 4 ? s->chip.macs_per_cycle_4 : s->chip.macs_per_cycle_2;
  if (t->flags & ~NP_KNOWN_FLAGS)
    return bad(l, "flags 0x%x has bits this version does not know (known: 0x%x)", t->flags, NP_KNOWN_FLAGS);
  if ((t->flags & (NP_FLAG_PAD_REFLECT | NP_FLAG_PAD_EDGE | NP_FLAG_PAD_WRAP)) && t->kind != NP_KIND_MOVE)
    return bad(l, "flags 0x%x: only a move layer pads by reflection, its edge or wrapping", t->flags);
  if (t->n_operands < 1 || t->n_operands > NP_MAX_OPERANDS)
    return bad(l, "%u operands", t->n_operands);
  if (t->output_index < -1 || t->output_index >= (int32_t)s->n_outputs)
    return bad(l, "output index %d", t->output_index);
  for (uint32_t k = 0; k < t->n_operands; k++) {
    t->host_input[k] = nc_cursor_i32(c);
    if (!read_shape(l, &t->in[k]))
      return false;
    if (t->host_input[k] < -1 || t->host_input[k] >= (int32_t)s->n_inputs)
      return bad(l, "operand %u reads network input %d", k, t->host_input[k]);
    if (t->host_input[k] >= 0 &&
        (size_t)t->in[k].elements != nc_ncb_tensor_elements(&s->inputs[t->host_input[k]]))
      return bad(l, "operand %u does not have the shape of network input %d", k, t->host_input[k]);
  }
  if (!read_shape(l, &t->out))
    return false;
  if (t->output_index >= 0 && (size_t)t->out.elements != nc_ncb_tensor_elements(&s->outputs[t->output_index]))
    return bad(l, "the result does not have the shape of network output %d", t->output_index);
  t->ch_lo = nc_cursor_i64(c);
  t->ch_hi = nc_cursor_i64(c);
  for (int i = 0; i < 2; i++) t->kernel[i] = nc_cursor_i64(c);
  for (int i = 0; i < 2; i++) t->stride[i] = nc_cursor_i64(c);
  for (int i = 0; i < 4; i++) t->pad[i] = nc_cursor_i64(c);
  for (int i = 0; i < 2; i++) t->dilation[i] = nc_cursor_i64(c);
  t->group = nc_cursor_i64(c);
  t->zero_point = nc_cursor_i32(c);
  t->n_requant = nc_cursor_u32(c);
  if (!truncated(l) || t->n_requant > (c->len - c->pos) / 8)
    return l->c.bad ? false : bad(l, "%u requantize entries", t->n_requant);
  t->multiplier = nc_rt_calloc(t->n_requant, sizeof(int32_t));
  t->shift = nc_rt_calloc(t->n_requant, sizeof(int32_t));
  for (uint32_t i = 0; i < t->n_requant; i++) t->multiplier[i] = nc_cursor_i32(c);
  for (uint32_t i = 0; i < t->n_requant; i++) t->shift[i] = nc_cursor_i32(c);
  t->n_bias = nc_cursor_u32(c);
  if (!truncated(l) || t->n_bias > (c->len - c->pos) / 4)
    return l->c.bad ? false : bad(l, "%u biases", t->n_bias);
  t->bias = nc_rt_calloc(t->n_bias, sizeof(int32_t));
  for (uint32_t i = 0; i < t->n_bias; i++) t->bias[i] = nc_cursor_i32(c);
  t->weight_bytes = nc_cursor_u64(c);
  bool shared = t->weight_bytes & NP_WEIGHTS_SHARED;
  t->weight_bytes &= ~NP_WEIGHTS_SHARED;
  if (!truncated(l) || t->weight_bytes > s->chip.sram_bytes)
    return l->c.bad ? false : bad(l, "%llu bytes of weights do not fit a core", (unsigned long long)t->weight_bytes);
  if (shared) { /* a slice of the weights section, which the tiles of a row-banded layer share */
    uint64_t off = nc_cursor_u64(c);
    if (!truncated(l))
      return false;
    if (!l->weights)
      return bad(l, "weights at offset %llu of the weights section, but the binary has none", (unsigned long long)off);
    if (off % 8 || off > l->weights->size || t->weight_bytes > l->weights->size - off)
      return bad(l, "%llu bytes of weights at offset %llu: not an 8-byte aligned range of the %llu-byte weights section",
                 (unsigned long long)t->weight_bytes, (unsigned long long)off, (unsigned long long)l->weights->size);
    t->weights = (const int8_t *)l->weights->data + off;
    t->weight_elems = t->weight_bytes;
    if ((t->flags & NP_FLAG_PACKED_WEIGHTS) && np_width_ok(t->bits) && t->bits < 8)
      t->weights = unpack_weights(s, (const uint8_t *)t->weights, t->weight_bytes, t->bits, off),
      t->weight_elems = t->weight_bytes * (8 / t->bits);
  } else {
    t->weights = (const int8_t *)nc_cursor_bytes(c, t->weight_bytes);
    t->weight_elems = t->weight_bytes;
    if ((t->flags & NP_FLAG_PACKED_WEIGHTS) && np_width_ok(t->bits) && t->bits < 8 && t->weights)
      t->weights = unpack_weights(s, (const uint8_t *)t->weights, t->weight_bytes, t->bits, UINT64_MAX),
      t->weight_elems = t->weight_bytes * (8 / t->bits);
  }
  nc_cursor_align(c, 8);
  if (!truncated(l))
    return false;
  t->n_buffers = nc_cursor_u32(c);
  if (!truncated(l) || t->n_buffers > 256)
    return l->c.bad ? false : bad(l, "%u buffers", t->n_buffers);
  t->buffers = nc_rt_calloc(t->n_buffers, sizeof *t->buffers);
  for (uint32_t i = 0; i < t->n_buffers; i++) {
    nc_cursor_str(c, t->buffers[i].name, sizeof t->buffers[i].name);
    for (char *q = t->buffers[i].name; *q; q++)
      if (*q < 0x20 || *q > 0x7e)
        *q = '?'; /* names only appear in messages */
    t->buffers[i].kind = nc_cursor_u32(c);
    t->buffers[i].operand = nc_cursor_u32(c);
    t->buffers[i].offset = nc_cursor_i64(c);
    t->buffers[i].bytes = nc_cursor_i64(c);
    t->buffers[i].first = nc_cursor_i64(c);
    t->buffers[i].last = nc_cursor_i64(c);
  }
  if (!truncated(l))
    return false;
  t->n_iters = nc_cursor_u32(c);
  if (!truncated(l) || !read_iters(l, t->n_iters, true, t->out.elements, &t->iters, &t->blocks))
    return false;
  t->n_instrs = nc_cursor_u32(c);
  if (!truncated(l) || t->n_instrs > (c->len - c->pos) / 40)
    return l->c.bad ? false : bad(l, "%u instructions", t->n_instrs);
  t->prog = nc_rt_calloc(t->n_instrs, sizeof *t->prog);
  for (uint32_t i = 0; i < t->n_instrs; i++) {
    t->prog[i].op = nc_cursor_u32(c);
    t->prog[i].zero = nc_cursor_u32(c);
    t->prog[i].frames = (t->prog[i].zero >> NP_FRAMES_SHIFT) & 0xffu; /* checked in check_program */
    t->prog[i].frame = t->prog[i].zero >> (NP_FRAMES_SHIFT + 8);
    t->prog[i].zero &= (1u << NP_FRAMES_SHIFT) - 1;
    if (t->prog[i].op == NP_OP_RECV || t->prog[i].op == NP_OP_SEND) { /* checked in check_program */
      t->prog[i].slot = (t->prog[i].zero >> NP_SLOT_SHIFT) & NP_SLOT_MASK;
      t->prog[i].zero &= ~(NP_SLOT_MASK << NP_SLOT_SHIFT);
    }
    t->prog[i].a = nc_cursor_i64(c);
    t->prog[i].b = nc_cursor_i64(c);
    t->prog[i].c = nc_cursor_i64(c);
    t->prog[i].d = nc_cursor_i64(c);
  }
  if (!truncated(l))
    return false;
  if (t->flags & (NP_FLAG_PARTIAL | NP_FLAG_REDUCE)) { /* the input-channel slice */
    t->in_lo = nc_cursor_i64(c);
    t->in_hi = nc_cursor_i64(c);
    t->n_partials = nc_cursor_u32(c);
    uint32_t zero = nc_cursor_u32(c);
    if (!truncated(l))
      return false;
    if (zero)
      return bad(l, "the word after n_partials is %u, it must be 0", zero);
  }
  t->replica = 0, t->replicas = 1;
  if (t->flags & NP_FLAG_REPLICA) { /* a copy for alternate frames */
    t->replica = nc_cursor_u32(c);
    t->replicas = nc_cursor_u32(c);
    if (!truncated(l))
      return false;
    if (t->replicas < 2 || t->replicas > 255 || t->replica >= t->replicas)
      return bad(l, "copy %u of %u: a replica is copy r of n with 0 <= r < n and 2 <= n <= 255", t->replica,
                 t->replicas);
  }
  t->slot = 0;
  if (t->flags & NP_FLAG_SHARED) { /* one of the tiles sharing a core */
    t->slot = nc_cursor_u32(c);
    uint32_t zero = nc_cursor_u32(c);
    if (!truncated(l))
      return false;
    if (t->slot < 1 || t->slot >= NP_MAX_SLOTS || zero)
      return bad(l, "slot %u (then %u): a tile sharing a core has a slot 1 to %u, then a zero word", t->slot, zero,
                 NP_MAX_SLOTS - 1);
  }
  if (t->flags & NP_FLAG_RECV_OFFSETS) { /* recvs of a folded concat's inputs */
    uint32_t n = nc_cursor_u32(c), zero = nc_cursor_u32(c);
    if (!truncated(l))
      return false;
    if (zero || n < 1 || n > t->n_instrs)
      return bad(l, "%u recv offsets (then %u): 1 to one per instruction, then 0", n, zero);
    for (uint32_t k = 0; k < n; k++) {
      uint32_t i = nc_cursor_u32(c);
      zero = nc_cursor_u32(c);
      int64_t off = nc_cursor_i64(c);
      if (!truncated(l))
        return false;
      if (zero || i >= t->n_instrs || t->prog[i].op != NP_OP_RECV || t->prog[i].zero != 0 || off < 0)
        return bad(l, "recv offset %u names instruction %u, which is no recv of activations, or offset %lld", k, i,
                   (long long)off);
      t->prog[i].offset = off;
    }
  }
  if (t->flags & NP_FLAG_CLAMP) { /* a fused Clip narrows the saturation range */
    int32_t lo = nc_cursor_i32(c), hi = nc_cursor_i32(c);
    if (!truncated(l))
      return false;
    if ((t->kind != NP_KIND_CONV && t->kind != NP_KIND_MATMUL) || lo > hi || lo < t->out_min || hi > t->out_max)
      return bad(l, "clamp [%d, %d]: only a conv or matmul clamps, to bounds in order within [%d, %d]", lo, hi,
                 t->out_min, t->out_max);
    t->out_min = lo, t->out_max = hi;
  }
  if (t->flags & NP_FLAG_IN_AFFINE) { /* a folded batch-norm and relu on operand 0 (np_inbuf_map) */
    uint32_t n = nc_cursor_u32(c), zero = nc_cursor_u32(c);
    if (!truncated(l))
      return false;
    if (t->kind != NP_KIND_CONV || zero || n < 1 || t->in[0].elements % n || (uint64_t)n > c->len)
      return bad(l, "input affine of %u channels (then %u): a conv's, one entry per channel of operand 0 (%lld "
                 "elements), then 0", n, zero, (long long)t->in[0].elements);
    t->affine = nc_rt_malloc((4 * (size_t)n + 2) * sizeof *t->affine);
    for (size_t i = 0; i < 4 * (size_t)n + 2; i++)
      t->affine[i] = nc_cursor_i32(c);
    if (!truncated(l))
      return false;
    t->n_affine = n;
    t->affine_plane = t->in[0].elements / n;
    int32_t lo = t->affine[4 * n], hi = t->affine[4 * n + 1];
    int32_t tmax = (1 << ((t->bits ? t->bits : 8) - 1)) - 1;
    if (lo > hi || lo < -tmax - 1 || hi > tmax)
      return bad(l, "input affine bounds [%d, %d]: in order within [%d, %d]", lo, hi, -tmax - 1, tmax);
    for (uint32_t i = 0; i < n; i++)
      if (t->affine[4 * i + 2] < 0 || t->affine[4 * i + 3] < 0 || t->affine[4 * i + 3] > 63)
        return bad(l, "input affine channel %u: multiplier %d and shift %d outside [0, 2^31) and [0, 63]", i,
                   t->affine[4 * i + 2], t->affine[4 * i + 3]);
  }
  if (c->pos != c->len)
    return bad(l, "%zu unexpected bytes at the end", c->len - c->pos);
  if (!check_layer(l, t) || !check_buffers(l, t, s->chip.sram_bytes))
    return false;
  t->last_send = nc_rt_malloc((t->n_iters ? t->n_iters : 1) * sizeof(int64_t));
  for (uint32_t i = 0; i < t->n_iters; i++)
    t->last_send[i] = -1;
  for (uint32_t i = 0; i < t->n_instrs; i++)
    if (t->prog[i].op == NP_OP_SEND && t->prog[i].c >= 0 && t->prog[i].c < t->n_iters)
      t->last_send[t->prog[i].c] = i;
  return analyse_iterations(l, t);
}

static bool load_stream(loader *l, np_sim *s, uint32_t input)
{
  np_stream *st = &s->streams[input];
  if (st->iters)
    return bad(l, "a second stream for input %u", input);
  st->n_iters = nc_cursor_u32(&l->c);
  if (!truncated(l) ||
      !read_iters(l, st->n_iters, false, (int64_t)nc_ncb_tensor_elements(&s->inputs[input]), &st->iters, &st->blocks))
    return false;
  if (l->c.len - l->c.pos >= 4) { /* the optional flags */
    uint32_t flags = nc_cursor_u32(&l->c);
    if (flags & ~NP_STREAM_MULTICAST)
      return bad(l, "stream flags %u: only %u (multicast) is defined", flags, NP_STREAM_MULTICAST);
    st->multicast = flags & NP_STREAM_MULTICAST;
  }
  if (l->c.pos != l->c.len)
    return bad(l, "%zu unexpected bytes at the end", l->c.len - l->c.pos);
  return true;
}

void np_sim_destroy(void *state, void *userData)
{
  np_sim *s = state;
  if (!s)
    return;
  free(s->frame_end);
  for (size_t i = 0; i < s->n_tiles; i++) {
    np_tile *t = &s->tiles[i];
    if (s->arena) { /* carved from the arena, unmapped below */
      t->out_data = NULL, t->computed = NULL;
      for (int k = 0; k < NP_MAX_OPERANDS; k++)
        t->in_data[k] = NULL;
    }
    free(t->multiplier), free(t->shift), free(t->bias), free(t->affine), free(t->buffers), free(t->iters), free(t->blocks);
    free(t->prog), free(t->out_data), free(t->computed), free(t->last_send), free(t->scratch), free(t->wsum128);
    free(t->psum), free(t->psum_count);
    np_clear_inbox(t);
    if (t->plan_borrowed) /* another tile's (analyse_iterations) */
      t->read[0] = NULL, t->release_off[0] = NULL, t->release_runs[0] = NULL;
    for (int k = 0; k < NP_MAX_OPERANDS; k++)
      free(t->read[k]), free(t->in_data[k]), free(t->valid[k]), free(t->release_off[k]), free(t->release_runs[k]);
  }
  for (size_t i = 0; i < s->n_inputs && s->streams; i++)
    free(s->streams[i].iters), free(s->streams[i].blocks);
  free(s->streams);
  for (size_t i = 0; i < s->n_unpacked; i++)
    free(s->unpacked[i]);
  free(s->unpacked), free(s->unpacked_at);
  free(s->tile_at);
  free(s->core_free);
  np_ready_destroy(&s->ready);
  free(s->pool_free);
  np_noc_destroy(&s->noc);
  if (s->arena)
    munmap(s->arena, s->arena_len);
  free(s->tiles);
  free(s->inputs);
  free(s->outputs);
  free(s);
}

/* The NP_SECTION_CHIP section: exactly one, every field in range. */
static bool load_chip(loader *l, const nc_ncb *ncb, np_chip *ch)
{
  const nc_ncb_section *found = NULL;
  for (size_t i = 0; i < ncb->n_sections; i++)
    if (ncb->sections[i].type == NP_SECTION_CHIP) {
      if (found)
        return bad(l, "a second chip section (section %zu)", i);
      found = &ncb->sections[i];
    }
  if (!found)
    return bad(l, "no chip section (type %d)", NP_SECTION_CHIP);
  l->c = nc_cursor_make(found->data, found->size);
  ch->rows = nc_cursor_u32(&l->c);
  ch->cols = nc_cursor_u32(&l->c);
  ch->clock_hz = nc_cursor_u64(&l->c);
  ch->sram_bytes = nc_cursor_u32(&l->c);
  ch->macs_per_cycle = nc_cursor_u32(&l->c);
  ch->hop_latency_cycles = nc_cursor_u32(&l->c);
  ch->link_bytes_per_cycle = nc_cursor_u32(&l->c);
  ch->macs_per_inference = nc_cursor_u64(&l->c);
  ch->macs_per_cycle_4 = ch->macs_per_cycle_2 = ch->macs_per_cycle; /* an older binary: 8 bits only */
  if (!l->c.bad && l->c.pos == 40 && l->c.len == 48) {
    ch->macs_per_cycle_4 = nc_cursor_u32(&l->c);
    ch->macs_per_cycle_2 = nc_cursor_u32(&l->c);
  }
  if (l->c.bad || l->c.pos != l->c.len)
    return bad(l, "the chip section has %zu bytes, not 40 or 48", (size_t)found->size);
  if (!ch->macs_per_cycle_4 || ch->macs_per_cycle_4 > NP_MAX_MACS_PER_CYCLE || !ch->macs_per_cycle_2 ||
      ch->macs_per_cycle_2 > NP_MAX_MACS_PER_CYCLE)
    return bad(l, "macs_per_cycle at 4 or 2 bits (%u, %u) is outside [1, 2^24]", ch->macs_per_cycle_4,
               ch->macs_per_cycle_2);
  char why[160];
  if (!np_chip_fields_ok(ch->rows, ch->cols, ch->clock_hz, ch->sram_bytes, ch->macs_per_cycle, ch->hop_latency_cycles,
                         ch->link_bytes_per_cycle, ch->macs_per_inference, why, sizeof why))
    return bad(l, "%s", why);
  return true;
}

/* Frees what the loader owns (not the simulator it built). */
static void loader_free(loader *l)
{
  free(l->scratch);
  free(l->runs);
  for (size_t i = 0; i < l->n_plans; i++)
    free(l->plans[i].runs);
  free(l->plans);
}

void *np_sim_load(const nc_ncb *ncb, char *err, size_t errlen, void *userData)
{
  np_sim *s = nc_rt_calloc(1, sizeof *s);
  s->frame_lead = NP_FRAME_LEAD; /* nc-run --frame-lead (sim.c core_turn) */
  s->n_inputs = ncb->n_inputs;
  s->n_outputs = ncb->n_outputs;
  s->inputs = nc_rt_malloc(ncb->n_inputs * sizeof *s->inputs);
  s->outputs = nc_rt_malloc(ncb->n_outputs * sizeof *s->outputs);
  memcpy(s->inputs, ncb->inputs, ncb->n_inputs * sizeof *s->inputs);
  memcpy(s->outputs, ncb->outputs, ncb->n_outputs * sizeof *s->outputs);
  s->streams = nc_rt_calloc(ncb->n_inputs, sizeof *s->streams);
  s->tiles = nc_rt_calloc(ncb->n_sections, sizeof *s->tiles);
  char where[96] = "chip section";
  s->own_memory = getenv("NC_SIM_OWN_MEMORY") != NULL;
  loader l = {.err = err, .errlen = errlen, .where = where, .own_plans = s->own_memory};
  int64_t elements = 0;
  if (!load_chip(&l, ncb, &s->chip))
    goto fail;
  for (size_t i = 0; i < ncb->n_inputs + ncb->n_outputs; i++) {
    const nc_ncb_tensor *t = i < ncb->n_inputs ? &ncb->inputs[i] : &ncb->outputs[i - ncb->n_inputs];
    if (t->dtype != NC_NCB_DTYPE_I8) {
      snprintf(where, sizeof where, "%s %zu ('%s')", i < ncb->n_inputs ? "input" : "output",
               i < ncb->n_inputs ? i : i - ncb->n_inputs, t->name);
      bad(&l, "element type %s; northpole streams int8 only", nc_ncb_dtype_name(t->dtype));
      goto fail;
    }
  }
  /* streams first: tiles' receives refer to them; tiles in two passes, so sends can name any tile */
  for (size_t i = 0; i < ncb->n_sections; i++) {
    const nc_ncb_section *sec = &ncb->sections[i];
    l.c = nc_cursor_make(sec->data, sec->size);
    snprintf(where, sizeof where, "section %zu (input stream %u)", i, sec->id);
    if (sec->type == NP_SECTION_INPUT_STREAM) {
      if (sec->id >= ncb->n_inputs) {
        bad(&l, "there is no input %u", sec->id);
        goto fail;
      }
      if (!load_stream(&l, s, sec->id))
        goto fail;
    } else if (sec->type == NP_SECTION_WEIGHTS) {
      snprintf(where, sizeof where, "section %zu (weights)", i);
      if (l.weights || sec->id != 0) {
        bad(&l, l.weights ? "a second weights section" : "weights section id %u, not 0", sec->id);
        goto fail;
      }
      l.weights = sec;
    } else if (sec->type != NP_SECTION_TILE && sec->type != NP_SECTION_CHIP) {
      snprintf(where, sizeof where, "section %zu", i);
      bad(&l, "unknown section type %u", sec->type);
      goto fail;
    }
  }
  for (size_t i = 0; i < ncb->n_inputs; i++)
    if (!s->streams[i].iters) {
      snprintf(where, sizeof where, "input %zu", i);
      bad(&l, "no input stream section");
      goto fail;
    }
  for (size_t i = 0; i < ncb->n_sections; i++) {
    const nc_ncb_section *sec = &ncb->sections[i];
    l.c = nc_cursor_make(sec->data, sec->size);
    snprintf(where, sizeof where, "section %zu (tile %u)", i, sec->id);
    if (sec->type == NP_SECTION_TILE && !tile_activations(&l, &elements))
      goto fail;
  }
  for (size_t i = 0; i < ncb->n_sections; i++) {
    const nc_ncb_section *sec = &ncb->sections[i];
    if (sec->type != NP_SECTION_TILE)
      continue;
    l.c = nc_cursor_make(sec->data, sec->size);
    snprintf(where, sizeof where, "section %zu (tile %u)", i, sec->id);
    np_tile *t = &s->tiles[s->n_tiles++];
    if (!load_tile(&l, s, t))
      goto fail;
    snprintf(where, sizeof where, "section %zu (tile %u at (%d, %d), '%s')", i, sec->id, t->x, t->y, t->node);
    if (find_tile(s, t->x, t->y, t->slot) != (int)s->n_tiles - 1) {
      bad(&l, "a second tile at (%d, %d) slot %u", t->x, t->y, t->slot);
      goto fail;
    }
    if (!check_shared_core(&l, s, t))
      goto fail;
  }
  if (!s->n_tiles) {
    snprintf(err, errlen, "malformed: the binary has no tiles");
    goto fail;
  }
  for (size_t i = 0; i < s->n_tiles; i++) {
    np_tile *t = &s->tiles[i];
    snprintf(where, sizeof where, "tile %zu at (%d, %d), '%s'", i, t->x, t->y, t->node);
    if (!check_program(&l, s, t))
      goto fail;
  }
  loader_free(&l);
  return s;
fail:
  loader_free(&l);
  np_sim_destroy(s, userData);
  return NULL;
}
