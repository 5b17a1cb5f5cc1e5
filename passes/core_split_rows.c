/* core_split_rows.c: core-place's row bands (core.tile out_rows): splitting
 * a layer's tiles into bands of output rows, either a fixed number of bands
 * per layer (core-place{row-split=N}) or as many as lower the slowest
 * pipeline stage (core-place{row-balance}).
 *
 * Why rows as well as output channels: a tile of an output-channel slice
 * reads the whole input, so every slice adds a copy of the producer's output
 * to the NoC (and of the network's input to the host's single link); a row
 * band reads only its rows plus the window's halo, so a producer sends each
 * row to about one band. Early layers (few channels, many rows: a stem conv
 * at 112x112) are where channel slices stop paying and bands do not.
 * A layer split by input channels (core_split_channels.c: partial sums) is
 * banded like any other when bands are forced (row-split) and, with
 * core-place{partial-bands}, by the balancing: each band of an input-channel
 * group is a group of its own, its reducer adding the band's partial sums.
 *
 * The balancing runs after the channel split (core_place.c), on the cores
 * it left, with the same kind of cost model: a stage's cycles per frame are
 * its work at the MAC rate plus the bytes it sends at the link width, both
 * divided by its tiles (bands are whole rows: a stage is as slow as its
 * largest band); a producer sends each row to every channel slice of
 * a consumer and, for a banded consumer, to 1 + (bands - 1) x halo / rows
 * bands on average (halo: kernel rows - stride). The host, sending the
 * network's inputs the same way, is a stage that cannot be split. Each round
 * gives the slowest stage the fewest more bands that make its largest band
 * smaller (costing a core per channel slice each); when that leaves another
 * stage (a producer now sending to more bands) slower than the round's
 * start, the round goes on with that one, up to BAND_LOOKAHEAD steps, and is
 * kept when the slowest stage is no slower than at the round's start and
 * every stage split got faster; equally slow stages are split in turn.
 */
#include <stdlib.h>
#include <string.h>

#include "core_link_cost.h"
#include "core_place_adds.h"
#include "core_split_rows.h"
#include "core_util.h"
#include "nc/dialects/core/chip_desc.h"
#include "nc/dialects/dataflow/dataflow.h"
#include "nc/dialects/dataflow/layer.h"
#include "nc/ir/diag.h"

/* One layer: its tiles (channel slices) and the bands they get. */
typedef struct band_stage {
  nc_op *node;
  int64_t k;        /* channel slices (tiles before banding) */
  int64_t k0;       /* the channel slices core-place made (the fewest SRAM allows) */
  int64_t klimit;   /* the most channel slices a joint round may give it (k0: none) */
  int64_t c;        /* output channels */
  int64_t r, limit; /* bands, and the most it may have (1: not banded) */
  int64_t rows;     /* output rows */
  int64_t halo;     /* kernel rows - stride: rows two bands both read */
  double work;      /* 8-bit MAC cycles' worth of work per frame */
  double out_bytes; /* output bytes per frame */
  bool to_host;
  bool follower;    /* an add that will follow its producer's tiles (core_band_costs.adds): costs nothing */
  size_t host;      /* a follower: the stage whose tiles it follows (the stage count: none) */
  double xwork, xbytes; /* work and out_bytes as refine_minmax counts them (a follower's own, not 0) */
  double packed;    /* bytes an output element takes on the NoC (bits / 8: 4-bit activations travel packed) */
  int64_t kmin;     /* the fewest channel slices SRAM allows it (refine_minmax's floor) */
  bool kfree;       /* refine_minmax may change its channel slices */
  bool folded;      /* a concat core-fold-concat will remove (core_band_costs.minmax_fold_concat): costs nothing in
                       refine_minmax's model, its producers sending to its readers */
} band_stage;

bool core_node_row_splittable(NC_KEEP const nc_op *node)
{
  nc_dataflow_layer l;
  if (!nc_dataflow_node_get_layer((nc_op *)node, &l) || nc_core_node_get_out_rows(node) < 2)
    return false;
  return l.kind == NC_DATAFLOW_LAYER_CONV || l.kind == NC_DATAFLOW_LAYER_MATMUL || l.kind == NC_DATAFLOW_LAYER_MAX_POOL ||
         l.kind == NC_DATAFLOW_LAYER_AVG_POOL || l.kind == NC_DATAFLOW_LAYER_ELTWISE ||
         l.kind == NC_DATAFLOW_LAYER_LUT || (l.kind == NC_DATAFLOW_LAYER_CONCAT && !nc_core_node_is_foldable_concat(node));
}

/* Multiply-accumulates (or vector operations) per frame, as core-place counts them. */
static double layer_work(nc_op *node, int64_t *halo)
{
  nc_dataflow_layer l;
  nc_type *out = nc_value_get_type(nc_op_get_result(node, 0));
  double elems = (double)nc_type_get_num_elements(out), per = 1;
  int64_t c = nc_core_node_get_out_channels(node);
  *halo = 0;
  if (!nc_dataflow_node_get_layer(node, &l))
    return elems;
  if (l.kind == NC_DATAFLOW_LAYER_CONV && l.weights && c > 0)
    per = (double)nc_type_get_num_elements(nc_attr_get_type(l.weights)) / (double)c;
  else if (l.kind == NC_DATAFLOW_LAYER_MATMUL && l.weights)
    per = (double)nc_type_get_shape(nc_attr_get_type(l.weights))[0];
  else if (l.kind == NC_DATAFLOW_LAYER_MAX_POOL || l.kind == NC_DATAFLOW_LAYER_AVG_POOL)
    per = (double)(l.kernel[0] * l.kernel[1]);
  if (l.kind == NC_DATAFLOW_LAYER_CONV || l.kind == NC_DATAFLOW_LAYER_MAX_POOL || l.kind == NC_DATAFLOW_LAYER_AVG_POOL) {
    int64_t span = (l.kernel[0] - 1) * (l.dilation[0] > 0 ? l.dilation[0] : 1) + 1;
    *halo = span > l.stride[0] ? span - l.stride[0] : 0;
  }
  return elems * per;
}

/* The share of a stage's work its largest tile holds: bands are whole rows,
 * and (for a stage whose channel slices a joint round may change) slices
 * whole channels; otherwise its k slices are taken as equal. */
static double share_of(const band_stage *s, int64_t k, int64_t r)
{
  double rows = r <= 1 || s->rows <= 0 ? 1.0 : (double)((s->rows + r - 1) / r) / (double)s->rows;
  if (s->klimit > s->k0 && s->c > 0)
    return rows * (double)((s->c + k - 1) / k) / (double)s->c;
  return rows / (double)(k > 0 ? k : 1);
}

static int64_t next_bands(const band_stage *s);

/* One split a joint round may give a stage. */
typedef struct split_choice {
  int64_t k, r;
} split_choice;

/* Candidates a joint round tries, at most (the fewest tiles first). */
#define MAX_CHOICES 24

static const band_stage *choice_stage;
static int cmp_choice(const void *a, const void *b)
{
  const split_choice *x = a, *y = b;
  int64_t tx = x->k * x->r, ty = y->k * y->r;
  if (tx != ty)
    return tx < ty ? -1 : 1;
  double sx = share_of(choice_stage, x->k, x->r), sy = share_of(choice_stage, y->k, y->r);
  return sx < sy ? -1 : sx > sy ? 1 : (x->k > y->k) - (x->k < y->k);
}

/* The splits that make a stage's largest tile smaller than now: per number
 * of channel slices (its current ones up to klimit), the fewest bands (at
 * most limit) that do it, ordered by tiles (ties: the smaller tile). Without
 * channel choice, the fewest more bands. Returns how many (at most
 * MAX_CHOICES) are in c[]. */
static size_t split_choices(const band_stage *s, int64_t cores, split_choice *c)
{
  if (s->klimit <= s->k0) {
    c[0] = (split_choice){s->k, next_bands(s)};
    return c[0].r <= s->limit ? 1 : 0;
  }
  double cur = share_of(s, s->k, s->r);
  size_t n = 0;
  split_choice all[4 * MAX_CHOICES];
  for (int64_t kk = s->k; kk <= s->klimit && kk <= cores && n < 4 * MAX_CHOICES; kk++) {
    double cs = share_of(s, kk, 1);
    int64_t rr = 1;
    if (cs >= cur) { /* bands too: the most rows per band that make the tile smaller than now */
      if (s->rows <= 0 || s->limit <= 1)
        continue;
      double m = cur / cs * (double)s->rows;
      int64_t most = (int64_t)m;
      if ((double)most >= m)
        most--;
      if (most < 1)
        continue;
      rr = (s->rows + most - 1) / most;
    }
    if (rr <= s->limit && share_of(s, kk, rr) < cur && kk * rr <= cores && kk * rr > s->k * s->r)
      all[n++] = (split_choice){kk, rr};
  }
  choice_stage = s;
  qsort(all, n, sizeof *all, cmp_choice);
  n = n < MAX_CHOICES ? n : MAX_CHOICES;
  memcpy(c, all, n * sizeof *c);
  return n;
}

/* The fewest bands above r whose largest band is smaller than r's. */
static int64_t next_bands(const band_stage *s)
{
  int64_t most = (s->rows + s->r - 1) / s->r; /* rows in the largest band now */
  return most <= 1 ? s->r + 1 : (s->rows + most - 2) / (most - 1);
}

/* How many tiles of consumer j one row of its input reaches. */
static double reach(const band_stage *j, int64_t in_rows)
{
  double extra = in_rows > 0 ? (double)(j->r - 1) * (double)j->halo / (double)in_rows : 0;
  return (double)j->k * (1.0 + (extra < (double)(j->r - 1) ? extra : (double)(j->r - 1)));
}

/* What the band cost model reads besides the stages: who reads whom, the
 * host's inputs, the chip's rates and whether sends leave as multicasts. */
typedef struct band_model {
  size_t n;
  bool *reads;      /* [producer or host][consumer] */
  /* the same as lists, ascending (the rounds ask a stage's readers and
   * producers for every choice: scanning reads' rows made balancing
   * quadratic in the stages): readers[readers_at[p] .. readers_at[p + 1]]
   * read p (p == n: the host), producers[producers_at[j] ..] feed j */
  size_t *readers_at, *readers, *producers_at, *producers;
  double *in_bytes; /* per consumer: bytes it reads from the host */
  int64_t *in_rows; /* and the rows of that input */
  double rate, bw;
  bool exact_multicast; /* exact_cycles: sends leave as multicasts (core-multicast) */
  double copy_rate;  /* bytes per cycle of a copy within a core (a message to a tile of the same core) */
  bool multicast;    /* an iteration leaves once to all the tiles that read it (core-multicast) */
  double recv_links; /* links into a core its messages share at most (0: receiving is not costed) */
  double minmax_links; /* exact_cycles: links into a core distinct producers' messages may take (core_link_cost.h) */
  double single_links; /* exact_cycles: the same for a stage that reads one producer's tiles only (0: minmax_links) */
} band_model;

/* Fills m's reader and producer lists from m->reads; false when out of
 * memory (the lists are then freed). */
static bool band_model_list_reads(band_model *m)
{
  size_t n = m->n, edges = 0;
  for (size_t e = 0; e < (n + 1) * n; e++)
    edges += m->reads[e];
  m->readers_at = calloc(n + 2, sizeof *m->readers_at), m->producers_at = calloc(n + 2, sizeof *m->producers_at);
  m->readers = malloc((edges + 1) * sizeof *m->readers), m->producers = malloc((edges + 1) * sizeof *m->producers);
  if (!m->readers_at || !m->producers_at || !m->readers || !m->producers) {
    free(m->readers_at), free(m->producers_at), free(m->readers), free(m->producers);
    m->readers_at = m->producers_at = m->readers = m->producers = NULL;
    return false;
  }
  size_t r = 0, q = 0;
  for (size_t p = 0; p <= n; p++) {
    m->readers_at[p] = r;
    for (size_t j = 0; j < n; j++)
      if (m->reads[p * n + j])
        m->readers[r++] = j;
  }
  m->readers_at[n + 1] = r;
  for (size_t j = 0; j <= n; j++) {
    m->producers_at[j] = q;
    for (size_t p = 0; j < n && p <= n; p++)
      if (m->reads[p * n + j])
        m->producers[q++] = p;
  }
  m->producers_at[n + 1] = q;
  return true;
}

/* The share of a producer's output with `in_rows` rows that one band of
 * consumer j reads: its rows plus the window's halo. */
static double band_reads(const band_stage *j, int64_t in_rows)
{
  if (j->r <= 1 || in_rows <= 0)
    return 1.0;
  double f = 1.0 / (double)j->r + (double)j->halo / (double)in_rows;
  return f < 1.0 ? f : 1.0;
}

/* Cycles per frame the links into stage i's largest tile are busy: the
 * bytes of every producer tile's messages holding rows it reads (and of the
 * host's), at the link width, over as many links as tiles send to it and
 * m->recv_links at most (core-place{recv-links}: XY routes from a cluster
 * of producers tend to share one or two of a core's four links; the
 * placement does not exist yet, so the model takes the worst it allows). */
static double recv_cycles(const band_model *m, const band_stage *st, size_t i)
{
  double bytes = 0, sources = 0;
  for (size_t e = m->producers_at[i]; e < m->producers_at[i + 1]; e++) {
    size_t p = m->producers[e];
    double f = band_reads(&st[i], p < m->n ? st[p].rows : m->in_rows[i]);
    bytes += (p < m->n ? st[p].out_bytes : m->in_bytes[i]) * f;
    sources += p < m->n ? (double)st[p].k * (1.0 + ((double)st[p].r - 1.0) * f) : 1.0;
  }
  double links = sources < 1 ? 1 : sources < m->recv_links ? sources : m->recv_links;
  return bytes / m->bw / links;
}

/* The host's port cycles per frame: every input to every tile reading it
 * (once, as a multicast, when `multicast`). */
static double host_cycles(const band_model *m, const band_stage *st, bool multicast)
{
  double t = 0;
  for (size_t e = m->readers_at[m->n]; e < m->readers_at[m->n + 1]; e++) {
    size_t j = m->readers[e];
    t += m->in_bytes[j] * (multicast ? 1.0 : reach(&st[j], m->in_rows[j])) / m->bw;
  }
  return t;
}

/* Cycles per frame of stage i's tiles (i == n: the host): the largest
 * tile's work and sends, or what its links bring in, whichever is longer. */
static double band_cycles(const band_model *m, const band_stage *st, size_t i)
{
  size_t n = m->n;
  if (i < n && st[i].follower)
    return 0;
  double dests = i < n && st[i].to_host ? 1 : 0, bytes = i < n ? st[i].out_bytes : 0, to_tiles = 0;
  int64_t rows = i < n ? st[i].rows : 0;
  for (size_t e = m->readers_at[i]; e < m->readers_at[i + 1]; e++) {
    size_t j = m->readers[e];
    to_tiles += reach(&st[j], rows ? rows : st[j].rows);
  }
  if (m->multicast && to_tiles > 1)
    to_tiles = 1; /* one multicast to every tile that reads the row */
  dests += to_tiles;
  if (i == n) /* the host */
    return host_cycles(m, st, m->multicast);
  double busy = (st[i].work / m->rate + bytes * dests / m->bw) * share_of(&st[i], st[i].k, st[i].r);
  double in = m->recv_links > 0 ? recv_cycles(m, st, i) : 0;
  return busy > in ? busy : in;
}

static double slowest_band(const band_model *m, const band_stage *st, size_t *which)
{
  double most = -1;
  for (size_t i = 0; i <= m->n; i++) {
    double c = band_cycles(m, st, i);
    if (c > most)
      most = c, *which = i;
  }
  return most;
}

/* The share of stage s's work its largest tile holds with k channel slices
 * and r bands, whole channels and whole rows. */
static double exact_share(const band_stage *s, int64_t k, int64_t r)
{
  double rows = r <= 1 || s->rows <= 0 ? 1.0 : (double)((s->rows + r - 1) / r) / (double)s->rows;
  if (s->c > 0 && k <= s->c)
    return rows * (double)((s->c + k - 1) / k) / (double)s->c;
  return rows / (double)(k > 0 ? k : 1);
}

/* Port cycles per frame of stage i's whole output to its readers (tiles
 * other than its followers, and the host), and whether it also copies it
 * to followers on its own cores. */
static double exact_sends(const band_model *m, const band_stage *st, size_t i, bool *local)
{
  double to_tiles = 0;
  *local = false;
  for (size_t j = 0; j < m->n; j++)
    if (m->reads[i * m->n + j]) {
      if (st[j].follower && st[j].host == i)
        *local = true;
      else
        to_tiles += reach(&st[j], st[i].rows ? st[i].rows : st[j].rows);
    }
  if (m->exact_multicast && to_tiles > 1)
    to_tiles = 1;
  return st[i].xbytes * st[i].packed * (to_tiles + (st[i].to_host ? 1 : 0)) / m->bw;
}

/* Cycles per frame the links into stage i's largest tile are busy
 * (refine_minmax's model, core_link_recv_cycles): each producer's bytes
 * holding rows it reads, from as many of the producer's tiles as send
 * them; a concat core-fold-concat removes stands for its producers, which
 * send to its readers themselves. */
static double exact_recv(const band_model *m, const band_stage *st, size_t i)
{
  size_t n = m->n, ns = 0;
  core_link_source *src = nc_xcalloc(n + 1, sizeof *src);
  for (size_t p = 0; p <= n; p++) {
    if (!m->reads[p * n + i])
      continue;
    double f = band_reads(&st[i], p < n ? st[p].rows : m->in_rows[i]);
    if (p < n && st[p].folded) {
      for (size_t q = 0; q < n; q++) /* the concat's producers */
        if (m->reads[q * n + p] && ns <= n)
          src[ns++] = (core_link_source){st[q].xbytes * f, (double)st[q].k * (1.0 + ((double)st[q].r - 1.0) * f)};
      continue;
    }
    src[ns++] = p < n ? (core_link_source){st[p].xbytes * f, (double)st[p].k * (1.0 + ((double)st[p].r - 1.0) * f)}
                      : (core_link_source){m->in_bytes[i] * f, 1.0};
  }
  double links = ns == 1 && m->single_links > m->minmax_links ? m->single_links : m->minmax_links;
  double c = core_link_recv_cycles(src, ns, m->bw, links);
  free(src);
  return c;
}

/* Cycles per frame of stage i's largest tile as the simulator times them
 * (refine_minmax's model; i == n: the host): band_cycles' terms, but with
 * the bytes messages carry (packed below 8 bits) on the ports, receiving
 * at a byte an element as exact_recv says (over one link by default: the
 * margin for link contention, as band_cycles with recv-links=1), a folded
 * concat nothing, a message to an add
 * following the stage's tiles a copy within the core (the longer of port
 * and copy with multicast, which run side by side), and each such add's
 * work, sends and other operand's bytes on the stage's tiles (cut like
 * them: the same share). */
static double exact_cycles(const band_model *m, const band_stage *st, size_t i)
{
  size_t n = m->n;
  if (i == n)
    return host_cycles(m, st, m->exact_multicast);
  if (st[i].follower || st[i].folded)
    return 0;
  bool local, unused;
  double share = exact_share(&st[i], st[i].k, st[i].r);
  double port = exact_sends(m, st, i, &local), copy = local ? st[i].xbytes * st[i].packed / m->copy_rate : 0;
  double own = st[i].xwork / m->rate + (m->exact_multicast ? (port > copy ? port : copy) : port + copy), guests = 0, in = 0;
  for (size_t f = 0; f < n; f++) {
    if (!st[f].follower || st[f].host != i)
      continue;
    guests += st[f].xwork / m->rate + exact_sends(m, st, f, &unused);
    for (size_t p = 0; p < n; p++)
      if (p != i && m->reads[p * n + f])
        in += st[p].xbytes;
  }
  double busy = (own + guests) * share; /* a follower's other operand: over one link, the margin the links need */
  in = in * share / m->bw + exact_recv(m, st, i);
  return busy > in ? busy : in;
}

static double exact_slowest(const band_model *m, const band_stage *st)
{
  double most = 0;
  for (size_t i = 0; i <= m->n; i++) {
    double c = exact_cycles(m, st, i);
    most = c > most ? c : most;
  }
  return most;
}

/* One split of a stage: its tiles and its largest tile's cycles per frame. */
typedef struct split_option {
  int64_t k, r;
  double cycles;
} split_option;

static int cmp_option(const void *a, const void *b)
{
  const split_option *x = a, *y = b;
  int64_t tx = x->k * x->r, ty = y->k * y->r;
  if (tx != ty)
    return tx < ty ? -1 : 1;
  return x->cycles < y->cycles ? -1 : x->cycles > y->cycles;
}

static int cmp_double(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

/* The next count above v of pieces of `total` whose largest piece is smaller
 * than v's (whole units); total + 1 when none. */
static int64_t next_piece_count(int64_t total, int64_t v)
{
  int64_t most = (total + v - 1) / v;
  return most <= 1 ? total + 1 : (total + most - 2) / (most - 1);
}

/* Stage i's splits worth having: for each count of tiles, none slower than
 * one with fewer tiles (fewest tiles first). Returns how many are in *out
 * (malloc'd). */
static size_t stage_options(const band_model *m, band_stage *st, size_t i, int64_t cores, split_option **out)
{
  int64_t k0 = st[i].k, r0 = st[i].r;
  int64_t klo = st[i].kfree ? st[i].kmin : k0, khi = st[i].kfree ? (st[i].c < cores ? st[i].c : cores) : k0;
  int64_t rhi = st[i].limit > 1 ? st[i].limit : r0;
  size_t n = 0, cap = 16;
  split_option *o = nc_xcalloc(cap, sizeof *o);
  for (int64_t k = klo; k <= khi; k = st[i].kfree ? next_piece_count(st[i].c, k) : k + 1)
    for (int64_t r = st[i].limit > 1 ? 1 : r0; r <= rhi && k * r <= cores;
         r = st[i].limit > 1 && st[i].rows > 0 ? next_piece_count(st[i].rows, r) : r + 1) {
      if (n == cap)
        o = nc_xrealloc(o, (cap *= 2) * sizeof *o);
      st[i].k = k, st[i].r = r;
      o[n++] = (split_option){k, r, exact_cycles(m, st, i)};
    }
  st[i].k = k0, st[i].r = r0;
  qsort(o, n, sizeof *o, cmp_option);
  size_t kept = 0;
  for (size_t q = 0; q < n; q++)
    if (!kept || o[q].cycles < o[kept - 1].cycles)
      o[kept++] = o[q];
  *out = o;
  return kept;
}

/* The fewest tiles that bring every stage to at most `bound` cycles per
 * frame (each stage's first option reaching it; INT64_MAX when one cannot). */
static int64_t tiles_for(size_t n, split_option *const *opt, const size_t *n_opt, double bound)
{
  int64_t tiles = 0;
  for (size_t i = 0; i < n; i++) {
    size_t q = 0;
    while (q < n_opt[i] && opt[i][q].cycles > bound)
      q++;
    if (q == n_opt[i])
      return INT64_MAX;
    tiles += opt[i][q].k * opt[i][q].r;
  }
  return tiles;
}

/* The cores beyond `cores` that the next shorter slowest stage would need:
 * the next bound below the split's slowest stage that some stage's option
 * reaches (and the host allows), costed as refine_minmax costs a bound; 0
 * when there is none. What co-locating light tiles would have to free for
 * min-max to go one step further. */
static int64_t cores_short(const band_model *m, const band_stage *st, size_t n, int64_t cores,
                           split_option *const *opt, const size_t *n_opt)
{
  double now = exact_slowest(m, st), host = exact_cycles(m, st, n), next = -1;
  for (size_t i = 0; i < n; i++)
    for (size_t q = 0; q < n_opt[i]; q++)
      if (opt[i][q].cycles < now && opt[i][q].cycles >= host && opt[i][q].cycles > next)
        next = opt[i][q].cycles;
  int64_t tiles = next < 0 ? INT64_MAX : tiles_for(n, opt, n_opt, next);
  return tiles == INT64_MAX || tiles <= cores ? 0 : tiles - cores;
}

/* Replaces the greedy rounds' split by the one whose slowest stage (as the
 * simulator times it, exact_cycles) is the shortest the cores allow, when
 * that is faster: the stages' cycles hardly depend on one another (sends
 * leave as multicasts, receiving is costed over one link), so the shortest
 * slowest stage B is the least for which the fewest tiles bringing every
 * stage to at most B add up to at most `cores` (a binary search over the
 * stages' cycles); greedy rounds stop where the next split of the slowest
 * stage needs cores another layer holds without need. */
static void refine_minmax(const band_model *m, band_stage *st, size_t n, int64_t cores, int64_t *cycles)
{
  split_option **opt = nc_xcalloc(n + 1, sizeof *opt);
  size_t *n_opt = nc_xcalloc(n + 1, sizeof *n_opt), n_b = 0;
  for (size_t i = 0; i < n; i++)
    n_b += n_opt[i] = stage_options(m, st, i, cores, &opt[i]);
  double *bs = nc_xcalloc(n_b + 1, sizeof *bs), before = exact_slowest(m, st), host = exact_cycles(m, st, n);
  n_b = 0;
  for (size_t i = 0; i < n; i++)
    for (size_t q = 0; q < n_opt[i]; q++)
      if (opt[i][q].cycles >= host && opt[i][q].cycles < before)
        bs[n_b++] = opt[i][q].cycles;
  qsort(bs, n_b, sizeof *bs, cmp_double);
  size_t lo = 0, hi = n_b; /* the least feasible B is bs[lo], none when lo == n_b */
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (tiles_for(n, opt, n_opt, bs[mid]) <= cores)
      hi = mid;
    else
      lo = mid + 1;
  }
  if (lo < n_b) {
    int64_t *old = nc_xcalloc(2 * n + 1, sizeof *old);
    for (size_t i = 0; i < n; i++) {
      size_t q = 0;
      while (q < n_opt[i] && opt[i][q].cycles > bs[lo])
        q++;
      old[2 * i] = st[i].k, old[2 * i + 1] = st[i].r;
      st[i].k = opt[i][q].k, st[i].r = opt[i][q].r;
    }
    int64_t used = 0;
    for (size_t i = 0; i < n; i++)
      used += st[i].k * st[i].r;
    for (int64_t step = 0; step < cores; step++) { /* the cores left: the slowest stage's next split while one fits */
      size_t s = n;
      double most = exact_cycles(m, st, n);
      for (size_t i = 0; i < n; i++) {
        double c = exact_cycles(m, st, i);
        if (c > most)
          most = c, s = i;
      }
      size_t q = 0;
      while (s < n && q < n_opt[s] && (opt[s][q].cycles >= most || opt[s][q].k * opt[s][q].r <= st[s].k * st[s].r))
        q++;
      if (s == n || q == n_opt[s] || used + opt[s][q].k * opt[s][q].r - st[s].k * st[s].r > cores)
        break;
      used += opt[s][q].k * opt[s][q].r - st[s].k * st[s].r;
      st[s].k = opt[s][q].k, st[s].r = opt[s][q].r;
    }
    if (exact_slowest(m, st) >= before) /* the stages' dependences made it no faster */
      for (size_t i = 0; i < n; i++)
        st[i].k = old[2 * i], st[i].r = old[2 * i + 1];
    free(old);
  }
  if (cycles)
    cycles[0] = (int64_t)(before + 0.5), cycles[1] = (int64_t)(exact_slowest(m, st) + 0.5),
    cycles[2] = cores_short(m, st, n, cores, opt, n_opt);
  for (size_t i = 0; i < n; i++)
    free(opt[i]);
  free(opt), free(n_opt), free(bs);
}

/* The slowest stage core-replicate can reach from this split with `spare`
 * cores: while the next copy of the slowest stage's tiles fits, it gets one
 * (max_copies of a stage at most; the host's link takes none), each copy
 * dividing the stage's cycles per frame. cycles and copies: n + 1 scratch. */
static double after_copies(const band_model *m, const band_stage *st, int64_t spare, int64_t max_copies, double *cycles,
                           int64_t *copies)
{
  for (size_t i = 0; i <= m->n; i++)
    cycles[i] = band_cycles(m, st, i), copies[i] = 1;
  for (;;) {
    size_t s = m->n;
    double most = cycles[m->n];
    for (size_t i = 0; i < m->n; i++)
      if (cycles[i] / (double)copies[i] > most)
        most = cycles[i] / (double)copies[i], s = i;
    if (s == m->n || copies[s] >= max_copies || st[s].k * st[s].r > spare)
      return most;
    spare -= st[s].k * st[s].r, copies[s]++;
  }
}

/* Bands one balancing round may add (see balance_bands). */
#define BAND_LOOKAHEAD 8

/* Bands (and, for joint stages, channel slices) per stage: the slowest
 * stage gets its next split while that helps. */
static void balance_bands(nc_op *chip, band_stage *st, size_t n, int64_t cores, const core_band_costs *costs)
{
  nc_chip_desc d;
  if (!nc_chip_desc_of_module(nc_op_get_parent_op(chip), false, &d))
    return;
  band_model m = {.n = n, .rate = (double)nc_chip_desc_macs_per_cycle(&d, 8), .bw = (double)d.link_bytes_per_cycle,
                  .multicast = costs->multicast, .recv_links = (double)costs->recv_links};
  m.rate = m.rate > 0 ? m.rate : 1, m.bw = m.bw > 0 ? m.bw : 1, m.copy_rate = m.rate;
  m.exact_multicast = costs->multicast_sends || costs->multicast;
  m.minmax_links = (double)costs->minmax_recv_links;
  m.single_links = (double)costs->minmax_single_links;
  bool *reads = m.reads = calloc((n + 1) * n + 1, sizeof *reads);
  double *in_bytes = m.in_bytes = calloc(n + 1, sizeof *in_bytes);
  int64_t *in_rows = m.in_rows = calloc(n + 1, sizeof *in_rows);
  if (!reads || !in_bytes || !in_rows) {
    free(reads), free(in_bytes), free(in_rows);
    return;
  }
  for (size_t j = 0; j < n; j++)
    for (size_t o = 0, no = nc_op_get_num_operands(st[j].node); o < no; o++) {
      nc_op *p = nc_dataflow_node_get_producer(st[j].node, o);
      for (size_t i = 0; i < n; i++)
        if (p == st[i].node)
          reads[i * n + j] = true;
      if (!p) {
        reads[n * n + j] = true;
        nc_type *t = nc_value_get_type(nc_op_get_operand(st[j].node, o));
        int64_t dims[NC_MAX_RANK];
        in_bytes[j] += (double)nc_type_get_num_elements(t);
        in_rows[j] = nc_dataflow_tensor_coords(t, dims) == 3 ? dims[1] : 0;
      }
    }
  if (!band_model_list_reads(&m)) {
    free(reads), free(in_bytes), free(in_rows);
    return;
  }
  int64_t used = 0;
  for (size_t i = 0; i < n; i++)
    used += st[i].k * st[i].r;
  /* with plan_copies: the split (after some rounds) from which copies reach
   * the fastest slowest stage; rounds after it are undone at the end */
  int64_t *plan_k = NULL, *plan_r = NULL, *copies = NULL;
  double *scratch = NULL, plan_best = 0;
  if (costs->plan_copies > 1 && (plan_k = malloc((n + 1) * sizeof *plan_k)) && (plan_r = malloc((n + 1) * sizeof *plan_r)) &&
      (copies = malloc((n + 1) * sizeof *copies)) && (scratch = malloc((n + 1) * sizeof *scratch))) {
    plan_best = after_copies(&m, st, cores - used, costs->plan_copies, scratch, copies);
    for (size_t i = 0; i < n; i++)
      plan_k[i] = st[i].k, plan_r[i] = st[i].r;
  }
  for (;;) {
    size_t s = 0, cur, added[BAND_LOOKAHEAD], n_added = 0;
    int64_t old_k[BAND_LOOKAHEAD], old_r[BAND_LOOKAHEAD];
    double before = slowest_band(&m, st, &s), after = before;
    bool failed = false;
    /* a round: one more band for the slowest stage; when that leaves a stage
     * (a producer now sending to more bands) slower than the round's start,
     * the round goes on with whichever stage is slowest, a few bands at most */
    for (cur = s; !failed && n_added < BAND_LOOKAHEAD;) {
      split_choice c[MAX_CHOICES];
      size_t n_c = cur < n ? split_choices(&st[cur], cores, c) : 0, pick = 0;
      while (n_c && used + c[n_c - 1].k * c[n_c - 1].r - st[cur].k * st[cur].r > cores)
        n_c--; /* sorted by tiles: the last ones need the most */
      if (!n_c) {
        failed = true;
        break;
      }
      double mine = band_cycles(&m, st, cur);
      size_t at = cur;
      old_k[n_added] = st[at].k, old_r[n_added] = st[at].r, added[n_added++] = at;
      /* the choice with the fewest tiles that makes the slowest stage
       * faster (channel slices each receive the whole input: they may make
       * the producers, or the host, slower than bands would), the one that
       * leaves the slowest stage fastest among those; if none does, the
       * same among the choices that make this stage faster, and the round
       * goes on with the slowest stage */
      double best_glob = 0, best_local = 0;
      int best_class = 2;
      for (size_t q = 0; q < n_c; q++) {
        st[at].k = c[q].k, st[at].r = c[q].r;
        if (band_cycles(&m, st, at) >= mine)
          continue;
        double glob = slowest_band(&m, st, &cur), local = 0;
        for (size_t p = 0; p <= n; p++) /* the stage and what feeds it: ties between equal slowest stages */
          if (p == at || (p == n ? reads[n * n + at] : reads[p * n + at]))
            local += band_cycles(&m, st, p);
        int cls = glob < before ? 0 : 1;
        int64_t tq = c[q].k * c[q].r, tp = c[pick].k * c[pick].r;
        if (cls < best_class ||
            (cls == best_class && (tq < tp || (tq == tp && (glob < best_glob || (glob == best_glob && local < best_local))))))
          pick = q, best_class = cls, best_glob = glob, best_local = local;
      }
      st[at].k = old_k[n_added - 1], st[at].r = old_r[n_added - 1];
      used += c[pick].k * c[pick].r - st[at].k * st[at].r, st[at].k = c[pick].k, st[at].r = c[pick].r;
      failed = band_cycles(&m, st, at) >= mine; /* no faster */
      after = slowest_band(&m, st, &cur);
      if (after <= before)
        break;
    }
    if (failed || after > before) {
      while (n_added) { /* undo the round */
        size_t u = added[--n_added];
        used -= st[u].k * st[u].r - old_k[n_added] * old_r[n_added], st[u].k = old_k[n_added], st[u].r = old_r[n_added];
      }
      break;
    }
    double planned = scratch ? after_copies(&m, st, cores - used, costs->plan_copies, scratch, copies) : 0;
    if (scratch && planned < plan_best) {
      plan_best = planned;
      for (size_t i = 0; i < n; i++)
        plan_k[i] = st[i].k, plan_r[i] = st[i].r;
    }
  }
  if (costs->minmax && !scratch)
    refine_minmax(&m, st, n, cores, costs->minmax_cycles);
  for (size_t i = 0; scratch && i < n; i++) /* back to the planned split */
    st[i].k = plan_k[i], st[i].r = plan_r[i];
  free(plan_k), free(plan_r), free(copies), free(scratch);
  free(reads), free(in_bytes), free(in_rows);
  free(m.readers_at), free(m.readers), free(m.producers_at), free(m.producers);
}

/* Layers whose output-channel slices a joint round may change (as
 * core-place's balancing splits them). */
static bool channel_splittable(nc_op *node)
{
  nc_dataflow_layer l;
  return nc_dataflow_node_get_layer(node, &l) && (l.kind == NC_DATAFLOW_LAYER_CONV || l.kind == NC_DATAFLOW_LAYER_MAX_POOL);
}

/* Replaces the channel slices of st->node (whole or in st->k0 slices, no
 * bands yet) by st->k balanced slices [C*j/k, C*(j+1)/k), in place. */
static bool resplit_channels(nc_op *chip, band_stage *st, isl_ctx *ictx)
{
  const char *name = nc_dataflow_node_get_name(st->node);
  nc_op *first = NULL, *next;
  for (nc_op *t = nc_core_chip_first_tile(chip); t; t = next) {
    next = nc_core_tile_next(t);
    if (strcmp(nc_core_tile_get_node(t), name))
      continue;
    if (first)
      nc_op_erase(t);
    else
      first = t;
  }
  if (!first)
    return true;
  if (st->k > 1)
    return core_tile_split_channels(first, st->node, st->k, ictx);
  nc_core_buffer_spec *specs; /* one tile: the whole node, as core-place made it */
  size_t n;
  char err[512];
  if (!core_node_buffers(st->node, 0, 0, ictx, &specs, &n, err, sizeof err))
    return nc_op_emit_error(st->node, "core-place: %s", err);
  nc_op_remove_attr(first, nc_ident_get_cstr(nc_op_get_context(first), "out_channels"));
  nc_core_tile_clear_buffers(first);
  for (size_t i = 0; i < n; i++)
    nc_core_tile_add_buffer(first, specs[i].name, specs[i].kind, specs[i].bytes, -1);
  free(specs);
  return true;
}

/* Splits every tile of st->node into st->r bands of its rows, in place. */
static void split_bands(nc_op *chip, band_stage *st)
{
  const char *name = nc_dataflow_node_get_name(st->node);
  nc_op **tiles = calloc((size_t)st->k + 1, sizeof *tiles);
  if (!tiles)
    return;
  int64_t n = 0;
  for (nc_op *t = nc_core_chip_first_tile(chip); t && n < st->k; t = nc_core_tile_next(t))
    if (!strcmp(nc_core_tile_get_node(t), name))
      tiles[n++] = t;
  for (int64_t i = 0; i < n; i++) {
    nc_op *t = tiles[i], *prev = t;
    int64_t lo = 0, hi = 0, ilo = 0, ihi = 0;
    nc_core_tile_get_out_channels(t, &lo, &hi);
    bool sliced = nc_core_tile_get_in_channels(t, &ilo, &ihi);
    for (int64_t b = 1; b < st->r; b++) {
      nc_op *nt = nc_core_tile_create(chip, nc_op_get_loc(t), name, -1, -1, lo, hi);
      nc_core_tile_set_out_rows(nt, st->rows * b / st->r, st->rows * (b + 1) / st->r);
      if (sliced) /* a band of an input-channel group: a group of its own */
        nc_core_tile_set_in_channels(nt, ilo, ihi);
      for (nc_op *buf = nc_core_tile_first_buffer(t); buf; buf = nc_core_buffer_next(buf))
        nc_core_tile_add_buffer(nt, nc_core_buffer_get_name(buf), nc_core_buffer_get_kind(buf),
                                nc_core_buffer_get_bytes(buf), -1); /* a band needs what the slice needs */
      nc_op_move_after(nt, prev);
      prev = nt;
    }
    nc_core_tile_set_out_rows(t, 0, st->rows / st->r);
  }
  free(tiles);
}

static bool reads_host(nc_op *node)
{
  for (size_t o = 0, m = nc_op_get_num_operands(node); o < m; o++)
    if (!nc_dataflow_node_get_producer(node, o))
      return true;
  return false;
}

/* Joins the output-channel slices of a node that reads a network input back
 * into one tile when the whole node fits a core: the host's one link sends
 * the input to every slice, bands get it about once. */
static bool join_host_slices(nc_op *chip, nc_op *node, isl_ctx *ictx)
{
  const char *name = nc_dataflow_node_get_name(node);
  nc_core_buffer_spec *specs;
  size_t n_specs;
  char err[512];
  if (!core_node_buffers(node, 0, 0, ictx, &specs, &n_specs, err, sizeof err))
    return nc_op_emit_error(node, "core-place: %s", err);
  int64_t need = 0;
  for (size_t i = 0; i < n_specs; i++)
    need = need > INT64_MAX - specs[i].bytes ? INT64_MAX : need + specs[i].bytes;
  nc_op *first = NULL, *next;
  if (need <= nc_core_chip_get_sram_bytes(chip))
    for (nc_op *t = nc_core_chip_first_tile(chip); t; t = next) {
      next = nc_core_tile_next(t);
      if (strcmp(nc_core_tile_get_node(t), name))
        continue;
      if (first) {
        nc_op_erase(t);
        continue;
      }
      first = t;
      nc_op_remove_attr(t, nc_ident_get_cstr(nc_op_get_context(t), "out_channels"));
      nc_core_tile_clear_buffers(t);
      for (size_t i = 0; i < n_specs; i++)
        nc_core_tile_add_buffer(t, specs[i].name, specs[i].kind, specs[i].bytes, -1);
    }
  free(specs);
  return true;
}

/* refine_minmax's inputs: the stage each add follows, and the fewest
 * channel slices SRAM allows each stage whose slices it may change (a
 * stage with followers or, with guests, any stage keeps at least the ones
 * it has: those fill spare SRAM the balancing left). */
static bool prepare_minmax(nc_op *chip, band_stage *st, size_t n, const core_band_costs *costs, isl_ctx *ictx)
{
  bool any_guest = false;
  for (size_t i = 0; costs->guests && i < n; i++)
    any_guest = any_guest || (costs->guests[i] && !st[i].follower && !(costs->small && costs->small[i]));
  for (size_t i = 0; i < n; i++) {
    if (!st[i].follower)
      continue;
    int o = core_add_followed_operand(st[i].node);
    nc_op *p = o >= 0 ? nc_dataflow_node_get_producer(st[i].node, (size_t)o) : NULL;
    for (size_t j = 0; p && j < n; j++)
      if (st[j].node == p)
        st[i].host = j, st[j].kfree = false;
  }
  int64_t sram = nc_core_chip_get_sram_bytes(chip);
  for (size_t i = 0; i < n; i++) {
    if (!st[i].kfree || any_guest)
      continue;
    for (int64_t k = 1; k < st[i].k; k++) {
      nc_core_buffer_spec *specs;
      size_t n_specs;
      char err[512];
      if (!core_node_buffers(st[i].node, 0, (st[i].c + k - 1) / k, ictx, &specs, &n_specs, err, sizeof err))
        return nc_op_emit_error(st[i].node, "core-place: %s", err);
      int64_t bytes = 0;
      for (size_t b = 0; b < n_specs; b++)
        bytes = bytes > INT64_MAX - specs[b].bytes ? INT64_MAX : bytes + specs[b].bytes;
      free(specs);
      if (bytes <= sram) {
        st[i].kmin = k;
        break;
      }
    }
  }
  return true;
}

bool *core_nodes_split_already(nc_op *chip, nc_op *fn)
{
  size_t n = nc_dataflow_num_nodes(fn), i = 0;
  bool *split = calloc(n + 1, sizeof *split);
  if (!split) {
    nc_op_emit_error(chip, "core-place: out of memory");
    return NULL;
  }
  for (nc_op *node = nc_dataflow_first_node(fn); node; node = nc_dataflow_next_node(node), i++) {
    int64_t tiles = 0, lo, hi;
    for (nc_op *t = nc_core_chip_first_tile(chip); t; t = nc_core_tile_next(t))
      if (!strcmp(nc_core_tile_get_node(t), nc_dataflow_node_get_name(node)))
        tiles += 1 + (nc_core_tile_get_out_channels(t, &lo, &hi) || nc_core_tile_get_out_rows(t, &lo, &hi) ||
                      nc_core_tile_get_in_channels(t, &lo, &hi));
    split[i] = tiles > 1;
  }
  return split;
}

bool core_split_rows(nc_op *chip, nc_op *fn, isl_ctx *ictx, const bool *presplit, int64_t forced, bool balance,
                     bool joint, const core_band_costs *costs, int64_t cores, int64_t *n_split)
{
  *n_split = 0;
  size_t n = nc_dataflow_num_nodes(fn), i = 0;
  band_stage *st = calloc(n + 1, sizeof *st);
  if (!st)
    return nc_op_emit_error(chip, "core-place: out of memory");
  for (nc_op *node = nc_dataflow_first_node(fn); node; node = nc_dataflow_next_node(node), i++) {
    band_stage *s = &st[i];
    bool banded = false;
    s->node = node;
    s->r = s->limit = 1;
    s->rows = nc_core_node_get_out_rows(node);
    s->work = layer_work(node, &s->halo);
    s->out_bytes = (double)nc_type_get_num_elements(nc_value_get_type(nc_op_get_result(node, 0)));
    unsigned w = nc_type_get_width(nc_type_get_element_type(nc_value_get_type(nc_op_get_result(node, 0))));
    nc_chip_desc d;
    if (w && w < 8 && nc_chip_desc_of_module(nc_op_get_parent_op(chip), false, &d) &&
        nc_chip_desc_macs_per_cycle(&d, w) > nc_chip_desc_macs_per_cycle(&d, 8))
      s->work = s->work * (double)nc_chip_desc_macs_per_cycle(&d, 8) / (double)nc_chip_desc_macs_per_cycle(&d, w);
    for (nc_use *u = nc_value_get_first_use(nc_op_get_result(node, 0)); u; u = nc_use_get_next(u))
      s->to_host = s->to_host || !nc_dataflow_is_node(nc_use_get_owner(u));
    if ((costs->fold_concat && !s->to_host && nc_core_node_is_foldable_concat(node)) || (costs->guests && costs->guests[i]))
      s->work = s->out_bytes = 0; /* core-fold-concat leaves no tile; a guest's slices share other cores */
    s->follower = costs->adds && costs->adds[i];
    s->folded = costs->minmax_fold_concat && !s->to_host && nc_core_node_is_foldable_concat(node);
    s->xwork = s->follower ? layer_work(node, &s->halo) : s->work;
    s->xbytes = s->follower ? (double)nc_type_get_num_elements(nc_value_get_type(nc_op_get_result(node, 0))) : s->out_bytes;
    s->host = n;
    s->packed = w && w < 8 ? (double)w / 8.0 : 1.0;
    bool partial = false; /* split by input channels: banded when forced, or with costs->partial_bands */
    for (nc_op *t = nc_core_chip_first_tile(chip); t; t = nc_core_tile_next(t)) {
      int64_t lo, hi;
      if (!strcmp(nc_core_tile_get_node(t), nc_dataflow_node_get_name(node)))
        partial = partial || nc_core_tile_get_in_channels(t, &lo, &hi);
    }
    if (balance && !presplit[i] && !partial && reads_host(node) && core_node_row_splittable(node) &&
        !join_host_slices(chip, node, ictx)) {
      free(st);
      return false;
    }
    for (nc_op *t = nc_core_chip_first_tile(chip); t; t = nc_core_tile_next(t))
      if (!strcmp(nc_core_tile_get_node(t), nc_dataflow_node_get_name(node))) {
        int64_t lo, hi;
        s->k++;
        banded = banded || nc_core_tile_get_out_rows(t, &lo, &hi);
      }
    bool small = costs->small && costs->small[i]; /* one whole tile, on another tile's core */
    if (s->k && !banded && (!partial || costs->partial_bands || forced > 1) && !s->follower && !small &&
        core_node_row_splittable(node))
      s->limit = s->rows;
    s->k0 = s->klimit = s->k;
    s->c = nc_core_node_get_out_channels(node);
    bool few_rows = costs->joint_rows > 0 && s->rows > 0 && s->rows <= costs->joint_rows; /* bands too coarse */
    if ((joint || few_rows) && !small && balance && s->k && !banded && !partial && !presplit[i] && channel_splittable(node) &&
        s->c > s->k)
      s->klimit = s->c < cores ? s->c : cores;
    if (forced > 1)
      s->r = forced < s->limit ? forced : s->limit;
    s->kmin = s->k;
    s->kfree = costs->minmax && balance && s->k && !banded && !partial && !presplit[i] && !s->follower && !small &&
               channel_splittable(node) && s->c > 1;
  }
  if (costs->minmax && balance && !prepare_minmax(chip, st, n, costs, ictx)) {
    free(st);
    return false;
  }
  if (balance)
    balance_bands(chip, st, n, cores, costs);
  for (i = 0; i < n; i++) {
    if (st[i].k != st[i].k0 && !resplit_channels(chip, &st[i], ictx)) {
      free(st);
      return false;
    }
    if (st[i].r > 1) {
      split_bands(chip, &st[i]);
      ++*n_split;
    }
  }
  free(st);
  return true;
}
