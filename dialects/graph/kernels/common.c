/* common.c: helpers every kernel file shares: shape and dtype checks,
 * f16/bf16 staging buffers, and the window geometry (output size and
 * resolved pads) of convolutions and pooling, which ONNX defines once for all
 * of them. (Error messages: nc_kerr, i.e. nc_error_format.) */
#include "kernels_internal.h"

#include <stdio.h>
#include <stdlib.h>

int64_t nc_k_numel(int rank, const int64_t *shape)
{
  int64_t n = 1;
  for (int i = 0; i < rank; i++) {
    if (shape[i] < 0)
      return -1;
    if (shape[i] && n > INT64_MAX / shape[i])
      return -1;
    n *= shape[i];
  }
  return n;
}

static void format_shape(char *buf, size_t len, int rank, const int64_t *shape)
{
  size_t o = 0;
  o += (size_t)snprintf(buf + o, len - o, "[");
  for (int i = 0; i < rank && o < len; i++)
    o += (size_t)snprintf(buf + o, len - o, "%s%lld", i ? "," : "", (long long)shape[i]);
  if (o < len)
    snprintf(buf + o, len - o, "]");
}

bool nc_k_check_in(const char *op, const char *what, const nc_tensor *t, char *err, size_t errlen)
{
  if (!t)
    return nc_kerr(err, errlen, "%s: missing %s", op, what);
  if (t->rank < 0 || t->rank > NC_TENSOR_MAX_RANK || t->dtype >= NC_DT_COUNT || !t->data)
    return nc_kerr(err, errlen, "%s: malformed %s tensor", op, what);
  if (nc_k_numel(t->rank, t->shape) < 0)
    return nc_kerr(err, errlen, "%s: %s has a negative dim", op, what);
  return true;
}

bool nc_k_check_out(const char *op, const nc_tensor *y, nc_dtype dt, int rank, const int64_t *shape, char *err,
                    size_t errlen)
{
  if (!nc_k_check_in(op, "output", y, err, errlen))
    return false;
  if (y->dtype != dt)
    return nc_kerr(err, errlen, "%s: output dtype is %s, expected %s", op, nc_dtype_name(y->dtype),
                   nc_dtype_name(dt));
  bool same = y->rank == rank;
  for (int i = 0; same && i < rank; i++)
    same = y->shape[i] == shape[i];
  if (!same) {
    char got[160], want[160];
    format_shape(got, sizeof got, y->rank, y->shape);
    format_shape(want, sizeof want, rank, shape);
    return nc_kerr(err, errlen, "%s: output shape is %s, expected %s", op, got, want);
  }
  return true;
}

bool nc_k_axis(const char *op, int64_t axis, int rank, int *out, char *err, size_t errlen)
{
  if (axis < -rank || axis >= rank)
    return nc_kerr(err, errlen, "%s: axis %lld out of range for rank %d", op, (long long)axis, rank);
  *out = (int)(axis < 0 ? axis + rank : axis);
  return true;
}

void nc_k_int_range(nc_dtype dt, int64_t *lo, int64_t *hi)
{
  switch (dt) {
  case NC_DT_I2: *lo = -2; *hi = 1; break;
  case NC_DT_U2: *lo = 0; *hi = 3; break;
  case NC_DT_I4: *lo = -8; *hi = 7; break;
  case NC_DT_U4: *lo = 0; *hi = 15; break;
  case NC_DT_I8: *lo = INT8_MIN; *hi = INT8_MAX; break;
  case NC_DT_U8: *lo = 0; *hi = UINT8_MAX; break;
  case NC_DT_I16: *lo = INT16_MIN; *hi = INT16_MAX; break;
  case NC_DT_U16: *lo = 0; *hi = UINT16_MAX; break;
  case NC_DT_I32: *lo = INT32_MIN; *hi = INT32_MAX; break;
  case NC_DT_U32: *lo = 0; *hi = UINT32_MAX; break;
  case NC_DT_BOOL: *lo = 0; *hi = 1; break;
  case NC_DT_U64: *lo = 0; *hi = INT64_MAX; break;
  default: *lo = INT64_MIN; *hi = INT64_MAX; break;
  }
}

float *nc_k_to_f32(const nc_tensor *t)
{
  int64_t n = nc_tensor_num_elements(t);
  float *f = nc_xmalloc((size_t)(n ? n : 1) * sizeof(float));
  for (int64_t i = 0; i < n; i++)
    f[i] = (float)nc_elem_load_f64(t->data, t->dtype, i);
  return f;
}

void nc_k_from_f32(const float *src, int64_t n, void *dst, nc_dtype dt)
{
  for (int64_t i = 0; i < n; i++)
    nc_elem_store_f64(dst, dt, i, src[i]);
}

int nc_k_enum_from_string(const char *s, const char *const *names, size_t n)
{
  if (!s || !*s)
    return 0;
  for (size_t i = 0; i < n; i++)
    if (!strcmp(s, names[i]))
      return (int)i;
  return -1;
}

bool nc_auto_pad_from_string(const char *s, nc_auto_pad *out)
{
  static const char *const names[] = {"NOTSET", "SAME_UPPER", "SAME_LOWER", "VALID"};
  int i = nc_k_enum_from_string(s, names, NC_COUNTOF(names));
  if (i < 0)
    return false;
  *out = (nc_auto_pad)i;
  return true;
}

/* --- window geometry ------------------------------------------------------- */

static int64_t floor_div(int64_t a, int64_t b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }

bool nc_k_window_dim(nc_auto_pad ap, int64_t in, int64_t k, int64_t s, int64_t d, int64_t pb_attr, int64_t pe_attr,
                     bool ceil_mode, int64_t *pb, int64_t *pe, int64_t *out)
{
  int64_t ek = d * (k - 1) + 1;
  if (ap == NC_AUTO_PAD_SAME_UPPER || ap == NC_AUTO_PAD_SAME_LOWER) {
    int64_t o = (in + s - 1) / s;
    int64_t total = (o - 1) * s + ek - in;
    if (total < 0)
      total = 0;
    int64_t small = total / 2, big = total - small;
    *pb = ap == NC_AUTO_PAD_SAME_UPPER ? small : big;
    *pe = ap == NC_AUTO_PAD_SAME_UPPER ? big : small;
    *out = o;
    return o >= 1;
  }
  if (ap == NC_AUTO_PAD_VALID)
    pb_attr = pe_attr = 0;
  *pb = pb_attr;
  *pe = pe_attr;
  int64_t span = in + pb_attr + pe_attr - ek;
  if (span < 0)
    return false;
  int64_t o = (ceil_mode ? floor_div(span + s - 1, s) : span / s) + 1;
  if (ceil_mode && (o - 1) * s >= in + pb_attr)
    o--; /* the last window would start inside the end padding */
  *out = o;
  return o >= 1;
}

bool nc_k_geom_begin(const char *op, int rank, const int64_t *x_shape, const int64_t *w_shape, nc_conv_geom *g,
                     char *err, size_t errlen)
{
  if (rank < 3 || rank > 2 + NC_KERNEL_MAX_SPATIAL)
    return nc_kerr(err, errlen, "%s: input rank %d, expected 3 to 5", op, rank);
  for (int i = 0; i < rank; i++)
    if (x_shape[i] < 0 || w_shape[i] < 0)
      return nc_kerr(err, errlen, "%s: negative dim", op);
  memset(g, 0, sizeof *g);
  g->nsp = rank - 2;
  g->n = x_shape[0];
  g->c = x_shape[1];
  return true;
}

bool nc_k_conv_geom(const char *op, const nc_conv_params *p, int rank, const int64_t *x_shape,
                    const int64_t *w_shape, nc_conv_geom *g, char *err, size_t errlen)
{
  if (!nc_k_geom_begin(op, rank, x_shape, w_shape, g, err, errlen))
    return false;
  g->m = w_shape[0];
  g->group = p->group ? p->group : 1;
  if (g->group < 1)
    return nc_kerr(err, errlen, "%s: group %lld must be positive", op, (long long)g->group);
  if (g->c % g->group || g->m % g->group)
    return nc_kerr(err, errlen, "%s: channels (in %lld, out %lld) not divisible by group %lld", op,
                   (long long)g->c, (long long)g->m, (long long)g->group);
  if (w_shape[1] != g->c / g->group)
    return nc_kerr(err, errlen, "%s: W has %lld input channels per group, expected %lld", op,
                   (long long)w_shape[1], (long long)(g->c / g->group));
  bool explicit_kernel = false;
  for (int i = 0; i < g->nsp; i++)
    explicit_kernel |= p->kernel_shape[i] != 0;
  int off = NC_KERNEL_MAX_SPATIAL - g->nsp;
  for (int i = 0; i < NC_KERNEL_MAX_SPATIAL; i++) {
    g->in[i] = g->k[i] = g->s[i] = g->d[i] = g->out[i] = 1;
    g->pb[i] = g->pe[i] = 0;
  }
  for (int i = 0; i < g->nsp; i++) {
    int j = off + i;
    if (explicit_kernel && p->kernel_shape[i] != w_shape[2 + i])
      return nc_kerr(err, errlen, "%s: kernel_shape[%d] = %lld does not match W (%lld)", op, i,
                     (long long)p->kernel_shape[i], (long long)w_shape[2 + i]);
    g->in[j] = x_shape[2 + i];
    g->k[j] = w_shape[2 + i];
    g->s[j] = p->strides[i] ? p->strides[i] : 1;
    g->d[j] = p->dilations[i] ? p->dilations[i] : 1;
    if (g->k[j] < 1)
      return nc_kerr(err, errlen, "%s: kernel dim %d is %lld", op, i, (long long)g->k[j]);
    if (g->s[j] < 1 || g->d[j] < 1)
      return nc_kerr(err, errlen, "%s: strides and dilations must be positive", op);
    int64_t pbi = p->pads[i], pei = p->pads[g->nsp + i];
    if (p->auto_pad == NC_AUTO_PAD_NOTSET && (pbi < 0 || pei < 0))
      return nc_kerr(err, errlen, "%s: negative pads", op);
    if ((int)p->auto_pad < 0 || p->auto_pad > NC_AUTO_PAD_VALID)
      return nc_kerr(err, errlen, "%s: bad auto_pad", op);
    if (g->k[j] > (INT64_MAX / 4) / g->d[j] || g->in[j] > INT64_MAX / 4 || pbi > INT64_MAX / 4 ||
        pei > INT64_MAX / 4 || g->s[j] > INT64_MAX / 4)
      return nc_kerr(err, errlen, "%s: attribute out of range", op);
    if (!nc_k_window_dim(p->auto_pad, g->in[j], g->k[j], g->s[j], g->d[j], pbi, pei, false, &g->pb[j], &g->pe[j],
                         &g->out[j]))
      return nc_kerr(err, errlen, "%s: dilated kernel (%lld) larger than padded input (%lld) in spatial dim %d",
                     op, (long long)(g->d[j] * (g->k[j] - 1) + 1), (long long)(g->in[j] + g->pb[j] + g->pe[j]), i);
  }
  return true;
}

void nc_k_geom_out_shape(const nc_conv_geom *g, int64_t *out_shape)
{
  out_shape[0] = g->n;
  out_shape[1] = g->m;
  for (int i = 0; i < g->nsp; i++)
    out_shape[2 + i] = g->out[NC_KERNEL_MAX_SPATIAL - g->nsp + i];
}

/* Offsets over columns [j0, j0+nj) of kernel position kk of channel 0. */
static void im2col_offsets(const nc_conv_geom *g, int64_t kk, int64_t j0, int64_t nj, int64_t *off)
{
  int64_t r = kk;
  int64_t kw = r % g->k[2];
  r /= g->k[2];
  int64_t kh = r % g->k[1], kd = r / g->k[1];
  int64_t ow = j0 % g->out[2], t = j0 / g->out[2];
  int64_t oh = t % g->out[1], od = t / g->out[1];
  int64_t iw0 = kw * g->d[2] - g->pb[2];
  for (int64_t j = 0; j < nj;) {
    int64_t seg = g->out[2] - ow < nj - j ? g->out[2] - ow : nj - j;
    int64_t id = od * g->s[0] - g->pb[0] + kd * g->d[0];
    int64_t ih = oh * g->s[1] - g->pb[1] + kh * g->d[1];
    if (id < 0 || id >= g->in[0] || ih < 0 || ih >= g->in[1]) {
      for (int64_t t2 = 0; t2 < seg; t2++)
        off[j + t2] = -1;
    } else {
      int64_t rowbase = (id * g->in[1] + ih) * g->in[2];
      int64_t iw = ow * g->s[2] + iw0;
      for (int64_t t2 = 0; t2 < seg; t2++, iw += g->s[2])
        off[j + t2] = iw >= 0 && iw < g->in[2] ? rowbase + iw : -1;
    }
    j += seg;
    ow = 0;
    if (++oh == g->out[1]) {
      oh = 0;
      od++;
    }
  }
}

void nc_k_im2col_init(nc_im2col *ic, const nc_conv_geom *g, int64_t cap)
{
  ic->g = g;
  ic->kprod = g->k[0] * g->k[1] * g->k[2];
  ic->inhw = g->in[0] * g->in[1] * g->in[2];
  ic->cap = cap;
  ic->j0 = 0;
  ic->nj = -1;
  ic->off = nc_xmalloc((size_t)(ic->kprod * cap) * sizeof(int64_t));
}

const int64_t *nc_k_im2col_row(nc_im2col *ic, int64_t kk, int64_t j0, int64_t nj, int64_t *chan_off)
{
  if (ic->j0 != j0 || ic->nj != nj) {
    for (int64_t r = 0; r < ic->kprod; r++)
      im2col_offsets(ic->g, r, j0, nj, ic->off + r * ic->cap);
    ic->j0 = j0;
    ic->nj = nj;
  }
  *chan_off = kk / ic->kprod * ic->inhw;
  return ic->off + kk % ic->kprod * ic->cap;
}

void nc_k_im2col_free(nc_im2col *ic)
{
  free(ic->off);
  ic->off = NULL;
}

void nc_k_valid_range(int64_t base, int64_t s, int64_t in, int64_t out, int64_t *lo, int64_t *hi)
{
  int64_t l = base >= 0 ? 0 : (-base + s - 1) / s;
  int64_t h = in - 1 - base < 0 ? 0 : (in - 1 - base) / s + 1;
  *lo = l < out ? l : out;
  *hi = h < out ? h : out;
  if (*hi < *lo)
    *hi = *lo;
}
