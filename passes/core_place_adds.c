/* core_place_adds.c: core-place{add-guests}, residual adds on their
 * producers' cores.
 *
 * A residual add holds a core of its own and little work: resnet50's
 * 14x14x1024 adds compute 196 cycles per frame at 4 bits but send 3,136
 * (their whole output, from one port, to the next block's convs and add),
 * so each is a pipeline stage that cores cannot speed up, and 16 of them
 * take 16 cores from the convs. The conv feeding the add is split already
 * (output channels, row bands) and each of its tiles sends its slice to
 * the add. Cut the same way, each add slice reads its channels and rows of
 * both operands only (core-schedule), can sit on its conv tile's core
 * (core.tile slot: the conv's message to it becomes a copy within the core)
 * and sends its slice from that core's port: the add's sends spread over
 * the conv's cores and its core goes back to balancing.
 *
 * core-place balances with the adds taking no core and no time (as guests,
 * core_place_guests.c), then core_pack_adds cuts them; a slice that does
 * not fit its host's spare SRAM makes core-place balance again without
 * add guests.
 */
#include <stdlib.h>
#include <string.h>

#include "core_place_adds.h"
#include "core_util.h"
#include "nc/dialects/dataflow/dataflow.h"
#include "nc/dialects/dataflow/layer.h"
#include "nc/ir/diag.h"

static bool is_conv(nc_op *node)
{
  nc_dataflow_layer l;
  return node && nc_dataflow_node_get_layer(node, &l) && l.kind == NC_DATAFLOW_LAYER_CONV;
}

int core_add_followed_operand(nc_op *node)
{
  for (size_t o = 0; o < 2; o++)
    if (is_conv(nc_dataflow_node_get_producer(node, o)))
      return (int)o;
  return -1;
}

bool *core_add_layers(nc_op *chip, nc_op *fn)
{
  size_t n = nc_dataflow_num_nodes(fn), i = 0, found = 0;
  bool *adds = calloc(n + 1, sizeof *adds);
  for (nc_op *node = adds ? nc_dataflow_first_node(fn) : NULL; node; node = nc_dataflow_next_node(node), i++) {
    nc_dataflow_layer l;
    if (!nc_dataflow_node_get_layer(node, &l) || l.kind != NC_DATAFLOW_LAYER_ELTWISE ||
        (l.op != NC_DATAFLOW_ELTWISE_ADD && l.op != NC_DATAFLOW_ELTWISE_SUB) || nc_op_get_num_operands(node) != 2 ||
        nc_op_get_num_results(node) != 1)
      continue;
    nc_type *out = nc_value_get_type(nc_op_get_result(node, 0));
    if (!core_same_chw_shape(nc_value_get_type(nc_op_get_operand(node, 0)), out) ||
        !core_same_chw_shape(nc_value_get_type(nc_op_get_operand(node, 1)), out) || core_add_followed_operand(node) < 0 ||
        !core_chip_whole_tile(chip, nc_dataflow_node_get_name(node)))
      continue;
    adds[i] = true, found++;
  }
  if (!found) {
    free(adds);
    return NULL;
  }
  return adds;
}

/* Bytes of host's core: its own buffers and its guests' so far. */
static int64_t core_bytes(nc_op *host, const core_guests *g, int64_t *n_guests)
{
  int64_t bytes = core_tile_bytes(host);
  *n_guests = 0;
  for (size_t j = 0; j < g->n; j++)
    if (g->hosts[j] == host)
      bytes += core_tile_bytes(g->tiles[j]), ++*n_guests;
  return bytes;
}

static bool is_guest_tile(const core_guests *g, nc_op *t)
{
  for (size_t j = 0; j < g->n; j++)
    if (g->tiles[j] == t)
      return true;
  return false;
}

/* Cuts one add (its whole tile `t`) like the tiles of `producer`. */
static bool pack_one(nc_op *chip, nc_op *node, nc_op *t, nc_op *producer, isl_ctx *ictx, core_guests *g, bool *failed)
{
  const char *name = nc_dataflow_node_get_name(node), *pname = nc_dataflow_node_get_name(producer);
  int64_t sram = nc_core_chip_get_sram_bytes(chip), lo, hi;
  for (nc_op *p = nc_core_chip_first_tile(chip); p; p = nc_core_tile_next(p))
    if (!strcmp(nc_core_tile_get_node(p), pname) &&
        (nc_core_tile_get_in_channels(p, &lo, &hi) || nc_core_tile_get_slot(p) || is_guest_tile(g, p)))
      return false; /* partial sums, or a tile that is itself a guest: nothing to follow */
  nc_op *prev = t;
  for (nc_op *p = nc_core_chip_first_tile(chip); p; p = nc_core_tile_next(p)) {
    if (strcmp(nc_core_tile_get_node(p), pname))
      continue;
    int64_t clo = 0, chi = 0, rlo = 0, rhi = 0, guests;
    nc_core_tile_get_out_channels(p, &clo, &chi);
    bool banded = nc_core_tile_get_out_rows(p, &rlo, &rhi);
    nc_core_buffer_spec *specs;
    size_t n;
    char err[512];
    if (!core_node_buffers(node, clo, chi, ictx, &specs, &n, err, sizeof err)) {
      *failed = true;
      return nc_op_emit_error(node, "core-place: %s", err);
    }
    int64_t bytes = 0;
    for (size_t i = 0; i < n; i++)
      bytes += specs[i].bytes;
    if (core_bytes(p, g, &guests) + bytes > sram || guests + 1 >= NC_CORE_MAX_SLOTS) {
      free(specs);
      return false;
    }
    nc_op *s = nc_core_tile_create(chip, nc_op_get_loc(t), name, -1, -1, clo, chi);
    if (banded)
      nc_core_tile_set_out_rows(s, rlo, rhi);
    for (size_t i = 0; i < n; i++)
      nc_core_tile_add_buffer(s, specs[i].name, specs[i].kind, specs[i].bytes, -1);
    free(specs);
    nc_op_move_after(s, prev);
    prev = s;
    core_guests_add(g, s, p, true);
  }
  nc_op_erase(t);
  return true;
}

bool core_pack_adds(nc_op *chip, nc_op *fn, const bool *adds, isl_ctx *ictx, core_guests *g, bool *failed)
{
  *failed = false;
  size_t i = 0;
  for (nc_op *node = nc_dataflow_first_node(fn); node; node = nc_dataflow_next_node(node), i++) {
    if (!adds[i])
      continue;
    nc_op *t = core_chip_whole_tile(chip, nc_dataflow_node_get_name(node));
    int o = core_add_followed_operand(node);
    if (!t || o < 0 || !pack_one(chip, node, t, nc_dataflow_node_get_producer(node, (size_t)o), ictx, g, failed))
      return false;
  }
  return true;
}
