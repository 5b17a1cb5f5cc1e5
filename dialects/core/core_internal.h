/* core_internal.h: what the files of the core dialect share and the public
 * header (nc/dialects/core/core.h) hides. Include only from dialects/core/. */
#ifndef NC_DIALECTS_CORE_CORE_INTERNAL_H
#define NC_DIALECTS_CORE_CORE_INTERNAL_H

#include "nc/dialects/core/core.h"
#include "nc/ir/diag.h"

/** An i64 attribute of an op, or `dflt` when absent or not an integer. */
int64_t core_int_attr(NC_KEEP const nc_op *op, const char *name, int64_t dflt);
/** A string attribute of an op, or "" when absent. */
NC_KEEP const char *core_str_attr(NC_KEEP const nc_op *op, const char *name);
/** An `array<i64: a, b>` attribute as two values; false if absent or not two entries. */
bool core_pair_attr(NC_KEEP const nc_op *op, const char *name, int64_t *a, int64_t *b);
/** A recv's `from` / send's `to`: `array<i64: x, y>` (slot 0) or `array<i64: x, y, slot>`; false if malformed. */
bool core_endpoint_attr(NC_KEEP const nc_op *op, const char *name, int64_t *x, int64_t *y, int64_t *slot);
/** core_pair_attr on an attribute already found (NULL: absent). */
bool core_pair_of(NC_KEEP const nc_attr *x, int64_t *a, int64_t *b);
/** core_endpoint_attr on an attribute already found (NULL: absent). */
bool core_endpoint_of(NC_KEEP const nc_attr *a, int64_t *x, int64_t *y, int64_t *slot);

/** A program op's attributes (NULL where absent), found in one scan of its
 * two dictionaries; as nc_op_get_attr_str, an inherent attribute (props)
 * hides a discardable one of the same name. */
typedef struct core_instr_attrs {
  nc_attr *operand, *iter, *network, *frames, *channel_offset, *from, *to, *begin, *end, *bytes, *multicast, *cycles;
} core_instr_attrs;
/** Fills *f with op's program-op attributes (one scan instead of a lookup by name each). */
void core_instr_attrs_scan(NC_KEEP const nc_op *op, core_instr_attrs *f);

/** The kind of a program op from its name alone (its attributes unread);
 * false if `op` is no core.recv, core.compute, core.send or core.wait. Once
 * the verifier has checked a program's ops, each decodes (nc_core_instr_get)
 * as the kind its name says. */
bool core_instr_kind_of(NC_KEEP const nc_op *op, nc_core_instr_kind *kind);
/** nc_core_tile_buffer_lifetimes for a tile whose program ops have been
 * verified (core.program's checks passed): reads only their kinds, by name. */
void core_tile_buffer_lifetimes_verified(NC_KEEP const nc_op *tile, nc_core_lifetime *out);

/** Chip-wide checks that need the whole region (core.chip's verify_regions):
 * positions inside the grid and unique, buffers within SRAM and overlapping
 * only with disjoint lifetimes, program endpoints naming placed tiles. */
bool core_verify_chip_regions(nc_op *chip);
/** Checks against the function the chip implements (verify_symbol_uses):
 * tiles name its nodes, channel slices partition each split node, computes
 * stay within each node's iterations, recvs name operands and come from
 * their producer's tiles (or the host). */
bool core_verify_chip_symbols(nc_op *chip, nc_symbol_table_collection *tables);

/** isl errors become NULL returns, not aborts, while the scope is alive. */
typedef struct core_isl_scope {
  isl_ctx *ctx;
  int saved;
} core_isl_scope;
core_isl_scope core_isl_scope_enter(isl_ctx *ctx);
void core_isl_scope_exit(core_isl_scope s);

/** The dialect's attributes with storage: #core.desc (chip_desc.c). */
#define NC_CORE_NUM_ATTRS 1
extern const nc_dialect_attr_def nc_core_attr_defs[NC_CORE_NUM_ATTRS];

#endif
