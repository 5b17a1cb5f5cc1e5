/* deps_internal.h: what the files of the dependence analysis share and the
 * public header hides: the layer and channel structs, the isl error scope,
 * and error reporting. Not installed; include only from this directory. */
#ifndef NC_DIALECTS_DATAFLOW_ANALYSIS_DEPS_INTERNAL_H
#define NC_DIALECTS_DATAFLOW_ANALYSIS_DEPS_INTERNAL_H

#include "nc/dialects/dataflow/deps.h"

#include <isl/point.h>
#include <isl/space.h>
#include <isl/union_set.h>

/** A layer: one statement's domain and its accesses (all owned). */
struct nc_deps_layer {
  isl_set *domain;
  isl_union_map *reads;
  isl_union_map *writes;
};

/** Everything computed for one channel (all owned). */
struct nc_deps_channel {
  isl_set *p_domain, *c_domain;
  isl_map *dep, *last, *earliest, *control, *triggers;
  isl_set *free_set;
  isl_union_map *first_write, *last_read, *release;
  int64_t buffer_size;
  isl_set *buffer_peak;
};

/** While alive, the isl_ctx reports errors by returning NULL/-1 (never
 * aborting or printing); exiting restores the caller's error mode. */
typedef struct nc_deps_scope {
  isl_ctx *ctx;
  int saved_on_error;
} nc_deps_scope;

/** Switches `ctx` to ISL_ON_ERROR_CONTINUE and clears its last error. */
nc_deps_scope nc_deps_scope_enter(isl_ctx *ctx);
/** Restores the error mode saved by nc_deps_scope_enter. */
void nc_deps_scope_exit(nc_deps_scope scope);

/** Writes a message into `err` (if not NULL); always returns false. */
bool nc_deps_fail(nc_deps_error *err, const char *fmt, ...) NC_PRINTF(2, 3);
/** Reports the isl context's last error while doing `what`; returns false. */
bool nc_deps_fail_isl(nc_deps_error *err, isl_ctx *ctx, const char *what);

/** Checks that `set` (`what` names it in messages) is non-empty, bounded and
 * has no parameters. */
bool nc_deps_check_domain(__isl_keep isl_set *set, const char *what, nc_deps_error *err);
/** Checks that `umap` has no parameters (the analysis needs constants). */
bool nc_deps_check_no_params(__isl_keep isl_union_map *umap, const char *what,
                             nc_deps_error *err);

/** A growable table of integer points of one fixed dimension (deps_buffer.c). */
typedef struct nc_deps_points {
  int n;          /* coordinates per point */
  int64_t *v;     /* count * n coordinates */
  int64_t count, cap;
  bool too_many;  /* enumeration stopped at NC_DEPS_MAX_ENUMERATED_POINTS */
  bool bad_value; /* a coordinate did not fit in int32 */
} nc_deps_points;

/** Coordinate `pos` of a point, if it is an integer in int32 range. */
bool nc_deps_point_coordinate(__isl_keep isl_point *pnt, int pos, int64_t *out);
/** isl_set_foreach_point callback appending the point to an nc_deps_points. */
isl_stat nc_deps_points_collect(__isl_take isl_point *pnt, void *user);
/** Sorts the rows lexicographically (stable merge sort). */
void nc_deps_points_sort(nc_deps_points *pts);
/** Index of row `key` in the sorted table, or -1. */
int64_t nc_deps_points_find(const nc_deps_points *pts, const int64_t *key);

/** Fills ch->buffer_size and ch->buffer_peak from ch->first_write and
 * ch->release (deps_buffer.c). */
bool nc_deps_buffer_compute(struct nc_deps_channel *ch, nc_deps_error *err);

#endif
