// graph-quantize on concat, channel-broadcast mul and activations
// (graph_quantize_acts.c). Calibration: conv.npy, max |x| = 127/128, so
// s_x = 1/128; a conv of weight 2 gives max |y| = 127/64, s_y = 1/64.
// RUN: %python %S/Inputs/calibration.py %t
// RUN: nc-opt --split-input-file --verify-diagnostics --graph-quantize=calibration=%t/conv.npy %s | FileCheck %s

// Concat of x (s = 1/128) and 2x (s = 1/64): the concat's calibrated scale is
// 1/64, so x is rescaled by 1/2 (2^30 / 2^31) and 2x copied (2^30 / 2^30).
// CHECK-LABEL: func.func @concat_scales
// CHECK: %[[X:.*]] = graph.quantize_linear %arg0
// CHECK: %[[Y:.*]] = graph.requantize
// CHECK: graph.concat_integer %[[X]], %[[Y]] {axis = 1 : i64, multiplier = array<i64: 1073741824, 1073741824>, output_zero_point = 0 : i64, shift = array<i64: 31, 30>} : (tensor<1x1x1x2xi8>, tensor<1x1x1x2xi8>) -> tensor<1x2x1x2xi8>
// CHECK-NOT: graph.concat {{.*}}f32
func.func @concat_scales(%x: tensor<1x1x1x2xf32>) -> tensor<1x2x1x2xf32> {
  %w = graph.constant {value = dense<2.0> : tensor<1x1x1x1xf32>} : () -> tensor<1x1x1x1xf32>
  %0 = graph.conv %x, %w {pads = array<i64: 0, 0, 0, 0>} : (tensor<1x1x1x2xf32>, tensor<1x1x1x1xf32>) -> tensor<1x1x1x2xf32>
  %1 = graph.concat %x, %0 {axis = 1 : i64} : (tensor<1x1x1x2xf32>, tensor<1x1x1x2xf32>) -> tensor<1x2x1x2xf32>
  return %1 : tensor<1x2x1x2xf32>
}

// -----

// A [1, 1, 1, 1] gate (the channel's max, s = 1/128) scaling x (s = 1/128):
// max |x * g| = (127/128)^2, so s_y = 127/128^2 and the product's rescale is
// (1/128)^2 / s_y = 1/127.
// CHECK-LABEL: func.func @mul_channel_gate
// CHECK: %[[X:.*]] = graph.quantize_linear %arg0
// CHECK: %[[G:.*]] = graph.global_max_pool %[[X]]
// CHECK: graph.mul_integer %[[X]], %[[G]] {multiplier = 1082196484 : i64, output_zero_point = 0 : i64, shift = 37 : i64} : (tensor<1x1x1x2xi8>, tensor<1x1x1x1xi8>) -> tensor<1x1x1x2xi8>
func.func @mul_channel_gate(%x: tensor<1x1x1x2xf32>) -> tensor<1x1x1x2xf32> {
  %g = graph.global_max_pool %x : (tensor<1x1x1x2xf32>) -> tensor<1x1x1x1xf32>
  %0 = graph.mul %g, %x : (tensor<1x1x1x1xf32>, tensor<1x1x1x2xf32>) -> tensor<1x1x1x2xf32>
  return %0 : tensor<1x1x1x2xf32>
}

// -----

// A sigmoid fused into the conv leaves it: the conv requantizes to its own
// scale 1/64 and the sigmoid is a 256-entry table from s = 1/64 to the
// calibrated s = sigmoid(127/64) / 127: entry 0 is sigmoid(-2) / s = 17.2
// -> 17, entry 255 is exactly 127.
// CHECK-LABEL: func.func @sigmoid_fused
// CHECK: %[[Y:.*]] = graph.requantize %{{.*}} {axis = 1 : i64, multiplier = array<i64: 1082196484>, output_zero_point = 0 : i64, shift = array<i64: 37>}
// CHECK-NEXT: graph.lut_integer %[[Y]] {table = array<i64: 17, {{([0-9]+, ){254}1}}27>} : (tensor<1x1x1x2xi8>) -> tensor<1x1x1x2xi8>
func.func @sigmoid_fused(%x: tensor<1x1x1x2xf32>) -> tensor<1x1x1x2xf32> {
  %w = graph.constant {value = dense<2.0> : tensor<1x1x1x1xf32>} : () -> tensor<1x1x1x1xf32>
  %0 = graph.conv %x, %w {activation = "sigmoid", pads = array<i64: 0, 0, 0, 0>} : (tensor<1x1x1x2xf32>, tensor<1x1x1x1xf32>) -> tensor<1x1x1x2xf32>
  return %0 : tensor<1x1x1x2xf32>
}

// -----

// x * sigmoid(x) (SiLU) is one table; its sigmoid is not quantized on its
// own. clip(x * hard_sigmoid(x), 0, 0.5) (hard swish at opset 13, then a
// clip) is a function of the SiLU's result only: one table, 0 for the 129
// inputs <= 0 (the clip), then hard swish (whose calibrated max, below 0.5,
// is the output scale).
// CHECK-LABEL: func.func @patterns
// CHECK: %[[X:.*]] = graph.quantize_linear %arg0
// CHECK-NEXT: %[[S:.*]] = graph.lut_integer %[[X]]
// CHECK-NEXT: graph.lut_integer %[[S]] {table = array<i64: {{(0, ){129}1}}, 2, 2, 3, {{([0-9]+, ){121}1}}26, 127>}
// CHECK-NOT: graph.sigmoid
// CHECK-NOT: graph.hard_sigmoid
// CHECK-NOT: graph.mul
// CHECK-NOT: graph.clip
func.func @patterns(%x: tensor<1x1x1x2xf32>) -> tensor<1x1x1x2xf32> {
  %s = graph.sigmoid %x : (tensor<1x1x1x2xf32>) -> tensor<1x1x1x2xf32>
  %0 = graph.mul %x, %s : (tensor<1x1x1x2xf32>, tensor<1x1x1x2xf32>) -> tensor<1x1x1x2xf32>
  %h = graph.hard_sigmoid %0 {alpha = 0.16666667 : f32} : (tensor<1x1x1x2xf32>) -> tensor<1x1x1x2xf32>
  %1 = graph.mul %h, %0 : (tensor<1x1x1x2xf32>, tensor<1x1x1x2xf32>) -> tensor<1x1x1x2xf32>
  %2 = graph.clip %1 {min = 0.0 : f32, max = 0.5 : f32} : (tensor<1x1x1x2xf32>) -> tensor<1x1x1x2xf32>
  return %2 : tensor<1x1x1x2xf32>
}

// -----

func.func @mul_no_broadcast(%x: tensor<1x1x1x2xf32>) -> tensor<1x1x2x2xf32> {
  %t = graph.transpose %x {perm = array<i64: 0, 1, 3, 2>} : (tensor<1x1x1x2xf32>) -> tensor<1x1x2x1xf32>
  // expected-error@+1 {{graph-quantize cannot quantize 'graph.mul' of two activations unless one broadcasts to the other's shape}}
  %0 = graph.mul %x, %t : (tensor<1x1x1x2xf32>, tensor<1x1x2x1xf32>) -> tensor<1x1x2x2xf32>
  return %0 : tensor<1x1x2x2xf32>
}

// -----

// GELU as torch exports it at opset 13, x / sqrt(2) -> erf -> + 1 -> * x ->
// * 0.5, and a scalar scale 3 * x after a relu (which stays a pass-through):
// one table each (GELU(0) = 0 at entry 128; 3 * x at its own calibrated scale
// is the identity).
// CHECK-LABEL: func.func @gelu
// CHECK: %[[X:.*]] = graph.quantize_linear %arg0
// CHECK-NEXT: %[[G:.*]] = graph.lut_integer %[[X]] {table = array<i64: {{(-?[0-9]+, ){128}0}}, {{([0-9]+, ){126}1}}27>}
// CHECK-NEXT: %[[R:.*]] = graph.relu %[[G]]
// CHECK-NEXT: graph.lut_integer %[[R]] {table = array<i64: -128, {{(-?[0-9]+, ){254}1}}27>}
// CHECK-NOT: graph.erf
// CHECK-NOT: graph.div
// CHECK-NOT: graph.mul
func.func @gelu(%x: tensor<1x1x1x2xf32>) -> tensor<1x1x1x2xf32> {
  %r2 = graph.constant {value = dense<1.41421354> : tensor<f32>} : () -> tensor<f32>
  %one = graph.constant {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
  %half = graph.constant {value = dense<0.5> : tensor<f32>} : () -> tensor<f32>
  %three = graph.constant {value = dense<3.0> : tensor<f32>} : () -> tensor<f32>
  %0 = graph.div %x, %r2 : (tensor<1x1x1x2xf32>, tensor<f32>) -> tensor<1x1x1x2xf32>
  %1 = graph.erf %0 : (tensor<1x1x1x2xf32>) -> tensor<1x1x1x2xf32>
  %2 = graph.add %1, %one : (tensor<1x1x1x2xf32>, tensor<f32>) -> tensor<1x1x1x2xf32>
  %3 = graph.mul %x, %2 : (tensor<1x1x1x2xf32>, tensor<1x1x1x2xf32>) -> tensor<1x1x1x2xf32>
  %4 = graph.mul %3, %half : (tensor<1x1x1x2xf32>, tensor<f32>) -> tensor<1x1x1x2xf32>
  %5 = graph.relu %4 : (tensor<1x1x1x2xf32>) -> tensor<1x1x1x2xf32>
  %6 = graph.mul %three, %5 : (tensor<f32>, tensor<1x1x1x2xf32>) -> tensor<1x1x1x2xf32>
  return %6 : tensor<1x1x1x2xf32>
}

// -----

// A concat of 33 inputs (more than a dataflow layer's 32) becomes a tree: a
// concat of the first 32 rescaled to the output scale, the last input alone,
// and a root that copies the first (2^30 / 2^30) and rescales the last.
// CHECK-LABEL: func.func @concat_tree
// CHECK: %[[C:.*]] = graph.concat_integer {{(%[0-9]+, ){31}%[0-9]+}} {axis = 1 : i64
// CHECK-SAME: -> tensor<1x32x1x2xi8>
// CHECK-NEXT: graph.concat_integer %[[C]], %{{[0-9]+}} {axis = 1 : i64, multiplier = array<i64: 1073741824, {{[0-9]+}}>, output_zero_point = 0 : i64, shift = array<i64: 30, {{[0-9]+}}>} : (tensor<1x32x1x2xi8>, tensor<1x1x1x2xi8>) -> tensor<1x33x1x2xi8>
func.func @concat_tree(%x: tensor<1x1x1x2xf32>) -> tensor<1x33x1x2xf32> {
  %w0 = graph.constant {value = dense<1.0> : tensor<1x1x1x1xf32>} : () -> tensor<1x1x1x1xf32>
  %c0 = graph.conv %x, %w0 {pads = array<i64: 0, 0, 0, 0>} : (tensor<1x1x1x2xf32>, tensor<1x1x1x1xf32>) -> tensor<1x1x1x2xf32>
  %w1 = graph.constant {value = dense<2.0> : tensor<1x1x1x1xf32>} : () -> tensor<1x1x1x1xf32>
  %c1 = graph.conv %x, %w1 {pads = array<i64: 0, 0, 0, 0>} : (tensor<1x1x1x2xf32>, tensor<1x1x1x1xf32>) -> tensor<1x1x1x2xf32>
  %w2 = graph.constant {value = dense<3.0> : tensor<1x1x1x1xf32>} : () -> tensor<1x1x1x1xf32>
  %c2 = graph.conv %x, %w2 {pads = array<i64: 0, 0, 0, 0>} : (tensor<1x1x1x2xf32>, tensor<1x1x1x1xf32>) -> tensor<1x1x1x2xf32>
  %w3 = graph.constant {value = dense<4.0> : tensor<1x1x1x1xf32>} : () -> tensor<1x1x1x1xf32>
  %c3 = graph.conv %x, %w3 {pads = array<i64: 0, 0, 0, 0>} : (tensor<1x1x1x2xf32>, tensor<1x1x1x1xf32>) -> tensor<1x1x1x2xf32>
  %w4 = graph.constant {value = dense<1.0> : tensor<1x1x1x1xf32>} : () -> tensor<1x1x1x1xf32>
  %c4 = graph.conv %x, %w4 {pads = array<i64: 0, 0, 0, 0>} : (tensor<1x1x1x2xf32>, tensor<1x1x1x1xf32>) -> tensor<1x1x1x2xf32>
  %w5 = graph.constant {value = dense<2.0> : tensor<1x1x1x1xf32>} : () -> tensor<1x1x1x1xf32>
  %c5 = graph.conv %x, %w5 {pads = array<i64: 0, 0, 0, 0>} : (tensor<1x1x1x2xf32>, tensor<1x1x1x1xf32>) -> tensor<1x1x1x2xf32>
  %w6 = graph.constant {value = dense<3.0> : tensor<1x1x1x1xf32>} : () -> tensor<1x1x1x1xf32>
  %c6 = graph.conv %x, %w6 {pads = array<i64: 0, 0, 0, 0>} : (tensor<1x1x1x2xf32>, tensor<1x1x1x1xf32>) -> tensor<1x1x1x2xf32>
  %w7 = graph.constant {value = dense<4.0> : tensor<1x1x1x1xf32>} : () -> tensor<1x1x1x1xf32>
  %c7 = graph.conv %x, %w7 {pads = array<i64: 0, 0, 0, 0>} : (tensor<1x1x1x2xf32>, tensor<1x1x1x1xf32>) -> tensor<1x1x1x2xf32>
  %w8 = graph.constant {value = dense<1.0> : tensor<1x1x1x1xf32>} : () -> tensor<1x1x1x1xf32>
  %c8 = graph.conv %x, %w8 {pads = array<i64: 0, 0, 0, 0>} : (tensor<1x1x1x2xf32>, tensor<1x1x1x1xf32>) -> tensor<1x1x1x2xf32>
  %w9 = graph.constant {value = dense<2.0> : tensor<1x1x1x1xf32>} : () -> tensor<1x1x1x1xf32>
  %c9 = graph.conv %x, %w9 {pads = array<i64: 0, 0, 0, 0>} : (tensor<1x1x1x2xf32>, tensor<1x1x1x1xf32>) -> tensor<1x1x1x2xf32>
  %w10 = graph.constant {value = dense<3.0> : tensor<1x1x1x1xf32>} : () -> tensor<1x1x1x1xf32>
  %c10 = graph.conv %x, %w10 {pads = array<i64: 0, 0, 0, 0>} : (tensor<1x1x1x2xf32>, tensor<1x1x1x1xf32>) -> tensor<1x1x1x2xf32>
  %w11 = graph.constant {value = dense<4.0> : tensor<1x1x1x1xf32>} : () -> tensor<1x1x1x1xf32>
  %c11 = graph.conv %x, %w11 {pads = array<i64: 0, 0, 0, 0>} : (tensor<1x1x1x2xf32>, tensor<1x1x1x1xf32>) -> tensor<1x1x1x2xf32>
  %w12 = graph.constant {value = dense<1.0> : tensor<1x1x1x1xf32>} : () -> tensor<1x1x1x1xf32>
  %c12 = graph.conv %x, %w12 {pads = array<i64: 0, 0, 0, 0>} : (tensor<1x1x1x2xf32>, tensor<1x1x1x1xf32>) -> tensor<1x1x1x2xf32>
  %w13 = graph.constant {value = dense<2.0> : tensor<1x1x1x1xf32>} : () -> tensor<1x1x1x1xf32>
  %c13 = graph.conv %x, %w13 {pads = array<i64: 0, 0, 0, 0>} : (tensor<1x1x1x2xf32>, tensor<1x1x1x1xf32>) -> tensor<1x1x1x2xf32>
  %w14 = graph.constant {value = dense<3.0> : tensor<1x1x1x1xf32>} : () -> tensor<1x1x1x1xf32>
  %c14 = graph.conv %x, %w14 {pads = array<i64: 0, 0, 0, 0>} : (tensor<1x1x1x2xf32>, tensor<1x1x1x1xf32>) -> tensor<1x1x1x2xf32>
  %w15 = graph.constant {value = dense<4.0> : tensor<1x1x1x1xf32>} : () -> tensor<1x1x1x1xf32>
  %c15 = graph.conv %x, %w15 {pads = array<i64: 0, 0, 0, 0>} : (tensor<1x1x1x2xf32>, tensor<1x1x1x1xf32>) -> tensor<1x1x1x2xf32>
  %w16 = graph.constant {value = dense<1.0> : tensor<1x1x1x1xf32>} : () -> tensor<1x1x1x1xf32>
  %c16 = graph.conv %x, %w16 {pads = array<i64: 0, 0, 0, 0>} : (tensor<1x1x1x2xf32>, tensor<1x1x1x1xf32>) -> tensor<1x1x1x2xf32>
  %w17 = graph.constant {value = dense<2.0> : tensor<1x1x1x1xf32>} : () -> tensor<1x1x1x1xf32>
  %c17 = graph.conv %x, %w17 {pads = array<i64: 0, 0, 0, 0>} : (tensor<1x1x1x2xf32>, tensor<1x1x1x1xf32>) -> tensor<1x1x1x2xf32>
  %w18 = graph.constant {value = dense<3.0> : tensor<1x1x1x1xf32>} : () -> tensor<1x1x1x1xf32>
  %c18 = graph.conv %x, %w18 {pads = array<i64: 0, 0, 0, 0>} : (tensor<1x1x1x2xf32>, tensor<1x1x1x1xf32>) -> tensor<1x1x1x2xf32>
  %w19 = graph.constant {value = dense<4.0> : tensor<1x1x1x1xf32>} : () -> tensor<1x1x1x1xf32>
  %c19 = graph.conv %x, %w19 {pads = array<i64: 0, 0, 0, 0>} : (tensor<1x1x1x2xf32>, tensor<1x1x1x1xf32>) -> tensor<1x1x1x2xf32>
  %w20 = graph.constant {value = dense<1.0> : tensor<1x1x1x1xf32>} : () -> tensor<1x1x1x1xf32>
  %c20 = graph.conv %x, %w20 {pads = array<i64: 0, 0, 0, 0>} : (tensor<1x1x1x2xf32>, tensor<1x1x1x1xf32>) -> tensor<1x1x1x2xf32>
  %w21 = graph.constant {value = dense<2.0> : tensor<1x1x1x1xf32>} : () -> tensor<1x1x1x1xf32>
  %c21 = graph.conv %x, %w21 {pads = array<i64: 0, 0, 0, 0>} : (tensor<1x1x1x2xf32>, tensor<1x1x1x1xf32>) -> tensor<1x1x1x2xf32>
  %w22 = graph.constant {value = dense<3.0> : tensor<1x1x1x1xf32>} : () -> tensor<1x1x1x1xf32>
  %c22 = graph.conv %x, %w22 {pads = array<i64: 0, 0, 0, 0>} : (tensor<1x1x1x2xf32>, tensor<1x1x1x1xf32>) -> tensor<1x1x1x2xf32>
  %w23 = graph.constant {value = dense<4.0> : tensor<1x1x1x1xf32>} : () -> tensor<1x1x1x1xf32>
  %c23 = graph.conv %x, %w23 {pads = array<i64: 0, 0, 0, 0>} : (tensor<1x1x1x2xf32>, tensor<1x1x1x1xf32>) -> tensor<1x1x1x2xf32>
  %w24 = graph.constant {value = dense<1.0> : tensor<1x1x1x1xf32>} : () -> tensor<1x1x1x1xf32>
  %c24 = graph.conv %x, %w24 {pads = array<i64: 0, 0, 0, 0>} : (tensor<1x1x1x2xf32>, tensor<1x1x1x1xf32>) -> tensor<1x1x1x2xf32>
  %w25 = graph.constant {value = dense<2.0> : tensor<1x1x1x1xf32>} : () -> tensor<1x1x1x1xf32>
  %c25 = graph.conv %x, %w25 {pads = array<i64: 0, 0, 0, 0>} : (tensor<1x1x1x2xf32>, tensor<1x1x1x1xf32>) -> tensor<1x1x1x2xf32>
  %w26 = graph.constant {value = dense<3.0> : tensor<1x1x1x1xf32>} : () -> tensor<1x1x1x1xf32>
  %c26 = graph.conv %x, %w26 {pads = array<i64: 0, 0, 0, 0>} : (tensor<1x1x1x2xf32>, tensor<1x1x1x1xf32>) -> tensor<1x1x1x2xf32>
  %w27 = graph.constant {value = dense<4.0> : tensor<1x1x1x1xf32>} : () -> tensor<1x1x1x1xf32>
  %c27 = graph.conv %x, %w27 {pads = array<i64: 0, 0, 0, 0>} : (tensor<1x1x1x2xf32>, tensor<1x1x1x1xf32>) -> tensor<1x1x1x2xf32>
  %w28 = graph.constant {value = dense<1.0> : tensor<1x1x1x1xf32>} : () -> tensor<1x1x1x1xf32>
  %c28 = graph.conv %x, %w28 {pads = array<i64: 0, 0, 0, 0>} : (tensor<1x1x1x2xf32>, tensor<1x1x1x1xf32>) -> tensor<1x1x1x2xf32>
  %w29 = graph.constant {value = dense<2.0> : tensor<1x1x1x1xf32>} : () -> tensor<1x1x1x1xf32>
  %c29 = graph.conv %x, %w29 {pads = array<i64: 0, 0, 0, 0>} : (tensor<1x1x1x2xf32>, tensor<1x1x1x1xf32>) -> tensor<1x1x1x2xf32>
  %w30 = graph.constant {value = dense<3.0> : tensor<1x1x1x1xf32>} : () -> tensor<1x1x1x1xf32>
  %c30 = graph.conv %x, %w30 {pads = array<i64: 0, 0, 0, 0>} : (tensor<1x1x1x2xf32>, tensor<1x1x1x1xf32>) -> tensor<1x1x1x2xf32>
  %w31 = graph.constant {value = dense<4.0> : tensor<1x1x1x1xf32>} : () -> tensor<1x1x1x1xf32>
  %c31 = graph.conv %x, %w31 {pads = array<i64: 0, 0, 0, 0>} : (tensor<1x1x1x2xf32>, tensor<1x1x1x1xf32>) -> tensor<1x1x1x2xf32>
  %w32 = graph.constant {value = dense<1.0> : tensor<1x1x1x1xf32>} : () -> tensor<1x1x1x1xf32>
  %c32 = graph.conv %x, %w32 {pads = array<i64: 0, 0, 0, 0>} : (tensor<1x1x1x2xf32>, tensor<1x1x1x1xf32>) -> tensor<1x1x1x2xf32>
  %y = graph.concat %c0, %c1, %c2, %c3, %c4, %c5, %c6, %c7, %c8, %c9, %c10, %c11, %c12, %c13, %c14, %c15, %c16, %c17, %c18, %c19, %c20, %c21, %c22, %c23, %c24, %c25, %c26, %c27, %c28, %c29, %c30, %c31, %c32 {axis = 1 : i64} : (tensor<1x1x1x2xf32>, tensor<1x1x1x2xf32>, tensor<1x1x1x2xf32>, tensor<1x1x1x2xf32>, tensor<1x1x1x2xf32>, tensor<1x1x1x2xf32>, tensor<1x1x1x2xf32>, tensor<1x1x1x2xf32>, tensor<1x1x1x2xf32>, tensor<1x1x1x2xf32>, tensor<1x1x1x2xf32>, tensor<1x1x1x2xf32>, tensor<1x1x1x2xf32>, tensor<1x1x1x2xf32>, tensor<1x1x1x2xf32>, tensor<1x1x1x2xf32>, tensor<1x1x1x2xf32>, tensor<1x1x1x2xf32>, tensor<1x1x1x2xf32>, tensor<1x1x1x2xf32>, tensor<1x1x1x2xf32>, tensor<1x1x1x2xf32>, tensor<1x1x1x2xf32>, tensor<1x1x1x2xf32>, tensor<1x1x1x2xf32>, tensor<1x1x1x2xf32>, tensor<1x1x1x2xf32>, tensor<1x1x1x2xf32>, tensor<1x1x1x2xf32>, tensor<1x1x1x2xf32>, tensor<1x1x1x2xf32>, tensor<1x1x1x2xf32>, tensor<1x1x1x2xf32>) -> tensor<1x33x1x2xf32>
  return %y : tensor<1x33x1x2xf32>
}
