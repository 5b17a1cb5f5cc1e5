// Folds of the graph ops under canonicalize: no-op data movement disappears,
// chains of reshapes and of transposes collapse, reshaped dense constants
// become constants, and dead graph ops (all Pure) are erased.
// RUN: nc-opt --canonicalize --split-input-file %s | FileCheck %s

// CHECK-LABEL: func.func @noops
// CHECK-SAME: (%[[X:.*]]: tensor<2x3xf32>)
// CHECK-NEXT: return %[[X]], %[[X]], %[[X]], %[[X]], %[[X]], %[[X]], %[[X]], %[[X]], %[[X]], %[[X]], %[[X]], %[[X]]
func.func @noops(%x: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>) {
  %0 = graph.identity %x : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %1 = graph.reshape %0 {shape = array<i64: 2, 3>} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %2 = graph.flatten %1 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %3 = graph.squeeze %2 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %4 = graph.unsqueeze %3 {axes = array<i64>} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %5 = graph.transpose %4 {perm = array<i64: 0, 1>} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %6 = graph.cast %5 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %7 = graph.sum %6 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %8 = graph.max %7 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %9 = graph.min %8 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %10 = graph.mean %9 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %11 = graph.reshape %10 {shape = array<i64: 0, -1>} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11 : tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>
}

// -----

// Ops that change the value or its type stay.
// CHECK-LABEL: func.func @not_noops
// CHECK-NEXT: graph.reshape %arg0 {shape = array<i64: 3, 2>}
// CHECK-NEXT: graph.transpose %arg0 : (tensor<2x3xf32>) -> tensor<3x2xf32>
// CHECK-NEXT: graph.cast %arg0 : (tensor<2x3xf32>) -> tensor<2x3xf16>
// CHECK-NEXT: graph.sum %arg0, %arg0
// CHECK-NEXT: graph.reshape %arg1 {shape = array<i64: 2, 3>} : (tensor<?x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: return
func.func @not_noops(%x: tensor<2x3xf32>, %d: tensor<?x3xf32>) -> (tensor<3x2xf32>, tensor<3x2xf32>, tensor<2x3xf16>, tensor<2x3xf32>, tensor<2x3xf32>) {
  %0 = graph.reshape %x {shape = array<i64: 3, 2>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %1 = graph.transpose %x : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %2 = graph.cast %x : (tensor<2x3xf32>) -> tensor<2x3xf16>
  %3 = graph.sum %x, %x : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  // A reshape that only refines a dynamic dim changes the type: it stays.
  %4 = graph.reshape %d {shape = array<i64: 2, 3>} : (tensor<?x3xf32>) -> tensor<2x3xf32>
  return %0, %1, %2, %3, %4 : tensor<3x2xf32>, tensor<3x2xf32>, tensor<2x3xf16>, tensor<2x3xf32>, tensor<2x3xf32>
}

// -----

// CHECK-LABEL: func.func @dead
// CHECK-NEXT: return %arg0
func.func @dead(%x: tensor<1x3x8x8xf32>) -> tensor<1x3x8x8xf32> {
  %w = graph.constant {value = dense<1.0> : tensor<4x3x3x3xf32>} : () -> tensor<4x3x3x3xf32>
  %0 = graph.conv %x, %w : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  %1 = graph.relu %0 : (tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  return %x : tensor<1x3x8x8xf32>
}

// -----

// Two transposes compose; composing to the identity removes both.
// CHECK-LABEL: func.func @transposes
// CHECK-NEXT: %[[T:.*]] = graph.transpose %arg0 {perm = array<i64: 2, 0, 1>} : (tensor<2x3x4xf32>) -> tensor<4x2x3xf32>
// CHECK-NEXT: return %[[T]], %arg0
func.func @transposes(%x: tensor<2x3x4xf32>) -> (tensor<4x2x3xf32>, tensor<2x3x4xf32>) {
  %0 = graph.transpose %x {perm = array<i64: 1, 0, 2>} : (tensor<2x3x4xf32>) -> tensor<3x2x4xf32>
  %1 = graph.transpose %0 {perm = array<i64: 2, 1, 0>} : (tensor<3x2x4xf32>) -> tensor<4x2x3xf32>
  %2 = graph.transpose %x {perm = array<i64: 1, 2, 0>} : (tensor<2x3x4xf32>) -> tensor<3x4x2xf32>
  %3 = graph.transpose %2 {perm = array<i64: 2, 0, 1>} : (tensor<3x4x2xf32>) -> tensor<2x3x4xf32>
  return %1, %3 : tensor<4x2x3xf32>, tensor<2x3x4xf32>
}

// -----

// A reshape of a reshape-like op reshapes the original input (here the
// reshape of the unsqueeze becomes a no-op reshape of the flatten).
// CHECK-LABEL: func.func @reshapes
// CHECK-NEXT: %[[A:.*]] = graph.flatten %arg0 {axis = 2 : i64} : (tensor<2x3x4xf32>) -> tensor<6x4xf32>
// CHECK-NEXT: %[[B:.*]] = graph.reshape %arg0 {shape = array<i64: 24>} : (tensor<2x3x4xf32>) -> tensor<24xf32>
// CHECK-NEXT: return %[[A]], %[[B]]
func.func @reshapes(%x: tensor<2x3x4xf32>) -> (tensor<6x4xf32>, tensor<24xf32>) {
  %0 = graph.flatten %x {axis = 2 : i64} : (tensor<2x3x4xf32>) -> tensor<6x4xf32>
  %1 = graph.unsqueeze %0 {axes = array<i64: 0>} : (tensor<6x4xf32>) -> tensor<1x6x4xf32>
  %2 = graph.reshape %1 {shape = array<i64: -1, 4>} : (tensor<1x6x4xf32>) -> tensor<6x4xf32>
  %3 = graph.reshape %0 {shape = array<i64: -1>} : (tensor<6x4xf32>) -> tensor<24xf32>
  return %2, %3 : tensor<6x4xf32>, tensor<24xf32>
}

// -----

// Reshaping a dense constant gives a constant of the new type; a
// dense_resource constant (a blob) is left to the constant-folding pass.
// CHECK-LABEL: func.func @constants
// CHECK-DAG: %[[C:.*]] = graph.constant {value = dense<{{\[\[}}1.000000e+00, 2.000000e+00, 3.000000e+00], [4.000000e+00, 5.000000e+00, 6.000000e+00]]> : tensor<2x3xf32>} : () -> tensor<2x3xf32>
// CHECK-DAG: %[[S:.*]] = graph.constant {value = dense<7> : tensor<1x4xi8>} : () -> tensor<1x4xi8>
// CHECK-DAG: %[[R:.*]] = graph.constant {value = dense_resource<blob> : tensor<6xf32>} : () -> tensor<6xf32>
// CHECK-DAG: %[[RR:.*]] = graph.reshape %[[R]] {shape = array<i64: 3, 2>} : (tensor<6xf32>) -> tensor<3x2xf32>
// CHECK: return %[[C]], %[[S]], %[[RR]]
func.func @constants() -> (tensor<2x3xf32>, tensor<1x4xi8>, tensor<3x2xf32>) {
  %c = graph.constant {value = dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]> : tensor<6xf32>} : () -> tensor<6xf32>
  %0 = graph.reshape %c {shape = array<i64: 2, 3>} : (tensor<6xf32>) -> tensor<2x3xf32>
  %s = graph.constant {value = dense<7> : tensor<4xi8>} : () -> tensor<4xi8>
  %1 = graph.unsqueeze %s {axes = array<i64: 0>} : (tensor<4xi8>) -> tensor<1x4xi8>
  %r = graph.constant {value = dense_resource<blob> : tensor<6xf32>} : () -> tensor<6xf32>
  %2 = graph.reshape %r {shape = array<i64: 3, 2>} : (tensor<6xf32>) -> tensor<3x2xf32>
  return %0, %1, %2 : tensor<2x3xf32>, tensor<1x4xi8>, tensor<3x2xf32>
}

// -----

// Equal constants are deduplicated.
// CHECK-LABEL: func.func @dedup
// CHECK-NEXT: %[[C:.*]] = graph.constant {value = dense<1.000000e+00> : tensor<3xf32>}
// CHECK-NEXT: %[[A:.*]] = graph.add %[[C]], %[[C]]
// CHECK-NEXT: return %[[A]]
func.func @dedup() -> tensor<3xf32> {
  %a = graph.constant {value = dense<1.0> : tensor<3xf32>} : () -> tensor<3xf32>
  %b = graph.constant {value = dense<1.0> : tensor<3xf32>} : () -> tensor<3xf32>
  %0 = graph.add %a, %b : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}
