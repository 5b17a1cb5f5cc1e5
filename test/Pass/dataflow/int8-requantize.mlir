// The int8 graph of graph-quantize (docs/design/spine.md, section 1): each
// conv_integer and matmul_integer takes its requantize (with the int32
// bias and the fixed-point multipliers) into its node; a requantize whose
// bias is not a constant is an elementwise node of its own that reads the
// bias whole (it broadcasts along `axis`, not as numpy would).
// RUN: nc-opt --graph-to-dataflow --dataflow-deps %s | FileCheck %s
// RUN: nc-opt --graph-to-dataflow --dataflow-inline %s | nc-opt > %t.out
// RUN: nc-opt %s > %t.ref
// RUN: diff %t.ref %t.out

// The layers graph-to-dataflow records (`kind`, `params`): the conv takes
// the requantize's bias, multipliers, shifts and relu (clamp [0, 127]); the
// pool and the flatten (a copy) do not requantize; matmul1 saturates to
// int8 without relu, matmul2 keeps its int32 sums; the requantize with a
// bias input is an eltwise add that requantizes; the int8 add combines its
// inputs as they are.
// CHECK-LABEL: func.func @int8_cnn
// CHECK-SAME: attributes {dataflow.io = {inputs = [{argument = 0 : i64, bits = 8 : i64, name = "input0", scale = 0.05000000074505806 : f64, zero_point = 0 : i64}], outputs = [{bits = 8 : i64, name = "output0", result = 0 : i64, scale = 0.10000000149011612 : f64, zero_point = 0 : i64}]}}
// CHECK:      graph.quantize_linear
// CHECK:      dataflow.node "conv1"(%{{.*}}) {buffer_elements = array<i64: 12>, {{.*}} kind = "conv", macs = 288 : i64, params = {bias = dense<[5, -5]> : tensor<2xi32>, clamp_max = 127 : i64, clamp_min = 0 : i64, kernel = array<i64: 3, 3>, multiplier = array<i64: 1073741824, 1073741824>, pads = array<i64: 1, 1, 1, 1>, shift = array<i64: 36, 36>, weights = dense<3> : tensor<2x1x3x3xi8>}
// CHECK:        graph.conv_integer
// CHECK-NEXT:   graph.constant {value = dense<[5, -5]> : tensor<2xi32>}
// CHECK-NEXT:   graph.requantize {{.*}}activation = "relu"
// CHECK-NEXT:   dataflow.yield %{{.*}} : tensor<1x2x4x4xi8>
// CHECK:      dataflow.node "pool1"{{.*}} kind = "max_pool", macs = 0 : i64, params = {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>}, reads
// CHECK:      dataflow.node "flatten1"{{.*}} kind = "copy", macs = 0 : i64, reads
// CHECK:      dataflow.node "matmul1"(%{{.*}}) {buffer_elements = array<i64: 8>, {{.*}} kind = "matmul", macs = 24 : i64, params = {clamp_max = 127 : i64, clamp_min = -128 : i64, multiplier = array<i64: 1073741824>, shift = array<i64: 31>, weights = dense<1> : tensor<8x3xi8>}
// CHECK:        graph.matmul_integer
// CHECK-NEXT:   graph.requantize
// CHECK-NEXT:   dataflow.yield %{{.*}} : tensor<1x3xi8>
// CHECK:      dataflow.node "matmul2"{{.*}} kind = "matmul", macs = 24 : i64, params = {weights = dense<2> : tensor<8x3xi8>}, reads
// CHECK:        graph.matmul_integer
// CHECK-NEXT:   dataflow.yield %{{.*}} : tensor<1x3xi32>
// CHECK:      dataflow.node "elementwise1"(%{{.*}}, %arg1) {{.*}} kind = "eltwise", macs = 0 : i64, params = {clamp_max = 127 : i64, clamp_min = -128 : i64, multiplier = array<i64: 1073741824>, op = "add", shift = array<i64: 31>}, reads = [#dataflow.map<"{ S[] -> In0[i0] : 0 <= i0 <= 2 }">, #dataflow.map<"{ S[] -> In1[i0] : 0 <= i0 <= 2 }">]
// CHECK:      dataflow.node "add1"{{.*}} kind = "eltwise", macs = 0 : i64, params = {op = "add"}, reads
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
