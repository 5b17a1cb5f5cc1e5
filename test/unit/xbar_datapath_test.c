/* xbar_datapath_test.c: the xbar simulator's crossbar datapath
 * (targets/xbar/runtime/datapath.c) on a hand-built conv stage: ideal mode
 * equals a direct int8 conv + requantize (zero points, padding, stride,
 * row and column tiles); bit-serial inputs with noiseless conductances and
 * a wide ADC are exact too; a narrow ADC clips; programming noise is
 * deterministic per seed; a control program that waits for too little is
 * a schedule error. */
#include <stdlib.h>
#include <string.h>

#include "../../targets/xbar/runtime/xbar_sim.h"
#include "check.h"

enum { C = 5, H = 6, W = 7, M = 9, K = 3 };

static int8_t in[C * H * W], wt[M][C][K][K];
static int32_t bias[M], mult[M], shift[M];

/* floor(v / 2^s) rounded half to even (an independent spelling of the rule) */
static int64_t rhe(int64_t v, int s)
{
  int64_t d = (int64_t)1 << s, q = v / d, r = v % d;
  if (r < 0) {
    q--;
    r += d;
  }
  if (2 * r > d || (2 * r == d && (q & 1)))
    q++;
  return q;
}

static int8_t reference(int oy, int ox, int m, int zx, int zw, int zo, int stride, int pad)
{
  int64_t acc = 0;
  for (int c = 0; c < C; c++)
    for (int ky = 0; ky < K; ky++)
      for (int kx = 0; kx < K; kx++) {
        int iy = oy * stride - pad + ky, ix = ox * stride - pad + kx;
        int x = (iy >= 0 && iy < H && ix >= 0 && ix < W) ? in[(c * H + iy) * W + ix] : zx;
        acc += (int64_t)(x - zx) * (wt[m][c][ky][kx] - zw);
      }
  int64_t r = rhe((acc + bias[m]) * mult[m], shift[m]) + zo;
  if (r < zo)
    r = zo; /* relu */
  return (int8_t)(r > 127 ? 127 : r < -128 ? -128 : r);
}

static int64_t control_all[16] = {2, 2, 1, 1, 0, 0, 0, 1, 0, 0, H - 1, 0, 1, 0, 0, W - 1};
static int64_t control_first[16] = {2, 2, 1, 1, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0};

typedef struct fixture {
  xbar_state s;
  xbar_stage st;
  uint32_t cores[64];
  int8_t matrix[C * K * K * M];
} fixture;

static void setup(fixture *f, uint32_t xr, uint32_t xc, uint32_t dac, uint32_t adc, int zx, int zw, int zo,
                  int stride, int pad, int64_t *control)
{
  memset(f, 0, sizeof *f);
  f->s.chip = (xbar_chip){.mesh_rows = 8, .mesh_cols = 8, .xbar_rows = xr, .xbar_cols = xc, .weight_bits = 8,
                          .dac_bits = dac, .input_bits = 8, .adc_bits = adc, .mvm_latency_cycles = 10,
                          .vector_ops_per_cycle = 4, .link_bytes_per_cycle = 8, .clock_hz = 1000000000};
  xbar_stage *st = &f->st;
  st->kind = XBAR_KIND_CONV;
  strcpy(st->name, "conv");
  st->n_operands = 1;
  st->ops[0].source = -1;
  st->ops[0].shape = (xbar_shape){3, {C, H, W}, C * H * W};
  st->ops[0].producer = (xbar_shape){2, {H, W}, H * W};
  CHECK(xbar_control_check(control, 16, 2, 2, &st->ops[0].control, NULL, 0), "control");
  int oh = (H + 2 * pad - K) / stride + 1, ow = (W + 2 * pad - K) / stride + 1;
  st->out = (xbar_shape){3, {M, oh, ow}, M * oh * ow};
  st->domain = (xbar_shape){2, {oh, ow}, oh * ow};
  st->iterations = oh * ow;
  st->kernel[0] = st->kernel[1] = K;
  st->stride[0] = st->stride[1] = stride;
  st->pad[0] = st->pad[1] = st->pad[2] = st->pad[3] = pad;
  st->dilation[0] = st->dilation[1] = 1;
  st->group = 1;
  st->input_zp = zx;
  st->weight_zp = zw;
  st->output_zp = zo;
  st->clamp_min = zo;
  st->clamp_max = 127;
  st->n_requant = st->n_bias = M;
  st->multiplier = mult;
  st->shift = shift;
  st->bias = bias;
  st->rows = C * K * K;
  st->cols = M;
  st->row_tiles = (st->rows + xr - 1) / xr;
  st->col_tiles = (st->cols + xc - 1) / xc;
  st->replicas = 2;
  st->n_cores = st->replicas * st->row_tiles * st->col_tiles;
  for (uint32_t i = 0; i < st->n_cores; i++)
    f->cores[i] = i;
  st->cores = f->cores;
  for (int m = 0; m < M; m++)
    for (int c = 0; c < C; c++)
      for (int k = 0; k < K * K; k++)
        f->matrix[(c * K * K + k) * M + m] = wt[m][c][k / K][k % K];
  st->matrix = f->matrix;
  st->col_sums = calloc(M, sizeof *st->col_sums);
  for (uint32_t r = 0; r < st->rows; r++)
    for (int m = 0; m < M; m++)
      st->col_sums[m] += f->matrix[r * M + m];
  st->values = calloc((size_t)st->out.elements, 1);
  st->write_rank = calloc((size_t)st->out.elements, sizeof *st->write_rank);
  f->s.n_stages = 1;
  f->s.stages = st;
}

static void teardown(fixture *f)
{
  xbar_set_noise(&f->s, 0, -1);
  free(f->st.col_sums);
  free(f->st.values);
  free(f->st.write_rank);
}

/* Runs every iteration; returns how many outputs differ from the reference (-1 on a schedule error). */
static int run(fixture *f, int zx, int zw, int zo, int stride, int pad, char *err)
{
  xbar_stage *st = &f->st;
  const int8_t *inputs[1] = {in};
  int diff = 0;
  for (int64_t r = 0; r < st->iterations; r++) {
    int64_t c[2] = {r / st->domain.dims[1], r % st->domain.dims[1]}, waits[1];
    if (!xbar_iteration_waits(st, r, c, waits, err, 256) ||
        !xbar_compute_iteration(&f->s, st, r, c, waits, inputs, err, 256))
      return -1;
    for (int m = 0; m < M; m++)
      diff += st->values[(m * st->domain.dims[0] + c[0]) * st->domain.dims[1] + c[1]] !=
              reference((int)c[0], (int)c[1], m, zx, zw, zo, stride, pad);
  }
  return diff;
}

int main(void)
{
  uint64_t rng = 12345;
  for (size_t i = 0; i < sizeof in; i++)
    in[i] = (int8_t)((rng = rng * 6364136223846793005ull + 1442695040888963407ull) >> 56);
  for (int m = 0; m < M; m++) {
    for (int c = 0; c < C; c++)
      for (int k = 0; k < K * K; k++)
        wt[m][c][k / K][k % K] = (int8_t)((rng = rng * 6364136223846793005ull + 1442695040888963407ull) >> 57);
    bias[m] = (int32_t)(m * 97) - 400;
    mult[m] = 1200000000 + m * 1000;
    shift[m] = 38 + m % 3;
  }
  char err[256] = "";
  struct {
    uint32_t xr, xc, dac;
    int zx, zw, zo, stride, pad;
  } cases[] = {
    {256, 256, 8, 0, 0, 0, 1, 1}, {16, 4, 8, 3, 0, -5, 1, 1}, {7, 5, 8, -2, 2, 4, 2, 1},
    {16, 4, 1, 3, 0, -5, 1, 0},   {7, 5, 3, -2, 2, 4, 2, 2},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    fixture f;
    setup(&f, cases[i].xr, cases[i].xc, cases[i].dac, 32, cases[i].zx, cases[i].zw, cases[i].zo, cases[i].stride,
          cases[i].pad, control_all);
    int d = run(&f, cases[i].zx, cases[i].zw, cases[i].zo, cases[i].stride, cases[i].pad, err);
    CHECK(d == 0, "case %zu ideal: %d outputs differ (%s)", i, d, err);
    /* bit-serial, noiseless conductances, a 32-bit ADC: still exact */
    xbar_set_noise(&f.s, 7, 0.0);
    d = run(&f, cases[i].zx, cases[i].zw, cases[i].zo, cases[i].stride, cases[i].pad, err);
    CHECK(d == 0, "case %zu bit-serial (dac %u): %d outputs differ (%s)", i, cases[i].dac, d, err);
    teardown(&f);
  }
  /* a narrow ADC clips the column sums */
  fixture f;
  setup(&f, 256, 256, 8, 6, 0, 0, 0, 1, 1, control_all);
  xbar_set_noise(&f.s, 1, 0.0);
  CHECK(run(&f, 0, 0, 0, 1, 1, err) > 0, "a 6-bit ADC changes nothing");
  teardown(&f);
  /* noise: the same seed gives the same outputs, another seed others */
  int8_t first[M * H * W];
  setup(&f, 16, 4, 1, 32, 0, 0, 0, 1, 1, control_all);
  xbar_set_noise(&f.s, 42, 0.05);
  int d1 = run(&f, 0, 0, 0, 1, 1, err);
  memcpy(first, f.st.values, (size_t)f.st.out.elements);
  xbar_set_noise(&f.s, 42, 0.05);
  run(&f, 0, 0, 0, 1, 1, err);
  CHECK(!memcmp(first, f.st.values, (size_t)f.st.out.elements), "the same seed gave other outputs");
  xbar_set_noise(&f.s, 43, 0.05);
  run(&f, 0, 0, 0, 1, 1, err);
  CHECK(memcmp(first, f.st.values, (size_t)f.st.out.elements) != 0, "another seed gave the same outputs");
  CHECK(d1 > 0, "sigma 0.05 changed nothing");
  teardown(&f);
  /* a control program that waits only for the first input pixel: iteration 0 reads pixel (1, 1) too early */
  setup(&f, 256, 256, 8, 32, 0, 0, 0, 1, 1, control_first);
  CHECK(run(&f, 0, 0, 0, 1, 1, err) == -1 && strstr(err, "schedule error") && strstr(err, "only waited for iteration 0"),
        "%s", err);
  teardown(&f);
  if (failures)
    fprintf(stderr, "%d check(s) failed\n", failures);
  return failures != 0;
}
