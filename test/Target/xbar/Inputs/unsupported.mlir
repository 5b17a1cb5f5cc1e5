// unsupported.mlir: a layer kind the xbar target does not run (a global max pool): xbar-map refuses it at its node.
func.func @u(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x1x1xf32> {
  %s = graph.constant {value = dense<0.03125> : tensor<f32>} : () -> tensor<f32>
  %zp = graph.constant {value = dense<0> : tensor<i8>} : () -> tensor<i8>
  %q = graph.quantize_linear %x, %s, %zp : (tensor<1x2x4x4xf32>, tensor<f32>, tensor<i8>) -> tensor<1x2x4x4xi8>
  %p = graph.global_max_pool %q : (tensor<1x2x4x4xi8>) -> tensor<1x2x1x1xi8>
  %y = graph.dequantize_linear %p, %s : (tensor<1x2x1x1xi8>, tensor<f32>) -> tensor<1x2x1x1xf32>
  return %y : tensor<1x2x1x1xf32>
}
