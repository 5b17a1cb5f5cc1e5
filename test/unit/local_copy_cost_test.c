/* local_copy_cost_test.c: a message between two tiles of one core costs the
 * same in the core passes' cost model (core_send_cycles, passes/core_util.c,
 * which core-colocate and core-replicate use) as in the northpole simulator
 * (np_noc_sender_cycles, targets/northpole/runtime/noc.c, with the local rate
 * the simulator sets: the chip's 8-bit MACs per cycle): a copy within the
 * core's SRAM to its own core, the port's ceil(bytes / link width) to
 * another core, over a range of message sizes.
 */
#include <string.h>

#include "../../passes/core_util.h"
#include "../../targets/northpole/runtime/np_noc.h"
#include "check.h"

int main(void)
{
  nc_chip_desc d;
  memset(&d, 0, sizeof d);
  d.rows = d.cols = 4;
  d.ops_per_cycle[8] = 2048, d.ops_per_cycle[4] = 4096; /* 1024 MACs per cycle at 8 bits, as NorthPole */
  d.link_bytes_per_cycle = 32, d.hop_latency_cycles = 1, d.sram_bytes = 1 << 20;
  np_noc n;
  np_noc_init(&n, 4, 4, 32, 1);
  np_noc_set_local_rate(&n, (uint32_t)nc_chip_desc_macs_per_cycle(&d, 8));
  int64_t here[] = {1, 2}, there[] = {2, 2};
  for (int64_t bytes = 1; bytes <= 100000; bytes = bytes * 3 + 1) {
    CHECK(core_send_cycles(&d, 1, 2, 1, 2, bytes) == (double)np_noc_sender_cycles(&n, 1, 2, here, 1, (uint64_t)bytes),
          "own core, %lld bytes", (long long)bytes);
    CHECK(core_send_cycles(&d, 1, 2, 2, 2, bytes) == (double)np_noc_sender_cycles(&n, 1, 2, there, 1, (uint64_t)bytes),
          "another core, %lld bytes", (long long)bytes);
  }
  /* 3584 bytes (a 56-wide row of 64 channels): 4 cycles' copy against 112 on the port */
  CHECK(core_send_cycles(&d, 1, 2, 1, 2, 3584) == 4 && core_send_cycles(&d, 1, 2, 2, 2, 3584) == 112, "see above");
  /* the host (NC_CORE_HOST) is never the sender's own core */
  CHECK(core_send_cycles(&d, 1, 2, NC_CORE_HOST, NC_CORE_HOST, 64) == 2, "see above");
  np_noc_destroy(&n);
  return failures ? 1 : 0;
}
