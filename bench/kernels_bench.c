/* kernels_bench.c: throughput of the reference interpreter's heavy kernels.
 *
 * Prints GFLOP/s (2 x multiply-accumulates per second; GOP/s for integer
 * convs) of fp32 and int8 convolutions shaped like ResNet-50 and MobileNet
 * layers, and of a square fp32 GEMM, each the best of several runs so that
 * a noisy machine reports its sustained rate. Usage: kernels_bench [reps]
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

static void bench_conv(const conv_case *cc, bool int8, int reps)
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
  printf("%-6s %-44s %8.3f ms %8.2f %s\n", int8 ? "int8" : "fp32", cc->name, best * 1e3, 2 * macs / best * 1e-9,
         int8 ? "GOP/s" : "GFLOP/s");
  nc_tensor_destroy(x);
  nc_tensor_destroy(w);
  nc_tensor_destroy(y);
}

static void bench_gemm(int64_t n, int reps)
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
  char name[64];
  snprintf(name, sizeof name, "matmul %lldx%lldx%lld", (long long)n, (long long)n, (long long)n);
  printf("%-6s %-44s %8.3f ms %8.2f GFLOP/s\n", "fp32", name, best * 1e3, 2.0 * (double)n * (double)n * (double)n / best * 1e-9);
  nc_tensor_destroy(a);
  nc_tensor_destroy(b);
  nc_tensor_destroy(y);
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
  printf("nc reference-interpreter kernels, best of %d runs, 1 thread\n", reps);
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
    bench_conv(&cases[i], false, reps);
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
    bench_conv(&cases[i], true, reps);
  bench_gemm(512, reps);
  return 0;
}
