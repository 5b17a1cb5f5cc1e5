/* np_credit_test.c: the NorthPole simulator's host credits
 * (targets/northpole/runtime/host_credit.c): a buffer's bytes are free at
 * once; a write waits for the returns it needs and no longer (the earliest
 * cycle counts returns in time order, those before `now` at `now`); a write
 * larger than the buffer waits until all of it is free; an unlimited buffer
 * never waits; returns out of time order count from the latest; the storage
 * of many returns stays small when they are taken as they come. */
#include "../../targets/northpole/runtime/np_credit.h"
#include "check.h"

int main(void)
{
  np_credits c = {0};
  uint64_t at = 0;

  /* a 12-byte buffer (three 4-byte rows): three writes at once, the fourth waits */
  np_credits_reset(&c, 12);
  for (int i = 0; i < 3; i++) {
    CHECK(np_credits_when(&c, 5, 4, &at) && at == 5, "room for three rows at cycle 5");
    np_credits_take(&c, at, 4);
  }
  CHECK(!np_credits_when(&c, 5, 4, &at), "a fourth row waits for a return no tile has made yet");
  /* the tile frees a row at 9 and another at 11: the fourth row goes at 9 */
  np_credits_return(&c, 9, 4);
  np_credits_return(&c, 11, 4);
  CHECK(np_credits_when(&c, 5, 4, &at) && at == 9, "the first return is enough");
  CHECK(np_credits_when(&c, 5, 8, &at) && at == 11, "two rows need both returns");
  CHECK(np_credits_when(&c, 10, 4, &at) && at == 10, "a return before `now` is there at `now`");
  np_credits_take(&c, 9, 4);
  CHECK(c.available == 0, "the return at 9 went into the write at 9, the one at 11 is still on its way");
  CHECK(!np_credits_when(&c, 9, 8, &at), "8 bytes: only 4 come back");
  CHECK(np_credits_when(&c, 9, 4, &at) && at == 11, "the other row's return");
  np_credits_take(&c, 11, 4);
  CHECK(c.available == 0 && c.lo == c.hi, "every return taken");

  /* a write larger than the buffer waits until it is all free, then takes it */
  np_credits_reset(&c, 12);
  np_credits_take(&c, 0, 4);
  CHECK(!np_credits_when(&c, 0, 20, &at), "20 bytes into 12: wait for the whole buffer");
  np_credits_return(&c, 3, 4);
  CHECK(np_credits_when(&c, 0, 20, &at) && at == 3, "the buffer is empty at 3");
  np_credits_take(&c, 3, 20);
  CHECK(c.available == -8, "the write overflows (the recv's size check reports it)");

  /* returns out of time order count from the latest; equal times merge */
  np_credits_reset(&c, 8);
  np_credits_take(&c, 0, 8);
  np_credits_return(&c, 20, 2);
  np_credits_return(&c, 15, 2); /* from 20 */
  np_credits_return(&c, 20, 2);
  CHECK(c.hi - c.lo == 1, "one return of 6 bytes at 20");
  CHECK(np_credits_when(&c, 0, 6, &at) && at == 20, "6 bytes at 20");

  /* no buffer declared: no flow control */
  np_credits_reset(&c, -1);
  np_credits_take(&c, 0, 1000);
  CHECK(np_credits_when(&c, 7, 1 << 20, &at) && at == 7, "an unlimited buffer never waits");
  np_credits_return(&c, 9, 5);
  CHECK(c.lo == c.hi, "and keeps no returns");

  /* a long stream of one row a cycle through a 2-row buffer: the storage stays small */
  np_credits_reset(&c, 2);
  for (uint64_t t = 0; t < 100000; t++) {
    CHECK(np_credits_when(&c, t, 1, &at) && at == t, "a row every cycle");
    np_credits_take(&c, at, 1);
    np_credits_return(&c, t + 1, 1);
  }
  CHECK(c.cap <= 8, "the returns' storage did not grow with the run");
  np_credits_destroy(&c);
  return failures != 0;
}
