// Dead code elimination of graph IR is canonicalize's job: every graph op is
// Pure, so ops whose results are unused go, then the constants (dense or
// dense_resource) only they used; a blob no op refers to is not printed.
// RUN: nc-opt --canonicalize %s | FileCheck %s
// RUN: nc-opt --canonicalize --mlir-pass-statistics %s 2>&1 >/dev/null | FileCheck %s --check-prefix=STATS

// CHECK-LABEL: func.func @dead(%arg0: tensor<1x3x8x8xf32>, %arg1: tensor<6xf32>) -> tensor<1x3x8x8xf32>
// CHECK-NEXT: %[[R:.*]] = graph.relu %arg0
// CHECK-NEXT: return %[[R]]
// CHECK-NEXT: }
// CHECK-NOT: graph.
// CHECK-NOT: dialect_resources
// CHECK-NOT: conv1.weight
func.func @dead(%x: tensor<1x3x8x8xf32>, %v: tensor<6xf32>) -> tensor<1x3x8x8xf32> {
  %w = graph.constant {value = dense_resource<conv1.weight> : tensor<4x3x1x1xf32>} : () -> tensor<4x3x1x1xf32>
  %b = graph.constant {value = dense<0.5> : tensor<4xf32>} : () -> tensor<4xf32>
  %unused = graph.constant {value = dense<[1, 2, 3]> : tensor<3xi32>} : () -> tensor<3xi32>
  %0 = graph.conv %x, %w, %b : (tensor<1x3x8x8xf32>, tensor<4x3x1x1xf32>, tensor<4xf32>) -> tensor<1x4x8x8xf32>
  %1 = graph.relu %0 : (tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  %2 = graph.global_avg_pool %1 : (tensor<1x4x8x8xf32>) -> tensor<1x4x1x1xf32>
  %3:2 = graph.split %v {split = array<i64: 2, 4>} : (tensor<6xf32>) -> (tensor<2xf32>, tensor<4xf32>)
  %4 = graph.relu %x : (tensor<1x3x8x8xf32>) -> tensor<1x3x8x8xf32>
  return %4 : tensor<1x3x8x8xf32>
}
{-#
  dialect_resources: {
    builtin: {
      conv1.weight: "0x040000000000803F0000803F0000803F0000803F0000803F0000803F0000803F0000803F0000803F0000803F0000803F0000803F"
    }
  }
#-}

// STATS: (S) 7 num-dce'd
