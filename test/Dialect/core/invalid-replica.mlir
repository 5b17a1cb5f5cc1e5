// Invalid replicas (core.tile replica, core.recv / core.send frames,
// docs/dialects/core.md): the ranges themselves, the copies of a node's
// tiles, and a recv or send naming a copy on frames the copy does not handle.
// RUN: nc-opt --split-input-file --verify-diagnostics %s

// A copy is r of n with 0 <= r < n and n >= 2.
core.chip {rows = 2 : i64, cols = 3 : i64, sram_bytes = 1024 : i64, target = "tiny"} ({
  // expected-error@+1 {{'core.tile' op replica [2, 2) must be a frame residue r and a count n with 0 <= r < n and 2 <= n <= 255}}
  core.tile {x = 0 : i64, y = 0 : i64, node = "a", replica = array<i64: 2, 2>} ({
    core.program ({
    })
  })
}) : () -> ()

// -----

// A period of one frame says nothing.
core.chip {rows = 2 : i64, cols = 3 : i64, sram_bytes = 1024 : i64, target = "tiny"} ({
  core.tile {x = 0 : i64, y = 0 : i64, node = "a"} ({
    core.program ({
      // expected-error@+1 {{'core.send' op frames [0, 1) must be a frame residue r and a count n with 0 <= r < n and 2 <= n <= 255}}
      core.send {to = array<i64: 1, 0>, iter = 0 : i64, bytes = 4 : i64, frames = array<i64: 0, 1>}
    })
  })
}) : () -> ()

// -----

// Every copy holds every slice: copy 1 of pool1 lacks one.
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
// expected-error@+1 {{'core.chip' op node 'pool1' has 2 tiles in copy 0 but 1 in copy 1 (`replica`): each copy holds every slice}}
core.chip {rows = 2 : i64, cols = 3 : i64, sram_bytes = 1024 : i64, target = "tiny", function = @f} ({
  core.tile {x = 0 : i64, y = 0 : i64, node = "pool1", out_rows = array<i64: 0, 1>, replica = array<i64: 0, 2>} ({
    core.program ({
    })
  })
  core.tile {x = 1 : i64, y = 0 : i64, node = "pool1", out_rows = array<i64: 1, 2>, replica = array<i64: 0, 2>} ({
    core.program ({
    })
  })
  core.tile {x = 2 : i64, y = 0 : i64, node = "pool1", out_rows = array<i64: 0, 1>, replica = array<i64: 1, 2>} ({
    core.program ({
    })
  })
}) : () -> ()

// -----

// The copies of a node agree on their count.
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
  core.tile {x = 0 : i64, y = 0 : i64, node = "pool1", replica = array<i64: 0, 2>} ({
    core.program ({
    })
  })
  // expected-error@+1 {{'core.tile' op is copy 1 of 3 of node 'pool1', whose other tiles are copies of 2: every tile of a replicated node has the same `replica` count}}
  core.tile {x = 1 : i64, y = 0 : i64, node = "pool1", replica = array<i64: 1, 3>} ({
    core.program ({
    })
  })
}) : () -> ()

// -----

// A tile that runs on every frame receives from copy 1 of 2 on odd frames only.
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
  core.tile {x = 0 : i64, y = 0 : i64, node = "pool1", replica = array<i64: 0, 2>} ({
    core.program ({
    })
  })
  core.tile {x = 1 : i64, y = 0 : i64, node = "pool1", replica = array<i64: 1, 2>} ({
    core.program ({
    })
  })
  core.tile {x = 2 : i64, y = 0 : i64, node = "flatten1"} ({
    core.program ({
      core.recv {from = array<i64: 0, 0>, operand = 0 : i64, iter = 0 : i64, frames = array<i64: 0, 2>}
      // expected-error@+1 {{'core.recv' op receives from a tile of 'pool1' that handles frames f with f mod 2 == 1, on frames it does not handle: give it `frames = array<i64: 1, 2>`}}
      core.recv {from = array<i64: 1, 0>, operand = 0 : i64, iter = 0 : i64}
    })
  })
}) : () -> ()
