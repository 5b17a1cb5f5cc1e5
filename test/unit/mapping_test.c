/* mapping_test.c: the machine-independent mapping algorithms
 * (nc/passes/mapping.h): iteration numbering of isl sets (lexicographic
 * order, ranks, S[], unbounded sets refused), lifetimes overlapping, and
 * first-fit allocation with lifetimes (buffers whose lifetimes do not
 * overlap share bytes; alignment; the lowest gap wins).
 */
#include <string.h>

#include <isl/ctx.h>
#include <isl/set.h>

#include "ir_check.h"
#include "nc/passes/mapping.h"

static void test_overlap(void)
{
  CHECK(nc_lifetimes_overlap((nc_lifetime){0, 2}, (nc_lifetime){2, 3}), "touching lifetimes share a position");
  CHECK(!nc_lifetimes_overlap((nc_lifetime){0, 1}, (nc_lifetime){2, 3}), "disjoint lifetimes overlap");
}

static void test_first_fit(void)
{
  /* a [0,4] 100 B, b [0,1] 50 B, c [2,3] 50 B (disjoint from b: shares its bytes), d [0,4] 10 B */
  int64_t bytes[] = {100, 50, 50, 10}, off[4];
  nc_lifetime life[] = {{0, 4}, {0, 1}, {2, 3}, {0, 4}};
  int64_t used = nc_mapping_first_fit(4, bytes, life, 1, off);
  CHECK(off[0] == 0 && off[1] == 100 && off[2] == 100 && off[3] == 150 && used == 160,
        "offsets %lld %lld %lld %lld, used %lld", (long long)off[0], (long long)off[1], (long long)off[2],
        (long long)off[3], (long long)used);
  /* alignment 64: b at 128, c shares it, d after b */
  used = nc_mapping_first_fit(4, bytes, life, 64, off);
  CHECK(off[0] == 0 && off[1] == 128 && off[2] == 128 && off[3] == 192 && used == 202, "aligned offsets");
  /* the lowest gap: x [0,0] 40 B at 0, y [1,1] 100 B at 0, z [0,1] 20 B after both at 100, w [0,0] 30 B fits at 40 */
  int64_t b2[] = {40, 100, 20, 30}, o2[4];
  nc_lifetime l2[] = {{0, 0}, {1, 1}, {0, 1}, {0, 0}};
  used = nc_mapping_first_fit(4, b2, l2, 1, o2);
  CHECK(o2[0] == 0 && o2[1] == 0 && o2[2] == 100 && o2[3] == 40 && used == 120, "gaps: %lld %lld %lld %lld",
        (long long)o2[0], (long long)o2[1], (long long)o2[2], (long long)o2[3]);
}

static void test_iters(void)
{
  isl_ctx *ctx = isl_ctx_alloc();
  isl_set *s = isl_set_read_from_str(ctx, "{ S[y, x] : 0 <= y <= 2 and 0 <= x <= y }");
  nc_iters it;
  CHECK(nc_iters_from_set(s, &it) && it.n == 6 && it.dim == 2, "enumerated %zu points", it.n);
  static const int64_t want[] = {0, 0, 1, 0, 1, 1, 2, 0, 2, 1, 2, 2};
  CHECK(it.coords && !memcmp(it.coords, want, sizeof want), "lexicographic order");
  CHECK(nc_iters_rank(&it, (int64_t[]){2, 1}) == 4 && nc_iters_rank(&it, (int64_t[]){0, 1}) == -1, "rank");
  nc_iters_clear(&it);
  isl_set_free(s);
  s = isl_set_read_from_str(ctx, "{ S[] }");
  CHECK(nc_iters_from_set(s, &it) && it.n == 1 && it.dim == 0 && nc_iters_rank(&it, NULL) == 0, "S[]");
  nc_iters_clear(&it);
  isl_set_free(s);
  s = isl_set_read_from_str(ctx, "{ S[i] : i >= 0 }");
  CHECK(!nc_iters_from_set(s, &it), "an unbounded set enumerated");
  isl_set_free(s);
  /* 10^12 points: refused from the bounding box, before isl enumerates
   * anything (this once grew memory without bound) */
  s = isl_set_read_from_str(ctx, "{ S[y, x] : 0 <= y < 1000000 and 0 <= x < 1000000 }");
  CHECK(!nc_set_fits_enumeration(s, NC_ITERS_MAX_POINTS), "10^12 points fit");
  CHECK(!nc_iters_from_set(s, &it) && it.n == 0 && !it.coords, "10^12 points enumerated");
  isl_set_free(s);
  s = isl_set_read_from_str(ctx, "{ S[y] : -4611686018427387000 <= y <= 4611686018427387000 }");
  CHECK(!nc_set_fits_enumeration(s, NC_ITERS_MAX_POINTS), "a set as wide as int64 fits");
  isl_set_free(s);
  s = isl_set_read_from_str(ctx, "{ S[y, x] : 0 <= y < 8192 and 0 <= x < 8192 }");
  CHECK(nc_set_fits_enumeration(s, NC_ITERS_MAX_POINTS), "2^26 points do not fit");
  isl_set_free(s);
  /* the (iteration, element) pairs of a 112-row conv's writes (resnet18's
   * conv1): the box multiplies the row extent twice (90M > 2^26), but each
   * row's slice holds 64 x 112 pairs, 802816 in all */
  s = isl_set_read_from_str(ctx, "{ [oy, k, y, x] : y = oy and 0 <= oy < 112 and 0 <= k < 64 and 0 <= x < 112 }");
  CHECK(nc_set_fits_enumeration(s, NC_ITERS_MAX_POINTS), "a conv's wrapped writes do not fit");
  isl_set_free(s);
  /* sliced, still too many: 1024 rows of 2^17 pairs each */
  s = isl_set_read_from_str(ctx, "{ [oy, k, y, x] : y = oy and 0 <= oy < 1024 and 0 <= k < 128 and 0 <= x < 1024 }");
  CHECK(!nc_set_fits_enumeration(s, NC_ITERS_MAX_POINTS), "2^27 pairs fit");
  isl_set_free(s);
  isl_ctx_free(ctx);
}

int main(void)
{
  test_overlap();
  test_first_fit();
  test_iters();
  return ir_check_status("mapping_test");
}
