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

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define NC_HAVE_AVX2_PATH 1

/* 64 hex digits -> 32 bytes with AVX2 (chosen at run time). */
__attribute__((target("avx2"))) static bool decode32_avx2(const char *s, unsigned char *out)
{
  __m256i pairs[2];
  unsigned valid = 0xffffffffu;
  for (int h = 0; h < 2; h++) {
    __m256i c = _mm256_loadu_si256((const __m256i *)(s + 32 * h));
    __m256i d = _mm256_sub_epi8(c, _mm256_set1_epi8('0'));
    __m256i is_digit = _mm256_cmpeq_epi8(_mm256_max_epu8(d, _mm256_set1_epi8(9)), _mm256_set1_epi8(9));
    __m256i l = _mm256_sub_epi8(_mm256_or_si256(c, _mm256_set1_epi8(0x20)), _mm256_set1_epi8('a'));
    __m256i is_alpha = _mm256_cmpeq_epi8(_mm256_max_epu8(l, _mm256_set1_epi8(5)), _mm256_set1_epi8(5));
    __m256i v = _mm256_or_si256(_mm256_and_si256(is_digit, d),
                                _mm256_and_si256(is_alpha, _mm256_add_epi8(l, _mm256_set1_epi8(10))));
    valid &= (unsigned)_mm256_movemask_epi8(_mm256_or_si256(is_digit, is_alpha));
    pairs[h] = _mm256_or_si256(_mm256_slli_epi16(_mm256_and_si256(v, _mm256_set1_epi16(0x00ff)), 4),
                               _mm256_srli_epi16(v, 8));
  }
  /* packus works per 128-bit lane: restore the byte order afterwards */
  __m256i packed = _mm256_packus_epi16(pairs[0], pairs[1]);
  _mm256_storeu_si256((__m256i *)out, _mm256_permute4x64_epi64(packed, 0xd8));
  return valid == 0xffffffffu;
}

/* 32 bytes -> 64 upper-case hex digits with AVX2. */
__attribute__((target("avx2"))) static void encode32_avx2(const unsigned char *p, char *out)
{
  __m256i b = _mm256_loadu_si256((const __m256i *)p);
  __m256i mask = _mm256_set1_epi8(0x0f);
  __m256i hi = _mm256_and_si256(_mm256_srli_epi16(b, 4), mask), lo = _mm256_and_si256(b, mask);
  __m256i nine = _mm256_set1_epi8(9), zero = _mm256_set1_epi8('0'), seven = _mm256_set1_epi8(7);
  hi = _mm256_add_epi8(_mm256_add_epi8(hi, zero), _mm256_and_si256(_mm256_cmpgt_epi8(hi, nine), seven));
  lo = _mm256_add_epi8(_mm256_add_epi8(lo, zero), _mm256_and_si256(_mm256_cmpgt_epi8(lo, nine), seven));
  __m256i a = _mm256_unpacklo_epi8(hi, lo), c = _mm256_unpackhi_epi8(hi, lo); /* per lane */
  _mm256_storeu_si256((__m256i *)out, _mm256_permute2x128_si256(a, c, 0x20));
  _mm256_storeu_si256((__m256i *)(out + 32), _mm256_permute2x128_si256(a, c, 0x31));
}

static int have_avx2;
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
#ifdef NC_HAVE_AVX2_PATH
  __builtin_cpu_init();
  have_avx2 = __builtin_cpu_supports("avx2");
#endif
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
#ifdef NC_HAVE_AVX2_PATH
  if (have_avx2)
    for (; i + 32 <= n; i += 32)
      if (!decode32_avx2(s + 2 * i, out + i))
        break;
#endif
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
#ifdef NC_HAVE_AVX2_PATH
  if (have_avx2)
    for (; i + 32 <= n; i += 32)
      encode32_avx2(p + i, out + 2 * i);
#endif
#if defined(__SSE2__)
  for (; i + 16 <= n; i += 16)
    encode16(p + i, out + 2 * i);
#endif
  for (; i < n; i++)
    memcpy(out + 2 * i, pair_text[p[i]], 2);
}
