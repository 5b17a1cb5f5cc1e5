// Graph IR as passes leave it: fused activations, names only where the
// location gives one, a quantize_linear to i8 without a zero point (ONNX
// would quantize to uint8). Exported by export.test.
func.func @fused(%x: tensor<1x2x4x4xf32> loc("image"), %w: tensor<3x2x1x1xf32>, %m: tensor<4x3xf32>,
                 %n: tensor<3x5xf32>) -> (tensor<1x3x4x4xf32>, tensor<4x5xf32>, tensor<4x3xf32>, tensor<4x3xf32>,
                                          tensor<4x3xi8>) {
  %0 = graph.conv %x, %w {activation = "relu"} : (tensor<1x2x4x4xf32>, tensor<3x2x1x1xf32>) -> tensor<1x3x4x4xf32> loc("block/conv")
  %1 = graph.matmul %m, %n {activation = "clip", activation_min = 0.0 : f32, activation_max = 6.0 : f32} : (tensor<4x3xf32>, tensor<3x5xf32>) -> tensor<4x5xf32>
  %2 = graph.add %m, %m {activation = "leaky_relu", activation_alpha = 0.1 : f32} : (tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
  %3 = graph.constant {value = dense<[1.0, 2.0, 3.0]> : tensor<3xf32>} : () -> tensor<3xf32>
  %4 = graph.add %2, %3 : (tensor<4x3xf32>, tensor<3xf32>) -> tensor<4x3xf32> loc("bias")
  %5 = graph.constant {value = dense<0.5> : tensor<f32>} : () -> tensor<f32> loc("scale")
  %6 = graph.quantize_linear %4, %5 : (tensor<4x3xf32>, tensor<f32>) -> tensor<4x3xi8> loc("quant")
  return %0, %1, %4, %4, %6 : tensor<1x3x4x4xf32>, tensor<4x5xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xi8>
}
