// canonicalize: reduce_mean / reduce_max of an [N, C, H, W] float tensor over
// exactly its two spatial dims (in either order, negative axes too) becomes
// global_avg_pool / global_max_pool (TensorFlow exports and torch's
// x.mean((2, 3)) write global pooling this way), followed by a reshape to
// [N, C] without keepdims. Reductions over other dims, over one spatial dim
// or of integers stay.
// RUN: nc-opt --canonicalize %s | FileCheck %s

// CHECK-LABEL: func.func @spatial
// CHECK-NEXT: %[[A:.*]] = graph.global_avg_pool %arg0 : (tensor<2x4x6x5xf32>) -> tensor<2x4x1x1xf32>
// CHECK-NEXT: %[[B:.*]] = graph.global_avg_pool %arg0 : (tensor<2x4x6x5xf32>) -> tensor<2x4x1x1xf32>
// CHECK-NEXT: %[[R:.*]] = graph.reshape %[[B]] {shape = array<i64: 2, 4>} : (tensor<2x4x1x1xf32>) -> tensor<2x4xf32>
// CHECK-NEXT: %[[M:.*]] = graph.global_max_pool %arg0 : (tensor<2x4x6x5xf32>) -> tensor<2x4x1x1xf32>
// CHECK-NEXT: return %[[A]], %[[R]], %[[M]]
func.func @spatial(%x: tensor<2x4x6x5xf32>) -> (tensor<2x4x1x1xf32>, tensor<2x4xf32>, tensor<2x4x1x1xf32>) {
  %0 = graph.reduce_mean %x {axes = array<i64: 2, 3>} : (tensor<2x4x6x5xf32>) -> tensor<2x4x1x1xf32>
  %1 = graph.reduce_mean %x {axes = array<i64: -1, -2>, keepdims = 0 : i64} : (tensor<2x4x6x5xf32>) -> tensor<2x4xf32>
  %2 = graph.reduce_max %x {axes = array<i64: 3, 2>, keepdims = 1 : i64} : (tensor<2x4x6x5xf32>) -> tensor<2x4x1x1xf32>
  return %0, %1, %2 : tensor<2x4x1x1xf32>, tensor<2x4xf32>, tensor<2x4x1x1xf32>
}

// CHECK-LABEL: func.func @others
// CHECK-NEXT: graph.reduce_mean %arg0 {axes = array<i64: 1>}
// CHECK-NEXT: graph.reduce_mean %arg0 {axes = array<i64: 3>}
// CHECK-NEXT: graph.reduce_max %arg0 {axes = array<i64: 1, 2>}
// CHECK-NEXT: graph.reduce_mean %arg1 {axes = array<i64: 2, 3>}
// CHECK-NEXT: graph.reduce_mean %arg2 {axes = array<i64: 1, 2>}
// CHECK-NEXT: return
func.func @others(%x: tensor<1x4x6x6xf32>, %i: tensor<1x4x6x6xi8>, %y: tensor<1x6x6xf32>) -> (tensor<1x1x6x6xf32>, tensor<1x4x6x1xf32>, tensor<1x1x1x6xf32>, tensor<1x4x1x1xi8>, tensor<1x1x1xf32>) {
  %0 = graph.reduce_mean %x {axes = array<i64: 1>} : (tensor<1x4x6x6xf32>) -> tensor<1x1x6x6xf32>
  %1 = graph.reduce_mean %x {axes = array<i64: 3>} : (tensor<1x4x6x6xf32>) -> tensor<1x4x6x1xf32>
  %2 = graph.reduce_max %x {axes = array<i64: 1, 2>} : (tensor<1x4x6x6xf32>) -> tensor<1x1x1x6xf32>
  %3 = graph.reduce_mean %i {axes = array<i64: 2, 3>} : (tensor<1x4x6x6xi8>) -> tensor<1x4x1x1xi8>
  %4 = graph.reduce_mean %y {axes = array<i64: 1, 2>} : (tensor<1x6x6xf32>) -> tensor<1x1x1xf32>
  return %0, %1, %2, %3, %4 : tensor<1x1x6x6xf32>, tensor<1x4x6x1xf32>, tensor<1x1x1x6xf32>, tensor<1x4x1x1xi8>, tensor<1x1x1xf32>
}
