// pad_wide_graph.mlir: reflect pads as wide as the dim and wider, and
// ONNX Pad's wrap mode (within and wider than the dim), for
// test/Target/northpole/pad-wide.test: conv + relu, then the pads; every pad
// is an output. The last pads the network input itself.
func.func @pads(%x: tensor<1x1x4x5xf32>) -> (tensor<1x2x13x7xf32>, tensor<1x2x6x8xf32>, tensor<1x2x15x17xf32>, tensor<1x1x12x5xf32>) {
  %w = graph.constant {value = dense<[[[[1.625, -0.625, -0.5], [-1.125, 0.875, -2.25], [1.75, -0.75, 0.375]]], [[[-0.25, 1.5, -2.0], [-0.375, -0.375, 1.125], [-1.125, -0.125, -0.875]]]]> : tensor<2x1x3x3xf32>} : () -> tensor<2x1x3x3xf32>
  %c = graph.conv %x, %w {kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x1x4x5xf32>, tensor<2x1x3x3xf32>) -> tensor<1x2x4x5xf32>
  %r = graph.relu %c : (tensor<1x2x4x5xf32>) -> tensor<1x2x4x5xf32>
  %a = graph.pad %r {mode = "reflect", pads = array<i64: 0, 0, 4, 0, 0, 0, 5, 2>} : (tensor<1x2x4x5xf32>) -> tensor<1x2x13x7xf32>
  %b = graph.pad %r {mode = "wrap", pads = array<i64: 0, 0, 1, 2, 0, 0, 1, 1>} : (tensor<1x2x4x5xf32>) -> tensor<1x2x6x8xf32>
  %c2 = graph.pad %r {mode = "wrap", pads = array<i64: 0, 0, 6, 5, 0, 0, 5, 7>} : (tensor<1x2x4x5xf32>) -> tensor<1x2x15x17xf32>
  %i = graph.pad %x {mode = "reflect", pads = array<i64: 0, 0, 0, 0, 0, 0, 8, 0>} : (tensor<1x1x4x5xf32>) -> tensor<1x1x12x5xf32>
  return %a, %b, %c2, %i : tensor<1x2x13x7xf32>, tensor<1x2x6x8xf32>, tensor<1x2x15x17xf32>, tensor<1x1x12x5xf32>
}
