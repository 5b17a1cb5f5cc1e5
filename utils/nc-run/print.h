/* print.h: nc-run's text form of tensors (--print). */
#ifndef NC_RUN_PRINT_H
#define NC_RUN_PRINT_H

#include <stdio.h>

#include "nc/support/tensor.h"

/** Prints t's elements as nested lists, numpy-style (summarised with "..."
 * beyond 1000 elements), followed by a newline. */
void nc_run_print_tensor(FILE *out, NC_KEEP const nc_tensor *t);

#endif
