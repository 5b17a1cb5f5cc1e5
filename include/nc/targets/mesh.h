/* mesh.h: what the targets of the spatial-mesh family (NorthPole-like
 * grids of cores, later IPU-like tile machines) share on the compiler
 * side: the JSON schema of their chip description.
 *
 *   {"name": "northpole",
 *    "grid": {"rows": 16, "cols": 16},
 *    "core": {"sram_bytes": 786432, "ops_per_cycle": {"8": 2048, "4": 4096, "2": 8192}},
 *    "noc": {"hop_latency_cycles": 1, "link_bytes_per_cycle": 32},
 *    "clock_hz": 400000000}
 *
 * Every field is required; an unknown key is an error (a misspelt one
 * would otherwise be ignored); a target of the family may allow keys of its
 * own by listing them.
 */
#ifndef NC_TARGETS_MESH_H
#define NC_TARGETS_MESH_H

#include "nc/dialects/core/chip_desc.h"
#include "nc/targets/desc_json.h"

/** Reads a mesh description from `r` into `desc`; `extra_keys` (NULL-
 * terminated, may be NULL) are top-level keys the target reads itself.
 * False after a diagnostic at the offending value. */
bool nc_mesh_desc_read(nc_desc_reader *r, const char *const *extra_keys, nc_chip_desc *desc);

/** A target's parse_desc for a plain mesh chip: the description as the
 * typed attribute nc_chip_desc_to_attr gives, or NULL after diagnostics. */
NC_KEEP nc_attr *nc_mesh_desc_parse(nc_context *ctx, const char *text, size_t len, const char *file);

#endif
