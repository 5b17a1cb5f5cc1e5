// A pre-quantized model's weights keep its codes and scales through
// graph-optimize and graph-quantize, also where a channel's largest code is
// not 127 (64) or is -128: max|w_c| / 127 would give 127 and -127. The
// requantize multipliers follow x_scale * w_scale[c] / y_scale with the
// model's w_scale (0.5 * 0.25 / 1 = 2^-3 and 0.5 * 0.125 / 1 = 2^-4).
// RUN: nc-opt --graph-optimize --graph-quantize %s | FileCheck %s

// CHECK-LABEL: func.func @conv
// CHECK: graph.constant {value = dense_resource<[[W:.*]]> : tensor<2x1x1x1xi8>}
// CHECK: graph.conv_integer
// CHECK: graph.requantize {{.*}}multiplier = array<i64: 1073741824, 1073741824>{{.*}}shift = array<i64: 33, 34>
// the codes 64 and -128 (0x40, 0x80) after the blob's alignment header
// CHECK: [[W]]: "0x010000004080"
func.func @conv(%x: tensor<1x1x2x2xf32>) -> tensor<1x2x2x2xf32> {
  %xs = graph.constant {value = dense<0.5> : tensor<f32>} : () -> tensor<f32>
  %z = graph.constant {value = dense<0> : tensor<i8>} : () -> tensor<i8>
  %w = graph.constant {value = dense<[[[[64]]], [[[-128]]]]> : tensor<2x1x1x1xi8>} : () -> tensor<2x1x1x1xi8>
  %ws = graph.constant {value = dense<[0.25, 0.125]> : tensor<2xf32>} : () -> tensor<2xf32>
  %ys = graph.constant {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
  %xq = graph.quantize_linear %x, %xs, %z : (tensor<1x1x2x2xf32>, tensor<f32>, tensor<i8>) -> tensor<1x1x2x2xi8>
  %y = graph.qlinear_conv %xq, %xs, %z, %w, %ws, %z, %ys, %z : (tensor<1x1x2x2xi8>, tensor<f32>, tensor<i8>, tensor<2x1x1x1xi8>, tensor<2xf32>, tensor<i8>, tensor<f32>, tensor<i8>) -> tensor<1x2x2x2xi8>
  %d = graph.dequantize_linear %y, %ys, %z : (tensor<1x2x2x2xi8>, tensor<f32>, tensor<i8>) -> tensor<1x2x2x2xf32>
  return %d : tensor<1x2x2x2xf32>
}
