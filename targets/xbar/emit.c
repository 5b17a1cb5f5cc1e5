/* emit.c: nc-compile --emit=control-c for the xbar target: the control
 * program of every node input (xbar.control), in the C form isl prints
 * (control.c): per consumer, its loops in execution order and the producer
 * iteration each of its iterations waits for. For inspection; the binary
 * carries the same programs as data. */
#include <ctype.h>
#include <isl/ctx.h>
#include <isl/map.h>
#include <isl/set.h>
#include <stdio.h>
#include <string.h>

#include "control.h"
#include "nc/dialects/dataflow/dataflow.h"
#include "nc/ir/diag.h"
#include "xbar_ir.h"

/* A C identifier from a node name. */
static void ident(const char *name, char *out, size_t n)
{
  size_t i = 0;
  if (!isalpha((unsigned char)name[0]) && name[0] != '_' && i + 1 < n)
    out[i++] = '_';
  for (; *name && i + 1 < n; name++)
    out[i++] = isalnum((unsigned char)*name) ? *name : '_';
  out[i] = 0;
}

static const char *core_list(nc_op *map, char *buf, size_t n)
{
  size_t cnt, m = 0;
  int64_t one;
  const int64_t *cores = map && nc_op_is(map, "xbar.mvm") ? xbar_array_attr(map, "cores", &cnt) : NULL;
  if (!cores && map) {
    one = xbar_int_attr(map, "core");
    cores = &one;
    cnt = 1;
  }
  buf[0] = 0;
  for (size_t i = 0; cores && i < cnt && m + 24 < n; i++)
    m += (size_t)snprintf(buf + m, n - m, "%s%lld", i ? ", " : "", (long long)cores[i]);
  return buf;
}

bool xbar_emit_control_c(nc_op *module, FILE *out, void *userData)
{
  (void)userData;
  isl_ctx *ictx = isl_ctx_alloc();
  bool ok = true, any = false;
  fprintf(out, "/* Control programs of the xbar target, printed by isl from dataflow-deps' earliest relations.\n"
               " * Each core runs its stage's loop; before an iteration fires, it waits until the producer has\n"
               " * completed the iteration its wait function names (the binary holds the same functions as data:\n"
               " * docs/targets/xbar.md). */\n\n");
  nc_block *b = nc_region_get_first_block(nc_op_get_region(module, 0));
  for (nc_op *fn = b ? nc_block_get_first_op(b) : NULL; ok && fn; fn = nc_op_get_next(fn)) {
    if (!nc_op_is(fn, "func.func") || nc_op_get_num_regions(fn) != 1)
      continue;
    for (nc_op *node = nc_dataflow_first_node(fn); ok && node; node = nc_dataflow_next_node(node)) {
      const char *name = nc_dataflow_node_get_name(node);
      char cname[64], pname[64], cores[512];
      ident(name, cname, sizeof cname);
      for (size_t i = 0; ok && i < nc_dataflow_node_get_num_inputs(node); i++) {
        nc_op *ctl = xbar_find_control(node, name, (int64_t)i);
        if (!ctl) {
          ok = nc_op_emit_error(node, "control-c: input %zu of node '%s' has no xbar.control; run xbar-control", i,
                                name);
          break;
        }
        nc_op *prod = nc_dataflow_node_get_producer(node, i);
        if (prod)
          ident(nc_dataflow_node_get_name(prod), pname, sizeof pname);
        else
          snprintf(pname, sizeof pname, "host_input");
        fprintf(out, "/* stage %s (cores %s), input %zu from %s */\n", name,
                core_list(xbar_find_mapping(node, name), cores, sizeof cores), i, prod ? pname : "the host");
        isl_set *dom = nc_dataflow_node_get_domain(node, ictx);
        isl_map *e = nc_dataflow_node_get_earliest(node, i, ictx);
        char err[256];
        if (!dom || !e || !xbar_control_print_c(out, dom, e, cname, pname, err, sizeof err))
          ok = nc_op_emit_error(node, "control-c: %s", dom && e ? err : "unreadable domain or earliest relation");
        fputc('\n', out);
        isl_set_free(dom);
        isl_map_free(e);
        any = true;
      }
    }
  }
  if (ok && !any)
    ok = nc_op_emit_error(module, "control-c: the module has no xbar.control ops (compile to the xbar level)");
  isl_ctx_free(ictx);
  return ok;
}
