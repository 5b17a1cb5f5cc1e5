/* datapath.c: the crossbar and digital datapath of an xbar core, element
 * by element, in plain C (separate from the interpreter's kernels, so that
 * the bit-for-bit comparison with the interpreter means something).
 *
 * A conv or matmul iteration gathers its input vector x (Cin*kh*kw values,
 * padding as the input zero point), and every crossbar of the iteration's
 * replica multiplies its slice of x by its tile of the weight matrix.
 * Ideal mode: the products are summed exactly (a wide enough ADC; summing
 * the bit-serial slices reconstructs the exact product). Noise mode: x is
 * fed bit-serially, ceil(input_bits / dac_bits) slices of dac_bits (two's
 * complement, the top slice signed); each slice's column sums use noisy
 * conductances and go through an ADC of adc_bits: its step is the smallest
 * power of two whose 2^(adc_bits-1) - 1 levels cover the crossbar's
 * worst-case column sum of a slice (set when the crossbar is programmed),
 * it rounds to that step and clips to its range (noise can push sums past
 * the worst case); the slices are shifted and added digitally.
 * The digital unit of the core owning the output adds the row tiles'
 * partial sums, corrects for the zero points (sum (x - zx)(w - zw) =
 * sum x w - zx sum w - zw sum x + K zx zw), adds the bias and requantizes
 * with layer.h's fixed-point rule (round half to even), then clamps.
 * The digital unit also moves elements (nearest resize, also of the
 * channels, pads, channel shuffle) and resizes linearly (the resize layer's
 * 10-bit fixed-point rule, layer.h); a resize of one image into a batch
 * writes each output pixel into every image.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/runtime/rt_util.h"
#include "xbar_sim.h"

uint64_t xbar_mvm_cycles(const xbar_chip *chip)
{
  uint32_t dac = chip->dac_bits ? chip->dac_bits : 1;
  return (uint64_t)((chip->input_bits + dac - 1) / dac) * chip->mvm_latency_cycles;
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

int32_t xbar_requantize(const xbar_stage *st, int64_t ch, int64_t acc64)
{
  int32_t acc = (int32_t)(uint32_t)acc64; /* the int32 accumulator wraps */
  if (st->n_bias)
    acc = (int32_t)((uint32_t)acc + (uint32_t)st->bias[ch]);
  int64_t r = acc;
  if (st->n_requant) {
    int64_t i = st->n_requant == 1 ? 0 : ch;
    r = round_shift((int64_t)acc * st->multiplier[i], st->shift[i]);
  }
  r += st->output_zp;
  if (r < st->clamp_min)
    r = st->clamp_min;
  if (r > st->clamp_max)
    r = st->clamp_max;
  return (int32_t)(r < -128 ? -128 : r > 127 ? 127 : r);
}

void xbar_mvm(const xbar_state *s, const xbar_stage *st, uint32_t tile, uint32_t r0, uint32_t r1, uint32_t c0,
              uint32_t c1, const int8_t *x, int64_t *y)
{
  uint32_t nr = r1 - r0, nc = c1 - c0;
  if (!s->noisy) {
    for (uint32_t j = 0; j < nc; j++)
      y[j] = 0;
    for (uint32_t i = 0; i < nr; i++) {
      int64_t xi = x[i];
      if (!xi)
        continue;
      const int8_t *w = st->matrix + (size_t)(r0 + i) * st->cols + c0;
      for (uint32_t j = 0; j < nc; j++)
        y[j] += xi * w[j];
    }
    return;
  }
  const double *g = st->conductance[tile];
  uint32_t dac = s->chip.dac_bits, bits = s->chip.input_bits;
  uint32_t slices = (bits + dac - 1) / dac;
  double adc_max = ldexp(1.0, (int)s->chip.adc_bits - 1) - 1, adc_min = -ldexp(1.0, (int)s->chip.adc_bits - 1);
  double step = st->adc_step[tile];
  double *col = nc_rt_calloc(nc, sizeof *col);
  for (uint32_t j = 0; j < nc; j++)
    y[j] = 0;
  for (uint32_t sl = 0; sl < slices; sl++) {
    uint32_t lo = sl * dac;
    for (uint32_t j = 0; j < nc; j++)
      col[j] = 0;
    for (uint32_t i = 0; i < nr; i++) {
      int64_t v = x[i];
      /* slice sl of v in two's complement: the top slice keeps the sign */
      int64_t u = sl + 1 == slices ? v >> lo : (v >> lo) & ((INT64_C(1) << dac) - 1);
      if (!u)
        continue;
      const double *gi = g + (size_t)i * nc;
      for (uint32_t j = 0; j < nc; j++)
        col[j] += (double)u * gi[j];
    }
    for (uint32_t j = 0; j < nc; j++) {
      double a = nearbyint(col[j] / step);
      a = a < adc_min ? adc_min : a > adc_max ? adc_max : a;
      y[j] += (int64_t)(a * step) * (INT64_C(1) << lo);
    }
  }
  free(col);
}

/* --- noise: seeded Gaussian conductances ------------------------------------------------------------------ */

static uint64_t splitmix64(uint64_t *state)
{
  uint64_t z = (*state += UINT64_C(0x9E3779B97F4A7C15));
  z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
  z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
  return z ^ (z >> 31);
}

/* A standard normal sample (Box-Muller on two uniform doubles in (0, 1]). */
static double gaussian(uint64_t *state)
{
  double u1 = ((double)(splitmix64(state) >> 11) + 1.0) / 9007199254740992.0;
  double u2 = (double)(splitmix64(state) >> 11) / 9007199254740992.0;
  return sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2);
}

static void free_conductances(xbar_stage *st)
{
  if (!st->conductance)
    return;
  for (uint32_t t = 0; t < st->n_cores; t++)
    free(st->conductance[t]);
  free(st->conductance);
  free(st->adc_step);
  st->conductance = NULL;
  st->adc_step = NULL;
}

void xbar_set_noise(xbar_state *s, uint64_t seed, double sigma)
{
  for (uint32_t i = 0; i < s->n_stages; i++)
    free_conductances(&s->stages[i]);
  s->noisy = sigma >= 0;
  s->noise_seed = seed;
  s->noise_sigma = sigma;
  if (!s->noisy)
    return;
  for (uint32_t i = 0; i < s->n_stages; i++) {
    xbar_stage *st = &s->stages[i];
    if (!st->matrix)
      continue;
    int lo = 127, hi = -128;
    for (size_t k = 0; k < (size_t)st->rows * st->cols; k++) {
      lo = st->matrix[k] < lo ? st->matrix[k] : lo;
      hi = st->matrix[k] > hi ? st->matrix[k] : hi;
    }
    double scale = sigma * (double)(hi > lo ? hi - lo : 1);
    st->conductance = nc_rt_calloc(st->n_cores, sizeof *st->conductance);
    st->adc_step = nc_rt_calloc(st->n_cores, sizeof *st->adc_step);
    double levels = ldexp(1.0, (int)s->chip.adc_bits - 1) - 1, max_slice = ldexp(1.0, (int)s->chip.dac_bits) - 1;
    uint32_t R = s->chip.xbar_rows, C = s->chip.xbar_cols;
    for (uint32_t t = 0; t < st->n_cores; t++) {
      uint32_t rt = t / st->col_tiles % st->row_tiles, ct = t % st->col_tiles;
      uint32_t r0 = rt * R, r1 = r0 + R < st->rows ? r0 + R : st->rows;
      uint32_t c0 = ct * C, c1 = c0 + C < st->cols ? c0 + C : st->cols;
      /* one stream per (seed, stage, crossbar): programming is independent per device */
      uint64_t rng = seed ^ (UINT64_C(0x632BE59BD9B4E019) * (i + 1)) ^ (UINT64_C(0x85157AF5) * (t + 1));
      double *g = nc_rt_malloc((size_t)(r1 - r0) * (c1 - c0) * sizeof *g);
      for (uint32_t r = r0; r < r1; r++)
        for (uint32_t c = c0; c < c1; c++)
          g[(size_t)(r - r0) * (c1 - c0) + (c - c0)] =
            st->matrix[(size_t)r * st->cols + c] + (scale > 0 ? scale * gaussian(&rng) : 0.0);
      st->conductance[t] = g;
      /* the ADC's range, set when the crossbar is programmed: the smallest power-of-two step whose levels cover
       * the worst-case column sum of one input slice (sum |w| x the largest slice value) */
      double worst = 0;
      for (uint32_t c = c0; c < c1; c++) {
        double sum = 0;
        for (uint32_t r = r0; r < r1; r++)
          sum += fabs((double)st->matrix[(size_t)r * st->cols + c]);
        worst = sum > worst ? sum : worst;
      }
      double step = 1;
      while (worst * max_slice > levels * step)
        step *= 2;
      st->adc_step[t] = step;
    }
  }
}

/* --- iterations ------------------------------------------------------------------------------------------ */

/* The flat index of tensor coordinates. */
static int64_t flat3(const xbar_shape *s, int64_t c, int64_t y, int64_t x)
{
  return (c * s->dims[1] + y) * s->dims[2] + x;
}

/* Element `e` of operand `op` as the iteration of rank `rank` may read it:
 * written, and by a producer iteration its control waited for. */
typedef struct reader {
  xbar_state *s;
  xbar_stage *st;
  const int8_t *const *inputs;
  int64_t allowed[XBAR_MAX_OPERANDS]; /* the last producer rank the control allowed (-1: none) */
  char *err;
  size_t errlen;
  int64_t rank;
} reader;

static bool read_elem(reader *r, uint32_t op, int64_t e, int8_t *v)
{
  const xbar_operand *o = &r->st->ops[op];
  int64_t wr;
  if (o->source >= 0) {
    const xbar_stage *p = &r->s->stages[o->source];
    wr = p->write_rank[e];
    *v = p->values[e];
  } else {
    /* the host's input stream: pixel (y, x) of a [C, H, W] input is step y * W + x; other shapes are one step */
    wr = o->shape.rank == 3 ? e % (o->shape.dims[1] * o->shape.dims[2]) : 0;
    *v = r->inputs[-1 - o->source][e];
  }
  if (wr < 0 || wr > r->allowed[op]) {
    snprintf(r->err, r->errlen,
             "schedule error: stage '%s' iteration %lld reads element %lld of operand %u, written by producer "
             "iteration %lld, but its control only waited for iteration %lld",
             r->st->name, (long long)r->rank, (long long)e, op, (long long)wr, (long long)r->allowed[op]);
    return false;
  }
  return true;
}

/* The MVMs of one iteration on its replica's crossbars, the digital sum of the row tiles' partial sums and the
 * zero-point corrections, then requantization into output elements out_index[0..cols). */
static void mvm_outputs(reader *r, const int8_t *x, const int64_t *out_index)
{
  xbar_stage *st = r->st;
  int64_t *acc = nc_rt_calloc(st->cols, sizeof *acc);
  int64_t *part = nc_rt_malloc((size_t)st->cols * sizeof *part);
  uint32_t R = r->s->chip.xbar_rows, Cx = r->s->chip.xbar_cols;
  uint32_t rep = (uint32_t)(r->rank % st->replicas);
  for (uint32_t rt = 0; rt < st->row_tiles; rt++)
    for (uint32_t ct = 0; ct < st->col_tiles; ct++) {
      uint32_t r0 = rt * R, r1 = r0 + R < st->rows ? r0 + R : st->rows;
      uint32_t c0 = ct * Cx, c1 = c0 + Cx < st->cols ? c0 + Cx : st->cols;
      xbar_mvm(r->s, st, (rep * st->row_tiles + rt) * st->col_tiles + ct, r0, r1, c0, c1, x + r0, part);
      for (uint32_t j = c0; j < c1; j++)
        acc[j] += part[j - c0];
    }
  int64_t sum_x = 0;
  for (uint32_t i = 0; i < st->rows; i++)
    sum_x += x[i];
  for (uint32_t m = 0; m < st->cols; m++) {
    int64_t a = acc[m] - (int64_t)st->input_zp * st->col_sums[m] - (int64_t)st->weight_zp * sum_x +
                (int64_t)st->rows * st->input_zp * st->weight_zp;
    st->values[out_index[m]] = (int8_t)xbar_requantize(st, m, a);
    st->write_rank[out_index[m]] = r->rank;
  }
  free(part);
  free(acc);
}

static bool conv_iteration(reader *r, const int64_t *c)
{
  xbar_stage *st = r->st;
  const xbar_shape *in = &st->ops[0].shape;
  int64_t C = in->dims[0], H = in->dims[1], W = in->dims[2];
  int64_t oy = c[0], ox = c[1], kh = st->kernel[0], kw = st->kernel[1];
  int8_t *x = nc_rt_malloc(st->rows);
  int64_t *out = nc_rt_malloc((size_t)st->cols * sizeof *out);
  bool ok = true;
  for (int64_t ci = 0; ci < C && ok; ci++)
    for (int64_t ky = 0; ky < kh && ok; ky++)
      for (int64_t kx = 0; kx < kw && ok; kx++) {
        int64_t iy = oy * st->stride[0] - st->pad[0] + ky * st->dilation[0];
        int64_t ix = ox * st->stride[1] - st->pad[1] + kx * st->dilation[1];
        int8_t v = (int8_t)st->input_zp;
        if (iy >= 0 && iy < H && ix >= 0 && ix < W)
          ok = read_elem(r, 0, flat3(in, ci, iy, ix), &v);
        x[(ci * kh + ky) * kw + kx] = v;
      }
  if (ok) {
    for (uint32_t m = 0; m < st->cols; m++)
      out[m] = flat3(&st->out, m, oy, ox);
    mvm_outputs(r, x, out);
  }
  free(out);
  free(x);
  return ok;
}

static bool matmul_iteration(reader *r)
{
  xbar_stage *st = r->st;
  int8_t *x = nc_rt_malloc(st->rows);
  int64_t *out = nc_rt_malloc((size_t)st->cols * sizeof *out);
  bool ok = true;
  for (uint32_t k = 0; k < st->rows && ok; k++)
    ok = read_elem(r, 0, k, &x[k]);
  if (ok) {
    for (uint32_t m = 0; m < st->cols; m++)
      out[m] = m;
    mvm_outputs(r, x, out);
  }
  free(out);
  free(x);
  return ok;
}

static bool pool_iteration(reader *r, const int64_t *c)
{
  xbar_stage *st = r->st;
  const xbar_shape *in = &st->ops[0].shape;
  int64_t C = in->dims[0], H = in->dims[1], W = in->dims[2];
  for (int64_t ci = 0; ci < C; ci++) {
    int v = -128;
    for (int64_t ky = 0; ky < st->kernel[0]; ky++)
      for (int64_t kx = 0; kx < st->kernel[1]; kx++) {
        int64_t iy = c[0] * st->stride[0] - st->pad[0] + ky * st->dilation[0];
        int64_t ix = c[1] * st->stride[1] - st->pad[1] + kx * st->dilation[1];
        int8_t e;
        if (iy < 0 || iy >= H || ix < 0 || ix >= W)
          continue; /* padding never wins */
        if (!read_elem(r, 0, flat3(in, ci, iy, ix), &e))
          return false;
        v = e > v ? e : v;
      }
    int64_t o = flat3(&st->out, ci, c[0], c[1]);
    st->values[o] = (int8_t)v;
    st->write_rank[o] = r->rank;
  }
  return true;
}

/* A copy keeps row-major order: iteration (y, x) over a [C, H, W] input moves its pixel's channels; a
 * rank-0 domain moves everything. */
static bool copy_iteration(reader *r, const int64_t *c)
{
  xbar_stage *st = r->st;
  const xbar_shape *in = &st->ops[0].shape;
  if (st->domain.rank == 2) {
    for (int64_t ci = 0; ci < in->dims[0]; ci++) {
      int64_t e = flat3(in, ci, c[0], c[1]);
      if (!read_elem(r, 0, e, &st->values[e]))
        return false;
      st->write_rank[e] = r->rank;
    }
    return true;
  }
  for (int64_t e = 0; e < in->elements; e++) {
    if (!read_elem(r, 0, e, &st->values[e]))
      return false;
    st->write_rank[e] = r->rank;
  }
  return true;
}

/* The source index along one dim of a move stage: output o of a dim of n
 * input elements padded by p before, nearest factor f; -1 for the fill
 * value. Reflect mirrors without the edge and wrap reads the other end, both
 * periodic for pads of any width (period 2 (n - 1) and n). */
static int64_t move_index(uint32_t mode, int64_t o, int64_t p, int64_t n, int64_t f)
{
  int64_t q = o - p;
  if (q >= 0 && q < n * f)
    return q / f;
  if (mode == XBAR_PAD_EDGE)
    return q < 0 ? 0 : n - 1;
  if (mode == XBAR_PAD_WRAP)
    return (q % n + n) % n;
  if (mode == XBAR_PAD_REFLECT) {
    if (n == 1)
      return 0;
    int64_t period = 2 * (n - 1), r = (q % period + period) % period;
    return r < n ? r : period - r;
  }
  return -1;
}

/* The image of a stage's output: the output itself, or the last three dims of a batch [N, C, H, W] (a resize
 * of one image into a batch, which writes each pixel into all N images). */
static xbar_shape out_image(const xbar_stage *st)
{
  xbar_shape img = st->out;
  if (img.rank == 4) {
    img = (xbar_shape){3, {st->out.dims[1], st->out.dims[2], st->out.dims[3]}, st->out.elements / st->out.dims[0]};
  }
  return img;
}

/* Output pixel (y, x) of a batch stage: the pixel of image 0 by `pixel`, then copied into the other images. */
static bool batch_pixel(reader *r, const xbar_shape *img, int64_t y, int64_t x,
                        bool (*pixel)(reader *, const xbar_shape *, int64_t, int64_t))
{
  xbar_stage *st = r->st;
  if (!pixel(r, img, y, x))
    return false;
  for (int64_t n = 1; n < st->out.dims[0]; n++)
    for (int64_t k = 0; k < img->dims[0]; k++) {
      int64_t o = flat3(img, k, y, x);
      st->values[n * img->elements + o] = st->values[o];
      st->write_rank[n * img->elements + o] = r->rank;
    }
  return true;
}

/* Output pixel (y, x) of a move stage, every channel: nearest resize by whole factors (and of the channels:
 * a, b, d in the bias field, k reads clamp(floor((a k + b) / d), 0, C - 1)), pad, channel shuffle (output
 * channel k reads (k mod g) (C / g) + k / g). */
static bool move_pixel(reader *r, const xbar_shape *img, int64_t y, int64_t x)
{
  xbar_stage *st = r->st;
  const xbar_shape *in = &st->ops[0].shape;
  int64_t C = in->dims[0], g = st->group;
  int64_t yi = move_index(st->flags, y, st->pad[0], in->dims[1], st->kernel[0]);
  int64_t xi = move_index(st->flags, x, st->pad[1], in->dims[2], st->kernel[1]);
  for (int64_t k = 0; k < img->dims[0]; k++) {
    int64_t ci = k % g * (C / g) + k / g;
    if (st->n_bias == 3) {
      int64_t n = (int64_t)st->bias[0] * k + st->bias[1], d = st->bias[2];
      int64_t q = n / d - (n % d != 0 && n < 0); /* floor */
      ci = q < 0 ? 0 : q >= C ? C - 1 : q;
    }
    int8_t v = (int8_t)st->output_zp; /* the fill value */
    if (yi >= 0 && xi >= 0 && !read_elem(r, 0, flat3(in, ci, yi, xi), &v))
      return false;
    int64_t o = flat3(img, k, y, x);
    st->values[o] = v;
    st->write_rank[o] = r->rank;
  }
  return true;
}

static bool move_iteration(reader *r, const int64_t *c)
{
  xbar_shape img = out_image(r->st);
  return r->st->out.rank == 4 ? batch_pixel(r, &img, c[0], c[1], move_pixel) : move_pixel(r, &img, c[0], c[1]);
}

/* A linear resize's neighbours and the second's weight (10 fraction bits) along one axis: the source
 * coordinate (a o + b) / d, f = its floor, i0 = clamp(f), i1 = clamp(f + 1), w1 = round_half_even(1024 (frac)). */
static void linear_tap(const int32_t *abd, int64_t n, int64_t o, int64_t *i0, int64_t *i1, int64_t *w1)
{
  int64_t a = abd[0], b = abd[1], d = abd[2], num = a * o + b;
  int64_t f = num >= 0 ? num / d : -((-num + d - 1) / d);
  int64_t rem = (num - f * d) * 1024, q = rem / d, r = rem % d;
  *w1 = q + (2 * r > d || (2 * r == d && (q & 1)));
  *i0 = f < 0 ? 0 : f >= n ? n - 1 : f;
  *i1 = f + 1 < 0 ? 0 : f + 1 >= n ? n - 1 : f + 1;
}

/* Output pixel (y, x) of a linear resize, every output channel: the sum over the corners of the product of
 * the per-axis weights times the input, one round half to even by 2^30 (channels kept: weight 1024 on c). */
static bool resize_pixel(reader *r, const xbar_shape *img, int64_t y, int64_t x)
{
  xbar_stage *st = r->st;
  const xbar_shape *in = &st->ops[0].shape;
  int64_t y0, y1, wy, x0, x1, wx;
  linear_tap(st->bias, in->dims[1], y, &y0, &y1, &wy);
  linear_tap(st->bias + 3, in->dims[2], x, &x0, &x1, &wx);
  for (int64_t k = 0; k < img->dims[0]; k++) {
    int64_t c0 = k, c1 = k, wc = 0, acc = 0;
    if (st->n_bias == 9)
      linear_tap(st->bias + 6, in->dims[0], k, &c0, &c1, &wc);
    for (int corner = 0; corner < 8; corner++) {
      int64_t w = (corner & 4 ? wc : 1024 - wc) * (corner & 2 ? wy : 1024 - wy) * (corner & 1 ? wx : 1024 - wx);
      if (!w)
        continue;
      int8_t v;
      if (!read_elem(r, 0, flat3(in, corner & 4 ? c1 : c0, corner & 2 ? y1 : y0, corner & 1 ? x1 : x0), &v))
        return false;
      acc += w * v;
    }
    int64_t o = flat3(img, k, y, x);
    st->values[o] = (int8_t)round_shift(acc, 30); /* a convex combination: within int8 */
    st->write_rank[o] = r->rank;
  }
  return true;
}

static bool resize_iteration(reader *r, const int64_t *c)
{
  xbar_shape img = out_image(r->st);
  return r->st->out.rank == 4 ? batch_pixel(r, &img, c[0], c[1], resize_pixel)
                               : resize_pixel(r, &img, c[0], c[1]);
}

bool xbar_iteration_waits(const xbar_stage *st, int64_t rank, const int64_t *c, int64_t *waits, char *err,
                          size_t errlen)
{
  for (uint32_t op = 0; op < st->n_operands; op++) {
    int64_t p[XBAR_MAX_RANK] = {0};
    xbar_control_result res = xbar_control_eval(&st->ops[op].control, c, p);
    if (res == XBAR_CONTROL_OVERFLOW) {
      snprintf(err, errlen, "stage '%s' iteration %lld: its control program overflows", st->name, (long long)rank);
      return false;
    }
    int64_t pr = -1;
    if (res == XBAR_CONTROL_WAIT) {
      const xbar_shape *pd = &st->ops[op].producer;
      pr = 0;
      for (uint32_t d = 0; d < pd->rank; d++) {
        if (p[d] < 0 || p[d] >= pd->dims[d]) {
          snprintf(err, errlen,
                   "stage '%s' iteration %lld: its control waits for a producer iteration outside the producer's "
                   "domain (dimension %u is %lld, not in [0, %lld))",
                   st->name, (long long)rank, d, (long long)p[d], (long long)pd->dims[d]);
          return false;
        }
        pr = pr * pd->dims[d] + p[d];
      }
    }
    waits[op] = pr;
  }
  return true;
}

bool xbar_compute_iteration(xbar_state *s, xbar_stage *st, int64_t rank, const int64_t *c, const int64_t *waits,
                            const int8_t *const *inputs, char *err, size_t errlen)
{
  reader r = {s, st, inputs, {0}, err, errlen, rank};
  for (uint32_t op = 0; op < st->n_operands; op++)
    r.allowed[op] = waits[op];
  switch (st->kind) {
  case XBAR_KIND_CONV: return conv_iteration(&r, c);
  case XBAR_KIND_MATMUL: return matmul_iteration(&r);
  case XBAR_KIND_MAX_POOL: return pool_iteration(&r, c);
  case XBAR_KIND_MOVE: return move_iteration(&r, c);
  case XBAR_KIND_RESIZE: return resize_iteration(&r, c);
  default: return copy_iteration(&r, c);
  }
}
