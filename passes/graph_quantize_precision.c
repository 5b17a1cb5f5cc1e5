/* graph_quantize_precision.c: the width of each quantized layer
 * (graph-quantize{bits=8|4|2 overrides="LAYER:BITS,..."}).
 *
 * Sub-8-bit widths are carried in the IR as the element types i4 / i2 of the
 * layer's weights and of its requantized result (the values stay within the
 * ONNX int4 / int2 ranges; the interpreter saturates to the declared type),
 * so nothing below needs a separate attribute. The first and last layers stay
 * at 8 bits unless an override names them: they see the raw input and produce
 * the scores, where a few levels cost the most accuracy. So does any layer
 * whose result is a network output (through data-moving ops): the host
 * dequantizes int8 outputs (an add or a concat after the last conv would
 * otherwise hand it 4 bits).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "graph_quantize_internal.h"

bool gq_bits_valid(int64_t bits) { return bits == 8 || bits == 4 || bits == 2; }

/* The layer's name as overrides spell it: its result's location name. */
static const char *layer_name(nc_op *op, char *buf, size_t len)
{
  return gp_name_hint(nc_op_get_result(op, 0), "", "", buf, len);
}

/* Whether v reaches the function's return through ops that are not layers
 * (reshapes, pools passing the scale through, ...), within a few steps. */
static bool feeds_output(nc_value *v, size_t n, nc_op *const *layers, int depth)
{
  for (nc_use *u = nc_value_get_first_use(v); u && depth < 8; u = nc_use_get_next(u)) {
    nc_op *user = nc_use_get_owner(u);
    if (nc_op_is(user, "func.return"))
      return true;
    bool layer = false;
    for (size_t i = 0; i < n && !layer; i++)
      layer = layers[i] == user;
    if (!layer && nc_op_get_num_results(user) == 1 && feeds_output(nc_op_get_result(user, 0), n, layers, depth + 1))
      return true;
  }
  return false;
}

bool gq_layer_bits(nc_op *func, int64_t bits, const char *overrides, size_t n, nc_op *const *layers,
                   const bool *is_conv, int *out)
{
  size_t first = SIZE_MAX, last = SIZE_MAX;
  for (size_t i = 0; i < n; i++) {
    out[i] = (int)bits;
    if (is_conv[i]) {
      first = first == SIZE_MAX ? i : first;
      last = i;
    }
  }
  if (first != SIZE_MAX)
    out[first] = out[last] = 8;
  for (size_t i = 0; i < n; i++)
    if (nc_op_get_num_results(layers[i]) == 1 && feeds_output(nc_op_get_result(layers[i], 0), n, layers, 0))
      out[i] = 8;
  if (!overrides || !*overrides)
    return true;
  size_t len = strlen(overrides) + 1;
  char *spec = memcpy(nc_xmalloc(len), overrides, len), *save = NULL;
  bool ok = true;
  for (char *item = strtok_r(spec, ",", &save); item && ok; item = strtok_r(NULL, ",", &save)) {
    char *colon = strrchr(item, ':'), *end = NULL;
    long b = colon ? strtol(colon + 1, &end, 10) : 0;
    if (!colon || colon == item || end == colon + 1 || *end || !gq_bits_valid(b)) {
      ok = nc_op_emit_error(func, "graph-quantize: bad precision override '%s'; expected LAYER:BITS with BITS 8, 4 or 2",
                            item);
      break;
    }
    *colon = 0;
    size_t hit = SIZE_MAX;
    char buf[256];
    for (size_t i = 0; i < n && hit == SIZE_MAX; i++)
      if (!strcmp(layer_name(layers[i], buf, sizeof buf), item))
        hit = i;
    if (hit == SIZE_MAX)
      ok = nc_op_emit_error(func, "graph-quantize: precision override names unknown layer '%s'", item);
    else
      out[hit] = (int)b;
  }
  free(spec);
  return ok;
}
