// The fixed-point checks the integer ops share with graph.requantize
// (invalid-requantize.mlir), each at the op that breaks it: (multiplier,
// shift) pairs the rescale can take, 'activation' relu or absent,
// 'output_zero_point' inside the result element type's range.
// RUN: nc-opt --split-input-file --verify-diagnostics %s

func.func @add_multiplier(%a: tensor<4xi8>, %b: tensor<4xi8>) {
  // expected-error@+1 {{'graph.add_integer' op expects multipliers in [0, 2^31), got -1 at 1}}
  %0 = graph.add_integer %a, %b {multiplier = array<i64: 1, -1>, shift = array<i64: 1, 1>} : (tensor<4xi8>, tensor<4xi8>) -> tensor<4xi8>
  return
}

// -----

func.func @sub_shift(%a: tensor<4xi8>, %b: tensor<4xi8>) {
  // expected-error@+1 {{'graph.sub_integer' op expects shifts in [0, 63], got 64 at 0}}
  %0 = graph.sub_integer %a, %b {multiplier = array<i64: 1, 1>, shift = array<i64: 64, 1>} : (tensor<4xi8>, tensor<4xi8>) -> tensor<4xi8>
  return
}

// -----

func.func @add_activation(%a: tensor<4xi8>, %b: tensor<4xi8>) {
  // expected-error@+1 {{'graph.add_integer' op expects 'activation' to be "relu" (or absent), got "tanh"}}
  %0 = graph.add_integer %a, %b {activation = "tanh", multiplier = array<i64: 1, 1>, shift = array<i64: 1, 1>} : (tensor<4xi8>, tensor<4xi8>) -> tensor<4xi8>
  return
}

// -----

func.func @add_zero_point(%a: tensor<4xi8>, %b: tensor<4xi8>) {
  // expected-error@+1 {{'graph.add_integer' op expects 'output_zero_point' (128) in the result element type's range [-128, 127]}}
  %0 = graph.add_integer %a, %b {multiplier = array<i64: 1, 1>, output_zero_point = 128 : i64, shift = array<i64: 1, 1>} : (tensor<4xi8>, tensor<4xi8>) -> tensor<4xi8>
  return
}

// -----

func.func @concat_multiplier(%a: tensor<1x2xi8>, %b: tensor<1x2xi8>) {
  // expected-error@+1 {{'graph.concat_integer' op expects multipliers in [0, 2^31), got 2147483648 at 1}}
  %0 = graph.concat_integer %a, %b {axis = 1 : i64, multiplier = array<i64: 1, 2147483648>, shift = array<i64: 1, 1>} : (tensor<1x2xi8>, tensor<1x2xi8>) -> tensor<1x4xi8>
  return
}

// -----

func.func @concat_zero_point(%a: tensor<1x2xui8>, %b: tensor<1x2xui8>) {
  // expected-error@+1 {{'graph.concat_integer' op expects 'output_zero_point' (-1) in the result element type's range [0, 255]}}
  %0 = graph.concat_integer %a, %b {axis = 1 : i64, multiplier = array<i64: 1, 1>, output_zero_point = -1 : i64, shift = array<i64: 1, 1>} : (tensor<1x2xui8>, tensor<1x2xui8>) -> tensor<1x4xui8>
  return
}

// -----

func.func @mul_shift(%a: tensor<1x2xi8>, %b: tensor<1x1xi8>) {
  // expected-error@+1 {{'graph.mul_integer' op expects shifts in [0, 63], got -3 at 0}}
  %0 = graph.mul_integer %a, %b {multiplier = 1 : i64, shift = -3 : i64} : (tensor<1x2xi8>, tensor<1x1xi8>) -> tensor<1x2xi8>
  return
}

// -----

func.func @mul_activation(%a: tensor<1x2xi8>, %b: tensor<1x1xi8>) {
  // expected-error@+1 {{'graph.mul_integer' op expects 'activation' to be "relu" (or absent), got "clip"}}
  %0 = graph.mul_integer %a, %b {activation = "clip", multiplier = 1 : i64, shift = 3 : i64} : (tensor<1x2xi8>, tensor<1x1xi8>) -> tensor<1x2xi8>
  return
}

// -----

func.func @mul_zero_point(%a: tensor<1x2xi8>, %b: tensor<1x1xi8>) {
  // expected-error@+1 {{'graph.mul_integer' op expects 'output_zero_point' (8) in the result element type's range [-8, 7]}}
  %0 = graph.mul_integer %a, %b {multiplier = 1 : i64, output_zero_point = 8 : i64, shift = 3 : i64} : (tensor<1x2xi8>, tensor<1x1xi8>) -> tensor<1x2xi4>
  return
}
