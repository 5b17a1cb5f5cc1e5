/* kernels_internal.h: helpers shared by the kernel files (not public API).
 *
 * Error reporting, dtype access, shape checks, the convolution geometry used
 * by conv.c, qconv.c and pool.c, and the cache-blocked GEMM driver of gemm.c
 * that float and integer convolutions and matrix products all run through.
 */
#ifndef NC_DIALECTS_GRAPH_KERNELS_INTERNAL_H
#define NC_DIALECTS_GRAPH_KERNELS_INTERNAL_H

#include "nc/dialects/graph/kernels.h"
#include "nc/support/strutil.h"

#include <math.h>
#include <string.h>

#if defined(__GNUC__) && !defined(__clang__)
#define NC_UNROLL _Pragma("GCC unroll 16")
#else
#define NC_UNROLL
#endif

/** Runs the statements (which must not depend on iteration order) for i in
 * [0, n): blocks of 16 go through an inner loop of constant trip count,
 * which gcc -O2 vectorizes (at -O2 its cost model only vectorizes loops that
 * need no scalar epilogue), then the remainder runs as plain scalar code.
 * Pointers used in the body should be restrict-qualified so that no alias
 * check is needed. */
#define NC_VLOOP(i, n, ...)                                          \
  do {                                                               \
    int64_t i##_blk = 0, i##_end = (n);                              \
    for (; i##_blk + 16 <= i##_end; i##_blk += 16)                   \
      for (int i##_lane = 0; i##_lane < 16; i##_lane++) {            \
        int64_t i = i##_blk + i##_lane;                              \
        __VA_ARGS__;                                                 \
      }                                                              \
    for (int64_t i = i##_blk; i < i##_end; i++) {                    \
      __VA_ARGS__;                                                   \
    }                                                                \
  } while (0)

/** Writes a printf-style message into err (if non-NULL) and returns false:
 * nc_error_format under the kernels' short name. */
#define nc_kerr nc_error_format

/** True for f32, f64, f16 and bf16. */
static inline bool nc_k_is_float(nc_dtype dt)
{
  return dt == NC_DT_F32 || dt == NC_DT_F64 || dt == NC_DT_F16 || dt == NC_DT_BF16;
}

/** Product of dims (1 for rank 0); -1 if a dim is negative or it overflows. */
int64_t nc_k_numel(int rank, const int64_t *shape);

/** Checks that y has dtype dt and the given shape (message names op). */
bool nc_k_check_out(const char *op, const nc_tensor *y, nc_dtype dt, int rank, const int64_t *shape, char *err,
                    size_t errlen);

/** Checks that a tensor exists, has a valid rank and a supported dtype. */
bool nc_k_check_in(const char *op, const char *what, const nc_tensor *t, char *err, size_t errlen);

/** Normalizes axis into [0, rank) (accepts [-rank, rank)). */
bool nc_k_axis(const char *op, int64_t axis, int rank, int *out, char *err, size_t errlen);

/** Value range of an integer dtype up to 32 bits (64-bit types: int64 range,
 * u64 capped at INT64_MAX). */
void nc_k_int_range(nc_dtype dt, int64_t *lo, int64_t *hi);

/** Copies a float tensor into a new f32 buffer (caller frees). */
NC_GIVE float *nc_k_to_f32(const nc_tensor *t);

/** Stores n f32 values into float data of dtype dt (rounding). */
void nc_k_from_f32(const float *src, int64_t n, void *dst, nc_dtype dt);

/* --- convolution / pooling geometry ------------------------------------- */

/** Resolved geometry of a convolution or pooling window, always 3 spatial
 * dims (1-D and 2-D problems get leading dims of size 1). */
typedef struct nc_conv_geom {
  int nsp;                  /* spatial dims of the problem (1..3) */
  int64_t n, c, m, group;   /* batch, input channels, output channels, groups */
  int64_t in[3], k[3], s[3], d[3], pb[3], pe[3], out[3];
} nc_conv_geom;

/** Resolves spatial pads/out for one dim of a forward window op; ceil_mode
 * is for pooling only. Returns false if the output would be < 1. */
bool nc_k_window_dim(nc_auto_pad ap, int64_t in, int64_t k, int64_t s, int64_t d, int64_t pb_attr, int64_t pe_attr,
                     bool ceil_mode, int64_t *pb, int64_t *pe, int64_t *out);

/** The index of s in names[0, n): an enum parsed from its ONNX spelling.
 * NULL and "" give 0 (the first name is the default); -1 if s is not there. */
int nc_k_enum_from_string(const char *s, const char *const *names, size_t n);

/** The start of every conv-like geometry: checks the rank (3 to 5) and that
 * no dim of x or w is negative, zeroes g and sets nsp, n and c from x. */
bool nc_k_geom_begin(const char *op, int rank, const int64_t *x_shape, const int64_t *w_shape, nc_conv_geom *g,
                     char *err, size_t errlen);

/** Checks and resolves a Conv geometry from params and the x/w shapes. */
bool nc_k_conv_geom(const char *op, const nc_conv_params *p, int rank, const int64_t *x_shape,
                    const int64_t *w_shape, nc_conv_geom *g, char *err, size_t errlen);

/** Output columns o in [*lo, *hi) within [0, out) whose input column
 * o*s + base lies inside [0, in) (one kernel tap of a direct convolution). */
void nc_k_valid_range(int64_t base, int64_t s, int64_t in, int64_t out, int64_t *lo, int64_t *hi);

/** Fills out_shape (rank nsp+2) of a geometry. */
void nc_k_geom_out_shape(const nc_conv_geom *g, int64_t *out_shape);

/** Implicit-im2col addressing. GEMM row kk of the patch matrix is input
 * channel kk / K and kernel position kk % K (K = kernel volume); column j is
 * output position j. The image offset of element (kk, j) is
 * off[kk % K][j] + (kk / K) * D*H*W, or padding when off is -1, so the
 * offsets of one block of columns are computed once per kernel position and
 * reused for every channel and every K slice of the GEMM. The image is one
 * group's channels of one batch item. */
typedef struct nc_im2col {
  const nc_conv_geom *g;
  int64_t kprod, inhw, cap; /* kernel volume, image plane size, max columns */
  int64_t j0, nj;           /* columns cached in off (nj < 0: none) */
  int64_t *off;             /* kprod rows of cap offsets */
} nc_im2col;

/** Prepares addressing for blocks of at most cap columns. */
void nc_k_im2col_init(nc_im2col *ic, const nc_conv_geom *g, int64_t cap);

/** Offsets of row kk over columns [j0, j0+nj) (nj <= cap); *chan_off gets
 * the channel's offset to add to every non-negative entry. */
const int64_t *nc_k_im2col_row(nc_im2col *ic, int64_t kk, int64_t j0, int64_t nj, int64_t *chan_off);

/** Frees the offset cache. */
void nc_k_im2col_free(nc_im2col *ic);

/* --- GEMM ---------------------------------------------------------------- */

/** Packs a block of a GEMM operand: rows r0..r0+rn (of M for A, of N for B)
 * and k0..k0+kc of K, as ceil(rn/width) panels where element (r0 + p*width
 * + j, k0 + k) lands at dst[(p*kc + k)*width + j], zero-filled past rn. */
typedef void nc_gemm_pack_fn(const void *ctx, int64_t r0, int64_t rn, int64_t k0, int64_t kc, int width,
                             void *dst);

/** A GEMM flavour: packed element type, accumulator and register block. */
typedef struct nc_gemm_kind {
  int mr, nr;              /* register block */
  int64_t kc, mc, nc;      /* cache blocks */
  size_t elem;             /* bytes per packed element */
  size_t csize;            /* bytes per C element */
  /* c[0..m) x [0..n) (row stride ldc) += alpha * a_panel * b_panel */
  void (*kernel)(int64_t kc, const void *a, const void *b, void *c, int64_t ldc, int m, int n, const void *alpha);
} nc_gemm_kind;

/** f32 packs, f32 C (alpha is a float). */
extern const nc_gemm_kind nc_gemm_kind_f32;
/** f64 packs, f64 C (alpha is a double). */
extern const nc_gemm_kind nc_gemm_kind_f64;
/** int16 packs, int32 C, wrapping accumulation (alpha unused). */
extern const nc_gemm_kind nc_gemm_kind_i16;

/** C[m x n] += alpha * A[m x k] B[k x n], operands read through pack callbacks. */
void nc_gemm_run(const nc_gemm_kind *kind, int64_t m, int64_t n, int64_t k, nc_gemm_pack_fn *pack_a,
                 const void *a_ctx, nc_gemm_pack_fn *pack_b, const void *b_ctx, void *c, int64_t ldc,
                 const void *alpha);

/** A strided matrix operand: element (r, k) at p[r*rs + k*ks] (in elements of
 * dt). For the i16 packs the value is x - zp (zp_r[r] if zp_r else zp). */
typedef struct nc_gemm_src {
  const void *p;
  nc_dtype dt;
  int64_t rs, ks;
  const int32_t *zp_r;
  int32_t zp;
} nc_gemm_src;

/** Packs from an nc_gemm_src of dtype f32 (float panels). */
void nc_gemm_pack_f32(const void *src, int64_t r0, int64_t rn, int64_t k0, int64_t kc, int width, void *dst);
/** Packs from an nc_gemm_src of dtype f64 (double panels). */
void nc_gemm_pack_f64(const void *src, int64_t r0, int64_t rn, int64_t k0, int64_t kc, int width, void *dst);
/** Packs from an nc_gemm_src of an 8-bit-or-narrower integer dtype into int16
 * panels, subtracting the zero point. */
void nc_gemm_pack_i16(const void *src, int64_t r0, int64_t rn, int64_t k0, int64_t kc, int width, void *dst);

/** True if dt is an integer type the i16 GEMM path takes (i8/u8/i4/u4/i2/u2). */
static inline bool nc_k_is_narrow_int(nc_dtype dt)
{
  return dt == NC_DT_I8 || dt == NC_DT_U8 || dt == NC_DT_I4 || dt == NC_DT_U4 || dt == NC_DT_I2 ||
         dt == NC_DT_U2;
}

/** Integer matmul-style product shared by MatMulInteger and QLinearMatMul:
 * acc (i32, shape of the matmul result) = (a - a_zp) @ (b - b_zp). zps are
 * NULL or one entry or per row (a, M entries) / per column (b, N entries). */
bool nc_k_matmul_i32(const char *op, const nc_tensor *a, const nc_tensor *b, const nc_tensor *a_zp,
                     const nc_tensor *b_zp, int32_t *acc, int out_rank, const int64_t *out_shape, char *err,
                     size_t errlen);

#endif
