// Graph functions whose constants sit right before their users (as the ONNX
// importer writes them): graph-to-dataflow followed by dataflow-inline gives
// them back byte for byte.
func.func @cnn(%x: tensor<1x1x8x8xf32>) -> tensor<1x10xf32> {
  %w1 = graph.constant {value = dense<0.5> : tensor<4x1x3x3xf32>} : () -> tensor<4x1x3x3xf32>
  %b1 = graph.constant {value = dense<0.1> : tensor<4xf32>} : () -> tensor<4xf32>
  %c1 = graph.conv %x, %w1, %b1 {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x1x8x8xf32>, tensor<4x1x3x3xf32>, tensor<4xf32>) -> tensor<1x4x8x8xf32>
  %r1 = graph.relu %c1 : (tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  %p = graph.max_pool %r1 {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x4x8x8xf32>) -> tensor<1x4x4x4xf32>
  %w2 = graph.constant {value = dense<-0.25> : tensor<4x4x3x3xf32>} : () -> tensor<4x4x3x3xf32>
  %c2 = graph.conv %p, %w2 {pads = array<i64: 1, 1, 1, 1>, activation = "relu"} : (tensor<1x4x4x4xf32>, tensor<4x4x3x3xf32>) -> tensor<1x4x4x4xf32>
  %a = graph.add %c2, %p : (tensor<1x4x4x4xf32>, tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  %f = graph.flatten %a : (tensor<1x4x4x4xf32>) -> tensor<1x64xf32>
  %w3 = graph.constant {value = dense<0.125> : tensor<10x64xf32>} : () -> tensor<10x64xf32>
  %b3 = graph.constant {value = dense<1.0> : tensor<10xf32>} : () -> tensor<10xf32>
  %g = graph.gemm %f, %w3, %b3 {trans_b = 1 : i64} : (tensor<1x64xf32>, tensor<10x64xf32>, tensor<10xf32>) -> tensor<1x10xf32>
  return %g : tensor<1x10xf32>
}

func.func @int8(%x: tensor<1x1x4x4xf32>) -> tensor<1x2x4x4xf32> {
  %s = graph.constant {value = dense<0.05> : tensor<f32>} : () -> tensor<f32>
  %z = graph.constant {value = dense<0> : tensor<i8>} : () -> tensor<i8>
  %q = graph.quantize_linear %x, %s, %z : (tensor<1x1x4x4xf32>, tensor<f32>, tensor<i8>) -> tensor<1x1x4x4xi8>
  %w = graph.constant {value = dense<3> : tensor<2x1x3x3xi8>} : () -> tensor<2x1x3x3xi8>
  %c = graph.conv_integer %q, %w {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x1x4x4xi8>, tensor<2x1x3x3xi8>) -> tensor<1x2x4x4xi32>
  %s2 = graph.constant {value = dense<0.01> : tensor<f32>} : () -> tensor<f32>
  %d = graph.dequantize_linear %c, %s2 : (tensor<1x2x4x4xi32>, tensor<f32>) -> tensor<1x2x4x4xf32>
  return %d : tensor<1x2x4x4xf32>
}
