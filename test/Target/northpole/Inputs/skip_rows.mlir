// skip_rows.mlir: a conv 3x3, stride 2, no padding on a 4x4 input reads input rows
// 0-2 only ((1 output row - 1) x stride 2 + kernel 3); the host never sends row 3.
func.func @skip(%x: tensor<1x1x4x4xf32>) -> tensor<1x2x1x1xf32> {
  %w = graph.constant {value = dense<[[[[1.0, -2.0, 3.0], [4.0, 5.0, -6.0], [7.0, -8.0, 9.0]]], [[[-9.0, 8.0, -7.0], [6.0, -5.0, 4.0], [-3.0, 2.0, -1.0]]]]> : tensor<2x1x3x3xf32>} : () -> tensor<2x1x3x3xf32>
  %b = graph.constant {value = dense<[0.5, -0.5]> : tensor<2xf32>} : () -> tensor<2xf32>
  %y = graph.conv %x, %w, %b {strides = array<i64: 2, 2>} : (tensor<1x1x4x4xf32>, tensor<2x1x3x3xf32>, tensor<2xf32>) -> tensor<1x2x1x1xf32>
  return %y : tensor<1x2x1x1xf32>
}
