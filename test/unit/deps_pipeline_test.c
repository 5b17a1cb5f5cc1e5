/* deps_pipeline_test.c: nc_deps_pipeline's steps give exactly what one
 * nc_deps_pipeline_buffers call gives.
 *
 * dataflow-deps runs the steps on threads (stages and channels in the isl
 * contexts of their chunks, the schedule in between), so the steps must not
 * depend on the order of the calls or on which context an object lives in,
 * and a failure must be the one the single call reports. Checked on a
 * residual block (a source, a 3x3 conv, an add of the conv and the source,
 * a 1x1 conv after it): buffers from the single call in one context equal
 * the buffers from the steps with every channel in a context of its own,
 * called in reverse order and from two threads; a single-input stage's
 * buffer equals its single-channel buffer (nc_deps_compute), and the skip
 * connection holds more than that. Errors: a bad stage is reported before a
 * bad channel whatever the order of the calls, a step out of order fails
 * with a message, never a crash. A channel set as another with the same
 * analysis (nc_deps_pipeline_set_channel_as) gets the buffer its own
 * analysis gives. Returns non-zero on any failure.
 */
#include <inttypes.h>
#include <isl/ctx.h>
#include <isl/options.h>
#include <isl/set.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "nc/dialects/dataflow/deps.h"

#include "check.h"

enum { N_STAGES = 4, N_CHANNELS = 4 };

/* Stages: 0 the source (rows of a 4x6x6 image), 1 a 3x3 conv (pad 1), 2 the
 * add of 1 and 0, 3 a 1x1 conv of 2; all one iteration per row. */
static const char *const domains[N_STAGES] = {
  "{ P[y] : 0 <= y < 6 }", "{ P[y] : 0 <= y < 6 }", "{ P[y] : 0 <= y < 6 }", "{ P[y] : 0 <= y < 6 }",
};
static const char *const writes = "{ P[y] -> T[c, y, x] : 0 <= c < 4 and 0 <= x < 6 }";
/* channel j: producer, consumer, the consumer's read */
static const struct {
  size_t p, c;
  const char *read;
} channels[N_CHANNELS] = {
  {0, 1, "{ C[y] -> T[c, iy, x] : 0 <= y < 6 and 0 <= c < 4 and y - 1 <= iy <= y + 1 and 0 <= iy < 6 and "
         "0 <= x < 6 }"},
  {1, 2, "{ C[y] -> T[c, y, x] : 0 <= y < 6 and 0 <= c < 4 and 0 <= x < 6 }"},
  {0, 2, "{ C[y] -> T[c, y, x] : 0 <= y < 6 and 0 <= c < 4 and 0 <= x < 6 }"},
  {2, 3, "{ C[y] -> T[c, y, x] : 0 <= y < 6 and 0 <= c < 4 and 0 <= x < 6 }"},
};

static isl_ctx *new_ctx(void)
{
  isl_ctx *ctx = isl_ctx_alloc();
  isl_options_set_on_error(ctx, ISL_ON_ERROR_ABORT); /* the library must switch to continue itself */
  return ctx;
}

/* Channel j's analysis in `ctx` (nc_deps_compute: with its single-channel buffer). */
static nc_deps_channel *channel(isl_ctx *ctx, size_t j)
{
  const char *cdom = "{ C[y] : 0 <= y < 6 }";
  nc_deps_channel *ch = NULL;
  nc_deps_error err = {{0}};
  CHECK(nc_deps_compute_str(ctx, domains[channels[j].p], writes, cdom, channels[j].read, &ch, &err),
        "channel %zu: %s", j, err.message);
  return ch;
}

/* The pipeline's inputs in one context: the stages' domains, every
 * channel's analysis, and the single call's buffers for them. */
typedef struct inputs {
  isl_ctx *ctx;
  isl_set *doms[N_STAGES];
  nc_deps_channel *ch[N_CHANNELS];
  nc_deps_pipeline_channel pc[N_CHANNELS];
  int64_t want[N_CHANNELS];
} inputs;

static void inputs_init(inputs *in)
{
  nc_deps_error err = {{0}};
  in->ctx = new_ctx();
  for (size_t s = 0; s < N_STAGES; s++)
    in->doms[s] = isl_set_read_from_str(in->ctx, domains[s]);
  for (size_t j = 0; j < N_CHANNELS; j++) {
    in->ch[j] = channel(in->ctx, j);
    in->pc[j] = (nc_deps_pipeline_channel){in->ch[j], channels[j].p, channels[j].c};
    in->want[j] = 0;
  }
  CHECK(nc_deps_pipeline_buffers(N_STAGES, in->doms, N_CHANNELS, in->pc, in->want, &err), "single call: %s",
        err.message);
}

static void inputs_destroy(inputs *in)
{
  for (size_t s = 0; s < N_STAGES; s++)
    isl_set_free(in->doms[s]);
  for (size_t j = 0; j < N_CHANNELS; j++)
    nc_deps_channel_destroy(in->ch[j]);
  isl_ctx_free(in->ctx);
}

typedef struct half {
  nc_deps_pipeline *p;
  const nc_deps_pipeline_channel *pc;
  size_t first; /* this thread's channels: first, first + 2 */
  int step;     /* 0: set the channels, 1: their buffers */
  int64_t *buffers;
  bool ok;
} half;

static void *run_half(void *user)
{
  half *h = user;
  h->ok = true;
  for (size_t j = h->first + 2; j-- > h->first;)
    h->ok &= h->step == 0 ? nc_deps_pipeline_set_channel(h->p, j, &h->pc[j], NULL)
                          : nc_deps_pipeline_channel_buffer(h->p, j, &h->buffers[j], NULL);
  return NULL;
}

static void test_same_buffers(void)
{
  /* one call, one context */
  inputs in;
  inputs_init(&in);
  nc_deps_channel **one = in.ch;
  const int64_t *want = in.want;
  nc_deps_error err = {{0}};
  /* single-input stages buffer what their channel alone does; the skip
   * connection waits for the conv, so it holds more than its row */
  CHECK(want[0] == nc_deps_channel_get_buffer_size(one[0]), "conv's input: %" PRId64 " vs %" PRId64, want[0],
        nc_deps_channel_get_buffer_size(one[0]));
  CHECK(want[3] == nc_deps_channel_get_buffer_size(one[3]), "1x1 conv's input: %" PRId64 " vs %" PRId64,
        want[3], nc_deps_channel_get_buffer_size(one[3]));
  CHECK(want[2] > want[1] && want[1] > 0, "skip %" PRId64 " vs conv %" PRId64, want[2], want[1]);

  /* the steps: every channel and stage in a context of its own, in reverse
   * order, the channels and their buffers from two threads */
  isl_ctx *cctx[N_CHANNELS], *sctx[N_STAGES];
  nc_deps_channel *own[N_CHANNELS];
  nc_deps_pipeline_channel opc[N_CHANNELS];
  for (size_t j = 0; j < N_CHANNELS; j++) {
    cctx[j] = new_ctx();
    own[j] = channel(cctx[j], j);
    opc[j] = (nc_deps_pipeline_channel){own[j], channels[j].p, channels[j].c};
  }
  nc_deps_pipeline *p = nc_deps_pipeline_create(N_STAGES, N_CHANNELS);
  CHECK(!nc_deps_pipeline_schedule(p, &err) && strstr(err.message, "stage 0 is not set"), "early schedule: %s",
        err.message);
  for (size_t s = N_STAGES; s-- > 0;) {
    sctx[s] = new_ctx();
    isl_set *d = isl_set_read_from_str(sctx[s], domains[s]);
    CHECK(nc_deps_pipeline_set_stage(p, s, d, &err), "stage %zu: %s", s, err.message);
    isl_set_free(d);
  }
  int64_t got[N_CHANNELS] = {0};
  CHECK(!nc_deps_pipeline_channel_buffer(p, 0, &got[0], &err) && strstr(err.message, "scheduled"),
        "buffer before the schedule: %s", err.message);
  half h[2] = {{p, opc, 0, 0, got, false}, {p, opc, 2, 0, got, false}};
  for (int step = 0; step < 2; step++) {
    pthread_t t[2];
    for (int i = 0; i < 2; i++) {
      h[i].step = step;
      pthread_create(&t[i], NULL, run_half, &h[i]);
    }
    for (int i = 0; i < 2; i++) {
      pthread_join(t[i], NULL);
      CHECK(h[i].ok, "thread %d, step %d failed", i, step);
    }
    if (step == 0)
      CHECK(nc_deps_pipeline_schedule(p, &err), "schedule: %s", err.message);
  }
  for (size_t j = 0; j < N_CHANNELS; j++)
    CHECK(got[j] == want[j], "channel %zu: steps %" PRId64 ", one call %" PRId64, j, got[j], want[j]);
  CHECK(!nc_deps_pipeline_schedule(p, &err), "a second schedule must fail");
  nc_deps_pipeline_destroy(p);
  for (size_t j = 0; j < N_CHANNELS; j++) {
    nc_deps_channel_destroy(own[j]);
    isl_ctx_free(cctx[j]);
  }
  for (size_t s = 0; s < N_STAGES; s++)
    isl_ctx_free(sctx[s]);
  inputs_destroy(&in);
}

/* A stage and a channel fail: the schedule reports the stage, as the single
 * call does, though the channel was set first. */
static void test_error_order(void)
{
  isl_ctx *ctx = new_ctx();
  nc_deps_channel *ch[N_CHANNELS];
  nc_deps_pipeline_channel pc[N_CHANNELS];
  for (size_t j = 0; j < N_CHANNELS; j++) {
    ch[j] = channel(ctx, j);
    pc[j] = (nc_deps_pipeline_channel){ch[j], channels[j].p, channels[j].c};
  }
  pc[3].producer = 3; /* a channel from a stage to itself */
  isl_set *doms[N_STAGES];
  for (size_t s = 0; s < N_STAGES; s++)
    doms[s] = isl_set_read_from_str(ctx, s == 2 ? "{ P[y] : 0 <= y }" : domains[s]); /* stage 2 unbounded */
  int64_t buffers[N_CHANNELS];
  nc_deps_error one = {{0}}, steps = {{0}};
  CHECK(!nc_deps_pipeline_buffers(N_STAGES, doms, N_CHANNELS, pc, buffers, &one), "the single call must fail");
  CHECK(strstr(one.message, "unbounded") != NULL, "single call: %s", one.message);
  nc_deps_pipeline *p = nc_deps_pipeline_create(N_STAGES, N_CHANNELS);
  nc_deps_error e = {{0}};
  CHECK(!nc_deps_pipeline_set_channel(p, 3, &pc[3], &e) && strstr(e.message, "channel 3 must join"), "channel 3: %s",
        e.message);
  for (size_t s = N_STAGES; s-- > 0;)
    nc_deps_pipeline_set_stage(p, s, doms[s], NULL);
  for (size_t j = 0; j < 3; j++)
    nc_deps_pipeline_set_channel(p, j, &pc[j], NULL);
  CHECK(!nc_deps_pipeline_schedule(p, &steps) && !strcmp(steps.message, one.message), "steps: '%s', one call: '%s'",
        steps.message, one.message);
  CHECK(!nc_deps_pipeline_set_stage(p, 0, doms[0], &e) && strstr(e.message, "set twice"), "stage set twice: %s",
        e.message);
  nc_deps_pipeline_destroy(p);
  nc_deps_pipeline_destroy(NULL);
  for (size_t s = 0; s < N_STAGES; s++)
    isl_set_free(doms[s]);
  for (size_t j = 0; j < N_CHANNELS; j++)
    nc_deps_channel_destroy(ch[j]);
  isl_ctx_free(ctx);
}

/* nc_deps_pipeline_set_channel_as: channels 1 (conv -> add), 2 (source ->
 * add) and 3 (add -> 1x1 conv) read the same rows of producers with the
 * same domain and writes, so one analysis (channel 1's) serves all three;
 * set as channel 1, each gets its own buffer (the join's skip input holds
 * more than the others), equal to the single call's with three analyses.
 * A `like` not set yet (or the channel itself) falls back to enumerating. */
static void test_set_as(void)
{
  inputs in;
  inputs_init(&in);
  isl_set **doms = in.doms;
  nc_deps_channel **ch = in.ch;
  const nc_deps_pipeline_channel *pc = in.pc;
  const int64_t *want = in.want;
  int64_t got[N_CHANNELS] = {0};
  nc_deps_error err = {{0}};
  nc_deps_pipeline *p = nc_deps_pipeline_create(N_STAGES, N_CHANNELS);
  for (size_t s = 0; s < N_STAGES; s++)
    CHECK(nc_deps_pipeline_set_stage(p, s, doms[s], &err), "stage %zu: %s", s, err.message);
  nc_deps_pipeline_channel as1[N_CHANNELS] = {pc[0], pc[1], {ch[1], 0, 2}, {ch[1], 2, 3}};
  CHECK(nc_deps_pipeline_set_channel_as(p, 0, &as1[0], 3, &err), "channel 0 (like unset): %s", err.message);
  CHECK(nc_deps_pipeline_set_channel_as(p, 1, &as1[1], 1, &err), "channel 1 (like itself): %s", err.message);
  CHECK(nc_deps_pipeline_set_channel_as(p, 3, &as1[3], 1, &err), "channel 3: %s", err.message);
  CHECK(nc_deps_pipeline_set_channel_as(p, 2, &as1[2], 1, &err), "channel 2: %s", err.message);
  CHECK(nc_deps_pipeline_schedule(p, &err), "schedule: %s", err.message);
  for (size_t j = 0; j < N_CHANNELS; j++) {
    CHECK(nc_deps_pipeline_channel_buffer(p, j, &got[j], &err), "buffer %zu: %s", j, err.message);
    CHECK(got[j] == want[j], "channel %zu: set as channel 1 %" PRId64 ", own analyses %" PRId64, j, got[j], want[j]);
  }
  CHECK(got[2] > got[1] && got[1] > 0, "shared: skip %" PRId64 " vs conv %" PRId64, got[2], got[1]);
  nc_deps_pipeline_destroy(p);
  inputs_destroy(&in);
}

int main(void)
{
  test_same_buffers();
  test_set_as();
  test_error_order();
  printf("deps_pipeline_test: %d failures\n", failures);
  return failures ? 1 : 0;
}
