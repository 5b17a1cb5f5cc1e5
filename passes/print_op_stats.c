/* print_op_stats.c: counts the ops nested in the op (and the op itself) by
 * name and prints the table to stderr in mlir-opt's format, or as JSON:
 * a quick look at what a model or a lowering produced. */
#include <stdlib.h>
#include <string.h>

#include "nc/ir/pass.h"

typedef struct op_count {
  nc_ident *name;
  size_t count;
} op_count;

typedef struct counts {
  op_count *v;
  size_t n, cap;
} counts;

static nc_walk_result count(nc_op *op, void *user)
{
  counts *c = user;
  nc_ident *name = nc_op_get_name(op);
  for (size_t i = 0; i < c->n; i++)
    if (c->v[i].name == name) {
      c->v[i].count++;
      return NC_WALK_ADVANCE;
    }
  if (c->n == c->cap) {
    c->cap = c->cap ? c->cap * 2 : 32;
    c->v = realloc(c->v, c->cap * sizeof *c->v);
    if (!c->v)
      abort();
  }
  c->v[c->n++] = (op_count){name, 1};
  return NC_WALK_ADVANCE;
}

static int by_name(const void *a, const void *b)
{
  return strcmp(nc_ident_str(((const op_count *)a)->name), nc_ident_str(((const op_count *)b)->name));
}

/* "dialect.op" -> dialect length, or 0 when there is no dot */
static size_t dialect_len(const char *name)
{
  const char *dot = strchr(name, '.');
  return dot ? (size_t)(dot - name) : 0;
}

static void print_table(const counts *c)
{
  /* dialects right-aligned on the dot, op names left-aligned, as mlir-opt */
  size_t wd = 0, wo = 0;
  for (size_t i = 0; i < c->n; i++) {
    const char *s = nc_ident_str(c->v[i].name);
    size_t d = dialect_len(s), o = strlen(s) - (d ? d + 1 : 0);
    wd = d > wd ? d : wd;
    wo = o > wo ? o : wo;
  }
  nc_pass_printf("Operations encountered:\n-----------------------\n");
  for (size_t i = 0; i < c->n; i++) {
    const char *s = nc_ident_str(c->v[i].name);
    size_t d = dialect_len(s);
    const char *op = d ? s + d + 1 : s;
    if (d)
      nc_pass_printf("%*.*s.", (int)(wd + 2), (int)d, s);
    else
      nc_pass_printf("%*s", (int)(wd + 3), "");
    nc_pass_printf("%-*s , %zu\n", (int)wo, op, c->v[i].count);
  }
}

static void print_json(const counts *c)
{
  nc_pass_printf("{\n");
  for (size_t i = 0; i < c->n; i++)
    nc_pass_printf("  \"%s\" : %zu%s\n", nc_ident_str(c->v[i].name), c->v[i].count, i + 1 < c->n ? "," : "");
  nc_pass_printf("}\n");
}

static bool run(nc_pass *pass, nc_op *op)
{
  counts c = {0};
  nc_op_walk(op, NC_WALK_PRE_ORDER, count, &c);
  qsort(c.v, c.n, sizeof *c.v, by_name);
  if (nc_pass_get_option_bool(pass, "json"))
    print_json(&c);
  else
    print_table(&c);
  free(c.v);
  return true;
}

static const nc_pass_option_def options[] = {
  {"json", NC_PASS_OPT_BOOL, "false", "print the stats as JSON"},
};

const nc_pass_def nc_print_op_stats_pass = {
  .argument = "print-op-stats",
  .name = "PrintOpStats",
  .group = "Generic",
  .summary = "Print statistics of operations",
  .description = "Counts the ops nested in the op, by name, and prints the counts to stderr: a table with dialect "
                 "names aligned, or JSON with `json=true`.",
  .options = options, .n_options = 1,
  .run = run,
};
