/* graph_pictures.c: the dataflow graph and the placement as Graphviz
 * pictures (include/nc/passes/graph_pictures.h). Why beside view-op-graph:
 * the op-level picture of a compiled network is thousands of ops inside
 * node bodies; a researcher tuning a mapping wants the layers with their
 * domains and buffers, and the cores with the traffic between them. Both
 * read the generic dialects only (dataflow, core), so every mesh-family
 * target gets them; view-op-graph{level=...} and nc-compile --report call
 * them.
 */
#include <stdlib.h>
#include <string.h>

#include "nc/dialects/core/core.h"
#include "nc/dialects/dataflow/dataflow.h"
#include "nc/ir/asm.h"
#include "nc/ir/attrs.h"
#include "nc/passes/graph_pictures.h"

/* A dot string literal's body: quotes and backslashes escaped, newlines as \n. */
static void put_escaped(FILE *out, const char *s)
{
  for (; *s; s++) {
    if (*s == '"' || *s == '\\')
      fputc('\\', out);
    if (*s == '\n')
      fputs("\\n", out);
    else
      fputc(*s, out);
  }
}

/* Fill colours cycled per dataflow node (ColorBrewer Set3, light enough for black text). */
static const char *const palette[] = {"#8dd3c7", "#ffffb3", "#bebada", "#fb8072", "#80b1d3", "#fdb462",
                                      "#b3de69", "#fccde5", "#d9d9d9", "#bc80bd", "#ccebc5", "#ffed6f"};
#define N_PALETTE (sizeof palette / sizeof *palette)

/* The functions to draw: `module` itself if it has nodes, else each op of its body. */
static size_t functions_with_nodes(nc_op *module, nc_op **out, size_t cap)
{
  size_t n = 0;
  if (nc_op_get_num_regions(module) == 1 && nc_dataflow_first_node(module)) {
    out[n++] = module;
    return n;
  }
  if (!nc_op_get_num_regions(module))
    return 0;
  for (nc_block *b = nc_region_get_first_block(nc_op_get_region(module, 0)); b; b = nc_block_get_next(b))
    for (nc_op *op = nc_block_get_first_op(b); op && n < cap; op = nc_op_get_next(op))
      if (nc_op_get_num_regions(op) == 1 && nc_dataflow_first_node(op))
        out[n++] = op;
  return n;
}

static long node_index(nc_op *func, const nc_op *node)
{
  long i = 0;
  for (nc_op *n = nc_dataflow_first_node(func); n; n = nc_dataflow_next_node(n), i++)
    if (n == node)
      return i;
  return -1;
}

static bool feeds_host(const nc_op *node)
{
  for (size_t r = 0; r < nc_op_get_num_results(node); r++)
    for (nc_use *u = nc_value_get_first_use(nc_op_get_result(node, r)); u; u = nc_use_get_next(u))
      if (!nc_dataflow_is_node(nc_use_get_owner(u)))
        return true;
  return false;
}

bool nc_graph_picture_dataflow(nc_op *module, FILE *out)
{
  nc_op *funcs[64];
  size_t n_funcs = functions_with_nodes(module, funcs, 64);
  if (!n_funcs)
    return false;
  fputs("digraph dataflow {\n  rankdir = TB;\n  node [shape = box, style = \"rounded,filled\", fontname = "
        "\"Helvetica\", fontsize = 10];\n  edge [fontname = \"Helvetica\", fontsize = 9];\n",
        out);
  for (size_t f = 0; f < n_funcs; f++) {
    nc_op *func = funcs[f];
    fprintf(out, "  f%zu_in [label = \"host inputs\", shape = ellipse, style = filled, fillcolor = \"#eeeeee\"];\n", f);
    fprintf(out, "  f%zu_out [label = \"host outputs\", shape = ellipse, style = filled, fillcolor = \"#eeeeee\"];\n",
            f);
    long i = 0;
    for (nc_op *n = nc_dataflow_first_node(func); n; n = nc_dataflow_next_node(n), i++) {
      nc_attr *dom = nc_op_get_attr_str(n, "domain");
      char *domain = dom && nc_dataflow_attr_is_set(dom) ? nc_dataflow_attr_get_text(dom) : NULL;
      fprintf(out, "  f%zu_n%ld [fillcolor = \"%s\", label = \"", f, i, palette[(size_t)i % N_PALETTE]);
      put_escaped(out, nc_dataflow_node_get_name(n));
      fputs(" (", out);
      put_escaped(out, nc_dataflow_node_get_kind(n));
      fputs(")\\n", out);
      put_escaped(out, domain ? domain : "(no domain)");
      fprintf(out, "\\nMACs %lld", (long long)nc_dataflow_node_get_macs(n));
      for (size_t k = 0; k < nc_dataflow_node_get_num_inputs(n); k++) {
        int64_t b = nc_dataflow_node_get_buffer_elements(n, k);
        if (b >= 0)
          fprintf(out, "\\nbuffer in%zu: %lld elements", k, (long long)b);
      }
      fputs("\"];\n", out);
      free(domain);
    }
    i = 0;
    for (nc_op *n = nc_dataflow_first_node(func); n; n = nc_dataflow_next_node(n), i++) {
      for (size_t k = 0; k < nc_dataflow_node_get_num_inputs(n); k++) {
        nc_op *p = nc_dataflow_node_get_producer(n, k);
        char *ty = nc_type_to_string(nc_value_get_type(nc_op_get_operand(n, k)));
        if (p)
          fprintf(out, "  f%zu_n%ld -> f%zu_n%ld [label = \"", f, node_index(func, p), f, i);
        else
          fprintf(out, "  f%zu_in -> f%zu_n%ld [label = \"", f, f, i);
        put_escaped(out, ty);
        fputs("\"];\n", out);
        free(ty);
      }
      if (feeds_host(n)) {
        char *ty = nc_type_to_string(nc_value_get_type(nc_op_get_result(n, 0)));
        fprintf(out, "  f%zu_n%ld -> f%zu_out [label = \"", f, i, f);
        put_escaped(out, ty);
        fputs("\"];\n", out);
        free(ty);
      }
    }
  }
  fputs("}\n", out);
  return true;
}

/* --- placement ------------------------------------------------------------------------------------------------------ */

static nc_op *find_chip(nc_op *module)
{
  if (nc_core_is_chip(module))
    return module;
  if (!nc_op_get_num_regions(module))
    return NULL;
  for (nc_block *b = nc_region_get_first_block(nc_op_get_region(module, 0)); b; b = nc_block_get_next(b))
    for (nc_op *op = nc_block_get_first_op(b); op; op = nc_op_get_next(op))
      if (nc_core_is_chip(op))
        return op;
  return NULL;
}

typedef struct flow {
  int64_t fx, fy, tx, ty, bytes;
} flow;

/* Adds `bytes` to the flow from (fx, fy) to (tx, ty), keeping flows sorted as they are first seen. */
static void add_flow(flow **flows, size_t *n, size_t *cap, flow f)
{
  for (size_t i = 0; i < *n; i++)
    if ((*flows)[i].fx == f.fx && (*flows)[i].fy == f.fy && (*flows)[i].tx == f.tx && (*flows)[i].ty == f.ty) {
      (*flows)[i].bytes += f.bytes;
      return;
    }
  if (*n == *cap) {
    *cap = *cap ? *cap * 2 : 64;
    *flows = realloc(*flows, *cap * sizeof **flows);
    if (!*flows)
      abort();
  }
  (*flows)[(*n)++] = f;
}

static void tile_id(FILE *out, int64_t x, int64_t y)
{
  if (x == NC_CORE_HOST)
    fputs("host", out);
  else
    fprintf(out, "t%lld_%lld", (long long)x, (long long)y);
}

bool nc_graph_picture_cores(nc_op *module, FILE *out)
{
  nc_op *chip = find_chip(module);
  if (!chip)
    return false;
  /* 1.1 inch per mesh step, y down as in --stats and the report's heatmap */
  const double step = 1.1;
  fprintf(out, "digraph cores {\n  layout = neato;\n  label = \"%s: %lld x %lld cores, %zu used\";\n"
               "  node [shape = box, style = filled, fontname = \"Helvetica\", fontsize = 9, width = 0.95, "
               "height = 0.6, fixedsize = true];\n  edge [fontname = \"Helvetica\", fontsize = 8, color = \"#5b8def\"];\n",
          nc_core_chip_get_target(chip), (long long)nc_core_chip_get_cols(chip), (long long)nc_core_chip_get_rows(chip),
          nc_core_chip_get_num_tiles(chip));
  fprintf(out, "  host [shape = ellipse, fillcolor = \"#eeeeee\", pos = \"%.2f,0!\"];\n", -1.5 * step);
  const char *names[N_PALETTE] = {0};
  size_t n_names = 0;
  flow *flows = NULL;
  size_t n_flows = 0, cap = 0;
  for (nc_op *t = nc_core_chip_first_tile(chip); t; t = nc_core_tile_next(t)) {
    int64_t x = nc_core_tile_get_x(t), y = nc_core_tile_get_y(t), sram = 0;
    const char *node = nc_core_tile_get_node(t);
    size_t colour = 0;
    while (colour < n_names && strcmp(names[colour], node))
      colour++;
    if (colour == n_names && n_names < N_PALETTE)
      names[n_names++] = node;
    for (nc_op *b = nc_core_tile_first_buffer(t); b; b = nc_core_buffer_next(b)) {
      int64_t end = nc_core_buffer_get_offset(b) + nc_core_buffer_get_bytes(b);
      sram = end > sram ? end : sram;
    }
    fputs("  ", out);
    tile_id(out, x, y);
    fprintf(out, " [fillcolor = \"%s\", pos = \"%.2f,%.2f!\", label = \"(%lld, %lld)\\n", palette[colour % N_PALETTE],
            (double)x * step, -(double)y * step, (long long)x, (long long)y);
    put_escaped(out, node);
    fprintf(out, "\\nSRAM %lld B\"];\n", (long long)sram);
    nc_op *prog = nc_core_tile_get_program(t);
    for (nc_op *op = prog ? nc_block_get_first_op(nc_core_program_get_body(prog)) : NULL; op; op = nc_op_get_next(op)) {
      nc_core_instr in;
      if (!nc_core_instr_get(op, &in))
        continue;
      if (in.kind == NC_CORE_SEND)
        add_flow(&flows, &n_flows, &cap, (flow){x, y, in.x, in.y, in.bytes});
      else if (in.kind == NC_CORE_RECV && in.x == NC_CORE_HOST)
        add_flow(&flows, &n_flows, &cap, (flow){NC_CORE_HOST, NC_CORE_HOST, x, y, 0});
    }
  }
  for (size_t i = 0; i < n_flows; i++) {
    fputs("  ", out);
    tile_id(out, flows[i].fx, flows[i].fy);
    fputs(" -> ", out);
    tile_id(out, flows[i].tx, flows[i].ty);
    if (flows[i].bytes)
      fprintf(out, " [label = \"%lld B\"]", (long long)flows[i].bytes);
    fputs(";\n", out);
  }
  fputs("}\n", out);
  free(flows);
  return true;
}
