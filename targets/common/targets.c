/* targets.c: the public face of the target table (include/nc/targets/targets.h):
 * lookup, chip descriptions, the target of a core-level module, printing. */
#include <stdio.h>
#include <string.h>

#include "nc/dialects/core/core.h"
#include "nc/ir/diag.h"
#include "nc/targets/targets.h"
#include "target.h"

void nc_register_all_targets(void)
{
  for (const nc_target *const *t = nc_all_targets; *t; t++)
    if ((*t)->pipeline)
      nc_pipeline_register((*t)->pipeline);
}

size_t nc_target_count(void)
{
  size_t n = 0;
  while (nc_all_targets[n])
    n++;
  return n;
}

const nc_target *nc_target_get(size_t i) { return i < nc_target_count() ? nc_all_targets[i] : NULL; }

const nc_target *nc_target_lookup(const char *name)
{
  for (const nc_target *const *t = nc_all_targets; *t; t++)
    if (!strcmp((*t)->name, name))
      return *t;
  return NULL;
}

const char *nc_target_get_name(const nc_target *t) { return t->name; }
const char *nc_target_get_summary(const nc_target *t) { return t->summary; }
const char *nc_target_get_pipeline_name(const nc_target *t) { return t->pipeline ? t->pipeline->argument : ""; }
const char *nc_target_get_default_desc(const nc_target *t) { return t->default_desc; }

bool nc_target_load_desc(const nc_target *t, nc_context *ctx, const char *path, nc_chip_desc *desc)
{
  if (path && *path) { /* an unreadable file is reported at `path` */
    nc_location at = nc_location_from_attr(nc_loc_file(ctx, nc_ident_get_cstr(ctx, path), 0, 0));
    if (!nc_chip_desc_load(ctx, path, at, desc))
      return false;
  } else {
    nc_chip_desc_error err;
    if (!nc_chip_desc_parse(t->default_desc, strlen(t->default_desc), desc, &err)) {
      nc_emit_error(ctx, nc_location_unknown(), "the built-in description of target '%s' is invalid: %s (%d:%d)",
                    t->name, err.message, err.line, err.column);
      return false;
    }
  }
  const char *what = NULL;
  if (nc_chip_desc_macs_per_cycle(desc, 8) <= 0)
    what = "core.ops_per_cycle has no entry for 8 bits or wider";
  else if (desc->link_bytes_per_cycle <= 0 || desc->hop_latency_cycles < 0)
    what = "the NoC needs a positive link_bytes_per_cycle and a hop_latency_cycles >= 0";
  else if (!(desc->clock_hz >= 1))
    what = "clock_hz must be at least 1";
  else if (desc->rows > 4096 || desc->cols > 4096 || desc->sram_bytes > UINT32_MAX)
    what = "the grid or the SRAM is larger than the binary format holds";
  if (what) {
    nc_location at = path && *path ? nc_location_from_attr(nc_loc_file(ctx, nc_ident_get_cstr(ctx, path), 0, 0))
                                   : nc_location_unknown();
    nc_emit_error(ctx, at, "chip description %s cannot be used for target '%s': %s",
                  path && *path ? path : "(built in)", t->name, what);
    return false;
  }
  return true;
}

nc_op *nc_target_find_chip(nc_op *module, const char *target)
{
  nc_op *chip = NULL;
  for (nc_op *op = nc_block_get_first_op(nc_module_get_body(module)); op; op = nc_op_get_next(op))
    if (nc_core_is_chip(op)) {
      if (chip) {
        nc_op_emit_error(op, "a second core.chip: a binary holds one chip");
        return NULL;
      }
      chip = op;
    }
  if (!chip)
    nc_op_emit_error(module, "has no core.chip: run the %s pipeline to the core level first",
                     target ? target : "target's");
  return chip;
}

const nc_target *nc_target_of_module(nc_op *module)
{
  nc_op *chip = nc_target_find_chip(module, NULL);
  if (!chip)
    return NULL;
  const char *name = nc_core_chip_get_target(chip);
  const nc_target *t = name ? nc_target_lookup(name) : NULL;
  if (!t) {
    nc_diag *d = nc_op_diag_error(chip, "is for target '%s', which nc does not know", name ? name : "");
    for (size_t i = 0; i < nc_target_count(); i++)
      nc_diag_attach_note(d, nc_op_get_loc(chip), "known target: %s", nc_all_targets[i]->name);
    nc_diag_emit(d);
  }
  return t;
}

uint8_t *nc_target_print_binary(const nc_target *t, nc_op *module, const nc_chip_desc *desc, size_t *size)
{
  return t->print_binary(module, desc, size);
}
