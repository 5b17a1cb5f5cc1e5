// A fused clip(0, max) (relu6) becomes the requantize's relu: the output
// scale is calibrated after the clip, so the bound lies at or beyond int8
// saturation (conv.mlir's conv and scales: max y = 127/64 < 6 gives the same
// multipliers and shifts). A bound inside the int8 range (all-zero results:
// s_y = 1, and 6 is 6 steps) becomes clamp_max = 6, exactly: rounding is
// monotone, so round(clip(y, lo, hi) / s) = clamp(round(y / s), round(lo / s),
// round(hi / s)). A clip with other bounds (hardtanh-like) stays fused too:
// its bounds inside the range become clamp_min / clamp_max, no table.
// RUN: %python %S/Inputs/calibration.py %t
// RUN: nc-opt --split-input-file --verify-diagnostics --graph-quantize=calibration=%t/conv.npy %s | FileCheck %s

// CHECK-LABEL: func.func @relu6
// CHECK: graph.requantize %{{.*}}, %{{.*}} {activation = "relu", axis = 1 : i64, multiplier = array<i64: 1082196484, 1082196484>, output_zero_point = 0 : i64, shift = array<i64: 37, 39>}
func.func @relu6(%x: tensor<1x1x1x2xf32>) -> tensor<1x2x1x2xf32> {
  %w = graph.constant {value = dense<[[[[2.0]]], [[[-0.5]]]]> : tensor<2x1x1x1xf32>} : () -> tensor<2x1x1x1xf32>
  %b = graph.constant {value = dense<[0.0, -0.125]> : tensor<2xf32>} : () -> tensor<2xf32>
  %0 = graph.conv %x, %w, %b {activation = "clip", activation_min = 0.0 : f32, activation_max = 6.0 : f32, pads = array<i64: 0, 0, 0, 0>} : (tensor<1x1x1x2xf32>, tensor<2x1x1x1xf32>, tensor<2xf32>) -> tensor<1x2x1x2xf32>
  return %0 : tensor<1x2x1x2xf32>
}

// -----

// CHECK-LABEL: func.func @bound_inside
// CHECK: graph.requantize %{{.*}} {activation = "relu", axis = 1 : i64, clamp_max = 6 : i64,
func.func @bound_inside(%x: tensor<1x1x1x2xf32>) -> tensor<1x2x1x2xf32> {
  %w = graph.constant {value = dense<0.0> : tensor<2x1x1x1xf32>} : () -> tensor<2x1x1x1xf32>
  %0 = graph.conv %x, %w {activation = "clip", activation_min = 0.0 : f32, activation_max = 6.0 : f32, pads = array<i64: 0, 0, 0, 0>} : (tensor<1x1x1x2xf32>, tensor<2x1x1x1xf32>) -> tensor<1x2x1x2xf32>
  return %0 : tensor<1x2x1x2xf32>
}

// -----

// clip(-0.5, 0.25): the clipped range is 0.5 (the second channel reaches
// -0.5), s_y = 0.5 / 127: -0.5 is -127 steps (inside [-128, 127]: a bound),
// 0.25 is 63.5 steps, 64 rounded half to even.
// CHECK-LABEL: func.func @hardtanh
// CHECK-NOT: lut_integer
// CHECK: graph.requantize %{{.*}}, %{{.*}} {axis = 1 : i64, clamp_max = 64 : i64, clamp_min = -127 : i64, multiplier
// CHECK-NOT: lut_integer
func.func @hardtanh(%x: tensor<1x1x1x2xf32>) -> tensor<1x2x1x2xf32> {
  %w = graph.constant {value = dense<[[[[2.0]]], [[[-0.5]]]]> : tensor<2x1x1x1xf32>} : () -> tensor<2x1x1x1xf32>
  %b = graph.constant {value = dense<[0.0, -0.125]> : tensor<2xf32>} : () -> tensor<2xf32>
  %0 = graph.conv %x, %w, %b {activation = "clip", activation_min = -0.5 : f32, activation_max = 0.25 : f32, pads = array<i64: 0, 0, 0, 0>} : (tensor<1x1x1x2xf32>, tensor<2x1x1x1xf32>, tensor<2xf32>) -> tensor<1x2x1x2xf32>
  return %0 : tensor<1x2x1x2xf32>
}
