// --verify-diagnostics checks the diagnostics against expected-* comments
// (MLIR's syntax): @+N, @-N, @above, @below, @unknown, -re with {{regex}} parts, and
// notes. It fails on diagnostics nobody expected and on expectations that
// were not met, pointing at both. Prose that mentions expected-error without
// {{...}} is ignored, as in MLIR.
// RUN: nc-opt --allow-unregistered-dialect --verify-diagnostics --split-input-file %s
// The chunks below marked BAD are only activated by sed:
// RUN: sed -e '/BAD/s/expected_/expected-/' -e 's|^// BAD: ||' %s | not nc-opt --allow-unregistered-dialect --verify-diagnostics --split-input-file 2>&1 | FileCheck %s

// expected-error@+1 {{use of undeclared SSA value name}}
"foo.x"(%a) : (i32) -> ()

// -----

"foo.x"(%a) : (i32) -> ()
// expected-error@-1 {{use of undeclared}}

// -----

// expected-error@below {{undeclared SSA}}
"foo.x"(%a) : (i32) -> ()

// -----

"foo.x"(%a) : (i32) -> ()
// expected-error@above {{SSA value name}}

// -----

"foo.x"(%a) : (i32) -> () // expected-error-re {{use of {{[a-z]+}} SSA value name}}

// -----

%a = "foo.x"() : () -> i32 // expected-note {{previously defined here}}
%a = "foo.x"() : () -> i32 // expected-error-re {{redefinition of SSA value '{{.*}}'}}

// -----

// Without any diagnostic, nothing is expected.
"foo.fine"() : () -> ()

// -----

// An expectation that is not met:
"foo.fine"() : () -> () // BAD: expected_error {{this is never produced}}
// CHECK-DAG: :[[# @LINE - 1]]:{{[0-9]+}}: error: expected error "this is never produced" was not produced

// -----

// A diagnostic that nobody expects:
// BAD: "foo.bad"(%undefined) : (i32) -> ()
// CHECK-DAG: :[[# @LINE - 1]]:11: error: unexpected error: use of undeclared SSA value name

// -----

// The right message on the wrong line:
// BAD: // expected_error@+2 {{use of undeclared SSA value name}}
// BAD: "foo.bad"(%undefined) : (i32) -> ()
// CHECK-DAG: :[[# @LINE - 1]]:11: error: unexpected error: use of undeclared SSA value name
// CHECK-DAG: :[[# @LINE - 3]]:4: error: expected error "use of undeclared SSA value name" was not produced

// -----

// A malformed expectation:
// BAD: expected_error {{unterminated
// CHECK-DAG: :[[# @LINE - 1]]:{{[0-9]+}}: error: expected }} to end expected-error

// -----

// Spaces before @ are allowed, as in MLIR.
// expected-error @+1 {{use of undeclared SSA value name}}
"foo.x"(%a) : (i32) -> ()

// -----

// @unknown: a diagnostic at a location outside this file.
// expected-error @unknown {{'func.return' op must be the last operation}}
"func.func"() <{function_type = () -> (), sym_name = "f"}> ({
  "func.return"() : () -> () loc(unknown)
  "foo.x"() : () -> ()
}) : () -> ()
