/* mesh_desc.c: the JSON schema of spatial-mesh chip descriptions (mesh.h),
 * shared by the family's targets; each value is checked against its range
 * and a bad one is reported where it is written. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nc/targets/mesh.h"

#define MAX_GRID 4096
#define MAX_SRAM ((int64_t)1 << 32) /* the binary holds 32-bit addresses */

static bool read_ops(nc_desc_reader *r, nc_chip_desc *d)
{
  const char *key;
  size_t n = 0;
  if (!nc_desc_has(r, "core.ops_per_cycle"))
    return nc_desc_error(r, "core.ops_per_cycle", "missing \"core.ops_per_cycle\"");
  for (; (key = nc_desc_get_key(r, "core.ops_per_cycle", n)); n++) {
    char *end, path[64];
    errno = 0;
    long bits = strtol(key, &end, 10);
    if (!*key || *end || errno || bits < 1 || bits > NC_CHIP_MAX_BITS)
      return nc_desc_error(r, "core.ops_per_cycle",
                           "\"core.ops_per_cycle\" keys are precisions in bits (1 to %d), not \"%s\"",
                           NC_CHIP_MAX_BITS, key);
    snprintf(path, sizeof path, "core.ops_per_cycle.%s", key);
    if (!nc_desc_get_int(r, path, 2, (int64_t)1 << 32, false, &d->ops_per_cycle[bits]))
      return false;
  }
  if (!n)
    return nc_desc_error(r, "core.ops_per_cycle", "\"core.ops_per_cycle\" must name at least one precision");
  if (nc_chip_desc_macs_per_cycle(d, 8) <= 0)
    return nc_desc_error(r, "core.ops_per_cycle", "\"core.ops_per_cycle\" needs an entry for 8 bits or wider");
  return true;
}

bool nc_mesh_desc_read(nc_desc_reader *r, const char *const *extra_keys, nc_chip_desc *d)
{
  static const char *const base[] = {"name", "grid", "core", "noc", "clock_hz"};
  const char *known[32];
  size_t n = 0;
  for (size_t i = 0; i < NC_COUNTOF(base); i++)
    known[n++] = base[i];
  for (size_t i = 0; extra_keys && extra_keys[i] && n + 1 < NC_COUNTOF(known); i++)
    known[n++] = extra_keys[i];
  known[n] = NULL;
  static const char *const grid_keys[] = {"rows", "cols", NULL}, *const noc_keys[] = {"hop_latency_cycles",
                                                                                      "link_bytes_per_cycle", NULL};
  static const char *const core_keys[] = {"sram_bytes", "ops_per_cycle", NULL};
  memset(d, 0, sizeof *d);
  return nc_desc_check_keys(r, NULL, known) && nc_desc_get_string(r, "name", false, d->name, sizeof d->name) &&
         nc_desc_check_keys(r, "grid", grid_keys) && nc_desc_get_int(r, "grid.rows", 1, MAX_GRID, false, &d->rows) &&
         nc_desc_get_int(r, "grid.cols", 1, MAX_GRID, false, &d->cols) && nc_desc_check_keys(r, "core", core_keys) &&
         nc_desc_get_int(r, "core.sram_bytes", 1, MAX_SRAM - 1, false, &d->sram_bytes) && read_ops(r, d) &&
         nc_desc_check_keys(r, "noc", noc_keys) &&
         nc_desc_get_int(r, "noc.hop_latency_cycles", 0, 1 << 20, false, &d->hop_latency_cycles) &&
         nc_desc_get_int(r, "noc.link_bytes_per_cycle", 1, 1 << 20, false, &d->link_bytes_per_cycle) &&
         nc_desc_get_real(r, "clock_hz", 1, 1e15, false, &d->clock_hz);
}

nc_attr *nc_mesh_desc_parse(nc_context *ctx, const char *text, size_t len, const char *file)
{
  nc_desc_reader *r = nc_desc_reader_create(ctx, text, len, file);
  nc_chip_desc d;
  bool ok = r && nc_mesh_desc_read(r, NULL, &d);
  nc_desc_reader_destroy(r);
  return ok ? nc_chip_desc_to_attr(ctx, &d) : NULL;
}
