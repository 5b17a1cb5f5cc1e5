/* python_pass.h: nc-opt's --load-python-pass=file.py (passes written in
 * Python, run by the embedded interpreter of python/nc_python_loader.c). */
#ifndef NC_OPT_PYTHON_PASS_H
#define NC_OPT_PYTHON_PASS_H

#include <stdbool.h>

/** Loads every --load-python-pass=FILE (also -flag FILE) in command-line
 * order, before the other flags are parsed, so the passes the files
 * register can be named in pipelines and as legacy pass flags. Prints an
 * error and returns false when the loader or a file cannot be loaded. */
bool nc_opt_load_python_passes(int argc, char **argv);

#endif
