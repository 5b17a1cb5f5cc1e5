/* deps_compute.c: the dependence relations of one producer -> consumer channel.
 *
 * Everything here is set and map algebra done by isl (the formulation of
 * docs/dataflow-dependences.md): Dep = R_C . W_P^-1, its lexmax, the prefix
 * lexmax over the consumer's order (so the wait is monotone, as an in-order
 * consumer needs), its inverse as the control relation and the trigger
 * points where that bound advances, and the lifetime of every channel
 * element (first write, last read, release step). Only the buffer's final
 * count is left to deps_buffer.c, because isl alone cannot count points.
 *
 * isl calls consume their __isl_take arguments even on failure and return
 * NULL, so intermediate failures simply propagate; the results are checked
 * once before use. */
#include "deps_internal.h"

#include <stdlib.h>

/* { i -> j : j <=lex i } over the points i of `dom` and j of `ran` (which
 * live in the same space): "everything up to i". */
static isl_map *lex_up_to(__isl_keep isl_set *dom, __isl_take isl_set *ran)
{
  isl_map *ge = isl_map_lex_ge(isl_set_get_space(dom));
  ge = isl_map_intersect_domain(ge, isl_set_copy(dom));
  return isl_map_intersect_range(ge, ran);
}

/* Earliest(c) = lexmax { Last(c') : c' <=lex c }. */
static isl_map *prefix_lexmax(__isl_keep isl_set *c_domain, __isl_keep isl_map *last)
{
  isl_map *upto = lex_up_to(c_domain, isl_map_domain(isl_map_copy(last)));
  return isl_map_coalesce(isl_map_lexmax(isl_map_apply_range(upto, isl_map_copy(last))));
}

/* Control(p) = lexmax ({ c : Earliest(c) <=lex p } u Free). */
static isl_map *control_of(__isl_keep isl_set *p_domain, __isl_keep isl_map *earliest,
                           __isl_keep isl_set *free_set)
{
  isl_map *upto = lex_up_to(p_domain, isl_map_range(isl_map_copy(earliest)));
  isl_map *allowed = isl_map_apply_range(upto, isl_map_reverse(isl_map_copy(earliest)));
  allowed = isl_map_union(allowed, isl_map_from_domain_and_range(isl_set_copy(p_domain),
                                                                 isl_set_copy(free_set)));
  return isl_map_coalesce(isl_map_lexmax(allowed));
}

/* Control restricted to the producer iterations where its value differs from
 * that at the previous producer iteration (or where it is first defined). */
static isl_map *triggers_of(__isl_keep isl_set *p_domain, __isl_keep isl_map *control)
{
  isl_map *before = isl_map_lex_gt(isl_set_get_space(p_domain));
  before = isl_map_intersect_domain(before, isl_set_copy(p_domain));
  before = isl_map_intersect_range(before, isl_set_copy(p_domain));
  isl_map *prev = isl_map_lexmax(before);
  isl_map *same = isl_map_intersect(isl_map_copy(control),
                                    isl_map_apply_range(prev, isl_map_copy(control)));
  isl_set *changed = isl_set_subtract(isl_map_domain(isl_map_copy(control)),
                                      isl_map_domain(same));
  return isl_map_coalesce(isl_map_intersect_domain(isl_map_copy(control), changed));
}

static isl_stat set_bounded(isl_set *set, void *user)
{
  isl_bool *all = user;
  isl_bool b = isl_set_is_bounded(set);
  isl_set_free(set);
  if (b < 0 || !b) {
    *all = b;
    return isl_stat_error; /* stop: the answer is known */
  }
  return isl_stat_ok;
}

/* isl_set_is_bounded over every set of a union set (NULL gives an error). */
static isl_bool elems_bounded(__isl_keep isl_union_set *elems)
{
  isl_bool all = isl_bool_true;
  if (isl_union_set_foreach_set(elems, set_bounded, &all) < 0 && all == isl_bool_true)
    return isl_bool_error;
  return all;
}

void nc_deps_channel_destroy(nc_deps_channel *ch)
{
  if (!ch)
    return;
  isl_set_free(ch->p_domain);
  isl_set_free(ch->c_domain);
  isl_map_free(ch->dep);
  isl_map_free(ch->last);
  isl_map_free(ch->earliest);
  isl_map_free(ch->control);
  isl_map_free(ch->triggers);
  isl_set_free(ch->free_set);
  isl_union_map_free(ch->first_write);
  isl_union_map_free(ch->last_read);
  isl_union_map_free(ch->release);
  isl_set_free(ch->buffer_peak);
  free(ch);
}

/* The body of nc_deps_compute, inside the error scope; fills `ch`. */
static bool compute(nc_deps_channel *ch, isl_union_map *p_writes, isl_union_map *c_reads, bool buffer,
                    nc_deps_error *err)
{
  isl_ctx *ctx = isl_set_get_ctx(ch->p_domain);
  if (!nc_deps_check_domain(ch->p_domain, "producer", err) ||
      !nc_deps_check_domain(ch->c_domain, "consumer", err) ||
      !nc_deps_check_no_params(p_writes, "producer writes", err) ||
      !nc_deps_check_no_params(c_reads, "consumer reads", err))
    return false;

  isl_union_map *w = isl_union_map_intersect_domain(
      isl_union_map_copy(p_writes), isl_union_set_from_set(isl_set_copy(ch->p_domain)));
  isl_union_map *r = isl_union_map_intersect_domain(
      isl_union_map_copy(c_reads), isl_union_set_from_set(isl_set_copy(ch->c_domain)));
  /* The channel's elements: written by the producer and read by the consumer. */
  isl_union_set *elems = isl_union_set_intersect(isl_union_map_range(isl_union_map_copy(w)),
                                                 isl_union_map_range(isl_union_map_copy(r)));
  isl_bool bounded = elems_bounded(elems);
  if (bounded != isl_bool_true) {
    isl_union_set_free(elems);
    isl_union_map_free(w);
    isl_union_map_free(r);
    if (bounded < 0)
      return nc_deps_fail_isl(err, ctx, "dependences");
    return nc_deps_fail(err, "dependences: the channel's elements are unbounded "
                        "(an access relation leaves tensor coordinates unconstrained)");
  }
  w = isl_union_map_intersect_range(w, isl_union_set_copy(elems));
  r = isl_union_map_intersect_range(r, elems);

  isl_union_map *dep = isl_union_map_apply_range(isl_union_map_copy(r),
                                                 isl_union_map_reverse(isl_union_map_copy(w)));
  isl_space *space = isl_space_map_from_domain_and_range(isl_set_get_space(ch->c_domain),
                                                         isl_set_get_space(ch->p_domain));
  ch->dep = isl_map_coalesce(isl_union_map_extract_map(dep, space));
  isl_union_map_free(dep);
  isl_bool empty = isl_map_is_empty(ch->dep);
  if (empty < 0) {
    isl_union_map_free(w);
    isl_union_map_free(r);
    return nc_deps_fail_isl(err, ctx, "dependences");
  }
  if (empty) {
    isl_union_map_free(w);
    isl_union_map_free(r);
    return nc_deps_fail(err, "dependences: the consumer reads nothing the producer writes");
  }

  ch->last = isl_map_coalesce(isl_map_lexmax(isl_map_copy(ch->dep)));
  ch->earliest = prefix_lexmax(ch->c_domain, ch->last);
  ch->free_set = isl_set_coalesce(isl_set_subtract(isl_set_copy(ch->c_domain),
                                                   isl_map_domain(isl_map_copy(ch->earliest))));
  ch->control = control_of(ch->p_domain, ch->earliest, ch->free_set);
  ch->triggers = triggers_of(ch->p_domain, ch->control);

  ch->first_write = isl_union_map_coalesce(isl_union_map_lexmin(isl_union_map_reverse(w)));
  ch->last_read = isl_union_map_coalesce(isl_union_map_lexmax(isl_union_map_reverse(r)));
  ch->release = isl_union_map_coalesce(isl_union_map_apply_range(
      isl_union_map_copy(ch->last_read), isl_union_map_from_map(isl_map_copy(ch->earliest))));
  if (!ch->last || !ch->earliest || !ch->free_set || !ch->control || !ch->triggers ||
      !ch->first_write || !ch->last_read || !ch->release)
    return nc_deps_fail_isl(err, ctx, "dependences");
  if (!buffer) {
    ch->buffer_size = -1;
    return true;
  }
  return nc_deps_buffer_compute(ch, err);
}

static bool compute_channel(isl_set *p_domain, isl_union_map *p_writes, isl_set *c_domain, isl_union_map *c_reads,
                            bool buffer, nc_deps_channel **out, nc_deps_error *err)
{
  if (out)
    *out = NULL;
  if (!p_domain || !p_writes || !c_domain || !c_reads || !out)
    return nc_deps_fail(err, "dependences: missing argument");
  isl_ctx *ctx = isl_set_get_ctx(p_domain);
  if (isl_set_get_ctx(c_domain) != ctx || isl_union_map_get_ctx(p_writes) != ctx ||
      isl_union_map_get_ctx(c_reads) != ctx)
    return nc_deps_fail(err, "dependences: arguments belong to different isl contexts");
  nc_deps_scope scope = nc_deps_scope_enter(ctx);
  nc_deps_channel *ch = nc_xcalloc(1, sizeof *ch);
  ch->p_domain = isl_set_copy(p_domain);
  ch->c_domain = isl_set_copy(c_domain);
  bool ok = compute(ch, p_writes, c_reads, buffer, err);
  nc_deps_scope_exit(scope);
  if (!ok) {
    nc_deps_channel_destroy(ch);
    return false;
  }
  *out = ch;
  return true;
}

bool nc_deps_compute(isl_set *p_domain, isl_union_map *p_writes, isl_set *c_domain,
                     isl_union_map *c_reads, nc_deps_channel **out, nc_deps_error *err)
{
  return compute_channel(p_domain, p_writes, c_domain, c_reads, true, out, err);
}

bool nc_deps_compute_relations(isl_set *p_domain, isl_union_map *p_writes, isl_set *c_domain,
                               isl_union_map *c_reads, nc_deps_channel **out, nc_deps_error *err)
{
  return compute_channel(p_domain, p_writes, c_domain, c_reads, false, out, err);
}

bool nc_deps_compute_str(isl_ctx *ctx, const char *p_domain, const char *p_writes,
                         const char *c_domain, const char *c_reads, nc_deps_channel **out,
                         nc_deps_error *err)
{
  if (out)
    *out = NULL;
  if (!ctx || !p_domain || !p_writes || !c_domain || !c_reads || !out)
    return nc_deps_fail(err, "dependences: missing argument");
  nc_deps_scope scope = nc_deps_scope_enter(ctx);
  isl_set *pd = isl_set_read_from_str(ctx, p_domain);
  bool ok = pd || nc_deps_fail_isl(err, ctx, "producer domain");
  isl_union_map *pw = ok ? isl_union_map_read_from_str(ctx, p_writes) : NULL;
  ok = ok && (pw || nc_deps_fail_isl(err, ctx, "producer writes"));
  isl_set *cd = ok ? isl_set_read_from_str(ctx, c_domain) : NULL;
  ok = ok && (cd || nc_deps_fail_isl(err, ctx, "consumer domain"));
  isl_union_map *cr = ok ? isl_union_map_read_from_str(ctx, c_reads) : NULL;
  ok = ok && (cr || nc_deps_fail_isl(err, ctx, "consumer reads"));
  ok = ok && nc_deps_compute(pd, pw, cd, cr, out, err);
  isl_set_free(pd);
  isl_union_map_free(pw);
  isl_set_free(cd);
  isl_union_map_free(cr);
  nc_deps_scope_exit(scope);
  return ok;
}

bool nc_deps_compute_layers(const nc_deps_layer *producer, const nc_deps_layer *consumer,
                            nc_deps_channel **out, nc_deps_error *err)
{
  if (out)
    *out = NULL;
  if (!producer || !consumer)
    return nc_deps_fail(err, "dependences: missing layer");
  return nc_deps_compute(producer->domain, producer->writes, consumer->domain, consumer->reads,
                         out, err);
}

isl_map *nc_deps_channel_get_dependences(const nc_deps_channel *ch)
{
  return ch ? isl_map_copy(ch->dep) : NULL;
}

isl_map *nc_deps_channel_get_last(const nc_deps_channel *ch)
{
  return ch ? isl_map_copy(ch->last) : NULL;
}

isl_map *nc_deps_channel_get_earliest(const nc_deps_channel *ch)
{
  return ch ? isl_map_copy(ch->earliest) : NULL;
}

isl_set *nc_deps_channel_get_free(const nc_deps_channel *ch)
{
  return ch ? isl_set_copy(ch->free_set) : NULL;
}

isl_map *nc_deps_channel_get_control(const nc_deps_channel *ch)
{
  return ch ? isl_map_copy(ch->control) : NULL;
}

isl_map *nc_deps_channel_get_triggers(const nc_deps_channel *ch)
{
  return ch ? isl_map_copy(ch->triggers) : NULL;
}

isl_union_map *nc_deps_channel_get_first_write(const nc_deps_channel *ch)
{
  return ch ? isl_union_map_copy(ch->first_write) : NULL;
}

isl_union_map *nc_deps_channel_get_last_read(const nc_deps_channel *ch)
{
  return ch ? isl_union_map_copy(ch->last_read) : NULL;
}

isl_union_map *nc_deps_channel_get_release(const nc_deps_channel *ch)
{
  return ch ? isl_union_map_copy(ch->release) : NULL;
}

int64_t nc_deps_channel_get_buffer_size(const nc_deps_channel *ch)
{
  return ch ? ch->buffer_size : -1;
}

isl_set *nc_deps_channel_get_buffer_peak(const nc_deps_channel *ch)
{
  return ch ? isl_set_copy(ch->buffer_peak) : NULL;
}
