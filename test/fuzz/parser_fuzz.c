/* parser_fuzz.c: libFuzzer target for the textual IR parser.
 *
 * Parses arbitrary bytes (unregistered dialects allowed, diagnostics
 * swallowed). If parsing succeeds: verify; print the generic form (always)
 * and the custom form (when the IR verifies); each printed text must parse
 * again and print identically (print(parse(print(x))) == print(x)). Any
 * failure aborts, so libFuzzer reports the input. Each run uses a fresh
 * context so inputs do not influence each other.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nc/dialects/dialects.h"
#include "nc/ir.h"

static bool quiet(const nc_diag *d, void *user)
{
  (void)d;
  (void)user;
  return true;
}

static nc_context *new_context(void)
{
  nc_context *ctx = nc_context_create();
  nc_register_all_dialects(ctx);
  nc_context_set_allow_unregistered_dialects(ctx, true);
  nc_context_push_diag_handler(ctx, quiet, NULL);
  return ctx;
}

static void fail(const char *what, const char *text, const char *again)
{
  fprintf(stderr, "parser_fuzz: %s\n--- printed:\n%s\n--- reprinted:\n%s\n", what, text, again ? again : "(none)");
  abort();
}

/* Prints `op`, parses the output in a fresh context, prints that again and
 * checks the two prints are equal. */
static void check_fixed_point(nc_op *op, const nc_print_flags *flags)
{
  size_t len;
  char *text = nc_op_print_to_string(op, flags, &len);
  nc_context *ctx = new_context();
  nc_op *again = nc_parse_string(ctx, text, len, "<printed>");
  if (!again)
    fail("printed IR does not parse", text, NULL);
  char *text2 = nc_op_print_to_string(again, flags, NULL);
  if (strcmp(text, text2))
    fail("printing is not a fixed point", text, text2);
  free(text2);
  nc_op_destroy(again);
  nc_context_destroy(ctx);
  free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  nc_context *ctx = new_context();
  nc_op *m = nc_parse_string(ctx, (const char *)data, size, "fuzz.mlir");
  if (m) {
    bool valid = nc_op_verify(m);
    nc_print_flags generic = {.generic = true}, generic_debug = {.generic = true, .debuginfo = true};
    check_fixed_point(m, &generic);
    check_fixed_point(m, &generic_debug);
    if (valid) {
      nc_print_flags custom = {0}, custom_debug = {.debuginfo = true};
      check_fixed_point(m, &custom);
      check_fixed_point(m, &custom_debug);
    }
    nc_op_destroy(m);
  }
  nc_context_destroy(ctx);
  return 0;
}
