// resize_nearest_channels_graph.mlir: nearest resizes of the channels
// (resize-channels.test): a conv's 3 channels to 6 with H x2
// (half_pixel, round_prefer_floor), to 5 (asymmetric, ceil), to 2
// (align_corners, round_prefer_ceil) and to 7 (tf_half_pixel_for_nn, floor);
// the network input's single channel to 4.
func.func @nearest(%x: tensor<1x1x5x6xf32>) -> (tensor<1x6x10x6xf32>, tensor<1x5x5x6xf32>, tensor<1x2x5x6xf32>, tensor<1x7x5x6xf32>, tensor<1x4x5x6xf32>) {
  %w = graph.constant {value = dense<[[[[1.625, -0.625, -0.5], [-1.125, 0.875, -2.25], [1.75, -0.75, 0.375]]], [[[-0.25, 1.5, -2.0], [-0.375, -0.375, 1.125], [-1.125, -0.125, -0.875]]], [[[0.0, 0.625, -1.125], [1.125, 0.875, 0.5], [0.875, -0.625, -0.125]]]]> : tensor<3x1x3x3xf32>} : () -> tensor<3x1x3x3xf32>
  %c = graph.conv %x, %w {kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x1x5x6xf32>, tensor<3x1x3x3xf32>) -> tensor<1x3x5x6xf32>
  %a = graph.resize %c {sizes = array<i64: 1, 6, 10, 6>} : (tensor<1x3x5x6xf32>) -> tensor<1x6x10x6xf32>
  %b = graph.resize %c {coordinate_transformation_mode = "asymmetric", nearest_mode = "ceil", sizes = array<i64: 1, 5, 5, 6>} : (tensor<1x3x5x6xf32>) -> tensor<1x5x5x6xf32>
  %d = graph.resize %c {coordinate_transformation_mode = "align_corners", nearest_mode = "round_prefer_ceil", sizes = array<i64: 1, 2, 5, 6>} : (tensor<1x3x5x6xf32>) -> tensor<1x2x5x6xf32>
  %e = graph.resize %c {coordinate_transformation_mode = "tf_half_pixel_for_nn", nearest_mode = "floor", sizes = array<i64: 1, 7, 5, 6>} : (tensor<1x3x5x6xf32>) -> tensor<1x7x5x6xf32>
  %i = graph.resize %x {sizes = array<i64: 1, 4, 5, 6>} : (tensor<1x1x5x6xf32>) -> tensor<1x4x5x6xf32>
  return %a, %b, %d, %e, %i : tensor<1x6x10x6xf32>, tensor<1x5x5x6xf32>, tensor<1x2x5x6xf32>, tensor<1x7x5x6xf32>, tensor<1x4x5x6xf32>
}
