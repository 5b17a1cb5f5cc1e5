// Every graph op parses and verifies in its custom form and in the generic
// form, prints in the uniform custom syntax
//   graph.op %a, %b {attrs} : (operand types) -> result types
// and reads back its own output in both forms.
// RUN: nc-opt %s | FileCheck %s
// RUN: nc-opt %s | nc-opt | FileCheck %s
// RUN: nc-opt --mlir-print-op-generic %s | nc-opt | FileCheck %s
// RUN: nc-opt --mlir-print-op-generic %s | FileCheck %s --check-prefix=GENERIC

// CHECK-LABEL: func.func @cnn
func.func @cnn(%x: tensor<1x3x32x32xf32>) -> tensor<1x10xf32> {
  // CHECK: %[[W:.*]] = graph.constant {value = dense_resource<conv1.weight> : tensor<16x3x3x3xf32>} : () -> tensor<16x3x3x3xf32>
  // GENERIC: "graph.constant"() <{value = dense_resource<conv1.weight> : tensor<16x3x3x3xf32>}> : () -> tensor<16x3x3x3xf32>
  %w = graph.constant {value = dense_resource<conv1.weight> : tensor<16x3x3x3xf32>} : () -> tensor<16x3x3x3xf32>
  // CHECK: %[[B:.*]] = graph.constant {value = dense<1.000000e-01> : tensor<16xf32>} : () -> tensor<16xf32>
  %b = graph.constant {value = dense<0.1> : tensor<16xf32>} : () -> tensor<16xf32>
  // CHECK: %[[C:.*]] = graph.conv %arg0, %[[W]], %[[B]] {activation = "relu", pads = array<i64: 1, 1, 1, 1>} : (tensor<1x3x32x32xf32>, tensor<16x3x3x3xf32>, tensor<16xf32>) -> tensor<1x16x32x32xf32>
  // GENERIC: "graph.conv"(%arg0, %0, %1) <{activation = "relu", pads = array<i64: 1, 1, 1, 1>}> : (tensor<1x3x32x32xf32>, tensor<16x3x3x3xf32>, tensor<16xf32>) -> tensor<1x16x32x32xf32>
  %c = graph.conv %x, %w, %b {pads = array<i64: 1, 1, 1, 1>, activation = "relu"} : (tensor<1x3x32x32xf32>, tensor<16x3x3x3xf32>, tensor<16xf32>) -> tensor<1x16x32x32xf32>
  // CHECK: graph.max_pool %[[C]] {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x16x32x32xf32>) -> tensor<1x16x16x16xf32>
  %p = graph.max_pool %c {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x16x32x32xf32>) -> tensor<1x16x16x16xf32>
  // CHECK: graph.batch_norm
  // CHECK-SAME: {epsilon = 1.000000e-03 : f32} : (tensor<1x16x16x16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>) -> tensor<1x16x16x16xf32>
  %bn = graph.batch_norm %p, %b, %b, %b, %b {epsilon = 1.0e-3 : f32} : (tensor<1x16x16x16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>) -> tensor<1x16x16x16xf32>
  // CHECK: graph.global_avg_pool %{{.*}} : (tensor<1x16x16x16xf32>) -> tensor<1x16x1x1xf32>
  %g = graph.global_avg_pool %bn : (tensor<1x16x16x16xf32>) -> tensor<1x16x1x1xf32>
  // CHECK: graph.flatten %{{.*}} : (tensor<1x16x1x1xf32>) -> tensor<1x16xf32>
  %f = graph.flatten %g : (tensor<1x16x1x1xf32>) -> tensor<1x16xf32>
  %fw = graph.constant {value = dense<0.5> : tensor<10x16xf32>} : () -> tensor<10x16xf32>
  %fb = graph.constant {value = dense<0.0> : tensor<10xf32>} : () -> tensor<10xf32>
  // CHECK: graph.gemm %{{.*}}, %{{.*}}, %{{.*}} {trans_b = 1 : i64} : (tensor<1x16xf32>, tensor<10x16xf32>, tensor<10xf32>) -> tensor<1x10xf32>
  %y = graph.gemm %f, %fw, %fb {trans_b = 1 : i64} : (tensor<1x16xf32>, tensor<10x16xf32>, tensor<10xf32>) -> tensor<1x10xf32>
  // CHECK: graph.softmax %{{.*}} {axis = 1 : i64} : (tensor<1x10xf32>) -> tensor<1x10xf32>
  %s = graph.softmax %y {axis = 1 : i64} : (tensor<1x10xf32>) -> tensor<1x10xf32>
  // A weight with its blob in the file's resource section.
  // CHECK: graph.constant {value = dense_resource<scale2> : tensor<2xf32>} : () -> tensor<2xf32>
  %r = graph.constant {value = dense_resource<scale2> : tensor<2xf32>} : () -> tensor<2xf32>
  %m = graph.mul %s, %s : (tensor<1x10xf32>, tensor<1x10xf32>) -> tensor<1x10xf32>
  return %m : tensor<1x10xf32>
}

// CHECK-LABEL: func.func @layers
func.func @layers(%x: tensor<2x8x10x10xf32>, %w: tensor<8x2x3x3xf32>, %wt: tensor<8x4x3x3xf32>, %v: tensor<2x8x5xf32>, %w1: tensor<4x8x3xf32>) {
  // CHECK: graph.conv %arg0, %arg1 {auto_pad = "SAME_UPPER", dilations = array<i64: 2, 2>, group = 4 : i64, strides = array<i64: 2, 2>} : (tensor<2x8x10x10xf32>, tensor<8x2x3x3xf32>) -> tensor<2x8x5x5xf32>
  %0 = graph.conv %x, %w {auto_pad = "SAME_UPPER", group = 4 : i64, strides = array<i64: 2, 2>, dilations = array<i64: 2, 2>} : (tensor<2x8x10x10xf32>, tensor<8x2x3x3xf32>) -> tensor<2x8x5x5xf32>
  // CHECK: graph.conv %arg3, %arg4 {kernel_shape = array<i64: 3>} : (tensor<2x8x5xf32>, tensor<4x8x3xf32>) -> tensor<2x4x3xf32>
  %1 = graph.conv %v, %w1 {kernel_shape = array<i64: 3>} : (tensor<2x8x5xf32>, tensor<4x8x3xf32>) -> tensor<2x4x3xf32>
  // CHECK: graph.conv_transpose %arg0, %arg2 {activation = "leaky_relu", activation_alpha = 2.000000e-01 : f32, output_padding = array<i64: 1, 1>, strides = array<i64: 2, 2>} : (tensor<2x8x10x10xf32>, tensor<8x4x3x3xf32>) -> tensor<2x4x22x22xf32>
  %2 = graph.conv_transpose %x, %wt {strides = array<i64: 2, 2>, output_padding = array<i64: 1, 1>, activation = "leaky_relu", activation_alpha = 0.2 : f32} : (tensor<2x8x10x10xf32>, tensor<8x4x3x3xf32>) -> tensor<2x4x22x22xf32>
  // CHECK: graph.avg_pool %arg0 {ceil_mode = 1 : i64, count_include_pad = 1 : i64, kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : (tensor<2x8x10x10xf32>) -> tensor<2x8x6x6xf32>
  %3 = graph.avg_pool %x {kernel_shape = array<i64: 3, 3>, strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>, ceil_mode = 1 : i64, count_include_pad = 1 : i64} : (tensor<2x8x10x10xf32>) -> tensor<2x8x6x6xf32>
  // CHECK: graph.max_pool %arg0 {dilations = array<i64: 2, 2>, kernel_shape = array<i64: 2, 2>, storage_order = 0 : i64} : (tensor<2x8x10x10xf32>) -> tensor<2x8x8x8xf32>
  %4 = graph.max_pool %x {kernel_shape = array<i64: 2, 2>, dilations = array<i64: 2, 2>, storage_order = 0 : i64} : (tensor<2x8x10x10xf32>) -> tensor<2x8x8x8xf32>
  // CHECK: graph.global_max_pool %arg0 : (tensor<2x8x10x10xf32>) -> tensor<2x8x1x1xf32>
  %5 = graph.global_max_pool %x : (tensor<2x8x10x10xf32>) -> tensor<2x8x1x1xf32>
  // CHECK: graph.lrn %arg0 {alpha = 1.000000e-04 : f32, beta = 7.500000e-01 : f32, bias = 2.000000e+00 : f32, size = 5 : i64} : (tensor<2x8x10x10xf32>) -> tensor<2x8x10x10xf32>
  %6 = graph.lrn %x {size = 5 : i64, alpha = 1.0e-4 : f32, beta = 0.75 : f32, bias = 2.0 : f32} : (tensor<2x8x10x10xf32>) -> tensor<2x8x10x10xf32>
  %s = graph.constant {value = dense<1.0> : tensor<8xf32>} : () -> tensor<8xf32>
  // CHECK: graph.instance_norm %arg0, %{{.*}}, %{{.*}} : (tensor<2x8x10x10xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<2x8x10x10xf32>
  %7 = graph.instance_norm %x, %s, %s : (tensor<2x8x10x10xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<2x8x10x10xf32>
  return
}

// CHECK-LABEL: func.func @products
func.func @products(%a: tensor<3x4xf32>, %b: tensor<4x5xf32>, %ba: tensor<2x1x3x4xf32>, %bb: tensor<7x4x5xf32>, %v: tensor<4xf32>, %i: tensor<3x4xi32>, %j: tensor<4x5xi32>) {
  // CHECK: graph.matmul %arg0, %arg1 : (tensor<3x4xf32>, tensor<4x5xf32>) -> tensor<3x5xf32>
  %0 = graph.matmul %a, %b : (tensor<3x4xf32>, tensor<4x5xf32>) -> tensor<3x5xf32>
  // CHECK: graph.matmul %arg2, %arg3 : (tensor<2x1x3x4xf32>, tensor<7x4x5xf32>) -> tensor<2x7x3x5xf32>
  %1 = graph.matmul %ba, %bb : (tensor<2x1x3x4xf32>, tensor<7x4x5xf32>) -> tensor<2x7x3x5xf32>
  // CHECK: graph.matmul %arg4, %arg1 : (tensor<4xf32>, tensor<4x5xf32>) -> tensor<5xf32>
  %2 = graph.matmul %v, %b : (tensor<4xf32>, tensor<4x5xf32>) -> tensor<5xf32>
  // CHECK: graph.matmul %arg0, %arg4 {activation = "clip", activation_max = 6.000000e+00 : f32, activation_min = 0.000000e+00 : f32} : (tensor<3x4xf32>, tensor<4xf32>) -> tensor<3xf32>
  %3 = graph.matmul %a, %v {activation = "clip", activation_min = 0.0 : f32, activation_max = 6.0 : f32} : (tensor<3x4xf32>, tensor<4xf32>) -> tensor<3xf32>
  // CHECK: graph.matmul %arg5, %arg6 : (tensor<3x4xi32>, tensor<4x5xi32>) -> tensor<3x5xi32>
  %4 = graph.matmul %i, %j : (tensor<3x4xi32>, tensor<4x5xi32>) -> tensor<3x5xi32>
  // CHECK: graph.gemm %arg1, %arg0 {alpha = 5.000000e-01 : f32, beta = 2.000000e+00 : f32, trans_a = 1 : i64, trans_b = 1 : i64} : (tensor<4x5xf32>, tensor<3x4xf32>) -> tensor<5x3xf32>
  %5 = graph.gemm %b, %a {alpha = 0.5 : f32, beta = 2.0 : f32, trans_a = 1 : i64, trans_b = 1 : i64} : (tensor<4x5xf32>, tensor<3x4xf32>) -> tensor<5x3xf32>
  return
}

// CHECK-LABEL: func.func @elementwise
func.func @elementwise(%a: tensor<2x3xf32>, %b: tensor<3xf32>, %c: tensor<2x1xf32>, %i: tensor<4xi8>, %e: tensor<i32>) {
  // CHECK: graph.add %arg0, %arg1 : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %0 = graph.add %a, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  // CHECK: graph.add %arg1, %arg2 {activation = "sigmoid"} : (tensor<3xf32>, tensor<2x1xf32>) -> tensor<2x3xf32>
  %1 = graph.add %b, %c {activation = "sigmoid"} : (tensor<3xf32>, tensor<2x1xf32>) -> tensor<2x3xf32>
  // CHECK: graph.sub %arg2, %arg0 : (tensor<2x1xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %2 = graph.sub %c, %a : (tensor<2x1xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: graph.mul %arg3, %arg3 : (tensor<4xi8>, tensor<4xi8>) -> tensor<4xi8>
  %3 = graph.mul %i, %i : (tensor<4xi8>, tensor<4xi8>) -> tensor<4xi8>
  // CHECK: graph.div %arg0, %arg2 : (tensor<2x3xf32>, tensor<2x1xf32>) -> tensor<2x3xf32>
  %4 = graph.div %a, %c : (tensor<2x3xf32>, tensor<2x1xf32>) -> tensor<2x3xf32>
  // CHECK: graph.pow %arg0, %arg4 : (tensor<2x3xf32>, tensor<i32>) -> tensor<2x3xf32>
  %5 = graph.pow %a, %e : (tensor<2x3xf32>, tensor<i32>) -> tensor<2x3xf32>
  // CHECK: graph.max %arg0, %arg1, %arg2 : (tensor<2x3xf32>, tensor<3xf32>, tensor<2x1xf32>) -> tensor<2x3xf32>
  %6 = graph.max %a, %b, %c : (tensor<2x3xf32>, tensor<3xf32>, tensor<2x1xf32>) -> tensor<2x3xf32>
  // CHECK: graph.min %arg1, %arg2 : (tensor<3xf32>, tensor<2x1xf32>) -> tensor<2x3xf32>
  %7 = graph.min %b, %c : (tensor<3xf32>, tensor<2x1xf32>) -> tensor<2x3xf32>
  // CHECK: graph.sum %arg0 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %8 = graph.sum %a : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: graph.mean %arg0, %arg0 : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %9 = graph.mean %a, %a : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: graph.sqrt %arg0 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: graph.exp %arg0 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: graph.neg %arg3 : (tensor<4xi8>) -> tensor<4xi8>
  // CHECK: graph.abs %arg3 : (tensor<4xi8>) -> tensor<4xi8>
  // CHECK: graph.log %arg0 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: graph.reciprocal %arg0 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: graph.relu %arg3 : (tensor<4xi8>) -> tensor<4xi8>
  // CHECK: graph.sigmoid %arg0 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: graph.tanh %arg0 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: graph.softplus %arg0 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: graph.softsign %arg0 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %10 = graph.sqrt %a : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %11 = graph.exp %a : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %12 = graph.neg %i : (tensor<4xi8>) -> tensor<4xi8>
  %13 = graph.abs %i : (tensor<4xi8>) -> tensor<4xi8>
  %14 = graph.log %a : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %15 = graph.reciprocal %a : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %16 = graph.relu %i : (tensor<4xi8>) -> tensor<4xi8>
  %17 = graph.sigmoid %a : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %18 = graph.tanh %a : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %19 = graph.softplus %a : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %20 = graph.softsign %a : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: graph.leaky_relu %arg0 {alpha = 1.000000e-01 : f32} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %21 = graph.leaky_relu %a {alpha = 0.1 : f32} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: graph.prelu %arg0, %arg1 : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %22 = graph.prelu %a, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  // CHECK: graph.elu %arg0 {alpha = 5.000000e-01 : f32} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %23 = graph.elu %a {alpha = 0.5 : f32} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: graph.selu %arg0 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %24 = graph.selu %a : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: graph.clip %arg0 {max = 6.000000e+00 : f32, min = 0.000000e+00 : f32} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %25 = graph.clip %a {min = 0.0 : f32, max = 6.0 : f32} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: graph.clip %arg3 {min = -3 : i64} : (tensor<4xi8>) -> tensor<4xi8>
  %26 = graph.clip %i {min = -3 : i64} : (tensor<4xi8>) -> tensor<4xi8>
  // CHECK: graph.log_softmax %arg0 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %27 = graph.log_softmax %a : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: graph.identity %arg0 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %28 = graph.identity %a : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: graph.cast %arg0 : (tensor<2x3xf32>) -> tensor<2x3xi8>
  %29 = graph.cast %a : (tensor<2x3xf32>) -> tensor<2x3xi8>
  // CHECK: graph.cast %arg3 {saturate = 0 : i64} : (tensor<4xi8>) -> tensor<4xi1>
  %30 = graph.cast %i {saturate = 0 : i64} : (tensor<4xi8>) -> tensor<4xi1>
  return
}

// CHECK-LABEL: func.func @reductions
func.func @reductions(%x: tensor<2x3x4xf32>) {
  // CHECK: graph.reduce_mean %arg0 {axes = array<i64: 1>} : (tensor<2x3x4xf32>) -> tensor<2x1x4xf32>
  %0 = graph.reduce_mean %x {axes = array<i64: 1>} : (tensor<2x3x4xf32>) -> tensor<2x1x4xf32>
  // CHECK: graph.reduce_sum %arg0 {axes = array<i64: -1, 0>, keepdims = 0 : i64} : (tensor<2x3x4xf32>) -> tensor<3xf32>
  %1 = graph.reduce_sum %x {axes = array<i64: -1, 0>, keepdims = 0 : i64} : (tensor<2x3x4xf32>) -> tensor<3xf32>
  // CHECK: graph.reduce_max %arg0 {keepdims = 0 : i64} : (tensor<2x3x4xf32>) -> tensor<f32>
  %2 = graph.reduce_max %x {keepdims = 0 : i64} : (tensor<2x3x4xf32>) -> tensor<f32>
  // CHECK: graph.reduce_min %arg0 {noop_with_empty_axes = 1 : i64} : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  %3 = graph.reduce_min %x {noop_with_empty_axes = 1 : i64} : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  return
}

// CHECK-LABEL: func.func @data_movement
func.func @data_movement(%x: tensor<2x3x4xf32>, %y: tensor<2x5x4xf32>, %one: tensor<1x3x1xi8>) {
  // CHECK: graph.concat %arg0, %arg1, %arg0 {axis = -2 : i64} : (tensor<2x3x4xf32>, tensor<2x5x4xf32>, tensor<2x3x4xf32>) -> tensor<2x11x4xf32>
  %0 = graph.concat %x, %y, %x {axis = -2 : i64} : (tensor<2x3x4xf32>, tensor<2x5x4xf32>, tensor<2x3x4xf32>) -> tensor<2x11x4xf32>
  // CHECK: %{{.*}}:2 = graph.split %arg1 {axis = 1 : i64, split = array<i64: 2, 3>} : (tensor<2x5x4xf32>) -> (tensor<2x2x4xf32>, tensor<2x3x4xf32>)
  %1:2 = graph.split %y {axis = 1 : i64, split = array<i64: 2, 3>} : (tensor<2x5x4xf32>) -> (tensor<2x2x4xf32>, tensor<2x3x4xf32>)
  // CHECK: %{{.*}}:3 = graph.split %arg1 {axis = 1 : i64} : (tensor<2x5x4xf32>) -> (tensor<2x2x4xf32>, tensor<2x2x4xf32>, tensor<2x1x4xf32>)
  %2:3 = graph.split %y {axis = 1 : i64} : (tensor<2x5x4xf32>) -> (tensor<2x2x4xf32>, tensor<2x2x4xf32>, tensor<2x1x4xf32>)
  // CHECK: graph.slice %arg1 {axes = array<i64: 1, 2>, ends = array<i64: 9223372036854775807, 0>, starts = array<i64: 1, -1>, steps = array<i64: 2, -1>} : (tensor<2x5x4xf32>) -> tensor<2x2x3xf32>
  %3 = graph.slice %y {starts = array<i64: 1, -1>, ends = array<i64: 9223372036854775807, 0>, axes = array<i64: 1, 2>, steps = array<i64: 2, -1>} : (tensor<2x5x4xf32>) -> tensor<2x2x3xf32>
  // CHECK: graph.reshape %arg0 {shape = array<i64: 0, -1>} : (tensor<2x3x4xf32>) -> tensor<2x12xf32>
  %4 = graph.reshape %x {shape = array<i64: 0, -1>} : (tensor<2x3x4xf32>) -> tensor<2x12xf32>
  // CHECK: graph.reshape %arg0 {allowzero = 1 : i64, shape = array<i64: 24>} : (tensor<2x3x4xf32>) -> tensor<24xf32>
  %5 = graph.reshape %x {shape = array<i64: 24>, allowzero = 1 : i64} : (tensor<2x3x4xf32>) -> tensor<24xf32>
  // CHECK: graph.flatten %arg0 {axis = 0 : i64} : (tensor<2x3x4xf32>) -> tensor<1x24xf32>
  %6 = graph.flatten %x {axis = 0 : i64} : (tensor<2x3x4xf32>) -> tensor<1x24xf32>
  // CHECK: graph.squeeze %arg2 : (tensor<1x3x1xi8>) -> tensor<3xi8>
  %7 = graph.squeeze %one : (tensor<1x3x1xi8>) -> tensor<3xi8>
  // CHECK: graph.squeeze %arg2 {axes = array<i64: -1>} : (tensor<1x3x1xi8>) -> tensor<1x3xi8>
  %8 = graph.squeeze %one {axes = array<i64: -1>} : (tensor<1x3x1xi8>) -> tensor<1x3xi8>
  // CHECK: graph.unsqueeze %arg0 {axes = array<i64: 0, -1>} : (tensor<2x3x4xf32>) -> tensor<1x2x3x4x1xf32>
  %9 = graph.unsqueeze %x {axes = array<i64: 0, -1>} : (tensor<2x3x4xf32>) -> tensor<1x2x3x4x1xf32>
  // CHECK: graph.transpose %arg0 {perm = array<i64: 0, 2, 1>} : (tensor<2x3x4xf32>) -> tensor<2x4x3xf32>
  %10 = graph.transpose %x {perm = array<i64: 0, 2, 1>} : (tensor<2x3x4xf32>) -> tensor<2x4x3xf32>
  // CHECK: graph.transpose %arg0 : (tensor<2x3x4xf32>) -> tensor<4x3x2xf32>
  %11 = graph.transpose %x : (tensor<2x3x4xf32>) -> tensor<4x3x2xf32>
  // CHECK: graph.pad %arg0 {mode = "reflect", pads = array<i64: 0, 1, 2, 0, 1, -1>} : (tensor<2x3x4xf32>) -> tensor<2x5x5xf32>
  %12 = graph.pad %x {pads = array<i64: 0, 1, 2, 0, 1, -1>, mode = "reflect"} : (tensor<2x3x4xf32>) -> tensor<2x5x5xf32>
  // CHECK: graph.pad %arg2 {pads = array<i64: 1, 0, 0, 0, 0, 2>, value = -1.000000e+00 : f32} : (tensor<1x3x1xi8>) -> tensor<2x3x3xi8>
  %13 = graph.pad %one {pads = array<i64: 1, 0, 0, 0, 0, 2>, value = -1.0 : f32} : (tensor<1x3x1xi8>) -> tensor<2x3x3xi8>
  return
}

// CHECK-LABEL: func.func @quantized
func.func @quantized(%x: tensor<1x4x6x6xf32>, %xq: tensor<1x4x6x6xui8>, %wq: tensor<8x4x3x3xi8>, %a: tensor<3x4xi8>, %b: tensor<4x5xui8>) {
  %s = graph.constant {value = dense<0.05> : tensor<f32>} : () -> tensor<f32>
  %zu = graph.constant {value = dense<128> : tensor<ui8>} : () -> tensor<ui8>
  %zi = graph.constant {value = dense<0> : tensor<i8>} : () -> tensor<i8>
  %sc = graph.constant {value = dense<0.1> : tensor<4xf32>} : () -> tensor<4xf32>
  %z4 = graph.constant {value = dense<1> : tensor<4xi4>} : () -> tensor<4xi4>
  %ws = graph.constant {value = dense<0.02> : tensor<8xf32>} : () -> tensor<8xf32>
  %bias = graph.constant {value = dense<7> : tensor<8xi32>} : () -> tensor<8xi32>
  // CHECK: graph.quantize_linear %arg0, %{{.*}}, %{{.*}} : (tensor<1x4x6x6xf32>, tensor<f32>, tensor<ui8>) -> tensor<1x4x6x6xui8>
  %0 = graph.quantize_linear %x, %s, %zu : (tensor<1x4x6x6xf32>, tensor<f32>, tensor<ui8>) -> tensor<1x4x6x6xui8>
  // CHECK: graph.quantize_linear %arg0, %{{.*}} {axis = 1 : i64, saturate = 1 : i64} : (tensor<1x4x6x6xf32>, tensor<4xf32>) -> tensor<1x4x6x6xi8>
  %1 = graph.quantize_linear %x, %sc {axis = 1 : i64, saturate = 1 : i64} : (tensor<1x4x6x6xf32>, tensor<4xf32>) -> tensor<1x4x6x6xi8>
  // CHECK: graph.quantize_linear %arg0, %{{.*}}, %{{.*}} : (tensor<1x4x6x6xf32>, tensor<4xf32>, tensor<4xi4>) -> tensor<1x4x6x6xi4>
  %2 = graph.quantize_linear %x, %sc, %z4 : (tensor<1x4x6x6xf32>, tensor<4xf32>, tensor<4xi4>) -> tensor<1x4x6x6xi4>
  // CHECK: graph.dequantize_linear %arg1, %{{.*}}, %{{.*}} : (tensor<1x4x6x6xui8>, tensor<f32>, tensor<ui8>) -> tensor<1x4x6x6xf32>
  %3 = graph.dequantize_linear %xq, %s, %zu : (tensor<1x4x6x6xui8>, tensor<f32>, tensor<ui8>) -> tensor<1x4x6x6xf32>
  // CHECK: graph.dequantize_linear %{{.*}}, %{{.*}} {axis = -3 : i64} : (tensor<1x4x6x6xi4>, tensor<4xf32>) -> tensor<1x4x6x6xf32>
  %4 = graph.dequantize_linear %2, %sc {axis = -3 : i64} : (tensor<1x4x6x6xi4>, tensor<4xf32>) -> tensor<1x4x6x6xf32>
  // CHECK: graph.qlinear_conv %arg1, %{{.*}}, %{{.*}}, %arg2, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x4x6x6xui8>, tensor<f32>, tensor<ui8>, tensor<8x4x3x3xi8>, tensor<8xf32>, tensor<i8>, tensor<f32>, tensor<i8>, tensor<8xi32>) -> tensor<1x8x6x6xi8>
  %5 = graph.qlinear_conv %xq, %s, %zu, %wq, %ws, %zi, %s, %zi, %bias {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x4x6x6xui8>, tensor<f32>, tensor<ui8>, tensor<8x4x3x3xi8>, tensor<8xf32>, tensor<i8>, tensor<f32>, tensor<i8>, tensor<8xi32>) -> tensor<1x8x6x6xi8>
  // CHECK: graph.qlinear_matmul %arg3, %{{.*}}, %{{.*}}, %arg4, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : (tensor<3x4xi8>, tensor<f32>, tensor<i8>, tensor<4x5xui8>, tensor<f32>, tensor<ui8>, tensor<f32>, tensor<ui8>) -> tensor<3x5xui8>
  %6 = graph.qlinear_matmul %a, %s, %zi, %b, %s, %zu, %s, %zu : (tensor<3x4xi8>, tensor<f32>, tensor<i8>, tensor<4x5xui8>, tensor<f32>, tensor<ui8>, tensor<f32>, tensor<ui8>) -> tensor<3x5xui8>
  // CHECK: graph.conv_integer %arg1, %arg2 : (tensor<1x4x6x6xui8>, tensor<8x4x3x3xi8>) -> tensor<1x8x4x4xi32>
  %7 = graph.conv_integer %xq, %wq : (tensor<1x4x6x6xui8>, tensor<8x4x3x3xi8>) -> tensor<1x8x4x4xi32>
  // CHECK: graph.conv_integer %arg1, %arg2, %{{.*}} {strides = array<i64: 2, 2>} : (tensor<1x4x6x6xui8>, tensor<8x4x3x3xi8>, tensor<ui8>) -> tensor<1x8x2x2xi32>
  %8 = graph.conv_integer %xq, %wq, %zu {strides = array<i64: 2, 2>} : (tensor<1x4x6x6xui8>, tensor<8x4x3x3xi8>, tensor<ui8>) -> tensor<1x8x2x2xi32>
  // CHECK: graph.conv_integer %arg1, %arg2, %{{.*}}, %{{.*}} : (tensor<1x4x6x6xui8>, tensor<8x4x3x3xi8>, tensor<ui8>, tensor<i8>) -> tensor<1x8x4x4xi32>
  %9 = graph.conv_integer %xq, %wq, %zu, %zi : (tensor<1x4x6x6xui8>, tensor<8x4x3x3xi8>, tensor<ui8>, tensor<i8>) -> tensor<1x8x4x4xi32>
  // CHECK: graph.matmul_integer %arg3, %arg4 : (tensor<3x4xi8>, tensor<4x5xui8>) -> tensor<3x5xi32>
  %10 = graph.matmul_integer %a, %b : (tensor<3x4xi8>, tensor<4x5xui8>) -> tensor<3x5xi32>
  // CHECK: graph.matmul_integer %arg3, %arg4, %{{.*}}, %{{.*}} : (tensor<3x4xi8>, tensor<4x5xui8>, tensor<i8>, tensor<ui8>) -> tensor<3x5xi32>
  %11 = graph.matmul_integer %a, %b, %zi, %zu : (tensor<3x4xi8>, tensor<4x5xui8>, tensor<i8>, tensor<ui8>) -> tensor<3x5xi32>
  return
}

// The generic form, with inherent attributes as properties.
// CHECK-LABEL: func.func @generic
// GENERIC-LABEL: sym_name = "generic"
func.func @generic(%x: tensor<1x2x4x4xf32>, %w: tensor<3x2x1x1xf32>) -> tensor<1x3x2x2xf32> {
  // CHECK: graph.conv %arg0, %arg1 {strides = array<i64: 2, 2>} : (tensor<1x2x4x4xf32>, tensor<3x2x1x1xf32>) -> tensor<1x3x2x2xf32>
  // GENERIC: "graph.conv"(%arg0, %arg1) <{strides = array<i64: 2, 2>}> : (tensor<1x2x4x4xf32>, tensor<3x2x1x1xf32>) -> tensor<1x3x2x2xf32>
  %0 = "graph.conv"(%x, %w) <{strides = array<i64: 2, 2>}> : (tensor<1x2x4x4xf32>, tensor<3x2x1x1xf32>) -> tensor<1x3x2x2xf32>
  // CHECK: graph.leaky_relu %{{.*}} {alpha = 2.000000e-01 : f32} : (tensor<1x3x2x2xf32>) -> tensor<1x3x2x2xf32>
  // GENERIC: "graph.leaky_relu"(%{{.*}}) <{alpha = 2.000000e-01 : f32}> : (tensor<1x3x2x2xf32>) -> tensor<1x3x2x2xf32>
  %1 = "graph.leaky_relu"(%0) {alpha = 0.2 : f32} : (tensor<1x3x2x2xf32>) -> tensor<1x3x2x2xf32>
  // A discardable attribute stays in the attribute dictionary.
  // CHECK: graph.relu %{{.*}} {tag = "x"} : (tensor<1x3x2x2xf32>) -> tensor<1x3x2x2xf32>
  // GENERIC: "graph.relu"(%{{.*}}) {tag = "x"} : (tensor<1x3x2x2xf32>) -> tensor<1x3x2x2xf32>
  %2 = "graph.relu"(%1) {tag = "x"} : (tensor<1x3x2x2xf32>) -> tensor<1x3x2x2xf32>
  // CHECK: %{{.*}}:2 = graph.split %{{.*}} {axis = 1 : i64, split = array<i64: 1, 2>} : (tensor<1x3x2x2xf32>) -> (tensor<1x1x2x2xf32>, tensor<1x2x2x2xf32>)
  // GENERIC: "graph.split"(%{{.*}}) <{axis = 1 : i64, split = array<i64: 1, 2>}> : (tensor<1x3x2x2xf32>) -> (tensor<1x1x2x2xf32>, tensor<1x2x2x2xf32>)
  %3:2 = "graph.split"(%2) <{axis = 1 : i64, split = array<i64: 1, 2>}> : (tensor<1x3x2x2xf32>) -> (tensor<1x1x2x2xf32>, tensor<1x2x2x2xf32>)
  // CHECK: graph.concat %{{.*}}#1, %{{.*}}#0 {axis = 1 : i64}
  %4 = "graph.concat"(%3#1, %3#0) <{axis = 1 : i64}> : (tensor<1x2x2x2xf32>, tensor<1x1x2x2xf32>) -> tensor<1x3x2x2xf32>
  return %4 : tensor<1x3x2x2xf32>
}

// CHECK: dialect_resources
// CHECK: scale2: "0x040000000000803F00000040"
{-#
  dialect_resources: {
    builtin: {
      scale2: "0x040000000000803F00000040"
    }
  }
#-}
