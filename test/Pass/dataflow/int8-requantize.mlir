// The int8 graph of graph-quantize (docs/design/spine.md, section 1): each
// conv_integer and matmul_integer takes its requantize (with the int32
// bias and the fixed-point multipliers) into its node; a requantize whose
// bias is not a constant is an elementwise node of its own that reads the
// bias whole (it broadcasts along `axis`, not as numpy would).
// RUN: nc-opt --graph-to-dataflow --dataflow-deps %s | FileCheck %s
// RUN: nc-opt --graph-to-dataflow --dataflow-inline %s | nc-opt > %t.out
// RUN: nc-opt %s > %t.ref
// RUN: diff %t.ref %t.out

// CHECK-LABEL: func.func @int8_cnn
// CHECK:      graph.quantize_linear
// CHECK:      dataflow.node "conv1"(%{{.*}}) {buffer_elements = array<i64: 12>, {{.*}} kind = "conv", macs = 288 : i64
// CHECK:        graph.conv_integer
// CHECK-NEXT:   graph.constant {value = dense<[5, -5]> : tensor<2xi32>}
// CHECK-NEXT:   graph.requantize {{.*}}activation = "relu"
// CHECK-NEXT:   dataflow.yield %{{.*}} : tensor<1x2x4x4xi8>
// CHECK:      dataflow.node "pool1"
// CHECK:      dataflow.node "flatten1"
// CHECK:      dataflow.node "matmul1"(%{{.*}}) {buffer_elements = array<i64: 8>, {{.*}} kind = "matmul", macs = 24 : i64
// CHECK:        graph.matmul_integer
// CHECK-NEXT:   graph.requantize
// CHECK-NEXT:   dataflow.yield %{{.*}} : tensor<1x3xi8>
// CHECK:      dataflow.node "matmul2"
// CHECK:        graph.matmul_integer
// CHECK-NEXT:   dataflow.yield %{{.*}} : tensor<1x3xi32>
// CHECK:      dataflow.node "elementwise1"(%{{.*}}, %arg1) {{.*}}reads = [#dataflow.map<"{ S[] -> In0[i0] : 0 <= i0 <= 2 }">, #dataflow.map<"{ S[] -> In1[i0] : 0 <= i0 <= 2 }">]
// CHECK:      dataflow.node "add1"
// CHECK:      graph.dequantize_linear
func.func @int8_cnn(%x: tensor<1x1x4x4xf32>, %bias: tensor<3xi32>) -> tensor<1x3xf32> {
  %s = graph.constant {value = dense<0.05> : tensor<f32>} : () -> tensor<f32>
  %z = graph.constant {value = dense<0> : tensor<i8>} : () -> tensor<i8>
  %q = graph.quantize_linear %x, %s, %z : (tensor<1x1x4x4xf32>, tensor<f32>, tensor<i8>) -> tensor<1x1x4x4xi8>
  %w = graph.constant {value = dense<3> : tensor<2x1x3x3xi8>} : () -> tensor<2x1x3x3xi8>
  %c = graph.conv_integer %q, %w {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x1x4x4xi8>, tensor<2x1x3x3xi8>) -> tensor<1x2x4x4xi32>
  %b = graph.constant {value = dense<[5, -5]> : tensor<2xi32>} : () -> tensor<2xi32>
  %r = "graph.requantize"(%c, %b) {multiplier = array<i64: 1073741824, 1073741824>, shift = array<i64: 36, 36>, axis = 1 : i64, output_zero_point = 0 : i64, activation = "relu"} : (tensor<1x2x4x4xi32>, tensor<2xi32>) -> tensor<1x2x4x4xi8>
  %p = graph.max_pool %r {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x2x4x4xi8>) -> tensor<1x2x2x2xi8>
  %f = graph.flatten %p : (tensor<1x2x2x2xi8>) -> tensor<1x8xi8>
  %v = graph.constant {value = dense<1> : tensor<8x3xi8>} : () -> tensor<8x3xi8>
  %m = graph.matmul_integer %f, %v : (tensor<1x8xi8>, tensor<8x3xi8>) -> tensor<1x3xi32>
  %r2 = "graph.requantize"(%m) {multiplier = array<i64: 1073741824>, shift = array<i64: 31>, axis = 1 : i64, output_zero_point = 0 : i64} : (tensor<1x3xi32>) -> tensor<1x3xi8>
  %v2 = graph.constant {value = dense<2> : tensor<8x3xi8>} : () -> tensor<8x3xi8>
  %m2 = graph.matmul_integer %f, %v2 : (tensor<1x8xi8>, tensor<8x3xi8>) -> tensor<1x3xi32>
  %e = "graph.requantize"(%m2, %bias) {multiplier = array<i64: 1073741824>, shift = array<i64: 31>, axis = 1 : i64, output_zero_point = 0 : i64} : (tensor<1x3xi32>, tensor<3xi32>) -> tensor<1x3xi8>
  %sum = graph.add %r2, %e : (tensor<1x3xi8>, tensor<1x3xi8>) -> tensor<1x3xi8>
  %s2 = graph.constant {value = dense<0.1> : tensor<f32>} : () -> tensor<f32>
  %d = graph.dequantize_linear %sum, %s2 : (tensor<1x3xi8>, tensor<f32>) -> tensor<1x3xf32>
  return %d : tensor<1x3xf32>
}
