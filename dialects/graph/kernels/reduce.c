/* reduce.c: ReduceSum/Mean/Max/Min/Prod/SumSquare/L1/L2/LogSum/LogSumExp.
 *
 * The input's dims split into kept dims (walked in output order) and reduced
 * dims (walked for each output element); the innermost reduced dim is the
 * innermost input dim when the last axis is reduced, so the common cases read
 * memory contiguously. Float reductions accumulate in double; integer ones
 * are exact and wrap.
 */
#include "kernels_internal.h"

#include <stdlib.h>

static const char *reduce_name(nc_reduce_op op)
{
  static const char *names[] = {"reduce_sum", "reduce_mean", "reduce_max", "reduce_min", "reduce_prod",
                                "reduce_sum_square", "reduce_l1", "reduce_l2", "reduce_log_sum",
                                "reduce_log_sum_exp"};
  return (unsigned)op < NC_COUNTOF(names) ? names[op] : "reduce";
}

/* Marks reduced dims in red[]; returns false on bad axes. */
static bool reduce_axes(const char *op, const nc_reduce_params *p, int rank, bool *red, char *err, size_t errlen)
{
  for (int i = 0; i < rank; i++)
    red[i] = false;
  if (p->naxes < 0 || (p->naxes > 0 && !p->axes))
    return nc_kerr(err, errlen, "%s: bad axes", op);
  if (p->naxes == 0) {
    for (int i = 0; i < rank; i++)
      red[i] = !p->noop_with_empty_axes;
    return true;
  }
  for (int i = 0; i < p->naxes; i++) {
    int a;
    if (!nc_k_axis(op, p->axes[i], rank, &a, err, errlen))
      return false;
    if (red[a])
      return nc_kerr(err, errlen, "%s: axis %lld repeated", op, (long long)p->axes[i]);
    red[a] = true;
  }
  return true;
}

static bool shape_of(const char *op, const nc_reduce_params *p, int rank, const int64_t *x_shape, bool *red,
                     int *out_rank, int64_t *out_shape, char *err, size_t errlen)
{
  if (rank < 0 || rank > NC_TENSOR_MAX_RANK)
    return nc_kerr(err, errlen, "%s: bad rank", op);
  if (!reduce_axes(op, p, rank, red, err, errlen))
    return false;
  int r = 0;
  for (int i = 0; i < rank; i++) {
    if (x_shape[i] < 0)
      return nc_kerr(err, errlen, "%s: negative dim", op);
    if (!red[i])
      out_shape[r++] = x_shape[i];
    else if (p->keepdims)
      out_shape[r++] = 1;
  }
  *out_rank = r;
  return true;
}

bool nc_kernel_reduce_shape(const nc_reduce_params *p, int rank, const int64_t *x_shape, int *out_rank,
                            int64_t *out_shape, char *err, size_t errlen)
{
  if (!p)
    return nc_kerr(err, errlen, "reduce_shape: missing parameters");
  bool red[NC_TENSOR_MAX_RANK];
  return shape_of("reduce", p, rank, x_shape, red, out_rank, out_shape, err, errlen);
}

/* Offsets of every element of a sub-space (dims selected by sel) in x. */
static int64_t *subspace_offsets(int rank, const int64_t *shape, const int64_t *stride, const bool *sel,
                                 bool want, int64_t *count)
{
  int64_t n = 1;
  int dims[NC_TENSOR_MAX_RANK], nd = 0;
  for (int i = 0; i < rank; i++)
    if (sel[i] == want) {
      dims[nd++] = i;
      n *= shape[i];
    }
  int64_t *off = nc_xmalloc((size_t)(n ? n : 1) * sizeof(int64_t));
  int64_t idx[NC_TENSOR_MAX_RANK] = {0}, o = 0;
  for (int64_t t = 0; t < n; t++) {
    off[t] = o;
    for (int j = nd - 1; j >= 0; j--) {
      int d = dims[j];
      o += stride[d];
      if (++idx[j] < shape[d])
        break;
      o -= stride[d] * shape[d];
      idx[j] = 0;
    }
  }
  *count = n;
  return off;
}

static double reduce_float(nc_reduce_op op, const void *x, nc_dtype dt, int64_t base, const int64_t *roff,
                           int64_t nr)
{
  double acc;
  switch (op) {
  case NC_REDUCE_MAX:
  case NC_REDUCE_MIN: {
    acc = op == NC_REDUCE_MAX ? -INFINITY : INFINITY;
    for (int64_t t = 0; t < nr; t++) {
      double v = nc_elem_load_f64(x, dt, base + roff[t]);
      if (v != v)
        return v;
      acc = op == NC_REDUCE_MAX ? (v > acc ? v : acc) : (v < acc ? v : acc);
    }
    return acc;
  }
  case NC_REDUCE_PROD:
    acc = 1;
    for (int64_t t = 0; t < nr; t++)
      acc *= nc_elem_load_f64(x, dt, base + roff[t]);
    return acc;
  case NC_REDUCE_LOG_SUM_EXP: {
    double m = -INFINITY;
    for (int64_t t = 0; t < nr; t++) {
      double v = nc_elem_load_f64(x, dt, base + roff[t]);
      if (v != v)
        return v;
      m = v > m ? v : m;
    }
    if (isinf(m))
      return m;
    acc = 0;
    for (int64_t t = 0; t < nr; t++)
      acc += exp(nc_elem_load_f64(x, dt, base + roff[t]) - m);
    return m + log(acc);
  }
  default:
    break;
  }
  acc = 0;
  if (dt == NC_DT_F32 && (op == NC_REDUCE_SUM || op == NC_REDUCE_MEAN)) {
    const float *xp = (const float *)x + base;
    for (int64_t t = 0; t < nr; t++)
      acc += xp[roff[t]];
  } else {
    for (int64_t t = 0; t < nr; t++) {
      double v = nc_elem_load_f64(x, dt, base + roff[t]);
      acc += op == NC_REDUCE_SUM_SQUARE || op == NC_REDUCE_L2 ? v * v : op == NC_REDUCE_L1 ? fabs(v) : v;
    }
  }
  switch (op) {
  case NC_REDUCE_MEAN: return acc / (double)nr; /* 0/0 = NaN for an empty reduction */
  case NC_REDUCE_L2: return sqrt(acc);
  case NC_REDUCE_LOG_SUM: return log(acc);
  default: return acc;
  }
}

static int64_t reduce_int(nc_reduce_op op, const void *x, nc_dtype dt, int64_t base, const int64_t *roff,
                          int64_t nr)
{
  bool uns = !nc_dtype_is_signed(dt);
  int64_t lo, hi;
  nc_k_int_range(dt, &lo, &hi);
  switch (op) {
  case NC_REDUCE_MAX:
  case NC_REDUCE_MIN: {
    bool mx = op == NC_REDUCE_MAX;
    int64_t acc = dt == NC_DT_U64 ? (mx ? 0 : -1) : (mx ? lo : hi);
    for (int64_t t = 0; t < nr; t++) {
      int64_t v = nc_elem_load_i64(x, dt, base + roff[t]);
      bool gt = uns ? (uint64_t)v > (uint64_t)acc : v > acc;
      if (mx ? gt : (uns ? (uint64_t)v < (uint64_t)acc : v < acc))
        acc = v;
    }
    return acc;
  }
  case NC_REDUCE_L2:
  case NC_REDUCE_LOG_SUM:
  case NC_REDUCE_LOG_SUM_EXP: {
    double acc = 0;
    for (int64_t t = 0; t < nr; t++) {
      double v = uns ? (double)(uint64_t)nc_elem_load_i64(x, dt, base + roff[t])
                     : (double)nc_elem_load_i64(x, dt, base + roff[t]);
      acc += op == NC_REDUCE_L2 ? v * v : op == NC_REDUCE_LOG_SUM ? v : exp(v);
    }
    return nc_f64_to_i64_saturating(op == NC_REDUCE_L2 ? sqrt(acc) : log(acc));
  }
  default:
    break;
  }
  uint64_t acc = op == NC_REDUCE_PROD ? 1 : 0;
  for (int64_t t = 0; t < nr; t++) {
    uint64_t v = (uint64_t)nc_elem_load_i64(x, dt, base + roff[t]);
    switch (op) {
    case NC_REDUCE_PROD: acc *= v; break;
    case NC_REDUCE_SUM_SQUARE: acc += v * v; break;
    case NC_REDUCE_L1: acc += !uns && (int64_t)v < 0 ? 0 - v : v; break;
    default: acc += v; break;
    }
  }
  if (op == NC_REDUCE_MEAN) {
    if (nr == 0)
      return 0;
    if (uns)
      return (int64_t)(acc / (uint64_t)nr);
    return (int64_t)acc / nr;
  }
  return (int64_t)acc;
}

bool nc_kernel_reduce(nc_reduce_op op, const nc_reduce_params *p, const nc_tensor *x, nc_tensor *y, char *err,
                      size_t errlen)
{
  const char *name = reduce_name(op);
  if (!p)
    return nc_kerr(err, errlen, "%s: missing parameters", name);
  if ((unsigned)op > NC_REDUCE_LOG_SUM_EXP)
    return nc_kerr(err, errlen, "reduce: unknown op %d", (int)op);
  if (!nc_k_check_in(name, "X", x, err, errlen))
    return false;
  if (x->dtype == NC_DT_BOOL)
    return nc_kerr(err, errlen, "%s: bool input", name);
  bool red[NC_TENSOR_MAX_RANK];
  int yr;
  int64_t ys[NC_TENSOR_MAX_RANK];
  if (!shape_of(name, p, x->rank, x->shape, red, &yr, ys, err, errlen) ||
      !nc_k_check_out(name, y, x->dtype, yr, ys, err, errlen))
    return false;
  int64_t stride[NC_TENSOR_MAX_RANK], s = 1;
  for (int i = x->rank - 1; i >= 0; i--) {
    stride[i] = s;
    s *= x->shape[i];
  }
  int64_t nk, nr;
  int64_t *koff = subspace_offsets(x->rank, x->shape, stride, red, false, &nk);
  int64_t *roff = subspace_offsets(x->rank, x->shape, stride, red, true, &nr);
  bool fl = nc_k_is_float(x->dtype);
  for (int64_t t = 0; t < nk; t++) {
    if (fl)
      nc_elem_store_f64(y->data, x->dtype, t, reduce_float(op, x->data, x->dtype, koff[t], roff, nr));
    else
      nc_elem_store_i64(y->data, x->dtype, t, reduce_int(op, x->data, x->dtype, koff[t], roff, nr));
  }
  free(koff);
  free(roff);
  return true;
}
