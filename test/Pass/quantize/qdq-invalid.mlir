// Pre-quantized (QDQ) graphs nc cannot take as they are: an error at the
// QuantizeLinear / DequantizeLinear node saying why, and nothing changed
// (no calibration file is given: the model's scales would be used).
// RUN: nc-opt --split-input-file --verify-diagnostics --graph-quantize %s

func.func @zero_point(%x: tensor<1x2xf32>) -> tensor<1x2xf32> {
  %s = graph.constant {value = dense<0.5> : tensor<f32>} : () -> tensor<f32>
  %z = graph.constant {value = dense<3> : tensor<i8>} : () -> tensor<i8>
  // expected-error@+1 {{graph-quantize: the zero point of this 'graph.quantize_linear' is 3; nc takes pre-quantized activations with zero point 0 (symmetric)}}
  %0 = graph.quantize_linear %x, %s, %z : (tensor<1x2xf32>, tensor<f32>, tensor<i8>) -> tensor<1x2xi8>
  %1 = graph.dequantize_linear %0, %s, %z : (tensor<1x2xi8>, tensor<f32>, tensor<i8>) -> tensor<1x2xf32>
  return %1 : tensor<1x2xf32>
}

// -----

func.func @uint8(%x: tensor<1x2xf32>) -> tensor<1x2xf32> {
  %s = graph.constant {value = dense<0.5> : tensor<f32>} : () -> tensor<f32>
  %z = graph.constant {value = dense<0> : tensor<ui8>} : () -> tensor<ui8>
  // expected-error@+1 {{graph-quantize: this 'graph.quantize_linear' is not int8; nc takes pre-quantized activations as signed int8 (or int4 / int2) with zero point 0}}
  %0 = graph.quantize_linear %x, %s, %z : (tensor<1x2xf32>, tensor<f32>, tensor<ui8>) -> tensor<1x2xui8>
  %1 = graph.dequantize_linear %0, %s, %z : (tensor<1x2xui8>, tensor<f32>, tensor<ui8>) -> tensor<1x2xf32>
  return %1 : tensor<1x2xf32>
}

// -----

func.func @per_axis(%x: tensor<1x2xf32>) -> tensor<1x2xf32> {
  %s = graph.constant {value = dense<[0.5, 0.25]> : tensor<2xf32>} : () -> tensor<2xf32>
  // expected-error@+1 {{graph-quantize: this 'graph.quantize_linear' has 2 scales (per axis); activations take one scale per tensor}}
  %0 = graph.quantize_linear %x, %s {axis = 1 : i64} : (tensor<1x2xf32>, tensor<2xf32>) -> tensor<1x2xi8>
  %1 = graph.dequantize_linear %0, %s {axis = 1 : i64} : (tensor<1x2xi8>, tensor<2xf32>) -> tensor<1x2xf32>
  return %1 : tensor<1x2xf32>
}

// -----

func.func @int_weights_not_folded(%x: tensor<1x2xf32>) -> tensor<1x2xf32> {
  %s = graph.constant {value = dense<0.5> : tensor<f32>} : () -> tensor<f32>
  %c = graph.constant {value = dense<1> : tensor<1x2xi8>} : () -> tensor<1x2xi8>
  // expected-error@+1 {{graph-quantize: this 'graph.dequantize_linear' of a stored integer tensor was not folded into a constant (run graph-optimize first)}}
  %0 = graph.dequantize_linear %c, %s : (tensor<1x2xi8>, tensor<f32>) -> tensor<1x2xf32>
  %1 = graph.add %x, %0 : (tensor<1x2xf32>, tensor<1x2xf32>) -> tensor<1x2xf32>
  return %1 : tensor<1x2xf32>
}

// -----

func.func @qoperator(%x: tensor<1x2xf32>) -> tensor<1x2xf32> {
  %s = graph.constant {value = dense<0.5> : tensor<f32>} : () -> tensor<f32>
  %z = graph.constant {value = dense<0> : tensor<i8>} : () -> tensor<i8>
  %w = graph.constant {value = dense<1> : tensor<2x2xi8>} : () -> tensor<2x2xi8>
  %0 = graph.quantize_linear %x, %s, %z : (tensor<1x2xf32>, tensor<f32>, tensor<i8>) -> tensor<1x2xi8>
  // expected-error@+1 {{graph-quantize: 'graph.qlinear_matmul' of a quantized value: only DequantizeLinear may use a QuantizeLinear result (QDQ form); run graph-optimize (graph-qoperator-to-qdq) first, which rewrites QLinearConv and QLinearMatMul into that form}}
  %1 = graph.qlinear_matmul %0, %s, %z, %w, %s, %z, %s, %z : (tensor<1x2xi8>, tensor<f32>, tensor<i8>, tensor<2x2xi8>, tensor<f32>, tensor<i8>, tensor<f32>, tensor<i8>) -> tensor<1x2xi8>
  %2 = graph.dequantize_linear %1, %s, %z : (tensor<1x2xi8>, tensor<f32>, tensor<i8>) -> tensor<1x2xf32>
  return %2 : tensor<1x2xf32>
}

// -----

func.func @pair_scales_differ(%x: tensor<1x2xf32>) -> tensor<1x2xf32> {
  %s = graph.constant {value = dense<0.5> : tensor<f32>} : () -> tensor<f32>
  %s2 = graph.constant {value = dense<0.25> : tensor<f32>} : () -> tensor<f32>
  %0 = graph.quantize_linear %x, %s : (tensor<1x2xf32>, tensor<f32>) -> tensor<1x2xi8>
  // expected-error@+1 {{graph-quantize: this DequantizeLinear's scale 0.25 differs from its QuantizeLinear's 0.5}}
  %1 = graph.dequantize_linear %0, %s2 : (tensor<1x2xi8>, tensor<f32>) -> tensor<1x2xf32>
  return %1 : tensor<1x2xf32>
}
