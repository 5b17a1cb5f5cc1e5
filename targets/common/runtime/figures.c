/* figures.c: named figures (nc/runtime/nc_sim.h), the way every simulator
 * reports what a run did, and their JSON form (nc-run --stats-json).
 *
 * Figures are an ordered list of key/value pairs plus nested per-core
 * lists, so each target reports what its chip has (crossbar utilisation,
 * spikes, exchange bytes) without a shared struct to grow. Runtime code:
 * libc only.
 */
#include <math.h>
#include <string.h>

#include "nc/runtime/nc_sim.h"
#include "rt_util.h"

struct nc_figures {
  nc_figure *items;
  size_t n, cap;
  nc_figures **cores;
  size_t n_cores, cap_cores;
  nc_figures **links;
  size_t n_links, cap_links;
};

nc_figures *nc_figures_create(void) { return nc_rt_calloc(1, sizeof(nc_figures)); }

static char *dup_str(const char *s)
{
  size_t n = strlen(s) + 1;
  return memcpy(nc_rt_malloc(n), s, n);
}

void nc_figures_reset(nc_figures *f)
{
  for (size_t i = 0; i < f->n; i++) {
    free((char *)f->items[i].key);
    free((char *)f->items[i].text);
    free((int64_t *)f->items[i].ints);
  }
  f->n = 0;
  for (size_t i = 0; i < f->n_cores; i++)
    nc_figures_destroy(f->cores[i]);
  f->n_cores = 0;
  for (size_t i = 0; i < f->n_links; i++)
    nc_figures_destroy(f->links[i]);
  f->n_links = 0;
}

void nc_figures_destroy(nc_figures *f)
{
  if (!f)
    return;
  nc_figures_reset(f);
  free(f->items);
  free(f->cores);
  free(f->links);
  free(f);
}

/* The figure named key, added (empty) when absent; its old text and list freed. */
static nc_figure *slot(nc_figures *f, const char *key)
{
  for (size_t i = 0; i < f->n; i++)
    if (!strcmp(f->items[i].key, key)) {
      free((char *)f->items[i].text);
      free((int64_t *)f->items[i].ints);
      f->items[i].text = NULL;
      f->items[i].ints = NULL;
      return &f->items[i];
    }
  if (f->n == f->cap) {
    f->cap = f->cap ? 2 * f->cap : 16;
    f->items = nc_rt_realloc(f->items, f->cap * sizeof *f->items);
  }
  nc_figure *it = &f->items[f->n++];
  *it = (nc_figure){.key = dup_str(key)};
  return it;
}

void nc_figures_set_int(nc_figures *f, const char *key, int64_t value)
{
  nc_figure *it = slot(f, key);
  it->kind = NC_FIGURE_INT;
  it->i = value;
}

void nc_figures_set_real(nc_figures *f, const char *key, double value)
{
  nc_figure *it = slot(f, key);
  it->kind = NC_FIGURE_REAL;
  it->r = value;
}

void nc_figures_set_text(nc_figures *f, const char *key, const char *value)
{
  nc_figure *it = slot(f, key);
  it->kind = NC_FIGURE_TEXT;
  it->text = dup_str(value ? value : "");
}

nc_figures *nc_figures_add_core(nc_figures *f)
{
  if (f->n_cores == f->cap_cores) {
    f->cap_cores = f->cap_cores ? 2 * f->cap_cores : 16;
    f->cores = nc_rt_realloc(f->cores, f->cap_cores * sizeof *f->cores);
  }
  return f->cores[f->n_cores++] = nc_figures_create();
}

nc_figures *nc_figures_add_link(nc_figures *f)
{
  if (f->n_links == f->cap_links) {
    f->cap_links = f->cap_links ? 2 * f->cap_links : 16;
    f->links = nc_rt_realloc(f->links, f->cap_links * sizeof *f->links);
  }
  return f->links[f->n_links++] = nc_figures_create();
}

void nc_figures_set_pair(nc_figures *f, const char *key, int64_t first, int64_t second)
{
  nc_figure *it = slot(f, key);
  it->kind = NC_FIGURE_PAIR;
  it->i = first;
  it->j = second;
}

void nc_figures_set_ints(nc_figures *f, const char *key, const int64_t *values, size_t n)
{
  nc_figure *it = slot(f, key);
  it->kind = NC_FIGURE_INTS;
  it->i = (int64_t)n;
  it->ints = n ? memcpy(nc_rt_malloc(n * sizeof *values), values, n * sizeof *values) : NULL;
}

size_t nc_figures_num_links(const nc_figures *f) { return f ? f->n_links : 0; }
const nc_figures *nc_figures_get_link(const nc_figures *f, size_t i) { return f && i < f->n_links ? f->links[i] : NULL; }

size_t nc_figures_count(const nc_figures *f) { return f ? f->n : 0; }
const nc_figure *nc_figures_get(const nc_figures *f, size_t i) { return f && i < f->n ? &f->items[i] : NULL; }
size_t nc_figures_num_cores(const nc_figures *f) { return f ? f->n_cores : 0; }
const nc_figures *nc_figures_get_core(const nc_figures *f, size_t i) { return f && i < f->n_cores ? f->cores[i] : NULL; }

const nc_figure *nc_figures_find(const nc_figures *f, const char *key)
{
  for (size_t i = 0; f && i < f->n; i++)
    if (!strcmp(f->items[i].key, key))
      return &f->items[i];
  return NULL;
}

static void json_string(const char *s, FILE *out)
{
  fputc('"', out);
  for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
    if (*p == '"' || *p == '\\')
      fprintf(out, "\\%c", *p);
    else if (*p < 0x20)
      fprintf(out, "\\u%04x", *p);
    else
      fputc(*p, out);
  }
  fputc('"', out);
}

static void write_object(const nc_figures *f, FILE *out, int indent)
{
  fputs("{", out);
  for (size_t i = 0; i < f->n; i++) {
    const nc_figure *it = &f->items[i];
    fprintf(out, "%s\n%*s", i ? "," : "", indent + 2, "");
    json_string(it->key, out);
    fputs(": ", out);
    if (it->kind == NC_FIGURE_INT)
      fprintf(out, "%lld", (long long)it->i);
    else if (it->kind == NC_FIGURE_PAIR)
      fprintf(out, "[%lld, %lld]", (long long)it->i, (long long)it->j);
    else if (it->kind == NC_FIGURE_INTS) {
      fputc('[', out);
      for (int64_t k = 0; k < it->i; k++)
        fprintf(out, "%s%lld", k ? ", " : "", (long long)it->ints[k]);
      fputc(']', out);
    }
    else if (it->kind == NC_FIGURE_REAL && isfinite(it->r))
      fprintf(out, "%.17g", it->r);
    else if (it->kind == NC_FIGURE_REAL)
      fputs("null", out);
    else
      json_string(it->text, out);
  }
  if (f->n_cores || indent == 0) {
    fprintf(out, "%s\n%*s\"cores\": [", f->n ? "," : "", indent + 2, "");
    for (size_t i = 0; i < f->n_cores; i++) {
      fprintf(out, "%s\n%*s", i ? "," : "", indent + 4, "");
      write_object(f->cores[i], out, indent + 4);
    }
    fprintf(out, "%s]", f->n_cores ? "\n  " : "");
  }
  if (f->n_links) {
    fprintf(out, ",\n%*s\"links\": [", indent + 2, "");
    for (size_t i = 0; i < f->n_links; i++) {
      fprintf(out, "%s\n%*s", i ? "," : "", indent + 4, "");
      write_object(f->links[i], out, indent + 4);
    }
    fputs("\n  ]", out);
  }
  fprintf(out, "\n%*s}", indent, "");
}

bool nc_figures_write_json(const nc_figures *f, FILE *out)
{
  write_object(f, out, 0);
  fputc('\n', out);
  return !ferror(out);
}
