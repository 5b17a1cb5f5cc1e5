// A two-layer perceptron with a fused activation, for nc-run's tests.
func.func @main(%x: tensor<1x3xf32>) -> (tensor<1x2xf32>, tensor<1x4xf32>) {
  %w1 = graph.constant {value = dense<[[1.0, 0.0, -1.0, 0.5], [0.0, 2.0, 1.0, -0.5], [1.0, 1.0, 1.0, 1.0]]> : tensor<3x4xf32>} : () -> tensor<3x4xf32>
  %b1 = graph.constant {value = dense<[0.0, -10.0, 0.5, 0.0]> : tensor<4xf32>} : () -> tensor<4xf32>
  %w2 = graph.constant {value = dense<[[1.0, -1.0], [1.0, 1.0], [0.5, 0.0], [0.0, 2.0]]> : tensor<4x2xf32>} : () -> tensor<4x2xf32>
  %h = graph.gemm %x, %w1, %b1 {activation = "relu"} : (tensor<1x3xf32>, tensor<3x4xf32>, tensor<4xf32>) -> tensor<1x4xf32>
  %y = graph.matmul %h, %w2 : (tensor<1x4xf32>, tensor<4x2xf32>) -> tensor<1x2xf32>
  return %y, %h : tensor<1x2xf32>, tensor<1x4xf32>
}
