// graph-fold-batchnorm: an inference batch_norm after a conv, gemm or 2-D
// matmul whose weights and parameters are constants goes into the weights
// and the bias, with onnxruntime's arithmetic: s = scale / sqrt(var + eps),
// W' = W * s per output channel, B' = (B - mean) * s + b, or b - mean * s
// without a bias (which is then created).
// RUN: nc-opt --split-input-file --graph-fold-batchnorm %s | FileCheck %s
// RUN: nc-opt --split-input-file --graph-fold-batchnorm --mlir-pass-statistics %s 2>&1 >/dev/null | FileCheck %s --check-prefix=STATS

// s = [1 / 2, 2 / 3]: W' = [0.5, 1.3333334]; no conv bias: B' = b - mean * s.
// CHECK-LABEL: func.func @conv
// CHECK-DAG: %[[W:.*]] = graph.constant {value = dense<{{\[\[\[\[}}5.000000e-01]]], {{\[\[\[}}1.3333334]]]]> : tensor<2x1x1x1xf32>}
// CHECK-DAG: %[[B:.*]] = graph.constant {value = dense<[4.500000e-01, -0.6333333]> : tensor<2xf32>}
// CHECK: %[[C:.*]] = graph.conv %arg0, %[[W]], %[[B]] : (tensor<1x1x4x4xf32>, tensor<2x1x1x1xf32>, tensor<2xf32>) -> tensor<1x2x4x4xf32>
// CHECK-NEXT: %[[R:.*]] = graph.relu %[[C]]
// CHECK-NEXT: return %[[R]]
// With a conv bias [1, -1]: B' = (B - mean) * s + b.
// CHECK-LABEL: func.func @conv_bias
// CHECK-DAG: %[[W:.*]] = graph.constant {value = dense<{{\[\[\[\[}}5.000000e-01]]], {{\[\[\[}}1.3333334]]]]> : tensor<2x1x1x1xf32>}
// CHECK-DAG: %[[B:.*]] = graph.constant {value = dense<[9.500000e-01, -1.3000001]> : tensor<2xf32>}
// CHECK: %[[C:.*]] = graph.conv %arg0, %[[W]], %[[B]] : (tensor<1x1x4x4xf32>, tensor<2x1x1x1xf32>, tensor<2xf32>) -> tensor<1x2x4x4xf32>
// CHECK-NEXT: return %[[C]]
func.func @conv(%x: tensor<1x1x4x4xf32>) -> tensor<1x2x4x4xf32> {
  %w = graph.constant {value = dense<[[[[1.0]]], [[[2.0]]]]> : tensor<2x1x1x1xf32>} : () -> tensor<2x1x1x1xf32>
  %s = graph.constant {value = dense<[1.0, 2.0]> : tensor<2xf32>} : () -> tensor<2xf32>
  %b = graph.constant {value = dense<[0.5, -0.5]> : tensor<2xf32>} : () -> tensor<2xf32>
  %m = graph.constant {value = dense<[0.1, 0.2]> : tensor<2xf32>} : () -> tensor<2xf32>
  %v = graph.constant {value = dense<[4.0, 9.0]> : tensor<2xf32>} : () -> tensor<2xf32>
  %0 = graph.conv %x, %w : (tensor<1x1x4x4xf32>, tensor<2x1x1x1xf32>) -> tensor<1x2x4x4xf32>
  %1 = graph.batch_norm %0, %s, %b, %m, %v {epsilon = 0.0 : f32} : (tensor<1x2x4x4xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<1x2x4x4xf32>
  %2 = graph.relu %1 : (tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  return %2 : tensor<1x2x4x4xf32>
}
func.func @conv_bias(%x: tensor<1x1x4x4xf32>) -> tensor<1x2x4x4xf32> {
  %w = graph.constant {value = dense<[[[[1.0]]], [[[2.0]]]]> : tensor<2x1x1x1xf32>} : () -> tensor<2x1x1x1xf32>
  %cb = graph.constant {value = dense<[1.0, -1.0]> : tensor<2xf32>} : () -> tensor<2xf32>
  %s = graph.constant {value = dense<[1.0, 2.0]> : tensor<2xf32>} : () -> tensor<2xf32>
  %b = graph.constant {value = dense<[0.5, -0.5]> : tensor<2xf32>} : () -> tensor<2xf32>
  %m = graph.constant {value = dense<[0.1, 0.2]> : tensor<2xf32>} : () -> tensor<2xf32>
  %v = graph.constant {value = dense<[4.0, 9.0]> : tensor<2xf32>} : () -> tensor<2xf32>
  %0 = graph.conv %x, %w, %cb : (tensor<1x1x4x4xf32>, tensor<2x1x1x1xf32>, tensor<2xf32>) -> tensor<1x2x4x4xf32>
  %1 = graph.batch_norm %0, %s, %b, %m, %v {epsilon = 0.0 : f32} : (tensor<1x2x4x4xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<1x2x4x4xf32>
  return %1 : tensor<1x2x4x4xf32>
}

// -----

// Large weights stay blobs, named after the old ones; epsilon defaults to
// 1e-5: s = 1 / sqrt(1 + 1e-5) = 0.999995 (0x3F7FFFAC), weights 1 and 2
// become s (0x3F7FFFAC) and 2 * s (0x3FFFFFAC).
// CHECK-LABEL: func.func @blob
// CHECK-DAG: %[[W:.*]] = graph.constant {value = dense_resource<conv.w_bn> : tensor<2x3x2x2xf32>}
// CHECK-DAG: %[[B:.*]] = graph.constant {value = dense<0.000000e+00> : tensor<2xf32>}
// CHECK: graph.conv %arg0, %[[W]], %[[B]] {group = 1 : i64}
// CHECK: conv.w_bn: "0x04000000ACFF7F3FACFF7F3FACFF7F3FACFF7F3FACFF7F3FACFF7F3FACFF7F3FACFF7F3FACFF7F3FACFF7F3FACFF7F3FACFF7F3FACFFFF3FACFFFF3FACFFFF3FACFFFF3FACFFFF3FACFFFF3FACFFFF3FACFFFF3FACFFFF3FACFFFF3FACFFFF3FACFFFF3F"
func.func @blob(%x: tensor<1x3x4x4xf32>) -> tensor<1x2x3x3xf32> {
  %w = graph.constant {value = dense_resource<conv.w> : tensor<2x3x2x2xf32>} : () -> tensor<2x3x2x2xf32>
  %one = graph.constant {value = dense<1.0> : tensor<2xf32>} : () -> tensor<2xf32>
  %zero = graph.constant {value = dense<0.0> : tensor<2xf32>} : () -> tensor<2xf32>
  %0 = graph.conv %x, %w {group = 1 : i64} : (tensor<1x3x4x4xf32>, tensor<2x3x2x2xf32>) -> tensor<1x2x3x3xf32>
  %1 = graph.batch_norm %0, %one, %zero, %zero, %one : (tensor<1x2x3x3xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<1x2x3x3xf32>
  return %1 : tensor<1x2x3x3xf32>
}
{-#
  dialect_resources: {
    builtin: {
      conv.w: "0x040000000000803F0000803F0000803F0000803F0000803F0000803F0000803F0000803F0000803F0000803F0000803F0000803F000000400000004000000040000000400000004000000040000000400000004000000040000000400000004000000040"
    }
  }
#-}

// -----

// gemm: b is scaled per column (per row with trans_b); c' = (beta * c -
// mean) * s + b and beta becomes 1. A 2-D matmul becomes a gemm.
// CHECK-LABEL: func.func @gemm
// CHECK-DAG: %[[B:.*]] = graph.constant {value = dense<{{\[\[}}5.000000e-01, 5.000000e-01, 5.000000e-01], [2.000000e+00, 2.000000e+00, 2.000000e+00]]> : tensor<2x3xf32>}
// CHECK-DAG: %[[C:.*]] = graph.constant {value = dense<[2.500000e+00, 1.500000e+00]> : tensor<2xf32>}
// CHECK: %[[G:.*]] = graph.gemm %arg0, %[[B]], %[[C]] {alpha = 5.000000e-01 : f32, trans_b = 1 : i64} : (tensor<4x3xf32>, tensor<2x3xf32>, tensor<2xf32>) -> tensor<4x2xf32>
// CHECK-NEXT: return %[[G]]
// CHECK-LABEL: func.func @matmul
// CHECK-DAG: %[[B:.*]] = graph.constant {value = dense<{{\[\[}}5.000000e-01, 2.000000e+00], [5.000000e-01, 2.000000e+00], [5.000000e-01, 2.000000e+00]]> : tensor<3x2xf32>}
// CHECK-DAG: %[[C:.*]] = graph.constant {value = dense<[-5.000000e-01, -2.000000e+00]> : tensor<2xf32>}
// CHECK: %[[G:.*]] = graph.gemm %arg0, %[[B]], %[[C]] : (tensor<4x3xf32>, tensor<3x2xf32>, tensor<2xf32>) -> tensor<4x2xf32>
// CHECK-NEXT: %[[T:.*]] = graph.tanh %[[G]]
// CHECK-NEXT: return %[[T]]
func.func @gemm(%x: tensor<4x3xf32>) -> tensor<4x2xf32> {
  %w = graph.constant {value = dense<1.0> : tensor<2x3xf32>} : () -> tensor<2x3xf32>
  %c = graph.constant {value = dense<[1.0, 2.0]> : tensor<2xf32>} : () -> tensor<2xf32>
  %s = graph.constant {value = dense<[0.5, 2.0]> : tensor<2xf32>} : () -> tensor<2xf32>
  %b = graph.constant {value = dense<[1.5, -0.5]> : tensor<2xf32>} : () -> tensor<2xf32>
  %m = graph.constant {value = dense<[0.0, 3.0]> : tensor<2xf32>} : () -> tensor<2xf32>
  %v = graph.constant {value = dense<1.0> : tensor<2xf32>} : () -> tensor<2xf32>
  %0 = graph.gemm %x, %w, %c {alpha = 0.5 : f32, beta = 2.0 : f32, trans_b = 1 : i64} : (tensor<4x3xf32>, tensor<2x3xf32>, tensor<2xf32>) -> tensor<4x2xf32>
  %1 = graph.batch_norm %0, %s, %b, %m, %v {epsilon = 0.0 : f32} : (tensor<4x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<4x2xf32>
  return %1 : tensor<4x2xf32>
}
func.func @matmul(%x: tensor<4x3xf32>) -> tensor<4x2xf32> {
  %w = graph.constant {value = dense<1.0> : tensor<3x2xf32>} : () -> tensor<3x2xf32>
  %s = graph.constant {value = dense<[0.5, 2.0]> : tensor<2xf32>} : () -> tensor<2xf32>
  %b = graph.constant {value = dense<[0.0, 1.0]> : tensor<2xf32>} : () -> tensor<2xf32>
  %m = graph.constant {value = dense<[1.0, 1.5]> : tensor<2xf32>} : () -> tensor<2xf32>
  %v = graph.constant {value = dense<1.0> : tensor<2xf32>} : () -> tensor<2xf32>
  %0 = graph.matmul %x, %w : (tensor<4x3xf32>, tensor<3x2xf32>) -> tensor<4x2xf32>
  %1 = graph.batch_norm %0, %s, %b, %m, %v {epsilon = 0.0 : f32} : (tensor<4x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<4x2xf32>
  %2 = graph.tanh %1 : (tensor<4x2xf32>) -> tensor<4x2xf32>
  return %2 : tensor<4x2xf32>
}

// -----

// Not folded into the producer: weights that are not constants, a parameter
// that is not a constant, a conv result with another use, a conv with a
// fused activation, a batch_norm after something else, a batched matmul.
// The three of a 4-D input with constant parameters become 1x1 depthwise
// convs (weight 1 / sqrt(1 + 1e-5), bias 0); the others stay.
// CHECK-LABEL: func.func @not_folded
// CHECK-DAG: %[[DW:.*]] = graph.constant {value = dense<9.999950e-01> : tensor<2x1x1x1xf32>}
// CHECK-DAG: %[[Z:.*]] = graph.constant {value = dense<0.000000e+00> : tensor<2xf32>}
// CHECK: graph.batch_norm
// CHECK: graph.batch_norm
// CHECK: %[[C:.*]] = graph.conv %arg0
// CHECK-NEXT: graph.conv %[[C]], %[[DW]], %[[Z]] {group = 2 : i64, kernel_shape = array<i64: 1, 1>}
// CHECK: %[[R:.*]] = graph.conv %arg0, %{{.*}} {activation = "relu"}
// CHECK-NEXT: graph.conv %[[R]], %[[DW]], %[[Z]] {group = 2 : i64, kernel_shape = array<i64: 1, 1>}
// CHECK: %[[X:.*]] = graph.relu %arg0
// CHECK-NEXT: graph.conv %[[X]], %[[DW]], %[[Z]] {group = 2 : i64, kernel_shape = array<i64: 1, 1>}
// CHECK: graph.batch_norm {{.*}} tensor<3x4x2xf32>
// CHECK-NOT: graph.batch_norm
func.func @not_folded(%x: tensor<1x2x4x4xf32>, %w: tensor<2x2x1x1xf32>, %mean: tensor<2xf32>, %a: tensor<3x4x2xf32>) -> (tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>, tensor<3x4x2xf32>) {
  %wc = graph.constant {value = dense<1.0> : tensor<2x2x1x1xf32>} : () -> tensor<2x2x1x1xf32>
  %one = graph.constant {value = dense<1.0> : tensor<2xf32>} : () -> tensor<2xf32>
  %zero = graph.constant {value = dense<0.0> : tensor<2xf32>} : () -> tensor<2xf32>
  %0 = graph.conv %x, %w : (tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x4x4xf32>
  %1 = graph.batch_norm %0, %one, %zero, %zero, %one : (tensor<1x2x4x4xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<1x2x4x4xf32>
  %2 = graph.conv %x, %wc : (tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x4x4xf32>
  %3 = graph.batch_norm %2, %one, %zero, %mean, %one : (tensor<1x2x4x4xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<1x2x4x4xf32>
  %4 = graph.conv %x, %wc : (tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x4x4xf32>
  %5 = graph.batch_norm %4, %one, %zero, %zero, %one : (tensor<1x2x4x4xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<1x2x4x4xf32>
  %6 = graph.conv %x, %wc {activation = "relu"} : (tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x4x4xf32>
  %7 = graph.batch_norm %6, %one, %zero, %zero, %one : (tensor<1x2x4x4xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<1x2x4x4xf32>
  %8 = graph.relu %x : (tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %9 = graph.batch_norm %8, %one, %zero, %zero, %one : (tensor<1x2x4x4xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<1x2x4x4xf32>
  %m2 = graph.constant {value = dense<1.0> : tensor<2x2xf32>} : () -> tensor<2x2xf32>
  %one4 = graph.constant {value = dense<1.0> : tensor<4xf32>} : () -> tensor<4xf32>
  %zero4 = graph.constant {value = dense<0.0> : tensor<4xf32>} : () -> tensor<4xf32>
  %10 = graph.matmul %a, %m2 : (tensor<3x4x2xf32>, tensor<2x2xf32>) -> tensor<3x4x2xf32>
  %11 = graph.batch_norm %10, %one4, %zero4, %zero4, %one4 : (tensor<3x4x2xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<3x4x2xf32>
  return %1, %3, %4, %5, %7, %9, %11 : tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>, tensor<3x4x2xf32>
}

// STATS: GraphFoldBatchNorm
// STATS-NEXT: (S) 2 num-folded
// STATS: GraphFoldBatchNorm
// STATS-NEXT: (S) 1 num-folded
// STATS: GraphFoldBatchNorm
// STATS-NEXT: (S) 2 num-folded
// STATS: GraphFoldBatchNorm
// STATS-NEXT: (S) 3 num-folded
