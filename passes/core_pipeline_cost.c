/* core_pipeline_cost.c: the pipeline cost model of core-place's balancing
 * (core_pipeline_cost.h), apart from the IR: a stage's cycles per frame are
 * its share of the work at the MAC rate plus its sends, or the messages it
 * receives, whichever is longer; the pipeline is as fast as its slowest
 * stage. core-place fills the stages from dataflow nodes, graph-quantize's
 * mixed precision from graph ops, and both balance them here.
 */
#include <stdlib.h>

#include "core_pipeline_cost.h"
#include "core_util.h"

/* Links a core's incoming messages share, on average, in the cost model
 * (a core has four; XY routes from a cluster of producers use one or two). */
#define RECV_LINKS 2.0

/* Cycles per frame of node i's tiles (core_pipeline_cost.h): its share of the work at the MAC
 * rate plus sending its share of the output once to every tile of every
 * consumer (the simulator sends to each destination in turn), one message
 * per iteration, each holding the port ceil(bytes / link width) cycles. */
double core_pipeline_stage_cycles(const core_stage *st, const int64_t *consumers, size_t n, size_t i, double rate, double bw)
{
  double dests = st[i].send_to_host;
  for (size_t j = 0; j < n; j++)
    dests += (double)consumers[i * n + j] * (double)(st[i].multicast ? 1 : st[j].k);
  if (st[i].multicast && dests > st[i].send_to_host + 1)
    dests = st[i].send_to_host + 1; /* one multicast to every consumer tile */
  double busy = (double)st[i].work / rate / (double)st[i].k +
                core_message_cycles((double)st[i].out_bytes / (double)st[i].k, st[i].steps, bw) * dests;
  /* every tile receives every message of every producer tile (and of the
   * host), over the links into its core: many small slices upstream flood it */
  double in = core_message_cycles((double)st[i].host_bytes, st[i].host_steps, bw);
  for (size_t p = 0; p < n; p++)
    if (consumers[p * n + i])
      in += core_message_cycles((double)st[p].out_bytes / (double)st[p].k, st[p].steps, bw) * (double)st[p].k;
  in /= RECV_LINKS;
  return busy > in ? busy : in;
}

/* Cycles per frame of the host's input link: every input step goes to
 * every tile that reads it, one after the other. */
static double host_cycles(const core_stage *st, size_t n, double bw)
{
  double c = 0;
  for (size_t i = 0; i < n; i++)
    c += core_message_cycles((double)st[i].host_bytes, st[i].host_steps, bw) * (double)(st[i].multicast ? 1 : st[i].k);
  return c;
}

double core_pipeline_slowest(const core_stage *st, const int64_t *consumers, size_t n, double rate, double bw,
                             size_t *which)
{
  double most = host_cycles(st, n, bw);
  *which = n;
  for (size_t i = 0; i < n; i++) {
    double c = core_pipeline_stage_cycles(st, consumers, n, i, rate, bw);
    if (c > most)
      most = c, *which = i;
  }
  return most;
}

/* Stages (the host's link included) whose cycles per frame reach `level`
 * (within rounding): how many share the slowest stage's time. */
static size_t stages_at(const core_stage *st, const int64_t *consumers, size_t n, double rate, double bw, double level)
{
  double floor = level * (1 - 1e-9);
  size_t count = host_cycles(st, n, bw) >= floor;
  for (size_t i = 0; i < n; i++)
    count += core_pipeline_stage_cycles(st, consumers, n, i, rate, bw) >= floor;
  return count;
}

static double balance(core_stage *st, const int64_t *consumers, size_t n, int64_t cores, int64_t lookahead,
                      double rate, double bw, bool ties)
{
  /* Each round splits the slowest stage once more; when that makes a
   * producer the slowest (it now sends to one more tile), the round goes on
   * splitting whichever stage is slowest, up to `lookahead` slices,
   * and is kept only if the slowest stage ends up faster than before it;
   * with `ties`, also if it is as fast with fewer stages that slow
   * (equally slow stages: each round takes one of them off the top). */
  size_t max_added = lookahead <= 1 ? 1 : lookahead < cores ? (size_t)lookahead : (size_t)(cores > 1 ? cores : 1);
  size_t *added = malloc(max_added * sizeof *added), best = 0;
  int64_t used = 0;
  for (size_t i = 0; i < n; i++)
    used += st[i].k;
  while (added && used < cores) {
    size_t n_added = 0;
    double before = core_pipeline_slowest(st, consumers, n, rate, bw, &best), now = before;
    size_t tied = ties ? stages_at(st, consumers, n, rate, bw, before) : 0;
    while (n_added < max_added && used + (int64_t)n_added < cores && best < n && st[best].k < st[best].limit) {
      st[best].k++, added[n_added++] = best;
      now = core_pipeline_slowest(st, consumers, n, rate, bw, &best);
      if (now < before)
        break;
    }
    bool tie_broken = ties && n_added && tied > 1 && now <= before && stages_at(st, consumers, n, rate, bw, before) < tied;
    if (now >= before && !tie_broken) { /* the slowest stage cannot get faster: undo the round */
      while (n_added)
        st[added[--n_added]].k--;
      break;
    }
    used += (int64_t)n_added;
  }
  free(added);
  return core_pipeline_slowest(st, consumers, n, rate, bw, &best);
}

double core_pipeline_balance(core_stage *st, const int64_t *consumers, size_t n, int64_t cores, int64_t lookahead,
                             double rate, double bw)
{
  return balance(st, consumers, n, cores, lookahead, rate, bw, false);
}

double core_pipeline_balance_ties(core_stage *st, const int64_t *consumers, size_t n, int64_t cores,
                                  int64_t lookahead, double rate, double bw)
{
  return balance(st, consumers, n, cores, lookahead, rate, bw, true);
}
