/* stats.c: test-stats-pass, counts the ops it sees into two statistics (as
 * MLIR's test pass does; declared out of order to test that reports sort
 * them): for testing --mlir-pass-statistics, also across threads. */
#include "nc/ir/pass.h"

static nc_walk_result count(nc_op *op, void *user)
{
  (void)op;
  ++*(uint64_t *)user;
  return NC_WALK_ADVANCE;
}

static bool run(nc_pass *pass, nc_op *op)
{
  uint64_t n = 0;
  nc_op_walk(op, NC_WALK_PRE_ORDER, count, &n);
  nc_pass_stat_add(pass, 0, n);
  nc_pass_stat_add(pass, 1, n);
  return true;
}

static const nc_pass_stat_def stats[] = {
  {"num-ops2", "Number of operations counted one more time"},
  {"num-ops", "Number of operations counted"},
};

const nc_pass_def nc_test_stats_pass = {
  .argument = "test-stats-pass",
  .name = "TestStatisticPass",
  .group = "Test",
  .summary = "Test pass statistics",
  .description = "Counts the ops nested in the op (and the op) into the statistics num-ops and num-ops2.",
  .stats = stats, .n_stats = 2,
  .run = run,
};
