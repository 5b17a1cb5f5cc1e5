/* ir_check.h: helpers shared by the unit tests that work on IR
 * (test/unit/ir_*_test.c, pass_manager_test.c, ...): CHECK (check.h) and
 * CHECK_STR, parse/print shortcuts and a diagnostic recorder. Each test
 * is a standalone program; main returns ir_check_status().
 */
#ifndef NC_TEST_IR_CHECK_H
#define NC_TEST_IR_CHECK_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "nc/dialects/dialects.h"
#include "nc/ir.h"

/* Checks that two strings are equal, printing both when they are not. */
#define CHECK_STR(got, want)                                                    \
  do {                                                                          \
    const char *g_ = (got), *w_ = (want);                                       \
    CHECK(g_ && !strcmp(g_, w_), "\n--- got:\n%s\n--- want:\n%s", g_ ? g_ : "(null)", w_); \
  } while (0)

static inline int ir_check_status(const char *name)
{
  if (failures)
    fprintf(stderr, "%s: %d check(s) failed\n", name, failures);
  else
    printf("%s: all checks passed\n", name);
  return failures ? 1 : 0;
}

/* A context with the builtin and func dialects (and nc's others), accepting
 * unregistered ops. */
static inline nc_context *ir_context(void)
{
  nc_context *ctx = nc_context_create();
  nc_register_all_dialects(ctx);
  nc_context_set_allow_unregistered_dialects(ctx, true);
  return ctx;
}

/* Parses and verifies; NULL on error. */
static inline nc_op *ir_parse(nc_context *ctx, const char *text)
{
  nc_op *m = nc_parse_string(ctx, text, strlen(text), "test.mlir");
  if (m && !nc_op_verify(m)) {
    nc_op_destroy(m);
    return NULL;
  }
  return m;
}

/* Prints with default flags (custom form) or generic; caller frees. */
static inline char *ir_print(nc_op *op, bool generic)
{
  nc_print_flags f = {0};
  f.generic = generic;
  return nc_op_print_to_string(op, &f, NULL);
}

/* Checks that printing op gives `want` exactly, then frees the string. */
#define CHECK_PRINT(op, generic, want)                                          \
  do {                                                                          \
    char *s_ = ir_print((op), (generic));                                       \
    CHECK_STR(s_, want);                                                        \
    free(s_);                                                                   \
  } while (0)

/* The n-th op (0-based) of a module's body. */
static inline nc_op *ir_body_op(nc_op *module, size_t n)
{
  nc_op *o = nc_block_get_first_op(nc_module_get_body(module));
  while (o && n--)
    o = nc_op_get_next(o);
  return o;
}

/* A diagnostic handler that records messages ("error: msg" lines) into a
 * buffer instead of printing them; `ir_diags` holds them. */
static char ir_diags[8192];

static inline bool ir_record_diag(const nc_diag *d, void *user)
{
  (void)user;
  static const char *const sev[] = {"error", "warning", "note", "remark"};
  size_t len = strlen(ir_diags);
  snprintf(ir_diags + len, sizeof ir_diags - len, "%s: %s\n", sev[nc_diag_get_severity(d)], nc_diag_get_message(d));
  for (size_t i = 0; i < nc_diag_get_num_notes(d); i++) {
    len = strlen(ir_diags);
    snprintf(ir_diags + len, sizeof ir_diags - len, "note: %s\n", nc_diag_get_message(nc_diag_get_note(d, i)));
  }
  return true;
}

#endif
