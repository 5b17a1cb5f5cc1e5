// Dynamic dims defer the check to run time: a reshape that cannot fit fails there.
func.func @main(%x: tensor<?x4xf32>) -> tensor<3x?xf32> {
  %0 = graph.reshape %x {shape = array<i64: 3, -1>} : (tensor<?x4xf32>) -> tensor<3x?xf32>
  return %0 : tensor<3x?xf32>
}
