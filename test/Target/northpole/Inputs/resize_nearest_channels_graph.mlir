// resize_nearest_channels_graph.mlir: a nearest resize of the channels,
// which northpole has no layer for (resize-channels.test).
func.func @nearest(%x: tensor<1x1x5x6xf32>) -> tensor<1x2x5x6xf32> {
  %y = graph.resize %x {sizes = array<i64: 1, 2, 5, 6>} : (tensor<1x1x5x6xf32>) -> tensor<1x2x5x6xf32>
  return %y : tensor<1x2x5x6xf32>
}
