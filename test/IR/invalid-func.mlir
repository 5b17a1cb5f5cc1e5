// func dialect errors: signature syntax, bodies, returns, calls and symbol
// uses, and the table-driven checks of func.func's attributes.
// RUN: nc-opt --allow-unregistered-dialect --verify-diagnostics --split-input-file %s
// RUN: not nc-opt --allow-unregistered-dialect --split-input-file %s 2>&1 | FileCheck %s
// CHECK: invalid-func.mlir:[[# @LINE + 2]]:16: error: expected non-empty function body

func.func @f() {  // expected-error {{expected non-empty function body}}
}

// -----

func.func @f(%a: i32, i32) {  // expected-error {{expected SSA identifier}}
  return
}

// -----

func.func @f(i32, %a: i32) {  // expected-error {{expected type instead of SSA identifier}}
  return
}

// -----

func.func @f(i32) {  // expected-error {{expected named arguments for a function with a body}}
  return
}

// -----

func.func f() {  // expected-error {{expected valid '@'-identifier for symbol name}}
  return
}

// -----

func.func @f(%a i32) {  // expected-error {{expected ':'}}
  return
}

// -----

func.func @f() -> {  // expected-error {{expected type}}
  return
}

// -----

func.func @f() -> (i32 {1}) {  // expected-error {{expected attribute name}}
  return
}

// -----

func.func @f() attributes i32 {  // expected-error {{expected '{' after 'attributes'}}
  return
}

// -----

func.func @f()  // expected-error {{symbol declaration cannot have public visibility}}

// -----

func.func nested @f()  // expected-error {{symbol declaration cannot have public visibility}}

// -----

func.func @f() -> i32 {
  %0 = "foo.x"() : () -> f32
  return %0 : f32  // expected-error {{type of return operand 0 ('f32') doesn't match function result type ('i32') in function @f}}
}

// -----

func.func @f() -> i32 {
  return  // expected-error {{'func.return' op has 0 operands, but enclosing function (@f) returns 1}}
}

// -----

func.func @f() {
  %0 = "foo.x"() : () -> i32
  return %0 : i32  // expected-error {{'func.return' op has 1 operands, but enclosing function (@f) returns 0}}
}

// -----

"func.return"() : () -> ()  // expected-error {{'func.return' op expects parent op 'func.func'}}

// -----

func.func @f() {
  "foo.region"() ({
    return  // expected-error {{'func.return' op expects parent op 'func.func'}}
  }) : () -> ()
  return
}

// -----

func.func @f() {
  return %x : i32  // expected-error {{use of undeclared SSA value name}}
}

// -----

func.func @f(%a: i32) {
  return %a : f32  // expected-error {{use of value '%a' expects different type than prior uses: 'f32' vs 'i32'}}
}

// -----

func.func @f(%a: i32) {
  return %a, %a : i32  // expected-error {{2 operands present, but expected 1 types for 'operands'}}
}

// -----

func.func @f() {
  call @missing() : () -> ()  // expected-error {{'func.call' op 'missing' does not reference a valid function}}
  return
}

// -----

func.func private @g(i32) -> i32
func.func @f() {
  %0 = call @g() : () -> i32  // expected-error {{'func.call' op incorrect number of operands for callee}}
  return
}

// -----

func.func private @g(i32) -> i32
func.func @f(%a: f32) {
  %0 = call @g(%a) : (f32) -> i32  // expected-error {{operand type mismatch: expected operand type 'i32', but provided 'f32' for operand number 0}}
  return
}

// -----

func.func private @g(i32) -> i32
func.func @f(%a: i32) {
  %0 = call @g(%a) : (i32) -> f32  // expected-error {{result type mismatch at index 0: expected 'i32', but got 'f32'}}
  return
}

// -----

func.func private @g(i32) -> i32
func.func @f(%a: i32) {
  call @g(%a) : (i32) -> ()  // expected-error {{'func.call' op incorrect number of results for callee}}
  return
}

// -----

// A call must name a func.func.
module @m {
}
func.func @f() {
  call @m() : () -> ()  // expected-error {{'func.call' op 'm' does not reference a valid function}}
  return
}

// -----

func.func @f() {
  call @f::@g() : () -> ()  // expected-error {{'func.call' op attribute 'callee' failed to satisfy constraint: flat symbol reference attribute}}
  return
}

// -----

func.func @f() {
  "func.call"() : () -> ()  // expected-error {{'func.call' op requires attribute 'callee'}}
  return
}

// -----

func.func @f() {
  "func.call"() <{callee = "g"}> : () -> ()  // expected-error {{'func.call' op attribute 'callee' failed to satisfy constraint}}
  return
}

// -----

// The generic form is checked against the op table.
"func.func"() ({  // expected-error {{'func.func' op requires attribute 'sym_name'}}
}) : () -> ()

// -----

"func.func"() <{function_type = i32, sym_name = "f"}> ({  // expected-error {{'func.func' op attribute 'function_type' failed to satisfy constraint}}
}) : () -> ()

// -----

"func.func"() <{function_type = () -> (), sym_name = "f", bogus = 1}> ({  // expected-error {{'func.func' op 'bogus' is not a property of this op}}
  "func.return"() : () -> ()
}) : () -> ()

// -----

"func.func"() <{function_type = (i32) -> (), sym_name = "f"}> ({  // expected-error {{'func.func' op type of entry block argument #0('f32') must match the type of the corresponding argument in function signature('i32')}}
^bb0(%a: f32):
  "func.return"() : () -> ()
}) : () -> ()

// -----

"func.func"() <{function_type = (i32) -> (), sym_name = "f"}> ({  // expected-error {{'func.func' op entry block must have 1 arguments to match function signature}}
  "func.return"() : () -> ()
}) : () -> ()

// -----

"func.func"() <{function_type = () -> (), sym_name = "f", sym_visibility = "bogus"}> ({  // expected-error {{visibility expected to be one of ["public", "private", "nested"]}}
  "func.return"() : () -> ()
}) : () -> ()

// -----

"func.func"() <{function_type = () -> (), sym_name = "f"}> ({  // expected-error {{'func.func' op requires 1 region}}
  "func.return"() : () -> ()
}, {}) : () -> ()

// -----

"func.func"() <{arg_attrs = [{}], function_type = () -> (), sym_name = "f"}> ({  // expected-error {{expects argument attribute array to have the same number of elements as the number of function arguments, got 1, but expected 0}}
  "func.return"() : () -> ()
}) : () -> ()

// -----

"func.func"() <{function_type = () -> (), res_attrs = [1], sym_name = "f"}> ({  // expected-error {{attribute 'res_attrs' failed to satisfy constraint}}
  "func.return"() : () -> ()
}) : () -> ()

// -----

"func.func"() <{function_type = () -> (), sym_name = "f"}> ({
  "func.return"()[^bb1] : () -> ()  // expected-error {{'func.return' op requires 0 successors but found 1}}
^bb1:
  "func.return"() : () -> ()
}) : () -> ()
