/* inbuf.c: the bookkeeping of a core's input buffers and of its messages,
 * a run of consecutive elements at a time.
 *
 * The simulator counts the bytes each input buffer holds (elements that have
 * arrived and that an iteration still reads) to check the buffers' sizes,
 * and it moves every activation through messages. Done element by element
 * (a branch on arrival, a lookup of the last reader, an index per released
 * element) this bookkeeping cost more than the arithmetic; a message's
 * elements come as blocks of runs, and the elements an iteration releases
 * are mostly runs too, so every step here works on a run with loops the
 * compiler vectorises or that take 64 elements at a time (memcpy, the
 * bitsets of np_bits.h). The counts are the same as element by element:
 * this changes the host's time and memory, not the model.
 */
#include <stdlib.h>
#include <string.h>

#include "../../common/runtime/rt_util.h"
#include "np_sim.h"

/* The bit counts of arrivals and releases: without -mpopcnt, __builtin_popcountll is a call into libgcc
 * for every 64-bit word (a few percent of a ResNet-50 run), so on an x86 CPU with the popcnt instruction
 * (asked once, at run time; NC_SIM_ISA=plain keeps the portable path, as datapath.c's vector paths) the same
 * inline loops are compiled for it. The counts are identical either way. */
static int64_t count_arrived(const np_tile *t, uint32_t k, int64_t e0, int64_t len)
{
  return np_bits_count_andnot(t->read[k], t->valid[k], e0, len);
}

static int64_t count_released(const np_tile *t, uint32_t k, const np_run *r)
{
  return np_bits_count(t->valid[k], r->start, r->len);
}

#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
__attribute__((target("popcnt"))) static int64_t count_arrived_popcnt(const np_tile *t, uint32_t k, int64_t e0,
                                                                      int64_t len)
{
  return np_bits_count_andnot(t->read[k], t->valid[k], e0, len);
}

__attribute__((target("popcnt"))) static int64_t count_released_popcnt(const np_tile *t, uint32_t k, const np_run *r)
{
  return np_bits_count(t->valid[k], r->start, r->len);
}

static bool have_popcnt(void)
{
  static int has = -1; /* asked once: the counts run per message and per iteration */
  if (has < 0) {
    const char *v = getenv("NC_SIM_ISA");
    has = !(v && !strcmp(v, "plain")) && __builtin_cpu_supports("popcnt");
  }
  return has;
}
#else
#define count_arrived_popcnt count_arrived
#define count_released_popcnt count_released
static bool have_popcnt(void) { return false; }
#endif

void np_inbuf_arrive(np_tile *t, uint32_t k, int64_t e0, const int8_t *data, int64_t len)
{
  memcpy(t->in_data[k] + e0, data, (size_t)len);
  t->live[k] += have_popcnt() ? count_arrived_popcnt(t, k, e0, len) : count_arrived(t, k, e0, len);
  np_bits_set(t->valid[k], e0, len);
}

/* floor(v / 2^s) rounded half to even (datapath.c's rule). */
static int64_t map_round_shift(int64_t v, int s)
{
  if (s <= 0)
    return v;
  int64_t q = v >> s;
  uint64_t r = (uint64_t)v & ((UINT64_C(1) << s) - 1), half = UINT64_C(1) << (s - 1);
  return q + (r > half || (r == half && (q & 1)));
}

void np_inbuf_map(np_tile *t, int64_t e0, int64_t len)
{
  int8_t *x = t->in_data[0];
  const int32_t *a = t->affine, lo = a[4 * t->n_affine], hi = a[4 * t->n_affine + 1];
  for (int64_t e = e0; e < e0 + len;) {
    int64_t c = e / t->affine_plane, end = (c + 1) * t->affine_plane < e0 + len ? (c + 1) * t->affine_plane : e0 + len;
    const int32_t *p = a + 4 * c;
    for (; e < end; e++) { /* the depthwise layer's int32 accumulator wraps, as the datapath's */
      int32_t acc = (int32_t)((uint32_t)(x[e] * p[0]) + (uint32_t)p[1]);
      int64_t r = map_round_shift((int64_t)acc * p[2], p[3]);
      x[e] = (int8_t)(r < lo ? lo : r > hi ? hi : r);
    }
  }
}

void np_inbuf_release(np_tile *t, uint32_t k, int64_t iter)
{
  bool popcnt = have_popcnt();
  for (int64_t j = t->release_off[k][iter]; j < t->release_off[k][iter + 1]; j++) {
    const np_run *r = &t->release_runs[k][j];
    t->live[k] -= popcnt ? count_released_popcnt(t, k, r) : count_released(t, k, r);
    np_bits_clear(t->valid[k], r->start, r->len);
  }
}

/* The end of the run of elements equal to last_read[e] from e on: 16 at a
 * time with a branch-free compare the compiler vectorises, then singly. */
static int64_t run_end(const int32_t *last_read, int64_t e, int64_t n)
{
  int32_t v = last_read[e++];
  while (e + 16 <= n) {
    uint32_t d = 0;
    for (int j = 0; j < 16; j++)
      d |= (uint32_t)(last_read[e + j] ^ v);
    if (d)
      break;
    e += 16;
  }
  while (e < n && last_read[e] == v)
    e++;
  return e;
}

void np_inbuf_plan(np_tile *t, uint32_t k, const int32_t *last_read)
{
  int64_t n = t->in[k].elements, n_found = 0, cap = 64;
  uint64_t *read = nc_rt_calloc((size_t)np_bits_words(n), sizeof *read);
  int64_t *off = nc_rt_calloc(t->n_iters + 2, sizeof *off);
  /* a run starts where the last reader changes: find them once, counting them per iteration */
  np_run *found = nc_rt_malloc((size_t)cap * sizeof *found);
  for (int64_t e = 0, e1; e < n; e = e1) {
    e1 = run_end(last_read, e, n);
    if (last_read[e] < 0)
      continue;
    np_bits_set(read, e, e1 - e);
    off[last_read[e] + 2]++;
    if (n_found == cap)
      found = nc_rt_realloc(found, (size_t)(cap *= 2) * sizeof *found);
    found[n_found++] = (np_run){(int32_t)e, (int32_t)(e1 - e)};
  }
  for (uint32_t i = 0; i < t->n_iters; i++)
    off[i + 2] += off[i + 1];
  np_run *runs = nc_rt_malloc((size_t)n_found * sizeof *runs);
  for (int64_t j = 0; j < n_found; j++) /* a counting sort: off[i + 1] is the next free slot of iteration i */
    runs[off[last_read[found[j].start] + 1]++] = found[j];
  free(found);
  t->read[k] = read;
  t->release_off[k] = off;
  t->release_runs[k] = runs;
}

int64_t np_gather(const np_iter *it, const int8_t *from, int8_t *to)
{
  int64_t n = 0;
  for (uint32_t b = 0; b < it->n_blocks; b++) {
    const np_block *bk = &it->blocks[b];
    if (bk->len <= 0)
      continue;
    for (int64_t i = 0; i < bk->count; i++, n += bk->len)
      memcpy(to + n, from + bk->start + i * bk->stride, (size_t)bk->len);
  }
  return n;
}

void np_clear_bits(const np_iter *it, uint64_t *bits)
{
  for (uint32_t b = 0; b < it->n_blocks; b++)
    for (int64_t i = 0; i < it->blocks[b].count && it->blocks[b].len > 0; i++)
      np_bits_clear(bits, it->blocks[b].start + i * it->blocks[b].stride, it->blocks[b].len);
}

bool np_all_bits(const np_iter *it, const uint64_t *bits, int64_t *unset)
{
  for (uint32_t b = 0; b < it->n_blocks; b++) {
    const np_block *bk = &it->blocks[b];
    if (bk->len <= 0)
      continue;
    for (int64_t i = 0; i < bk->count; i++) {
      int64_t z = np_bits_first_clear(bits, bk->start + i * bk->stride, bk->len);
      if (z >= 0) {
        *unset = z;
        return false;
      }
    }
  }
  return true;
}
