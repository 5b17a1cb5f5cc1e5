// Folds that would need a constant of a dynamically shaped type do not
// happen: dense constants have static shapes. (mlir-opt 19 folds the first
// three to `arith.constant dense<0> : tensor<?xi32>` and `dense<true> :
// tensor<?xi1>`, which its own parser then rejects; nc keeps the ops. This
// is the one known place where nc's counts differ from mlir-opt's.)
// RUN: nc-opt %s --canonicalize | FileCheck %s

// CHECK-LABEL: func.func @dynamic
// CHECK-NEXT: %[[S:.+]] = arith.subi %arg0, %arg0 : tensor<?xi32>
// CHECK-NEXT: %[[X:.+]] = arith.xori %arg0, %arg0 : tensor<?xi32>
// CHECK-NEXT: %[[C:.+]] = arith.cmpi eq, %arg0, %arg0 : tensor<?xi32>
// CHECK-NOT: arith.
// CHECK: return %[[S]], %[[X]], %[[C]], %arg0
func.func @dynamic(%t: tensor<?xi32>) -> (tensor<?xi32>, tensor<?xi32>, tensor<?xi1>, tensor<?xi32>) {
  %0 = arith.subi %t, %t : tensor<?xi32>
  %1 = arith.xori %t, %t : tensor<?xi32>
  %2 = arith.cmpi eq, %t, %t : tensor<?xi32>
  %3 = arith.andi %t, %t : tensor<?xi32>
  return %0, %1, %2, %3 : tensor<?xi32>, tensor<?xi32>, tensor<?xi1>, tensor<?xi32>
}
