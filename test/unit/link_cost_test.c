/* link_cost_test.c: balance-minmax's receiving cost (core_link_recv_cycles,
 * passes/core_link_cost.c): one link takes every byte when max_links <= 1
 * or a single tile sends; otherwise the bytes spread over as many links as
 * tiles send (max_links at most), but one producer's bytes over no more
 * links than it has tiles (its messages follow one XY route per tile).
 */
#include "../../passes/core_link_cost.h"
#include "check.h"

int main(void)
{
  core_link_source one[] = {{3200, 1}}, wide[] = {{6400, 12}}, two[] = {{3200, 1}, {3200, 1}},
                   skew[] = {{6400, 1}, {640, 4}}, many[] = {{3200, 8}, {3200, 8}, {0, 5}};
  /* the old margin: every byte over one link, whatever sends them */
  CHECK(core_link_recv_cycles(many, 3, 32, 1) == 200, "one link: 6400 bytes at 32 a cycle");
  CHECK(core_link_recv_cycles(wide, 1, 32, 0) == 200, "0 is one link too");
  /* one sending tile: one route, one link */
  CHECK(core_link_recv_cycles(one, 1, 32, 4) == 100, "one tile");
  /* a producer in 12 tiles: over the four links */
  CHECK(core_link_recv_cycles(wide, 1, 32, 4) == 50, "12 tiles, 4 links");
  CHECK(core_link_recv_cycles(wide, 1, 32, 2) == 100, "12 tiles, 2 links");
  /* two one-tile producers: two links */
  CHECK(core_link_recv_cycles(two, 2, 32, 4) == 100, "two tiles, two links");
  /* link contention: a one-tile producer's 6400 bytes enter over one link,
   * however many tiles the other producer sends from (7040 / 4 would be 55) */
  CHECK(core_link_recv_cycles(skew, 2, 32, 4) == 200, "one producer's bytes over one link");
  /* producers sending nothing count no tiles; 16 tiles over four links */
  CHECK(core_link_recv_cycles(many, 3, 32, 4) == 50, "6400 bytes over four links");
  /* no width: 1 byte a cycle */
  CHECK(core_link_recv_cycles(one, 1, 0, 4) == 3200, "bw 0");
  CHECK(core_link_recv_cycles(many, 0, 32, 4) == 0, "no producer");
  return failures ? 1 : 0;
}
