// dataflow-fold-input-affine: a depthwise 1x1 layer that requantizes (a batch-norm and relu) folds
// into the 1x1 conv that alone reads it, as the conv's input_affine: per channel (weight, bias,
// multiplier, shift), then the clamp bounds. The node keeps both layers' graph ops, so inlining
// gives back the same graph (the diff): the reference semantics do not change.
// RUN: nc-opt --graph-to-dataflow --dataflow-fold-input-affine --dataflow-deps --mlir-pass-statistics %s 2>%t.stats | FileCheck %s
// RUN: FileCheck %s --check-prefix=STATS < %t.stats
// RUN: nc-opt --graph-to-dataflow --dataflow-fold-input-affine --dataflow-inline %s | nc-opt > %t.out
// RUN: nc-opt %s > %t.ref
// RUN: diff %t.ref %t.out

// STATS: DataflowFoldInputAffine
// STATS-NEXT: (S) 1 num-folded

// The stem's depthwise layer reads the network input (the host's): it stays. bn2 (conv2) feeds conv3
// alone and folds; bn3 (conv4) is read by a 3x3 conv, which does not take the fold.
// CHECK-LABEL: func.func @bn_relu
// CHECK: dataflow.node "conv1"{{.*}} kind = "conv"{{.*}} params = {{{.*}}group = 3
// CHECK: %[[POOL:[0-9]+]] = dataflow.node "pool1"
// CHECK-NOT: dataflow.node "conv2"
// CHECK: dataflow.node "conv3"(%[[POOL]]) {{.*}} kind = "conv", {{.*}}params = {clamp_max = 127 : i64, clamp_min = -128 : i64, input_affine = array<i64: 2, 1, 1073741824, 31, 3, -2, 1073741824, 32, 1, 0, 1073741824, 30, 0, 127>, {{.*}}weights = dense<1> : tensor<2x3x1x1xi8>}
// CHECK-NEXT: ^bb0(%[[A:[a-z0-9]+]]: tensor<1x3x4x4xi8>):
// CHECK:        graph.conv_integer %[[A]], %{{.*}} {group = 3
// CHECK:        %[[BN:[0-9]+]] = graph.requantize {{.*}}activation = "relu"
// CHECK:        graph.conv_integer %[[BN]], %{{.*}} :
// CHECK: dataflow.node "conv4"{{.*}}group = 2
// CHECK: dataflow.node "conv5"{{.*}}kernel = array<i64: 3, 3>
// CHECK-NOT: input_affine
func.func @bn_relu(%x: tensor<1x3x4x4xf32>) -> (tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>) {
  %s = graph.constant {value = dense<0.05> : tensor<f32>} : () -> tensor<f32>
  %z = graph.constant {value = dense<0> : tensor<i8>} : () -> tensor<i8>
  %q = graph.quantize_linear %x, %s, %z : (tensor<1x3x4x4xf32>, tensor<f32>, tensor<i8>) -> tensor<1x3x4x4xi8>
  %w1 = graph.constant {value = dense<[[[[1]]], [[[2]]], [[[1]]]]> : tensor<3x1x1x1xi8>} : () -> tensor<3x1x1x1xi8>
  %c1 = graph.conv_integer %q, %w1 {group = 3 : i64, kernel_shape = array<i64: 1, 1>} : (tensor<1x3x4x4xi8>, tensor<3x1x1x1xi8>) -> tensor<1x3x4x4xi32>
  %r1 = "graph.requantize"(%c1) {multiplier = array<i64: 1073741824>, shift = array<i64: 30>, axis = 1 : i64, output_zero_point = 0 : i64} : (tensor<1x3x4x4xi32>) -> tensor<1x3x4x4xi8>
  // a stand-in for the concat: a layer another node computes
  %r0 = graph.max_pool %r1 {kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x3x4x4xi8>) -> tensor<1x3x4x4xi8>
  // bn2: per channel weight, bias, multiplier, shift, then relu; read by conv4 alone
  %w2 = graph.constant {value = dense<[[[[2]]], [[[3]]], [[[1]]]]> : tensor<3x1x1x1xi8>} : () -> tensor<3x1x1x1xi8>
  %c2 = graph.conv_integer %r0, %w2 {group = 3 : i64, kernel_shape = array<i64: 1, 1>} : (tensor<1x3x4x4xi8>, tensor<3x1x1x1xi8>) -> tensor<1x3x4x4xi32>
  %b2 = graph.constant {value = dense<[1, -2, 0]> : tensor<3xi32>} : () -> tensor<3xi32>
  %r2 = "graph.requantize"(%c2, %b2) {multiplier = array<i64: 1073741824, 1073741824, 1073741824>, shift = array<i64: 31, 32, 30>, axis = 1 : i64, output_zero_point = 0 : i64, activation = "relu"} : (tensor<1x3x4x4xi32>, tensor<3xi32>) -> tensor<1x3x4x4xi8>
  %w4 = graph.constant {value = dense<1> : tensor<2x3x1x1xi8>} : () -> tensor<2x3x1x1xi8>
  %c4 = graph.conv_integer %r2, %w4 : (tensor<1x3x4x4xi8>, tensor<2x3x1x1xi8>) -> tensor<1x2x4x4xi32>
  %r4 = "graph.requantize"(%c4) {multiplier = array<i64: 1073741824>, shift = array<i64: 31>, axis = 1 : i64, output_zero_point = 0 : i64} : (tensor<1x2x4x4xi32>) -> tensor<1x2x4x4xi8>
  // bn3 (on conv4's output) is read by a 3x3 conv: it keeps its node
  %w5 = graph.constant {value = dense<2> : tensor<2x1x1x1xi8>} : () -> tensor<2x1x1x1xi8>
  %c5 = graph.conv_integer %r4, %w5 {group = 2 : i64, kernel_shape = array<i64: 1, 1>} : (tensor<1x2x4x4xi8>, tensor<2x1x1x1xi8>) -> tensor<1x2x4x4xi32>
  %r5 = "graph.requantize"(%c5) {multiplier = array<i64: 1073741824>, shift = array<i64: 31>, axis = 1 : i64, output_zero_point = 0 : i64, activation = "relu"} : (tensor<1x2x4x4xi32>) -> tensor<1x2x4x4xi8>
  %w6 = graph.constant {value = dense<1> : tensor<2x2x3x3xi8>} : () -> tensor<2x2x3x3xi8>
  %c6 = graph.conv_integer %r5, %w6 {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x2x4x4xi8>, tensor<2x2x3x3xi8>) -> tensor<1x2x4x4xi32>
  %r6 = "graph.requantize"(%c6) {multiplier = array<i64: 1073741824>, shift = array<i64: 33>, axis = 1 : i64, output_zero_point = 0 : i64} : (tensor<1x2x4x4xi32>) -> tensor<1x2x4x4xi8>
  %s2 = graph.constant {value = dense<0.1> : tensor<f32>} : () -> tensor<f32>
  %d4 = graph.dequantize_linear %r4, %s2 : (tensor<1x2x4x4xi8>, tensor<f32>) -> tensor<1x2x4x4xf32>
  %d6 = graph.dequantize_linear %r6, %s2 : (tensor<1x2x4x4xi8>, tensor<f32>) -> tensor<1x2x4x4xf32>
  return %d4, %d6 : tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>
}
