/* xbar_control.h: the control programs of the xbar target as data, and
 * their evaluation (shared by the compiler, which writes and verifies them,
 * and the simulator, which runs them).
 *
 * A control program answers, for one consumer stage and one of its inputs:
 * "before iteration c may fire, which producer iteration must have
 * completed?" It is the isl `earliest` relation of dataflow-deps written as
 * a piecewise quasi-affine function (the pieces of isl's pw_multi_aff), so
 * its size depends on the shape of the relation, never on the number of
 * iterations. Words are int64:
 *
 *   program := n_in n_out n_pieces piece*
 *   piece   := n_bsets bset* expr[n_out]       (the piece's domain is the union of its bsets)
 *   bset    := n_div div* n_cons cons*
 *   cons    := kind coeff[n_in + n_div] const  (kind 0: = 0, 1: >= 0)
 *   expr    := n_div div* den coeff[n_in + n_div] const    value floor((sum) / den)
 *   div     := den coeff[n_in + k] const       the k-th div of its bset/expr, floor((sum) / den),
 *                                              over the iteration and the divs before it
 *
 * An iteration that lies in no piece waits for nothing (it reads only
 * padding). Pieces are disjoint (isl's pieces are). Plain C, libc only.
 */
#ifndef NC_TARGETS_XBAR_CONTROL_H
#define NC_TARGETS_XBAR_CONTROL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "nc/support/base.h"

/** Bounds a valid program respects (the loader refuses others). */
#define XBAR_CONTROL_MAX_DIMS 8
#define XBAR_CONTROL_MAX_PIECES 4096
#define XBAR_CONTROL_MAX_BSETS 256
#define XBAR_CONTROL_MAX_DIVS 16
#define XBAR_CONTROL_MAX_CONS 256
#define XBAR_CONTROL_MAX_COEFF ((int64_t)1 << 31)

/** A checked program (borrows `words`). */
typedef struct xbar_control {
  const int64_t *words;
  size_t n_words;
  int n_in, n_out;
  size_t n_pieces;
} xbar_control;

/** Checks that words[0..n) form a program with n_in consumer and n_out
 * producer dimensions: every count and coefficient in bounds, denominators
 * positive, nothing missing or left over. On failure a message naming the
 * field and its bound goes to err. */
bool xbar_control_check(NC_KEEP const int64_t *words, size_t n, int n_in, int n_out, xbar_control *out, char *err,
                        size_t errlen);

/** The result of evaluating a program at one iteration. */
typedef enum xbar_control_result {
  XBAR_CONTROL_NONE = 0,     /**< in no piece: waits for nothing */
  XBAR_CONTROL_WAIT = 1,     /**< wait for the producer iteration written to `out` */
  XBAR_CONTROL_OVERFLOW = -1 /**< the arithmetic left int64 (never for programs the compiler writes) */
} xbar_control_result;

/** Evaluates a checked program at consumer iteration in[n_in]; on
 * XBAR_CONTROL_WAIT, out[n_out] is the producer iteration. */
xbar_control_result xbar_control_eval(const xbar_control *c, const int64_t *in, int64_t *out);

#endif
