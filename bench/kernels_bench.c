/* kernels_bench.c: throughput of the reference interpreter's heavy kernels.
 *
 * Prints GFLOP/s (2 x multiply-accumulates per second; GOP/s for integer
 * convs) of fp32 and int8 convolutions shaped like ResNet-50 and MobileNet
 * layers, and of a square fp32 GEMM, each the best of several runs so that
 * a noisy machine reports its sustained rate. The anchor is the same
 * machine's in-cache GEMM rate (a small product repeated while it stays in
 * L2, i.e. what the register-blocked micro-kernel sustains, measured before
 * and after the rows); every row also prints its ratio to that bound.
 * Usage: kernels_bench [reps]
 */
#include "nc/dialects/graph/kernels.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static nc_tensor *make(nc_dtype dt, int rank, const int64_t *shape, unsigned *seed)
{
  nc_tensor *t = nc_tensor_create(dt, rank, shape, 0);
  if (!t) {
    fprintf(stderr, "kernels_bench: cannot allocate a tensor\n");
    exit(1);
  }
  int64_t n = nc_tensor_num_elements(t);
  for (int64_t i = 0; i < n; i++) {
    *seed = *seed * 1103515245u + 12345u;
    int v = (int)((*seed >> 16) & 0xff);
    if (dt == NC_DT_F32)
      ((float *)t->data)[i] = (float)(v - 128) / 128.0f;
    else
      nc_tensor_set_i64(t, i, dt == NC_DT_U8 ? v : v - 128);
  }
  return t;
}

typedef struct conv_case {
  const char *name;
  int64_t c, h, m, k, stride, pad, group;
} conv_case;

/* In-cache GEMM rate: 96x256 by 256x128 (about 250 KB of operands) repeated. */
static double bench_peak(bool int8, int reps)
{
  unsigned seed = 3;
  int64_t as[2] = {96, 256}, bs[2] = {256, 128}, ys[2] = {96, 128};
  nc_tensor *a = make(int8 ? NC_DT_U8 : NC_DT_F32, 2, as, &seed), *b = make(int8 ? NC_DT_I8 : NC_DT_F32, 2, bs, &seed);
  nc_tensor *y = nc_tensor_create(int8 ? NC_DT_I32 : NC_DT_F32, 2, ys, 0);
  char err[256];
  double best = 1e30;
  for (int r = 0; r < reps; r++) {
    double t0 = now();
    for (int i = 0; i < 20; i++) {
      bool ok = int8 ? nc_kernel_matmul_integer(a, b, NULL, NULL, y, err, sizeof err)
                     : nc_kernel_matmul(a, b, y, err, sizeof err);
      if (!ok) {
        fprintf(stderr, "kernels_bench: %s\n", err);
        exit(1);
      }
    }
    double t = (now() - t0) / 20;
    best = t < best ? t : best;
  }
  nc_tensor_destroy(a);
  nc_tensor_destroy(b);
  nc_tensor_destroy(y);
  return 2.0 * 96 * 256 * 128 / best * 1e-9;
}

/* One measured row of the table. */
typedef struct row {
  const char *kind;
  char name[64];
  double ms, rate;
  bool int8;
} row;

static row bench_conv(const conv_case *cc, bool int8, int reps)
{
  unsigned seed = 42;
  int64_t xs[4] = {1, cc->c, cc->h, cc->h}, ws[4] = {cc->m, cc->c / cc->group, cc->k, cc->k}, ys[4];
  nc_conv_params p = {.strides = {cc->stride, cc->stride}, .pads = {cc->pad, cc->pad, cc->pad, cc->pad},
                      .group = cc->group};
  char err[256];
  if (!nc_kernel_conv_shape(&p, 4, xs, ws, ys, err, sizeof err)) {
    fprintf(stderr, "kernels_bench: %s\n", err);
    exit(1);
  }
  nc_tensor *x = make(int8 ? NC_DT_U8 : NC_DT_F32, 4, xs, &seed);
  nc_tensor *w = make(int8 ? NC_DT_I8 : NC_DT_F32, 4, ws, &seed);
  nc_tensor *y = nc_tensor_create(int8 ? NC_DT_I32 : NC_DT_F32, 4, ys, 0);
  double macs = (double)(ys[1] * ys[2] * ys[3]) * (double)(ws[1] * ws[2] * ws[3]);
  double best = 1e30;
  for (int r = 0; r < reps; r++) {
    double t0 = now();
    bool ok = int8 ? nc_kernel_conv_integer(&p, x, w, NULL, NULL, y, err, sizeof err)
                   : nc_kernel_conv(&p, x, w, NULL, y, err, sizeof err);
    double t = now() - t0;
    if (!ok) {
      fprintf(stderr, "kernels_bench: %s\n", err);
      exit(1);
    }
    best = t < best ? t : best;
  }
  row r = {int8 ? "int8" : "fp32", "", best * 1e3, 2 * macs / best * 1e-9, int8};
  snprintf(r.name, sizeof r.name, "%s", cc->name);
  nc_tensor_destroy(x);
  nc_tensor_destroy(w);
  nc_tensor_destroy(y);
  return r;
}

static row bench_gemm(int64_t n, int reps)
{
  unsigned seed = 7;
  int64_t s[2] = {n, n};
  nc_tensor *a = make(NC_DT_F32, 2, s, &seed), *b = make(NC_DT_F32, 2, s, &seed);
  nc_tensor *y = nc_tensor_create(NC_DT_F32, 2, s, 0);
  char err[256];
  double best = 1e30;
  for (int r = 0; r < reps; r++) {
    double t0 = now();
    if (!nc_kernel_matmul(a, b, y, err, sizeof err)) {
      fprintf(stderr, "kernels_bench: %s\n", err);
      exit(1);
    }
    double t = now() - t0;
    best = t < best ? t : best;
  }
  row r = {"fp32", "", best * 1e3, 2.0 * (double)n * (double)n * (double)n / best * 1e-9, false};
  snprintf(r.name, sizeof r.name, "matmul %lldx%lldx%lld", (long long)n, (long long)n, (long long)n);
  nc_tensor_destroy(a);
  nc_tensor_destroy(b);
  nc_tensor_destroy(y);
  return r;
}

int main(int argc, char **argv)
{
  int reps = argc > 1 ? atoi(argv[1]) : 5;
  if (reps < 1)
    reps = 1;
  static const conv_case cases[] = {
      {"resnet50 3x3 64->64 @56x56 pad 1", 64, 56, 64, 3, 1, 1, 1},
      {"resnet50 1x1 256->64 @56x56", 256, 56, 64, 1, 1, 0, 1},
      {"resnet50 1x1 64->256 @56x56", 64, 56, 256, 1, 1, 0, 1},
      {"resnet50 7x7/2 3->64 @224x224 pad 3", 3, 224, 64, 7, 2, 3, 1},
      {"resnet50 3x3 256->256 @14x14 pad 1", 256, 14, 256, 3, 1, 1, 1},
      {"mobilenet depthwise 3x3 128 @56x56 pad 1", 128, 56, 128, 3, 1, 1, 128},
  };
  /* the anchor is measured before and after the rows and the better value
   * kept, so that a burst of load on a shared machine cannot inflate ratios */
  double peak_f32 = bench_peak(false, reps), peak_i8 = bench_peak(true, reps);
  enum { NCASES = sizeof cases / sizeof cases[0] };
  row rows[2 * NCASES + 1];
  int nrows = 0;
  for (int pass = 0; pass < 2; pass++)
    for (size_t i = 0; i < NCASES; i++)
      rows[nrows++] = bench_conv(&cases[i], pass == 1, reps);
  rows[nrows++] = bench_gemm(512, reps);
  double p2 = bench_peak(false, reps), i2 = bench_peak(true, reps);
  peak_f32 = p2 > peak_f32 ? p2 : peak_f32;
  peak_i8 = i2 > peak_i8 ? i2 : peak_i8;
  printf("nc reference-interpreter kernels, best of %d runs, 1 thread\n", reps);
  printf("anchor: in-cache GEMM (96x256 by 256x128, repeated) %.2f GFLOP/s fp32, %.2f GOP/s int8\n", peak_f32,
         peak_i8);
  printf("%-6s %-44s %11s %16s %8s\n", "", "case", "time", "rate", "/anchor");
  for (int i = 0; i < nrows; i++)
    printf("%-6s %-44s %8.3f ms %8.2f %-7s %7.2f\n", rows[i].kind, rows[i].name, rows[i].ms, rows[i].rate,
           rows[i].int8 ? "GOP/s" : "GFLOP/s", rows[i].rate / (rows[i].int8 ? peak_i8 : peak_f32));
  return 0;
}
