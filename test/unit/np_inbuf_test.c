/* np_inbuf_test.c: the NorthPole simulator's run-at-a-time bookkeeping
 * (targets/northpole/runtime/np_bits.h, inbuf.c) against element-by-element
 * references: bit ranges set, cleared, counted and checked like byte arrays
 * (ranges across word edges); the release runs list each read element under
 * its last reader once (runs shorter and longer than the 16 elements it
 * compares at a time); arrivals and releases count the buffer's live
 * elements as a per-element walk does (repeated arrivals, unread elements);
 * gather copies blocks in block order; np_all_bits names the first unset. */
#include <stdlib.h>
#include <string.h>

#include "../../targets/northpole/runtime/np_sim.h"
#include "check.h"

#define N 300

static uint64_t rng = 88172645463325252u;
static int64_t next(int64_t n)
{
  rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
  return (int64_t)(rng % (uint64_t)n);
}

static void bits_against_bytes(void)
{
  uint64_t bits[(N + 63) / 64] = {0};
  uint8_t ref[N] = {0};
  for (int round = 0; round < 2000; round++) {
    int64_t s = next(N), len = next(N - s + 1), op = next(5);
    int64_t want = 0, want_all = 1;
    for (int64_t e = s; e < s + len; e++)
      want += ref[e], want_all &= ref[e];
    CHECK(np_bits_count(bits, s, len) == want, "count [%lld, +%lld)", (long long)s, (long long)len);
    CHECK(np_bits_all(bits, s, len) == (bool)want_all, "all [%lld, +%lld)", (long long)s, (long long)len);
    CHECK(np_bits_none(bits, s, len) == (want == 0), "none [%lld, +%lld)", (long long)s, (long long)len);
    if (op < 2) {
      np_bits_set(bits, s, len);
      memset(ref + s, 1, (size_t)len);
    } else if (op < 4) {
      np_bits_clear(bits, s, len);
      memset(ref + s, 0, (size_t)len);
    }
  }
  for (int64_t e = 0; e < N; e++)
    CHECK(np_bit(bits, e) == (bool)ref[e], "bit %lld", (long long)e);
  uint64_t other[(N + 63) / 64] = {0};
  np_bits_set(other, 5, 200);
  int64_t want = 0;
  for (int64_t e = 0; e < N; e++)
    want += (e >= 5 && e < 205) && !ref[e];
  CHECK(np_bits_count_andnot(other, bits, 0, N) == want, "count_andnot");
}

static void buffer_against_elements(void)
{
  np_tile t;
  memset(&t, 0, sizeof t);
  t.n_operands = 1, t.n_iters = 6;
  t.in[0].elements = N;
  int32_t last[N];
  for (int64_t e = 0; e < N; e++) /* runs of one reader, gaps nobody reads */
    last[e] = e % 37 < 5 ? -1 : (int32_t)(e / 29 % 6);
  np_inbuf_plan(&t, 0, last);
  int64_t listed[N] = {0};
  for (uint32_t i = 0; i < t.n_iters; i++)
    for (int64_t j = t.release_off[0][i]; j < t.release_off[0][i + 1]; j++)
      for (int64_t e = t.release_runs[0][j].start; e < t.release_runs[0][j].start + t.release_runs[0][j].len; e++) {
        CHECK(last[e] == (int32_t)i, "element %lld released after iteration %u, last read by %d", (long long)e, i,
              last[e]);
        listed[e]++;
      }
  for (int64_t e = 0; e < N; e++) {
    CHECK(listed[e] == (last[e] >= 0), "element %lld listed %lld times", (long long)e, (long long)listed[e]);
    CHECK(np_bit(t.read[0], e) == (last[e] >= 0), "read bit of %lld", (long long)e);
  }
  int8_t data[N];
  uint8_t valid[N] = {0};
  int64_t live = 0;
  t.in_data[0] = calloc(N, 1);
  t.valid[0] = calloc((N + 63) / 64, sizeof(uint64_t));
  for (int round = 0; round < 300; round++) {
    int64_t s = next(N), len = next(N - s + 1);
    for (int64_t j = 0; j < len; j++)
      data[j] = (int8_t)next(256);
    np_inbuf_arrive(&t, 0, s, data, len);
    for (int64_t e = s; e < s + len; e++) {
      live += !valid[e] && last[e] >= 0;
      valid[e] = 1;
      CHECK(t.in_data[0][e] == data[e - s], "data of %lld", (long long)e);
    }
    CHECK(t.live[0] == live, "live %lld after an arrival, want %lld", (long long)t.live[0], (long long)live);
    int64_t i = next(6);
    np_inbuf_release(&t, 0, i);
    for (int64_t e = 0; e < N; e++)
      if (last[e] == i && valid[e])
        valid[e] = 0, live--;
    CHECK(t.live[0] == live, "live %lld after a release, want %lld", (long long)t.live[0], (long long)live);
    for (int64_t e = 0; e < N; e++)
      CHECK(np_bit(t.valid[0], e) == (bool)valid[e], "arrived bit of %lld", (long long)e);
  }
  free(t.in_data[0]), free(t.valid[0]), free(t.read[0]), free(t.release_off[0]), free(t.release_runs[0]);
}

/* Runs longer than the 16 elements np_inbuf_plan compares at a time, one
 * ending at the last element, and unread stretches as long: each run listed
 * once, whole, under its reader. */
static void plan_long_runs(void)
{
  np_tile t;
  memset(&t, 0, sizeof t);
  t.n_operands = 1, t.n_iters = 4;
  t.in[0].elements = N;
  int32_t last[N];
  for (int64_t e = 0; e < N; e++)
    last[e] = e < 40 ? 2 : e < 57 ? -1 : e < 90 ? 0 : e < 91 ? 3 : e < 170 ? -1 : e < 186 ? 2 : 1;
  np_inbuf_plan(&t, 0, last);
  static const int32_t want_start[] = {57, 186, 0, 170, 90}; /* by iteration: 0, 1, 2, 2, 3 */
  static const int32_t want_len[] = {33, N - 186, 40, 16, 1};
  CHECK(t.release_off[0][4] == 5, "%lld runs, want 5", (long long)t.release_off[0][4]);
  for (int j = 0; j < 5 && t.release_off[0][4] == 5; j++)
    CHECK(t.release_runs[0][j].start == want_start[j] && t.release_runs[0][j].len == want_len[j],
          "run %d is [%d, +%d), want [%d, +%d)", j, t.release_runs[0][j].start, t.release_runs[0][j].len,
          want_start[j], want_len[j]);
  for (int64_t e = 0; e < N; e++)
    CHECK(np_bit(t.read[0], e) == (last[e] >= 0), "read bit of %lld", (long long)e);
  free(t.read[0]), free(t.release_off[0]), free(t.release_runs[0]);
}

static void gather_and_all_set(void)
{
  np_block blocks[2] = {{10, 3, 20, 3}, {2, 2, 0, 1}}; /* 10..12, 30..32, 50..52, then 2..3 */
  np_iter it = {0, 0, 2, blocks, 11};
  int8_t from[64], to[16];
  for (int i = 0; i < 64; i++)
    from[i] = (int8_t)i;
  CHECK(np_gather(&it, from, to) == 11, "gathered count");
  static const int8_t want[11] = {10, 11, 12, 30, 31, 32, 50, 51, 52, 2, 3};
  CHECK(!memcmp(to, want, sizeof want), "gathered in block order");
  uint64_t flags[2];
  memset(flags, 0xFF, sizeof flags);
  int64_t unset = -1;
  CHECK(np_all_bits(&it, flags, &unset), "all set");
  flags[0] &= ~(UINT64_C(1) << 51 | UINT64_C(1) << 3);
  CHECK(!np_all_bits(&it, flags, &unset) && unset == 51, "first unset %lld, want 51", (long long)unset);
  flags[0] |= UINT64_C(1) << 51;
  CHECK(!np_all_bits(&it, flags, &unset) && unset == 3, "first unset %lld, want 3", (long long)unset);
  np_bit_set(flags, 3);
  CHECK(np_all_bits(&it, flags, &unset), "all set again");
  /* a block across a word boundary */
  np_block across = {60, 8, 0, 1};
  np_iter it2 = {0, 0, 1, &across, 8};
  flags[1] &= ~(UINT64_C(1) << 2); /* element 66 */
  CHECK(!np_all_bits(&it2, flags, &unset) && unset == 66, "first unset %lld, want 66", (long long)unset);
  np_clear_bits(&it, flags);
  CHECK(!np_bit(flags, 31) && !np_bit(flags, 2) && np_bit(flags, 13) && np_bit(flags, 64), "cleared the blocks only");
  np_clear_bits(&it2, flags);
  CHECK(!np_bit(flags, 60) && !np_bit(flags, 67) && np_bit(flags, 59) && np_bit(flags, 68), "cleared across words");
}

int main(void)
{
  bits_against_bytes();
  buffer_against_elements();
  plan_long_runs();
  gather_and_all_set();
  return failures != 0;
}
