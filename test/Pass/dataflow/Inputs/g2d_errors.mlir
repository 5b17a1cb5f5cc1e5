// Input of deps-threads.test: two ops graph-to-dataflow cannot describe
// (softmax) among six layers.
func.func @chain(%x: tensor<1x10xf32>) -> tensor<1x10xf32> {
  %0 = graph.relu %x : (tensor<1x10xf32>) -> tensor<1x10xf32>
  %1 = graph.relu %0 : (tensor<1x10xf32>) -> tensor<1x10xf32>
  %2 = graph.softmax %1 : (tensor<1x10xf32>) -> tensor<1x10xf32>
  %3 = graph.relu %2 : (tensor<1x10xf32>) -> tensor<1x10xf32>
  %4 = graph.softmax %3 : (tensor<1x10xf32>) -> tensor<1x10xf32>
  %5 = graph.relu %4 : (tensor<1x10xf32>) -> tensor<1x10xf32>
  return %5 : tensor<1x10xf32>
}
