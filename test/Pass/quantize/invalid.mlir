// graph-quantize rejects what it cannot make integer, with an error at the op
// (or the function) and nothing changed; the checks come before calibration.
// RUN: %python %S/Inputs/calibration.py %t
// RUN: nc-opt --split-input-file --verify-diagnostics --graph-quantize=calibration=%t/conv.npy %s

func.func @add(%x: tensor<1x1x1x2xf32>) -> tensor<1x1x1x2xf32> {
  %c = graph.constant {value = dense<1.0> : tensor<1x1x1x2xf32>} : () -> tensor<1x1x1x2xf32>
  // expected-error@+1 {{graph-quantize cannot quantize 'graph.add': it has no integer form here (supported: conv, gemm and matmul with constant weights and an optional fused relu; add and sub of two activations of one shape; concat; mul of two activations, one broadcasting; sigmoid, hard_sigmoid, hard_swish, tanh, erf, leaky_relu, elu, softplus and clip as tables; avg_pool, channel_shuffle, flatten, global_avg_pool, global_max_pool, identity, max_pool, pad, relu, reshape, resize, squeeze, transpose, unsqueeze); graph-optimize folds bias adds and batch_norm into the conv or gemm before them}}
  %0 = graph.add %x, %c : (tensor<1x1x1x2xf32>, tensor<1x1x1x2xf32>) -> tensor<1x1x1x2xf32>
  return %0 : tensor<1x1x1x2xf32>
}

// -----

// A pad left by canonicalize keeps its input's scale (conv.npy: 2^-7); its
// fill value must be an int8 code there, and 1.0 is 128 steps.
func.func @pad(%x: tensor<1x1x1x2xf32>) -> tensor<1x1x3x4xf32> {
  // expected-error@+1 {{graph-quantize cannot quantize 'graph.pad': its value 1 is 128 steps of the input's scale 0.0078125, outside the 8-bit range}}
  %0 = graph.pad %x {pads = array<i64: 0, 0, 1, 1, 0, 0, 1, 1>, value = 1.0 : f32} : (tensor<1x1x1x2xf32>) -> tensor<1x1x3x4xf32>
  return %0 : tensor<1x1x3x4xf32>
}

// -----

func.func @softmax_after_conv(%x: tensor<1x1x1x2xf32>) -> tensor<1x1x1x2xf32> {
  %w = graph.constant {value = dense<1.0> : tensor<1x1x1x1xf32>} : () -> tensor<1x1x1x1xf32>
  %0 = graph.conv %x, %w : (tensor<1x1x1x2xf32>, tensor<1x1x1x1xf32>) -> tensor<1x1x1x2xf32>
  // expected-error@+1 {{graph-quantize cannot quantize 'graph.softmax' along axis 1: only the last axis}}
  %1 = graph.softmax %0 {axis = 1 : i64} : (tensor<1x1x1x2xf32>) -> tensor<1x1x1x2xf32>
  return %1 : tensor<1x1x1x2xf32>
}

// -----

func.func @weights_not_constant(%x: tensor<2x2xf32>) -> tensor<2x2xf32> {
  %t = graph.transpose %x : (tensor<2x2xf32>) -> tensor<2x2xf32>
  // expected-error@+1 {{graph-quantize cannot quantize 'graph.matmul': its weight is not a constant}}
  %0 = graph.matmul %x, %t : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}

// -----

func.func @bias_not_constant(%x: tensor<1x2xf32>) -> tensor<1x2xf32> {
  %w = graph.constant {value = dense<1.0> : tensor<2x2xf32>} : () -> tensor<2x2xf32>
  // expected-error@+1 {{graph-quantize cannot quantize 'graph.gemm': its bias is not a constant}}
  %0 = graph.gemm %x, %w, %x : (tensor<1x2xf32>, tensor<2x2xf32>, tensor<1x2xf32>) -> tensor<1x2xf32>
  return %0 : tensor<1x2xf32>
}

// -----

func.func @trans_a(%x: tensor<2x1xf32>) -> tensor<1x2xf32> {
  %w = graph.constant {value = dense<1.0> : tensor<2x2xf32>} : () -> tensor<2x2xf32>
  // expected-error@+1 {{graph-quantize cannot quantize 'graph.gemm' with trans_a (transpose the input first)}}
  %0 = graph.gemm %x, %w {trans_a = 1 : i64} : (tensor<2x1xf32>, tensor<2x2xf32>) -> tensor<1x2xf32>
  return %0 : tensor<1x2xf32>
}

// -----

func.func @bias_per_row(%x: tensor<2x2xf32>) -> tensor<2x2xf32> {
  %w = graph.constant {value = dense<1.0> : tensor<2x2xf32>} : () -> tensor<2x2xf32>
  %c = graph.constant {value = dense<[[1.0], [2.0]]> : tensor<2x1xf32>} : () -> tensor<2x1xf32>
  // expected-error@+1 {{graph-quantize cannot quantize 'graph.gemm' whose c differs between rows (it needs one bias per output column)}}
  %0 = graph.gemm %x, %w, %c : (tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x1xf32>) -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}

// -----

func.func @batched_weights(%x: tensor<2x1x2xf32>) -> tensor<2x1x2xf32> {
  %w = graph.constant {value = dense<1.0> : tensor<2x2x2xf32>} : () -> tensor<2x2x2xf32>
  // expected-error@+1 {{graph-quantize cannot quantize 'graph.matmul' with 3-D weights (only 2-D)}}
  %0 = graph.matmul %x, %w : (tensor<2x1x2xf32>, tensor<2x2x2xf32>) -> tensor<2x1x2xf32>
  return %0 : tensor<2x1x2xf32>
}

// -----

func.func @vector_input(%x: tensor<2xf32>) -> tensor<2xf32> {
  %w = graph.constant {value = dense<1.0> : tensor<2x2xf32>} : () -> tensor<2x2xf32>
  // expected-error@+1 {{graph-quantize cannot quantize 'graph.matmul' of a 1-D input}}
  %0 = graph.matmul %x, %w : (tensor<2xf32>, tensor<2x2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @of_a_constant(%x: tensor<1x2xf32>) -> tensor<1x2xf32> {
  %c = graph.constant {value = dense<1.0> : tensor<1x2xf32>} : () -> tensor<1x2xf32>
  // expected-error@+1 {{graph-quantize cannot quantize 'graph.relu' of a constant (run graph-optimize first to fold constant subgraphs)}}
  %0 = graph.relu %c : (tensor<1x2xf32>) -> tensor<1x2xf32>
  return %0 : tensor<1x2xf32>
}

// -----

// expected-error@+1 {{graph-quantize expects a statically shaped f32 tensor input, got 'tensor<1x2xf16>'}}
func.func @f16(%x: tensor<1x2xf16>) -> tensor<1x2xf16> {
  %0 = graph.relu %x : (tensor<1x2xf16>) -> tensor<1x2xf16>
  return %0 : tensor<1x2xf16>
}

// -----

// expected-error@+1 {{graph-quantize expects a function of one input (the calibration data's), got 2}}
func.func @two_inputs(%x: tensor<1x2xf32>, %y: tensor<1x2xf32>) -> tensor<1x2xf32> {
  return %x : tensor<1x2xf32>
}

// -----

// expected-error@+1 {{graph-quantize expects a statically shaped f32 tensor input, got 'tensor<?x2xf32>'}}
func.func @dynamic(%x: tensor<?x2xf32>) -> tensor<?x2xf32> {
  return %x : tensor<?x2xf32>
}

// -----

// The calibration inputs (conv.npy: [2, 1, 1, 1, 2]) are not this function's.
// expected-error@+1 {{conv.npy' has shape [2, 1, 1, 1, 2]; expected N inputs of shape [1, 3], i.e. an array of shape [N, 1, 3] or [N*1, 3]}}
func.func @mismatch(%x: tensor<1x3xf32>) -> tensor<1x3xf32> {
  %0 = graph.relu %x : (tensor<1x3xf32>) -> tensor<1x3xf32>
  return %0 : tensor<1x3xf32>
}
