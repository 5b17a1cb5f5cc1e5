// Errors in --pass-pipeline point at the offending character of the whole
// pipeline string (a caret under it) and suggest the closest registered pass
// or option name; nc-opt exits with status 1 before reading the input.
// RUN: not nc-opt --enable-test-passes %s --pass-pipeline='cse' 2>&1 | FileCheck %s --check-prefix=ANCHOR --strict-whitespace --match-full-lines
// ANCHOR:<pass-pipeline>:1:1: error: expected pass pipeline to be wrapped with the anchor operation type, e.g. 'builtin.module(...)'
// ANCHOR-NEXT:cse
// ANCHOR-NEXT:^

// RUN: not nc-opt --enable-test-passes %s --pass-pipeline='builtin.module(func.func(canonicalise))' 2>&1 | FileCheck %s --check-prefix=TYPO --strict-whitespace --match-full-lines
// TYPO:<pass-pipeline>:1:26: error: 'canonicalise' does not refer to a registered pass or pass pipeline; did you mean 'canonicalize'?
// TYPO-NEXT:builtin.module(func.func(canonicalise))
// TYPO-NEXT:                         ^

// RUN: not nc-opt --enable-test-passes %s --pass-pipeline='builtin.module(xyzzy)' 2>&1 | FileCheck %s --check-prefix=UNKNOWN --strict-whitespace --match-full-lines
// UNKNOWN:<pass-pipeline>:1:16: error: 'xyzzy' does not refer to a registered pass or pass pipeline
// UNKNOWN-NEXT:builtin.module(xyzzy)
// UNKNOWN-NEXT:               ^

// RUN: not nc-opt --enable-test-passes %s --pass-pipeline='builtin.module(test-named-pipline)' 2>&1 | FileCheck %s --check-prefix=PIPE-TYPO --strict-whitespace --match-full-lines
// PIPE-TYPO:<pass-pipeline>:1:16: error: 'test-named-pipline' does not refer to a registered pass or pass pipeline; did you mean 'test-named-pipeline'?

// RUN: not nc-opt --enable-test-passes %s --pass-pipeline='builtin.module(canonicalize{max-iteration=1})' 2>&1 | FileCheck %s --check-prefix=OPT-TYPO --strict-whitespace --match-full-lines
// OPT-TYPO:<pass-pipeline>:1:29: error: no such option 'max-iteration' for 'canonicalize'; did you mean 'max-iterations'?
// OPT-TYPO-NEXT:builtin.module(canonicalize{max-iteration=1})
// OPT-TYPO-NEXT:                            ^

// RUN: not nc-opt --enable-test-passes %s --pass-pipeline='builtin.module(cse{foo=1})' 2>&1 | FileCheck %s --check-prefix=NO-OPT --strict-whitespace --match-full-lines
// NO-OPT:<pass-pipeline>:1:20: error: no such option 'foo' for 'cse'
// NO-OPT-NEXT:builtin.module(cse{foo=1})
// NO-OPT-NEXT:                   ^

// RUN: not nc-opt --enable-test-passes %s --pass-pipeline='builtin.module(canonicalize{max-iterations=x})' 2>&1 | FileCheck %s --check-prefix=BAD-INT --strict-whitespace --match-full-lines
// BAD-INT:<pass-pipeline>:1:44: error: invalid value 'x' for option 'max-iterations' of 'canonicalize' (expected an integer)
// BAD-INT-NEXT:builtin.module(canonicalize{max-iterations=x})
// BAD-INT-NEXT:                                           ^

// RUN: not nc-opt --enable-test-passes %s --pass-pipeline='builtin.module(canonicalize{top-down=maybe})' 2>&1 | FileCheck %s --check-prefix=BAD-BOOL --strict-whitespace --match-full-lines
// BAD-BOOL:<pass-pipeline>:1:38: error: invalid value 'maybe' for option 'top-down' of 'canonicalize' (expected true or false)

// RUN: not nc-opt --enable-test-passes %s --pass-pipeline='builtin.module(canonicalize{region-simplify=agressive})' 2>&1 | FileCheck %s --check-prefix=BAD-ENUM --strict-whitespace --match-full-lines
// BAD-ENUM:<pass-pipeline>:1:45: error: invalid value 'agressive' for option 'region-simplify' of 'canonicalize'; did you mean 'aggressive'?
// BAD-ENUM-NEXT:builtin.module(canonicalize{region-simplify=agressive})
// BAD-ENUM-NEXT:                                            ^

// RUN: not nc-opt --enable-test-passes %s --pass-pipeline='builtin.module(canonicalize{max-iterations})' 2>&1 | FileCheck %s --check-prefix=NO-VALUE --strict-whitespace --match-full-lines
// NO-VALUE:<pass-pipeline>:1:29: error: option 'max-iterations' of 'canonicalize' needs a value ('max-iterations=...')

// RUN: not nc-opt --enable-test-passes %s --pass-pipeline='builtin.module(func.func(cse)' 2>&1 | FileCheck %s --check-prefix=UNCLOSED --strict-whitespace --match-full-lines
// UNCLOSED:<pass-pipeline>:1:15: error: encountered unbalanced parentheses while parsing pipeline
// UNCLOSED-NEXT:builtin.module(func.func(cse)
// UNCLOSED-NEXT:              ^

// RUN: not nc-opt --enable-test-passes %s --pass-pipeline='builtin.module(cse{)' 2>&1 | FileCheck %s --check-prefix=MISMATCH --strict-whitespace --match-full-lines
// MISMATCH:<pass-pipeline>:1:19: error: encountered unbalanced parentheses while parsing pipeline
// MISMATCH-NEXT:builtin.module(cse{)
// MISMATCH-NEXT:                  ^

// RUN: not nc-opt --enable-test-passes %s --pass-pipeline='builtin.module(cse))' 2>&1 | FileCheck %s --check-prefix=TRAILING --strict-whitespace --match-full-lines
// TRAILING:<pass-pipeline>:1:20: error: unexpected text after the pass pipeline

// RUN: not nc-opt --enable-test-passes %s --pass-pipeline='builtin.module(func.func(cse),)' 2>&1 | FileCheck %s --check-prefix=EMPTY --strict-whitespace --match-full-lines
// EMPTY:<pass-pipeline>:1:31: error: expected pass or pipeline name

// RUN: not nc-opt --enable-test-passes %s --pass-pipeline='builtin.module(cse canonicalize)' 2>&1 | FileCheck %s --check-prefix=COMMA --strict-whitespace --match-full-lines
// COMMA:<pass-pipeline>:1:20: error: expected ',' or ')' in pass pipeline

// RUN: not nc-opt --enable-test-passes %s --pass-pipeline='builtin.module(func.func{x=1}(cse))' 2>&1 | FileCheck %s --check-prefix=ANCHOR-OPTS --strict-whitespace --match-full-lines
// ANCHOR-OPTS:<pass-pipeline>:1:25: error: options are not allowed on an op anchor

// A pass anchored on another op must be nested.
// RUN: not nc-opt --enable-test-passes %s --pass-pipeline='builtin.module(test-function-pass)' 2>&1 | FileCheck %s --check-prefix=NEST --strict-whitespace --match-full-lines
// NEST:<pass-pipeline>:1:16: error: 'test-function-pass' runs on 'func.func' ops and cannot be scheduled on 'builtin.module'; nest it, e.g. 'func.func(test-function-pass)'

// Options of named pipelines, and pipelines inside options, are checked in place.
// RUN: not nc-opt --enable-test-passes %s --pass-pipeline='builtin.module(test-named-pipeline{cnt=2})' 2>&1 | FileCheck %s --check-prefix=PIPE-OPT --strict-whitespace --match-full-lines
// PIPE-OPT:<pass-pipeline>:1:36: error: no such option 'cnt' for 'test-named-pipeline'; did you mean 'count'?
// RUN: not nc-opt --enable-test-passes %s --pass-pipeline='builtin.module(inline{default-pipeline={cse,canonicalize{max-iterations=x}}})' 2>&1 | FileCheck %s --check-prefix=INNER --strict-whitespace --match-full-lines
// INNER:<pass-pipeline>:1:73: error: invalid value 'x' for option 'max-iterations' of 'canonicalize' (expected an integer)
// INNER-NEXT:builtin.module(inline{default-pipeline={cse,canonicalize{max-iterations=x}}})
// INNER-NEXT:                                                                        ^

// The pipeline's anchor must match the input's top-level op.
// RUN: not nc-opt --enable-test-passes %s --pass-pipeline='func.func(cse)' 2>&1 | FileCheck %s --check-prefix=RUN-ANCHOR --strict-whitespace --match-full-lines
// RUN-ANCHOR:{{.*}}pipeline-errors.mlir:1:1: error: can't run 'func.func' pass manager on 'builtin.module' op

// Pipeline errors come first, even if the input does not exist.
// RUN: not nc-opt --enable-test-passes %t.does-not-exist --pass-pipeline='builtin.module(xyzzy)' 2>&1 | FileCheck %s --check-prefix=FIRST
// FIRST: error: 'xyzzy' does not refer to a registered pass or pass pipeline
// FIRST-NOT: does-not-exist

func.func @f() {
  return
}
