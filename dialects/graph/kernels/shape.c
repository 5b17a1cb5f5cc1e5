/* shape.c: data-movement kernels and shape helpers: Concat, Split, Slice,
 * Reshape, Flatten, Squeeze, Unsqueeze, Transpose and Pad.
 *
 * They work on raw element bytes, so every dtype is supported. Strided
 * gathers (Slice, Transpose, Pad) walk the output in row-major order with an
 * index odometer and copy along the innermost dim with a per-dim source
 * stride or index map.
 */
#include "kernels_internal.h"

#include <stdlib.h>

static void row_strides(int rank, const int64_t *shape, int64_t *stride)
{
  int64_t s = 1;
  for (int i = rank - 1; i >= 0; i--) {
    stride[i] = s;
    s *= shape[i];
  }
}

/* Copies n elements of es bytes from src (element stride sst) to contiguous dst. */
static void gather_row(size_t es, int64_t n, const char *src, int64_t sst, char *dst)
{
  if (sst == 1) {
    memcpy(dst, src, (size_t)n * es);
    return;
  }
  switch (es) {
  case 1: for (int64_t i = 0; i < n; i++) dst[i] = src[i * sst]; break;
  case 2: for (int64_t i = 0; i < n; i++) memcpy(dst + 2 * i, src + 2 * i * sst, 2); break;
  case 4: for (int64_t i = 0; i < n; i++) memcpy(dst + 4 * i, src + 4 * i * sst, 4); break;
  default: for (int64_t i = 0; i < n; i++) memcpy(dst + (size_t)i * es, src + i * sst * (int64_t)es, es); break;
  }
}

/* y[idx] = x[base + sum idx[d]*st[d]] for every output index (strided view copy). */
static void strided_copy(size_t es, int rank, const int64_t *yshape, const char *x, int64_t base, const int64_t *st,
                         char *y)
{
  int64_t n = nc_k_numel(rank, yshape);
  if (n <= 0)
    return;
  if (rank == 0) {
    memcpy(y, x + (size_t)base * es, es);
    return;
  }
  int64_t inner = yshape[rank - 1], rows = n / inner;
  int64_t idx[NC_TENSOR_MAX_RANK] = {0}, off = base;
  for (int64_t r = 0; r < rows; r++) {
    gather_row(es, inner, x + (size_t)off * es, st[rank - 1], y + (size_t)(r * inner) * es);
    for (int d = rank - 2; d >= 0; d--) {
      off += st[d];
      if (++idx[d] < yshape[d])
        break;
      off -= st[d] * yshape[d];
      idx[d] = 0;
    }
  }
}

/* --- concat / split ------------------------------------------------------------ */

bool nc_kernel_concat_shape(int64_t axis, int n, int rank, const int64_t *const *shapes, int64_t *out_shape,
                            char *err, size_t errlen)
{
  int a;
  if (n < 1)
    return nc_kerr(err, errlen, "concat: needs at least one input");
  if (rank < 1 || rank > NC_TENSOR_MAX_RANK)
    return nc_kerr(err, errlen, "concat: inputs must have rank >= 1");
  if (!nc_k_axis("concat", axis, rank, &a, err, errlen))
    return false;
  int64_t tmp[NC_TENSOR_MAX_RANK];
  memcpy(tmp, shapes[0], (size_t)rank * sizeof(int64_t));
  tmp[a] = 0;
  for (int i = 0; i < n; i++) {
    for (int d = 0; d < rank; d++) {
      if (shapes[i][d] < 0)
        return nc_kerr(err, errlen, "concat: negative dim");
      if (d != a && shapes[i][d] != tmp[d])
        return nc_kerr(err, errlen, "concat: input %d has dim %d = %lld, expected %lld", i, d,
                       (long long)shapes[i][d], (long long)tmp[d]);
    }
    if (tmp[a] > INT64_MAX / 2 - shapes[i][a])
      return nc_kerr(err, errlen, "concat: result too large");
    tmp[a] += shapes[i][a];
  }
  memcpy(out_shape, tmp, (size_t)rank * sizeof(int64_t));
  return true;
}

bool nc_kernel_concat(int64_t axis, int n, const nc_tensor *const *xs, nc_tensor *y, char *err, size_t errlen)
{
  if (n < 1 || !xs)
    return nc_kerr(err, errlen, "concat: needs at least one input");
  const int64_t **shapes = nc_xmalloc((size_t)n * sizeof *shapes);
  bool ok = true;
  for (int i = 0; i < n && ok; i++) {
    ok = nc_k_check_in("concat", "input", xs[i], err, errlen);
    if (ok && (xs[i]->rank != xs[0]->rank || xs[i]->dtype != xs[0]->dtype))
      ok = nc_kerr(err, errlen, "concat: input %d differs in rank or dtype", i);
    if (ok)
      shapes[i] = xs[i]->shape;
  }
  int64_t ys[NC_TENSOR_MAX_RANK];
  ok = ok && nc_kernel_concat_shape(axis, n, xs[0]->rank, shapes, ys, err, errlen) &&
       nc_k_check_out("concat", y, xs[0]->dtype, xs[0]->rank, ys, err, errlen);
  free(shapes);
  if (!ok)
    return false;
  int a = (int)(axis < 0 ? axis + y->rank : axis);
  size_t es = nc_dtype_size(y->dtype);
  int64_t outer = 1, inner = 1;
  for (int d = 0; d < a; d++)
    outer *= y->shape[d];
  for (int d = a + 1; d < y->rank; d++)
    inner *= y->shape[d];
  char *dst = y->data;
  for (int64_t o = 0; o < outer; o++)
    for (int i = 0; i < n; i++) {
      size_t chunk = (size_t)(xs[i]->shape[a] * inner) * es;
      memcpy(dst, (const char *)xs[i]->data + (size_t)o * chunk, chunk);
      dst += chunk;
    }
  return true;
}

bool nc_kernel_split_sizes(int64_t axis, int rank, const int64_t *x_shape, int n, const int64_t *split,
                           int64_t *sizes, char *err, size_t errlen)
{
  int a;
  if (n < 1)
    return nc_kerr(err, errlen, "split: needs at least one output");
  if (rank < 1 || rank > NC_TENSOR_MAX_RANK)
    return nc_kerr(err, errlen, "split: input must have rank >= 1");
  if (!nc_k_axis("split", axis, rank, &a, err, errlen))
    return false;
  int64_t dim = x_shape[a], sum = 0;
  if (dim < 0)
    return nc_kerr(err, errlen, "split: dim %lld is negative", (long long)dim);
  if (split) {
    for (int i = 0; i < n; i++) {
      if (split[i] < 0 || split[i] > dim - sum)
        return nc_kerr(err, errlen, "split: sizes do not fit dim %lld", (long long)dim);
      sum += sizes[i] = split[i];
    }
    if (sum != dim)
      return nc_kerr(err, errlen, "split: sizes sum to %lld, dim is %lld", (long long)sum, (long long)dim);
    return true;
  }
  /* ceil(dim / n) and part * (n - 1) > dim, without overflow for dims near 2^63 */
  int64_t part = dim / n + (dim % n != 0);
  if (n > 1 && part > 0 && n - 1 > dim / part)
    return nc_kerr(err, errlen, "split: dim %lld cannot be cut into %d parts", (long long)dim, n);
  for (int i = 0; i < n; i++)
    sizes[i] = i < n - 1 ? part : dim - part * (n - 1);
  return true;
}

bool nc_kernel_split(int64_t axis, int n, const int64_t *sizes, const nc_tensor *x, nc_tensor *const *ys, char *err,
                     size_t errlen)
{
  if (!nc_k_check_in("split", "X", x, err, errlen))
    return false;
  int64_t *chk = nc_xmalloc((size_t)(n > 0 ? n : 1) * sizeof(int64_t));
  bool ok = nc_kernel_split_sizes(axis, x->rank, x->shape, n, sizes, chk, err, errlen);
  free(chk);
  if (!ok)
    return false;
  int a = (int)(axis < 0 ? axis + x->rank : axis);
  for (int i = 0; i < n; i++) {
    int64_t s[NC_TENSOR_MAX_RANK];
    memcpy(s, x->shape, sizeof s);
    s[a] = sizes[i];
    if (!ys || !nc_k_check_out("split", ys[i], x->dtype, x->rank, s, err, errlen))
      return ys ? false : nc_kerr(err, errlen, "split: missing outputs");
  }
  size_t es = nc_dtype_size(x->dtype);
  int64_t outer = 1, inner = 1;
  for (int d = 0; d < a; d++)
    outer *= x->shape[d];
  for (int d = a + 1; d < x->rank; d++)
    inner *= x->shape[d];
  const char *src = x->data;
  for (int64_t o = 0; o < outer; o++)
    for (int i = 0; i < n; i++) {
      size_t chunk = (size_t)(sizes[i] * inner) * es;
      memcpy((char *)ys[i]->data + (size_t)o * chunk, src, chunk);
      src += chunk;
    }
  return true;
}

/* --- slice --------------------------------------------------------------------- */

/* Resolves each dim's start, step and length. */
static bool slice_resolve(const nc_slice_params *p, int rank, const int64_t *x_shape, int64_t *start, int64_t *step,
                          int64_t *len, char *err, size_t errlen)
{
  if (rank < 0 || rank > NC_TENSOR_MAX_RANK)
    return nc_kerr(err, errlen, "slice: bad rank");
  if (p->n < 0 || p->n > rank || (p->n > 0 && (!p->starts || !p->ends)))
    return nc_kerr(err, errlen, "slice: %d starts/ends for rank %d", p->n, rank);
  bool seen[NC_TENSOR_MAX_RANK] = {false};
  for (int d = 0; d < rank; d++) {
    if (x_shape[d] < 0)
      return nc_kerr(err, errlen, "slice: negative dim");
    start[d] = 0;
    step[d] = 1;
    len[d] = x_shape[d];
  }
  for (int i = 0; i < p->n; i++) {
    int a;
    if (!nc_k_axis("slice", p->axes ? p->axes[i] : i, rank, &a, err, errlen))
      return false;
    if (seen[a])
      return nc_kerr(err, errlen, "slice: axis %d repeated", a);
    seen[a] = true;
    int64_t dim = x_shape[a], s = p->starts[i], e = p->ends[i], st = p->steps ? p->steps[i] : 1;
    if (st == 0)
      return nc_kerr(err, errlen, "slice: step 0 on axis %d", a);
    if (s < 0)
      s += dim; /* cannot overflow: dim >= 0 */
    if (e < 0)
      e += dim;
    if (st > 0) {
      s = s < 0 ? 0 : s > dim ? dim : s;
      e = e < 0 ? 0 : e > dim ? dim : e;
    } else {
      s = s < 0 ? 0 : s > dim - 1 ? dim - 1 : s;
      e = e < -1 ? -1 : e > dim - 1 ? dim - 1 : e;
    }
    int64_t n;
    if (dim == 0)
      n = 0;
    else if (st > 0)
      n = e > s ? (e - s - 1) / st + 1 : 0;
    else
      n = s > e ? (s - e - 1) / (st == INT64_MIN ? INT64_MAX : -st) + 1 : 0;
    start[a] = n ? s : 0;
    step[a] = n > 1 ? st : st > 0 ? 1 : -1; /* |st| < dim when n > 1: no overflow later */
    len[a] = n;
  }
  return true;
}

bool nc_kernel_slice_shape(const nc_slice_params *p, int rank, const int64_t *x_shape, int64_t *out_shape,
                           char *err, size_t errlen)
{
  if (!p)
    return nc_kerr(err, errlen, "slice_shape: missing parameters");
  int64_t start[NC_TENSOR_MAX_RANK], step[NC_TENSOR_MAX_RANK];
  return slice_resolve(p, rank, x_shape, start, step, out_shape, err, errlen);
}

bool nc_kernel_slice(const nc_slice_params *p, const nc_tensor *x, nc_tensor *y, char *err, size_t errlen)
{
  if (!p)
    return nc_kerr(err, errlen, "slice: missing parameters");
  if (!nc_k_check_in("slice", "X", x, err, errlen))
    return false;
  int64_t start[NC_TENSOR_MAX_RANK], step[NC_TENSOR_MAX_RANK], len[NC_TENSOR_MAX_RANK];
  if (!slice_resolve(p, x->rank, x->shape, start, step, len, err, errlen) ||
      !nc_k_check_out("slice", y, x->dtype, x->rank, len, err, errlen))
    return false;
  int64_t xst[NC_TENSOR_MAX_RANK], st[NC_TENSOR_MAX_RANK], base = 0;
  row_strides(x->rank, x->shape, xst);
  for (int d = 0; d < x->rank; d++) {
    base += start[d] * xst[d];
    st[d] = step[d] * xst[d];
  }
  strided_copy(nc_dtype_size(x->dtype), x->rank, len, x->data, base, st, y->data);
  return true;
}

/* --- reshape family -------------------------------------------------------------- */

bool nc_kernel_reshape_shape(int rank, const int64_t *x_shape, int n, const int64_t *shape, bool allowzero,
                             int64_t *out_shape, char *err, size_t errlen)
{
  if (n < 0 || n > NC_TENSOR_MAX_RANK)
    return nc_kerr(err, errlen, "reshape: target rank %d out of range", n);
  int64_t total = nc_k_numel(rank, x_shape);
  if (total < 0)
    return nc_kerr(err, errlen, "reshape: bad input shape");
  int infer = -1;
  bool has_zero = false;
  int64_t known = 1;
  for (int i = 0; i < n; i++) {
    int64_t d = shape[i];
    if (d == -1) {
      if (infer >= 0)
        return nc_kerr(err, errlen, "reshape: more than one -1 in shape");
      infer = i;
      continue;
    }
    if (d < -1)
      return nc_kerr(err, errlen, "reshape: invalid dim %lld", (long long)d);
    if (d == 0 && !allowzero) {
      if (i >= rank)
        return nc_kerr(err, errlen, "reshape: 0 at index %d copies a dim the input (rank %d) lacks", i, rank);
      d = x_shape[i];
    }
    has_zero |= d == 0;
    out_shape[i] = d;
    if (d && known > INT64_MAX / d)
      return nc_kerr(err, errlen, "reshape: shape too large");
    known *= d;
  }
  if (infer >= 0) {
    if (allowzero && has_zero)
      return nc_kerr(err, errlen, "reshape: -1 with a 0 dim under allowzero");
    if (known == 0 || total % known)
      return nc_kerr(err, errlen, "reshape: cannot infer -1: %lld elements into blocks of %lld", (long long)total,
                     (long long)known);
    out_shape[infer] = total / known;
  } else if (known != total) {
    return nc_kerr(err, errlen, "reshape: %lld elements cannot take a shape of %lld", (long long)total,
                   (long long)known);
  }
  return true;
}

bool nc_kernel_reshape(const nc_tensor *x, nc_tensor *y, char *err, size_t errlen)
{
  if (!nc_k_check_in("reshape", "X", x, err, errlen) || !nc_k_check_in("reshape", "output", y, err, errlen))
    return false;
  if (x->dtype != y->dtype || nc_tensor_num_elements(x) != nc_tensor_num_elements(y))
    return nc_kerr(err, errlen, "reshape: output must have X's dtype and element count");
  if (x->data != y->data)
    memcpy(y->data, x->data, nc_tensor_num_bytes(x));
  return true;
}

bool nc_kernel_flatten_shape(int64_t axis, int rank, const int64_t *x_shape, int64_t *out_shape, char *err,
                             size_t errlen)
{
  if (rank < 0 || rank > NC_TENSOR_MAX_RANK || axis < -rank || axis > rank)
    return nc_kerr(err, errlen, "flatten: axis %lld out of range for rank %d", (long long)axis, rank);
  int a = (int)(axis < 0 ? axis + rank : axis);
  int64_t l = nc_k_numel(a, x_shape), r = nc_k_numel(rank - a, x_shape + a);
  if (l < 0 || r < 0)
    return nc_kerr(err, errlen, "flatten: bad input shape");
  out_shape[0] = l;
  out_shape[1] = r;
  return true;
}

bool nc_kernel_squeeze_shape(int naxes, const int64_t *axes, int rank, const int64_t *x_shape, int *out_rank,
                             int64_t *out_shape, char *err, size_t errlen)
{
  if (rank < 0 || rank > NC_TENSOR_MAX_RANK || naxes < 0 || (naxes && !axes))
    return nc_kerr(err, errlen, "squeeze: bad arguments");
  bool drop[NC_TENSOR_MAX_RANK] = {false};
  for (int i = 0; i < naxes; i++) {
    int a;
    if (!nc_k_axis("squeeze", axes[i], rank, &a, err, errlen))
      return false;
    if (drop[a])
      return nc_kerr(err, errlen, "squeeze: axis %d repeated", a);
    if (x_shape[a] != 1)
      return nc_kerr(err, errlen, "squeeze: dim %d has size %lld, not 1", a, (long long)x_shape[a]);
    drop[a] = true;
  }
  int r = 0;
  for (int i = 0; i < rank; i++)
    if (!(naxes ? drop[i] : x_shape[i] == 1))
      out_shape[r++] = x_shape[i];
  *out_rank = r;
  return true;
}

bool nc_kernel_unsqueeze_shape(int naxes, const int64_t *axes, int rank, const int64_t *x_shape, int *out_rank,
                               int64_t *out_shape, char *err, size_t errlen)
{
  if (rank < 0 || naxes < 0 || (naxes && !axes) || rank + naxes > NC_TENSOR_MAX_RANK)
    return nc_kerr(err, errlen, "unsqueeze: result rank %d too large", rank + naxes);
  int r = rank + naxes;
  bool ins[NC_TENSOR_MAX_RANK] = {false};
  for (int i = 0; i < naxes; i++) {
    int a;
    if (!nc_k_axis("unsqueeze", axes[i], r, &a, err, errlen))
      return false;
    if (ins[a])
      return nc_kerr(err, errlen, "unsqueeze: axis %d repeated", a);
    ins[a] = true;
  }
  for (int i = 0, j = 0; i < r; i++)
    out_shape[i] = ins[i] ? 1 : x_shape[j++];
  *out_rank = r;
  return true;
}

/* --- transpose ------------------------------------------------------------------- */

static bool perm_resolve(const int64_t *perm, int rank, int64_t *pm, char *err, size_t errlen)
{
  if (rank < 0 || rank > NC_TENSOR_MAX_RANK)
    return nc_kerr(err, errlen, "transpose: bad rank");
  bool seen[NC_TENSOR_MAX_RANK] = {false};
  for (int i = 0; i < rank; i++) {
    pm[i] = perm ? perm[i] : rank - 1 - i;
    if (pm[i] < 0 || pm[i] >= rank || seen[pm[i]])
      return nc_kerr(err, errlen, "transpose: perm is not a permutation of 0..%d", rank - 1);
    seen[pm[i]] = true;
  }
  return true;
}

bool nc_kernel_transpose_shape(const int64_t *perm, int rank, const int64_t *x_shape, int64_t *out_shape, char *err,
                               size_t errlen)
{
  int64_t pm[NC_TENSOR_MAX_RANK];
  if (!perm_resolve(perm, rank, pm, err, errlen))
    return false;
  for (int i = 0; i < rank; i++)
    out_shape[i] = x_shape[pm[i]];
  return true;
}

bool nc_kernel_transpose(const int64_t *perm, const nc_tensor *x, nc_tensor *y, char *err, size_t errlen)
{
  if (!nc_k_check_in("transpose", "X", x, err, errlen))
    return false;
  int64_t pm[NC_TENSOR_MAX_RANK], ys[NC_TENSOR_MAX_RANK];
  if (!perm_resolve(perm, x->rank, pm, err, errlen))
    return false;
  for (int i = 0; i < x->rank; i++)
    ys[i] = x->shape[pm[i]];
  if (!nc_k_check_out("transpose", y, x->dtype, x->rank, ys, err, errlen))
    return false;
  int64_t xst[NC_TENSOR_MAX_RANK], st[NC_TENSOR_MAX_RANK];
  row_strides(x->rank, x->shape, xst);
  for (int i = 0; i < x->rank; i++)
    st[i] = xst[pm[i]];
  strided_copy(nc_dtype_size(x->dtype), x->rank, ys, x->data, 0, st, y->data);
  return true;
}

/* --- pad ------------------------------------------------------------------------- */

bool nc_pad_mode_from_string(const char *s, nc_pad_mode *out)
{
  static const char *const names[] = {"constant", "reflect", "edge", "wrap"};
  int i = nc_k_enum_from_string(s, names, NC_COUNTOF(names));
  if (i < 0)
    return false;
  *out = (nc_pad_mode)i;
  return true;
}

/* Per-dim begin/end pads (zero for dims not in axes). */
static bool pad_resolve(const nc_pad_params *p, int rank, const int64_t *x_shape, int64_t *pb, int64_t *pe,
                        int64_t *out, char *err, size_t errlen)
{
  if (rank < 0 || rank > NC_TENSOR_MAX_RANK)
    return nc_kerr(err, errlen, "pad: bad rank");
  if ((int)p->mode < 0 || p->mode > NC_PAD_WRAP)
    return nc_kerr(err, errlen, "pad: bad mode");
  int na = p->naxes ? p->naxes : rank;
  if (p->naxes < 0 || p->naxes > rank || (p->naxes && !p->axes) || (na && !p->pads))
    return nc_kerr(err, errlen, "pad: bad axes or pads");
  bool seen[NC_TENSOR_MAX_RANK] = {false};
  for (int d = 0; d < rank; d++)
    pb[d] = pe[d] = 0;
  for (int i = 0; i < na; i++) {
    int a = i;
    if (p->naxes && !nc_k_axis("pad", p->axes[i], rank, &a, err, errlen))
      return false;
    if (seen[a])
      return nc_kerr(err, errlen, "pad: axis %d repeated", a);
    seen[a] = true;
    pb[a] = p->pads[i];
    pe[a] = p->pads[na + i];
  }
  for (int d = 0; d < rank; d++) {
    int64_t dim = x_shape[d];
    if (dim < 0 || dim > INT64_MAX / 4 || pb[d] > INT64_MAX / 4 || pe[d] > INT64_MAX / 4 || pb[d] < -dim || pe[d] < -dim ||
        dim + pb[d] + pe[d] < 0)
      return nc_kerr(err, errlen, "pad: pads (%lld, %lld) invalid for dim %d of size %lld", (long long)pb[d],
                     (long long)pe[d], d, (long long)dim);
    int64_t crop = (pb[d] < 0 ? -pb[d] : 0) + (pe[d] < 0 ? -pe[d] : 0);
    if (crop > dim)
      return nc_kerr(err, errlen, "pad: dim %d crops %lld of %lld elements", d, (long long)crop, (long long)dim);
    if (p->mode != NC_PAD_CONSTANT && dim - crop == 0 && (pb[d] > 0 || pe[d] > 0))
      return nc_kerr(err, errlen, "pad: cannot pad an empty dim %d in a non-constant mode", d);
    out[d] = dim + pb[d] + pe[d];
  }
  return true;
}

bool nc_kernel_pad_shape(const nc_pad_params *p, int rank, const int64_t *x_shape, int64_t *out_shape, char *err,
                         size_t errlen)
{
  if (!p)
    return nc_kerr(err, errlen, "pad_shape: missing parameters");
  int64_t pb[NC_TENSOR_MAX_RANK], pe[NC_TENSOR_MAX_RANK];
  return pad_resolve(p, rank, x_shape, pb, pe, out_shape, err, errlen);
}

/* Source index along one dim for output position o, or -1 for the constant. */
static int64_t pad_map(nc_pad_mode mode, int64_t o, int64_t pb, int64_t dim, int64_t pe)
{
  int64_t cb = pb < 0 ? -pb : 0, ce = pe < 0 ? -pe : 0, len = dim - cb - ce;
  int64_t q = o - (pb > 0 ? pb : 0);
  if (q >= 0 && q < len)
    return cb + q;
  switch (mode) {
  case NC_PAD_EDGE: return cb + (q < 0 ? 0 : len - 1);
  case NC_PAD_WRAP: return cb + ((q % len) + len) % len;
  case NC_PAD_REFLECT: {
    if (len == 1)
      return cb;
    int64_t period = 2 * (len - 1), r = ((q % period) + period) % period;
    return cb + (r >= len ? period - r : r);
  }
  default: return -1;
  }
}

bool nc_kernel_pad(const nc_pad_params *p, const nc_tensor *x, const nc_tensor *value, nc_tensor *y, char *err,
                   size_t errlen)
{
  if (!p)
    return nc_kerr(err, errlen, "pad: missing parameters");
  if (!nc_k_check_in("pad", "X", x, err, errlen))
    return false;
  int64_t pb[NC_TENSOR_MAX_RANK], pe[NC_TENSOR_MAX_RANK], ys[NC_TENSOR_MAX_RANK];
  if (!pad_resolve(p, x->rank, x->shape, pb, pe, ys, err, errlen) ||
      !nc_k_check_out("pad", y, x->dtype, x->rank, ys, err, errlen))
    return false;
  if (value && (!nc_k_check_in("pad", "constant_value", value, err, errlen) || value->dtype != x->dtype ||
                nc_tensor_num_elements(value) != 1))
    return nc_kerr(err, errlen, "pad: constant_value must be one element of dtype %s", nc_dtype_name(x->dtype));
  size_t es = nc_dtype_size(x->dtype);
  char fill[8] = {0};
  if (value && p->mode == NC_PAD_CONSTANT)
    memcpy(fill, value->data, es);
  int64_t n = nc_tensor_num_elements(y);
  if (n == 0)
    return true;
  if (x->rank == 0) {
    memcpy(y->data, x->data, es);
    return true;
  }
  int rank = x->rank;
  int64_t xst[NC_TENSOR_MAX_RANK], total = 0;
  row_strides(rank, x->shape, xst);
  int64_t *map[NC_TENSOR_MAX_RANK];
  for (int d = 0; d < rank; d++)
    total += ys[d];
  int64_t *maps = nc_xmalloc((size_t)total * sizeof(int64_t));
  for (int d = 0, o = 0; d < rank; o += (int)ys[d], d++) {
    map[d] = maps + o;
    for (int64_t i = 0; i < ys[d]; i++)
      map[d][i] = pad_map(p->mode, i, pb[d], x->shape[d], pe[d]);
  }
  int64_t inner = ys[rank - 1], rows = n / inner, idx[NC_TENSOR_MAX_RANK] = {0};
  const char *src = x->data;
  char *dst = y->data;
  for (int64_t r = 0; r < rows; r++, dst += (size_t)inner * es) {
    int64_t off = 0;
    bool constant_row = false;
    for (int d = 0; d < rank - 1; d++) {
      int64_t m = map[d][idx[d]];
      constant_row |= m < 0;
      off += m * xst[d];
    }
    const int64_t *mi = map[rank - 1];
    for (int64_t i = 0; i < inner; i++) {
      const char *s = constant_row || mi[i] < 0 ? fill : src + (size_t)(off + mi[i]) * es;
      memcpy(dst + (size_t)i * es, s, es);
    }
    for (int d = rank - 2; d >= 0; d--) {
      if (++idx[d] < ys[d])
        break;
      idx[d] = 0;
    }
  }
  free(maps);
  return true;
}
