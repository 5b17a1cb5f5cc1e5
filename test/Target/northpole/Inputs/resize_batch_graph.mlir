// resize_batch_graph.mlir: resizes of one image into a batch
// (resize-channels.test), every image of the result the same: linear
// 1 -> 2 images with H and W x2 (half_pixel), linear 1 -> 3 images with 3 ->
// 5 channels (align_corners), nearest 1 -> 2 images of the network input
// with H x2 and W x3, nearest 1 -> 2 images with 3 -> 6 channels; and a
// reshape of the conv's 3 channels into 3 images (a copy into a batch).
func.func @batch(%x: tensor<1x1x5x6xf32>) -> (tensor<2x3x10x12xf32>, tensor<3x5x5x6xf32>, tensor<2x1x10x18xf32>, tensor<2x6x5x6xf32>, tensor<3x1x5x6xf32>) {
  %w = graph.constant {value = dense<[[[[1.625, -0.625, -0.5], [-1.125, 0.875, -2.25], [1.75, -0.75, 0.375]]], [[[-0.25, 1.5, -2.0], [-0.375, -0.375, 1.125], [-1.125, -0.125, -0.875]]], [[[0.0, 0.625, -1.125], [1.125, 0.875, 0.5], [0.875, -0.625, -0.125]]]]> : tensor<3x1x3x3xf32>} : () -> tensor<3x1x3x3xf32>
  %c = graph.conv %x, %w {kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x1x5x6xf32>, tensor<3x1x3x3xf32>) -> tensor<1x3x5x6xf32>
  %a = graph.resize %c {mode = "linear", sizes = array<i64: 2, 3, 10, 12>} : (tensor<1x3x5x6xf32>) -> tensor<2x3x10x12xf32>
  %b = graph.resize %c {mode = "linear", coordinate_transformation_mode = "align_corners", sizes = array<i64: 3, 5, 5, 6>} : (tensor<1x3x5x6xf32>) -> tensor<3x5x5x6xf32>
  %n = graph.resize %x {coordinate_transformation_mode = "asymmetric", nearest_mode = "floor", sizes = array<i64: 2, 1, 10, 18>} : (tensor<1x1x5x6xf32>) -> tensor<2x1x10x18xf32>
  %m = graph.resize %c {sizes = array<i64: 2, 6, 5, 6>} : (tensor<1x3x5x6xf32>) -> tensor<2x6x5x6xf32>
  %r = graph.reshape %c {shape = array<i64: 3, 1, 5, 6>} : (tensor<1x3x5x6xf32>) -> tensor<3x1x5x6xf32>
  return %a, %b, %n, %m, %r : tensor<2x3x10x12xf32>, tensor<3x5x5x6xf32>, tensor<2x1x10x18xf32>, tensor<2x6x5x6xf32>, tensor<3x1x5x6xf32>
}
