// Without --allow-unregistered-dialect, ops, types and attributes of
// dialects nc does not know are errors (and --allow-unregistered-dialect
// does not open up registered dialects).
// RUN: nc-opt --verify-diagnostics --split-input-file %s
// RUN: not nc-opt --split-input-file %s 2>&1 | FileCheck %s
// CHECK: invalid-unregistered.mlir:[[# @LINE + 2]]:1: error: operation 'foo.x' belongs to unregistered dialect 'foo'; to allow unregistered dialects use --allow-unregistered-dialect

"foo.x"() : () -> ()  // expected-error {{operation 'foo.x' belongs to unregistered dialect 'foo'}}

// -----

func.func private @f(!foo.t)  // expected-error {{dialect 'foo' is not registered; to allow unregistered dialects use --allow-unregistered-dialect}}

// -----

func.func private @f() attributes {a = #foo.attr<1>}  // expected-error {{dialect 'foo' is not registered}}

// -----

// Discardable attribute names may use any prefix.
func.func private @f() attributes {foo.bar = 1}
"func.nope"() : () -> ()  // expected-error {{unregistered operation 'func.nope' found in dialect ('func') that does not allow unknown operations}}

// -----

// Custom syntax needs a registered op.
foo.x  // expected-error {{custom op 'foo.x' is unknown}}

// -----

func.func @f() {
  nope  // expected-error {{custom op 'nope' is unknown (tried 'func.nope' as well)}}
}
