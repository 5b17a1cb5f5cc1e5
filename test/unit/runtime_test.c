/* runtime_test.c: unit tests of the .ncb container (include/nc/runtime/ncb.h)
 * and the runtime ABI (include/nc/runtime/nc_runtime.h) on a binary built
 * here byte by byte: one NorthPole tile copying a 2x2 input to a 4-vector
 * (targets/northpole/runtime/np_format.h), so every field is known.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../targets/northpole/runtime/np_format.h"
#include "nc/runtime/nc_runtime.h"
#include "nc/runtime/nc_sim.h"
#include "nc/runtime/ncb.h"

#include "check.h"

static void put_block(nc_bytes *b, int64_t start, int64_t len, int64_t stride, int64_t count)
{
  nc_bytes_put_i64(b, start);
  nc_bytes_put_i64(b, len);
  nc_bytes_put_i64(b, stride);
  nc_bytes_put_i64(b, count);
}

static void put_shape(nc_bytes *b, int rank, const int64_t *dims)
{
  nc_bytes_put_u32(b, (uint32_t)rank);
  for (int i = 0; i < 8; i++)
    nc_bytes_put_i64(b, i < rank ? dims[i] : 0);
}

static void put_instr(nc_bytes *b, uint32_t op, int64_t a, int64_t x, int64_t c, int64_t d)
{
  nc_bytes_put_u32(b, op);
  nc_bytes_put_u32(b, 0);
  nc_bytes_put_i64(b, a);
  nc_bytes_put_i64(b, x);
  nc_bytes_put_i64(b, c);
  nc_bytes_put_i64(b, d);
}

/* A binary whose one tile at (2, 1) copies input [1, 1, 2, 2] to output [1, 4]. */
static nc_ncb_writer *copy_writer(void)
{
  nc_ncb_writer *w = nc_ncb_writer_create("northpole");
  nc_bytes *c = nc_ncb_writer_add_section(w, NP_SECTION_CHIP, 0); /* 4x4, 1 MHz, 1 KiB, 16 MACs, 2-cycle hops */
  nc_bytes_put_u32(c, 4);
  nc_bytes_put_u32(c, 4);
  nc_bytes_put_u64(c, 1000000);
  nc_bytes_put_u32(c, 1024);
  nc_bytes_put_u32(c, 16);
  nc_bytes_put_u32(c, 2);
  nc_bytes_put_u32(c, 4);
  nc_bytes_put_u64(c, 0);
  nc_ncb_tensor in = {.name = "image", .dtype = NC_NCB_DTYPE_I8, .rank = 4, .dims = {1, 1, 2, 2}, .scale = 0.5f};
  nc_ncb_tensor out = {.name = "vector", .dtype = NC_NCB_DTYPE_I8, .rank = 2, .dims = {1, 4}, .scale = 0.25f,
                       .zero_point = 3};
  nc_ncb_writer_add_input(w, &in);
  nc_ncb_writer_add_output(w, &out);
  nc_bytes *s = nc_ncb_writer_add_section(w, NP_SECTION_INPUT_STREAM, 0); /* one step: everything */
  nc_bytes_put_u32(s, 1);
  nc_bytes_put_u32(s, 1);
  nc_bytes_put_u32(s, 0);
  put_block(s, 0, 4, 4, 1);
  nc_bytes *t = nc_ncb_writer_add_section(w, NP_SECTION_TILE, 0);
  nc_bytes_put_i32(t, 2);
  nc_bytes_put_i32(t, 1);
  nc_bytes_put_u32(t, NP_KIND_COPY);
  nc_bytes_put_u32(t, 0);
  nc_bytes_put_str(t, "flatten", 32);
  nc_bytes_put_i32(t, 0);  /* network output 0 */
  nc_bytes_put_u32(t, 1);  /* one operand, */
  nc_bytes_put_i32(t, 0);  /* network input 0 */
  put_shape(t, 4, (int64_t[]){1, 1, 2, 2});
  put_shape(t, 2, (int64_t[]){1, 4});
  nc_bytes_put_i64(t, 0);
  nc_bytes_put_i64(t, 4);
  for (int i = 0; i < 11; i++) /* kernel, stride, pad, dilation, group */
    nc_bytes_put_i64(t, 0);
  nc_bytes_put_i32(t, 0);  /* zero point */
  nc_bytes_put_u32(t, 0);  /* no requantize */
  nc_bytes_put_u32(t, 0);  /* no bias */
  nc_bytes_put_u64(t, 0);  /* no weights */
  nc_bytes_put_u32(t, 2);  /* buffers */
  nc_bytes_put_str(t, "in0", 16);
  nc_bytes_put_u32(t, NP_BUF_INPUT);
  nc_bytes_put_u32(t, 0);
  nc_bytes_put_i64(t, 0), nc_bytes_put_i64(t, 4), nc_bytes_put_i64(t, 0), nc_bytes_put_i64(t, 3);
  nc_bytes_put_str(t, "out", 16);
  nc_bytes_put_u32(t, NP_BUF_OUTPUT);
  nc_bytes_put_u32(t, 0);
  nc_bytes_put_i64(t, 4), nc_bytes_put_i64(t, 4), nc_bytes_put_i64(t, 1), nc_bytes_put_i64(t, 2);
  nc_bytes_put_u32(t, 1);  /* one iteration */
  nc_bytes_put_u64(t, 0);
  nc_bytes_put_u64(t, 4);
  nc_bytes_put_u32(t, 1);
  nc_bytes_put_u32(t, 0);
  put_block(t, 0, 4, 4, 1);
  nc_bytes_put_u32(t, 3);  /* program */
  put_instr(t, NP_OP_RECV, -1, -1, 0, 0);
  put_instr(t, NP_OP_COMPUTE, 0, 1, 0, 0);
  put_instr(t, NP_OP_SEND, -1, -1, 0, 4);
  return w;
}

static uint8_t *copy_binary(size_t *size) { return nc_ncb_writer_finish(copy_writer(), size); }

/* A sink for nc_ncb_writer_finish_to: collects bytes, fails once `limit` is passed. */
typedef struct sink {
  nc_bytes b;
  size_t limit;
  int calls;
} sink;

static bool sink_write(const void *data, size_t n, void *userData)
{
  sink *s = userData;
  s->calls++;
  if (s->b.len + n > s->limit)
    return false;
  nc_bytes_put(&s->b, data, n);
  return true;
}

/* Streaming writes the same bytes as the in-memory image, and stops on a failed write. */
static void test_streamed(const uint8_t *image, size_t size)
{
  sink s = {.limit = SIZE_MAX};
  CHECK(nc_ncb_writer_finish_to(copy_writer(), sink_write, &s), "streamed write failed");
  CHECK(s.b.len == size && !memcmp(s.b.data, image, size), "streamed %zu bytes differ from the %zu-byte image",
        s.b.len, size);
  CHECK(s.calls > 3, "streamed in one piece (%d calls): sections are not written one by one", s.calls);
  nc_bytes_clear(&s.b);
  sink f = {.limit = size / 2};
  CHECK(!nc_ncb_writer_finish_to(copy_writer(), sink_write, &f), "a failed write was not reported");
  CHECK(f.b.len <= size / 2, "writes went on after a failure");
  nc_bytes_clear(&f.b);
}

static void test_crc(void)
{
  CHECK(nc_crc32(0, "123456789", 9) == 0xCBF43926u, "the CRC-32 check value, got 0x%08x", nc_crc32(0, "123456789", 9));
  CHECK(nc_crc32(nc_crc32(0, "1234", 4), "56789", 5) == 0xCBF43926u, "CRC-32 in two parts");
  CHECK(nc_crc32(0, "", 0) == 0, "CRC-32 of nothing");
  /* long inputs take the sliced path: it must equal the bit-by-bit definition
   * at every length around the 4096-byte switch and 8-byte steps, any alignment */
  enum { N = 9000 };
  static uint8_t buf[N];
  uint32_t x = 12345;
  for (size_t i = 0; i < N; i++)
    buf[i] = (uint8_t)((x = x * 1103515245u + 12345u) >> 16);
  static const size_t lens[] = {4095, 4096, 4097, 4103, 4104, 8191, N - 3};
  for (size_t k = 0; k < sizeof lens / sizeof *lens; k++)
    for (size_t off = 0; off < 3; off++) {
      uint32_t c = 0xFFFFFFFFu;
      for (size_t i = 0; i < lens[k]; i++) {
        c ^= buf[off + i];
        for (int b = 0; b < 8; b++)
          c = c & 1 ? 0xEDB88320u ^ (c >> 1) : c >> 1;
      }
      c = ~c;
      CHECK(nc_crc32(0, buf + off, lens[k]) == c, "CRC-32 of %zu bytes at offset %zu", lens[k], off);
      if (lens[k] > 5000)
        CHECK(nc_crc32(nc_crc32(0, buf + off, 5000), buf + off + 5000, lens[k] - 5000) == c,
              "CRC-32 of %zu bytes in two parts", lens[k]);
    }
}

static void test_container(const uint8_t *image, size_t size)
{
  nc_ncb ncb;
  char err[256];
  CHECK(nc_ncb_parse(image, size, &ncb, err, sizeof err), "parse: %s", err);
  CHECK(ncb.version_major == 2 && ncb.version_minor == 0, "version %u.%u", ncb.version_major, ncb.version_minor);
  CHECK(!strcmp(ncb.target, "northpole"), "target");
  CHECK(ncb.n_inputs == 1 && ncb.n_outputs == 1 && ncb.n_sections == 3, "counts");
  CHECK(!strcmp(ncb.inputs[0].name, "image") && ncb.inputs[0].scale == 0.5f, "input");
  CHECK(ncb.outputs[0].zero_point == 3 && nc_ncb_tensor_elements(&ncb.outputs[0]) == 4, "output");
  CHECK(ncb.sections[0].offset % NC_NCB_ALIGN == 0 && ncb.sections[1].offset % NC_NCB_ALIGN == 0, "alignment");
  CHECK(nc_ncb_dtype_storage_bytes(NC_NCB_DTYPE_I4) == 1 && nc_ncb_dtype_storage_bytes(NC_NCB_DTYPE_F32) == 4 &&
          nc_ncb_dtype_storage_bytes(99) == 0 && !strcmp(nc_ncb_dtype_name(NC_NCB_DTYPE_I2), "i2"),
        "dtypes");
  nc_ncb_clear(&ncb);
  /* every prefix and every single-bit flip is refused without reading out of bounds */
  for (size_t n = 0; n < size; n++)
    CHECK(!nc_ncb_parse(image, n, &ncb, err, sizeof err), "a %zu-byte prefix parsed", n);
  uint8_t *copy = malloc(size);
  size_t accepted = 0;
  for (size_t i = 0; i < size; i++) {
    memcpy(copy, image, size);
    copy[i] ^= 0x10;
    if (nc_ncb_parse(copy, size, &ncb, err, sizeof err)) {
      accepted++;
      nc_ncb_clear(&ncb);
    }
  }
  CHECK(accepted == 0, "%zu single-bit flips got past the checksums", accepted);
  free(copy);
}

static void test_device(const uint8_t *image, size_t size)
{
  nc_device *dev = nc_device_open_memory(image, size);
  CHECK(dev, "open: %s", nc_device_error());
  if (!dev)
    return;
  CHECK(!strcmp(nc_device_target(dev), "northpole"), "target");
  CHECK(nc_device_num_inputs(dev) == 1 && nc_device_num_outputs(dev) == 1, "counts");
  nc_device_tensor_info info;
  CHECK(!nc_device_input_info(dev, 0, &info) && info.elements == 4 && info.rank == 4 && info.dtype == NC_DEVICE_I8,
        "input info");
  CHECK(nc_device_input_info(dev, 1, &info) == -1 && strstr(nc_device_error(), "input 1 does not exist"), "input 1");
  /* misuse is an error, not a crash */
  int8_t q[8];
  CHECK(nc_device_run(dev) == -1 && strstr(nc_device_error(), "was not written"), "run before writing");
  CHECK(nc_device_read_output(dev, 0, q, 4) == -1 && strstr(nc_device_error(), "no successful"), "read first");
  CHECK(nc_device_write_input(dev, 0, q, 3) == -1 && strstr(nc_device_error(), "multiple of 4"), "3 bytes");
  CHECK(nc_device_write_input(dev, 0, q, 0) == -1, "0 bytes");
  CHECK(!nc_device_get_figures(dev) && nc_device_write_stats_json(dev, stdout) == -1, "figures before a run");
  CHECK(nc_device_set_option(dev, "noise", "1,0.1") == -1 && strstr(nc_device_error(), "it has: frame-lead=N"),
        "northpole has no noise option: %s", nc_device_error());
  CHECK(nc_device_set_option(dev, "frame-lead", "x") == -1 && strstr(nc_device_error(), "frame-lead=x: expected"),
        "a bad frame lead: %s", nc_device_error());
  CHECK(!nc_device_set_option(dev, "frame-lead", "1"), "frame-lead=1: %s", nc_device_error());
  int8_t wide[4] = {0, 0, 0, 0};
  CHECK(!nc_device_write_input(dev, 0, wide, 4), "int8 input: %s", nc_device_error());
  /* floats are quantized with scale 0.5 (round half to even, saturate), copied, and dequantized with
   * scale 0.25 and zero point 3 */
  float x[8] = {0.25f, 0.75f, -1.0f, 1000.0f, 1.0f, -0.25f, 2.5f, -1000.0f}, y[8];
  int8_t want_q[8] = {0, 2, -2, 127, 2, 0, 5, -128};
  CHECK(!nc_device_write_input_f32(dev, 0, x, 8), "write 2: %s", nc_device_error());
  CHECK(!nc_device_run(dev), "run: %s", nc_device_error());
  CHECK(!nc_device_read_output(dev, 0, q, 8) && !memcmp(q, want_q, 8), "quantized copy");
  CHECK(!nc_device_read_output_f32(dev, 0, y, 8), "read f32: %s", nc_device_error());
  for (int i = 0; i < 8; i++)
    CHECK(y[i] == (float)((want_q[i] - 3) * 0.25), "y[%d] = %g", i, (double)y[i]);
  CHECK(nc_device_read_output_f32(dev, 0, y, 4) == -1 && strstr(nc_device_error(), "has 8 elements"), "count");
  /* timing: the host sends 4 bytes (1 link cycle) 2 + 1 + 1 = 4 hops from (2, 1): arrives at 1 + 4 x 2 = 9;
   * the copy takes 1 cycle (4 vector ops); the result leaves after 1 link cycle and 4 hops: 9 + 1 + 1 + 8 = 19 */
  const nc_figures *f = nc_device_get_figures(dev);
  CHECK(f, "figures: %s", nc_device_error());
  const nc_figure *inf = nc_figures_find(f, "inferences"), *lat = nc_figures_find(f, "latency_cycles"),
                  *used = nc_figures_find(f, "cores_used"), *target = nc_figures_find(f, "target");
  CHECK(inf && inf->i == 2 && lat && lat->i == 19, "latency %lld", lat ? (long long)lat->i : -1LL);
  CHECK(used && used->i == 1 && target && !strcmp(target->text, "northpole") &&
          nc_figures_find(f, "roofline_ratio") && nc_figures_find(f, "frames_per_second"),
        "chip figures");
  const nc_figures *core = nc_figures_get_core(f, 0);
  const nc_figure *cx = nc_figures_find(core, "x"), *node = nc_figures_find(core, "node"),
                  *sent = nc_figures_find(core, "bytes_sent");
  CHECK(nc_figures_num_cores(f) == 1 && cx && cx->i == 2 && node && !strcmp(node->text, "flatten") && sent &&
          sent->i == 8, "core figures");
  CHECK(!nc_figures_get_core(f, 1), "core 1");
  /* each frame's end, as a list in the JSON (bench_northpole.py finds the pipeline's steady state in it) */
  const nc_figure *ends = nc_figures_find(f, "frame_end_cycles");
  CHECK(ends && ends->kind == NC_FIGURE_INTS && ends->i == 2 && ends->ints[0] == 19 && ends->ints[1] > 19,
        "frame_end_cycles");
  char json[8192] = "", want[64] = "";
  FILE *mem = fmemopen(json, sizeof json - 1, "w");
  CHECK(mem && !nc_device_write_stats_json(dev, mem), "json");
  if (mem)
    fclose(mem);
  if (ends && ends->i == 2)
    snprintf(want, sizeof want, "\"frame_end_cycles\": [19, %lld],", (long long)ends->ints[1]);
  CHECK(*want && strstr(json, want), "frame_end_cycles in the JSON: %s", json);
  nc_device_destroy(dev);
  nc_device_destroy(NULL);
  /* errors opening */
  CHECK(!nc_device_open("/nonexistent/x.ncb") && strstr(nc_device_error(), "cannot open"), "missing file");
  CHECK(!nc_device_open_memory("NCB", 4) && strstr(nc_device_error(), "truncated"), "short");
  CHECK(!nc_device_open_memory(NULL, 4), "NULL data");
}

/* nc_bytes_put_zeros appends cleared bytes after what is there, growing
 * once past the capacity (reserved fills of the printers). */
static void test_bytes_zeros(void)
{
  nc_bytes b = {0};
  nc_bytes_put(&b, "ab", 2);
  nc_bytes_put_zeros(&b, 1000);
  nc_bytes_put(&b, "c", 1);
  bool zeros = true;
  for (size_t i = 2; i < 1002; i++)
    zeros = zeros && b.data[i] == 0;
  CHECK(b.len == 1003 && b.cap >= b.len && !memcmp(b.data, "ab", 2) && zeros && b.data[1002] == 'c',
        "nc_bytes_put_zeros appends n zero bytes");
  nc_bytes_put_zeros(&b, 0);
  CHECK(b.len == 1003, "nc_bytes_put_zeros(0) appends nothing");
  nc_bytes_clear(&b);
}

int main(void)
{
  test_crc();
  test_bytes_zeros();
  size_t size;
  uint8_t *image = copy_binary(&size);
  size_t size2;
  uint8_t *again = copy_binary(&size2);
  CHECK(size == size2 && !memcmp(image, again, size), "the writer is deterministic");
  test_container(image, size);
  test_streamed(image, size);
  test_device(image, size);
  free(image);
  free(again);
  if (failures)
    fprintf(stderr, "runtime_test: %d check(s) failed\n", failures);
  else
    printf("runtime_test: all checks passed\n");
  return failures ? 1 : 0;
}
