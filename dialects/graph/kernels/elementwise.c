/* elementwise.c: binary, variadic and unary elementwise kernels, Clip, PRelu
 * and Expand, all with numpy broadcasting.
 *
 * Broadcasting is done once per call: operand strides (0 on broadcast dims)
 * are aligned to the output, adjacent dims that stay contiguous are merged,
 * and a row function runs over the innermost dim. f32/f64 rows have tight
 * loops specialised on the op and on which operand is broadcast, so gcc
 * vectorizes them; f16/bf16 compute in f32; integers run an exact 64-bit
 * path that wraps to the dtype.
 */
#include "kernels_internal.h"

#include <stdlib.h>

/* --- broadcasting ----------------------------------------------------------- */

bool nc_kernel_broadcast_shape(int a_rank, const int64_t *a_shape, int b_rank, const int64_t *b_shape,
                               int *out_rank, int64_t *out_shape, char *err, size_t errlen)
{
  int r = a_rank > b_rank ? a_rank : b_rank;
  if (a_rank < 0 || b_rank < 0 || r > NC_TENSOR_MAX_RANK)
    return nc_kerr(err, errlen, "broadcast: bad rank");
  int64_t out[NC_TENSOR_MAX_RANK]; /* out_shape may alias an input */
  for (int i = 0; i < r; i++) {
    int ia = i - (r - a_rank), ib = i - (r - b_rank);
    int64_t da = ia >= 0 ? a_shape[ia] : 1, db = ib >= 0 ? b_shape[ib] : 1;
    if (da < 0 || db < 0)
      return nc_kerr(err, errlen, "broadcast: negative dim");
    if (da != db && da != 1 && db != 1)
      return nc_kerr(err, errlen, "broadcast: dims %lld and %lld at output axis %d are incompatible",
                     (long long)da, (long long)db, i);
    out[i] = da == 1 ? db : da;
  }
  memcpy(out_shape, out, (size_t)r * sizeof(int64_t));
  *out_rank = r;
  return true;
}

#define MAX_OPS 3

/* An iteration space: shape plus per-operand element strides (0 = broadcast). */
typedef struct bc_iter {
  int rank, nops;
  int64_t shape[NC_TENSOR_MAX_RANK];
  int64_t st[MAX_OPS][NC_TENSOR_MAX_RANK];
} bc_iter;

/* Operand i of rank ranks[i] broadcast to the output shape (contiguous output
 * is operand nops-1 and must have the output shape itself). */
static void bc_setup(bc_iter *it, int nops, int rank, const int64_t *shape, const int *ranks,
                     const int64_t *const *shapes)
{
  it->nops = nops;
  for (int o = 0; o < nops; o++) {
    int64_t s = 1;
    for (int i = rank - 1; i >= 0; i--) {
      int io = i - (rank - ranks[o]);
      int64_t d = io >= 0 ? shapes[o][io] : 1;
      it->st[o][i] = d == 1 ? 0 : s;
      s *= d;
    }
  }
  /* merge dim i into i+1 when every operand walks them as one */
  int r = 0;
  int64_t sh[NC_TENSOR_MAX_RANK], st[MAX_OPS][NC_TENSOR_MAX_RANK];
  for (int i = 0; i < rank; i++) {
    if (shape[i] == 1 && rank > 1)
      continue; /* size-1 dims do not move anything */
    bool merge = r > 0;
    for (int o = 0; o < nops && merge; o++)
      merge = st[o][r - 1] == it->st[o][i] * shape[i];
    if (merge) {
      sh[r - 1] *= shape[i];
      for (int o = 0; o < nops; o++)
        st[o][r - 1] = it->st[o][i];
    } else {
      sh[r] = shape[i];
      for (int o = 0; o < nops; o++)
        st[o][r] = it->st[o][i];
      r++;
    }
  }
  if (r == 0) { /* rank 0 or all ones */
    sh[0] = 1;
    for (int o = 0; o < nops; o++)
      st[o][0] = 0;
    r = 1;
  }
  it->rank = r;
  memcpy(it->shape, sh, sizeof sh);
  memcpy(it->st, st, sizeof st);
}

typedef void bc_row_fn(void *ctx, int64_t n, const int64_t *off, const int64_t *inc);

/* Calls fn once per innermost row with each operand's starting offset and stride. */
static void bc_run(const bc_iter *it, bc_row_fn *fn, void *ctx)
{
  int r = it->rank;
  for (int i = 0; i < r; i++)
    if (it->shape[i] == 0)
      return;
  int64_t idx[NC_TENSOR_MAX_RANK] = {0}, off[MAX_OPS] = {0}, inc[MAX_OPS];
  for (int o = 0; o < it->nops; o++)
    inc[o] = it->st[o][r - 1];
  int64_t rows = 1;
  for (int i = 0; i < r - 1; i++)
    rows *= it->shape[i];
  for (int64_t t = 0; t < rows; t++) {
    fn(ctx, it->shape[r - 1], off, inc);
    for (int i = r - 2; i >= 0; i--) {
      for (int o = 0; o < it->nops; o++)
        off[o] += it->st[o][i];
      if (++idx[i] < it->shape[i])
        break;
      for (int o = 0; o < it->nops; o++)
        off[o] -= it->st[o][i] * it->shape[i];
      idx[i] = 0;
    }
  }
}

/* --- binary rows -------------------------------------------------------------- */

typedef struct bin_ctx {
  nc_binary_op op;
  nc_dtype dt, bdt; /* a/y dtype, b dtype */
  const void *a, *b;
  void *y;
} bin_ctx;

/* One loop per broadcast pattern so that each vectorizes. */
#define BIN_LOOP(T, EXPR)                                                                   \
  do {                                                                                      \
    if (sa && sb)                                                                           \
      NC_VLOOP(i, n, T x = a[i]; T z = b[i]; y[i] = (EXPR));                                \
    else if (sa) {                                                                          \
      T z = b[0];                                                                           \
      NC_VLOOP(i, n, T x = a[i]; y[i] = (EXPR));                                            \
    } else if (sb) {                                                                        \
      T x = a[0];                                                                           \
      NC_VLOOP(i, n, T z = b[i]; y[i] = (EXPR));                                            \
    } else {                                                                                \
      T x = a[0], z = b[0];                                                                 \
      T v = (EXPR);                                                                         \
      NC_VLOOP(i, n, y[i] = v);                                                             \
    }                                                                                       \
  } while (0)

#define BIN_FLOAT_ROW(T, POW, FMOD, NAME)                                                    \
  static void NAME(nc_binary_op op, int64_t n, const T *restrict a, bool sa, const T *restrict b, bool sb, \
                   T *restrict y)                                                            \
  {                                                                                          \
    switch (op) {                                                                            \
    case NC_BINARY_ADD: BIN_LOOP(T, x + z); break;                                           \
    case NC_BINARY_SUB: BIN_LOOP(T, x - z); break;                                           \
    case NC_BINARY_MUL: BIN_LOOP(T, x * z); break;                                           \
    case NC_BINARY_DIV: BIN_LOOP(T, x / z); break;                                           \
    case NC_BINARY_POW: BIN_LOOP(T, POW(x, z)); break;                                       \
    case NC_BINARY_MAX: BIN_LOOP(T, x != x ? x : z != z ? z : x > z ? x : z); break;         \
    case NC_BINARY_MIN: BIN_LOOP(T, x != x ? x : z != z ? z : x < z ? x : z); break;         \
    case NC_BINARY_FMOD: BIN_LOOP(T, FMOD(x, z)); break;                                     \
    case NC_BINARY_PRELU: BIN_LOOP(T, x < 0 ? z * x : x); break;                             \
    default: break;                                                                          \
    }                                                                                        \
  }

BIN_FLOAT_ROW(float, powf, fmodf, bin_row_f32)
BIN_FLOAT_ROW(double, pow, fmod, bin_row_f64)

/* Integer x^e, wrapping; negative e gives trunc(1/x^|e|). */
static uint64_t ipow(int64_t x, int64_t e)
{
  if (e < 0)
    return x == 1 ? 1 : x == -1 ? ((-e) % 2 ? (uint64_t)-1 : 1) : 0;
  uint64_t r = 1, b = (uint64_t)x;
  while (e) {
    if (e & 1)
      r *= b;
    b *= b;
    e >>= 1;
  }
  return r;
}

/* One integer op on 64-bit values (unsigned dtypes compare and divide unsigned). */
static int64_t int_op(nc_binary_op op, int64_t x, int64_t z, bool uns)
{
  uint64_t ux = (uint64_t)x, uz = (uint64_t)z;
  switch (op) {
  case NC_BINARY_ADD: return (int64_t)(ux + uz);
  case NC_BINARY_SUB: return (int64_t)(ux - uz);
  case NC_BINARY_MUL: return (int64_t)(ux * uz);
  case NC_BINARY_DIV:
    if (z == 0)
      return 0;
    if (uns)
      return (int64_t)(ux / uz);
    if (x == INT64_MIN && z == -1)
      return INT64_MIN;
    return x / z;
  case NC_BINARY_MOD:
  case NC_BINARY_FMOD: {
    if (z == 0)
      return 0;
    if (uns)
      return (int64_t)(ux % uz);
    if (z == -1)
      return 0;
    int64_t r = x % z;
    if (op == NC_BINARY_MOD && r != 0 && ((r < 0) != (z < 0)))
      r += z;
    return r;
  }
  case NC_BINARY_POW: return (int64_t)ipow(x, z);
  case NC_BINARY_MAX: return uns ? (ux > uz ? x : z) : (x > z ? x : z);
  case NC_BINARY_MIN: return uns ? (ux < uz ? x : z) : (x < z ? x : z);
  case NC_BINARY_PRELU: return x < 0 && !uns ? (int64_t)(ux * uz) : x;
  }
  return 0;
}

static void bin_row(void *ctxp, int64_t n, const int64_t *off, const int64_t *inc)
{
  bin_ctx *c = ctxp;
  bool sa = inc[0] != 0, sb = inc[1] != 0;
  if (c->dt == c->bdt && c->dt == NC_DT_F32) {
    bin_row_f32(c->op, n, (const float *)c->a + off[0], sa, (const float *)c->b + off[1], sb,
                (float *)c->y + off[2]);
    return;
  }
  if (c->dt == c->bdt && c->dt == NC_DT_F64) {
    bin_row_f64(c->op, n, (const double *)c->a + off[0], sa, (const double *)c->b + off[1], sb,
                (double *)c->y + off[2]);
    return;
  }
  bool bfloat = nc_k_is_float(c->bdt);
  if (nc_k_is_float(c->dt)) { /* f16/bf16, or a mixed-dtype Pow */
    bool narrow = c->dt != NC_DT_F64;
    for (int64_t i = 0; i < n; i++) {
      double x = nc_elem_load_f64(c->a, c->dt, off[0] + i * inc[0]);
      int64_t bi = off[1] + i * inc[1];
      double z = bfloat ? nc_elem_load_f64(c->b, c->bdt, bi) : (double)nc_elem_load_i64(c->b, c->bdt, bi);
      double v;
      if (narrow && c->op != NC_BINARY_POW) {
        float fx = (float)x, fz = (float)z, fv;
        bin_row_f32(c->op, 1, &fx, false, &fz, false, &fv);
        v = fv;
      } else if (c->op == NC_BINARY_POW) {
        v = pow(x, z);
      } else {
        bin_row_f64(c->op, 1, &x, false, &z, false, &v);
      }
      nc_elem_store_f64(c->y, c->dt, off[2] + i, v);
    }
    return;
  }
  bool uns = !nc_dtype_is_signed(c->dt);
  for (int64_t i = 0; i < n; i++) {
    int64_t x = nc_elem_load_i64(c->a, c->dt, off[0] + i * inc[0]);
    int64_t bi = off[1] + i * inc[1], v;
    if (bfloat) { /* integer base, float exponent: double pow, truncated */
      double d = pow((double)x, nc_elem_load_f64(c->b, c->bdt, bi));
      v = nc_f64_to_i64_saturating(d);
    } else {
      v = int_op(c->op, x, nc_elem_load_i64(c->b, c->bdt, bi), uns && c->op != NC_BINARY_POW);
    }
    nc_elem_store_i64(c->y, c->dt, off[2] + i, v);
  }
}

/* y = a op b over an already-checked broadcast (a may alias y). */
static void binary_run(nc_binary_op op, const nc_tensor *a, const nc_tensor *b, nc_tensor *y)
{
  bc_iter it;
  int ranks[3] = {a->rank, b->rank, y->rank};
  const int64_t *shapes[3] = {a->shape, b->shape, y->shape};
  bc_setup(&it, 3, y->rank, y->shape, ranks, shapes);
  bin_ctx c = {op, a->dtype, b->dtype, a->data, b->data, y->data};
  bc_run(&it, bin_row, &c);
}

static const char *binary_name(nc_binary_op op)
{
  static const char *names[] = {"add", "sub", "mul", "div", "pow", "max", "min", "mod", "fmod", "prelu"};
  return (unsigned)op < NC_COUNTOF(names) ? names[op] : "binary";
}

bool nc_kernel_binary(nc_binary_op op, const nc_tensor *a, const nc_tensor *b, nc_tensor *y, char *err,
                      size_t errlen)
{
  const char *name = binary_name(op);
  if ((unsigned)op > NC_BINARY_PRELU)
    return nc_kerr(err, errlen, "binary: unknown op %d", (int)op);
  if (!nc_k_check_in(name, "A", a, err, errlen) || !nc_k_check_in(name, "B", b, err, errlen))
    return false;
  if (a->dtype == NC_DT_BOOL || b->dtype == NC_DT_BOOL)
    return nc_kerr(err, errlen, "%s: bool operands are not supported", name);
  if (a->dtype != b->dtype && op != NC_BINARY_POW)
    return nc_kerr(err, errlen, "%s: operand dtypes differ (%s, %s)", name, nc_dtype_name(a->dtype),
                   nc_dtype_name(b->dtype));
  if (op == NC_BINARY_MOD && nc_k_is_float(a->dtype))
    return nc_kerr(err, errlen, "mod: float operands need fmod=1");
  int r;
  int64_t shape[NC_TENSOR_MAX_RANK];
  if (!nc_kernel_broadcast_shape(a->rank, a->shape, b->rank, b->shape, &r, shape, err, errlen))
    return false;
  if (op == NC_BINARY_PRELU) { /* the slope broadcasts to x, never the other way */
    bool same = r == a->rank;
    for (int i = 0; same && i < r; i++)
      same = shape[i] == a->shape[i];
    if (!same)
      return nc_kerr(err, errlen, "prelu: slope does not broadcast to X");
  }
  if (!nc_k_check_out(name, y, a->dtype, r, shape, err, errlen))
    return false;
  binary_run(op, a, b, y);
  return true;
}

bool nc_kernel_prelu(const nc_tensor *x, const nc_tensor *slope, nc_tensor *y, char *err, size_t errlen)
{
  return nc_kernel_binary(NC_BINARY_PRELU, x, slope, y, err, errlen);
}

/* --- variadic -------------------------------------------------------------- */

bool nc_kernel_variadic_shape(int n, const int *ranks, const int64_t *const *shapes, int *out_rank,
                              int64_t *out_shape, char *err, size_t errlen)
{
  if (n < 1)
    return nc_kerr(err, errlen, "variadic: needs at least one input");
  int r = ranks[0];
  if (r < 0 || r > NC_TENSOR_MAX_RANK)
    return nc_kerr(err, errlen, "variadic: bad rank");
  int64_t cur[NC_TENSOR_MAX_RANK];
  memcpy(cur, shapes[0], (size_t)r * sizeof(int64_t));
  for (int i = 1; i < n; i++)
    if (!nc_kernel_broadcast_shape(r, cur, ranks[i], shapes[i], &r, cur, err, errlen))
      return false;
  *out_rank = r;
  memcpy(out_shape, cur, (size_t)r * sizeof(int64_t));
  return true;
}

static void copy_row(void *ctxp, int64_t n, const int64_t *off, const int64_t *inc);

typedef struct copy_ctx {
  size_t es;
  const char *x;
  char *y;
} copy_ctx;

/* y = x broadcast to y's shape, any dtype. */
static void broadcast_copy(const nc_tensor *x, nc_tensor *y)
{
  bc_iter it;
  int ranks[2] = {x->rank, y->rank};
  const int64_t *shapes[2] = {x->shape, y->shape};
  bc_setup(&it, 2, y->rank, y->shape, ranks, shapes);
  copy_ctx c = {nc_dtype_size(x->dtype), x->data, y->data};
  bc_run(&it, copy_row, &c);
}

static void copy_row(void *ctxp, int64_t n, const int64_t *off, const int64_t *inc)
{
  copy_ctx *c = ctxp;
  char *y = c->y + (size_t)off[1] * c->es;
  const char *x = c->x + (size_t)off[0] * c->es;
  if (inc[0]) {
    memcpy(y, x, (size_t)n * c->es);
    return;
  }
  for (int64_t i = 0; i < n; i++)
    memcpy(y + (size_t)i * c->es, x, c->es);
}

bool nc_kernel_variadic(nc_variadic_op op, int n, const nc_tensor *const *xs, nc_tensor *y, char *err,
                        size_t errlen)
{
  static const char *names[] = {"sum", "mean", "max", "min"};
  if ((unsigned)op > NC_VARIADIC_MIN)
    return nc_kerr(err, errlen, "variadic: unknown op %d", (int)op);
  const char *name = names[op];
  if (n < 1 || !xs)
    return nc_kerr(err, errlen, "%s: needs at least one input", name);
  int r = 0;
  int64_t shape[NC_TENSOR_MAX_RANK];
  for (int i = 0; i < n; i++) {
    if (!nc_k_check_in(name, "input", xs[i], err, errlen))
      return false;
    if (xs[i]->dtype != xs[0]->dtype)
      return nc_kerr(err, errlen, "%s: input dtypes differ", name);
    if (i == 0) {
      r = xs[0]->rank;
      memcpy(shape, xs[0]->shape, sizeof shape);
    } else if (!nc_kernel_broadcast_shape(r, shape, xs[i]->rank, xs[i]->shape, &r, shape, err, errlen)) {
      return false;
    }
  }
  if (xs[0]->dtype == NC_DT_BOOL)
    return nc_kerr(err, errlen, "%s: bool inputs are not supported", name);
  if (!nc_k_check_out(name, y, xs[0]->dtype, r, shape, err, errlen))
    return false;
  nc_binary_op bop = op == NC_VARIADIC_MAX ? NC_BINARY_MAX : op == NC_VARIADIC_MIN ? NC_BINARY_MIN : NC_BINARY_ADD;
  broadcast_copy(xs[0], y);
  if (n == 1)
    return true;
  /* left to right through a copy of the running result: the row loops assume
   * that the output shares no memory with an operand */
  nc_tensor acc = *y;
  acc.data = nc_xmalloc(nc_tensor_num_bytes(y) + 1);
  for (int i = 1; i < n; i++) {
    memcpy(acc.data, y->data, nc_tensor_num_bytes(y));
    binary_run(bop, &acc, xs[i], y);
  }
  if (op == NC_VARIADIC_MEAN) {
    nc_tensor cnt = {.dtype = y->dtype, .rank = 0};
    char buf[8] = {0};
    cnt.data = buf;
    if (nc_k_is_float(y->dtype))
      nc_elem_store_f64(buf, y->dtype, 0, n);
    else
      nc_elem_store_i64(buf, y->dtype, 0, n);
    memcpy(acc.data, y->data, nc_tensor_num_bytes(y));
    binary_run(NC_BINARY_DIV, &acc, &cnt, y);
  }
  free(acc.data);
  return true;
}

/* --- expand ---------------------------------------------------------------- */

bool nc_kernel_expand_shape(int x_rank, const int64_t *x_shape, int n, const int64_t *shape, int *out_rank,
                            int64_t *out_shape, char *err, size_t errlen)
{
  if (n < 0 || n > NC_TENSOR_MAX_RANK)
    return nc_kerr(err, errlen, "expand: shape has %d entries", n);
  for (int i = 0; i < n; i++)
    if (shape[i] < 0)
      return nc_kerr(err, errlen, "expand: negative dim in shape");
  return nc_kernel_broadcast_shape(x_rank, x_shape, n, shape, out_rank, out_shape, err, errlen);
}

bool nc_kernel_expand(const nc_tensor *x, nc_tensor *y, char *err, size_t errlen)
{
  if (!nc_k_check_in("expand", "X", x, err, errlen) || !nc_k_check_in("expand", "output", y, err, errlen))
    return false;
  int r;
  int64_t shape[NC_TENSOR_MAX_RANK];
  if (!nc_kernel_broadcast_shape(x->rank, x->shape, y->rank, y->shape, &r, shape, err, errlen) ||
      !nc_k_check_out("expand", y, x->dtype, r, shape, err, errlen))
    return false;
  broadcast_copy(x, y);
  return true;
}

/* --- unary ------------------------------------------------------------------ */

nc_unary_params nc_unary_params_default(nc_unary_op op)
{
  nc_unary_params p = {0, 0, 0};
  switch (op) {
  case NC_UNARY_LEAKY_RELU: p.alpha = 0.01; break;
  case NC_UNARY_ELU: p.alpha = 1.0; break;
  case NC_UNARY_SELU:
    p.alpha = 1.67326319217681884765625;
    p.gamma = 1.05070102214813232421875;
    break;
  case NC_UNARY_HARD_SIGMOID:
    p.alpha = 0.2;
    p.beta = 0.5;
    break;
  case NC_UNARY_THRESHOLDED_RELU: p.alpha = 1.0; break;
  case NC_UNARY_CELU: p.alpha = 1.0; break;
  default: break;
  }
  return p;
}

#define UNARY_FLOAT_ROW(T, SUF, NAME)                                                                   \
  static void NAME(nc_unary_op op, const nc_unary_params *p, int64_t n, const T *restrict x, T *restrict y)               \
  {                                                                                                     \
    T alpha = (T)p->alpha, beta = (T)p->beta, gamma = (T)p->gamma;                                      \
    switch (op) {                                                                                       \
    case NC_UNARY_IDENTITY: NC_VLOOP(i, n, y[i] = x[i]); break;                         \
    case NC_UNARY_NEG: NC_VLOOP(i, n, y[i] = -x[i]); break;                             \
    case NC_UNARY_ABS: NC_VLOOP(i, n, y[i] = fabs##SUF(x[i])); break;                   \
    case NC_UNARY_RELU: NC_VLOOP(i, n, y[i] = x[i] < 0 ? (T)0 : x[i]); break;           \
    case NC_UNARY_SIGN: NC_VLOOP(i, n, y[i] = x[i] > 0 ? (T)1 : x[i] < 0 ? (T)-1 : x[i]); break;        \
    case NC_UNARY_SQRT: NC_VLOOP(i, n, y[i] = sqrt##SUF(x[i])); break;                  \
    case NC_UNARY_EXP: NC_VLOOP(i, n, y[i] = exp##SUF(x[i])); break;                    \
    case NC_UNARY_LOG: NC_VLOOP(i, n, y[i] = log##SUF(x[i])); break;                    \
    case NC_UNARY_RECIPROCAL: NC_VLOOP(i, n, y[i] = (T)1 / x[i]); break;                \
    case NC_UNARY_FLOOR: NC_VLOOP(i, n, y[i] = floor##SUF(x[i])); break;                \
    case NC_UNARY_CEIL: NC_VLOOP(i, n, y[i] = ceil##SUF(x[i])); break;                  \
    case NC_UNARY_ROUND: NC_VLOOP(i, n, y[i] = nearbyint##SUF(x[i])); break;            \
    case NC_UNARY_SIGMOID:                                                                              \
      for (int64_t i = 0; i < n; i++) {                                                                 \
        T e = exp##SUF(-fabs##SUF(x[i]));                                                               \
        y[i] = x[i] >= 0 ? (T)1 / ((T)1 + e) : e / ((T)1 + e);                                          \
      }                                                                                                 \
      break;                                                                                            \
    case NC_UNARY_TANH: NC_VLOOP(i, n, y[i] = tanh##SUF(x[i])); break;                  \
    case NC_UNARY_ERF: NC_VLOOP(i, n, y[i] = erf##SUF(x[i])); break;                    \
    case NC_UNARY_SOFTPLUS:                                                                             \
      for (int64_t i = 0; i < n; i++)                                                                   \
        y[i] = x[i] > 0 ? x[i] + log1p##SUF(exp##SUF(-x[i])) : log1p##SUF(exp##SUF(x[i]));              \
      break;                                                                                            \
    case NC_UNARY_SOFTSIGN: NC_VLOOP(i, n, y[i] = x[i] / ((T)1 + fabs##SUF(x[i]))); break; \
    case NC_UNARY_LEAKY_RELU: NC_VLOOP(i, n, y[i] = x[i] < 0 ? alpha * x[i] : x[i]); break; \
    case NC_UNARY_ELU:                                                                                  \
      for (int64_t i = 0; i < n; i++) y[i] = x[i] < 0 ? alpha * (exp##SUF(x[i]) - (T)1) : x[i];         \
      break;                                                                                            \
    case NC_UNARY_SELU:                                                                                 \
      for (int64_t i = 0; i < n; i++)                                                                   \
        y[i] = x[i] <= 0 ? gamma * (alpha * exp##SUF(x[i]) - alpha) : gamma * x[i];                     \
      break;                                                                                            \
    case NC_UNARY_HARD_SIGMOID:                                                                         \
      NC_VLOOP(i, n, T v = alpha * x[i] + beta; y[i] = v < 0 ? (T)0 : v > 1 ? (T)1 : v);                \
      break;                                                                                            \
    case NC_UNARY_HARD_SWISH:                                                                           \
      NC_VLOOP(i, n, T v = x[i] / (T)6 + (T)0.5; y[i] = x[i] * (v < 0 ? (T)0 : v > 1 ? (T)1 : v));      \
      break;                                                                                            \
    case NC_UNARY_THRESHOLDED_RELU: NC_VLOOP(i, n, y[i] = x[i] > alpha ? x[i] : 0); break; \
    case NC_UNARY_CELU:                                                                                 \
      for (int64_t i = 0; i < n; i++) y[i] = x[i] > 0 ? x[i] : alpha * expm1##SUF(x[i] / alpha);        \
      break;                                                                                            \
    default: break;                                                                                     \
    }                                                                                                   \
  }

UNARY_FLOAT_ROW(float, f, unary_row_f32)
UNARY_FLOAT_ROW(double, , unary_row_f64)

bool nc_kernel_unary(nc_unary_op op, const nc_unary_params *p, const nc_tensor *x, nc_tensor *y, char *err,
                     size_t errlen)
{
  if ((unsigned)op >= NC_UNARY_COUNT)
    return nc_kerr(err, errlen, "unary: unknown op %d", (int)op);
  nc_unary_params dflt = nc_unary_params_default(op);
  if (!p)
    p = &dflt;
  if (!nc_k_check_in("unary", "X", x, err, errlen) ||
      !nc_k_check_out("unary", y, x->dtype, x->rank, x->shape, err, errlen))
    return false;
  int64_t n = nc_tensor_num_elements(x);
  nc_dtype dt = x->dtype;
  if (dt == NC_DT_F32) {
    unary_row_f32(op, p, n, x->data, y->data);
  } else if (dt == NC_DT_F64) {
    unary_row_f64(op, p, n, x->data, y->data);
  } else if (nc_k_is_float(dt)) {
    enum { CHUNK = 1024 };
    float in[CHUNK], out[CHUNK];
    for (int64_t i0 = 0; i0 < n; i0 += CHUNK) {
      int64_t m = n - i0 < CHUNK ? n - i0 : CHUNK;
      for (int64_t i = 0; i < m; i++)
        in[i] = (float)nc_elem_load_f64(x->data, dt, i0 + i);
      unary_row_f32(op, p, m, in, out);
      for (int64_t i = 0; i < m; i++)
        nc_elem_store_f64(y->data, dt, i0 + i, out[i]);
    }
  } else {
    if (op > NC_UNARY_SIGN || dt == NC_DT_BOOL)
      return nc_kerr(err, errlen, "unary: op %d needs a float dtype, got %s", (int)op, nc_dtype_name(dt));
    bool uns = !nc_dtype_is_signed(dt);
    for (int64_t i = 0; i < n; i++) {
      int64_t v = nc_elem_load_i64(x->data, dt, i);
      uint64_t neg = 0 - (uint64_t)v;
      switch (op) {
      case NC_UNARY_NEG: v = (int64_t)neg; break;
      case NC_UNARY_ABS: v = !uns && v < 0 ? (int64_t)neg : v; break;
      case NC_UNARY_RELU: v = !uns && v < 0 ? 0 : v; break;
      case NC_UNARY_SIGN: v = uns ? v != 0 : (v > 0) - (v < 0); break;
      default: break;
      }
      nc_elem_store_i64(y->data, dt, i, v);
    }
  }
  return true;
}

/* --- clip ------------------------------------------------------------------- */

static bool clip_bound(const nc_tensor *t, const nc_tensor *x, const char *what, char *err, size_t errlen)
{
  if (!t)
    return true;
  if (!nc_k_check_in("clip", what, t, err, errlen))
    return false;
  if (t->dtype != x->dtype || nc_tensor_num_elements(t) != 1)
    return nc_kerr(err, errlen, "clip: %s must be one element of dtype %s", what, nc_dtype_name(x->dtype));
  return true;
}

bool nc_kernel_clip(const nc_tensor *x, const nc_tensor *lo, const nc_tensor *hi, nc_tensor *y, char *err,
                    size_t errlen)
{
  if (!nc_k_check_in("clip", "X", x, err, errlen) || !clip_bound(lo, x, "min", err, errlen) ||
      !clip_bound(hi, x, "max", err, errlen) || !nc_k_check_out("clip", y, x->dtype, x->rank, x->shape, err, errlen))
    return false;
  int64_t n = nc_tensor_num_elements(x);
  nc_dtype dt = x->dtype;
  if (nc_k_is_float(dt)) {
    double l = lo ? nc_elem_load_f64(lo->data, dt, 0) : -INFINITY;
    double h = hi ? nc_elem_load_f64(hi->data, dt, 0) : INFINITY;
    if (dt == NC_DT_F32) {
      const float *restrict xp = x->data;
      float *restrict yp = y->data, lf = (float)l, hf = (float)h;
      if (isnan(l) || isnan(h))
        lf = hf = NAN; /* numpy: a NaN bound makes every element NaN */
      NC_VLOOP(i, n, float v = xp[i]; v = v < lf ? lf : v; yp[i] = v > hf ? hf : v);
      if (isnan(lf))
        NC_VLOOP(i, n, yp[i] = NAN);
      return true;
    }
    for (int64_t i = 0; i < n; i++) {
      double v = nc_elem_load_f64(x->data, dt, i);
      v = v < l ? l : v;
      v = v > h ? h : v;
      nc_elem_store_f64(y->data, dt, i, isnan(l) || isnan(h) ? NAN : v);
    }
    return true;
  }
  bool uns = dt == NC_DT_U64;
  int64_t l = lo ? nc_elem_load_i64(lo->data, dt, 0) : 0, h = hi ? nc_elem_load_i64(hi->data, dt, 0) : 0;
  for (int64_t i = 0; i < n; i++) {
    int64_t v = nc_elem_load_i64(x->data, dt, i);
    if (uns) {
      if (lo && (uint64_t)v < (uint64_t)l)
        v = l;
      if (hi && (uint64_t)v > (uint64_t)h)
        v = h;
    } else {
      if (lo && v < l)
        v = l;
      if (hi && v > h)
        v = h;
    }
    nc_elem_store_i64(y->data, dt, i, v);
  }
  return true;
}
