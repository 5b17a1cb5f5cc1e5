// Invalid graph ops: each gets an MLIR-style diagnostic naming the op and the
// broken constraint (ranks, channels, shapes, broadcasting, element types,
// attribute values), never a crash.
// RUN: nc-opt --split-input-file --verify-diagnostics %s

func.func @conv_channels(%x: tensor<1x3x8x8xf32>, %w: tensor<16x4x3x3xf32>) {
  // expected-error@+1 {{'graph.conv' op expects input channels (3) to equal weight channels x group (4)}}
  %0 = graph.conv %x, %w : (tensor<1x3x8x8xf32>, tensor<16x4x3x3xf32>) -> tensor<1x16x6x6xf32>
  return
}

// -----

func.func @conv_group_channels(%x: tensor<1x6x8x8xf32>, %w: tensor<4x2x3x3xf32>) {
  // expected-error@+1 {{'graph.conv' op expects input channels (6) to equal weight channels x group (4)}}
  %0 = graph.conv %x, %w {group = 2 : i64} : (tensor<1x6x8x8xf32>, tensor<4x2x3x3xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----

func.func @conv_group_output(%x: tensor<1x4x8x8xf32>, %w: tensor<5x2x3x3xf32>) {
  // expected-error@+1 {{'graph.conv' op expects output channels (5) to be divisible by group (2)}}
  %0 = graph.conv %x, %w {group = 2 : i64} : (tensor<1x4x8x8xf32>, tensor<5x2x3x3xf32>) -> tensor<1x5x6x6xf32>
  return
}

// -----

func.func @conv_group_zero(%x: tensor<1x4x8x8xf32>, %w: tensor<4x4x3x3xf32>) {
  // expected-error@+1 {{'graph.conv' op expects 'group' to be positive, got 0}}
  %0 = graph.conv %x, %w {group = 0 : i64} : (tensor<1x4x8x8xf32>, tensor<4x4x3x3xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----

func.func @conv_weight_rank(%x: tensor<1x3x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error@+1 {{'graph.conv' op expects weight of rank 3 like the input, got rank 4}}
  %0 = graph.conv %x, %w : (tensor<1x3x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6xf32>
  return
}

// -----

func.func @conv_input_rank(%x: tensor<3x8xf32>, %w: tensor<4x3xf32>) {
  // expected-error@+1 {{'graph.conv' op expects input of rank 3 to 5 ([N, C, D1, ...]), got rank 2}}
  %0 = graph.conv %x, %w : (tensor<3x8xf32>, tensor<4x3xf32>) -> tensor<3x4xf32>
  return
}

// -----

func.func @conv_bias(%x: tensor<1x3x8x8xf32>, %w: tensor<16x3x3x3xf32>, %b: tensor<8xf32>) {
  // expected-error@+1 {{'graph.conv' op expects bias of shape [M] = [16], got [8]}}
  %0 = graph.conv %x, %w, %b : (tensor<1x3x8x8xf32>, tensor<16x3x3x3xf32>, tensor<8xf32>) -> tensor<1x16x6x6xf32>
  return
}

// -----

func.func @conv_element_types(%x: tensor<1x3x8x8xf32>, %w: tensor<16x3x3x3xf16>) {
  // expected-error@+1 {{'graph.conv' op expects operand #1 to have element type f32 like operand #0, got f16}}
  %0 = graph.conv %x, %w : (tensor<1x3x8x8xf32>, tensor<16x3x3x3xf16>) -> tensor<1x16x6x6xf32>
  return
}

// -----

func.func @conv_integer_input(%x: tensor<1x3x8x8xi8>, %w: tensor<16x3x3x3xi8>) {
  // expected-error@+1 {{'graph.conv' op operand #0 must be ranked tensor of floating-point values, but got 'tensor<1x3x8x8xi8>'}}
  %0 = graph.conv %x, %w : (tensor<1x3x8x8xi8>, tensor<16x3x3x3xi8>) -> tensor<1x16x6x6xi8>
  return
}

// -----

func.func @conv_auto_pad(%x: tensor<1x3x8x8xf32>, %w: tensor<16x3x3x3xf32>) {
  // expected-error@+1 {{'graph.conv' op expects 'auto_pad' to be one of NOTSET, SAME_UPPER, SAME_LOWER, VALID, got "SAME"}}
  %0 = graph.conv %x, %w {auto_pad = "SAME"} : (tensor<1x3x8x8xf32>, tensor<16x3x3x3xf32>) -> tensor<1x16x8x8xf32>
  return
}

// -----

func.func @conv_strides_count(%x: tensor<1x3x8x8xf32>, %w: tensor<16x3x3x3xf32>) {
  // expected-error@+1 {{'graph.conv' op expects 'strides' to have 2 entries (one per spatial dim), got 3}}
  %0 = graph.conv %x, %w {strides = array<i64: 1, 1, 1>} : (tensor<1x3x8x8xf32>, tensor<16x3x3x3xf32>) -> tensor<1x16x6x6xf32>
  return
}

// -----

func.func @conv_strides_zero(%x: tensor<1x3x8x8xf32>, %w: tensor<16x3x3x3xf32>) {
  // expected-error@+1 {{'graph.conv' op expects 'strides' entries to be at least 1, got 0}}
  %0 = graph.conv %x, %w {strides = array<i64: 1, 0>} : (tensor<1x3x8x8xf32>, tensor<16x3x3x3xf32>) -> tensor<1x16x6x6xf32>
  return
}

// -----

func.func @conv_pads(%x: tensor<1x3x8x8xf32>, %w: tensor<16x3x3x3xf32>) {
  // expected-error@+1 {{'graph.conv' op expects 'pads' entries to be at least 0, got -1}}
  %0 = graph.conv %x, %w {pads = array<i64: 1, 1, -1, 1>} : (tensor<1x3x8x8xf32>, tensor<16x3x3x3xf32>) -> tensor<1x16x6x6xf32>
  return
}

// -----

func.func @conv_pads_count(%x: tensor<1x3x8x8xf32>, %w: tensor<16x3x3x3xf32>) {
  // expected-error@+1 {{'graph.conv' op expects 'pads' to have 4 entries (begin and end per spatial dim), got 2}}
  %0 = graph.conv %x, %w {pads = array<i64: 1, 1>} : (tensor<1x3x8x8xf32>, tensor<16x3x3x3xf32>) -> tensor<1x16x8x8xf32>
  return
}

// -----

func.func @conv_window(%x: tensor<1x1x2x8xf32>, %w: tensor<1x1x3x3xf32>) {
  // expected-error@+1 {{'graph.conv' op expects the dilated kernel (3) to fit in the padded input (2) in spatial dim 0}}
  %0 = graph.conv %x, %w : (tensor<1x1x2x8xf32>, tensor<1x1x3x3xf32>) -> tensor<1x1x1x6xf32>
  return
}

// -----

func.func @conv_kernel_shape(%x: tensor<1x3x8x8xf32>, %w: tensor<16x3x3x3xf32>) {
  // expected-error@+1 {{'graph.conv' op expects 'kernel_shape' entry 1 (5) to equal the weight's spatial dim (3)}}
  %0 = graph.conv %x, %w {kernel_shape = array<i64: 3, 5>} : (tensor<1x3x8x8xf32>, tensor<16x3x3x3xf32>) -> tensor<1x16x6x6xf32>
  return
}

// -----

func.func @conv_activation(%x: tensor<1x3x8x8xf32>, %w: tensor<16x3x3x3xf32>) {
  // expected-error@+1 {{'graph.conv' op expects 'activation' to be one of relu, leaky_relu, clip, sigmoid, tanh, got "gelu"}}
  %0 = graph.conv %x, %w {activation = "gelu"} : (tensor<1x3x8x8xf32>, tensor<16x3x3x3xf32>) -> tensor<1x16x6x6xf32>
  return
}

// -----

func.func @conv_activation_alpha(%x: tensor<1x3x8x8xf32>, %w: tensor<16x3x3x3xf32>) {
  // expected-error@+1 {{'graph.conv' op expects 'activation_alpha' only with activation "leaky_relu"}}
  %0 = graph.conv %x, %w {activation = "relu", activation_alpha = 0.1 : f32} : (tensor<1x3x8x8xf32>, tensor<16x3x3x3xf32>) -> tensor<1x16x6x6xf32>
  return
}

// -----

func.func @conv_attr_type(%x: tensor<1x3x8x8xf32>, %w: tensor<16x3x3x3xf32>) {
  // expected-error@+1 {{'graph.conv' op attribute 'group' failed to satisfy constraint: 64-bit signless integer attribute}}
  %0 = graph.conv %x, %w {group = 1.0 : f32} : (tensor<1x3x8x8xf32>, tensor<16x3x3x3xf32>) -> tensor<1x16x6x6xf32>
  return
}

// -----

func.func @conv_wrong_result(%x: tensor<1x3x8x8xf32>, %w: tensor<16x3x3x3xf32>) {
  // expected-error@+1 {{'graph.conv' op inferred type(s) 'tensor<1x16x6x6xf32>' are incompatible with return type(s) of operation 'tensor<1x16x6xf32>'}}
  %0 = graph.conv %x, %w : (tensor<1x3x8x8xf32>, tensor<16x3x3x3xf32>) -> tensor<1x16x6xf32>
  return
}

// -----

func.func @conv_transpose_channels(%x: tensor<1x3x8x8xf32>, %w: tensor<4x2x3x3xf32>) {
  // expected-error@+1 {{'graph.conv_transpose' op expects input channels (3) to equal the weight's first dim (4)}}
  %0 = graph.conv_transpose %x, %w : (tensor<1x3x8x8xf32>, tensor<4x2x3x3xf32>) -> tensor<1x2x10x10xf32>
  return
}

// -----

func.func @conv_transpose_output_padding(%x: tensor<1x4x8x8xf32>, %w: tensor<4x2x3x3xf32>) {
  // expected-error@+1 {{'graph.conv_transpose' op expects 'output_padding' to have 2 entries (one per spatial dim), got 1}}
  %0 = graph.conv_transpose %x, %w {output_padding = array<i64: 1>} : (tensor<1x4x8x8xf32>, tensor<4x2x3x3xf32>) -> tensor<1x2x10x10xf32>
  return
}

// -----

func.func @matmul_contraction(%a: tensor<3x4xf32>, %b: tensor<5x6xf32>) {
  // expected-error@+1 {{'graph.matmul' op expects the contraction dims to match, got 4 (a's last dim) and 5 (b's second-to-last dim)}}
  %0 = graph.matmul %a, %b : (tensor<3x4xf32>, tensor<5x6xf32>) -> tensor<3x6xf32>
  return
}

// -----

func.func @matmul_batch(%a: tensor<2x3x4xf32>, %b: tensor<3x4x6xf32>) {
  // expected-error@+1 {{'graph.matmul' op expects broadcastable batch dims, got [2] and [3]}}
  %0 = graph.matmul %a, %b : (tensor<2x3x4xf32>, tensor<3x4x6xf32>) -> tensor<2x3x6xf32>
  return
}

// -----

func.func @matmul_scalar(%a: tensor<f32>, %b: tensor<4xf32>) {
  // expected-error@+1 {{'graph.matmul' op expects operands of rank at least 1, got ranks 0 and 1}}
  %0 = graph.matmul %a, %b : (tensor<f32>, tensor<4xf32>) -> tensor<f32>
  return
}

// -----

func.func @gemm_rank(%a: tensor<2x3x4xf32>, %b: tensor<4x5xf32>) {
  // expected-error@+1 {{'graph.gemm' op expects a and b of rank 2, got ranks 3 and 2}}
  %0 = graph.gemm %a, %b : (tensor<2x3x4xf32>, tensor<4x5xf32>) -> tensor<3x5xf32>
  return
}

// -----

func.func @gemm_trans(%a: tensor<3x4xf32>, %b: tensor<4x5xf32>) {
  // expected-error@+1 {{'graph.gemm' op expects the contraction dims to match, got 4 (from a) and 5 (from b)}}
  %0 = graph.gemm %a, %b {trans_b = 1 : i64} : (tensor<3x4xf32>, tensor<4x5xf32>) -> tensor<3x4xf32>
  return
}

// -----

func.func @gemm_trans_value(%a: tensor<3x4xf32>, %b: tensor<4x5xf32>) {
  // expected-error@+1 {{'graph.gemm' op expects 'trans_a' to be 0 or 1, got 2}}
  %0 = graph.gemm %a, %b {trans_a = 2 : i64} : (tensor<3x4xf32>, tensor<4x5xf32>) -> tensor<3x5xf32>
  return
}

// -----

func.func @gemm_c(%a: tensor<3x4xf32>, %b: tensor<4x5xf32>, %c: tensor<3x1x5xf32>) {
  // expected-error@+1 {{'graph.gemm' op expects c ([3, 1, 5]) to broadcast unidirectionally to [M, N] = [3, 5]}}
  %0 = graph.gemm %a, %b, %c : (tensor<3x4xf32>, tensor<4x5xf32>, tensor<3x1x5xf32>) -> tensor<3x5xf32>
  return
}

// -----

func.func @add_broadcast(%a: tensor<2x3xf32>, %b: tensor<4xf32>) {
  // expected-error@+1 {{'graph.add' op expects broadcast-compatible operands, got [2, 3] and [4] (operand #1)}}
  %0 = graph.add %a, %b : (tensor<2x3xf32>, tensor<4xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @add_element_types(%a: tensor<2x3xf32>, %b: tensor<3xf16>) {
  // expected-error@+1 {{'graph.add' op requires the same element type for all operands and results}}
  %0 = graph.add %a, %b : (tensor<2x3xf32>, tensor<3xf16>) -> tensor<2x3xf32>
  return
}

// -----

func.func @max_broadcast(%a: tensor<2x3xf32>, %b: tensor<3xf32>, %c: tensor<2x2xf32>) {
  // expected-error@+1 {{'graph.max' op expects broadcast-compatible operands, got [2, 3] and [2, 2] (operand #2)}}
  %0 = graph.max %a, %b, %c : (tensor<2x3xf32>, tensor<3xf32>, tensor<2x2xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @sum_empty() {
  // expected-error@+1 {{'graph.sum' op expects at least 1 operand, got 0}}
  %0 = graph.sum : () -> tensor<f32>
  return
}

// -----

func.func @bool_arithmetic(%a: tensor<4xi1>) {
  // expected-error@+1 {{'graph.add' op operand #0 must be ranked tensor of integer or floating-point values, but got 'tensor<4xi1>'}}
  %0 = graph.add %a, %a : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  return
}

// -----

func.func @unranked(%a: tensor<*xf32>) {
  // expected-error@+1 {{'graph.relu' op operand #0 must be ranked tensor of integer or floating-point values, but got 'tensor<*xf32>'}}
  %0 = graph.relu %a : (tensor<*xf32>) -> tensor<*xf32>
  return
}

// -----

func.func @signed_element(%a: tensor<4xsi8>) {
  // expected-error@+1 {{'graph.identity' op operand #0 must be ranked tensor of any graph element type, but got 'tensor<4xsi8>'}}
  %0 = graph.identity %a : (tensor<4xsi8>) -> tensor<4xsi8>
  return
}

// -----

func.func @sqrt_integer(%a: tensor<4xi32>) {
  // expected-error@+1 {{'graph.sqrt' op operand #0 must be ranked tensor of floating-point values, but got 'tensor<4xi32>'}}
  %0 = graph.sqrt %a : (tensor<4xi32>) -> tensor<4xi32>
  return
}

// -----

func.func @relu_type(%a: tensor<4xf32>) {
  // expected-error@+1 {{'graph.relu' op requires the same type for all operands and results}}
  %0 = graph.relu %a : (tensor<4xf32>) -> tensor<?xf32>
  return
}

// -----

func.func @prelu_slope(%x: tensor<1x4x5x5xf32>, %s: tensor<4x5x1x1xf32>) {
  // expected-error@+1 {{'graph.prelu' op expects slope ([4, 5, 1, 1]) to broadcast unidirectionally to the input ([1, 4, 5, 5])}}
  %0 = graph.prelu %x, %s : (tensor<1x4x5x5xf32>, tensor<4x5x1x1xf32>) -> tensor<1x4x5x5xf32>
  return
}

// -----

func.func @clip_bound_type(%x: tensor<4xf32>) {
  // expected-error@+1 {{'graph.clip' op expects 'min' to be an f32 attribute for a tensor of floats}}
  %0 = graph.clip %x {min = 0 : i64} : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @clip_integer_bound(%x: tensor<4xi8>) {
  // expected-error@+1 {{'graph.clip' op expects 'max' to be an i64 attribute for a tensor of integers}}
  %0 = graph.clip %x {max = 6.0 : f32} : (tensor<4xi8>) -> tensor<4xi8>
  return
}

// -----

func.func @max_pool_kernel(%x: tensor<1x3x8x8xf32>) {
  // expected-error@+1 {{'graph.max_pool' op requires attribute 'kernel_shape'}}
  %0 = graph.max_pool %x : (tensor<1x3x8x8xf32>) -> tensor<1x3x8x8xf32>
  return
}

// -----

func.func @max_pool_kernel_count(%x: tensor<1x3x8x8xf32>) {
  // expected-error@+1 {{'graph.max_pool' op expects 'kernel_shape' to have 2 entries (one per spatial dim), got 1}}
  %0 = graph.max_pool %x {kernel_shape = array<i64: 2>} : (tensor<1x3x8x8xf32>) -> tensor<1x3x7x7xf32>
  return
}

// -----

func.func @max_pool_ceil(%x: tensor<1x3x8x8xf32>) {
  // expected-error@+1 {{'graph.max_pool' op expects 'ceil_mode' to be 0 or 1, got 2}}
  %0 = graph.max_pool %x {kernel_shape = array<i64: 2, 2>, ceil_mode = 2 : i64} : (tensor<1x3x8x8xf32>) -> tensor<1x3x7x7xf32>
  return
}

// -----

func.func @avg_pool_window(%x: tensor<1x3x2x2xf32>) {
  // expected-error@+1 {{'graph.avg_pool' op expects the window (3) to fit in the padded input (2) in spatial dim 0}}
  %0 = graph.avg_pool %x {kernel_shape = array<i64: 3, 3>} : (tensor<1x3x2x2xf32>) -> tensor<1x3x1x1xf32>
  return
}

// -----

func.func @global_pool_rank(%x: tensor<2x3xf32>) {
  // expected-error@+1 {{'graph.global_avg_pool' op expects input of rank at least 3 ([N, C, D1, ...]), got rank 2}}
  %0 = graph.global_avg_pool %x : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @reduce_axis(%x: tensor<2x3xf32>) {
  // expected-error@+1 {{'graph.reduce_sum' op expects 'axes' entries to be in [-2, 1], got 2}}
  %0 = graph.reduce_sum %x {axes = array<i64: 2>} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @reduce_repeated(%x: tensor<2x3xf32>) {
  // expected-error@+1 {{'graph.reduce_mean' op expects 'axes' to have distinct entries, dim 1 repeats}}
  %0 = graph.reduce_mean %x {axes = array<i64: 1, -1>} : (tensor<2x3xf32>) -> tensor<2x1xf32>
  return
}

// -----

func.func @lrn_size(%x: tensor<1x3x8x8xf32>) {
  // expected-error@+1 {{'graph.lrn' op expects 'size' to be positive, got 0}}
  %0 = graph.lrn %x {size = 0 : i64} : (tensor<1x3x8x8xf32>) -> tensor<1x3x8x8xf32>
  return
}

// -----

func.func @batch_norm_scale(%x: tensor<1x3x8x8xf32>, %s: tensor<3xf32>, %m: tensor<4xf32>) {
  // expected-error@+1 {{'graph.batch_norm' op expects mean of shape [C] = [3], got [4]}}
  %0 = graph.batch_norm %x, %s, %s, %m, %s : (tensor<1x3x8x8xf32>, tensor<3xf32>, tensor<3xf32>, tensor<4xf32>, tensor<3xf32>) -> tensor<1x3x8x8xf32>
  return
}

// -----

func.func @instance_norm_rank(%x: tensor<2x3xf32>, %s: tensor<3xf32>) {
  // expected-error@+1 {{'graph.instance_norm' op expects input of rank at least 3 ([N, C, D1, ...]), got rank 2}}
  %0 = graph.instance_norm %x, %s, %s : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @concat_axis_missing(%a: tensor<2x3xf32>) {
  // expected-error@+1 {{'graph.concat' op requires attribute 'axis'}}
  %0 = graph.concat %a, %a : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<4x3xf32>
  return
}

// -----

func.func @concat_axis(%a: tensor<2x3xf32>) {
  // expected-error@+1 {{'graph.concat' op expects 'axis' (2) to be in [-2, 1]}}
  %0 = graph.concat %a, %a {axis = 2 : i64} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<4x3xf32>
  return
}

// -----

func.func @concat_rank(%a: tensor<2x3xf32>, %b: tensor<3xf32>) {
  // expected-error@+1 {{'graph.concat' op expects all operands to have rank 2 like operand #0, operand #1 has rank 1}}
  %0 = graph.concat %a, %b {axis = 0 : i64} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<3x3xf32>
  return
}

// -----

func.func @concat_dims(%a: tensor<2x3xf32>, %b: tensor<2x4xf32>) {
  // expected-error@+1 {{'graph.concat' op expects operand #1 to match the other operands in dim 1 (4 vs 3)}}
  %0 = graph.concat %a, %b {axis = 0 : i64} : (tensor<2x3xf32>, tensor<2x4xf32>) -> tensor<4x3xf32>
  return
}

// -----

func.func @split_sum(%x: tensor<6x2xf32>) {
  // expected-error@+1 {{'graph.split' op expects 'split' to sum to the split dim (6), got 5}}
  %0:2 = graph.split %x {split = array<i64: 2, 3>} : (tensor<6x2xf32>) -> (tensor<2x2xf32>, tensor<3x2xf32>)
  return
}

// -----

func.func @split_count(%x: tensor<6x2xf32>) {
  // expected-error@+1 {{'graph.split' op expects 'split' to have one entry per result (2), got 3}}
  %0:2 = graph.split %x {split = array<i64: 2, 2, 2>} : (tensor<6x2xf32>) -> (tensor<2x2xf32>, tensor<2x2xf32>)
  return
}

// -----

func.func @slice_lengths(%x: tensor<6x2xf32>) {
  // expected-error@+1 {{'graph.slice' op expects 'starts' and 'ends' to have the same number of entries, got 2 and 1}}
  %0 = graph.slice %x {starts = array<i64: 0, 0>, ends = array<i64: 1>} : (tensor<6x2xf32>) -> tensor<1x2xf32>
  return
}

// -----

func.func @slice_step(%x: tensor<6x2xf32>) {
  // expected-error@+1 {{'graph.slice' op expects 'steps' entries to be nonzero}}
  %0 = graph.slice %x {starts = array<i64: 0>, ends = array<i64: 1>, steps = array<i64: 0>} : (tensor<6x2xf32>) -> tensor<1x2xf32>
  return
}

// -----

func.func @slice_axes(%x: tensor<6x2xf32>) {
  // expected-error@+1 {{'graph.slice' op expects 'axes' to have distinct entries, dim 0 repeats}}
  %0 = graph.slice %x {starts = array<i64: 0, 0>, ends = array<i64: 1, 1>, axes = array<i64: 0, -2>} : (tensor<6x2xf32>) -> tensor<1x2xf32>
  return
}

// -----

func.func @reshape_two_inferred(%x: tensor<2x3xf32>) {
  // expected-error@+1 {{'graph.reshape' op expects at most one -1 in 'shape'}}
  %0 = graph.reshape %x {shape = array<i64: -1, -1>} : (tensor<2x3xf32>) -> tensor<6x1xf32>
  return
}

// -----

func.func @reshape_count(%x: tensor<2x3xf32>) {
  // expected-error@+1 {{'graph.reshape' op expects 'shape' [4] to hold the input's 6 elements (input shape [2, 3])}}
  %0 = graph.reshape %x {shape = array<i64: 4>} : (tensor<2x3xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @reshape_indivisible(%x: tensor<2x3xf32>) {
  // expected-error@+1 {{'graph.reshape' op expects 'shape' [4, -1] to hold the input's 6 elements (input shape [2, 3])}}
  %0 = graph.reshape %x {shape = array<i64: 4, -1>} : (tensor<2x3xf32>) -> tensor<4x2xf32>
  return
}

// -----

func.func @reshape_copy_index(%x: tensor<6xf32>) {
  // expected-error@+1 {{'graph.reshape' op expects 'shape' entry 1 (0, copying the input dim) to index an input dim (rank 1)}}
  %0 = graph.reshape %x {shape = array<i64: 6, 0>} : (tensor<6xf32>) -> tensor<6x1xf32>
  return
}

// -----

func.func @reshape_allowzero(%x: tensor<0x3xf32>) {
  // expected-error@+1 {{'graph.reshape' op expects no -1 in 'shape' together with a 0 under 'allowzero'}}
  %0 = graph.reshape %x {shape = array<i64: 0, -1>, allowzero = 1 : i64} : (tensor<0x3xf32>) -> tensor<0x3xf32>
  return
}

// -----

func.func @reshape_entry(%x: tensor<6xf32>) {
  // expected-error@+1 {{'graph.reshape' op expects 'shape' entries to be at least -1, got -2}}
  %0 = graph.reshape %x {shape = array<i64: -2, 3>} : (tensor<6xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @flatten_axis(%x: tensor<2x3xf32>) {
  // expected-error@+1 {{'graph.flatten' op expects 'axis' (3) to be in [-2, 2]}}
  %0 = graph.flatten %x {axis = 3 : i64} : (tensor<2x3xf32>) -> tensor<6x1xf32>
  return
}

// -----

func.func @squeeze_size(%x: tensor<1x3xf32>) {
  // expected-error@+1 {{'graph.squeeze' op expects dim 1 to have size 1 to squeeze it, got 3}}
  %0 = graph.squeeze %x {axes = array<i64: 1>} : (tensor<1x3xf32>) -> tensor<1xf32>
  return
}

// -----

func.func @unsqueeze_repeated(%x: tensor<3xf32>) {
  // expected-error@+1 {{'graph.unsqueeze' op expects 'axes' to have distinct entries, dim 2 repeats}}
  %0 = graph.unsqueeze %x {axes = array<i64: 2, -1>} : (tensor<3xf32>) -> tensor<3x1x1xf32>
  return
}

// -----

func.func @unsqueeze_range(%x: tensor<3xf32>) {
  // expected-error@+1 {{'graph.unsqueeze' op expects 'axes' entries to be in [-2, 1], got 2}}
  %0 = graph.unsqueeze %x {axes = array<i64: 2>} : (tensor<3xf32>) -> tensor<3x1xf32>
  return
}

// -----

func.func @transpose_perm(%x: tensor<2x3x4xf32>) {
  // expected-error@+1 {{'graph.transpose' op expects 'perm' to be a permutation of [0, 3), got [0, 2, 2]}}
  %0 = graph.transpose %x {perm = array<i64: 0, 2, 2>} : (tensor<2x3x4xf32>) -> tensor<2x4x4xf32>
  return
}

// -----

func.func @transpose_perm_length(%x: tensor<2x3x4xf32>) {
  // expected-error@+1 {{'graph.transpose' op expects 'perm' to be a permutation of [0, 3), got [1, 0]}}
  %0 = graph.transpose %x {perm = array<i64: 1, 0>} : (tensor<2x3x4xf32>) -> tensor<3x2x4xf32>
  return
}

// -----

func.func @pad_count(%x: tensor<2x3xf32>) {
  // expected-error@+1 {{'graph.pad' op expects 'pads' to have 4 entries (begin and end per dim), got 2}}
  %0 = graph.pad %x {pads = array<i64: 1, 1>} : (tensor<2x3xf32>) -> tensor<3x4xf32>
  return
}

// -----

func.func @pad_mode(%x: tensor<2x3xf32>) {
  // expected-error@+1 {{'graph.pad' op expects 'mode' to be one of constant, reflect, edge, wrap, got "mirror"}}
  %0 = graph.pad %x {pads = array<i64: 1, 1, 0, 0>, mode = "mirror"} : (tensor<2x3xf32>) -> tensor<3x4xf32>
  return
}

// -----

func.func @pad_crop(%x: tensor<2x3xf32>) {
  // expected-error@+1 {{'graph.pad' op expects pads (-2, -1) to leave a valid size in dim 0 (of size 2)}}
  %0 = graph.pad %x {pads = array<i64: -2, 0, -1, 0>} : (tensor<2x3xf32>) -> tensor<0x3xf32>
  return
}

// -----

func.func @softmax_axis(%x: tensor<2x3xf32>) {
  // expected-error@+1 {{'graph.softmax' op expects 'axis' (-3) to be in [-2, 1]}}
  %0 = graph.softmax %x {axis = -3 : i64} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @quantize_zero_point_type(%x: tensor<4xf32>, %s: tensor<f32>, %z: tensor<ui8>) {
  // expected-error@+1 {{'graph.quantize_linear' op expects the result element type (i8) to be y_zero_point's (ui8)}}
  %0 = graph.quantize_linear %x, %s, %z : (tensor<4xf32>, tensor<f32>, tensor<ui8>) -> tensor<4xi8>
  return
}

// -----

func.func @quantize_per_axis(%x: tensor<2x3xf32>, %s: tensor<2xf32>) {
  // expected-error@+1 {{'graph.quantize_linear' op expects y_scale of shape [x.shape[axis]] = [3] for per-axis quantization, got [2]}}
  %0 = graph.quantize_linear %x, %s : (tensor<2x3xf32>, tensor<2xf32>) -> tensor<2x3xi8>
  return
}

// -----

func.func @quantize_scale_rank(%x: tensor<2x3xf32>, %s: tensor<2x3xf32>) {
  // expected-error@+1 {{'graph.quantize_linear' op expects y_scale to be a scalar or 1-D (per axis), got rank 2}}
  %0 = graph.quantize_linear %x, %s : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi8>
  return
}

// -----

func.func @quantize_zero_point_shape(%x: tensor<2x3xf32>, %s: tensor<3xf32>, %z: tensor<i8>) {
  // expected-error@+1 {{'graph.quantize_linear' op expects y_zero_point ([]) to have the shape of y_scale ([3])}}
  %0 = graph.quantize_linear %x, %s, %z : (tensor<2x3xf32>, tensor<3xf32>, tensor<i8>) -> tensor<2x3xi8>
  return
}

// -----

func.func @quantize_float_result(%x: tensor<4xf32>, %s: tensor<f32>) {
  // expected-error@+1 {{'graph.quantize_linear' op result #0 must be ranked tensor of 2- to 32-bit integer values, but got 'tensor<4xf32>'}}
  %0 = graph.quantize_linear %x, %s : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  return
}

// -----

func.func @dequantize_zero_point(%x: tensor<4xi8>, %s: tensor<f32>, %z: tensor<ui8>) {
  // expected-error@+1 {{'graph.dequantize_linear' op expects operand #2 to have element type i8 like operand #0, got ui8}}
  %0 = graph.dequantize_linear %x, %s, %z : (tensor<4xi8>, tensor<f32>, tensor<ui8>) -> tensor<4xf32>
  return
}

// -----

func.func @qlinear_conv_scale(%x: tensor<1x2x4x4xui8>, %s: tensor<f32>, %zx: tensor<ui8>, %w: tensor<3x2x3x3xi8>, %ws: tensor<2xf32>, %zw: tensor<i8>) {
  // expected-error@+1 {{'graph.qlinear_conv' op expects w_scale to be a scalar or of shape [M] = [3], got [2]}}
  %0 = graph.qlinear_conv %x, %s, %zx, %w, %ws, %zw, %s, %zx : (tensor<1x2x4x4xui8>, tensor<f32>, tensor<ui8>, tensor<3x2x3x3xi8>, tensor<2xf32>, tensor<i8>, tensor<f32>, tensor<ui8>) -> tensor<1x3x2x2xui8>
  return
}

// -----

func.func @qlinear_conv_zero_point(%x: tensor<1x2x4x4xui8>, %s: tensor<f32>, %zx: tensor<i8>, %w: tensor<3x2x3x3xi8>) {
  // expected-error@+1 {{'graph.qlinear_conv' op expects operand #2 to have element type ui8 like operand #0, got i8}}
  %0 = graph.qlinear_conv %x, %s, %zx, %w, %s, %zx, %s, %zx : (tensor<1x2x4x4xui8>, tensor<f32>, tensor<i8>, tensor<3x2x3x3xi8>, tensor<f32>, tensor<i8>, tensor<f32>, tensor<i8>) -> tensor<1x3x2x2xi8>
  return
}

// -----

func.func @conv_integer_result(%x: tensor<1x2x4x4xui8>, %w: tensor<3x2x3x3xi8>) {
  // expected-error@+1 {{'graph.conv_integer' op result #0 must be ranked tensor of 32-bit signless integer values, but got 'tensor<1x3x2x2xf32>'}}
  %0 = graph.conv_integer %x, %w : (tensor<1x2x4x4xui8>, tensor<3x2x3x3xi8>) -> tensor<1x3x2x2xf32>
  return
}

// -----

func.func @matmul_integer_operands(%a: tensor<3x4xi8>, %b: tensor<4x5xi8>, %z: tensor<i8>) {
  // expected-error@+1 {{'graph.matmul_integer' op expected at most 4 operands, but found 5}}
  %0 = "graph.matmul_integer"(%a, %b, %z, %z, %z) : (tensor<3x4xi8>, tensor<4x5xi8>, tensor<i8>, tensor<i8>, tensor<i8>) -> tensor<3x5xi32>
  return
}

// -----

func.func @constant_type() {
  // expected-error@+1 {{'graph.constant' op inferred type(s) 'tensor<2xf32>' are incompatible with return type(s) of operation 'tensor<3xf32>'}}
  %0 = graph.constant {value = dense<1.0> : tensor<2xf32>} : () -> tensor<3xf32>
  return
}

// -----

func.func @constant_dynamic() {
  // expected-error@+1 {{'graph.constant' op inferred type(s) 'tensor<2xf32>' are incompatible with return type(s) of operation 'tensor<?xf32>'}}
  %0 = graph.constant {value = dense<1.0> : tensor<2xf32>} : () -> tensor<?xf32>
  return
}

// -----

func.func @constant_value() {
  // expected-error@+1 {{'graph.constant' op attribute 'value' failed to satisfy constraint: dense or resource elements attribute}}
  %0 = graph.constant {value = 1.0 : f32} : () -> tensor<f32>
  return
}

// -----

func.func @identity_type(%a: tensor<4xf32>) {
  // expected-error@+1 {{'graph.identity' op requires the same type for all operands and results}}
  %0 = graph.identity %a : (tensor<4xf32>) -> tensor<4xf16>
  return
}

// -----

// Extreme attribute values are diagnosed, not overflowed.
func.func @conv_huge_attributes(%x: tensor<1x1x4x4xf32>, %w: tensor<1x1x1x1xf32>) {
  // expected-error@+1 {{'graph.conv' op spatial dim 0: attribute out of range}}
  %0 = graph.conv %x, %w {strides = array<i64: 9223372036854775807, 1>, pads = array<i64: 9223372036854775807, 0, 9223372036854775807, 0>} : (tensor<1x1x4x4xf32>, tensor<1x1x1x1xf32>) -> tensor<1x1x1x4xf32>
  return
}

// -----

func.func @transpose_huge(%x: tensor<4x4xf32>) {
  // expected-error@+1 {{'graph.transpose' op expects 'perm' to be a permutation of [0, 2), got [-9223372036854775808, 0]}}
  %0 = graph.transpose %x {perm = array<i64: -9223372036854775808, 0>} : (tensor<4x4xf32>) -> tensor<4x4xf32>
  return
}

// -----

func.func @concat_huge(%x: tensor<9223372036854775807x2xf32>) {
  // expected-error@+1 {{'graph.concat' op expects the concatenated dim to fit in 64 bits}}
  %0 = graph.concat %x, %x {axis = 0 : i64} : (tensor<9223372036854775807x2xf32>, tensor<9223372036854775807x2xf32>) -> tensor<1x2xf32>
  return
}

// -----

func.func @reshape_huge(%x: tensor<4x4xf32>) {
  // expected-error@+1 {{'graph.reshape' op expects 'shape' to have fewer than 2^63 elements}}
  %0 = graph.reshape %x {shape = array<i64: 9223372036854775807, 9223372036854775807>} : (tensor<4x4xf32>) -> tensor<4x4xf32>
  return
}

// -----

func.func @resize_linear_tf(%x: tensor<1x1x2x2xf32>) -> tensor<1x1x4x4xf32> {
  // expected-error@+1 {{'graph.resize' op coordinate_transformation_mode "tf_half_pixel_for_nn" has no linear mode (half_pixel, pytorch_half_pixel, asymmetric, align_corners)}}
  %y = graph.resize %x {mode = "linear", coordinate_transformation_mode = "tf_half_pixel_for_nn", sizes = array<i64: 1, 1, 4, 4>} : (tensor<1x1x2x2xf32>) -> tensor<1x1x4x4xf32>
  return %y : tensor<1x1x4x4xf32>
}

// -----

func.func @resize_linear_nearest_mode(%x: tensor<1x1x2x2xf32>) -> tensor<1x1x4x4xf32> {
  // expected-error@+1 {{'graph.resize' op has a 'nearest_mode', which only mode nearest uses}}
  %y = graph.resize %x {mode = "linear", nearest_mode = "floor", sizes = array<i64: 1, 1, 4, 4>} : (tensor<1x1x2x2xf32>) -> tensor<1x1x4x4xf32>
  return %y : tensor<1x1x4x4xf32>
}

// -----

func.func @resize_cubic(%x: tensor<1x1x2x2xf32>) -> tensor<1x1x4x4xf32> {
  // expected-error@+1 {{'graph.resize' op expects 'mode' to be nearest or linear, got "cubic"}}
  %y = graph.resize %x {mode = "cubic", sizes = array<i64: 1, 1, 4, 4>} : (tensor<1x1x2x2xf32>) -> tensor<1x1x4x4xf32>
  return %y : tensor<1x1x4x4xf32>
}
