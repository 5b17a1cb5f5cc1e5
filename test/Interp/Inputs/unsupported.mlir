func.func @main(%x: tensor<3xi32>) -> tensor<3xi32> {
  %c = arith.constant dense<1> : tensor<3xi32>
  %0 = graph.add %x, %c : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi32>
  return %0 : tensor<3xi32>
}
