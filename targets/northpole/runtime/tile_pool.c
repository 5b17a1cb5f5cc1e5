/* tile_pool.c: the memory of the tiles' data in the NorthPole simulator (its
 * arena, carved once, and the pool a run takes the tiles' blocks from), out
 * of sim.c, which runs the events. Why a pool: see the comment below and
 * docs/targets/northpole.md ("Simulator"). */
#include <stdlib.h>
#include <sys/mman.h>

#include "../../common/runtime/rt_util.h"
#include "np_sim.h"

/* Each tile holds its whole input and output tensors, of which it touches only the part it receives and
 * computes (a few rows or channels when a layer is split). Calloc'd one by one, most of those bytes were
 * cleared by calloc (the allocator's mmap threshold rises as the loader frees its scratch): a first-touch page
 * fault for every page, a third of a ResNet-50 run's faults. One anonymous mapping, carved into 64-byte aligned
 * pieces, is zero without being touched. Even so a ResNet-50 inference touched 115 of its 183 MB, though few
 * layers run at once: so a tile's data (its inputs and output, one block) is taken from the mapping only when the
 * tile first runs an instruction and given back when it has run every inference of the run (np_tile_release), for
 * a tile starting later to reuse pages already faulted in. The data need not start zero: the datapath reads
 * only elements whose arrived bit is set (np_tile.valid) and sends only computed ones, and later runs already
 * saw an earlier run's values. The computed flags, which reset_inference clears, stay in the tile's own piece.
 * If the mapping fails the buffers are calloc'd as before, for the whole run. */
static size_t tile_buffer_bytes(int64_t elements) { return ((size_t)elements + 63) & ~(size_t)63; }

/* The bytes of a tile's computed flags: a bit per output element, in 64-bit words (np_bits.h). */
static size_t computed_bytes(int64_t elements)
{
  return tile_buffer_bytes((int64_t)(np_bits_words(elements) * sizeof(uint64_t)));
}

/* The bytes of a tile's data block: its operands, then its output. */
static size_t tile_data_bytes(const np_tile *t)
{
  size_t len = tile_buffer_bytes(t->out.elements);
  for (uint32_t k = 0; k < t->n_operands; k++)
    len += tile_buffer_bytes(t->in[k].elements);
  return len;
}

void np_tile_buffers(np_sim *s)
{
  if (s->arena || (s->n_tiles && s->tiles[0].out_data))
    return; /* a run before this one made them */
  size_t flags = 0, data = 0;
  for (size_t i = 0; i < s->n_tiles; i++)
    flags += computed_bytes(s->tiles[i].out.elements), data += tile_data_bytes(&s->tiles[i]);
  char *at = NULL;
  if (flags + data > 0) {
    void *m = mmap(NULL, flags + data, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m != MAP_FAILED)
      s->arena = at = m, s->arena_len = flags + data, s->pool_start = s->pool_top = flags;
  }
  for (size_t i = 0; i < s->n_tiles; i++) {
    np_tile *t = &s->tiles[i];
    if (at) {
      t->computed = (uint64_t *)(void *)at;
      at += computed_bytes(t->out.elements);
      continue;
    }
    t->computed = nc_rt_calloc((size_t)np_bits_words(t->out.elements), sizeof(uint64_t));
    for (uint32_t k = 0; k < t->n_operands; k++)
      t->in_data[k] = nc_rt_calloc((size_t)t->in[k].elements, 1);
    t->out_data = nc_rt_calloc((size_t)t->out.elements, 1);
  }
}

/* Gives tile t its data block from the arena's pool, unless it has one: the smallest block given back that
 * fits (its rest given back again), else the next unused part. The unused part always suffices: every tile
 * takes at most one block per run, and the pool holds the sum of their sizes. */
void np_tile_acquire(np_sim *s, np_tile *t)
{
  if (!s->arena || t->out_data)
    return;
  size_t need = tile_data_bytes(t), best = SIZE_MAX, at;
  for (size_t i = 0; i < s->n_pool_free; i++)
    if (s->pool_free[i].len >= need && (best == SIZE_MAX || s->pool_free[i].len < s->pool_free[best].len))
      best = i;
  if (best != SIZE_MAX) {
    np_span *f = &s->pool_free[best];
    at = f->at;
    if (f->len > need)
      f->at += need, f->len -= need;
    else
      *f = s->pool_free[--s->n_pool_free];
  } else {
    at = s->pool_top;
    s->pool_top += need;
  }
  char *p = (char *)s->arena + at;
  for (uint32_t k = 0; k < t->n_operands; k++)
    t->in_data[k] = (int8_t *)p, p += tile_buffer_bytes(t->in[k].elements);
  t->out_data = (int8_t *)p;
}

/* Gives tile t's data block back to the pool (it has run every inference of the run, or the run restarts). */
void np_tile_release(np_sim *s, np_tile *t)
{
  if (!s->arena || !t->out_data || s->own_memory)
    return;
  size_t at = t->n_operands ? (size_t)((char *)t->in_data[0] - (char *)s->arena)
                            : (size_t)((char *)t->out_data - (char *)s->arena);
  if (s->n_pool_free == s->pool_free_cap) {
    s->pool_free_cap = s->pool_free_cap ? 2 * s->pool_free_cap : 64;
    s->pool_free = nc_rt_realloc(s->pool_free, s->pool_free_cap * sizeof *s->pool_free);
  }
  s->pool_free[s->n_pool_free++] = (np_span){at, tile_data_bytes(t)};
  for (uint32_t k = 0; k < t->n_operands; k++)
    t->in_data[k] = NULL;
  t->out_data = NULL;
}

/* Every tile's data back to the pool, and the pool to its start: a run takes its blocks afresh (from pages the
 * runs before faulted in). */
void np_pool_reset(np_sim *s)
{
  if (!s->arena)
    return;
  for (size_t i = 0; i < s->n_tiles; i++) {
    np_tile *t = &s->tiles[i];
    for (uint32_t k = 0; k < t->n_operands; k++)
      t->in_data[k] = NULL;
    t->out_data = NULL;
  }
  s->n_pool_free = 0;
  s->pool_top = s->pool_start;
}
