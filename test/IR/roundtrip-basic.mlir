// RUN: nc-opt --allow-unregistered-dialect %s | FileCheck %s
// RUN: nc-opt --allow-unregistered-dialect %s | nc-opt --allow-unregistered-dialect | FileCheck %s

// CHECK-LABEL: func.func @add(%arg0: i32, %arg1: i32) -> i32 {
func.func @add(%a: i32, %b: i32) -> i32 {
  // CHECK-NEXT: %0 = "foo.add"(%arg0, %arg1) {attr = 1 : i64} : (i32, i32) -> i32
  %x = "foo.add"(%a, %b) {attr = 1 : i64} : (i32, i32) -> i32
  // CHECK-NEXT: return %0 : i32
  return %x : i32
}
