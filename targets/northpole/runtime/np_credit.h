/* np_credit.h: the host's credits for the input buffers it writes
 * (host_credit.c): flow control on the host's input link. */
#ifndef NC_TARGETS_NORTHPOLE_NP_CREDIT_H
#define NC_TARGETS_NORTHPOLE_NP_CREDIT_H

#include <stdbool.h>
#include <stdint.h>

/** A credit on its way back to the host: `bytes` free from cycle `at` on. */
typedef struct np_credit_return {
  uint64_t at;
  int64_t bytes;
} np_credit_return;

/** The host's credits for one input buffer of one tile: the bytes it may
 * still write there. capacity -1: the tile declares no buffer, no flow
 * control. */
typedef struct np_credits {
  int64_t capacity;
  int64_t available;        /* free now, the returns before ret[lo] included */
  np_credit_return *ret;    /* returns not yet counted, ret[lo .. hi) in time order */
  uint32_t lo, hi, cap;
} np_credits;

/** Gives the host a buffer of `capacity` bytes (-1: unlimited), all free,
 * none on the way back. */
void np_credits_reset(np_credits *c, int64_t capacity);
/** Frees the returns' storage (c itself is the caller's). */
void np_credits_destroy(np_credits *c);
/** The tile freed `bytes` of the buffer; the host may use them from cycle
 * `at` on (a return earlier than the last one is counted from the last). */
void np_credits_return(np_credits *c, uint64_t at, int64_t bytes);
/** The earliest cycle at or after `now` at which `bytes` are free (all of the
 * buffer if `bytes` exceed it), counting the returns made so far; false if
 * they never are without more returns. */
bool np_credits_when(const np_credits *c, uint64_t now, int64_t bytes, uint64_t *at);
/** The host writes `bytes` at cycle `at` (np_credits_when said they are free). */
void np_credits_take(np_credits *c, uint64_t at, int64_t bytes);

#endif
