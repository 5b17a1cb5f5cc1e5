// The func dialect with MLIR's syntax: func.func signatures (named
// arguments, argument/result attributes, visibility, `attributes`,
// declarations), func.return and func.call; builtin.module with a name and
// attributes, nested modules and symbol references.
// RUN: nc-opt --allow-unregistered-dialect %s | FileCheck %s
// RUN: nc-opt --allow-unregistered-dialect %s | nc-opt --allow-unregistered-dialect | FileCheck %s
// RUN: nc-opt --allow-unregistered-dialect --mlir-print-op-generic %s | FileCheck %s --check-prefix=GENERIC
// RUN: nc-opt --allow-unregistered-dialect --mlir-print-op-generic %s | nc-opt --allow-unregistered-dialect | FileCheck %s

// CHECK-LABEL: module @top attributes {foo.version = 2 : i64} {
module @top attributes {foo.version = 2} {
  // CHECK-NEXT: func.func @empty() {
  // CHECK-NEXT:   return
  // CHECK-NEXT: }
  // GENERIC: "func.func"() <{function_type = () -> (), sym_name = "empty"}> ({
  // GENERIC-NEXT: "func.return"() : () -> ()
  // GENERIC-NEXT: }) : () -> ()
  func.func @empty() {
    return
  }

  // CHECK-NEXT: func.func @id(%arg0: i32) -> i32 {
  // CHECK-NEXT:   return %arg0 : i32
  func.func @id(%x: i32) -> i32 {
    func.return %x : i32
  }

  // CHECK-LABEL: func.func @multi(%arg0: i32, %arg1: f32) -> (f32, i32) {
  // CHECK-NEXT:   return %arg1, %arg0 : f32, i32
  func.func @multi(%a: i32, %b: f32) -> (f32, i32) {
    return %b, %a : f32, i32
  }

  // Argument and result attributes, extra attributes, visibility.
  // CHECK-LABEL: func.func private @attrs(%arg0: i32 {foo.arg = 1 : i64}, %arg1: f32, %arg2: i1 {foo.flag}) -> (i32 {foo.res = "r"}, f32) attributes {foo.extra = [1, 2], no_inline} {
  // GENERIC-LABEL: "func.func"() <{arg_attrs = [{foo.arg = 1 : i64}, {}, {foo.flag}], function_type = (i32, f32, i1) -> (i32, f32), res_attrs = [{foo.res = "r"}, {}], sym_name = "attrs", sym_visibility = "private"}> ({
  func.func private @attrs(%a: i32 {foo.arg = 1}, %b: f32, %c: i1 {foo.flag}) -> (i32 {foo.res = "r"}, f32) attributes {foo.extra = [1, 2], no_inline} {
    return %a, %b : i32, f32
  }

  // A function-typed result is parenthesised.
  // CHECK-LABEL: func.func nested @fn_result(%arg0: (i32) -> i32) -> ((i32) -> i32) {
  func.func nested @fn_result(%f: (i32) -> i32) -> ((i32) -> i32) {
    return %f : (i32) -> i32
  }

  // Declarations list types only.
  // CHECK-LABEL: func.func private @decl(i32, tensor<?xf32> {foo.a}) -> (i1 {foo.r})
  // CHECK-NEXT: func.func private @decl2()
  func.func private @decl(i32, tensor<?xf32> {foo.a}) -> (i1 {foo.r})
  func.func private @decl2()

  // An explicit `public` is kept (it is an attribute), as in MLIR.
  // CHECK-LABEL: func.func public @quoted_name
  // CHECK-LABEL: func.func @"name with spaces"()
  func.func public @quoted_name() {
    return
  }
  func.func @"name with spaces"() {
    return
  }

  // Calls, with zero, one and several results; the callee may be declared
  // after the call.
  // CHECK-LABEL: func.func @caller(%arg0: i32) -> i32 {
  // CHECK-NEXT:   call @empty() : () -> ()
  // CHECK-NEXT:   %0 = call @id(%arg0) : (i32) -> i32
  // CHECK-NEXT:   %1 = "foo.f"() : () -> f32
  // CHECK-NEXT:   %2:2 = call @multi(%0, %1) : (i32, f32) -> (f32, i32)
  // CHECK-NEXT:   %3 = call @later() {foo.tag} : () -> i32
  // GENERIC: %{{.*}} = "func.call"(%arg0) <{callee = @id}> : (i32) -> i32
  func.func @caller(%x: i32) -> i32 {
    func.call @empty() : () -> ()
    %y = call @id(%x) : (i32) -> i32
    %f = "foo.f"() : () -> f32
    %r:2 = call @multi(%y, %f) : (i32, f32) -> (f32, i32)
    %l = call @later() {foo.tag} : () -> i32
    return %l : i32
  }
  func.func private @later() -> i32

  // A nested module is a symbol table of its own.
  // CHECK-LABEL: module @inner {
  // CHECK-NEXT:    func.func @f() {
  module @inner {
    func.func @f() {
      return
    }
    // CHECK: func.func @g() attributes {foo.ref = @inner::@f}
    func.func @g() attributes {foo.ref = @inner::@f} {
      return
    }
  }

  // An anonymous module, and one with only attributes.
  // CHECK: module {
  // CHECK: module attributes {foo.a} {
  module {
  }
  module attributes {foo.a} {
  }
}
