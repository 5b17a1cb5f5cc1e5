// reduce_axes.mlir: reductions whose axes are attributes up to opset 17 and
// inputs from opset 18 (export.test).
func.func @r(%x: tensor<2x3x4xf32>) -> (tensor<2x1x4xf32>, tensor<2x4xf32>) {
  %a = graph.reduce_mean %x {axes = array<i64: 1>} : (tensor<2x3x4xf32>) -> tensor<2x1x4xf32>
  %b = graph.reduce_max %a {axes = array<i64: 1>, keepdims = 0} : (tensor<2x1x4xf32>) -> tensor<2x4xf32>
  return %a, %b : tensor<2x1x4xf32>, tensor<2x4xf32>
}
