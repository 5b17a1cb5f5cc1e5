// resize_channels_graph.mlir: ONNX Resize in mode linear over the channels,
// for test/Target/northpole/resize-channels.test: conv (3 channels), then
// linear resizes of its output that interpolate the channels: half_pixel
// 3 -> 6 channels and x2 in H and W, align_corners 3 -> 5 channels alone,
// pytorch_half_pixel 3 -> 2 channels (down) with W 6 -> 9; every resize is
// an output. The last resizes the network input's single channel to 4.
func.func @lin(%x: tensor<1x1x5x6xf32>) -> (tensor<1x6x10x12xf32>, tensor<1x5x5x6xf32>, tensor<1x2x5x9xf32>, tensor<1x4x5x6xf32>) {
  %w = graph.constant {value = dense<[[[[1.625, -0.625, -0.5], [-1.125, 0.875, -2.25], [1.75, -0.75, 0.375]]], [[[-0.25, 1.5, -2.0], [-0.375, -0.375, 1.125], [-1.125, -0.125, -0.875]]], [[[0.0, 0.625, -1.125], [1.125, 0.875, 0.5], [0.875, -0.625, -0.125]]]]> : tensor<3x1x3x3xf32>} : () -> tensor<3x1x3x3xf32>
  %c = graph.conv %x, %w {kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x1x5x6xf32>, tensor<3x1x3x3xf32>) -> tensor<1x3x5x6xf32>
  %y = graph.resize %c {mode = "linear", coordinate_transformation_mode = "half_pixel", sizes = array<i64: 1, 6, 10, 12>} : (tensor<1x3x5x6xf32>) -> tensor<1x6x10x12xf32>
  %z = graph.resize %c {mode = "linear", coordinate_transformation_mode = "align_corners", sizes = array<i64: 1, 5, 5, 6>} : (tensor<1x3x5x6xf32>) -> tensor<1x5x5x6xf32>
  %r = graph.resize %c {mode = "linear", coordinate_transformation_mode = "pytorch_half_pixel", sizes = array<i64: 1, 2, 5, 9>} : (tensor<1x3x5x6xf32>) -> tensor<1x2x5x9xf32>
  %i = graph.resize %x {mode = "linear", coordinate_transformation_mode = "asymmetric", sizes = array<i64: 1, 4, 5, 6>} : (tensor<1x1x5x6xf32>) -> tensor<1x4x5x6xf32>
  return %y, %z, %r, %i : tensor<1x6x10x12xf32>, tensor<1x5x5x6xf32>, tensor<1x2x5x9xf32>, tensor<1x4x5x6xf32>
}
