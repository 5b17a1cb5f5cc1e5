/* hash.h: the one hash function nc uses for uniquing and hash tables.
 *
 * A wyhash-style 64-bit hash: fast on short keys (identifiers) and on bulk
 * data (multi-megabyte weight blobs are hashed when dense attributes are
 * uniqued), and good enough for open addressing with linear probing.
 */
#ifndef NC_SUPPORT_HASH_H
#define NC_SUPPORT_HASH_H

#include "nc/support/base.h"
#include <string.h>

static inline uint64_t nc_hash_mix(uint64_t a, uint64_t b)
{
  __uint128_t r = (__uint128_t)a * b;
  return (uint64_t)r ^ (uint64_t)(r >> 64);
}

static inline uint64_t nc_hash_read64(const unsigned char *p) { uint64_t v; memcpy(&v, p, 8); return v; }
static inline uint64_t nc_hash_read32(const unsigned char *p) { uint32_t v; memcpy(&v, p, 4); return v; }

#define NC_HASH_P0 0xa0761d6478bd642full
#define NC_HASH_P1 0xe7037ed1a0b428dbull
#define NC_HASH_P2 0x8ebc6af09c88c6e3ull

/** Hashes `len` bytes at `data` with a seed. */
static inline uint64_t nc_hash_bytes(const void *data, size_t len, uint64_t seed)
{
  const unsigned char *p = data;
  uint64_t a, b;
  seed ^= NC_HASH_P0;
  if (NC_LIKELY(len <= 16)) {
    if (len >= 4) {
      a = (nc_hash_read32(p) << 32) | nc_hash_read32(p + ((len >> 3) << 2));
      b = (nc_hash_read32(p + len - 4) << 32) | nc_hash_read32(p + len - 4 - ((len >> 3) << 2));
    } else if (len > 0) {
      a = ((uint64_t)p[0] << 16) | ((uint64_t)p[len >> 1] << 8) | p[len - 1];
      b = 0;
    } else {
      a = b = 0;
    }
  } else {
    size_t i = len;
    if (i > 48) {
      uint64_t s1 = seed, s2 = seed;
      do {
        seed = nc_hash_mix(nc_hash_read64(p) ^ NC_HASH_P1, nc_hash_read64(p + 8) ^ seed);
        s1 = nc_hash_mix(nc_hash_read64(p + 16) ^ NC_HASH_P2, nc_hash_read64(p + 24) ^ s1);
        s2 = nc_hash_mix(nc_hash_read64(p + 32) ^ NC_HASH_P0, nc_hash_read64(p + 40) ^ s2);
        p += 48;
        i -= 48;
      } while (i > 48);
      seed ^= s1 ^ s2;
    }
    while (i > 16) {
      seed = nc_hash_mix(nc_hash_read64(p) ^ NC_HASH_P1, nc_hash_read64(p + 8) ^ seed);
      i -= 16;
      p += 16;
    }
    a = nc_hash_read64(p + i - 16);
    b = nc_hash_read64(p + i - 8);
  }
  return nc_hash_mix(NC_HASH_P1 ^ len, nc_hash_mix(a ^ NC_HASH_P1, b ^ seed));
}

/** Combines a running hash with one more 64-bit word. */
static inline uint64_t nc_hash_combine(uint64_t h, uint64_t v)
{
  return nc_hash_mix(h ^ NC_HASH_P0, v ^ NC_HASH_P1);
}

/** Hashes a pointer value. */
static inline uint64_t nc_hash_ptr(const void *p) { return nc_hash_combine(0, (uint64_t)(uintptr_t)p); }

#endif
