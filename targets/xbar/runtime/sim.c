/* sim.c: the xbar simulator: runs a loaded binary inference by inference,
 * stage by stage in pipeline order, each stage's iterations in the
 * lexicographic order of its domain, every iteration gated by its control
 * program (it reads only what the producer iteration its control waited for
 * had written: anything else is a schedule error), computing the values
 * with the crossbar datapath (datapath.c), and times every iteration with
 * the timing model of docs/targets/xbar.md:
 *   - an MVM iteration runs on replica (rank mod replicas): all of the
 *     replica's crossbars fire together for ceil(input_bits / dac_bits) x
 *     mvm_latency cycles once its inputs have arrived and the crossbars are
 *     free; the row tiles' partial sums (4 bytes each) travel to the owner
 *     core, whose digital unit adds them and requantizes (one vector op per
 *     partial sum and per output);
 *   - pools and copies run on their core's digital unit (one op per window
 *     element or moved element);
 *   - data moves over the mesh: Manhattan hops x hop latency plus the
 *     message over the link width; the host is one hop beyond core (0, 0)
 *     and streams the inputs step by step (pixels), one link.
 * Link contention and buffer back-pressure are not modelled: links are not
 * modelled at all, so the trace counts the bytes each core sends instead.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/runtime/rt_util.h"
#include "nc/runtime/nc_sim.h"
#include "nc/runtime/nc_trace.h"
#include "xbar_sim.h"

static uint64_t ceil_div(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

/* --- the trace (nc-run --trace): group 0 the host, group 1 the chip; core c has two tracks, its crossbar
 * (2c + 1) and its digital unit (2c + 2), which work at the same time -------------------------------------------- */

enum { TRACK_XBAR = 1, TRACK_DIGITAL = 2 };

static void trace_span(xbar_state *s, uint32_t core, int unit, const char *cat, const char *name, uint64_t start,
                       uint64_t end)
{
  if (s->trace && end > start)
    nc_trace_complete(s->trace, 1, 2 * (int)core + unit, cat, name, start, end - start, (int64_t)s->inference);
}

static void trace_tracks(xbar_state *s)
{
  nc_trace_set_clock(s->trace, s->chip.clock_hz);
  nc_trace_name_group(s->trace, 0, "host");
  nc_trace_name_track(s->trace, 0, 0, "input stream");
  char name[96];
  snprintf(name, sizeof name, "chip (xbar, %s)", s->chip.name);
  nc_trace_name_group(s->trace, 1, name);
  for (uint32_t i = 0; i < s->n_stages; i++) {
    const xbar_stage *st = &s->stages[i];
    for (uint32_t k = 0; k < st->n_cores; k++) {
      uint32_t c = st->cores[k], x = c % s->chip.mesh_cols, y = c / s->chip.mesh_cols;
      if (st->matrix) {
        snprintf(name, sizeof name, "core (%u, %u) %s crossbar", x, y, st->name);
        nc_trace_name_track(s->trace, 1, 2 * (int)c + TRACK_XBAR, name);
      }
      if (st->matrix && k % (st->row_tiles * st->col_tiles) >= st->col_tiles)
        continue; /* a row tile's partial sums are added by its column's owner */
      snprintf(name, sizeof name, "core (%u, %u) %s digital", x, y, st->name);
      nc_trace_name_track(s->trace, 1, 2 * (int)c + TRACK_DIGITAL, name);
    }
  }
}

/* A message on the mesh from core `from` to core `to` (-1: the host) arriving at `end`: counted in the core's
 * bytes_sent and, when tracing, an async span on the core's "sends" track (messages from one core overlap: the
 * model has no port contention). */
static void trace_send(xbar_state *s, uint32_t from, int64_t to, const char *what, uint64_t start, uint64_t end,
                       uint64_t bytes)
{
  xbar_core_stats *cs = &s->cores[from];
  cs->bytes_sent += bytes;
  cs->sent_until = end > cs->sent_until ? end : cs->sent_until;
  if (!s->trace)
    return;
  char track[64], name[96];
  snprintf(track, sizeof track, "core (%u, %u) sends", from % s->chip.mesh_cols, from / s->chip.mesh_cols);
  if (to < 0)
    snprintf(name, sizeof name, "%s to the host", what);
  else
    snprintf(name, sizeof name, "%s to (%u, %u)", what, (uint32_t)to % s->chip.mesh_cols,
             (uint32_t)to / s->chip.mesh_cols);
  nc_trace_async(s->trace, 1, track, "send", name, start, end - start, bytes, (int64_t)s->inference);
}

/* After each inference: per core that sent, the bytes it has sent so far in the run ("bytes sent (x, y)"), at
 * the arrival of its last message (xbar models no links, so this stands for their load). */
static void trace_bytes_sent(xbar_state *s)
{
  size_t total = (size_t)s->chip.mesh_rows * s->chip.mesh_cols;
  for (size_t c = 0; s->trace && c < total; c++)
    if (s->cores[c].bytes_sent) {
      char name[64];
      snprintf(name, sizeof name, "bytes sent (%u, %u)", (uint32_t)c % s->chip.mesh_cols,
               (uint32_t)c / s->chip.mesh_cols);
      nc_trace_counter(s->trace, 1, name, s->cores[c].sent_until, (double)s->cores[c].bytes_sent);
    }
}

/* --- partial sums held by a column's owner core: its crossbar's from the end of the MVM, the other row tiles'
 * from their arrival, until its digital unit adds them (they wait for the slowest and for the unit); arrivals and
 * uses of successive iterations interleave, so changes are kept and applied in time order once no later
 * iteration can come before them (flush_holds) ------------------------------------------------------------------ */

static void hold(xbar_state *s, uint32_t core, uint64_t at, int64_t delta)
{
  if (s->n_holds == s->cap_holds) {
    s->cap_holds = s->cap_holds ? 2 * s->cap_holds : 256;
    s->holds = nc_rt_realloc(s->holds, s->cap_holds * sizeof *s->holds);
  }
  s->holds[s->n_holds++] = (xbar_hold){at, core, delta};
}

static int cmp_hold(const void *a, const void *b)
{
  const xbar_hold *x = a, *y = b;
  if (x->at != y->at)
    return x->at < y->at ? -1 : 1;
  return x->core < y->core ? -1 : x->core > y->core;
}

/* Applies the changes before `horizon` in time order (those at one cycle on one core together): each core's
 * held bytes and peak, and when tracing a "partial sums (x, y)" counter. */
static void flush_holds(xbar_state *s, uint64_t horizon)
{
  if (!s->n_holds) /* a network of moves only (pads, resizes) holds no partial sums: no array to sort */
    return;
  qsort(s->holds, s->n_holds, sizeof *s->holds, cmp_hold);
  size_t i = 0;
  for (; i < s->n_holds && s->holds[i].at < horizon; i++) {
    const xbar_hold *h = &s->holds[i];
    xbar_core_stats *cs = &s->cores[h->core];
    cs->psum_held = (uint64_t)((int64_t)cs->psum_held + h->delta);
    if (i + 1 < s->n_holds && s->holds[i + 1].at == h->at && s->holds[i + 1].core == h->core &&
        s->holds[i + 1].at < horizon)
      continue;
    cs->psum_peak = cs->psum_held > cs->psum_peak ? cs->psum_held : cs->psum_peak;
    if (s->trace && cs->psum_held != cs->psum_traced) { /* a change (a core whose sums never wait has none) */
      cs->psum_traced = cs->psum_held;
      char name[64];
      snprintf(name, sizeof name, "partial sums (%u, %u)", h->core % s->chip.mesh_cols, h->core / s->chip.mesh_cols);
      nc_trace_counter(s->trace, 1, name, h->at, (double)cs->psum_held);
    }
  }
  memmove(s->holds, s->holds + i, (s->n_holds - i) * sizeof *s->holds);
  s->n_holds -= i;
}

/* No later MVM can start before its replica's crossbars are free: the earliest such time bounds every change
 * still to come. */
static uint64_t holds_horizon(const xbar_state *s)
{
  uint64_t h = UINT64_MAX;
  for (uint32_t i = 0; i < s->n_stages; i++)
    for (uint32_t r = 0; s->stages[i].matrix && r < s->stages[i].replicas; r++)
      if (s->stages[i].xbar_free[r] && s->stages[i].xbar_free[r] < h) /* 0: a replica no iteration uses */
        h = s->stages[i].xbar_free[r];
  return h;
}

static uint64_t hops(const xbar_chip *chip, int64_t a, int64_t b)
{
  /* -1: the host, one hop beyond (0, 0) */
  int64_t ax = a < 0 ? -1 : a % chip->mesh_cols, ay = a < 0 ? 0 : a / chip->mesh_cols;
  int64_t bx = b < 0 ? -1 : b % chip->mesh_cols, by = b < 0 ? 0 : b / chip->mesh_cols;
  return (uint64_t)((ax > bx ? ax - bx : bx - ax) + (ay > by ? ay - by : by - ay));
}

/* The core owning iteration `rank`'s output (its replica's first crossbar). */
static int64_t owner(const xbar_stage *st, int64_t rank)
{
  uint32_t rep = (uint32_t)(rank % st->replicas);
  return st->cores[(size_t)rep * st->row_tiles * st->col_tiles];
}

static uint64_t bytes_per_iteration(const xbar_stage *st)
{
  return ceil_div((uint64_t)st->out.elements, (uint64_t)st->iterations);
}

/* One input step's bytes: a pixel's channels of a [C, H, W] input, else the whole input. */
static uint64_t step_bytes(const xbar_shape *in)
{
  return in->rank == 3 ? (uint64_t)in->dims[0] : (uint64_t)in->elements;
}

static uint64_t step_count(const xbar_shape *in)
{
  return in->rank == 3 ? (uint64_t)(in->dims[1] * in->dims[2]) : 1;
}

/* When iteration `rank` of stage `st` has its operands, in inference `n` (waits[] from its control). */
static uint64_t ready_time(const xbar_state *s, const xbar_stage *st, int64_t rank, const int64_t *waits, size_t n,
                           int64_t core)
{
  const xbar_chip *chip = &s->chip;
  uint64_t ready = 0;
  for (uint32_t op = 0; op < st->n_operands; op++) {
    if (waits[op] < 0)
      continue;
    const xbar_operand *o = &st->ops[op];
    uint64_t t;
    if (o->source >= 0) {
      const xbar_stage *p = &s->stages[o->source];
      t = p->finish[waits[op]] + hops(chip, owner(p, waits[op]), core) * chip->hop_latency_cycles +
          ceil_div(bytes_per_iteration(p), chip->link_bytes_per_cycle);
    } else {
      uint64_t cyc = ceil_div(step_bytes(&o->shape), chip->link_bytes_per_cycle), steps = step_count(&o->shape);
      t = ((uint64_t)n * steps + (uint64_t)waits[op] + 1) * cyc + hops(chip, -1, core) * chip->hop_latency_cycles;
    }
    ready = t > ready ? t : ready;
  }
  (void)rank;
  return ready;
}

/* Times iteration `rank` (its values are computed) and counts its work on the cores. */
static void time_iteration(xbar_state *s, xbar_stage *st, int64_t rank, uint64_t ready)
{
  const xbar_chip *chip = &s->chip;
  uint32_t rep = (uint32_t)(rank % st->replicas);
  bool mvm = st->kind == XBAR_KIND_CONV || st->kind == XBAR_KIND_MATMUL;
  if (mvm) {
    uint64_t mvm_cyc = xbar_mvm_cycles(chip);
    uint64_t t0 = ready > st->xbar_free[rep] ? ready : st->xbar_free[rep], t1 = t0 + mvm_cyc;
    uint64_t idle = st->xbar_free[rep];
    st->xbar_free[rep] = t1;
    uint64_t psum = 0, digital = 0;
    size_t base = (size_t)rep * st->row_tiles * st->col_tiles;
    for (uint32_t ct = 0; ct < st->col_tiles; ct++) {
      uint32_t c0 = ct * chip->xbar_cols, c1 = c0 + chip->xbar_cols < st->cols ? c0 + chip->xbar_cols : st->cols;
      uint32_t own = st->cores[base + ct];
      for (uint32_t rt = 0; rt < st->row_tiles; rt++) {
        uint32_t core = st->cores[base + (size_t)rt * st->col_tiles + ct];
        s->cores[core].mvms++;
        s->cores[core].mvm_busy += mvm_cyc;
        trace_span(s, core, TRACK_XBAR, "recv", "wait for inputs", idle, t0);
        trace_span(s, core, TRACK_XBAR, "compute", st->name, t0, t1);
        if (rt) {
          uint64_t t = hops(chip, core, own) * chip->hop_latency_cycles +
                       ceil_div(4 * (uint64_t)(c1 - c0), chip->link_bytes_per_cycle);
          psum = t > psum ? t : psum;
          trace_send(s, core, own, "partial sums", t1, t1 + t, 4 * (uint64_t)(c1 - c0));
          hold(s, own, t1 + t, 4 * (int64_t)(c1 - c0));
        }
      }
      uint64_t ops = (uint64_t)st->row_tiles * (c1 - c0);
      uint64_t cyc = ceil_div(ops, chip->vector_ops_per_cycle);
      s->cores[own].vector_ops += ops;
      s->cores[own].digital_busy += cyc;
      digital = cyc > digital ? cyc : digital;
    }
    uint64_t t2 = t1 + psum > st->digital_free[rep] ? t1 + psum : st->digital_free[rep];
    for (uint32_t ct = 0; ct < st->col_tiles; ct++) { /* the owner's own from the end of its MVM; all used at t2 */
      uint32_t c0 = ct * chip->xbar_cols, c1 = c0 + chip->xbar_cols < st->cols ? c0 + chip->xbar_cols : st->cols;
      hold(s, st->cores[base + ct], t1, 4 * (int64_t)(c1 - c0));
      hold(s, st->cores[base + ct], t2, -4 * (int64_t)st->row_tiles * (c1 - c0));
    }
    for (uint32_t ct = 0; s->trace && ct < st->col_tiles; ct++) { /* partial sums in, then add + requantize */
      uint32_t c0 = ct * chip->xbar_cols, c1 = c0 + chip->xbar_cols < st->cols ? c0 + chip->xbar_cols : st->cols;
      uint32_t own = st->cores[base + ct];
      trace_span(s, own, TRACK_DIGITAL, "recv", st->row_tiles > 1 ? "wait for partial sums" : "wait for the MVM",
                 st->digital_free[rep], t2);
      trace_span(s, own, TRACK_DIGITAL, "compute", st->name, t2,
                 t2 + ceil_div((uint64_t)st->row_tiles * (c1 - c0), chip->vector_ops_per_cycle));
    }
    st->digital_free[rep] = t2 + digital;
    st->finish[rank] = t2 + digital;
    return;
  }
  uint64_t ops;
  const xbar_shape *in = &st->ops[0].shape;
  if (st->kind == XBAR_KIND_MAX_POOL)
    ops = (uint64_t)(in->dims[0] * st->kernel[0] * st->kernel[1]);
  else if (st->kind == XBAR_KIND_RESIZE) /* a multiply-add per corner of each output element */
    ops = bytes_per_iteration(st) * (st->n_bias == 9 ? 8 : 4);
  else
    ops = bytes_per_iteration(st);
  uint64_t cyc = ceil_div(ops ? ops : 1, chip->vector_ops_per_cycle);
  uint64_t t0 = ready > st->digital_free[0] ? ready : st->digital_free[0];
  trace_span(s, st->cores[0], TRACK_DIGITAL, "recv", "wait for inputs", st->digital_free[0], t0);
  trace_span(s, st->cores[0], TRACK_DIGITAL, "compute", st->name, t0, t0 + cyc);
  st->digital_free[0] = t0 + cyc;
  st->finish[rank] = t0 + cyc;
  s->cores[st->cores[0]].vector_ops += ops;
  s->cores[st->cores[0]].digital_busy += cyc;
}

static bool run_stage(xbar_state *s, xbar_stage *st, size_t n, const int8_t *const *inputs, char *err, size_t errlen)
{
  int64_t c[XBAR_MAX_RANK] = {0};
  for (uint32_t op = 0; op < XBAR_MAX_OPERANDS; op++)
    st->last_wait[op] = st->last_dest[op] = -1;
  for (int64_t rank = 0; rank < st->iterations; rank++) {
    /* the coordinates of iteration `rank` in the box domain, row-major */
    int64_t r = rank;
    for (int d = (int)st->domain.rank - 1; d >= 0; d--) {
      c[d] = r % st->domain.dims[d];
      r /= st->domain.dims[d];
    }
    int64_t waits[XBAR_MAX_OPERANDS];
    if (!xbar_iteration_waits(st, rank, c, waits, err, errlen) ||
        !xbar_compute_iteration(s, st, rank, c, waits, inputs, err, errlen))
      return false;
    int64_t dest = owner(st, rank);
    for (uint32_t op = 0; op < st->n_operands; op++) { /* the producer iteration waited for, sent once per core */
      int32_t src = st->ops[op].source;
      if (src < 0 || waits[op] < 0 || (waits[op] == st->last_wait[op] && dest == st->last_dest[op]))
        continue;
      const xbar_stage *p = &s->stages[src];
      uint64_t start = p->finish[waits[op]], from = (uint64_t)owner(p, waits[op]);
      uint64_t end = start + hops(&s->chip, (int64_t)from, dest) * s->chip.hop_latency_cycles +
                     ceil_div(bytes_per_iteration(p), s->chip.link_bytes_per_cycle);
      trace_send(s, (uint32_t)from, dest, p->name, start, end, bytes_per_iteration(p));
      st->last_wait[op] = waits[op];
      st->last_dest[op] = dest;
    }
    time_iteration(s, st, rank, ready_time(s, st, rank, waits, n, dest));
  }
  return true;
}

static bool xbar_run(void *state, size_t batch, const void *const *inputs, void *const *outputs, char *err,
                     size_t errlen, void *userData)
{
  (void)userData;
  xbar_state *s = state;
  size_t total = (size_t)s->chip.mesh_rows * s->chip.mesh_cols;
  memset(s->cores, 0, total * sizeof *s->cores);
  for (uint32_t i = 0; i < s->n_stages; i++) {
    xbar_stage *st = &s->stages[i];
    memset(st->xbar_free, 0, st->replicas * sizeof *st->xbar_free);
    memset(st->digital_free, 0, st->replicas * sizeof *st->digital_free);
  }
  s->n_holds = 0;
  const int8_t **in_now = nc_rt_calloc(s->n_inputs, sizeof *in_now);
  bool ok = true;
  s->mvms_per_inference = 0;
  s->inferences = 0;
  if (s->trace)
    trace_tracks(s);
  for (size_t n = 0; n < batch && ok; n++) {
    s->inference = n;
    for (size_t i = 0; i < s->n_inputs; i++) {
      in_now[i] = (const int8_t *)inputs[i] + n * (size_t)s->inputs[i].elements;
      if (s->trace && i == 0) { /* the host streams the input's steps back to back, one inference after another */
        uint64_t cyc = ceil_div(step_bytes(&s->inputs[i]), s->chip.link_bytes_per_cycle);
        uint64_t steps = step_count(&s->inputs[i]);
        nc_trace_complete(s->trace, 0, 0, "stream", "input", n * steps * cyc, steps * cyc, (int64_t)n);
      }
    }
    uint64_t end = 0;
    for (uint32_t i = 0; i < s->n_stages && ok; i++) {
      xbar_stage *st = &s->stages[i];
      for (int64_t e = 0; e < st->out.elements; e++)
        st->write_rank[e] = -1;
      ok = run_stage(s, st, n, in_now, err, errlen);
      if (ok && st->output >= 0) {
        for (int64_t e = 0; e < st->out.elements; e++)
          if (st->write_rank[e] < 0) {
            snprintf(err, errlen, "schedule error: stage '%s' ends inference %zu without writing output element %lld",
                     st->name, n, (long long)e);
            ok = false;
            break;
          }
        memcpy((int8_t *)outputs[st->output] + n * (size_t)st->out.elements, st->values, (size_t)st->out.elements);
        uint64_t t = st->finish[st->iterations - 1] + hops(&s->chip, owner(st, st->iterations - 1), -1) *
                                                          s->chip.hop_latency_cycles +
                     ceil_div((uint64_t)st->out.elements, s->chip.link_bytes_per_cycle);
        end = t > end ? t : end;
        trace_send(s, (uint32_t)owner(st, st->iterations - 1), -1, st->name, st->finish[st->iterations - 1], t,
                   (uint64_t)st->out.elements);
      }
      if (ok && n == 0 && (st->kind == XBAR_KIND_CONV || st->kind == XBAR_KIND_MATMUL))
        s->mvms_per_inference += (uint64_t)st->iterations * st->row_tiles * st->col_tiles;
    }
    if (!ok)
      break;
    trace_bytes_sent(s);
    flush_holds(s, holds_horizon(s));
    if (n == 0)
      s->latency = s->first_end = end;
    s->last_end = end;
    s->inferences = n + 1;
    if (s->progress)
      s->progress(n + 1, batch, s->progress_data);
  }
  flush_holds(s, UINT64_MAX);
  s->total_cycles = s->last_end;
  free(in_now);
  return ok;
}

static void *xbar_sim_load(const nc_ncb *ncb, char *err, size_t errlen, void *userData)
{
  (void)userData;
  return xbar_load(ncb, err, errlen);
}

/* noise=SEED,SIGMA (sigma >= 0; "off" restores the ideal crossbars) */
static bool xbar_set_option(void *state, const char *key, const char *value, char *err, size_t errlen, void *userData)
{
  (void)userData;
  xbar_state *s = state;
  if (strcmp(key, "noise") != 0) {
    snprintf(err, errlen, "the xbar simulator has no option '%s' (it has: noise=SEED,SIGMA)", key);
    return false;
  }
  if (!strcmp(value, "off")) {
    xbar_set_noise(s, 0, -1);
    return true;
  }
  char *end;
  unsigned long long seed = strtoull(value, &end, 10);
  double sigma = -1;
  if (end != value && *end == ',')
    sigma = strtod(end + 1, &end);
  if (*end || sigma < 0 || sigma > 100 || sigma != sigma) {
    snprintf(err, errlen, "noise=%s: expected SEED,SIGMA with an integer seed and 0 <= sigma <= 100", value);
    return false;
  }
  xbar_set_noise(s, (uint64_t)seed, sigma);
  return true;
}

static void xbar_figures(const void *state, nc_figures *f, void *userData)
{
  (void)userData;
  const xbar_state *s = state;
  const xbar_chip *chip = &s->chip;
  size_t total = (size_t)chip->mesh_rows * chip->mesh_cols;
  double cpi = s->inferences > 1 ? (double)(s->last_end - s->first_end) / (double)(s->inferences - 1)
                                 : (double)s->latency;
  double bound = (double)s->mvms_per_inference * (double)xbar_mvm_cycles(chip) / (double)total;
  nc_figures_set_text(f, "target", "xbar");
  nc_figures_set_text(f, "chip", chip->name);
  nc_figures_set_int(f, "inferences", (int64_t)s->inferences);
  nc_figures_set_int(f, "total_cycles", (int64_t)s->total_cycles);
  nc_figures_set_real(f, "cycles_per_inference", cpi);
  nc_figures_set_real(f, "frames_per_second", cpi > 0 ? (double)chip->clock_hz / cpi : 0);
  nc_figures_set_int(f, "clock_hz", (int64_t)chip->clock_hz);
  nc_figures_set_int(f, "latency_cycles", (int64_t)s->latency);
  nc_figures_set_int(f, "mvms_per_inference", (int64_t)s->mvms_per_inference);
  nc_figures_set_int(f, "mvm_cycles", (int64_t)xbar_mvm_cycles(chip));
  nc_figures_set_real(f, "roofline_bound_cycles", bound);
  nc_figures_set_real(f, "roofline_ratio", bound > 0 ? cpi / bound : 0);
  uint64_t used = 0, xbars = 0, cells = 0;
  for (uint32_t i = 0; i < s->n_stages; i++) {
    const xbar_stage *st = &s->stages[i];
    used += st->n_cores;
    if (st->matrix) {
      xbars += st->n_cores;
      cells += (uint64_t)st->replicas * st->rows * st->cols;
    }
  }
  nc_figures_set_int(f, "cores_total", (int64_t)total);
  nc_figures_set_int(f, "cores_used", (int64_t)used);
  nc_figures_set_int(f, "crossbars_used", (int64_t)xbars);
  nc_figures_set_real(f, "crossbar_utilisation",
                      xbars ? (double)cells / ((double)xbars * chip->xbar_rows * chip->xbar_cols) : 0);
  nc_figures_set_text(f, "noise", s->noisy ? "on" : "off");
  if (s->noisy)
    nc_figures_set_real(f, "noise_sigma", s->noise_sigma);
  for (uint32_t i = 0; i < s->n_stages; i++) {
    const xbar_stage *st = &s->stages[i];
    for (uint32_t k = 0; k < st->n_cores; k++) {
      uint32_t core = st->cores[k];
      const xbar_core_stats *cs = &s->cores[core];
      nc_figures *c = nc_figures_add_core(f);
      nc_figures_set_int(c, "x", core % chip->mesh_cols);
      nc_figures_set_int(c, "y", core / chip->mesh_cols);
      nc_figures_set_text(c, "node", st->name);
      if (st->matrix) {
        uint32_t rt = k / st->col_tiles % st->row_tiles, ct = k % st->col_tiles;
        uint32_t r0 = rt * chip->xbar_rows, c0 = ct * chip->xbar_cols;
        uint32_t nr = st->rows - r0 < chip->xbar_rows ? st->rows - r0 : chip->xbar_rows;
        uint32_t nc = st->cols - c0 < chip->xbar_cols ? st->cols - c0 : chip->xbar_cols;
        nc_figures_set_int(c, "replica", k / (st->row_tiles * st->col_tiles));
        nc_figures_set_real(c, "cell_utilisation", (double)nr * nc / ((double)chip->xbar_rows * chip->xbar_cols));
      }
      uint64_t busy = cs->mvm_busy > cs->digital_busy ? cs->mvm_busy : cs->digital_busy;
      nc_figures_set_int(c, "mvms", (int64_t)cs->mvms);
      nc_figures_set_int(c, "vector_ops", (int64_t)cs->vector_ops);
      nc_figures_set_int(c, "mvm_busy_cycles", (int64_t)cs->mvm_busy);
      nc_figures_set_int(c, "digital_busy_cycles", (int64_t)cs->digital_busy);
      nc_figures_set_int(c, "busy_cycles", (int64_t)busy);
      nc_figures_set_int(c, "bytes_sent", (int64_t)cs->bytes_sent);
      if (st->matrix && k % (st->row_tiles * st->col_tiles) < st->col_tiles)
        nc_figures_set_int(c, "peak_partial_sum_bytes", (int64_t)cs->psum_peak);
      nc_figures_set_real(c, "utilisation", s->total_cycles ? (double)busy / (double)s->total_cycles : 0);
    }
  }
}

static void xbar_set_trace(void *state, nc_trace *trace, void *userData)
{
  (void)userData;
  ((xbar_state *)state)->trace = trace;
}

static void xbar_set_progress(void *state, nc_sim_progress_fn progress, void *progressData, void *userData)
{
  (void)userData;
  ((xbar_state *)state)->progress = progress;
  ((xbar_state *)state)->progress_data = progressData;
}

/* The report's xbar views (docs/reports.md): how full each core's crossbars are, and how long
 * each layer's crossbars compute. */
static const char report_views[] =
  "[{\"kind\": \"heatmap\", \"figure\": \"cell_utilisation\", \"title\": \"Crossbar utilisation\", "
  "\"note\": \"per core: the share of its crossbar cells holding weights\"},"
  " {\"kind\": \"layer_bars\", \"figure\": \"mvm_busy_cycles\", \"title\": \"Crossbar (MVM) cycles per layer\", "
  "\"note\": \"the sum over the layer's cores, whole run\"},"
  " {\"kind\": \"layer_bars\", \"figure\": \"bytes_sent\", \"title\": \"Bytes each layer sends on the mesh\", "
  "\"note\": \"partial sums and results, whole run (xbar models no links: this is their load)\"}]";

static void xbar_destroy(void *state, void *userData)
{
  (void)userData;
  xbar_state_destroy(state);
}

const nc_target_sim nc_target_sim_xbar = {
  .name = "xbar",
  .load = xbar_sim_load,
  .set_option = xbar_set_option,
  .run = xbar_run,
  .figures = xbar_figures,
  .destroy = xbar_destroy,
  .set_trace = xbar_set_trace,
  .set_progress = xbar_set_progress,
  .report_views = report_views,
};
