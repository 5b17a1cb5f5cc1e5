/* printer_weights.c: weight slices that several tiles hold, written once.
 *
 * The tiles of a row-banded layer (and of its input-channel groups) hold the
 * same slice of its weights: inline, each tile record would carry a copy,
 * and a network's binary would grow with its row bands (resnet18's was 74 MB
 * for 11 M weights). Before the tiles are printed, their keys (node, output
 * channels, input channels) are counted; a key that two or more tiles share
 * gets its slice written once into the NP_SECTION_WEIGHTS section, and the
 * tiles refer to it by offset (np_format.h, NP_WEIGHTS_SHARED). A slice no
 * other tile holds stays inline, so binaries without bands are unchanged.
 * The loader points every sharing tile at the one copy in the image.
 *
 * A strided slice (a matmul tile's columns: K runs of a few bytes, each a
 * row of [K, N] apart) read tile by tile touches a new page per run and
 * re-reads the matrix once per tile: VGG-19's first fully connected layer
 * (25088 x 4096) cost ~0.5 s of cache and TLB misses. Such slices are
 * reserved where they go and filled at the end, all the slices of one
 * matrix together, a block of rows at a time (np_weight_pool_finish): the
 * matrix is read once, in order. The bytes are the same.
 */
#include <stdlib.h>
#include <string.h>

#include "nc/dialects/core/core.h"
#include "nc/ir/threading.h"
#include "printer_internal.h"

/* A strided slice reserved in a section, filled by np_weight_pool_finish. */
typedef struct np_weight_fill {
  const int8_t *base;
  int64_t runs, len, stride;
  int bits;
  bool in_pool;  /* in the pool's section; else in a tile's (np_weight_pool_commit) */
  size_t offset; /* of its first byte in that section */
  uint8_t *dest; /* once bound: the section's bytes + offset */
} np_weight_fill;

/* A tile's reference to a shared slice, in a log: the field's offset is
 * written when the log is committed. */
typedef struct np_weight_use {
  int64_t slot;
  size_t pos;          /* of the u64 offset in the tile's bytes */
  const int8_t *base;  /* lasting: the runs, placed at commit */
  int64_t runs, len, stride;
  int bits;
  uint64_t bytes;
  bool lasting;
  nc_bytes packed;     /* not lasting: the runs packed now (their base goes with the tile's layer) */
} np_weight_use;

typedef struct np_weight_slice {
  const char *node;
  int64_t lo, hi, in_lo, in_hi; /* -1: the tile has no such attribute */
  int64_t count;                /* tiles with this key */
  int64_t offset;               /* in the section, or -1 before the first tile writes it */
} np_weight_slice;

static np_weight_slice key_of(nc_op *tile)
{
  np_weight_slice k = {nc_core_tile_get_node(tile), -1, -1, -1, -1, 1, -1};
  if (!k.node)
    k.node = "";
  nc_core_tile_get_out_channels(tile, &k.lo, &k.hi);
  nc_core_tile_get_in_channels(tile, &k.in_lo, &k.in_hi);
  return k;
}

static int cmp_key(const void *a, const void *b)
{
  const np_weight_slice *x = a, *y = b;
  int c = strcmp(x->node, y->node);
  if (c)
    return c;
  const int64_t kx[4] = {x->lo, x->hi, x->in_lo, x->in_hi}, ky[4] = {y->lo, y->hi, y->in_lo, y->in_hi};
  for (int i = 0; i < 4; i++)
    if (kx[i] != ky[i])
      return kx[i] < ky[i] ? -1 : 1;
  return 0;
}

void np_weight_pool_init(np_weight_pool *pool, nc_op *chip)
{
  memset(pool, 0, sizeof *pool);
  size_t n = 0;
  for (nc_op *t = nc_core_chip_first_tile(chip); t; t = nc_core_tile_next(t))
    n++;
  np_weight_slice *v = nc_xcalloc(n + 1, sizeof *v);
  n = 0;
  for (nc_op *t = nc_core_chip_first_tile(chip); t; t = nc_core_tile_next(t))
    v[n++] = key_of(t);
  qsort(v, n, sizeof *v, cmp_key);
  size_t m = 0; /* keep the keys two or more tiles share, once each */
  for (size_t i = 0, j; i < n; i = j) {
    for (j = i + 1; j < n && !cmp_key(&v[i], &v[j]); j++)
      ;
    if (j - i >= 2) {
      v[m] = v[i];
      v[m++].count = (int64_t)(j - i);
    }
  }
  pool->slices = v;
  pool->n = m;
}

int64_t np_weight_pool_slot(const np_weight_pool *pool, nc_op *tile)
{
  np_weight_slice k = key_of(tile);
  const np_weight_slice *hit = pool->n ? bsearch(&k, pool->slices, pool->n, sizeof k, cmp_key) : NULL;
  return hit ? hit - pool->slices : -1;
}

/* Packs n elements of src at `bits` (< 8) into out, continuing a byte
 * begun in *acc at bit *shift (which it leaves for the next call): element
 * i of the whole sequence in bits (i mod 8/bits) x bits up of its byte.
 * Whole bytes of 4- and 2-bit elements are packed at once. Returns the
 * bytes completed. */
static size_t pack_elements(uint8_t *out, const int8_t *src, int64_t n, int bits, uint8_t *acc, int *shift)
{
  const uint8_t mask = (uint8_t)((1u << bits) - 1);
  size_t w = 0;
  int64_t j = 0;
  for (; j < n && *shift; j++) { /* finish the byte begun */
    *acc |= (uint8_t)(((uint8_t)src[j] & mask) << *shift);
    if ((*shift += bits) == 8)
      out[w++] = *acc, *acc = 0, *shift = 0;
  }
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  if (bits == 4) /* eight elements of a word to four bytes: each 16-bit lane's nibbles joined, then the lanes */
    for (; j + 8 <= n; j += 8, w += 4) {
      uint64_t x;
      memcpy(&x, src + j, 8);
      x &= 0x0F0F0F0F0F0F0F0Full;
      x = (x | x >> 4) & 0x00FF00FF00FF00FFull;
      x = (x | x >> 8) & 0x0000FFFF0000FFFFull;
      uint32_t y = (uint32_t)(x | x >> 16);
      memcpy(out + w, &y, 4);
    }
#endif
  if (bits == 4)
    for (; j + 2 <= n; j += 2)
      out[w++] = (uint8_t)(((uint8_t)src[j] & 15u) | (uint8_t)((uint8_t)src[j + 1] << 4));
  else if (bits == 2)
    for (; j + 4 <= n; j += 4)
      out[w++] = (uint8_t)(((uint8_t)src[j] & 3u) | (((uint8_t)src[j + 1] & 3u) << 2) |
                           (((uint8_t)src[j + 2] & 3u) << 4) | (uint8_t)((uint8_t)src[j + 3] << 6));
  for (; j < n; j++) {
    *acc |= (uint8_t)(((uint8_t)src[j] & mask) << *shift);
    if ((*shift += bits) == 8)
      out[w++] = *acc, *acc = 0, *shift = 0;
  }
  return w;
}

/* The runs one after the other, a byte each (bits 8) or packed
 * (pack_elements) through a buffer. */
static void put_runs(nc_bytes *b, const int8_t *base, int64_t runs, int64_t len, int64_t stride, int bits)
{
  if (bits >= 8) {
    for (int64_t r = 0; r < runs; r++)
      nc_bytes_put(b, base + r * stride, (size_t)len);
    return;
  }
  uint8_t chunk[4096], acc = 0;
  size_t used = 0;
  int shift = 0;
  const int64_t per_byte = 8 / bits;
  for (int64_t r = 0; r < runs; r++) {
    const int8_t *run = base + r * stride;
    for (int64_t j = 0; j < len;) {
      if (sizeof chunk - used < 2)
        nc_bytes_put(b, chunk, used), used = 0;
      int64_t room = (int64_t)(sizeof chunk - used - 1) * per_byte, m = len - j < room ? len - j : room;
      used += pack_elements(chunk + used, run + j, m, bits, &acc, &shift);
      j += m;
    }
  }
  if (shift)
    chunk[used++] = acc;
  nc_bytes_put(b, chunk, used);
}

/* put_runs into memory: the bytes of the runs, from a byte boundary. */
static void pack_runs(uint8_t *out, const int8_t *base, int64_t runs, int64_t len, int64_t stride, int bits)
{
  if (bits >= 8) {
    for (int64_t r = 0; r < runs; r++)
      memcpy(out + r * len, base + r * stride, (size_t)len);
    return;
  }
  uint8_t acc = 0;
  int shift = 0;
  for (int64_t r = 0; r < runs; r++)
    out += pack_elements(out, base + r * stride, len, bits, &acc, &shift);
  if (shift)
    *out = acc;
}


/* Writes the runs into `into`, now (put_runs) or, when they are strided and
 * their base outlives the printing (`lasting`), at the end (a fill). */
static void put_or_defer(np_weight_pool *pool, nc_bytes *into, bool in_pool, const int8_t *base, int64_t runs,
                         int64_t len, int64_t stride, int bits, uint64_t bytes, bool lasting)
{
  if (!lasting || runs < 2 || len >= stride) {
    put_runs(into, base, runs, len, stride, bits);
    return;
  }
  if (pool->n_fills == pool->cap_fills) {
    pool->cap_fills = pool->cap_fills ? 2 * pool->cap_fills : 64;
    pool->fills = nc_xrealloc(pool->fills, pool->cap_fills * sizeof *pool->fills);
  }
  pool->fills[pool->n_fills++] = (np_weight_fill){base, runs, len, stride, bits, in_pool, into->len, NULL};
  nc_bytes_put_zeros(into, (size_t)bytes); /* filled at the end, once grown (not appended 4 KB at a time) */
}

void np_put_weights(nc_bytes *b, np_weight_pool *pool, int64_t slot, const int8_t *base, int64_t runs, int64_t len,
                    int64_t stride, int bits, bool lasting)
{
  uint64_t bytes = bits >= 8 ? (uint64_t)(runs * len) : (uint64_t)((runs * len * bits + 7) / 8);
  if (pool && pool->log && slot >= 0 && (size_t)slot < pool->n && bytes) { /* placed by np_weight_pool_commit */
    nc_bytes_put_u64(b, bytes | NP_WEIGHTS_SHARED);
    if (pool->n_uses == pool->cap_uses) {
      pool->cap_uses = pool->cap_uses ? 2 * pool->cap_uses : 4;
      pool->uses = nc_xrealloc(pool->uses, pool->cap_uses * sizeof *pool->uses);
    }
    np_weight_use *u = &pool->uses[pool->n_uses++];
    *u = (np_weight_use){slot, b->len, base, runs, len, stride, bits, bytes, lasting, {0}};
    if (!lasting)
      put_runs(&u->packed, base, runs, len, stride, bits);
    nc_bytes_put_u64(b, 0);
  } else if (pool && slot >= 0 && (size_t)slot < pool->n && bytes) {
    np_weight_slice *s = &pool->slices[slot];
    if (s->offset < 0) {
      nc_bytes_align(&pool->bytes, 8);
      s->offset = (int64_t)pool->bytes.len;
      put_or_defer(pool, &pool->bytes, true, base, runs, len, stride, bits, bytes, lasting);
    }
    nc_bytes_put_u64(b, bytes | NP_WEIGHTS_SHARED);
    nc_bytes_put_u64(b, (uint64_t)s->offset);
  } else {
    nc_bytes_put_u64(b, bytes);
    if (pool)
      put_or_defer(pool, b, false, base, runs, len, stride, bits, bytes, lasting);
    else
      put_runs(b, base, runs, len, stride, bits);
  }
  nc_bytes_align(b, 8);
}

/* Not 0 when fill y is not a slice of the same rows as group g. */
static int cmp_fill_group(const np_weight_fill *g, const np_weight_fill *y)
{
  return g->stride != y->stride || g->runs != y->runs || g->bits != y->bits || y->base >= g->base + g->stride;
}

static int cmp_fill(const void *a, const void *b)
{
  const np_weight_fill *x = a, *y = b;
  if (x->stride != y->stride)
    return x->stride < y->stride ? -1 : 1;
  if (x->runs != y->runs)
    return x->runs < y->runs ? -1 : 1;
  if (x->bits != y->bits)
    return x->bits < y->bits ? -1 : 1;
  return (uintptr_t)x->base < (uintptr_t)y->base ? -1 : (uintptr_t)x->base > (uintptr_t)y->base;
}

enum { FILL_BLOCK = 64, FILL_PIECE = 16 * FILL_BLOCK };

/* A piece of run_fills' work: rows [r0, r1) of the fills [i, j) of one matrix. */
typedef struct fill_piece {
  size_t i, j;
  int64_t r0, r1;
} fill_piece;

typedef struct fill_job {
  const np_weight_pool *pool;
  const fill_piece *pieces;
} fill_job;

/* Piece k: its rows of every fill of its matrix, 64 rows at a time (64 runs
 * end on a byte boundary at any width, so each block's bytes start on one). */
static bool fill_piece_run(size_t k, void *user)
{
  const fill_job *job = user;
  const fill_piece *pc = &job->pieces[k];
  for (int64_t r0 = pc->r0; r0 < pc->r1; r0 += FILL_BLOCK)
    for (size_t q = pc->i; q < pc->j; q++) {
      const np_weight_fill *f = &job->pool->fills[q];
      int64_t n = f->runs - r0 < FILL_BLOCK ? f->runs - r0 : FILL_BLOCK;
      if (f->dest)
        pack_runs(f->dest + r0 * f->len * f->bits / 8, f->base + r0 * f->stride, n, f->len, f->stride, f->bits);
    }
  return true;
}

/* The fills, the slices of one matrix's rows (same stride, runs and width,
 * bases within one row) together, so the matrix is read once, in order; its
 * rows in pieces of 1,024 on the context's threads (the pieces write apart:
 * the same bytes with any number of threads). */
static void run_fills(np_weight_pool *pool, nc_context *ctx)
{
  for (size_t i = 0; i < pool->n_fills; i++)
    if (pool->fills[i].in_pool)
      pool->fills[i].dest = pool->bytes.data + pool->fills[i].offset;
  if (pool->n_fills)
    qsort(pool->fills, pool->n_fills, sizeof *pool->fills, cmp_fill);
  fill_piece *pieces = NULL;
  size_t n = 0, cap = 0;
  for (size_t i = 0, j; i < pool->n_fills; i = j) {
    const np_weight_fill *g = &pool->fills[i];
    for (j = i + 1; j < pool->n_fills && !cmp_fill_group(g, &pool->fills[j]); j++)
      ;
    for (int64_t r0 = 0; r0 < g->runs; r0 += FILL_PIECE) {
      if (n == cap)
        pieces = nc_xrealloc(pieces, (cap = cap ? 2 * cap : 64) * sizeof *pieces);
      pieces[n++] = (fill_piece){i, j, r0, g->runs - r0 < FILL_PIECE ? g->runs : r0 + FILL_PIECE};
    }
  }
  fill_job job = {pool, pieces};
  if (n)
    nc_parallel_for(ctx, n, fill_piece_run, &job);
  free(pieces);
}

void np_weight_pool_finish(np_weight_pool *pool, nc_context *ctx, nc_ncb_writer *w)
{
  run_fills(pool, ctx);
  if (pool->bytes.len) {
    nc_bytes_align(&pool->bytes, 8);
    *nc_ncb_writer_add_section(w, NP_SECTION_WEIGHTS, 0) = pool->bytes; /* the writer owns the bytes now */
    pool->bytes = (nc_bytes){0};
  }
  np_weight_pool_clear(pool);
}

void np_weight_pool_clear(np_weight_pool *pool)
{
  nc_bytes_clear(&pool->bytes);
  free(pool->slices);
  free(pool->fills);
  memset(pool, 0, sizeof *pool);
}

np_weight_pool np_weight_pool_log(const np_weight_pool *pool)
{
  np_weight_pool log = {0};
  log.slices = pool->slices;
  log.n = pool->n;
  log.log = true;
  return log;
}

void np_weight_pool_commit(np_weight_pool *pool, np_weight_pool *log, nc_bytes *tile)
{
  for (size_t i = 0; i < log->n_uses; i++) {
    np_weight_use *u = &log->uses[i];
    np_weight_slice *s = &pool->slices[u->slot];
    if (s->offset < 0) { /* the first tile using it writes it, as np_put_weights does */
      nc_bytes_align(&pool->bytes, 8);
      s->offset = (int64_t)pool->bytes.len;
      if (u->lasting)
        put_or_defer(pool, &pool->bytes, true, u->base, u->runs, u->len, u->stride, u->bits, u->bytes, true);
      else
        nc_bytes_put(&pool->bytes, u->packed.data, u->packed.len);
    }
    uint64_t off = (uint64_t)s->offset;
    for (int k = 0; k < 8; k++)
      tile->data[u->pos + (size_t)k] = (uint8_t)(off >> (8 * k));
  }
  for (size_t i = 0; i < log->n_fills; i++) { /* the tile's own strided slices, bound to its bytes */
    if (pool->n_fills == pool->cap_fills) {
      pool->cap_fills = pool->cap_fills ? 2 * pool->cap_fills : 64;
      pool->fills = nc_xrealloc(pool->fills, pool->cap_fills * sizeof *pool->fills);
    }
    np_weight_fill f = log->fills[i];
    f.dest = tile->data + f.offset;
    pool->fills[pool->n_fills++] = f;
  }
  pool->n_bound = pool->n_fills;
  np_weight_pool_log_clear(log);
}

void np_weight_pool_log_clear(np_weight_pool *log)
{
  for (size_t i = 0; i < log->n_uses; i++)
    nc_bytes_clear(&log->uses[i].packed);
  free(log->uses);
  free(log->fills);
  nc_bytes_clear(&log->bytes);
  log->uses = NULL;
  log->fills = NULL;
  log->n_uses = log->cap_uses = log->n_fills = log->cap_fills = log->n_bound = 0;
}
