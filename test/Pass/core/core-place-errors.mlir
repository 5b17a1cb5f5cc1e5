// core-place fails on a network with more tiles than the grid has cores, on a
// chip that does not say which function it implements, and on scheduled tiles.
// RUN: nc-opt --split-input-file --verify-diagnostics --core-place %s

func.func @wide(%arg0: tensor<1x1x4x4xf32>) -> tensor<1x96xf32> {
  %0 = dataflow.node "conv1"(%arg0) {buffer_elements = array<i64: 12>, control = [#dataflow.map<"{ P[y] -> S[oy = -1 + y] : 0 < y <= 2; P[y = 3] -> S[oy = 3] }">], domain = #dataflow.set<"{ S[oy] : 0 <= oy <= 3 }">, earliest = [#dataflow.map<"{ S[oy] -> P[y = 3] : 2 <= oy <= 3; S[oy] -> P[y = 1 + oy] : 0 <= oy <= 1 }">], kind = "conv", macs = 864 : i64, params = {kernel = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>, weights = dense<5.000000e-01> : tensor<6x1x3x3xf32>}, reads = [#dataflow.map<"{ S[oy] -> In0[c = 0, iy, ix] : 0 <= oy <= 3 and iy >= -1 + oy and 0 <= iy <= 3 and iy <= 1 + oy and 0 <= ix <= 3 }">], writes = #dataflow.map<"{ S[oy] -> Out[k, oy, ox] : 0 <= oy <= 3 and 0 <= k <= 5 and 0 <= ox <= 3 }">}({
  ^bb0(%arg1: tensor<1x1x4x4xf32>):
    %2 = graph.constant {value = dense<5.000000e-01> : tensor<6x1x3x3xf32>} : () -> tensor<6x1x3x3xf32>
    %3 = graph.conv %arg1, %2 {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x1x4x4xf32>, tensor<6x1x3x3xf32>) -> tensor<1x6x4x4xf32>
    dataflow.yield %3 : tensor<1x6x4x4xf32>
  }) : (tensor<1x1x4x4xf32>) -> tensor<1x6x4x4xf32>
  %1 = dataflow.node "flatten1"(%0) {buffer_elements = array<i64: 24>, control = [#dataflow.map<"{ P[oy] -> S[y = oy] : 0 <= oy <= 3 }">], domain = #dataflow.set<"{ S[y] : 0 <= y <= 3 }">, earliest = [#dataflow.map<"{ S[y] -> P[oy = y] : 0 <= y <= 3 }">], kind = "copy", macs = 0 : i64, reads = [#dataflow.map<"{ S[y] -> In0[c, y, x] : 0 <= y <= 3 and 0 <= c <= 5 and 0 <= x <= 3 }">], writes = #dataflow.map<"{ S[y] -> Out[i] : 0 <= y <= 3 and -12 + 4y <= i <= 83 + 4y and 16*floor((-4 - 4y + i)/16) <= -16 - 4y + i }">}({
  ^bb0(%arg1: tensor<1x6x4x4xf32>):
    %2 = graph.flatten %arg1 : (tensor<1x6x4x4xf32>) -> tensor<1x96xf32>
    dataflow.yield %2 : tensor<1x96xf32>
  }) : (tensor<1x6x4x4xf32>) -> tensor<1x96xf32>
  return %1 : tensor<1x96xf32>
}
// expected-note@+2 {{use a bigger grid (the chip description's "grid", or dataflow-to-core{rows=R cols=C}) or split fewer layers (a chip with more SRAM per core)}}
// expected-error@+1 {{'core.chip' op core-place: the network needs 2 cores but the 1x1 grid has 1}}
core.chip {cols = 1 : i64, function = @wide, rows = 1 : i64, sram_bytes = 4096 : i64, target = "one-core"} ({
  core.tile {node = "conv1", x = -1 : i64, y = -1 : i64} ({
    core.program ({
    })
  })
  core.tile {node = "flatten1", x = -1 : i64, y = -1 : i64} ({
    core.program ({
    })
  })
}) : () -> ()

// -----

// expected-error@+1 {{'core.chip' op core-place: the chip names no function whose nodes its tiles compute (dataflow-to-core sets `function`)}}
core.chip {cols = 4 : i64, rows = 4 : i64, sram_bytes = 4096 : i64, target = "tiny"} ({
  core.tile {node = "conv1", x = -1 : i64, y = -1 : i64} ({
    core.program ({
    })
  })
}) : () -> ()

// -----

func.func @one(%arg0: tensor<1x2x4x4xf32>) -> tensor<1x2x2x2xf32> {
  %0 = dataflow.node "pool1"(%arg0) {buffer_elements = array<i64: 16>, control = [#dataflow.map<"{ P[y] -> S[oy] : 0 < y <= 3 and -2 + y <= 2oy < y }">], domain = #dataflow.set<"{ S[oy] : 0 <= oy <= 1 }">, earliest = [#dataflow.map<"{ S[oy] -> P[y = 1 + 2oy] : 0 <= oy <= 1 }">], kind = "max_pool", macs = 0 : i64, params = {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>}, reads = [#dataflow.map<"{ S[oy] -> In0[c, iy, ix] : 0 <= oy <= 1 and 0 <= c <= 1 and iy >= 2oy and 0 <= iy <= 3 and iy <= 1 + 2oy and 0 <= ix <= 3 }">], writes = #dataflow.map<"{ S[oy] -> Out[k, oy, ox] : 0 <= oy <= 1 and 0 <= k <= 1 and 0 <= ox <= 1 }">}({
  ^bb0(%arg1: tensor<1x2x4x4xf32>):
    %1 = graph.max_pool %arg1 {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x2x4x4xf32>) -> tensor<1x2x2x2xf32>
    dataflow.yield %1 : tensor<1x2x2x2xf32>
  }) : (tensor<1x2x4x4xf32>) -> tensor<1x2x2x2xf32>
  return %0 : tensor<1x2x2x2xf32>
}
core.chip {cols = 4 : i64, function = @one, rows = 4 : i64, sram_bytes = 4096 : i64, target = "tiny"} ({
  // expected-error@+1 {{'core.tile' op core-place: the tile already has a program; place tiles before core-schedule}}
  core.tile {node = "pool1", x = 0 : i64, y = 0 : i64} ({
    core.program ({
      core.compute {begin = 0 : i64, end = 2 : i64}
    })
  })
}) : () -> ()
