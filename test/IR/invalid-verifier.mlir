// Verifier errors: SSA dominance in CFG regions, graph regions, isolation,
// terminators, successors, entry blocks, symbol tables and per-op
// constraints from the op tables. Every error is at the op's location
// (notes at related ones).
// RUN: nc-opt --allow-unregistered-dialect --verify-diagnostics --split-input-file %s
// RUN: not nc-opt --allow-unregistered-dialect --split-input-file %s 2>&1 | FileCheck %s
// CHECK: invalid-verifier.mlir:[[# @LINE + 4]]:3: error: 'foo.use' op operand #0 does not dominate this use
// CHECK: invalid-verifier.mlir:[[# @LINE + 4]]:8: note: operand defined here

func.func @use_before_def() {
  "foo.use"(%0) : (i32) -> ()  // expected-error {{operand #0 does not dominate this use}}
  %0 = "foo.def"() : () -> i32  // expected-note {{operand defined here}}
  return
}

// -----

func.func @self_use() {
  // expected-error@+2 {{operand #0 does not dominate this use}}
  // expected-note@+1 {{operand defined here}}
  %0 = "foo.op"(%0) : (i32) -> i32
  return
}

// -----

// A definition in one branch does not dominate the join.
func.func @branches(%c: i1) {
  "foo.cond_br"(%c)[^a, ^b] : (i1) -> ()
^a:
  %v = "foo.def"() : () -> i32  // expected-note {{operand defined here}}
  "foo.br"()[^b] : () -> ()
^b:
  "foo.use"(%v) : (i32) -> ()  // expected-error {{operand #0 does not dominate this use}}
  return
}

// -----

// A use in a nested region of an op that comes before the definition.
func.func @nested_use() {
  "foo.region"() ({
    "foo.use"(%late) : (i32) -> ()  // expected-error {{operand #0 does not dominate this use}}
  }) : () -> ()
  %late = "foo.def"() : () -> i32  // expected-note {{operand defined here}}
  return
}

// -----

// An op's own result is not visible in its regions (CFG region).
func.func @own_result() {
  %x = "foo.op"() ({  // expected-note {{operand defined here}}
    "foo.use"(%x) : (i32) -> ()  // expected-error {{operand #0 does not dominate this use}}
  }) : () -> i32
  return
}

// -----

// Uses in unreachable blocks are not checked against other blocks, as in MLIR.
func.func @unreachable() {
  return
^dead:
  "foo.use"(%v) : (i32) -> ()
  return
^def:
  %v = "foo.def"() : () -> i32
  "foo.br"()[^dead] : () -> ()
}
// Nor are graph regions (here: an unregistered op's region).
"foo.graph"() ({
  "foo.use"(%v) : (i32) -> ()
  %v = "foo.def"() : () -> i32
}) : () -> ()
"foo.marker"() : () -> ()  // expected-error@+3 {{'func.return' op must be the last operation in the parent block}}

func.func @not_last() {
  return
  "foo.after"() : () -> ()
}

// -----

func.func @no_terminator() {
  %0 = "func.call"() <{callee = @no_terminator}> : () -> i32  // expected-error {{block with no terminator, has 'func.call' last}}
}

// -----

"func.func"() <{function_type = () -> (), sym_name = "f"}> ({
^bb0:
  "func.return"() : () -> ()
^bb1:  // expected-error@-3 {{empty block: expect at least a terminator}}
}) : () -> ()

// -----

func.func @entry_pred() {
^bb0:
  "foo.br"()[^bb0] : () -> ()  // expected-error {{entry block of region may not have predecessors}}
}

// -----

func.func @succ_not_last() {
  "foo.br"()[^bb1] : () -> ()  // expected-error {{has successors but is not the last operation in its block}}
  "foo.other"() : () -> ()
^bb1:
  return
}

// -----

// Symbol tables: names are unique within a module.
module {
  func.func private @f()  // expected-note {{see existing symbol definition here}}
  func.func private @f()  // expected-error {{redefinition of symbol named 'f'}}
}

// -----

// Nested modules are separate tables.
module {
  func.func private @f()
  module {
    func.func private @f()
  }
  "foo.marker"() : () -> ()
  // expected-error@+2 {{expected '(' to start operand list}}
  "foo.unclosed"
}

// -----

"builtin.module"() ({
^bb0(%a: i32):  // expected-error@-1 {{'builtin.module' op region should have no arguments}}
}) : () -> ()

// -----

"builtin.module"() : () -> ()  // expected-error {{'builtin.module' op requires 1 region}}

// -----

"builtin.module"() ({
  "foo.a"() : () -> ()
^bb1:  // expected-error@-2 {{'builtin.module' op expects region #0 to have 0 or 1 blocks}}
  "foo.b"() : () -> ()
}) : () -> ()

// -----

// builtin.module takes no operands or results.
%x = "foo.x"() : () -> i32
"builtin.module"(%x) ({  // expected-error {{'builtin.module' op expected 0 operands, but found 1}}
}) : (i32) -> ()

// -----

"builtin.module"() <{sym_name = 3 : i32}> ({  // expected-error {{'builtin.module' op attribute 'sym_name' failed to satisfy constraint}}
}) : () -> ()

// -----

"builtin.module"() <{bogus}> ({  // expected-error {{'builtin.module' op 'bogus' is not a property of this op}}
}) : () -> ()

// -----

"builtin.module"() <[1]> ({  // expected-error {{expected a dictionary for the properties of 'builtin.module'}}
}) : () -> ()

// -----

// The generic form of an isolated op does not see outer values either.
%x = "foo.x"() : () -> i32
"builtin.module"() ({
  "foo.use"(%x) : (i32) -> ()  // expected-error {{use of undeclared SSA value name}}
}) : () -> ()

// -----

// The cast takes and produces any number of values.
%x = "foo.x"() : () -> i32
%y = "builtin.unrealized_conversion_cast"(%x) : (i32) -> f32
func.func @f() {
  "builtin.unrealized_conversion_cast"()[^bb1] : () -> ()  // expected-error {{'builtin.unrealized_conversion_cast' op requires 0 successors but found 1}}
^bb1:
  return
}
