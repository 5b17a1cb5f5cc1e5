/* np_reads_test.c: the NorthPole loader's run-at-a-time last-reader marking
 * (np_mark_reads, targets/northpole/runtime/datapath.c) against the
 * element-by-element enumeration it replaces (np_foreach_read): for convs
 * (strides wider than the kernel, dilation, padding on every side, groups,
 * an input-channel slice) and pools, every run of output elements (inside a
 * row, across rows and across channel planes) marks exactly the input
 * elements np_foreach_read names, with the same read count; residual adds
 * and copies mark their run in each operand; other kinds are left to
 * np_foreach_read (-1). */
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

int main(void)
{
  windows();
  elementwise();
  return failures != 0;
}
