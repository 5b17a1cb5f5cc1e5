/* printer.h: the NorthPole printer (core IR -> .ncb sections), in
 * printer.c and printer_layer.c. */
#ifndef NC_TARGETS_NORTHPOLE_PRINTER_H
#define NC_TARGETS_NORTHPOLE_PRINTER_H

#include "nc/targets/target.h"

/** The printer of nc_target_northpole (nc_target_def.print_binary). */
bool np_print_binary(nc_op *module, nc_ncb_writer *w, void *userData);

#endif
