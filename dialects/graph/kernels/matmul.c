/* matmul.c: MatMul (numpy semantics, batch broadcasting), Gemm, and the
 * int32 product core of MatMulInteger/QLinearMatMul.
 *
 * Float products run the blocked GEMM of gemm.c once per batch matrix (or
 * once in all when B is shared by every batch and A is contiguous: the batch
 * then folds into M). Integer MatMul/Gemm on int32/int64 tensors are exact
 * 64-bit loops that wrap to the dtype; they are not on any hot path:
 * quantized models multiply 8-bit data through the int16 GEMM, which
 * nc_k_matmul_i32 below drives for qconv.c.
 */
#include "kernels_internal.h"

#include <stdlib.h>

/* Matmul geometry: batch shape and per-batch matrix offsets of a and b. */
typedef struct mm_geom {
  int64_t m, k, n, nbatch;
  int64_t *aoff, *boff; /* nbatch entries each, in elements */
  bool b_shared;        /* every batch uses the same b matrix */
} mm_geom;

static bool mm_resolve(const char *op, int ra, const int64_t *as, int rb, const int64_t *bs, int *out_rank,
                       int64_t *out_shape, mm_geom *g, char *err, size_t errlen)
{
  if (ra < 1 || rb < 1 || ra > NC_TENSOR_MAX_RANK || rb > NC_TENSOR_MAX_RANK)
    return nc_kerr(err, errlen, "%s: operands must have rank >= 1", op);
  int64_t m = ra == 1 ? 1 : as[ra - 2], k = as[ra - 1];
  int64_t k2 = rb == 1 ? bs[0] : bs[rb - 2], n = rb == 1 ? 1 : bs[rb - 1];
  if (k != k2)
    return nc_kerr(err, errlen, "%s: inner dims differ (%lld vs %lld)", op, (long long)k, (long long)k2);
  int bra = ra > 2 ? ra - 2 : 0, brb = rb > 2 ? rb - 2 : 0;
  int br;
  int64_t bshape[NC_TENSOR_MAX_RANK];
  if (!nc_kernel_broadcast_shape(bra, as, brb, bs, &br, bshape, err, errlen))
    return false;
  int r = 0;
  for (int i = 0; i < br; i++)
    out_shape[r++] = bshape[i];
  if (ra > 1)
    out_shape[r++] = m;
  if (rb > 1)
    out_shape[r++] = n;
  if (r > NC_TENSOR_MAX_RANK)
    return nc_kerr(err, errlen, "%s: result rank too large", op);
  *out_rank = r;
  if (!g)
    return true;
  g->m = m;
  g->k = k;
  g->n = n;
  g->nbatch = nc_k_numel(br, bshape);
  if (g->nbatch < 0)
    return nc_kerr(err, errlen, "%s: bad batch shape", op);
  g->aoff = nc_xmalloc((size_t)(g->nbatch ? g->nbatch : 1) * sizeof(int64_t));
  g->boff = nc_xmalloc((size_t)(g->nbatch ? g->nbatch : 1) * sizeof(int64_t));
  /* strides of the batch dims of a and b, 0 where broadcast */
  int64_t sa[NC_TENSOR_MAX_RANK], sb[NC_TENSOR_MAX_RANK];
  int64_t stride_a = m * k, stride_b = k * n;
  g->b_shared = true;
  for (int i = br - 1; i >= 0; i--) {
    int ia = i - (br - bra), ib = i - (br - brb);
    int64_t da = ia >= 0 ? as[ia] : 1, db = ib >= 0 ? bs[ib] : 1;
    sa[i] = da == 1 ? 0 : stride_a;
    sb[i] = db == 1 ? 0 : stride_b;
    if (sb[i] && bshape[i] > 1)
      g->b_shared = false;
    stride_a *= da;
    stride_b *= db;
  }
  int64_t idx[NC_TENSOR_MAX_RANK] = {0};
  int64_t oa = 0, ob = 0;
  for (int64_t t = 0; t < g->nbatch; t++) {
    g->aoff[t] = oa;
    g->boff[t] = ob;
    for (int i = br - 1; i >= 0; i--) {
      oa += sa[i];
      ob += sb[i];
      if (++idx[i] < bshape[i])
        break;
      oa -= sa[i] * bshape[i];
      ob -= sb[i] * bshape[i];
      idx[i] = 0;
    }
  }
  return true;
}

bool nc_kernel_matmul_shape(int a_rank, const int64_t *a_shape, int b_rank, const int64_t *b_shape, int *out_rank,
                            int64_t *out_shape, char *err, size_t errlen)
{
  return mm_resolve("matmul", a_rank, a_shape, b_rank, b_shape, out_rank, out_shape, NULL, err, errlen);
}

/* Float matmul on f32 (or f64) raw buffers. */
static void mm_real(const mm_geom *g, bool is_f64, const void *a, const void *b, void *y)
{
  size_t es = is_f64 ? sizeof(double) : sizeof(float);
  const nc_gemm_kind *kind = is_f64 ? &nc_gemm_kind_f64 : &nc_gemm_kind_f32;
  nc_gemm_pack_fn *pack = is_f64 ? nc_gemm_pack_f64 : nc_gemm_pack_f32;
  float one32 = 1;
  double one64 = 1;
  const void *alpha = is_f64 ? (const void *)&one64 : (const void *)&one32;
  memset(y, 0, (size_t)(g->nbatch * g->m * g->n) * es);
  /* a's batches are contiguous and in order when aoff[t] == t*m*k */
  bool a_seq = true;
  for (int64_t t = 0; t < g->nbatch && a_seq; t++)
    a_seq = g->aoff[t] == t * g->m * g->k;
  if (g->b_shared && a_seq && g->nbatch > 1) {
    nc_gemm_src as = {.p = a, .rs = g->k, .ks = 1};
    nc_gemm_src bs = {.p = b, .rs = 1, .ks = g->n};
    nc_gemm_run(kind, g->nbatch * g->m, g->n, g->k, pack, &as, pack, &bs, y, g->n, alpha);
    return;
  }
  for (int64_t t = 0; t < g->nbatch; t++) {
    nc_gemm_src as = {.p = (const char *)a + (size_t)g->aoff[t] * es, .rs = g->k, .ks = 1};
    nc_gemm_src bs = {.p = (const char *)b + (size_t)g->boff[t] * es, .rs = 1, .ks = g->n};
    nc_gemm_run(kind, g->m, g->n, g->k, pack, &as, pack, &bs, (char *)y + (size_t)(t * g->m * g->n) * es, g->n,
                alpha);
  }
}

/* Exact integer matmul: 64-bit wrapping sums, stored with the dtype's wrap. */
static void mm_int(const mm_geom *g, nc_dtype dt, const void *a, const void *b, void *y)
{
  uint64_t *row = nc_xmalloc((size_t)(g->n ? g->n : 1) * sizeof(uint64_t));
  for (int64_t t = 0; t < g->nbatch; t++)
    for (int64_t i = 0; i < g->m; i++) {
      memset(row, 0, (size_t)g->n * sizeof(uint64_t));
      for (int64_t kk = 0; kk < g->k; kk++) {
        uint64_t av = (uint64_t)nc_elem_load_i64(a, dt, g->aoff[t] + i * g->k + kk);
        int64_t bb = g->boff[t] + kk * g->n;
        for (int64_t j = 0; j < g->n; j++)
          row[j] += av * (uint64_t)nc_elem_load_i64(b, dt, bb + j);
      }
      for (int64_t j = 0; j < g->n; j++)
        nc_elem_store_i64(y, dt, (t * g->m + i) * g->n + j, (int64_t)row[j]);
    }
  free(row);
}

static bool mm_check(const char *op, const nc_tensor *a, const nc_tensor *b, char *err, size_t errlen)
{
  if (!nc_k_check_in(op, "A", a, err, errlen) || !nc_k_check_in(op, "B", b, err, errlen))
    return false;
  if (a->dtype != b->dtype)
    return nc_kerr(err, errlen, "%s: operand dtypes differ (%s, %s)", op, nc_dtype_name(a->dtype),
                   nc_dtype_name(b->dtype));
  if (a->dtype == NC_DT_BOOL)
    return nc_kerr(err, errlen, "%s: bool operands", op);
  return true;
}

bool nc_kernel_matmul(const nc_tensor *a, const nc_tensor *b, nc_tensor *y, char *err, size_t errlen)
{
  if (!mm_check("matmul", a, b, err, errlen))
    return false;
  int yr;
  int64_t ys[NC_TENSOR_MAX_RANK];
  mm_geom g;
  if (!mm_resolve("matmul", a->rank, a->shape, b->rank, b->shape, &yr, ys, NULL, err, errlen) ||
      !nc_k_check_out("matmul", y, a->dtype, yr, ys, err, errlen))
    return false;
  mm_resolve("matmul", a->rank, a->shape, b->rank, b->shape, &yr, ys, &g, err, errlen);
  nc_dtype dt = a->dtype;
  if (dt == NC_DT_F32 || dt == NC_DT_F64) {
    mm_real(&g, dt == NC_DT_F64, a->data, b->data, y->data);
  } else if (nc_k_is_float(dt)) {
    float *af = nc_k_to_f32(a), *bf = nc_k_to_f32(b);
    int64_t ny = nc_tensor_num_elements(y);
    float *yf = nc_xmalloc((size_t)(ny ? ny : 1) * sizeof(float));
    mm_real(&g, false, af, bf, yf);
    nc_k_from_f32(yf, ny, y->data, dt);
    free(af);
    free(bf);
    free(yf);
  } else {
    mm_int(&g, dt, a->data, b->data, y->data);
  }
  free(g.aoff);
  free(g.boff);
  return true;
}

/* --- Gemm ------------------------------------------------------------------- */

/* Checks that c (rank <= 2) broadcasts unidirectionally to [m, n]. */
static bool gemm_c_ok(int c_rank, const int64_t *c_shape, int64_t m, int64_t n)
{
  if (c_rank < 0)
    return true;
  if (c_rank > 2)
    return false;
  int64_t cm = c_rank == 2 ? c_shape[0] : 1, cn = c_rank >= 1 ? c_shape[c_rank - 1] : 1;
  return (cm == 1 || cm == m) && (cn == 1 || cn == n);
}

bool nc_kernel_gemm_shape(const nc_gemm_params *p, const int64_t *a_shape, const int64_t *b_shape, int c_rank,
                          const int64_t *c_shape, int64_t *out_shape, char *err, size_t errlen)
{
  if (!p)
    return nc_kerr(err, errlen, "gemm_shape: missing parameters");
  int64_t m = p->trans_a ? a_shape[1] : a_shape[0], k = p->trans_a ? a_shape[0] : a_shape[1];
  int64_t k2 = p->trans_b ? b_shape[1] : b_shape[0], n = p->trans_b ? b_shape[0] : b_shape[1];
  if (m < 0 || k < 0 || n < 0 || k2 < 0)
    return nc_kerr(err, errlen, "gemm: negative dim");
  if (k != k2)
    return nc_kerr(err, errlen, "gemm: inner dims differ (%lld vs %lld)", (long long)k, (long long)k2);
  if (!gemm_c_ok(c_rank, c_shape, m, n))
    return nc_kerr(err, errlen, "gemm: C does not broadcast to [%lld, %lld]", (long long)m, (long long)n);
  out_shape[0] = m;
  out_shape[1] = n;
  return true;
}

/* C's element (i, j) after unidirectional broadcast to [m, n]. */
static int64_t c_index(const nc_tensor *c, int64_t i, int64_t j)
{
  int64_t cm = c->rank == 2 ? c->shape[0] : 1, cn = c->rank >= 1 ? c->shape[c->rank - 1] : 1;
  return (cm == 1 ? 0 : i) * cn + (cn == 1 ? 0 : j);
}

bool nc_kernel_gemm(const nc_gemm_params *p, const nc_tensor *a, const nc_tensor *b, const nc_tensor *c,
                    nc_tensor *y, char *err, size_t errlen)
{
  if (!p)
    return nc_kerr(err, errlen, "gemm: missing parameters");
  if (!mm_check("gemm", a, b, err, errlen))
    return false;
  if (a->rank != 2 || b->rank != 2)
    return nc_kerr(err, errlen, "gemm: A and B must be 2-D");
  if (c && (!nc_k_check_in("gemm", "C", c, err, errlen)))
    return false;
  if (c && c->dtype != a->dtype)
    return nc_kerr(err, errlen, "gemm: C dtype %s differs from A (%s)", nc_dtype_name(c->dtype),
                   nc_dtype_name(a->dtype));
  int64_t ys[2];
  if (!nc_kernel_gemm_shape(p, a->shape, b->shape, c ? c->rank : -1, c ? c->shape : NULL, ys, err, errlen) ||
      !nc_k_check_out("gemm", y, a->dtype, 2, ys, err, errlen))
    return false;
  int64_t m = ys[0], n = ys[1], k = p->trans_a ? a->shape[0] : a->shape[1];
  nc_dtype dt = a->dtype;
  bool use_c = c && p->beta != 0;
  if (!nc_k_is_float(dt)) {
    bool exact = p->alpha == 1 && (!use_c || p->beta == 1);
    for (int64_t i = 0; i < m; i++)
      for (int64_t j = 0; j < n; j++) {
        uint64_t s = 0;
        for (int64_t kk = 0; kk < k; kk++) {
          int64_t ai = p->trans_a ? kk * m + i : i * k + kk, bi = p->trans_b ? j * k + kk : kk * n + j;
          s += (uint64_t)nc_elem_load_i64(a->data, dt, ai) * (uint64_t)nc_elem_load_i64(b->data, dt, bi);
        }
        int64_t v;
        if (exact) {
          v = (int64_t)(s + (use_c ? (uint64_t)nc_elem_load_i64(c->data, dt, c_index(c, i, j)) : 0));
        } else {
          double d = (double)(int64_t)s * p->alpha;
          if (use_c)
            d += (double)nc_elem_load_i64(c->data, dt, c_index(c, i, j)) * p->beta;
          v = nc_f64_to_i64_saturating(d);
        }
        nc_elem_store_i64(y->data, dt, i * n + j, v);
      }
    return true;
  }
  bool f64 = dt == NC_DT_F64;
  /* y = beta * C (broadcast), then y += alpha * A'B' */
  const void *ad = a->data, *bd = b->data;
  float *af = NULL, *bf = NULL, *yf = NULL;
  void *yd = y->data;
  if (!f64 && dt != NC_DT_F32) {
    ad = af = nc_k_to_f32(a);
    bd = bf = nc_k_to_f32(b);
    yd = yf = nc_xmalloc((size_t)(m * n + 1) * sizeof(float));
  }
  for (int64_t i = 0; i < m; i++)
    for (int64_t j = 0; j < n; j++) {
      if (f64)
        ((double *)yd)[i * n + j] = use_c ? ((const double *)c->data)[c_index(c, i, j)] * p->beta : 0;
      else
        ((float *)yd)[i * n + j] =
            use_c ? (float)nc_elem_load_f64(c->data, dt, c_index(c, i, j)) * (float)p->beta : 0.0f;
    }
  nc_gemm_src as = {.p = ad, .rs = p->trans_a ? 1 : k, .ks = p->trans_a ? m : 1};
  nc_gemm_src bs = {.p = bd, .rs = p->trans_b ? k : 1, .ks = p->trans_b ? 1 : n};
  if (f64) {
    double alpha = p->alpha;
    nc_gemm_run(&nc_gemm_kind_f64, m, n, k, nc_gemm_pack_f64, &as, nc_gemm_pack_f64, &bs, yd, n, &alpha);
  } else {
    float alpha = (float)p->alpha;
    nc_gemm_run(&nc_gemm_kind_f32, m, n, k, nc_gemm_pack_f32, &as, nc_gemm_pack_f32, &bs, yd, n, &alpha);
  }
  if (yf)
    nc_k_from_f32(yf, m * n, y->data, dt);
  free(af);
  free(bf);
  free(yf);
  return true;
}

/* --- integer matmul core (MatMulInteger, QLinearMatMul) ----------------------- */

/* Zero point of an operand: NULL, one element, or `count` elements (per row
 * of a / per column of b); dtype must match the operand's. */
static bool zp_vector(const char *op, const char *what, const nc_tensor *zp, nc_dtype dt, int64_t count,
                      int32_t *scalar, int32_t **vec, char *err, size_t errlen)
{
  *scalar = 0;
  *vec = NULL;
  if (!zp)
    return true;
  if (!nc_k_check_in(op, what, zp, err, errlen))
    return false;
  if (zp->dtype != dt)
    return nc_kerr(err, errlen, "%s: %s dtype %s differs from its operand's %s", op, what,
                   nc_dtype_name(zp->dtype), nc_dtype_name(dt));
  int64_t n = nc_tensor_num_elements(zp);
  if (n == 1) {
    *scalar = (int32_t)nc_elem_load_i64(zp->data, dt, 0);
    return true;
  }
  if (n != count)
    return nc_kerr(err, errlen, "%s: %s has %lld elements, expected 1 or %lld", op, what, (long long)n,
                   (long long)count);
  *vec = nc_xmalloc((size_t)n * sizeof(int32_t));
  for (int64_t i = 0; i < n; i++)
    (*vec)[i] = (int32_t)nc_elem_load_i64(zp->data, dt, i);
  return true;
}

bool nc_k_matmul_i32(const char *op, const nc_tensor *a, const nc_tensor *b, const nc_tensor *a_zp,
                     const nc_tensor *b_zp, int32_t *acc, int out_rank, const int64_t *out_shape, char *err,
                     size_t errlen)
{
  if (!nc_k_check_in(op, "A", a, err, errlen) || !nc_k_check_in(op, "B", b, err, errlen))
    return false;
  if (!nc_k_is_narrow_int(a->dtype) || !nc_k_is_narrow_int(b->dtype))
    return nc_kerr(err, errlen, "%s: operands must be 8-bit or narrower integers, got %s and %s", op,
                   nc_dtype_name(a->dtype), nc_dtype_name(b->dtype));
  int yr;
  int64_t ys[NC_TENSOR_MAX_RANK];
  mm_geom g;
  if (!mm_resolve(op, a->rank, a->shape, b->rank, b->shape, &yr, ys, NULL, err, errlen))
    return false;
  bool same = yr == out_rank;
  for (int i = 0; same && i < yr; i++)
    same = ys[i] == out_shape[i];
  if (!same)
    return nc_kerr(err, errlen, "%s: output shape does not match the product's", op);
  int64_t m = a->rank == 1 ? 1 : a->shape[a->rank - 2], n = b->rank == 1 ? 1 : b->shape[b->rank - 1];
  int32_t za, zb, *va, *vb;
  if (!zp_vector(op, "A zero point", a_zp, a->dtype, m, &za, &va, err, errlen))
    return false;
  if (!zp_vector(op, "B zero point", b_zp, b->dtype, n, &zb, &vb, err, errlen)) {
    free(va);
    return false;
  }
  mm_resolve(op, a->rank, a->shape, b->rank, b->shape, &yr, ys, &g, err, errlen);
  memset(acc, 0, (size_t)(g.nbatch * g.m * g.n) * sizeof(int32_t));
  for (int64_t t = 0; t < g.nbatch; t++) {
    nc_gemm_src as = {(const int8_t *)a->data + g.aoff[t], a->dtype, g.k, 1, va, za};
    nc_gemm_src bs = {(const int8_t *)b->data + g.boff[t], b->dtype, 1, g.n, vb, zb};
    nc_gemm_run(&nc_gemm_kind_i16, g.m, g.n, g.k, nc_gemm_pack_i16, &as, nc_gemm_pack_i16, &bs,
                acc + t * g.m * g.n, g.n, NULL);
  }
  free(va);
  free(vb);
  free(g.aoff);
  free(g.boff);
  return true;
}
