/* deps_error.c: turning isl failures into nc_deps_error messages.
 *
 * isl by default prints and aborts on error; the analysis runs each public
 * call inside a scope that switches the context to ISL_ON_ERROR_CONTINUE (as
 * isl's own C++ bindings do) so a failure comes back as NULL and becomes a
 * message and a false return. Also the shared sanity checks on domains. */
#include "deps_internal.h"

#include <isl/options.h>
#include <stdarg.h>
#include <stdio.h>

nc_deps_scope nc_deps_scope_enter(isl_ctx *ctx)
{
  nc_deps_scope scope = {ctx, isl_options_get_on_error(ctx)};
  isl_options_set_on_error(ctx, ISL_ON_ERROR_CONTINUE);
  isl_ctx_reset_error(ctx);
  return scope;
}

void nc_deps_scope_exit(nc_deps_scope scope)
{
  isl_options_set_on_error(scope.ctx, scope.saved_on_error);
}

bool nc_deps_fail(nc_deps_error *err, const char *fmt, ...)
{
  if (err) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->message, sizeof err->message, fmt, ap);
    va_end(ap);
  }
  return false;
}

bool nc_deps_fail_isl(nc_deps_error *err, isl_ctx *ctx, const char *what)
{
  const char *msg = ctx ? isl_ctx_last_error_msg(ctx) : NULL;
  if (!ctx || isl_ctx_last_error(ctx) == isl_error_none || !msg)
    return nc_deps_fail(err, "%s: isl failed", what);
  return nc_deps_fail(err, "%s: isl: %s", what, msg);
}

bool nc_deps_check_domain(isl_set *set, const char *what, nc_deps_error *err)
{
  if (!set)
    return nc_deps_fail(err, "%s: missing domain", what);
  isl_ctx *ctx = isl_set_get_ctx(set);
  isl_size nparam = isl_set_dim(set, isl_dim_param);
  if (nparam < 0)
    return nc_deps_fail_isl(err, ctx, what);
  if (nparam > 0)
    return nc_deps_fail(err, "%s: parametric domains are not supported "
                        "(substitute the parameters' values)", what);
  isl_bool empty = isl_set_is_empty(set);
  if (empty < 0)
    return nc_deps_fail_isl(err, ctx, what);
  if (empty)
    return nc_deps_fail(err, "%s: the domain is empty", what);
  isl_bool bounded = isl_set_is_bounded(set);
  if (bounded < 0)
    return nc_deps_fail_isl(err, ctx, what);
  if (!bounded)
    return nc_deps_fail(err, "%s: the domain is unbounded", what);
  return true;
}

bool nc_deps_check_no_params(isl_union_map *umap, const char *what, nc_deps_error *err)
{
  if (!umap)
    return nc_deps_fail(err, "%s: missing relation", what);
  isl_size nparam = isl_union_map_dim(umap, isl_dim_param);
  if (nparam < 0)
    return nc_deps_fail_isl(err, isl_union_map_get_ctx(umap), what);
  if (nparam > 0)
    return nc_deps_fail(err, "%s: parametric relations are not supported "
                        "(substitute the parameters' values)", what);
  return true;
}
