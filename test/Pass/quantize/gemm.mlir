// graph-quantize on graph.gemm and graph.matmul (Inputs/calibration.py,
// gemm.npy: samples x = [127/128, -0.5] and [0.25, -127/128], so s_x = 2^-7).
// RUN: %python %S/Inputs/calibration.py %t
// RUN: nc-opt --split-input-file --graph-quantize=calibration=%t/gemm.npy %s | FileCheck %s
// All-zero calibration inputs: every activation scale falls back to 1.
// RUN: nc-opt --split-input-file --graph-quantize=calibration=%t/zeros.npy %s | FileCheck %s --check-prefix=ZERO

// gemm with trans_b, alpha = 0.5 and beta = 2: the weights become
// alpha * w^T, stored [K, N] for graph.matmul_integer, the bias beta * c.
//   alpha w^T = [[127/64, -0.5], [2.5/64, 0.25]]: per column n,
//     s_w = [2^-6, 0.5/127], w_q = [[127, -127], [2, 64]]
//     (2.5 and 63.5 round half to even: 2 and 64)
//   beta c = [16543/8192, -0.5]; y0 on the first sample is
//     (127/64)(127/128) - 2.5/128 + 16543/8192 = 127/32, the largest |y|: s_y = 2^-5
//   requantize scale s_x s_w[n] / s_y = s_w[n] / 4 = [2^-8, 1/1016]
//     2^-8 = 0.5 * 2^-7: multiplier 2^30 = 1073741824, shift 38
//     1/1016 = (64/127) 2^-9: multiplier rint(2^37 / 127) = 1082196484, shift 40
//   bias_q = rint(b / (s_x s_w[n])) = [16543/8192 * 2^13, -0.5 * 2^7 * 127 / 0.5] = [16543, -16256]
//   blobs: 0x7F810240 = [[127, -127], [2, 64]]; 9F400000 80C0FFFF = [16543, -16256]
// CHECK-LABEL: func.func @gemm(%arg0: tensor<1x2xf32>) -> tensor<1x2xf32> {
// CHECK:         %[[S:.*]] = graph.constant {value = dense<7.812500e-03> : tensor<f32>}
// CHECK:         %[[X:.*]] = graph.quantize_linear %arg0, %[[S]], %{{.*}} : (tensor<1x2xf32>, tensor<f32>, tensor<i8>) -> tensor<1x2xi8>
// CHECK-NEXT:    %[[W:.*]] = graph.constant {value = dense_resource<fc.weight_q> : tensor<2x2xi8>} : () -> tensor<2x2xi8>
// CHECK-NEXT:    %[[ACC:.*]] = graph.matmul_integer %[[X]], %[[W]] : (tensor<1x2xi8>, tensor<2x2xi8>) -> tensor<1x2xi32>
// CHECK-NEXT:    %[[B:.*]] = graph.constant {value = dense_resource<fc.bias_q> : tensor<2xi32>} : () -> tensor<2xi32>
// CHECK-NEXT:    %[[Y:.*]] = graph.requantize %[[ACC]], %[[B]] {axis = 1 : i64, multiplier = array<i64: 1073741824, 1082196484>, output_zero_point = 0 : i64, shift = array<i64: 38, 40>} : (tensor<1x2xi32>, tensor<2xi32>) -> tensor<1x2xi8>
// CHECK-NEXT:    %[[SY:.*]] = graph.constant {value = dense<3.125000e-02> : tensor<f32>}
// CHECK-NEXT:    %[[D:.*]] = graph.dequantize_linear %[[Y]], %[[SY]] : (tensor<1x2xi8>, tensor<f32>) -> tensor<1x2xf32>
// CHECK-NEXT:    return %[[D]] : tensor<1x2xf32>
// CHECK:       fc.weight_q: "0x010000007F810240",
// CHECK-NEXT:  fc.bias_q: "0x040000009F40000080C0FFFF"
// With zero inputs y = beta c, so only the input scale is 1.
// ZERO-LABEL: func.func @gemm
// ZERO:         graph.constant {value = dense<1.000000e+00> : tensor<f32>}
// ZERO-NEXT:    graph.constant {value = dense<0> : tensor<i8>}
// ZERO-NEXT:    graph.quantize_linear
func.func @gemm(%x: tensor<1x2xf32>) -> tensor<1x2xf32> {
  %w = graph.constant {value = dense<[[3.96875, 0.078125], [-1.0, 0.5]]> : tensor<2x2xf32>} : () -> tensor<2x2xf32> loc("fc.weight")
  %c = graph.constant {value = dense<[1.00970458984375, -0.25]> : tensor<2xf32>} : () -> tensor<2xf32> loc("fc.bias")
  %0 = graph.gemm %x, %w, %c {alpha = 0.5 : f32, beta = 2.0 : f32, trans_b = 1 : i64} : (tensor<1x2xf32>, tensor<2x2xf32>, tensor<2xf32>) -> tensor<1x2xf32> loc("fc")
  return %0 : tensor<1x2xf32>
}

// -----

// matmul [1, 2] x [2, 3] with a fused relu and no bias; the third column is
// all zero, so its weight scale is 1.
//   s_w = [1/127, 2^-7, 1], w_q = [[127, -127, 0], [0, 2, 0]] (2.5 -> 2)
//   y = relu(x w): max y0 = 127/128 -> s_y = 2^-7, so the scales are s_w:
//     1/127 -> (1082196484, 37); 2^-7 = 0.5 * 2^-6 -> (2^30, 37); 1 = 0.5 * 2^1 -> (2^30, 30)
// CHECK-LABEL: func.func @matmul(%arg0: tensor<1x2xf32>) -> tensor<1x3xf32> {
// CHECK:         %[[X:.*]] = graph.quantize_linear %arg0
// CHECK-NEXT:    %[[W:.*]] = graph.constant {value = dense_resource<w_q> : tensor<2x3xi8>} : () -> tensor<2x3xi8>
// CHECK-NEXT:    %[[ACC:.*]] = graph.matmul_integer %[[X]], %[[W]] : (tensor<1x2xi8>, tensor<2x3xi8>) -> tensor<1x3xi32>
// CHECK-NEXT:    %[[Y:.*]] = graph.requantize %[[ACC]] {activation = "relu", axis = 1 : i64, multiplier = array<i64: 1082196484, 1073741824, 1073741824>, output_zero_point = 0 : i64, shift = array<i64: 37, 37, 30>} : (tensor<1x3xi32>) -> tensor<1x3xi8>
// CHECK-NEXT:    %[[SY:.*]] = graph.constant {value = dense<7.812500e-03> : tensor<f32>}
// CHECK-NEXT:    graph.dequantize_linear %[[Y]], %[[SY]]
// CHECK:       w_q: "0x010000007F8100000200"
// With zero inputs y = 0: s_x = s_y = 1, and the requantize scales are s_w again.
// ZERO-LABEL: func.func @matmul
// ZERO:         graph.requantize {{.*}} multiplier = array<i64: 1082196484, 1073741824, 1073741824>, output_zero_point = 0 : i64, shift = array<i64: 37, 37, 30>}
// ZERO-NEXT:    graph.constant {value = dense<1.000000e+00> : tensor<f32>}
func.func @matmul(%x: tensor<1x2xf32>) -> tensor<1x3xf32> {
  %w = graph.constant {value = dense<[[1.0, -0.9921875, 0.0], [0.0, 0.01953125, 0.0]]> : tensor<2x3xf32>} : () -> tensor<2x3xf32> loc("w")
  %0 = graph.matmul %x, %w {activation = "relu"} : (tensor<1x2xf32>, tensor<2x3xf32>) -> tensor<1x3xf32> loc("mm")
  return %0 : tensor<1x3xf32>
}
