/* chip_desc.h: the description of a spatial-mesh chip (the `core` family:
 * NorthPole-like grids of cores) as the core passes see it: a plain struct,
 * carried in the IR as a typed module attribute (nc.chip) from which every
 * pass reads it. The targets of the family read it from JSON (their
 * schema, targets/common/mesh_desc.c), for instance:
 *
 *   {"name": "northpole",
 *    "grid": {"rows": 16, "cols": 16},
 *    "core": {"sram_bytes": 786432,
 *             "ops_per_cycle": {"8": 2048, "4": 4096, "2": 8192}},
 *    "noc": {"hop_latency_cycles": 1, "link_bytes_per_cycle": 32},
 *    "clock_hz": 400000000}
 *
 * ops_per_cycle maps a precision in bits (1..32) to the operations a core
 * does per cycle at that precision; one multiply-accumulate is two
 * operations.
 */
#ifndef NC_DIALECTS_CORE_CHIP_DESC_H
#define NC_DIALECTS_CORE_CHIP_DESC_H

#include "nc/ir/attrs.h"
#include "nc/ir/dialect_attrs.h"
#include "nc/ir/ops.h"

/** The widest precision an ops_per_cycle entry may name. */
#define NC_CHIP_MAX_BITS 32

/** A chip description (plain data; copy it freely). */
typedef struct nc_chip_desc {
  char name[64];                                /**< e.g. "northpole" */
  int64_t rows, cols;                           /**< the core grid */
  int64_t sram_bytes;                           /**< SRAM per core */
  int64_t ops_per_cycle[NC_CHIP_MAX_BITS + 1];  /**< per core, indexed by bits; 0: unsupported */
  int64_t hop_latency_cycles;                   /**< NoC latency per hop */
  int64_t link_bytes_per_cycle;                 /**< NoC link width */
  double clock_hz;                              /**< core clock */
} nc_chip_desc;

/** The description as a typed attribute, the value of a module's nc.chip
 * (nc/targets/targets.h): what the core passes read the chip from. */
NC_KEEP nc_attr *nc_chip_desc_to_attr(nc_context *ctx, NC_KEEP const nc_chip_desc *desc);
/** Reads a description attribute back; false if `attr` is not one (or is
 * malformed). */
bool nc_chip_desc_from_attr(NC_KEEP const nc_attr *attr, nc_chip_desc *desc);
/** The description of a module (its nc.chip attribute); false, after an
 * error at the module when `emit`, if it has none. */
bool nc_chip_desc_of_module(NC_KEEP nc_op *module, bool emit, nc_chip_desc *desc);

/** Multiply-accumulates per cycle per core for operands of `bits` bits: half
 * the operations of the narrowest supported precision at least `bits` wide;
 * 0 if no supported precision is wide enough. */
int64_t nc_chip_desc_macs_per_cycle(const nc_chip_desc *desc, unsigned bits);

#endif
