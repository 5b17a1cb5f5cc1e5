/* sim.c: the NorthPole simulator's event loop and timing model.
 *
 * Every tile runs its static program (recv / compute / send / wait) once
 * per inference, on its own clock; the host streams the inputs in and
 * collects the outputs. Data really moves: a send copies the elements of an
 * iteration into a message, a recv copies them into the receiving core's
 * input buffer and marks them as arrived, and a compute reads only arrived
 * elements (np_compute_iteration), so a wrong schedule is an error at the
 * first element it would read too early. Time (docs/targets/northpole.md):
 *   compute  ceil(MACs / MACs-per-cycle) + ceil(vector ops / MACs-per-cycle)
 *            cycles, at least 1 (pooling and copies count one vector op per
 *            element read);
 *   send     the core's NoC port is busy ceil(bytes / link width) cycles;
 *            the message follows its XY route on its network (activations
 *            or partial sums), each link busy as long, in the first idle
 *            gap that fits, at or after its head reaches it (noc.c); with free links
 *            it arrives hops x hop latency after its last byte left (the
 *            host is one hop beyond the corner tile (0, 0));
 *            a send to another tile of its own core (core-colocate) is a
 *            copy within its SRAM: ceil(bytes / 8-bit MACs per cycle)
 *            cycles, no link;
 *   recv     waits until the message has arrived;
 *   wait     the given cycles.
 * The host's input link sends the input steps in order, to every tile that
 * receives them, on the activation network from (0, 0), back to back while
 * the tiles' input buffers have room: a step waits for the credits of the
 * buffers it fills (host_credit.c).
 *
 * Events are processed in the order of the agents' clocks (the host and the
 * tiles, lowest first), which keeps the messages in flight few; the
 * results do not depend on that order, since every clock only moves by its
 * own instructions and the arrival times of the messages it receives.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/runtime/rt_util.h"
#include "np_credit.h"
#include "np_limits.h"
#include "np_sim.h"

typedef struct host_send {
  size_t tile;
  uint32_t operand;
  int64_t step;
  uint32_t frame, frames; /* the inferences it is for: the tile's replica, the recv's frames */
  uint32_t frame2, frames2;
  int64_t cost; /* the bytes of the step the tile reads: the credits it takes (host_credit.c) */
} host_send;

typedef struct run_ctx {
  np_sim *s;
  size_t batch;
  const int8_t *const *inputs;
  int8_t *const *outputs;
  char *err;
  size_t errlen;
  /* the host */
  host_send *sends;
  size_t n_sends, h_pos, h_inf;
  uint64_t h_t;
  np_credits *credits;  /* per tile, per operand: the host's credits for its input buffer (host_credit.c) */
  uint64_t host_wait;   /* cycles the host waited for credits */
  uint64_t *out_end;    /* per inference: when its last output element arrived */
  int64_t *out_missing; /* per inference: output elements not yet received */
  size_t n_complete;    /* inferences whose outputs all arrived (progress) */
} run_ctx;

static bool sched_error(run_ctx *r, const char *fmt, ...) NC_RT_PRINTF(2, 3);
static bool sched_error(run_ctx *r, const char *fmt, ...)
{
  char msg[768];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  snprintf(r->err, r->errlen, "schedule error: %s", msg);
  return false;
}

static uint64_t ceil_div(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

/* --- the trace (nc-run --trace): group 0 the host, group 1 the chip, tile i on track i + 1 ------------------------ */

static void trace_span(np_sim *s, size_t ti, const char *cat, const char *name, uint64_t start, uint64_t cycles)
{
  if (s->trace && cycles)
    nc_trace_complete(s->trace, 1, (int)ti + 1, cat, name, start, cycles, (int64_t)s->tiles[ti].inference);
}

static void trace_buffer(np_sim *s, const np_tile *t)
{
  if (!s->trace)
    return;
  int64_t bytes = t->out_live;
  for (uint32_t k = 0; k < t->n_operands; k++)
    bytes += t->live[k];
  char name[64];
  snprintf(name, sizeof name, "buffer bytes (%d, %d)", t->x, t->y);
  nc_trace_counter(s->trace, 1, name, t->t, (double)bytes);
}

static void trace_tracks(np_sim *s)
{
  nc_trace_set_clock(s->trace, s->chip.clock_hz);
  nc_trace_name_group(s->trace, 0, "host");
  nc_trace_name_track(s->trace, 0, 0, "input stream");
  nc_trace_name_group(s->trace, 1, "chip (northpole)");
  for (size_t i = 0; i < s->n_tiles; i++) {
    char name[64];
    snprintf(name, sizeof name, "core (%d, %d) %s", s->tiles[i].x, s->tiles[i].y, s->tiles[i].node);
    nc_trace_name_track(s->trace, 1, (int)i + 1, name);
  }
}

/* "In0[3, 4, 0]": a flat index in a tensor's coordinates (batch 1 dropped). */
static void coords(const np_shape *s, int64_t idx, char *buf, size_t len)
{
  int64_t c[NP_MAX_RANK];
  for (int d = s->rank - 1; d >= 0; d--) {
    c[d] = idx % s->dims[d];
    idx /= s->dims[d];
  }
  int first = s->rank > 1 && s->dims[0] == 1 ? 1 : 0;
  size_t n = 0;
  for (int d = first; d < s->rank && n < len; d++)
    n += (size_t)snprintf(buf + n, len - n, "%s%lld", d > first ? ", " : "", (long long)c[d]);
}

static const char *instr_text(const np_instr *in, char *buf, size_t len)
{
  switch (in->op) {
  case NP_OP_RECV:
    if (in->a < 0)
      snprintf(buf, len, "core.recv of input step %lld from the host", (long long)in->d);
    else
      snprintf(buf, len, "core.recv of iteration %lld from (%lld, %lld)", (long long)in->d, (long long)in->a,
               (long long)in->b);
    break;
  case NP_OP_COMPUTE: snprintf(buf, len, "core.compute of iterations [%lld, %lld)", (long long)in->a, (long long)in->b); break;
  case NP_OP_SEND: snprintf(buf, len, "core.send of iteration %lld", (long long)in->c); break;
  default: snprintf(buf, len, "core.wait"); break;
  }
  return buf;
}

/* --- messages ------------------------------------------------------------------------------------------------------ */

/* Messages are found by a hash of what a recv names, not by walking the
 * inbox: a tile receives thousands of iterations per inference. */
static size_t msg_hash(int src, int operand, size_t inference, int64_t iter, size_t n_buckets)
{
  uint64_t h = (uint64_t)iter * 0x9E3779B97F4A7C15u ^ (uint64_t)(int64_t)src * 0xC2B2AE3D27D4EB4Fu ^
               (uint64_t)inference * 0x165667B19E3779F9u ^ (uint64_t)(src < 0 ? operand : 0) * 0x27D4EB2F165667C5u;
  h ^= h >> 29;
  return (size_t)(h & (n_buckets - 1));
}

static bool msg_matches(const np_msg *m, int src, int operand, size_t inference, int64_t iter)
{
  return m->src == src && m->inference == inference && m->iter == iter && (src >= 0 || m->iter_operand == operand);
}

/* Appends m to its chain's end, so a chain lists its messages in inbox order. */
static void msg_link(np_tile *t, np_msg *m)
{
  np_msg **p = &t->msg_bucket[msg_hash(m->src, m->iter_operand, m->inference, m->iter, t->n_buckets)];
  while (*p)
    p = &(*p)->hnext;
  m->hnext = NULL;
  *p = m;
}

static void msg_unlink(np_tile *t, np_msg *m)
{
  np_msg **p = &t->msg_bucket[msg_hash(m->src, m->iter_operand, m->inference, m->iter, t->n_buckets)];
  while (*p && *p != m)
    p = &(*p)->hnext;
  if (*p)
    *p = m->hnext;
  t->n_msgs--;
}

/* The first message (src, iteration, inference) in t's inbox, or NULL. */
static np_msg *find_msg(np_tile *t, int src, int operand, size_t inference, int64_t iter)
{
  if (!t->n_buckets)
    return NULL;
  for (np_msg *m = t->msg_bucket[msg_hash(src, operand, inference, iter, t->n_buckets)]; m; m = m->hnext)
    if (msg_matches(m, src, operand, inference, iter))
      return m;
  return NULL;
}

/* Marks the scheduling entry of tile t to be asked again (np_sim_run, ready_queue.c). */
static void entry_dirty(np_sim *s, np_tile *t)
{
  np_tile *e = t->entry;
  if (e && e->entry_valid) {
    e->entry_valid = false;
    s->ready.dirty[s->ready.n_dirty++] = (int32_t)(e - s->tiles);
  }
}

static void post(np_sim *s, np_tile *to, np_msg *m)
{
  if (to->n_msgs + 1 > 2 * to->n_buckets) { /* grow, relinking every message in inbox order */
    free(to->msg_bucket);
    to->n_buckets = to->n_buckets ? 4 * to->n_buckets : 64;
    to->msg_bucket = nc_rt_calloc(to->n_buckets, sizeof *to->msg_bucket);
    for (size_t k = 0; k < to->n_inbox; k++)
      for (np_msg *x = to->inbox[k]; x; x = x->next)
        msg_link(to, x);
  }
  to->n_msgs++;
  to->blocked = false; /* the message it waits for may be this one */
  entry_dirty(s, to);
  m->next = NULL;
  if (to->inbox_tail[m->inference])
    to->inbox_tail[m->inference]->next = m;
  else
    to->inbox[m->inference] = m;
  to->inbox_tail[m->inference] = m;
  msg_link(to, m);
}

/* A message's data is shared by the copies of a multicast: a count of its
 * holders sits before it. */
static void msg_destroy(np_msg *m)
{
  size_t *holders = (size_t *)(void *)m->data - 1;
  if (!--*holders)
    free(holders);
  free(m);
}

/* Another message with m's data (a multicast's next destination). */
static np_msg *msg_share(const np_msg *m)
{
  np_msg *c = nc_rt_malloc(sizeof *c);
  *c = *m;
  c->next = c->hnext = NULL;
  ++((size_t *)(void *)m->data)[-1];
  return c;
}

void np_clear_inbox(np_tile *t)
{
  for (size_t k = 0; k < t->n_inbox; k++)
    for (np_msg *m = t->inbox[k], *n; m; m = n) {
      n = m->next;
      msg_destroy(m);
    }
  free(t->inbox);
  free(t->inbox_tail);
  free(t->msg_bucket);
  t->inbox = t->inbox_tail = t->msg_bucket = NULL;
  t->n_inbox = t->n_buckets = t->n_msgs = 0;
}

/* A message of `what`'s elements, `width` bytes each, data to be filled. */
static np_msg *new_msg(int src, size_t inference, int64_t iter, const np_iter *what, size_t width)
{
  np_msg *m = nc_rt_calloc(1, sizeof *m);
  m->src = src;
  m->inference = inference;
  m->iter = iter;
  m->what = what;
  size_t *holders = nc_rt_malloc(sizeof *holders + (size_t)what->elements * width);
  *holders = 1;
  m->data = (int8_t *)(holders + 1);
  return m;
}

static np_msg *pack(int src, size_t inference, int64_t iter, const np_iter *what, const int8_t *from)
{
  np_msg *m = new_msg(src, inference, iter, what, 1);
  np_gather(what, from, m->data);
  return m;
}

/* A partial-sum message: 4 little-endian bytes per element, in block order. */
static np_msg *pack_partial_sums(int src, size_t inference, int64_t iter, const np_iter *what, const int32_t *from)
{
  np_msg *m = new_msg(src, inference, iter, what, 4);
  uint8_t *d = (uint8_t *)m->data;
  NP_FOREACH_ELEMENT(what, e, {
    uint32_t v = (uint32_t)from[e];
    *d++ = (uint8_t)v, *d++ = (uint8_t)(v >> 8), *d++ = (uint8_t)(v >> 16), *d++ = (uint8_t)(v >> 24);
  })
  return m;
}

/* --- tiles --------------------------------------------------------------------------------------------------------- */

/* The host's credits for operand k of tile t (host_credit.c). */
static np_credits *credits_of(run_ctx *r, const np_tile *t, uint32_t k)
{
  return &r->credits[(size_t)(t - r->s->tiles) * NP_MAX_OPERANDS + k];
}

/* Gives the host back the bytes of host-fed operand k that tile t freed at
 * `at`: they reach it a hop latency per hop later (it is one beyond (0, 0)). */
static void give_credits(run_ctx *r, const np_tile *t, uint32_t k, uint64_t at, int64_t bytes)
{
  if (t->host_input[k] < 0 || bytes <= 0)
    return;
  uint64_t back = (np_noc_hops(t->x, t->y, 0, 0) + 1) * r->s->chip.hop_latency_cycles;
  np_credits_return(credits_of(r, t, k), np_sat_add(at, back), bytes);
}

static bool unreceived(run_ctx *r, const np_tile *t, const np_msg *m)
{
  if (m->src < 0)
    return sched_error(r, "tile (%d, %d) '%s' never receives input step %lld (inference %zu)", t->x, t->y, t->node,
                       (long long)m->iter, m->inference);
  const np_tile *f = &r->s->tiles[m->src];
  return sched_error(r, "tile (%d, %d) '%s' never receives iteration %lld that tile (%d, %d) '%s' sends it "
                     "(inference %zu)", t->x, t->y, t->node, (long long)m->iter, f->x, f->y, f->node, m->inference);
}

static void reset_inference(np_tile *t)
{
  for (uint32_t k = 0; k < t->n_operands; k++) {
    memset(t->valid[k], 0, (size_t)np_bits_words(t->in[k].elements) * sizeof(uint64_t));
    t->live[k] = 0;
  }
  for (uint32_t i = 0; i < t->n_iters; i++) /* only the elements it computes can be set */
    np_clear_bits(&t->iters[i], t->computed);
  t->out_live = 0;
  t->pc = 0;
  t->blocked = false;
}

/* The tile at core (x, y) in `slot`, or tile 0 if none (the loader checked
 * that every recv names a tile); a grid lookup, then the core's short chain,
 * because the scheduler asks a waiting tile again at each message posted to it. */
static int source_tile(const np_sim *s, int64_t x, int64_t y, uint32_t slot)
{
  if (!s->tile_at || x < 0 || y < 0 || x >= s->chip.cols || y >= s->chip.rows)
    return 0;
  for (int32_t i = s->tile_at[y * s->chip.cols + x]; i >= 0; i = s->tiles[i].core_next)
    if (s->tiles[i].slot == slot)
      return i;
  return 0;
}

/* Tiles sharing a core share its clock: the core runs one instruction at a
 * time, of whichever of its tiles can go on earliest (np_sim_run). */
static uint64_t *core_clock(np_sim *s, const np_tile *t)
{
  return t->shared ? &s->core_free[(size_t)t->y * s->chip.cols + (size_t)t->x] : NULL;
}

/* Whether the instruction runs on the tile's current inference (a recv or
 * send with frames names a peer that is a copy handling some frames only). */
static bool runs_now(const np_tile *t, const np_instr *in)
{
  return !in->frames || t->inference % in->frames == in->frame;
}

/* When a tile sharing its core can run its next instruction: once the core
 * is free and, for a recv, once the message has arrived, so that a tile
 * waiting for data leaves the core to the others (tile_ready: it is posted). */
static uint64_t shared_start(np_sim *s, np_tile *t)
{
  uint64_t at = t->t, core = *core_clock(s, t);
  at = core > at ? core : at;
  const np_instr *in = &t->prog[t->pc];
  if (in->op == NP_OP_RECV && runs_now(t, in)) {
    const np_msg *m = find_msg(t, in->a < 0 ? -1 : source_tile(s, in->a, in->b, in->slot), (int)in->c, t->inference,
                               in->d);
    if (m && m->arrival > at)
      at = m->arrival;
  }
  return at;
}

static bool tile_ready(np_sim *s, np_tile *t)
{
  if (t->done)
    return false;
  const np_instr *in = &t->prog[t->pc];
  if (in->op != NP_OP_RECV || !runs_now(t, in))
    return true;
  if (t->blocked)
    return false;
  int src = in->a < 0 ? -1 : source_tile(s, in->a, in->b, in->slot);
  t->blocked = find_msg(t, src, (int)in->c, t->inference, in->d) == NULL;
  return !t->blocked;
}

/* The tile that core `head`'s chain runs next, in *tile, and when, in *at;
 * false if none of its tiles can go on. Of the tiles that can start
 * earliest, the one listed first goes, unless another works on a frame at
 * least s->frame_lead older; then the one with the oldest frame goes (the
 * first listed among equals). With no flow control between tiles, a conv
 * tile always has a later frame ready, and ties going to it would starve a
 * guest slice finishing an earlier frame until the conv tiles have no frame
 * left (docs/targets/northpole.md, "Several layers per core"); a small lead
 * would instead hold up the upstream tiles of a pipeline sharing cores with
 * their consumers. */
static bool core_pick(np_sim *s, int32_t head, int32_t *tile, uint64_t *at)
{
  int32_t first = -1, oldest = -1; /* the chain lists the core's tiles in binary order */
  uint64_t min_at = 0;
  for (int32_t j = head; j >= 0; j = s->tiles[j].core_next) {
    np_tile *o = &s->tiles[j];
    if (!tile_ready(s, o))
      continue;
    uint64_t o_at = shared_start(s, o);
    if (first >= 0 && o_at > min_at)
      continue;
    if (first < 0 || o_at < min_at) {
      min_at = o_at, first = oldest = j;
      continue;
    }
    if (o->inference < s->tiles[oldest].inference)
      oldest = j;
  }
  if (first < 0)
    return false;
  bool lag = s->frame_lead && s->tiles[oldest].inference + s->frame_lead <= s->tiles[first].inference;
  *tile = lag ? oldest : first;
  *at = min_at;
  return true;
}

/* A reducer receives a tile's int32 partial sums (4 little-endian bytes per
 * element, np_format.h) and adds them into its accumulator. */
static void add_partial_sums(np_tile *t, const np_msg *m)
{
  const uint8_t *d = (const uint8_t *)m->data;
  NP_FOREACH_ELEMENT(m->what, e, {
    uint32_t v = (uint32_t)d[0] | (uint32_t)d[1] << 8 | (uint32_t)d[2] << 16 | (uint32_t)d[3] << 24;
    t->psum[e] = (int32_t)((uint32_t)t->psum[e] + v);
    t->psum_count[e]++;
    d += 4;
  })
}

static bool do_recv(run_ctx *r, np_tile *t, const np_instr *in)
{
  np_msg *m;
  int src = in->a < 0 ? -1 : source_tile(r->s, in->a, in->b, in->slot);
  m = find_msg(t, src, (int)in->c, t->inference, in->d);
  m->received = true;
  uint32_t k = (uint32_t)in->c;
  int64_t held = t->live[k];
  if (m->arrival > t->t) {
    trace_span(r->s, (size_t)(t - r->s->tiles), "recv", in->a < 0 ? "wait for the host" : "wait for data", t->t,
               m->arrival - t->t);
    t->data_wait_cycles = np_sat_add(t->data_wait_cycles, m->arrival - t->t);
    t->link_wait_cycles = np_sat_add(t->link_wait_cycles, m->link_delay < m->arrival - t->t ? m->link_delay : m->arrival - t->t);
    t->t = m->arrival;
  }
  if (in->zero == NP_NET_PARTIAL_SUM) {
    add_partial_sums(t, m);
    return true;
  }
  const int8_t *data = m->data;
  for (uint32_t b = 0; b < m->what->n_blocks; b++) { /* run by run (inbuf.c) */
    const np_block *bk = &m->what->blocks[b];
    for (int64_t i = 0; i < bk->count && bk->len > 0; i++, data += bk->len) {
      int64_t e0 = bk->start + i * bk->stride + in->offset;
      if (e0 + bk->len > t->in[k].elements)
        return sched_error(r, "tile (%d, %d) '%s' receives element %lld into operand %u of %lld elements", t->x,
                           t->y, t->node, (long long)(e0 > t->in[k].elements ? e0 : t->in[k].elements), k,
                           (long long)t->in[k].elements);
      np_inbuf_arrive(t, k, e0, data, bk->len);
      if (k == 0 && t->n_affine)
        np_inbuf_map(t, e0, bk->len);
    }
  }
  if (src < 0 && m->credit > t->live[k] - held) /* elements that were there already: their credits go back */
    give_credits(r, t, k, t->t, m->credit - (t->live[k] - held));
  if (t->live[k] > t->peak[k])
    t->peak[k] = t->live[k];
  trace_buffer(r->s, t);
  if (t->in_capacity[k] >= 0 && t->live[k] > t->in_capacity[k])
    return sched_error(r, "tile (%d, %d) '%s': after receiving iteration %lld (inference %zu) its input buffer for "
                       "operand %u holds %lld bytes, more than its %lld", t->x, t->y, t->node, (long long)in->d,
                       t->inference, k, (long long)t->live[k], (long long)t->in_capacity[k]);
  return true;
}

static bool do_compute(run_ctx *r, np_tile *t, const np_instr *in)
{
  uint64_t macs = 0, vops = 0;
  int64_t held[NP_MAX_OPERANDS];
  for (uint32_t k = 0; k < t->n_operands; k++)
    held[k] = t->live[k];
  for (int64_t i = in->a; i < in->b; i++) {
    uint32_t op = 0;
    int64_t missing = 0;
    if (!np_compute_iteration(t, &t->iters[i], &op, &missing)) {
      char c[128], text[96];
      if (op == NP_PSUM_OPERAND) {
        coords(&t->out, missing, c, sizeof c);
        return sched_error(r, "tile (%d, %d) '%s': %s (instruction %zu, inference %zu) adds the partial sums of "
                           "Out[%s] before all %u arrived", t->x, t->y, t->node, instr_text(in, text, sizeof text),
                           t->pc, t->inference, c, t->n_partials);
      }
      coords(&t->in[op], missing, c, sizeof c);
      return sched_error(r, "tile (%d, %d) '%s': %s (instruction %zu, inference %zu) reads In%u[%s] before it "
                         "arrived", t->x, t->y, t->node, instr_text(in, text, sizeof text), t->pc, t->inference, op, c);
    }
    macs += t->iters[i].macs;
    vops += t->iters[i].vector_ops;
    if (t->last_send[i] > (int64_t)t->pc) { /* held in the output buffer until its last send */
      t->out_live += t->iters[i].elements;
      if (t->out_live > t->out_peak)
        t->out_peak = t->out_live;
      if (t->out_capacity >= 0 && t->out_live > t->out_capacity)
        return sched_error(r, "tile (%d, %d) '%s': after computing iteration %lld (instruction %zu, inference %zu) "
                           "it holds %lld bytes of results not yet sent, more than its output buffer's %lld",
                           t->x, t->y, t->node, (long long)i, t->pc, t->inference, (long long)t->out_live,
                           (long long)t->out_capacity);
    }
    /* elements whose last reader just ran leave the buffer */
    for (uint32_t k = 0; k < t->n_operands; k++)
      np_inbuf_release(t, k, i);
  }
  uint64_t rate = t->rate, cycles = ceil_div(macs, rate) + ceil_div(vops, rate);
  if (!cycles)
    cycles = 1;
  trace_span(r->s, (size_t)(t - r->s->tiles), "compute", t->node, t->t, cycles);
  t->t = np_sat_add(t->t, cycles);
  for (uint32_t k = 0; k < t->n_operands; k++) /* the released input bytes are free once it has read them */
    give_credits(r, t, k, t->t, held[k] - t->live[k]);
  trace_buffer(r->s, t);
  t->busy = np_sat_add(t->busy, cycles);
  t->macs = np_sat_add(t->macs, macs);
  return true;
}

/* --- multicast (core-multicast; np_noc_multicast) ------------------------------------------------------------------ */

/* How much later than on idle links a message t has just sent (its last
 * byte left at t->t) to (x, y) arrives: other messages held its links. */
static uint64_t idle_delay(const np_sim *s, const np_tile *t, int64_t x, int64_t y, uint64_t arrival)
{
  uint64_t idle = t->t + np_noc_hops(t->x, t->y, x, y) * s->chip.hop_latency_cycles;
  return arrival > idle ? arrival - idle : 0;
}

/* Sends the group of sends starting at `in` (marked multicast, up to the
 * first unmarked one) as one message: the port is busy once, the tree of
 * routes carries it once, each destination gets its copy when it arrives. */
static bool send_multicast(run_ctx *r, np_tile *t, size_t ti, const np_instr *in)
{
  const np_iter *it = &t->iters[in->c];
  uint64_t n = 1, nd = 0;
  while (in[n - 1].multicast)
    n++;
  int64_t *dxy = nc_rt_calloc(2 * n, sizeof *dxy);
  uint64_t *arrival = nc_rt_calloc(n, sizeof *arrival);
  const np_instr **member = nc_rt_calloc(n, sizeof *member); /* the sends that run on this frame */
  for (uint64_t i = 0; i < n; i++)
    if (runs_now(t, &in[i])) /* members for other frames (copies) sit this frame out */
      member[nd] = &in[i], dxy[2 * nd] = in[i].a, dxy[2 * nd + 1] = in[i].b, nd++;
  uint64_t bytes = (uint64_t)in->d; /* np_message_bytes: every send of the group has the same (core-multicast) */
  uint64_t serial = np_noc_sender_cycles(&r->s->noc, t->x, t->y, dxy, nd, bytes), nr = 0;
  int64_t *rxy = nc_rt_calloc(2 * n, sizeof *rxy); /* the members on other cores; those on this one get a local copy */
  uint64_t *rarr = nc_rt_calloc(n, sizeof *rarr);
  for (uint64_t i = 0; i < nd; i++)
    if (dxy[2 * i] != t->x || dxy[2 * i + 1] != t->y)
      rxy[2 * nr] = dxy[2 * i], rxy[2 * nr + 1] = dxy[2 * i + 1], nr++;
  np_noc_multicast(&r->s->noc, (int)in->zero, t->x, t->y, rxy, nr, t->t, bytes, rarr);
  for (uint64_t i = 0, k = 0; i < nd; i++)
    arrival[i] = dxy[2 * i] != t->x || dxy[2 * i + 1] != t->y ? rarr[k++]
                                                               : np_sat_add(t->t, np_noc_local_cycles(&r->s->noc, bytes));
  free(rxy), free(rarr);
  trace_span(r->s, ti, "send", nr ? "multicast" : "local copy", t->t, serial);
  t->t = np_sat_add(t->t, serial);
  t->send_cycles = np_sat_add(t->send_cycles, serial);
  if (t->last_send[in->c] == (int64_t)t->pc)
    trace_buffer(r->s, t);
  t->bytes_sent += nr ? bytes : 0;
  np_msg *first = NULL; /* packed once, shared by every copy */
  for (uint64_t i = 0; i < nd; i++) {
    np_msg *m = first ? msg_share(first) : (first = pack((int)ti, t->inference, in->c, it, t->out_data));
    m->arrival = arrival[i];
    m->link_delay = idle_delay(r->s, t, member[i]->a, member[i]->b, arrival[i]);
    post(r->s, &r->s->tiles[source_tile(r->s, member[i]->a, member[i]->b, member[i]->slot)], m);
  }
  free(dxy), free(arrival), free(member);
  return true;
}

static bool do_send(run_ctx *r, np_tile *t, size_t ti, const np_instr *in)
{
  const np_iter *it = &t->iters[in->c];
  int64_t e;
  if (!np_all_bits(it, t->computed, &e)) {
    char c[128];
    coords(&t->out, e, c, sizeof c);
    return sched_error(r, "tile (%d, %d) '%s' sends iteration %lld (instruction %zu, inference %zu) before "
                       "computing Out[%s]", t->x, t->y, t->node, (long long)in->c, t->pc, t->inference, c);
  }
  if (t->last_send[in->c] == (int64_t)t->pc)
    t->out_live -= it->elements;
  size_t g = t->pc, lead; /* the multicast group's first send, and its first that runs on this frame */
  while (g > 0 && t->prog[g - 1].op == NP_OP_SEND && t->prog[g - 1].multicast)
    g--;
  for (lead = g; lead < t->pc && !runs_now(t, &t->prog[lead]); lead++)
    ;
  if (lead < t->pc) {
    if (t->last_send[in->c] == (int64_t)t->pc) /* the group's first send delivered it */
      trace_buffer(r->s, t);
    return true;
  }
  if (in->multicast || g < t->pc)
    return send_multicast(r, t, ti, &t->prog[g]);
  const np_chip *chip = &r->s->chip;
  uint64_t bytes = (uint64_t)in->d; /* np_message_bytes (checked by the loader) */
  int64_t to[2] = {in->a, in->b};     /* the host (-1): outside the mesh */
  bool local = in->a == t->x && in->b == t->y; /* a tile on this core (core-colocate): a copy in its SRAM */
  uint64_t serial = np_noc_sender_cycles(&r->s->noc, t->x, t->y, to, 1, bytes);
  uint64_t arrival = in->a < 0 /* the host, one hop beyond (0, 0) */
                       ? np_sat_add(np_noc_send(&r->s->noc, (int)in->zero, t->x, t->y, 0, 0, t->t, bytes),
                                    chip->hop_latency_cycles)
                     : local ? np_sat_add(t->t, serial)
                             : np_noc_send(&r->s->noc, (int)in->zero, t->x, t->y, in->a, in->b, t->t, bytes);
  trace_span(r->s, ti, "send", in->a < 0 ? "send to the host" : local ? "local copy" : "send", t->t, serial);
  t->t = np_sat_add(t->t, serial);
  t->send_cycles = np_sat_add(t->send_cycles, serial);
  if (t->last_send[in->c] == (int64_t)t->pc)
    trace_buffer(r->s, t);
  t->bytes_sent += local ? 0 : bytes;
  if (in->a < 0) { /* to the host: the network's output */
    size_t n = nc_ncb_tensor_elements(&r->s->outputs[t->output_index]);
    int8_t *dst = r->outputs[t->output_index] + t->inference * n;
    for (uint32_t b = 0; b < it->n_blocks; b++)
      for (int64_t i = 0; i < it->blocks[b].count && it->blocks[b].len > 0; i++) {
        int64_t e0 = it->blocks[b].start + i * it->blocks[b].stride;
        memcpy(dst + e0, t->out_data + e0, (size_t)it->blocks[b].len);
      }
    r->out_missing[t->inference] -= it->elements;
    if (!r->out_missing[t->inference] && r->s->progress)
      r->s->progress(++r->n_complete, r->batch, r->s->progress_data);
    if (arrival > r->out_end[t->inference])
      r->out_end[t->inference] = arrival;
    return true;
  }
  np_msg *m = t->flags & NP_FLAG_PARTIAL ? pack_partial_sums((int)ti, t->inference, in->c, it, t->psum)
                                         : pack((int)ti, t->inference, in->c, it, t->out_data);
  m->arrival = arrival;
  m->link_delay = idle_delay(r->s, t, in->a, in->b, arrival);
  post(r->s, &r->s->tiles[source_tile(r->s, in->a, in->b, in->slot)], m);
  return true;
}

static bool step_tile(run_ctx *r, size_t ti)
{
  np_tile *t = &r->s->tiles[ti];
  static const np_instr skip = {.op = NP_OP_WAIT}; /* waits 0 cycles */
  const np_instr *in = &t->prog[t->pc];
  bool ok = true;
  uint64_t *core = core_clock(r->s, t);
  np_tile_acquire(r->s, t);
  entry_dirty(r->s, t);
  if (core && *core > t->t) /* the core was busy with another of its tiles */
    t->core_wait_cycles = np_sat_add(t->core_wait_cycles, *core - t->t), t->t = *core;
  if (!runs_now(t, in)) { /* another inference's instruction: skipped, in no time */
    if (in->op == NP_OP_SEND && t->last_send[in->c] == (int64_t)t->pc)
      t->out_live -= t->iters[in->c].elements;
    in = &skip;
  }
  switch (in->op) {
  case NP_OP_RECV: ok = do_recv(r, t, in); break;
  case NP_OP_COMPUTE: ok = do_compute(r, t, in); break;
  case NP_OP_SEND: ok = do_send(r, t, ti, in); break;
  default:
    trace_span(r->s, ti, "wait", "wait", t->t, (uint64_t)in->a);
    t->t = np_sat_add(t->t, (uint64_t)in->a);
    break;
  }
  if (!ok)
    return false;
  if (core)
    *core = t->t;
  if (++t->pc < t->n_instrs)
    return true;
  for (uint32_t i = 0; i < t->n_iters; i++) {
    int64_t e;
    if (!np_all_bits(&t->iters[i], t->computed, &e))
      return sched_error(r, "tile (%d, %d) '%s' ends inference %zu without computing iteration %u", t->x, t->y,
                         t->node, t->inference, i);
  }
  for (np_msg *m = t->inbox[t->inference], *n; m; m = n) { /* this inference's messages are done with */
    if (!m->received)
      return unreceived(r, t, m);
    n = m->next;
    t->inbox[t->inference] = n;
    msg_unlink(t, m);
    msg_destroy(m);
  }
  t->inbox_tail[t->inference] = NULL;
  for (uint32_t k = 0; k < t->n_operands; k++) /* elements no iteration released (none, if the binary is right) */
    give_credits(r, t, k, t->t, t->live[k]);
  reset_inference(t);
  t->inference += t->replicas ? t->replicas : 1; /* a copy runs every replicas-th inference */
  t->done = t->inference >= r->batch;
  if (t->done)
    np_tile_release(r->s, t);
  return true;
}

/* --- the host ------------------------------------------------------------------------------------------------------- */

static int cmp_send(const void *a, const void *b)
{
  const host_send *x = a, *y = b;
  if (x->step != y->step)
    return x->step < y->step ? -1 : 1;
  return x->tile < y->tile ? -1 : x->tile > y->tile;
}

/* The bytes of input step `what` that tile t reads into operand k from
 * element `offset` on: what the step fills of its input buffer. */
static int64_t step_cost(const np_tile *t, uint32_t k, const np_iter *what, int64_t offset)
{
  int64_t n = 0, size = t->in[k].elements;
  for (uint32_t b = 0; b < what->n_blocks; b++)
    for (int64_t i = 0; i < what->blocks[b].count && what->blocks[b].len > 0; i++) {
      int64_t lo = what->blocks[b].start + i * what->blocks[b].stride + offset, hi = lo + what->blocks[b].len;
      lo = lo < 0 ? 0 : lo, hi = hi > size ? size : hi;
      n += hi > lo ? np_bits_count(t->read[k], lo, hi - lo) : 0;
    }
  return n;
}

/* Every (tile, operand, step) some program receives from the host, in the
 * order the host sends them (input by input, step by step), with the
 * credits each takes. */
static void plan_host(run_ctx *r)
{
  np_sim *s = r->s;
  size_t n = 0;
  for (size_t i = 0; i < s->n_tiles; i++)
    for (uint32_t k = 0; k < s->tiles[i].n_instrs; k++)
      n += s->tiles[i].prog[k].op == NP_OP_RECV && s->tiles[i].prog[k].a < 0;
  r->sends = nc_rt_calloc(n, sizeof *r->sends);
  for (size_t in = 0; in < s->n_inputs; in++) {
    size_t first = r->n_sends;
    for (size_t i = 0; i < s->n_tiles; i++)
      for (uint32_t k = 0; k < s->tiles[i].n_instrs; k++) {
        const np_instr *p = &s->tiles[i].prog[k];
        if (p->op == NP_OP_RECV && p->a < 0 && s->tiles[i].host_input[p->c] == (int32_t)in)
          r->sends[r->n_sends++] = (host_send){i, (uint32_t)p->c, p->d, s->tiles[i].replica, s->tiles[i].replicas,
                                               p->frame, p->frames,
                                               p->d >= 0 && p->d < (int64_t)s->streams[in].n_iters
                                                 ? step_cost(&s->tiles[i], (uint32_t)p->c, &s->streams[in].iters[p->d],
                                                             p->offset)
                                                 : 0};
      }
    qsort(r->sends + first, r->n_sends - first, sizeof *r->sends, cmp_send);
  }
}

/* Whether the host sends hs for inference f (to a copy handling f, a recv running on f). */
static bool host_sends(const host_send *hs, size_t f)
{
  return (hs->frames < 2 || f % hs->frames == hs->frame) && (hs->frames2 < 2 || f % hs->frames2 == hs->frame2);
}

/* Past the sends that are not for the current inference (replicas). */
static void host_skip(run_ctx *r)
{
  while (r->h_inf < r->batch && r->n_sends && !host_sends(&r->sends[r->h_pos], r->h_inf))
    if (++r->h_pos == r->n_sends) {
      r->h_pos = 0;
      r->h_inf++;
    }
}

/* How many of plan_host's sends from the current one the host's next step
 * covers: a multicast stream's step goes at once to all its tiles (the run
 * of sends of that input and step), another stream's to one tile. */
static size_t host_run(const run_ctx *r)
{
  const np_sim *s = r->s;
  const host_send *hs = &r->sends[r->h_pos];
  int32_t input = s->tiles[hs->tile].host_input[hs->operand];
  size_t run = 1;
  while (s->streams[input].multicast && r->h_pos + run < r->n_sends && r->sends[r->h_pos + run].step == hs->step &&
         s->tiles[r->sends[r->h_pos + run].tile].host_input[r->sends[r->h_pos + run].operand] == input)
    run++;
  return run;
}

/* Whether the host can send its next step (the buffers it fills have room
 * with the credits returned so far), and in *at when: at its clock, or when
 * the last credits it needs come back. On false, *blocked is the send that
 * waits. */
static bool host_ready(const run_ctx *r, uint64_t *at, const host_send **blocked)
{
  size_t run = host_run(r);
  *at = r->h_t;
  for (size_t i = 0; i < run; i++) {
    const host_send *hs = &r->sends[r->h_pos + i];
    uint64_t when;
    if (i && !host_sends(hs, r->h_inf)) /* host_skip: the first is for this inference */
      continue;
    if (!np_credits_when(&r->credits[hs->tile * NP_MAX_OPERANDS + hs->operand], r->h_t, hs->cost, &when)) {
      *blocked = hs;
      return false;
    }
    *at = when > *at ? when : *at;
  }
  return true;
}

/* The host waits until `at` (host_ready) and takes the credits of the sends
 * from the current one on that it makes now. */
static void host_take(run_ctx *r, uint64_t at, const host_send *hs, size_t n)
{
  if (at > r->h_t) {
    if (r->s->trace)
      nc_trace_complete(r->s->trace, 0, 0, "stream", "wait for input buffer space", r->h_t, at - r->h_t,
                        (int64_t)r->h_inf);
    r->host_wait += at - r->h_t;
    r->h_t = at;
  }
  for (size_t i = 0; i < n; i++)
    np_credits_take(&r->credits[hs[i].tile * NP_MAX_OPERANDS + hs[i].operand], at, hs[i].cost);
}

/* The host's multicast of one input step to every tile that receives it
 * (the run of plan_host's sends of that input and step). */
static void step_host_multicast(run_ctx *r, int32_t input, uint64_t at)
{
  np_sim *s = r->s;
  const host_send *hs = &r->sends[r->h_pos];
  size_t nd = 1, run = host_run(r);
  host_send *to = nc_rt_calloc(run, sizeof *to); /* those for this inference (host_skip: the first is) */
  to[0] = *hs;
  for (size_t i = 1; i < run; i++)
    if (host_sends(&hs[i], r->h_inf))
      to[nd++] = hs[i];
  hs = to;
  host_take(r, at, hs, nd);
  const np_iter *what = &s->streams[input].iters[hs->step];
  const int8_t *data = r->inputs[input] + r->h_inf * nc_ncb_tensor_elements(&s->inputs[input]);
  int64_t *dxy = nc_rt_calloc(2 * nd, sizeof *dxy);
  uint64_t *arrival = nc_rt_calloc(nd, sizeof *arrival);
  for (size_t i = 0; i < nd; i++)
    dxy[2 * i] = s->tiles[hs[i].tile].x, dxy[2 * i + 1] = s->tiles[hs[i].tile].y;
  uint64_t serial = ceil_div((uint64_t)what->elements, s->chip.link_bytes_per_cycle);
  if (s->trace)
    nc_trace_complete(s->trace, 0, 0, "stream", "input (multicast)", r->h_t, serial, (int64_t)r->h_inf);
  np_noc_multicast(&s->noc, NP_NET_ACTIVATION, 0, 0, dxy, nd, np_sat_add(r->h_t, s->chip.hop_latency_cycles),
                   (uint64_t)what->elements, arrival);
  r->h_t = np_sat_add(r->h_t, serial);
  np_msg *first = NULL; /* packed once, shared by every copy */
  for (size_t i = 0; i < nd; i++) {
    np_msg *m = first ? msg_share(first) : (first = pack(-1, r->h_inf, hs[i].step, what, data));
    m->iter_operand = (int)hs[i].operand;
    m->credit = hs[i].cost;
    m->arrival = arrival[i];
    post(s, &s->tiles[hs[i].tile], m);
  }
  free(dxy), free(arrival), free(to);
  if ((r->h_pos += run) == r->n_sends) {
    r->h_pos = 0;
    r->h_inf++;
  }
}

static void step_host(run_ctx *r, uint64_t at)
{
  np_sim *s = r->s;
  host_send *hs = &r->sends[r->h_pos];
  np_tile *t = &s->tiles[hs->tile];
  int32_t input = t->host_input[hs->operand];
  if (s->streams[input].multicast) {
    step_host_multicast(r, input, at);
    return;
  }
  host_take(r, at, hs, 1);
  const np_iter *what = &s->streams[input].iters[hs->step];
  const int8_t *data = r->inputs[input] + r->h_inf * nc_ncb_tensor_elements(&s->inputs[input]);
  np_msg *m = pack(-1, r->h_inf, hs->step, what, data);
  m->iter_operand = (int)hs->operand;
  m->credit = hs->cost;
  uint64_t serial = ceil_div((uint64_t)what->elements, s->chip.link_bytes_per_cycle);
  if (s->trace) {
    char name[64];
    snprintf(name, sizeof name, "input to %s", t->node);
    nc_trace_complete(s->trace, 0, 0, "stream", name, r->h_t, serial, (int64_t)r->h_inf);
  }
  m->arrival = np_noc_send(&s->noc, NP_NET_ACTIVATION, 0, 0, t->x, t->y, np_sat_add(r->h_t, s->chip.hop_latency_cycles),
                           (uint64_t)what->elements);
  r->h_t = np_sat_add(r->h_t, serial);
  post(s, t, m);
  if (++r->h_pos == r->n_sends) {
    r->h_pos = 0;
    r->h_inf++;
  }
}

/* --- the run -------------------------------------------------------------------------------------------------------- */

static bool deadlock(run_ctx *r, const host_send *blocked)
{
  char msg[640];
  size_t n = 0, shown = 0;
  if (blocked) {
    const np_tile *t = &r->s->tiles[blocked->tile];
    n += (size_t)snprintf(msg, sizeof msg, "the host waits for room for input step %lld (inference %zu) in the input "
                          "buffer of tile (%d, %d) '%s' for operand %u", (long long)blocked->step, r->h_inf, t->x, t->y,
                          t->node, blocked->operand);
    shown++;
  }
  for (size_t i = 0; i < r->s->n_tiles && shown < 4; i++) {
    np_tile *t = &r->s->tiles[i];
    if (t->done)
      continue;
    char text[96];
    n += (size_t)snprintf(msg + n, sizeof msg - n, "%stile (%d, %d) '%s' waits at instruction %zu (%s, inference "
                          "%zu)", shown++ ? "; " : "", t->x, t->y, t->node, t->pc,
                          instr_text(&t->prog[t->pc], text, sizeof text), t->inference);
    if (n >= sizeof msg)
      break;
  }
  return sched_error(r, "deadlock: no tile can proceed, and the data they wait for is never sent: %s", msg);
}

static bool leftovers(run_ctx *r)
{
  for (size_t i = 0; i < r->s->n_tiles; i++)
    for (size_t k = 0; k < r->s->tiles[i].n_inbox; k++)
      if (r->s->tiles[i].inbox[k])
        return unreceived(r, &r->s->tiles[i], r->s->tiles[i].inbox[k]);
  for (size_t k = 0; k < r->batch; k++)
    if (r->out_missing[k])
      return sched_error(r, "%lld output elements of inference %zu never reach the host", (long long)r->out_missing[k],
                         k);
  return true;
}

static bool np_sim_run(void *state, size_t batch, const void *const *inputs, void *const *outputs, char *err,
                       size_t errlen, void *userData)
{
  np_sim *s = state;
  /* the loader accepted int8 tensors only */
  run_ctx r = {.s = s, .batch = batch, .inputs = (const int8_t *const *)inputs, .outputs = (int8_t *const *)outputs,
               .err = err, .errlen = errlen};
  r.out_end = nc_rt_calloc(batch, sizeof *r.out_end);
  r.out_missing = nc_rt_calloc(batch, sizeof *r.out_missing);
  for (size_t k = 0; k < batch; k++)
    for (size_t o = 0; o < s->n_outputs; o++)
      r.out_missing[k] += (int64_t)nc_ncb_tensor_elements(&s->outputs[o]);
  np_tile_buffers(s);
  np_pool_reset(s);
  for (size_t i = 0; i < s->n_tiles; i++) {
    np_tile *t = &s->tiles[i];
    for (uint32_t k = 0; k < t->n_operands; k++) {
      if (!t->valid[k])
        t->valid[k] = nc_rt_calloc((size_t)np_bits_words(t->in[k].elements), sizeof(uint64_t));
      t->peak[k] = 0;
    }
    t->out_peak = 0;
    if (!t->psum && (t->flags & (NP_FLAG_PARTIAL | NP_FLAG_REDUCE))) {
      t->psum = nc_rt_calloc((size_t)t->out.elements, sizeof *t->psum);
      t->psum_count = nc_rt_calloc((size_t)t->out.elements, sizeof *t->psum_count);
    }
    if (t->psum) { /* a run that failed may have left partial sums */
      memset(t->psum, 0, (size_t)t->out.elements * sizeof *t->psum);
      memset(t->psum_count, 0, (size_t)t->out.elements * sizeof *t->psum_count);
    }
    np_clear_inbox(t);
    t->inbox = nc_rt_calloc(batch, sizeof *t->inbox);
    t->inbox_tail = nc_rt_calloc(batch, sizeof *t->inbox_tail);
    t->n_inbox = batch;
    reset_inference(t);
    t->inference = t->replica; /* a copy's first inference */
    t->t = t->busy = t->macs = t->bytes_sent = 0;
    t->send_cycles = t->data_wait_cycles = t->core_wait_cycles = t->link_wait_cycles = 0;
    t->done = t->n_instrs == 0 || t->inference >= batch;
  }
  if (!s->tile_at) { /* per core, its tiles in order: tile_at the first, core_next the rest */
    s->tile_at = nc_rt_calloc((size_t)s->chip.rows * s->chip.cols + 1, sizeof *s->tile_at);
    s->core_free = nc_rt_calloc((size_t)s->chip.rows * s->chip.cols + 1, sizeof *s->core_free);
    for (size_t i = 0; i < (size_t)s->chip.rows * s->chip.cols; i++)
      s->tile_at[i] = -1;
    for (size_t i = s->n_tiles; i-- > 0;) {
      np_tile *t = &s->tiles[i];
      t->core_next = -1;
      if (t->x >= 0 && t->y >= 0 && (uint32_t)t->x < s->chip.cols && (uint32_t)t->y < s->chip.rows) {
        int32_t *head = &s->tile_at[(size_t)t->y * s->chip.cols + (size_t)t->x];
        t->core_next = *head;
        *head = (int32_t)i;
      }
    }
    for (size_t i = 0; i < s->n_tiles; i++) {
      np_tile *t = &s->tiles[i];
      t->shared = t->core_next >= 0 || (t->x >= 0 && t->y >= 0 && (uint32_t)t->x < s->chip.cols &&
                                        (uint32_t)t->y < s->chip.rows &&
                                        s->tile_at[(size_t)t->y * s->chip.cols + (size_t)t->x] != (int32_t)i);
    }
  }
  memset(s->core_free, 0, ((size_t)s->chip.rows * s->chip.cols + 1) * sizeof *s->core_free);
  np_ready_reset(&s->ready, s->n_tiles);
  for (size_t i = 0; i < s->n_tiles; i++) { /* a shared core's tiles are one entry, headed by its first tile */
    np_tile *t = &s->tiles[i];
    t->entry = t->shared ? &s->tiles[s->tile_at[(size_t)t->y * s->chip.cols + (size_t)t->x]] : t;
    t->entry_valid = false;
    if (t->entry == t)
      s->ready.dirty[s->ready.n_dirty++] = (int32_t)i;
  }
  if (!s->noc.links) {
    np_noc_init(&s->noc, s->chip.rows, s->chip.cols, s->chip.link_bytes_per_cycle, s->chip.hop_latency_cycles);
    np_noc_set_local_rate(&s->noc, s->chip.macs_per_cycle); /* SRAM bytes per cycle: a byte per 8-bit MAC lane */
  }
  np_noc_reset(&s->noc);
  s->noc.trace = s->trace;
  plan_host(&r);
  if (s->trace)
    trace_tracks(s);
  r.credits = nc_rt_calloc(s->n_tiles * NP_MAX_OPERANDS + 1, sizeof *r.credits);
  for (size_t i = 0; i < s->n_tiles; i++)
    for (uint32_t k = 0; k < NP_MAX_OPERANDS; k++)
      np_credits_reset(&r.credits[i * NP_MAX_OPERANDS + k],
                       k < s->tiles[i].n_operands && s->tiles[i].host_input[k] >= 0 ? s->tiles[i].in_capacity[k] : -1);
  bool ok = true;
  for (;;) {
    int best = -2; /* -1: the host */
    uint64_t best_t = 0, host_at = 0;
    const host_send *blocked = NULL; /* the host's next send, if it waits for credits no tile has returned yet */
    host_skip(&r);
    if (r.h_inf < batch && r.n_sends && host_ready(&r, &host_at, &blocked)) {
      best = -1;
      best_t = host_at;
    }
    while (s->ready.n_dirty) { /* asked again only after one of the entry's tiles stepped or got a message */
      int32_t i = s->ready.dirty[--s->ready.n_dirty];
      np_tile *t = &s->tiles[i];
      t->entry_pick = i, t->entry_at = t->t;
      if (t->shared) /* a shared core's tiles: its first one asks the core which goes next (core_pick) */
        t->entry_ready = core_pick(s, i, &t->entry_pick, &t->entry_at);
      else
        t->entry_ready = tile_ready(s, t);
      t->entry_valid = true;
      np_ready_update(&s->ready, s->tiles, i);
    }
    int32_t first = np_ready_first(&s->ready); /* the earliest entry; the host goes first on a tie */
    if (first >= 0 && (best == -2 || s->tiles[first].entry_at < best_t)) {
      best = (int)s->tiles[first].entry_pick;
      best_t = s->tiles[first].entry_at;
    }
    if (best != -2) /* every later send leaves at or after best_t (docs/targets/northpole.md) */
      np_noc_advance(&s->noc, best_t);
    if (best == -1) {
      step_host(&r, host_at);
      continue;
    }
    if (best >= 0) {
      if (!(ok = step_tile(&r, (size_t)best)))
        break;
      continue;
    }
    bool all_done = true;
    for (size_t i = 0; i < s->n_tiles; i++)
      all_done &= s->tiles[i].done;
    ok = all_done && !blocked ? leftovers(&r) : deadlock(&r, blocked);
    break;
  }
  if (s->trace)
    np_noc_trace_end(&s->noc);
  if (ok) {
    s->batch = batch;
    s->first_end = r.out_end[0];
    s->last_end = r.out_end[batch - 1];
    s->latency = r.out_end[0];
    s->total_cycles = 0;
    for (size_t k = 0; k < batch; k++)
      if (r.out_end[k] > s->total_cycles)
        s->total_cycles = r.out_end[k];
    free(s->frame_end);
    s->frame_end = r.out_end, r.out_end = NULL;
  } else {
    s->batch = 0;
  }
  for (size_t i = 0; i < s->n_tiles * NP_MAX_OPERANDS; i++)
    np_credits_destroy(&r.credits[i]);
  free(r.credits);
  s->host_wait_cycles = r.host_wait;
  free(r.sends);
  free(r.out_end);
  free(r.out_missing);
  return ok;
}

/* --- figures -------------------------------------------------------------------------------------------------------- */

/* Every link that carried data, network by network, row by row, and the
 * busiest link's share of the run. */
static void link_figures(const np_sim *s, nc_figures *f)
{
  static const char *const net_name[NP_NUM_NETS] = {"activation", "partial_sum"};
  const np_noc *n = &s->noc;
  uint64_t max_busy = 0;
  for (int net = 0; n->links && net < NP_NUM_NETS; net++)
    for (uint32_t y = 0; y < n->rows; y++)
      for (uint32_t x = 0; x < n->cols; x++)
        for (int d = 0; d < NP_NUM_DIRS; d++) {
          uint64_t l = np_noc_link(n, net, x, y, d);
          if (!n->bytes[l])
            continue;
          if (n->busy[l] > max_busy)
            max_busy = n->busy[l];
          int64_t tx = (int64_t)x + (d == NP_DIR_EAST) - (d == NP_DIR_WEST);
          int64_t ty = (int64_t)y + (d == NP_DIR_SOUTH) - (d == NP_DIR_NORTH);
          nc_figures *k = nc_figures_add_link(f);
          nc_figures_set_pair(k, "from", x, y);
          nc_figures_set_pair(k, "to", tx, ty);
          nc_figures_set_text(k, "network", net_name[net]);
          nc_figures_set_int(k, "bytes", (int64_t)n->bytes[l]);
          nc_figures_set_int(k, "busy_cycles", (int64_t)n->busy[l]);
        }
  nc_figures_set_real(f, "max_link_utilization", s->total_cycles ? (double)max_busy / (double)s->total_cycles : 0);
}

/* A tile's busy and send cycles per frame of the pipeline, in *busy and *send: per frame it ran, and a
 * copy (core-replicate) runs one frame in `replicas`, so its share is that over replicas (a run of N
 * frames gives copy r of n the frames r, r + n, ... below N: not always N / n of them). */
static bool tile_share(const np_tile *t, size_t batch, double *busy, double *send)
{
  uint64_t n = t->replicas > 1 ? t->replicas : 1;
  uint64_t frames = batch > t->replica ? (batch - t->replica + n - 1) / n : 0;
  if (!frames)
    return false;
  *busy = (double)t->busy / (double)frames / (double)n;
  *send = (double)t->send_cycles / (double)frames / (double)n;
  return true;
}

/* The core that computes and sends the most per frame: its tiles' busy and send cycles per frame
 * (tile_share) summed. No steady pace is faster, so a cycles_per_inference close to it says the pipeline
 * loses nothing to waits: what is left is that core's own work and sends (docs/targets/figures.md). Ties
 * go to the core whose first tile comes first in the binary. */
static void busiest_core_figures(const np_sim *s, nc_figures *f)
{
  if (!s->tile_at || !s->batch)
    return;
  int32_t best = -1;
  double best_busy = 0, best_send = 0;
  for (size_t i = 0; i < s->n_tiles; i++) {
    const np_tile *t = &s->tiles[i];
    if (t->x < 0 || t->y < 0 || (uint32_t)t->x >= s->chip.cols || (uint32_t)t->y >= s->chip.rows ||
        s->tile_at[(size_t)t->y * s->chip.cols + (size_t)t->x] != (int32_t)i)
      continue; /* each core once, from its first tile */
    double busy = 0, send = 0, b, sd;
    for (int32_t j = (int32_t)i; j >= 0; j = s->tiles[j].core_next)
      if (tile_share(&s->tiles[j], s->batch, &b, &sd))
        busy += b, send += sd;
    if (best < 0 || busy + send > best_busy + best_send)
      best = (int32_t)i, best_busy = busy, best_send = send;
  }
  if (best < 0)
    return;
  size_t len = 1;
  for (int32_t j = best; j >= 0; j = s->tiles[j].core_next)
    len += strlen(s->tiles[j].node) + 1;
  char *nodes = nc_rt_calloc(len, 1); /* its layers, in slot order: "elementwise4+conv14" */
  for (int32_t j = best; j >= 0; j = s->tiles[j].core_next)
    strcat(strcat(nodes, j == best ? "" : "+"), s->tiles[j].node);
  nc_figures_set_pair(f, "busiest_core", s->tiles[best].x, s->tiles[best].y);
  nc_figures_set_text(f, "busiest_core_nodes", nodes);
  nc_figures_set_real(f, "busiest_core_cycles_per_inference", best_busy + best_send);
  nc_figures_set_real(f, "busiest_core_send_cycles_per_inference", best_send);
  free(nodes);
}

static void np_sim_figures(const void *state, nc_figures *f, void *userData)
{
  const np_sim *s = state;
  const np_chip *ch = &s->chip;
  double cpi = s->batch > 1 ? (double)(s->last_end - s->first_end) / (double)(s->batch - 1) : (double)s->latency;
  uint64_t cores = (uint64_t)ch->rows * ch->cols;
  /* each layer's MACs at its own width's rate: the inference's MACs at the tiles' mix of rates */
  double cyc = 0, macs = 0;
  for (size_t i = 0; i < s->n_tiles; i++)
    macs += (double)s->tiles[i].macs, cyc += (double)s->tiles[i].macs / s->tiles[i].rate;
  double per_mac = macs > 0 ? cyc / macs : 1.0 / ch->macs_per_cycle; /* cycles per MAC on one core */
  double bound = (double)ch->macs_per_inference * per_mac / (double)cores;
  nc_figures_set_text(f, "target", "northpole");
  nc_figures_set_int(f, "inferences", (int64_t)s->batch);
  nc_figures_set_int(f, "total_cycles", (int64_t)s->total_cycles);
  nc_figures_set_real(f, "cycles_per_inference", cpi);
  nc_figures_set_real(f, "frames_per_second", cpi > 0 ? (double)ch->clock_hz / cpi : 0);
  nc_figures_set_int(f, "latency_cycles", (int64_t)s->latency);
  /* the pipeline's filling, frame by frame (bench/bench_northpole.py finds its steady state in it) */
  int64_t *ends = nc_rt_malloc((s->batch ? s->batch : 1) * sizeof *ends);
  for (size_t k = 0; k < s->batch; k++)
    ends[k] = (int64_t)s->frame_end[k];
  nc_figures_set_ints(f, "frame_end_cycles", ends, s->batch);
  free(ends);
  nc_figures_set_real(f, "latency_seconds", (double)s->latency / (double)ch->clock_hz);
  nc_figures_set_int(f, "clock_hz", (int64_t)ch->clock_hz);
  nc_figures_set_int(f, "macs_per_inference", (int64_t)ch->macs_per_inference);
  nc_figures_set_int(f, "macs_per_cycle_per_core", ch->macs_per_cycle);
  /* the roofline: the higher of the compute ceiling and the host link's (docs/targets/northpole.md) */
  uint64_t in_bytes, host_busy;
  np_host_link_load(s, &in_bytes, &host_busy);
  double host_io = (double)in_bytes / (double)(ch->link_bytes_per_cycle ? ch->link_bytes_per_cycle : 1);
  double roof = bound > host_io ? bound : host_io;
  nc_figures_set_real(f, "roofline_bound_cycles", roof);
  nc_figures_set_real(f, "roofline_ratio", roof > 0 ? cpi / roof : 0);
  nc_figures_set_text(f, "roofline_ceiling", bound >= host_io ? "compute" : "host_io");
  nc_figures_set_real(f, "compute_bound_cycles", bound);
  nc_figures_set_real(f, "compute_roofline_ratio", bound > 0 ? cpi / bound : 0);
  nc_figures_set_real(f, "host_io_bound_cycles", host_io);
  nc_figures_set_int(f, "host_input_bytes", (int64_t)in_bytes);
  nc_figures_set_int(f, "host_cycles_per_inference", (int64_t)host_busy);
  nc_figures_set_int(f, "host_wait_cycles", (int64_t)s->host_wait_cycles); /* waits for input buffer room, whole run */
  size_t used = s->n_tiles; /* cores, not tiles: several tiles may share one */
  for (size_t i = 0; i < s->n_tiles && s->tile_at; i++)
    used -= s->tiles[i].shared && s->tile_at[(size_t)s->tiles[i].y * s->chip.cols + (size_t)s->tiles[i].x] != (int32_t)i;
  nc_figures_set_int(f, "cores_used", (int64_t)used);
  nc_figures_set_int(f, "cores_total", (int64_t)cores);
  nc_figures_set_real(f, "used_roofline_bound_cycles", (double)ch->macs_per_inference * per_mac / (double)used);
  busiest_core_figures(s, f);
  link_figures(s, f);
  for (size_t i = 0; i < s->n_tiles; i++) {
    const np_tile *t = &s->tiles[i];
    nc_figures *c = nc_figures_add_core(f);
    nc_figures_set_int(c, "x", t->x);
    nc_figures_set_int(c, "y", t->y);
    nc_figures_set_text(c, "node", t->node);
    nc_figures_set_int(c, "busy_cycles", (int64_t)t->busy);
    nc_figures_set_int(c, "macs", (int64_t)t->macs);
    nc_figures_set_int(c, "bytes_sent", (int64_t)t->bytes_sent);
    nc_figures_set_real(c, "utilisation", s->total_cycles ? (double)t->busy / (double)s->total_cycles : 0);
    nc_figures_set_real(c, "mac_utilisation",
                        s->total_cycles ? (double)t->macs / ((double)s->total_cycles * t->rate) : 0);
    /* where the rest of its time went: its NoC port, waiting for data, waiting for a tile sharing its core */
    nc_figures_set_int(c, "send_cycles", (int64_t)t->send_cycles);
    nc_figures_set_int(c, "data_wait_cycles", (int64_t)t->data_wait_cycles);
    nc_figures_set_int(c, "link_wait_cycles", (int64_t)t->link_wait_cycles);
    nc_figures_set_int(c, "core_wait_cycles", (int64_t)t->core_wait_cycles);
    nc_figures_set_int(c, "end_cycle", (int64_t)t->t);
  }
}

/* nc-run --frame-lead=N: when a shared core gives a tie to the older frame (core_turn). */
static bool np_sim_set_option(void *state, const char *key, const char *value, char *err, size_t errlen,
                              void *userData)
{
  (void)userData;
  np_sim *s = state;
  if (strcmp(key, "frame-lead") != 0) {
    snprintf(err, errlen, "the northpole simulator has no option '%s' (it has: frame-lead=N)", key);
    return false;
  }
  char *end;
  unsigned long long n = strtoull(value, &end, 10);
  if (end == value || *end || value[0] == '-' || n > 1000000) {
    snprintf(err, errlen, "frame-lead=%s: expected frames from 0 (ties to the tile listed first) to 1000000", value);
    return false;
  }
  s->frame_lead = (uint32_t)n;
  return true;
}

static void np_sim_set_trace(void *state, nc_trace *trace, void *userData)
{
  (void)userData;
  ((np_sim *)state)->trace = trace;
}

static void np_sim_set_progress(void *state, nc_sim_progress_fn progress, void *progressData, void *userData)
{
  (void)userData;
  ((np_sim *)state)->progress = progress;
  ((np_sim *)state)->progress_data = progressData;
}

/* The report's northpole views (docs/reports.md): how busy each core's MAC array is, and the
 * traffic each layer puts on the mesh. */
static const char report_views[] =
  "[{\"kind\": \"heatmap\", \"figure\": \"mac_utilisation\", \"title\": \"MAC array utilisation\", "
  "\"note\": \"per core: its MACs over its MAC rate times the run's cycles\"},"
  " {\"kind\": \"layer_bars\", \"figure\": \"bytes_sent\", \"title\": \"Bytes each layer sends on the mesh\", "
  "\"note\": \"the sum over the layer's cores, whole run\"}]";

const nc_target_sim nc_target_sim_northpole = {
  .name = "northpole",
  .load = np_sim_load,
  .set_option = np_sim_set_option,
  .run = np_sim_run,
  .figures = np_sim_figures,
  .destroy = np_sim_destroy,
  .set_trace = np_sim_set_trace,
  .set_progress = np_sim_set_progress,
  .report_views = report_views,
};
