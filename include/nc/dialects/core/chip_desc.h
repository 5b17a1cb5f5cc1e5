/* chip_desc.h: chip descriptions as data (docs/design/spine.md, section 4).
 *
 * A chip description is a JSON file that says what the core-level passes
 * need to know about a grid of cores, independent of any target's code:
 *
 *   {"name": "northpole",
 *    "grid": {"rows": 16, "cols": 16},
 *    "core": {"sram_bytes": 786432,
 *             "ops_per_cycle": {"8": 2048, "4": 4096, "2": 8192}},
 *    "noc": {"hop_latency_cycles": 1, "link_bytes_per_cycle": 32},
 *    "clock_hz": 400000000}
 *
 * Every field but "name" is required; keys the schema does not name are
 * ignored (targets may add their own). ops_per_cycle maps a precision in
 * bits (1..32) to the operations a core does per cycle at that precision;
 * one multiply-accumulate is two operations. It is read with jansson; a
 * file that is not JSON gets jansson's message at its line:column, and a
 * value that breaks the schema gets a message naming its key path
 * ("core.sram_bytes") at the value's line:column.
 */
#ifndef NC_DIALECTS_CORE_CHIP_DESC_H
#define NC_DIALECTS_CORE_CHIP_DESC_H

#include "nc/ir/attrs.h"

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

/** Why reading a description failed: a message and, when known, where
 * (1-based line and column; 0 when the problem has no position). */
typedef struct nc_chip_desc_error {
  int line, column;
  size_t offset; /**< byte offset of line:column in the text */
  char message[320];
} nc_chip_desc_error;

/** The built-in description used when none is given: NorthPole's published
 * numbers (16 x 16 cores, 768 KiB SRAM per core, 2048/4096/8192 ops per
 * cycle at 8/4/2 bits, 400 MHz) with a 1-cycle hop and 32-byte links. */
void nc_chip_desc_default(nc_chip_desc *desc);

/** Parses and checks a description from `len` bytes of JSON text. On
 * failure returns false and fills `err` (which may be NULL). */
bool nc_chip_desc_parse(const char *text, size_t len, nc_chip_desc *desc, nc_chip_desc_error *err);

/** Reads a description from a file; errors as for nc_chip_desc_parse (an
 * unreadable file gets line 0 and the system's message). */
bool nc_chip_desc_read_file(const char *path, nc_chip_desc *desc, nc_chip_desc_error *err);

/** Reads a description from a file for a compiler pass: the file is
 * registered with `ctx` as a source buffer, so a problem is reported as an
 * error diagnostic at `path:line:column` with the offending line and a
 * caret (at `loc` if the file cannot be read). Returns false after
 * emitting the diagnostic. */
bool nc_chip_desc_load(nc_context *ctx, const char *path, nc_location loc, nc_chip_desc *desc);

/** Multiply-accumulates per cycle per core for operands of `bits` bits: half
 * the operations of the narrowest supported precision at least `bits` wide;
 * 0 if no supported precision is wide enough. */
int64_t nc_chip_desc_macs_per_cycle(const nc_chip_desc *desc, unsigned bits);

#endif
