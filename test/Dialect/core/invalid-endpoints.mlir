// The endpoint checks of a chip that names its function: there they run in
// the pass over each program that checks it against the function's nodes
// (core_verify.c check_tile_program, one decode of each op per verification),
// and give the same diagnostics as without `function` (invalid.mlir,
// invalid-slot.mlir).
// RUN: nc-opt --split-input-file --verify-diagnostics %s

// A tile does not talk to itself.
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
  core.tile {x = 0 : i64, y = 0 : i64, node = "pool1"} ({
    core.program ({
      core.recv {from = array<i64: -1, -1>, operand = 0 : i64, iter = 0 : i64}
      // expected-error@+1 {{'core.send' op sends to its own tile (0, 0)}}
      core.send {to = array<i64: 0, 0>, iter = 0 : i64, bytes = 4 : i64}
    })
  })
}) : () -> ()

// -----


// Nor to cores outside the grid.
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
  core.tile {x = 0 : i64, y = 0 : i64, node = "flatten1"} ({
    core.program ({
      // expected-error@+1 {{'core.recv' op receives from (0, 5), outside the 2x3 grid}}
      core.recv {from = array<i64: 0, 5>, operand = 0 : i64, iter = 0 : i64}
    })
  })
}) : () -> ()

// -----


// Nor to cores without a tile.
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
  core.tile {x = 0 : i64, y = 0 : i64, node = "pool1"} ({
    core.program ({
      // expected-error@+1 {{'core.send' op sends to (2, 1), where the chip has no tile}}
      core.send {to = array<i64: 2, 1>, iter = 0 : i64, bytes = 4 : i64}
    })
  })
}) : () -> ()

// -----


// Nor to a slot of a core that holds no tile there.
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
  core.tile {x = 0 : i64, y = 0 : i64, node = "pool1"} ({
    core.program ({
      // expected-error@+1 {{'core.send' op sends to (1, 0) slot 2, where the chip has no tile}}
      core.send {to = array<i64: 1, 0, 2>, iter = 0 : i64, bytes = 4 : i64}
    })
  })
  core.tile {x = 1 : i64, y = 0 : i64, node = "flatten1"} ({
    core.program ({
    })
  })
}) : () -> ()

// -----


// Programs run on placed tiles.
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
  // expected-error@+1 {{'core.tile' op has a program but no grid position (core-place places tiles)}}
  core.tile {x = -1 : i64, y = -1 : i64, node = "pool1"} ({
    core.program ({
      core.compute {begin = 0 : i64, end = 1 : i64}
    })
  })
}) : () -> ()
