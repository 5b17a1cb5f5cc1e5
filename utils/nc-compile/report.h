/* report.h: nc-compile --report=DIR (report.c). */
#ifndef NC_COMPILE_REPORT_H
#define NC_COMPILE_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "nc/ir/ops.h"

/* Writes the report of `module` (at the target's last level) and its binary
 * `image` into DIR: stats.json, views.json, dataflow/cores pictures and
 * index.html (quant_report: the quantization report's file, or NULL). False
 * after printing an error. */
bool nc_compile_write_report(const char *dir, const char *model, const char *target, nc_op *module,
                             const uint8_t *image, size_t size, const char *quant_report);

#endif
