// core-schedule needs placed tiles, a chip that names its function, and a
// tile for every node.
// RUN: nc-opt --split-input-file --verify-diagnostics --core-schedule %s

func.func @one(%arg0: tensor<1x2x4x4xf32>) -> tensor<1x2x2x2xf32> {
  %0 = dataflow.node "pool1"(%arg0) {buffer_elements = array<i64: 16>, control = [#dataflow.map<"{ P[y] -> S[oy] : 0 < y <= 3 and -2 + y <= 2oy < y }">], domain = #dataflow.set<"{ S[oy] : 0 <= oy <= 1 }">, earliest = [#dataflow.map<"{ S[oy] -> P[y = 1 + 2oy] : 0 <= oy <= 1 }">], kind = "max_pool", macs = 0 : i64, params = {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>}, reads = [#dataflow.map<"{ S[oy] -> In0[c, iy, ix] : 0 <= oy <= 1 and 0 <= c <= 1 and iy >= 2oy and 0 <= iy <= 3 and iy <= 1 + 2oy and 0 <= ix <= 3 }">], writes = #dataflow.map<"{ S[oy] -> Out[k, oy, ox] : 0 <= oy <= 1 and 0 <= k <= 1 and 0 <= ox <= 1 }">}({
  ^bb0(%arg1: tensor<1x2x4x4xf32>):
    %1 = graph.max_pool %arg1 {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x2x4x4xf32>) -> tensor<1x2x2x2xf32>
    dataflow.yield %1 : tensor<1x2x2x2xf32>
  }) : (tensor<1x2x4x4xf32>) -> tensor<1x2x2x2xf32>
  return %0 : tensor<1x2x2x2xf32>
}
core.chip {cols = 4 : i64, function = @one, rows = 4 : i64, sram_bytes = 4096 : i64, target = "tiny"} ({
  // expected-error@+1 {{'core.tile' op core-schedule: the tile is not placed; run core-place first}}
  core.tile {node = "pool1", x = -1 : i64, y = -1 : i64} ({
    core.program ({
    })
  })
}) : () -> ()

// -----

// expected-error@+1 {{'core.chip' op core-schedule: the chip names no function whose nodes its tiles compute (dataflow-to-core sets `function`)}}
core.chip {cols = 4 : i64, rows = 4 : i64, sram_bytes = 4096 : i64, target = "tiny"} ({
  core.tile {node = "pool1", x = 0 : i64, y = 0 : i64} ({
    core.program ({
    })
  })
}) : () -> ()

// -----

func.func @one(%arg0: tensor<1x2x4x4xf32>) -> tensor<1x2x2x2xf32> {
  // expected-error@+1 {{'dataflow.node' op core-schedule: node 'pool1' has no tile on the chip}}
  %0 = dataflow.node "pool1"(%arg0) {buffer_elements = array<i64: 16>, control = [#dataflow.map<"{ P[y] -> S[oy] : 0 < y <= 3 and -2 + y <= 2oy < y }">], domain = #dataflow.set<"{ S[oy] : 0 <= oy <= 1 }">, earliest = [#dataflow.map<"{ S[oy] -> P[y = 1 + 2oy] : 0 <= oy <= 1 }">], kind = "max_pool", macs = 0 : i64, params = {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>}, reads = [#dataflow.map<"{ S[oy] -> In0[c, iy, ix] : 0 <= oy <= 1 and 0 <= c <= 1 and iy >= 2oy and 0 <= iy <= 3 and iy <= 1 + 2oy and 0 <= ix <= 3 }">], writes = #dataflow.map<"{ S[oy] -> Out[k, oy, ox] : 0 <= oy <= 1 and 0 <= k <= 1 and 0 <= ox <= 1 }">}({
  ^bb0(%arg1: tensor<1x2x4x4xf32>):
    %1 = graph.max_pool %arg1 {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x2x4x4xf32>) -> tensor<1x2x2x2xf32>
    dataflow.yield %1 : tensor<1x2x2x2xf32>
  }) : (tensor<1x2x4x4xf32>) -> tensor<1x2x2x2xf32>
  return %0 : tensor<1x2x2x2xf32>
}
core.chip {cols = 4 : i64, function = @one, rows = 4 : i64, sram_bytes = 4096 : i64, target = "tiny"} ({
}) : () -> ()

// -----

// The per-node phases run on threads; the one error reported is the serial
// order's first: an unplaced tile (in chip order) before the nodes'
// operands, a node's operands before a later node without a tile, and a node
// without a tile before a later node's operands.
func.func @two(%arg0: tensor<1x2x4x4xf32>) -> (tensor<1x2x2x2xf32>, tensor<1x2x2x2xf32>) {
  %0 = dataflow.node "pool1"(%arg0) {buffer_elements = array<i64: 16>, control = [#dataflow.map<"{ P[y] -> S[oy] : 0 < y <= 3 and -2 + y <= 2oy < y }">], domain = #dataflow.set<"{ S[oy] : 0 <= oy <= 1 }">, earliest = [#dataflow.map<"{ S[oy] -> P[y = 1 + 2oy] : 0 <= oy <= 1 }">], kind = "max_pool", macs = 0 : i64, params = {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>}, reads = [#dataflow.map<"{ S[oy] -> In0[c, iy, ix] : 0 <= oy <= 1 and 0 <= c <= 1 and iy >= 2oy and 0 <= iy <= 3 and iy <= 1 + 2oy and 0 <= ix <= 3 }">], writes = #dataflow.map<"{ S[oy] -> Out[k, oy, ox] : 0 <= oy <= 1 and 0 <= k <= 1 and 0 <= ox <= 1 }">}({
  ^bb0(%arg1: tensor<1x2x4x4xf32>):
    %r = graph.max_pool %arg1 {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x2x4x4xf32>) -> tensor<1x2x2x2xf32>
    dataflow.yield %r : tensor<1x2x2x2xf32>
  }) : (tensor<1x2x4x4xf32>) -> tensor<1x2x2x2xf32>
  %1 = dataflow.node "pool2"(%arg0) {buffer_elements = array<i64: 16>, control = [#dataflow.map<"{ P[y] -> S[oy] : 0 < y <= 3 and -2 + y <= 2oy < y }">], domain = #dataflow.set<"{ S[oy] : 0 <= oy <= 1 }">, kind = "max_pool", macs = 0 : i64, params = {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>}, reads = [#dataflow.map<"{ S[oy] -> In0[c, iy, ix] : 0 <= oy <= 1 and 0 <= c <= 1 and iy >= 2oy and 0 <= iy <= 3 and iy <= 1 + 2oy and 0 <= ix <= 3 }">], writes = #dataflow.map<"{ S[oy] -> Out[k, oy, ox] : 0 <= oy <= 1 and 0 <= k <= 1 and 0 <= ox <= 1 }">}({
  ^bb0(%arg1: tensor<1x2x4x4xf32>):
    %r = graph.max_pool %arg1 {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x2x4x4xf32>) -> tensor<1x2x2x2xf32>
    dataflow.yield %r : tensor<1x2x2x2xf32>
  }) : (tensor<1x2x4x4xf32>) -> tensor<1x2x2x2xf32>
  return %0, %1 : tensor<1x2x2x2xf32>, tensor<1x2x2x2xf32>
}
core.chip {cols = 4 : i64, function = @two, rows = 4 : i64, sram_bytes = 4096 : i64, target = "tiny"} ({
  core.tile {node = "pool1", x = 0 : i64, y = 0 : i64} ({
    core.program ({
    })
  })
  // expected-error@+1 {{'core.tile' op core-schedule: the tile is not placed; run core-place first}}
  core.tile {node = "pool2", x = -1 : i64, y = -1 : i64} ({
    core.program ({
    })
  })
}) : () -> ()

// -----

func.func @two(%arg0: tensor<1x2x4x4xf32>) -> (tensor<1x2x2x2xf32>, tensor<1x2x2x2xf32>) {
  // expected-error@+1 {{'dataflow.node' op core-schedule: cannot read earliest (run dataflow-deps first) or reads of operand 0 with isl}}
  %0 = dataflow.node "pool1"(%arg0) {buffer_elements = array<i64: 16>, control = [#dataflow.map<"{ P[y] -> S[oy] : 0 < y <= 3 and -2 + y <= 2oy < y }">], domain = #dataflow.set<"{ S[oy] : 0 <= oy <= 1 }">, kind = "max_pool", macs = 0 : i64, params = {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>}, reads = [#dataflow.map<"{ S[oy] -> In0[c, iy, ix] : 0 <= oy <= 1 and 0 <= c <= 1 and iy >= 2oy and 0 <= iy <= 3 and iy <= 1 + 2oy and 0 <= ix <= 3 }">], writes = #dataflow.map<"{ S[oy] -> Out[k, oy, ox] : 0 <= oy <= 1 and 0 <= k <= 1 and 0 <= ox <= 1 }">}({
  ^bb0(%arg1: tensor<1x2x4x4xf32>):
    %r = graph.max_pool %arg1 {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x2x4x4xf32>) -> tensor<1x2x2x2xf32>
    dataflow.yield %r : tensor<1x2x2x2xf32>
  }) : (tensor<1x2x4x4xf32>) -> tensor<1x2x2x2xf32>
  %1 = dataflow.node "pool2"(%arg0) {buffer_elements = array<i64: 16>, control = [#dataflow.map<"{ P[y] -> S[oy] : 0 < y <= 3 and -2 + y <= 2oy < y }">], domain = #dataflow.set<"{ S[oy] : 0 <= oy <= 1 }">, earliest = [#dataflow.map<"{ S[oy] -> P[y = 1 + 2oy] : 0 <= oy <= 1 }">], kind = "max_pool", macs = 0 : i64, params = {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>}, reads = [#dataflow.map<"{ S[oy] -> In0[c, iy, ix] : 0 <= oy <= 1 and 0 <= c <= 1 and iy >= 2oy and 0 <= iy <= 3 and iy <= 1 + 2oy and 0 <= ix <= 3 }">], writes = #dataflow.map<"{ S[oy] -> Out[k, oy, ox] : 0 <= oy <= 1 and 0 <= k <= 1 and 0 <= ox <= 1 }">}({
  ^bb0(%arg1: tensor<1x2x4x4xf32>):
    %r = graph.max_pool %arg1 {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x2x4x4xf32>) -> tensor<1x2x2x2xf32>
    dataflow.yield %r : tensor<1x2x2x2xf32>
  }) : (tensor<1x2x4x4xf32>) -> tensor<1x2x2x2xf32>
  return %0, %1 : tensor<1x2x2x2xf32>, tensor<1x2x2x2xf32>
}
core.chip {cols = 4 : i64, function = @two, rows = 4 : i64, sram_bytes = 4096 : i64, target = "tiny"} ({
  core.tile {node = "pool1", x = 0 : i64, y = 0 : i64} ({
    core.program ({
    })
  })
}) : () -> ()

// -----

func.func @two(%arg0: tensor<1x2x4x4xf32>) -> (tensor<1x2x2x2xf32>, tensor<1x2x2x2xf32>) {
  // expected-error@+1 {{'dataflow.node' op core-schedule: node 'pool1' has no tile on the chip}}
  %0 = dataflow.node "pool1"(%arg0) {buffer_elements = array<i64: 16>, control = [#dataflow.map<"{ P[y] -> S[oy] : 0 < y <= 3 and -2 + y <= 2oy < y }">], domain = #dataflow.set<"{ S[oy] : 0 <= oy <= 1 }">, earliest = [#dataflow.map<"{ S[oy] -> P[y = 1 + 2oy] : 0 <= oy <= 1 }">], kind = "max_pool", macs = 0 : i64, params = {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>}, reads = [#dataflow.map<"{ S[oy] -> In0[c, iy, ix] : 0 <= oy <= 1 and 0 <= c <= 1 and iy >= 2oy and 0 <= iy <= 3 and iy <= 1 + 2oy and 0 <= ix <= 3 }">], writes = #dataflow.map<"{ S[oy] -> Out[k, oy, ox] : 0 <= oy <= 1 and 0 <= k <= 1 and 0 <= ox <= 1 }">}({
  ^bb0(%arg1: tensor<1x2x4x4xf32>):
    %r = graph.max_pool %arg1 {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x2x4x4xf32>) -> tensor<1x2x2x2xf32>
    dataflow.yield %r : tensor<1x2x2x2xf32>
  }) : (tensor<1x2x4x4xf32>) -> tensor<1x2x2x2xf32>
  %1 = dataflow.node "pool2"(%arg0) {buffer_elements = array<i64: 16>, control = [#dataflow.map<"{ P[y] -> S[oy] : 0 < y <= 3 and -2 + y <= 2oy < y }">], domain = #dataflow.set<"{ S[oy] : 0 <= oy <= 1 }">, kind = "max_pool", macs = 0 : i64, params = {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>}, reads = [#dataflow.map<"{ S[oy] -> In0[c, iy, ix] : 0 <= oy <= 1 and 0 <= c <= 1 and iy >= 2oy and 0 <= iy <= 3 and iy <= 1 + 2oy and 0 <= ix <= 3 }">], writes = #dataflow.map<"{ S[oy] -> Out[k, oy, ox] : 0 <= oy <= 1 and 0 <= k <= 1 and 0 <= ox <= 1 }">}({
  ^bb0(%arg1: tensor<1x2x4x4xf32>):
    %r = graph.max_pool %arg1 {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x2x4x4xf32>) -> tensor<1x2x2x2xf32>
    dataflow.yield %r : tensor<1x2x2x2xf32>
  }) : (tensor<1x2x4x4xf32>) -> tensor<1x2x2x2xf32>
  return %0, %1 : tensor<1x2x2x2xf32>, tensor<1x2x2x2xf32>
}
core.chip {cols = 4 : i64, function = @two, rows = 4 : i64, sram_bytes = 4096 : i64, target = "tiny"} ({
  core.tile {node = "pool2", x = 1 : i64, y = 0 : i64} ({
    core.program ({
    })
  })
}) : () -> ()
