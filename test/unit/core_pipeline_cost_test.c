/* core_pipeline_cost_test.c: the pipeline cost model core-place balances
 * with and graph-quantize{mixed} estimates throughput with
 * (passes/core_pipeline_cost.c), on hand-made stages: the balanced result is
 * the slowest stage's cycles, never slower than unbalanced, within the cores
 * and each stage's limit, and the heavy stage gets the most slices;
 * core_pipeline_balance_ties goes on where two equally slow stages stop it.
 */
#include <stdio.h>
#include <string.h>

#include "../../passes/core_pipeline_cost.h"
#include "check.h"

enum { N = 3 };

/* host -> a (light) -> b (heavy, 4x a's work) -> host */
static void make(core_stage st[N], int64_t consumers[N * N])
{
  memset(st, 0, N * sizeof *st);
  memset(consumers, 0, N * N * sizeof *consumers);
  for (int i = 0; i < N; i++)
    st[i] = (core_stage){.work = 100000, .out_bytes = 256, .k = 1, .limit = 64, .steps = 8};
  st[0].host_bytes = 64, st[0].host_steps = 8;
  st[1].work = 4 * st[0].work;
  st[2].send_to_host = 1;
  consumers[0 * N + 1] = consumers[1 * N + 2] = 1;
}

int main(void)
{
  core_stage st[N];
  int64_t consumers[N * N];
  double rate = 1024, bw = 32;
  size_t which;

  make(st, consumers);
  double before = core_pipeline_slowest(st, consumers, N, rate, bw, &which);
  CHECK(which == 1, "the heavy stage is the slowest unbalanced (got %zu)", which);
  double after = core_pipeline_balance(st, consumers, N, 64, 1, rate, bw);
  CHECK(after < before, "balancing over spare cores helps: %g -> %g", before, after);
  double again = core_pipeline_slowest(st, consumers, N, rate, bw, &which);
  CHECK(after == again, "the result is the slowest stage after balancing: %g vs %g", after, again);
  for (size_t i = 0; i < N; i++)
    CHECK(core_pipeline_stage_cycles(st, consumers, N, i, rate, bw) <= after, "stage %zu above the slowest", i);
  int64_t used = 0;
  for (int i = 0; i < N; i++) {
    used += st[i].k;
    CHECK(st[i].k >= 1 && st[i].k <= st[i].limit, "stage %d has %lld slices", i, (long long)st[i].k);
  }
  CHECK(used <= 64, "at most the cores: %lld", (long long)used);
  CHECK(st[1].k > st[0].k && st[1].k > st[2].k, "the heavy stage gets the most slices (%lld %lld %lld)",
        (long long)st[0].k, (long long)st[1].k, (long long)st[2].k);

  /* no spare core: nothing changes */
  make(st, consumers);
  double fixed = core_pipeline_balance(st, consumers, N, N, 1, rate, bw);
  CHECK(fixed == before && st[0].k == 1 && st[1].k == 1 && st[2].k == 1, "no spare core, no split (%g)", fixed);

  /* the heavy stage at a width twice as fast (work halved, as a 4-bit layer
   * counts in 8-bit cycles): the balanced pipeline is no slower */
  make(st, consumers);
  st[1].work /= 2;
  double narrow = core_pipeline_balance(st, consumers, N, 64, 16, rate, bw);
  make(st, consumers);
  double wide = core_pipeline_balance(st, consumers, N, 64, 16, rate, bw);
  CHECK(narrow <= wide, "a narrower heavy stage is no slower: %g vs %g", narrow, wide);

  /* a tie: b and c do the same work; splitting one leaves the other as slow,
   * so the plain balancing (one slice a round) stops at once, and the
   * balancing through ties splits both and ends faster */
  core_stage t[N + 1];
  int64_t tc[(N + 1) * (N + 1)];
  memset(t, 0, sizeof t);
  memset(tc, 0, sizeof tc);
  for (int i = 0; i <= N; i++)
    t[i] = (core_stage){.work = 1000, .out_bytes = 32, .k = 1, .limit = 64, .steps = 1};
  t[1].work = t[2].work = 400000;
  t[0].host_bytes = 32, t[0].host_steps = 1;
  t[N].send_to_host = 1;
  tc[0 * (N + 1) + 1] = tc[1 * (N + 1) + 2] = tc[2 * (N + 1) + 3] = 1;
  double tied = core_pipeline_slowest(t, tc, N + 1, rate, bw, &which);
  double plain = core_pipeline_balance(t, tc, N + 1, 16, 1, rate, bw);
  CHECK(plain == tied && t[1].k == 1 && t[2].k == 1, "plain balancing stops at the tie (%g, k %lld %lld)", plain,
        (long long)t[1].k, (long long)t[2].k);
  double broken = core_pipeline_balance_ties(t, tc, N + 1, 16, 1, rate, bw);
  CHECK(broken < tied, "balancing through ties gets faster: %g -> %g", tied, broken);
  CHECK(t[1].k > 1 && t[2].k > 1, "both tied stages are split (%lld %lld)", (long long)t[1].k, (long long)t[2].k);
  used = 0;
  for (int i = 0; i <= N; i++)
    used += t[i].k;
  CHECK(used <= 16, "at most the cores: %lld", (long long)used);
  return failures ? 1 : 0;
}
