/* deps_pipeline.c: the buffers of several channels on one timeline.
 *
 * A single channel's buffer assumes its consumer runs as soon as that
 * producer allows. A stage with two inputs (a residual add) runs when the
 * later of them allows, so its other input must be held longer: a 3x3
 * conv's skip connection buffers three rows, not one. Here the whole
 * pipeline is scheduled eagerly, one event per iteration: sources advance
 * one iteration per step, and after each source iteration every enabled
 * iteration runs, deepest stage first (which drains buffers before refilling
 * them, reproducing nc_deps_compute's timeline on single-input stages).
 * Each channel element then lives from its first writer's event through its
 * last reader's event; the sweep of deps_buffer.c counts them. isl provides
 * the Earliest relations and the element lifetimes; the schedule itself is
 * a plain simulation over the enumerated iterations.
 *
 * The work is split into steps (nc_deps_pipeline_create ... _destroy) so
 * that a caller can run the isl parts on threads: enumerating a stage, a
 * channel's waits and a channel's lifetimes touch only that stage's or
 * channel's isl objects and its own slots; only the schedule, on plain
 * arrays, is serial. Failures are kept per stage and channel and reported
 * in the order of one serial loop, so the steps give what one call gives.
 */
#include "deps_internal.h"

#include <inttypes.h>
#include <isl/aff.h>
#include <isl/local_space.h>
#include <isl/stride_info.h>
#include <stdlib.h>
#include <string.h>

typedef struct stage {
  nc_deps_points iters; /* sorted iterations */
  int64_t done;         /* iterations run so far */
  int64_t *event;       /* event index of each iteration */
  bool source;
  size_t *in; /* the channels into the stage, in index order (set by the schedule) */
  size_t n_in;
  bool set, failed;  /* by nc_deps_pipeline_set_stage */
  nc_deps_error err; /* why it failed */
} stage;

/* A channel's element lifetimes as spans of elements living from a
 * producer iteration through a consumer iteration (ranks in the stages'
 * sorted iterations), in isl's enumeration order with equal neighbours
 * merged; enumerated when the channel is set, placed on the schedule's
 * events when its buffer is asked. An enumeration that stopped keeps why:
 * its error is the buffer's, after any span before it that the events
 * show read before written. */
typedef enum { LIVES_OK, LIVES_TOO_MANY, LIVES_BAD, LIVES_ISL } lives_end;

typedef struct span {
  int64_t p, c, count;
} span;

typedef struct life_spans {
  span *v;
  int64_t n, cap;
  lives_end end;
  nc_deps_error isl_err; /* LIVES_ISL: isl's message */
} life_spans;

typedef struct chan {
  size_t p, c;
  int64_t *wait; /* per consumer iteration: producer iteration to wait for, -1 if none */
  const nc_deps_channel *channel;
  life_spans *life; /* its lifetimes; another channel's when shared */
  bool own_life;    /* whether life is this channel's to free */
  bool set, failed; /* by nc_deps_pipeline_set_channel */
  nc_deps_error err; /* why it failed */
} chan;

struct nc_deps_pipeline {
  size_t n_stages, n_channels;
  stage *st;
  chan *ch;
  int64_t n_events;
  bool scheduled;
};

/* Collects (consumer rank, producer rank) pairs from the wrapped Earliest. */
typedef struct wait_fill {
  const stage *cs, *ps;
  int64_t *wait, *scratch;
  bool bad;
} wait_fill;

static isl_stat add_wait(isl_point *pnt, void *user)
{
  wait_fill *w = user;
  int nc = w->cs->iters.n, np = w->ps->iters.n;
  bool ok = true;
  for (int i = 0; ok && i < nc + np; i++)
    ok = nc_deps_point_coordinate(pnt, i, &w->scratch[i]);
  isl_point_free(pnt);
  int64_t c = ok ? nc_deps_points_find(&w->cs->iters, w->scratch) : -1;
  int64_t p = ok ? nc_deps_points_find(&w->ps->iters, w->scratch + nc) : -1;
  if (c < 0 || p < 0 || w->wait[c] >= 0) {
    w->bad = true;
    return isl_stat_error;
  }
  w->wait[c] = p;
  return isl_stat_ok;
}

/* Collects each element's lifetime (writer, last reader) as spans. */
typedef struct life_fill {
  const stage *ps, *cs;
  life_spans *out;
  int64_t *scratch;
  int64_t elements, box_count;
  bool bad, too_many;
} life_fill;

/* Adds `count` elements living from producer iteration p through consumer
 * iteration c; pc holds p's then c's coordinates. */
static bool add_span(life_fill *l, const int64_t *pc, int64_t count)
{
  int np = l->ps->iters.n;
  int64_t p = nc_deps_points_find(&l->ps->iters, pc);
  int64_t c = nc_deps_points_find(&l->cs->iters, pc + np);
  if (p < 0 || c < 0) {
    l->bad = true;
    return false;
  }
  if (count > NC_DEPS_MAX_ENUMERATED_POINTS - l->elements) {
    l->too_many = true;
    return false;
  }
  l->elements += count;
  life_spans *o = l->out;
  if (o->n && o->v[o->n - 1].p == p && o->v[o->n - 1].c == c) {
    o->v[o->n - 1].count += count;
    return true;
  }
  if (o->n == o->cap) {
    o->cap = o->cap ? 2 * o->cap : 16;
    o->v = nc_xrealloc(o->v, (size_t)o->cap * sizeof *o->v);
  }
  o->v[o->n++] = (span){p, c, count};
  return true;
}

/* One element's lifetime, a point of T[e] -> [P[w] -> C[r]] wrapped. */
static isl_stat add_life(isl_point *pnt, void *user)
{
  life_fill *l = user;
  int np = l->ps->iters.n, nc = l->cs->iters.n;
  isl_space *space = isl_point_get_space(pnt);
  isl_size total = isl_space_dim(space, isl_dim_set);
  isl_space_free(space);
  bool ok = total >= np + nc;
  for (int i = 0; ok && i < np + nc; i++)
    ok = nc_deps_point_coordinate(pnt, (int)total - np - nc + i, &l->scratch[i]);
  isl_point_free(pnt);
  if (!ok) {
    l->bad = true;
    return isl_stat_error;
  }
  return add_span(l, l->scratch, 1) ? isl_stat_ok : isl_stat_error;
}

/* A lifetime pair [P[w] -> C[r]] whose elements form a box of l->box_count. */
static isl_stat add_box_pair(isl_point *pnt, void *user)
{
  life_fill *l = user;
  int n = l->ps->iters.n + l->cs->iters.n;
  bool ok = true;
  for (int i = 0; ok && i < n; i++)
    ok = nc_deps_point_coordinate(pnt, i, &l->scratch[i]);
  isl_point_free(pnt);
  if (!ok) {
    l->bad = true;
    return isl_stat_error;
  }
  return add_span(l, l->scratch, l->box_count) ? isl_stat_ok : isl_stat_error;
}

/* The piece with every strided coordinate divided out: where isl finds
 * that e_d = off_d(pair) + s_d * k (s_d > 1; a stride-2 1x1 conv reads every
 * other column), e_d is replaced by k. Per pair this is a bijection, so the
 * counts are the same; a strided box becomes a dense one. NULL if no
 * coordinate is strided or on an isl error. */
static isl_map *divide_strides(isl_map *by_pair)
{
  int n_in = (int)isl_map_dim(by_pair, isl_dim_in), n_out = (int)isl_map_dim(by_pair, isl_dim_out);
  isl_space *pair_space = isl_space_wrap(isl_map_get_space(by_pair));
  isl_multi_aff *f = isl_multi_aff_identity(isl_space_map_from_set(isl_space_copy(pair_space)));
  bool strided = false;
  for (int d = 0; d < n_out && f; d++) {
    isl_stride_info *si = isl_map_get_range_stride_info(by_pair, d);
    isl_val *stride = si ? isl_stride_info_get_stride(si) : NULL;
    isl_aff *off = si ? isl_stride_info_get_offset(si) : NULL;
    isl_stride_info_free(si);
    if (!stride || !off || isl_val_is_int(stride) != isl_bool_true || isl_val_cmp_si(stride, 1) <= 0) {
      isl_val_free(stride);
      isl_aff_free(off);
      continue;
    }
    strided = true;
    /* e_d = off_d(pair) + stride * k, as a function of [pair -> k] */
    isl_aff *k = isl_aff_var_on_domain(isl_local_space_from_space(isl_space_copy(pair_space)), isl_dim_set, n_in + d);
    isl_aff *o = isl_aff_pullback_multi_aff(off, isl_multi_aff_domain_map(isl_map_get_space(by_pair)));
    f = isl_multi_aff_set_at(f, n_in + d, isl_aff_add(o, isl_aff_scale_val(k, stride)));
  }
  isl_space_free(pair_space);
  if (!strided || !f) {
    isl_multi_aff_free(f);
    return NULL;
  }
  return isl_set_unwrap(isl_set_preimage_multi_aff(isl_map_wrap(isl_map_copy(by_pair)), f));
}

/* One disjoint piece of the lifetimes, reversed to [P[w] -> C[r]] -> T[e]:
 * if the elements sharing a lifetime form a fixed-size box, only the
 * lifetime pairs are visited; otherwise every element is. */
static isl_stat add_piece(isl_basic_map *piece, void *user)
{
  life_fill *l = user;
  isl_map *by_pair = isl_map_from_basic_map(piece);
  isl_multi_aff *off = NULL;
  int64_t sizes[64];
  int boxed = isl_map_dim(by_pair, isl_dim_out) <= 64 ? nc_deps_map_fixed_box(by_pair, &off, sizes, &l->box_count)
                                                       : 0;
  isl_multi_aff_free(off);
  if (boxed == 0) { /* a strided box: count it with the strides divided out */
    isl_map *dense = divide_strides(by_pair);
    off = NULL;
    if (dense && nc_deps_map_fixed_box(dense, &off, sizes, &l->box_count) == 1)
      boxed = 1;
    isl_multi_aff_free(off);
    isl_map_free(dense);
  }
  isl_stat st;
  if (boxed == 1) {
    isl_set *pairs = isl_map_domain(by_pair);
    st = isl_set_foreach_point(pairs, add_box_pair, l);
    isl_set_free(pairs);
  } else if (boxed == 0) {
    isl_set *elements = isl_map_wrap(isl_map_reverse(by_pair));
    st = isl_set_foreach_point(elements, add_life, l);
    isl_set_free(elements);
  } else {
    isl_map_free(by_pair);
    st = isl_stat_error;
  }
  return st;
}

/* The disjoint pieces of one space of the lifetimes T[e] -> [P[w] -> C[r]]. */
static isl_stat add_lives(isl_map *lives, void *user)
{
  isl_map *by_pair = isl_map_make_disjoint(isl_map_reverse(isl_map_coalesce(lives)));
  isl_stat st = isl_map_foreach_basic_map(by_pair, add_piece, user);
  isl_map_free(by_pair);
  return st;
}

static bool enabled(const stage *st, size_t s, const chan *ch)
{
  const stage *x = &st[s];
  if (x->done >= x->iters.count)
    return false;
  for (size_t k = 0; k < x->n_in; k++) {
    const chan *c = &ch[x->in[k]];
    int64_t w = c->wait[x->done];
    if (w >= 0 && st[c->p].done <= w)
      return false;
  }
  return true;
}

/* Runs every enabled non-source iteration, deepest stage first. */
static void drain(stage *st, size_t n, const chan *ch, int64_t *events)
{
  for (;;) {
    size_t s = n;
    while (s-- > 0)
      if (!st[s].source && enabled(st, s, ch))
        break;
    if (s == (size_t)-1)
      return;
    st[s].event[st[s].done++] = (*events)++;
  }
}

static bool schedule(stage *st, size_t n, const chan *ch, int64_t *n_events, nc_deps_error *err)
{
  int64_t events = 0, steps = 0;
  for (size_t s = 0; s < n; s++)
    if (st[s].source && st[s].iters.count > steps)
      steps = st[s].iters.count;
  drain(st, n, ch, &events);
  for (int64_t t = 0; t < steps; t++)
    for (size_t s = 0; s < n; s++)
      if (st[s].source && t < st[s].iters.count) {
        st[s].event[st[s].done++] = events++;
        drain(st, n, ch, &events);
      }
  for (size_t s = 0; s < n; s++)
    if (st[s].done < st[s].iters.count)
      return nc_deps_fail(err, "pipeline: stage %zu never runs its iteration %" PRId64
                          " (it waits for an iteration that never runs)", s, st[s].done);
  *n_events = events;
  return true;
}

nc_deps_pipeline *nc_deps_pipeline_create(size_t n_stages, size_t n_channels)
{
  nc_deps_pipeline *p = nc_xcalloc(1, sizeof *p);
  p->n_stages = n_stages;
  p->n_channels = n_channels;
  p->st = nc_xcalloc(n_stages + 1, sizeof *p->st);
  p->ch = nc_xcalloc(n_channels + 1, sizeof *p->ch);
  return p;
}

void nc_deps_pipeline_destroy(nc_deps_pipeline *p)
{
  if (!p)
    return;
  for (size_t s = 0; s < p->n_stages; s++) {
    free(p->st[s].iters.v);
    free(p->st[s].event);
    free(p->st[s].in);
  }
  for (size_t j = 0; j < p->n_channels; j++) {
    free(p->ch[j].wait);
    if (p->ch[j].own_life && p->ch[j].life) {
      free(p->ch[j].life->v);
      free(p->ch[j].life);
    }
  }
  free(p->st);
  free(p->ch);
  free(p);
}

/* Copies a step's kept error to the caller's; returns false. */
static bool report(nc_deps_error *err, const nc_deps_error *kept)
{
  return nc_deps_fail(err, "%s", kept->message);
}

bool nc_deps_pipeline_set_stage(nc_deps_pipeline *p, size_t s, isl_set *domain, nc_deps_error *err)
{
  if (s >= p->n_stages)
    return nc_deps_fail(err, "pipeline: there is no stage %zu", s);
  stage *x = &p->st[s];
  if (x->set || x->failed)
    return nc_deps_fail(err, "pipeline: stage %zu is set twice", s);
  bool ok = domain != NULL;
  if (!ok) {
    nc_deps_fail(&x->err, "pipeline: missing domain");
  } else {
    isl_ctx *ctx = isl_set_get_ctx(domain);
    nc_deps_scope scope = nc_deps_scope_enter(ctx);
    isl_size n = isl_set_dim(domain, isl_dim_set);
    ok = n >= 0 ? nc_deps_check_domain(domain, "pipeline stage", &x->err) : nc_deps_fail_isl(&x->err, ctx, "pipeline");
    if (ok) {
      x->iters.n = (int)n;
      if (isl_set_foreach_point(domain, nc_deps_points_collect, &x->iters) < 0)
        ok = nc_deps_fail(&x->err, "pipeline: cannot enumerate stage %zu (more than %lld iterations, or not integer)",
                          s, (long long)NC_DEPS_MAX_ENUMERATED_POINTS);
      nc_deps_points_sort(&x->iters);
      x->event = nc_xmalloc(((size_t)x->iters.count + 1) * sizeof(int64_t));
    }
    nc_deps_scope_exit(scope);
  }
  x->set = ok;
  x->failed = !ok;
  return ok || report(err, &x->err);
}

/* The channel's element lifetimes (first writer, last reader) as spans over
 * its stages' iterations: isl's work for its buffer, which needs no
 * schedule; a failure is kept in the spans' end, for the buffer to report. */
static life_spans *enumerate_lives(const stage *ps, const stage *cs, const nc_deps_channel *channel)
{
  life_spans *out = nc_xcalloc(1, sizeof *out);
  isl_union_map *first = nc_deps_channel_get_first_write(channel);
  isl_ctx *ctx = first ? isl_union_map_get_ctx(first) : NULL;
  nc_deps_scope scope = {0};
  if (ctx)
    scope = nc_deps_scope_enter(ctx);
  isl_union_map *lifetimes = isl_union_map_range_product(first, nc_deps_channel_get_last_read(channel));
  life_fill l = {ps, cs, out, nc_xcalloc((size_t)(ps->iters.n + cs->iters.n) + 1, sizeof(int64_t)), 0, 0, false,
                 false};
  if (!lifetimes || isl_union_map_foreach_map(lifetimes, add_lives, &l) < 0) {
    out->end = l.too_many ? LIVES_TOO_MANY : l.bad ? LIVES_BAD : LIVES_ISL;
    if (out->end == LIVES_ISL)
      nc_deps_fail_isl(&out->isl_err, ctx, "pipeline");
  }
  isl_union_map_free(lifetimes);
  free(l.scratch);
  if (ctx)
    nc_deps_scope_exit(scope);
  return out;
}

bool nc_deps_pipeline_set_channel(nc_deps_pipeline *p, size_t j, const nc_deps_pipeline_channel *channel,
                                  nc_deps_error *err)
{
  if (j >= p->n_channels)
    return nc_deps_fail(err, "pipeline: there is no channel %zu", j);
  chan *c = &p->ch[j];
  if (c->set || c->failed)
    return nc_deps_fail(err, "pipeline: channel %zu is set twice", j);
  const nc_deps_pipeline_channel *pc = channel;
  bool ok = pc->channel && pc->producer < pc->consumer && pc->consumer < p->n_stages;
  if (!ok)
    nc_deps_fail(&c->err, "pipeline: channel %zu must join a stage to a later one", j);
  else if (!(ok = p->st[pc->producer].set && p->st[pc->consumer].set))
    nc_deps_fail(&c->err, "pipeline: channel %zu joins a stage that is not set", j);
  if (ok) {
    const stage *cs = &p->st[pc->consumer], *ps = &p->st[pc->producer];
    c->p = pc->producer;
    c->c = pc->consumer;
    c->channel = pc->channel;
    c->wait = nc_xmalloc(((size_t)cs->iters.count + 1) * sizeof(int64_t));
    for (int64_t i = 0; i < cs->iters.count; i++)
      c->wait[i] = -1;
    isl_map *e = nc_deps_channel_get_earliest(pc->channel);
    nc_deps_scope scope = {0};
    if (e)
      scope = nc_deps_scope_enter(isl_map_get_ctx(e));
    wait_fill w = {cs, ps, c->wait, nc_xcalloc((size_t)(cs->iters.n + ps->iters.n) + 1, sizeof(int64_t)), false};
    bool dims = e && isl_map_dim(e, isl_dim_in) == cs->iters.n && isl_map_dim(e, isl_dim_out) == ps->iters.n;
    if (!dims)
      e = isl_map_free(e);
    isl_set *wrapped = e ? isl_map_wrap(e) : NULL;
    if (!wrapped || isl_set_foreach_point(wrapped, add_wait, &w) < 0)
      ok = nc_deps_fail(&c->err, "pipeline: channel %zu's Earliest does not match its stages' domains", j);
    isl_set_free(wrapped);
    free(w.scratch);
    if (scope.ctx)
      nc_deps_scope_exit(scope);
  }
  if (ok) {
    c->life = enumerate_lives(&p->st[c->p], &p->st[c->c], c->channel);
    c->own_life = true;
  }
  c->set = ok;
  c->failed = !ok;
  return ok || report(err, &c->err);
}

/* Whether two stages have the same iterations. */
static bool same_iters(const stage *a, const stage *b)
{
  return a->iters.n == b->iters.n && a->iters.count == b->iters.count &&
         (!a->iters.count ||
          !memcmp(a->iters.v, b->iters.v, (size_t)a->iters.count * (size_t)a->iters.n * sizeof *a->iters.v));
}

bool nc_deps_pipeline_set_channel_as(nc_deps_pipeline *p, size_t j, const nc_deps_pipeline_channel *channel,
                                     size_t like, nc_deps_error *err)
{
  const chan *k = like < p->n_channels && like != j ? &p->ch[like] : NULL;
  bool same = k && k->set && j < p->n_channels && !p->ch[j].set && !p->ch[j].failed && channel->channel == k->channel &&
              channel->producer < channel->consumer && channel->consumer < p->n_stages &&
              p->st[channel->producer].set && p->st[channel->consumer].set &&
              same_iters(&p->st[channel->producer], &p->st[k->p]) && same_iters(&p->st[channel->consumer], &p->st[k->c]);
  if (!same)
    return nc_deps_pipeline_set_channel(p, j, channel, err);
  chan *c = &p->ch[j];
  size_t n = (size_t)p->st[channel->consumer].iters.count;
  c->p = channel->producer;
  c->c = channel->consumer;
  c->channel = channel->channel;
  c->wait = nc_xmalloc((n + 1) * sizeof(int64_t));
  memcpy(c->wait, k->wait, n * sizeof(int64_t));
  c->life = k->life;
  c->own_life = false;
  c->set = true;
  return true;
}

bool nc_deps_pipeline_schedule(nc_deps_pipeline *p, nc_deps_error *err)
{
  if (p->scheduled)
    return nc_deps_fail(err, "pipeline: scheduled twice");
  if (!p->n_stages)
    return nc_deps_fail(err, "pipeline: no stages");
  int64_t total = 0;
  for (size_t s = 0; s < p->n_stages; s++) { /* the first failure in the order of one loop over stages */
    stage *x = &p->st[s];
    if (!x->set)
      return x->failed ? report(err, &x->err) : nc_deps_fail(err, "pipeline: stage %zu is not set", s);
    total += x->iters.count;
    if (total > NC_DEPS_MAX_ENUMERATED_POINTS)
      return nc_deps_fail(err, "pipeline: more than %lld iterations in all", (long long)NC_DEPS_MAX_ENUMERATED_POINTS);
  }
  for (size_t j = 0; j < p->n_channels; j++)
    if (!p->ch[j].set)
      return p->ch[j].failed ? report(err, &p->ch[j].err) : nc_deps_fail(err, "pipeline: channel %zu is not set", j);
  for (size_t s = 0; s < p->n_stages; s++) {
    p->st[s].source = true;
    p->st[s].done = 0;
  }
  for (size_t j = 0; j < p->n_channels; j++) {
    stage *x = &p->st[p->ch[j].c];
    x->source = false;
    x->in = nc_xrealloc(x->in, (x->n_in + 1) * sizeof *x->in);
    x->in[x->n_in++] = j;
  }
  p->scheduled = schedule(p->st, p->n_stages, p->ch, &p->n_events, err);
  return p->scheduled;
}

bool nc_deps_pipeline_channel_buffer(const nc_deps_pipeline *p, size_t j, int64_t *buffer, nc_deps_error *err)
{
  if (j >= p->n_channels || !p->scheduled)
    return nc_deps_fail(err, "pipeline: channel %zu's buffer needs the pipeline scheduled", j);
  const chan *c = &p->ch[j];
  const stage *ps = &p->st[c->p], *cs = &p->st[c->c];
  const life_spans *life = c->life;
  if (!life)
    return nc_deps_fail(err, "pipeline: channel %zu is not set", j);
  int64_t *delta = nc_xcalloc((size_t)p->n_events + 2, sizeof(int64_t));
  bool ok = true;
  for (int64_t k = 0; k < life->n && ok; k++) {
    const span *x = &life->v[k];
    int64_t from = ps->event[x->p], to = cs->event[x->c];
    if (from < 0 || to < from) {
      ok = nc_deps_fail(err, "pipeline: channel %zu has an element read before it is written", j);
    } else {
      delta[from] += x->count;
      delta[to + 1] -= x->count;
    }
  }
  if (ok && life->end == LIVES_TOO_MANY)
    ok = nc_deps_fail(err, "pipeline: channel %zu carries more than %lld elements", j,
                      (long long)NC_DEPS_MAX_ENUMERATED_POINTS);
  else if (ok && life->end == LIVES_BAD)
    ok = nc_deps_fail(err, "pipeline: channel %zu has an element read before it is written", j);
  else if (ok && life->end == LIVES_ISL)
    ok = report(err, &life->isl_err);
  if (ok) {
    int64_t live = 0, best = 0;
    for (int64_t t = 0; t < p->n_events; t++) {
      live += delta[t];
      best = live > best ? live : best;
    }
    *buffer = best;
  }
  free(delta);
  return ok;
}

bool nc_deps_pipeline_buffers(size_t n_stages, isl_set *const *domains, size_t n_channels,
                              const nc_deps_pipeline_channel *channels, int64_t *buffers, nc_deps_error *err)
{
  if (!n_stages || !domains)
    return nc_deps_fail(err, "pipeline: no stages");
  nc_deps_pipeline *p = nc_deps_pipeline_create(n_stages, n_channels);
  for (size_t s = 0; s < n_stages; s++) /* failures are kept, and reported by the schedule in order */
    nc_deps_pipeline_set_stage(p, s, domains[s], NULL);
  for (size_t j = 0; j < n_channels; j++)
    nc_deps_pipeline_set_channel(p, j, &channels[j], NULL);
  bool ok = nc_deps_pipeline_schedule(p, err);
  for (size_t j = 0; j < n_channels && ok; j++)
    ok = nc_deps_pipeline_channel_buffer(p, j, &buffers[j], err);
  nc_deps_pipeline_destroy(p);
  return ok;
}
