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
 * sums its row's exponential-table entries and divides exactly.
 *
 * Every input element is read through `valid`: data that has not arrived in
 * the core's buffers cannot be read, so a schedule that computes too early
 * is caught at the exact element, never computed on stale or zero data.
 * This is a separate implementation from the interpreter's kernels on
 * purpose: the runtime library links nothing of nc, and an independent
 * datapath makes the bit-exactness check meaningful.
 */
#include "np_sim.h"

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
  return (int8_t)(r < -128 ? -128 : r > 127 ? 127 : r);
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
    if (!t->valid[op][idx]) {                                                                                       \
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
  t->out_data[e] = requantize(t, kl, acc);
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
  int64_t acc = 0;
  for (int64_t i = 0; i < k; i++) {
    int64_t idx = row * k + i;
    NEED(0, idx);
    acc += (int64_t)t->in_data[0][idx] * t->weights[i * slice + cl];
  }
  t->out_data[e] = requantize(t, cl, acc);
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
  t->out_data[e] = (int8_t)(r < -128 ? -128 : r > 127 ? 127 : r);
  return true;
}

/* The operand and its element that output element e of a channel concat
 * reads (operands [1, C_i, H, W] in order). */
static uint32_t concat_source(const np_tile *t, int64_t e, int64_t *idx)
{
  int64_t hw = t->out.dims[2] * t->out.dims[3], c = e / hw % t->out.dims[1], p = e % hw;
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
  t->out_data[e] = (int8_t)(r < -128 ? -128 : r > 127 ? 127 : r);
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
  t->out_data[e] = (int8_t)(r < -128 ? -128 : r > 127 ? 127 : r);
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
  int64_t num = softmax_entry(t, t->in_data[0][e] - m) * 127, q = sum > 0 ? num / sum : 0, rem = sum > 0 ? num % sum : 0;
  if (2 * rem > sum || (2 * rem == sum && (q & 1)))
    q++;
  t->out_data[e] = (int8_t)(q > 127 ? 127 : q < 0 ? 0 : q);
  return true;
}

bool np_compute_iteration(np_tile *t, const np_iter *it, uint32_t *operand, int64_t *missing)
{
  window g = t->kind == NP_KIND_CONV || t->kind == NP_KIND_MAX_POOL || t->kind == NP_KIND_AVG_POOL ? window_of(t)
                                                                                                  : (window){0};
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
    case NP_KIND_SOFTMAX: ok = softmax_element(t, e, operand, missing); break;
    default: /* NP_KIND_COPY: flatten / reshape keep the row-major order */
      ok = t->valid[0][e] || (*operand = 0, *missing = e, false);
      if (ok)
        t->out_data[e] = t->in_data[0][e];
      break;
    }
    if (!ok)
      return false;
    t->computed[e] = 1;
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

void np_foreach_read(const np_tile *t, int64_t e, void (*fn)(uint32_t operand, int64_t idx, void *user), void *user)
{
  if (t->kind == NP_KIND_COPY || t->kind == NP_KIND_LUT) {
    fn(0, e, user);
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
    for (int64_t i = 0; i < k; i++)
      fn(0, row * k + i, user);
    return;
  }
  window g = window_of(t);
  int64_t ox = e % g.ow, oy = e / g.ow % g.oh, k = e / (g.ow * g.oh) % t->out.dims[1];
  int64_t c0 = k, cg = 1;
  if (t->kind == NP_KIND_CONV) {
    cg = t->in[0].dims[1] / t->group;
    c0 = k / (t->out.dims[1] / t->group) * cg;
  }
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
