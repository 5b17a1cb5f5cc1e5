/* np_noc_test.c: the NorthPole simulator's network model
 * (targets/northpole/runtime/noc.c): XY route hop counts and links, two
 * flows sharing a link serialise in issue order, disjoint flows and the
 * two networks do not interfere, and runs repeat exactly after a reset. */
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

  /* a core outside the mesh costs hops only and reserves nothing */
  np_noc_reset(&n);
  CHECK(np_noc_send(&n, NP_NET_ACTIVATION, 0, 0, 9, 0, 0, 32) == 10, "see the comment above");
  np_noc_destroy(&n);
  return failures ? 1 : 0;
}
