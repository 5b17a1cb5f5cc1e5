/* ncb_checksums.h: the checksum repair both .ncb fuzzers (ncb_fuzz.c,
 * ncb_run_fuzz.c) apply before loading. Random or mutated bytes rarely get
 * past the CRCs, so every section's CRC in the table and then the header's
 * CRC are recomputed, at the offsets of docs/targets/ncb-format.md (format
 * 2.0), whenever the counts and the table are in bounds. One copy, so a
 * format change moves both harnesses (a stale copy quietly left mutated
 * sections failing their CRC).
 */
#ifndef NC_TEST_FUZZ_NCB_CHECKSUMS_H
#define NC_TEST_FUZZ_NCB_CHECKSUMS_H

#include <stddef.h>
#include <stdint.h>

#include "nc/runtime/ncb.h"

static uint32_t ncb_rd32(const uint8_t *p) { return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24; }
static uint64_t ncb_rd64(const uint8_t *p) { return ncb_rd32(p) | (uint64_t)ncb_rd32(p + 4) << 32; }
static void ncb_wr32(uint8_t *p, uint32_t v)
{
  for (int i = 0; i < 4; i++)
    p[i] = (uint8_t)(v >> (8 * i));
}

/* Rewrites the section CRCs and the header CRC of the size bytes at b. */
static void ncb_fix_checksums(uint8_t *b, size_t size)
{
  if (size < NC_NCB_HEADER_SIZE)
    return;
  uint32_t hsize = ncb_rd32(b + 8), n_in = ncb_rd32(b + 56), n_out = ncb_rd32(b + 60), n_sec = ncb_rd32(b + 64);
  if (hsize > size || n_in > 64 || n_out > 64 || n_sec > 4096)
    return;
  size_t table = NC_NCB_HEADER_SIZE + (size_t)(n_in + n_out) * NC_NCB_TENSOR_SIZE;
  for (uint32_t i = 0; i < n_sec && table + (i + 1) * NC_NCB_SECTION_ENTRY_SIZE <= hsize; i++) {
    uint8_t *e = b + table + i * NC_NCB_SECTION_ENTRY_SIZE;
    uint64_t off = ncb_rd64(e + 8), len = ncb_rd64(e + 16);
    if (off <= size && len <= size - off)
      ncb_wr32(e + 24, nc_crc32(0, b + off, len));
  }
  ncb_wr32(b + 12, 0);
  ncb_wr32(b + 12, nc_crc32(0, b, hsize));
}

#endif
