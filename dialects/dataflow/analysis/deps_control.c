/* deps_control.c: the channel's control state machine as an isl AST.
 *
 * The machine a core runs: execute the producer's iterations in order and,
 * after each trigger iteration, let the consumer advance up to its new
 * bound. As a schedule for isl's AST generator that is
 *   P[p]           -> [p, 0, 0...0]
 *   C_upto[c]      -> [Triggers^-1(c), 1, c]
 * (Triggers is injective, so each bound c names its trigger p); isl then
 * writes the loops and the guards that pick the bound's formula, which is
 * exactly the relation's pieces turned into code. */
#include "deps_internal.h"

#include <isl/ast.h>
#include <isl/ast_build.h>
#include <isl/id.h>
#include <isl/space.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* { S[s] -> [s] } on `set`; the range is anonymous so that all statements
 * share one schedule space. */
static isl_map *identity_schedule(__isl_take isl_set *set)
{
  isl_map *id = isl_map_identity(isl_space_map_from_set(isl_set_get_space(set)));
  id = isl_map_intersect_domain(id, set);
  return isl_map_reset_tuple_id(id, isl_dim_out);
}

/* Appends `count` output dims to `map`, the first fixed to `phase` (if
 * count > 0) and the rest to 0. */
static isl_map *append_fixed(__isl_take isl_map *map, int count, int phase)
{
  isl_size n = isl_map_dim(map, isl_dim_out);
  if (n < 0)
    return isl_map_free(map);
  map = isl_map_add_dims(map, isl_dim_out, (unsigned)count);
  for (int i = 0; i < count; i++)
    map = isl_map_fix_si(map, isl_dim_out, (unsigned)(n + i), i == 0 ? phase : 0);
  return map;
}

/* True for the names given below to the phase ("t") and consumer ("c0",
 * "c1", ...) dimensions. */
static bool reserved_name(const char *name)
{
  if (strcmp(name, "t") == 0)
    return true;
  if (name[0] != 'c' || !name[1])
    return false;
  for (const char *p = name + 1; *p; p++)
    if (*p < '0' || *p > '9')
      return false;
  return true;
}

/* Loop iterator names: the producer's dimension names where they are all
 * set and distinct, then names for the phase and consumer dimensions (which
 * isl substitutes away, being fixed per producer iteration). */
static isl_id_list *iterator_names(isl_ctx *ctx, __isl_keep isl_set *p_domain, int np, int nc)
{
  bool named = true;
  for (int i = 0; i < np && named; i++) {
    const char *a = isl_set_get_dim_name(p_domain, isl_dim_set, (unsigned)i);
    named = a != NULL;
    for (int j = 0; j < i && named; j++) {
      const char *b = isl_set_get_dim_name(p_domain, isl_dim_set, (unsigned)j);
      named = b && strcmp(a, b) != 0;
    }
    named = named && !reserved_name(a);
  }
  isl_id_list *list = isl_id_list_alloc(ctx, np + 1 + nc);
  char buf[32];
  for (int i = 0; i < np; i++) {
    const char *name = named ? isl_set_get_dim_name(p_domain, isl_dim_set, (unsigned)i) : NULL;
    if (!name) {
      snprintf(buf, sizeof buf, "p%d", i);
      name = buf;
    }
    list = isl_id_list_add(list, isl_id_alloc(ctx, name, NULL));
  }
  list = isl_id_list_add(list, isl_id_alloc(ctx, "t", NULL));
  for (int i = 0; i < nc; i++) {
    snprintf(buf, sizeof buf, "c%d", i);
    list = isl_id_list_add(list, isl_id_alloc(ctx, buf, NULL));
  }
  return list;
}

/* Builds the AST text inside the error scope. */
static bool control_text(const nc_deps_channel *ch, char **c_text, nc_deps_error *err)
{
  isl_ctx *ctx = isl_set_get_ctx(ch->p_domain);
  isl_size np = isl_set_dim(ch->p_domain, isl_dim_set);
  isl_size nc = isl_set_dim(ch->c_domain, isl_dim_set);
  if (np < 0 || nc < 0)
    return nc_deps_fail_isl(err, ctx, "control");

  /* Statement names: the producer's own, and <consumer>_upto for the bound. */
  const char *pname = isl_set_get_tuple_name(ch->p_domain);
  const char *cname = isl_set_get_tuple_name(ch->c_domain);
  char upto[256];
  snprintf(upto, sizeof upto, "%s_upto", cname ? cname : "consumer");
  isl_set *p_stmt = isl_set_copy(ch->p_domain);
  if (!pname)
    p_stmt = isl_set_set_tuple_name(p_stmt, "producer");

  isl_map *p_sched = append_fixed(identity_schedule(p_stmt), 1 + nc, 0);
  isl_map *bounds = isl_map_reverse(isl_map_copy(ch->triggers)); /* C -> P */
  bounds = isl_map_set_tuple_name(bounds, isl_dim_in, upto);
  bounds = isl_map_reset_tuple_id(bounds, isl_dim_out);
  bounds = append_fixed(bounds, 1, 1);
  isl_map *c_id = identity_schedule(isl_map_domain(isl_map_copy(bounds)));
  isl_map *c_sched = isl_map_flatten_range(isl_map_range_product(bounds, c_id));

  isl_union_map *sched = isl_union_map_from_map(p_sched);
  sched = isl_union_map_add_map(sched, c_sched);
  isl_ast_build *build = isl_ast_build_alloc(ctx);
  build = isl_ast_build_set_iterators(build, iterator_names(ctx, ch->p_domain, np, nc));
  isl_ast_node *node = isl_ast_build_node_from_schedule_map(build, sched);
  isl_ast_build_free(build);
  char *text = node ? isl_ast_node_to_C_str(node) : NULL;
  isl_ast_node_free(node);
  if (!text)
    return nc_deps_fail_isl(err, ctx, "control");
  *c_text = text;
  return true;
}

bool nc_deps_channel_control_to_C_str(const nc_deps_channel *ch, char **c_text,
                                      nc_deps_error *err)
{
  if (c_text)
    *c_text = NULL;
  if (!ch || !c_text)
    return nc_deps_fail(err, "control: missing argument");
  nc_deps_scope scope = nc_deps_scope_enter(isl_set_get_ctx(ch->p_domain));
  bool ok = control_text(ch, c_text, err);
  nc_deps_scope_exit(scope);
  return ok;
}
