// seq-transpose.mlir: a transpose (a copy layer with `perm`), which the seq example target's printer
// does not read: nc's layer check refuses it at the node, with no code for it in the plugin.
func.func @t(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32> {
  %p = graph.transpose %x {perm = array<i64: 0, 1, 3, 2>} : (tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  return %p : tensor<1x2x4x4xf32>
}
