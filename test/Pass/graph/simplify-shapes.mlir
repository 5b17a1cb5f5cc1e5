// graph-simplify-shapes: the reshape and transpose simplifications, which
// are the graph ops' folds and canonicalization patterns, so canonicalize
// does them too (CHECK lines hold for both); the pass touches nothing else
// (an identity stays, SHAPES) where canonicalize removes it (CANON).
// RUN: nc-opt --split-input-file --graph-simplify-shapes %s | FileCheck %s --check-prefixes=CHECK,SHAPES
// RUN: nc-opt --split-input-file --canonicalize %s | FileCheck %s --check-prefixes=CHECK,CANON

// unsqueeze / squeeze pairs cancel, with dynamic dims too; flatten, squeeze
// and unsqueeze chains become one reshape of the original input.
// CHECK-LABEL: func.func @chains
// CHECK-NEXT: %[[R:.*]] = graph.reshape %arg0 {shape = array<i64: 6>} : (tensor<2x3xf32>) -> tensor<6xf32>
// CHECK-NEXT: %[[F:.*]] = graph.reshape %arg0 {shape = array<i64: 1, 6, 1>} : (tensor<2x3xf32>) -> tensor<1x6x1xf32>
// CHECK-NEXT: return %arg0, %arg2, %[[R]], %[[F]]
func.func @chains(%x: tensor<2x3xf32>, %y: tensor<1x3x1x1xf32>, %d: tensor<?x3xf32>) -> (tensor<2x3xf32>, tensor<?x3xf32>, tensor<6xf32>, tensor<1x6x1xf32>) {
  %0 = graph.unsqueeze %x {axes = array<i64: 0>} : (tensor<2x3xf32>) -> tensor<1x2x3xf32>
  %1 = graph.squeeze %0 {axes = array<i64: 0>} : (tensor<1x2x3xf32>) -> tensor<2x3xf32>
  %2 = graph.unsqueeze %d {axes = array<i64: 1>} : (tensor<?x3xf32>) -> tensor<?x1x3xf32>
  %3 = graph.squeeze %2 {axes = array<i64: 1>} : (tensor<?x1x3xf32>) -> tensor<?x3xf32>
  %4 = graph.unsqueeze %x {axes = array<i64: 2>} : (tensor<2x3xf32>) -> tensor<2x3x1xf32>
  %5 = graph.flatten %4 {axis = 0 : i64} : (tensor<2x3x1xf32>) -> tensor<1x6xf32>
  %6 = graph.squeeze %5 : (tensor<1x6xf32>) -> tensor<6xf32>
  %7 = graph.flatten %x {axis = 0 : i64} : (tensor<2x3xf32>) -> tensor<1x6xf32>
  %8 = graph.unsqueeze %7 {axes = array<i64: 2>} : (tensor<1x6xf32>) -> tensor<1x6x1xf32>
  return %1, %3, %6, %8 : tensor<2x3xf32>, tensor<?x3xf32>, tensor<6xf32>, tensor<1x6x1xf32>
}

// -----

// Reshapes of reshapes reshape the input; no-op reshapes and flattens go.
// CHECK-LABEL: func.func @reshapes
// CHECK-NEXT: %[[R:.*]] = graph.reshape %arg0 {shape = array<i64: 4, 6>} : (tensor<2x3x4xf32>) -> tensor<4x6xf32>
// CHECK-NEXT: return %[[R]], %arg1
func.func @reshapes(%x: tensor<2x3x4xf32>, %y: tensor<6x4xf32>) -> (tensor<4x6xf32>, tensor<6x4xf32>) {
  %0 = graph.reshape %x {shape = array<i64: 24>} : (tensor<2x3x4xf32>) -> tensor<24xf32>
  %1 = graph.reshape %0 {shape = array<i64: 2, 12>} : (tensor<24xf32>) -> tensor<2x12xf32>
  %2 = graph.reshape %1 {shape = array<i64: 4, -1>} : (tensor<2x12xf32>) -> tensor<4x6xf32>
  %3 = graph.flatten %y : (tensor<6x4xf32>) -> tensor<6x4xf32>
  %4 = graph.reshape %3 {shape = array<i64: 0, 4>} : (tensor<6x4xf32>) -> tensor<6x4xf32>
  return %2, %4 : tensor<4x6xf32>, tensor<6x4xf32>
}

// -----

// Transposes compose (to nothing when the result is the identity); one that
// only moves size-1 dims is a reshape; real transposes stay.
// CHECK-LABEL: func.func @transposes
// CHECK-NEXT: %[[T:.*]] = graph.transpose %arg0 {perm = array<i64: 2, 0, 1>} : (tensor<2x3x4xf32>) -> tensor<4x2x3xf32>
// CHECK-NEXT: %[[R:.*]] = graph.reshape %arg1 {shape = array<i64: 1, 1, 1, 3>} : (tensor<1x3x1x1xf32>) -> tensor<1x1x1x3xf32>
// CHECK-NEXT: %[[R2:.*]] = graph.reshape %arg1 {shape = array<i64: 3, 1>} : (tensor<1x3x1x1xf32>) -> tensor<3x1xf32>
// CHECK-NEXT: %[[K:.*]] = graph.transpose %arg2 : (tensor<2x1x3xf32>) -> tensor<3x1x2xf32>
// CHECK-NEXT: return %[[T]], %arg0, %[[R]], %[[R2]], %[[K]]
func.func @transposes(%x: tensor<2x3x4xf32>, %y: tensor<1x3x1x1xf32>, %z: tensor<2x1x3xf32>) -> (tensor<4x2x3xf32>, tensor<2x3x4xf32>, tensor<1x1x1x3xf32>, tensor<3x1xf32>, tensor<3x1x2xf32>) {
  %0 = graph.transpose %x {perm = array<i64: 1, 0, 2>} : (tensor<2x3x4xf32>) -> tensor<3x2x4xf32>
  %1 = graph.transpose %0 {perm = array<i64: 2, 1, 0>} : (tensor<3x2x4xf32>) -> tensor<4x2x3xf32>
  %2 = graph.transpose %x {perm = array<i64: 1, 2, 0>} : (tensor<2x3x4xf32>) -> tensor<3x4x2xf32>
  %3 = graph.transpose %2 {perm = array<i64: 2, 0, 1>} : (tensor<3x4x2xf32>) -> tensor<2x3x4xf32>
  %4 = graph.transpose %y {perm = array<i64: 0, 2, 3, 1>} : (tensor<1x3x1x1xf32>) -> tensor<1x1x1x3xf32>
  %5 = graph.flatten %y : (tensor<1x3x1x1xf32>) -> tensor<1x3xf32>
  %6 = graph.transpose %5 : (tensor<1x3xf32>) -> tensor<3x1xf32>
  %7 = graph.transpose %z : (tensor<2x1x3xf32>) -> tensor<3x1x2xf32>
  return %1, %3, %4, %6, %7 : tensor<4x2x3xf32>, tensor<2x3x4xf32>, tensor<1x1x1x3xf32>, tensor<3x1xf32>, tensor<3x1x2xf32>
}

// -----

// A transpose that moves a leading dim of size one (a batch of one) away from
// the front is the transpose keeping it first (the other dims in perm's
// order) and a reshape to its result's shape; a reader's reshape composes
// with it. A batch of two stays as it was; a pair of transposes composes
// first (here to the identity: nothing is left of it).
// CHECK-LABEL: func.func @unit_batch
// CHECK-NEXT: %[[T:.*]] = graph.transpose %arg0 {perm = array<i64: 0, 2, 3, 1>} : (tensor<1x8x4x4xf32>) -> tensor<1x4x4x8xf32>
// CHECK-NEXT: %[[R:.*]] = graph.reshape %[[T]] {shape = array<i64: 4, 4, 1, 8>} : (tensor<1x4x4x8xf32>) -> tensor<4x4x1x8xf32>
// CHECK-NEXT: %[[F:.*]] = graph.reshape %[[T]] {shape = array<i64: 1, 128>} : (tensor<1x4x4x8xf32>) -> tensor<1x128xf32>
// CHECK-NEXT: %[[T2:.*]] = graph.transpose %arg0 {perm = array<i64: 0, 3, 1, 2>} : (tensor<1x8x4x4xf32>) -> tensor<1x4x8x4xf32>
// CHECK-NEXT: %[[R2:.*]] = graph.reshape %[[T2]] {shape = array<i64: 4, 8, 1, 4>} : (tensor<1x4x8x4xf32>) -> tensor<4x8x1x4xf32>
// CHECK-NEXT: %[[K:.*]] = graph.transpose %arg1 {perm = array<i64: 1, 0, 2>} : (tensor<2x3x4xf32>) -> tensor<3x2x4xf32>
// CHECK-NEXT: return %[[R]], %[[F]], %[[R2]], %[[K]], %arg0
func.func @unit_batch(%x: tensor<1x8x4x4xf32>, %z: tensor<2x3x4xf32>) -> (tensor<4x4x1x8xf32>, tensor<1x128xf32>, tensor<4x8x1x4xf32>, tensor<3x2x4xf32>, tensor<1x8x4x4xf32>) {
  %0 = graph.transpose %x {perm = array<i64: 2, 3, 0, 1>} : (tensor<1x8x4x4xf32>) -> tensor<4x4x1x8xf32>
  %1 = graph.reshape %0 {shape = array<i64: 1, -1>} : (tensor<4x4x1x8xf32>) -> tensor<1x128xf32>
  %2 = graph.transpose %x {perm = array<i64: 3, 1, 0, 2>} : (tensor<1x8x4x4xf32>) -> tensor<4x8x1x4xf32>
  %3 = graph.transpose %z {perm = array<i64: 1, 0, 2>} : (tensor<2x3x4xf32>) -> tensor<3x2x4xf32>
  %4 = graph.transpose %x {perm = array<i64: 2, 3, 0, 1>} : (tensor<1x8x4x4xf32>) -> tensor<4x4x1x8xf32>
  %5 = graph.transpose %4 {perm = array<i64: 2, 3, 0, 1>} : (tensor<4x4x1x8xf32>) -> tensor<1x8x4x4xf32>
  return %0, %1, %2, %3, %5 : tensor<4x4x1x8xf32>, tensor<1x128xf32>, tensor<4x8x1x4xf32>, tensor<3x2x4xf32>, tensor<1x8x4x4xf32>
}

// -----

// A flatten with another use stays readable, and so does its user; a
// reshape of a dense constant is a constant.
// CHECK-LABEL: func.func @kept
// CHECK-DAG: %[[C:.*]] = graph.constant {value = dense<{{\[\[}}1.000000e+00, 2.000000e+00], [3.000000e+00, 4.000000e+00]]> : tensor<2x2xf32>}
// CHECK-DAG: %[[F:.*]] = graph.flatten %arg0 : (tensor<2x3x4xf32>) -> tensor<2x12xf32>
// CHECK-DAG: %[[U:.*]] = graph.unsqueeze %[[F]] {axes = array<i64: 0>} : (tensor<2x12xf32>) -> tensor<1x2x12xf32>
// SHAPES-DAG: %[[I:.*]] = graph.identity %arg1
// SHAPES: return %[[F]], %[[U]], %[[C]], %[[I]]
// CANON: return %[[F]], %[[U]], %[[C]], %arg1
func.func @kept(%x: tensor<2x3x4xf32>, %y: tensor<2xf32>) -> (tensor<2x12xf32>, tensor<1x2x12xf32>, tensor<2x2xf32>, tensor<2xf32>) {
  %0 = graph.flatten %x : (tensor<2x3x4xf32>) -> tensor<2x12xf32>
  %1 = graph.unsqueeze %0 {axes = array<i64: 0>} : (tensor<2x12xf32>) -> tensor<1x2x12xf32>
  %c = graph.constant {value = dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>} : () -> tensor<4xf32>
  %2 = graph.reshape %c {shape = array<i64: 2, 2>} : (tensor<4xf32>) -> tensor<2x2xf32>
  %3 = graph.identity %y : (tensor<2xf32>) -> tensor<2xf32>
  return %0, %1, %2, %3 : tensor<2x12xf32>, tensor<1x2x12xf32>, tensor<2x2xf32>, tensor<2xf32>
}
