// The default-pipeline option of inline runs on each function before calls
// in it are inlined; an empty one runs nothing. Here canonicalize erases the
// dead cast in the callee before it is copied into the caller.
// RUN: nc-opt %s --pass-pipeline='builtin.module(inline)' | FileCheck %s
// RUN: nc-opt %s --pass-pipeline='builtin.module(inline{default-pipeline={}})' | FileCheck %s --check-prefix=NONE
// CHECK-LABEL: func.func @caller(
// CHECK-NEXT:    return %arg0 : i32
// NONE-LABEL: func.func @caller(
// NONE-NEXT:    %0 = unrealized_conversion_cast %arg0 : i32 to i64
// NONE-NEXT:    return %arg0 : i32
func.func private @callee(%x: i32) -> i32 {
  %0 = builtin.unrealized_conversion_cast %x : i32 to i64
  return %x : i32
}
func.func @caller(%x: i32) -> i32 {
  %0 = call @callee(%x) : (i32) -> i32
  return %0 : i32
}
