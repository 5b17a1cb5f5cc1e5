/* gemm.c: the cache-blocked GEMM under every convolution and matrix product.
 *
 * The loop nest is the BLIS one: the N dimension in NC columns, K in KC
 * slices (one packed B block, kept in L2/L3), M in MC rows (one packed A
 * block, kept in L2), then MR x NR register tiles computed by a micro-kernel
 * whose inner loops have constant trip counts so that gcc -O2 vectorizes
 * them (no intrinsics). Operands are read through pack callbacks, which lets
 * conv pack im2col patches straight from the image (no im2col buffer) and
 * lets the integer path subtract zero points while packing.
 * Three flavours: f32, f64 and int16 x int16 -> int32 (for 8-bit-or-narrower
 * quantized data, whose zero-point-shifted values fit in int16); the integer
 * accumulators are uint32 so that overflow wraps (int32 semantics) without
 * undefined behaviour.
 */
#include "kernels_internal.h"

#include <stdlib.h>

/* --- micro-kernels --------------------------------------------------------- */

#define F32_MR 6
#define F32_NR 8
#define F64_MR 4
#define F64_NR 4
#define I16_MR 4
#define I16_NR 16

/* C[m x n] += alpha * (A panel x B panel) for float types: an MR x NR tile
 * accumulated in registers over kc. A macro rather than one function taking
 * mr and nr: the trip counts must be compile-time constants for gcc to
 * vectorize and unroll the inner loops. */
#define DEFINE_FLOAT_KERNEL(T, MR, NR, NAME)                                                              \
  static void NAME(int64_t kc, const void *ap, const void *bp, void *cp, int64_t ldc, int m, int n,     \
                   const void *alphap)                                                                  \
  {                                                                                                     \
    const T *restrict a = ap;                                                                           \
    const T *restrict b = bp;                                                                           \
    T *restrict c = cp;                                                                                 \
    T acc[MR * NR];                                                                                     \
    for (int j = 0; j < MR * NR; j++)                                                                   \
      acc[j] = 0;                                                                                       \
    for (int64_t k = 0; k < kc; k++) {                                                                  \
      const T *ak = a + k * MR, *bk = b + k * NR;                                                       \
      NC_UNROLL                                                                                         \
      for (int i = 0; i < MR; i++)                                                                      \
        for (int j = 0; j < NR; j++)                                                                    \
          acc[i * NR + j] += ak[i] * bk[j];                                                             \
    }                                                                                                   \
    T alpha = *(const T *)alphap;                                                                       \
    if (alpha != (T)1)                                                                                  \
      for (int j = 0; j < MR * NR; j++)                                                                 \
        acc[j] *= alpha;                                                                                \
    for (int i = 0; i < m; i++)                                                                         \
      for (int j = 0; j < n; j++)                                                                       \
        c[i * ldc + j] += acc[i * NR + j];                                                              \
  }

DEFINE_FLOAT_KERNEL(float, F32_MR, F32_NR, kernel_f32)
DEFINE_FLOAT_KERNEL(double, F64_MR, F64_NR, kernel_f64)

/* The integer kernel differs: int16 products widened to int32, accumulated
 * in uint32 (wrapping), no alpha. */
static void kernel_i16(int64_t kc, const void *ap, const void *bp, void *cp, int64_t ldc, int m, int n,
                       const void *alphap)
{
  const int16_t *restrict a = ap;
  const int16_t *restrict b = bp;
  int32_t *restrict c = cp;
  uint32_t acc[I16_MR * I16_NR];
  for (int j = 0; j < I16_MR * I16_NR; j++)
    acc[j] = 0;
  for (int64_t k = 0; k < kc; k++) {
    const int16_t *ak = a + k * I16_MR, *bk = b + k * I16_NR;
    NC_UNROLL
    for (int i = 0; i < I16_MR; i++)
      for (int j = 0; j < I16_NR; j++) /* |product| <= 2^30: exact in int32 */
        acc[i * I16_NR + j] += (uint32_t)((int32_t)ak[i] * (int32_t)bk[j]);
  }
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++)
      c[i * ldc + j] = (int32_t)((uint32_t)c[i * ldc + j] + acc[i * I16_NR + j]);
}

const nc_gemm_kind nc_gemm_kind_f32 = {F32_MR, F32_NR, 256, 120, 1024, sizeof(float), sizeof(float), kernel_f32};
const nc_gemm_kind nc_gemm_kind_f64 = {F64_MR, F64_NR, 256, 64, 512, sizeof(double), sizeof(double), kernel_f64};
const nc_gemm_kind nc_gemm_kind_i16 = {I16_MR, I16_NR, 512, 64, 1024, sizeof(int16_t), sizeof(int32_t),
                                       kernel_i16};

/* --- driver ---------------------------------------------------------------- */

/* Splits len into ceil(len/blk) near-equal blocks rounded up to `unit`, so a
 * K of 576 with KC 256 runs as 3 x 192 rather than 256+256+64. As blk is a
 * multiple of unit (MC of MR, NC of NR in every kind), a block never exceeds
 * blk: pack callbacks may size scratch by the kind's cache blocks. */
static int64_t balanced_block(int64_t len, int64_t blk, int64_t unit)
{
  if (len <= blk)
    return len;
  int64_t nblk = (len + blk - 1) / blk;
  int64_t b = (len + nblk - 1) / nblk;
  return (b + unit - 1) / unit * unit;
}

void nc_gemm_run(const nc_gemm_kind *kind, int64_t m, int64_t n, int64_t k, nc_gemm_pack_fn *pack_a,
                 const void *a_ctx, nc_gemm_pack_fn *pack_b, const void *b_ctx, void *c, int64_t ldc,
                 const void *alpha)
{
  if (m <= 0 || n <= 0 || k <= 0)
    return;
  const int mr = kind->mr, nr = kind->nr;
  int64_t kcb = balanced_block(k, kind->kc, 1);
  int64_t mcb = balanced_block(m, kind->mc, mr);
  int64_t ncb = balanced_block(n, kind->nc, nr);
  char *apack = nc_xmalloc((size_t)((mcb + mr - 1) / mr * mr * kcb) * kind->elem);
  char *bpack = nc_xmalloc((size_t)((ncb + nr - 1) / nr * nr * kcb) * kind->elem);
  for (int64_t jc = 0; jc < n; jc += ncb) {
    int64_t nb = n - jc < ncb ? n - jc : ncb;
    for (int64_t pc = 0; pc < k; pc += kcb) {
      int64_t kb = k - pc < kcb ? k - pc : kcb;
      pack_b(b_ctx, jc, nb, pc, kb, nr, bpack);
      for (int64_t ic = 0; ic < m; ic += mcb) {
        int64_t mb = m - ic < mcb ? m - ic : mcb;
        pack_a(a_ctx, ic, mb, pc, kb, mr, apack);
        for (int64_t jr = 0; jr < nb; jr += nr) {
          int nn = nb - jr < nr ? (int)(nb - jr) : nr;
          const char *bp = bpack + (size_t)(jr / nr * kb * nr) * kind->elem;
          for (int64_t ir = 0; ir < mb; ir += mr) {
            int mm = mb - ir < mr ? (int)(mb - ir) : mr;
            const char *ap = apack + (size_t)(ir / mr * kb * mr) * kind->elem;
            char *cp = (char *)c + (size_t)((ic + ir) * ldc + jc + jr) * kind->csize;
            kind->kernel(kb, ap, bp, cp, ldc, mm, nn, alpha);
          }
        }
      }
    }
  }
  free(apack);
  free(bpack);
}

/* --- strided packs ---------------------------------------------------------- */

void nc_gemm_pack_f32(const void *srcp, int64_t r0, int64_t rn, int64_t k0, int64_t kc, int width, void *dstp)
{
  const nc_gemm_src *s = srcp;
  const float *p = s->p;
  float *dst = dstp;
  for (int64_t rp = 0; rp < rn; rp += width) {
    int w = rn - rp < width ? (int)(rn - rp) : width;
    for (int64_t k = 0; k < kc; k++) {
      const float *row = p + (k0 + k) * s->ks + (r0 + rp) * s->rs;
      float *d = dst + k * width;
      if (s->rs == 1)
        for (int j = 0; j < w; j++)
          d[j] = row[j];
      else
        for (int j = 0; j < w; j++)
          d[j] = row[j * s->rs];
      for (int j = w; j < width; j++)
        d[j] = 0;
    }
    dst += kc * width;
  }
}

void nc_gemm_pack_f64(const void *srcp, int64_t r0, int64_t rn, int64_t k0, int64_t kc, int width, void *dstp)
{
  const nc_gemm_src *s = srcp;
  const double *p = s->p;
  double *dst = dstp;
  for (int64_t rp = 0; rp < rn; rp += width) {
    int w = rn - rp < width ? (int)(rn - rp) : width;
    for (int64_t k = 0; k < kc; k++) {
      const double *row = p + (k0 + k) * s->ks + (r0 + rp) * s->rs;
      double *d = dst + k * width;
      for (int j = 0; j < w; j++)
        d[j] = row[j * s->rs];
      for (int j = w; j < width; j++)
        d[j] = 0;
    }
    dst += kc * width;
  }
}

void nc_gemm_pack_i16(const void *srcp, int64_t r0, int64_t rn, int64_t k0, int64_t kc, int width, void *dstp)
{
  const nc_gemm_src *s = srcp;
  int16_t *dst = dstp;
  bool is_signed = nc_dtype_is_signed(s->dt);
  for (int64_t rp = 0; rp < rn; rp += width) {
    int w = rn - rp < width ? (int)(rn - rp) : width;
    int32_t zp[64];
    if (width > 64)
      NC_UNREACHABLE("i16 pack: register block wider than 64");
    for (int j = 0; j < w; j++)
      zp[j] = s->zp_r ? s->zp_r[r0 + rp + j] : s->zp;
    for (int64_t k = 0; k < kc; k++) {
      int64_t base = (k0 + k) * s->ks + (r0 + rp) * s->rs;
      int16_t *d = dst + k * width;
      if (is_signed) {
        const int8_t *row = (const int8_t *)s->p + base;
        for (int j = 0; j < w; j++)
          d[j] = (int16_t)(row[j * s->rs] - zp[j]);
      } else {
        const uint8_t *row = (const uint8_t *)s->p + base;
        for (int j = 0; j < w; j++)
          d[j] = (int16_t)(row[j * s->rs] - zp[j]);
      }
      for (int j = w; j < width; j++)
        d[j] = 0;
    }
    dst += kc * width;
  }
}
