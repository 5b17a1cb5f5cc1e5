// graph.requantize exports as its int64 arithmetic in ONNX ops (no ONNX op
// rounds a fixed-point product half to even): per-channel multipliers,
// shifts (0 included) and bias, a zero point, relu, ties on both signs,
// saturation. The export passes onnx.checker, and imported again it gives
// the interpreter's results (worked out by hand: -2.5 -> -2, -1.5 -> -2,
// -0.5 -> 0, 1.5 -> 2, 500 -> 127). clamp_min / clamp_max (a fused Clip)
// narrow the last Clip: [-1, 1] alone, and with relu [0, 1].
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python -c "import numpy as np; np.save('%t/x.npy', np.array([[-5, -3, -1], [1, 3, 1000]], np.int32))"
// RUN: nc-translate --export-onnx %s -o %t/rq.onnx
// RUN: %python %S/Inputs/onnx_tool.py check %t/rq.onnx | FileCheck %s --check-prefix=CHECKED
// RUN: nc-run %s --input %t/x.npy --print | FileCheck %s
// RUN: nc-run %t/rq.onnx --input %t/x.npy --print | FileCheck %s
// CHECKED: checked:
// CHECK:      output #0: tensor<2x3xi8>
// CHECK-NEXT: {{\[\[}}3, 3, 3],
// CHECK-NEXT:  [4, 5, 127]]
// CHECK-NEXT: output #1: tensor<2x3xi8>
// CHECK-NEXT: {{\[\[}}-2, -2, 0],
// CHECK-NEXT:  [0, 2, 127]]
// CHECK-NEXT: output #2: tensor<2x3xi8>
// CHECK-NEXT: {{\[\[}}-1, -1, 0],
// CHECK-NEXT:  [0, 1, 1]]
// CHECK-NEXT: output #3: tensor<2x3xi8>
// CHECK-NEXT: {{\[\[}}0, 0, 0],
// CHECK-NEXT:  [0, 1, 1]]
func.func @rq(%acc: tensor<2x3xi32>) -> (tensor<2x3xi8>, tensor<2x3xi8>, tensor<2x3xi8>, tensor<2x3xi8>) {
  %b = graph.constant {value = dense<[1, 0, -1]> : tensor<3xi32>} : () -> tensor<3xi32>
  %0 = graph.requantize %acc, %b {multiplier = array<i64: 1, 3, 1>, shift = array<i64: 1, 2, 0>, output_zero_point = 3 : i64, activation = "relu"} : (tensor<2x3xi32>, tensor<3xi32>) -> tensor<2x3xi8>
  %1 = graph.requantize %acc {multiplier = array<i64: 1>, shift = array<i64: 1>} : (tensor<2x3xi32>) -> tensor<2x3xi8>
  %2 = graph.requantize %acc {multiplier = array<i64: 1>, shift = array<i64: 1>, clamp_min = -1 : i64, clamp_max = 1 : i64} : (tensor<2x3xi32>) -> tensor<2x3xi8>
  %3 = graph.requantize %acc {multiplier = array<i64: 1>, shift = array<i64: 1>, activation = "relu", clamp_max = 1 : i64} : (tensor<2x3xi32>) -> tensor<2x3xi8>
  return %0, %1, %2, %3 : tensor<2x3xi8>, tensor<2x3xi8>, tensor<2x3xi8>, tensor<2x3xi8>
}
