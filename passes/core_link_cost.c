/* core_link_cost.c: the link-contention term of balance-minmax's model.
 *
 * Why its own file: refine_minmax (core_split_rows.c) used to cost every
 * byte a tile receives over one link, a margin for contention that made
 * receiving-bound stages (a max pool after a wide stem, the readers of
 * googlenet's folded concats) look far slower than the chip runs them at
 * 8 bits, so min-max's bound stopped there and it left most layers as
 * slow as that bound. Where a tile's bytes travel is only known after
 * placement; this estimate keeps what holds whatever the placement: the
 * messages from one sending tile follow one XY route, so they enter over
 * one link, and a core has a few links in. See core_link_cost.h.
 */
#include "core_link_cost.h"

double core_link_recv_cycles(const core_link_source *src, size_t n, double bw, double max_links)
{
  double total = 0, tiles = 0, most = 0;
  if (bw <= 0)
    bw = 1;
  for (size_t i = 0; i < n; i++) {
    if (src[i].bytes <= 0)
      continue;
    total += src[i].bytes, tiles += src[i].tiles > 1 ? src[i].tiles : 1;
  }
  if (max_links <= 1 || tiles <= 1)
    return total / bw;
  for (size_t i = 0; i < n; i++) { /* one producer's tiles: over as many links as they are, max_links at most */
    double t = src[i].tiles > 1 ? src[i].tiles : 1, links = t < max_links ? t : max_links;
    most = src[i].bytes / links > most ? src[i].bytes / links : most;
  }
  double links = tiles < max_links ? tiles : max_links, even = total / links;
  return (even > most ? even : most) / bw;
}
