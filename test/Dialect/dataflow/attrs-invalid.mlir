// Bad #dataflow.set / #dataflow.map: syntax errors point at the token,
// bad isl text at the attribute, as file:line:col.
// RUN: nc-opt --split-input-file --verify-diagnostics %s
// RUN: not nc-opt --split-input-file %s 2>&1 | FileCheck %s

// CHECK: attrs-invalid.mlir:[[# @LINE + 2]]:41: error: invalid isl set "{ S[i] : 0 <= i < }": syntax error
// expected-error@+1 {{invalid isl set "{ S[i] : 0 <= i < }": syntax error}}
func.func @isl_syntax() attributes {a = #dataflow.set<"{ S[i] : 0 <= i < }">} {
  return
}

// -----

// CHECK: attrs-invalid.mlir:[[# @LINE + 3]]:7: error: invalid isl map "{ S[i] }": it is not a map (a set was given)
func.func @isl_kind() attributes {
  // expected-error@+1 {{invalid isl map "{ S[i] }": it is not a map (a set was given)}}
  a = #dataflow<map<"{ S[i] }">>} {
  return
}

// -----

// CHECK: attrs-invalid.mlir:[[# @LINE + 2]]:67: error: malformed #dataflow.set: expected '>' after the isl string
// expected-error@+1 {{malformed #dataflow.set: expected '>' after the isl string}}
func.func @two_strings() attributes {a = #dataflow.set<"{ S[i] }" "{ T[i] }">} {
  return
}

// -----

// CHECK: attrs-invalid.mlir:[[# @LINE + 2]]:55: error: malformed #dataflow.map: expected a string in angle brackets
// expected-error@+1 {{malformed #dataflow.map: expected a string in angle brackets}}
func.func @no_brackets() attributes {a = #dataflow.map} {
  return
}
