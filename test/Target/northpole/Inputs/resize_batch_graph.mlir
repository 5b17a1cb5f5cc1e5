// resize_batch_graph.mlir: a linear resize of the batch dim (1 -> 2
// images), which northpole has no layer for (resize-channels.test).
func.func @batch(%x: tensor<1x1x5x6xf32>) -> tensor<2x1x5x6xf32> {
  %y = graph.resize %x {mode = "linear", sizes = array<i64: 2, 1, 5, 6>} : (tensor<1x1x5x6xf32>) -> tensor<2x1x5x6xf32>
  return %y : tensor<2x1x5x6xf32>
}
