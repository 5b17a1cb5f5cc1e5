// moves_graph.mlir: nearest resizes, a constant pad and a channel shuffle
// after a conv, for test/Target/xbar/moves.test: conv + relu, nearest x2
// (asymmetric, floor), a pad of 0.5 (its own layer: only zero pads fold into
// a conv), a shuffle of 2 groups; and a nearest resize by (3, 2) of the conv
// (half_pixel, round_prefer_floor: the same blocks). Both are outputs.
func.func @m(%x: tensor<1x1x4x5xf32>) -> (tensor<1x4x10x12xf32>, tensor<1x4x12x10xf32>) {
  %w = graph.constant {value = dense<[[[[1.625, -0.625, -0.5], [-1.125, 0.875, -2.25], [1.75, -0.75, 0.375]]], [[[-0.25, 1.5, -2.0], [-0.375, -0.375, 1.125], [-1.125, -0.125, -0.875]]], [[[0.0, 0.625, -1.125], [1.125, 0.875, 0.5], [0.875, -0.625, -0.125]]], [[[-1.5, 0.25, 0.75], [0.5, -0.875, 1.25], [-0.25, 1.0, -0.625]]]]> : tensor<4x1x3x3xf32>} : () -> tensor<4x1x3x3xf32>
  %c = graph.conv %x, %w {kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x1x4x5xf32>, tensor<4x1x3x3xf32>) -> tensor<1x4x4x5xf32>
  %r = graph.relu %c : (tensor<1x4x4x5xf32>) -> tensor<1x4x4x5xf32>
  %u = graph.resize %r {coordinate_transformation_mode = "asymmetric", nearest_mode = "floor", sizes = array<i64: 1, 4, 8, 10>} : (tensor<1x4x4x5xf32>) -> tensor<1x4x8x10xf32>
  %p = graph.pad %u {pads = array<i64: 0, 0, 1, 1, 0, 0, 1, 1>, value = 5.000000e-01 : f32} : (tensor<1x4x8x10xf32>) -> tensor<1x4x10x12xf32>
  %s = graph.channel_shuffle %p {group = 2 : i64} : (tensor<1x4x10x12xf32>) -> tensor<1x4x10x12xf32>
  %v = graph.resize %r {sizes = array<i64: 1, 4, 12, 10>} : (tensor<1x4x4x5xf32>) -> tensor<1x4x12x10xf32>
  return %s, %v : tensor<1x4x10x12xf32>, tensor<1x4x12x10xf32>
}
