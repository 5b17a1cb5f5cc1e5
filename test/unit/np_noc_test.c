/* np_noc_test.c: the NorthPole simulator's network model
 * (targets/northpole/runtime/noc.c): XY route hop counts and links, two
 * flows sharing a link serialise in issue order, disjoint flows and the
 * two networks do not interfere, runs repeat exactly after a reset, a
 * message issued late back-fills an idle gap that fits (and only one that
 * fits), on every link of its route and of a multicast tree, and
 * np_noc_advance keeps a long run's intervals few without changing times;
 * a message to the sender's own core costs a local copy, not the port. */
#include "../../targets/northpole/runtime/np_noc.h"
#include "check.h"

int main(void)
{
  np_noc n;
  np_noc_init(&n, 4, 4, 32, 1); /* 4x4 mesh, 32 bytes/cycle, 1 cycle/hop */

  /* hop counts; a free route: last byte leaves after 64/32 = 2 cycles, plus 4 hops */
  CHECK(np_noc_hops(0, 0, 3, 1) == 4, "see the comment above");
  CHECK(np_noc_hops(3, 2, 1, 0) == 4, "see the comment above");
  CHECK(np_noc_send(&n, NP_NET_ACTIVATION, 0, 0, 3, 1, 10, 64) == 16, "see the comment above");
  /* the XY route: along x first (east links of (0..2, 0)), then south from (3, 0) */
  for (uint32_t x = 0; x < 3; x++)
    CHECK(n.bytes[np_noc_link(&n, NP_NET_ACTIVATION, x, 0, NP_DIR_EAST)] == 64, "see the comment above");
  CHECK(n.bytes[np_noc_link(&n, NP_NET_ACTIVATION, 3, 0, NP_DIR_SOUTH)] == 64, "see the comment above");
  CHECK(n.bytes[np_noc_link(&n, NP_NET_ACTIVATION, 0, 0, NP_DIR_SOUTH)] == 0, "see the comment above");
  CHECK(n.busy[np_noc_link(&n, NP_NET_ACTIVATION, 1, 0, NP_DIR_EAST)] == 2, "see the comment above");
  /* same core: no link, the serialisation only */
  CHECK(np_noc_send(&n, NP_NET_ACTIVATION, 2, 2, 2, 2, 5, 33) == 7, "see the comment above");

  /* two flows sharing the link (1, 1) -> (2, 1), both leaving at cycle 0 with
   * 320 bytes (10 cycles per link): the second waits for the first */
  np_noc_reset(&n);
  uint64_t a = np_noc_send(&n, NP_NET_ACTIVATION, 0, 1, 2, 1, 0, 320); /* (0,1)->(1,1)->(2,1) */
  uint64_t b = np_noc_send(&n, NP_NET_ACTIVATION, 1, 1, 3, 1, 0, 320); /* (1,1)->(2,1)->(3,1) */
  CHECK(a == 12, "see the comment above");                          /* free: 2 hops + 10 */
  CHECK(b == 11 + 2 + 10, "see the comment above"); /* link (1,1)->(2,1) is the first's from cycle 1 to 11 */
  CHECK(n.busy[np_noc_link(&n, NP_NET_ACTIVATION, 1, 1, NP_DIR_EAST)] == 20, "see the comment above");
  /* the same in the other issue order: the other flow waits (fixed by issue order) */
  np_noc_reset(&n);
  uint64_t b2 = np_noc_send(&n, NP_NET_ACTIVATION, 1, 1, 3, 1, 0, 320);
  uint64_t a2 = np_noc_send(&n, NP_NET_ACTIVATION, 0, 1, 2, 1, 0, 320);
  CHECK(b2 == 12, "see the comment above");
  CHECK(a2 == 10 + 1 + 10, "see the comment above");
  /* reproducible: the same sends after a reset give the same times */
  np_noc_reset(&n);
  CHECK(np_noc_send(&n, NP_NET_ACTIVATION, 0, 1, 2, 1, 0, 320) == a, "see the comment above");
  CHECK(np_noc_send(&n, NP_NET_ACTIVATION, 1, 1, 3, 1, 0, 320) == b, "see the comment above");

  /* disjoint flows: two rows, and opposite directions of one link pair */
  np_noc_reset(&n);
  CHECK(np_noc_send(&n, NP_NET_ACTIVATION, 0, 0, 3, 0, 0, 320) == 13, "see the comment above");
  CHECK(np_noc_send(&n, NP_NET_ACTIVATION, 0, 3, 3, 3, 0, 320) == 13, "see the comment above");
  CHECK(np_noc_send(&n, NP_NET_ACTIVATION, 3, 0, 0, 0, 0, 320) == 13, "see the comment above");

  /* the partial-sum network has its own links: the same route at once is not delayed */
  np_noc_reset(&n);
  CHECK(np_noc_send(&n, NP_NET_ACTIVATION, 0, 2, 3, 2, 0, 320) == 13, "see the comment above");
  CHECK(np_noc_send(&n, NP_NET_PARTIAL_SUM, 0, 2, 3, 2, 0, 320) == 13, "see the comment above");
  CHECK(np_noc_send(&n, NP_NET_PARTIAL_SUM, 0, 2, 3, 2, 0, 320) == 23, "see the comment above"); /* but shares with itself */
  CHECK(n.bytes[np_noc_link(&n, NP_NET_PARTIAL_SUM, 1, 2, NP_DIR_EAST)] == 640, "see the comment above");
  CHECK(n.bytes[np_noc_link(&n, NP_NET_ACTIVATION, 1, 2, NP_DIR_EAST)] == 320, "see the comment above");

  /* back-filling: a message reaching link (0, 3) -> (1, 3) at cycle 20 holds it 20..30; one issued after it
   * but ready at 0 takes the idle gap 0..10 (it arrives at 11, not at 41 behind the first) */
  np_noc_reset(&n);
  uint64_t l03 = np_noc_link(&n, NP_NET_ACTIVATION, 0, 3, NP_DIR_EAST);
  CHECK(np_noc_send(&n, NP_NET_ACTIVATION, 0, 3, 1, 3, 20, 320) == 31, "see the comment above");
  CHECK(np_noc_send(&n, NP_NET_ACTIVATION, 0, 3, 1, 3, 0, 320) == 11, "see the comment above");
  CHECK(n.links[l03].hi - n.links[l03].lo == 2, "see the comment above"); /* 0..10 and 20..30 */
  /* overlapping transfers still serialise: ready at 12, 10 cycles would overlap 20..30, so after it (30..40) */
  CHECK(np_noc_send(&n, NP_NET_ACTIVATION, 0, 3, 1, 3, 12, 320) == 41, "see the comment above");
  /* a gap too short is skipped: ready at 15, 10 cycles do not fit in 10..20, so after 20..40 (40..50) */
  CHECK(np_noc_send(&n, NP_NET_ACTIVATION, 0, 3, 1, 3, 15, 320) == 51, "see the comment above");
  /* one that fits exactly is taken and merges: 10..20 joins 0..10 and 20..50 into one busy interval */
  CHECK(np_noc_send(&n, NP_NET_ACTIVATION, 0, 3, 1, 3, 10, 320) == 21, "see the comment above");
  CHECK(n.links[l03].hi - n.links[l03].lo == 1, "see the comment above");
  CHECK(n.links[l03].iv[2 * n.links[l03].lo] == 0 && n.links[l03].iv[2 * n.links[l03].lo + 1] == 50,
        "see the comment above");
  CHECK(np_noc_send(&n, NP_NET_ACTIVATION, 0, 3, 1, 3, 5, 32) == 51 + 1, "see the comment above"); /* 50..51 */
  CHECK(n.busy[l03] == 51, "see the comment above");

  /* along the route: link (1, 2) -> (2, 2) is busy 3..13; a message from (0, 2) at 0 crosses (0, 2) -> (1, 2)
   * at 0..2 and reaches the busy link at 1, where 2 cycles fit (1..3), then (2, 2) -> (3, 2) at 2..4: 4 + 1 */
  np_noc_reset(&n);
  CHECK(np_noc_send(&n, NP_NET_ACTIVATION, 1, 2, 2, 2, 3, 320) == 14, "see the comment above");
  CHECK(np_noc_send(&n, NP_NET_ACTIVATION, 0, 2, 3, 2, 0, 64) == 5, "see the comment above");
  /* 3 cycles (96 bytes) do not fit before 3: the head waits there until 13, the last link follows at 14..17 */
  CHECK(np_noc_send(&n, NP_NET_ACTIVATION, 0, 2, 3, 2, 0, 96) == 18, "see the comment above");

  /* a multicast back-fills too: (0, 0) -> (1, 0) busy 10..20; a multicast ready at 0 to (1, 0) and (1, 1)
   * shares that link (0..2, once) and continues south from (1, 0) at 1..3 */
  np_noc_reset(&n);
  CHECK(np_noc_send(&n, NP_NET_ACTIVATION, 0, 0, 1, 0, 10, 320) == 21, "see the comment above");
  int64_t dxy[] = {1, 0, 1, 1};
  uint64_t arrival[2];
  np_noc_multicast(&n, NP_NET_ACTIVATION, 0, 0, dxy, 2, 0, 64, arrival);
  CHECK(arrival[0] == 3 && arrival[1] == 4, "see the comment above");
  CHECK(n.busy[np_noc_link(&n, NP_NET_ACTIVATION, 0, 0, NP_DIR_EAST)] == 12, "see the comment above");

  /* np_noc_advance: a long run in time order keeps a link's intervals few (the past is dropped) and gives
   * the same times as without it; a send before the horizon waits until it */
  np_noc noc2;
  np_noc_init(&noc2, 4, 4, 32, 1);
  np_noc_reset(&n);
  uint64_t l10 = np_noc_link(&n, NP_NET_ACTIVATION, 1, 0, NP_DIR_EAST), same = 0;
  for (uint64_t k = 0; k < 10000; k++) {
    np_noc_advance(&n, 3 * k);
    same += np_noc_send(&n, NP_NET_ACTIVATION, 1, 0, 2, 0, 3 * k, 64) ==
            np_noc_send(&noc2, NP_NET_ACTIVATION, 1, 0, 2, 0, 3 * k, 64);
  }
  CHECK(same == 10000, "see the comment above");
  CHECK(n.links[l10].cap <= 8 && noc2.links[l10].hi - noc2.links[l10].lo == 10000, "see the comment above");
  CHECK(np_noc_send(&n, NP_NET_ACTIVATION, 0, 1, 1, 1, 0, 32) == 3 * 9999 + 1 + 1, "see the comment above");
  np_noc_destroy(&noc2);

  /* a core outside the mesh costs hops only and reserves nothing */
  np_noc_reset(&n);
  CHECK(np_noc_send(&n, NP_NET_ACTIVATION, 0, 0, 9, 0, 0, 32) == 10, "see the comment above");

  /* a message to the sender's own core (tiles sharing it) is a local copy: at the link width until a local
   * rate is set, then at that rate (1024 bytes per cycle: 3000 bytes in 3 cycles, not 94); the sender is
   * busy the copy's cycles, the port's (another core, or the host outside the mesh), or the longer of the
   * two for a multicast with members on both */
  CHECK(np_noc_local_cycles(&n, 3000) == 94, "see the comment above");
  np_noc_set_local_rate(&n, 1024);
  CHECK(np_noc_local_cycles(&n, 3000) == 3 && np_noc_local_cycles(&n, 1) == 1, "see the comment above");
  int64_t here[] = {2, 2}, there[] = {3, 2}, both[] = {3, 2, 2, 2}, host[] = {-1, -1};
  CHECK(np_noc_sender_cycles(&n, 2, 2, here, 1, 3000) == 3, "see the comment above");
  CHECK(np_noc_sender_cycles(&n, 2, 2, there, 1, 3000) == 94, "see the comment above");
  CHECK(np_noc_sender_cycles(&n, 2, 2, both, 2, 3000) == 94, "see the comment above");
  CHECK(np_noc_sender_cycles(&n, 2, 2, both, 2, 32) == 1, "see the comment above");
  CHECK(np_noc_sender_cycles(&n, 0, 0, host, 1, 64) == 2, "see the comment above");
  np_noc_set_local_rate(&n, 8); /* an SRAM slower than the link: the copy is the longer */
  CHECK(np_noc_sender_cycles(&n, 2, 2, both, 2, 64) == 8, "see the comment above");
  np_noc_destroy(&n);
  return failures ? 1 : 0;
}
