/* check.h: the CHECK macro of the C unit tests. A failed check prints
 * file:line, the condition and a printf-style message, and counts into
 * `failures`, which each test's main turns into its exit status. One copy,
 * so that every test reports a failure the same way.
 */
#ifndef NC_TEST_CHECK_H
#define NC_TEST_CHECK_H

#include <stdio.h>

static int failures;

#define CHECK(cond, ...)                                                        \
  do {                                                                          \
    if (!(cond)) {                                                              \
      failures++;                                                               \
      fprintf(stderr, "%s:%d: check failed: %s: ", __FILE__, __LINE__, #cond);  \
      fprintf(stderr, __VA_ARGS__);                                             \
      fputc('\n', stderr);                                                      \
    }                                                                           \
  } while (0)

#endif
