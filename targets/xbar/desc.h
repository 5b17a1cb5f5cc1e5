/* desc.h: the xbar target's chip description (JSON, read with jansson;
 * docs/targets/xbar.md has the schema) and its form in the IR. */
#ifndef NC_TARGETS_XBAR_DESC_H
#define NC_TARGETS_XBAR_DESC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "nc/ir/attrs.h"
#include "nc/ir/context.h"
#include "nc/ir/ods.h"

/** A crossbar chip (plain data). */
typedef struct xbar_desc {
  char name[64];
  int64_t mesh_rows, mesh_cols;          /**< cores, each with one crossbar */
  int64_t xbar_rows, xbar_cols;          /**< cells per crossbar: rows = inputs, cols = outputs */
  int64_t weight_bits;                   /**< bits a cell holds (a weight takes one cell) */
  int64_t input_bits, dac_bits;          /**< inputs fed bit-serially, dac_bits per slice */
  int64_t adc_bits;                      /**< column read-out precision (noise mode clips to it) */
  int64_t mvm_latency_cycles;            /**< one MVM of one input slice */
  int64_t vector_ops_per_cycle;          /**< the digital unit: adds, requantize, pooling */
  int64_t sram_bytes;                    /**< local activation SRAM per core */
  int64_t hop_latency_cycles, link_bytes_per_cycle; /**< the mesh NoC */
  int64_t clock_hz;
} xbar_desc;

/** Parses a description (`len` bytes of JSON from `file`, registered as a
 * source buffer of ctx); false after diagnostics at file:line:col saying
 * what is wrong and by how much. */
bool xbar_desc_parse(nc_context *ctx, const char *text, size_t len, const char *file, xbar_desc *d);

/** The `#xbar.desc<...>` attribute definition (in the xbar dialect's table). */
extern const nc_dialect_attr_def xbar_desc_attr_def;

/** The description as the IR carries it (the module's nc.chip): the typed
 * attribute `#xbar.desc<name = "cmnnc", mesh_rows = 8, ...>` of the xbar
 * dialect (registered in the context), read back with xbar_desc_from_attr. */
NC_KEEP nc_attr *xbar_desc_to_attr(nc_context *ctx, const xbar_desc *d);
/** Reads a description attribute; false if it is not one. */
bool xbar_desc_from_attr(NC_KEEP const nc_attr *a, xbar_desc *d);

/** xbar_desc_parse, then the attribute (NULL after diagnostics). */
NC_KEEP nc_attr *xbar_desc_parse_attr(nc_context *ctx, const char *text, size_t len, const char *file);

#endif
