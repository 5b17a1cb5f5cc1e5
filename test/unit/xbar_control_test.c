/* xbar_control_test.c: the xbar target's control programs (data compiled
 * from dataflow-deps' `earliest` relation, targets/xbar/control.c) against
 * isl's own enumeration of the relation, on small shapes with strides,
 * pads, dilations, pools and a gemm, and a relation whose producer
 * iteration is a floor division; plus the checker's refusals of
 * malformed programs. */
#include <isl/ctx.h>
#include <isl/map.h>
#include <isl/set.h>
#include <stdlib.h>
#include <string.h>

#include "../../targets/xbar/control.h"
#include "../../targets/xbar/runtime/xbar_control.h"
#include "check.h"
#include "nc/dialects/dataflow/deps.h"

typedef struct point_ctx {
  isl_map *earliest;
  xbar_control *prog;
  int n_in, n_out;
  long points, waits;
} point_ctx;

static isl_stat check_point(__isl_take isl_point *pt, void *userData)
{
  point_ctx *p = userData;
  int64_t in[8], out[8] = {0};
  for (int i = 0; i < p->n_in; i++) {
    isl_val *v = isl_point_get_coordinate_val(pt, isl_dim_set, i);
    in[i] = isl_val_get_num_si(v);
    isl_val_free(v);
  }
  isl_map *at = isl_map_intersect_domain(isl_map_copy(p->earliest), isl_set_from_point(isl_point_copy(pt)));
  isl_set *img = isl_map_range(at);
  xbar_control_result r = xbar_control_eval(p->prog, in, out);
  p->points++;
  if (isl_set_is_empty(img)) {
    CHECK(r == XBAR_CONTROL_NONE, "iteration %lld,%lld waits for nothing in isl but the program says %d",
          (long long)in[0], (long long)(p->n_in > 1 ? in[1] : 0), (int)r);
  } else {
    p->waits++;
    isl_point *q = isl_set_sample_point(isl_set_copy(img));
    CHECK(r == XBAR_CONTROL_WAIT, "iteration %lld waits in isl but not in the program", (long long)in[0]);
    for (int o = 0; o < p->n_out && r == XBAR_CONTROL_WAIT; o++) {
      isl_val *v = isl_point_get_coordinate_val(q, isl_dim_set, o);
      CHECK(isl_val_get_num_si(v) == out[o], "iteration (%lld, %lld): producer dim %d is %ld in isl, %lld here",
            (long long)in[0], (long long)(p->n_in > 1 ? in[1] : 0), o, isl_val_get_num_si(v), (long long)out[o]);
      isl_val_free(v);
    }
    isl_point_free(q);
  }
  isl_set_free(img);
  isl_point_free(pt);
  return isl_stat_ok;
}

/* Compiles the channel's earliest relation, evaluates it at every consumer iteration, compares with isl. */
/* Compiles `e` to a control program, checks the words and evaluates the
 * program at every point of `dom` (borrowed) against `e`: false (and a
 * failure recorded) if it did not compile or check. The words go in *w
 * (the caller frees them), the counts in *p. */
static bool run_relation(isl_map *e, isl_set *dom, const char *what, int64_t **w, size_t *n, xbar_control *prog,
                         point_ctx *p)
{
  char err[256];
  int n_in = (int)isl_map_dim(e, isl_dim_in), n_out = (int)isl_map_dim(e, isl_dim_out);
  bool ok = xbar_control_compile(e, w, n, err, sizeof err);
  CHECK(ok, "%s: %s", what, err);
  if (!ok)
    return false;
  ok = xbar_control_check(*w, *n, n_in, n_out, prog, err, sizeof err);
  CHECK(ok, "%s: %s", what, err);
  if (!ok)
    return false;
  *p = (point_ctx){e, prog, n_in, n_out, 0, 0};
  isl_set_foreach_point(dom, check_point, p);
  return true;
}

static void check_channel(nc_deps_layer *prod, nc_deps_layer *cons, const char *what, bool print_c)
{
  nc_deps_channel *ch = NULL;
  nc_deps_error derr;
  CHECK(nc_deps_compute_layers(prod, cons, &ch, &derr), "%s: deps: %s", what, derr.message);
  if (!ch)
    return;
  isl_map *e = nc_deps_channel_get_earliest(ch);
  int64_t *w = NULL;
  size_t n = 0;
  char err[256];
  xbar_control prog;
  point_ctx p;
  int n_in = (int)isl_map_dim(e, isl_dim_in), n_out = (int)isl_map_dim(e, isl_dim_out);
  isl_set *dom = nc_deps_layer_get_domain(cons);
  if (run_relation(e, dom, what, &w, &n, &prog, &p)) {
    CHECK(p.points > 0 && p.waits > 0, "%s: nothing checked", what);
    /* the program's size does not grow with the iterations: a few pieces */
    CHECK(prog.n_pieces >= 1 && prog.n_pieces <= 16, "%s: %zu pieces", what, prog.n_pieces);
    /* every truncation is refused */
    for (size_t cut = 0; cut < n; cut++)
      CHECK(!xbar_control_check(w, cut, n_in, n_out, NULL, err, sizeof err), "%s: truncated at %zu accepted", what,
            cut);
    if (print_c) {
      char *buf = NULL;
      size_t len = 0;
      FILE *f = open_memstream(&buf, &len);
      CHECK(xbar_control_print_c(f, dom, e, "conv", "input", err, sizeof err), "%s: %s", what, err);
      fclose(f);
      CHECK(buf && strstr(buf, "wait_for_input(") && strstr(buf, "for (int"), "%s: C form:\n%s", what, buf);
      free(buf);
    }
  }
  isl_set_free(dom);
  free(w);
  isl_map_free(e);
  nc_deps_channel_destroy(ch);
}

static void conv_case(isl_ctx *ctx, nc_deps_shape in, nc_deps_window win, nc_deps_granularity g, const char *what)
{
  nc_deps_layer *src = NULL, *conv = NULL;
  nc_deps_error err;
  CHECK(nc_deps_layer_input(ctx, "In", "X", in, g, &src, &err), "%s", err.message);
  CHECK(nc_deps_layer_conv2d(ctx, "Conv", "X", "Y", in, 3, &win, g, &conv, &err), "%s", err.message);
  if (src && conv)
    check_channel(src, conv, what, g == NC_DEPS_PER_PIXEL);
  nc_deps_layer_destroy(src);
  nc_deps_layer_destroy(conv);
}

/* An earliest relation given directly: compiled and evaluated at every iteration of its domain, as above. */
static void relation_case(isl_ctx *ctx, const char *text, const char *what)
{
  isl_map *e = isl_map_read_from_str(ctx, text);
  int64_t *w = NULL;
  size_t n = 0;
  xbar_control prog;
  point_ctx p;
  isl_set *dom = isl_map_domain(isl_map_copy(e));
  if (run_relation(e, dom, what, &w, &n, &prog, &p))
    CHECK(p.points > 0 && p.waits == p.points, "%s: %ld of %ld points checked", what, p.waits, p.points);
  isl_set_free(dom);
  free(w);
  isl_map_free(e);
}

static void refusals(void)
{
  char err[256];
  /* 1 -> 1 dims, one piece, one bset with no div and one constraint c0 >= 0, expr floor((c0 + 1) / 1) */
  int64_t good[] = {1, 1, 1, 1, 0, 1, 1, 1, 0, 0, 1, 1, 1};
  CHECK(xbar_control_check(good, NC_COUNTOF(good), 1, 1, NULL, err, sizeof err), "%s", err);
  xbar_control c;
  xbar_control_check(good, NC_COUNTOF(good), 1, 1, &c, err, sizeof err);
  int64_t in = 4, out = 0;
  CHECK(xbar_control_eval(&c, &in, &out) == XBAR_CONTROL_WAIT && out == 5, "eval %lld", (long long)out);
  in = -1;
  CHECK(xbar_control_eval(&c, &in, &out) == XBAR_CONTROL_NONE, "outside");
  int64_t bad[NC_COUNTOF(good)];
  memcpy(bad, good, sizeof bad);
  bad[10] = 0; /* a zero denominator */
  CHECK(!xbar_control_check(bad, NC_COUNTOF(bad), 1, 1, NULL, err, sizeof err) && strstr(err, "denominator"), "%s",
        err);
  memcpy(bad, good, sizeof bad);
  bad[2] = XBAR_CONTROL_MAX_PIECES + 1;
  CHECK(!xbar_control_check(bad, NC_COUNTOF(bad), 1, 1, NULL, err, sizeof err) && strstr(err, "pieces"), "%s", err);
  memcpy(bad, good, sizeof bad);
  bad[7] = (int64_t)1 << 40; /* a coefficient out of bounds */
  CHECK(!xbar_control_check(bad, NC_COUNTOF(bad), 1, 1, NULL, err, sizeof err) && strstr(err, "outside"), "%s", err);
  CHECK(!xbar_control_check(good, NC_COUNTOF(good), 2, 1, NULL, err, sizeof err) && strstr(err, "consumer has 2"),
        "%s", err);
  int64_t longer[NC_COUNTOF(good) + 1];
  memcpy(longer, good, sizeof good);
  longer[NC_COUNTOF(good)] = 0;
  CHECK(!xbar_control_check(longer, NC_COUNTOF(longer), 1, 1, NULL, err, sizeof err) && strstr(err, "follow"), "%s",
        err);
}

int main(void)
{
  isl_ctx *ctx = isl_ctx_alloc();
  nc_deps_granularity gs[] = {NC_DEPS_PER_PIXEL, NC_DEPS_PER_ROW};
  for (int gi = 0; gi < 2; gi++) {
    nc_deps_granularity g = gs[gi];
    conv_case(ctx, (nc_deps_shape){2, 6, 6}, nc_deps_window_square(3, 1, 1, 1), g, "conv 3x3 s1 p1");
    conv_case(ctx, (nc_deps_shape){2, 9, 7}, nc_deps_window_square(3, 2, 1, 1), g, "conv 3x3 s2 p1");
    conv_case(ctx, (nc_deps_shape){1, 7, 5}, nc_deps_window_square(3, 1, 0, 1), g, "conv 3x3 s1 p0");
    conv_case(ctx, (nc_deps_shape){1, 9, 9}, nc_deps_window_square(3, 1, 2, 2), g, "conv dilation 2");
    conv_case(ctx, (nc_deps_shape){1, 5, 5}, nc_deps_window_square(5, 1, 3, 1), g, "conv pad 3 (free iterations)");
    nc_deps_window asym = {3, 2, 2, 1, 1, 0, 0, 1, 1, 2};
    conv_case(ctx, (nc_deps_shape){1, 8, 7}, asym, g, "asymmetric window");
    /* pool 2x2 s2 after a conv, and flatten -> gemm */
    nc_deps_layer *src = NULL, *pool = NULL, *flat = NULL, *fc = NULL;
    nc_deps_error err;
    nc_deps_window pw = nc_deps_window_square(2, 2, 0, 1);
    nc_deps_layer_input(ctx, "In", "X", (nc_deps_shape){4, 8, 8}, g, &src, &err);
    CHECK(nc_deps_layer_pool2d(ctx, "Pool", "X", "Y", (nc_deps_shape){4, 8, 8}, &pw, g, &pool, &err), "%s",
          err.message);
    check_channel(src, pool, "max pool 2x2 s2", false);
    CHECK(nc_deps_layer_flatten(ctx, "Flat", "X", "F", (nc_deps_shape){4, 8, 8}, g, &flat, &err), "%s", err.message);
    CHECK(nc_deps_layer_gemm(ctx, "Fc", "F", "Z", 256, 10, &fc, &err), "%s", err.message);
    check_channel(flat, fc, "flatten -> gemm", false);
    nc_deps_layer_destroy(src);
    nc_deps_layer_destroy(pool);
    nc_deps_layer_destroy(flat);
    nc_deps_layer_destroy(fc);
  }
  /* a producer iteration that is a division of the consumer's (a linear resize x2: floor((y + 1) / 2)); isl
   * gives such divisions only over the aff's domain space */
  relation_case(ctx, "{ S[y, x] -> P[oy, ox] : 0 <= y <= 9 and 0 <= x <= 11 and 2oy <= y + 1 <= 2oy + 1 and "
                     "0 <= oy <= 4 and 2ox <= x + 1 <= 2ox + 1 and 0 <= ox <= 5 }", "floor((y + 1) / 2)");
  refusals();
  isl_ctx_free(ctx);
  if (failures)
    fprintf(stderr, "%d check(s) failed\n", failures);
  return failures != 0;
}
