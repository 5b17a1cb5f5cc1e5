/* desc.c: reads the xbar target's chip descriptions (JSON, with jansson)
 * and converts them to and from the IR's attribute.
 *
 * jansson keeps no positions for values, so for a value that breaks the
 * schema a small scanner walks the (already valid) text along the key path
 * to the value: every error points at file:line:col and says what is
 * wrong and by how much ("crossbar.rows must be at most 4096, not 5000:
 * 904 too many").
 */
#include "desc.h"

#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nc/ir/diag.h"
#include "nc/ir/dialect_attrs.h"
#include "nc/ir/types.h"

/* --- positions ------------------------------------------------------------------------------------------ */

typedef struct jtext {
  const char *s;
  size_t n;
} jtext;

static size_t skip_ws(jtext t, size_t i)
{
  while (i < t.n && strchr(" \t\r\n", t.s[i]) && t.s[i])
    i++;
  return i;
}

static size_t skip_string(jtext t, size_t i)
{
  for (i++; i < t.n && t.s[i] != '"'; i++)
    if (t.s[i] == '\\')
      i++;
  return i < t.n ? i + 1 : t.n;
}

static size_t skip_value(jtext t, size_t i)
{
  if (i >= t.n)
    return t.n;
  if (t.s[i] == '"')
    return skip_string(t, i);
  if (t.s[i] == '{' || t.s[i] == '[') {
    int depth = 0;
    while (i < t.n) {
      if (t.s[i] == '"') {
        i = skip_string(t, i);
        continue;
      }
      if (t.s[i] == '{' || t.s[i] == '[')
        depth++;
      else if ((t.s[i] == '}' || t.s[i] == ']') && --depth == 0)
        return i + 1;
      i++;
    }
    return t.n;
  }
  while (i < t.n && !strchr(",}] \t\r\n", t.s[i]))
    i++;
  return i;
}

static size_t find_member(jtext t, size_t i, const char *key)
{
  size_t klen = strlen(key);
  i = skip_ws(t, i + 1);
  while (i < t.n && t.s[i] == '"') {
    size_t end = skip_string(t, i);
    bool match = end - i == klen + 2 && !memcmp(t.s + i + 1, key, klen);
    i = skip_ws(t, end);
    if (i >= t.n || t.s[i] != ':')
      break;
    i = skip_ws(t, i + 1);
    if (match)
      return i;
    i = skip_ws(t, skip_value(t, i));
    if (i < t.n && t.s[i] == ',')
      i = skip_ws(t, i + 1);
  }
  return (size_t)-1;
}

/* The offset of the value at `path` ("crossbar.rows"), or of the deepest object on the path that exists. */
static size_t path_offset(jtext t, const char *path)
{
  size_t at = skip_ws(t, 0);
  char key[64];
  while (*path) {
    size_t n = strcspn(path, ".");
    if (n >= sizeof key || at >= t.n || t.s[at] != '{')
      break;
    memcpy(key, path, n);
    key[n] = 0;
    size_t v = find_member(t, at, key);
    if (v == (size_t)-1)
      break;
    at = v;
    path += n + (path[n] == '.');
  }
  return at;
}

static void set_position(jtext t, size_t offset, xbar_desc_error *err)
{
  err->offset = offset < t.n ? offset : t.n;
  err->line = 1;
  err->column = 1;
  for (size_t i = 0; i < err->offset; i++) {
    if (t.s[i] == '\n') {
      err->line++;
      err->column = 1;
    } else {
      err->column++;
    }
  }
}

/* --- schema -------------------------------------------------------------------------------------------- */

typedef struct reader {
  jtext text;
  xbar_desc_error *err;
} reader;

static bool fail(reader *r, const char *path, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static bool fail(reader *r, const char *path, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(r->err->message, sizeof r->err->message, fmt, ap);
  va_end(ap);
  set_position(r->text, path_offset(r->text, path), r->err);
  return false;
}

static const char *type_name(const json_t *v)
{
  switch (json_typeof(v)) {
  case JSON_OBJECT: return "an object";
  case JSON_ARRAY: return "an array";
  case JSON_STRING: return "a string";
  case JSON_INTEGER: return "an integer";
  case JSON_REAL: return "a number";
  case JSON_TRUE:
  case JSON_FALSE: return "a boolean";
  default: return "null";
  }
}

/* One integer field: its path, bounds and where it goes. */
typedef struct field {
  const char *path;
  int64_t min, max;
  size_t offset;
  const char *why; /* what the bound protects, for the message */
} field;

#define F(p, lo, hi, m, why) {p, lo, hi, offsetof(xbar_desc, m), why}
static const field fields[] = {
  F("mesh.rows", 1, 256, mesh_rows, "cores per column"),
  F("mesh.cols", 1, 256, mesh_cols, "cores per row"),
  F("crossbar.rows", 1, 4096, xbar_rows, "cells per column"),
  F("crossbar.cols", 1, 4096, xbar_cols, "cells per row"),
  F("crossbar.weight_bits", 8, 16, weight_bits, "a cell holds a whole int8 weight"),
  F("crossbar.input_bits", 8, 8, input_bits, "the datapath streams int8 inputs"),
  F("crossbar.dac_bits", 1, 8, dac_bits, "bits per input slice"),
  F("crossbar.adc_bits", 2, 48, adc_bits, "column read-out bits"),
  F("crossbar.mvm_latency_cycles", 1, 1 << 20, mvm_latency_cycles, "cycles per input slice"),
  F("digital.vector_ops_per_cycle", 1, 1 << 20, vector_ops_per_cycle, "digital unit rate"),
  F("core.sram_bytes", 1, (int64_t)1 << 40, sram_bytes, "activation SRAM"),
  F("noc.hop_latency_cycles", 0, 1 << 16, hop_latency_cycles, "cycles per hop"),
  F("noc.link_bytes_per_cycle", 1, 1 << 16, link_bytes_per_cycle, "link width"),
  F("clock_hz", 1, (int64_t)1 << 40, clock_hz, "clock"),
};
#undef F

static const char *const sections[] = {"mesh", "crossbar", "digital", "core", "noc"};

static json_t *lookup(reader *r, json_t *root, const char *path, bool *ok)
{
  const char *dot = strchr(path, '.');
  if (!dot)
    return json_object_get(root, path);
  char sec[32];
  snprintf(sec, sizeof sec, "%.*s", (int)(dot - path), path);
  json_t *o = json_object_get(root, sec);
  if (!o || !json_is_object(o)) {
    *ok = o ? fail(r, sec, "\"%s\" must be an object, not %s", sec, type_name(o))
            : fail(r, "", "missing \"%s\" (an object with \"%s\")", sec, dot + 1);
    return NULL;
  }
  return json_object_get(o, dot + 1);
}

static bool known_key(const char *sec, const char *key)
{
  char full[96];
  snprintf(full, sizeof full, "%s%s%s", sec ? sec : "", sec ? "." : "", key);
  for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++)
    if (!strcmp(fields[i].path, full))
      return true;
  if (!sec && !strcmp(key, "name"))
    return true;
  for (size_t i = 0; !sec && i < sizeof sections / sizeof sections[0]; i++)
    if (!strcmp(sections[i], key))
      return true;
  return false;
}

static bool read_desc(reader *r, json_t *root, xbar_desc *d)
{
  memset(d, 0, sizeof *d);
  if (!json_is_object(root))
    return fail(r, "", "a chip description must be a JSON object, not %s", type_name(root));
  /* unknown keys are mistakes (a typo would otherwise silently keep a default) */
  const char *key;
  json_t *v;
  json_object_foreach(root, key, v) {
    if (!known_key(NULL, key))
      return fail(r, key, "unknown key \"%s\" in an xbar chip description", key);
    if (strcmp(key, "name") && json_is_object(v)) {
      const char *k2;
      json_t *v2;
      json_object_foreach(v, k2, v2) if (!known_key(key, k2))
      {
        char p[96];
        snprintf(p, sizeof p, "%s.%s", key, k2);
        return fail(r, p, "unknown key \"%s\" in \"%s\"", k2, key);
      }
    }
  }
  json_t *name = json_object_get(root, "name");
  if (!name || !json_is_string(name) || !json_string_length(name) || json_string_length(name) >= sizeof d->name)
    return fail(r, name ? "name" : "", "\"name\" must be a non-empty string of at most %zu bytes", sizeof d->name - 1);
  snprintf(d->name, sizeof d->name, "%s", json_string_value(name));
  for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) {
    const field *f = &fields[i];
    bool ok = true;
    json_t *x = lookup(r, root, f->path, &ok);
    if (!ok)
      return false;
    if (!x)
      return fail(r, f->path, "missing \"%s\" (%s)", f->path, f->why);
    if (!json_is_integer(x))
      return fail(r, f->path, "\"%s\" must be an integer, not %s", f->path, type_name(x));
    json_int_t n = json_integer_value(x);
    if (n < f->min)
      return fail(r, f->path, "\"%s\" must be at least %lld (%s), not %lld: %lld too small", f->path,
                  (long long)f->min, f->why, (long long)n, (long long)(f->min - n));
    if (n > f->max)
      return fail(r, f->path, "\"%s\" must be at most %lld (%s), not %lld: %lld too large", f->path,
                  (long long)f->max, f->why, (long long)n, (long long)(n - f->max));
    *(int64_t *)((char *)d + f->offset) = n;
  }
  if (d->dac_bits > d->input_bits)
    return fail(r, "crossbar.dac_bits", "\"crossbar.dac_bits\" (%lld) must not exceed \"crossbar.input_bits\" (%lld): "
                "%lld too many", (long long)d->dac_bits, (long long)d->input_bits,
                (long long)(d->dac_bits - d->input_bits));
  return true;
}

bool xbar_desc_parse(const char *text, size_t len, xbar_desc *d, xbar_desc_error *err)
{
  reader r = {{text, len}, err};
  memset(err, 0, sizeof *err);
  json_error_t je;
  json_t *root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &je);
  if (!root) {
    snprintf(err->message, sizeof err->message, "invalid JSON: %s", je.text);
    if (je.line > 0) {
      size_t off = 0;
      for (int l = 1; l < je.line && off < len; off++)
        if (text[off] == '\n')
          l++;
      off += je.column > 0 ? (size_t)je.column - 1 : 0;
      set_position(r.text, off, err);
    }
    return false;
  }
  bool ok = read_desc(&r, root, d);
  json_decref(root);
  return ok;
}

/* --- the IR's form: #xbar.desc<name = "cmnnc", mesh_rows = 8, ...> ------------------------------------------ */

/* The attribute's storage: the description with an interned name (compared by pointer). */
typedef struct desc_storage {
  nc_ident *name;
  int64_t v[sizeof fields / sizeof fields[0]];
} desc_storage;

#define P(i, key) {key, NC_PARAM_I64, offsetof(desc_storage, v) + (i) * sizeof(int64_t), false, NULL}
static const nc_dialect_param params[] = {
  {"name", NC_PARAM_STRING, offsetof(desc_storage, name), false, "the description's name"},
  P(0, "mesh_rows"), P(1, "mesh_cols"), P(2, "crossbar_rows"), P(3, "crossbar_cols"), P(4, "crossbar_weight_bits"),
  P(5, "crossbar_input_bits"), P(6, "crossbar_dac_bits"), P(7, "crossbar_adc_bits"),
  P(8, "crossbar_mvm_latency_cycles"), P(9, "digital_vector_ops_per_cycle"), P(10, "core_sram_bytes"),
  P(11, "noc_hop_latency_cycles"), P(12, "noc_link_bytes_per_cycle"), P(13, "clock_hz"),
};
#undef P

static bool verify_storage(nc_context *ctx, nc_location loc, const void *storage, void *userData)
{
  (void)userData;
  const desc_storage *st = storage;
  if (!st->name || !*nc_ident_str(st->name)) {
    nc_emit_error(ctx, loc, "#xbar.desc: name must not be empty");
    return false;
  }
  for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++)
    if (st->v[i] < fields[i].min || st->v[i] > fields[i].max) {
      nc_emit_error(ctx, loc, "#xbar.desc: %s must be in [%lld, %lld] (%s), not %lld", params[i + 1].name,
                    (long long)fields[i].min, (long long)fields[i].max, fields[i].why, (long long)st->v[i]);
      return false;
    }
  return true;
}

const nc_dialect_attr_def xbar_desc_attr_def = {
  .mnemonic = "desc",
  .summary = "An xbar chip description",
  .description = "The chip the module is compiled for (the module's `nc.chip`, set by target-attach from a JSON "
                 "description, docs/targets/xbar.md): mesh, crossbar geometry and precision, MVM latency, digital "
                 "unit rate, SRAM, NoC and clock, each bounded as the JSON reader bounds it.",
  .storage_size = sizeof(desc_storage),
  .params = params, .n_params = sizeof params / sizeof params[0],
  .verify = verify_storage,
};

nc_attr *xbar_desc_to_attr(nc_context *ctx, const xbar_desc *d)
{
  desc_storage st;
  memset(&st, 0, sizeof st);
  st.name = nc_ident_get_cstr(ctx, d->name);
  for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++)
    st.v[i] = *(const int64_t *)((const char *)d + fields[i].offset);
  return nc_attr_dialect(ctx, &xbar_desc_attr_def, &st);
}

bool xbar_desc_from_attr(const nc_attr *a, xbar_desc *d)
{
  memset(d, 0, sizeof *d);
  if (!nc_attr_isa(a, &xbar_desc_attr_def))
    return false;
  const desc_storage *st = nc_attr_dialect_get_storage(a);
  snprintf(d->name, sizeof d->name, "%s", st->name ? nc_ident_str(st->name) : "");
  for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) {
    if (st->v[i] < fields[i].min || st->v[i] > fields[i].max)
      return false;
    *(int64_t *)((char *)d + fields[i].offset) = st->v[i];
  }
  return true;
}

nc_attr *xbar_desc_parse_attr(nc_context *ctx, const char *text, size_t len, const char *file)
{
  xbar_desc d;
  xbar_desc_error err;
  if (xbar_desc_parse(text, len, &d, &err))
    return xbar_desc_to_attr(ctx, &d);
  unsigned id;
  if (!nc_context_find_source(ctx, file, strlen(file), &id)) {
    char *copy = malloc(len + 1);
    if (!copy)
      abort();
    memcpy(copy, text, len);
    copy[len] = 0;
    id = nc_context_add_source(ctx, file, copy, len, true);
  }
  nc_emit_error(ctx, nc_location_from_source(id, err.line ? err.offset : 0), "chip description: %s", err.message);
  return NULL;
}
