/* desc.c: reads the xbar target's chip descriptions (JSON, through the
 * targets' shared reader nc/targets/desc_json.h, which finds where each
 * value is written) and converts them to and from the IR's attribute
 * #xbar.desc. Every error points at file:line:col and says what is wrong,
 * why the bound exists and by how much ("crossbar.rows" must be at most
 * 4096 (cells per column), not 5000: 904 too large).
 */
#include "desc.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nc/ir/diag.h"
#include "nc/ir/dialect_attrs.h"
#include "nc/ir/types.h"
#include "nc/targets/desc_json.h"

/* One integer field: its path, bounds and where it goes. */
typedef struct field {
  const char *path;
  int64_t min, max;
  size_t offset;
  const char *why; /* what the bound protects, for the message */
} field;

#define F(p, lo, hi, m, why) {p, lo, hi, offsetof(xbar_desc, m), why}
static const field fields[] = {
  F("mesh.rows", 1, 256, mesh_rows, "cores per column"),
  F("mesh.cols", 1, 256, mesh_cols, "cores per row"),
  F("crossbar.rows", 1, 4096, xbar_rows, "cells per column"),
  F("crossbar.cols", 1, 4096, xbar_cols, "cells per row"),
  F("crossbar.weight_bits", 8, 16, weight_bits, "a cell holds a whole int8 weight"),
  F("crossbar.input_bits", 8, 8, input_bits, "the datapath streams int8 inputs"),
  F("crossbar.dac_bits", 1, 8, dac_bits, "bits per input slice"),
  F("crossbar.adc_bits", 2, 48, adc_bits, "column read-out bits"),
  F("crossbar.mvm_latency_cycles", 1, 1 << 20, mvm_latency_cycles, "cycles per input slice"),
  F("digital.vector_ops_per_cycle", 1, 1 << 20, vector_ops_per_cycle, "digital unit rate"),
  F("core.sram_bytes", 1, (int64_t)1 << 40, sram_bytes, "activation SRAM"),
  F("noc.hop_latency_cycles", 0, 1 << 16, hop_latency_cycles, "cycles per hop"),
  F("noc.link_bytes_per_cycle", 1, 1 << 16, link_bytes_per_cycle, "link width"),
  F("clock_hz", 1, (int64_t)1 << 40, clock_hz, "clock"),
};
#undef F

static const char *const root_keys[] = {"name", "mesh", "crossbar", "digital", "core", "noc", "clock_hz", NULL};
static const char *const mesh_keys[] = {"rows", "cols", NULL};
static const char *const crossbar_keys[] = {"rows", "cols", "weight_bits", "input_bits", "dac_bits", "adc_bits",
                                            "mvm_latency_cycles", NULL};
static const char *const digital_keys[] = {"vector_ops_per_cycle", NULL};
static const char *const core_keys[] = {"sram_bytes", NULL};
static const char *const noc_keys[] = {"hop_latency_cycles", "link_bytes_per_cycle", NULL};

/* Reads the description; each error is a diagnostic at the offending value. */
static bool read_desc(nc_desc_reader *r, xbar_desc *d)
{
  memset(d, 0, sizeof *d);
  /* unknown keys are mistakes (a typo would otherwise silently drop a value) */
  if (!nc_desc_check_keys(r, NULL, root_keys) || !nc_desc_check_keys(r, "mesh", mesh_keys) ||
      !nc_desc_check_keys(r, "crossbar", crossbar_keys) || !nc_desc_check_keys(r, "digital", digital_keys) ||
      !nc_desc_check_keys(r, "core", core_keys) || !nc_desc_check_keys(r, "noc", noc_keys) ||
      !nc_desc_get_string(r, "name", false, d->name, sizeof d->name))
    return false;
  for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) {
    const field *f = &fields[i];
    int64_t n;
    if (!nc_desc_get_int(r, f->path, INT64_MIN, INT64_MAX, false, &n))
      return false;
    if (n < f->min)
      return nc_desc_error(r, f->path, "\"%s\" must be at least %lld (%s), not %lld: %lld too small", f->path,
                           (long long)f->min, f->why, (long long)n, (long long)(f->min - n));
    if (n > f->max)
      return nc_desc_error(r, f->path, "\"%s\" must be at most %lld (%s), not %lld: %lld too large", f->path,
                           (long long)f->max, f->why, (long long)n, (long long)(n - f->max));
    *(int64_t *)((char *)d + f->offset) = n;
  }
  if (d->dac_bits > d->input_bits)
    return nc_desc_error(r, "crossbar.dac_bits",
                         "\"crossbar.dac_bits\" (%lld) must not exceed \"crossbar.input_bits\" (%lld): %lld too many",
                         (long long)d->dac_bits, (long long)d->input_bits, (long long)(d->dac_bits - d->input_bits));
  return true;
}

bool xbar_desc_parse(nc_context *ctx, const char *text, size_t len, const char *file, xbar_desc *d)
{
  nc_desc_reader *r = nc_desc_reader_create(ctx, text, len, file);
  bool ok = r && read_desc(r, d);
  nc_desc_reader_destroy(r);
  return ok;
}

/* --- the IR's form: #xbar.desc<name = "cmnnc", mesh_rows = 8, ...> ------------------------------------------ */

/* The attribute's storage: the description with an interned name (compared by pointer). */
typedef struct desc_storage {
  nc_ident *name;
  int64_t v[sizeof fields / sizeof fields[0]];
} desc_storage;

#define P(i, key) {key, NC_PARAM_I64, offsetof(desc_storage, v) + (i) * sizeof(int64_t), false, NULL}
static const nc_dialect_param params[] = {
  {"name", NC_PARAM_STRING, offsetof(desc_storage, name), false, "the description's name"},
  P(0, "mesh_rows"), P(1, "mesh_cols"), P(2, "crossbar_rows"), P(3, "crossbar_cols"), P(4, "crossbar_weight_bits"),
  P(5, "crossbar_input_bits"), P(6, "crossbar_dac_bits"), P(7, "crossbar_adc_bits"),
  P(8, "crossbar_mvm_latency_cycles"), P(9, "digital_vector_ops_per_cycle"), P(10, "core_sram_bytes"),
  P(11, "noc_hop_latency_cycles"), P(12, "noc_link_bytes_per_cycle"), P(13, "clock_hz"),
};
#undef P

static bool verify_storage(nc_context *ctx, nc_location loc, const void *storage, void *userData)
{
  (void)userData;
  const desc_storage *st = storage;
  if (!st->name || !*nc_ident_str(st->name)) {
    nc_emit_error(ctx, loc, "#xbar.desc: name must not be empty");
    return false;
  }
  for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++)
    if (st->v[i] < fields[i].min || st->v[i] > fields[i].max) {
      nc_emit_error(ctx, loc, "#xbar.desc: %s must be in [%lld, %lld] (%s), not %lld", params[i + 1].name,
                    (long long)fields[i].min, (long long)fields[i].max, fields[i].why, (long long)st->v[i]);
      return false;
    }
  return true;
}

const nc_dialect_attr_def xbar_desc_attr_def = {
  .mnemonic = "desc",
  .summary = "An xbar chip description",
  .description = "The chip the module is compiled for (the module's `nc.chip`, set by target-attach from a JSON "
                 "description, docs/targets/xbar.md): mesh, crossbar geometry and precision, MVM latency, digital "
                 "unit rate, SRAM, NoC and clock, each bounded as the JSON reader bounds it.",
  .storage_size = sizeof(desc_storage),
  .params = params, .n_params = sizeof params / sizeof params[0],
  .verify = verify_storage,
};

nc_attr *xbar_desc_to_attr(nc_context *ctx, const xbar_desc *d)
{
  desc_storage st;
  memset(&st, 0, sizeof st);
  st.name = nc_ident_get_cstr(ctx, d->name);
  for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++)
    st.v[i] = *(const int64_t *)((const char *)d + fields[i].offset);
  return nc_attr_dialect(ctx, &xbar_desc_attr_def, &st);
}

bool xbar_desc_from_attr(const nc_attr *a, xbar_desc *d)
{
  memset(d, 0, sizeof *d);
  if (!nc_attr_isa(a, &xbar_desc_attr_def))
    return false;
  const desc_storage *st = nc_attr_dialect_get_storage(a);
  snprintf(d->name, sizeof d->name, "%s", st->name ? nc_ident_str(st->name) : "");
  for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) {
    if (st->v[i] < fields[i].min || st->v[i] > fields[i].max)
      return false;
    *(int64_t *)((char *)d + fields[i].offset) = st->v[i];
  }
  return true;
}

nc_attr *xbar_desc_parse_attr(nc_context *ctx, const char *text, size_t len, const char *file)
{
  xbar_desc d;
  return xbar_desc_parse(ctx, text, len, file, &d) ? xbar_desc_to_attr(ctx, &d) : NULL;
}
