// seq-unsupported.mlir: a layer kind the seq example target does not run (a global max pool): its
// printer refuses it at the node.
func.func @u(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x1x1xf32> {
  %p = graph.global_max_pool %x : (tensor<1x2x4x4xf32>) -> tensor<1x2x1x1xf32>
  return %p : tensor<1x2x1x1xf32>
}
