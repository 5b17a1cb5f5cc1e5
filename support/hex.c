/* hex.c: hex coding through a 64K table of digit pairs (decode) and a
 * 256-entry table of pairs (encode), so a weight blob moves at memory speed.
 */
#include "nc/support/hex.h"

#include <pthread.h>
#include <string.h>

#if defined(__SSE2__)
#include <emmintrin.h>

/* 32 hex digits -> 16 bytes with SSE2; false if any character is not a digit. */
static inline bool decode16(const char *s, unsigned char *out)
{
  __m128i pairs[2];
  int valid = 0xffff;
  for (int h = 0; h < 2; h++) {
    __m128i c = _mm_loadu_si128((const __m128i *)(s + 16 * h));
    __m128i d = _mm_sub_epi8(c, _mm_set1_epi8('0'));
    __m128i is_digit = _mm_cmpeq_epi8(_mm_max_epu8(d, _mm_set1_epi8(9)), _mm_set1_epi8(9));
    __m128i l = _mm_sub_epi8(_mm_or_si128(c, _mm_set1_epi8(0x20)), _mm_set1_epi8('a'));
    __m128i is_alpha = _mm_cmpeq_epi8(_mm_max_epu8(l, _mm_set1_epi8(5)), _mm_set1_epi8(5));
    __m128i v = _mm_or_si128(_mm_and_si128(is_digit, d),
                             _mm_and_si128(is_alpha, _mm_add_epi8(l, _mm_set1_epi8(10))));
    valid &= _mm_movemask_epi8(_mm_or_si128(is_digit, is_alpha));
    /* each 16-bit lane holds (first digit, second digit): byte = first << 4 | second */
    pairs[h] = _mm_or_si128(_mm_slli_epi16(_mm_and_si128(v, _mm_set1_epi16(0x00ff)), 4), _mm_srli_epi16(v, 8));
  }
  _mm_storeu_si128((__m128i *)out, _mm_packus_epi16(pairs[0], pairs[1]));
  return valid == 0xffff;
}

/* 16 bytes -> 32 upper-case hex digits with SSE2. */
static inline void encode16(const unsigned char *p, char *out)
{
  __m128i b = _mm_loadu_si128((const __m128i *)p);
  __m128i mask = _mm_set1_epi8(0x0f);
  __m128i hi = _mm_and_si128(_mm_srli_epi16(b, 4), mask), lo = _mm_and_si128(b, mask);
  __m128i nine = _mm_set1_epi8(9), zero = _mm_set1_epi8('0'), seven = _mm_set1_epi8(7);
  /* n + '0', plus 7 more for n > 9 ('A' = '9' + 8) */
  __m128i hi_gt = _mm_cmpgt_epi8(hi, nine), lo_gt = _mm_cmpgt_epi8(lo, nine);
  hi = _mm_add_epi8(_mm_add_epi8(hi, zero), _mm_and_si128(hi_gt, seven));
  lo = _mm_add_epi8(_mm_add_epi8(lo, zero), _mm_and_si128(lo_gt, seven));
  _mm_storeu_si128((__m128i *)out, _mm_unpacklo_epi8(hi, lo));
  _mm_storeu_si128((__m128i *)(out + 16), _mm_unpackhi_epi8(hi, lo));
}
#endif

static uint16_t pair_value[65536]; /* two ASCII digits (little-endian u16) -> byte, or 0xffff */
static char pair_text[256][2];
static pthread_once_t once = PTHREAD_ONCE_INIT;

static int digit(unsigned c)
{
  if (c >= '0' && c <= '9')
    return (int)(c - '0');
  if (c >= 'a' && c <= 'f')
    return (int)(c - 'a' + 10);
  if (c >= 'A' && c <= 'F')
    return (int)(c - 'A' + 10);
  return -1;
}

static void init_tables(void)
{
  for (unsigned i = 0; i < 65536; i++) {
    int h = digit(i & 0xff), l = digit(i >> 8);
    pair_value[i] = h < 0 || l < 0 ? 0xffff : (uint16_t)(h * 16 + l);
  }
  static const char d[] = "0123456789ABCDEF";
  for (unsigned i = 0; i < 256; i++) {
    pair_text[i][0] = d[i >> 4];
    pair_text[i][1] = d[i & 15];
  }
}

bool nc_hex_decode(const char *s, size_t n, unsigned char *out, size_t *bad_at)
{
  pthread_once(&once, init_tables);
  size_t i = 0;
#if defined(__SSE2__)
  for (; i + 16 <= n; i += 16)
    if (!decode16(s + 2 * i, out + i))
      break; /* locate the bad digit below */
#endif
  for (; i + 8 <= n; i += 8) {
    uint16_t v[8];
    uint16_t bad = 0;
    for (int k = 0; k < 8; k++) {
      uint16_t pair;
      memcpy(&pair, s + 2 * (i + (size_t)k), 2);
      v[k] = pair_value[pair];
      bad |= v[k];
    }
    if (bad & 0xff00)
      break; /* locate it below */
    for (int k = 0; k < 8; k++)
      out[i + (size_t)k] = (unsigned char)v[k];
  }
  for (; i < n; i++) {
    uint16_t pair;
    memcpy(&pair, s + 2 * i, 2);
    uint16_t v = pair_value[pair];
    if (v > 0xff) {
      if (bad_at)
        *bad_at = 2 * i;
      return false;
    }
    out[i] = (unsigned char)v;
  }
  return true;
}

void nc_hex_encode(const unsigned char *p, size_t n, char *out)
{
  pthread_once(&once, init_tables);
  size_t i = 0;
#if defined(__SSE2__)
  for (; i + 16 <= n; i += 16)
    encode16(p + i, out + 2 * i);
#endif
  for (; i < n; i++)
    memcpy(out + 2 * i, pair_text[p[i]], 2);
}
