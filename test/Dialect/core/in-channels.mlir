// core.tile in_channels (input-channel slices whose int32 partial sums the
// slice at channel 0 adds) and the partial-sum network on core.recv /
// core.send: what verifies and every error (docs/dialects/core.md).
// RUN: nc-opt --split-input-file --verify-diagnostics %s
// RUN: not nc-opt --split-input-file %s 2>/dev/null | FileCheck %s
// CHECK: core.tile {in_channels = array<i64: 0, 4>, node = "matmul1"
// CHECK: core.recv {from = array<i64: 1, 0>, iter = 0 : i64, network = 1 : i64, operand = 0 : i64}
// CHECK: core.tile {in_channels = array<i64: 4, 8>, node = "matmul1"
// CHECK: core.send {bytes = 12 : i64, iter = 0 : i64, network = 1 : i64, to = array<i64: 0, 0>}
// CHECK: core.tile {in_channels = array<i64: 0, 4>, node = "matmul1", out_channels = array<i64: 0, 2>
// CHECK: core.tile {in_channels = array<i64: 1, 2>, node = "conv1", out_rows = array<i64: 0, 1>
// CHECK: core.send {bytes = 16 : i64, iter = 0 : i64, network = 1 : i64, to = array<i64: 0, 0>}

// A matmul split by input channels (K): the reducer at K [0, 4) adds the
// partial sums of the tile at [4, 8), which sends them on network 1.
func.func @f(%x: tensor<1x8xi8>) -> tensor<1x3xi8> {
  %0 = dataflow.node "matmul1"(%x) {domain = #dataflow.set<"{ S[] }">, kind = "matmul", macs = 24 : i64, params = {bias = dense<[7, -7, 0]> : tensor<3xi32>, clamp_max = 127 : i64, clamp_min = -128 : i64, multiplier = array<i64: 1717986918>, shift = array<i64: 33>, weights = dense<1> : tensor<8x3xi8>}, reads = [#dataflow.map<"{ S[] -> In0[i] : 0 <= i <= 7 }">], writes = #dataflow.map<"{ S[] -> Out[o] : 0 <= o <= 2 }">}({
  ^bb0(%a: tensor<1x8xi8>):
    %w = graph.constant {value = dense<1> : tensor<8x3xi8>} : () -> tensor<8x3xi8>
    %m = graph.matmul_integer %a, %w : (tensor<1x8xi8>, tensor<8x3xi8>) -> tensor<1x3xi32>
    %b = graph.constant {value = dense<[7, -7, 0]> : tensor<3xi32>} : () -> tensor<3xi32>
    %r = graph.requantize %m, %b {axis = 1 : i64, multiplier = array<i64: 1717986918>, output_zero_point = 0 : i64, shift = array<i64: 33>} : (tensor<1x3xi32>, tensor<3xi32>) -> tensor<1x3xi8>
    dataflow.yield %r : tensor<1x3xi8>
  }) : (tensor<1x8xi8>) -> tensor<1x3xi8>
  return %0 : tensor<1x3xi8>
}
core.chip {rows = 2 : i64, cols = 3 : i64, sram_bytes = 1024 : i64, target = "tiny", function = @f} ({
  core.tile {x = 0 : i64, y = 0 : i64, node = "matmul1", in_channels = array<i64: 0, 4>} ({
    core.program ({
      core.recv {from = array<i64: 1, 0>, operand = 0 : i64, iter = 0 : i64, network = 1 : i64}
      core.compute {begin = 0 : i64, end = 1 : i64}
    })
  })
  core.tile {x = 1 : i64, y = 0 : i64, node = "matmul1", in_channels = array<i64: 4, 8>} ({
    core.program ({
      core.compute {begin = 0 : i64, end = 1 : i64}
      core.send {to = array<i64: 0, 0>, iter = 0 : i64, bytes = 12 : i64, network = 1 : i64}
    })
  })
}) : () -> ()

// -----

// With output slices too: one input-channel group per output slice.
func.func @f(%x: tensor<1x8xi8>) -> tensor<1x3xi8> {
  %0 = dataflow.node "matmul1"(%x) {domain = #dataflow.set<"{ S[] }">, kind = "matmul", macs = 24 : i64, params = {bias = dense<[7, -7, 0]> : tensor<3xi32>, clamp_max = 127 : i64, clamp_min = -128 : i64, multiplier = array<i64: 1717986918>, shift = array<i64: 33>, weights = dense<1> : tensor<8x3xi8>}, reads = [#dataflow.map<"{ S[] -> In0[i] : 0 <= i <= 7 }">], writes = #dataflow.map<"{ S[] -> Out[o] : 0 <= o <= 2 }">}({
  ^bb0(%a: tensor<1x8xi8>):
    %w = graph.constant {value = dense<1> : tensor<8x3xi8>} : () -> tensor<8x3xi8>
    %m = graph.matmul_integer %a, %w : (tensor<1x8xi8>, tensor<8x3xi8>) -> tensor<1x3xi32>
    %b = graph.constant {value = dense<[7, -7, 0]> : tensor<3xi32>} : () -> tensor<3xi32>
    %r = graph.requantize %m, %b {axis = 1 : i64, multiplier = array<i64: 1717986918>, output_zero_point = 0 : i64, shift = array<i64: 33>} : (tensor<1x3xi32>, tensor<3xi32>) -> tensor<1x3xi8>
    dataflow.yield %r : tensor<1x3xi8>
  }) : (tensor<1x8xi8>) -> tensor<1x3xi8>
  return %0 : tensor<1x3xi8>
}
core.chip {rows = 2 : i64, cols = 3 : i64, sram_bytes = 1024 : i64, target = "tiny", function = @f} ({
  core.tile {x = 0 : i64, y = 0 : i64, node = "matmul1", out_channels = array<i64: 0, 2>, in_channels = array<i64: 0, 4>} ({
    core.program ({
    })
  })
  core.tile {x = 1 : i64, y = 0 : i64, node = "matmul1", out_channels = array<i64: 0, 2>, in_channels = array<i64: 4, 8>} ({
    core.program ({
    })
  })
  core.tile {x = 2 : i64, y = 0 : i64, node = "matmul1", out_channels = array<i64: 2, 3>} ({
    core.program ({
    })
  })
}) : () -> ()

// -----

// The input slices of a group partition K.
func.func @f(%x: tensor<1x8xi8>) -> tensor<1x3xi8> {
  %0 = dataflow.node "matmul1"(%x) {domain = #dataflow.set<"{ S[] }">, kind = "matmul", macs = 24 : i64, params = {bias = dense<[7, -7, 0]> : tensor<3xi32>, clamp_max = 127 : i64, clamp_min = -128 : i64, multiplier = array<i64: 1717986918>, shift = array<i64: 33>, weights = dense<1> : tensor<8x3xi8>}, reads = [#dataflow.map<"{ S[] -> In0[i] : 0 <= i <= 7 }">], writes = #dataflow.map<"{ S[] -> Out[o] : 0 <= o <= 2 }">}({
  ^bb0(%a: tensor<1x8xi8>):
    %w = graph.constant {value = dense<1> : tensor<8x3xi8>} : () -> tensor<8x3xi8>
    %m = graph.matmul_integer %a, %w : (tensor<1x8xi8>, tensor<8x3xi8>) -> tensor<1x3xi32>
    %b = graph.constant {value = dense<[7, -7, 0]> : tensor<3xi32>} : () -> tensor<3xi32>
    %r = graph.requantize %m, %b {axis = 1 : i64, multiplier = array<i64: 1717986918>, output_zero_point = 0 : i64, shift = array<i64: 33>} : (tensor<1x3xi32>, tensor<3xi32>) -> tensor<1x3xi8>
    dataflow.yield %r : tensor<1x3xi8>
  }) : (tensor<1x8xi8>) -> tensor<1x3xi8>
  return %0 : tensor<1x3xi8>
}
// expected-error@+1 {{'core.chip' op the in_channels of node 'matmul1''s tiles must partition its 8 input channels, not [0, 4)}}
core.chip {rows = 2 : i64, cols = 3 : i64, sram_bytes = 1024 : i64, target = "tiny", function = @f} ({
  core.tile {x = 0 : i64, y = 0 : i64, node = "matmul1", in_channels = array<i64: 0, 4>} ({
    core.program ({
    })
  })
}) : () -> ()

// -----

// Without overlaps.
func.func @f(%x: tensor<1x8xi8>) -> tensor<1x3xi8> {
  %0 = dataflow.node "matmul1"(%x) {domain = #dataflow.set<"{ S[] }">, kind = "matmul", macs = 24 : i64, params = {bias = dense<[7, -7, 0]> : tensor<3xi32>, clamp_max = 127 : i64, clamp_min = -128 : i64, multiplier = array<i64: 1717986918>, shift = array<i64: 33>, weights = dense<1> : tensor<8x3xi8>}, reads = [#dataflow.map<"{ S[] -> In0[i] : 0 <= i <= 7 }">], writes = #dataflow.map<"{ S[] -> Out[o] : 0 <= o <= 2 }">}({
  ^bb0(%a: tensor<1x8xi8>):
    %w = graph.constant {value = dense<1> : tensor<8x3xi8>} : () -> tensor<8x3xi8>
    %m = graph.matmul_integer %a, %w : (tensor<1x8xi8>, tensor<8x3xi8>) -> tensor<1x3xi32>
    %b = graph.constant {value = dense<[7, -7, 0]> : tensor<3xi32>} : () -> tensor<3xi32>
    %r = graph.requantize %m, %b {axis = 1 : i64, multiplier = array<i64: 1717986918>, output_zero_point = 0 : i64, shift = array<i64: 33>} : (tensor<1x3xi32>, tensor<3xi32>) -> tensor<1x3xi8>
    dataflow.yield %r : tensor<1x3xi8>
  }) : (tensor<1x8xi8>) -> tensor<1x3xi8>
  return %0 : tensor<1x3xi8>
}
// expected-error@+1 {{'core.chip' op the in_channels of node 'matmul1''s tiles must partition its 8 input channels: an overlap at channel 5}}
core.chip {rows = 2 : i64, cols = 3 : i64, sram_bytes = 1024 : i64, target = "tiny", function = @f} ({
  core.tile {x = 0 : i64, y = 0 : i64, node = "matmul1", in_channels = array<i64: 0, 5>} ({
    core.program ({
    })
  })
  core.tile {x = 1 : i64, y = 0 : i64, node = "matmul1", in_channels = array<i64: 4, 8>} ({
    core.program ({
    })
  })
}) : () -> ()

// -----

// Within the node's input channels.
func.func @f(%x: tensor<1x8xi8>) -> tensor<1x3xi8> {
  %0 = dataflow.node "matmul1"(%x) {domain = #dataflow.set<"{ S[] }">, kind = "matmul", macs = 24 : i64, params = {bias = dense<[7, -7, 0]> : tensor<3xi32>, clamp_max = 127 : i64, clamp_min = -128 : i64, multiplier = array<i64: 1717986918>, shift = array<i64: 33>, weights = dense<1> : tensor<8x3xi8>}, reads = [#dataflow.map<"{ S[] -> In0[i] : 0 <= i <= 7 }">], writes = #dataflow.map<"{ S[] -> Out[o] : 0 <= o <= 2 }">}({
  ^bb0(%a: tensor<1x8xi8>):
    %w = graph.constant {value = dense<1> : tensor<8x3xi8>} : () -> tensor<8x3xi8>
    %m = graph.matmul_integer %a, %w : (tensor<1x8xi8>, tensor<8x3xi8>) -> tensor<1x3xi32>
    %b = graph.constant {value = dense<[7, -7, 0]> : tensor<3xi32>} : () -> tensor<3xi32>
    %r = graph.requantize %m, %b {axis = 1 : i64, multiplier = array<i64: 1717986918>, output_zero_point = 0 : i64, shift = array<i64: 33>} : (tensor<1x3xi32>, tensor<3xi32>) -> tensor<1x3xi8>
    dataflow.yield %r : tensor<1x3xi8>
  }) : (tensor<1x8xi8>) -> tensor<1x3xi8>
  return %0 : tensor<1x3xi8>
}
core.chip {rows = 2 : i64, cols = 3 : i64, sram_bytes = 1024 : i64, target = "tiny", function = @f} ({
  // expected-error@+1 {{'core.tile' op sums over input channels [0, 9) of node 'matmul1', which has 8}}
  core.tile {x = 0 : i64, y = 0 : i64, node = "matmul1", in_channels = array<i64: 0, 9>} ({
    core.program ({
    })
  })
}) : () -> ()

// -----

// Tiles of a split node are all output slices, or all input slices of the whole output.
func.func @f(%x: tensor<1x8xi8>) -> tensor<1x3xi8> {
  %0 = dataflow.node "matmul1"(%x) {domain = #dataflow.set<"{ S[] }">, kind = "matmul", macs = 24 : i64, params = {bias = dense<[7, -7, 0]> : tensor<3xi32>, clamp_max = 127 : i64, clamp_min = -128 : i64, multiplier = array<i64: 1717986918>, shift = array<i64: 33>, weights = dense<1> : tensor<8x3xi8>}, reads = [#dataflow.map<"{ S[] -> In0[i] : 0 <= i <= 7 }">], writes = #dataflow.map<"{ S[] -> Out[o] : 0 <= o <= 2 }">}({
  ^bb0(%a: tensor<1x8xi8>):
    %w = graph.constant {value = dense<1> : tensor<8x3xi8>} : () -> tensor<8x3xi8>
    %m = graph.matmul_integer %a, %w : (tensor<1x8xi8>, tensor<8x3xi8>) -> tensor<1x3xi32>
    %b = graph.constant {value = dense<[7, -7, 0]> : tensor<3xi32>} : () -> tensor<3xi32>
    %r = graph.requantize %m, %b {axis = 1 : i64, multiplier = array<i64: 1717986918>, output_zero_point = 0 : i64, shift = array<i64: 33>} : (tensor<1x3xi32>, tensor<3xi32>) -> tensor<1x3xi8>
    dataflow.yield %r : tensor<1x3xi8>
  }) : (tensor<1x8xi8>) -> tensor<1x3xi8>
  return %0 : tensor<1x3xi8>
}
// expected-error@+1 {{'core.chip' op node 'matmul1' has 2 tiles, so each must compute a slice of its output channels (out_channels) or all of them (none has out_channels)}}
core.chip {rows = 2 : i64, cols = 3 : i64, sram_bytes = 1024 : i64, target = "tiny", function = @f} ({
  core.tile {x = 0 : i64, y = 0 : i64, node = "matmul1", in_channels = array<i64: 0, 8>} ({
    core.program ({
    })
  })
  core.tile {x = 1 : i64, y = 0 : i64, node = "matmul1", out_channels = array<i64: 0, 3>} ({
    core.program ({
    })
  })
}) : () -> ()

// -----

// A slice is a non-empty range.
func.func @f(%x: tensor<1x8xi8>) -> tensor<1x3xi8> {
  %0 = dataflow.node "matmul1"(%x) {domain = #dataflow.set<"{ S[] }">, kind = "matmul", macs = 24 : i64, params = {bias = dense<[7, -7, 0]> : tensor<3xi32>, clamp_max = 127 : i64, clamp_min = -128 : i64, multiplier = array<i64: 1717986918>, shift = array<i64: 33>, weights = dense<1> : tensor<8x3xi8>}, reads = [#dataflow.map<"{ S[] -> In0[i] : 0 <= i <= 7 }">], writes = #dataflow.map<"{ S[] -> Out[o] : 0 <= o <= 2 }">}({
  ^bb0(%a: tensor<1x8xi8>):
    %w = graph.constant {value = dense<1> : tensor<8x3xi8>} : () -> tensor<8x3xi8>
    %m = graph.matmul_integer %a, %w : (tensor<1x8xi8>, tensor<8x3xi8>) -> tensor<1x3xi32>
    %b = graph.constant {value = dense<[7, -7, 0]> : tensor<3xi32>} : () -> tensor<3xi32>
    %r = graph.requantize %m, %b {axis = 1 : i64, multiplier = array<i64: 1717986918>, output_zero_point = 0 : i64, shift = array<i64: 33>} : (tensor<1x3xi32>, tensor<3xi32>) -> tensor<1x3xi8>
    dataflow.yield %r : tensor<1x3xi8>
  }) : (tensor<1x8xi8>) -> tensor<1x3xi8>
  return %0 : tensor<1x3xi8>
}
core.chip {rows = 2 : i64, cols = 3 : i64, sram_bytes = 1024 : i64, target = "tiny", function = @f} ({
  // expected-error@+1 {{'core.tile' op in_channels [3, 2) must be a non-empty range of non-negative channels}}
  core.tile {x = 0 : i64, y = 0 : i64, node = "matmul1", in_channels = array<i64: 3, 2>} ({
    core.program ({
    })
  })
}) : () -> ()

// -----

// Partial sums go to the reducer (the slice at 0) only.
func.func @f(%x: tensor<1x8xi8>) -> tensor<1x3xi8> {
  %0 = dataflow.node "matmul1"(%x) {domain = #dataflow.set<"{ S[] }">, kind = "matmul", macs = 24 : i64, params = {bias = dense<[7, -7, 0]> : tensor<3xi32>, clamp_max = 127 : i64, clamp_min = -128 : i64, multiplier = array<i64: 1717986918>, shift = array<i64: 33>, weights = dense<1> : tensor<8x3xi8>}, reads = [#dataflow.map<"{ S[] -> In0[i] : 0 <= i <= 7 }">], writes = #dataflow.map<"{ S[] -> Out[o] : 0 <= o <= 2 }">}({
  ^bb0(%a: tensor<1x8xi8>):
    %w = graph.constant {value = dense<1> : tensor<8x3xi8>} : () -> tensor<8x3xi8>
    %m = graph.matmul_integer %a, %w : (tensor<1x8xi8>, tensor<8x3xi8>) -> tensor<1x3xi32>
    %b = graph.constant {value = dense<[7, -7, 0]> : tensor<3xi32>} : () -> tensor<3xi32>
    %r = graph.requantize %m, %b {axis = 1 : i64, multiplier = array<i64: 1717986918>, output_zero_point = 0 : i64, shift = array<i64: 33>} : (tensor<1x3xi32>, tensor<3xi32>) -> tensor<1x3xi8>
    dataflow.yield %r : tensor<1x3xi8>
  }) : (tensor<1x8xi8>) -> tensor<1x3xi8>
  return %0 : tensor<1x3xi8>
}
core.chip {rows = 2 : i64, cols = 3 : i64, sram_bytes = 1024 : i64, target = "tiny", function = @f} ({
  core.tile {x = 0 : i64, y = 0 : i64, node = "matmul1", in_channels = array<i64: 0, 4>} ({
    core.program ({
    })
  })
  core.tile {x = 1 : i64, y = 0 : i64, node = "matmul1", in_channels = array<i64: 4, 8>} ({
    core.program ({
      // expected-error@+1 {{'core.recv' op receives partial sums (network 1) on a tile that is not the group's reducer (the slice at input channel 0)}}
      core.recv {from = array<i64: 0, 0>, operand = 0 : i64, iter = 0 : i64, network = 1 : i64}
    })
  })
}) : () -> ()

// -----

// From a tile of the same group.
func.func @f(%x: tensor<1x8xi8>) -> tensor<1x3xi8> {
  %0 = dataflow.node "matmul1"(%x) {domain = #dataflow.set<"{ S[] }">, kind = "matmul", macs = 24 : i64, params = {bias = dense<[7, -7, 0]> : tensor<3xi32>, clamp_max = 127 : i64, clamp_min = -128 : i64, multiplier = array<i64: 1717986918>, shift = array<i64: 33>, weights = dense<1> : tensor<8x3xi8>}, reads = [#dataflow.map<"{ S[] -> In0[i] : 0 <= i <= 7 }">], writes = #dataflow.map<"{ S[] -> Out[o] : 0 <= o <= 2 }">}({
  ^bb0(%a: tensor<1x8xi8>):
    %w = graph.constant {value = dense<1> : tensor<8x3xi8>} : () -> tensor<8x3xi8>
    %m = graph.matmul_integer %a, %w : (tensor<1x8xi8>, tensor<8x3xi8>) -> tensor<1x3xi32>
    %b = graph.constant {value = dense<[7, -7, 0]> : tensor<3xi32>} : () -> tensor<3xi32>
    %r = graph.requantize %m, %b {axis = 1 : i64, multiplier = array<i64: 1717986918>, output_zero_point = 0 : i64, shift = array<i64: 33>} : (tensor<1x3xi32>, tensor<3xi32>) -> tensor<1x3xi8>
    dataflow.yield %r : tensor<1x3xi8>
  }) : (tensor<1x8xi8>) -> tensor<1x3xi8>
  return %0 : tensor<1x3xi8>
}
core.chip {rows = 2 : i64, cols = 3 : i64, sram_bytes = 1024 : i64, target = "tiny", function = @f} ({
  core.tile {x = 0 : i64, y = 0 : i64, node = "matmul1", in_channels = array<i64: 0, 4>} ({
    core.program ({
      // expected-error@+1 {{'core.recv' op receives partial sums (network 1) from a tile outside its input-channel group}}
      core.recv {from = array<i64: 2, 0>, operand = 0 : i64, iter = 0 : i64, network = 1 : i64}
    })
  })
  core.tile {x = 1 : i64, y = 0 : i64, node = "matmul1", in_channels = array<i64: 4, 8>} ({
    core.program ({
    })
  })
  core.tile {x = 2 : i64, y = 0 : i64, node = "other"} ({
    core.program ({
    })
  })
}) : () -> ()

// -----

// Two networks only.
func.func @f(%x: tensor<1x8xi8>) -> tensor<1x3xi8> {
  %0 = dataflow.node "matmul1"(%x) {domain = #dataflow.set<"{ S[] }">, kind = "matmul", macs = 24 : i64, params = {bias = dense<[7, -7, 0]> : tensor<3xi32>, clamp_max = 127 : i64, clamp_min = -128 : i64, multiplier = array<i64: 1717986918>, shift = array<i64: 33>, weights = dense<1> : tensor<8x3xi8>}, reads = [#dataflow.map<"{ S[] -> In0[i] : 0 <= i <= 7 }">], writes = #dataflow.map<"{ S[] -> Out[o] : 0 <= o <= 2 }">}({
  ^bb0(%a: tensor<1x8xi8>):
    %w = graph.constant {value = dense<1> : tensor<8x3xi8>} : () -> tensor<8x3xi8>
    %m = graph.matmul_integer %a, %w : (tensor<1x8xi8>, tensor<8x3xi8>) -> tensor<1x3xi32>
    %b = graph.constant {value = dense<[7, -7, 0]> : tensor<3xi32>} : () -> tensor<3xi32>
    %r = graph.requantize %m, %b {axis = 1 : i64, multiplier = array<i64: 1717986918>, output_zero_point = 0 : i64, shift = array<i64: 33>} : (tensor<1x3xi32>, tensor<3xi32>) -> tensor<1x3xi8>
    dataflow.yield %r : tensor<1x3xi8>
  }) : (tensor<1x8xi8>) -> tensor<1x3xi8>
  return %0 : tensor<1x3xi8>
}
core.chip {rows = 2 : i64, cols = 3 : i64, sram_bytes = 1024 : i64, target = "tiny", function = @f} ({
  core.tile {x = 0 : i64, y = 0 : i64, node = "matmul1", in_channels = array<i64: 0, 4>} ({
    core.program ({
      // expected-error@+1 {{'core.send' op network 2 must be 0 (activations) or 1 (partial sums)}}
      core.send {to = array<i64: 1, 0>, iter = 0 : i64, bytes = 12 : i64, network = 2 : i64}
    })
  })
  core.tile {x = 1 : i64, y = 0 : i64, node = "matmul1", in_channels = array<i64: 4, 8>} ({
    core.program ({
    })
  })
}) : () -> ()

// -----

// Partial sums are for no operand.
func.func @f(%x: tensor<1x8xi8>) -> tensor<1x3xi8> {
  %0 = dataflow.node "matmul1"(%x) {domain = #dataflow.set<"{ S[] }">, kind = "matmul", macs = 24 : i64, params = {bias = dense<[7, -7, 0]> : tensor<3xi32>, clamp_max = 127 : i64, clamp_min = -128 : i64, multiplier = array<i64: 1717986918>, shift = array<i64: 33>, weights = dense<1> : tensor<8x3xi8>}, reads = [#dataflow.map<"{ S[] -> In0[i] : 0 <= i <= 7 }">], writes = #dataflow.map<"{ S[] -> Out[o] : 0 <= o <= 2 }">}({
  ^bb0(%a: tensor<1x8xi8>):
    %w = graph.constant {value = dense<1> : tensor<8x3xi8>} : () -> tensor<8x3xi8>
    %m = graph.matmul_integer %a, %w : (tensor<1x8xi8>, tensor<8x3xi8>) -> tensor<1x3xi32>
    %b = graph.constant {value = dense<[7, -7, 0]> : tensor<3xi32>} : () -> tensor<3xi32>
    %r = graph.requantize %m, %b {axis = 1 : i64, multiplier = array<i64: 1717986918>, output_zero_point = 0 : i64, shift = array<i64: 33>} : (tensor<1x3xi32>, tensor<3xi32>) -> tensor<1x3xi8>
    dataflow.yield %r : tensor<1x3xi8>
  }) : (tensor<1x8xi8>) -> tensor<1x3xi8>
  return %0 : tensor<1x3xi8>
}
core.chip {rows = 2 : i64, cols = 3 : i64, sram_bytes = 1024 : i64, target = "tiny", function = @f} ({
  core.tile {x = 0 : i64, y = 0 : i64, node = "matmul1", in_channels = array<i64: 0, 4>} ({
    core.program ({
      // expected-error@+1 {{'core.recv' op receives partial sums (network 1), which are for no operand: operand must be 0}}
      core.recv {from = array<i64: 1, 0>, operand = 1 : i64, iter = 0 : i64, network = 1 : i64}
    })
  })
  core.tile {x = 1 : i64, y = 0 : i64, node = "matmul1", in_channels = array<i64: 4, 8>} ({
    core.program ({
    })
  })
}) : () -> ()

// -----

// Input-channel slices of row bands: the tiles of one band (out_channels x
// out_rows) form its input-channel group, whose reducer adds the band's
// partial sums.
func.func @f(%x: tensor<1x2x2x2xi8>) -> tensor<1x2x2x2xi8> {
  %0 = dataflow.node "conv1"(%x) {domain = #dataflow.set<"{ S[oy] : 0 <= oy <= 1 }">, kind = "conv", macs = 32 : i64, params = {bias = dense<[5, -5]> : tensor<2xi32>, clamp_max = 127 : i64, clamp_min = -128 : i64, kernel = array<i64: 1, 1>, multiplier = array<i64: 1073741824, 1073741824>, shift = array<i64: 36, 36>, weights = dense<3> : tensor<2x2x1x1xi8>}, reads = [#dataflow.map<"{ S[oy] -> In0[c, oy, ix] : 0 <= oy <= 1 and 0 <= c <= 1 and 0 <= ix <= 1 }">], writes = #dataflow.map<"{ S[oy] -> Out[k, oy, ox] : 0 <= oy <= 1 and 0 <= k <= 1 and 0 <= ox <= 1 }">}({
  ^bb0(%a: tensor<1x2x2x2xi8>):
    %w = graph.constant {value = dense<3> : tensor<2x2x1x1xi8>} : () -> tensor<2x2x1x1xi8>
    %c = graph.conv_integer %a, %w : (tensor<1x2x2x2xi8>, tensor<2x2x1x1xi8>) -> tensor<1x2x2x2xi32>
    %b = graph.constant {value = dense<[5, -5]> : tensor<2xi32>} : () -> tensor<2xi32>
    %r = graph.requantize %c, %b {axis = 1 : i64, multiplier = array<i64: 1073741824, 1073741824>, output_zero_point = 0 : i64, shift = array<i64: 36, 36>} : (tensor<1x2x2x2xi32>, tensor<2xi32>) -> tensor<1x2x2x2xi8>
    dataflow.yield %r : tensor<1x2x2x2xi8>
  }) : (tensor<1x2x2x2xi8>) -> tensor<1x2x2x2xi8>
  return %0 : tensor<1x2x2x2xi8>
}
core.chip {rows = 2 : i64, cols = 3 : i64, sram_bytes = 1024 : i64, target = "tiny", function = @f} ({
  core.tile {x = 0 : i64, y = 0 : i64, node = "conv1", in_channels = array<i64: 0, 1>, out_rows = array<i64: 0, 1>} ({
    core.program ({
      core.recv {from = array<i64: 1, 0>, operand = 0 : i64, iter = 0 : i64, network = 1 : i64}
      core.compute {begin = 0 : i64, end = 1 : i64}
    })
  })
  core.tile {x = 1 : i64, y = 0 : i64, node = "conv1", in_channels = array<i64: 1, 2>, out_rows = array<i64: 0, 1>} ({
    core.program ({
      core.compute {begin = 0 : i64, end = 1 : i64}
      core.send {to = array<i64: 0, 0>, iter = 0 : i64, bytes = 16 : i64, network = 1 : i64}
    })
  })
  core.tile {x = 2 : i64, y = 0 : i64, node = "conv1", in_channels = array<i64: 0, 1>, out_rows = array<i64: 1, 2>} ({
    core.program ({
    })
  })
  core.tile {x = 0 : i64, y = 1 : i64, node = "conv1", in_channels = array<i64: 1, 2>, out_rows = array<i64: 1, 2>} ({
    core.program ({
    })
  })
}) : () -> ()

// -----

// Each band's input slices partition the input channels.
func.func @f(%x: tensor<1x2x2x2xi8>) -> tensor<1x2x2x2xi8> {
  %0 = dataflow.node "conv1"(%x) {domain = #dataflow.set<"{ S[oy] : 0 <= oy <= 1 }">, kind = "conv", macs = 32 : i64, params = {bias = dense<[5, -5]> : tensor<2xi32>, clamp_max = 127 : i64, clamp_min = -128 : i64, kernel = array<i64: 1, 1>, multiplier = array<i64: 1073741824, 1073741824>, shift = array<i64: 36, 36>, weights = dense<3> : tensor<2x2x1x1xi8>}, reads = [#dataflow.map<"{ S[oy] -> In0[c, oy, ix] : 0 <= oy <= 1 and 0 <= c <= 1 and 0 <= ix <= 1 }">], writes = #dataflow.map<"{ S[oy] -> Out[k, oy, ox] : 0 <= oy <= 1 and 0 <= k <= 1 and 0 <= ox <= 1 }">}({
  ^bb0(%a: tensor<1x2x2x2xi8>):
    %w = graph.constant {value = dense<3> : tensor<2x2x1x1xi8>} : () -> tensor<2x2x1x1xi8>
    %c = graph.conv_integer %a, %w : (tensor<1x2x2x2xi8>, tensor<2x2x1x1xi8>) -> tensor<1x2x2x2xi32>
    %b = graph.constant {value = dense<[5, -5]> : tensor<2xi32>} : () -> tensor<2xi32>
    %r = graph.requantize %c, %b {axis = 1 : i64, multiplier = array<i64: 1073741824, 1073741824>, output_zero_point = 0 : i64, shift = array<i64: 36, 36>} : (tensor<1x2x2x2xi32>, tensor<2xi32>) -> tensor<1x2x2x2xi8>
    dataflow.yield %r : tensor<1x2x2x2xi8>
  }) : (tensor<1x2x2x2xi8>) -> tensor<1x2x2x2xi8>
  return %0 : tensor<1x2x2x2xi8>
}
// expected-error@+1 {{'core.chip' op the in_channels of node 'conv1''s tiles must partition its 2 input channels, not [0, 1)}}
core.chip {rows = 2 : i64, cols = 3 : i64, sram_bytes = 1024 : i64, target = "tiny", function = @f} ({
  core.tile {x = 0 : i64, y = 0 : i64, node = "conv1", in_channels = array<i64: 0, 1>, out_rows = array<i64: 0, 1>} ({
    core.program ({
    })
  })
  core.tile {x = 1 : i64, y = 0 : i64, node = "conv1", in_channels = array<i64: 1, 2>, out_rows = array<i64: 0, 1>} ({
    core.program ({
    })
  })
  core.tile {x = 2 : i64, y = 0 : i64, node = "conv1", in_channels = array<i64: 0, 1>, out_rows = array<i64: 1, 2>} ({
    core.program ({
    })
  })
}) : () -> ()

// -----

// A band's partial sums go to its own reducer, not another band's.
func.func @f(%x: tensor<1x2x2x2xi8>) -> tensor<1x2x2x2xi8> {
  %0 = dataflow.node "conv1"(%x) {domain = #dataflow.set<"{ S[oy] : 0 <= oy <= 1 }">, kind = "conv", macs = 32 : i64, params = {bias = dense<[5, -5]> : tensor<2xi32>, clamp_max = 127 : i64, clamp_min = -128 : i64, kernel = array<i64: 1, 1>, multiplier = array<i64: 1073741824, 1073741824>, shift = array<i64: 36, 36>, weights = dense<3> : tensor<2x2x1x1xi8>}, reads = [#dataflow.map<"{ S[oy] -> In0[c, oy, ix] : 0 <= oy <= 1 and 0 <= c <= 1 and 0 <= ix <= 1 }">], writes = #dataflow.map<"{ S[oy] -> Out[k, oy, ox] : 0 <= oy <= 1 and 0 <= k <= 1 and 0 <= ox <= 1 }">}({
  ^bb0(%a: tensor<1x2x2x2xi8>):
    %w = graph.constant {value = dense<3> : tensor<2x2x1x1xi8>} : () -> tensor<2x2x1x1xi8>
    %c = graph.conv_integer %a, %w : (tensor<1x2x2x2xi8>, tensor<2x2x1x1xi8>) -> tensor<1x2x2x2xi32>
    %b = graph.constant {value = dense<[5, -5]> : tensor<2xi32>} : () -> tensor<2xi32>
    %r = graph.requantize %c, %b {axis = 1 : i64, multiplier = array<i64: 1073741824, 1073741824>, output_zero_point = 0 : i64, shift = array<i64: 36, 36>} : (tensor<1x2x2x2xi32>, tensor<2xi32>) -> tensor<1x2x2x2xi8>
    dataflow.yield %r : tensor<1x2x2x2xi8>
  }) : (tensor<1x2x2x2xi8>) -> tensor<1x2x2x2xi8>
  return %0 : tensor<1x2x2x2xi8>
}
core.chip {rows = 2 : i64, cols = 3 : i64, sram_bytes = 1024 : i64, target = "tiny", function = @f} ({
  core.tile {x = 0 : i64, y = 0 : i64, node = "conv1", in_channels = array<i64: 0, 1>, out_rows = array<i64: 0, 1>} ({
    core.program ({
    })
  })
  core.tile {x = 1 : i64, y = 0 : i64, node = "conv1", in_channels = array<i64: 1, 2>, out_rows = array<i64: 0, 1>} ({
    core.program ({
      // expected-error@+1 {{'core.send' op sends partial sums (network 1) to a tile outside its input-channel group (a tile of node 'conv1' with in_channels and the same out_channels and out_rows)}}
      core.send {to = array<i64: 2, 0>, iter = 1 : i64, bytes = 16 : i64, network = 1 : i64}
    })
  })
  core.tile {x = 2 : i64, y = 0 : i64, node = "conv1", in_channels = array<i64: 0, 1>, out_rows = array<i64: 1, 2>} ({
    core.program ({
    })
  })
  core.tile {x = 0 : i64, y = 1 : i64, node = "conv1", in_channels = array<i64: 1, 2>, out_rows = array<i64: 1, 2>} ({
    core.program ({
    })
  })
}) : () -> ()

// -----

// Two tiles of one band without input slices overlap.
func.func @f(%x: tensor<1x2x2x2xi8>) -> tensor<1x2x2x2xi8> {
  %0 = dataflow.node "conv1"(%x) {domain = #dataflow.set<"{ S[oy] : 0 <= oy <= 1 }">, kind = "conv", macs = 32 : i64, params = {bias = dense<[5, -5]> : tensor<2xi32>, clamp_max = 127 : i64, clamp_min = -128 : i64, kernel = array<i64: 1, 1>, multiplier = array<i64: 1073741824, 1073741824>, shift = array<i64: 36, 36>, weights = dense<3> : tensor<2x2x1x1xi8>}, reads = [#dataflow.map<"{ S[oy] -> In0[c, oy, ix] : 0 <= oy <= 1 and 0 <= c <= 1 and 0 <= ix <= 1 }">], writes = #dataflow.map<"{ S[oy] -> Out[k, oy, ox] : 0 <= oy <= 1 and 0 <= k <= 1 and 0 <= ox <= 1 }">}({
  ^bb0(%a: tensor<1x2x2x2xi8>):
    %w = graph.constant {value = dense<3> : tensor<2x2x1x1xi8>} : () -> tensor<2x2x1x1xi8>
    %c = graph.conv_integer %a, %w : (tensor<1x2x2x2xi8>, tensor<2x2x1x1xi8>) -> tensor<1x2x2x2xi32>
    %b = graph.constant {value = dense<[5, -5]> : tensor<2xi32>} : () -> tensor<2xi32>
    %r = graph.requantize %c, %b {axis = 1 : i64, multiplier = array<i64: 1073741824, 1073741824>, output_zero_point = 0 : i64, shift = array<i64: 36, 36>} : (tensor<1x2x2x2xi32>, tensor<2xi32>) -> tensor<1x2x2x2xi8>
    dataflow.yield %r : tensor<1x2x2x2xi8>
  }) : (tensor<1x2x2x2xi8>) -> tensor<1x2x2x2xi8>
  return %0 : tensor<1x2x2x2xi8>
}
// expected-error@+1 {{'core.chip' op the slices of node 'conv1''s tiles overlap: 2 tiles compute channels [0, 2) x rows [0, 1)}}
core.chip {rows = 2 : i64, cols = 3 : i64, sram_bytes = 1024 : i64, target = "tiny", function = @f} ({
  core.tile {x = 0 : i64, y = 0 : i64, node = "conv1", out_rows = array<i64: 0, 1>} ({
    core.program ({
    })
  })
  core.tile {x = 1 : i64, y = 0 : i64, node = "conv1", out_rows = array<i64: 0, 1>} ({
    core.program ({
    })
  })
  core.tile {x = 2 : i64, y = 0 : i64, node = "conv1", out_rows = array<i64: 1, 2>} ({
    core.program ({
    })
  })
}) : () -> ()
