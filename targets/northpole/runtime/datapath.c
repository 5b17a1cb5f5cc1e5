/* datapath.c: the NorthPole core's int8 datapath, element by element.
 *
 * A core computes the output elements of an iteration from the data in its
 * SRAM: int8 x int8 products accumulated exactly (int32, wrapping), the
 * int32 bias, then the fixed-point requantize of docs/design/spine.md
 *   r = round_half_even((acc + bias[c]) * multiplier[c] / 2^shift[c]) + zp,
 *   relu: r = max(r, zp), y = saturate_int8(r)
 * which is what the graph interpreter's conv_integer / matmul_integer +
 * requantize compute, so results match it bit for bit (the end-to-end tests
 * check this). Max pooling and copies (flatten, reshape) move int8 values.
 * A residual add (NP_KIND_ELTWISE) rescales each of its two operands to the
 * output scale with the same rounding, then adds (or subtracts) them. An
 * average pool (NP_KIND_AVG_POOL) divides the window's exact sum by its
 * count, rounding half to even (the interpreter's integer avg_pool). A
 * concat (NP_KIND_CONCAT) rescales each element from its operand as the
 * residual add does; a product (NP_KIND_MUL) rescales a * b once; a table (NP_KIND_LUT)
 * maps each int8 value through its 256 entries; a softmax (NP_KIND_SOFTMAX)
 * sums its row's exponential-table entries and divides exactly; a move
 * (NP_KIND_MOVE: nearest resize, pad, channel shuffle) copies one element or
 * the fill value.
 *
 * Every input element is read through `valid`: data that has not arrived in
 * the core's buffers cannot be read, so a schedule that computes too early
 * is caught at the exact element, never computed on stale or zero data.
 * This is a separate implementation from the interpreter's kernels on
 * purpose: the runtime library links nothing of nc, and an independent
 * datapath makes the bit-exactness check meaningful.
 */
#include "np_sim.h"

#include <stdlib.h>
#include <string.h>

/* The widest instruction set the vector paths may use: NC_SIM_ISA=plain,
 * avx2 or avx512 caps it (default: whatever the CPU has), so the test suite
 * runs the fallbacks on a machine that has the wider ones. */
enum { ISA_PLAIN, ISA_AVX2, ISA_AVX512 };
static inline int isa_cap(void)
{
  static int cap = -1; /* read once: the vector paths ask per run */
  if (cap < 0) {
    const char *v = getenv("NC_SIM_ISA");
    cap = !v || !*v                ? ISA_AVX512
          : !strcmp(v, "plain")    ? ISA_PLAIN
          : !strcmp(v, "avx2")     ? ISA_AVX2
                                   : ISA_AVX512;
  }
  return cap;
}

/* floor(v / 2^shift) rounded half to even, exact for every int64 v. */
static int64_t round_shift(int64_t v, int shift)
{
  if (shift <= 0)
    return v;
  if (shift > 63)
    shift = 63;
  int64_t q = v >> shift;
  uint64_t r = (uint64_t)v & ((UINT64_C(1) << shift) - 1), half = UINT64_C(1) << (shift - 1);
  if (r > half || (r == half && (q & 1)))
    q++;
  return q;
}

static int8_t requantize(const np_tile *t, int64_t ch, int64_t acc64)
{
  int32_t acc = (int32_t)(uint32_t)acc64; /* the int32 accumulator wraps */
  if (t->n_bias)
    acc = (int32_t)((uint32_t)acc + (uint32_t)t->bias[ch]);
  int64_t r = t->zero_point;
  if (t->n_requant) {
    int64_t i = t->n_requant == 1 ? 0 : ch;
    r = round_shift((int64_t)acc * t->multiplier[i], t->shift[i]) + t->zero_point;
  }
  if ((t->flags & NP_FLAG_RELU) && r < t->zero_point)
    r = t->zero_point;
  return (int8_t)(r < t->out_min ? t->out_min : r > t->out_max ? t->out_max : r);
}

/* Whether the tile sums over a slice of its input channels (np_format.h). */
static bool sliced(const np_tile *t) { return t->flags & (NP_FLAG_PARTIAL | NP_FLAG_REDUCE); }

/* The end of a conv or matmul element: a partial-sum tile keeps its int32
 * sum to send; a reducer adds the partial sums it received (int32,
 * wrapping, so their order does not matter), then requantizes once. */
static int8_t finish(np_tile *t, int64_t e, int64_t ch, int64_t acc)
{
  if (t->flags & NP_FLAG_PARTIAL) {
    t->psum[e] = (int32_t)(uint32_t)acc;
    return 0;
  }
  if (t->flags & NP_FLAG_REDUCE) {
    acc = (int32_t)((uint32_t)acc + (uint32_t)t->psum[e]);
    t->psum[e] = 0;
    t->psum_count[e] = 0;
  }
  return requantize(t, ch, acc);
}

/* A reducer's compute needs all of its elements' partial sums. */
static bool partial_sums_arrived(const np_tile *t, const np_iter *it, uint32_t *operand, int64_t *missing)
{
  if (!(t->flags & NP_FLAG_REDUCE))
    return true;
  NP_FOREACH_ELEMENT(it, e, {
    if (t->psum_count[e] != t->n_partials) {
      *operand = NP_PSUM_OPERAND;
      *missing = e;
      return false;
    }
  })
  return true;
}

/* The 2-D window geometry of conv and pooling: output (oy, ox) reads input
 * rows oy*stride - pad_top + ky*dilation, likewise columns. */
typedef struct window {
  int64_t h, w, oh, ow, kh, kw, sh, sw, pt, pl, dh, dw;
} window;

static window window_of(const np_tile *t)
{
  const np_shape *in = &t->in[0];
  return (window){in->dims[2], in->dims[3], t->out.dims[2], t->out.dims[3], t->kernel[0], t->kernel[1],
                  t->stride[0], t->stride[1], t->pad[0], t->pad[1], t->dilation[0], t->dilation[1]};
}

#define NEED(op, idx)                                                                                               \
  do {                                                                                                              \
    if (!np_bit(t->valid[op], idx)) {                                                                               \
      *operand = (op);                                                                                              \
      *missing = (idx);                                                                                             \
      return false;                                                                                                 \
    }                                                                                                               \
  } while (0)

static bool conv_element(np_tile *t, const window *g, int64_t e, uint32_t *operand, int64_t *missing)
{
  int64_t m = t->out.dims[1], c = t->in[0].dims[1];
  int64_t ox = e % g->ow, oy = e / g->ow % g->oh, k = e / (g->ow * g->oh) % m;
  int64_t cg = c / t->group, mg = m / t->group, c0 = k / mg * cg, kl = k - t->ch_lo;
  if (sliced(t)) /* group 1: channels [in_lo, in_hi) */
    c0 = t->in_lo, cg = t->in_hi - t->in_lo;
  const int8_t *x = t->in_data[0], *w = t->weights + kl * cg * g->kh * g->kw;
  int64_t acc = 0;
  for (int64_t ci = 0; ci < cg; ci++)
    for (int64_t ky = 0; ky < g->kh; ky++) {
      int64_t iy = oy * g->sh - g->pt + ky * g->dh;
      if (iy < 0 || iy >= g->h)
        continue;
      for (int64_t kx = 0; kx < g->kw; kx++) {
        int64_t ix = ox * g->sw - g->pl + kx * g->dw;
        if (ix < 0 || ix >= g->w)
          continue;
        int64_t idx = ((c0 + ci) * g->h + iy) * g->w + ix;
        NEED(0, idx);
        acc += (int64_t)x[idx] * w[(ci * g->kh + ky) * g->kw + kx];
      }
    }
  t->out_data[e] = finish(t, e, kl, acc);
  return true;
}

static bool pool_element(np_tile *t, const window *g, int64_t e, uint32_t *operand, int64_t *missing)
{
  int64_t ox = e % g->ow, oy = e / g->ow % g->oh, c = e / (g->ow * g->oh) % t->out.dims[1];
  int best = -128; /* padding never wins; an all-padding window gives the lowest value */
  for (int64_t ky = 0; ky < g->kh; ky++) {
    int64_t iy = oy * g->sh - g->pt + ky * g->dh;
    if (iy < 0 || iy >= g->h)
      continue;
    for (int64_t kx = 0; kx < g->kw; kx++) {
      int64_t ix = ox * g->sw - g->pl + kx * g->dw;
      if (ix < 0 || ix >= g->w)
        continue;
      int64_t idx = (c * g->h + iy) * g->w + ix;
      NEED(0, idx);
      if (t->in_data[0][idx] > best)
        best = t->in_data[0][idx];
    }
  }
  t->out_data[e] = (int8_t)((t->flags & NP_FLAG_RELU) && best < 0 ? 0 : best);
  return true;
}

/* Round-half-even n / d for d > 0. */
static int64_t div_round(int64_t n, int64_t d)
{
  int64_t q = n / d, r = n % d;
  if (r < 0)
    q--, r += d;
  if (2 * r > d || (2 * r == d && (q & 1)))
    q++;
  return q;
}

/* Window taps along one dim landing in [lo, hi): output o starts at o*s - p. */
static int64_t taps_inside(int64_t o, int64_t s, int64_t p, int64_t k, int64_t d, int64_t lo, int64_t hi)
{
  int64_t n = 0;
  for (int64_t i = 0; i < k; i++) {
    int64_t at = o * s - p + i * d;
    n += at >= lo && at < hi;
  }
  return n;
}

static bool avg_pool_element(np_tile *t, const window *g, int64_t e, uint32_t *operand, int64_t *missing)
{
  int64_t ox = e % g->ow, oy = e / g->ow % g->oh, c = e / (g->ow * g->oh) % t->out.dims[1];
  int64_t sum = 0, count = 0;
  for (int64_t ky = 0; ky < g->kh; ky++) {
    int64_t iy = oy * g->sh - g->pt + ky * g->dh;
    if (iy < 0 || iy >= g->h)
      continue;
    for (int64_t kx = 0; kx < g->kw; kx++) {
      int64_t ix = ox * g->sw - g->pl + kx * g->dw;
      if (ix < 0 || ix >= g->w)
        continue;
      int64_t idx = (c * g->h + iy) * g->w + ix;
      NEED(0, idx);
      sum += t->in_data[0][idx];
      count++;
    }
  }
  if (t->flags & NP_FLAG_COUNT_PAD) /* positions inside the padded input */
    count = taps_inside(oy, g->sh, g->pt, g->kh, g->dh, -g->pt, g->h + t->pad[2]) *
            taps_inside(ox, g->sw, g->pl, g->kw, g->dw, -g->pl, g->w + t->pad[3]);
  t->out_data[e] = (int8_t)(count > 0 ? div_round(sum, count) : 0);
  return true;
}

static bool matmul_element(np_tile *t, int64_t e, uint32_t *operand, int64_t *missing)
{
  int64_t n = t->out.dims[t->out.rank - 1], k = t->in[0].dims[t->in[0].rank - 1];
  int64_t col = e % n, row = e / n, slice = t->ch_hi - t->ch_lo, cl = col - t->ch_lo;
  int64_t acc = 0, i0 = sliced(t) ? t->in_lo : 0, i1 = sliced(t) ? t->in_hi : k;
  for (int64_t i = i0; i < i1; i++) {
    int64_t idx = row * k + i;
    NEED(0, idx);
    acc += (int64_t)t->in_data[0][idx] * t->weights[(i - i0) * slice + cl];
  }
  t->out_data[e] = finish(t, e, cl, acc);
  return true;
}

static bool eltwise_element(np_tile *t, int64_t e, uint32_t *operand, int64_t *missing)
{
  NEED(0, e);
  NEED(1, e);
  int64_t r0 = round_shift((int64_t)t->in_data[0][e] * t->multiplier[0], t->shift[0]);
  int64_t r1 = round_shift((int64_t)t->in_data[1][e] * t->multiplier[1], t->shift[1]);
  int64_t r = (t->flags & NP_FLAG_SUBTRACT ? r0 - r1 : r0 + r1) + t->zero_point;
  if ((t->flags & NP_FLAG_RELU) && r < t->zero_point)
    r = t->zero_point;
  t->out_data[e] = (int8_t)(r < t->out_min ? t->out_min : r > t->out_max ? t->out_max : r);
  return true;
}

/* The operand and its element that output element e of a channel concat
 * reads (operands [1, C_i, H, W] in order). */
static uint32_t concat_source(const np_tile *t, int64_t e, int64_t *idx)
{
  int64_t hw = t->out.rank == 4 ? t->out.dims[2] * t->out.dims[3] : 1; /* a [1, N] vector: one element per channel */
  int64_t c = e / hw % t->out.dims[1], p = e % hw;
  uint32_t i = 0;
  while (i + 1 < t->n_operands && c >= t->in[i].dims[1])
    c -= t->in[i++].dims[1];
  *idx = c * hw + p;
  return i;
}

static bool concat_element(np_tile *t, int64_t e, uint32_t *operand, int64_t *missing)
{
  int64_t idx;
  uint32_t i = concat_source(t, e, &idx);
  NEED(i, idx);
  int64_t r = round_shift((int64_t)t->in_data[i][idx] * t->multiplier[i], t->shift[i]) + t->zero_point;
  if ((t->flags & NP_FLAG_RELU) && r < t->zero_point)
    r = t->zero_point;
  t->out_data[e] = (int8_t)(r < t->out_min ? t->out_min : r > t->out_max ? t->out_max : r);
  return true;
}

/* Operand 1's element of output element e: the same, or its channel's gate. */
static int64_t mul_b_index(const np_tile *t, int64_t e)
{
  if (t->in[1].elements == t->out.elements)
    return e;
  return e / (t->out.dims[2] * t->out.dims[3]) % t->out.dims[1];
}

static bool mul_element(np_tile *t, int64_t e, uint32_t *operand, int64_t *missing)
{
  int64_t bi = mul_b_index(t, e);
  NEED(0, e);
  NEED(1, bi);
  int64_t r = round_shift((int64_t)t->in_data[0][e] * t->in_data[1][bi] * t->multiplier[0], t->shift[0]) +
              t->zero_point;
  if ((t->flags & NP_FLAG_RELU) && r < t->zero_point)
    r = t->zero_point;
  t->out_data[e] = (int8_t)(r < t->out_min ? t->out_min : r > t->out_max ? t->out_max : r);
  return true;
}

/* The mirror index of q in a dim of n without repeating the edge, periodic (np.pad's reflect). */
static int64_t reflect_index(int64_t q, int64_t n)
{
  if (n == 1)
    return 0;
  int64_t period = 2 * (n - 1), r = (q % period + period) % period;
  return r < n ? r : period - r;
}

/* The operand element output element e of a transpose copies (np_format.h). */
static int64_t transpose_source(const np_tile *t, int64_t e)
{
  const np_shape *in = &t->in[0], *y = &t->out;
  int64_t j[NP_MAX_RANK], idx = 0;
  for (int k = y->rank - 1; k >= 0; k--) {
    const uint8_t *w = (const uint8_t *)t->weights + 4 * k;
    int32_t p = (int32_t)((uint32_t)w[0] | (uint32_t)w[1] << 8 | (uint32_t)w[2] << 16 | (uint32_t)w[3] << 24);
    j[p] = e % y->dims[k];
    e /= y->dims[k];
  }
  for (int k = 0; k < in->rank; k++)
    idx = idx * in->dims[k] + j[k];
  return idx;
}

static bool transpose_element(np_tile *t, int64_t e, uint32_t *operand, int64_t *missing)
{
  int64_t idx = transpose_source(t, e);
  NEED(0, idx);
  t->out_data[e] = t->in_data[0][idx];
  return true;
}

/* The operand element output element e of a move layer copies, or -1 (the fill value). */
static int64_t move_source(const np_tile *t, int64_t e)
{
  const np_shape *in = &t->in[0];
  if (in->rank == 2) { /* a pad of a vector [1, N]: one row, padded left and right */
    int64_t n = in->dims[1], d = e - t->pad[1];
    if (t->flags & NP_FLAG_PAD_EDGE)
      d = d < 0 ? 0 : d >= n ? n - 1 : d;
    else if (t->flags & NP_FLAG_PAD_REFLECT)
      d = reflect_index(d, n);
    else if (t->flags & NP_FLAG_PAD_WRAP)
      d = (d % n + n) % n;
    return d < 0 || d >= n ? -1 : d;
  }
  int64_t ow = t->out.dims[3], oh = t->out.dims[2], c = t->out.dims[1], h = in->dims[2], w = in->dims[3];
  int64_t x = e % ow, y = e / ow % oh, k = e / (ow * oh) % c, g = t->group;
  int64_t ci = g > 1 ? k % g * (c / g) + k / g : k;
  if (t->weight_bytes == 12) { /* a nearest resize of the channels: clamp(floor((a k + b) / d), 0, C - 1) */
    int64_t abd[3];
    for (int i = 0; i < 3; i++) {
      const uint8_t *p = (const uint8_t *)t->weights + 4 * i;
      abd[i] = (int32_t)((uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24);
    }
    int64_t n = abd[0] * k + abd[1], q = n / abd[2] - (n % abd[2] != 0 && n < 0);
    ci = q < 0 ? 0 : q >= in->dims[1] ? in->dims[1] - 1 : q;
  }
  int64_t dy = y - t->pad[0], dx = x - t->pad[1];
  if (t->flags & NP_FLAG_PAD_EDGE) {
    dy = dy < 0 ? 0 : dy >= h ? h - 1 : dy;
    dx = dx < 0 ? 0 : dx >= w ? w - 1 : dx;
  } else if (t->flags & NP_FLAG_PAD_REFLECT) { /* periodic mirror: pads of any width */
    dy = reflect_index(dy, h);
    dx = reflect_index(dx, w);
  } else if (t->flags & NP_FLAG_PAD_WRAP) {
    dy = (dy % h + h) % h;
    dx = (dx % w + w) % w;
  }
  if (dy < 0 || dx < 0 || dy / t->kernel[0] >= h || dx / t->kernel[1] >= w)
    return -1;
  return (ci * h + dy / t->kernel[0]) * w + dx / t->kernel[1];
}

static bool move_element(np_tile *t, int64_t e, uint32_t *operand, int64_t *missing)
{
  int64_t idx = move_source(t, e);
  if (idx >= 0)
    NEED(0, idx);
  t->out_data[e] = idx >= 0 ? t->in_data[0][idx] : (int8_t)t->zero_point;
  return true;
}

/* A linear resize's neighbours and second weight along one axis (np_format.h). */
static void resize_tap(const np_tile *t, int axis, int64_t n, int64_t o, int64_t *i0, int64_t *i1, int64_t *w1)
{
  int64_t abd[3];
  for (int k = 0; k < 3; k++) {
    const uint8_t *w = (const uint8_t *)t->weights + 4 * (3 * axis + k);
    abd[k] = (int32_t)((uint32_t)w[0] | (uint32_t)w[1] << 8 | (uint32_t)w[2] << 16 | (uint32_t)w[3] << 24);
  }
  int64_t num = abd[0] * o + abd[1], f = num >= 0 ? num / abd[2] : -((-num + abd[2] - 1) / abd[2]);
  int64_t r = (num - f * abd[2]) * 1024, q = r / abd[2], rem = r % abd[2];
  *w1 = q + (2 * rem > abd[2] || (2 * rem == abd[2] && (q & 1)));
  *i0 = f < 0 ? 0 : f >= n ? n - 1 : f;
  *i1 = f + 1 < 0 ? 0 : f + 1 >= n ? n - 1 : f + 1;
}

/* The operand elements output element e of a linear resize reads (corner
 * 4 * (c takes i1) + 2 * (y takes i1) + (x takes i1)) and their weights in
 * 2^30 units; 4 corners when the channels are kept (their weight is then 1024
 * for c itself, which the final shift by 30 divides out exactly). Returns the
 * number of corners. */
static int resize_corners(const np_tile *t, int64_t e, int64_t idx[8], int64_t w[8])
{
  const np_shape *in = &t->in[0];
  int64_t ow = t->out.dims[3], oh = t->out.dims[2], h = in->dims[2], wd = in->dims[3], ci = in->dims[1];
  int64_t x = e % ow, y = e / ow % oh, c = e / (ow * oh) % t->out.dims[1], y0, y1, wy, x0, x1, wx, c0 = c, c1 = c,
          wc = 0;
  resize_tap(t, 0, h, y, &y0, &y1, &wy);
  resize_tap(t, 1, wd, x, &x0, &x1, &wx);
  int n = t->weight_bytes == 36 ? 8 : 4;
  if (n == 8)
    resize_tap(t, 2, ci, c, &c0, &c1, &wc);
  for (int k = 0; k < n; k++) {
    idx[k] = ((k & 4 ? c1 : c0) * h + (k & 2 ? y1 : y0)) * wd + (k & 1 ? x1 : x0);
    w[k] = (k & 4 ? wc : 1024 - wc) * (k & 2 ? wy : 1024 - wy) * (k & 1 ? wx : 1024 - wx);
  }
  return n;
}

static bool resize_element(np_tile *t, int64_t e, uint32_t *operand, int64_t *missing)
{
  int64_t idx[8], w[8], acc = 0;
  int n = resize_corners(t, e, idx, w);
  for (int k = 0; k < n; k++) {
    NEED(0, idx[k]);
    acc += w[k] * t->in_data[0][idx[k]];
  }
  t->out_data[e] = (int8_t)round_shift(acc, 30); /* a convex combination: within the inputs' range */
  return true;
}

static bool lut_element(np_tile *t, int64_t e, uint32_t *operand, int64_t *missing)
{
  NEED(0, e);
  t->out_data[e] = t->weights[t->in_data[0][e] + 128];
  return true;
}

static int64_t softmax_entry(const np_tile *t, int64_t d)
{
  const uint8_t *w = (const uint8_t *)t->weights + 4 * (d + 255);
  return (int64_t)(int32_t)((uint32_t)w[0] | (uint32_t)w[1] << 8 | (uint32_t)w[2] << 16 | (uint32_t)w[3] << 24);
}

static bool softmax_element(np_tile *t, int64_t e, uint32_t *operand, int64_t *missing)
{
  int64_t n = t->out.dims[t->out.rank - 1], row = e / n * n, m = -128, sum = 0;
  for (int64_t j = 0; j < n; j++) {
    NEED(0, row + j);
    m = t->in_data[0][row + j] > m ? t->in_data[0][row + j] : m;
  }
  for (int64_t j = 0; j < n; j++)
    sum += softmax_entry(t, t->in_data[0][row + j] - m);
  int64_t num = softmax_entry(t, t->in_data[0][e] - m) * t->out_max, q = sum > 0 ? num / sum : 0,
          rem = sum > 0 ? num % sum : 0; /* probabilities in 1 / out_max steps: 127, 7 or 1 */
  if (2 * rem > sum || (2 * rem == sum && (q & 1)))
    q++;
  t->out_data[e] = (int8_t)(q > t->out_max ? t->out_max : q < 0 ? 0 : q);
  return true;
}

/* --- the fast path ----------------------------------------------------------------------------------------------
 * When every input element an iteration could read has arrived (checked
 * over a box that covers its reads, one bit range per channel), the iteration
 * runs without per-element checks on vectorisable loops: a conv gathers each
 * output pixel's window once (im2col, zeros for padding, which add nothing),
 * then takes int8 dot products per output channel; a matmul accumulates a
 * whole row of output columns at once. Sums are exact in int32 while
 * K * 128 * 128 < 2^31 (checked), and padding terms are zero, so the results
 * equal the element-by-element path bit for bit. Otherwise the iteration
 * takes that path, which names the exact missing element. */

#if defined(__GNUC__) && !defined(__clang__)
#define NP_VECTORISE __attribute__((optimize("O3")))
#else
#define NP_VECTORISE
#endif

/* int8 dot product with int32 sums: x86-64 multiplies pairs with (v)pmaddwd
 * (AVX2 if the CPU has it), elsewhere the compiler vectorises the loop. */
NP_VECTORISE static int32_t dot_i8_plain(const int8_t *a, const int8_t *b, int64_t n)
{
  int32_t acc = 0;
  for (int64_t i = 0; i < n; i++)
    acc += (int16_t)a[i] * (int16_t)b[i];
  return acc;
}

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>

__attribute__((target("avx2"))) static int32_t dot_i8_avx2(const int8_t *a, const int8_t *b, int64_t n)
{
  __m256i acc = _mm256_setzero_si256();
  int64_t i = 0;
  for (; i + 16 <= n; i += 16) {
    __m256i x = _mm256_cvtepi8_epi16(_mm_loadu_si128((const __m128i *)(const void *)(a + i)));
    __m256i y = _mm256_cvtepi8_epi16(_mm_loadu_si128((const __m128i *)(const void *)(b + i)));
    acc = _mm256_add_epi32(acc, _mm256_madd_epi16(x, y));
  }
  __m128i s = _mm_add_epi32(_mm256_castsi256_si128(acc), _mm256_extracti128_si256(acc, 1));
  if (i + 8 <= n) { /* an 8-byte step shortens the scalar tail (a 3x3 conv on 3 channels has 27) */
    __m128i x = _mm_cvtepi8_epi16(_mm_loadl_epi64((const __m128i *)(const void *)(a + i)));
    __m128i y = _mm_cvtepi8_epi16(_mm_loadl_epi64((const __m128i *)(const void *)(b + i)));
    s = _mm_add_epi32(s, _mm_madd_epi16(x, y));
    i += 8;
  }
  s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0x4e));
  s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0xb1));
  int32_t sum = _mm_cvtsi128_si32(s);
  for (; i < n; i++)
    sum += (int16_t)a[i] * (int16_t)b[i];
  return sum;
}

static int32_t dot_i8(const int8_t *a, const int8_t *b, int64_t n)
{
  return isa_cap() >= ISA_AVX2 && __builtin_cpu_supports("avx2") ? dot_i8_avx2(a, b, n) : dot_i8_plain(a, b, n);
}

/* With AVX512-VNNI one vpdpbusd does 64 u8 x s8 products summed into int32
 * lanes (wrapping). The im2col rows then hold x + 128 as u8 (x ^ 0x80), and
 * 128 * sum(w) per channel is subtracted after: exact modulo 2^32, and the
 * true sum fits in int32 (conv_fast checks K * 128 * 128 < 2^31). Four
 * pixels share each load of the weights. */
static bool have_vnni(void)
{
  return isa_cap() >= ISA_AVX512 && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
         __builtin_cpu_supports("avx512vnni");
}

#define NP_VNNI __attribute__((target("avx512f,avx512bw,avx512vnni")))

/* dots of the u8 rows u[0..3] with the s8 row w, n bytes each, into out[0..3] */
NP_VNNI static void dot4_vnni(const uint8_t *const u[4], const int8_t *w, int64_t n, int32_t out[4])
{
  __m512i a0 = _mm512_setzero_si512(), a1 = a0, a2 = a0, a3 = a0;
  int64_t i = 0;
  for (; i + 64 <= n; i += 64) {
    __m512i wv = _mm512_loadu_si512((const void *)(w + i));
    a0 = _mm512_dpbusd_epi32(a0, _mm512_loadu_si512((const void *)(u[0] + i)), wv);
    a1 = _mm512_dpbusd_epi32(a1, _mm512_loadu_si512((const void *)(u[1] + i)), wv);
    a2 = _mm512_dpbusd_epi32(a2, _mm512_loadu_si512((const void *)(u[2] + i)), wv);
    a3 = _mm512_dpbusd_epi32(a3, _mm512_loadu_si512((const void *)(u[3] + i)), wv);
  }
  if (i < n) { /* the tail: masked loads give 0, which adds nothing */
    __mmask64 m = (__mmask64)(~UINT64_C(0) >> (64 - (n - i)));
    __m512i wv = _mm512_maskz_loadu_epi8(m, w + i);
    a0 = _mm512_dpbusd_epi32(a0, _mm512_maskz_loadu_epi8(m, u[0] + i), wv);
    a1 = _mm512_dpbusd_epi32(a1, _mm512_maskz_loadu_epi8(m, u[1] + i), wv);
    a2 = _mm512_dpbusd_epi32(a2, _mm512_maskz_loadu_epi8(m, u[2] + i), wv);
    a3 = _mm512_dpbusd_epi32(a3, _mm512_maskz_loadu_epi8(m, u[3] + i), wv);
  }
  out[0] = _mm512_reduce_add_epi32(a0), out[1] = _mm512_reduce_add_epi32(a1);
  out[2] = _mm512_reduce_add_epi32(a2), out[3] = _mm512_reduce_add_epi32(a3);
}

NP_VNNI static int32_t dot1_vnni(const uint8_t *u, const int8_t *w, int64_t n)
{
  __m512i a = _mm512_setzero_si512();
  int64_t i = 0;
  for (; i + 64 <= n; i += 64)
    a = _mm512_dpbusd_epi32(a, _mm512_loadu_si512((const void *)(u + i)), _mm512_loadu_si512((const void *)(w + i)));
  if (i < n) {
    __mmask64 m = (__mmask64)(~UINT64_C(0) >> (64 - (n - i)));
    a = _mm512_dpbusd_epi32(a, _mm512_maskz_loadu_epi8(m, u + i), _mm512_maskz_loadu_epi8(m, w + i));
  }
  return _mm512_reduce_add_epi32(a);
}

/* The dots of n im2col rows (u8, x ^ 0x80) with one weight row, less 128 * sum(w). */
static void dots_vnni(const int8_t *const *rows, int64_t n, const int8_t *w, int64_t kk, int32_t wsum128, int32_t *acc)
{
  int64_t j = 0;
  for (; j + 4 <= n; j += 4)
    dot4_vnni((const uint8_t *const *)(const void *)(rows + j), w, kk, acc + j);
  if (n - j >= 2) { /* 2 or 3 left: one dot4, the last row repeated */
    const uint8_t *u[4];
    int32_t out[4];
    for (int64_t i = 0; i < 4; i++)
      u[i] = (const uint8_t *)rows[j + i < n ? j + i : n - 1];
    dot4_vnni(u, w, kk, out);
    for (; j < n; j++)
      acc[j] = out[j % 4];
  }
  for (; j < n; j++)
    acc[j] = dot1_vnni((const uint8_t *)rows[j], w, kk);
  for (j = 0; j < n; j++)
    acc[j] = (int32_t)((uint32_t)acc[j] - (uint32_t)wsum128);
}
#else
static int32_t dot_i8(const int8_t *a, const int8_t *b, int64_t n) { return dot_i8_plain(a, b, n); }
static bool have_vnni(void) { return false; }
static void dots_vnni(const int8_t *const *rows, int64_t n, const int8_t *w, int64_t kk, int32_t wsum128, int32_t *acc)
{
  (void)rows, (void)n, (void)w, (void)kk, (void)wsum128, (void)acc;
}
#endif

NP_VECTORISE static void axpy_i8(int32_t *acc, int8_t a, const int8_t *b, int64_t n)
{
  for (int64_t i = 0; i < n; i++)
    acc[i] += (int16_t)a * (int16_t)b[i];
}

/* Whether rows [y0, y1] x columns [x0, x1] of channels [c0, c1) of operand 0
 * have all arrived (the box is clipped to the input). */
static bool box_valid(const np_tile *t, int64_t c0, int64_t c1, int64_t y0, int64_t y1, int64_t x0, int64_t x1,
                      int64_t h, int64_t w)
{
  y0 = y0 < 0 ? 0 : y0, y1 = y1 >= h ? h - 1 : y1;
  x0 = x0 < 0 ? 0 : x0, x1 = x1 >= w ? w - 1 : x1;
  if (y1 < y0 || x1 < x0)
    return true;
  for (int64_t c = c0; c < c1; c++)
    if (x0 == 0 && x1 == w - 1) { /* whole rows: one range */
      if (!np_bits_all(t->valid[0], (c * h + y0) * w, (y1 - y0 + 1) * w))
        return false;
    } else {
      for (int64_t y = y0; y <= y1; y++)
        if (!np_bits_all(t->valid[0], (c * h + y) * w + x0, x1 - x0 + 1))
          return false;
    }
  return true;
}

/* The tile's scratch of at least n bytes (NULL if out of memory). */
static int8_t *np_scratch_i8(np_tile *t, size_t n)
{
  if (n > t->scratch_cap) {
    size_t cap = n > 2 * t->scratch_cap ? n : 2 * t->scratch_cap;
    int8_t *p = realloc(t->scratch, cap);
    if (!p)
      return NULL;
    t->scratch = p;
    t->scratch_cap = cap;
  }
  return t->scratch;
}

/* The sum of n int8 values, wrapping (vectorised). */
NP_VECTORISE static uint32_t sum_i8(const int8_t *v, int64_t n)
{
  uint32_t sum = 0;
  for (int64_t i = 0; i < n; i++)
    sum += (uint32_t)(int32_t)v[i];
  return sum;
}

/* The pixels conv_fast computes at a time (a stack array of pointers and sums). */
#define NP_RUN 64

/* 128 x the sum of each local channel's kk weights (wrapping), for dots_vnni;
 * computed once per tile. */
static const int32_t *weight_sums(np_tile *t, int64_t kk)
{
  if (!t->wsum128) {
    int64_t n = t->ch_hi - t->ch_lo;
    if (t->weight_elems < (uint64_t)(n * kk) || !(t->wsum128 = malloc((size_t)n * sizeof *t->wsum128)))
      return NULL;
    for (int64_t k = 0; k < n; k++)
      t->wsum128[k] = (int32_t)(sum_i8(t->weights + k * kk, kk) * 128u);
  }
  return t->wsum128;
}

/* The requantize of n sums of one channel, hoisted out of the loop (the
 * arithmetic of requantize, for shift in [1, 63]); vectorised, with AVX-512
 * (64-bit lane products) where the CPU has it. */
#define NP_REQUANT_BODY                                                                                             \
  {                                                                                                                 \
    uint64_t mask = (UINT64_C(1) << shift) - 1, half = UINT64_C(1) << (shift - 1);                                 \
    for (int64_t j = 0; j < n; j++) {                                                                               \
      int64_t v = (int64_t)(int32_t)((uint32_t)acc[j] + bias) * mult, q = v >> shift;                               \
      uint64_t r = (uint64_t)v & mask;                                                                              \
      q += r > half || (r == half && (q & 1));                                                                      \
      q += zp;                                                                                                      \
      q = q < floor_ ? floor_ : q;                                                                                  \
      y[j] = (int8_t)(q < lo ? lo : q > hi ? hi : q);                                                               \
    }                                                                                                               \
  }
#define NP_REQUANT_PARAMS                                                                                           \
  const int32_t *restrict acc, int8_t *restrict y, int64_t n, uint32_t bias, int64_t mult, int shift, int64_t zp,   \
    int64_t floor_, int64_t lo, int64_t hi
NP_VECTORISE static void requant_plain(NP_REQUANT_PARAMS) NP_REQUANT_BODY
#if defined(__x86_64__) && defined(__GNUC__)
__attribute__((target("avx512f,avx512dq,avx512bw,avx512vl"))) NP_VECTORISE static void requant_avx512(
  NP_REQUANT_PARAMS) NP_REQUANT_BODY
static bool have_avx512(void)
{
  return isa_cap() >= ISA_AVX512 && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") &&
         __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512vl");
}
#else
#define requant_avx512 requant_plain
static bool have_avx512(void) { return false; }
#endif

/* A residual add's n elements: round_shift of each operand's rescale (shifts
 * in [1, 63]), added (or the second subtracted: neg = -1), then zero point,
 * ReLU floor and saturation, as eltwise_element; vectorised like requant. */
#define NP_ELTWISE_BODY                                                                                             \
  {                                                                                                                 \
    uint64_t k0 = (UINT64_C(1) << s0) - 1, h0 = UINT64_C(1) << (s0 - 1);                                            \
    uint64_t k1 = (UINT64_C(1) << s1) - 1, h1 = UINT64_C(1) << (s1 - 1);                                            \
    for (int64_t j = 0; j < n; j++) {                                                                               \
      int64_t v0 = (int64_t)x0[j] * m0, v1 = (int64_t)x1[j] * m1, q0 = v0 >> s0, q1 = v1 >> s1;                     \
      uint64_t r0 = (uint64_t)v0 & k0, r1 = (uint64_t)v1 & k1;                                                      \
      q0 += r0 > h0 || (r0 == h0 && (q0 & 1));                                                                      \
      q1 += r1 > h1 || (r1 == h1 && (q1 & 1));                                                                      \
      int64_t r = q0 + ((q1 ^ neg) - neg) + zp;                                                                     \
      r = r < floor_ ? floor_ : r;                                                                                  \
      y[j] = (int8_t)(r < lo ? lo : r > hi ? hi : r);                                                               \
    }                                                                                                               \
  }
#define NP_ELTWISE_PARAMS                                                                                           \
  const int8_t *restrict x0, const int8_t *restrict x1, int8_t *restrict y, int64_t n, int64_t m0, int s0,         \
    int64_t m1, int s1, int64_t neg, int64_t zp, int64_t floor_, int64_t lo, int64_t hi
NP_VECTORISE static void eltwise_plain(NP_ELTWISE_PARAMS) NP_ELTWISE_BODY
#if defined(__x86_64__) && defined(__GNUC__)
__attribute__((target("avx512f,avx512dq,avx512bw,avx512vl"))) NP_VECTORISE static void eltwise_avx512(
  NP_ELTWISE_PARAMS) NP_ELTWISE_BODY
#else
#define eltwise_avx512 eltwise_plain
#endif

/* finish() of n consecutive elements of local channel kl from e on. */
static void finish_run(np_tile *t, int64_t e, int64_t kl, const int32_t *acc, int64_t n)
{
  int64_t ri = t->n_requant == 1 ? 0 : kl;
  if (sliced(t) || !t->n_requant || t->shift[ri] <= 0) {
    for (int64_t j = 0; j < n; j++)
      t->out_data[e + j] = finish(t, e + j, kl, acc[j]);
    return;
  }
  uint32_t bias = t->n_bias ? (uint32_t)t->bias[kl] : 0;
  int64_t zp = t->zero_point, floor_ = t->flags & NP_FLAG_RELU ? zp : INT64_MIN;
  int shift = t->shift[ri] > 63 ? 63 : t->shift[ri];
  (have_avx512() ? requant_avx512 : requant_plain)(acc, t->out_data + e, n, bias, t->multiplier[ri], shift, zp,
                                                   floor_, t->out_min, t->out_max);
}

/* Transposes the 8x8 bytes of r in place (r[i]'s byte j becomes r[j]'s byte i; little-endian words): three
 * rounds of swapping 2x2 blocks of 1, 2, then 4 bytes between word pairs. */
static void transpose8x8(uint64_t r[8])
{
  for (int i = 0; i < 8; i += 2) {
    uint64_t d = ((r[i] >> 8) ^ r[i + 1]) & UINT64_C(0x00FF00FF00FF00FF);
    r[i + 1] ^= d, r[i] ^= d << 8;
  }
  for (int i = 0; i < 8; i += 4)
    for (int j = i; j < i + 2; j++) {
      uint64_t d = ((r[j] >> 16) ^ r[j + 2]) & UINT64_C(0x0000FFFF0000FFFF);
      r[j + 2] ^= d, r[j] ^= d << 16;
    }
  for (int j = 0; j < 4; j++) {
    uint64_t d = ((r[j] >> 32) ^ r[j + 4]) & UINT64_C(0x00000000FFFFFFFF);
    r[j + 4] ^= d, r[j] ^= d << 32;
  }
}

/* The im2col of a 1x1 conv with stride 1 over one output row: the c channel rows of `cols` pixels at src (a
 * channel every `plane` elements) into dst[pixel][channel], each byte ^ flip. A byte at a time this
 * transpose was the most of the datapath's time outside the dot products (ResNet-50's convs are mostly 1x1),
 * so 8 channels x 8 pixels go through 64-bit words at a time. */
static void im2col_1x1(const int8_t *src, int64_t plane, int64_t c, int64_t cols, int8_t *dst, int8_t flip)
{
  int64_t ci = 0;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  uint64_t f = (uint8_t)flip * UINT64_C(0x0101010101010101);
  for (; ci + 8 <= c; ci += 8) {
    int64_t ox = 0;
    for (; ox + 8 <= cols; ox += 8) {
      uint64_t r[8];
      for (int i = 0; i < 8; i++)
        memcpy(&r[i], src + (ci + i) * plane + ox, 8);
      transpose8x8(r);
      for (int j = 0; j < 8; j++) {
        uint64_t v = r[j] ^ f;
        memcpy(dst + (ox + j) * c + ci, &v, 8);
      }
    }
    for (; ox < cols; ox++)
      for (int i = 0; i < 8; i++)
        dst[ox * c + ci + i] = (int8_t)(src[(ci + i) * plane + ox] ^ flip);
  }
#endif
  for (; ci < c; ci++)
    for (int64_t ox = 0; ox < cols; ox++)
      dst[ox * c + ci] = (int8_t)(src[ci * plane + ox] ^ flip);
}

static bool conv_fast(np_tile *t, const window *g, const np_iter *it)
{
  int64_t m = t->out.dims[1], c = t->in[0].dims[1], c0 = 0;
  if (t->group != 1 || it->n_blocks == 0)
    return false;
  if (sliced(t)) /* channels [in_lo, in_hi) */
    c0 = t->in_lo, c = t->in_hi - t->in_lo;
  int64_t kk = c * g->kh * g->kw, hw = g->oh * g->ow;
  if (kk <= 0 || hw <= 0 || kk > INT32_MAX / (128 * 128))
    return false;
  /* the output rows and columns the iteration covers: each run's part of its channel plane */
  int64_t oy0 = INT64_MAX, oy1 = -1, ox0 = INT64_MAX, ox1 = -1;
  for (uint32_t b = 0; b < it->n_blocks; b++) {
    const np_block *bk = &it->blocks[b];
    int64_t runs = bk->stride % hw == 0 ? (bk->count > 0) : bk->count; /* equal positions in every plane */
    for (int64_t i = 0; i < runs && bk->len > 0; i++) {
      int64_t s0 = bk->start + i * bk->stride, s1 = s0 + bk->len - 1;
      bool plane = s0 / hw == s1 / hw;
      int64_t ya = plane ? s0 % hw / g->ow : 0, yb = plane ? s1 % hw / g->ow : g->oh - 1;
      int64_t xa = plane && ya == yb ? s0 % g->ow : 0, xb = plane && ya == yb ? s1 % g->ow : g->ow - 1;
      oy0 = ya < oy0 ? ya : oy0, oy1 = yb > oy1 ? yb : oy1;
      ox0 = xa < ox0 ? xa : ox0, ox1 = xb > ox1 ? xb : ox1;
    }
  }
  if (oy1 < 0 || oy1 - oy0 > 8) /* a bounded window of rows: iterations are rows or pixels */
    return false;
  int64_t rows = oy1 - oy0 + 1, cols = ox1 - ox0 + 1;
  if (rows * cols * kk > ((int64_t)1 << 26)) /* the im2col scratch stays under 64 MB */
    return false;
  if (!box_valid(t, c0, c0 + c, oy0 * g->sh - g->pt, oy1 * g->sh - g->pt + (g->kh - 1) * g->dh, ox0 * g->sw - g->pl,
                 ox1 * g->sw - g->pl + (g->kw - 1) * g->dw, g->h, g->w))
    return false;
  /* im2col of the covered pixels: [rows * cols][kk], padding 0 (with VNNI: x ^ 0x80, see dots_vnni) */
  bool vnni = have_vnni();
  int8_t flip = vnni ? (int8_t)0x80 : 0;
  const int32_t *wsum128 = vnni ? weight_sums(t, kk) : NULL;
  int8_t *col = np_scratch_i8(t, (size_t)(rows * cols * kk));
  if (!col || (vnni && !wsum128))
    return false;
  /* channel and kernel row outside, pixels inside: the reads go along an input row, and a kernel row's taps
   * that are all inside the input (all but the padded edges) are copied without bounds checks */
  const int8_t *x = t->in_data[0];
  bool one_by_one = g->kh == 1 && g->kw == 1 && g->sw == 1 && ox0 - g->pl >= 0 && ox1 - g->pl < g->w;
  for (int64_t r = 0; one_by_one && r < rows; r++) {
    int64_t iy = (oy0 + r) * g->sh - g->pt;
    int8_t *dst = col + r * cols * kk;
    if (iy < 0 || iy >= g->h)
      memset(dst, flip, (size_t)(cols * kk));
    else
      im2col_1x1(x + (c0 * g->h + iy) * g->w + ox0 - g->pl, g->h * g->w, c, cols, dst, flip);
  }
  for (int64_t r = 0; !one_by_one && r < rows; r++)
    for (int64_t ci = 0; ci < c; ci++)
      for (int64_t ky = 0; ky < g->kh; ky++) {
        int64_t oy = oy0 + r, iy = oy * g->sh - g->pt + ky * g->dh, kw = g->kw, dw = g->dw;
        int8_t *p = col + r * cols * kk + (ci * g->kh + ky) * kw;
        if (iy < 0 || iy >= g->h) {
          for (int64_t ox = ox0; ox <= ox1; ox++, p += kk)
            for (int64_t kx = 0; kx < kw; kx++) /* a few bytes: no memset call */
              p[kx] = flip;
          continue;
        }
        const int8_t *row = x + ((c0 + ci) * g->h + iy) * g->w;
        for (int64_t ox = ox0; ox <= ox1; ox++, p += kk) {
          int64_t ix0 = ox * g->sw - g->pl;
          if (ix0 >= 0 && ix0 + (kw - 1) * dw < g->w) {
            if (kw == 1)
              p[0] = (int8_t)(row[ix0] ^ flip);
            else if (kw == 3 && dw == 1)
              p[0] = (int8_t)(row[ix0] ^ flip), p[1] = (int8_t)(row[ix0 + 1] ^ flip), p[2] = (int8_t)(row[ix0 + 2] ^ flip);
            else
              for (int64_t kx = 0; kx < kw; kx++)
                p[kx] = (int8_t)(row[ix0 + kx * dw] ^ flip);
            continue;
          }
          for (int64_t kx = 0; kx < kw; kx++) {
            int64_t ix = ix0 + kx * dw;
            p[kx] = ix >= 0 && ix < g->w ? (int8_t)(row[ix] ^ flip) : flip;
          }
        }
      }
  /* each run of consecutive outputs: divide once at its start, then step (ox, oy, k) */
  for (uint32_t b = 0; b < it->n_blocks; b++) {
    const np_block *bk = &it->blocks[b];
    for (int64_t i = 0; i < bk->count; i++) {
      int64_t e0 = bk->start + i * bk->stride, e1 = e0 + bk->len;
      if (e1 <= e0)
        continue;
      int64_t ox = e0 % g->ow, oy = e0 / g->ow % g->oh, kl = e0 / hw % m - t->ch_lo;
      for (int64_t e = e0; e < e1;) { /* up to NP_RUN pixels of one channel at a time */
        int64_t n = e1 - e, left = hw - (oy * g->ow + ox);
        n = n < left ? n : left;
        n = n < NP_RUN ? n : NP_RUN;
        const int8_t *rows_[NP_RUN], *w = t->weights + kl * kk;
        int32_t acc[NP_RUN];
        for (int64_t j = 0; j < n; j++) {
          rows_[j] = col + ((oy - oy0) * cols + ox - ox0) * kk;
          if (++ox == g->ow) {
            ox = 0;
            if (++oy == g->oh)
              oy = 0;
          }
        }
        if (vnni)
          dots_vnni(rows_, n, w, kk, wsum128[kl], acc);
        else
          for (int64_t j = 0; j < n; j++)
            acc[j] = dot_i8(rows_[j], w, kk);
        finish_run(t, e, kl, acc, n);
        e += n;
        if (ox == 0 && oy == 0) /* the plane is done: the next channel */
          kl = (kl + t->ch_lo + 1) % m - t->ch_lo;
      }
      np_bits_set(t->computed, e0, e1 - e0);
    }
  }
  return true;
}

static bool matmul_fast(np_tile *t, const np_iter *it)
{
  int64_t n = t->out.dims[t->out.rank - 1], k = t->in[0].dims[t->in[0].rank - 1];
  int64_t slice = t->ch_hi - t->ch_lo, i0 = sliced(t) ? t->in_lo : 0, i1 = sliced(t) ? t->in_hi : k;
  if (it->n_blocks == 0 || k > INT32_MAX / (128 * 128) || slice < 1)
    return false;
  /* one output row per iteration */
  const np_block *b0 = &it->blocks[0], *bl = &it->blocks[it->n_blocks - 1];
  int64_t first = b0->start, last = bl->start + (bl->count - 1) * bl->stride + bl->len - 1, row = first / n;
  if (last / n != row || !np_bits_all(t->valid[0], row * k + i0, i1 - i0))
    return false;
  int32_t *acc = (int32_t *)(void *)np_scratch_i8(t, (size_t)slice * sizeof(int32_t));
  if (!acc)
    return false;
  memset(acc, 0, (size_t)slice * sizeof *acc);
  const int8_t *x = t->in_data[0] + row * k;
  for (int64_t i = i0; i < i1; i++)
    if (x[i])
      axpy_i8(acc, x[i], t->weights + (i - i0) * slice, slice);
  NP_FOREACH_ELEMENT(it, e, {
    int64_t cl = e % n - t->ch_lo;
    t->out_data[e] = finish(t, e, cl, acc[cl]);
    np_bit_set(t->computed, e);
  })
  return true;
}

/* A residual add whose operands have all arrived: one validity check per run
 * (a bit range), then a loop without per-element branches on arrival. */
static bool eltwise_fast(np_tile *t, const np_iter *it)
{
  for (uint32_t b = 0; b < it->n_blocks; b++) {
    const np_block *bk = &it->blocks[b];
    for (int64_t i = 0; i < bk->count && bk->len > 0; i++) {
      int64_t e0 = bk->start + i * bk->stride;
      if (!np_bits_all(t->valid[0], e0, bk->len) || !np_bits_all(t->valid[1], e0, bk->len))
        return false;
    }
  }
  const int8_t *restrict x0 = t->in_data[0], *restrict x1 = t->in_data[1];
  int8_t *restrict y = t->out_data;
  int64_t m0 = t->multiplier[0], m1 = t->multiplier[1], zp = t->zero_point;
  int s0 = t->shift[0], s1 = t->shift[1];
  int64_t floor_ = t->flags & NP_FLAG_RELU ? zp : INT64_MIN, lo = t->out_min, hi = t->out_max;
  bool sub = t->flags & NP_FLAG_SUBTRACT;
  for (uint32_t b = 0; b < it->n_blocks; b++) {
    const np_block *bk = &it->blocks[b];
    for (int64_t i = 0; i < bk->count && bk->len > 0; i++) {
      int64_t e0 = bk->start + i * bk->stride, e1 = e0 + bk->len;
      if (s0 > 0 && s1 > 0) {
        (have_avx512() ? eltwise_avx512 : eltwise_plain)(x0 + e0, x1 + e0, y + e0, e1 - e0, m0, s0 > 63 ? 63 : s0, m1,
                                                         s1 > 63 ? 63 : s1, sub ? -1 : 0, zp, floor_, lo, hi);
        np_bits_set(t->computed, e0, bk->len);
        continue;
      }
      for (int64_t e = e0; e < e1; e++) {
        int64_t r0 = round_shift((int64_t)x0[e] * m0, s0), r1 = round_shift((int64_t)x1[e] * m1, s1);
        int64_t r = (sub ? r0 - r1 : r0 + r1) + zp;
        r = r < floor_ ? floor_ : r;
        y[e] = (int8_t)(r < lo ? lo : r > hi ? hi : r);
      }
      np_bits_set(t->computed, e0, bk->len);
    }
  }
  return true;
}

bool np_compute_iteration(np_tile *t, const np_iter *it, uint32_t *operand, int64_t *missing)
{
  window g = t->kind == NP_KIND_CONV || t->kind == NP_KIND_MAX_POOL || t->kind == NP_KIND_AVG_POOL ? window_of(t)
                                                                                                  : (window){0};
  if (!partial_sums_arrived(t, it, operand, missing))
    return false;
  if (t->kind == NP_KIND_CONV && conv_fast(t, &g, it))
    return true;
  if (t->kind == NP_KIND_MATMUL && matmul_fast(t, it))
    return true;
  if (t->kind == NP_KIND_ELTWISE && eltwise_fast(t, it))
    return true;
  NP_FOREACH_ELEMENT(it, e, {
    bool ok;
    switch (t->kind) {
    case NP_KIND_CONV: ok = conv_element(t, &g, e, operand, missing); break;
    case NP_KIND_MAX_POOL: ok = pool_element(t, &g, e, operand, missing); break;
    case NP_KIND_AVG_POOL: ok = avg_pool_element(t, &g, e, operand, missing); break;
    case NP_KIND_MATMUL: ok = matmul_element(t, e, operand, missing); break;
    case NP_KIND_ELTWISE: ok = eltwise_element(t, e, operand, missing); break;
    case NP_KIND_CONCAT: ok = concat_element(t, e, operand, missing); break;
    case NP_KIND_MUL: ok = mul_element(t, e, operand, missing); break;
    case NP_KIND_LUT: ok = lut_element(t, e, operand, missing); break;
    case NP_KIND_MOVE: ok = move_element(t, e, operand, missing); break;
    case NP_KIND_RESIZE: ok = resize_element(t, e, operand, missing); break;
    case NP_KIND_TRANSPOSE: ok = transpose_element(t, e, operand, missing); break;
    case NP_KIND_SOFTMAX: ok = softmax_element(t, e, operand, missing); break;
    default: /* NP_KIND_COPY: flatten / reshape keep the row-major order */
      ok = np_bit(t->valid[0], e) || (*operand = 0, *missing = e, false);
      if (ok)
        t->out_data[e] = t->in_data[0][e];
      break;
    }
    if (!ok)
      return false;
    np_bit_set(t->computed, e);
  })
  return true;
}

int64_t np_read_key(const np_tile *t, int64_t e, int64_t *n_keys)
{
  if (t->kind == NP_KIND_SOFTMAX) { /* a row reads the same inputs */
    int64_t n = t->out.dims[t->out.rank - 1];
    if (n_keys)
      *n_keys = t->out.elements / n;
    return e / n;
  }
  if (t->kind == NP_KIND_CONV) {
    int64_t hw = t->out.dims[2] * t->out.dims[3], mg = t->out.dims[1] / t->group;
    if (n_keys)
      *n_keys = t->group * hw;
    return e / hw % t->out.dims[1] / mg * hw + e % hw;
  }
  if (t->kind == NP_KIND_MATMUL) {
    int64_t n = t->out.dims[t->out.rank - 1];
    if (n_keys)
      *n_keys = t->out.elements / n;
    return e / n;
  }
  if (n_keys)
    *n_keys = t->out.elements;
  return e;
}

int64_t np_read_key_span(const np_tile *t, int64_t e, int64_t *step, int64_t *span)
{
  int64_t key = np_read_key(t, e, NULL), n = INT64_MAX;
  *step = 1;
  if (t->kind == NP_KIND_SOFTMAX || t->kind == NP_KIND_MATMUL) /* a row: one key */
    n = t->out.dims[t->out.rank - 1], *step = 0;
  else if (t->kind == NP_KIND_CONV) /* a channel plane: consecutive pixels */
    n = t->out.dims[2] * t->out.dims[3];
  *span = n == INT64_MAX ? n : n - e % n;
  return key;
}

/* The input channels [*c0, *c0 + *cg) output channel k of a conv reads (its group's, or its slice's), or
 * channel k alone for a pool. */
static void input_channels(const np_tile *t, int64_t k, int64_t *c0, int64_t *cg)
{
  *c0 = k, *cg = 1;
  if (t->kind == NP_KIND_CONV) {
    *cg = t->in[0].dims[1] / t->group;
    *c0 = k / (t->out.dims[1] / t->group) * *cg;
    if (sliced(t))
      *c0 = t->in_lo, *cg = t->in_hi - t->in_lo;
  }
}

void np_foreach_read(const np_tile *t, int64_t e, void (*fn)(uint32_t operand, int64_t idx, void *user), void *user)
{
  if (t->kind == NP_KIND_COPY || t->kind == NP_KIND_LUT) {
    fn(0, e, user);
    return;
  }
  if (t->kind == NP_KIND_TRANSPOSE) {
    fn(0, transpose_source(t, e), user);
    return;
  }
  if (t->kind == NP_KIND_MOVE) {
    int64_t idx = move_source(t, e);
    if (idx >= 0)
      fn(0, idx, user);
    return;
  }
  if (t->kind == NP_KIND_RESIZE) {
    int64_t idx[8], w[8];
    int n = resize_corners(t, e, idx, w);
    for (int k = 0; k < n; k++)
      fn(0, idx[k], user);
    return;
  }
  if (t->kind == NP_KIND_CONCAT) {
    int64_t idx;
    uint32_t i = concat_source(t, e, &idx);
    fn(i, idx, user);
    return;
  }
  if (t->kind == NP_KIND_SOFTMAX) { /* the whole row */
    int64_t n = t->out.dims[t->out.rank - 1], row = e / n * n;
    for (int64_t j = 0; j < n; j++)
      fn(0, row + j, user);
    return;
  }
  if (t->kind == NP_KIND_MUL) {
    fn(0, e, user);
    fn(1, mul_b_index(t, e), user);
    return;
  }
  if (t->kind == NP_KIND_ELTWISE) {
    fn(0, e, user);
    fn(1, e, user);
    return;
  }
  if (t->kind == NP_KIND_MATMUL) {
    int64_t n = t->out.dims[t->out.rank - 1], k = t->in[0].dims[t->in[0].rank - 1], row = e / n;
    for (int64_t i = sliced(t) ? t->in_lo : 0; i < (sliced(t) ? t->in_hi : k); i++)
      fn(0, row * k + i, user);
    return;
  }
  window g = window_of(t);
  int64_t ox = e % g.ow, oy = e / g.ow % g.oh, k = e / (g.ow * g.oh) % t->out.dims[1];
  int64_t c0, cg;
  input_channels(t, k, &c0, &cg);
  for (int64_t ci = 0; ci < cg; ci++)
    for (int64_t ky = 0; ky < g.kh; ky++) {
      int64_t iy = oy * g.sh - g.pt + ky * g.dh;
      for (int64_t kx = 0; iy >= 0 && iy < g.h && kx < g.kw; kx++) {
        int64_t ix = ox * g.sw - g.pl + kx * g.dw;
        if (ix >= 0 && ix < g.w)
          fn(0, ((c0 + ci) * g.h + iy) * g.w + ix, user);
      }
    }
}

static bool same_shape(const np_shape *a, const np_shape *b)
{
  if (a->rank != b->rank || a->elements != b->elements)
    return false;
  for (int d = 0; d < a->rank; d++)
    if (a->dims[d] != b->dims[d])
      return false;
  return true;
}

bool np_same_reads(const np_tile *a, const np_tile *b)
{
  if (a->kind != b->kind || (a->kind != NP_KIND_CONV && a->kind != NP_KIND_MATMUL) || a->n_operands != 1 ||
      b->n_operands != 1 || sliced(a) != sliced(b) || (sliced(a) && (a->in_lo != b->in_lo || a->in_hi != b->in_hi)))
    return false;
  return same_shape(&a->in[0], &b->in[0]) && same_shape(&a->out, &b->out) &&
         (a->kind == NP_KIND_MATMUL ||
          (!memcmp(a->kernel, b->kernel, sizeof a->kernel) && !memcmp(a->stride, b->stride, sizeof a->stride) &&
           !memcmp(a->pad, b->pad, sizeof a->pad) && !memcmp(a->dilation, b->dilation, sizeof a->dilation) &&
           a->group == b->group));
}

/* Sets n int32 values to v (vectorised). */
NP_VECTORISE static void fill_i32(int32_t *p, int64_t n, int32_t v)
{
  for (int64_t i = 0; i < n; i++)
    p[i] = v;
}

int64_t np_mark_reads(const np_tile *t, int64_t e, int64_t n, int32_t iter, int32_t *const *last_read_of)
{
  if (t->kind == NP_KIND_COPY || t->kind == NP_KIND_LUT || t->kind == NP_KIND_ELTWISE) { /* element e reads e */
    uint32_t ops = t->kind == NP_KIND_ELTWISE ? 2 : 1;
    for (uint32_t k = 0; k < ops; k++)
      fill_i32(last_read_of[k] + e, n, iter);
    return n * ops;
  }
  if (t->kind != NP_KIND_CONV && t->kind != NP_KIND_MAX_POOL && t->kind != NP_KIND_AVG_POOL)
    return -1;
  int32_t *last_read = last_read_of[0];
  window g = window_of(t);
  int64_t reads = 0;
  /* np_foreach_read's loops, a row segment (one channel, one oy, columns [xa, xb]) at a time: the input
   * columns the segment reads are one range when the taps are contiguous and overlap from pixel to pixel */
  bool one_range = g.dw == 1 && g.sw <= g.kw;
  for (int64_t end = e + n; e < end;) {
    int64_t xa = e % g.ow, oy = e / g.ow % g.oh, k = e / (g.ow * g.oh) % t->out.dims[1];
    int64_t xb = xa + (end - e) - 1 < g.ow - 1 ? xa + (end - e) - 1 : g.ow - 1;
    int64_t c0, cg;
    input_channels(t, k, &c0, &cg);
    int64_t taps = 0; /* the segment's in-bounds (ox, kx) pairs */
    for (int64_t ox = xa; ox <= xb; ox++)
      for (int64_t kx = 0; kx < g.kw; kx++) {
        int64_t ix = ox * g.sw - g.pl + kx * g.dw;
        taps += ix >= 0 && ix < g.w;
      }
    int64_t r0 = xa * g.sw - g.pl, r1 = xb * g.sw - g.pl + g.kw - 1; /* one_range: columns [r0, r1] */
    r0 = r0 < 0 ? 0 : r0, r1 = r1 >= g.w ? g.w - 1 : r1;
    for (int64_t ky = 0; ky < g.kh; ky++) {
      int64_t iy = oy * g.sh - g.pt + ky * g.dh;
      if (iy < 0 || iy >= g.h)
        continue;
      reads += cg * taps;
      for (int64_t ci = 0; ci < cg; ci++) {
        int32_t *row = last_read + ((c0 + ci) * g.h + iy) * g.w;
        if (one_range) {
          fill_i32(row + r0, r1 - r0 + 1, iter);
          continue;
        }
        for (int64_t ox = xa; ox <= xb; ox++)
          for (int64_t kx = 0; kx < g.kw; kx++) {
            int64_t ix = ox * g.sw - g.pl + kx * g.dw;
            if (ix >= 0 && ix < g.w)
              row[ix] = iter;
          }
      }
    }
    e += xb - xa + 1;
  }
  return reads;
}
