/* core_api.c: the C API of the core dialect (core.h): building chips, tiles,
 * buffers and programs, and reading them back, for the passes, the targets'
 * printers and tests. Readers are defensive (a malformed op reads as
 * absent), since a target may look at IR the verifier has not seen.
 */
#include <stdlib.h>
#include <string.h>

#include "core_internal.h"
#include "nc/dialects/dataflow/dataflow.h"
#include "nc/ir/symbol.h"

/* --- attribute helpers ----------------------------------------------------------------------------------- */

int64_t core_int_attr(const nc_op *op, const char *name, int64_t dflt)
{
  nc_attr *a = nc_op_get_attr_str(op, name);
  return a && nc_attr_get_kind(a) == NC_ATTR_INTEGER ? nc_attr_get_int(a) : dflt;
}

const char *core_str_attr(const nc_op *op, const char *name)
{
  nc_attr *a = nc_op_get_attr_str(op, name);
  return a && nc_attr_get_kind(a) == NC_ATTR_STRING ? nc_attr_get_string(a, NULL) : "";
}

/* Element i of a dense i64 array (its type checked by the caller): read
 * in place, without nc_attr_dense_array_get_int's element-size dispatch
 * (the verifier and the core passes read every send's and recv's `to`,
 * `from` and `frames` several times per compile). */
static int64_t i64_at(const nc_attr *a, size_t i)
{
  int64_t v;
  memcpy(&v, (const char *)nc_attr_dense_array_get_data(a) + i * sizeof v, sizeof v);
  return v;
}

bool core_pair_of(const nc_attr *x, int64_t *a, int64_t *b)
{
  *a = *b = 0;
  if (!x || nc_attr_get_kind(x) != NC_ATTR_DENSE_ARRAY || nc_attr_get_num_elements(x) != 2 ||
      !nc_type_is_integer_of_width(nc_attr_get_type(x), 64))
    return false;
  *a = i64_at(x, 0);
  *b = i64_at(x, 1);
  return true;
}

bool core_pair_attr(const nc_op *op, const char *name, int64_t *a, int64_t *b)
{
  return core_pair_of(nc_op_get_attr_str(op, name), a, b);
}

bool core_endpoint_of(const nc_attr *a, int64_t *x, int64_t *y, int64_t *slot)
{
  *x = *y = *slot = 0;
  if (!a || nc_attr_get_kind(a) != NC_ATTR_DENSE_ARRAY || !nc_type_is_integer_of_width(nc_attr_get_type(a), 64) ||
      (nc_attr_get_num_elements(a) != 2 && nc_attr_get_num_elements(a) != 3))
    return false;
  *x = i64_at(a, 0);
  *y = i64_at(a, 1);
  if (nc_attr_get_num_elements(a) == 3)
    *slot = i64_at(a, 2);
  return true;
}

/* An endpoint `array<i64: x, y>` or `array<i64: x, y, slot>` (slot 0 when absent). */
bool core_endpoint_attr(const nc_op *op, const char *name, int64_t *x, int64_t *y, int64_t *slot)
{
  return core_endpoint_of(nc_op_get_attr_str(op, name), x, y, slot);
}

static nc_attr *i64(nc_context *ctx, int64_t v)
{
  return nc_attr_integer(ctx, nc_type_integer(ctx, 64, NC_SIGNLESS), v);
}

static nc_attr *pair(nc_context *ctx, int64_t a, int64_t b)
{
  return nc_attr_dense_i64_array(ctx, 2, (int64_t[]){a, b});
}

/* An endpoint: (x, y), or (x, y, slot) for a tile that shares its core. */
static nc_attr *endpoint(nc_context *ctx, int64_t x, int64_t y, int64_t slot)
{
  return slot ? nc_attr_dense_i64_array(ctx, 3, (int64_t[]){x, y, slot}) : pair(ctx, x, y);
}

static nc_named_attr named(nc_context *ctx, const char *name, nc_attr *v)
{
  return (nc_named_attr){nc_ident_get_cstr(ctx, name), v};
}

/* Creates a registered op with one empty-block region (if regions) and appends it to `b` (if not NULL). */
static nc_op *make(nc_context *ctx, const char *name, nc_location loc, size_t n, const nc_named_attr *attrs,
                   bool region, nc_block *b)
{
  nc_op *op = nc_op_create(&(nc_op_state){.ctx = ctx, .name = name, .loc = loc, .n_attrs = n, .attrs = attrs,
                                          .n_regions = region ? 1 : 0});
  if (!op)
    NC_UNREACHABLE("the core dialect is not registered");
  if (region)
    nc_region_add_entry_block(nc_op_get_region(op, 0));
  if (b)
    nc_block_append_op(b, op);
  return op;
}

static nc_block *body(const nc_op *op)
{
  return op && nc_op_get_num_regions(op) == 1 ? nc_region_get_first_block(nc_op_get_region(op, 0)) : NULL;
}

/* --- chips ----------------------------------------------------------------------------------------------- */

bool nc_core_is_chip(const nc_op *op) { return op && nc_op_is(op, "core.chip"); }
bool nc_core_is_tile(const nc_op *op) { return op && nc_op_is(op, "core.tile"); }
bool nc_core_is_buffer(const nc_op *op) { return op && nc_op_is(op, "core.buffer"); }
bool nc_core_is_program(const nc_op *op) { return op && nc_op_is(op, "core.program"); }

nc_op *nc_core_chip_create(nc_context *ctx, nc_location loc, const nc_chip_desc *desc, const char *function)
{
  nc_named_attr a[5] = {
    named(ctx, "target", nc_attr_string_cstr(ctx, desc->name)),
    named(ctx, "rows", i64(ctx, desc->rows)),
    named(ctx, "cols", i64(ctx, desc->cols)),
    named(ctx, "sram_bytes", i64(ctx, desc->sram_bytes)),
  };
  size_t n = 4;
  if (function)
    a[n++] = named(ctx, "function", nc_attr_symbol_ref(ctx, nc_ident_get_cstr(ctx, function), 0, NULL));
  return make(ctx, "core.chip", loc, n, a, true, NULL);
}

int64_t nc_core_chip_get_rows(const nc_op *chip) { return core_int_attr(chip, "rows", 0); }
int64_t nc_core_chip_get_cols(const nc_op *chip) { return core_int_attr(chip, "cols", 0); }
int64_t nc_core_chip_get_sram_bytes(const nc_op *chip) { return core_int_attr(chip, "sram_bytes", 0); }
const char *nc_core_chip_get_target(const nc_op *chip) { return core_str_attr(chip, "target"); }

const char *nc_core_chip_get_function_name(const nc_op *chip)
{
  nc_attr *f = nc_op_get_attr_str(chip, "function");
  if (!f || nc_attr_get_kind(f) != NC_ATTR_SYMBOL_REF || nc_attr_symbol_ref_get_num_nested(f))
    return NULL;
  return nc_ident_str(nc_attr_symbol_ref_get_root(f));
}

nc_op *nc_core_chip_lookup_function(nc_op *chip)
{
  nc_attr *f = nc_op_get_attr_str(chip, "function");
  if (!nc_core_chip_get_function_name(chip))
    return NULL;
  nc_symbol_table_collection *c = nc_symbol_table_collection_create();
  nc_op *fn = nc_symbol_lookup_nearest(c, chip, f);
  nc_symbol_table_collection_destroy(c);
  return fn;
}

nc_op *nc_core_find_node(nc_op *func, const char *name)
{
  for (nc_op *n = nc_dataflow_first_node(func); n; n = nc_dataflow_next_node(n))
    if (!strcmp(nc_dataflow_node_get_name(n), name))
      return n;
  return NULL;
}

nc_block *nc_core_chip_get_body(const nc_op *chip) { return body(chip); }

static nc_op *tile_from(nc_op *op)
{
  while (op && !nc_core_is_tile(op))
    op = nc_op_get_next(op);
  return op;
}

nc_op *nc_core_chip_first_tile(const nc_op *chip)
{
  nc_block *b = body(chip);
  return b ? tile_from(nc_block_get_first_op(b)) : NULL;
}

nc_op *nc_core_tile_next(const nc_op *tile) { return tile ? tile_from(nc_op_get_next(tile)) : NULL; }

size_t nc_core_chip_get_num_tiles(const nc_op *chip)
{
  size_t n = 0;
  for (nc_op *t = nc_core_chip_first_tile(chip); t; t = nc_core_tile_next(t))
    n++;
  return n;
}

nc_op *nc_core_chip_find_tile(const nc_op *chip, int64_t x, int64_t y)
{
  return nc_core_chip_find_tile_in_slot(chip, x, y, 0);
}

nc_op *nc_core_chip_find_tile_in_slot(const nc_op *chip, int64_t x, int64_t y, int64_t slot)
{
  if (x < 0 || y < 0)
    return NULL;
  for (nc_op *t = nc_core_chip_first_tile(chip); t; t = nc_core_tile_next(t))
    if (nc_core_tile_get_x(t) == x && nc_core_tile_get_y(t) == y && nc_core_tile_get_slot(t) == slot)
      return t;
  return NULL;
}

/* --- tiles ----------------------------------------------------------------------------------------------- */

nc_op *nc_core_tile_create(nc_op *chip, nc_location loc, const char *node, int64_t x, int64_t y, int64_t lo,
                           int64_t hi)
{
  nc_context *ctx = nc_op_get_context(chip);
  nc_named_attr a[4] = {
    named(ctx, "x", i64(ctx, x)),
    named(ctx, "y", i64(ctx, y)),
    named(ctx, "node", nc_attr_string_cstr(ctx, node)),
  };
  size_t n = 3;
  if (lo < hi)
    a[n++] = named(ctx, "out_channels", pair(ctx, lo, hi));
  nc_op *tile = make(ctx, "core.tile", loc, n, a, true, body(chip));
  make(ctx, "core.program", loc, 0, NULL, true, body(tile));
  return tile;
}

int64_t nc_core_tile_get_x(const nc_op *tile) { return core_int_attr(tile, "x", -1); }
int64_t nc_core_tile_get_y(const nc_op *tile) { return core_int_attr(tile, "y", -1); }

void nc_core_tile_set_position(nc_op *tile, int64_t x, int64_t y)
{
  nc_context *ctx = nc_op_get_context(tile);
  nc_op_set_attr_str(tile, "x", i64(ctx, x));
  nc_op_set_attr_str(tile, "y", i64(ctx, y));
}

int64_t nc_core_tile_get_slot(const nc_op *tile) { return core_int_attr(tile, "slot", 0); }

void nc_core_tile_set_slot(nc_op *tile, int64_t slot)
{
  if (slot)
    nc_op_set_attr_str(tile, "slot", i64(nc_op_get_context(tile), slot));
  else
    nc_op_remove_attr(tile, nc_ident_get_cstr(nc_op_get_context(tile), "slot"));
}

const char *nc_core_tile_get_node(const nc_op *tile) { return core_str_attr(tile, "node"); }

bool nc_core_tile_get_out_channels(const nc_op *tile, int64_t *lo, int64_t *hi)
{
  return core_pair_attr(tile, "out_channels", lo, hi);
}

void nc_core_tile_set_out_channels(nc_op *tile, int64_t lo, int64_t hi)
{
  nc_op_set_attr_str(tile, "out_channels", pair(nc_op_get_context(tile), lo, hi));
}

bool nc_core_tile_get_out_rows(const nc_op *tile, int64_t *lo, int64_t *hi)
{
  return core_pair_attr(tile, "out_rows", lo, hi);
}

void nc_core_tile_set_out_rows(nc_op *tile, int64_t lo, int64_t hi)
{
  nc_op_set_attr_str(tile, "out_rows", pair(nc_op_get_context(tile), lo, hi));
}

bool nc_core_tile_get_in_channels(const nc_op *tile, int64_t *lo, int64_t *hi)
{
  return core_pair_attr(tile, "in_channels", lo, hi);
}

void nc_core_tile_set_in_channels(nc_op *tile, int64_t lo, int64_t hi)
{
  nc_op_set_attr_str(tile, "in_channels", pair(nc_op_get_context(tile), lo, hi));
}

bool nc_core_tile_is_reducer(const nc_op *tile)
{
  int64_t lo, hi;
  return !nc_core_tile_get_in_channels(tile, &lo, &hi) || lo == 0;
}

bool nc_core_tile_get_replica(const nc_op *tile, int64_t *r, int64_t *n)
{
  if (core_pair_attr(tile, "replica", r, n))
    return true;
  *r = 0, *n = 1;
  return false;
}

void nc_core_tile_set_replica(nc_op *tile, int64_t r, int64_t n)
{
  nc_op_set_attr_str(tile, "replica", pair(nc_op_get_context(tile), r, n));
}

static int64_t gcd64(int64_t a, int64_t b)
{
  while (b) {
    int64_t t = a % b;
    a = b, b = t;
  }
  return a;
}

bool nc_core_frames_meet(int64_t a, int64_t an, int64_t b, int64_t bn)
{
  if (an < 1 || bn < 1)
    return false;
  int64_t g = gcd64(an, bn);
  return ((a % g) + g) % g == ((b % g) + g) % g; /* the Chinese remainder theorem */
}

bool nc_core_frames_imply(int64_t a, int64_t an, int64_t b, int64_t bn)
{
  return an >= 1 && bn >= 1 && an % bn == 0 && a % bn == b;
}

nc_op *nc_core_tile_get_program(const nc_op *tile)
{
  nc_block *b = body(tile);
  nc_op *last = b ? nc_block_get_last_op(b) : NULL;
  return nc_core_is_program(last) ? last : NULL;
}

nc_op *nc_core_tile_first_buffer(const nc_op *tile)
{
  nc_block *b = body(tile);
  nc_op *first = b ? nc_block_get_first_op(b) : NULL;
  return nc_core_is_buffer(first) ? first : NULL;
}

nc_op *nc_core_buffer_next(const nc_op *buffer)
{
  nc_op *next = buffer ? nc_op_get_next(buffer) : NULL;
  return nc_core_is_buffer(next) ? next : NULL;
}

size_t nc_core_tile_get_num_buffers(const nc_op *tile)
{
  size_t n = 0;
  for (nc_op *b = nc_core_tile_first_buffer(tile); b; b = nc_core_buffer_next(b))
    n++;
  return n;
}

nc_op *nc_core_tile_find_buffer(const nc_op *tile, const char *name)
{
  for (nc_op *b = nc_core_tile_first_buffer(tile); b; b = nc_core_buffer_next(b))
    if (!strcmp(nc_core_buffer_get_name(b), name))
      return b;
  return NULL;
}

void nc_core_tile_clear_buffers(nc_op *tile)
{
  for (nc_op *b = nc_core_tile_first_buffer(tile), *next; b; b = next) {
    next = nc_core_buffer_next(b);
    nc_op_erase(b);
  }
}

/* --- buffers --------------------------------------------------------------------------------------------- */

static const char *const kind_names[] = {"weights", "bias", "input", "output", "scratch"};

const char *nc_core_buffer_kind_name(nc_core_buffer_kind kind)
{
  return (unsigned)kind < NC_COUNTOF(kind_names) ? kind_names[kind] : "?";
}

bool nc_core_buffer_kind_from_name(const char *name, nc_core_buffer_kind *kind)
{
  for (size_t i = 0; i < NC_COUNTOF(kind_names); i++)
    if (!strcmp(name, kind_names[i])) {
      *kind = (nc_core_buffer_kind)i;
      return true;
    }
  return false;
}

nc_op *nc_core_tile_add_buffer(nc_op *tile, const char *name, nc_core_buffer_kind kind, int64_t bytes,
                               int64_t offset)
{
  nc_context *ctx = nc_op_get_context(tile);
  nc_named_attr a[4] = {
    named(ctx, "name", nc_attr_string_cstr(ctx, name)),
    named(ctx, "kind", nc_attr_string_cstr(ctx, nc_core_buffer_kind_name(kind))),
    named(ctx, "bytes", i64(ctx, bytes)),
    named(ctx, "offset", i64(ctx, offset)),
  };
  nc_op *buf = make(ctx, "core.buffer", nc_op_get_loc(tile), 4, a, false, NULL);
  nc_op *program = nc_core_tile_get_program(tile);
  if (program)
    nc_op_insert_before(buf, program);
  else
    nc_block_append_op(body(tile), buf);
  return buf;
}

const char *nc_core_buffer_get_name(const nc_op *b) { return core_str_attr(b, "name"); }

nc_core_buffer_kind nc_core_buffer_get_kind(const nc_op *b)
{
  nc_core_buffer_kind k = NC_CORE_BUFFER_SCRATCH;
  nc_core_buffer_kind_from_name(core_str_attr(b, "kind"), &k);
  return k;
}

int64_t nc_core_buffer_get_bytes(const nc_op *b) { return core_int_attr(b, "bytes", 0); }
int64_t nc_core_buffer_get_offset(const nc_op *b) { return core_int_attr(b, "offset", -1); }

void nc_core_buffer_set_offset(nc_op *b, int64_t offset)
{
  nc_op_set_attr_str(b, "offset", i64(nc_op_get_context(b), offset));
}

void nc_core_buffer_set_bytes(nc_op *b, int64_t bytes)
{
  nc_op_set_attr_str(b, "bytes", i64(nc_op_get_context(b), bytes));
}

int nc_core_buffer_get_operand(const nc_op *b)
{
  const char *name = nc_core_buffer_get_name(b);
  if (nc_core_buffer_get_kind(b) != NC_CORE_BUFFER_INPUT || strncmp(name, "in", 2) || !name[2])
    return -1;
  int k = 0;
  for (const char *p = name + 2; *p; p++) {
    if (*p < '0' || *p > '9' || k > 100000)
      return -1;
    k = k * 10 + (*p - '0');
  }
  return k;
}

/* --- programs -------------------------------------------------------------------------------------------- */

nc_block *nc_core_program_get_body(const nc_op *program) { return body(program); }

size_t nc_core_program_get_size(const nc_op *program)
{
  size_t n = 0;
  nc_block *b = body(program);
  for (nc_op *op = b ? nc_block_get_first_op(b) : NULL; op; op = nc_op_get_next(op))
    n++;
  return n;
}

/* A program op's attributes, found in one scan of its two dictionaries:
 * the verifier and most core passes decode every instruction of every
 * program, several times per compile (VGG-19 at 4 bits: ~1 s in string
 * lookups, one per attribute and dictionary). As nc_op_get_attr_str, an
 * inherent attribute (props) hides a discardable one of the same name. */
typedef core_instr_attrs instr_attrs;

static void scan_instr_attrs(const nc_attr *d, instr_attrs *f)
{
  size_t n = d && nc_attr_get_kind(d) == NC_ATTR_DICTIONARY ? nc_attr_get_num_elements(d) : 0;
  for (size_t i = 0; i < n; i++) {
    nc_named_attr e = nc_attr_get_entry(d, i);
    const char *s = nc_ident_str(e.name);
    nc_attr **slot = NULL;
    switch (nc_ident_len(e.name)) {
    case 2: slot = !memcmp(s, "to", 2) ? &f->to : NULL; break;
    case 3: slot = !memcmp(s, "end", 3) ? &f->end : NULL; break;
    case 4: slot = !memcmp(s, "iter", 4) ? &f->iter : !memcmp(s, "from", 4) ? &f->from : NULL; break;
    case 5: slot = !memcmp(s, "bytes", 5) ? &f->bytes : !memcmp(s, "begin", 5) ? &f->begin : NULL; break;
    case 6: slot = !memcmp(s, "frames", 6) ? &f->frames : !memcmp(s, "cycles", 6) ? &f->cycles : NULL; break;
    case 7: slot = !memcmp(s, "operand", 7) ? &f->operand : !memcmp(s, "network", 7) ? &f->network : NULL; break;
    case 9: slot = !memcmp(s, "multicast", 9) ? &f->multicast : NULL; break;
    case 14: slot = !memcmp(s, "channel_offset", 14) ? &f->channel_offset : NULL; break;
    default: break;
    }
    if (slot && !*slot)
      *slot = e.value;
  }
}

void core_instr_attrs_scan(const nc_op *op, core_instr_attrs *f)
{
  memset(f, 0, sizeof *f);
  scan_instr_attrs(nc_op_get_props(op), f);
  scan_instr_attrs(nc_op_get_attr_dict(op), f);
}

/* core_int_attr, core_pair_attr and core_endpoint_attr on a found attribute */
static int64_t int_of(const nc_attr *a, int64_t dflt)
{
  return a && nc_attr_get_kind(a) == NC_ATTR_INTEGER ? nc_attr_get_int(a) : dflt;
}

static void pair_of(const nc_attr *x, int64_t *a, int64_t *b)
{
  core_pair_of(x, a, b);
}


bool core_instr_kind_of(const nc_op *op, nc_core_instr_kind *kind)
{
  const nc_ident *id = nc_op_get_name(op);
  const char *name = nc_ident_str(id);
  size_t len = nc_ident_len(id);
  if (len == 9 && !memcmp(name, "core.recv", 9))
    *kind = NC_CORE_RECV;
  else if (len == 12 && !memcmp(name, "core.compute", 12))
    *kind = NC_CORE_COMPUTE;
  else if (len == 9 && !memcmp(name, "core.send", 9))
    *kind = NC_CORE_SEND;
  else if (len == 9 && !memcmp(name, "core.wait", 9))
    *kind = NC_CORE_WAIT;
  else
    return false;
  return true;
}

bool nc_core_instr_get(const nc_op *op, nc_core_instr *in)
{
  memset(in, 0, sizeof *in);
  nc_core_instr_kind kind;
  if (!core_instr_kind_of(op, &kind))
    return false;
  instr_attrs f = {0};
  scan_instr_attrs(nc_op_get_props(op), &f);
  scan_instr_attrs(nc_op_get_attr_dict(op), &f);
  in->kind = kind;
  switch (kind) {
  case NC_CORE_RECV:
    in->operand = int_of(f.operand, -1);
    in->iter = int_of(f.iter, -1);
    in->network = int_of(f.network, 0);
    pair_of(f.frames, &in->frame, &in->frames);
    in->channel_offset = int_of(f.channel_offset, 0);
    return core_endpoint_of(f.from, &in->x, &in->y, &in->slot) && in->operand >= 0 && in->iter >= 0 &&
           in->channel_offset >= 0 && (in->network == NC_CORE_NET_ACTIVATION || in->network == NC_CORE_NET_PARTIAL_SUM);
  case NC_CORE_COMPUTE:
    in->begin = int_of(f.begin, -1);
    in->end = int_of(f.end, -1);
    return in->begin >= 0 && in->end > in->begin;
  case NC_CORE_SEND:
    in->iter = int_of(f.iter, -1);
    in->bytes = int_of(f.bytes, 0);
    in->multicast = f.multicast != NULL;
    in->network = int_of(f.network, 0);
    pair_of(f.frames, &in->frame, &in->frames);
    return core_endpoint_of(f.to, &in->x, &in->y, &in->slot) && in->iter >= 0 && in->bytes > 0 &&
           (in->network == NC_CORE_NET_ACTIVATION || in->network == NC_CORE_NET_PARTIAL_SUM);
  default:
    in->cycles = int_of(f.cycles, -1);
    return in->cycles >= 0;
  }
}

nc_op *nc_core_program_append(nc_op *program, nc_location loc, const nc_core_instr *in)
{
  nc_context *ctx = nc_op_get_context(program);
  nc_named_attr a[7];
  size_t n = 0;
  const char *name = "core.wait";
  switch (in->kind) {
  case NC_CORE_RECV:
    name = "core.recv";
    a[n++] = named(ctx, "from", endpoint(ctx, in->x, in->y, in->slot));
    a[n++] = named(ctx, "operand", i64(ctx, in->operand));
    a[n++] = named(ctx, "iter", i64(ctx, in->iter));
    if (in->network)
      a[n++] = named(ctx, "network", i64(ctx, in->network));
    if (in->frames)
      a[n++] = named(ctx, "frames", pair(ctx, in->frame, in->frames));
    if (in->channel_offset)
      a[n++] = named(ctx, "channel_offset", i64(ctx, in->channel_offset));
    break;
  case NC_CORE_COMPUTE:
    name = "core.compute";
    a[n++] = named(ctx, "begin", i64(ctx, in->begin));
    a[n++] = named(ctx, "end", i64(ctx, in->end));
    break;
  case NC_CORE_SEND:
    name = "core.send";
    a[n++] = named(ctx, "to", endpoint(ctx, in->x, in->y, in->slot));
    a[n++] = named(ctx, "iter", i64(ctx, in->iter));
    a[n++] = named(ctx, "bytes", i64(ctx, in->bytes));
    if (in->multicast)
      a[n++] = named(ctx, "multicast", nc_attr_unit(ctx));
    if (in->network)
      a[n++] = named(ctx, "network", i64(ctx, in->network));
    if (in->frames)
      a[n++] = named(ctx, "frames", pair(ctx, in->frame, in->frames));
    break;
  case NC_CORE_WAIT:
    a[n++] = named(ctx, "cycles", i64(ctx, in->cycles));
    break;
  }
  return make(ctx, name, loc, n, a, false, body(program));
}

void nc_core_program_clear(nc_op *program)
{
  nc_block *b = body(program);
  for (nc_op *op = b ? nc_block_get_first_op(b) : NULL, *next; op; op = next) {
    next = nc_op_get_next(op);
    nc_op_erase(op);
  }
}
