// shuffle_graph.mlir: a conv and a channel shuffle, for test/Target/xbar/moves.test.
func.func @s(%x: tensor<1x1x4x5xf32>) -> tensor<1x2x4x5xf32> {
  %w = graph.constant {value = dense<[[[[1.625, -0.625, -0.5], [-1.125, 0.875, -2.25], [1.75, -0.75, 0.375]]], [[[-0.25, 1.5, -2.0], [-0.375, -0.375, 1.125], [-1.125, -0.125, -0.875]]]]> : tensor<2x1x3x3xf32>} : () -> tensor<2x1x3x3xf32>
  %c = graph.conv %x, %w {kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x1x4x5xf32>, tensor<2x1x3x3xf32>) -> tensor<1x2x4x5xf32>
  %s = graph.channel_shuffle %c {group = 2 : i64} : (tensor<1x2x4x5xf32>) -> tensor<1x2x4x5xf32>
  return %s : tensor<1x2x4x5xf32>
}
