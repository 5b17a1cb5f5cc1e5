// A constant pad runs on int8 with its input's scale; its fill value becomes
// the stored integer round_half_even(value / scale). The input passes
// through an identity matmul (gemm.npy: max |x| = 127/128, s = 2^-7), so
// 0.25 is 32 steps and 3 * 2^-8 is 1.5 steps, which rounds to even: 2 (a
// value outside int8 is an error at the pad: invalid.mlir).
// RUN: %python %S/Inputs/calibration.py %t
// RUN: nc-opt --graph-quantize=calibration=%t/gemm.npy %s -o %t/q.mlir
// RUN: FileCheck %s < %t/q.mlir
// The int8 graph on x = [127/128, -1/2]: [[0.25, 127/128, -0.5, 0.25]] and
// [[2^-6, 127/128, -0.5, 2^-6]].
// RUN: %python -c "import numpy as np; np.save('%t/x.npy', np.array([[127 / 128, -0.5]], np.float32))"
// RUN: nc-run %t/q.mlir --input %t/x.npy --print | FileCheck %s --check-prefix=EXEC

// CHECK-LABEL: func.func @pads
// CHECK: graph.pad %{{.*}} {pads = array<i64: 0, 1, 0, 1>, value = 3.200000e+01 : f32} : (tensor<1x2xi8>) -> tensor<1x4xi8>
// CHECK: graph.pad %{{.*}} {pads = array<i64: 0, 1, 0, 1>, value = 2.000000e+00 : f32} : (tensor<1x2xi8>) -> tensor<1x4xi8>
// EXEC:      output #0: tensor<1x4xf32>
// EXEC-NEXT: {{\[\[}}0.25, 0.9921875, -0.5, 0.25]]
// EXEC:      output #1: tensor<1x4xf32>
// EXEC-NEXT: {{\[\[}}0.015625, 0.9921875, -0.5, 0.015625]]
func.func @pads(%x: tensor<1x2xf32>) -> (tensor<1x4xf32>, tensor<1x4xf32>) {
  %w = graph.constant {value = dense<[[1.0, 0.0], [0.0, 1.0]]> : tensor<2x2xf32>} : () -> tensor<2x2xf32>
  %0 = graph.matmul %x, %w : (tensor<1x2xf32>, tensor<2x2xf32>) -> tensor<1x2xf32>
  %1 = graph.pad %0 {pads = array<i64: 0, 1, 0, 1>, value = 0.25 : f32} : (tensor<1x2xf32>) -> tensor<1x4xf32>
  %2 = graph.pad %0 {pads = array<i64: 0, 1, 0, 1>, value = 0.01171875 : f32} : (tensor<1x2xf32>) -> tensor<1x4xf32>
  return %1, %2 : tensor<1x4xf32>, tensor<1x4xf32>
}
