// tiny_graph.mlir: the int8 graph tiny.mlir was compiled from (the oracle: the
// reference interpreter runs it; the simulator must match it bit for bit).
func.func @tiny(%x: tensor<1x1x4x4xf32>) -> tensor<1x3xf32> {
  %s = graph.constant {value = dense<0.015625> : tensor<f32>} : () -> tensor<f32>
  %zp = graph.constant {value = dense<0> : tensor<i8>} : () -> tensor<i8>
  %q = graph.quantize_linear %x, %s, %zp : (tensor<1x1x4x4xf32>, tensor<f32>, tensor<i8>) -> tensor<1x1x4x4xi8>
  %w1 = graph.constant {value = dense<[[[[1, -2, 3], [4, 5, -6], [7, -8, 9]]], [[[-9, 8, -7], [6, -5, 4], [-3, 2, -1]]]]> : tensor<2x1x3x3xi8>} : () -> tensor<2x1x3x3xi8>
  %c1 = graph.conv_integer %q, %w1 {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x1x4x4xi8>, tensor<2x1x3x3xi8>) -> tensor<1x2x4x4xi32>
  %b1 = graph.constant {value = dense<[100, -200]> : tensor<2xi32>} : () -> tensor<2xi32>
  %r1 = graph.requantize %c1, %b1 {activation = "relu", axis = 1 : i64, multiplier = array<i64: 1431655765, 1073741824>, output_zero_point = 0 : i64, shift = array<i64: 36, 35>} : (tensor<1x2x4x4xi32>, tensor<2xi32>) -> tensor<1x2x4x4xi8>
  %p = graph.max_pool %r1 {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x2x4x4xi8>) -> tensor<1x2x2x2xi8>
  %f = graph.flatten %p : (tensor<1x2x2x2xi8>) -> tensor<1x8xi8>
  %w2 = graph.constant {value = dense<[[1, -1, 2], [3, 0, -2], [-4, 5, 1], [2, 2, 2], [-1, -3, 4], [0, 1, -1], [5, -5, 3], [1, 1, -6]]> : tensor<8x3xi8>} : () -> tensor<8x3xi8>
  %m = graph.matmul_integer %f, %w2 : (tensor<1x8xi8>, tensor<8x3xi8>) -> tensor<1x3xi32>
  %b2 = graph.constant {value = dense<[7, -7, 0]> : tensor<3xi32>} : () -> tensor<3xi32>
  %r2 = graph.requantize %m, %b2 {axis = 1 : i64, multiplier = array<i64: 1717986918>, output_zero_point = 0 : i64, shift = array<i64: 33>} : (tensor<1x3xi32>, tensor<3xi32>) -> tensor<1x3xi8>
  %s2 = graph.constant {value = dense<0.05> : tensor<f32>} : () -> tensor<f32>
  %y = graph.dequantize_linear %r2, %s2 : (tensor<1x3xi8>, tensor<f32>) -> tensor<1x3xf32>
  return %y : tensor<1x3xf32>
}
