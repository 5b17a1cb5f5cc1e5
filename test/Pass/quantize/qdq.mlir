// A pre-quantized (QDQ) graph: graph-quantize takes the scales of the
// QuantizeLinear -> DequantizeLinear pairs (input 0.5, conv result 0.25)
// and runs with no calibration file; the pairs become the identity on int8.
// Requantize scale: 0.5 * (1/127) / 0.25 = 2/127 = 1082196484 / 2^36.
// RUN: nc-opt --graph-quantize %s | FileCheck %s

// CHECK-LABEL: func.func @qdq
// CHECK: %[[S:[0-9]+]] = graph.constant {value = dense<5.000000e-01> : tensor<f32>}
// CHECK: %[[Q:[0-9]+]] = graph.quantize_linear %arg0, %[[S]]
// CHECK: %[[ACC:[0-9]+]] = graph.conv_integer %[[Q]]
// CHECK: %[[R:[0-9]+]] = graph.requantize %[[ACC]] {activation = "relu", axis = 1 : i64, multiplier = array<i64: 1082196484>, output_zero_point = 0 : i64, shift = array<i64: 36>}
// CHECK: %[[S2:[0-9]+]] = graph.constant {value = dense<2.500000e-01> : tensor<f32>}
// CHECK: %[[Y:[0-9]+]] = graph.dequantize_linear %[[R]], %[[S2]]
// CHECK-NEXT: return %[[Y]]
func.func @qdq(%x: tensor<1x1x1x2xf32>) -> tensor<1x1x1x2xf32> {
  %s = graph.constant {value = dense<0.5> : tensor<f32>} : () -> tensor<f32>
  %z = graph.constant {value = dense<0> : tensor<i8>} : () -> tensor<i8>
  %s2 = graph.constant {value = dense<0.25> : tensor<1xf32>} : () -> tensor<1xf32>
  %z2 = graph.constant {value = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %w = graph.constant {value = dense<1.0> : tensor<1x1x1x1xf32>} : () -> tensor<1x1x1x1xf32>
  %0 = graph.quantize_linear %x, %s, %z : (tensor<1x1x1x2xf32>, tensor<f32>, tensor<i8>) -> tensor<1x1x1x2xi8>
  %1 = graph.dequantize_linear %0, %s, %z : (tensor<1x1x1x2xi8>, tensor<f32>, tensor<i8>) -> tensor<1x1x1x2xf32>
  %2 = graph.conv %1, %w {activation = "relu"} : (tensor<1x1x1x2xf32>, tensor<1x1x1x1xf32>) -> tensor<1x1x1x2xf32>
  %3 = graph.quantize_linear %2, %s2, %z2 : (tensor<1x1x1x2xf32>, tensor<1xf32>, tensor<1xi8>) -> tensor<1x1x1x2xi8>
  %4 = graph.dequantize_linear %3, %s2, %z2 : (tensor<1x1x1x2xi8>, tensor<1xf32>, tensor<1xi8>) -> tensor<1x1x1x2xf32>
  return %4 : tensor<1x1x1x2xf32>
}
