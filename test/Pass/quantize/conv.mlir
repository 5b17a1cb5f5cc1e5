// graph-quantize on a conv (bias, fused relu), a max_pool and a reshape, with
// scales that are exact by construction (Inputs/calibration.py, conv.npy):
//   input: max |x| = 127/128               -> s_x = 2^-7
//   weights w = [2, -0.5] (one per channel) -> s_w = [2/127, 0.5/127], w_q = [127, -127]
//   y = relu(w x + b), b = [0, -0.125]:
//     max y0 = 2 * 127/128 = 127/64         -> s_y = 2^-6
//   requantize scale s_x s_w[c] / s_y = s_w[c] / 2 = [1/127, 1/508]
//     1/127 = (64/127) 2^-6: multiplier rint(2^37 / 127) = 1082196484, shift 31 + 6 = 37
//     1/508 = (64/127) 2^-8: the same multiplier, shift 39
//   bias_q = rint(b / (s_x s_w[c])) = [0, -0.125 * 128 * 127 / 0.5] = [0, -4064]
// max_pool and reshape run on int8 with the conv's scale, which the result's
// dequantize_linear uses. Weights and bias are blobs: 0x7F81 = [127, -127],
// 0x00000000 20F0FFFF = [0, -4064] (little endian, after the 4-byte alignment).
// RUN: %python %S/Inputs/calibration.py %t
// RUN: nc-opt --graph-quantize=calibration=%t/conv.npy %s | FileCheck %s
// The batched layout [N*1, 1, 1, 2] and the stacked one [N, 1, 1, 1, 2] agree.
// RUN: nc-opt --graph-quantize=calibration=%t/conv_batched.npy %s | FileCheck %s
// Only the first sample, x = [0.5, -0.25]: s_x = fl32(0.5 / 127), and
// max y0 = 1 gives s_y = fl32(1 / 127).
// RUN: nc-opt --graph-quantize="calibration=%t/conv.npy max-samples=1" %s | FileCheck %s --check-prefix=ONE
// Statistics.
// RUN: nc-opt --graph-quantize=calibration=%t/conv.npy --mlir-pass-statistics %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=STATS

// CHECK-LABEL: func.func @conv(%arg0: tensor<1x1x1x2xf32>) -> tensor<1x2xf32> {
// CHECK-NEXT:    %[[S:.*]] = graph.constant {value = dense<7.812500e-03> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:    %[[Z:.*]] = graph.constant {value = dense<0> : tensor<i8>} : () -> tensor<i8>
// CHECK-NEXT:    %[[X:.*]] = graph.quantize_linear %arg0, %[[S]], %[[Z]] : (tensor<1x1x1x2xf32>, tensor<f32>, tensor<i8>) -> tensor<1x1x1x2xi8>
// CHECK-NEXT:    %[[W:.*]] = graph.constant {value = dense_resource<conv.weight_q> : tensor<2x1x1x1xi8>} : () -> tensor<2x1x1x1xi8>
// CHECK-NEXT:    %[[ACC:.*]] = graph.conv_integer %[[X]], %[[W]] {pads = array<i64: 0, 0, 0, 0>} : (tensor<1x1x1x2xi8>, tensor<2x1x1x1xi8>) -> tensor<1x2x1x2xi32>
// CHECK-NEXT:    %[[B:.*]] = graph.constant {value = dense_resource<conv.bias_q> : tensor<2xi32>} : () -> tensor<2xi32>
// CHECK-NEXT:    %[[Y:.*]] = graph.requantize %[[ACC]], %[[B]] {activation = "relu", axis = 1 : i64, multiplier = array<i64: 1082196484, 1082196484>, output_zero_point = 0 : i64, shift = array<i64: 37, 39>} : (tensor<1x2x1x2xi32>, tensor<2xi32>) -> tensor<1x2x1x2xi8>
// CHECK-NEXT:    %[[P:.*]] = graph.max_pool %[[Y]] {kernel_shape = array<i64: 1, 2>} : (tensor<1x2x1x2xi8>) -> tensor<1x2x1x1xi8>
// CHECK-NEXT:    %[[R:.*]] = graph.reshape %[[P]] {shape = array<i64: 1, 2>} : (tensor<1x2x1x1xi8>) -> tensor<1x2xi8>
// CHECK-NEXT:    %[[SY:.*]] = graph.constant {value = dense<1.562500e-02> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:    %[[D:.*]] = graph.dequantize_linear %[[R]], %[[SY]] : (tensor<1x2xi8>, tensor<f32>) -> tensor<1x2xf32>
// CHECK-NEXT:    return %[[D]] : tensor<1x2xf32>
// CHECK-NEXT:  }
// CHECK:       conv.weight_q: "0x010000007F81",
// CHECK-NEXT:  conv.bias_q: "0x040000000000000020F0FFFF"

// ONE: graph.constant {value = dense<0.003937008> : tensor<f32>}
// ONE: graph.quantize_linear
// ONE: graph.requantize
// ONE: graph.constant {value = dense<0.007874016> : tensor<f32>}
// ONE-NEXT: graph.dequantize_linear

// STATS:      GraphQuantize
// STATS-NEXT:   (S) 1 num-layers  - Number of conv / gemm / matmul layers, adds / subs, concats, products, tables and softmaxes quantized
// STATS-NEXT:   (S) 2 num-samples - Number of calibration samples run
func.func @conv(%x: tensor<1x1x1x2xf32>) -> tensor<1x2xf32> {
  %w = graph.constant {value = dense<[[[[2.0]]], [[[-0.5]]]]> : tensor<2x1x1x1xf32>} : () -> tensor<2x1x1x1xf32> loc("conv.weight")
  %b = graph.constant {value = dense<[0.0, -0.125]> : tensor<2xf32>} : () -> tensor<2xf32> loc("conv.bias")
  %0 = graph.conv %x, %w, %b {activation = "relu", pads = array<i64: 0, 0, 0, 0>} : (tensor<1x1x1x2xf32>, tensor<2x1x1x1xf32>, tensor<2xf32>) -> tensor<1x2x1x2xf32> loc("conv")
  %1 = graph.max_pool %0 {kernel_shape = array<i64: 1, 2>} : (tensor<1x2x1x2xf32>) -> tensor<1x2x1x1xf32> loc("pool")
  %2 = graph.reshape %1 {shape = array<i64: 1, 2>} : (tensor<1x2x1x1xf32>) -> tensor<1x2xf32> loc("reshape")
  return %2 : tensor<1x2xf32>
}
