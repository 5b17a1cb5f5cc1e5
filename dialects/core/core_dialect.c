/* core_dialect.c: the op table of the `core` dialect (work placed on the
 * cores of a 2-D grid; docs/design/spine.md section 3) and the checks each
 * op can make on its own. The checks that need the whole chip (positions,
 * SRAM, who sends to whom) are in core_verify.c. `nc-opt
 * --dump-dialect-docs=core` turns this table into docs/dialects/core.md.
 */
#include <string.h>

#include "core_internal.h"
#include "nc/dialects/dataflow/dataflow.h"

/* --- attribute constraints ------------------------------------------------------------------------------- */

static bool a_kind(const nc_attr *a)
{
  nc_core_buffer_kind k;
  return nc_attr_get_kind(a) == NC_ATTR_STRING && nc_core_buffer_kind_from_name(nc_attr_get_string(a, NULL), &k);
}

static bool a_pair(const nc_attr *a)
{
  return nc_ac_i64_array.pred(a) && nc_attr_get_num_elements(a) == 2;
}

static bool a_endpoint(const nc_attr *a)
{
  return nc_ac_i64_array.pred(a) && (nc_attr_get_num_elements(a) == 2 || nc_attr_get_num_elements(a) == 3);
}

static const nc_attr_constraint ac_kind = {
  "string attribute: \"weights\", \"bias\", \"input\", \"output\" or \"scratch\"", a_kind, NC_ATTR_SYNTAX_FULL};
static const nc_attr_constraint ac_pair = {"i64 dense array attribute of 2 elements", a_pair, NC_ATTR_SYNTAX_FULL};
static const nc_attr_constraint ac_endpoint = {"i64 dense array attribute of 2 or 3 elements", a_endpoint,
                                               NC_ATTR_SYNTAX_FULL};

/* --- per-op checks ----------------------------------------------------------------------------------------- */

static bool positive(nc_op *op, const char *name)
{
  int64_t v = core_int_attr(op, name, 0);
  return v >= 1 || nc_op_emit_error(op, "%s must be positive, not %lld", name, (long long)v);
}

/* An attribute already found (NULL: absent) as an i64, or dflt. */
static int64_t int_or(const nc_attr *a, int64_t dflt)
{
  return a && nc_attr_get_kind(a) == NC_ATTR_INTEGER ? nc_attr_get_int(a) : dflt;
}

/* non_negative on attribute a (NULL: absent, 0), named `name` in the message. */
static bool non_negative_of(nc_op *op, const char *name, const nc_attr *a)
{
  int64_t v = int_or(a, 0);
  return v >= 0 || nc_op_emit_error(op, "%s must be non-negative, not %lld", name, (long long)v);
}

static bool non_negative(nc_op *op, const char *name)
{
  return non_negative_of(op, name, nc_op_get_attr_str(op, name));
}

static bool verify_chip(nc_op *op)
{
  if (!positive(op, "rows") || !positive(op, "cols") || !positive(op, "sram_bytes"))
    return false;
  if (!*core_str_attr(op, "target"))
    return nc_op_emit_error(op, "target must not be empty");
  return true;
}

/* A position (x, y): both -1 (the host, or not placed) or both non-negative. */
static bool check_position(nc_op *op, const char *what, int64_t x, int64_t y)
{
  if ((x == -1 && y == -1) || (x >= 0 && y >= 0))
    return true;
  return nc_op_emit_error(op, "%s (%lld, %lld) must be a grid position or (-1, -1)", what, (long long)x,
                          (long long)y);
}

/* A slot of a tile sharing its core: 0 <= slot < NC_CORE_MAX_SLOTS. */
static bool check_slot(nc_op *op, const char *what, int64_t slot)
{
  if (slot >= 0 && slot < NC_CORE_MAX_SLOTS)
    return true;
  return nc_op_emit_error(op, "%s slot %lld must be between 0 and %d", what, (long long)slot, NC_CORE_MAX_SLOTS - 1);
}

/* `replica` on a tile, `frames` on a recv or send: array<i64: r, n> with
 * 0 <= r < n and 2 <= n <= NC_CORE_MAX_REPLICAS (frame f when f mod n == r). */
static bool check_frames_of(nc_op *op, const char *name, const nc_attr *a)
{
  int64_t r, n;
  if (!a || !core_pair_of(a, &r, &n))
    return true;
  if (n < 2 || n > NC_CORE_MAX_REPLICAS || r < 0 || r >= n)
    return nc_op_emit_error(op, "%s [%lld, %lld) must be a frame residue r and a count n with 0 <= r < n and 2 <= n "
                            "<= %d", name, (long long)r, (long long)n, NC_CORE_MAX_REPLICAS);
  return true;
}

static bool check_frames(nc_op *op, const char *name)
{
  return check_frames_of(op, name, nc_op_get_attr_str(op, name));
}

static bool verify_tile(nc_op *op)
{
  if (!check_frames(op, "replica"))
    return false;
  if (!check_position(op, "position", core_int_attr(op, "x", 0), core_int_attr(op, "y", 0)) ||
      !check_slot(op, "the tile's", core_int_attr(op, "slot", 0)))
    return false;
  if (!*core_str_attr(op, "node"))
    return nc_op_emit_error(op, "node must name a dataflow.node");
  int64_t lo, hi;
  if (nc_op_get_attr_str(op, "out_channels") && core_pair_attr(op, "out_channels", &lo, &hi) &&
      !(0 <= lo && lo < hi))
    return nc_op_emit_error(op, "out_channels [%lld, %lld) must be a non-empty range of non-negative channels",
                            (long long)lo, (long long)hi);
  if (nc_op_get_attr_str(op, "out_rows") && core_pair_attr(op, "out_rows", &lo, &hi) && !(0 <= lo && lo < hi))
    return nc_op_emit_error(op, "out_rows [%lld, %lld) must be a non-empty range of non-negative rows",
                            (long long)lo, (long long)hi);
  if (nc_op_get_attr_str(op, "in_channels") && core_pair_attr(op, "in_channels", &lo, &hi) && !(0 <= lo && lo < hi))
    return nc_op_emit_error(op, "in_channels [%lld, %lld) must be a non-empty range of non-negative channels",
                            (long long)lo, (long long)hi);
  return true;
}

static bool verify_tile_regions(nc_op *op)
{
  nc_block *b = nc_region_get_first_block(nc_op_get_region(op, 0));
  nc_op *last = b ? nc_block_get_last_op(b) : NULL;
  if (!last || !nc_core_is_program(last))
    return nc_op_emit_error(op, "body must end with a core.program");
  for (nc_op *x = nc_block_get_first_op(b); x != last; x = nc_op_get_next(x)) {
    if (!nc_core_is_buffer(x)) {
      nc_diag *d = nc_op_diag_error(op, "body must hold core.buffer ops and then one core.program, not '%s'",
                                    nc_ident_str(nc_op_get_name(x)));
      nc_diag_attach_note(d, nc_op_get_loc(x), "see here");
      nc_diag_emit(d);
      return false;
    }
    for (nc_op *y = nc_block_get_first_op(b); y != x; y = nc_op_get_next(y))
      if (!strcmp(nc_core_buffer_get_name(x), nc_core_buffer_get_name(y))) {
        nc_diag *d = nc_op_diag_error(x, "redefines buffer '%s' of its tile", nc_core_buffer_get_name(x));
        nc_diag_attach_note(d, nc_op_get_loc(y), "first defined here");
        nc_diag_emit(d);
        return false;
      }
  }
  return true;
}

static bool verify_buffer(nc_op *op)
{
  if (!*core_str_attr(op, "name"))
    return nc_op_emit_error(op, "name must not be empty");
  if (!positive(op, "bytes"))
    return false;
  int64_t off = core_int_attr(op, "offset", -1);
  if (off < -1)
    return nc_op_emit_error(op, "offset must be -1 (not planned) or non-negative, not %lld", (long long)off);
  return true;
}

/* The ops are verified by now (regions first), so a recv, compute, send or
 * wait decodes as its name says (their op checks imply nc_core_instr_get's
 * conditions): only the kinds and the computes' ranges are read here. */
static bool verify_program_regions(nc_op *op)
{
  nc_block *b = nc_region_get_first_block(nc_op_get_region(op, 0));
  int64_t end = 0;
  for (nc_op *x = b ? nc_block_get_first_op(b) : NULL; x; x = nc_op_get_next(x)) {
    nc_core_instr in = {0};
    if (!core_instr_kind_of(x, &in.kind))
      return nc_op_emit_error(x, "is not a program op: a core.program holds only core.recv, core.compute, "
                                 "core.send and core.wait");
    if (in.kind == NC_CORE_COMPUTE) {
      in.begin = core_int_attr(x, "begin", 0);
      in.end = core_int_attr(x, "end", 0);
      if (in.begin < end)
        return nc_op_emit_error(x, "computes iterations [%lld, %lld) but the program already computed up to %lld: "
                                   "iterations run once, in order",
                                (long long)in.begin, (long long)in.end, (long long)end);
      end = in.end;
    }
  }
  return true;
}

/* A recv's `from` or send's `to` (attribute a, named `name`). */
static bool verify_endpoint(nc_op *op, const char *name, const nc_attr *a)
{
  int64_t x, y, slot;
  core_endpoint_of(a, &x, &y, &slot);
  if (!check_position(op, name, x, y) || !check_slot(op, name, slot))
    return false;
  if (x == NC_CORE_HOST && slot)
    return nc_op_emit_error(op, "%s names the host (-1, -1), which has no slot (%lld)", name, (long long)slot);
  return true;
}

static bool verify_network(nc_op *op, const nc_attr *a)
{
  int64_t net = int_or(a, 0);
  if (net != 0 && net != 1)
    return nc_op_emit_error(op, "network %lld must be 0 (activations) or 1 (partial sums)", (long long)net);
  return true;
}

/* recvs and sends are most of a core IR's ops: their attributes are found
 * in one scan each (core_instr_attrs_scan), not looked up by name per check */
static bool verify_recv(nc_op *op)
{
  core_instr_attrs f;
  core_instr_attrs_scan(op, &f);
  if (int_or(f.network, 0) == 1 && int_or(f.operand, 0) != 0)
    return nc_op_emit_error(op, "receives partial sums (network 1), which are for no operand: operand must be 0");
  if (int_or(f.network, 0) == 1 && f.channel_offset)
    return nc_op_emit_error(op, "receives partial sums (network 1), which have no channel_offset");
  return verify_endpoint(op, "from", f.from) && non_negative_of(op, "operand", f.operand) &&
         non_negative_of(op, "iter", f.iter) && verify_network(op, f.network) &&
         check_frames_of(op, "frames", f.frames) && non_negative_of(op, "channel_offset", f.channel_offset);
}

static bool verify_compute(nc_op *op)
{
  int64_t b = core_int_attr(op, "begin", 0), e = core_int_attr(op, "end", 0);
  if (b < 0 || e <= b)
    return nc_op_emit_error(op, "iterations [%lld, %lld) must be a non-empty range from 0 up", (long long)b,
                            (long long)e);
  return true;
}

static bool verify_send(nc_op *op)
{
  core_instr_attrs f, g = {0};
  core_instr_attrs_scan(op, &f);
  int64_t bytes = int_or(f.bytes, 0);
  if (!verify_endpoint(op, "to", f.to) || !non_negative_of(op, "iter", f.iter) ||
      (bytes < 1 && !nc_op_emit_error(op, "bytes must be positive, not %lld", (long long)bytes)) ||
      !verify_network(op, f.network) || !check_frames_of(op, "frames", f.frames))
    return false;
  if (!f.multicast)
    return true;
  /* a multicast group: consecutive sends of one iteration, size and network, to tiles */
  nc_op *next = nc_op_get_next(op);
  int64_t x, y;
  if (core_pair_of(f.to, &x, &y) && x == NC_CORE_HOST)
    return nc_op_emit_error(op, "is a multicast to the host; only tiles receive multicasts");
  if (next && nc_op_is(next, "core.send"))
    core_instr_attrs_scan(next, &g);
  if (!next || !nc_op_is(next, "core.send") || int_or(g.iter, -1) != int_or(f.iter, -1) ||
      int_or(g.bytes, -1) != int_or(f.bytes, -1) || int_or(g.network, 0) != int_or(f.network, 0) ||
      (core_pair_of(g.to, &x, &y) && x == NC_CORE_HOST))
    return nc_op_emit_error(op, "is `multicast`, so the next op must be a core.send of the same iteration, bytes "
                            "and network to a tile");
  return true; /* members may run on different frames (copies): a frame's multicast goes to those that run */
}

static bool verify_wait(nc_op *op) { return non_negative(op, "cycles"); }

static bool verify_chip_regions(nc_op *op)
{
  nc_block *b = nc_region_get_first_block(nc_op_get_region(op, 0));
  for (nc_op *x = b ? nc_block_get_first_op(b) : NULL; x; x = nc_op_get_next(x))
    if (!nc_core_is_tile(x))
      return nc_op_emit_error(x, "cannot be in a core.chip, which holds only core.tile ops");
  return core_verify_chip_regions(op);
}

static bool verify_chip_symbols(nc_op *op, nc_symbol_table_collection *tables)
{
  return core_verify_chip_symbols(op, tables);
}

/* --- tables ---------------------------------------------------------------------------------------------- */

#define N(a) (a), NC_COUNTOF(a)

static const nc_attr_def chip_attrs[] = {
  {"target", &nc_ac_string, false, NULL, "the chip description's name (e.g. \"northpole\")"},
  {"rows", &nc_ac_i64, false, NULL, "grid rows (y ranges over 0 .. rows-1)"},
  {"cols", &nc_ac_i64, false, NULL, "grid columns (x ranges over 0 .. cols-1)"},
  {"sram_bytes", &nc_ac_i64, false, NULL, "SRAM per core, in bytes"},
  {"function", &nc_ac_flat_symbol_ref, true, NULL,
   "the function whose dataflow.nodes the tiles compute (`@name`); when present, tiles are checked against it"},
  {"host_multicast", &nc_ac_unit, true, NULL,
   "the host sends each input step once to all the tiles that receive it (one message over the union of their "
   "routes) instead of once per tile (core-multicast)"},
};
static const nc_region_def chip_regions[] = {{"body", false, true, "the tiles"}};

static const nc_attr_def tile_attrs[] = {
  {"x", &nc_ac_i64, false, NULL, "grid column, -1 before core-place"},
  {"y", &nc_ac_i64, false, NULL, "grid row, -1 before core-place"},
  {"slot", &nc_ac_i64, true, NULL,
   "which of the tiles sharing the core (x, y) this is (0 when absent): the core runs its tiles' programs "
   "interleaved within a frame, whichever can go on first, the tile listed first on a tie (core-colocate); their buffers "
   "share its SRAM"},
  {"node", &nc_ac_string, false, NULL, "the name of the dataflow.node the tile computes"},
  {"out_channels", &ac_pair, true, NULL,
   "`array<i64: lo, hi>`: the output channels [lo, hi) this tile computes when the node is split over tiles (a "
   "matmul's [M, N] result: features n)"},
  {"out_rows", &ac_pair, true, NULL,
   "`array<i64: lo, hi>`: the output rows [lo, hi) (second coordinate of `Out[c, y, x]`, first of a matmul's "
   "`Out[m, n]`) this tile computes when the node is split into row bands"},
  {"in_channels", &ac_pair, true, NULL,
   "`array<i64: lo, hi>`: the input channels [lo, hi) of operand 0 (a conv's channels, a matmul's K) this tile "
   "sums over; its int32 partial sums go to the group's reducer, the tile of the same output channels and rows "
   "whose slice starts at 0"},
  {"replica", &ac_pair, true, NULL,
   "`array<i64: r, n>`: the tile is copy r of n of its node's tiles and handles only frames f with f mod n == r "
   "(replication for alternate frames, core-replicate); each copy holds the same weights and program"},
};
static const nc_region_def tile_regions[] = {{"body", false, true, "core.buffer ops, then one core.program"}};
static const char *const tile_parents[] = {"core.chip", NULL};

static const nc_attr_def buffer_attrs[] = {
  {"name", &nc_ac_string, false, NULL, "unique in the tile: \"weights\", \"bias\", \"in0\", \"out\", \"acc\", ..."},
  {"kind", &ac_kind, false, NULL, "what it holds"},
  {"bytes", &nc_ac_i64, false, NULL, "its size"},
  {"offset", &nc_ac_i64, false, NULL, "its address in the core's SRAM; -1 before core-plan-memory"},
};
static const char *const buffer_parents[] = {"core.tile", NULL};

static const nc_region_def program_regions[] = {{"body", false, true, "the instructions, in execution order"}};
static const char *const program_parents[] = {"core.tile", NULL};
static const char *const instr_parents[] = {"core.program", NULL};

static const nc_attr_def recv_attrs[] = {
  {"from", &ac_endpoint, false, NULL,
   "`array<i64: x, y>` or `array<i64: x, y, slot>`: the sending tile (slot 0 when absent), (-1, -1) for the host"},
  {"operand", &nc_ac_i64, false, NULL, "the node operand (input buffer `in<operand>`) the data is for"},
  {"iter", &nc_ac_i64, false, NULL, "the producer's iteration whose output to wait for"},
  {"network", &nc_ac_i64, true, NULL,
   "0 (absent): activations; 1: the int32 partial sums of iteration `iter` from a tile of the same input-channel "
   "group, added into the accumulator (operand 0)"},
  {"frames", &ac_pair, true, NULL,
   "`array<i64: r, n>`: runs only on frames f with f mod n == r (a peer that is a replica handling those frames, "
   "core-replicate); absent: on every frame the tile handles"},
  {"channel_offset", &nc_ac_i64, true, NULL,
   "the operand is a channel concat without tiles of its own (core-fold-concat) and the sender computes its "
   "input that starts at this channel: the message's elements land that many channels further along the "
   "operand's first coordinate"},
};
static const nc_attr_def compute_attrs[] = {
  {"begin", &nc_ac_i64, false, NULL, "first iteration"},
  {"end", &nc_ac_i64, false, NULL, "one past the last iteration"},
};
static const nc_attr_def send_attrs[] = {
  {"to", &ac_endpoint, false, NULL,
   "`array<i64: x, y>` or `array<i64: x, y, slot>`: the receiving tile (slot 0 when absent), (-1, -1) for the host"},
  {"iter", &nc_ac_i64, false, NULL, "the iteration (of this tile's node) whose output is sent"},
  {"bytes", &nc_ac_i64, false, NULL, "the message size: the output elements of that iteration in this tile's slice"},
  {"multicast", &nc_ac_unit, true, NULL,
   "this send and the next one (a send of the same iteration) leave as one message: the port sends it once and "
   "each link of the union of their routes carries it once (core-multicast)"},
  {"network", &nc_ac_i64, true, NULL,
   "0 (absent): activations; 1: the iteration's int32 partial sums (4 bytes per element) to the group's reducer"},
  {"frames", &ac_pair, true, NULL,
   "`array<i64: r, n>`: runs only on frames f with f mod n == r (a peer that is a replica handling those frames, "
   "core-replicate); absent: on every frame the tile handles"},
};
static const nc_attr_def wait_attrs[] = {{"cycles", &nc_ac_i64, false, NULL, "how long to wait"}};

static const nc_op_def core_ops[] = {
  {
    .name = "core.chip",
    .summary = "A grid of cores and the work placed on them",
    .description =
      "The chip a function's dataflow pipeline runs on: a `rows` x `cols` grid of cores with `sram_bytes` of SRAM "
      "each (from a chip description, docs/design/spine.md section 4), holding the `core.tile`s of the cores in use "
      "(one per core, or several in distinct `slot`s). "
      "`function` names the function whose `dataflow.node`s the tiles compute; the nodes stay in the module, so a "
      "tile's `node` and the node's region say what the tile computes.\n\n"
      "Verification: positions are inside the grid and no two tiles share a core and slot; every planned buffer "
      "lies within the SRAM, buffers of one tile whose addresses overlap are never live at the same time, and "
      "planned buffers of tiles sharing a core do not overlap; every `core.recv` and `core.send` names a placed "
      "tile (position and slot) of the chip (not its own) or the host (-1, -1), and tiles with a "
      "non-empty program are placed. With `function`: it exists, every tile names one of its nodes, the "
      "slices of a split node's tiles (`out_channels` x `out_rows`) partition its output channels x rows and, "
      "within each output channels x rows slice, the `in_channels` of its tiles partition operand 0's input "
      "channels (a conv with group 1 or a matmul), computes stay within the "
      "node's iterations, and every recv names an operand of the node and comes from a tile of that operand's "
      "producer (from the host for function arguments; for a channel concat that only moves data, from a tile "
      "of one of its inputs' producers, `channel_offset` naming the channel that input starts at, "
      "core-fold-concat); partial sums (`network = 1`) go from a tile of an "
      "input-channel group (the same output channels and rows) to its reducer only. The copies of a replicated node (`replica`) agree on their count "
      "and each holds as many tiles (the slice checks look at copy 0), and a recv or send naming a copy runs only "
      "on that copy's frames (its tile's own `replica` or its `frames` imply them).",
    .attrs = N(chip_attrs), .regions = N(chip_regions),
    .traits = NC_TRAIT_ISOLATED_FROM_ABOVE | NC_TRAIT_NO_TERMINATOR | NC_TRAIT_SINGLE_BLOCK,
    .verify = verify_chip,
    .verify_regions = verify_chip_regions,
    .verify_symbol_uses = verify_chip_symbols,
    .assembly_format = "attr-dict `(` $body `)` `:` `(` `)` `->` `(` `)`",
  },
  {
    .name = "core.tile",
    .summary = "The work of one core",
    .description =
      "One core at grid position (`x`, `y`) computing the `dataflow.node` named `node`, or output channels "
      "[lo, hi) of it when `out_channels = array<i64: lo, hi>`, and/or output rows [lo, hi) of it when "
      "`out_rows = array<i64: lo, hi>` (a layer split over several cores; a row-band tile computes only the "
      "iterations that write its rows and receives only the producer rows they read, halo rows included). With "
      "`in_channels = array<i64: lo, hi>` (a conv with group 1 or a matmul, combinable with `out_channels` and "
      "`out_rows`) the "
      "tile sums over input channels [lo, hi) of operand 0 only (a conv's channels, a matmul's K), receives only "
      "them, and holds only their weights: the tiles of one output slice (channels x rows) form an input-channel "
      "group whose "
      "reducer (the tile with lo = 0) receives the others' int32 partial sums of each iteration on the "
      "partial-sum network (`network = 1`), adds them to its own (int32 sums are exact, so the order does not "
      "matter), then adds the bias and requantizes once and sends the result; the other tiles send partial sums "
      "only. With `replica = array<i64: r, n>` the tile is copy r of n of its node's tiles (core-replicate): each "
      "copy holds every slice with the same weights and program and handles only the frames f with f mod n == r, "
      "so a layer that cannot be split further takes alternate frames on spare cores; the recvs and sends naming a "
      "copy carry its `frames`. Before `core-place`, x = y = -1. The body holds the tile's `core.buffer`s and then its `core.program`; buffer "
      "names are unique in the tile.",
    .attrs = N(tile_attrs), .regions = N(tile_regions),
    .traits = NC_TRAIT_NO_TERMINATOR | NC_TRAIT_SINGLE_BLOCK | NC_TRAIT_HAS_PARENT,
    .parents = tile_parents,
    .verify = verify_tile,
    .verify_regions = verify_tile_regions,
    .assembly_format = "attr-dict `(` $body `)`",
  },
  {
    .name = "core.buffer",
    .summary = "A buffer in a core's SRAM",
    .description =
      "`bytes` of the core's SRAM at `offset` (-1 until `core-plan-memory`). `kind` says what it holds: "
      "`weights` and `bias` (the layer's constants, for the tile's channel slice), `input` (operand k's line "
      "buffer `in<k>`, sized by the channel's `buffer_elements`, filled by the NoC), `output` (one iteration's "
      "output until it is sent) or `scratch` (a compute's working memory, e.g. the int32 accumulator `acc`).",
    .attrs = N(buffer_attrs),
    .traits = NC_TRAIT_HAS_PARENT,
    .parents = buffer_parents,
    .verify = verify_buffer,
    .assembly_format = "attr-dict",
  },
  {
    .name = "core.program",
    .summary = "The static schedule of a core",
    .description =
      "The instructions the core runs for one inference, in order: `core.recv`, `core.compute`, `core.send` and "
      "`core.wait`, nothing else. Computes run the node's iterations once each, in increasing order.",
    .regions = N(program_regions),
    .traits = NC_TRAIT_NO_TERMINATOR | NC_TRAIT_SINGLE_BLOCK | NC_TRAIT_HAS_PARENT,
    .parents = program_parents,
    .verify_regions = verify_program_regions,
    .assembly_format = "attr-dict `(` $body `)`",
  },
  {
    .name = "core.recv",
    .summary = "Wait for a producer iteration's data",
    .description =
      "Blocks until the output of iteration `iter` of the tile at `from` (the host at (-1, -1)) has arrived in "
      "input buffer `in<operand>`. Messages are matched by (sender, iteration). With `network = 1` it waits for "
      "the int32 partial sums of iteration `iter` of the node from a tile of the same input-channel group and "
      "adds them into the accumulator `psum` (the compute of that iteration reads them). With `frames = "
      "array<i64: r, n>` it runs only on frames f with f mod n == r (it names a copy that handles those frames); "
      "on other frames it is skipped.",
    .attrs = N(recv_attrs),
    .traits = NC_TRAIT_HAS_PARENT, .parents = instr_parents,
    .verify = verify_recv,
    .assembly_format = "attr-dict",
  },
  {
    .name = "core.compute",
    .summary = "Run node iterations",
    .description =
      "Runs iterations [`begin`, `end`) of the tile's node (iteration i is the i-th point of its domain in "
      "lexicographic order), reading the input buffers and writing the output buffer.",
    .attrs = N(compute_attrs),
    .traits = NC_TRAIT_HAS_PARENT, .parents = instr_parents,
    .verify = verify_compute,
    .assembly_format = "attr-dict",
  },
  {
    .name = "core.send",
    .summary = "Send an iteration's output",
    .description =
      "Sends the output of iteration `iter` (`bytes` bytes: the elements that iteration writes in the tile's "
      "channel slice, packed at their width: two 4-bit values a byte) to the tile at `to`, or to the host at (-1, -1). A send does not wait for the receiver "
      "to reach its recv; the NoC holds the message (and, in hardware, back-pressures the sender when the "
      "receiver's input buffer is full). With `network = 1` it sends the iteration's int32 partial sums (4 bytes "
      "per element) on the partial-sum network to the reducer of the tile's input-channel group. With `frames = "
      "array<i64: r, n>` it runs only on frames f with f mod n == r (to the copy that handles them).",
    .attrs = N(send_attrs),
    .traits = NC_TRAIT_HAS_PARENT, .parents = instr_parents,
    .verify = verify_send,
    .assembly_format = "attr-dict",
  },
  {
    .name = "core.wait",
    .summary = "Explicit synchronisation delay",
    .description = "Idles the core for `cycles` cycles (a static delay a schedule may need to line cores up).",
    .attrs = N(wait_attrs),
    .traits = NC_TRAIT_HAS_PARENT, .parents = instr_parents,
    .verify = verify_wait,
    .assembly_format = "attr-dict",
  },
};

const nc_dialect_def nc_core_dialect = {
  .name = "core",
  .summary = "Work placed on the cores of a 2-D grid: buffers, NoC transfers, synchronisation, programs",
  .description =
    "The level below `dataflow`: each `dataflow.node` of a function is computed by one or more cores of a grid "
    "(a `core.tile` each, split by output channels when a layer does not fit one core), with its buffers at "
    "addresses in the core's SRAM and a static program of receives, computes, sends and waits per core. The "
    "passes `dataflow-to-core` (for the module's chip description, `#core.desc`), `core-place`, `core-schedule` and `core-plan-memory` build it "
    "stage by stage; a target's printer turns it into a binary.\n\n"
    "Conventions:\n\n"
    "- Iteration i of a node is the i-th point of its `domain` in lexicographic order; `core.compute {begin, "
    "end}` runs iterations [begin, end), the `iter` of a send is the sender's iteration, that of a recv the "
    "producer's.\n"
    "- (-1, -1) is the host. Operands from outside the nodes (function arguments, the host's quantization of "
    "the network inputs recorded in `dataflow.io`) come from the host, one message per iteration of the input "
    "source dataflow-deps "
    "assumed (a row `P[y]` or a pixel `P[y, x]`, row-major); tiles of nodes whose result leaves the nodes send "
    "every iteration to the host.\n"
    "- A message is identified by (sender position, sender iteration); it carries the elements that iteration "
    "writes in the sender's slice (channels, rows) and lands in the receiver's input buffer `in<operand>`.\n"
    "- A tile computing output channels [lo, hi) of a node (`out_channels`) computes the first coordinate of "
    "the node's `Out` in [lo, hi) and reads all of its inputs, or with `in_channels` only channels [lo, hi) of "
    "operand 0 (a conv's first coordinate, a matmul's last): the int32 partial sums of such tiles travel on the "
    "partial-sum network (`network = 1`) to their group's reducer, which alone requantizes and sends.\n"
    "- A tile computing output rows [lo, hi) (`out_rows`, the second coordinate of `Out[c, y, x]`) computes only "
    "the iterations that write an element of its slice (channels x rows), receives only the producer iterations "
    "whose elements those iterations read (the band's rows plus the window's halo rows), and its messages carry "
    "the elements of its slice. A matmul's `[M, N]` result (M > 1) has its rows first: `out_rows` slices m and "
    "`out_channels` n of `Out[m, n]`. The tiles of one band split by input channels form that band's own "
    "input-channel group.\n"
    "- Sizes are bytes; an N-bit element takes N/8 bytes, rounded up per buffer.\n\n"
    "The C API is `nc/dialects/core/core.h` (builders, accessors, instruction decoding, iteration numbering, "
    "the buffers a node needs, lifetimes and first-fit allocation); the chip description attribute is "
    "`nc/dialects/core/chip_desc.h`.",
  .ops = core_ops,
  .n_ops = NC_COUNTOF(core_ops),
  .attrs = nc_core_attr_defs, .n_attrs = NC_CORE_NUM_ATTRS,
  .dependents = (const nc_dialect_def *const[]){&nc_dataflow_dialect}, .n_dependents = 1,
};
