/* graph_quantize_weights.c: graph-quantize's weight codes: each layer's
 * weights quantized per output channel (symmetric, s_w[c] = max|w_c| / qmax),
 * read from the float constant in place.
 *
 * The common kinds (an f32 conv, whose channel's weights are contiguous; an
 * f32 gemm stored transposed, as torchvision's classifiers are, with alpha
 * 1) are quantized ahead of the rewrite by gq_wprep, split into blocks of
 * channels that run on the context's threads (nc_parallel_for): VGG-19's
 * 143M weights are most of graph-quantize's time after calibration. A conv
 * channel's floats are read once: its maximum, then its codes while the
 * floats are still in cache. A block writes only its own channels' codes
 * and scales, so the result is the same bytes with any number of threads,
 * and the same as gq_weight_codes (the serial path the other kinds take).
 */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "graph_quantize_internal.h"
#include "nc/ir/threading.h"

/* Rows [r0, r0 + n) into out (n x row_len): contiguous reads of f32 data,
 * a transposed gemm read column block by column block. */
static void layer_rows(const layer_data *L, int64_t r0, int64_t n, double *out)
{
  const float *f = L->src->dtype == NC_DT_F32 ? L->src->data : NULL;
  int64_t len = L->row_len;
  if (!L->trans_b) { /* row r is src[r * len ...], times alpha for gemm */
    for (int64_t r = 0; r < n; r++)
      for (int64_t j = 0; j < len; j++) {
        int64_t k = (r0 + r) * len + j;
        double v = f ? (double)f[k] : nc_tensor_get_f64(L->src, k);
        out[r * len + j] = L->conv ? v : L->alpha * v;
      }
    return;
  }
  /* [K, N] = w^T with w [N, K]: element (i, j) is src[j * K + i] */
  for (int64_t jb = 0; jb < len; jb += 64) /* 64 x 64 tiles stay in cache */
    for (int64_t j = jb; j < len && j < jb + 64; j++)
      for (int64_t r = 0; r < n; r++) {
        int64_t k = j * L->rows + r0 + r;
        out[r * len + j] = L->alpha * (f ? (double)f[k] : nc_tensor_get_f64(L->src, k));
      }
}

bool gq_layer_read(nc_op *op, layer_data *L)
{
  memset(L, 0, sizeof *L);
  nc_value *wv = nc_op_get_operand(op, 1), *bv = nc_op_get_num_operands(op) > 2 ? nc_op_get_operand(op, 2) : NULL;
  L->owned = !gp_constant_view(wv, &L->view);
  nc_tensor *w = L->owned ? gp_constant_tensor(wv) : &L->view, *b = bv ? gp_constant_tensor(bv) : NULL;
  bool ok = w && (!bv || b);
  L->conv = gp_is(op, "conv");
  nc_gemm_params gp = {1.0, 1.0, false, false};
  if (ok && gp_is(op, "gemm"))
    ok = nc_graph_get_gemm_params(op, &gp);
  L->src = w;
  if (ok && L->conv) {
    L->rank = w->rank;
    memcpy(L->shape, w->shape, sizeof L->shape);
    L->channels = L->rows = w->shape[0];
    L->row_len = nc_tensor_num_elements(w) / (L->channels ? L->channels : 1);
  } else if (ok) { /* [K, N] = trans_b ? w^T : w, times alpha */
    int64_t k_dim = w->shape[gp.trans_b ? 1 : 0], n_dim = w->shape[gp.trans_b ? 0 : 1];
    L->rank = 2;
    L->shape[0] = k_dim;
    L->shape[1] = n_dim;
    L->trans_b = gp.trans_b;
    L->alpha = gp.alpha;
    L->rows = k_dim;
    L->channels = L->row_len = n_dim;
  }
  if (ok && b) { /* conv: [M]; gemm: c broadcast to [M, N], equal over rows */
    L->bias = nc_xcalloc((size_t)L->channels + 1, sizeof *L->bias);
    int64_t nb = nc_tensor_num_elements(b);
    for (int64_t c = 0; c < L->channels; c++)
      L->bias[c] = gp.beta * nc_tensor_get_f64(b, nb == 1 ? 0 : c % nb);
  }
  nc_tensor_destroy(b);
  return ok;
}

void gq_layer_free(layer_data *L)
{
  if (L->owned)
    nc_tensor_destroy(L->src);
  free(L->bias);
}

/* Rows per block of layer_rows: about 1 MB of doubles, at least one row. */
static int64_t block_rows(const layer_data *L)
{
  int64_t n = L->row_len > 0 ? ((int64_t)1 << 17) / L->row_len : 1;
  n = n < 1 ? 1 : n > 64 && L->trans_b ? 64 : n;
  return n;
}

/* rint(v / s) clamped to [wmin, qmax], bit for bit, with a multiply: v * inv
 * (inv = 1 / s, both rounded) is within a few ulps of the rounded quotient, so
 * the two round to the same integer unless they sit at a half-integer; only
 * there (and for a quotient beyond double range) is the division done. */
static inline int8_t weight_code(double v, double s, double inv, int qmax, int wmin)
{
  double t = v * inv, q = rint(t);
  if (!(fabs(fabs(t - q) - 0.5) > 1e-9 * (1.0 + fabs(t))))
    q = rint(v / s);
  return (int8_t)(q > qmax ? qmax : q < wmin ? wmin : q);
}

/* weight_code of n floats src[i] (times 1: a conv's or an alpha-1 gemm's
 * weights) into dst[i * stride], four at a time in float: with |t| <= 1024
 * the float quotient t = src * (float)inv is within 1.3e-4 of v / s
 * (relative error <= 2^-23), so where t is at least 2^-10 from a
 * half-integer, v / s rounds to the same integer as t (the magic-number
 * round to nearest even); a group of four with any other lane goes through
 * weight_code. Bit for bit weight_code's codes, in less time (VGG-19 holds
 * 143M weights; docs/benchmarks.md). inv must be a normal float. */
static void weight_codes_f32(const float *src, int64_t n, double s, double inv, int qmax, int wmin, int8_t *dst,
                             ptrdiff_t stride)
{
  typedef float v4f __attribute__((vector_size(16)));
  typedef int32_t v4i __attribute__((vector_size(16)));
  const float magic = 12582912.0f; /* 1.5 * 2^23: t + magic - magic rounds |t| < 2^22 to nearest even */
  v4f vinv = {(float)inv, (float)inv, (float)inv, (float)inv}, vm = {magic, magic, magic, magic};
  v4i hi = {qmax, qmax, qmax, qmax}, lo = {wmin, wmin, wmin, wmin}, absmask = {0x7fffffff, 0x7fffffff, 0x7fffffff,
                                                                                0x7fffffff};
  v4f half = {0.5f, 0.5f, 0.5f, 0.5f}, tol = {0x1p-10f, 0x1p-10f, 0x1p-10f, 0x1p-10f};
  v4f big = {1024.0f, 1024.0f, 1024.0f, 1024.0f};
  int64_t i = 0;
  /* eight at a time: one test of both groups' lanes, and contiguous codes
   * (stride 1, a conv's channel) stored as eight bytes at once */
  typedef int8_t v16c __attribute__((vector_size(16)));
  typedef int8_t v8c __attribute__((vector_size(8)));
  for (; i + 8 <= n; i += 8) {
    v4f x0, x1;
    memcpy(&x0, src + i, sizeof x0);
    memcpy(&x1, src + i + 4, sizeof x1);
    v4f t0 = x0 * vinv, q0 = (t0 + vm) - vm, t1 = x1 * vinv, q1 = (t1 + vm) - vm;
    v4f d0 = (v4f)((v4i)(t0 - q0) & absmask), at0 = (v4f)((v4i)t0 & absmask);
    v4f d1 = (v4f)((v4i)(t1 - q1) & absmask), at1 = (v4f)((v4i)t1 & absmask);
    v4f e0 = (v4f)((v4i)(d0 - half) & absmask), e1 = (v4f)((v4i)(d1 - half) & absmask);
    v4i bad = (e0 < tol) | (at0 > big) | (t0 != t0) | (e1 < tol) | (at1 > big) | (t1 != t1);
    bad |= __builtin_shufflevector(bad, bad, 2, 3, 0, 1);
    bad |= __builtin_shufflevector(bad, bad, 1, 0, 3, 2);
    if (bad[0]) {
      for (int k = 0; k < 8; k++) {
        float v;
        memcpy(&v, src + i + k, sizeof v);
        dst[(i + k) * stride] = weight_code((double)v, s, inv, qmax, wmin);
      }
      continue;
    }
    v4i c0 = __builtin_convertvector(q0, v4i), c1 = __builtin_convertvector(q1, v4i);
    v4i over0 = c0 > hi, under0 = c0 < lo, over1 = c1 > hi, under1 = c1 < lo;
    c0 = (hi & over0) | (lo & under0) | (c0 & ~(over0 | under0));
    c1 = (hi & over1) | (lo & under1) | (c1 & ~(over1 | under1));
    if (stride == 1 && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__) { /* each lane's low byte: its (int8_t) code */
      v8c b = __builtin_shufflevector((v16c)c0, (v16c)c1, 0, 4, 8, 12, 16, 20, 24, 28);
      memcpy(dst + i, &b, sizeof b);
      continue;
    }
    for (int k = 0; k < 4; k++) {
      dst[(i + k) * stride] = (int8_t)c0[k];
      dst[(i + 4 + k) * stride] = (int8_t)c1[k];
    }
  }
  for (; i + 4 <= n; i += 4) {
    v4f x;
    memcpy(&x, src + i, sizeof x);
    v4f t = x * vinv, q = (t + vm) - vm;
    v4f d = (v4f)((v4i)(t - q) & absmask), at = (v4f)((v4i)t & absmask);
    v4f e = (v4f)((v4i)(d - half) & absmask);
    v4i bad = (e < tol) | (at > big) | (t != t);
    if (bad[0] | bad[1] | bad[2] | bad[3]) {
      for (int k = 0; k < 4; k++)
        dst[(i + k) * stride] = weight_code((double)src[i + k], s, inv, qmax, wmin);
      continue;
    }
    v4i c = __builtin_convertvector(q, v4i);
    v4i over = c > hi, under = c < lo;
    c = (hi & over) | (lo & under) | (c & ~(over | under));
    for (int k = 0; k < 4; k++)
      dst[(i + k) * stride] = (int8_t)c[k];
  }
  for (; i < n; i++)
    dst[i * stride] = weight_code((double)src[i], s, inv, qmax, wmin);
}

/* Whether weight_codes_f32 applies to scale inverse inv: a normal float. */
static bool codes_f32_ok(double inv) { return inv >= 0x1p-100 && inv <= 0x1p100; }

/* Tiles of quantize_transposed: TJ channels x TI rows of K, a tile row
 * TS bytes apart (not a multiple of 1 KB: its TI rows spread over cache sets). */
enum { TJ = 128, TI = 512, TS = TJ + 16 };

/* A transposed f32 gemm's codes: element (i, j) of [K, N] is alpha *
 * ft[j * K + i]. Each tile reads TJ runs of TI contiguous floats into a TI x
 * TJ block in cache, then copies it out a row (TJ bytes, sequential) at a
 * time. Writing the [K, N] result element by element down a column would
 * stride N bytes (4 KB for VGG's 4096 channels): every write of a run to
 * one cache set, and each output line fetched once per element. */
static void quantize_transposed(const layer_data *L, const float *ft, const double *sw, const double *inv,
                                int qmax, int wmin, int8_t *wq8, int64_t jlo, int64_t jhi)
{
  int64_t K = L->rows, N = L->row_len;
  int8_t *tile = nc_xmalloc((size_t)TI * TS);
  for (int64_t j0 = jlo; j0 < jhi; j0 += TJ) {
    int64_t nj = jhi - j0 < TJ ? jhi - j0 : TJ;
    for (int64_t i0 = 0; i0 < K; i0 += TI) {
      int64_t ni = K - i0 < TI ? K - i0 : TI;
      for (int64_t j = 0; j < nj; j++) {
        const float *src = ft + (j0 + j) * K + i0;
        double s = sw[j0 + j], r = inv[j0 + j];
        if (L->alpha == 1 && codes_f32_ok(r)) {
          weight_codes_f32(src, ni, s, r, qmax, wmin, tile + j, TS);
          continue;
        }
        for (int64_t i = 0; i < ni; i++)
          tile[i * TS + j] = weight_code(L->alpha * (double)src[i], s, r, qmax, wmin);
      }
      for (int64_t i = 0; i < ni; i++)
        memcpy(wq8 + (i0 + i) * N + j0, tile + i * TS, (size_t)nj);
    }
  }
  free(tile);
}

/* max |p[i]| over n floats into *max (at least its value on entry); false if
 * one is inf or NaN. On the bits: without NaN, |x| orders as its bits do, and
 * an integer max vectorises where a float one (NaN rules) does not. */
static bool f32_max_abs(const float *p, int64_t n, double *max)
{
  /* four lanes of running maxima in a GCC/clang vector (SSE2 has no
   * unsigned max, but |x|'s bits fit int32 and a signed compare gives a mask) */
  typedef int32_t v4 __attribute__((vector_size(16)));
  v4 a = {0, 0, 0, 0}, b = a;
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    v4 x, y;
    memcpy(&x, p + i, sizeof x);
    memcpy(&y, p + i + 4, sizeof y);
    x &= 0x7fffffff;
    y &= 0x7fffffff;
    v4 mx = x > a, my = y > b;
    a = (x & mx) | (a & ~mx);
    b = (y & my) | (b & ~my);
  }
  uint32_t m = 0;
  for (int k = 0; k < 4; k++) {
    m = (uint32_t)a[k] > m ? (uint32_t)a[k] : m;
    m = (uint32_t)b[k] > m ? (uint32_t)b[k] : m;
  }
  for (; i < n; i++) {
    uint32_t u;
    memcpy(&u, p + i, sizeof u);
    u &= 0x7fffffffu;
    m = u > m ? u : m;
  }
  float f;
  memcpy(&f, &m, sizeof f);
  *max = (double)f > *max ? (double)f : *max;
  return m < 0x7f800000u;
}


/* The layer's weights quantized per output channel to [-qmax, qmax] (a
 * pre-quantized model's keep their codes) into *wq_out, their scales into
 * sw[0..channels) (zeros on entry); false, with nothing made, when a weight or
 * the bias is not finite. */
bool gq_weight_codes(nc_op *op, const layer_data *Lp, int bits, double *sw, nc_tensor **wq_out)
{
  layer_data L = *Lp;
  int qmax = (1 << (bits - 1)) - 1;
  *wq_out = NULL;
  bool ok = true, conv = L.conv;
  int64_t C = L.channels, len = L.row_len, nblk = block_rows(&L);
  double *w = nc_xmalloc((size_t)(nblk * len + 1) * sizeof *w);
  /* A transposed f32 gemm is read in its stored order ([N, K]: channel j's
   * weights are contiguous), so neither pass strides across pages. */
  const float *ft = L.trans_b && L.src->dtype == NC_DT_F32 ? L.src->data : NULL;
  /* max |v| per channel; `a <= DBL_MAX` is false for inf and NaN (no branch
   * out of the inner loops, so they vectorise) */
  /* max |alpha x| = |alpha| max |x|: rounding is monotonic (and inf or NaN
   * either way) */
  for (int64_t j = 0; ft && j < len && ok; j++) {
    double m = 0;
    ok = f32_max_abs(ft + j * L.rows, L.rows, &m);
    m = fabs(L.alpha) * m;
    ok = ok && m <= DBL_MAX;
    sw[j] = m > sw[j] ? m : sw[j];
  }
  /* an f32 conv: a channel's weights are contiguous */
  const float *fc = conv && L.src->dtype == NC_DT_F32 ? L.src->data : NULL;
  for (int64_t c = 0; fc && c < C && ok; c++)
    ok = f32_max_abs(fc + c * len, len, &sw[c]);
  /* channel of row r, element j: conv r, gemm j */
  for (int64_t r0 = 0; !ft && !fc && r0 < L.rows && ok; r0 += nblk) {
    int64_t n = L.rows - r0 < nblk ? L.rows - r0 : nblk;
    layer_rows(&L, r0, n, w);
    bool finite = true;
    for (int64_t r = 0; r < n; r++) {
      const double *row = w + r * len;
      if (conv) {
        double m = sw[r0 + r];
        for (int64_t j = 0; j < len; j++) {
          double a = fabs(row[j]);
          finite &= a <= DBL_MAX;
          m = a > m ? a : m;
        }
        sw[r0 + r] = m;
      } else {
        for (int64_t j = 0; j < len; j++) {
          double a = fabs(row[j]);
          finite &= a <= DBL_MAX;
          sw[j] = a > sw[j] ? a : sw[j];
        }
      }
    }
    ok = finite;
  }
  for (int64_t c = 0; c < C && ok && L.bias; c++)
    ok = isfinite(L.bias[c]);
  if (!ok) {
    free(w);
    return false;
  }
  /* weights: per output channel, symmetric in [-qmax, qmax] */
  for (int64_t c = 0; c < C; c++)
    sw[c] = sw[c] > 0 ? sw[c] / qmax : 1.0;
  /* a pre-quantized model's weights keep its scales and codes (-qmax - 1 too) */
  int wmin = (conv || L.alpha == 1) &&
                 gq_qdq_weight_scales(nc_op_get_operand(op, 1), conv || L.trans_b ? 0 : L.rank - 1, C, qmax, sw)
               ? -qmax - 1 : -qmax;
  nc_tensor *wq = nc_tensor_create(bits == 8 ? NC_DT_I8 : bits == 4 ? NC_DT_I4 : NC_DT_I2, L.rank, L.shape, 0);
  int8_t *wq8 = wq->data;
  double *inv = nc_xmalloc((size_t)(C + 1) * sizeof *inv);
  for (int64_t c = 0; c < C; c++)
    inv[c] = 1.0 / sw[c];
  if (ft)
    quantize_transposed(&L, ft, sw, inv, qmax, wmin, wq8, 0, L.row_len);
  bool fast = fc != NULL; /* an f32 conv: each channel's codes straight from its contiguous floats */
  for (int64_t c = 0; fast && c < C; c++)
    fast = codes_f32_ok(inv[c]);
  for (int64_t c = 0; fast && c < C; c++)
    weight_codes_f32(fc + c * len, len, sw[c], inv[c], qmax, wmin, wq8 + c * len, 1);
  for (int64_t r0 = 0; !ft && !fast && r0 < L.rows; r0 += nblk) {
    int64_t n = L.rows - r0 < nblk ? L.rows - r0 : nblk;
    layer_rows(&L, r0, n, w);
    for (int64_t r = 0; r < n; r++)
      for (int64_t j = 0; j < len; j++) {
        int64_t c = conv ? r0 + r : j;
        wq8[(r0 + r) * len + j] = weight_code(w[r * len + j], sw[c], inv[c], qmax, wmin);
      }
  }
  free(inv);
  free(w);
  *wq_out = wq;
  return true;
}

/* --- quantized ahead, in parallel ------------------------------------------------------------------------------- */

/* One layer of the plan. */
typedef struct wlayer {
  nc_op *op;
  int bits;
  int state;        /* 0: not looked at; 1: quantized ahead (sw, wq); 2: not of the kinds done ahead; 3: taken */
  layer_data L;
  double *sw;
  nc_tensor *wq;
  bool finite;      /* every weight finite (all blocks) */
} wlayer;

/* A block of a layer's channels [c0, c1): one work item. */
typedef struct wblock {
  wlayer *w;
  int64_t c0, c1;
  bool finite;
} wblock;

struct gq_wprep {
  nc_context *ctx;
  wlayer *layers;
  size_t n, next;   /* layers[next..] are not looked at yet */
  gq_map index;     /* op -> its layer */
};

/* Weights quantized ahead at a time (elements): a layer larger than this goes alone. */
enum { BATCH_ELEMENTS = 1 << 25, BLOCK_ELEMENTS = 1 << 18 };

gq_wprep *gq_wprep_create(nc_context *ctx, size_t n, nc_op *const *ops, const int *bits)
{
  gq_wprep *p = nc_xcalloc(1, sizeof *p);
  p->ctx = ctx;
  p->n = n;
  p->layers = nc_xcalloc(n + 1, sizeof *p->layers);
  gq_map_init(&p->index, n + 1);
  for (size_t k = 0; k < n; k++) {
    p->layers[k].op = ops[k];
    p->layers[k].bits = bits[k];
    gq_map_put(&p->index, ops[k], k);
  }
  return p;
}

/* Whether the layer is of the kinds quantized ahead (reads it into w->L). */
static bool plan_layer(wlayer *w)
{
  if (!gq_layer_read(w->op, &w->L))
    return false;
  const layer_data *L = &w->L;
  if (L->src->dtype != NC_DT_F32 || !(L->conv || (L->trans_b && L->alpha == 1)) || L->channels < 1)
    return false;
  int qmax = (1 << (w->bits - 1)) - 1;
  double *scratch = nc_xcalloc((size_t)L->channels + 1, sizeof *scratch);
  bool model = gq_qdq_weight_scales(nc_op_get_operand(w->op, 1), L->conv || L->trans_b ? 0 : L->rank - 1,
                                    L->channels, qmax, scratch);
  free(scratch);
  return !model;
}

/* Channel c's scale from its max |w|, as gq_weight_codes sets it. */
static double scale_of(double m, int qmax) { return m > 0 ? m / qmax : 1.0; }

/* Codes of n floats into dst[i * stride] at scale s. */
static void codes_of(const float *src, int64_t n, double s, int qmax, int8_t *dst, ptrdiff_t stride)
{
  double inv = 1.0 / s;
  if (codes_f32_ok(inv)) {
    weight_codes_f32(src, n, s, inv, qmax, -qmax, dst, stride);
    return;
  }
  for (int64_t i = 0; i < n; i++)
    dst[i * stride] = weight_code((double)src[i], s, inv, qmax, -qmax);
}

static bool run_block(size_t i, void *user)
{
  wblock *b = (wblock *)user + i;
  wlayer *w = b->w;
  const layer_data *L = &w->L;
  const float *f = L->src->data;
  int qmax = (1 << (w->bits - 1)) - 1;
  int8_t *wq8 = w->wq->data;
  b->finite = true;
  if (L->conv) { /* channel c: row_len contiguous floats in, as many codes out */
    int64_t len = L->row_len;
    for (int64_t c = b->c0; c < b->c1; c++) {
      double m = 0;
      if (!f32_max_abs(f + c * len, len, &m)) {
        b->finite = false;
        continue;
      }
      w->sw[c] = scale_of(m, qmax);
      codes_of(f + c * len, len, w->sw[c], qmax, wq8 + c * len, 1);
    }
    return true;
  }
  /* [K, N] = w^T, w [N, K]: channel j is w's row j, K contiguous floats: the
   * block's maxima first, then its codes by quantize_transposed's tiles (a
   * column written byte by byte would stride N bytes per element) */
  int64_t K = L->rows;
  double *inv = nc_xmalloc((size_t)b->c1 * sizeof *inv); /* indexed by channel, as sw */
  for (int64_t j = b->c0; j < b->c1; j++) {
    double m = 0;
    b->finite &= f32_max_abs(f + j * K, K, &m) && m <= DBL_MAX;
    w->sw[j] = scale_of(m, qmax);
    inv[j] = 1.0 / w->sw[j];
  }
  if (b->finite)
    quantize_transposed(L, f, w->sw, inv, qmax, -qmax, wq8, b->c0, b->c1);
  free(inv);
  return true;
}

/* Quantizes layers[k..] of the kinds done ahead, until BATCH_ELEMENTS. */
static void prepare_from(gq_wprep *p, size_t k)
{
  size_t n_blocks = 0, cap = 0, end = k;
  wblock *blocks = NULL;
  int64_t total = 0;
  for (; end < p->n && (end == k || total < BATCH_ELEMENTS); end++) {
    wlayer *w = &p->layers[end];
    if (w->state)
      continue;
    w->state = plan_layer(w) ? 1 : 2;
    if (w->state == 2) {
      gq_layer_free(&w->L);
      continue;
    }
    const layer_data *L = &w->L;
    int64_t C = L->channels, per = L->conv ? L->row_len : L->rows;
    int64_t step = L->conv ? (per >= BLOCK_ELEMENTS ? 1 : BLOCK_ELEMENTS / (per ? per : 1)) : TJ;
    total += C * per;
    w->sw = nc_xcalloc((size_t)C + 1, sizeof *w->sw);
    int w_bits = w->bits;
    w->wq = nc_tensor_create(w_bits == 8 ? NC_DT_I8 : w_bits == 4 ? NC_DT_I4 : NC_DT_I2, L->rank, L->shape, 0);
    for (int64_t c0 = 0; c0 < C; c0 += step) {
      if (n_blocks == cap) {
        cap = cap ? 2 * cap : 64;
        blocks = nc_xrealloc(blocks, cap * sizeof *blocks);
      }
      blocks[n_blocks++] = (wblock){w, c0, c0 + step < C ? c0 + step : C, true};
    }
  }
  nc_parallel_for(p->ctx, n_blocks, run_block, blocks);
  for (size_t i = 0; i < n_blocks; i++)
    blocks[i].w->finite = true;
  for (size_t i = 0; i < n_blocks; i++)
    blocks[i].w->finite &= blocks[i].finite;
  free(blocks);
  p->next = end > p->next ? end : p->next;
}

bool gq_wprep_take(gq_wprep *p, nc_op *op, int bits, double *sw, nc_tensor **wq)
{
  size_t k = gq_map_get(&p->index, op);
  if (k == SIZE_MAX || p->layers[k].bits != bits)
    return false;
  wlayer *w = &p->layers[k];
  if (!w->state)
    prepare_from(p, k);
  if (w->state != 1)
    return false;
  memcpy(sw, w->sw, (size_t)w->L.channels * sizeof *sw);
  *wq = w->finite ? w->wq : NULL;
  if (!w->finite)
    nc_tensor_destroy(w->wq);
  w->wq = NULL;
  free(w->sw);
  w->sw = NULL;
  gq_layer_free(&w->L);
  w->state = 3;
  return true;
}

void gq_wprep_destroy(gq_wprep *p)
{
  if (!p)
    return;
  for (size_t k = 0; k < p->n; k++)
    if (p->layers[k].state == 1) {
      nc_tensor_destroy(p->layers[k].wq);
      free(p->layers[k].sw);
      gq_layer_free(&p->layers[k].L);
    }
  gq_map_free(&p->index);
  free(p->layers);
  free(p);
}
