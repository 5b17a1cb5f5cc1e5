/* xbar_desc_test.c: the xbar target's chip descriptions
 * (targets/xbar/desc.c): the built-in ones parse, every bound is enforced
 * with a message saying by how much and a position pointing at the value,
 * unknown keys and bad JSON are refused, and the IR attribute round-trips. */
#include <stdlib.h>
#include <string.h>

#include "../../targets/xbar/xbar_ir.h"
#include "check.h"
#include "nc/ir/context.h"
#include "nc/ir/diag.h"

static char *slurp(const char *path)
{
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  static char buf[8192];
  size_t n = fread(buf, 1, sizeof buf - 1, f);
  fclose(f);
  buf[n] = 0;
  return buf;
}

typedef struct captured {
  nc_context *ctx;
  char text[1024];
} captured;

/* Keeps the first diagnostic, printed as the tools print it. */
static bool capture(const nc_diag *d, void *user)
{
  captured *c = user;
  if (!c->text[0]) {
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    nc_diag_print(d, c->ctx, f);
    fclose(f);
    snprintf(c->text, sizeof c->text, "%s", buf);
    free(buf);
  }
  return true;
}

/* Parses `text` as file "t<n>.json" and expects the diagnostic "t<n>.json:line:col: error: chip description: msg". */
static void expect_error(const char *text, const char *msg, int line, int col)
{
  static int n;
  char file[32], want[600];
  snprintf(file, sizeof file, "t%d.json", ++n);
  snprintf(want, sizeof want, "%s:%d:%d: error: chip description: %s", file, line, col, msg);
  nc_context *ctx = nc_context_create();
  captured c = {ctx, ""};
  unsigned id = nc_context_push_diag_handler(ctx, capture, &c);
  xbar_desc d;
  bool ok = xbar_desc_parse(ctx, text, strlen(text), file, &d);
  CHECK(!ok && strstr(c.text, want), "expected '%s', got %s '%s'", want, ok ? "success" : "error", c.text);
  nc_context_pop_diag_handler(ctx, id);
  nc_context_destroy(ctx);
}

int main(void)
{
  const char *names[] = {"../../targets/xbar/cmnnc.json", "../../targets/xbar/puma.json"};
  nc_context *ctx = nc_context_create();
  nc_context_register_dialect(ctx, &xbar_dialect);
  for (int i = 0; i < 2; i++) {
    char *text = slurp(names[i]);
    CHECK(text, "cannot read %s", names[i]);
    if (!text)
      continue;
    xbar_desc d, back;
    CHECK(xbar_desc_parse(ctx, text, strlen(text), names[i], &d), "%s does not parse", names[i]);
    CHECK(xbar_desc_from_attr(xbar_desc_to_attr(ctx, &d), &back) && !memcmp(&d, &back, sizeof d),
          "%s: the attribute does not round-trip", names[i]);
    if (i == 0)
      CHECK(d.xbar_rows == 256 && d.mesh_rows * d.mesh_cols == 64 && d.mvm_latency_cycles == 133, "cmnnc numbers");
    else
      CHECK(d.xbar_rows == 128 && d.dac_bits == 1, "puma numbers");
  }
  nc_context_destroy(ctx);
  const char *base = "{\"name\": \"t\",\n"
                     " \"mesh\": {\"rows\": 2, \"cols\": 2},\n"
                     " \"crossbar\": {\"rows\": %s, \"cols\": 8, \"weight_bits\": 8, \"input_bits\": 8, \"dac_bits\": %s,\n"
                     "              \"adc_bits\": 8, \"mvm_latency_cycles\": 4},\n"
                     " \"digital\": {\"vector_ops_per_cycle\": 2}, \"core\": {\"sram_bytes\": 1024},\n"
                     " \"noc\": {\"hop_latency_cycles\": 1, \"link_bytes_per_cycle\": 4}, \"clock_hz\": 1000}";
  char text[1024];
  snprintf(text, sizeof text, base, "16", "2");
  ctx = nc_context_create();
  xbar_desc d;
  CHECK(xbar_desc_parse(ctx, text, strlen(text), "ok.json", &d) && d.xbar_rows == 16 && d.dac_bits == 2, "ok.json");
  nc_context_destroy(ctx);
  snprintf(text, sizeof text, base, "5000", "2");
  expect_error(text, "\"crossbar.rows\" must be at most 4096 (cells per column), not 5000: 904 too large", 3, 23);
  snprintf(text, sizeof text, base, "0", "2");
  expect_error(text, "\"crossbar.rows\" must be at least 1 (cells per column), not 0: 1 too small", 3, 23);
  snprintf(text, sizeof text, base, "\"16\"", "2");
  expect_error(text, "\"crossbar.rows\" must be an integer, not a string", 3, 23);
  snprintf(text, sizeof text, base, "16", "9");
  expect_error(text, "\"crossbar.dac_bits\" must be at most 8 (bits per input slice), not 9: 1 too large", 3, 85);
  expect_error("{\"name\": \"t\", \"mesh\": 3}", "\"mesh\" must be an object, not an integer", 1, 23);
  expect_error("{\"name\": \"t\",\n \"meshh\": {}}", "unknown key \"meshh\"", 2, 11);
  expect_error("{\"name\": \"t\",\n \"mesh\": {\"rows\": 2,}}", "invalid JSON", 2, 21);
  expect_error("{\"name\": \"t\"}", "missing \"mesh\"", 1, 1);
  if (failures)
    fprintf(stderr, "%d check(s) failed\n", failures);
  return failures != 0;
}
