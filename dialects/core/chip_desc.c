/* chip_desc.c: a spatial-mesh chip description as a typed module attribute,
 * #core.desc<...> (the module's nc.chip), the form in which it travels with
 * the IR from the pass that attaches it (target-attach) to every core pass
 * and the printer, as MLIR's GPU target attributes do. Its storage holds one
 * typed field per key; the verifier refuses values out of range wherever
 * the attribute comes from (a description file or hand-written IR).
 */
#include <stdio.h>
#include <string.h>

#include "nc/dialects/core/chip_desc.h"
#include "nc/ir/diag.h"
#include "nc/ir/dialect_attrs.h"
#include "core_internal.h"
#include <stddef.h>

int64_t nc_chip_desc_macs_per_cycle(const nc_chip_desc *d, unsigned bits)
{
  for (unsigned b = bits ? bits : 1; b <= NC_CHIP_MAX_BITS; b++)
    if (d->ops_per_cycle[b] > 0)
      return d->ops_per_cycle[b] / 2;
  return 0;
}

/* The storage of #core.desc: one field per key, in the order they print. */
typedef struct core_desc {
  nc_ident *name;
  int64_t rows, cols, sram_bytes;
  nc_attr *ops_per_cycle; /* array<i64: bits, ops, bits, ops, ...> */
  int64_t hop_latency_cycles, link_bytes_per_cycle;
  double clock_hz;
} core_desc;

static const nc_dialect_param desc_params[] = {
  {"name", NC_PARAM_STRING, offsetof(core_desc, name), false, "the description's name"},
  {"rows", NC_PARAM_I64, offsetof(core_desc, rows), false, "grid rows (1 to 4096)"},
  {"cols", NC_PARAM_I64, offsetof(core_desc, cols), false, "grid columns (1 to 4096)"},
  {"sram_bytes", NC_PARAM_I64, offsetof(core_desc, sram_bytes), false, "SRAM per core"},
  {"ops_per_cycle", NC_PARAM_ATTR, offsetof(core_desc, ops_per_cycle), false,
   "`array<i64: bits, ops, ...>`: operations per cycle per core at each supported precision"},
  {"hop_latency_cycles", NC_PARAM_I64, offsetof(core_desc, hop_latency_cycles), false, "NoC cycles per hop"},
  {"link_bytes_per_cycle", NC_PARAM_I64, offsetof(core_desc, link_bytes_per_cycle), false, "NoC link width"},
  {"clock_hz", NC_PARAM_F64, offsetof(core_desc, clock_hz), false, "core clock"},
};

/* The storage as the struct the passes use; false (with a reason) if out of range. */
static bool decode(const core_desc *s, nc_chip_desc *d, const char **why)
{
  memset(d, 0, sizeof *d);
  const char *name = s->name ? nc_ident_str(s->name) : "";
  *why = NULL;
  if (!*name || strlen(name) >= sizeof d->name)
    *why = "name must be a non-empty string of at most 63 bytes";
  else if (s->rows < 1 || s->rows > 4096 || s->cols < 1 || s->cols > 4096)
    *why = "rows and cols must be 1 to 4096";
  else if (s->sram_bytes < 1 || s->sram_bytes > ((int64_t)1 << 40))
    *why = "sram_bytes must be 1 to 2^40";
  else if (s->hop_latency_cycles < 0 || s->hop_latency_cycles > INT32_MAX || s->link_bytes_per_cycle < 1 ||
           s->link_bytes_per_cycle > INT32_MAX)
    *why = "hop_latency_cycles must be 0 to 2^31-1 and link_bytes_per_cycle 1 to 2^31-1";
  else if (!(s->clock_hz > 0) || s->clock_hz > 1e15)
    *why = "clock_hz must be positive and at most 1e15";
  else if (!s->ops_per_cycle || nc_attr_get_kind(s->ops_per_cycle) != NC_ATTR_DENSE_ARRAY ||
           nc_attr_get_num_elements(s->ops_per_cycle) % 2 || !nc_attr_get_num_elements(s->ops_per_cycle))
    *why = "ops_per_cycle must be a non-empty array<i64: bits, ops, ...> of pairs";
  for (size_t i = 0; !*why && i < nc_attr_get_num_elements(s->ops_per_cycle); i += 2) {
    int64_t bits = nc_attr_dense_array_get_int(s->ops_per_cycle, i), n = nc_attr_dense_array_get_int(s->ops_per_cycle, i + 1);
    if (bits < 1 || bits > NC_CHIP_MAX_BITS || n < 1)
      *why = "ops_per_cycle pairs must be (bits 1 to 32, ops >= 1)";
    else
      d->ops_per_cycle[bits] = n;
  }
  if (*why)
    return false;
  snprintf(d->name, sizeof d->name, "%s", name);
  d->rows = s->rows, d->cols = s->cols, d->sram_bytes = s->sram_bytes;
  d->hop_latency_cycles = s->hop_latency_cycles, d->link_bytes_per_cycle = s->link_bytes_per_cycle;
  d->clock_hz = s->clock_hz;
  return true;
}

static bool verify_desc(nc_context *ctx, nc_location loc, const void *storage, void *user_data)
{
  nc_chip_desc d;
  const char *why;
  if (decode(storage, &d, &why))
    return true;
  nc_emit_error(ctx, loc, "#core.desc: %s", why);
  return false;
}

const nc_dialect_attr_def nc_core_attr_defs[NC_CORE_NUM_ATTRS] = {{
  .mnemonic = "desc",
  .summary = "The description of a spatial-mesh chip (a module's nc.chip)",
  .description = "The chip the core passes and the printer compile for, read once from the target's JSON "
                 "description by target-attach and carried with the IR: "
                 "`#core.desc<name = \"northpole\", rows = 16, cols = 16, sram_bytes = 786432, ops_per_cycle = "
                 "array<i64: 2, 8192, 4, 4096, 8, 2048>, hop_latency_cycles = 1, link_bytes_per_cycle = 32, clock_hz "
                 "= 4.0e8>`.",
  .storage_size = sizeof(core_desc),
  .params = desc_params, .n_params = NC_COUNTOF(desc_params),
  .verify = verify_desc,
}};

nc_attr *nc_chip_desc_to_attr(nc_context *ctx, const nc_chip_desc *d)
{
  int64_t ops[2 * (NC_CHIP_MAX_BITS + 1)];
  size_t n_ops = 0;
  for (int b = 1; b <= NC_CHIP_MAX_BITS; b++)
    if (d->ops_per_cycle[b] > 0) {
      ops[n_ops++] = b;
      ops[n_ops++] = d->ops_per_cycle[b];
    }
  core_desc s = {nc_ident_get_cstr(ctx, d->name), d->rows, d->cols, d->sram_bytes,
                 nc_attr_dense_i64_array(ctx, n_ops, ops), d->hop_latency_cycles, d->link_bytes_per_cycle,
                 d->clock_hz};
  return nc_attr_dialect(ctx, &nc_core_attr_defs[0], &s);
}

bool nc_chip_desc_from_attr(const nc_attr *attr, nc_chip_desc *d)
{
  const char *why;
  memset(d, 0, sizeof *d);
  return attr && nc_attr_isa(attr, &nc_core_attr_defs[0]) && decode(nc_attr_dialect_get_storage(attr), d, &why);
}

bool nc_chip_desc_of_module(nc_op *module, bool emit, nc_chip_desc *d)
{
  nc_attr *a = nc_op_get_attr_str(module, "nc.chip");
  if (nc_chip_desc_from_attr(a, d))
    return true;
  if (emit)
    nc_op_emit_error(module, a ? "has a malformed chip description (nc.chip)"
                               : "has no chip description (nc.chip): run the target's pipeline, or "
                                 "target-attach{target=NAME}, first");
  return false;
}
