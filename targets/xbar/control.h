/* control.h: compiling dataflow-deps' `earliest` relations into the xbar
 * target's control programs (runtime/xbar_control.h) and printing them as
 * C (nc-compile --emit=control-c). */
#ifndef NC_TARGETS_XBAR_CONTROL_COMPILE_H
#define NC_TARGETS_XBAR_CONTROL_COMPILE_H

#include <isl/map.h>
#include <isl/set.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "nc/support/base.h"

/** Compiles `earliest` ({ S[c] -> P[p] }, single-valued) into a control
 * program: the pieces of its lexmax as a pw_multi_aff, each piece's domain
 * as basic sets (constraint rows over the iteration and explicit floor
 * divisions) and each producer coordinate as a quasi-affine expression.
 * *words is malloc'ed. False with a message in err when isl fails or a
 * coefficient leaves the format's bounds. */
bool xbar_control_compile(__isl_keep isl_map *earliest, NC_GIVE int64_t **words, size_t *n_words, char *err,
                          size_t errlen);

/** Writes the control of one consumer as C: isl's AST of the consumer's
 * iteration domain (`domain`, { S[c] }) whose statement waits for the
 * producer iteration that `earliest` names, printed by isl as a C
 * expression, then fires. `stage` and `producer` name the two sides. */
bool xbar_control_print_c(FILE *out, __isl_keep isl_set *domain, __isl_keep isl_map *earliest, const char *stage,
                          const char *producer, char *err, size_t errlen);

#endif
