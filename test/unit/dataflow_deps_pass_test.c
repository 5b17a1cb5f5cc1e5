/* dataflow_deps_pass_test.c: graph-to-dataflow + dataflow-deps checked
 * against brute force.
 *
 * Each scenario is a small network described here as data (convs with
 * strides, pads, dilations and asymmetric windows, max and average pools
 * with ceil_mode, residual adds, a channel concat, flatten + gemm). It is
 * written out as graph IR, run through `graph-to-dataflow{granularity=G},
 * dataflow-deps{input-granularity=I}` for all four (G, I) pairs, and every
 * attribute the passes set is read back through the dataflow C API as isl
 * objects and compared, as exact point sets, with an independent
 * brute-force model written as plain loops over windows: the domain, each
 * read and the write relation, per channel Earliest (prefix max of the last
 * producer iteration read) and Control, and buffer_elements against an
 * element-by-element simulation of the whole pipeline (sources deliver one
 * row or pixel per step; every other layer runs an iteration, deepest layer
 * first, as soon as everything it reads is written; an element lives from
 * its write through its last read). For layers with one input the buffer
 * must also equal the single-channel timeline of
 * docs/dataflow-dependences.md, simulated here too. Never compared by counts
 * alone. Returns non-zero on any failure.
 */
#include <inttypes.h>
#include <isl/ctx.h>
#include <isl/map.h>
#include <isl/point.h>
#include <isl/set.h>
#include <isl/space.h>
#include <isl/val.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nc/dialects/dataflow/dataflow.h"
#include "nc/dialects/dialects.h"
#include "nc/ir.h"
#include "nc/passes/passes.h"

static int failures, checks;

#define CHECK(cond, ...)                                                   \
  do {                                                                     \
    checks++;                                                              \
    if (!(cond)) {                                                         \
      failures++;                                                          \
      fprintf(stderr, "FAIL %s:%d: [%s] ", __FILE__, __LINE__, g_where);   \
      fprintf(stderr, __VA_ARGS__);                                        \
      fputc('\n', stderr);                                                 \
    }                                                                      \
  } while (0)

static char g_where[160];

/* ------------------------------------------------------------------------ */
/* Scenarios                                                                 */
/* ------------------------------------------------------------------------ */

typedef enum lkind { L_CONV, L_MAXPOOL, L_AVGPOOL, L_ADD, L_CONCAT, L_FLATTEN, L_GEMM } lkind;

typedef struct lspec {
  lkind k;
  int a, b;      /* inputs: 0 is the function argument, i > 0 layer i's output; b only for add, concat */
  int64_t out_c; /* conv: output channels; gemm: output features */
  int64_t kh, kw, sh, sw, pt, pl, pb, pr, dh, dw;
  bool ceil_mode, relu;
} lspec;

typedef struct scenario {
  const char *name;
  int64_t c, h, w;
  int n;
  lspec l[6];
} scenario;

#define CONV(A, M, K, S, P, D) {L_CONV, A, 0, M, K, K, S, S, P, P, P, P, D, D, false, true}
static const scenario scenarios[] = {
  {"conv s1 p1 -> conv s2 p1", 2, 6, 6, 2, {CONV(0, 3, 3, 1, 1, 1), CONV(1, 2, 3, 2, 1, 1)}},
  {"conv s2 p0, odd 7x5", 1, 7, 5, 1, {CONV(0, 2, 3, 2, 0, 1)}},
  {"dilated conv d2 p2 -> 1x1 conv", 2, 7, 7, 2, {CONV(0, 2, 3, 1, 2, 2), CONV(1, 3, 1, 1, 0, 1)}},
  {"5x5 conv p2", 1, 6, 7, 1, {CONV(0, 2, 5, 1, 2, 1)}},
  {"asymmetric 3x2 window", 2, 7, 8, 1,
   {{L_CONV, 0, 0, 2, 3, 2, 2, 1, 1, 0, 0, 1, 1, 2, false, false}}},
  {"pad-3 conv with free iterations", 1, 4, 4, 1, {CONV(0, 1, 3, 1, 3, 1)}},
  {"max pool 2x2 s2 -> avg pool 3x3 p1", 2, 8, 6, 2,
   {{L_MAXPOOL, 0, 0, 0, 2, 2, 2, 2, 0, 0, 0, 0, 1, 1, false, false},
    {L_AVGPOOL, 1, 0, 0, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, false, false}}},
  {"max pool ceil_mode 3x3 s2 on 8x8", 1, 8, 8, 1,
   {{L_MAXPOOL, 0, 0, 0, 3, 3, 2, 2, 0, 0, 0, 0, 1, 1, true, true}}},
  {"residual add: conv + skip", 2, 6, 6, 2, {CONV(0, 2, 3, 1, 1, 1), {L_ADD, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, false, true}}},
  {"two-branch add: conv d2 + conv 1x1", 2, 6, 5, 3,
   {CONV(0, 2, 3, 1, 2, 2), CONV(0, 2, 1, 1, 0, 1), {L_ADD, 1, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, false, false}}},
  {"concat of a strided conv path and a pooled skip", 2, 7, 6, 4,
   {CONV(0, 3, 3, 2, 1, 1), {L_MAXPOOL, 0, 0, 0, 3, 3, 2, 2, 1, 1, 1, 1, 1, 1, false, false},
    {L_CONCAT, 1, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, false, true}, CONV(3, 2, 1, 1, 0, 1)}},
  {"conv -> flatten -> gemm -> gemm", 2, 4, 4, 4,
   {CONV(0, 2, 3, 1, 1, 1), {L_FLATTEN, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, false, false},
    {L_GEMM, 2, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, false, true},
    {L_GEMM, 3, 0, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, false, false}}},
};

/* ------------------------------------------------------------------------ */
/* Shapes                                                                    */
/* ------------------------------------------------------------------------ */

typedef struct tshape {
  int rank; /* 3: [c, y, x]; 1: [i] */
  int64_t c, h, w;
  int64_t base; /* first element id */
} tshape;

static int64_t out_size(int64_t in, int64_t k, int64_t s, int64_t pb, int64_t pe, int64_t d, bool ceil_mode)
{
  int64_t span = d * (k - 1) + 1, num = in + pb + pe - span;
  int64_t o = (ceil_mode ? (num + s - 1) / s : num / s) + 1;
  if (ceil_mode && (o - 1) * s >= in + pb)
    o--;
  return o;
}

static void shapes(const scenario *sc, tshape *t)
{
  t[0] = (tshape){3, sc->c, sc->h, sc->w, 0};
  for (int i = 1; i <= sc->n; i++) {
    const lspec *l = &sc->l[i - 1];
    const tshape *a = &t[l->a];
    switch (l->k) {
    case L_CONV:
    case L_MAXPOOL:
    case L_AVGPOOL:
      t[i] = (tshape){3, l->k == L_CONV ? l->out_c : a->c,
                      out_size(a->h, l->kh, l->sh, l->pt, l->pb, l->dh, l->ceil_mode),
                      out_size(a->w, l->kw, l->sw, l->pl, l->pr, l->dw, l->ceil_mode), 0};
      break;
    case L_ADD: t[i] = *a; break;
    case L_CONCAT: t[i] = (tshape){3, a->c + t[l->b].c, a->h, a->w, 0}; break;
    case L_FLATTEN: t[i] = (tshape){1, a->c * a->h * a->w, 1, 1, 0}; break;
    case L_GEMM: t[i] = (tshape){1, l->out_c, 1, 1, 0}; break;
    }
    t[i].base = t[i - 1].base + t[i - 1].c * t[i - 1].h * t[i - 1].w;
  }
}

static int64_t elem(const tshape *t, int64_t c, int64_t y, int64_t x) { return t->base + (c * t->h + y) * t->w + x; }

/* ------------------------------------------------------------------------ */
/* IR                                                                        */
/* ------------------------------------------------------------------------ */

static void type_of(const tshape *t, char *buf, size_t n)
{
  if (t->rank == 3)
    snprintf(buf, n, "tensor<1x%" PRId64 "x%" PRId64 "x%" PRId64 "xf32>", t->c, t->h, t->w);
  else
    snprintf(buf, n, "tensor<1x%" PRId64 "xf32>", t->c);
}

static char *write_ir(const scenario *sc, const tshape *t)
{
  char *buf;
  size_t len;
  FILE *f = open_memstream(&buf, &len);
  char ti[64], to[64], tb[64];
  type_of(&t[0], ti, sizeof ti);
  type_of(&t[sc->n], to, sizeof to);
  fprintf(f, "func.func @net(%%l0: %s) -> %s {\n", ti, to);
  for (int i = 1; i <= sc->n; i++) {
    const lspec *l = &sc->l[i - 1];
    const tshape *a = &t[l->a];
    type_of(a, ti, sizeof ti);
    type_of(&t[i], to, sizeof to);
    const char *res = l->relu ? "r" : "l";
    switch (l->k) {
    case L_CONV:
      fprintf(f, "  %%w%d = graph.constant {value = dense<0.5> : tensor<%" PRId64 "x%" PRId64 "x%" PRId64 "x%" PRId64
                 "xf32>} : () -> tensor<%" PRId64 "x%" PRId64 "x%" PRId64 "x%" PRId64 "xf32>\n",
              i, l->out_c, a->c, l->kh, l->kw, l->out_c, a->c, l->kh, l->kw);
      fprintf(f, "  %%%s%d = graph.conv %%l%d, %%w%d {strides = array<i64: %" PRId64 ", %" PRId64 ">, pads = "
                 "array<i64: %" PRId64 ", %" PRId64 ", %" PRId64 ", %" PRId64 ">, dilations = array<i64: %" PRId64
                 ", %" PRId64 ">} : (%s, tensor<%" PRId64 "x%" PRId64 "x%" PRId64 "x%" PRId64 "xf32>) -> %s\n",
              res, i, l->a, i, l->sh, l->sw, l->pt, l->pl, l->pb, l->pr, l->dh, l->dw, ti, l->out_c, a->c, l->kh,
              l->kw, to);
      break;
    case L_MAXPOOL:
    case L_AVGPOOL:
      fprintf(f, "  %%%s%d = graph.%s %%l%d {kernel_shape = array<i64: %" PRId64 ", %" PRId64 ">, strides = "
                 "array<i64: %" PRId64 ", %" PRId64 ">, pads = array<i64: %" PRId64 ", %" PRId64 ", %" PRId64
                 ", %" PRId64 ">%s} : (%s) -> %s\n",
              res, i, l->k == L_MAXPOOL ? "max_pool" : "avg_pool", l->a, l->kh, l->kw, l->sh, l->sw, l->pt, l->pl,
              l->pb, l->pr, l->ceil_mode ? ", ceil_mode = 1 : i64" : "", ti, to);
      break;
    case L_ADD:
      type_of(&t[l->b], tb, sizeof tb);
      fprintf(f, "  %%%s%d = graph.add %%l%d, %%l%d : (%s, %s) -> %s\n", res, i, l->a, l->b, ti, tb, to);
      break;
    case L_CONCAT:
      type_of(&t[l->b], tb, sizeof tb);
      fprintf(f, "  %%%s%d = graph.concat %%l%d, %%l%d {axis = 1 : i64} : (%s, %s) -> %s\n", res, i, l->a, l->b, ti, tb,
              to);
      break;
    case L_FLATTEN: fprintf(f, "  %%%s%d = graph.flatten %%l%d : (%s) -> %s\n", res, i, l->a, ti, to); break;
    case L_GEMM:
      fprintf(f, "  %%w%d = graph.constant {value = dense<0.25> : tensor<%" PRId64 "x%" PRId64 "xf32>} : () -> "
                 "tensor<%" PRId64 "x%" PRId64 "xf32>\n",
              i, a->c, l->out_c, a->c, l->out_c);
      fprintf(f, "  %%%s%d = graph.gemm %%l%d, %%w%d : (%s, tensor<%" PRId64 "x%" PRId64 "xf32>) -> %s\n", res, i,
              l->a, i, ti, a->c, l->out_c, to);
      break;
    }
    if (l->relu)
      fprintf(f, "  %%l%d = graph.relu %%r%d : (%s) -> %s\n", i, i, to, to);
  }
  type_of(&t[sc->n], to, sizeof to);
  fprintf(f, "  return %%l%d : %s\n}\n", sc->n, to);
  fclose(f);
  return buf;
}

/* ------------------------------------------------------------------------ */
/* Brute force: stages as explicit iteration and access lists                */
/* ------------------------------------------------------------------------ */

typedef struct vec {
  int64_t *v;
  size_t n, cap;
} vec;

static void vpush(vec *v, int64_t x)
{
  if (v->n == v->cap) {
    v->cap = v->cap ? 2 * v->cap : 16;
    v->v = realloc(v->v, v->cap * sizeof *v->v);
    if (!v->v)
      abort();
  }
  v->v[v->n++] = x;
}

typedef struct bstage {
  int ndim;
  int64_t n;
  int64_t (*it)[2];
  int n_in;
  int in[2];   /* input tensors (slot order In0, In1) */
  vec *rd[2];  /* per slot, per iteration: element ids */
  vec *wr;     /* per iteration */
  int out;
} bstage;

static void stage_init(bstage *s, int ndim, int64_t e0, int64_t e1)
{
  memset(s, 0, sizeof *s);
  s->ndim = ndim;
  s->n = ndim == 0 ? 1 : ndim == 1 ? e0 : e0 * e1;
  s->it = calloc((size_t)s->n, sizeof *s->it);
  for (int64_t i = 0; i < s->n; i++) {
    s->it[i][0] = ndim == 2 ? i / e1 : i;
    s->it[i][1] = ndim == 2 ? i % e1 : 0;
  }
  s->wr = calloc((size_t)s->n, sizeof *s->wr);
  s->rd[0] = calloc((size_t)s->n, sizeof(vec));
  s->rd[1] = calloc((size_t)s->n, sizeof(vec));
}

static void stage_free(bstage *s)
{
  for (int64_t i = 0; i < s->n; i++) {
    free(s->wr[i].v);
    free(s->rd[0][i].v);
    free(s->rd[1][i].v);
  }
  free(s->wr);
  free(s->rd[0]);
  free(s->rd[1]);
  free(s->it);
}

/* Does iteration i cover output row/pixel (y, x)? */
static bool covers(const bstage *s, int64_t i, int64_t y, int64_t x)
{
  return s->ndim == 1 ? s->it[i][0] == y : s->it[i][0] == y && s->it[i][1] == x;
}

static void build_stages(const scenario *sc, const tshape *t, bool row, bool in_row, bstage *st)
{
  /* stage 0: the input source */
  stage_init(&st[0], in_row ? 1 : 2, t[0].h, t[0].w);
  st[0].out = 0;
  for (int64_t i = 0; i < st[0].n; i++)
    for (int64_t y = 0; y < t[0].h; y++)
      for (int64_t x = 0; x < t[0].w; x++)
        if (covers(&st[0], i, y, x))
          for (int64_t c = 0; c < t[0].c; c++)
            vpush(&st[0].wr[i], elem(&t[0], c, y, x));
  for (int li = 1; li <= sc->n; li++) {
    const lspec *l = &sc->l[li - 1];
    const tshape *a = &t[l->a], *o = &t[li];
    bstage *s = &st[li];
    if (l->k == L_GEMM)
      stage_init(s, 0, 0, 0);
    else if (l->k == L_FLATTEN)
      stage_init(s, row ? 1 : 2, a->h, a->w);
    else
      stage_init(s, row ? 1 : 2, o->h, o->w);
    s->out = li;
    s->n_in = (l->k == L_ADD || l->k == L_CONCAT) && l->b != l->a ? 2 : 1;
    s->in[0] = l->a;
    s->in[1] = l->b;
    for (int64_t i = 0; i < s->n; i++) {
      switch (l->k) {
      case L_CONV:
      case L_MAXPOOL:
      case L_AVGPOOL:
        for (int64_t oy = 0; oy < o->h; oy++)
          for (int64_t ox = 0; ox < o->w; ox++) {
            if (!covers(s, i, oy, ox))
              continue;
            for (int64_t ky = 0; ky < l->kh; ky++)
              for (int64_t kx = 0; kx < l->kw; kx++) {
                int64_t iy = oy * l->sh - l->pt + ky * l->dh, ix = ox * l->sw - l->pl + kx * l->dw;
                if (iy < 0 || iy >= a->h || ix < 0 || ix >= a->w)
                  continue;
                for (int64_t c = 0; c < a->c; c++)
                  vpush(&s->rd[0][i], elem(a, c, iy, ix));
              }
            for (int64_t k = 0; k < o->c; k++)
              vpush(&s->wr[i], elem(o, k, oy, ox));
          }
        break;
      case L_ADD:
        for (int64_t y = 0; y < o->h; y++)
          for (int64_t x = 0; x < o->w; x++)
            if (covers(s, i, y, x))
              for (int64_t c = 0; c < o->c; c++) {
                vpush(&s->rd[0][i], elem(a, c, y, x));
                if (s->n_in == 2)
                  vpush(&s->rd[1][i], elem(&t[l->b], c, y, x));
                vpush(&s->wr[i], elem(o, c, y, x));
              }
        break;
      case L_CONCAT:
        for (int64_t y = 0; y < o->h; y++)
          for (int64_t x = 0; x < o->w; x++)
            if (covers(s, i, y, x)) {
              for (int64_t c = 0; c < a->c; c++)
                vpush(&s->rd[0][i], elem(a, c, y, x));
              for (int64_t c = 0; c < t[l->b].c; c++)
                vpush(&s->rd[1][i], elem(&t[l->b], c, y, x));
              for (int64_t c = 0; c < o->c; c++)
                vpush(&s->wr[i], elem(o, c, y, x));
            }
        break;
      case L_FLATTEN:
        for (int64_t y = 0; y < a->h; y++)
          for (int64_t x = 0; x < a->w; x++)
            if (covers(s, i, y, x))
              for (int64_t c = 0; c < a->c; c++) {
                vpush(&s->rd[0][i], elem(a, c, y, x));
                vpush(&s->wr[i], o->base + (c * a->h + y) * a->w + x);
              }
        break;
      case L_GEMM:
        for (int64_t e = 0; e < a->c; e++)
          vpush(&s->rd[0][i], a->base + e);
        for (int64_t e = 0; e < o->c; e++)
          vpush(&s->wr[i], o->base + e);
        break;
      }
    }
  }
}

/* Tuples (flattened int64 rows of `width`) compared as sorted sets. */
typedef struct tuples {
  int width;
  vec v;
  bool bad;
} tuples;

static void tuple_push(tuples *t, const int64_t *row)
{
  for (int i = 0; i < t->width; i++)
    vpush(&t->v, row[i]);
}

static int g_width;
static int row_cmp(const void *x, const void *y)
{
  const int64_t *a = x, *b = y;
  for (int i = 0; i < g_width; i++)
    if (a[i] != b[i])
      return a[i] < b[i] ? -1 : 1;
  return 0;
}

static void tuples_sort(tuples *t)
{
  g_width = t->width;
  if (t->width)
    qsort(t->v.v, t->v.n / (size_t)t->width, (size_t)t->width * sizeof(int64_t), row_cmp);
}

static isl_stat collect(isl_point *p, void *user)
{
  tuples *t = user;
  for (int i = 0; i < t->width; i++) {
    isl_val *v = isl_point_get_coordinate_val(p, isl_dim_set, i);
    vpush(&t->v, v ? isl_val_get_num_si(v) : INT64_MIN);
    isl_val_free(v);
  }
  isl_point_free(p);
  return isl_stat_ok;
}

/* Drops repeated rows of a sorted table (a row iteration reads an element
 * once however many of its pixels read it). */
static void tuples_unique(tuples *t)
{
  size_t w = (size_t)t->width, n = w ? t->v.n / w : 0, k = 0;
  for (size_t i = 0; i < n; i++)
    if (!k || memcmp(&t->v.v[(k - 1) * w], &t->v.v[i * w], w * sizeof(int64_t))) {
      memmove(&t->v.v[k * w], &t->v.v[i * w], w * sizeof(int64_t));
      k++;
    }
  if (w)
    t->v.n = k * w;
}

static void expect_same(const char *what, tuples *got, tuples *want)
{
  tuples_sort(got);
  tuples_sort(want);
  tuples_unique(want);
  size_t n = got->v.n < want->v.n ? got->v.n : want->v.n, first = n;
  for (size_t i = 0; i < n && first == n; i++)
    if (got->v.v[i] != want->v.v[i])
      first = i - i % (size_t)(got->width ? got->width : 1);
  CHECK(!got->bad && got->width == want->width && got->v.n == want->v.n && first == n,
        "%s: isl has %zu points, brute force %zu; first difference at row %zu", what,
        got->width ? got->v.n / (size_t)got->width : 0, want->width ? want->v.n / (size_t)want->width : 0,
        got->width ? first / (size_t)got->width : 0);
  free(got->v.v);
  free(want->v.v);
}

static tuples set_points(isl_set *s)
{
  tuples t = {s ? (int)isl_set_dim(s, isl_dim_set) : 0, {0}, !s};
  if (s && isl_set_foreach_point(s, collect, &t) < 0)
    t.bad = true;
  isl_set_free(s);
  return t;
}

static tuples map_points(isl_map *m)
{
  tuples t = {m ? (int)(isl_map_dim(m, isl_dim_in) + isl_map_dim(m, isl_dim_out)) : 0, {0}, !m};
  isl_set *w = m ? isl_map_wrap(m) : NULL;
  if (w && isl_set_foreach_point(w, collect, &t) < 0)
    t.bad = true;
  isl_set_free(w);
  return t;
}

/* Coordinates of element e of tensor t into row (returns count). */
static int elem_coords(const tshape *t, int64_t e, int64_t *row)
{
  int64_t r = e - t->base;
  if (t->rank == 1) {
    row[0] = r;
    return 1;
  }
  row[0] = r / (t->h * t->w);
  row[1] = r / t->w % t->h;
  row[2] = r % t->w;
  return 3;
}

static int iter_coords(const bstage *s, int64_t i, int64_t *row)
{
  for (int k = 0; k < s->ndim; k++)
    row[k] = s->it[i][k];
  return s->ndim;
}

/* The relation iteration -> element of an access list. */
static tuples access_tuples(const bstage *s, vec *acc, const tshape *t)
{
  tuples r = {s->ndim + t->rank, {0}, false};
  int64_t row[8];
  for (int64_t i = 0; i < s->n; i++)
    for (size_t k = 0; k < acc[i].n; k++) {
      int n = iter_coords(s, i, row);
      elem_coords(t, acc[i].v[k], row + n);
      tuple_push(&r, row);
    }
  return r;
}

/* Per channel: Earliest (consumer -> producer index, -1 free), Control. */
static void channel_bf(const bstage *P, const bstage *C, int slot, int64_t n_elems, int64_t *earliest,
                       int64_t *control)
{
  int64_t *writer = malloc((size_t)n_elems * sizeof *writer);
  for (int64_t e = 0; e < n_elems; e++)
    writer[e] = -1;
  for (int64_t p = 0; p < P->n; p++)
    for (size_t k = 0; k < P->wr[p].n; k++)
      writer[P->wr[p].v[k]] = p; /* the last writer (each element has one here) */
  int64_t run = -1;
  for (int64_t c = 0; c < C->n; c++) {
    for (size_t k = 0; k < C->rd[slot][c].n; k++) {
      int64_t w = writer[C->rd[slot][c].v[k]];
      run = w > run ? w : run;
    }
    earliest[c] = run;
  }
  for (int64_t p = 0; p < P->n; p++) {
    control[p] = -1;
    for (int64_t c = 0; c < C->n; c++)
      if (earliest[c] <= p)
        control[p] = c;
  }
  free(writer);
}

/* The whole pipeline, element by element: returns each channel's peak. */
static void pipeline_bf(bstage *st, int n_st, int64_t n_elems, int64_t *buffers /* [stage][slot] */)
{
  int64_t *pending = calloc((size_t)n_elems, sizeof(int64_t)); /* writes still to come */
  for (int s = 0; s < n_st; s++)
    for (int64_t i = 0; i < st[s].n; i++)
      for (size_t k = 0; k < st[s].wr[i].n; k++)
        pending[st[s].wr[i].v[k]]++;
  int64_t *event[8] = {0}, done[8] = {0}, events = 0; /* at most 8 stages (scenarios have up to 6 layers) */
  for (int s = 0; s < n_st; s++)
    event[s] = malloc((size_t)st[s].n * sizeof(int64_t));
  for (int64_t t = 0; t < st[0].n; t++) {
    for (size_t k = 0; k < st[0].wr[t].n; k++)
      pending[st[0].wr[t].v[k]]--;
    event[0][done[0]++] = events++;
    for (;;) { /* deepest ready layer first */
      int s;
      for (s = n_st - 1; s >= 1; s--) {
        if (done[s] >= st[s].n)
          continue;
        bool ready = true;
        for (int j = 0; j < st[s].n_in && ready; j++)
          for (size_t k = 0; k < st[s].rd[j][done[s]].n && ready; k++)
            ready = pending[st[s].rd[j][done[s]].v[k]] == 0;
        if (ready)
          break;
      }
      if (s < 1)
        break;
      for (size_t k = 0; k < st[s].wr[done[s]].n; k++)
        pending[st[s].wr[done[s]].v[k]]--;
      event[s][done[s]++] = events++;
    }
  }
  for (int s = 1; s < n_st; s++)
    CHECK(done[s] == st[s].n, "brute force: layer %d did not finish", s);
  for (int s = 1; s < n_st; s++)
    for (int j = 0; j < st[s].n_in; j++) {
      const bstage *P = &st[st[s].in[j]];
      int64_t *first = malloc((size_t)n_elems * sizeof(int64_t)), *last = malloc((size_t)n_elems * sizeof(int64_t));
      for (int64_t e = 0; e < n_elems; e++)
        first[e] = last[e] = -1;
      for (int64_t p = P->n - 1; p >= 0; p--)
        for (size_t k = 0; k < P->wr[p].n; k++)
          first[P->wr[p].v[k]] = event[st[s].in[j]][p];
      for (int64_t c = 0; c < st[s].n; c++)
        for (size_t k = 0; k < st[s].rd[j][c].n; k++)
          last[st[s].rd[j][c].v[k]] = event[s][c];
      int64_t *delta = calloc((size_t)events + 2, sizeof(int64_t)), live = 0, best = 0;
      for (int64_t e = 0; e < n_elems; e++)
        if (first[e] >= 0 && last[e] >= 0) {
          delta[first[e]]++;
          delta[last[e] + 1]--;
        }
      for (int64_t t = 0; t <= events; t++) {
        live += delta[t];
        best = live > best ? live : best;
      }
      buffers[s * 2 + j] = best;
      free(delta);
      free(first);
      free(last);
    }
  for (int s = 0; s < n_st; s++)
    free(event[s]);
  free(pending);
}

/* The single-channel timeline of docs/dataflow-dependences.md: the producer
 * writes one iteration per step, then the consumer runs every iteration
 * whose channel elements are written; the peak is taken after each write. */
static int64_t channel_buffer_bf(const bstage *P, const bstage *C, int slot, int64_t n_elems)
{
  char *written = calloc((size_t)n_elems, 1), *in_ch = calloc((size_t)n_elems, 1);
  int64_t *reads_left = calloc((size_t)n_elems, sizeof(int64_t));
  for (int64_t p = 0; p < P->n; p++)
    for (size_t k = 0; k < P->wr[p].n; k++)
      in_ch[P->wr[p].v[k]] = 1;
  for (int64_t c = 0; c < C->n; c++)
    for (size_t k = 0; k < C->rd[slot][c].n; k++)
      if (in_ch[C->rd[slot][c].v[k]])
        reads_left[C->rd[slot][c].v[k]]++;
  int64_t live = 0, best = 0, next = 0;
  for (int64_t p = 0; p < P->n; p++) {
    for (size_t k = 0; k < P->wr[p].n; k++) {
      int64_t e = P->wr[p].v[k];
      if (!written[e] && reads_left[e] > 0)
        live++;
      written[e] = 1;
    }
    best = live > best ? live : best;
    for (; next < C->n; next++) {
      bool ready = true;
      for (size_t k = 0; k < C->rd[slot][next].n && ready; k++)
        ready = !in_ch[C->rd[slot][next].v[k]] || written[C->rd[slot][next].v[k]];
      if (!ready)
        break;
      for (size_t k = 0; k < C->rd[slot][next].n; k++) {
        int64_t e = C->rd[slot][next].v[k];
        if (in_ch[e] && --reads_left[e] == 0)
          live--;
      }
    }
  }
  free(written);
  free(in_ch);
  free(reads_left);
  return best;
}

/* ------------------------------------------------------------------------ */
/* One run                                                                   */
/* ------------------------------------------------------------------------ */

static int64_t macs_bf(const scenario *sc, const tshape *t, int li)
{
  const lspec *l = &sc->l[li - 1];
  if (l->k == L_CONV)
    return t[li].c * t[li].h * t[li].w * t[l->a].c * l->kh * l->kw;
  if (l->k == L_GEMM)
    return t[li].c * t[l->a].c;
  return 0;
}

static void run_scenario(const scenario *sc, bool row, bool in_row)
{
  snprintf(g_where, sizeof g_where, "%s, granularity=%s, input-granularity=%s", sc->name, row ? "row" : "pixel",
           in_row ? "row" : "pixel");
  tshape t[8];
  shapes(sc, t);
  int64_t n_elems = t[sc->n].base + t[sc->n].c * t[sc->n].h * t[sc->n].w;
  char *ir = write_ir(sc, t);
  nc_context *ctx = nc_context_create();
  nc_register_all_dialects(ctx);
  nc_op *module = nc_parse_string(ctx, ir, strlen(ir), "scenario.mlir");
  CHECK(module && nc_op_verify(module), "the scenario's IR does not parse:\n%s", ir);
  char pipeline[256];
  snprintf(pipeline, sizeof pipeline,
           "builtin.module(func.func(graph-to-dataflow{granularity=%s},dataflow-deps{input-granularity=%s}))",
           row ? "row" : "pixel", in_row ? "row" : "pixel");
  nc_pass_manager *pm = module ? nc_pass_pipeline_parse(ctx, pipeline) : NULL;
  nc_pass_run_options opts = nc_pass_run_options_default();
  opts.disable_threading = true;
  bool ran = pm && nc_pass_manager_run(pm, module, &opts);
  CHECK(ran, "the passes failed on:\n%s", ir);
  nc_op *func = ran ? nc_block_get_first_op(nc_module_get_body(module)) : NULL;
  CHECK(!ran || nc_dataflow_num_nodes(func) == (size_t)sc->n, "expected %d nodes, got %zu", sc->n,
        nc_dataflow_num_nodes(func));
  if (ran && nc_dataflow_num_nodes(func) == (size_t)sc->n) {
    bstage st[8];
    build_stages(sc, t, row, in_row, st);
    int64_t buffers[16] = {0};
    pipeline_bf(st, sc->n + 1, n_elems, buffers);
    isl_ctx *ictx = isl_ctx_alloc();
    int li = 1;
    for (nc_op *node = nc_dataflow_first_node(func); node; node = nc_dataflow_next_node(node), li++) {
      bstage *s = &st[li];
      char what[96];
      CHECK(nc_dataflow_node_has_deps(node), "layer %d: no dependence attributes", li);
      CHECK(nc_dataflow_node_get_num_inputs(node) == (size_t)s->n_in, "layer %d: %zu inputs, expected %d", li,
            nc_dataflow_node_get_num_inputs(node), s->n_in);
      CHECK(nc_dataflow_node_get_macs(node) == macs_bf(sc, t, li), "layer %d: macs %" PRId64 ", expected %" PRId64,
            li, nc_dataflow_node_get_macs(node), macs_bf(sc, t, li));
      snprintf(what, sizeof what, "layer %d domain", li);
      tuples want = {s->ndim, {0}, false};
      int64_t row_[8];
      for (int64_t i = 0; i < s->n; i++)
        tuple_push(&want, (iter_coords(s, i, row_), row_));
      tuples got = set_points(nc_dataflow_node_get_domain(node, ictx));
      expect_same(what, &got, &want);
      snprintf(what, sizeof what, "layer %d writes", li);
      got = map_points(nc_dataflow_node_get_writes(node, ictx));
      want = access_tuples(s, s->wr, &t[li]);
      expect_same(what, &got, &want);
      for (int j = 0; j < s->n_in && (size_t)j < nc_dataflow_node_get_num_inputs(node); j++) {
        const bstage *P = &st[s->in[j]];
        snprintf(what, sizeof what, "layer %d reads[%d]", li, j);
        got = map_points(nc_dataflow_node_get_read(node, (size_t)j, ictx));
        want = access_tuples(s, s->rd[j], &t[s->in[j]]);
        expect_same(what, &got, &want);

        int64_t *earliest = malloc((size_t)s->n * sizeof(int64_t)), *control = malloc((size_t)P->n * sizeof(int64_t));
        channel_bf(P, s, j, n_elems, earliest, control);
        tuples we = {s->ndim + P->ndim, {0}, false}, wc = {s->ndim + P->ndim, {0}, false};
        for (int64_t c = 0; c < s->n; c++)
          if (earliest[c] >= 0) {
            int n = iter_coords(s, c, row_);
            iter_coords(P, earliest[c], row_ + n);
            tuple_push(&we, row_);
          }
        for (int64_t p = 0; p < P->n; p++)
          if (control[p] >= 0) {
            int n = iter_coords(P, p, row_);
            iter_coords(s, control[p], row_ + n);
            tuple_push(&wc, row_);
          }
        snprintf(what, sizeof what, "layer %d earliest[%d]", li, j);
        got = map_points(nc_dataflow_node_get_earliest(node, (size_t)j, ictx));
        expect_same(what, &got, &we);
        snprintf(what, sizeof what, "layer %d control[%d]", li, j);
        got = map_points(nc_dataflow_node_get_control(node, (size_t)j, ictx));
        expect_same(what, &got, &wc);
        free(earliest);
        free(control);

        int64_t b = nc_dataflow_node_get_buffer_elements(node, (size_t)j);
        CHECK(b == buffers[li * 2 + j], "layer %d buffer_elements[%d] = %" PRId64 ", brute force %" PRId64, li, j, b,
              buffers[li * 2 + j]);
        int64_t single = channel_buffer_bf(P, s, j, n_elems);
        if (s->n_in == 1)
          CHECK(b == single, "layer %d: one input, but buffer %" PRId64 " != single-channel %" PRId64, li, b, single);
        else
          CHECK(b >= single, "layer %d: a join's buffer %" PRId64 " < single-channel %" PRId64, li, b, single);
      }
    }
    isl_ctx_free(ictx);
    for (int i = 0; i <= sc->n; i++)
      stage_free(&st[i]);
  }
  nc_pass_manager_destroy(pm);
  if (module)
    nc_op_destroy(module);
  nc_context_destroy(ctx);
  free(ir);
}

/* The residual add's skip connection must hold what the conv path delays:
 * with a 3x3 "same" conv per row, input row y + 1 arrives before the add
 * can run row y, so two rows (the single channel alone says one). */
static void residual_numbers(void)
{
  snprintf(g_where, sizeof g_where, "residual numbers");
  const char *ir =
    "func.func @r(%x: tensor<1x2x6x6xf32>) -> tensor<1x2x6x6xf32> {\n"
    "  %w = graph.constant {value = dense<0.5> : tensor<2x2x3x3xf32>} : () -> tensor<2x2x3x3xf32>\n"
    "  %c = graph.conv %x, %w {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x2x6x6xf32>, tensor<2x2x3x3xf32>) -> "
    "tensor<1x2x6x6xf32>\n"
    "  %a = graph.add %c, %x : (tensor<1x2x6x6xf32>, tensor<1x2x6x6xf32>) -> tensor<1x2x6x6xf32>\n"
    "  return %a : tensor<1x2x6x6xf32>\n}\n";
  nc_context *ctx = nc_context_create();
  nc_register_all_dialects(ctx);
  nc_op *module = nc_parse_string(ctx, ir, strlen(ir), "r.mlir");
  nc_pass_manager *pm = nc_pass_pipeline_parse(ctx, "builtin.module(func.func(graph-to-dataflow,dataflow-deps))");
  nc_pass_run_options opts = nc_pass_run_options_default();
  CHECK(module && pm && nc_pass_manager_run(pm, module, &opts), "passes failed");
  nc_op *add = nc_dataflow_next_node(nc_dataflow_first_node(nc_block_get_first_op(nc_module_get_body(module))));
  CHECK(add && nc_dataflow_node_get_buffer_elements(add, 0) == 2 * 6, "conv -> add: one row of 2 channels");
  CHECK(add && nc_dataflow_node_get_buffer_elements(add, 1) == 2 * 2 * 6, "skip -> add: two rows of 2 channels");
  nc_pass_manager_destroy(pm);
  nc_op_destroy(module);
  nc_context_destroy(ctx);
}

int main(void)
{
  nc_register_all_passes();
  for (size_t i = 0; i < NC_COUNTOF(scenarios); i++)
    for (int g = 0; g < 4; g++)
      run_scenario(&scenarios[i], g & 1, g & 2);
  residual_numbers();
  printf("dataflow_deps_pass_test: %d checks, %d failures\n", checks, failures);
  return failures != 0;
}
