// resize_linear_graph.mlir: ONNX Resize in mode linear for
// test/Target/northpole/resize-linear.test: conv, then three linear resizes of its
// output (half_pixel x2, align_corners to 7x4, pytorch_half_pixel to 4x9:
// up in one axis, down in the other); every resize is an output.
func.func @lin(%x: tensor<1x1x5x6xf32>) -> (tensor<1x3x10x12xf32>, tensor<1x3x7x4xf32>, tensor<1x3x4x9xf32>) {
  %w = graph.constant {value = dense<[[[[1.625, -0.625, -0.5], [-1.125, 0.875, -2.25], [1.75, -0.75, 0.375]]], [[[-0.25, 1.5, -2.0], [-0.375, -0.375, 1.125], [-1.125, -0.125, -0.875]]], [[[0.0, 0.625, -1.125], [1.125, 0.875, 0.5], [0.875, -0.625, -0.125]]]]> : tensor<3x1x3x3xf32>} : () -> tensor<3x1x3x3xf32>
  %c = graph.conv %x, %w {kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x1x5x6xf32>, tensor<3x1x3x3xf32>) -> tensor<1x3x5x6xf32>
  %y = graph.resize %c {mode = "linear", coordinate_transformation_mode = "half_pixel", sizes = array<i64: 1, 3, 10, 12>} : (tensor<1x3x5x6xf32>) -> tensor<1x3x10x12xf32>
  %z = graph.resize %c {mode = "linear", coordinate_transformation_mode = "align_corners", sizes = array<i64: 1, 3, 7, 4>} : (tensor<1x3x5x6xf32>) -> tensor<1x3x7x4xf32>
  %r = graph.resize %c {mode = "linear", coordinate_transformation_mode = "pytorch_half_pixel", sizes = array<i64: 1, 3, 4, 9>} : (tensor<1x3x5x6xf32>) -> tensor<1x3x4x9xf32>
  return %y, %z, %r : tensor<1x3x10x12xf32>, tensor<1x3x7x4xf32>, tensor<1x3x4x9xf32>
}
