// inline replaces func.call ops by the callee's single-block body, callees
// first, so chains inline completely; inlined ops get callsite locations;
// private functions left unused are erased. Calls into recursive functions,
// into bodies with unknown (unregistered) ops, into declarations, and calls
// or callees marked no_inline are kept.
// RUN: nc-opt %s --allow-unregistered-dialect --inline --mlir-pass-statistics 2>%t.stats | FileCheck %s
// RUN: FileCheck %s --check-prefix=STATS < %t.stats
// STATS: (S) 3 num-inlined-calls - Number of inlined calls
// RUN: nc-opt %s --allow-unregistered-dialect --inline --mlir-print-debuginfo --mlir-print-local-scope | FileCheck %s --check-prefix=LOC

// CHECK-NOT: @unused
// CHECK-NOT: @id(
// CHECK-NOT: @cast(
// CHECK-NOT: @id2(
// CHECK-LABEL: func.func @caller(%arg0: i32) -> (i32, i64) {
// CHECK-NEXT:    %0 = unrealized_conversion_cast %arg0 : i32 to i64
// CHECK-NEXT:    return %arg0, %0 : i32, i64
// LOC: %0 = unrealized_conversion_cast %arg0 : i32 to i64 loc(callsite("{{.*}}inline.mlir":[[# @LINE + 11]]:{{[0-9]+}} at "{{.*}}inline.mlir":[[# @LINE + 25]]:{{[0-9]+}}))
func.func private @unused() {
  return
}
func.func private @id(%x: i32) -> i32 {
  return %x : i32
}
func.func private @id2(%x: i64) -> i64 {
  return %x : i64
}
func.func private @cast(%x: i32) -> i64 {
  %0 = builtin.unrealized_conversion_cast %x : i32 to i64
  %1 = call @id2(%0) : (i64) -> i64
  return %1 : i64
}
// CHECK-LABEL: func.func @rec(
// CHECK-NEXT:    call @rec(
// CHECK-LABEL: func.func private @ping(
// CHECK-NEXT:    call @pong(
// CHECK-LABEL: func.func private @pong(
// CHECK-NEXT:    call @ping(
// CHECK-LABEL: func.func @use_ping(
// CHECK-NEXT:    call @ping(
func.func @caller(%x: i32) -> (i32, i64) {
  %0 = call @id(%x) : (i32) -> i32
  %1 = call @cast(%0) : (i32) -> i64
  return %0, %1 : i32, i64
}
func.func @rec(%x: i32) -> i32 {
  %0 = call @rec(%x) : (i32) -> i32
  return %0 : i32
}
func.func private @ping(%x: i32) -> i32 {
  %0 = call @pong(%x) : (i32) -> i32
  return %0 : i32
}
func.func private @pong(%x: i32) -> i32 {
  %0 = call @ping(%x) : (i32) -> i32
  return %0 : i32
}
func.func @use_ping(%x: i32) -> i32 {
  %0 = call @ping(%x) : (i32) -> i32
  return %0 : i32
}
// CHECK-LABEL: func.func private @unknown(
// CHECK-LABEL: func.func @use_unknown(
// CHECK-NEXT:    call @unknown(
func.func private @unknown(%x: i32) -> i32 {
  %0 = "foo.op"(%x) : (i32) -> i32
  return %0 : i32
}
func.func @use_unknown(%x: i32) -> i32 {
  %0 = call @unknown(%x) : (i32) -> i32
  return %0 : i32
}
// CHECK-LABEL: func.func private @decl(i32) -> i32
// CHECK-LABEL: func.func private @keep(
// CHECK-LABEL: func.func private @never(
// CHECK-LABEL: func.func @use_decl(
// CHECK-NEXT:    %0 = call @decl(%arg0)
// CHECK-NEXT:    %1 = call @keep(%0) {no_inline}
// CHECK-NEXT:    %2 = call @never(%1)
// CHECK-NEXT:    return %2
func.func private @decl(i32) -> i32
func.func private @keep(%x: i32) -> i32 {
  return %x : i32
}
func.func private @never(%x: i32) -> i32 attributes {no_inline} {
  return %x : i32
}
func.func @use_decl(%x: i32) -> i32 {
  %0 = call @decl(%x) : (i32) -> i32
  %1 = call @keep(%0) {no_inline} : (i32) -> i32
  %2 = call @never(%1) : (i32) -> i32
  return %2 : i32
}
