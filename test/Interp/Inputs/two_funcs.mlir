func.func @double(%x: tensor<3xf32>) -> tensor<3xf32> {
  %0 = graph.add %x, %x : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}
func.func @square(%x: tensor<3xf32>) -> tensor<3xf32> {
  %0 = graph.mul %x, %x : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}
