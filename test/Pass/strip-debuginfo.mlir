// strip-debuginfo replaces the location of every op and block argument with
// loc(unknown), on the op it runs on and everything nested in it.
// RUN: nc-opt %s --allow-unregistered-dialect --strip-debuginfo --mlir-print-debuginfo --mlir-print-local-scope | FileCheck %s
// RUN: nc-opt %s --allow-unregistered-dialect --strip-debuginfo --mlir-print-debuginfo | FileCheck %s --check-prefix=ALIAS

// CHECK:      func.func @f(%arg0: i32 loc(unknown)) -> i32 {
// CHECK-NEXT:   %0 = "foo.region"(%arg0) ({
// CHECK-NEXT:   ^bb0(%arg1: i32 loc(unknown)):
// CHECK-NEXT:     "foo.yield"(%arg1) : (i32) -> () loc(unknown)
// CHECK-NEXT:   }) : (i32) -> i32 loc(unknown)
// CHECK-NEXT:   return %0 : i32 loc(unknown)
// CHECK-NEXT: } loc(unknown)
// CHECK-NOT:  loc("
// ALIAS-NOT:  strip-debuginfo.mlir
func.func @f(%a: i32 loc("arg")) -> i32 {
  %0 = "foo.region"(%a) ({
  ^bb0(%x: i32 loc(fused["x", "y"])):
    "foo.yield"(%x) : (i32) -> () loc(callsite("callee" at "caller"))
  }) : (i32) -> i32 loc("named"("file.c":3:4))
  return %0 : i32
} loc("somewhere.c":1:2)
