/* tool_report.h: what nc-compile and nc-run share for --report=DIR (the
 * directory, Graphviz, the page written by nc_report.py) and for progress on
 * stderr. Tool code, not API: it prints its notes and errors itself. */
#ifndef NC_TOOL_REPORT_H
#define NC_TOOL_REPORT_H

#include <stdbool.h>
#include <stddef.h>

/* Creates DIR (and its parents); false after printing `tool: error: ...`. */
bool nc_tool_report_mkdir(const char *tool, const char *dir);
/* DIR/NAME, malloc'ed. */
char *nc_tool_report_path(const char *dir, const char *name);
/* Renders DOT to SVG with Graphviz's `dot` when it is installed (true), else
 * prints a note naming the .dot file (false). */
bool nc_tool_report_render_dot(const char *tool, const char *dot, const char *svg);
/* Writes DIR/index.html with nc_report.py from DIR/stats.json and the extra
 * arguments (NULL-terminated); false after printing what went wrong. Without
 * a Python to run it: a note saying how to draw the page, and true. */
bool nc_tool_report_page(const char *tool, const char *dir, const char *const *args);

/* Progress on stderr: on when NC_PROGRESS=1 (every update, one line each),
 * off when NC_PROGRESS=0, else when stderr is a terminal (one line redrawn,
 * shown once the work has taken a second). */
typedef struct nc_tool_progress nc_tool_progress;
nc_tool_progress *nc_tool_progress_create(const char *tool);
/* `what` done `done` of `total` (e.g. the pass about to run). */
void nc_tool_progress_update(nc_tool_progress *p, const char *what, size_t done, size_t total);
/* Ends the progress line (a summary when anything was shown) and frees p. */
void nc_tool_progress_destroy(nc_tool_progress *p);

#endif
