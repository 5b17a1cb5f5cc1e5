/* deps_test.c: checks the isl pipeline dependence analysis against brute force.
 *
 * For every scenario the same network is built twice: with the library's
 * layer builders (isl relations) and with plain C loops over windows here
 * (an independent model of which element each iteration reads and writes).
 * The brute force then computes, without isl, the dependences, their lexmax,
 * the prefix max, the control relation and its triggers, element lifetimes,
 * and the buffer size by simulating the pipeline timeline element by element.
 * Every isl answer is compared as an exact point set: its enumerated points
 * against the brute-force ones and, for relations of up to
 * EQUAL_CHECK_MAX_POINTS points, isl_union_map_is_equal against a map built
 * from the brute-force points. Never only by counts. Returns non-zero on any failure. */
#include "nc/dialects/dataflow/deps.h"

#include <inttypes.h>
#include <isl/options.h>
#include <isl/point.h>
#include <isl/set.h>
#include <isl/space.h>
#include <isl/union_set.h>
#include <isl/val.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures, checks;

#define CHECK(cond, ...)                                                                       \
  do {                                                                                         \
    checks++;                                                                                  \
    if (!(cond)) {                                                                             \
      failures++;                                                                              \
      fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);                                     \
      fprintf(stderr, __VA_ARGS__);                                                            \
      fputc('\n', stderr);                                                                     \
    }                                                                                          \
  } while (0)

/* ------------------------------------------------------------------------ */
/* Brute-force model: tensors, elements, layers as explicit access lists.    */
/* ------------------------------------------------------------------------ */

enum { MAX_TENSORS = 8, MAX_LAYERS = 8, EQUAL_CHECK_MAX_POINTS = 200 };

typedef struct bf_tensor {
  char name[32];
  int rank; /* 3: [c, y, x]; 1: [i] */
  int64_t c, h, w, base;
} bf_tensor;

typedef struct bf_layer {
  char name[32];
  int ndim;          /* 0, 1 or 2 iteration dimensions */
  int64_t n;         /* iterations, in lexicographic order */
  int64_t (*it)[2];  /* their coordinates */
  int64_t *rd_start; /* reads of iteration i: rd[rd_start[i] .. rd_start[i+1]) */
  int64_t *rd, nrd, caprd;
  int64_t *wr_start;
  int64_t *wr, nwr, capwr;
} bf_layer;

typedef struct bf_model {
  bf_tensor t[MAX_TENSORS];
  int nt;
  int64_t nelems;
  bf_layer l[MAX_LAYERS];
  int nl;
} bf_model;

static int bf_tensor_add(bf_model *m, const char *name, int rank, int64_t c, int64_t h,
                         int64_t w)
{
  bf_tensor *t = &m->t[m->nt];
  snprintf(t->name, sizeof t->name, "%s", name);
  t->rank = rank;
  t->c = c;
  t->h = h;
  t->w = w;
  t->base = m->nelems;
  m->nelems += c * h * w;
  return m->nt++;
}

static int bf_tensor_find(const bf_model *m, const char *name)
{
  for (int i = 0; i < m->nt; i++)
    if (strcmp(m->t[i].name, name) == 0)
      return i;
  return -1;
}

static int64_t bf_elem(const bf_model *m, int t, int64_t c, int64_t y, int64_t x)
{
  const bf_tensor *T = &m->t[t];
  return T->base + (c * T->h + y) * T->w + x;
}

static void push(int64_t **v, int64_t *n, int64_t *cap, int64_t x)
{
  if (*n == *cap) {
    *cap = *cap ? 2 * *cap : 64;
    *v = realloc(*v, (size_t)*cap * sizeof **v);
    if (!*v)
      abort();
  }
  (*v)[(*n)++] = x;
}

/* Starts a layer with iterations over a box of `ndim` dims (extents e0, e1). */
static bf_layer *bf_layer_begin(bf_model *m, const char *name, int ndim, int64_t e0, int64_t e1)
{
  bf_layer *L = &m->l[m->nl++];
  memset(L, 0, sizeof *L);
  snprintf(L->name, sizeof L->name, "%s", name);
  L->ndim = ndim;
  L->n = ndim == 0 ? 1 : ndim == 1 ? e0 : e0 * e1;
  L->it = calloc((size_t)L->n, sizeof *L->it);
  L->rd_start = calloc((size_t)L->n + 1, sizeof(int64_t));
  L->wr_start = calloc((size_t)L->n + 1, sizeof(int64_t));
  for (int64_t i = 0; i < L->n; i++) {
    L->it[i][0] = ndim == 2 ? i / e1 : i;
    L->it[i][1] = ndim == 2 ? i % e1 : 0;
  }
  return L;
}

/* Access recording: iteration `i`'s accesses are appended while it is the
 * current one; duplicates are dropped with a per-element stamp. */
typedef struct bf_rec {
  bf_layer *L;
  int64_t *rd_stamp, *wr_stamp;
} bf_rec;

static bf_rec bf_rec_begin(bf_model *m, bf_layer *L)
{
  bf_rec r = {L, malloc((size_t)m->nelems * sizeof(int64_t)),
              malloc((size_t)m->nelems * sizeof(int64_t))};
  for (int64_t e = 0; e < m->nelems; e++)
    r.rd_stamp[e] = r.wr_stamp[e] = -1;
  return r;
}

static void bf_read(bf_rec *r, int64_t i, int64_t e)
{
  if (r->rd_stamp[e] != i) {
    r->rd_stamp[e] = i;
    push(&r->L->rd, &r->L->nrd, &r->L->caprd, e);
  }
  r->L->rd_start[i + 1] = r->L->nrd;
}

static void bf_write(bf_rec *r, int64_t i, int64_t e)
{
  if (r->wr_stamp[e] != i) {
    r->wr_stamp[e] = i;
    push(&r->L->wr, &r->L->nwr, &r->L->capwr, e);
  }
  r->L->wr_start[i + 1] = r->L->nwr;
}

static void bf_rec_end(bf_rec *r)
{
  free(r->rd_stamp);
  free(r->wr_stamp);
}

/* Opens iteration i (iterations are recorded in order): its accesses end
 * where they start until bf_read/bf_write append some. */
static void bf_begin_iter(bf_layer *L, int64_t i)
{
  L->rd_start[i + 1] = L->nrd;
  L->wr_start[i + 1] = L->nwr;
}

/* ---- the layers, written as nested loops ---- */

/* K_ACCUM has no library builder: a stride-1 transposed 2x2 "conv" given
 * as isl text, where pixel (y, x) accumulates into output pixels (y..y+1,
 * x..x+1), so most elements are written several times. */
typedef enum kind { K_INPUT, K_CONV, K_POOL, K_ADD, K_FLATTEN, K_GEMM, K_GPOOL, K_ACCUM } kind;

typedef struct spec {
  kind k;
  const char *name, *in, *in_b, *out;
  nc_deps_shape shape; /* input (or the tensor itself for input/add/flatten) */
  int64_t out_channels;
  nc_deps_window w;
  nc_deps_granularity g;
  int64_t out_features; /* gemm; its in_features is the input vector's length */
} spec;

static int64_t out_size(int64_t in, int64_t k, int64_t s, int64_t pb, int64_t pe, int64_t d)
{
  int64_t n = 0; /* count the window positions that fit, one by one */
  for (int64_t o = 0; o * s + d * (k - 1) <= in + pb + pe - 1; o++)
    n++;
  return n;
}

static void bf_build(bf_model *m, const spec *s)
{
  nc_deps_shape sh = s->shape;
  bool row = s->g == NC_DEPS_PER_ROW;
  switch (s->k) {
  case K_INPUT: {
    int t = bf_tensor_add(m, s->out, 3, sh.channels, sh.height, sh.width);
    bf_layer *L = bf_layer_begin(m, s->name, row ? 1 : 2, sh.height, sh.width);
    bf_rec r = bf_rec_begin(m, L);
    for (int64_t i = 0; i < L->n; i++) {
      bf_begin_iter(L, i);
      int64_t y = L->it[i][0];
      for (int64_t x = 0; x < sh.width; x++)
        if (row || x == L->it[i][1])
          for (int64_t c = 0; c < sh.channels; c++)
            bf_write(&r, i, bf_elem(m, t, c, y, x));
    }
    bf_rec_end(&r);
    break;
  }
  case K_CONV:
  case K_POOL: {
    const nc_deps_window *w = &s->w;
    int64_t oh = out_size(sh.height, w->kernel_h, w->stride_h, w->pad_top, w->pad_bottom,
                          w->dilation_h);
    int64_t ow = out_size(sh.width, w->kernel_w, w->stride_w, w->pad_left, w->pad_right,
                          w->dilation_w);
    int64_t oc = s->k == K_POOL ? sh.channels : s->out_channels;
    int ti = bf_tensor_find(m, s->in);
    int to = bf_tensor_add(m, s->out, 3, oc, oh, ow);
    bf_layer *L = bf_layer_begin(m, s->name, row ? 1 : 2, oh, ow);
    bf_rec r = bf_rec_begin(m, L);
    for (int64_t i = 0; i < L->n; i++) {
      bf_begin_iter(L, i);
      int64_t oy = L->it[i][0];
      for (int64_t ox = 0; ox < ow; ox++) {
        if (!row && ox != L->it[i][1])
          continue;
        for (int64_t ky = 0; ky < w->kernel_h; ky++)
          for (int64_t kx = 0; kx < w->kernel_w; kx++) {
            int64_t iy = oy * w->stride_h - w->pad_top + ky * w->dilation_h;
            int64_t ix = ox * w->stride_w - w->pad_left + kx * w->dilation_w;
            if (iy < 0 || iy >= sh.height || ix < 0 || ix >= sh.width)
              continue; /* padding: not an element */
            for (int64_t c = 0; c < sh.channels; c++)
              bf_read(&r, i, bf_elem(m, ti, c, iy, ix));
          }
        for (int64_t k = 0; k < oc; k++)
          bf_write(&r, i, bf_elem(m, to, k, oy, ox));
      }
    }
    bf_rec_end(&r);
    break;
  }
  case K_ADD:
  case K_FLATTEN: {
    int ta = bf_tensor_find(m, s->in);
    int tb = s->k == K_ADD ? bf_tensor_find(m, s->in_b) : -1;
    int to = s->k == K_ADD ? bf_tensor_add(m, s->out, 3, sh.channels, sh.height, sh.width)
                           : bf_tensor_add(m, s->out, 1, sh.channels * sh.height * sh.width, 1, 1);
    bf_layer *L = bf_layer_begin(m, s->name, row ? 1 : 2, sh.height, sh.width);
    bf_rec r = bf_rec_begin(m, L);
    for (int64_t i = 0; i < L->n; i++) {
      bf_begin_iter(L, i);
      int64_t y = L->it[i][0];
      for (int64_t x = 0; x < sh.width; x++) {
        if (!row && x != L->it[i][1])
          continue;
        for (int64_t c = 0; c < sh.channels; c++) {
          bf_read(&r, i, bf_elem(m, ta, c, y, x));
          if (tb >= 0)
            bf_read(&r, i, bf_elem(m, tb, c, y, x));
          if (s->k == K_ADD)
            bf_write(&r, i, bf_elem(m, to, c, y, x));
          else
            bf_write(&r, i, m->t[to].base + c * sh.height * sh.width + y * sh.width + x);
        }
      }
    }
    bf_rec_end(&r);
    break;
  }
  case K_ACCUM: {
    int ti = bf_tensor_find(m, s->in);
    int to = bf_tensor_add(m, s->out, 3, sh.channels, sh.height + 1, sh.width + 1);
    bf_layer *L = bf_layer_begin(m, s->name, 2, sh.height, sh.width);
    bf_rec r = bf_rec_begin(m, L);
    for (int64_t i = 0; i < L->n; i++) {
      bf_begin_iter(L, i);
      int64_t y = L->it[i][0], x = L->it[i][1];
      for (int64_t c = 0; c < sh.channels; c++) {
        bf_read(&r, i, bf_elem(m, ti, c, y, x));
        for (int64_t dy = 0; dy < 2; dy++)
          for (int64_t dx = 0; dx < 2; dx++)
            bf_write(&r, i, bf_elem(m, to, c, y + dy, x + dx));
      }
    }
    bf_rec_end(&r);
    break;
  }
  case K_GEMM:
  case K_GPOOL: {
    int ti = bf_tensor_find(m, s->in);
    const bf_tensor *T = &m->t[ti];
    int64_t nin = T->c * T->h * T->w;
    int to = s->k == K_GEMM ? bf_tensor_add(m, s->out, 1, s->out_features, 1, 1)
                            : bf_tensor_add(m, s->out, 3, T->c, 1, 1);
    bf_layer *L = bf_layer_begin(m, s->name, 0, 0, 0);
    bf_rec r = bf_rec_begin(m, L);
    bf_begin_iter(L, 0);
    for (int64_t e = 0; e < nin; e++)
      bf_read(&r, 0, m->t[ti].base + e);
    for (int64_t e = 0; e < m->t[to].c; e++)
      bf_write(&r, 0, m->t[to].base + e);
    bf_rec_end(&r);
    break;
  }
  }
}

static void bf_model_free(bf_model *m)
{
  for (int i = 0; i < m->nl; i++) {
    bf_layer *L = &m->l[i];
    free(L->it);
    free(L->rd_start);
    free(L->rd);
    free(L->wr_start);
    free(L->wr);
  }
}

static int bf_layer_find(const bf_model *m, const char *name)
{
  for (int i = 0; i < m->nl; i++)
    if (strcmp(m->l[i].name, name) == 0)
      return i;
  return -1;
}

/* ------------------------------------------------------------------------ */
/* Brute-force analysis of one channel.                                      */
/* ------------------------------------------------------------------------ */

typedef struct bf_channel {
  int64_t np, nc, ne;
  char *dep;            /* nc x np */
  int64_t *last;        /* per consumer iteration, -1 if it reads nothing */
  int64_t *earliest;    /* prefix max of last, -1 = free */
  int64_t *control;     /* per producer iteration, -1 = nothing allowed yet */
  char *trigger;        /* per producer iteration */
  char *in_channel;     /* per element: written by P and read by C */
  int64_t *first_write; /* per element */
  int64_t *last_read;   /* per element */
  int64_t *release;     /* per element */
  int64_t *run_step;    /* simulation: step each consumer iteration ran, -1 = before all */
  int64_t buffer, peak_step;
} bf_channel;

static bf_channel bf_analyse(const bf_model *m, const bf_layer *P, const bf_layer *C)
{
  bf_channel b = {P->n, C->n, m->nelems, 0};
  b.dep = calloc((size_t)(b.nc * b.np), 1);
  b.last = malloc((size_t)b.nc * sizeof(int64_t));
  b.earliest = malloc((size_t)b.nc * sizeof(int64_t));
  b.control = malloc((size_t)b.np * sizeof(int64_t));
  b.trigger = calloc((size_t)b.np, 1);
  b.in_channel = calloc((size_t)b.ne, 1);
  b.first_write = malloc((size_t)b.ne * sizeof(int64_t));
  b.last_read = malloc((size_t)b.ne * sizeof(int64_t));
  b.release = malloc((size_t)b.ne * sizeof(int64_t));
  b.run_step = malloc((size_t)b.nc * sizeof(int64_t));
  int64_t *nwrites = calloc((size_t)b.ne, sizeof(int64_t));
  int64_t *nreads = calloc((size_t)b.ne, sizeof(int64_t));

  for (int64_t e = 0; e < b.ne; e++)
    b.first_write[e] = b.last_read[e] = b.release[e] = -1;
  for (int64_t p = b.np - 1; p >= 0; p--)
    for (int64_t k = P->wr_start[p]; k < P->wr_start[p + 1]; k++)
      b.first_write[P->wr[k]] = p, nwrites[P->wr[k]]++;
  for (int64_t c = 0; c < b.nc; c++)
    for (int64_t k = C->rd_start[c]; k < C->rd_start[c + 1]; k++) {
      int64_t e = C->rd[k];
      if (b.first_write[e] >= 0) {
        b.in_channel[e] = 1;
        b.last_read[e] = c;
        nreads[e]++;
      }
    }
  /* Dep: every producer iteration writing an element the consumer reads. */
  for (int64_t c = 0; c < b.nc; c++)
    for (int64_t k = C->rd_start[c]; k < C->rd_start[c + 1]; k++)
      for (int64_t p = 0; p < b.np; p++)
        for (int64_t j = P->wr_start[p]; j < P->wr_start[p + 1]; j++)
          if (P->wr[j] == C->rd[k])
            b.dep[c * b.np + p] = 1;
  int64_t run = -1;
  for (int64_t c = 0; c < b.nc; c++) {
    b.last[c] = -1;
    for (int64_t p = 0; p < b.np; p++)
      if (b.dep[c * b.np + p])
        b.last[c] = p;
    if (b.last[c] > run)
      run = b.last[c];
    b.earliest[c] = run;
  }
  for (int64_t p = 0; p < b.np; p++) {
    b.control[p] = -1;
    for (int64_t c = 0; c < b.nc; c++)
      if (b.earliest[c] <= p)
        b.control[p] = c;
    b.trigger[p] = b.control[p] >= 0 && (p == 0 || b.control[p] != b.control[p - 1]);
  }
  for (int64_t e = 0; e < b.ne; e++)
    if (b.in_channel[e])
      b.release[e] = b.earliest[b.last_read[e]];

  /* The timeline, element by element: step t = producer iteration t writes,
   * then every consumer iteration whose inputs are all written runs. */
  char *live = calloc((size_t)b.ne, 1), *dead = calloc((size_t)b.ne, 1);
  int64_t count = 0, next = 0;
  b.buffer = -1;
  for (int64_t t = -1; t < b.np; t++) {
    if (t >= 0) {
      for (int64_t k = P->wr_start[t]; k < P->wr_start[t + 1]; k++) {
        int64_t e = P->wr[k];
        nwrites[e]--;
        if (b.in_channel[e] && !live[e] && !dead[e])
          live[e] = 1, count++;
      }
      if (count > b.buffer)
        b.buffer = count, b.peak_step = t;
    }
    for (; next < b.nc; next++) {
      bool ready = true;
      for (int64_t k = C->rd_start[next]; k < C->rd_start[next + 1]; k++)
        if (nwrites[C->rd[k]] > 0)
          ready = false;
      if (!ready)
        break;
      b.run_step[next] = t;
      for (int64_t k = C->rd_start[next]; k < C->rd_start[next + 1]; k++) {
        int64_t e = C->rd[k];
        if (b.in_channel[e] && --nreads[e] == 0)
          live[e] = 0, dead[e] = 1, count--;
      }
    }
  }
  free(live);
  free(dead);
  free(nwrites);
  free(nreads);
  return b;
}

static void bf_channel_free(bf_channel *b)
{
  free(b->dep);
  free(b->last);
  free(b->earliest);
  free(b->control);
  free(b->trigger);
  free(b->in_channel);
  free(b->first_write);
  free(b->last_read);
  free(b->release);
  free(b->run_step);
}

/* ------------------------------------------------------------------------ */
/* Comparing isl objects with brute-force point sets.                        */
/* ------------------------------------------------------------------------ */

/* An index space: the iterations of a layer, or (layer NULL) all elements. */
typedef struct ispace {
  const bf_model *m;
  const bf_layer *layer;
} ispace;

static int64_t ispace_size(ispace s) { return s.layer ? s.layer->n : s.m->nelems; }

/* Index of the tuple name[coords], or -1. */
static int64_t ispace_index(ispace s, const char *name, int n, const int64_t *v)
{
  if (!name)
    return -1;
  if (s.layer) {
    if (strcmp(name, s.layer->name) != 0 || n != s.layer->ndim)
      return -1;
    for (int64_t i = 0; i < s.layer->n; i++)
      if ((n < 1 || s.layer->it[i][0] == v[0]) && (n < 2 || s.layer->it[i][1] == v[1]))
        return i;
    return -1;
  }
  int t = bf_tensor_find(s.m, name);
  if (t < 0 || n != s.m->t[t].rank)
    return -1;
  const bf_tensor *T = &s.m->t[t];
  if (n == 1)
    return v[0] >= 0 && v[0] < T->c ? T->base + v[0] : -1;
  if (v[0] < 0 || v[0] >= T->c || v[1] < 0 || v[1] >= T->h || v[2] < 0 || v[2] >= T->w)
    return -1;
  return bf_elem(s.m, t, v[0], v[1], v[2]);
}

/* The tuple with index i: its name and coordinates; returns the count of
 * coordinates (-1 if i is out of range). */
static int ispace_tuple(ispace s, int64_t i, const char **name, int64_t v[3])
{
  if (s.layer) {
    *name = s.layer->name;
    v[0] = s.layer->it[i][0];
    v[1] = s.layer->it[i][1];
    return s.layer->ndim;
  }
  for (int t = 0; t < s.m->nt; t++) {
    const bf_tensor *T = &s.m->t[t];
    int64_t r = i - T->base;
    if (r < 0 || r >= T->c * T->h * T->w)
      continue;
    *name = T->name;
    v[0] = T->rank == 1 ? r : r / (T->h * T->w);
    v[1] = r / T->w % T->h;
    v[2] = r % T->w;
    return T->rank;
  }
  return -1;
}

/* isl text of the tuple with index i (for messages). */
static void ispace_text(ispace s, int64_t i, char *buf, size_t size)
{
  const char *name = "?";
  int64_t v[3];
  int n = ispace_tuple(s, i, &name, v);
  int k = snprintf(buf, size, "%s[", name);
  for (int j = 0; j < n && k >= 0 && (size_t)k < size; j++)
    k += snprintf(buf + k, size - (size_t)k, j ? ", %" PRId64 : "%" PRId64, v[j]);
  if (k >= 0 && (size_t)k < size)
    snprintf(buf + k, size - (size_t)k, "]");
}

/* isl_space_is_equal on two spaces it then frees. */
static bool spaces_equal(isl_space *a, isl_space *b)
{
  bool eq = isl_space_is_equal(a, b) == isl_bool_true;
  isl_space_free(a);
  isl_space_free(b);
  return eq;
}

/* The single pair (i, j) as an isl map, built point by point (no parsing). */
static isl_map *pair_map(isl_ctx *ctx, ispace dom, int64_t i, ispace ran, int64_t j)
{
  const char *dn, *rn;
  int64_t dv[3], rv[3];
  int nd = ispace_tuple(dom, i, &dn, dv), nr = ispace_tuple(ran, j, &rn, rv);
  isl_space *sp = isl_space_alloc(ctx, 0, (unsigned)nd, (unsigned)nr);
  sp = isl_space_set_tuple_name(sp, isl_dim_in, dn);
  sp = isl_space_set_tuple_name(sp, isl_dim_out, rn);
  isl_basic_map *bm = isl_basic_map_universe(sp);
  for (int k = 0; k < nd; k++)
    bm = isl_basic_map_fix_si(bm, isl_dim_in, (unsigned)k, (int)dv[k]);
  for (int k = 0; k < nr; k++)
    bm = isl_basic_map_fix_si(bm, isl_dim_out, (unsigned)k, (int)rv[k]);
  return isl_map_from_basic_map(bm);
}

typedef struct collect {
  ispace dom, ran; /* ran.m == NULL for sets */
  char *mat;       /* dom x ran (or dom) hits */
  bool bad;
} collect;

static bool point_coords(isl_point *pnt, int from, int n, int64_t *v)
{
  for (int i = 0; i < n; i++) {
    isl_val *val = isl_point_get_coordinate_val(pnt, isl_dim_set, from + i);
    if (!val)
      return false;
    v[i] = isl_val_get_num_si(val);
    isl_val_free(val);
  }
  return true;
}

static isl_stat collect_pair(isl_point *pnt, void *user)
{
  collect *c = user;
  isl_space *sp = isl_space_unwrap(isl_point_get_space(pnt));
  int nd = (int)isl_space_dim(sp, isl_dim_in), nr = (int)isl_space_dim(sp, isl_dim_out);
  int64_t v[8];
  int64_t i = -1, j = -1;
  if (nd + nr <= 8 && point_coords(pnt, 0, nd + nr, v)) {
    i = ispace_index(c->dom, isl_space_get_tuple_name(sp, isl_dim_in), nd, v);
    j = ispace_index(c->ran, isl_space_get_tuple_name(sp, isl_dim_out), nr, v + nd);
  }
  isl_space_free(sp);
  isl_point_free(pnt);
  if (i < 0 || j < 0 || c->mat[i * ispace_size(c->ran) + j])
    c->bad = true; /* unknown tuple or a duplicate point */
  else
    c->mat[i * ispace_size(c->ran) + j] = 1;
  return isl_stat_ok;
}

static isl_stat collect_point(isl_point *pnt, void *user)
{
  collect *c = user;
  isl_space *sp = isl_point_get_space(pnt);
  int n = (int)isl_space_dim(sp, isl_dim_set);
  int64_t v[8];
  int64_t i = n <= 8 && point_coords(pnt, 0, n, v)
                  ? ispace_index(c->dom, isl_space_get_tuple_name(sp, isl_dim_set), n, v)
                  : -1;
  isl_space_free(sp);
  isl_point_free(pnt);
  if (i < 0 || c->mat[i])
    c->bad = true;
  else
    c->mat[i] = 1;
  return isl_stat_ok;
}

/* Checks that `umap` (taken) is exactly the set of pairs (i, j) with
 * expect[i * |ran| + j] set: by enumeration, and by isl_map_is_equal-style
 * equality against the union map written out from the brute-force points. */
static void expect_relation(const char *what, __isl_take isl_union_map *umap, ispace dom,
                            ispace ran, const char *expect)
{
  int64_t nd = ispace_size(dom), nr = ispace_size(ran);
  collect c = {dom, ran, calloc((size_t)(nd * nr), 1), false};
  isl_union_set *wrapped = isl_union_map_wrap(isl_union_map_copy(umap));
  bool ok = isl_union_set_foreach_point(wrapped, collect_pair, &c) >= 0;
  isl_union_set_free(wrapped);
  CHECK(ok && !c.bad, "%s: isl relation has points outside the brute-force spaces", what);
  int64_t diff = 0, first = -1;
  for (int64_t k = 0; k < nd * nr; k++)
    if (!!c.mat[k] != !!expect[k])
      diff++, first = first < 0 ? k : first;
  char a[128] = "", b[128] = "";
  if (first >= 0) {
    ispace_text(dom, first / nr, a, sizeof a);
    ispace_text(ran, first % nr, b, sizeof b);
  }
  CHECK(diff == 0, "%s: %" PRId64 " points differ from brute force (first: %s -> %s, %s)", what,
        diff, a, b, first >= 0 && expect[first] ? "missing in isl" : "extra in isl");

  /* Cross-check with isl's own equality: the brute-force points as a union
   * map, one disjoint point per pair (accumulated per space with
   * isl_map_union_disjoint; parsing or isl_map_union would be quadratic).
   * isl's subset test against a union of n single points costs far more
   * than linear, so it is limited to relations of EQUAL_CHECK_MAX_POINTS
   * points; the enumeration above is exact at every size. */
  int64_t npoints = 0;
  for (int64_t k = 0; k < nd * nr; k++)
    npoints += !!expect[k];
  if (npoints > EQUAL_CHECK_MAX_POINTS) {
    isl_union_map_free(umap);
    free(c.mat);
    return;
  }
  isl_ctx *ctx = isl_union_map_get_ctx(umap);
  isl_map *acc[MAX_TENSORS * MAX_LAYERS] = {0};
  for (int64_t k = 0; k < nd * nr; k++)
    if (expect[k]) {
      isl_map *pt = pair_map(ctx, dom, k / nr, ran, k % nr);
      int slot = 0;
      while (acc[slot] && !spaces_equal(isl_map_get_space(acc[slot]), isl_map_get_space(pt)))
        slot++;
      acc[slot] = acc[slot] ? isl_map_union_disjoint(acc[slot], pt) : pt;
    }
  isl_union_map *want = isl_union_map_empty(isl_space_params_alloc(ctx, 0));
  for (int slot = 0; slot < MAX_TENSORS * MAX_LAYERS && acc[slot]; slot++)
    want = isl_union_map_add_map(want, acc[slot]);
  isl_bool eq = isl_union_map_is_equal(umap, want);
  CHECK(eq == isl_bool_true, "%s: isl_union_map_is_equal with the brute-force map failed", what);
  isl_union_map_free(want);
  isl_union_map_free(umap);
  free(c.mat);
}

static void expect_map(const char *what, __isl_take isl_map *map, ispace dom, ispace ran,
                       const char *expect)
{
  expect_relation(what, isl_union_map_from_map(map), dom, ran, expect);
}

/* A function given as an array (value -1: undefined) as a relation matrix. */
static char *function_matrix(const int64_t *f, int64_t nd, int64_t nr)
{
  char *mat = calloc((size_t)(nd * nr), 1);
  for (int64_t i = 0; i < nd; i++)
    if (f[i] >= 0)
      mat[i * nr + f[i]] = 1;
  return mat;
}

static void expect_function(const char *what, __isl_take isl_union_map *umap, ispace dom,
                            ispace ran, const int64_t *f)
{
  char *mat = function_matrix(f, ispace_size(dom), ispace_size(ran));
  expect_relation(what, umap, dom, ran, mat);
  free(mat);
}

static void expect_set(const char *what, __isl_take isl_set *set, ispace dom, const char *expect)
{
  int64_t nd = ispace_size(dom);
  collect c = {dom, {0}, calloc((size_t)nd, 1), false};
  bool ok = isl_set_foreach_point(set, collect_point, &c) >= 0;
  CHECK(ok && !c.bad, "%s: isl set has points outside the brute-force space", what);
  int64_t diff = 0;
  for (int64_t i = 0; i < nd; i++)
    diff += !!c.mat[i] != !!expect[i];
  CHECK(diff == 0, "%s: %" PRId64 " points differ from brute force", what, diff);
  isl_set_free(set);
  free(c.mat);
}

/* ------------------------------------------------------------------------ */
/* Scenarios.                                                                */
/* ------------------------------------------------------------------------ */

typedef struct network {
  bf_model m;
  nc_deps_layer *layers[MAX_LAYERS];
  int n;
} network;

static bool nc_build(isl_ctx *ctx, const spec *s, nc_deps_layer **out, nc_deps_error *err)
{
  switch (s->k) {
  case K_INPUT:
    return nc_deps_layer_input(ctx, s->name, s->out, s->shape, s->g, out, err);
  case K_CONV:
    return nc_deps_layer_conv2d(ctx, s->name, s->in, s->out, s->shape, s->out_channels, &s->w,
                                s->g, out, err);
  case K_POOL:
    return nc_deps_layer_pool2d(ctx, s->name, s->in, s->out, s->shape, &s->w, s->g, out, err);
  case K_ADD:
    return nc_deps_layer_add(ctx, s->name, s->in, s->in_b, s->out, s->shape, s->g, out, err);
  case K_FLATTEN:
    return nc_deps_layer_flatten(ctx, s->name, s->in, s->out, s->shape, s->g, out, err);
  case K_GEMM:
    return nc_deps_layer_gemm(ctx, s->name, s->in, s->out,
                              s->shape.channels * s->shape.height * s->shape.width,
                              s->out_features, out, err);
  case K_GPOOL:
    return nc_deps_layer_global_pool(ctx, s->name, s->in, s->out, s->shape, out, err);
  case K_ACCUM: {
    char dom[160], rd[256], wr[320];
    nc_deps_shape sh = s->shape;
    snprintf(dom, sizeof dom, "{ %s[y, x] : 0 <= y < %" PRId64 " and 0 <= x < %" PRId64 " }",
             s->name, sh.height, sh.width);
    snprintf(rd, sizeof rd, "{ %s[y, x] -> %s[c, y, x] : 0 <= c < %" PRId64 " }", s->name, s->in,
             sh.channels);
    snprintf(wr, sizeof wr, "{ %s[y, x] -> %s[c, oy, ox] : 0 <= c < %" PRId64
             " and y <= oy <= y + 1 and x <= ox <= x + 1 }", s->name, s->out, sh.channels);
    return nc_deps_layer_from_str(ctx, dom, rd, wr, out, err);
  }
  }
  return false;
}

/* Builds both models of the network; false if a builder failed. */
static bool network_build(isl_ctx *ctx, network *net, const spec *specs, int n)
{
  memset(net, 0, sizeof *net);
  for (int i = 0; i < n; i++) {
    nc_deps_error err = {{0}};
    bool ok = nc_build(ctx, &specs[i], &net->layers[i], &err);
    CHECK(ok, "building layer %s: %s", specs[i].name, err.message);
    if (!ok)
      return false;
    net->n++;
    bf_build(&net->m, &specs[i]);
  }
  return true;
}

static void network_free(network *net)
{
  for (int i = 0; i < net->n; i++)
    nc_deps_layer_destroy(net->layers[i]);
  bf_model_free(&net->m);
}

/* Each builder's domain and accesses against the loops' own. */
static void check_layers(const char *scenario, network *net)
{
  char what[160];
  for (int i = 0; i < net->n; i++) {
    const bf_layer *L = &net->m.l[i];
    ispace it = {&net->m, L}, el = {&net->m, NULL};
    int64_t ne = net->m.nelems;
    char *all = malloc((size_t)L->n);
    memset(all, 1, (size_t)L->n);
    snprintf(what, sizeof what, "%s: %s domain", scenario, L->name);
    expect_set(what, nc_deps_layer_get_domain(net->layers[i]), it, all);
    free(all);
    char *rd = calloc((size_t)(L->n * ne), 1), *wr = calloc((size_t)(L->n * ne), 1);
    for (int64_t k = 0; k < L->n; k++) {
      for (int64_t j = L->rd_start[k]; j < L->rd_start[k + 1]; j++)
        rd[k * ne + L->rd[j]] = 1;
      for (int64_t j = L->wr_start[k]; j < L->wr_start[k + 1]; j++)
        wr[k * ne + L->wr[j]] = 1;
    }
    snprintf(what, sizeof what, "%s: %s reads", scenario, L->name);
    expect_relation(what, nc_deps_layer_get_reads(net->layers[i]), it, el, rd);
    snprintf(what, sizeof what, "%s: %s writes", scenario, L->name);
    expect_relation(what, nc_deps_layer_get_writes(net->layers[i]), it, el, wr);
    free(rd);
    free(wr);
  }
}

/* Analyses the channel producer -> consumer both ways and compares all. */
static int64_t check_channel(const char *scenario, network *net, const char *producer,
                             const char *consumer)
{
  int pi = bf_layer_find(&net->m, producer), ci = bf_layer_find(&net->m, consumer);
  const bf_layer *P = &net->m.l[pi], *C = &net->m.l[ci];
  char what[200];
  snprintf(what, sizeof what, "%s: %s -> %s", scenario, producer, consumer);

  nc_deps_channel *ch = NULL;
  nc_deps_error err = {{0}};
  bool ok = nc_deps_compute_layers(net->layers[pi], net->layers[ci], &ch, &err);
  CHECK(ok, "%s: nc_deps_compute failed: %s", what, err.message);
  if (!ok)
    return -1;
  bf_channel b = bf_analyse(&net->m, P, C);
  ispace ps = {&net->m, P}, cs = {&net->m, C}, es = {&net->m, NULL};
  char label[260];

#define LABEL(x) (snprintf(label, sizeof label, "%s: %s", what, x), label)
  expect_map(LABEL("Dep"), nc_deps_channel_get_dependences(ch), cs, ps, b.dep);
  expect_function(LABEL("lexmax(Dep)"), isl_union_map_from_map(nc_deps_channel_get_last(ch)),
                  cs, ps, b.last);
  expect_function(LABEL("earliest"), isl_union_map_from_map(nc_deps_channel_get_earliest(ch)),
                  cs, ps, b.earliest);
  char *free_mat = calloc((size_t)b.nc, 1);
  for (int64_t c = 0; c < b.nc; c++)
    free_mat[c] = b.earliest[c] < 0;
  expect_set(LABEL("free"), nc_deps_channel_get_free(ch), cs, free_mat);
  free(free_mat);
  expect_function(LABEL("control"), isl_union_map_from_map(nc_deps_channel_get_control(ch)),
                  ps, cs, b.control);
  int64_t *trig = malloc((size_t)b.np * sizeof(int64_t));
  for (int64_t p = 0; p < b.np; p++)
    trig[p] = b.trigger[p] ? b.control[p] : -1;
  expect_function(LABEL("triggers"), isl_union_map_from_map(nc_deps_channel_get_triggers(ch)),
                  ps, cs, trig);
  free(trig);
  int64_t *fw = malloc((size_t)b.ne * sizeof(int64_t));
  for (int64_t e = 0; e < b.ne; e++)
    fw[e] = b.in_channel[e] ? b.first_write[e] : -1;
  expect_function(LABEL("first write"), nc_deps_channel_get_first_write(ch), es, ps, fw);
  free(fw);
  expect_function(LABEL("last read"), nc_deps_channel_get_last_read(ch), es, cs, b.last_read);
  expect_function(LABEL("release"), nc_deps_channel_get_release(ch), es, ps, b.release);
#undef LABEL

  /* The simulated timeline must run each consumer iteration exactly at the
   * step the set-based earliest predicts. */
  int64_t mismatched = 0;
  for (int64_t c = 0; c < b.nc; c++)
    mismatched += b.run_step[c] != b.earliest[c];
  CHECK(mismatched == 0, "%s: simulated start steps differ from the prefix max at %" PRId64
        " iterations", what, mismatched);

  int64_t size = nc_deps_channel_get_buffer_size(ch);
  CHECK(size == b.buffer, "%s: buffer %" PRId64 " (isl) vs %" PRId64 " (simulation)", what, size,
        b.buffer);
  char *peak = calloc((size_t)b.np, 1);
  peak[b.peak_step] = 1;
  snprintf(label, sizeof label, "%s: buffer peak", what);
  expect_set(label, nc_deps_channel_get_buffer_peak(ch), ps, peak);
  free(peak);

  char *text = NULL;
  ok = nc_deps_channel_control_to_C_str(ch, &text, &err);
  CHECK(ok && text, "%s: control AST failed: %s", what, err.message);
  if (text) {
    char call[80];
    snprintf(call, sizeof call, "%s(", producer);
    CHECK(strstr(text, call) != NULL, "%s: control AST lacks %s...):\n%s", what, call, text);
    snprintf(call, sizeof call, "%s_upto(", consumer);
    CHECK(strstr(text, call) != NULL, "%s: control AST lacks %s...):\n%s", what, call, text);
    free(text);
  }
  nc_deps_channel_destroy(ch);
  bf_channel_free(&b);
  return size;
}

/* Runs a network: checks every layer and the listed channels. */
static void run_network(isl_ctx *ctx, const char *scenario, const spec *specs, int n,
                        const char *const (*channels)[2], int nch)
{
  network net;
  if (network_build(ctx, &net, specs, n)) {
    check_layers(scenario, &net);
    for (int i = 0; i < nch; i++)
      check_channel(scenario, &net, channels[i][0], channels[i][1]);
  }
  network_free(&net);
}

/* Source -> one windowed layer, at both granularities of each side. */
static void run_window(isl_ctx *ctx, const char *scenario, kind k, nc_deps_shape in,
                       int64_t oc, nc_deps_window w)
{
  static const nc_deps_granularity gs[2] = {NC_DEPS_PER_PIXEL, NC_DEPS_PER_ROW};
  for (int gp = 0; gp < 2; gp++)
    for (int gc = 0; gc < 2; gc++) {
      spec specs[2] = {
          {K_INPUT, "In", NULL, NULL, "X", in, 0, {0}, gs[gp], 0},
          {k, "L", "X", NULL, "Y", in, oc, w, gs[gc], 0},
      };
      static const char *const ch[][2] = {{"In", "L"}};
      char name[160];
      snprintf(name, sizeof name, "%s [%s -> %s]", scenario, gp ? "row" : "pixel",
               gc ? "row" : "pixel");
      run_network(ctx, name, specs, 2, ch, 1);
    }
}

static void test_windows(isl_ctx *ctx)
{
  nc_deps_shape s8 = {2, 8, 8}, s75 = {2, 7, 5}, s3 = {3, 6, 5};
  run_window(ctx, "conv 3x3 s1 p1", K_CONV, s8, 3, nc_deps_window_square(3, 1, 1, 1));
  run_window(ctx, "conv 3x3 s2 p1", K_CONV, s8, 3, nc_deps_window_square(3, 2, 1, 1));
  run_window(ctx, "conv 3x3 s1 p0", K_CONV, s8, 3, nc_deps_window_square(3, 1, 0, 1));
  run_window(ctx, "conv 3x3 s1 p2 d2", K_CONV, s8, 3, nc_deps_window_square(3, 1, 2, 2));
  run_window(ctx, "conv 1x1", K_CONV, s8, 4, nc_deps_window_square(1, 1, 0, 1));
  run_window(ctx, "conv 5x5 s1 p2", K_CONV, s8, 2, nc_deps_window_square(5, 1, 2, 1));
  run_window(ctx, "maxpool 2x2 s2", K_POOL, s8, 0, nc_deps_window_square(2, 2, 0, 1));
  run_window(ctx, "avgpool 3x3 s1 p1", K_POOL, s8, 0, nc_deps_window_square(3, 1, 1, 1));
  run_window(ctx, "conv 3x3 s1 p1 on 7x5", K_CONV, s75, 2, nc_deps_window_square(3, 1, 1, 1));
  run_window(ctx, "conv 3x3 s2 p0 on 7x5", K_CONV, s75, 2, nc_deps_window_square(3, 2, 0, 1));
  run_window(ctx, "maxpool 3x3 s2 p1 on 7x5", K_POOL, s75, 0,
             nc_deps_window_square(3, 2, 1, 1));
  /* Every per-axis parameter different, asymmetric pads. */
  nc_deps_window odd = {3, 2, 2, 1, 0, 1, 1, 0, 1, 2};
  run_window(ctx, "conv 3x2 s(2,1) pads(0,1,1,0) d(1,2) on 6x5", K_CONV, s3, 2, odd);
  /* Pad 3 around a 3x3 kernel: the first outputs read only padding, so
   * they form a non-empty free set. */
  run_window(ctx, "conv 3x3 s1 p3 on 4x4 (free iterations)", K_CONV, (nc_deps_shape){1, 4, 4},
             1, nc_deps_window_square(3, 1, 3, 1));
}

static void test_networks(isl_ctx *ctx)
{
  nc_deps_shape s = {2, 6, 6}, s75 = {2, 7, 5};
  nc_deps_window c3 = nc_deps_window_square(3, 1, 1, 1), c1 = nc_deps_window_square(1, 1, 0, 1);
  nc_deps_window c3s2 = nc_deps_window_square(3, 2, 0, 1);
  {
    /* Residual block: two producers (a 3x3 and a 1x1 branch) feed one add. */
    spec specs[] = {
        {K_INPUT, "In", NULL, NULL, "X", s, 0, {0}, NC_DEPS_PER_PIXEL, 0},
        {K_CONV, "A", "X", NULL, "TA", s, 2, c3, NC_DEPS_PER_PIXEL, 0},
        {K_CONV, "B", "X", NULL, "TB", s, 2, c1, NC_DEPS_PER_PIXEL, 0},
        {K_ADD, "Add", "TA", "TB", "Z", s, 0, {0}, NC_DEPS_PER_PIXEL, 0},
    };
    static const char *const ch[][2] = {{"In", "A"}, {"In", "B"}, {"A", "Add"}, {"B", "Add"}};
    run_network(ctx, "residual add", specs, 4, ch, 4);
  }
  {
    /* The same block with the add working per row. */
    spec specs[] = {
        {K_INPUT, "In", NULL, NULL, "X", s75, 0, {0}, NC_DEPS_PER_PIXEL, 0},
        {K_CONV, "A", "X", NULL, "TA", s75, 2, c3, NC_DEPS_PER_PIXEL, 0},
        {K_CONV, "B", "X", NULL, "TB", s75, 2, c1, NC_DEPS_PER_ROW, 0},
        {K_ADD, "Add", "TA", "TB", "Z", s75, 0, {0}, NC_DEPS_PER_ROW, 0},
    };
    static const char *const ch[][2] = {{"A", "Add"}, {"B", "Add"}};
    run_network(ctx, "residual add per row, 7x5", specs, 4, ch, 2);
  }
  {
    /* conv -> flatten -> gemm: the gemm needs the whole tensor. */
    spec specs[] = {
        {K_INPUT, "In", NULL, NULL, "X", s75, 0, {0}, NC_DEPS_PER_PIXEL, 0},
        {K_CONV, "Conv", "X", NULL, "T", s75, 3, c3, NC_DEPS_PER_PIXEL, 0},
        {K_FLATTEN, "Flat", "T", NULL, "F", {3, 7, 5}, 0, {0}, NC_DEPS_PER_PIXEL, 0},
        {K_GEMM, "Fc", "F", NULL, "Y", {3, 7, 5}, 0, {0}, NC_DEPS_PER_PIXEL, 10},
        {K_GEMM, "Fc2", "Y", NULL, "Y2", {10, 1, 1}, 0, {0}, NC_DEPS_PER_PIXEL, 4},
    };
    static const char *const ch[][2] = {{"Conv", "Flat"}, {"Flat", "Fc"}, {"Fc", "Fc2"}};
    network net;
    if (network_build(ctx, &net, specs, 5)) {
      check_layers("conv-flatten-gemm", &net);
      for (int i = 0; i < 3; i++) {
        int64_t size = check_channel("conv-flatten-gemm", &net, ch[i][0], ch[i][1]);
        if (i == 1) /* the gemm holds every element of the flattened vector */
          CHECK(size == 3 * 7 * 5, "flatten -> gemm buffer %" PRId64 ", want 105", size);
      }
      /* The gemm waits for the flatten's last iteration. */
      nc_deps_channel *chn = NULL;
      nc_deps_error err = {{0}};
      if (nc_deps_compute_layers(net.layers[2], net.layers[3], &chn, &err)) {
        isl_map *e = nc_deps_channel_get_earliest(chn);
        isl_map *want = isl_map_read_from_str(ctx, "{ Fc[] -> Flat[6, 4] }");
        CHECK(isl_map_is_equal(e, want) == isl_bool_true, "gemm does not wait for Flat[6, 4]");
        isl_map_free(e);
        isl_map_free(want);
        nc_deps_channel_destroy(chn);
      }
    }
    network_free(&net);
  }
  {
    /* Accumulating writes: an element lives from its first write; the
     * consumer waits for its last write. */
    spec specs[] = {
        {K_INPUT, "In", NULL, NULL, "X", {2, 5, 4}, 0, {0}, NC_DEPS_PER_PIXEL, 0},
        {K_ACCUM, "Up", "X", NULL, "T", {2, 5, 4}, 0, {0}, NC_DEPS_PER_PIXEL, 0},
        {K_CONV, "C", "T", NULL, "Y", {2, 6, 5}, 2, c3, NC_DEPS_PER_PIXEL, 0},
        {K_CONV, "R", "T", NULL, "Z", {2, 6, 5}, 2, c3s2, NC_DEPS_PER_ROW, 0},
    };
    static const char *const ch[][2] = {{"In", "Up"}, {"Up", "C"}, {"Up", "R"}};
    run_network(ctx, "accumulating writes", specs, 4, ch, 3);
  }
  {
    /* conv -> conv (stride 2) -> global pool, per row and per pixel mixed. */
    spec specs[] = {
        {K_INPUT, "In", NULL, NULL, "X", {1, 9, 7}, 0, {0}, NC_DEPS_PER_ROW, 0},
        {K_CONV, "C1", "X", NULL, "T1", {1, 9, 7}, 2, c3, NC_DEPS_PER_PIXEL, 0},
        {K_CONV, "C2", "T1", NULL, "T2", {2, 9, 7}, 2, c3s2, NC_DEPS_PER_PIXEL, 0},
        {K_GPOOL, "Gap", "T2", NULL, "G", {2, 4, 3}, 0, {0}, NC_DEPS_PER_PIXEL, 0},
    };
    static const char *const ch[][2] = {{"In", "C1"}, {"C1", "C2"}, {"C2", "Gap"}};
    run_network(ctx, "conv-conv-globalpool", specs, 4, ch, 3);
  }
}

/* The line buffer. With stride 1 and every input element read by some
 * output (true unless the output is narrower than the dilation, e.g. a
 * dilated kernel with no padding spanning the whole width), a conv whose
 * dilated kernel spans ke = dilation*(k-1)+1 rows and columns needs
 *   per-pixel producer and consumer:  C * ((ke - 1) * W + min(ke, W))
 *   either side per row:              C * ke * W
 * elements, for any padding from 0 to "same", on images of at least ke rows
 * (min(ke, W) matters only for kernels wider than the padded-out image).
 * Each case is also checked in full against brute force. */
static void test_line_buffer(isl_ctx *ctx)
{
  static const nc_deps_granularity gs[2] = {NC_DEPS_PER_PIXEL, NC_DEPS_PER_ROW};
  for (int g = 0; g < 4; g++)
    for (int64_t k = 1; k <= 7; k += 2)
      for (int64_t d = 1; d <= 2; d++)
        for (int64_t c = 1; c <= 3; c += 2)
          for (int64_t w = 5; w <= 9; w += 4)
            for (int same = 0; same <= 1; same++) {
              int64_t ke = d * (k - 1) + 1, h = ke + 2;
              int64_t pad = same ? (ke - 1) / 2 : 0;
              if (w + 2 * pad - ke + 1 < d) /* some columns never read */
                continue;
              if (c > 1 && (g != 0 || k == 1)) /* channels scale linearly: sample them */
                continue;
              spec specs[2] = {
                  {K_INPUT, "In", NULL, NULL, "X", {c, h, w}, 0, {0}, gs[g / 2], 0},
                  {K_CONV, "L", "X", NULL, "Y", {c, h, w}, 1,
                   nc_deps_window_square(k, 1, pad, d), gs[g % 2], 0},
              };
              network net;
              char name[160];
              snprintf(name, sizeof name, "line buffer %s->%s k%" PRId64 " d%" PRId64
                       " c%" PRId64 " %" PRId64 "x%" PRId64 " pad %" PRId64,
                       g / 2 ? "row" : "pixel", g % 2 ? "row" : "pixel", k, d, c, h, w, pad);
              if (network_build(ctx, &net, specs, 2)) {
                int64_t size = check_channel(name, &net, "In", "L");
                int64_t want = g == 0 ? c * ((ke - 1) * w + (ke < w ? ke : w)) : c * ke * w;
                CHECK(size == want, "%s: buffer %" PRId64 ", formula gives %" PRId64, name, size,
                      want);
              }
              network_free(&net);
            }
}

/* Bad input: false with a message, never an abort. */
static void test_errors(isl_ctx *ctx)
{
  nc_deps_channel *ch = (nc_deps_channel *)&ch; /* must be reset to NULL */
  nc_deps_error err = {{0}};
  const char *dom = "{ P[i] : 0 <= i < 4 }", *wr = "{ P[i] -> T[i] }";
  const char *cdom = "{ C[i] : 0 <= i < 4 }", *rd = "{ C[i] -> T[i] }";
  struct {
    const char *what, *pd, *pw, *cd, *cr, *msg;
  } cases[] = {
      {"syntax error", "{ P[i : }", wr, cdom, rd, "producer domain"},
      {"bad reads", dom, wr, cdom, "{ C[i] -> }", "consumer reads"},
      {"unbounded producer", "{ P[i] : i >= 0 }", wr, cdom, rd, "unbounded"},
      {"empty consumer", dom, wr, "{ C[i] : 0 <= i < 0 }", rd, "empty"},
      {"parametric", "[n] -> { P[i] : 0 <= i < n }", wr, cdom, rd, "parametric"},
      {"nothing carried", dom, wr, cdom, "{ C[i] -> U[i] }", "nothing"},
      {"wrong producer space", dom, "{ Q[i] -> T[i] }", cdom, rd, "nothing"},
      {"unbounded elements", dom, "{ P[i] -> T[j] }", cdom, "{ C[i] -> T[j] : j >= i }",
       "unbounded"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    err.message[0] = 0;
    ch = (nc_deps_channel *)&ch;
    bool ok = nc_deps_compute_str(ctx, cases[i].pd, cases[i].pw, cases[i].cd, cases[i].cr, &ch,
                                  &err);
    CHECK(!ok && ch == NULL, "%s: accepted", cases[i].what);
    CHECK(strstr(err.message, cases[i].msg) != NULL, "%s: message '%s' lacks '%s'",
          cases[i].what, err.message, cases[i].msg);
  }
  /* The caller's error mode comes back after a failure. */
  CHECK(isl_options_get_on_error(ctx) == ISL_ON_ERROR_ABORT, "isl on_error not restored");
  /* NULL error reports are allowed. */
  CHECK(!nc_deps_compute_str(ctx, "{ P[i : }", wr, cdom, rd, &ch, NULL), "NULL err");

  nc_deps_layer *l = NULL;
  nc_deps_shape s = {1, 4, 4};
  nc_deps_window w0 = nc_deps_window_square(3, 0, 1, 1), big = nc_deps_window_square(7, 1, 0, 1);
  nc_deps_window ok3 = nc_deps_window_square(3, 1, 1, 1);
  CHECK(!nc_deps_layer_conv2d(ctx, "L", "X", "Y", s, 1, &w0, NC_DEPS_PER_PIXEL, &l, &err) &&
            !l && strstr(err.message, "out of range"),
        "stride 0 accepted (%s)", err.message);
  CHECK(!nc_deps_layer_conv2d(ctx, "L", "X", "Y", s, 1, &big, NC_DEPS_PER_PIXEL, &l, &err) &&
            strstr(err.message, "smaller"),
        "kernel larger than the input accepted (%s)", err.message);
  CHECK(!nc_deps_layer_conv2d(ctx, "1L", "X", "Y", s, 1, &ok3, NC_DEPS_PER_PIXEL, &l, &err) &&
            strstr(err.message, "identifier"),
        "bad name accepted (%s)", err.message);
  CHECK(!nc_deps_layer_input(ctx, "In", "X", (nc_deps_shape){0, 4, 4}, NC_DEPS_PER_PIXEL, &l,
                             &err),
        "empty shape accepted");
  CHECK(!nc_deps_layer_gemm(ctx, "G", "F", "Y", 0, 3, &l, &err), "gemm without inputs accepted");
  CHECK(!nc_deps_layer_input(ctx, "In", "X", s, (nc_deps_granularity)7, &l, &err) &&
            strstr(err.message, "granularity"),
        "unknown granularity accepted (%s)", err.message);
  CHECK(!nc_deps_layer_from_str(ctx, "{ S[i] : i >= 0 }", "{ }", "{ }", &l, &err) &&
            strstr(err.message, "unbounded"),
        "unbounded layer accepted (%s)", err.message);
  CHECK(!nc_deps_layer_from_str(ctx, "{ S[i] : 0 <= i < 3 }", "{ S[i] -> }", "{ }", &l, &err) &&
            strstr(err.message, "reads"),
        "unparsable reads accepted (%s)", err.message);
  nc_deps_shape o = {0, 0, 0};
  nc_deps_window s2 = nc_deps_window_square(3, 2, 1, 1);
  CHECK(nc_deps_window_output_shape(&s2, (nc_deps_shape){1, 7, 5}, 5, &o, &err) &&
            o.channels == 5 && o.height == 4 && o.width == 3,
        "output shape of 3x3 s2 p1 over 7x5: %" PRId64 "x%" PRId64 "x%" PRId64, o.channels,
        o.height, o.width);
}

/* The note's example given as isl text (nc_deps_compute_str), the layer
 * text round trip, and the control AST's loop structure. */
static void test_text(isl_ctx *ctx)
{
  nc_deps_channel *ch = NULL;
  nc_deps_error err = {{0}};
  bool ok = nc_deps_compute_str(
      ctx, "{ P[y, x] : 0 <= y < 6 and 0 <= x < 6 }", "{ P[y, x] -> T[c, y, x] : 0 <= c < 4 }",
      "{ C[oy, ox] : 0 <= oy < 6 and 0 <= ox < 6 }",
      "{ C[oy, ox] -> T[c, iy, ix] : 0 <= c < 4 and oy - 1 <= iy < oy + 2 and "
      "ox - 1 <= ix < ox + 2 and 0 <= iy < 6 and 0 <= ix < 6 }",
      &ch, &err);
  CHECK(ok, "note example: %s", err.message);
  if (!ok)
    return;
  /* Interior: wait for the pixel one down and one right; last two rows wait
   * for the end of the image (prefix max); the line buffer is 4*(2*6+3). */
  isl_map *e = nc_deps_channel_get_earliest(ch);
  isl_map *want = isl_map_read_from_str(
      ctx, "{ C[oy, ox] -> P[oy + 1, ox + 1] : 0 <= oy <= 4 and 0 <= ox <= 4;"
           "  C[oy, 5] -> P[oy + 1, 5] : 0 <= oy <= 4; C[5, ox] -> P[5, 5] : 0 <= ox <= 5 }");
  CHECK(isl_map_is_equal(e, want) == isl_bool_true, "note example: earliest differs");
  isl_map_free(e);
  isl_map_free(want);
  CHECK(nc_deps_channel_get_buffer_size(ch) == 4 * (2 * 6 + 3), "note example: buffer %" PRId64,
        nc_deps_channel_get_buffer_size(ch));
  char *text = NULL;
  CHECK(nc_deps_channel_control_to_C_str(ch, &text, &err), "note example AST: %s", err.message);
  if (text) {
    CHECK(strstr(text, "for (int y = 0; y <= 5; y += 1)") &&
              strstr(text, "for (int x = 0; x <= 5; x += 1)") && strstr(text, "P(y, x);") &&
              strstr(text, "C_upto(y - 1, x - 1);") && strstr(text, "C_upto(5, 5);"),
          "note example AST:\n%s", text);
    free(text);
  }
  nc_deps_channel_destroy(ch);

  /* A builder's text parses back to the same relations. */
  nc_deps_layer *l = NULL, *back = NULL;
  nc_deps_window w = nc_deps_window_square(3, 2, 1, 2);
  ok = nc_deps_layer_conv2d(ctx, "Conv", "X", "Y", (nc_deps_shape){3, 9, 8}, 4, &w,
                            NC_DEPS_PER_ROW, &l, &err);
  CHECK(ok, "conv builder: %s", err.message);
  if (ok) {
    char *d = nc_deps_layer_domain_to_str(l), *r = nc_deps_layer_reads_to_str(l);
    char *wr = nc_deps_layer_writes_to_str(l);
    CHECK(nc_deps_layer_from_str(ctx, d, r, wr, &back, &err), "round trip: %s", err.message);
    if (back) {
      isl_union_map *a = nc_deps_layer_get_reads(l), *b = nc_deps_layer_get_reads(back);
      CHECK(isl_union_map_is_equal(a, b) == isl_bool_true, "round trip changed the reads");
      isl_union_map_free(a);
      isl_union_map_free(b);
    }
    free(d);
    free(r);
    free(wr);
  }
  nc_deps_layer_destroy(l);
  nc_deps_layer_destroy(back);
}

int main(void)
{
  isl_ctx *ctx = isl_ctx_alloc();
  /* Abort mode on purpose: the library must switch to continue mode itself
   * and put this back. */
  isl_options_set_on_error(ctx, ISL_ON_ERROR_ABORT);
  test_text(ctx);
  test_errors(ctx);
  test_windows(ctx);
  test_networks(ctx);
  test_line_buffer(ctx);
  isl_ctx_free(ctx);
  printf("deps_test: %d checks, %d failures\n", checks, failures);
  return failures ? 1 : 0;
}
