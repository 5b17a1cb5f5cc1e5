/* python_pass.h: nc-opt's --load-python-pass=file.py (passes written in
 * Python, run by the embedded interpreter of python/nc_python_loader.c). */
#ifndef NC_OPT_PYTHON_PASS_H
#define NC_OPT_PYTHON_PASS_H

#include <stdbool.h>

/** Runs the Python file at `path` in the embedded interpreter (opening the
 * loader library the first time), so the passes it registers can be named
 * in pipelines and as legacy pass flags. Prints an error and returns false
 * when the loader or the file cannot be loaded. */
bool nc_opt_load_python_pass(const char *path);

#endif
