/* seq_sim.c: the runtime side of `seq`: a loader that checks every field
 * of the target's sections against its bounds before anything runs, and a
 * simulator that runs the layers one after another with its own integer
 * kernels, counting ceil(MACs / macs_per_cycle) cycles per layer.
 *
 * It uses only the runtime headers (nc_sim.h, ncb.h), as a simulator must:
 * host programs run binaries with libnc's runtime, not its compiler. The
 * arithmetic is layer.h's integer semantics, written out here (rather than
 * calling nc's interpreter kernels) because a target's simulator is the
 * model of its hardware: the test checks it against the int8 interpreter
 * bit for bit.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "seq.h"

/** A layer, loaded. Pointers point into the binary's image. */
typedef struct seq_layer {
  seq_kind kind;
  uint32_t source;                      /**< a layer index or SEQ_SOURCE_INPUT */
  uint32_t in_rank, out_rank;
  int64_t in[SEQ_MAX_RANK], out[SEQ_MAX_RANK];
  int64_t in_elems, out_elems;
  int64_t kernel[2], stride[2], dilation[2], pads[4], group;
  int64_t input_zp, weight_zp, output_zp, clamp_min, clamp_max;
  uint32_t n_requant;
  const uint8_t *requant;               /**< n_requant x (i64 multiplier, i64 shift) */
  int64_t n_weights, n_bias;
  const int8_t *weights;
  const uint8_t *bias;                  /**< n_bias x i32, little-endian */
  int64_t macs, cycles;                 /**< per inference */
  int32_t *value;                       /**< the layer's output for the current inference */
} seq_layer;

/** The simulator's state. */
typedef struct seq_state {
  char name[32];
  int64_t macs_per_cycle, clock_hz;
  uint32_t n_layers, output_layer;
  seq_layer *layers;
  int64_t in_elems, out_elems;
  size_t inferences; /**< of the last run */
  nc_trace *trace;   /**< NULL: runs are not traced */
} seq_state;

/* Formats a one-line message into err; returns false, for `return error(...)`. */
static bool error(char *err, size_t errlen, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(err, errlen, fmt, ap);
  va_end(ap);
  return false;
}

static void seq_destroy(void *state, void *userData)
{
  (void)userData;
  seq_state *s = state;
  if (!s)
    return;
  for (uint32_t i = 0; s->layers && i < s->n_layers; i++)
    free(s->layers[i].value);
  free(s->layers);
  free(s);
}

/* An i64 field that must lie in [lo, hi]; false with a message naming it. */
static bool get_in(nc_cursor *c, int64_t lo, int64_t hi, int64_t *out, const char *what, uint32_t layer, char *err,
                   size_t errlen)
{
  *out = nc_cursor_i64(c);
  if (c->bad)
    error(err, errlen, "seq: layer %u: section truncated at %s", layer, what);
  if (*out < lo || *out > hi)
    return error(err, errlen, "seq: layer %u: %s %lld is outside [%lld, %lld]", layer, what, (long long)*out,
                (long long)lo, (long long)hi);
  return true;
}

/* A shape: u32 rank in [1, SEQ_MAX_RANK], dims in [1, 2^24] (unused ones 0), at most 2^26 elements. */
static bool get_shape(nc_cursor *c, uint32_t *rank, int64_t *dims, int64_t *elems, const char *what, uint32_t layer,
                      char *err, size_t errlen)
{
  *rank = nc_cursor_u32(c);
  if (*rank < 1 || *rank > SEQ_MAX_RANK)
    return error(err, errlen, "seq: layer %u: %s rank %u is outside [1, %d]", layer, what, *rank, SEQ_MAX_RANK);
  *elems = 1;
  for (uint32_t d = 0; d < SEQ_MAX_RANK; d++) {
    if (!get_in(c, d < *rank ? 1 : 0, d < *rank ? (1 << 24) : 0, &dims[d], what, layer, err, errlen))
      return false;
    if (d < *rank && (*elems *= dims[d]) > (1 << 26))
      return error(err, errlen, "seq: layer %u: %s has more than 2^26 elements", layer, what);
  }
  return true;
}

/* Checks the geometry of a layer against its kind; sets its MACs. */
static bool check_geometry(seq_layer *l, uint32_t i, char *err, size_t errlen)
{
  int64_t need_w = 0, cout = 0;
  switch (l->kind) {
  case SEQ_CONV:
  case SEQ_MAX_POOL: {
    if (l->in_rank != 3 || l->out_rank != 3)
      return error(err, errlen, "seq: layer %u: a %s needs [C, H, W] shapes", i, l->kind == SEQ_CONV ? "conv" : "pool");
    for (int d = 0; d < 2; d++) {
      if (l->kernel[d] < 1)
        return error(err, errlen, "seq: layer %u: a window layer needs a kernel of at least 1, not %lld", i,
                     (long long)l->kernel[d]);
      int64_t span = l->dilation[d] * (l->kernel[d] - 1) + 1, padded = l->in[1 + d] + l->pads[d] + l->pads[2 + d];
      int64_t floor_out = padded < span ? 0 : (padded - span) / l->stride[d] + 1;
      /* a ceil_mode pool may add one window, clipped to the input */
      if (l->out[1 + d] != floor_out && !(l->kind == SEQ_MAX_POOL && l->out[1 + d] == floor_out + 1))
        return error(err, errlen, "seq: layer %u: output extent %lld does not follow from the input %lld, kernel, "
                    "stride and pads (%lld)", i, (long long)l->out[1 + d], (long long)l->in[1 + d],
                    (long long)floor_out);
    }
    cout = l->out[0];
    if (l->kind == SEQ_MAX_POOL) {
      if (cout != l->in[0] || l->group != 1)
        return error(err, errlen, "seq: layer %u: a pool keeps its %lld channels", i, (long long)l->in[0]);
      break;
    }
    if (l->in[0] % l->group || cout % l->group)
      return error(err, errlen, "seq: layer %u: group %lld does not divide the channels", i, (long long)l->group);
    need_w = cout * (l->in[0] / l->group) * l->kernel[0] * l->kernel[1];
    l->macs = l->out_elems * (l->in[0] / l->group) * l->kernel[0] * l->kernel[1];
    break;
  }
  case SEQ_MATMUL:
    cout = l->out_elems;
    need_w = l->in_elems * cout;
    l->macs = need_w;
    break;
  case SEQ_COPY:
    if (l->in_elems != l->out_elems)
      return error(err, errlen, "seq: layer %u: a copy of %lld elements into %lld", i, (long long)l->in_elems,
                  (long long)l->out_elems);
    break;
  }
  bool mac = l->kind == SEQ_CONV || l->kind == SEQ_MATMUL;
  if (l->n_weights != need_w)
    return error(err, errlen, "seq: layer %u: %lld weights, expected %lld", i, (long long)l->n_weights,
                (long long)need_w);
  if (l->n_bias != 0 && (!mac || l->n_bias != cout))
    return error(err, errlen, "seq: layer %u: %lld biases for %lld output channels", i, (long long)l->n_bias,
                (long long)cout);
  if (mac ? !(l->n_requant == 1 || l->n_requant == cout) : l->n_requant != 0)
    return error(err, errlen, "seq: layer %u: %u requantization multipliers for %lld channels", i, l->n_requant,
                (long long)cout);
  return true;
}

/* Reads and checks one layer section (`i` is its position). */
static bool load_layer(const nc_ncb_section *sec, uint32_t i, seq_layer *l, char *err, size_t errlen)
{
  nc_cursor c = nc_cursor_make(sec->data, sec->size);
  l->kind = (seq_kind)nc_cursor_u32(&c);
  if (l->kind < SEQ_CONV || l->kind > SEQ_COPY)
    return error(err, errlen, "seq: layer %u: unknown kind %u", i, (unsigned)l->kind);
  l->source = nc_cursor_u32(&c);
  if (l->source != SEQ_SOURCE_INPUT && l->source >= i)
    return error(err, errlen, "seq: layer %u reads layer %u, which does not run before it", i, l->source);
  if (!get_shape(&c, &l->in_rank, l->in, &l->in_elems, "input shape", i, err, errlen) ||
      !get_shape(&c, &l->out_rank, l->out, &l->out_elems, "output shape", i, err, errlen))
    return false;
  int64_t *geometry[] = {l->kernel, l->stride, l->dilation};
  static const char *const names[] = {"kernel", "stride", "dilation"};
  for (int g = 0; g < 3; g++)
    for (int d = 0; d < 2; d++)
      if (!get_in(&c, g == 0 ? 0 : 1, 64, &geometry[g][d], names[g], i, err, errlen)) /* kernel: 0 unless a window */
        return false;
  for (int d = 0; d < 4; d++)
    if (!get_in(&c, 0, 64, &l->pads[d], "pad", i, err, errlen))
      return false;
  if (!get_in(&c, 1, 1 << 16, &l->group, "group", i, err, errlen) ||
      !get_in(&c, -128, 127, &l->input_zp, "input zero point", i, err, errlen) ||
      !get_in(&c, -128, 127, &l->weight_zp, "weight zero point", i, err, errlen) ||
      !get_in(&c, -128, 127, &l->output_zp, "output zero point", i, err, errlen) ||
      !get_in(&c, -128, 127, &l->clamp_min, "clamp_min", i, err, errlen) ||
      !get_in(&c, l->clamp_min, 127, &l->clamp_max, "clamp_max", i, err, errlen))
    return false;
  l->n_requant = nc_cursor_u32(&c);
  if (l->n_requant > (1 << 24))
    return error(err, errlen, "seq: layer %u: %u requantization multipliers", i, l->n_requant);
  l->requant = nc_cursor_bytes(&c, (size_t)l->n_requant * 16);
  for (uint32_t k = 0; l->requant && k < l->n_requant; k++) {
    nc_cursor r = nc_cursor_make(l->requant + 16 * (size_t)k, 16);
    int64_t m = nc_cursor_i64(&r), s = nc_cursor_i64(&r);
    if (m < 0 || m >= (INT64_C(1) << 31) || s < 0 || s > 63)
      return error(err, errlen, "seq: layer %u: multiplier %lld must be in [0, 2^31) and shift %lld in [0, 63]", i,
                  (long long)m, (long long)s);
  }
  l->n_weights = (int64_t)nc_cursor_u64(&c);
  if (l->n_weights < 0 || l->n_weights > (1 << 26))
    return error(err, errlen, "seq: layer %u: %lld weights", i, (long long)l->n_weights);
  l->weights = (const int8_t *)nc_cursor_bytes(&c, (size_t)l->n_weights);
  nc_cursor_align(&c, 8);
  l->n_bias = (int64_t)nc_cursor_u64(&c);
  if (l->n_bias < 0 || l->n_bias > (1 << 24))
    return error(err, errlen, "seq: layer %u: %lld biases", i, (long long)l->n_bias);
  l->bias = nc_cursor_bytes(&c, (size_t)l->n_bias * 4);
  if (c.bad)
    return error(err, errlen, "seq: layer %u: section truncated", i);
  if (c.pos != c.len)
    return error(err, errlen, "seq: layer %u: %zu bytes after the bias", i, c.len - c.pos);
  return check_geometry(l, i, err, errlen);
}

/* Finds the section of `type` and `id`; NULL if absent. */
static const nc_ncb_section *find_section(const nc_ncb *ncb, uint32_t type, uint32_t id)
{
  for (size_t i = 0; i < ncb->n_sections; i++)
    if (ncb->sections[i].type == type && ncb->sections[i].id == id)
      return &ncb->sections[i];
  return NULL;
}

static void *seq_load(const nc_ncb *ncb, char *err, size_t errlen, void *userData)
{
  (void)userData;
  const nc_ncb_section *chip = find_section(ncb, SEQ_SECTION_CHIP, 0);
  bool ok = ncb->n_inputs == 1 && ncb->n_outputs == 1 && ncb->inputs[0].dtype == NC_NCB_DTYPE_I8 &&
            ncb->outputs[0].dtype == NC_NCB_DTYPE_I8;
  if (!ok)
    error(err, errlen, "seq: a seq binary has one int8 input and one int8 output");
  for (size_t i = 0; ok && i < ncb->n_sections; i++)
    if (ncb->sections[i].type != SEQ_SECTION_CHIP && ncb->sections[i].type != SEQ_SECTION_LAYER)
      ok = error(err, errlen, "seq: section %zu has unknown type %u", i, ncb->sections[i].type);
  if (ok && !chip)
    ok = error(err, errlen, "seq: no chip section");
  seq_state *s = ok ? calloc(1, sizeof *s) : NULL;
  if (ok && !s)
    error(err, errlen, "seq: out of memory");
  if (!s)
    return NULL;
  nc_cursor c = nc_cursor_make(chip->data, chip->size);
  s->macs_per_cycle = (int64_t)nc_cursor_u64(&c);
  s->clock_hz = (int64_t)nc_cursor_u64(&c);
  s->n_layers = nc_cursor_u32(&c);
  s->output_layer = nc_cursor_u32(&c);
  nc_cursor_str(&c, s->name, sizeof s->name);
  char why[128] = "";
  if (c.bad || c.pos != c.len)
    snprintf(why, sizeof why, "the chip section has %zu bytes, not 56", c.len);
  else if (s->macs_per_cycle < 1 || s->macs_per_cycle > SEQ_MAX_MACS_PER_CYCLE)
    snprintf(why, sizeof why, "macs_per_cycle %lld is outside [1, %lld]", (long long)s->macs_per_cycle,
             (long long)SEQ_MAX_MACS_PER_CYCLE);
  else if (s->clock_hz < 1 || s->clock_hz > SEQ_MAX_CLOCK_HZ)
    snprintf(why, sizeof why, "clock_hz %lld is outside [1, %lld]", (long long)s->clock_hz,
             (long long)SEQ_MAX_CLOCK_HZ);
  else if (s->n_layers < 1 || s->n_layers + 1 != ncb->n_sections)
    snprintf(why, sizeof why, "%u layers in %zu sections (one chip section, one per layer)", s->n_layers,
             ncb->n_sections);
  else if (s->output_layer >= s->n_layers)
    snprintf(why, sizeof why, "the output comes from layer %u of %u", s->output_layer, s->n_layers);
  if (*why) {
    seq_destroy(s, NULL);
    error(err, errlen, "seq: %s", why);
    return NULL;
  }
  s->in_elems = (int64_t)nc_ncb_tensor_elements(&ncb->inputs[0]);
  s->out_elems = (int64_t)nc_ncb_tensor_elements(&ncb->outputs[0]);
  s->layers = calloc(s->n_layers, sizeof *s->layers);
  ok = s->layers != NULL;
  for (uint32_t i = 0; ok && i < s->n_layers; i++) {
    seq_layer *l = &s->layers[i];
    const nc_ncb_section *sec = find_section(ncb, SEQ_SECTION_LAYER, i);
    ok = sec ? load_layer(sec, i, l, err, errlen) : error(err, errlen, "seq: no section for layer %u", i);
    int64_t feeds = ok ? (l->source == SEQ_SOURCE_INPUT ? s->in_elems : s->layers[l->source].out_elems) : 0;
    if (ok && feeds != l->in_elems)
      ok = error(err, errlen, "seq: layer %u reads %lld elements but its source has %lld", i, (long long)l->in_elems,
                (long long)feeds);
    if (ok && !(l->value = calloc((size_t)l->out_elems, sizeof *l->value)))
      ok = error(err, errlen, "seq: out of memory");
    l->cycles = (l->macs + s->macs_per_cycle - 1) / s->macs_per_cycle;
  }
  if (ok && s->layers[s->output_layer].out_elems != s->out_elems)
    ok = error(err, errlen, "seq: the output layer has %lld elements, the output descriptor %lld",
              (long long)s->layers[s->output_layer].out_elems, (long long)s->out_elems);
  if (!ok) {
    seq_destroy(s, NULL);
    return NULL;
  }
  return s;
}

/* --- the kernels: layer.h's integer semantics ---------------------------------------------- */

/* round_half_even(v / 2^shift), as graph.requantize computes it. */
static int64_t round_shift(int64_t v, int64_t shift)
{
  if (shift <= 0)
    return v;
  int64_t q = v >> shift; /* arithmetic shift: floor */
  uint64_t r = (uint64_t)v & ((UINT64_C(1) << shift) - 1), half = UINT64_C(1) << (shift - 1);
  return q + (r > half || (r == half && (q & 1)));
}

/* The requantized, clamped output of accumulator `acc` of channel c. */
static int32_t requantize(const seq_layer *l, int64_t acc, int64_t c)
{
  if (l->n_bias) {
    nc_cursor b = nc_cursor_make(l->bias + 4 * c, 4);
    acc += nc_cursor_i32(&b);
  }
  nc_cursor r = nc_cursor_make(l->requant + 16 * (l->n_requant == 1 ? 0 : c), 16);
  int64_t m = nc_cursor_i64(&r), s = nc_cursor_i64(&r);
  int64_t y = round_shift(acc * m, s) + l->output_zp;
  return (int32_t)(y < l->clamp_min ? l->clamp_min : y > l->clamp_max ? l->clamp_max : y);
}

/* conv and max pool over [C, H, W]; padding reads the input zero point (conv) or never wins (pool). */
static void run_window(const seq_layer *l, const int32_t *x)
{
  int64_t C = l->in[0], H = l->in[1], W = l->in[2], Co = l->out[0], Ho = l->out[1], Wo = l->out[2];
  int64_t cg = C / l->group, og = Co / l->group, kh = l->kernel[0], kw = l->kernel[1];
  for (int64_t o = 0; o < Co; o++)
    for (int64_t oy = 0; oy < Ho; oy++)
      for (int64_t ox = 0; ox < Wo; ox++) {
        int64_t acc = 0, best = INT64_MIN;
        for (int64_t ci = 0; ci < (l->kind == SEQ_CONV ? cg : 1); ci++) {
          int64_t c = l->kind == SEQ_CONV ? o / og * cg + ci : o;
          for (int64_t ky = 0; ky < kh; ky++)
            for (int64_t kx = 0; kx < kw; kx++) {
              int64_t y = oy * l->stride[0] - l->pads[0] + ky * l->dilation[0];
              int64_t xx = ox * l->stride[1] - l->pads[1] + kx * l->dilation[1];
              if (y < 0 || y >= H || xx < 0 || xx >= W)
                continue;
              int64_t v = x[(c * H + y) * W + xx];
              if (l->kind == SEQ_MAX_POOL)
                best = v > best ? v : best;
              else
                acc += (v - l->input_zp) * (l->weights[((o * cg + ci) * kh + ky) * kw + kx] - l->weight_zp);
            }
        }
        l->value[(o * Ho + oy) * Wo + ox] = l->kind == SEQ_CONV ? requantize(l, acc, o) : (int32_t)best;
      }
}

/* [K] times weights [K, N]. */
static void run_matmul(const seq_layer *l, const int32_t *x)
{
  int64_t K = l->in_elems, N = l->out_elems;
  for (int64_t n = 0; n < N; n++) {
    int64_t acc = 0;
    for (int64_t k = 0; k < K; k++)
      acc += (x[k] - l->input_zp) * (l->weights[k * N + n] - l->weight_zp);
    l->value[n] = requantize(l, acc, n);
  }
}

static bool seq_run(void *state, size_t batch, const void *const *inputs, void *const *outputs, char *err,
                    size_t errlen, void *userData)
{
  (void)userData;
  seq_state *s = state;
  int32_t *in = malloc((size_t)s->in_elems * sizeof *in);
  if (!in)
    return error(err, errlen, "seq: out of memory");
  static const char *const kind_name[] = {"?", "conv", "matmul", "max pool", "copy"};
  uint64_t t = 0; /* the layers run back to back on the one MAC array */
  if (s->trace) {
    nc_trace_set_clock(s->trace, (uint64_t)s->clock_hz);
    nc_trace_name_group(s->trace, 1, "chip (seq)");
    nc_trace_name_track(s->trace, 1, 1, "core (0, 0) MAC array");
  }
  for (size_t b = 0; b < batch; b++) {
    const int8_t *src = (const int8_t *)inputs[0] + b * (size_t)s->in_elems;
    for (int64_t i = 0; i < s->in_elems; i++)
      in[i] = src[i];
    for (uint32_t i = 0; i < s->n_layers; i++) {
      const seq_layer *l = &s->layers[i];
      const int32_t *x = l->source == SEQ_SOURCE_INPUT ? in : s->layers[l->source].value;
      if (l->kind == SEQ_MATMUL)
        run_matmul(l, x);
      else if (l->kind == SEQ_COPY) /* a reshape: the row-major order is kept */
        memcpy(l->value, x, (size_t)l->out_elems * sizeof *x);
      else
        run_window(l, x);
      if (s->trace && l->cycles > 0)
        nc_trace_complete(s->trace, 1, 1, "compute", kind_name[l->kind <= SEQ_COPY ? l->kind : 0], t,
                          (uint64_t)l->cycles, (int64_t)b);
      t += (uint64_t)l->cycles;
    }
    int8_t *dst = (int8_t *)outputs[0] + b * (size_t)s->out_elems;
    for (int64_t i = 0; i < s->out_elems; i++)
      dst[i] = (int8_t)s->layers[s->output_layer].value[i];
  }
  free(in);
  s->inferences = batch;
  return true;
}

static void seq_figures(const void *state, nc_figures *out, void *userData)
{
  (void)userData;
  const seq_state *s = state;
  int64_t cycles = 0, macs = 0;
  for (uint32_t i = 0; i < s->n_layers; i++) {
    cycles += s->layers[i].cycles;
    macs += s->layers[i].macs;
  }
  double bound = (double)macs / (double)s->macs_per_cycle;
  nc_figures_set_text(out, "target", "seq");
  nc_figures_set_int(out, "inferences", (int64_t)s->inferences);
  nc_figures_set_real(out, "cycles_per_inference", (double)cycles);
  nc_figures_set_real(out, "frames_per_second", cycles ? (double)s->clock_hz / (double)cycles : 0);
  nc_figures_set_int(out, "latency_cycles", cycles);
  nc_figures_set_real(out, "roofline_bound_cycles", bound);
  nc_figures_set_real(out, "roofline_ratio", bound > 0 ? (double)cycles / bound : 1);
  nc_figures_set_int(out, "cores_used", 1);
  nc_figures_set_text(out, "chip", s->name);
  nc_figures_set_int(out, "clock_hz", s->clock_hz);
  nc_figures_set_int(out, "macs_per_cycle", s->macs_per_cycle);
  nc_figures_set_int(out, "macs_per_inference", macs);
  nc_figures *core = nc_figures_add_core(out);
  nc_figures_set_int(core, "layers", s->n_layers);
  nc_figures_set_int(core, "busy_cycles", cycles);
  nc_figures_set_int(core, "macs", macs);
  double capacity = (double)cycles * (double)s->macs_per_cycle;
  nc_figures_set_real(core, "mac_utilisation", cycles ? (double)macs / capacity : 0);
}

static void seq_set_trace(void *state, nc_trace *trace, void *userData)
{
  (void)userData;
  ((seq_state *)state)->trace = trace;
}

/** The simulator; nc_target_register makes it known to the runtime. */
const nc_target_sim seq_sim = {
  .name = "seq",
  .load = seq_load,
  .run = seq_run,
  .figures = seq_figures,
  .destroy = seq_destroy,
  .set_trace = seq_set_trace,
};
