func.func @f(%x: tensor<8xi4>) -> tensor<8xi4> {
  %0 = graph.neg %x : (tensor<8xi4>) -> tensor<8xi4>
  return %0 : tensor<8xi4>
}
