// Shape inference of the graph ops, seen through the verifier: each op
// below declares a deliberately wrong result type, and the verifier's error
// names the inferred one. Static dims are computed wherever the operands'
// are static, dynamic ones stay `?`; the first chunk shows that a declared
// type only has to agree with the inferred one where both are static.
// RUN: nc-opt --split-input-file --verify-diagnostics %s

func.func @compatible(%x: tensor<?x3x32x32xf32>, %w: tensor<16x3x3x3xf32>, %d: tensor<2x?xf32>) {
  %0 = graph.conv %x, %w : (tensor<?x3x32x32xf32>, tensor<16x3x3x3xf32>) -> tensor<?x16x30x30xf32>
  %1 = graph.conv %x, %w : (tensor<?x3x32x32xf32>, tensor<16x3x3x3xf32>) -> tensor<?x?x?x?xf32>
  %2 = graph.conv %x, %w : (tensor<?x3x32x32xf32>, tensor<16x3x3x3xf32>) -> tensor<4x16x30x30xf32>
  %3 = graph.relu %d : (tensor<2x?xf32>) -> tensor<2x?xf32>
  %4 = graph.reshape %d {shape = array<i64: -1>} : (tensor<2x?xf32>) -> tensor<8xf32>
  return
}

// -----

// --- convolution: pads, strides, dilations, auto_pad, group, 1-D and 3-D ---
func.func @conv(%x: tensor<1x3x32x32xf32>, %w: tensor<16x3x5x5xf32>) {
  // expected-error@+1 {{inferred type(s) 'tensor<1x16x16x16xf32>' are incompatible with return type(s) of operation 'tensor<1x16x15x15xf32>'}}
  %0 = graph.conv %x, %w {pads = array<i64: 2, 2, 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x3x32x32xf32>, tensor<16x3x5x5xf32>) -> tensor<1x16x15x15xf32>
  return
}

// -----

func.func @conv_asymmetric(%x: tensor<1x3x32x32xf32>, %w: tensor<16x3x5x5xf32>) {
  // expected-error@+1 {{inferred type(s) 'tensor<1x16x29x31xf32>'}}
  %0 = graph.conv %x, %w {pads = array<i64: 0, 1, 1, 2>} : (tensor<1x3x32x32xf32>, tensor<16x3x5x5xf32>) -> tensor<1x16x1x1xf32>
  return
}

// -----

func.func @conv_dilated(%x: tensor<1x1x10x10xf32>, %w: tensor<4x1x3x3xf32>) {
  // expected-error@+1 {{inferred type(s) 'tensor<1x4x6x6xf32>'}}
  %0 = graph.conv %x, %w {dilations = array<i64: 2, 2>} : (tensor<1x1x10x10xf32>, tensor<4x1x3x3xf32>) -> tensor<1x4x8x8xf32>
  return
}

// -----

func.func @conv_same_upper(%x: tensor<1x1x7x9xf32>, %w: tensor<2x1x3x3xf32>) {
  // expected-error@+1 {{inferred type(s) 'tensor<1x2x4x5xf32>'}}
  %0 = graph.conv %x, %w {auto_pad = "SAME_UPPER", strides = array<i64: 2, 2>} : (tensor<1x1x7x9xf32>, tensor<2x1x3x3xf32>) -> tensor<1x2x7x9xf32>
  return
}

// -----

func.func @conv_same_lower(%x: tensor<1x1x7x9xf32>, %w: tensor<2x1x4x4xf32>) {
  // expected-error@+1 {{inferred type(s) 'tensor<1x2x7x9xf32>'}}
  %0 = graph.conv %x, %w {auto_pad = "SAME_LOWER"} : (tensor<1x1x7x9xf32>, tensor<2x1x4x4xf32>) -> tensor<1x2x4x6xf32>
  return
}

// -----

func.func @conv_valid_ignores_pads(%x: tensor<1x1x7x7xf32>, %w: tensor<2x1x3x3xf32>) {
  // expected-error@+1 {{inferred type(s) 'tensor<1x2x5x5xf32>'}}
  %0 = graph.conv %x, %w {auto_pad = "VALID", pads = array<i64: 1, 1, 1, 1>} : (tensor<1x1x7x7xf32>, tensor<2x1x3x3xf32>) -> tensor<1x2x7x7xf32>
  return
}

// -----

func.func @conv_dynamic(%x: tensor<?x3x?x32xf32>, %w: tensor<8x3x3x3xf32>) {
  // expected-error@+1 {{inferred type(s) 'tensor<?x8x?x30xf32>'}}
  %0 = graph.conv %x, %w : (tensor<?x3x?x32xf32>, tensor<8x3x3x3xf32>) -> tensor<?x8x?x32xf32>
  return
}

// -----

func.func @conv_depthwise(%x: tensor<1x8x5x5xf32>, %w: tensor<8x1x3x3xf32>) {
  // expected-error@+1 {{inferred type(s) 'tensor<1x8x3x3xf32>'}}
  %0 = graph.conv %x, %w {group = 8 : i64} : (tensor<1x8x5x5xf32>, tensor<8x1x3x3xf32>) -> tensor<1x1x3x3xf32>
  return
}

// -----

func.func @conv_3d(%x: tensor<1x2x4x4x4xf32>, %w: tensor<3x2x2x2x2xf32>) {
  // expected-error@+1 {{inferred type(s) 'tensor<1x3x2x2x2xf32>'}}
  %0 = graph.conv %x, %w {strides = array<i64: 2, 2, 2>} : (tensor<1x2x4x4x4xf32>, tensor<3x2x2x2x2xf32>) -> tensor<1x3x3x3x3xf32>
  return
}

// -----

func.func @conv_1d(%x: tensor<4x2x16xf32>, %w: tensor<5x2x4xf32>) {
  // expected-error@+1 {{inferred type(s) 'tensor<4x5x5xf32>'}}
  %0 = graph.conv %x, %w {strides = array<i64: 3>} : (tensor<4x2x16xf32>, tensor<5x2x4xf32>) -> tensor<4x5x13xf32>
  return
}

// -----

func.func @conv_transpose(%x: tensor<1x4x5x5xf32>, %w: tensor<4x2x3x3xf32>) {
  // expected-error@+1 {{inferred type(s) 'tensor<1x4x10x10xf32>'}}
  %0 = graph.conv_transpose %x, %w {group = 2 : i64, strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>, output_padding = array<i64: 1, 1>} : (tensor<1x4x5x5xf32>, tensor<4x2x3x3xf32>) -> tensor<1x4x9x9xf32>
  return
}

// -----

func.func @conv_transpose_output_shape(%x: tensor<1x4x5x5xf32>, %w: tensor<4x2x3x3xf32>) {
  // expected-error@+1 {{inferred type(s) 'tensor<1x2x10x11xf32>'}}
  %0 = graph.conv_transpose %x, %w {strides = array<i64: 2, 2>, output_shape = array<i64: 10, 11>} : (tensor<1x4x5x5xf32>, tensor<4x2x3x3xf32>) -> tensor<1x2x11x11xf32>
  return
}

// -----

func.func @conv_transpose_same(%x: tensor<1x4x?x5xf32>, %w: tensor<4x2x3x3xf32>) {
  // expected-error@+1 {{inferred type(s) 'tensor<1x2x?x10xf32>'}}
  %0 = graph.conv_transpose %x, %w {auto_pad = "SAME_UPPER", strides = array<i64: 2, 2>} : (tensor<1x4x?x5xf32>, tensor<4x2x3x3xf32>) -> tensor<1x2x?x11xf32>
  return
}

// -----

// --- pooling ---
func.func @max_pool_ceil(%x: tensor<1x1x5x5xf32>) {
  // expected-error@+1 {{inferred type(s) 'tensor<1x1x3x3xf32>'}}
  %0 = graph.max_pool %x {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>, ceil_mode = 1 : i64} : (tensor<1x1x5x5xf32>) -> tensor<1x1x2x2xf32>
  return
}

// -----

func.func @avg_pool_pads(%x: tensor<1x1x6x6xf32>) {
  // expected-error@+1 {{inferred type(s) 'tensor<1x1x3x4xf32>'}}
  %0 = graph.avg_pool %x {kernel_shape = array<i64: 3, 3>, strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 2>} : (tensor<1x1x6x6xf32>) -> tensor<1x1x3x3xf32>
  return
}

// -----

func.func @avg_pool_ceil_drops_window(%x: tensor<1x1x4x4xf32>) {
  // The last window would start in the end padding: ceil(3/2)+1 = 3 becomes 2.
  // expected-error@+1 {{inferred type(s) 'tensor<1x1x2x2xf32>'}}
  %0 = graph.avg_pool %x {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>, pads = array<i64: 0, 0, 1, 1>, ceil_mode = 1 : i64} : (tensor<1x1x4x4xf32>) -> tensor<1x1x3x3xf32>
  return
}

// -----

func.func @max_pool_dynamic(%x: tensor<?x3x?x8xi8>) {
  // expected-error@+1 {{inferred type(s) 'tensor<?x3x?x4xi8>'}}
  %0 = graph.max_pool %x {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<?x3x?x8xi8>) -> tensor<?x3x?x8xi8>
  return
}

// -----

func.func @global_pool(%x: tensor<2x3x7x?x7xf32>) {
  // expected-error@+1 {{inferred type(s) 'tensor<2x3x1x1x1xf32>'}}
  %0 = graph.global_avg_pool %x : (tensor<2x3x7x?x7xf32>) -> tensor<2x3x7x1x1xf32>
  return
}

// -----

// --- matrix products ---
func.func @matmul_batch(%a: tensor<2x1x3x4xf32>, %b: tensor<5x4x6xf32>) {
  // expected-error@+1 {{inferred type(s) 'tensor<2x5x3x6xf32>'}}
  %0 = graph.matmul %a, %b : (tensor<2x1x3x4xf32>, tensor<5x4x6xf32>) -> tensor<2x1x3x6xf32>
  return
}

// -----

func.func @matmul_vectors(%a: tensor<4xf32>, %b: tensor<4xf32>) {
  // expected-error@+1 {{inferred type(s) 'tensor<f32>'}}
  %0 = graph.matmul %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<1xf32>
  return
}

// -----

func.func @matmul_dynamic(%a: tensor<?x3x4xf32>, %b: tensor<4x?xf32>) {
  // expected-error@+1 {{inferred type(s) 'tensor<?x3x?xf32>'}}
  %0 = graph.matmul %a, %b : (tensor<?x3x4xf32>, tensor<4x?xf32>) -> tensor<?x4x?xf32>
  return
}

// -----

func.func @gemm_trans(%a: tensor<4x3xf32>, %b: tensor<5x4xf32>) {
  // expected-error@+1 {{inferred type(s) 'tensor<3x5xf32>'}}
  %0 = graph.gemm %a, %b {trans_a = 1 : i64, trans_b = 1 : i64} : (tensor<4x3xf32>, tensor<5x4xf32>) -> tensor<4x4xf32>
  return
}

// -----

func.func @matmul_integer(%a: tensor<?x4xui8>, %b: tensor<4x6xi8>) {
  // expected-error@+1 {{inferred type(s) 'tensor<?x6xi32>'}}
  %0 = graph.matmul_integer %a, %b : (tensor<?x4xui8>, tensor<4x6xi8>) -> tensor<?x4xi32>
  return
}

// -----

// --- broadcasting ---
func.func @broadcast(%a: tensor<2x1x4xf32>, %b: tensor<3x1xf32>) {
  // expected-error@+1 {{inferred type(s) 'tensor<2x3x4xf32>'}}
  %0 = graph.add %a, %b : (tensor<2x1x4xf32>, tensor<3x1xf32>) -> tensor<2x1x4xf32>
  return
}

// -----

func.func @broadcast_dynamic(%a: tensor<?x4xf32>, %b: tensor<3x1xf32>) {
  // A dynamic dim against a static one other than 1 must be that size.
  // expected-error@+1 {{inferred type(s) 'tensor<3x4xf32>'}}
  %0 = graph.mul %a, %b : (tensor<?x4xf32>, tensor<3x1xf32>) -> tensor<3x3xf32>
  return
}

// -----

func.func @broadcast_dynamic_one(%a: tensor<?x1xf32>, %b: tensor<1x?xf32>) {
  // expected-error@+1 {{inferred type(s) 'tensor<?x?xf32>'}}
  %0 = graph.sub %a, %b : (tensor<?x1xf32>, tensor<1x?xf32>) -> tensor<?xf32>
  return
}

// -----

func.func @variadic(%a: tensor<3xf32>, %b: tensor<2x1xf32>, %c: tensor<1x1x3xf32>) {
  // expected-error@+1 {{inferred type(s) 'tensor<1x2x3xf32>'}}
  %0 = graph.sum %a, %b, %c : (tensor<3xf32>, tensor<2x1xf32>, tensor<1x1x3xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @prelu(%x: tensor<1x4x5x5xf32>, %s: tensor<4x1x1xf32>) {
  // expected-error@+1 {{inferred type(s) 'tensor<1x4x5x5xf32>'}}
  %0 = graph.prelu %x, %s : (tensor<1x4x5x5xf32>, tensor<4x1x1xf32>) -> tensor<4x4x5x5xf32>
  return
}

// -----

// --- reductions ---
func.func @reduce_axes(%x: tensor<?x4x5xf32>) {
  // expected-error@+1 {{inferred type(s) 'tensor<4x5xf32>'}}
  %0 = graph.reduce_sum %x {axes = array<i64: 0>, keepdims = 0 : i64} : (tensor<?x4x5xf32>) -> tensor<?x4x5xf32>
  return
}

// -----

func.func @reduce_all(%x: tensor<?x4x5xf32>) {
  // expected-error@+1 {{inferred type(s) 'tensor<1x1x1xf32>'}}
  %0 = graph.reduce_max %x : (tensor<?x4x5xf32>) -> tensor<f32>
  return
}

// -----

func.func @reduce_noop(%x: tensor<?x4x5xf32>) {
  // expected-error@+1 {{inferred type(s) 'tensor<?x4x5xf32>'}}
  %0 = graph.reduce_mean %x {noop_with_empty_axes = 1 : i64} : (tensor<?x4x5xf32>) -> tensor<1x1x1xf32>
  return
}

// -----

// --- data movement ---
func.func @concat_dynamic(%a: tensor<2x?x3xf32>, %b: tensor<2x4x3xf32>) {
  // expected-error@+1 {{inferred type(s) 'tensor<2x?x3xf32>'}}
  %0 = graph.concat %a, %b {axis = 1 : i64} : (tensor<2x?x3xf32>, tensor<2x4x3xf32>) -> tensor<2x4x4xf32>
  return
}

// -----

func.func @concat_refines(%a: tensor<?x4xf32>, %b: tensor<2x4xf32>) {
  // expected-error@+1 {{inferred type(s) 'tensor<2x8xf32>'}}
  %0 = graph.concat %a, %b {axis = -1 : i64} : (tensor<?x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
  return
}

// -----

func.func @split_equal(%x: tensor<7x2xf32>) {
  // expected-error@+1 {{inferred type(s) 'tensor<3x2xf32>, tensor<3x2xf32>, tensor<1x2xf32>'}}
  %0:3 = graph.split %x : (tensor<7x2xf32>) -> (tensor<3x2xf32>, tensor<3x2xf32>, tensor<3x2xf32>)
  return
}

// -----

func.func @split_dynamic(%x: tensor<?x2xf32>) {
  // expected-error@+1 {{inferred type(s) 'tensor<?x1xf32>, tensor<?x1xf32>'}}
  %0:2 = graph.split %x {axis = 1 : i64} : (tensor<?x2xf32>) -> (tensor<?x2xf32>, tensor<?x1xf32>)
  return
}

// -----

func.func @slice(%x: tensor<10x10xf32>) {
  // Rows 7..9; columns 8, 6, 4, 2.
  // expected-error@+1 {{inferred type(s) 'tensor<3x4xf32>'}}
  %0 = graph.slice %x {starts = array<i64: -3, 8>, ends = array<i64: 9223372036854775807, 1>, steps = array<i64: 1, -2>} : (tensor<10x10xf32>) -> tensor<3x3xf32>
  return
}

// -----

func.func @slice_clamps(%x: tensor<?x10xf32>) {
  // expected-error@+1 {{inferred type(s) 'tensor<?x0xf32>'}}
  %0 = graph.slice %x {starts = array<i64: 20>, ends = array<i64: 30>, axes = array<i64: -1>} : (tensor<?x10xf32>) -> tensor<?x10xf32>
  return
}

// -----

func.func @reshape(%x: tensor<2x3x4xf32>) {
  // expected-error@+1 {{inferred type(s) 'tensor<4x6xf32>'}}
  %0 = graph.reshape %x {shape = array<i64: -1, 6>} : (tensor<2x3x4xf32>) -> tensor<6x4xf32>
  return
}

// -----

func.func @reshape_copy(%x: tensor<2x3x4xf32>) {
  // expected-error@+1 {{inferred type(s) 'tensor<2x3x2x2xf32>'}}
  %0 = graph.reshape %x {shape = array<i64: 0, 0, -1, 2>} : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  return
}

// -----

func.func @reshape_dynamic_copied(%x: tensor<?x3x4xf32>) {
  // The dynamic dim is copied by the 0, so -1 is still known.
  // expected-error@+1 {{inferred type(s) 'tensor<?x12xf32>'}}
  %0 = graph.reshape %x {shape = array<i64: 0, -1>} : (tensor<?x3x4xf32>) -> tensor<?x3xf32>
  return
}

// -----

func.func @reshape_dynamic(%x: tensor<3x?xf32>) {
  // expected-error@+1 {{inferred type(s) 'tensor<?x3xf32>'}}
  %0 = graph.reshape %x {shape = array<i64: -1, 3>} : (tensor<3x?xf32>) -> tensor<?x4xf32>
  return
}

// -----

func.func @reshape_allowzero(%x: tensor<0x4xf32>) {
  // expected-error@+1 {{inferred type(s) 'tensor<4x0xf32>'}}
  %0 = graph.reshape %x {shape = array<i64: 4, 0>, allowzero = 1 : i64} : (tensor<0x4xf32>) -> tensor<4x4xf32>
  return
}

// -----

func.func @flatten(%x: tensor<2x?x4xf32>) {
  // expected-error@+1 {{inferred type(s) 'tensor<?x4xf32>'}}
  %0 = graph.flatten %x {axis = -1 : i64} : (tensor<2x?x4xf32>) -> tensor<2x8xf32>
  return
}

// -----

func.func @flatten_zero(%x: tensor<2x3x4xf32>) {
  // expected-error@+1 {{inferred type(s) 'tensor<1x24xf32>'}}
  %0 = graph.flatten %x {axis = 0 : i64} : (tensor<2x3x4xf32>) -> tensor<2x12xf32>
  return
}

// -----

func.func @squeeze(%x: tensor<1x?x1xf32>) {
  // expected-error@+1 {{inferred type(s) 'tensor<?xf32>'}}
  %0 = graph.squeeze %x : (tensor<1x?x1xf32>) -> tensor<f32>
  return
}

// -----

func.func @squeeze_dynamic_axis(%x: tensor<1x?x1xf32>) {
  // expected-error@+1 {{inferred type(s) 'tensor<1x1xf32>'}}
  %0 = graph.squeeze %x {axes = array<i64: 1>} : (tensor<1x?x1xf32>) -> tensor<1x?x1xf32>
  return
}

// -----

func.func @unsqueeze(%x: tensor<3x?xf32>) {
  // expected-error@+1 {{inferred type(s) 'tensor<3x1x?x1xf32>'}}
  %0 = graph.unsqueeze %x {axes = array<i64: 1, -1>} : (tensor<3x?xf32>) -> tensor<3x?xf32>
  return
}

// -----

func.func @transpose(%x: tensor<?x2x3xf32>) {
  // expected-error@+1 {{inferred type(s) 'tensor<3x?x2xf32>'}}
  %0 = graph.transpose %x {perm = array<i64: 2, 0, 1>} : (tensor<?x2x3xf32>) -> tensor<?x2x3xf32>
  return
}

// -----

func.func @pad(%x: tensor<?x3xf32>) {
  // expected-error@+1 {{inferred type(s) 'tensor<?x3xf32>'}}
  %0 = graph.pad %x {pads = array<i64: 1, 1, 2, -1>} : (tensor<?x3xf32>) -> tensor<?x4xf32>
  return
}

// -----

// --- element types ---
func.func @cast(%x: tensor<2x?xf32>) {
  // expected-error@+1 {{'graph.cast' op requires the same shape for all operands and results}}
  %0 = graph.cast %x : (tensor<2x?xf32>) -> tensor<3x?xi8>
  return
}

// -----

func.func @dequantize(%x: tensor<2x3xi8>, %s: tensor<f16>) {
  // expected-error@+1 {{inferred type(s) 'tensor<2x3xf16>'}}
  %0 = graph.dequantize_linear %x, %s : (tensor<2x3xi8>, tensor<f16>) -> tensor<2x3xf32>
  return
}

// -----

func.func @qlinear_conv(%x: tensor<1x2x4x4xui8>, %s: tensor<f32>, %zx: tensor<ui8>, %w: tensor<3x2x3x3xi8>, %zw: tensor<i8>, %zy: tensor<ui8>) {
  // expected-error@+1 {{inferred type(s) 'tensor<1x3x2x2xui8>'}}
  %0 = graph.qlinear_conv %x, %s, %zx, %w, %s, %zw, %s, %zy : (tensor<1x2x4x4xui8>, tensor<f32>, tensor<ui8>, tensor<3x2x3x3xi8>, tensor<f32>, tensor<i8>, tensor<f32>, tensor<ui8>) -> tensor<1x3x4x4xui8>
  return
}

// -----

func.func @conv_integer(%x: tensor<1x2x4x4xui8>, %w: tensor<3x2x3x3xi8>) {
  // expected-error@+1 {{inferred type(s) 'tensor<1x3x3x2xi32>'}}
  %0 = graph.conv_integer %x, %w {pads = array<i64: 0, 0, 1, 0>} : (tensor<1x2x4x4xui8>, tensor<3x2x3x3xi8>) -> tensor<1x3x2x2xi32>
  return
}
