// graph-quantize's weight codes w_q = clamp(rint(w / s_w)), rint rounding
// half to even, for f32 weights read in float four at a time (a conv's
// channels, a trans_b gemm's columns): values at a half-integer of w / s_w
// (and a group of four holding one) take the double-precision path, the
// others the float one; both must give the rounded quotient. Each channel
// holds nine weights: two groups of four and one left over.
//   channel 0: max |w| = 127, s_w = 1: w = [127, 2.5, 3.5, -2.5 | 10.25, -10.75, 0, 5 | -126.5]
//     w_q = [127, 2, 4, -2 | 10, -11, 0, 5 | -126] (ties to even: 2.5 -> 2, 3.5 -> 4, -126.5 -> -126)
//     = 7F 02 04 FE 0A F5 00 05 82
//   channel 1: max |w| = 0.5, s_w = 0.5/127, w / s_w = 254 w:
//     w = [0.5, 0.3, -0.125, 0.1 | -0.3, 0.0039, 0.2, -0.5 | 0.01]
//     254 w = [127, 76.2, -31.75, 25.4 | -76.2, 0.99, 50.8, -127 | 2.54]
//     w_q = [127, 76, -32, 25 | -76, 1, 51, -127 | 3] = 7F 4C E0 19 B4 01 33 81 03
// The calibration input is all ones; only the weight blobs are checked.
// RUN: %python -c "import numpy as np; np.save('%t.npy', np.ones((1, 1, 1, 3, 3), np.float32))"
// RUN: nc-opt --graph-quantize=calibration=%t.npy %s | FileCheck %s

// The conv's weights [2, 1, 3, 3] keep their layout: channel 0's codes, then
// channel 1's. A trans_b gemm's weights [2, 9] (N x K) become [9, 2] (K x N):
// the two channels' codes interleave.
// CHECK-DAG: conv.weight_q: "0x010000007F0204FE0AF50005827F4CE019B401338103"
// CHECK-DAG: fc.weight_q: "0x010000007F7F024C04E0FE190AB4F501003305818203"
func.func @codes(%x: tensor<1x1x3x3xf32>) -> (tensor<1x2x1x1xf32>, tensor<1x2xf32>) {
  %w = graph.constant {value = dense<[[[[127.0, 2.5, 3.5], [-2.5, 10.25, -10.75], [0.0, 5.0, -126.5]]], [[[0.5, 0.3, -0.125], [0.1, -0.3, 0.0039], [0.2, -0.5, 0.01]]]]> : tensor<2x1x3x3xf32>} : () -> tensor<2x1x3x3xf32> loc("conv.weight")
  %0 = graph.conv %x, %w : (tensor<1x1x3x3xf32>, tensor<2x1x3x3xf32>) -> tensor<1x2x1x1xf32> loc("conv")
  %f = graph.flatten %x : (tensor<1x1x3x3xf32>) -> tensor<1x9xf32>
  %v = graph.constant {value = dense<[[127.0, 2.5, 3.5, -2.5, 10.25, -10.75, 0.0, 5.0, -126.5], [0.5, 0.3, -0.125, 0.1, -0.3, 0.0039, 0.2, -0.5, 0.01]]> : tensor<2x9xf32>} : () -> tensor<2x9xf32> loc("fc.weight")
  %1 = graph.gemm %f, %v {trans_b = 1 : i64} : (tensor<1x9xf32>, tensor<2x9xf32>) -> tensor<1x2xf32> loc("fc")
  return %0, %1 : tensor<1x2x1x1xf32>, tensor<1x2xf32>
}
