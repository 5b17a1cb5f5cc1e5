// pools_graph.mlir: a float graph of pools with every kind of padding for
// test/Target/northpole/pools.test: conv + relu, a 3x3 average pool with
// pads 1 not counting them, a ceil_mode max pool with asymmetric pads, a
// ceil_mode 2x2 average pool counting its end padding, a global average
// pool, flatten, and a global max pool of the first pool; every pool's result
// is an output.
func.func @pools(%x: tensor<1x1x9x9xf32>) -> (tensor<1x4x9x9xf32>, tensor<1x4x5x5xf32>, tensor<1x4x3x3xf32>, tensor<1x4xf32>, tensor<1x4x1x1xf32>) {
  %w = graph.constant {value = dense<[[[[1.625, -0.625, -0.5], [-1.125, 0.875, -2.25], [1.75, -0.75, 0.375]]], [[[-0.25, 1.5, -2.0], [-0.375, -0.375, 1.125], [-1.125, -0.125, -0.875]]], [[[0.0, 0.625, -1.125], [1.125, 0.875, 0.5], [0.875, -0.625, -0.125]]], [[[-0.875, -0.25, 0.5], [-0.75, -0.375, -0.625], [-0.875, -0.625, -0.0]]]]> : tensor<4x1x3x3xf32>} : () -> tensor<4x1x3x3xf32>
  %c = graph.conv %x, %w {kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x1x9x9xf32>, tensor<4x1x3x3xf32>) -> tensor<1x4x9x9xf32>
  %r = graph.relu %c : (tensor<1x4x9x9xf32>) -> tensor<1x4x9x9xf32>
  %a = graph.avg_pool %r {kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x4x9x9xf32>) -> tensor<1x4x9x9xf32>
  %m = graph.max_pool %a {kernel_shape = array<i64: 3, 3>, strides = array<i64: 2, 2>, pads = array<i64: 1, 0, 0, 1>, ceil_mode = 1 : i64} : (tensor<1x4x9x9xf32>) -> tensor<1x4x5x5xf32>
  %b = graph.avg_pool %m {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>, pads = array<i64: 0, 0, 1, 1>, ceil_mode = 1 : i64, count_include_pad = 1 : i64} : (tensor<1x4x5x5xf32>) -> tensor<1x4x3x3xf32>
  %g = graph.global_avg_pool %b : (tensor<1x4x3x3xf32>) -> tensor<1x4x1x1xf32>
  %f = graph.flatten %g : (tensor<1x4x1x1xf32>) -> tensor<1x4xf32>
  %gm = graph.global_max_pool %a : (tensor<1x4x9x9xf32>) -> tensor<1x4x1x1xf32>
  return %a, %m, %b, %f, %gm : tensor<1x4x9x9xf32>, tensor<1x4x5x5xf32>, tensor<1x4x3x3xf32>, tensor<1x4xf32>, tensor<1x4x1x1xf32>
}
