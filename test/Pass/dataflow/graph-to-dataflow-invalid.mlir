// graph-to-dataflow refuses, with an error at the op, what has no dataflow
// layer or cannot be described to isl, and the pass fails.
// RUN: nc-opt --split-input-file --verify-diagnostics --graph-to-dataflow %s

func.func @softmax(%x: tensor<1x10xf32>) -> tensor<1x10xf32> {
  // expected-error@+1 {{'graph.softmax' op cannot become a dataflow node: 'graph.softmax' has no dataflow layer}}
  %s = graph.softmax %x : (tensor<1x10xf32>) -> tensor<1x10xf32>
  return %s : tensor<1x10xf32>
}

// -----

func.func @dq_between_layers(%x: tensor<1x1x4x4xi8>) -> tensor<1x1x2x2xf32> {
  %w = graph.constant {value = dense<1> : tensor<1x1x3x3xi8>} : () -> tensor<1x1x3x3xi8>
  %c = graph.conv_integer %x, %w {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x1x4x4xi8>, tensor<1x1x3x3xi8>) -> tensor<1x1x4x4xi32>
  %s = graph.constant {value = dense<0.1> : tensor<f32>} : () -> tensor<f32>
  // expected-error@+1 {{'graph.dequantize_linear' op is between two layers; graph-to-dataflow keeps quantize_linear and dequantize_linear outside the nodes, for the function's inputs and outputs only}}
  %d = graph.dequantize_linear %c, %s : (tensor<1x1x4x4xi32>, tensor<f32>) -> tensor<1x1x4x4xf32>
  %p = graph.max_pool %d {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x1x4x4xf32>) -> tensor<1x1x2x2xf32>
  return %p : tensor<1x1x2x2xf32>
}

// -----

func.func @batch(%x: tensor<2x1x4x4xf32>) -> tensor<2x1x4x4xf32> {
  %w = graph.constant {value = dense<1.0> : tensor<1x1x3x3xf32>} : () -> tensor<1x1x3x3xf32>
  // expected-error@+1 {{'graph.conv' op cannot become a dataflow node: only 2-D convolutions of a batch of one ([1, C, H, W]) with static shapes are supported}}
  %c = graph.conv %x, %w {pads = array<i64: 1, 1, 1, 1>} : (tensor<2x1x4x4xf32>, tensor<1x1x3x3xf32>) -> tensor<2x1x4x4xf32>
  return %c : tensor<2x1x4x4xf32>
}

// -----

func.func @conv1d(%x: tensor<1x2x8xf32>) -> tensor<1x2x6xf32> {
  %w = graph.constant {value = dense<1.0> : tensor<2x2x3xf32>} : () -> tensor<2x2x3xf32>
  // expected-error@+1 {{'graph.conv' op cannot become a dataflow node: only 2-D convolutions of a batch of one ([1, C, H, W]) with static shapes are supported}}
  %c = graph.conv %x, %w : (tensor<1x2x8xf32>, tensor<2x2x3xf32>) -> tensor<1x2x6xf32>
  return %c : tensor<1x2x6xf32>
}

// -----

func.func @dynamic(%x: tensor<1x2x?x?xf32>) -> tensor<1x2x?x?xf32> {
  // expected-error@+1 {{'graph.relu' op cannot become a dataflow node: layers need one result, a tensor of static shape}}
  %r = graph.relu %x : (tensor<1x2x?x?xf32>) -> tensor<1x2x?x?xf32>
  return %r : tensor<1x2x?x?xf32>
}

// -----

func.func @constant_data(%w: tensor<1x1x3x3xf32>) -> tensor<1x1x2x2xf32> {
  %x = graph.constant {value = dense<1.0> : tensor<1x1x4x4xf32>} : () -> tensor<1x1x4x4xf32>
  // expected-error@+1 {{'graph.conv' op cannot become a dataflow node: the layer's data operand must be a node input, not a constant}}
  %c = graph.conv %x, %w : (tensor<1x1x4x4xf32>, tensor<1x1x3x3xf32>) -> tensor<1x1x2x2xf32>
  return %c : tensor<1x1x2x2xf32>
}

// -----

// What a layer cannot express exactly is an error at the op: an activation
// other than relu after a layer, a second bias, a gemm with alpha.
func.func @sigmoid_after_pool(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x2x2xf32> {
  %p = graph.max_pool %x {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x2x4x4xf32>) -> tensor<1x2x2x2xf32>
  // expected-error@+1 {{'graph.sigmoid' op cannot become part of a max_pool layer: 'graph.sigmoid' is not a requantize, bias add or relu}}
  %s = graph.sigmoid %p : (tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  return %s : tensor<1x2x2x2xf32>
}

// -----

func.func @two_biases(%x: tensor<1x1x4x4xf32>) -> tensor<1x2x4x4xf32> {
  %w = graph.constant {value = dense<1.0> : tensor<2x1x3x3xf32>} : () -> tensor<2x1x3x3xf32>
  %b = graph.constant {value = dense<1.0> : tensor<2xf32>} : () -> tensor<2xf32>
  %c = graph.conv %x, %w, %b {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x1x4x4xf32>, tensor<2x1x3x3xf32>, tensor<2xf32>) -> tensor<1x2x4x4xf32>
  %b2 = graph.constant {value = dense<2.0> : tensor<1x2x1x1xf32>} : () -> tensor<1x2x1x1xf32>
  // expected-error@+1 {{'graph.add' op cannot become a dataflow layer: only the add of a per-channel constant right after a conv or matmul is its bias}}
  %a = graph.add %c, %b2 : (tensor<1x2x4x4xf32>, tensor<1x2x1x1xf32>) -> tensor<1x2x4x4xf32>
  return %a : tensor<1x2x4x4xf32>
}

// -----

func.func @gemm_alpha(%x: tensor<1x4xf32>) -> tensor<1x2xf32> {
  %w = graph.constant {value = dense<1.0> : tensor<4x2xf32>} : () -> tensor<4x2xf32>
  // expected-error@+1 {{'graph.gemm' op cannot become a dataflow layer: a gemm with alpha != 1 or trans_a has no matmul layer}}
  %g = graph.gemm %x, %w {alpha = 2.0 : f32} : (tensor<1x4xf32>, tensor<4x2xf32>) -> tensor<1x2xf32>
  return %g : tensor<1x2xf32>
}

// -----

func.func @resize_not_whole(%x: tensor<1x1x4x4xi8>) -> tensor<1x1x6x6xi8> {
  // expected-error@+1 {{'graph.resize' op cannot become a dataflow node: a resize by a factor that is not whole has no dataflow layer}}
  %r = graph.resize %x {sizes = array<i64: 1, 1, 6, 6>} : (tensor<1x1x4x4xi8>) -> tensor<1x1x6x6xi8>
  return %r : tensor<1x1x6x6xi8>
}

// -----

func.func @resize_half_pixel_x3(%x: tensor<1x1x2x2xi8>) -> tensor<1x1x6x6xi8> {
  // expected-error@+1 {{'graph.resize' op cannot become a dataflow layer: its coordinate mode does not copy each input element to a block of whole factors}}
  %r = graph.resize %x {coordinate_transformation_mode = "asymmetric", sizes = array<i64: 1, 1, 6, 6>} : (tensor<1x1x2x2xi8>) -> tensor<1x1x6x6xi8>
  return %r : tensor<1x1x6x6xi8>
}

// -----

func.func @pad_crop(%x: tensor<1x1x4x4xi8>) -> tensor<1x1x4x2xi8> {
  // expected-error@+1 {{'graph.pad' op cannot become a dataflow layer: a pad that crops has no layer}}
  %p = graph.pad %x {mode = "reflect", pads = array<i64: 0, 0, 0, -1, 0, 0, 0, -1>} : (tensor<1x1x4x4xi8>) -> tensor<1x1x4x2xi8>
  return %p : tensor<1x1x4x2xi8>
}

// -----

func.func @pad_batch(%x: tensor<1x1x4x4xi8>) -> tensor<2x1x4x4xi8> {
  // expected-error@+1 {{'graph.pad' op cannot become a dataflow node: a layer cannot change the batch dim: layers move one [1, C, H, W] image (run each image of a batch as its own inference)}}
  %p = graph.pad %x {mode = "wrap", pads = array<i64: 1, 0, 0, 0, 0, 0, 0, 0>} : (tensor<1x1x4x4xi8>) -> tensor<2x1x4x4xi8>
  return %p : tensor<2x1x4x4xi8>
}

// -----

func.func @pad_edge_channels(%x: tensor<1x1x4x4xi8>) -> tensor<1x3x4x4xi8> {
  // expected-error@+1 {{'graph.pad' op cannot become a dataflow layer: only pads of the spatial dims have a layer}}
  %p = graph.pad %x {mode = "edge", pads = array<i64: 0, 1, 0, 0, 0, 1, 0, 0>} : (tensor<1x1x4x4xi8>) -> tensor<1x3x4x4xi8>
  return %p : tensor<1x3x4x4xi8>
}
