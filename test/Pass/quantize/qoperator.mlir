// graph-qoperator-to-qdq: QLinearConv / QLinearMatMul become
// DequantizeLinear -> conv / matmul -> QuantizeLinear with the op's own
// scales; the int32 bias dequantizes at x_scale * w_scale (per channel), a
// scalar zero zero point beside per-channel scales is dropped, and conv's
// attributes carry over. Ops with non-constant scales stay. A layer's
// weight DequantizeLinear folds into an f32 constant that keeps the model's
// scales (nc.weight_scale / nc.weight_axis / nc.weight_qmax).
// RUN: nc-opt --graph-qoperator-to-qdq %s | FileCheck %s

// CHECK-LABEL: func.func @conv
func.func @conv(%x: tensor<1x1x4x4xi8>) -> tensor<1x2x2x2xi8> {
  %xs = graph.constant {value = dense<0.5> : tensor<f32>} : () -> tensor<f32>
  %z = graph.constant {value = dense<0> : tensor<i8>} : () -> tensor<i8>
  %w = graph.constant {value = dense<1> : tensor<2x1x3x3xi8>} : () -> tensor<2x1x3x3xi8>
  %ws = graph.constant {value = dense<[0.25, 0.125]> : tensor<2xf32>} : () -> tensor<2xf32>
  %ys = graph.constant {value = dense<2.0> : tensor<f32>} : () -> tensor<f32>
  %b = graph.constant {value = dense<[3, -4]> : tensor<2xi32>} : () -> tensor<2xi32>
  // CHECK-DAG: %[[BS:.*]] = graph.constant {value = dense<[1.250000e-01, 6.250000e-02]> : tensor<2xf32>}
  // CHECK-DAG: %[[WD:.*]] = graph.constant {nc.weight_axis = 0 : i64, nc.weight_qmax = 127 : i64, nc.weight_scale = dense<[2.500000e-01, 1.250000e-01]> : tensor<2xf32>, value = dense_resource<weight> : tensor<2x1x3x3xf32>}
  // CHECK: %[[XD:.*]] = graph.dequantize_linear %arg0, %{{.*}}, %{{.*}} : (tensor<1x1x4x4xi8>, tensor<f32>, tensor<i8>) -> tensor<1x1x4x4xf32>
  // CHECK: %[[BD:.*]] = graph.dequantize_linear %{{.*}}, %[[BS]] {axis = 0 : i64} : (tensor<2xi32>, tensor<2xf32>) -> tensor<2xf32>
  // CHECK: %[[C:.*]] = graph.conv %[[XD]], %[[WD]], %[[BD]] {{{.*}}pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} {{.*}} -> tensor<1x2x2x2xf32>
  // CHECK: %[[Q:.*]] = graph.quantize_linear %[[C]], %{{.*}}, %{{.*}} : (tensor<1x2x2x2xf32>, tensor<f32>, tensor<i8>) -> tensor<1x2x2x2xi8>
  // CHECK: return %[[Q]]
  %y = graph.qlinear_conv %x, %xs, %z, %w, %ws, %z, %ys, %z, %b {pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x1x4x4xi8>, tensor<f32>, tensor<i8>, tensor<2x1x3x3xi8>, tensor<2xf32>, tensor<i8>, tensor<f32>, tensor<i8>, tensor<2xi32>) -> tensor<1x2x2x2xi8>
  return %y : tensor<1x2x2x2xi8>
}

// CHECK-LABEL: func.func @matmul
func.func @matmul(%a: tensor<1x3xi8>) -> tensor<1x2xi8> {
  %s = graph.constant {value = dense<0.5> : tensor<f32>} : () -> tensor<f32>
  %z = graph.constant {value = dense<0> : tensor<i8>} : () -> tensor<i8>
  %b = graph.constant {value = dense<1> : tensor<3x2xi8>} : () -> tensor<3x2xi8>
  %bs = graph.constant {value = dense<[0.25, 0.125]> : tensor<2xf32>} : () -> tensor<2xf32>
  // CHECK: %[[B:.*]] = graph.constant {nc.weight_axis = 1 : i64, nc.weight_qmax = 127 : i64, nc.weight_scale = dense<[2.500000e-01, 1.250000e-01]> : tensor<2xf32>, value = dense<{{\[}}[2.500000e-01, 1.250000e-01], [2.500000e-01, 1.250000e-01], [2.500000e-01, 1.250000e-01]]> : tensor<3x2xf32>}
  // CHECK: graph.dequantize_linear %arg0
  // CHECK: graph.matmul %{{.*}}, %[[B]] : {{.*}} -> tensor<1x2xf32>
  // CHECK: graph.quantize_linear {{.*}} -> tensor<1x2xi8>
  %y = graph.qlinear_matmul %a, %s, %z, %b, %bs, %z, %s, %z : (tensor<1x3xi8>, tensor<f32>, tensor<i8>, tensor<3x2xi8>, tensor<2xf32>, tensor<i8>, tensor<f32>, tensor<i8>) -> tensor<1x2xi8>
  return %y : tensor<1x2xi8>
}

// CHECK-LABEL: func.func @dynamic_scale
func.func @dynamic_scale(%a: tensor<1x3xi8>, %s: tensor<f32>) -> tensor<1x2xi8> {
  %z = graph.constant {value = dense<0> : tensor<i8>} : () -> tensor<i8>
  %b = graph.constant {value = dense<1> : tensor<3x2xi8>} : () -> tensor<3x2xi8>
  // CHECK: graph.qlinear_matmul
  %y = graph.qlinear_matmul %a, %s, %z, %b, %s, %z, %s, %z : (tensor<1x3xi8>, tensor<f32>, tensor<i8>, tensor<3x2xi8>, tensor<f32>, tensor<i8>, tensor<f32>, tensor<i8>) -> tensor<1x2xi8>
  return %y : tensor<1x2xi8>
}

// Brevitas: QuantizeLinear to int8 then Clip to the int4 ([-8, 7] or the
// narrow [-7, 7]) or int2 range is one QuantizeLinear to i4 / i2; the
// DequantizeLinear reads the narrow codes with a narrow zero point.
// CHECK-LABEL: func.func @brevitas_act
func.func @brevitas_act(%x: tensor<1x2xf32>) -> tensor<1x2xf32> {
  %s = graph.constant {value = dense<0.5> : tensor<f32>} : () -> tensor<f32>
  %z = graph.constant {value = dense<0> : tensor<i8>} : () -> tensor<i8>
  // CHECK: %[[Z:.*]] = graph.constant {value = dense<0> : tensor<i4>}
  // CHECK: %[[Q:.*]] = graph.quantize_linear %arg0, %{{.*}}, %[[Z]] : (tensor<1x2xf32>, tensor<f32>, tensor<i4>) -> tensor<1x2xi4>
  // CHECK-NOT: graph.clip
  // CHECK: graph.dequantize_linear %[[Q]], %{{.*}}, %{{.*}} : (tensor<1x2xi4>, tensor<f32>, tensor<i4>) -> tensor<1x2xf32>
  %0 = graph.quantize_linear %x, %s, %z : (tensor<1x2xf32>, tensor<f32>, tensor<i8>) -> tensor<1x2xi8>
  %1 = graph.clip %0 {min = -8 : i64, max = 7 : i64} : (tensor<1x2xi8>) -> tensor<1x2xi8>
  %2 = graph.dequantize_linear %1, %s, %z : (tensor<1x2xi8>, tensor<f32>, tensor<i8>) -> tensor<1x2xf32>
  return %2 : tensor<1x2xf32>
}

// CHECK-LABEL: func.func @brevitas_int2
func.func @brevitas_int2(%x: tensor<1x2xf32>) -> tensor<1x2xf32> {
  %s = graph.constant {value = dense<0.5> : tensor<f32>} : () -> tensor<f32>
  // CHECK: graph.quantize_linear %arg0, %{{.*}} : (tensor<1x2xf32>, tensor<f32>) -> tensor<1x2xi2>
  %0 = graph.quantize_linear %x, %s : (tensor<1x2xf32>, tensor<f32>) -> tensor<1x2xi8>
  %1 = graph.clip %0 {min = -1 : i64, max = 1 : i64} : (tensor<1x2xi8>) -> tensor<1x2xi8>
  %2 = graph.dequantize_linear %1, %s : (tensor<1x2xi8>, tensor<f32>) -> tensor<1x2xf32>
  return %2 : tensor<1x2xf32>
}

// A clip to another range (or of something else) is the model's own op.
// CHECK-LABEL: func.func @other_clip
func.func @other_clip(%x: tensor<1x2xf32>) -> tensor<1x2xf32> {
  %s = graph.constant {value = dense<0.5> : tensor<f32>} : () -> tensor<f32>
  // CHECK: graph.clip
  %0 = graph.quantize_linear %x, %s : (tensor<1x2xf32>, tensor<f32>) -> tensor<1x2xi8>
  %1 = graph.clip %0 {min = -20 : i64, max = 15 : i64} : (tensor<1x2xi8>) -> tensor<1x2xi8>
  %2 = graph.dequantize_linear %1, %s : (tensor<1x2xi8>, tensor<f32>) -> tensor<1x2xf32>
  return %2 : tensor<1x2xf32>
}

// Brevitas's weights: float constants quantized in the graph (then clipped
// to [-7, 7]) fold into the f32 weights with the model's scales and the
// int4 code range (nc.weight_qmax = 7).
// CHECK-LABEL: func.func @brevitas_weights
// CHECK: graph.constant {nc.weight_axis = -1 : i64, nc.weight_qmax = 7 : i64, nc.weight_scale = dense<[2.500000e-01]> : tensor<1xf32>, value = dense<{{\[}}[5.000000e-01, -1.750000e+00]]> : tensor<1x2xf32>}
func.func @brevitas_weights(%x: tensor<1x1xf32>) -> tensor<1x2xf32> {
  %s = graph.constant {value = dense<0.25> : tensor<f32>} : () -> tensor<f32>
  %w = graph.constant {value = dense<[[0.5, -3.0]]> : tensor<1x2xf32>} : () -> tensor<1x2xf32>
  %0 = graph.quantize_linear %w, %s : (tensor<1x2xf32>, tensor<f32>) -> tensor<1x2xi8>
  %1 = graph.clip %0 {min = -7 : i64, max = 7 : i64} : (tensor<1x2xi8>) -> tensor<1x2xi8>
  %2 = graph.dequantize_linear %1, %s : (tensor<1x2xi8>, tensor<f32>) -> tensor<1x2xf32>
  %3 = graph.matmul %x, %2 : (tensor<1x1xf32>, tensor<1x2xf32>) -> tensor<1x2xf32>
  return %3 : tensor<1x2xf32>
}
