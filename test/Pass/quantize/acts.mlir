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
