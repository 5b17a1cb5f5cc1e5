// Average pools run on int8 with their input's scale: graph-quantize keeps
// them (no rescale: a mean of int8 values stays in their range), and each
// output is the window's exact integer sum divided by its count, rounded
// half to even (docs/quantization.md). The input is its own calibration
// sample, x = q / 128 with max |q| = 127, so s = 2^-7 and the int8 input is
// exactly q =
//     [[ 1,  2,  3,  -4],
//      [ 5, -6,  7,   9],
//      [-9, -4, 11, 127]]
// RUN: %python -c "import numpy as np; np.save('%t.npy', np.array([[[[1, 2, 3, -4], [5, -6, 7, 9], [-9, -4, 11, 127]]]], np.float32) / 128)"
// RUN: nc-opt --graph-quantize=calibration=%t.npy %s -o %t.mlir
// RUN: FileCheck %s < %t.mlir
// RUN: nc-run %t.mlir --input %t.npy --print | FileCheck %s --check-prefix=EXEC

// CHECK-LABEL: func.func @pools
// CHECK:      %[[X:.*]] = graph.quantize_linear %arg0
// CHECK-NEXT: %[[A:.*]] = graph.avg_pool %[[X]] {kernel_shape = array<i64: 2, 2>} : (tensor<1x1x3x4xi8>) -> tensor<1x1x2x3xi8>
// CHECK-NEXT: %[[B:.*]] = graph.avg_pool %[[X]] {count_include_pad = 1 : i64, kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x1x3x4xi8>) -> tensor<1x1x3x4xi8>
// CHECK-NEXT: %[[C:.*]] = graph.avg_pool %[[X]] {kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x1x3x4xi8>) -> tensor<1x1x3x4xi8>
// CHECK-NEXT: %[[E:.*]] = graph.avg_pool %[[X]] {ceil_mode = 1 : i64, count_include_pad = 1 : i64, kernel_shape = array<i64: 2, 2>, pads = array<i64: 0, 0, 1, 0>, strides = array<i64: 2, 2>} : (tensor<1x1x3x4xi8>) -> tensor<1x1x2x2xi8>
// CHECK-NEXT: %[[G:.*]] = graph.global_avg_pool %[[X]] : (tensor<1x1x3x4xi8>) -> tensor<1x1x1x1xi8>
// CHECK-NEXT: %[[S:.*]] = graph.constant {value = dense<7.812500e-03> : tensor<f32>}
// CHECK-NEXT: graph.dequantize_linear %[[A]], %[[S]]
// CHECK-NOT:  graph.requantize

// 2x2, stride 1: sums [[2, 6, 15], [-14, 8, 154]] / 4; the ties 0.5, 1.5,
// -3.5 and 38.5 round to the even 0, 2, -4 and 38 (then / 128).
// EXEC:      output #0: tensor<1x1x2x3xf32>
// EXEC-NEXT: {{\[\[\[\[}}0, 0.015625, 0.03125],
// EXEC-NEXT: {{ *}}[-0.03125, 0.015625, 0.296875]]]]
// 3x3, pads 1, count_include_pad: always / 9, e.g. corner (1 + 2 + 5 - 6) / 9
// = 0.22 -> 0, (7 + 9 + 11 + 127 = 154) / 9 = 17.1 -> 17: [[0, 1, 1, 2],
// [-1, 1, 16, 17], [-2, 0, 16, 17]].
// EXEC:      output #1: tensor<1x1x3x4xf32>
// EXEC-NEXT: {{\[\[\[\[}}0, 0.0078125, 0.0078125, 0.015625],
// EXEC-NEXT: {{ *}}[-0.0078125, 0.0078125, 0.125, 0.1328125],
// EXEC-NEXT: {{ *}}[-0.015625, 0, 0.125, 0.1328125]]]]
// The same without count_include_pad: corners / 4, edges / 6, inside / 9,
// e.g. 154 / 4 = 38.5 -> 38, (3 - 4 + 7 + 9) / 4 = 3.75 -> 4: [[0, 2, 2, 4],
// [-2, 1, 16, 26], [-4, 1, 24, 38]].
// EXEC:      output #2: tensor<1x1x3x4xf32>
// EXEC-NEXT: {{\[\[\[\[}}0, 0.015625, 0.015625, 0.03125],
// EXEC-NEXT: {{ *}}[-0.015625, 0.0078125, 0.125, 0.203125],
// EXEC-NEXT: {{ *}}[-0.03125, 0.0078125, 0.1875, 0.296875]]]]
// 2x2, stride 2, bottom pad 1, ceil_mode, count_include_pad: the bottom row
// of windows covers input row 2 and the padding row, so / 4 still:
// [[2 / 4 -> 0, 15 / 4 -> 4], [-13 / 4 -> -3, 138 / 4 = 34.5 -> 34]].
// EXEC:      output #3: tensor<1x1x2x2xf32>
// EXEC-NEXT: {{\[\[\[\[}}0, 0.03125],
// EXEC-NEXT: {{ *}}[-0.0234375, 0.265625]]]]
// global: 142 / 12 = 11.83 -> 12.
// EXEC:      output #4: tensor<1x1x1x1xf32>
// EXEC-NEXT: {{\[\[\[\[}}0.09375]]]]
func.func @pools(%x: tensor<1x1x3x4xf32>) -> (tensor<1x1x2x3xf32>, tensor<1x1x3x4xf32>, tensor<1x1x3x4xf32>, tensor<1x1x2x2xf32>, tensor<1x1x1x1xf32>) {
  %a = graph.avg_pool %x {kernel_shape = array<i64: 2, 2>} : (tensor<1x1x3x4xf32>) -> tensor<1x1x2x3xf32>
  %b = graph.avg_pool %x {kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>, count_include_pad = 1 : i64} : (tensor<1x1x3x4xf32>) -> tensor<1x1x3x4xf32>
  %c = graph.avg_pool %x {kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x1x3x4xf32>) -> tensor<1x1x3x4xf32>
  %e = graph.avg_pool %x {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>, pads = array<i64: 0, 0, 1, 0>, ceil_mode = 1 : i64, count_include_pad = 1 : i64} : (tensor<1x1x3x4xf32>) -> tensor<1x1x2x2xf32>
  %g = graph.global_avg_pool %x : (tensor<1x1x3x4xf32>) -> tensor<1x1x1x1xf32>
  return %a, %b, %c, %e, %g : tensor<1x1x2x3xf32>, tensor<1x1x3x4xf32>, tensor<1x1x3x4xf32>, tensor<1x1x2x2xf32>, tensor<1x1x1x1xf32>
}
