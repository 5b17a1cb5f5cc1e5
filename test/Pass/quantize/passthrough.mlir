// Data-movement ops and relu run on int8 with their input's scale; a function
// of several results dequantizes each (an input returned as it is stays
// f32). The weights are the identity, so the matmul result has the input's
// range (gemm.npy: max |x| = 127/128, s = 2^-7), and every scale is 2^-7;
// requantize scale s_x (1/127) / s_y = 1/127 -> (1082196484, 37) for
// both columns.
// RUN: %python %S/Inputs/calibration.py %t
// RUN: nc-opt --graph-quantize=calibration=%t/gemm.npy %s -o %t/q.mlir
// RUN: FileCheck %s < %t/q.mlir
// The int8 graph on the first calibration sample, x = [127/128, -1/2]:
// x_q = [127, -64], acc = 127 x_q, requantized back to [127, -64], relu
// [127, 0], dequantized [0.9921875, 0] and [0.9921875, -0.5].
// RUN: %python -c "import numpy as np; np.save('%t/x.npy', np.array([[127 / 128, -0.5]], np.float32))"
// RUN: nc-run %t/q.mlir --input %t/x.npy --print | FileCheck %s --check-prefix=EXEC

// CHECK-LABEL: func.func @chain(%arg0: tensor<1x2xf32>) -> (tensor<1x2xf32>, tensor<1x2xf32>, tensor<1x2xf32>) {
// CHECK:      %[[X:.*]] = graph.quantize_linear %arg0
// CHECK:      %[[MM:.*]] = graph.requantize {{.*}} {axis = 1 : i64, multiplier = array<i64: 1082196484, 1082196484>, output_zero_point = 0 : i64, shift = array<i64: 37, 37>} : (tensor<1x2xi32>) -> tensor<1x2xi8>
// CHECK-NEXT: %[[R:.*]] = graph.relu %[[MM]] : (tensor<1x2xi8>) -> tensor<1x2xi8>
// CHECK-NEXT: %[[U:.*]] = graph.unsqueeze %[[R]] {axes = array<i64: 2>} : (tensor<1x2xi8>) -> tensor<1x2x1xi8>
// CHECK-NEXT: %[[G:.*]] = graph.global_max_pool %[[U]] : (tensor<1x2x1xi8>) -> tensor<1x2x1xi8>
// CHECK-NEXT: %[[T:.*]] = graph.transpose %[[G]] {perm = array<i64: 2, 0, 1>} : (tensor<1x2x1xi8>) -> tensor<1x1x2xi8>
// CHECK-NEXT: %[[S:.*]] = graph.squeeze %[[T]] {axes = array<i64: 0>} : (tensor<1x1x2xi8>) -> tensor<1x2xi8>
// CHECK-NEXT: %[[I:.*]] = graph.identity %[[S]] : (tensor<1x2xi8>) -> tensor<1x2xi8>
// CHECK-NEXT: %[[F:.*]] = graph.flatten %[[I]] : (tensor<1x2xi8>) -> tensor<1x2xi8>
// CHECK-NEXT: %[[S1:.*]] = graph.constant {value = dense<7.812500e-03> : tensor<f32>}
// CHECK-NEXT: %[[D1:.*]] = graph.dequantize_linear %[[F]], %[[S1]] : (tensor<1x2xi8>, tensor<f32>) -> tensor<1x2xf32>
// CHECK-NEXT: %[[S2:.*]] = graph.constant {value = dense<7.812500e-03> : tensor<f32>}
// CHECK-NEXT: %[[D2:.*]] = graph.dequantize_linear %[[MM]], %[[S2]] : (tensor<1x2xi8>, tensor<f32>) -> tensor<1x2xf32>
// CHECK-NEXT: return %arg0, %[[D1]], %[[D2]] : tensor<1x2xf32>, tensor<1x2xf32>, tensor<1x2xf32>

// EXEC:      output #0: tensor<1x2xf32>
// EXEC-NEXT: {{\[\[}}0.9921875, -0.5]]
// EXEC:      output #1: tensor<1x2xf32>
// EXEC-NEXT: {{\[\[}}0.9921875, 0]]
// EXEC:      output #2: tensor<1x2xf32>
// EXEC-NEXT: {{\[\[}}0.9921875, -0.5]]
func.func @chain(%x: tensor<1x2xf32>) -> (tensor<1x2xf32>, tensor<1x2xf32>, tensor<1x2xf32>) {
  %w = graph.constant {value = dense<[[1.0, 0.0], [0.0, 1.0]]> : tensor<2x2xf32>} : () -> tensor<2x2xf32>
  %0 = graph.matmul %x, %w : (tensor<1x2xf32>, tensor<2x2xf32>) -> tensor<1x2xf32>
  %1 = graph.relu %0 : (tensor<1x2xf32>) -> tensor<1x2xf32>
  %2 = graph.unsqueeze %1 {axes = array<i64: 2>} : (tensor<1x2xf32>) -> tensor<1x2x1xf32>
  %3 = graph.global_max_pool %2 : (tensor<1x2x1xf32>) -> tensor<1x2x1xf32>
  %4 = graph.transpose %3 {perm = array<i64: 2, 0, 1>} : (tensor<1x2x1xf32>) -> tensor<1x1x2xf32>
  %5 = graph.squeeze %4 {axes = array<i64: 0>} : (tensor<1x1x2xf32>) -> tensor<1x2xf32>
  %6 = graph.identity %5 : (tensor<1x2xf32>) -> tensor<1x2xf32>
  %7 = graph.flatten %6 : (tensor<1x2xf32>) -> tensor<1x2xf32>
  return %x, %7, %0 : tensor<1x2xf32>, tensor<1x2xf32>, tensor<1x2xf32>
}
