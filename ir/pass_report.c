/* pass_report.c: the statistics and timing reports of a pass manager run,
 * in mlir-opt's formats (--mlir-pass-statistics, --mlir-timing).
 *
 * Timing follows MLIR's definitions: a row's wall time is the longest time
 * any one thread spent in it, its user time the sum over threads; the user
 * column is printed only when the totals differ, i.e. when work ran on
 * several threads.
 */
#include "pass_internal.h"

#include <stdlib.h>
#include <string.h>

static void print_banner(FILE *out, const char *title)
{
  fprintf(out, "===-------------------------------------------------------------------------===\n");
  int pad = (int)(80 - strlen(title)) / 2;
  fprintf(out, "%*s%s\n", pad > 0 ? pad : 0, "", title);
  fprintf(out, "===-------------------------------------------------------------------------===\n");
}

static const char *pass_name(const nc_pass *p) { return p->def->name ? p->def->name : p->def->argument; }

/* --- statistics ----------------------------------------------------------------------------------- */

typedef struct stat_row {
  const char *name, *summary;
  uint64_t value;
} stat_row;

static int cmp_stat(const void *a, const void *b)
{
  return strcmp(((const stat_row *)a)->name, ((const stat_row *)b)->name);
}

/* A pass name and its statistics sorted by name, values and names aligned. */
static void print_entry(FILE *out, int indent, const char *name, stat_row *rows, size_t n)
{
  fprintf(out, "%*s%s\n", indent, "", name);
  qsort(rows, n, sizeof *rows, cmp_stat);
  int wn = 0, wv = 0;
  for (size_t i = 0; i < n; i++) {
    char num[32];
    int l = snprintf(num, sizeof num, "%llu", (unsigned long long)rows[i].value);
    wv = l > wv ? l : wv;
    wn = (int)strlen(rows[i].name) > wn ? (int)strlen(rows[i].name) : wn;
  }
  for (size_t i = 0; i < n; i++)
    fprintf(out, "%*s(S) %*llu %-*s - %s\n", indent + 2, "", wv, (unsigned long long)rows[i].value, wn, rows[i].name,
            rows[i].summary);
}

static stat_row *pass_stats(const nc_pass *p)
{
  stat_row *rows = nc_xcalloc(p->def->n_stats + 1, sizeof *rows);
  for (size_t s = 0; s < p->def->n_stats; s++)
    rows[s] = (stat_row){p->def->stats[s].name, p->def->stats[s].summary, nc_pass_stat_get(p, s)};
  return rows;
}

static void stats_tree(const nc_pass_manager *pm, FILE *out, int indent)
{
  for (size_t i = 0; i < pm->n; i++) {
    const pm_entry *e = &pm->entries[i];
    if (e->pass) {
      stat_row *rows = pass_stats(e->pass);
      print_entry(out, indent, pass_name(e->pass), rows, e->pass->def->n_stats);
      free(rows);
    } else {
      fprintf(out, "%*s'%s' Pipeline\n", indent, "", e->nested->anchor);
      stats_tree(e->nested, out, indent + 2);
    }
  }
}

static void collect_passes(const nc_pass_manager *pm, const nc_pass ***v, size_t *n, size_t *cap)
{
  for (size_t i = 0; i < pm->n; i++) {
    if (pm->entries[i].nested) {
      collect_passes(pm->entries[i].nested, v, n, cap);
      continue;
    }
    if (*n == *cap) {
      *cap = *cap ? *cap * 2 : 16;
      *v = nc_xrealloc(*v, *cap * sizeof **v);
    }
    (*v)[(*n)++] = pm->entries[i].pass;
  }
}

static int cmp_pass_name(const void *a, const void *b)
{
  return strcmp(pass_name(*(const nc_pass *const *)a), pass_name(*(const nc_pass *const *)b));
}

void nc_pass_manager_print_statistics(const nc_pass_manager *pm, bool list, FILE *out)
{
  print_banner(out, "... Pass statistics report ...");
  if (!list) {
    stats_tree(pm, out, 0);
  } else {
    /* passes with statistics, merged by name and sorted */
    const nc_pass **v = NULL;
    size_t n = 0, cap = 0;
    collect_passes(pm, &v, &n, &cap);
    if (n)
      qsort(v, n, sizeof *v, cmp_pass_name);
    for (size_t i = 0; i < n;) {
      size_t j = i;
      stat_row *rows = pass_stats(v[i]);
      for (j = i + 1; j < n && !strcmp(pass_name(v[j]), pass_name(v[i])); j++)
        for (size_t s = 0; s < v[i]->def->n_stats && v[j]->def == v[i]->def; s++)
          rows[s].value += nc_pass_stat_get(v[j], s);
      if (v[i]->def->n_stats)
        print_entry(out, 2, pass_name(v[i]), rows, v[i]->def->n_stats);
      free(rows);
      i = j;
    }
    free(v);
  }
  fprintf(out, "\n");
  fflush(out);
}

/* --- timing -------------------------------------------------------------------------------------------- */

typedef struct trow {
  char *name;
  double wall, user;
  int indent;
} trow;

struct nc_timing {
  trow *rows;
  size_t n, cap;
  nc_pass_manager *pm;
  size_t pm_pos; /* rows before this index come before the pipeline */
};

nc_timing *nc_timing_create(void) { return nc_xcalloc(1, sizeof(nc_timing)); }

static void free_rows(nc_timing *t)
{
  for (size_t i = 0; i < t->n; i++)
    free(t->rows[i].name);
  free(t->rows);
}

void nc_timing_destroy(nc_timing *t)
{
  if (!t)
    return;
  if (t->pm && t->pm->timing == t)
    t->pm->timing = NULL;
  free_rows(t);
  free(t);
}

static void add_row(nc_timing *t, const char *name, double wall, double user, int indent)
{
  if (t->n == t->cap) {
    t->cap = t->cap ? t->cap * 2 : 16;
    t->rows = nc_xrealloc(t->rows, t->cap * sizeof *t->rows);
  }
  size_t l = strlen(name);
  char *s = nc_xmalloc(l + 1);
  memcpy(s, name, l + 1);
  t->rows[t->n++] = (trow){s, wall, user, indent};
}

void nc_timing_add(nc_timing *t, const char *name, double wall, double user) { add_row(t, name, wall, user, 0); }

void nc_pass_manager_set_timing(nc_pass_manager *pm, nc_timing *t)
{
  pm->timing = t;
  t->pm = pm;
  t->pm_pos = t->n;
}

static void pm_rows(const nc_pass_manager *pm, nc_timing *t, int indent)
{
  for (size_t i = 0; i < pm->n; i++) {
    const pm_entry *e = &pm->entries[i];
    if (e->pass) {
      add_row(t, pass_name(e->pass), nc_clock_wall(&e->pass->clock) * 1e-9, nc_clock_user(&e->pass->clock) * 1e-9,
              indent);
      for (size_t k = 0; k < e->pass->def->n_timers; k++)
        add_row(t, e->pass->def->timers[k], nc_clock_wall(&e->pass->timers[k]) * 1e-9,
                nc_clock_user(&e->pass->timers[k]) * 1e-9, indent + 2);
    } else {
      char name[256];
      snprintf(name, sizeof name, "'%s' Pipeline", e->nested->anchor);
      add_row(t, name, nc_clock_wall(&e->nested->clock) * 1e-9, nc_clock_user(&e->nested->clock) * 1e-9, indent);
      pm_rows(e->nested, t, indent + 2);
    }
  }
}

static int cmp_rows(const void *a, const void *b)
{
  double x = ((const trow *)a)->wall, y = ((const trow *)b)->wall;
  return (x < y) - (x > y);
}

static void print_time(FILE *out, bool user_col, double user, double wall, double tu, double tw)
{
  if (user_col)
    fprintf(out, "  %8.4f (%5.1f%%)", user, 100.0 * user / tu);
  fprintf(out, "  %8.4f (%5.1f%%)  ", wall, 100.0 * wall / tw);
}

void nc_timing_print(const nc_timing *tc, bool tree, double total_wall, double total_user, FILE *out)
{
  (void)total_user;
  /* rows: phases before the pipeline, pass rows, phases after */
  nc_timing all = {0};
  for (size_t i = 0; i < tc->pm_pos && i < tc->n; i++)
    add_row(&all, tc->rows[i].name, tc->rows[i].wall, tc->rows[i].user, 0);
  if (tc->pm)
    pm_rows(tc->pm, &all, 0);
  for (size_t i = tc->pm_pos; i < tc->n; i++)
    add_row(&all, tc->rows[i].name, tc->rows[i].wall, tc->rows[i].user, 0);
  /* the total user time adds what other threads did inside top-level rows */
  double sum_wall = 0, sum_user = 0;
  for (size_t i = 0; i < all.n; i++)
    if (all.rows[i].indent == 0) {
      sum_wall += all.rows[i].wall;
      sum_user += all.rows[i].user;
    }
  double tw = total_wall, tu = total_wall + (sum_user - sum_wall);
  if (!tree) {
    /* list view: every row merged by name, sorted by wall time */
    nc_timing merged = {0};
    for (size_t i = 0; i < all.n; i++) {
      size_t j;
      for (j = 0; j < merged.n; j++)
        if (!strcmp(merged.rows[j].name, all.rows[i].name))
          break;
      if (j == merged.n)
        add_row(&merged, all.rows[i].name, 0, 0, 0);
      merged.rows[j].wall += all.rows[i].wall;
      merged.rows[j].user += all.rows[i].user;
    }
    if (merged.n)
      qsort(merged.rows, merged.n, sizeof *merged.rows, cmp_rows);
    free_rows(&all);
    all = merged;
  }
  bool user_col = tu != tw;
  double pw = tw > 0 ? tw : 1, pu = tu > 0 ? tu : 1;
  print_banner(out, "... Execution time report ...");
  fprintf(out, "  Total Execution Time: %.4f seconds\n\n", tw);
  fprintf(out, "%s  ----Wall Time----  ----Name----\n", user_col ? "  ----User Time----" : "");
  for (size_t i = 0; i < all.n; i++) {
    trow *r = &all.rows[i];
    print_time(out, user_col, r->user, r->wall, pu, pw);
    fprintf(out, "%*s%s\n", r->indent, "", r->name);
  }
  double rest_w = tw - sum_wall, rest_u = tu - sum_user;
  print_time(out, user_col, rest_u > 0 ? rest_u : 0, rest_w > 0 ? rest_w : 0, pu, pw);
  fprintf(out, "Rest\n");
  print_time(out, user_col, tu, tw, pu, pw);
  fprintf(out, "Total\n");
  fflush(out);
  free_rows(&all);
}
