// Invalid graph.requantize ops: each gets a diagnostic naming the broken
// constraint (operand and result types, attribute values and lengths,
// channel counts along axis, the zero point's range).
// RUN: nc-opt --split-input-file --verify-diagnostics %s

func.func @not_i32(%acc: tensor<2x3xi16>) {
  // expected-error@+1 {{'graph.requantize' op operand #0 must be ranked tensor of 32-bit signless integer values, but got 'tensor<2x3xi16>'}}
  %0 = graph.requantize %acc {multiplier = array<i64: 1>, shift = array<i64: 1>} : (tensor<2x3xi16>) -> tensor<2x3xi8>
  return
}

// -----

func.func @float_result(%acc: tensor<2x3xi32>) {
  // expected-error@+1 {{'graph.requantize' op result #0 must be ranked tensor of 2- to 32-bit integer values, but got 'tensor<2x3xf32>'}}
  %0 = graph.requantize %acc {multiplier = array<i64: 1>, shift = array<i64: 1>} : (tensor<2x3xi32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @missing_shift(%acc: tensor<2x3xi32>) {
  // expected-error@+1 {{'graph.requantize' op requires attribute 'shift'}}
  %0 = graph.requantize %acc {multiplier = array<i64: 1>} : (tensor<2x3xi32>) -> tensor<2x3xi8>
  return
}

// -----

func.func @lengths(%acc: tensor<2x3xi32>) {
  // expected-error@+1 {{'graph.requantize' op expects 'multiplier' and 'shift' to have the same number of entries (at least one), got 2 and 1}}
  %0 = graph.requantize %acc {multiplier = array<i64: 1, 2>, shift = array<i64: 1>} : (tensor<2x3xi32>) -> tensor<2x3xi8>
  return
}

// -----

func.func @big_multiplier(%acc: tensor<2x3xi32>) {
  // expected-error@+1 {{'graph.requantize' op expects multipliers in [0, 2^31), got 2147483648 at 0}}
  %0 = graph.requantize %acc {multiplier = array<i64: 2147483648>, shift = array<i64: 1>} : (tensor<2x3xi32>) -> tensor<2x3xi8>
  return
}

// -----

func.func @shift_range(%acc: tensor<2x3xi32>) {
  // expected-error@+1 {{'graph.requantize' op expects shifts in [0, 63], got 64 at 1}}
  %0 = graph.requantize %acc {multiplier = array<i64: 1, 1, 1>, shift = array<i64: 1, 64, 1>} : (tensor<2x3xi32>) -> tensor<2x3xi8>
  return
}

// -----

func.func @channels(%acc: tensor<2x3xi32>) {
  // expected-error@+1 {{'graph.requantize' op expects 1 or 3 multipliers (acc.shape[axis]), got 2}}
  %0 = graph.requantize %acc {multiplier = array<i64: 1, 1>, shift = array<i64: 1, 1>} : (tensor<2x3xi32>) -> tensor<2x3xi8>
  return
}

// -----

func.func @bias_channels(%acc: tensor<2x3xi32>, %b: tensor<2xi32>) {
  // expected-error@+1 {{'graph.requantize' op expects a bias of 1 or 3 elements (acc.shape[axis]), got 2}}
  %0 = graph.requantize %acc, %b {multiplier = array<i64: 1>, shift = array<i64: 1>} : (tensor<2x3xi32>, tensor<2xi32>) -> tensor<2x3xi8>
  return
}

// -----

func.func @bias_rank(%acc: tensor<2x3xi32>, %b: tensor<1x3xi32>) {
  // expected-error@+1 {{'graph.requantize' op expects a bias of rank 0 or 1, got rank 2}}
  %0 = graph.requantize %acc, %b {multiplier = array<i64: 1>, shift = array<i64: 1>} : (tensor<2x3xi32>, tensor<1x3xi32>) -> tensor<2x3xi8>
  return
}

// -----

func.func @axis(%acc: tensor<2x3xi32>) {
  // expected-error@+1 {{'graph.requantize' op expects 'axis' (2) to be in [-2, 1]}}
  %0 = graph.requantize %acc {axis = 2 : i64, multiplier = array<i64: 1, 1, 1>, shift = array<i64: 1, 1, 1>} : (tensor<2x3xi32>) -> tensor<2x3xi8>
  return
}

// -----

func.func @zero_point(%acc: tensor<2x3xi32>) {
  // expected-error@+1 {{'graph.requantize' op expects 'output_zero_point' (128) in the result element type's range [-128, 127]}}
  %0 = graph.requantize %acc {multiplier = array<i64: 1>, shift = array<i64: 1>, output_zero_point = 128 : i64} : (tensor<2x3xi32>) -> tensor<2x3xi8>
  return
}

// -----

func.func @activation(%acc: tensor<2x3xi32>) {
  // expected-error@+1 {{'graph.requantize' op expects 'activation' to be "relu" (or absent), got "tanh"}}
  %0 = graph.requantize %acc {multiplier = array<i64: 1>, shift = array<i64: 1>, activation = "tanh"} : (tensor<2x3xi32>) -> tensor<2x3xi8>
  return
}

// -----

func.func @result_shape(%acc: tensor<2x3xi32>) {
  // expected-error@+1 {{'graph.requantize' op inferred type(s) 'tensor<2x3xi8>' are incompatible with return type(s) of operation 'tensor<3x2xi8>'}}
  %0 = graph.requantize %acc {multiplier = array<i64: 1>, shift = array<i64: 1>} : (tensor<2x3xi32>) -> tensor<3x2xi8>
  return
}

// -----

func.func @clamp_order(%acc: tensor<2x3xi32>) {
  // expected-error@+1 {{'graph.requantize' op expects clamp_min (3) at most clamp_max (2)}}
  %0 = graph.requantize %acc {multiplier = array<i64: 1>, shift = array<i64: 1>, clamp_min = 3 : i64, clamp_max = 2 : i64} : (tensor<2x3xi32>) -> tensor<2x3xi8>
  return
}
