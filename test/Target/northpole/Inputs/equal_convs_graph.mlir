// equal_convs_graph.mlir: three 3x3 convs + relu with equal shapes in a
// chain (equal domains, writes and result types, unequal weights) for
// test/Target/northpole/equal-nodes.test; the first and last are outputs.
func.func @equal(%x: tensor<1x2x8x8xf32>) -> (tensor<1x2x8x8xf32>, tensor<1x2x8x8xf32>) {
  %w1 = graph.constant {value = dense<[[[[0.5, -0.25, 0.125], [1.0, -0.5, 0.25], [0.75, 0.5, -1.0]], [[-0.5, 0.25, 0.5], [0.125, 1.0, -0.75], [0.25, -0.125, 0.5]]], [[[1.0, 0.5, -0.5], [-0.25, 0.75, 0.125], [0.5, -1.0, 0.25]], [[0.25, 0.5, 0.75], [-0.5, -0.25, 1.0], [0.125, 0.5, -0.5]]]]> : tensor<2x2x3x3xf32>} : () -> tensor<2x2x3x3xf32>
  %w2 = graph.constant {value = dense<[[[[-0.5, 0.75, 0.25], [0.5, 0.5, -0.125], [1.0, -0.25, 0.5]], [[0.25, -0.75, 1.0], [0.5, 0.125, 0.25], [-0.5, 0.75, 0.5]]], [[[0.125, -0.5, 0.75], [1.0, 0.25, -0.25], [0.5, 0.5, 0.125]], [[-1.0, 0.25, 0.5], [0.75, -0.125, 0.25], [0.5, 1.0, -0.5]]]]> : tensor<2x2x3x3xf32>} : () -> tensor<2x2x3x3xf32>
  %w3 = graph.constant {value = dense<[[[[0.25, 0.5, -0.75], [-0.125, 1.0, 0.5], [0.5, -0.5, 0.25]], [[1.0, 0.25, -0.25], [0.5, -0.75, 0.125], [0.25, 0.5, 1.0]]], [[[-0.25, 1.0, 0.5], [0.75, -0.5, 0.25], [0.125, 0.25, -1.0]], [[0.5, -0.125, 0.75], [0.25, 0.5, -0.5], [1.0, 0.5, 0.25]]]]> : tensor<2x2x3x3xf32>} : () -> tensor<2x2x3x3xf32>
  %c1 = graph.conv %x, %w1 {kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x2x8x8xf32>, tensor<2x2x3x3xf32>) -> tensor<1x2x8x8xf32>
  %r1 = graph.relu %c1 : (tensor<1x2x8x8xf32>) -> tensor<1x2x8x8xf32>
  %c2 = graph.conv %r1, %w2 {kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x2x8x8xf32>, tensor<2x2x3x3xf32>) -> tensor<1x2x8x8xf32>
  %r2 = graph.relu %c2 : (tensor<1x2x8x8xf32>) -> tensor<1x2x8x8xf32>
  %c3 = graph.conv %r2, %w3 {kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x2x8x8xf32>, tensor<2x2x3x3xf32>) -> tensor<1x2x8x8xf32>
  %r3 = graph.relu %c3 : (tensor<1x2x8x8xf32>) -> tensor<1x2x8x8xf32>
  return %r1, %r3 : tensor<1x2x8x8xf32>, tensor<1x2x8x8xf32>
}
