// Malformed tokens: bad string escapes, unterminated strings, stray
// characters, bad identifiers and unbalanced brackets.
// RUN: nc-opt --allow-unregistered-dialect --verify-diagnostics --split-input-file %s
// RUN: not nc-opt --allow-unregistered-dialect --split-input-file %s 2>&1 | FileCheck %s
// CHECK: invalid-lexer.mlir:[[# @LINE + 2]]:17: error: unknown escape in string literal

"foo.x"() {a = "\q"} : () -> ()  // expected-error {{unknown escape in string literal}}

// -----

"foo.x"() {a = "\4"} : () -> ()  // expected-error {{unknown escape in string literal}}

// -----

// An escaped quote does not end the string.
// expected-error@+1 {{expected '"' in string literal}}
"foo.x"() {a = "\"} : () -> ()

// -----

// A string may not span lines.
// expected-error@+1 {{expected '"' in string literal}}
"foo.x"() {a = "abc
"} : () -> ()

// -----

"foo.x"() ยง : () -> ()  // expected-error {{unexpected character}}

// -----

"foo.x"() \ : () -> ()  // expected-error {{unexpected character}}

// -----

"foo.x"() {a = #} : () -> ()  // expected-error {{invalid identifier}}

// -----

"foo.x"() {a = @} : () -> ()  // expected-error {{invalid identifier}}

// -----

"foo.r"() ({
^: // expected-error {{invalid block name}}
}) : () -> ()

// -----

// Unbalanced brackets.
"foo.x"() {a = [1, 2} : () -> ()  // expected-error {{expected ']'}}

// -----

"foo.x"() {a = {b = 1} : () -> ()  // expected-error {{'}' in attribute dictionary}}

// -----

"foo.x"(() : () -> ()  // expected-error {{expected SSA operand}}

// -----

"foo.x"() : (i32 -> ()  // expected-error {{expected ')'}}

// -----

"foo.x"() : () -> (i32 "foo.y"() : () -> ()  // expected-error {{expected ')'}}

// -----

"foo.x"() ) : () -> ()  // expected-error {{expected ':' followed by operation type}}

// -----

"foo.x"() : () -> () }  // expected-error {{expected operation name in quotes}}

// -----

"foo.r"() ({
  "foo.x"() : () -> ()
}}) : () -> ()  // expected-error {{expected ')' to end region list}}

// -----

"foo.x"() {a = !foo.t<1, (2>} : () -> ()  // expected-error {{unbalanced '>'}}

// -----

"foo.x"() {a = #foo.a<[1>} : () -> ()  // expected-error {{unbalanced '>'}}

// -----

// A '>' in a string does not close a dialect body.
"foo.x"() {a = #foo.a<"x>"} : () -> ()  // expected-error {{unbalanced '}'}}

// -----

"foo.x"() {a = affine_map<(d0) -> (d0} : () -> ()  // expected-error {{unbalanced '}'}}
