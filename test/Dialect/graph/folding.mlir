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

// -----

// Pools whose windows are single elements (kernel 1, stride 1; global pools
// of a 1x1 plane) are their input; a 1x1 pool with stride 2, a 2x2 pool and
// a global pool of a larger plane stay.
// CHECK-LABEL: func.func @identity_pools
// CHECK-SAME: (%[[X:.*]]: tensor<1x2x3x3xf32>, %[[Y:.*]]: tensor<1x2x1x1xi8>)
// CHECK-NEXT: %[[S:.*]] = graph.max_pool %[[X]] {kernel_shape = array<i64: 1, 1>, strides = array<i64: 2, 2>}
// CHECK-NEXT: %[[K:.*]] = graph.avg_pool %[[X]] {kernel_shape = array<i64: 2, 2>}
// CHECK-NEXT: %[[G:.*]] = graph.global_avg_pool %[[X]]
// CHECK-NEXT: return %[[X]], %[[X]], %[[Y]], %[[Y]], %[[S]], %[[K]], %[[G]]
func.func @identity_pools(%x: tensor<1x2x3x3xf32>, %y: tensor<1x2x1x1xi8>) -> (tensor<1x2x3x3xf32>, tensor<1x2x3x3xf32>, tensor<1x2x1x1xi8>, tensor<1x2x1x1xi8>, tensor<1x2x2x2xf32>, tensor<1x2x2x2xf32>, tensor<1x2x1x1xf32>) {
  %0 = graph.avg_pool %x {kernel_shape = array<i64: 1, 1>} : (tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32>
  %1 = graph.max_pool %0 {kernel_shape = array<i64: 1, 1>, strides = array<i64: 1, 1>} : (tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32>
  %2 = graph.global_avg_pool %y : (tensor<1x2x1x1xi8>) -> tensor<1x2x1x1xi8>
  %3 = graph.global_max_pool %y : (tensor<1x2x1x1xi8>) -> tensor<1x2x1x1xi8>
  %4 = graph.max_pool %x {kernel_shape = array<i64: 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x2x3x3xf32>) -> tensor<1x2x2x2xf32>
  %5 = graph.avg_pool %x {kernel_shape = array<i64: 2, 2>} : (tensor<1x2x3x3xf32>) -> tensor<1x2x2x2xf32>
  %6 = graph.global_avg_pool %x : (tensor<1x2x3x3xf32>) -> tensor<1x2x1x1xf32>
  return %0, %1, %2, %3, %4, %5, %6 : tensor<1x2x3x3xf32>, tensor<1x2x3x3xf32>, tensor<1x2x1x1xi8>, tensor<1x2x1x1xi8>, tensor<1x2x2x2xf32>, tensor<1x2x2x2xf32>, tensor<1x2x1x1xf32>
}

// -----

// A constant-zero pad of the spatial dims becomes the padding of the conv or
// average pool reading it (adding to its own); the average pool then counts
// the padded zeros (count_include_pad). A pad with a nonzero value, of the
// channels, cropping, or before an average pool that has pads but does not
// count them stays.
// CHECK-LABEL: func.func @pad_into_window
// CHECK-SAME: (%[[X:.*]]: tensor<1x1x4x4xf32>, %[[W:.*]]: tensor<2x1x3x3xf32>)
// CHECK-NEXT: %[[C:.*]] = graph.conv %[[X]], %[[W]] {pads = array<i64: 2, 1, 1, 3>} : (tensor<1x1x4x4xf32>, tensor<2x1x3x3xf32>) -> tensor<1x2x5x6xf32>
// CHECK-NEXT: %[[A:.*]] = graph.avg_pool %[[X]] {count_include_pad = 1 : i64, kernel_shape = array<i64: 2, 2>, pads = array<i64: 1, 0, 0, 2>} : (tensor<1x1x4x4xf32>) -> tensor<1x1x4x5xf32>
// CHECK-NEXT: %[[P1:.*]] = graph.pad %[[X]] {pads = array<i64: 0, 0, 1, 1, 0, 0, 1, 1>, value = 1.000000e+00 : f32}
// CHECK-NEXT: %[[V:.*]] = graph.avg_pool %[[P1]]
// CHECK-NEXT: %[[P2:.*]] = graph.pad %[[X]] {pads = array<i64: 0, 1, 0, 0, 0, 0, 0, 0>}
// CHECK-NEXT: %[[CH:.*]] = graph.avg_pool %[[P2]]
// CHECK-NEXT: %[[P3:.*]] = graph.pad %[[X]] {pads = array<i64: 0, 0, 1, 1, 0, 0, 1, 1>}
// CHECK-NEXT: %[[OWN:.*]] = graph.avg_pool %[[P3]] {kernel_shape = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>}
// CHECK-NEXT: return %[[C]], %[[A]], %[[V]], %[[CH]], %[[OWN]]
func.func @pad_into_window(%x: tensor<1x1x4x4xf32>, %w: tensor<2x1x3x3xf32>) -> (tensor<1x2x5x6xf32>, tensor<1x1x4x5xf32>, tensor<1x1x5x5xf32>, tensor<1x2x3x3xf32>, tensor<1x1x7x7xf32>) {
  %p = graph.pad %x {pads = array<i64: 0, 0, 1, 0, 0, 0, 0, 2>} : (tensor<1x1x4x4xf32>) -> tensor<1x1x5x6xf32>
  %c = graph.conv %p, %w {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x1x5x6xf32>, tensor<2x1x3x3xf32>) -> tensor<1x2x5x6xf32>
  %a = graph.avg_pool %p {kernel_shape = array<i64: 2, 2>} : (tensor<1x1x5x6xf32>) -> tensor<1x1x4x5xf32>
  %p1 = graph.pad %x {pads = array<i64: 0, 0, 1, 1, 0, 0, 1, 1>, value = 1.0 : f32} : (tensor<1x1x4x4xf32>) -> tensor<1x1x6x6xf32>
  %v = graph.avg_pool %p1 {kernel_shape = array<i64: 2, 2>} : (tensor<1x1x6x6xf32>) -> tensor<1x1x5x5xf32>
  %p2 = graph.pad %x {pads = array<i64: 0, 1, 0, 0, 0, 0, 0, 0>} : (tensor<1x1x4x4xf32>) -> tensor<1x2x4x4xf32>
  %ch = graph.avg_pool %p2 {kernel_shape = array<i64: 2, 2>} : (tensor<1x2x4x4xf32>) -> tensor<1x2x3x3xf32>
  %p3 = graph.pad %x {pads = array<i64: 0, 0, 1, 1, 0, 0, 1, 1>} : (tensor<1x1x4x4xf32>) -> tensor<1x1x6x6xf32>
  %own = graph.avg_pool %p3 {kernel_shape = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x1x6x6xf32>) -> tensor<1x1x7x7xf32>
  return %c, %a, %v, %ch, %own : tensor<1x2x5x6xf32>, tensor<1x1x4x5xf32>, tensor<1x1x5x5xf32>, tensor<1x2x3x3xf32>, tensor<1x1x7x7xf32>
}
