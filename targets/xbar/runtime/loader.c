/* loader.c: reads the xbar target's sections of a .ncb (after the
 * container's own checks) into the simulator's state, checking every field
 * against its bound and against the others (shapes against the layer kind,
 * the mapping against the chip, control programs against the domains), so
 * that a malformed, truncated or out-of-range binary is refused with a
 * message naming the field and its bound, and the simulator never meets an
 * inconsistent state. Layout: docs/targets/xbar.md. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/runtime/rt_util.h"
#include "nc/runtime/ncb.h"
#include "xbar_sim.h"

typedef struct lctx {
  char *err;
  size_t errlen;
  char where[96];
} lctx;

static bool fail(lctx *l, const char *fmt, ...) NC_RT_PRINTF(2, 3);
static bool fail(lctx *l, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  int m = snprintf(l->err, l->errlen, "%s: ", l->where);
  if (m >= 0 && (size_t)m < l->errlen)
    vsnprintf(l->err + m, l->errlen - (size_t)m, fmt, ap);
  va_end(ap);
  return false;
}

/* Reads a u32 field and checks lo <= v <= hi. */
static bool u32_in(lctx *l, nc_cursor *c, const char *field, uint64_t lo, uint64_t hi, uint32_t *v)
{
  *v = nc_cursor_u32(c);
  if (c->bad)
    return fail(l, "truncated at %s", field);
  if (*v < lo || *v > hi)
    return fail(l, "%s is %u, outside [%llu, %llu]", field, *v, (unsigned long long)lo, (unsigned long long)hi);
  return true;
}

static bool i64_in(lctx *l, nc_cursor *c, const char *field, int64_t lo, int64_t hi, int64_t *v)
{
  *v = nc_cursor_i64(c);
  if (c->bad)
    return fail(l, "truncated at %s", field);
  if (*v < lo || *v > hi)
    return fail(l, "%s is %lld, outside [%lld, %lld]", field, (long long)*v, (long long)lo, (long long)hi);
  return true;
}

static bool i32_in(lctx *l, nc_cursor *c, const char *field, int64_t lo, int64_t hi, int32_t *v)
{
  *v = nc_cursor_i32(c);
  if (c->bad)
    return fail(l, "truncated at %s", field);
  if (*v < lo || *v > hi)
    return fail(l, "%s is %d, outside [%lld, %lld]", field, *v, (long long)lo, (long long)hi);
  return true;
}

/* u32 rank, 8 x i64 dims (unused ones 0) */
static bool read_shape(lctx *l, nc_cursor *c, const char *field, int64_t min_dim, xbar_shape *s)
{
  char f[200];
  snprintf(f, sizeof f, "%s rank", field);
  if (!u32_in(l, c, f, 0, XBAR_MAX_RANK, &s->rank))
    return false;
  s->elements = 1;
  for (uint32_t d = 0; d < XBAR_MAX_RANK; d++) {
    snprintf(f, sizeof f, "%s dim %u", field, d);
    if (d < s->rank) {
      if (!i64_in(l, c, f, min_dim, XBAR_MAX_ELEMENTS, &s->dims[d]))
        return false;
      s->elements *= s->dims[d];
      if (s->elements > XBAR_MAX_ELEMENTS)
        return fail(l, "%s has more than %lld elements", field, (long long)XBAR_MAX_ELEMENTS);
    } else if (!i64_in(l, c, f, 0, 0, &s->dims[d]))
      return false;
  }
  return true;
}

static bool same_shape(const xbar_shape *a, const xbar_shape *b)
{
  if (a->rank != b->rank)
    return false;
  for (uint32_t d = 0; d < a->rank; d++)
    if (a->dims[d] != b->dims[d])
      return false;
  return true;
}

/* A descriptor's shape in tensor coordinates: a leading batch dim of 1 dropped. */
static xbar_shape coords_of(const nc_ncb_tensor *t)
{
  xbar_shape s = {0};
  uint32_t skip = t->rank > 1 && t->dims[0] == 1 ? 1 : 0;
  s.rank = t->rank - skip;
  s.elements = 1;
  for (uint32_t d = 0; d < s.rank; d++) {
    s.dims[d] = t->dims[d + skip];
    s.elements *= s.dims[d];
  }
  return s;
}

static void shape_text(const xbar_shape *s, char *buf, size_t n)
{
  size_t m = (size_t)snprintf(buf, n, "[");
  for (uint32_t d = 0; d < s->rank && m < n; d++)
    m += (size_t)snprintf(buf + m, n - m, "%s%lld", d ? ", " : "", (long long)s->dims[d]);
  if (m < n)
    snprintf(buf + m, n - m, "]");
}

static bool expect_shape(lctx *l, const char *what, const xbar_shape *got, const xbar_shape *want)
{
  if (same_shape(got, want))
    return true;
  char a[160], b[160];
  shape_text(got, a, sizeof a);
  shape_text(want, b, sizeof b);
  return fail(l, "%s is %s but must be %s", what, a, b);
}

static bool read_chip(lctx *l, const nc_ncb_section *sec, xbar_chip *chip)
{
  snprintf(l->where, sizeof l->where, "xbar chip section");
  nc_cursor c = nc_cursor_make(sec->data, sec->size);
  nc_cursor_str(&c, chip->name, sizeof chip->name);
  struct {
    const char *name;
    uint32_t *v;
    uint64_t lo, hi;
  } f[] = {
    {"mesh_rows", &chip->mesh_rows, 1, XBAR_MAX_MESH},
    {"mesh_cols", &chip->mesh_cols, 1, XBAR_MAX_MESH},
    {"crossbar rows", &chip->xbar_rows, 1, XBAR_MAX_XBAR_DIM},
    {"crossbar cols", &chip->xbar_cols, 1, XBAR_MAX_XBAR_DIM},
    {"weight_bits", &chip->weight_bits, 1, 16},
    {"dac_bits", &chip->dac_bits, 1, 16},
    {"input_bits", &chip->input_bits, 8, 8},
    {"adc_bits", &chip->adc_bits, 2, 48},
    {"mvm_latency_cycles", &chip->mvm_latency_cycles, 1, 1u << 20},
    {"vector_ops_per_cycle", &chip->vector_ops_per_cycle, 1, 1u << 20},
    {"hop_latency_cycles", &chip->hop_latency_cycles, 0, 1u << 16},
    {"link_bytes_per_cycle", &chip->link_bytes_per_cycle, 1, 1u << 16},
  };
  for (size_t i = 0; i < sizeof f / sizeof f[0]; i++)
    if (!u32_in(l, &c, f[i].name, f[i].lo, f[i].hi, f[i].v))
      return false;
  int64_t v;
  if (!i64_in(l, &c, "sram_bytes", 1, (int64_t)1 << 40, &v))
    return false;
  chip->sram_bytes = (uint64_t)v;
  if (!i64_in(l, &c, "clock_hz", 1, (int64_t)1 << 40, &v))
    return false;
  chip->clock_hz = (uint64_t)v;
  if (c.pos != c.len)
    return fail(l, "%zu bytes follow the chip's fields (the section is %zu bytes)", c.len - c.pos, c.len);
  return true;
}

/* Output extent of a window along one axis (ONNX), or -1. */
static int64_t out_extent(int64_t in, int64_t k, int64_t s, int64_t p0, int64_t p1, int64_t d)
{
  int64_t span = d * (k - 1) + 1;
  return in + p0 + p1 < span ? -1 : (in + p0 + p1 - span) / s + 1;
}

static bool read_stage(lctx *l, xbar_state *s, uint32_t index, const nc_ncb_section *sec, const nc_ncb *ncb,
                       uint8_t *core_used)
{
  xbar_stage *st = &s->stages[index];
  snprintf(l->where, sizeof l->where, "xbar stage section %u", index);
  nc_cursor c = nc_cursor_make(sec->data, sec->size);
  if (!u32_in(l, &c, "kind", XBAR_KIND_CONV, XBAR_KIND_RESIZE, &st->kind))
    return false;
  if (!u32_in(l, &c, "flags", 0, st->kind == XBAR_KIND_MOVE ? XBAR_PAD_WRAP : 0, &st->flags))
    return false;
  nc_cursor_str(&c, st->name, sizeof st->name);
  for (const char *q = st->name; *q; q++)
    if (*q < 0x20 || *q > 0x7e) /* the name goes into one-line messages */
      return fail(l, "the stage name has a byte that is not printable ASCII");
  snprintf(l->where, sizeof l->where, "xbar stage %u '%s'", index, st->name);
  if (!i32_in(l, &c, "output", -1, (int64_t)ncb->n_outputs - 1, &st->output) ||
      !u32_in(l, &c, "operands", 1, 1, &st->n_operands))
    return false;
  for (uint32_t i = 0; i < st->n_operands; i++) {
    xbar_operand *o = &st->ops[i];
    char f[160];
    snprintf(f, sizeof f, "operand %u source", i);
    if (!i32_in(l, &c, f, -(int64_t)ncb->n_inputs, (int64_t)index - 1, &o->source))
      return false;
    snprintf(f, sizeof f, "operand %u shape", i);
    if (!read_shape(l, &c, f, 1, &o->shape))
      return false;
    snprintf(f, sizeof f, "operand %u producer domain", i);
    if (!read_shape(l, &c, f, 1, &o->producer))
      return false;
    if (o->source >= 0) {
      const xbar_stage *p = &s->stages[o->source];
      snprintf(f, sizeof f, "operand %u shape (the output of '%s')", i, p->name);
      if (!expect_shape(l, f, &o->shape, &p->out))
        return false;
      snprintf(f, sizeof f, "operand %u producer domain (that of '%s')", i, p->name);
      if (!expect_shape(l, f, &o->producer, &p->domain))
        return false;
    } else {
      const nc_ncb_tensor *t = &ncb->inputs[-1 - o->source];
      if (t->dtype != NC_NCB_DTYPE_I8)
        return fail(l, "operand %u reads network input %d of element type %u; the crossbar datapath takes i8 (%d)", i,
                    -1 - o->source, t->dtype, NC_NCB_DTYPE_I8);
      xbar_shape want = coords_of(t), src = {0};
      snprintf(f, sizeof f, "operand %u shape (network input %d)", i, -1 - o->source);
      if (!expect_shape(l, f, &o->shape, &want))
        return false;
      if (want.rank == 3)
        src = (xbar_shape){2, {want.dims[1], want.dims[2]}, want.dims[1] * want.dims[2]};
      else
        src.elements = 1;
      snprintf(f, sizeof f, "operand %u producer domain (the input stream: pixels of a [C, H, W] input, else one step)",
               i);
      if (!expect_shape(l, f, &o->producer, &src))
        return false;
    }
  }
  if (!read_shape(l, &c, "output shape", 1, &st->out) || !read_shape(l, &c, "domain", 1, &st->domain))
    return false;
  st->iterations = st->domain.elements;
  const char *geo[] = {"kernel h", "kernel w", "stride h", "stride w", "pad top", "pad left", "pad bottom",
                       "pad right", "dilation h", "dilation w", "group"};
  int64_t *gv[] = {&st->kernel[0], &st->kernel[1], &st->stride[0], &st->stride[1], &st->pad[0], &st->pad[1],
                   &st->pad[2], &st->pad[3], &st->dilation[0], &st->dilation[1], &st->group};
  bool windowed = st->kind == XBAR_KIND_CONV || st->kind == XBAR_KIND_MAX_POOL, move = st->kind == XBAR_KIND_MOVE;
  for (int i = 0; i < 11; i++) {
    bool pad = i >= 4 && i < 8;
    int64_t lo = windowed ? (pad ? 0 : 1) : (i == 10 ? 1 : 0), hi = windowed ? (1 << 16) : (i == 10 ? 1 : 0);
    if (move) /* kernel = the nearest factors, pads of any width, group = the shuffle's; stride, dilation 0 */
      lo = i < 2 || i == 10 ? 1 : 0, hi = i < 2 ? (1 << 16) : pad ? XBAR_MAX_ELEMENTS : i == 10 ? (1 << 16) : 0;
    if (!i64_in(l, &c, geo[i], lo, hi, gv[i]))
      return false;
  }
  if (!i32_in(l, &c, "input zero point", -128, 127, &st->input_zp) ||
      !i32_in(l, &c, "weight zero point", -128, 127, &st->weight_zp) ||
      !i32_in(l, &c, "output zero point", -128, 127, &st->output_zp) ||
      !i32_in(l, &c, "clamp min", -128, 127, &st->clamp_min) ||
      !i32_in(l, &c, "clamp max", st->clamp_min, 127, &st->clamp_max))
    return false;

  /* shapes against the kind */
  const xbar_shape *in = &st->ops[0].shape;
  xbar_shape want_dom = {0}, want_out = {0};
  int64_t image_c = 0; /* a move or resize: the output image's channels */
  if (windowed) {
    if (in->rank != 3)
      return fail(l, "operand 0 has rank %u; a %s reads a [C, H, W] tensor", in->rank,
                  st->kind == XBAR_KIND_CONV ? "conv" : "max pool");
    int64_t oh = out_extent(in->dims[1], st->kernel[0], st->stride[0], st->pad[0], st->pad[2], st->dilation[0]);
    int64_t ow = out_extent(in->dims[2], st->kernel[1], st->stride[1], st->pad[1], st->pad[3], st->dilation[1]);
    if (oh < 1 || ow < 1)
      return fail(l, "the window is larger than the padded input");
    int64_t m = st->kind == XBAR_KIND_CONV ? (st->out.rank == 3 ? st->out.dims[0] : 0) : in->dims[0];
    if (st->kind == XBAR_KIND_CONV && (m < 1 || in->dims[0] % st->group || m % st->group))
      return fail(l, "group %lld must divide the input channels %lld and the output channels %lld",
                  (long long)st->group, (long long)in->dims[0], (long long)m);
    if (st->kind == XBAR_KIND_MAX_POOL && st->group != 1)
      return fail(l, "group is %lld; a max pool has group 1", (long long)st->group);
    want_out = (xbar_shape){3, {m, oh, ow}, m * oh * ow};
    want_dom = (xbar_shape){2, {oh, ow}, oh * ow};
  } else if (move || st->kind == XBAR_KIND_RESIZE) {
    /* [C, H, W] -> [OC, OH, OW] over the output pixels, or -> [N, OC, OH, OW] (a resize of one image into a
     * batch: every image the same, each pixel written into every image) */
    bool batch = st->out.rank == 4;
    if (in->rank != 3 || (st->out.rank != 3 && !batch))
      return fail(l, "a %s stage maps a [C, H, W] tensor to a [C, H, W] tensor (or a batch [N, C, H, W] of them), "
                  "not rank %u to rank %u", move ? "move" : "linear resize", in->rank, st->out.rank);
    image_c = st->out.dims[batch ? 1 : 0];
    if (move && (in->dims[0] % st->group))
      return fail(l, "group %lld must divide the channels %lld", (long long)st->group, (long long)in->dims[0]);
    if (move && st->flags != XBAR_PAD_CONSTANT && (st->kernel[0] != 1 || st->kernel[1] != 1))
      return fail(l, "a reflect, edge or wrap pad has factors 1, not %lld x %lld", (long long)st->kernel[0],
                  (long long)st->kernel[1]);
    if (move && image_c != in->dims[0] && (st->group != 1 || st->flags != XBAR_PAD_CONSTANT))
      return fail(l, "a nearest resize of the channels (%lld to %lld) has group 1 and no pad mode",
                  (long long)in->dims[0], (long long)image_c);
    if (move) {
      int64_t oh = in->dims[1] * st->kernel[0] + st->pad[0] + st->pad[2];
      int64_t ow = in->dims[2] * st->kernel[1] + st->pad[1] + st->pad[3];
      want_out = (xbar_shape){3, {image_c, oh, ow}, image_c * oh * ow};
      if (batch)
        want_out = (xbar_shape){4, {st->out.dims[0], image_c, oh, ow}, st->out.dims[0] * image_c * oh * ow};
    } else {
      want_out = st->out;
    }
    int64_t oh = want_out.dims[batch ? 2 : 1], ow = want_out.dims[batch ? 3 : 2];
    want_dom = (xbar_shape){2, {oh, ow}, oh * ow};
  } else if (st->kind == XBAR_KIND_MATMUL) {
    if (in->rank != 1 || st->out.rank != 1)
      return fail(l, "a matmul maps a vector [K] to a vector [N], not rank %u to rank %u", in->rank, st->out.rank);
    want_out = st->out;
    want_dom.elements = 1;
  } else {
    if (st->out.elements != in->elements)
      return fail(l, "a copy moves %lld elements into %lld", (long long)in->elements, (long long)st->out.elements);
    want_out = st->out;
    if (st->domain.rank == 2 && in->rank == 3)
      want_dom = (xbar_shape){2, {in->dims[1], in->dims[2]}, in->dims[1] * in->dims[2]};
    else
      want_dom.elements = 1;
  }
  if (!expect_shape(l, "output shape", &st->out, &want_out) || !expect_shape(l, "domain", &st->domain, &want_dom))
    return false;
  bool mvm = st->kind == XBAR_KIND_CONV || st->kind == XBAR_KIND_MATMUL;
  int64_t channels = mvm ? st->out.dims[0] : 0;

  /* requantization and bias */
  if (!u32_in(l, &c, "requantize count", 0, mvm ? (uint64_t)channels : 0, &st->n_requant))
    return false;
  if (st->n_requant > 1 && st->n_requant != channels)
    return fail(l, "requantize count is %u; it must be 0, 1 or the %lld output channels", st->n_requant,
                (long long)channels);
  st->multiplier = nc_rt_calloc(st->n_requant, sizeof(int32_t));
  st->shift = nc_rt_calloc(st->n_requant, sizeof(int32_t));
  for (uint32_t i = 0; i < st->n_requant; i++)
    if (!i32_in(l, &c, "requantize multiplier", 0, INT32_MAX, &st->multiplier[i]))
      return false;
  for (uint32_t i = 0; i < st->n_requant; i++)
    if (!i32_in(l, &c, "requantize shift", 0, 63, &st->shift[i]))
      return false;
  if (st->kind == XBAR_KIND_RESIZE) { /* the coordinate coefficients: H, W, and C when it changes */
    uint32_t nc = image_c != in->dims[0] ? 9 : 6;
    if (!u32_in(l, &c, "linear resize coefficient count", nc, nc, &st->n_bias))
      return false;
  } else if (move) { /* a nearest resize of the channels: a, b, d */
    uint32_t nc = image_c != in->dims[0] ? 3 : 0;
    if (!u32_in(l, &c, "nearest channel coefficient count", nc, nc, &st->n_bias))
      return false;
  } else if (!u32_in(l, &c, "bias count", 0, mvm ? (uint64_t)channels : 0, &st->n_bias)) {
    return false;
  }
  if (mvm && st->n_bias && st->n_bias != channels)
    return fail(l, "bias count is %u; it must be 0 or the %lld output channels", st->n_bias, (long long)channels);
  st->bias = nc_rt_calloc(st->n_bias, sizeof(int32_t));
  for (uint32_t i = 0; i < st->n_bias; i++) {
    bool resize = st->kind == XBAR_KIND_RESIZE || move, a = i % 3 == 0, d = i % 3 == 2;
    const char *what = move ? (a ? "nearest channel a" : d ? "nearest channel d" : "nearest channel b")
                            : a ? "linear resize a" : d ? "linear resize d" : "linear resize b";
    if (!i32_in(l, &c, resize ? what : "bias",
                resize && (a || d) ? (d ? 1 : 0) : INT32_MIN, INT32_MAX, &st->bias[i]))
      return false;
  }

  /* the mapping */
  int64_t want_rows = mvm ? (st->kind == XBAR_KIND_CONV ? in->dims[0] * st->kernel[0] * st->kernel[1] : in->dims[0]) : 0;
  uint32_t R = s->chip.xbar_rows, C = s->chip.xbar_cols;
  if (!u32_in(l, &c, "matrix rows", (uint64_t)want_rows, (uint64_t)want_rows, &st->rows) ||
      !u32_in(l, &c, "matrix cols", (uint64_t)channels, (uint64_t)channels, &st->cols) ||
      !u32_in(l, &c, "row tiles", mvm ? (st->rows + R - 1) / R : 1, mvm ? (st->rows + R - 1) / R : 1, &st->row_tiles) ||
      !u32_in(l, &c, "col tiles", mvm ? (st->cols + C - 1) / C : 1, mvm ? (st->cols + C - 1) / C : 1, &st->col_tiles) ||
      !u32_in(l, &c, "replicas", 1, mvm ? (uint64_t)st->iterations : 1, &st->replicas))
    return false;
  uint64_t n_cores = (uint64_t)st->replicas * st->row_tiles * st->col_tiles;
  uint32_t total = s->chip.mesh_rows * s->chip.mesh_cols;
  if (!u32_in(l, &c, "cores", n_cores, n_cores, &st->n_cores))
    return false;
  if (n_cores > total)
    return fail(l, "the stage needs %llu cores, but the mesh has %u", (unsigned long long)n_cores, total);
  st->cores = nc_rt_calloc(st->n_cores, sizeof *st->cores);
  for (uint32_t i = 0; i < st->n_cores; i++) {
    if (!u32_in(l, &c, "core index", 0, total - 1, &st->cores[i]))
      return false;
    if (core_used[st->cores[i]])
      return fail(l, "core %u (x %u, y %u) is already used by another crossbar or stage", st->cores[i],
                  st->cores[i] % s->chip.mesh_cols, st->cores[i] / s->chip.mesh_cols);
    core_used[st->cores[i]] = 1;
  }
  int64_t wbytes;
  if (!i64_in(l, &c, "weight bytes", (int64_t)st->rows * st->cols, (int64_t)st->rows * st->cols, &wbytes))
    return false;
  st->matrix = wbytes ? (const int8_t *)nc_cursor_bytes(&c, (size_t)wbytes) : NULL;
  if (c.bad)
    return fail(l, "truncated in the weights (%lld bytes)", (long long)wbytes);
  nc_cursor_align(&c, 8);
  if (mvm && st->group > 1) {
    if (st->weight_zp)
      return fail(l, "a grouped conv needs weight zero point 0, not %d", st->weight_zp);
    int64_t cg = in->dims[0] / st->group, mg = st->cols / st->group, kk = st->kernel[0] * st->kernel[1];
    for (uint32_t r = 0; r < st->rows; r++)
      for (uint32_t m = 0; m < st->cols; m++)
        if (st->matrix[(size_t)r * st->cols + m] && (int64_t)r / kk / cg != (int64_t)m / mg)
          return fail(l, "weight (%u, %u) lies outside its group's block", r, m);
  }
  st->col_sums = nc_rt_calloc(st->cols, sizeof *st->col_sums);
  for (uint32_t r = 0; r < st->rows; r++)
    for (uint32_t m = 0; m < st->cols; m++)
      st->col_sums[m] += st->matrix[(size_t)r * st->cols + m];

  /* control programs */
  for (uint32_t i = 0; i < st->n_operands; i++) {
    xbar_operand *o = &st->ops[i];
    char f[160];
    uint32_t n, zero;
    snprintf(f, sizeof f, "operand %u control words", i);
    if (!u32_in(l, &c, f, 0, XBAR_MAX_CONTROL_WORDS, &n) || !u32_in(l, &c, "control padding", 0, 0, &zero))
      return false;
    o->words = nc_rt_calloc(n, sizeof *o->words);
    for (uint32_t k = 0; k < n; k++)
      o->words[k] = nc_cursor_i64(&c);
    if (c.bad)
      return fail(l, "truncated in operand %u's control program", i);
    char cerr[200];
    if (!xbar_control_check(o->words, n, (int)st->domain.rank, (int)o->producer.rank, &o->control, cerr, sizeof cerr))
      return fail(l, "operand %u: %s", i, cerr);
  }
  if (c.pos != c.len)
    return fail(l, "%zu bytes follow the stage's fields (the section is %zu bytes)", c.len - c.pos, c.len);
  return true;
}

void xbar_state_destroy(xbar_state *s)
{
  if (!s)
    return;
  xbar_set_noise(s, 0, -1);
  for (uint32_t i = 0; i < s->n_stages; i++) {
    xbar_stage *st = &s->stages[i];
    for (uint32_t k = 0; k < XBAR_MAX_OPERANDS; k++)
      free(st->ops[k].words);
    free(st->multiplier);
    free(st->shift);
    free(st->bias);
    free(st->cores);
    free(st->col_sums);
    free(st->values);
    free(st->write_rank);
    free(st->finish);
    free(st->xbar_free);
    free(st->digital_free);
  }
  free(s->stages);
  free(s->inputs);
  free(s->outputs);
  free(s->output_stage);
  free(s->cores);
  free(s->holds);
  free(s);
}

xbar_state *xbar_load(const void *ncb_v, char *err, size_t errlen)
{
  const nc_ncb *ncb = ncb_v;
  lctx l = {err, errlen, "xbar binary"};
  xbar_state *s = nc_rt_calloc(1, sizeof *s);
  const nc_ncb_section *chip = NULL;
  size_t n_stages = 0;
  bool ok = true;
  for (size_t i = 0; i < ncb->n_sections && ok; i++) {
    const nc_ncb_section *sec = &ncb->sections[i];
    if (sec->type == XBAR_SECTION_CHIP) {
      if (chip || sec->id != 0)
        ok = fail(&l, "section %zu: a second chip section, or one with id %u (not 0)", i, sec->id);
      chip = sec;
    } else if (sec->type == XBAR_SECTION_STAGE) {
      n_stages++;
    } else {
      ok = fail(&l, "section %zu has type %u; the xbar target has types 1 (chip) and 2 (stage)", i, sec->type);
    }
  }
  if (ok && !chip)
    ok = fail(&l, "no chip section (type 1)");
  if (ok && (n_stages < 1 || n_stages > XBAR_MAX_STAGES))
    ok = fail(&l, "%zu stage sections, outside [1, %d]", n_stages, XBAR_MAX_STAGES);
  if (ok)
    ok = read_chip(&l, chip, &s->chip);
  if (ok && ncb->n_outputs < 1)
    ok = fail(&l, "the binary has no outputs");
  if (!ok) {
    xbar_state_destroy(s);
    return NULL;
  }
  s->n_stages = (uint32_t)n_stages;
  s->stages = nc_rt_calloc(n_stages, sizeof *s->stages);
  const nc_ncb_section **by_id = nc_rt_calloc(n_stages, sizeof *by_id);
  snprintf(l.where, sizeof l.where, "xbar binary");
  for (size_t i = 0; i < ncb->n_sections && ok; i++) {
    const nc_ncb_section *sec = &ncb->sections[i];
    if (sec->type != XBAR_SECTION_STAGE)
      continue;
    if (sec->id >= n_stages || by_id[sec->id])
      ok = fail(&l, "stage section %zu has id %u: ids must be 0 .. %zu, each once", i, sec->id, n_stages - 1);
    else
      by_id[sec->id] = sec;
  }
  size_t total = (size_t)s->chip.mesh_rows * s->chip.mesh_cols;
  uint8_t *core_used = nc_rt_calloc(total, 1);
  int64_t elements = 0;
  for (uint32_t i = 0; i < n_stages && ok; i++) {
    ok = read_stage(&l, s, i, by_id[i], ncb, core_used);
    elements += ok ? s->stages[i].out.elements + s->stages[i].iterations : 0;
    if (ok && elements > XBAR_MAX_TOTAL_ELEMENTS) {
      snprintf(l.where, sizeof l.where, "xbar binary");
      ok = fail(&l, "the stages' outputs and iterations exceed %lld elements in all", (long long)XBAR_MAX_TOTAL_ELEMENTS);
    }
  }
  free(core_used);
  free(by_id);
  /* outputs: each produced by exactly one stage, of its descriptor's shape and type */
  s->n_inputs = ncb->n_inputs;
  s->n_outputs = ncb->n_outputs;
  s->inputs = nc_rt_calloc(ncb->n_inputs, sizeof *s->inputs);
  for (size_t i = 0; i < ncb->n_inputs; i++)
    s->inputs[i] = coords_of(&ncb->inputs[i]);
  s->output_stage = nc_rt_malloc(ncb->n_outputs * sizeof *s->output_stage);
  for (size_t o = 0; o < ncb->n_outputs; o++)
    s->output_stage[o] = -1;
  for (uint32_t i = 0; i < n_stages && ok; i++) {
    int32_t o = s->stages[i].output;
    if (o < 0)
      continue;
    snprintf(l.where, sizeof l.where, "xbar stage %u '%s'", i, s->stages[i].name);
    if (s->output_stage[o] >= 0)
      ok = fail(&l, "output %d is already produced by stage %d", o, s->output_stage[o]);
    else if (ncb->outputs[o].dtype != NC_NCB_DTYPE_I8)
      ok = fail(&l, "output %d has element type %u; the datapath produces i8 (%d)", o, ncb->outputs[o].dtype,
                NC_NCB_DTYPE_I8);
    else {
      xbar_shape want = coords_of(&ncb->outputs[o]);
      ok = expect_shape(&l, "output shape (the network output's descriptor)", &s->stages[i].out, &want);
    }
    s->output_stage[o] = i;
  }
  snprintf(l.where, sizeof l.where, "xbar binary");
  for (size_t o = 0; o < ncb->n_outputs && ok; o++)
    if (s->output_stage[o] < 0)
      ok = fail(&l, "no stage produces output %zu", o);
  if (!ok) {
    xbar_state_destroy(s);
    return NULL;
  }
  for (uint32_t i = 0; i < n_stages; i++) {
    xbar_stage *st = &s->stages[i];
    st->values = nc_rt_calloc((size_t)st->out.elements, 1);
    st->write_rank = nc_rt_calloc((size_t)st->out.elements, sizeof *st->write_rank);
    st->finish = nc_rt_calloc((size_t)st->iterations, sizeof *st->finish);
    st->xbar_free = nc_rt_calloc(st->replicas, sizeof *st->xbar_free);
    st->digital_free = nc_rt_calloc(st->replicas, sizeof *st->digital_free);
  }
  s->cores = nc_rt_calloc(total, sizeof *s->cores);
  return s;
}
