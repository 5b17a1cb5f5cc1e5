/* np_bits.h: bitsets over a tensor's flat elements (bit e % 64 of word
 * e / 64), for the simulator's per-element flags (arrived, read): a bit
 * instead of a byte keeps a core's flags 8x smaller, and ranges are set,
 * cleared, counted and checked 64 elements at a time. */
#ifndef NC_TARGETS_NORTHPOLE_NP_BITS_H
#define NC_TARGETS_NORTHPOLE_NP_BITS_H

#include <stdbool.h>
#include <stdint.h>

/** Words of a bitset of n elements. */
static inline int64_t np_bits_words(int64_t n) { return (n + 63) / 64; }

/** Whether bit e is set. */
static inline bool np_bit(const uint64_t *bits, int64_t e) { return bits[e >> 6] >> (e & 63) & 1; }

/** The mask of bits [lo, hi) of one word (0 <= lo < hi <= 64). */
static inline uint64_t np_bits_mask(int64_t lo, int64_t hi)
{
  return (hi == 64 ? ~UINT64_C(0) : (UINT64_C(1) << hi) - 1) & ~((UINT64_C(1) << lo) - 1);
}

/* Runs `body` with `w` (word index) and `mask` for every word that bits
 * [start, start + len) touch; len > 0. */
#define NP_BITS_FOR_RANGE(start, len, w, mask, ...)                                                                \
  do {                                                                                                              \
    int64_t np_s_ = (start), np_e_ = np_s_ + (len);                                                                 \
    for (int64_t w = np_s_ >> 6; w <= (np_e_ - 1) >> 6; w++) {                                                      \
      int64_t np_lo_ = w == np_s_ >> 6 ? np_s_ & 63 : 0, np_hi_ = w == (np_e_ - 1) >> 6 ? ((np_e_ - 1) & 63) + 1 : 64; \
      uint64_t mask = np_bits_mask(np_lo_, np_hi_);                                                                 \
      __VA_ARGS__                                                                                                   \
    }                                                                                                               \
  } while (0)

/** Sets bit e. */
static inline void np_bit_set(uint64_t *bits, int64_t e) { bits[e >> 6] |= UINT64_C(1) << (e & 63); }

/** Sets bits [start, start + len). */
static inline void np_bits_set(uint64_t *bits, int64_t start, int64_t len)
{
  if (len > 0)
    NP_BITS_FOR_RANGE(start, len, w, mask, { bits[w] |= mask; });
}

/** Clears bits [start, start + len). */
static inline void np_bits_clear(uint64_t *bits, int64_t start, int64_t len)
{
  if (len > 0)
    NP_BITS_FOR_RANGE(start, len, w, mask, { bits[w] &= ~mask; });
}

/** The number of set bits in [start, start + len). */
static inline int64_t np_bits_count(const uint64_t *bits, int64_t start, int64_t len)
{
  int64_t n = 0;
  if (len > 0)
    NP_BITS_FOR_RANGE(start, len, w, mask, { n += __builtin_popcountll(bits[w] & mask); });
  return n;
}

/** The number of elements in [start, start + len) set in `a` and clear in `b`. */
static inline int64_t np_bits_count_andnot(const uint64_t *a, const uint64_t *b, int64_t start, int64_t len)
{
  int64_t n = 0;
  if (len > 0)
    NP_BITS_FOR_RANGE(start, len, w, mask, { n += __builtin_popcountll(a[w] & ~b[w] & mask); });
  return n;
}

/** Whether no bit of [start, start + len) is set (true if len <= 0): np_bits_count(...) == 0 without
 * counting. */
static inline bool np_bits_none(const uint64_t *bits, int64_t start, int64_t len)
{
  uint64_t any = 0;
  if (len > 0)
    NP_BITS_FOR_RANGE(start, len, w, mask, { any |= bits[w] & mask; });
  return !any;
}

/** Whether every bit of [start, start + len) is set (true if len <= 0). */
static inline bool np_bits_all(const uint64_t *bits, int64_t start, int64_t len)
{
  if (len > 0)
    NP_BITS_FOR_RANGE(start, len, w, mask, {
      if ((bits[w] & mask) != mask)
        return false;
    });
  return true;
}

/** The first clear bit of [start, start + len), or -1 if every one is set. */
static inline int64_t np_bits_first_clear(const uint64_t *bits, int64_t start, int64_t len)
{
  if (len > 0)
    NP_BITS_FOR_RANGE(start, len, w, mask, {
      uint64_t clear = ~bits[w] & mask;
      if (clear)
        return w * 64 + __builtin_ctzll(clear);
    });
  return -1;
}

#endif
