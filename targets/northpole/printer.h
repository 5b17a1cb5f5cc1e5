/* printer.h: the NorthPole printer (core IR -> .ncb), in printer.c and
 * printer_layer.c. */
#ifndef NC_TARGETS_NORTHPOLE_PRINTER_H
#define NC_TARGETS_NORTHPOLE_PRINTER_H

#include "nc/dialects/core/chip_desc.h"
#include "nc/ir/ops.h"

/** The printer of nc_target_northpole (see target.h). */
uint8_t *np_print_binary(nc_op *module, const nc_chip_desc *desc, size_t *size);

#endif
