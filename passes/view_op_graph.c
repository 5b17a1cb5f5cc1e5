/* view_op_graph.c: writes the op as a Graphviz graph to stderr, in the
 * format of MLIR's view-op-graph: ops as nodes (colored by name), ops with
 * regions and their blocks as clusters, block arguments as nodes, SSA
 * values as solid edges from the defining op (or argument) to each user,
 * and, optionally, control flow between consecutive ops as dashed edges.
 * `dot -Tsvg` renders it. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nc/ir/diag.h"
#include "nc/ir/pass.h"
#include "nc/passes/graph_pictures.h"

typedef struct node {
  int id;
  int cluster; /* 0 unless the node anchors a cluster */
} node;

typedef struct graph {
  nc_pass *pass;
  size_t max_label;
  bool attrs, result_types, data_edges, control_edges;
  int counter, indent;
  /* value -> node, by linear probing on the value pointer */
  nc_value **keys;
  node *vals;
  size_t cap, count;
  /* op names in first-seen post-order, for the fill colors */
  nc_ident **names;
  size_t n_names, cap_names;
  /* ops in the order their operand edges are written */
  struct user {
    nc_op *op;
    node n;
  } *users;
  size_t n_users, cap_users;
  char *control;        /* control-flow edge statements, written before data edges */
  size_t control_len, control_cap;
} graph;

static void *grow(void *p, size_t *cap, size_t elt)
{
  *cap = *cap ? *cap * 2 : 64;
  p = realloc(p, *cap * elt);
  if (!p)
    abort();
  return p;
}

static size_t value_slot(const graph *g, const nc_value *v)
{
  size_t j = (((uintptr_t)v >> 3) * 0x9e3779b97f4a7c15ull) & (g->cap - 1);
  while (g->keys[j] && g->keys[j] != v)
    j = (j + 1) & (g->cap - 1);
  return j;
}

static void map_value(graph *g, nc_value *v, node n)
{
  if ((g->count + 1) * 2 > g->cap) {
    graph old = *g;
    g->cap = g->cap ? g->cap * 2 : 256;
    g->keys = calloc(g->cap, sizeof *g->keys);
    g->vals = calloc(g->cap, sizeof *g->vals);
    if (!g->keys || !g->vals)
      abort();
    for (size_t i = 0; i < old.cap; i++)
      if (old.keys[i]) {
        size_t j = value_slot(g, old.keys[i]);
        g->keys[j] = old.keys[i];
        g->vals[j] = old.vals[i];
      }
    free(old.keys);
    free(old.vals);
  }
  size_t j = value_slot(g, v);
  if (!g->keys[j])
    g->count++;
  g->keys[j] = v;
  g->vals[j] = n;
}

static const node *lookup_value(const graph *g, const nc_value *v)
{
  if (!g->cap)
    return NULL;
  size_t j = value_slot(g, v);
  return g->keys[j] ? &g->vals[j] : NULL;
}

/* --- text --------------------------------------------------------------------------------- */

static void line(graph *g, const char *fmt, ...) NC_PRINTF(2, 3);
static void line(graph *g, const char *fmt, ...)
{
  char buf[256];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  nc_pass_printf("%*s%s", g->indent * 2, "", buf);
}

typedef struct str {
  char *s;
  size_t len, cap;
} str;

static void put(str *b, const char *s, size_t n)
{
  if (b->len + n + 1 > b->cap) {
    b->cap = (b->len + n + 1) * 2;
    b->s = realloc(b->s, b->cap);
    if (!b->s)
      abort();
  }
  memcpy(b->s + b->len, s, n);
  b->len += n;
  b->s[b->len] = 0;
}

static void puts_(str *b, const char *s) { put(b, s, strlen(s)); }

/* Appends s truncated to the label limit, with "..." when cut. */
static void put_truncated(graph *g, str *b, const char *s)
{
  size_t n = strlen(s);
  if (n <= g->max_label) {
    put(b, s, n);
  } else {
    put(b, s, g->max_label);
    puts_(b, "...");
  }
}

/* A quoted DOT string with LLVM's write_escaped escapes. */
static void put_quoted(str *b, const char *s)
{
  puts_(b, "\"");
  for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
    char esc[5];
    if (*p == '\\' || *p == '"') {
      esc[0] = '\\';
      esc[1] = (char)*p;
      put(b, esc, 2);
    } else if (*p == '\n') {
      puts_(b, "\\n");
    } else if (*p == '\t') {
      puts_(b, "\\t");
    } else if (*p >= 0x20 && *p < 0x7f) {
      put(b, (const char *)p, 1);
    } else {
      snprintf(esc, sizeof esc, "\\%03o", *p);
      put(b, esc, 4);
    }
  }
  puts_(b, "\"");
}

/* An attribute value as the label shows it: big element lists elided. */
static void put_attr(graph *g, str *b, nc_attr *a)
{
  nc_attr_kind k = nc_attr_get_kind(a);
  bool elements = k == NC_ATTR_DENSE_ELEMENTS || k == NC_ATTR_DENSE_RESOURCE;
  if (elements && !(k == NC_ATTR_DENSE_ELEMENTS && nc_attr_dense_is_splat(a))) {
    nc_type *t = nc_attr_get_type(a);
    if (nc_type_get_num_elements(t) > 16) {
      size_t rank = nc_type_get_rank(t);
      for (size_t i = 0; i < rank; i++)
        puts_(b, "[");
      puts_(b, "...");
      for (size_t i = 0; i < rank; i++)
        puts_(b, "]");
      puts_(b, " : ");
      char *ts = nc_type_to_string(t);
      puts_(b, ts);
      free(ts);
      return;
    }
  }
  if (k == NC_ATTR_ARRAY && nc_attr_get_num_elements(a) > 16) {
    puts_(b, "[...]");
    return;
  }
  char *s = nc_attr_to_string(a);
  if (elements && nc_attr_dense_is_splat(a))
    puts_(b, s);
  else
    put_truncated(g, b, s);
  free(s);
}

static int cmp_named(const void *x, const void *y)
{
  return strcmp(nc_ident_str(((const nc_named_attr *)x)->name), nc_ident_str(((const nc_named_attr *)y)->name));
}

/* "name : (types)\n\nattr: value..." */
static char *op_label(graph *g, nc_op *op)
{
  str b = {0};
  puts_(&b, nc_ident_str(nc_op_get_name(op)));
  if (g->result_types) {
    str t = {0};
    puts_(&t, "");
    for (size_t i = 0; i < nc_op_get_num_results(op); i++) {
      char *ts = nc_type_to_string(nc_value_get_type(nc_op_get_result(op, i)));
      if (i)
        puts_(&t, ", ");
      puts_(&t, ts);
      free(ts);
    }
    puts_(&b, " : (");
    put_truncated(g, &b, t.s);
    puts_(&b, ")");
    free(t.s);
  }
  if (g->attrs) {
    puts_(&b, "\n");
    /* inherent and discardable attributes merged, sorted by name */
    nc_attr *dicts[2] = {nc_op_get_props(op), nc_op_get_attr_dict(op)};
    size_t n = 0;
    for (int d = 0; d < 2; d++)
      if (dicts[d] && nc_attr_get_kind(dicts[d]) == NC_ATTR_DICTIONARY)
        n += nc_attr_get_num_elements(dicts[d]);
    nc_named_attr *all = malloc((n + 1) * sizeof *all);
    size_t k = 0;
    for (int d = 0; d < 2; d++)
      if (dicts[d] && nc_attr_get_kind(dicts[d]) == NC_ATTR_DICTIONARY)
        for (size_t i = 0; i < nc_attr_get_num_elements(dicts[d]); i++)
          all[k++] = nc_attr_get_entry(dicts[d], i);
    qsort(all, k, sizeof *all, cmp_named);
    for (size_t i = 0; i < k; i++) {
      puts_(&b, "\n");
      puts_(&b, nc_ident_str(all[i].name));
      puts_(&b, ": ");
      put_attr(g, &b, all[i].value);
    }
    free(all);
  }
  return b.s;
}

/* --- graph ----------------------------------------------------------------------------------- */

static node emit_node(graph *g, const char *label, const char *shape, const char *fill)
{
  node n = {++g->counter, 0};
  str b = {0};
  char head[32];
  snprintf(head, sizeof head, "v%d [", n.id);
  puts_(&b, head);
  if (fill) {
    puts_(&b, "fillcolor = ");
    put_quoted(&b, fill);
    puts_(&b, ", ");
  }
  puts_(&b, "label = ");
  put_quoted(&b, label);
  puts_(&b, ", shape = ");
  puts_(&b, shape);
  if (fill)
    puts_(&b, ", style = filled");
  puts_(&b, "];\n");
  nc_pass_printf("%*s%s", g->indent * 2, "", b.s);
  free(b.s);
  return n;
}

/* An edge statement; edges at cluster boundaries are clipped and unlabelled. */
static void edge(graph *g, str *out, node from, node to, const char *label, const char *style)
{
  char buf[160];
  int n = snprintf(buf, sizeof buf, "v%d -> v%d [", from.id, to.id);
  put(out, buf, (size_t)n);
  if (!from.cluster && !to.cluster) {
    puts_(out, "label = ");
    put_quoted(out, label);
    puts_(out, ", ");
  }
  if (to.cluster) {
    n = snprintf(buf, sizeof buf, "lhead = cluster_%d, ", to.cluster);
    put(out, buf, (size_t)n);
  }
  if (from.cluster) {
    n = snprintf(buf, sizeof buf, "ltail = cluster_%d, ", from.cluster);
    put(out, buf, (size_t)n);
  }
  puts_(out, "style = ");
  puts_(out, style);
  puts_(out, "];\n");
}

static void fill_color(const graph *g, nc_op *op, char *buf, size_t cap)
{
  size_t i = 0;
  while (i < g->n_names && g->names[i] != nc_op_get_name(op))
    i++;
  snprintf(buf, cap, "%f 1.0 1.0", (double)i / (double)(g->n_names ? g->n_names : 1));
}

static node process_op(graph *g, nc_op *op);

/* A cluster: an invisible anchor node, a label, then the body. */
static node begin_cluster(graph *g, const char *label)
{
  int id = ++g->counter;
  line(g, "subgraph cluster_%d {\n", id);
  g->indent++;
  node anchor = emit_node(g, " ", "plain", NULL);
  str b = {0};
  puts_(&b, "label = ");
  put_quoted(&b, label);
  puts_(&b, ";\n");
  nc_pass_printf("%*s%s", g->indent * 2, "", b.s);
  free(b.s);
  anchor.cluster = id;
  return anchor;
}

static void end_cluster(graph *g)
{
  g->indent--;
  line(g, "}\n");
}

static void process_block(graph *g, nc_block *b)
{
  begin_cluster(g, "");
  for (size_t i = 0; i < nc_block_get_num_args(b); i++) {
    char label[32];
    snprintf(label, sizeof label, "arg%zu", i);
    map_value(g, nc_block_get_arg(b, i), emit_node(g, label, "ellipse", NULL));
  }
  node prev = {0, 0};
  for (nc_op *op = nc_block_get_first_op(b); op; op = nc_op_get_next(op)) {
    node n = process_op(g, op);
    if (g->control_edges && prev.id) {
      str e = {g->control, g->control_len, g->control_cap};
      edge(g, &e, prev, n, "", "dashed");
      g->control = e.s;
      g->control_len = e.len;
      g->control_cap = e.cap;
    }
    prev = n;
  }
  end_cluster(g);
}

static node process_op(graph *g, nc_op *op)
{
  node n;
  char *label = op_label(g, op);
  if (nc_op_get_num_regions(op)) {
    n = begin_cluster(g, label);
    for (size_t r = 0; r < nc_op_get_num_regions(op); r++)
      for (nc_block *b = nc_region_get_first_block(nc_op_get_region(op, r)); b; b = nc_block_get_next(b))
        process_block(g, b);
    end_cluster(g);
  } else {
    char color[64];
    fill_color(g, op, color, sizeof color);
    n = emit_node(g, label, "ellipse", color);
  }
  free(label);
  for (size_t i = 0; i < nc_op_get_num_results(op); i++)
    map_value(g, nc_op_get_result(op, i), n);
  if (g->n_users == g->cap_users)
    g->users = grow(g->users, &g->cap_users, sizeof *g->users);
  g->users[g->n_users++] = (struct user){op, n};
  return n;
}

static nc_walk_result collect_name(nc_op *op, void *user)
{
  graph *g = user;
  nc_ident *name = nc_op_get_name(op);
  for (size_t i = 0; i < g->n_names; i++)
    if (g->names[i] == name)
      return NC_WALK_ADVANCE;
  if (g->n_names == g->cap_names)
    g->names = grow(g->names, &g->cap_names, sizeof *g->names);
  g->names[g->n_names++] = name;
  return NC_WALK_ADVANCE;
}

/* level=dataflow|core: the pictures of graph_pictures.c instead of the ops. */
static bool run_level(nc_op *op, const char *level)
{
  char *text = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&text, &len);
  bool dataflow = !strcmp(level, "dataflow");
  bool ok = dataflow ? nc_graph_picture_dataflow(op, f) : nc_graph_picture_cores(op, f);
  fclose(f);
  if (ok)
    nc_pass_write(text, len);
  else
    nc_op_emit_error(op, dataflow ? "view-op-graph{level=dataflow}: no dataflow.node to draw (the IR is not at the "
                                    "dataflow level or below)"
                                  : "view-op-graph{level=core}: no core.chip to draw (the IR is not at the core level)");
  free(text);
  return ok;
}

static bool run(nc_pass *pass, nc_op *op)
{
  const char *level = nc_pass_get_option_string(pass, "level");
  if (strcmp(level, "op"))
    return run_level(op, level);
  graph g = {.pass = pass};
  int64_t max_label = nc_pass_get_option_int(pass, "max-label-len");
  g.max_label = max_label < 0 ? 0 : (size_t)max_label;
  g.attrs = nc_pass_get_option_bool(pass, "print-attrs");
  g.result_types = nc_pass_get_option_bool(pass, "print-result-types");
  g.data_edges = nc_pass_get_option_bool(pass, "print-data-flow-edges");
  g.control_edges = nc_pass_get_option_bool(pass, "print-control-flow-edges");
  nc_op_walk(op, NC_WALK_POST_ORDER, collect_name, &g);

  nc_pass_printf("digraph G {\n");
  g.indent = 1;
  line(&g, "compound = true;\n");
  process_op(&g, op);
  str edges = {0};
  puts_(&edges, "");
  if (g.control)
    puts_(&edges, g.control);
  if (g.data_edges)
    for (size_t u = 0; u < g.n_users; u++) {
      nc_op *user = g.users[u].op;
      size_t n = nc_op_get_num_operands(user);
      for (size_t i = 0; i < n; i++) {
        const node *from = lookup_value(&g, nc_op_get_operand(user, i));
        if (!from)
          continue; /* defined outside the op being drawn */
        char label[24];
        snprintf(label, sizeof label, "%zu", i);
        edge(&g, &edges, *from, g.users[u].n, n == 1 ? "" : label, "solid");
      }
    }
  /* edges go after every node, indented like the graph body */
  for (char *p = edges.s; *p;) {
    char *nl = strchr(p, '\n');
    nc_pass_printf("  %.*s\n", (int)(nl - p), p);
    p = nl + 1;
  }
  nc_pass_printf("}\n");
  free(edges.s);
  free(g.control);
  free(g.keys);
  free(g.vals);
  free(g.names);
  free(g.users);
  return true;
}

static const char *const levels[] = {"op", "dataflow", "core", NULL};

static const nc_pass_option_def options[] = {
  {"level", NC_PASS_OPT_ENUM, "op", "What to draw: op (every op), dataflow (the dataflow nodes with their domains and "
                                    "buffers), core (the tiles at their place on the chip)", .enum_values = levels},
  {"max-label-len", NC_PASS_OPT_INT, "20", "Limit attribute/type length to number of chars"},
  {"print-attrs", NC_PASS_OPT_BOOL, "true", "Print attributes of operations"},
  {"print-control-flow-edges", NC_PASS_OPT_BOOL, "false", "Print control flow edges"},
  {"print-data-flow-edges", NC_PASS_OPT_BOOL, "true", "Print data flow edges"},
  {"print-result-types", NC_PASS_OPT_BOOL, "true", "Print result types of operations"},
};

const nc_pass_def nc_view_op_graph_pass = {
  .argument = "view-op-graph",
  .name = "ViewOpGraph",
  .group = "Generic",
  .summary = "Print Graphviz visualization of an operation",
  .description = "Writes the op as a Graphviz `digraph` to stderr: ops as nodes, ops with regions and blocks as "
                 "clusters, SSA values as edges from their definition to each use. Render with `dot -Tsvg`. "
                 "level=dataflow draws the dataflow nodes instead (layer kind, iteration domain, MACs, input "
                 "buffers), level=core the tiles at their mesh position with the bytes they send each other.",
  .options = options, .n_options = NC_COUNTOF(options),
  .run = run,
};
