/* targets.c: the registry of targets and the tool-facing API
 * (nc/targets/targets.h): built-in targets from the generated table,
 * plugins through nc_target_register; each target's named pipeline
 * `<name>-pipeline` (its own options plus target-desc and stop-after),
 * chip descriptions by built-in name or file, option values checked
 * against the target's declarations, and printing binaries.
 *
 * Nothing here knows any particular target: a target is data.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nc/ir/diag.h"
#include "nc/targets/targets.h"

extern const nc_target_def *const nc_all_targets[];

/* A registered target and what registration built for it. */
typedef struct entry {
  const nc_target_def *def;
  char pipeline_name[80];
  nc_pipeline_def pipeline;
  nc_pass_option_def *options; /* the target's, then the common ones */
  const char **levels;         /* NULL-terminated copy of def->levels */
} entry;

#define MAX_TARGETS 64
static entry targets[MAX_TARGETS];
static size_t n_targets;

static const entry *entry_of(const nc_target_def *t)
{
  for (size_t i = 0; i < n_targets; i++)
    if (targets[i].def == t)
      return &targets[i];
  return NULL;
}

/* --- the named pipeline ------------------------------------------------------------------------------------------ */

/* `v` quoted for a pipeline's option text (values hold paths). */
static bool append_option(FILE *f, const char *name, const char *v, bool quote)
{
  if (strchr(v, '"') || strchr(v, '}') || strchr(v, '{'))
    return false;
  fprintf(f, quote ? " %s=\"%s\"" : " %s=%s", name, v);
  return true;
}

static bool build_pipeline(nc_pass_manager *pm, nc_pass *options, void *userData)
{
  const entry *e = userData;
  const nc_target_def *t = e->def;
  char *text;
  size_t len;
  FILE *f = open_memstream(&text, &len);
  fprintf(f, "target=%s", t->name);
  bool ok = append_option(f, "desc", nc_pass_get_option_string(options, "target-desc"), true);
  fclose(f);
  if (!ok) {
    free(text);
    nc_emit_error(nc_pass_manager_get_context(pm), nc_location_unknown(),
                  "%s: target-desc must not contain quotes or braces", e->pipeline_name);
    return false;
  }
  ok = nc_pass_manager_add_pass(pm, "target-attach", text);
  free(text);
  /* the target's passes; they check the layers where they reach dataflow (nc_target_add_dataflow_passes), and
   * printing checks them again */
  return ok && t->build_pipeline(pm, options, nc_pass_get_option_string(options, "stop-after"), t->userData);
}

bool nc_target_add_dataflow_passes(nc_pass_manager *pm, const char *granularity)
{
  return nc_target_add_dataflow_passes_with(pm, granularity, NULL);
}

bool nc_target_add_dataflow_passes_with(nc_pass_manager *pm, const char *granularity, const char *between)
{
  nc_context *ctx = nc_pass_manager_get_context(pm);
  nc_pass *lower = nc_pass_create_named(ctx, "graph-to-dataflow"), *deps = nc_pass_create_named(ctx, "dataflow-deps");
  nc_pass *mid = between ? nc_pass_create_named(ctx, between) : NULL;
  if (!lower || !deps || (between && !mid) ||
      (granularity && (!nc_pass_set_option(lower, "granularity", granularity) ||
                       !nc_pass_set_option(deps, "input-granularity", granularity)))) {
    nc_pass_destroy(lower);
    nc_pass_destroy(deps);
    nc_pass_destroy(mid);
    return false;
  }
  nc_pass_manager *fn = nc_pass_manager_nest(pm, "func.func");
  if (!nc_pass_manager_add_owned_pass(fn, lower)) { /* a failed add destroys its pass, not the others */
    nc_pass_destroy(mid);
    nc_pass_destroy(deps);
    return false;
  }
  if (mid && !nc_pass_manager_add_owned_pass(fn, mid)) {
    nc_pass_destroy(deps);
    return false;
  }
  return nc_pass_manager_add_owned_pass(fn, deps) && nc_pass_manager_add_pass(pm, "target-check-layers", NULL);
}

bool nc_target_register(const nc_target_def *t)
{
  for (size_t i = 0; i < n_targets; i++)
    if (!strcmp(targets[i].def->name, t->name)) {
      if (targets[i].def == t)
        return true;
      fprintf(stderr, "nc: error: a second target named '%s'\n", t->name);
      return false;
    }
  if (n_targets == MAX_TARGETS || !t->n_levels || !t->n_descs || !t->build_pipeline || !t->parse_desc) {
    fprintf(stderr, "nc: error: cannot register target '%s' (%s)\n", t->name,
            n_targets == MAX_TARGETS ? "too many targets" : "it lacks levels, descriptions, a pipeline or a reader");
    return false;
  }
  entry *e = &targets[n_targets];
  e->def = t;
  snprintf(e->pipeline_name, sizeof e->pipeline_name, "%s-pipeline", t->name);
  e->levels = nc_xcalloc(t->n_levels + 1, sizeof *e->levels);
  for (size_t i = 0; i < t->n_levels; i++)
    e->levels[i] = t->levels[i];
  e->options = nc_xcalloc(t->n_options + 2, sizeof *e->options);
  memcpy(e->options, t->options, t->n_options * sizeof *e->options);
  e->options[t->n_options] = (nc_pass_option_def){
    "target-desc", NC_PASS_OPT_STRING, "", "Chip description: a built-in one's name or a JSON file (empty: the default)"};
  e->options[t->n_options + 1] = (nc_pass_option_def){"stop-after", NC_PASS_OPT_ENUM, t->levels[t->n_levels - 1],
                                                      "Stop after this IR level", e->levels};
  e->pipeline = (nc_pipeline_def){
    .argument = e->pipeline_name,
    .summary = t->summary,
    .options = e->options,
    .n_options = t->n_options + 2,
    .build = build_pipeline,
    .userData = e,
  };
  for (size_t i = 0; i < t->n_passes; i++)
    nc_pass_register(t->passes[i]);
  nc_pipeline_register(&e->pipeline);
  if (t->sim && !nc_runtime_register_sim(t->sim)) {
    fprintf(stderr, "nc: error: the simulator of target '%s' clashes with another\n", t->name);
    return false;
  }
  n_targets++;
  return true;
}

extern const nc_pass_def nc_pass_target_attach;
extern const nc_pass_def nc_pass_target_check_layers;

void nc_register_all_targets(void)
{
  nc_pass_register(&nc_pass_target_attach);
  nc_pass_register(&nc_pass_target_check_layers);
  for (const nc_target_def *const *t = nc_all_targets; *t; t++)
    nc_target_register(*t);
}

void nc_target_register_dialects(nc_context *ctx)
{
  for (size_t i = 0; i < n_targets; i++)
    for (size_t k = 0; k < targets[i].def->n_dialects; k++)
      nc_context_register_dialect(ctx, targets[i].def->dialects[k]);
}

/* --- lookup ---------------------------------------------------------------------------------------------------------- */

size_t nc_target_count(void) { return n_targets; }

static int by_name(const void *a, const void *b)
{
  return strcmp((*(const nc_target_def *const *)a)->name, (*(const nc_target_def *const *)b)->name);
}

const nc_target_def *nc_target_get(size_t i)
{
  if (i >= n_targets)
    return NULL;
  const nc_target_def *sorted[MAX_TARGETS];
  for (size_t k = 0; k < n_targets; k++)
    sorted[k] = targets[k].def;
  qsort(sorted, n_targets, sizeof *sorted, by_name);
  return sorted[i];
}

const nc_target_def *nc_target_lookup(const char *name)
{
  for (size_t i = 0; i < n_targets; i++)
    if (!strcmp(targets[i].def->name, name))
      return targets[i].def;
  return NULL;
}

const char *nc_target_get_pipeline_name(const nc_target_def *t)
{
  const entry *e = entry_of(t);
  return e ? e->pipeline_name : "";
}

const nc_pass_option_def *nc_target_find_option(const nc_target_def *t, const char *name)
{
  const entry *e = entry_of(t);
  for (size_t i = 0; e && i < t->n_options + 2; i++)
    if (!strcmp(e->options[i].name, name))
      return &e->options[i];
  return NULL;
}

const nc_target_emit_def *nc_target_find_emit(const nc_target_def *t, const char *name)
{
  for (size_t i = 0; i < t->n_emits; i++)
    if (!strcmp(t->emits[i].name, name))
      return &t->emits[i];
  return NULL;
}

void nc_target_print_help(const nc_target_def *t, FILE *out)
{
  const entry *e = entry_of(t);
  fprintf(out, "TARGET %s (%s family): %s\n\nOPTIONS (nc-compile --<option>=<value>, or %s{<option>=<value>}):\n",
          t->name, t->family ? t->family : "no", t->summary, e ? e->pipeline_name : "");
  for (size_t i = 0; e && i < t->n_options + 2; i++) {
    const nc_pass_option_def *o = &e->options[i];
    fprintf(out, "  --%-22s %s", o->name, o->summary);
    if (o->enum_values) {
      fputs(" (", out);
      for (const char *const *v = o->enum_values; *v; v++)
        fprintf(out, "%s%s", v == o->enum_values ? "" : "|", *v);
      fputc(')', out);
    }
    if (o->default_value && *o->default_value)
      fprintf(out, " [default: %s]", o->default_value);
    fputc('\n', out);
  }
  fputs("\nBUILT-IN DESCRIPTIONS (--target-desc=<name>; the first is the default):\n", out);
  for (size_t i = 0; i < t->n_descs; i++)
    fprintf(out, "  %-24s %s\n", t->descs[i].name, t->descs[i].summary);
  fputs("\nLEVELS (--emit=<level>):\n ", out);
  for (size_t i = 0; i < t->n_levels; i++)
    fprintf(out, " %s", t->levels[i]);
  fputs(" binary host-stub", out);
  for (size_t i = 0; i < t->n_emits; i++)
    fprintf(out, " %s", t->emits[i].name);
  fputc('\n', out);
  for (size_t i = 0; i < t->n_emits; i++)
    fprintf(out, "  %-24s %s\n", t->emits[i].name, t->emits[i].summary);
}

/* --- descriptions ------------------------------------------------------------------------------------------------------ */

nc_attr *nc_target_load_desc(const nc_target_def *t, nc_context *ctx, const char *desc)
{
  const nc_target_desc_def *builtin = NULL;
  if (!desc || !*desc)
    builtin = &t->descs[0];
  for (size_t i = 0; !builtin && i < t->n_descs; i++)
    if (!strcmp(t->descs[i].name, desc))
      builtin = &t->descs[i];
  if (builtin) {
    char file[96];
    snprintf(file, sizeof file, "<built-in %s>", builtin->name);
    size_t len = strlen(builtin->json);
    nc_context_add_source(ctx, file, builtin->json, len);
    return t->parse_desc(ctx, builtin->json, len, file, t->userData);
  }
  unsigned id;
  char msg[512];
  if (!strcmp(desc, "-") || !nc_context_load_file(ctx, desc, &id, msg, sizeof msg)) {
    nc_diag *d = nc_diag_create(ctx, NC_SEV_ERROR, nc_location_unknown(),
                                "chip description '%s' is neither a built-in description of target '%s' nor a "
                                "readable file%s%s", desc, t->name, strcmp(desc, "-") ? ": " : "",
                                strcmp(desc, "-") ? msg : "");
    for (size_t i = 0; i < t->n_descs; i++)
      nc_diag_attach_note(d, nc_location_unknown(), "built-in description: %s", t->descs[i].name);
    nc_diag_emit(d);
    return NULL;
  }
  size_t len;
  const char *text = nc_context_get_source(ctx, id, &len);
  return t->parse_desc(ctx, text, len, desc, t->userData);
}

void nc_target_attach(nc_op *module, const nc_target_def *t, nc_attr *desc)
{
  nc_context *ctx = nc_op_get_context(module);
  nc_op_set_attr_str(module, "nc.target", nc_attr_string(ctx, t->name, strlen(t->name)));
  nc_op_set_attr_str(module, "nc.chip", desc);
}

const nc_target_def *nc_target_of_module(nc_op *module, bool emit)
{
  nc_attr *a = nc_op_get_attr_str(module, "nc.target");
  size_t len = 0;
  const char *name = a && nc_attr_get_kind(a) == NC_ATTR_STRING ? nc_attr_get_string(a, &len) : NULL;
  char buf[128];
  snprintf(buf, sizeof buf, "%.*s", (int)(len < sizeof buf ? len : sizeof buf - 1), name ? name : "");
  const nc_target_def *t = name ? nc_target_lookup(buf) : NULL;
  if (!t && emit) {
    nc_diag *d = name ? nc_op_diag_error(module, "is for target '%s', which nc does not know", buf)
                      : nc_op_diag_error(module, "names no target (nc.target): compile it with a target's pipeline");
    for (size_t i = 0; name && i < nc_target_count(); i++)
      nc_diag_attach_note(d, nc_op_get_loc(module), "known target: %s", nc_target_get(i)->name);
    nc_diag_emit(d);
  }
  return t;
}

nc_attr *nc_target_get_desc(nc_op *module) { return nc_op_get_attr_str(module, "nc.chip"); }

/* --- option values and pipelines --------------------------------------------------------------------------------------- */

struct nc_target_options {
  const nc_target_def *t;
  size_t n;
  struct { const nc_pass_option_def *def; char *value; } *v;
};

nc_target_options *nc_target_options_create(const nc_target_def *t)
{
  nc_target_options *o = nc_xcalloc(1, sizeof *o);
  o->t = t;
  return o;
}

void nc_target_options_destroy(nc_target_options *o)
{
  if (!o)
    return;
  for (size_t i = 0; i < o->n; i++)
    free(o->v[i].value);
  free(o->v);
  free(o);
}

bool nc_target_options_set(nc_target_options *o, const char *name, const char *value, char *err, size_t errlen)
{
  const nc_pass_option_def *d = nc_target_find_option(o->t, name);
  if (!d) {
    snprintf(err, errlen, "target '%s' has no option '%s' (see --target=%s --help)", o->t->name, name, o->t->name);
    return false;
  }
  char *end;
  bool ok = true;
  switch (d->kind) {
  case NC_PASS_OPT_INT: strtoll(value, &end, 10), ok = *value && !*end; break;
  case NC_PASS_OPT_BOOL: ok = !strcmp(value, "true") || !strcmp(value, "false"); break;
  case NC_PASS_OPT_ENUM:
    ok = false;
    for (const char *const *v = d->enum_values; *v && !ok; v++)
      ok = !strcmp(*v, value);
    break;
  default: break;
  }
  ok = ok && !strchr(value, '"') && !strchr(value, '{') && !strchr(value, '}');
  if (!ok) {
    snprintf(err, errlen, "invalid value '%s' for option '%s' of target '%s'%s", value, name, o->t->name,
             d->kind == NC_PASS_OPT_INT ? " (expected an integer)" : d->kind == NC_PASS_OPT_BOOL ? " (expected true or false)"
             : d->kind == NC_PASS_OPT_ENUM ? " (see --help for its values)" : " (no quotes or braces)");
    return false;
  }
  for (size_t i = 0; i < o->n; i++)
    if (o->v[i].def == d) {
      free(o->v[i].value);
      o->v[i].value = strdup(value);
      return true;
    }
  o->v = nc_xrealloc(o->v, (o->n + 1) * sizeof *o->v);
  o->v[o->n].def = d;
  o->v[o->n++].value = strdup(value);
  return true;
}

nc_pass_manager *nc_target_create_pipeline(nc_context *ctx, const nc_target_options *o, const char *stop_after)
{
  char *text;
  size_t len;
  FILE *f = open_memstream(&text, &len);
  for (size_t i = 0; i < o->n; i++)
    if (strcmp(o->v[i].def->name, "stop-after"))
      append_option(f, o->v[i].def->name, o->v[i].value, /* checked by nc_target_options_set */
                    o->v[i].def->kind == NC_PASS_OPT_STRING || o->v[i].def->kind == NC_PASS_OPT_STRING_LIST);
  if (stop_after)
    append_option(f, "stop-after", stop_after, false);
  fclose(f);
  nc_pass_manager *pm = nc_pass_manager_create(ctx, "builtin.module");
  if (!nc_pass_manager_add_pass(pm, nc_target_get_pipeline_name(o->t), text + (len && text[0] == ' '))) {
    nc_pass_manager_destroy(pm);
    pm = NULL;
  }
  free(text);
  return pm;
}

/* --- printing --------------------------------------------------------------------------------------------------------- */

uint8_t *nc_target_print_binary(nc_op *module, size_t *size)
{
  const nc_target_def *t = nc_target_of_module(module, true);
  if (!t || !nc_target_check_layers(module, t))
    return NULL;
  nc_ncb_writer *w = nc_ncb_writer_create(t->name);
  if (!t->print_binary(module, w, t->userData)) {
    nc_ncb_writer_destroy(w);
    return NULL;
  }
  return nc_ncb_writer_finish(w, size);
}

bool nc_target_print_binary_to(nc_op *module, bool (*write)(const void *data, size_t n, void *userData),
                               void *userData)
{
  const nc_target_def *t = nc_target_of_module(module, true);
  if (!t || !nc_target_check_layers(module, t))
    return false;
  nc_ncb_writer *w = nc_ncb_writer_create(t->name);
  if (!t->print_binary(module, w, t->userData)) {
    nc_ncb_writer_destroy(w);
    return false;
  }
  return nc_ncb_writer_finish_to(w, write, userData);
}
