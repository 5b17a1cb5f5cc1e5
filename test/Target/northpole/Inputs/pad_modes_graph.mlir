// pad_modes_graph.mlir: ONNX Pad's reflect and edge modes for
// test/Target/northpole/pad-modes.test: conv + relu, then a reflect pad
// (asymmetric, up to dim - 1 wide), an edge pad wider than the dim, and a
// reflect pad of the network input itself; every pad is an output.
func.func @pads(%x: tensor<1x1x4x5xf32>) -> (tensor<1x2x7x7xf32>, tensor<1x2x11x8xf32>, tensor<1x1x6x9xf32>) {
  %w = graph.constant {value = dense<[[[[1.625, -0.625, -0.5], [-1.125, 0.875, -2.25], [1.75, -0.75, 0.375]]], [[[-0.25, 1.5, -2.0], [-0.375, -0.375, 1.125], [-1.125, -0.125, -0.875]]]]> : tensor<2x1x3x3xf32>} : () -> tensor<2x1x3x3xf32>
  %c = graph.conv %x, %w {kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x1x4x5xf32>, tensor<2x1x3x3xf32>) -> tensor<1x2x4x5xf32>
  %r = graph.relu %c : (tensor<1x2x4x5xf32>) -> tensor<1x2x4x5xf32>
  %a = graph.pad %r {mode = "reflect", pads = array<i64: 0, 0, 3, 0, 0, 0, 0, 2>} : (tensor<1x2x4x5xf32>) -> tensor<1x2x7x7xf32>
  %e = graph.pad %r {mode = "edge", pads = array<i64: 0, 0, 2, 1, 0, 0, 5, 2>} : (tensor<1x2x4x5xf32>) -> tensor<1x2x11x8xf32>
  %i = graph.pad %x {mode = "reflect", pads = array<i64: 0, 0, 1, 4, 0, 0, 1, 0>} : (tensor<1x1x4x5xf32>) -> tensor<1x1x6x9xf32>
  return %a, %e, %i : tensor<1x2x7x7xf32>, tensor<1x2x11x8xf32>, tensor<1x1x6x9xf32>
}
