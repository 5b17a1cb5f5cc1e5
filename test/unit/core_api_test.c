/* core_api_test.c: the core dialect's C API (nc/dialects/core/core.h) and
 * the chip description attribute (chip_desc.h): round trips and refusals,
 * chips built through the API and verified, program instructions encoded
 * and decoded, and buffer lifetimes (iteration numbering and first fit are
 * in mapping_test.c), and iteration counts the verifier remembers.
 */
#include <isl/ctx.h>
#include <isl/set.h>

#include "ir_check.h"
#include "nc/dialects/core/core.h"
#include "nc/dialects/dataflow/dataflow.h"

/* NorthPole's published numbers (the built-in description of targets/northpole). */
static nc_chip_desc northpole_like(void)
{
  nc_chip_desc d = {.rows = 16, .cols = 16, .sram_bytes = 786432, .hop_latency_cycles = 1,
                    .link_bytes_per_cycle = 32, .clock_hz = 400e6};
  snprintf(d.name, sizeof d.name, "northpole");
  d.ops_per_cycle[8] = 2048;
  d.ops_per_cycle[4] = 4096;
  d.ops_per_cycle[2] = 8192;
  return d;
}

static void test_chip_desc(void)
{
  nc_chip_desc d = northpole_like(), back;
  CHECK(nc_chip_desc_macs_per_cycle(&d, 8) == 1024 && nc_chip_desc_macs_per_cycle(&d, 4) == 2048 &&
          nc_chip_desc_macs_per_cycle(&d, 3) == 2048 && nc_chip_desc_macs_per_cycle(&d, 16) == 0,
        "macs per cycle: %lld %lld", (long long)nc_chip_desc_macs_per_cycle(&d, 8),
        (long long)nc_chip_desc_macs_per_cycle(&d, 3));
  /* the module attribute: the same description back, uniqued */
  nc_context *ctx = ir_context();
  nc_attr *a = nc_chip_desc_to_attr(ctx, &d);
  CHECK(a == nc_chip_desc_to_attr(ctx, &d), "uniqued");
  CHECK(nc_chip_desc_from_attr(a, &back) && !memcmp(&back, &d, sizeof d), "round trip");
  d.rows = 0; /* out of range: refused when read back */
  CHECK(!nc_chip_desc_from_attr(nc_chip_desc_to_attr(ctx, &d), &back), "rows 0 accepted");
  CHECK(!nc_chip_desc_from_attr(nc_attr_empty_dictionary(ctx), &back) && !nc_chip_desc_from_attr(NULL, &back),
        "not a description");
  nc_op *module = nc_module_create(ctx, nc_location_unknown());
  CHECK(!nc_chip_desc_of_module(module, false, &back), "a module without nc.chip");
  nc_op_set_attr_str(module, "nc.chip", a);
  CHECK(nc_chip_desc_of_module(module, false, &back) && back.sram_bytes == 786432, "the module's description");
  nc_op_destroy(module);
  nc_context_destroy(ctx);
}

/* Counts the diagnostics the expected failures emit instead of printing them. */
static bool count_diag(const nc_diag *d, void *user)
{
  if (nc_diag_get_severity(d) == NC_SEV_ERROR)
    ++*(int *)user;
  return true;
}

static void test_build_and_verify(void)
{
  nc_context *ctx = ir_context();
  nc_context_set_allow_unregistered_dialects(ctx, false);
  nc_op *module = nc_module_create(ctx, nc_location_unknown());
  nc_chip_desc d = northpole_like();
  d.rows = 2;
  d.cols = 2;
  d.sram_bytes = 256;
  nc_op *chip = nc_core_chip_create(ctx, nc_location_unknown(), &d, NULL);
  nc_block_append_op(nc_module_get_body(module), chip);
  nc_op *a = nc_core_tile_create(chip, nc_location_unknown(), "a", 0, 0, 0, 0);
  nc_op *b = nc_core_tile_create(chip, nc_location_unknown(), "b", 1, 0, 0, 8);
  CHECK(nc_core_chip_get_num_tiles(chip) == 2 && nc_core_chip_first_tile(chip) == a && nc_core_tile_next(a) == b,
        "tiles in order");
  CHECK(nc_core_chip_find_tile(chip, 1, 0) == b && !nc_core_chip_find_tile(chip, 0, 1), "find tile");
  int64_t lo, hi;
  CHECK(!nc_core_tile_get_out_channels(a, &lo, &hi) && nc_core_tile_get_out_channels(b, &lo, &hi) && lo == 0 &&
          hi == 8,
        "out_channels");
  CHECK(!nc_core_tile_get_out_rows(b, &lo, &hi) && lo == 0 && hi == 0, "no out_rows: every row");
  nc_core_tile_set_out_rows(b, 2, 5);
  CHECK(nc_core_tile_get_out_rows(b, &lo, &hi) && lo == 2 && hi == 5 && nc_core_tile_get_out_channels(b, &lo, &hi) &&
          hi == 8,
        "out_rows beside out_channels");
  CHECK(!strcmp(nc_core_chip_get_target(chip), "northpole") && nc_core_chip_get_rows(chip) == 2 &&
          !nc_core_chip_get_function_name(chip),
        "chip attributes");
  nc_core_tile_add_buffer(a, "weights", NC_CORE_BUFFER_WEIGHTS, 100, 0);
  nc_op *in = nc_core_tile_add_buffer(a, "in12", NC_CORE_BUFFER_INPUT, 50, -1);
  CHECK(nc_core_tile_get_num_buffers(a) == 2 && nc_core_tile_find_buffer(a, "in12") == in &&
          nc_core_buffer_get_operand(in) == 12 && nc_core_buffer_get_kind(in) == NC_CORE_BUFFER_INPUT,
        "buffers");
  nc_core_buffer_set_offset(in, 100);
  CHECK(nc_core_buffer_get_offset(in) == 100, "offset");
  nc_op *prog = nc_core_tile_get_program(a);
  nc_core_instr seq[] = {
    {.kind = NC_CORE_RECV, .x = -1, .y = -1, .operand = 0, .iter = 3},
    {.kind = NC_CORE_COMPUTE, .begin = 0, .end = 4},
    {.kind = NC_CORE_SEND, .x = 1, .y = 0, .iter = 3, .bytes = 16},
    {.kind = NC_CORE_WAIT, .cycles = 7},
  };
  for (size_t i = 0; i < NC_COUNTOF(seq); i++)
    nc_core_program_append(prog, nc_location_unknown(), &seq[i]);
  CHECK(nc_core_program_get_size(prog) == 4, "program size");
  size_t i = 0;
  for (nc_op *op = nc_block_get_first_op(nc_core_program_get_body(prog)); op; op = nc_op_get_next(op), i++) {
    nc_core_instr got;
    CHECK(nc_core_instr_get(op, &got) && !memcmp(&got, &seq[i], sizeof got), "instruction %zu round trip", i);
  }
  CHECK(nc_op_verify(module), "the built chip verifies");
  char *text = nc_op_print_to_string(module, &(nc_print_flags){0}, NULL);
  CHECK(text && strstr(text, "core.wait {cycles = 7 : i64}") &&
          strstr(text, "core.tile {node = \"b\", out_channels = array<i64: 0, 8>, out_rows = array<i64: 2, 5>, x = 1 : "
                       "i64, y = 0 : i64}"),
        "printed:\n%s", text ? text : "");
  free(text);

  /* lifetimes: weights and inputs live throughout, the output from the
   * first compute to the last send, scratch during computes */
  nc_core_tile_add_buffer(a, "out", NC_CORE_BUFFER_OUTPUT, 16, -1);
  nc_core_tile_add_buffer(a, "acc", NC_CORE_BUFFER_SCRATCH, 64, -1);
  nc_core_lifetime life[4];
  nc_core_tile_buffer_lifetimes(a, life);
  CHECK(life[0].first == 0 && life[0].last == 4 && life[1].first == 0 && life[1].last == 4, "persistent buffers");
  CHECK(life[2].first == 1 && life[2].last == 2, "output lifetime [%lld, %lld]", (long long)life[2].first,
        (long long)life[2].last);
  CHECK(life[3].first == 1 && life[3].last == 1, "scratch lifetime [%lld, %lld]", (long long)life[3].first,
        (long long)life[3].last);

  /* the verifier catches overlapping live buffers and buffers past the SRAM */
  int errors = 0;
  unsigned handler = nc_context_push_diag_handler(ctx, count_diag, &errors);
  nc_core_buffer_set_offset(nc_core_tile_find_buffer(a, "out"), 120);
  CHECK(!nc_op_verify(module), "overlapping buffers accepted");
  nc_core_buffer_set_offset(nc_core_tile_find_buffer(a, "out"), 250);
  CHECK(!nc_op_verify(module), "a buffer past the SRAM accepted");
  nc_core_buffer_set_offset(nc_core_tile_find_buffer(a, "out"), 150);
  CHECK(nc_op_verify(module), "a valid layout rejected");
  nc_core_tile_clear_buffers(a);
  nc_core_program_clear(prog);
  CHECK(nc_core_tile_get_num_buffers(a) == 0 && nc_core_program_get_size(prog) == 0 && nc_core_tile_get_program(a),
        "clearing");
  nc_core_tile_set_position(b, 0, 0);
  CHECK(!nc_op_verify(module), "two tiles on one core accepted");
  nc_context_pop_diag_handler(ctx, handler);
  CHECK(errors == 3, "%d errors for 3 invalid chips", errors);
  nc_op_destroy(module);
  nc_context_destroy(ctx);
}

/* The frame residues of core-replicate's copies (`replica`, `frames`). */
static void test_frames(void)
{
  CHECK(nc_core_frames_meet(1, 2, 0, 1) && nc_core_frames_meet(1, 2, 1, 4) && !nc_core_frames_meet(1, 2, 2, 4),
        "odd frames meet every frame and 1 mod 4, not 2 mod 4");
  CHECK(nc_core_frames_meet(0, 2, 1, 3) && nc_core_frames_meet(2, 3, 1, 2), "coprime periods always meet");
  CHECK(!nc_core_frames_meet(0, 0, 0, 2), "a period of 0 is no period");
  CHECK(nc_core_frames_imply(3, 4, 1, 2) && !nc_core_frames_imply(1, 2, 3, 4) && !nc_core_frames_imply(0, 3, 0, 2),
        "3 mod 4 implies odd; odd does not imply 3 mod 4; 0 mod 3 does not imply even");
  nc_context *ctx = ir_context();
  nc_op *module = nc_module_create(ctx, nc_location_unknown());
  nc_chip_desc d = northpole_like();
  nc_op *chip = nc_core_chip_create(ctx, nc_location_unknown(), &d, NULL);
  nc_block_append_op(nc_module_get_body(module), chip);
  nc_op *tile = nc_core_tile_create(chip, nc_location_unknown(), "a", 0, 0, 0, 0);
  int64_t r = -1, n = -1;
  CHECK(!nc_core_tile_get_replica(tile, &r, &n) && r == 0 && n == 1, "no replica: every frame (0 of 1)");
  nc_core_tile_set_replica(tile, 2, 3);
  CHECK(nc_core_tile_get_replica(tile, &r, &n) && r == 2 && n == 3, "copy 2 of 3 round trip");
  CHECK(nc_op_verify(module), "a tile that is copy 2 of 3 verifies");
  int errors = 0;
  unsigned handler = nc_context_push_diag_handler(ctx, count_diag, &errors);
  nc_core_tile_set_replica(tile, 3, 3);
  CHECK(!nc_op_verify(module) && errors == 1, "copy 3 of 3 is refused");
  nc_context_pop_diag_handler(ctx, handler);
  nc_op *prog = nc_core_tile_get_program(tile);
  nc_core_instr in = {.kind = NC_CORE_SEND, .x = 1, .y = 0, .iter = 0, .bytes = 4, .frame = 1, .frames = 2};
  nc_core_instr back;
  nc_op *op = nc_core_program_append(prog, nc_location_unknown(), &in);
  CHECK(nc_core_instr_get(op, &back) && back.frame == 1 && back.frames == 2, "a send's frames round trip");
  nc_op_destroy(module);
  nc_context_destroy(ctx);
}

/* The verifier counts a node's iterations once per distinct domain (a
 * fact of the context), yet a node whose domain changes is checked against
 * its new count, and against the old one again when the domain is back. */
static const char *counted_text =
  "func.func @f(%x: tensor<1x2x4x4xi8>) -> tensor<1x2x2x2xi8> {\n"
  "  %0 = dataflow.node \"pool1\"(%x) {domain = #dataflow.set<\"{ S[oy] : 0 <= oy <= 1 }\">, kind = \"max_pool\", "
  "macs = 0 : i64, params = {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>}, reads = [#dataflow.map<\"{ "
  "S[oy] -> In0[c, iy, ix] : 0 <= c <= 1 and 2oy <= iy <= 1 + 2oy and 0 <= ix <= 3 }\">], writes = "
  "#dataflow.map<\"{ S[oy] -> Out[k, oy, ox] : 0 <= k <= 1 and 0 <= ox <= 1 }\">}({\n"
  "  ^bb0(%a: tensor<1x2x4x4xi8>):\n"
  "    %p = graph.max_pool %a {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x2x4x4xi8>) "
  "-> tensor<1x2x2x2xi8>\n"
  "    dataflow.yield %p : tensor<1x2x2x2xi8>\n"
  "  }) : (tensor<1x2x4x4xi8>) -> tensor<1x2x2x2xi8>\n"
  "  return %0 : tensor<1x2x2x2xi8>\n"
  "}\n"
  "core.chip {rows = 2 : i64, cols = 3 : i64, sram_bytes = 1024 : i64, target = \"tiny\", function = @f} ({\n"
  "  core.tile {x = 0 : i64, y = 0 : i64, node = \"pool1\"} ({\n"
  "    core.program ({\n"
  "      core.compute {begin = 0 : i64, end = 2 : i64}\n"
  "    })\n"
  "  })\n"
  "}) : () -> ()\n";

static void test_counted_iterations(void)
{
  nc_context *ctx = ir_context();
  nc_op *module = ir_parse(ctx, counted_text);
  CHECK(module, "the chip of 2 iterations verifies");
  if (!module)
    return;
  nc_op *node = nc_block_get_first_op(nc_region_get_first_block(
    nc_op_get_region(nc_block_get_first_op(nc_module_get_body(module)), 0)));
  nc_attr *two = nc_op_get_attr_str(node, "domain");
  int errors = 0;
  unsigned handler = nc_context_push_diag_handler(ctx, count_diag, &errors);
  nc_op_set_attr_str(node, "domain", nc_dataflow_set_attr_get(ctx, "{ S[oy] : 0 <= oy <= 0 }"));
  CHECK(!nc_op_verify(module) && errors == 1, "a compute past the new domain's one iteration accepted");
  nc_op_set_attr_str(node, "domain", two);
  CHECK(nc_op_verify(module) && errors == 1, "the old domain's count again");
  nc_context_pop_diag_handler(ctx, handler);
  nc_op_destroy(module);
  nc_context_destroy(ctx);
}

int main(void)
{
  test_chip_desc();
  test_build_and_verify();
  test_frames();
  test_counted_iterations();
  return ir_check_status("core_api_test");
}
