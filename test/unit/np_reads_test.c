/* np_reads_test.c: the NorthPole loader's run-at-a-time last-reader marking
 * (np_mark_reads, targets/northpole/runtime/datapath.c) against the
 * element-by-element enumeration it replaces (np_foreach_read): for convs
 * (strides wider than the kernel, dilation, padding on every side, groups,
 * an input-channel slice) and pools, every run of output elements (inside a
 * row, across rows and across channel planes) marks exactly the input
 * elements np_foreach_read names, with the same read count; residual adds
 * and copies mark their run in each operand; other kinds are left to
 * np_foreach_read (-1). Also np_same_reads, which lets one layer's
 * output-channel slices share a read plan in the loader. */
#include <stdlib.h>
#include <string.h>

#include "../../targets/northpole/runtime/np_sim.h"
#include "check.h"

static void shape4(np_shape *s, int64_t n, int64_t c, int64_t h, int64_t w)
{
  s->rank = 4;
  s->dims[0] = n, s->dims[1] = c, s->dims[2] = h, s->dims[3] = w;
  s->elements = n * c * h * w;
}

typedef struct ref_ctx {
  int32_t *last[2];
  int32_t iter;
  int64_t reads;
} ref_ctx;

static void ref_mark(uint32_t operand, int64_t idx, void *user)
{
  ref_ctx *c = user;
  c->last[operand][idx] = c->iter;
  c->reads++;
}

/* Marks runs of t's output (run lengths 1, 5, a row and a half, a plane and
 * more) both ways, each run under its own iteration, and compares. */
static void compare(const np_tile *t, const char *what)
{
  int64_t n_in = t->in[0].elements, n_out = t->out.elements;
  int32_t *fast[2], *ref[2];
  for (int k = 0; k < 2; k++) {
    fast[k] = malloc((size_t)n_in * sizeof(int32_t));
    ref[k] = malloc((size_t)n_in * sizeof(int32_t));
    memset(fast[k], 0xFF, (size_t)n_in * sizeof(int32_t));
    memset(ref[k], 0xFF, (size_t)n_in * sizeof(int32_t));
  }
  int64_t lens[4] = {1, 5, t->out.dims[3] * 3 / 2 + 1, t->out.dims[2] * t->out.dims[3] + 7};
  ref_ctx c = {{ref[0], ref[1]}, 0, 0};
  int32_t iter = 0;
  for (int li = 0; li < 4; li++)
    for (int64_t e = 0; e < n_out; e += lens[li], iter++) {
      int64_t len = lens[li] < n_out - e ? lens[li] : n_out - e, before = c.reads;
      c.iter = iter;
      for (int64_t j = 0; j < len; j++)
        np_foreach_read(t, e + j, ref_mark, &c);
      int64_t reads = np_mark_reads(t, e, len, iter, fast);
      CHECK(reads == c.reads - before, "%s: run [%lld, +%lld) counts %lld reads, want %lld", what, (long long)e,
            (long long)len, (long long)reads, (long long)(c.reads - before));
    }
  for (int k = 0; k < 2; k++)
    for (int64_t i = 0; i < n_in; i++)
      if (fast[k][i] != ref[k][i]) {
        CHECK(0, "%s: operand %d element %lld last read by %d, want %d", what, k, (long long)i, fast[k][i],
              ref[k][i]);
        break;
      }
  for (int k = 0; k < 2; k++)
    free(fast[k]), free(ref[k]);
}

static np_tile window_tile(uint32_t kind, int64_t c, int64_t h, int64_t w, int64_t m, int64_t k, int64_t s, int64_t d,
                           int64_t p, int64_t group)
{
  np_tile t;
  memset(&t, 0, sizeof t);
  t.kind = kind;
  t.n_operands = 1;
  t.kernel[0] = t.kernel[1] = k;
  t.stride[0] = s, t.stride[1] = s + (s > 1); /* unequal strides: rows and columns differ */
  t.dilation[0] = t.dilation[1] = d;
  t.pad[0] = p, t.pad[1] = p + (p > 0), t.pad[2] = p, t.pad[3] = p;
  t.group = group;
  int64_t oh = (h + 2 * p - d * (k - 1) - 1) / s + 1, ow = (w + 2 * p + (p > 0) - d * (k - 1) - 1) / (s + (s > 1)) + 1;
  shape4(&t.in[0], 1, c, h, w);
  shape4(&t.out, 1, m, oh, ow);
  t.ch_lo = 0, t.ch_hi = m;
  return t;
}

static void windows(void)
{
  struct {
    int64_t k, s, d, p, group;
  } g[] = {{1, 1, 1, 0, 1}, {3, 1, 1, 1, 1}, {1, 2, 1, 0, 1}, {3, 2, 1, 1, 1}, {3, 1, 2, 2, 1},
           {5, 3, 1, 2, 1}, {3, 1, 1, 1, 4}, {2, 4, 1, 0, 2}, {7, 2, 1, 3, 1}};
  for (size_t i = 0; i < sizeof g / sizeof g[0]; i++) {
    char what[96];
    snprintf(what, sizeof what, "conv k%lld s%lld d%lld p%lld g%lld", (long long)g[i].k, (long long)g[i].s,
             (long long)g[i].d, (long long)g[i].p, (long long)g[i].group);
    np_tile t = window_tile(NP_KIND_CONV, 8, 11, 13, 8, g[i].k, g[i].s, g[i].d, g[i].p, g[i].group);
    compare(&t, what);
    if (g[i].group == 1) { /* a slice of the input channels */
      t.flags = NP_FLAG_PARTIAL, t.in_lo = 2, t.in_hi = 5;
      compare(&t, what);
    }
    t = window_tile(NP_KIND_MAX_POOL, 8, 11, 13, 8, g[i].k, g[i].s, g[i].d, g[i].p, 1);
    compare(&t, "max pool");
    t.kind = NP_KIND_AVG_POOL;
    compare(&t, "avg pool");
  }
}

static void elementwise(void)
{
  np_tile t;
  memset(&t, 0, sizeof t);
  t.kind = NP_KIND_ELTWISE, t.n_operands = 2;
  shape4(&t.out, 1, 3, 5, 7);
  t.in[0] = t.in[1] = t.out;
  compare(&t, "residual add");
  t.kind = NP_KIND_COPY, t.n_operands = 1;
  compare(&t, "copy");
  t.kind = NP_KIND_CONCAT;
  int32_t dummy[4];
  int32_t *last[1] = {dummy};
  CHECK(np_mark_reads(&t, 0, 4, 0, last) == -1, "a concat is left to np_foreach_read");
}

/* The input elements output element e of t reads, in order (operand k's as idx + k * 2^40). */
typedef struct list_ctx {
  int64_t idx[1024];
  int n;
} list_ctx;

static void list_read(uint32_t operand, int64_t idx, void *user)
{
  list_ctx *c = user;
  if (c->n < 1024)
    c->idx[c->n++] = idx + (int64_t)operand * ((int64_t)1 << 40);
}

static bool same_list(const np_tile *a, int64_t ea, const np_tile *b, int64_t eb)
{
  list_ctx x = {.n = 0}, y = {.n = 0};
  np_foreach_read(a, ea, list_read, &x);
  np_foreach_read(b, eb, list_read, &y);
  return x.n == y.n && !memcmp(x.idx, y.idx, (size_t)x.n * sizeof x.idx[0]);
}

/* The output channel of flat element e. */
static int64_t channel_of(const np_tile *t, int64_t e)
{
  int64_t inner = 1;
  for (int d = 2; d < t->out.rank; d++)
    inner *= t->out.dims[d];
  return t->out.rank == 2 ? e % t->out.dims[1] : e / inner % t->out.dims[1];
}

/* Tiles a and b (two slices of one layer's output channels) read alike: np_same_reads says so, and every
 * element of b's channels reads what a's element with the same key reads (some keys shared). */
static void slices_alike(const np_tile *a, const np_tile *b, const char *what)
{
  CHECK(np_same_reads(a, b) && np_same_reads(b, a), "%s: slices of one layer read alike", what);
  int64_t n_keys;
  np_read_key(a, 0, &n_keys);
  int64_t *first = malloc((size_t)n_keys * sizeof *first), shared = 0;
  for (int64_t k = 0; k < n_keys; k++)
    first[k] = -1;
  for (int64_t e = 0; e < a->out.elements; e++) {
    int64_t key = np_read_key(a, e, NULL), ch = channel_of(a, e);
    if (ch >= a->ch_lo && ch < a->ch_hi && first[key] < 0)
      first[key] = e;
  }
  for (int64_t e = 0; e < b->out.elements; e++) {
    int64_t key = np_read_key(b, e, NULL), ch = channel_of(b, e);
    if (ch < b->ch_lo || ch >= b->ch_hi || first[key] < 0)
      continue;
    shared++;
    if (!same_list(a, first[key], b, e)) {
      CHECK(0, "%s: element %lld of one slice reads other elements than %lld of the other, key %lld", what,
            (long long)e, (long long)first[key], (long long)key);
      break;
    }
  }
  CHECK(shared > 0, "%s: the slices share keys", what);
  free(first);
}

/* np_same_reads: the output-channel slices of a conv (groups, an input-channel slice) and of a matmul read
 * alike; a change to any field that moves the reads (or another kind) does not. */
static void same_reads(void)
{
  np_tile a = window_tile(NP_KIND_CONV, 8, 11, 13, 8, 3, 2, 1, 1, 1), b = a;
  a.ch_hi = 3, b.ch_lo = 3;
  slices_alike(&a, &b, "conv");
  a.flags = b.flags = NP_FLAG_PARTIAL, a.in_lo = b.in_lo = 2, a.in_hi = b.in_hi = 5;
  slices_alike(&a, &b, "conv, input-channel slice");
  b.in_lo = 3;
  CHECK(!np_same_reads(&a, &b), "other input channels");
  a = window_tile(NP_KIND_CONV, 8, 11, 13, 8, 3, 1, 1, 1, 4), b = a; /* 2 output channels per group */
  a.ch_lo = 2, a.ch_hi = 3, b.ch_lo = 3, b.ch_hi = 4;
  slices_alike(&a, &b, "grouped conv");
  np_tile m;
  memset(&m, 0, sizeof m);
  m.kind = NP_KIND_MATMUL, m.n_operands = 1;
  m.in[0] = (np_shape){.rank = 2, .dims = {3, 6}, .elements = 18};
  m.out = (np_shape){.rank = 2, .dims = {3, 5}, .elements = 15};
  np_tile n = m;
  m.ch_lo = 0, m.ch_hi = 2, n.ch_lo = 2, n.ch_hi = 5;
  slices_alike(&m, &n, "matmul");
  a = window_tile(NP_KIND_CONV, 8, 11, 13, 8, 3, 2, 1, 1, 1);
  np_tile c[8];
  for (int i = 0; i < 8; i++)
    c[i] = a;
  c[0].stride[1]++, c[1].pad[0]++, c[2].kernel[0]++, c[3].dilation[1]++, c[4].group = 2;
  shape4(&c[5].in[0], 1, 8, 12, 13);
  c[6].kind = NP_KIND_MAX_POOL, c[7].n_operands = 2;
  for (int i = 0; i < 8; i++)
    CHECK(!np_same_reads(&a, &c[i]) && !np_same_reads(&c[i], &a), "change %d reads otherwise", i);
  CHECK(!np_same_reads(&c[6], &c[6]), "only convs and matmuls");
}

int main(void)
{
  windows();
  elementwise();
  same_reads();
  return failures != 0;
}
