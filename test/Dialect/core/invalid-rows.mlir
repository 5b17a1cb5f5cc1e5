// Invalid row bands (core.tile out_rows, docs/dialects/core.md): the range
// itself, the bands of a node's tiles against its output rows (alone and
// combined with out_channels), nodes without rows, and a matmul's rows.
// RUN: nc-opt --split-input-file --verify-diagnostics %s

// A band of output rows is a non-empty range.
core.chip {rows = 2 : i64, cols = 3 : i64, sram_bytes = 1024 : i64, target = "tiny"} ({
  // expected-error@+1 {{'core.tile' op out_rows [3, 1) must be a non-empty range of non-negative rows}}
  core.tile {x = 0 : i64, y = 0 : i64, node = "a", out_rows = array<i64: 3, 1>} ({
    core.program ({
    })
  })
}) : () -> ()

// -----

// The bands partition the node's rows: pool1 has 2, [0, 1) leaves row 1 out.
func.func @f(%x: tensor<1x2x4x4xi8>) -> tensor<1x8xi8> {
  %0 = dataflow.node "pool1"(%x) {domain = #dataflow.set<"{ S[oy] : 0 <= oy <= 1 }">, kind = "max_pool", macs = 0 : i64, params = {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>}, reads = [#dataflow.map<"{ S[oy] -> In0[c, iy, ix] : 0 <= oy <= 1 and 0 <= c <= 1 and 2oy <= iy <= 1 + 2oy and 0 <= ix <= 3 }">], writes = #dataflow.map<"{ S[oy] -> Out[k, oy, ox] : 0 <= oy <= 1 and 0 <= k <= 1 and 0 <= ox <= 1 }">}({
  ^bb0(%a: tensor<1x2x4x4xi8>):
    %p = graph.max_pool %a {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x2x4x4xi8>) -> tensor<1x2x2x2xi8>
    dataflow.yield %p : tensor<1x2x2x2xi8>
  }) : (tensor<1x2x4x4xi8>) -> tensor<1x2x2x2xi8>
  %1 = dataflow.node "flatten1"(%0) {domain = #dataflow.set<"{ S[y] : 0 <= y <= 1 }">, kind = "copy", macs = 0 : i64, reads = [#dataflow.map<"{ S[y] -> In0[c, y, x] : 0 <= y <= 1 and 0 <= c <= 1 and 0 <= x <= 1 }">], writes = #dataflow.map<"{ S[y] -> Out[i] : 0 <= y <= 1 and exists (c, x : 0 <= c <= 1 and 0 <= x <= 1 and i = 4c + 2y + x) }">}({
  ^bb0(%a: tensor<1x2x2x2xi8>):
    %f = graph.flatten %a : (tensor<1x2x2x2xi8>) -> tensor<1x8xi8>
    dataflow.yield %f : tensor<1x8xi8>
  }) : (tensor<1x2x2x2xi8>) -> tensor<1x8xi8>
  return %1 : tensor<1x8xi8>
}
// expected-error@+1 {{'core.chip' op the slices (out_channels x out_rows) of node 'pool1''s tiles must partition its 2 output channels x 2 rows: they leave a gap}}
core.chip {rows = 2 : i64, cols = 3 : i64, sram_bytes = 1024 : i64, target = "tiny", function = @f} ({
  core.tile {x = 0 : i64, y = 0 : i64, node = "pool1", out_rows = array<i64: 0, 1>} ({
    core.program ({
    })
  })
}) : () -> ()

// -----

// Without overlaps.
func.func @f(%x: tensor<1x2x4x4xi8>) -> tensor<1x8xi8> {
  %0 = dataflow.node "pool1"(%x) {domain = #dataflow.set<"{ S[oy] : 0 <= oy <= 1 }">, kind = "max_pool", macs = 0 : i64, params = {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>}, reads = [#dataflow.map<"{ S[oy] -> In0[c, iy, ix] : 0 <= oy <= 1 and 0 <= c <= 1 and 2oy <= iy <= 1 + 2oy and 0 <= ix <= 3 }">], writes = #dataflow.map<"{ S[oy] -> Out[k, oy, ox] : 0 <= oy <= 1 and 0 <= k <= 1 and 0 <= ox <= 1 }">}({
  ^bb0(%a: tensor<1x2x4x4xi8>):
    %p = graph.max_pool %a {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x2x4x4xi8>) -> tensor<1x2x2x2xi8>
    dataflow.yield %p : tensor<1x2x2x2xi8>
  }) : (tensor<1x2x4x4xi8>) -> tensor<1x2x2x2xi8>
  %1 = dataflow.node "flatten1"(%0) {domain = #dataflow.set<"{ S[y] : 0 <= y <= 1 }">, kind = "copy", macs = 0 : i64, reads = [#dataflow.map<"{ S[y] -> In0[c, y, x] : 0 <= y <= 1 and 0 <= c <= 1 and 0 <= x <= 1 }">], writes = #dataflow.map<"{ S[y] -> Out[i] : 0 <= y <= 1 and exists (c, x : 0 <= c <= 1 and 0 <= x <= 1 and i = 4c + 2y + x) }">}({
  ^bb0(%a: tensor<1x2x2x2xi8>):
    %f = graph.flatten %a : (tensor<1x2x2x2xi8>) -> tensor<1x8xi8>
    dataflow.yield %f : tensor<1x8xi8>
  }) : (tensor<1x2x2x2xi8>) -> tensor<1x8xi8>
  return %1 : tensor<1x8xi8>
}
// expected-error@+1 {{'core.chip' op the slices of node 'pool1''s tiles overlap: channels [0, 2) x rows [0, 2) and channels [0, 2) x rows [1, 2)}}
core.chip {rows = 2 : i64, cols = 3 : i64, sram_bytes = 1024 : i64, target = "tiny", function = @f} ({
  core.tile {x = 0 : i64, y = 0 : i64, node = "pool1", out_rows = array<i64: 0, 2>} ({
    core.program ({
    })
  })
  core.tile {x = 1 : i64, y = 0 : i64, node = "pool1", out_rows = array<i64: 1, 2>} ({
    core.program ({
    })
  })
}) : () -> ()

// -----

// Combined with output channels, the slices are rectangles that must cover every channel x row.
func.func @f(%x: tensor<1x2x4x4xi8>) -> tensor<1x8xi8> {
  %0 = dataflow.node "pool1"(%x) {domain = #dataflow.set<"{ S[oy] : 0 <= oy <= 1 }">, kind = "max_pool", macs = 0 : i64, params = {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>}, reads = [#dataflow.map<"{ S[oy] -> In0[c, iy, ix] : 0 <= oy <= 1 and 0 <= c <= 1 and 2oy <= iy <= 1 + 2oy and 0 <= ix <= 3 }">], writes = #dataflow.map<"{ S[oy] -> Out[k, oy, ox] : 0 <= oy <= 1 and 0 <= k <= 1 and 0 <= ox <= 1 }">}({
  ^bb0(%a: tensor<1x2x4x4xi8>):
    %p = graph.max_pool %a {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x2x4x4xi8>) -> tensor<1x2x2x2xi8>
    dataflow.yield %p : tensor<1x2x2x2xi8>
  }) : (tensor<1x2x4x4xi8>) -> tensor<1x2x2x2xi8>
  %1 = dataflow.node "flatten1"(%0) {domain = #dataflow.set<"{ S[y] : 0 <= y <= 1 }">, kind = "copy", macs = 0 : i64, reads = [#dataflow.map<"{ S[y] -> In0[c, y, x] : 0 <= y <= 1 and 0 <= c <= 1 and 0 <= x <= 1 }">], writes = #dataflow.map<"{ S[y] -> Out[i] : 0 <= y <= 1 and exists (c, x : 0 <= c <= 1 and 0 <= x <= 1 and i = 4c + 2y + x) }">}({
  ^bb0(%a: tensor<1x2x2x2xi8>):
    %f = graph.flatten %a : (tensor<1x2x2x2xi8>) -> tensor<1x8xi8>
    dataflow.yield %f : tensor<1x8xi8>
  }) : (tensor<1x2x2x2xi8>) -> tensor<1x8xi8>
  return %1 : tensor<1x8xi8>
}
// expected-error@+1 {{'core.chip' op the slices (out_channels x out_rows) of node 'pool1''s tiles must partition its 2 output channels x 2 rows: they leave a gap}}
core.chip {rows = 2 : i64, cols = 3 : i64, sram_bytes = 1024 : i64, target = "tiny", function = @f} ({
  core.tile {x = 0 : i64, y = 0 : i64, node = "pool1", out_channels = array<i64: 0, 1>} ({
    core.program ({
    })
  })
  core.tile {x = 1 : i64, y = 0 : i64, node = "pool1", out_channels = array<i64: 1, 2>, out_rows = array<i64: 0, 1>} ({
    core.program ({
    })
  })
}) : () -> ()

// -----

// Every tile of a split node says which slice it computes.
func.func @f(%x: tensor<1x2x4x4xi8>) -> tensor<1x8xi8> {
  %0 = dataflow.node "pool1"(%x) {domain = #dataflow.set<"{ S[oy] : 0 <= oy <= 1 }">, kind = "max_pool", macs = 0 : i64, params = {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>}, reads = [#dataflow.map<"{ S[oy] -> In0[c, iy, ix] : 0 <= oy <= 1 and 0 <= c <= 1 and 2oy <= iy <= 1 + 2oy and 0 <= ix <= 3 }">], writes = #dataflow.map<"{ S[oy] -> Out[k, oy, ox] : 0 <= oy <= 1 and 0 <= k <= 1 and 0 <= ox <= 1 }">}({
  ^bb0(%a: tensor<1x2x4x4xi8>):
    %p = graph.max_pool %a {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x2x4x4xi8>) -> tensor<1x2x2x2xi8>
    dataflow.yield %p : tensor<1x2x2x2xi8>
  }) : (tensor<1x2x4x4xi8>) -> tensor<1x2x2x2xi8>
  %1 = dataflow.node "flatten1"(%0) {domain = #dataflow.set<"{ S[y] : 0 <= y <= 1 }">, kind = "copy", macs = 0 : i64, reads = [#dataflow.map<"{ S[y] -> In0[c, y, x] : 0 <= y <= 1 and 0 <= c <= 1 and 0 <= x <= 1 }">], writes = #dataflow.map<"{ S[y] -> Out[i] : 0 <= y <= 1 and exists (c, x : 0 <= c <= 1 and 0 <= x <= 1 and i = 4c + 2y + x) }">}({
  ^bb0(%a: tensor<1x2x2x2xi8>):
    %f = graph.flatten %a : (tensor<1x2x2x2xi8>) -> tensor<1x8xi8>
    dataflow.yield %f : tensor<1x8xi8>
  }) : (tensor<1x2x2x2xi8>) -> tensor<1x8xi8>
  return %1 : tensor<1x8xi8>
}
// expected-error@+1 {{'core.chip' op node 'pool1' has 2 tiles, so each must compute a slice of its output (out_channels, out_rows)}}
core.chip {rows = 2 : i64, cols = 3 : i64, sram_bytes = 1024 : i64, target = "tiny", function = @f} ({
  core.tile {x = 0 : i64, y = 0 : i64, node = "pool1"} ({
    core.program ({
    })
  })
  core.tile {x = 1 : i64, y = 0 : i64, node = "pool1", out_rows = array<i64: 1, 2>} ({
    core.program ({
    })
  })
}) : () -> ()

// -----

// Bands lie within the node's rows.
func.func @f(%x: tensor<1x2x4x4xi8>) -> tensor<1x8xi8> {
  %0 = dataflow.node "pool1"(%x) {domain = #dataflow.set<"{ S[oy] : 0 <= oy <= 1 }">, kind = "max_pool", macs = 0 : i64, params = {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>}, reads = [#dataflow.map<"{ S[oy] -> In0[c, iy, ix] : 0 <= oy <= 1 and 0 <= c <= 1 and 2oy <= iy <= 1 + 2oy and 0 <= ix <= 3 }">], writes = #dataflow.map<"{ S[oy] -> Out[k, oy, ox] : 0 <= oy <= 1 and 0 <= k <= 1 and 0 <= ox <= 1 }">}({
  ^bb0(%a: tensor<1x2x4x4xi8>):
    %p = graph.max_pool %a {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x2x4x4xi8>) -> tensor<1x2x2x2xi8>
    dataflow.yield %p : tensor<1x2x2x2xi8>
  }) : (tensor<1x2x4x4xi8>) -> tensor<1x2x2x2xi8>
  %1 = dataflow.node "flatten1"(%0) {domain = #dataflow.set<"{ S[y] : 0 <= y <= 1 }">, kind = "copy", macs = 0 : i64, reads = [#dataflow.map<"{ S[y] -> In0[c, y, x] : 0 <= y <= 1 and 0 <= c <= 1 and 0 <= x <= 1 }">], writes = #dataflow.map<"{ S[y] -> Out[i] : 0 <= y <= 1 and exists (c, x : 0 <= c <= 1 and 0 <= x <= 1 and i = 4c + 2y + x) }">}({
  ^bb0(%a: tensor<1x2x2x2xi8>):
    %f = graph.flatten %a : (tensor<1x2x2x2xi8>) -> tensor<1x8xi8>
    dataflow.yield %f : tensor<1x8xi8>
  }) : (tensor<1x2x2x2xi8>) -> tensor<1x8xi8>
  return %1 : tensor<1x8xi8>
}
core.chip {rows = 2 : i64, cols = 3 : i64, sram_bytes = 1024 : i64, target = "tiny", function = @f} ({
  // expected-error@+1 {{'core.tile' op computes output rows [0, 3) of node 'pool1', which has 2}}
  core.tile {x = 0 : i64, y = 0 : i64, node = "pool1", out_rows = array<i64: 0, 3>} ({
    core.program ({
    })
  })
}) : () -> ()

// -----

// A flatten's output has no rows to split.
func.func @f(%x: tensor<1x2x4x4xi8>) -> tensor<1x8xi8> {
  %0 = dataflow.node "pool1"(%x) {domain = #dataflow.set<"{ S[oy] : 0 <= oy <= 1 }">, kind = "max_pool", macs = 0 : i64, params = {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>}, reads = [#dataflow.map<"{ S[oy] -> In0[c, iy, ix] : 0 <= oy <= 1 and 0 <= c <= 1 and 2oy <= iy <= 1 + 2oy and 0 <= ix <= 3 }">], writes = #dataflow.map<"{ S[oy] -> Out[k, oy, ox] : 0 <= oy <= 1 and 0 <= k <= 1 and 0 <= ox <= 1 }">}({
  ^bb0(%a: tensor<1x2x4x4xi8>):
    %p = graph.max_pool %a {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x2x4x4xi8>) -> tensor<1x2x2x2xi8>
    dataflow.yield %p : tensor<1x2x2x2xi8>
  }) : (tensor<1x2x4x4xi8>) -> tensor<1x2x2x2xi8>
  %1 = dataflow.node "flatten1"(%0) {domain = #dataflow.set<"{ S[y] : 0 <= y <= 1 }">, kind = "copy", macs = 0 : i64, reads = [#dataflow.map<"{ S[y] -> In0[c, y, x] : 0 <= y <= 1 and 0 <= c <= 1 and 0 <= x <= 1 }">], writes = #dataflow.map<"{ S[y] -> Out[i] : 0 <= y <= 1 and exists (c, x : 0 <= c <= 1 and 0 <= x <= 1 and i = 4c + 2y + x) }">}({
  ^bb0(%a: tensor<1x2x2x2xi8>):
    %f = graph.flatten %a : (tensor<1x2x2x2xi8>) -> tensor<1x8xi8>
    dataflow.yield %f : tensor<1x8xi8>
  }) : (tensor<1x2x2x2xi8>) -> tensor<1x8xi8>
  return %1 : tensor<1x8xi8>
}
core.chip {rows = 2 : i64, cols = 3 : i64, sram_bytes = 1024 : i64, target = "tiny", function = @f} ({
  // expected-error@+1 {{'core.tile' op splits node 'flatten1' by output rows, but its output has no rows}}
  core.tile {x = 0 : i64, y = 0 : i64, node = "flatten1", out_rows = array<i64: 0, 1>} ({
    core.program ({
    })
  })
}) : () -> ()

// -----

// A valid split: channel 0 whole, channel 1 in two bands.
func.func @f(%x: tensor<1x2x4x4xi8>) -> tensor<1x8xi8> {
  %0 = dataflow.node "pool1"(%x) {domain = #dataflow.set<"{ S[oy] : 0 <= oy <= 1 }">, kind = "max_pool", macs = 0 : i64, params = {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>}, reads = [#dataflow.map<"{ S[oy] -> In0[c, iy, ix] : 0 <= oy <= 1 and 0 <= c <= 1 and 2oy <= iy <= 1 + 2oy and 0 <= ix <= 3 }">], writes = #dataflow.map<"{ S[oy] -> Out[k, oy, ox] : 0 <= oy <= 1 and 0 <= k <= 1 and 0 <= ox <= 1 }">}({
  ^bb0(%a: tensor<1x2x4x4xi8>):
    %p = graph.max_pool %a {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x2x4x4xi8>) -> tensor<1x2x2x2xi8>
    dataflow.yield %p : tensor<1x2x2x2xi8>
  }) : (tensor<1x2x4x4xi8>) -> tensor<1x2x2x2xi8>
  %1 = dataflow.node "flatten1"(%0) {domain = #dataflow.set<"{ S[y] : 0 <= y <= 1 }">, kind = "copy", macs = 0 : i64, reads = [#dataflow.map<"{ S[y] -> In0[c, y, x] : 0 <= y <= 1 and 0 <= c <= 1 and 0 <= x <= 1 }">], writes = #dataflow.map<"{ S[y] -> Out[i] : 0 <= y <= 1 and exists (c, x : 0 <= c <= 1 and 0 <= x <= 1 and i = 4c + 2y + x) }">}({
  ^bb0(%a: tensor<1x2x2x2xi8>):
    %f = graph.flatten %a : (tensor<1x2x2x2xi8>) -> tensor<1x8xi8>
    dataflow.yield %f : tensor<1x8xi8>
  }) : (tensor<1x2x2x2xi8>) -> tensor<1x8xi8>
  return %1 : tensor<1x8xi8>
}
core.chip {rows = 2 : i64, cols = 3 : i64, sram_bytes = 1024 : i64, target = "tiny", function = @f} ({
  core.tile {x = 0 : i64, y = 0 : i64, node = "pool1", out_channels = array<i64: 0, 1>} ({
    core.program ({
    })
  })
  core.tile {x = 1 : i64, y = 0 : i64, node = "pool1", out_channels = array<i64: 1, 2>, out_rows = array<i64: 0, 1>} ({
    core.program ({
    })
  })
  core.tile {x = 2 : i64, y = 0 : i64, node = "pool1", out_channels = array<i64: 1, 2>, out_rows = array<i64: 1, 2>} ({
    core.program ({
    })
  })
  core.tile {x = 0 : i64, y = 1 : i64, node = "flatten1"} ({
    core.program ({
    })
  })
}) : () -> ()

// -----

// A matmul's [M, N] result has its rows first: bands of its 4 rows m,
// crossed with slices of its 3 features n.
func.func @f(%x: tensor<4x8xi8>) -> tensor<4x3xi8> {
  %0 = dataflow.node "matmul1"(%x) {domain = #dataflow.set<"{ S[m] : 0 <= m <= 3 }">, kind = "matmul", macs = 96 : i64, params = {clamp_max = 127 : i64, clamp_min = -128 : i64, multiplier = array<i64: 1717986918>, shift = array<i64: 33>, weights = dense<1> : tensor<8x3xi8>}, reads = [#dataflow.map<"{ S[m] -> In0[m, i] : 0 <= m <= 3 and 0 <= i <= 7 }">], writes = #dataflow.map<"{ S[m] -> Out[m, o] : 0 <= m <= 3 and 0 <= o <= 2 }">}({
  ^bb0(%a: tensor<4x8xi8>):
    %w = graph.constant {value = dense<1> : tensor<8x3xi8>} : () -> tensor<8x3xi8>
    %m = graph.matmul_integer %a, %w : (tensor<4x8xi8>, tensor<8x3xi8>) -> tensor<4x3xi32>
    %r = graph.requantize %m {axis = 1 : i64, multiplier = array<i64: 1717986918>, output_zero_point = 0 : i64, shift = array<i64: 33>} : (tensor<4x3xi32>) -> tensor<4x3xi8>
    dataflow.yield %r : tensor<4x3xi8>
  }) : (tensor<4x8xi8>) -> tensor<4x3xi8>
  return %0 : tensor<4x3xi8>
}
core.chip {rows = 2 : i64, cols = 3 : i64, sram_bytes = 1024 : i64, target = "tiny", function = @f} ({
  core.tile {x = 0 : i64, y = 0 : i64, node = "matmul1", out_rows = array<i64: 0, 2>, out_channels = array<i64: 0, 2>} ({
    core.program ({
    })
  })
  core.tile {x = 1 : i64, y = 0 : i64, node = "matmul1", out_rows = array<i64: 0, 2>, out_channels = array<i64: 2, 3>} ({
    core.program ({
    })
  })
  core.tile {x = 2 : i64, y = 0 : i64, node = "matmul1", out_rows = array<i64: 2, 4>} ({
    core.program ({
    })
  })
}) : () -> ()

// -----

// Its rows are M = 4 ...
func.func @f(%x: tensor<4x8xi8>) -> tensor<4x3xi8> {
  %0 = dataflow.node "matmul1"(%x) {domain = #dataflow.set<"{ S[m] : 0 <= m <= 3 }">, kind = "matmul", macs = 96 : i64, params = {clamp_max = 127 : i64, clamp_min = -128 : i64, multiplier = array<i64: 1717986918>, shift = array<i64: 33>, weights = dense<1> : tensor<8x3xi8>}, reads = [#dataflow.map<"{ S[m] -> In0[m, i] : 0 <= m <= 3 and 0 <= i <= 7 }">], writes = #dataflow.map<"{ S[m] -> Out[m, o] : 0 <= m <= 3 and 0 <= o <= 2 }">}({
  ^bb0(%a: tensor<4x8xi8>):
    %w = graph.constant {value = dense<1> : tensor<8x3xi8>} : () -> tensor<8x3xi8>
    %m = graph.matmul_integer %a, %w : (tensor<4x8xi8>, tensor<8x3xi8>) -> tensor<4x3xi32>
    %r = graph.requantize %m {axis = 1 : i64, multiplier = array<i64: 1717986918>, output_zero_point = 0 : i64, shift = array<i64: 33>} : (tensor<4x3xi32>) -> tensor<4x3xi8>
    dataflow.yield %r : tensor<4x3xi8>
  }) : (tensor<4x8xi8>) -> tensor<4x3xi8>
  return %0 : tensor<4x3xi8>
}
core.chip {rows = 2 : i64, cols = 3 : i64, sram_bytes = 1024 : i64, target = "tiny", function = @f} ({
  // expected-error@+1 {{'core.tile' op computes output rows [0, 5) of node 'matmul1', which has 4}}
  core.tile {x = 0 : i64, y = 0 : i64, node = "matmul1", out_rows = array<i64: 0, 5>} ({
    core.program ({
    })
  })
}) : () -> ()

// -----

// ... and its output channels N = 3.
func.func @f(%x: tensor<4x8xi8>) -> tensor<4x3xi8> {
  %0 = dataflow.node "matmul1"(%x) {domain = #dataflow.set<"{ S[m] : 0 <= m <= 3 }">, kind = "matmul", macs = 96 : i64, params = {clamp_max = 127 : i64, clamp_min = -128 : i64, multiplier = array<i64: 1717986918>, shift = array<i64: 33>, weights = dense<1> : tensor<8x3xi8>}, reads = [#dataflow.map<"{ S[m] -> In0[m, i] : 0 <= m <= 3 and 0 <= i <= 7 }">], writes = #dataflow.map<"{ S[m] -> Out[m, o] : 0 <= m <= 3 and 0 <= o <= 2 }">}({
  ^bb0(%a: tensor<4x8xi8>):
    %w = graph.constant {value = dense<1> : tensor<8x3xi8>} : () -> tensor<8x3xi8>
    %m = graph.matmul_integer %a, %w : (tensor<4x8xi8>, tensor<8x3xi8>) -> tensor<4x3xi32>
    %r = graph.requantize %m {axis = 1 : i64, multiplier = array<i64: 1717986918>, output_zero_point = 0 : i64, shift = array<i64: 33>} : (tensor<4x3xi32>) -> tensor<4x3xi8>
    dataflow.yield %r : tensor<4x3xi8>
  }) : (tensor<4x8xi8>) -> tensor<4x3xi8>
  return %0 : tensor<4x3xi8>
}
core.chip {rows = 2 : i64, cols = 3 : i64, sram_bytes = 1024 : i64, target = "tiny", function = @f} ({
  // expected-error@+1 {{'core.tile' op computes output channels [0, 4) of node 'matmul1', which has 3}}
  core.tile {x = 0 : i64, y = 0 : i64, node = "matmul1", out_channels = array<i64: 0, 4>} ({
    core.program ({
    })
  })
}) : () -> ()
