// Quantize, requantize through an integer matmul, dequantize: every step exact.
func.func @main(%x: tensor<2x4xf32>) -> (tensor<2x4xi8>, tensor<2x2xi32>, tensor<2x2xf32>) {
  %s = graph.constant {value = dense<0.5> : tensor<f32>} : () -> tensor<f32>
  %z = graph.constant {value = dense<1> : tensor<i8>} : () -> tensor<i8>
  %w = graph.constant {value = dense<[[1, -1], [2, 0], [0, 3], [-128, 127]]> : tensor<4x2xi8>} : () -> tensor<4x2xi8>
  %q = graph.quantize_linear %x, %s, %z : (tensor<2x4xf32>, tensor<f32>, tensor<i8>) -> tensor<2x4xi8>
  %acc = graph.matmul_integer %q, %w, %z : (tensor<2x4xi8>, tensor<4x2xi8>, tensor<i8>) -> tensor<2x2xi32>
  %s2 = graph.constant {value = dense<0.25> : tensor<f32>} : () -> tensor<f32>
  %d = graph.dequantize_linear %acc, %s2 : (tensor<2x2xi32>, tensor<f32>) -> tensor<2x2xf32>
  return %q, %acc, %d : tensor<2x4xi8>, tensor<2x2xi32>, tensor<2x2xf32>
}
