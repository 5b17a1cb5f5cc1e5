// Invalid core IR: every check of the op tables (docs/dialects/core.md) and
// of a chip against the function it implements.
// RUN: nc-opt --split-input-file --verify-diagnostics %s

// A grid needs rows.
// expected-error@+1 {{'core.chip' op rows must be positive, not 0}}
core.chip {rows = 0 : i64, cols = 3 : i64, sram_bytes = 1024 : i64, target = "tiny"} ({
}) : () -> ()

// -----

// And a target name.
// expected-error@+1 {{'core.chip' op target must not be empty}}
core.chip {rows = 2 : i64, cols = 3 : i64, sram_bytes = 1024 : i64, target = ""} ({
}) : () -> ()

// -----

// Attributes are checked against the table.
// expected-error@+1 {{'core.chip' op attribute 'sram_bytes' failed to satisfy constraint: 64-bit signless integer attribute}}
core.chip {rows = 2 : i64, cols = 3 : i64, sram_bytes = 1.0 : f32, target = "tiny"} ({
}) : () -> ()

// -----

// A chip holds only tiles.
core.chip {rows = 2 : i64, cols = 3 : i64, sram_bytes = 1024 : i64, target = "tiny"} ({
  // expected-error@+1 {{'graph.constant' op cannot be in a core.chip, which holds only core.tile ops}}
  %0 = graph.constant {value = dense<0> : tensor<i8>} : () -> tensor<i8>
}) : () -> ()

// -----

// A tile lives in a chip.
func.func @g() {
  // expected-error@+1 {{'core.tile' op expects parent op 'core.chip'}}
  core.tile {x = 0 : i64, y = 0 : i64, node = "a"} ({
    core.program ({
    })
  })
  return
}

// -----

// Positions are inside the grid (x < cols, y < rows).
core.chip {rows = 2 : i64, cols = 3 : i64, sram_bytes = 1024 : i64, target = "tiny"} ({
  // expected-error@+1 {{'core.tile' op position (3, 0) is outside the 2x3 grid (x < 3, y < 2)}}
  core.tile {x = 3 : i64, y = 0 : i64, node = "a"} ({
    core.program ({
    })
  })
}) : () -> ()

// -----

// Both coordinates or neither.
core.chip {rows = 2 : i64, cols = 3 : i64, sram_bytes = 1024 : i64, target = "tiny"} ({
  // expected-error@+1 {{'core.tile' op position (1, -1) must be a grid position or (-1, -1)}}
  core.tile {x = 1 : i64, y = -1 : i64, node = "a"} ({
    core.program ({
    })
  })
}) : () -> ()

// -----

// No two tiles on one core.
core.chip {rows = 2 : i64, cols = 3 : i64, sram_bytes = 1024 : i64, target = "tiny"} ({
  // expected-note@+1 {{the other tile}}
  core.tile {x = 1 : i64, y = 1 : i64, node = "a"} ({
    core.program ({
    })
  })
  // expected-error@+1 {{'core.tile' op is placed in slot 0 of core (1, 1), which already holds a tile of 'a' there}}
  core.tile {x = 1 : i64, y = 1 : i64, node = "b"} ({
    core.program ({
    })
  })
}) : () -> ()

// -----

// A tile ends with its program.
core.chip {rows = 2 : i64, cols = 3 : i64, sram_bytes = 1024 : i64, target = "tiny"} ({
  // expected-error@+1 {{'core.tile' op body must end with a core.program}}
  core.tile {x = 0 : i64, y = 0 : i64, node = "a"} ({
    core.buffer {name = "out", kind = "output", bytes = 4 : i64, offset = -1 : i64}
  })
}) : () -> ()

// -----

// Buffers come before the one program.
core.chip {rows = 2 : i64, cols = 3 : i64, sram_bytes = 1024 : i64, target = "tiny"} ({
  // expected-error@+1 {{'core.tile' op body must hold core.buffer ops and then one core.program, not 'core.program'}}
  core.tile {x = 0 : i64, y = 0 : i64, node = "a"} ({
    // expected-note@+1 {{see here}}
    core.program ({
    })
    core.program ({
    })
  })
}) : () -> ()

// -----

// Buffer names are unique in a tile.
core.chip {rows = 2 : i64, cols = 3 : i64, sram_bytes = 1024 : i64, target = "tiny"} ({
  core.tile {x = 0 : i64, y = 0 : i64, node = "a"} ({
    // expected-note@+1 {{first defined here}}
    core.buffer {name = "out", kind = "output", bytes = 4 : i64, offset = -1 : i64}
    // expected-error@+1 {{'core.buffer' op redefines buffer 'out' of its tile}}
    core.buffer {name = "out", kind = "output", bytes = 4 : i64, offset = -1 : i64}
    core.program ({
    })
  })
}) : () -> ()

// -----

// Buffer kinds are a closed set.
core.chip {rows = 2 : i64, cols = 3 : i64, sram_bytes = 1024 : i64, target = "tiny"} ({
  core.tile {x = 0 : i64, y = 0 : i64, node = "a"} ({
    // expected-error@+1 {{'core.buffer' op attribute 'kind' failed to satisfy constraint: string attribute: "weights", "bias", "input", "output" or "scratch"}}
    core.buffer {name = "w", kind = "weight", bytes = 4 : i64, offset = -1 : i64}
    core.program ({
    })
  })
}) : () -> ()

// -----

// A buffer has bytes.
core.chip {rows = 2 : i64, cols = 3 : i64, sram_bytes = 1024 : i64, target = "tiny"} ({
  core.tile {x = 0 : i64, y = 0 : i64, node = "a"} ({
    // expected-error@+1 {{'core.buffer' op bytes must be positive, not 0}}
    core.buffer {name = "w", kind = "weights", bytes = 0 : i64, offset = -1 : i64}
    core.program ({
    })
  })
}) : () -> ()

// -----

// Offsets are addresses, or -1.
core.chip {rows = 2 : i64, cols = 3 : i64, sram_bytes = 1024 : i64, target = "tiny"} ({
  core.tile {x = 0 : i64, y = 0 : i64, node = "a"} ({
    // expected-error@+1 {{'core.buffer' op offset must be -1 (not planned) or non-negative, not -2}}
    core.buffer {name = "w", kind = "weights", bytes = 4 : i64, offset = -2 : i64}
    core.program ({
    })
  })
}) : () -> ()

// -----

// A planned buffer lies within the SRAM.
core.chip {rows = 2 : i64, cols = 3 : i64, sram_bytes = 1024 : i64, target = "tiny"} ({
  core.tile {x = 0 : i64, y = 0 : i64, node = "a"} ({
    // expected-error@+1 {{'core.buffer' op buffer 'w' of 32 bytes at offset 1000 does not fit the core's 1024 bytes of SRAM}}
    core.buffer {name = "w", kind = "weights", bytes = 32 : i64, offset = 1000 : i64}
    core.program ({
    })
  })
}) : () -> ()

// -----

// Buffers share bytes only when never live together (weights and inputs
// live throughout).
core.chip {rows = 2 : i64, cols = 3 : i64, sram_bytes = 1024 : i64, target = "tiny"} ({
  core.tile {x = 0 : i64, y = 0 : i64, node = "a"} ({
    // expected-note@+1 {{the other buffer}}
    core.buffer {name = "w", kind = "weights", bytes = 32 : i64, offset = 0 : i64}
    // expected-error@+1 {{'core.buffer' op buffer 'in0' at [16, 48) overlaps buffer 'w' at [0, 32), and both are live from program position 0 to 0}}
    core.buffer {name = "in0", kind = "input", bytes = 32 : i64, offset = 16 : i64}
    core.program ({
    })
  })
}) : () -> ()

// -----

// The output and the scratch buffer are both live at the compute.
core.chip {rows = 2 : i64, cols = 3 : i64, sram_bytes = 1024 : i64, target = "tiny"} ({
  core.tile {x = 0 : i64, y = 0 : i64, node = "a"} ({
    // expected-note@+1 {{the other buffer}}
    core.buffer {name = "out", kind = "output", bytes = 8 : i64, offset = 0 : i64}
    // expected-error@+1 {{'core.buffer' op buffer 'acc' at [4, 12) overlaps buffer 'out' at [0, 8), and both are live from program position 1 to 1}}
    core.buffer {name = "acc", kind = "scratch", bytes = 8 : i64, offset = 4 : i64}
    core.program ({
      core.recv {from = array<i64: -1, -1>, operand = 0 : i64, iter = 0 : i64}
      core.compute {begin = 0 : i64, end = 1 : i64}
      core.send {to = array<i64: -1, -1>, iter = 0 : i64, bytes = 8 : i64}
    })
  })
}) : () -> ()

// -----

// A slice of output channels is a non-empty range.
core.chip {rows = 2 : i64, cols = 3 : i64, sram_bytes = 1024 : i64, target = "tiny"} ({
  // expected-error@+1 {{'core.tile' op out_channels [4, 2) must be a non-empty range of non-negative channels}}
  core.tile {x = 0 : i64, y = 0 : i64, node = "a", out_channels = array<i64: 4, 2>} ({
    core.program ({
    })
  })
}) : () -> ()

// -----

// out_channels has two entries.
core.chip {rows = 2 : i64, cols = 3 : i64, sram_bytes = 1024 : i64, target = "tiny"} ({
  // expected-error@+1 {{'core.tile' op attribute 'out_channels' failed to satisfy constraint: i64 dense array attribute of 2 elements}}
  core.tile {x = 0 : i64, y = 0 : i64, node = "a", out_channels = array<i64: 4>} ({
    core.program ({
    })
  })
}) : () -> ()

// -----

// A program holds only program ops.
core.chip {rows = 2 : i64, cols = 3 : i64, sram_bytes = 1024 : i64, target = "tiny"} ({
  core.tile {x = 0 : i64, y = 0 : i64, node = "a"} ({
    core.program ({
      // expected-error@+1 {{'graph.constant' op is not a program op: a core.program holds only core.recv, core.compute, core.send and core.wait}}
      %0 = graph.constant {value = dense<0> : tensor<i8>} : () -> tensor<i8>
    })
  })
}) : () -> ()

// -----

// Program ops live in programs.
core.chip {rows = 2 : i64, cols = 3 : i64, sram_bytes = 1024 : i64, target = "tiny"} ({
  core.tile {x = 0 : i64, y = 0 : i64, node = "a"} ({
    // expected-error@+1 {{'core.compute' op expects parent op 'core.program'}}
    core.compute {begin = 0 : i64, end = 1 : i64}
    core.program ({
    })
  })
}) : () -> ()

// -----

// Iterations run once, in order.
core.chip {rows = 2 : i64, cols = 3 : i64, sram_bytes = 1024 : i64, target = "tiny"} ({
  core.tile {x = 0 : i64, y = 0 : i64, node = "a"} ({
    core.program ({
      core.compute {begin = 0 : i64, end = 2 : i64}
      // expected-error@+1 {{'core.compute' op computes iterations [1, 3) but the program already computed up to 2: iterations run once, in order}}
      core.compute {begin = 1 : i64, end = 3 : i64}
    })
  })
}) : () -> ()

// -----

// A compute runs at least one iteration.
core.chip {rows = 2 : i64, cols = 3 : i64, sram_bytes = 1024 : i64, target = "tiny"} ({
  core.tile {x = 0 : i64, y = 0 : i64, node = "a"} ({
    core.program ({
      // expected-error@+1 {{'core.compute' op iterations [2, 2) must be a non-empty range from 0 up}}
      core.compute {begin = 2 : i64, end = 2 : i64}
    })
  })
}) : () -> ()

// -----

// A send carries bytes.
core.chip {rows = 2 : i64, cols = 3 : i64, sram_bytes = 1024 : i64, target = "tiny"} ({
  core.tile {x = 0 : i64, y = 0 : i64, node = "a"} ({
    core.program ({
      // expected-error@+1 {{'core.send' op bytes must be positive, not 0}}
      core.send {to = array<i64: -1, -1>, iter = 0 : i64, bytes = 0 : i64}
    })
  })
}) : () -> ()

// -----

// Waits are not negative.
core.chip {rows = 2 : i64, cols = 3 : i64, sram_bytes = 1024 : i64, target = "tiny"} ({
  core.tile {x = 0 : i64, y = 0 : i64, node = "a"} ({
    core.program ({
      // expected-error@+1 {{'core.wait' op cycles must be non-negative, not -1}}
      core.wait {cycles = -1 : i64}
    })
  })
}) : () -> ()

// -----

// A recv names an operand.
core.chip {rows = 2 : i64, cols = 3 : i64, sram_bytes = 1024 : i64, target = "tiny"} ({
  core.tile {x = 0 : i64, y = 0 : i64, node = "a"} ({
    core.program ({
      // expected-error@+1 {{'core.recv' op operand must be non-negative, not -1}}
      core.recv {from = array<i64: -1, -1>, operand = -1 : i64, iter = 0 : i64}
    })
  })
}) : () -> ()

// -----

// Endpoints are positions or the host.
core.chip {rows = 2 : i64, cols = 3 : i64, sram_bytes = 1024 : i64, target = "tiny"} ({
  core.tile {x = 0 : i64, y = 0 : i64, node = "a"} ({
    core.program ({
      // expected-error@+1 {{'core.recv' op from (-1, 2) must be a grid position or (-1, -1)}}
      core.recv {from = array<i64: -1, 2>, operand = 0 : i64, iter = 0 : i64}
    })
  })
}) : () -> ()

// -----

// A tile does not talk to itself.
core.chip {rows = 2 : i64, cols = 3 : i64, sram_bytes = 1024 : i64, target = "tiny"} ({
  core.tile {x = 0 : i64, y = 0 : i64, node = "a"} ({
    core.program ({
      // expected-error@+1 {{'core.send' op sends to its own tile (0, 0)}}
      core.send {to = array<i64: 0, 0>, iter = 0 : i64, bytes = 4 : i64}
    })
  })
}) : () -> ()

// -----

// Nor to cores outside the grid.
core.chip {rows = 2 : i64, cols = 3 : i64, sram_bytes = 1024 : i64, target = "tiny"} ({
  core.tile {x = 0 : i64, y = 0 : i64, node = "a"} ({
    core.program ({
      // expected-error@+1 {{'core.recv' op receives from (0, 5), outside the 2x3 grid}}
      core.recv {from = array<i64: 0, 5>, operand = 0 : i64, iter = 0 : i64}
    })
  })
}) : () -> ()

// -----

// Nor to cores without a tile.
core.chip {rows = 2 : i64, cols = 3 : i64, sram_bytes = 1024 : i64, target = "tiny"} ({
  core.tile {x = 0 : i64, y = 0 : i64, node = "a"} ({
    core.program ({
      // expected-error@+1 {{'core.send' op sends to (2, 1), where the chip has no tile}}
      core.send {to = array<i64: 2, 1>, iter = 0 : i64, bytes = 4 : i64}
    })
  })
}) : () -> ()

// -----

// Programs run on placed tiles.
core.chip {rows = 2 : i64, cols = 3 : i64, sram_bytes = 1024 : i64, target = "tiny"} ({
  // expected-error@+1 {{'core.tile' op has a program but no grid position (core-place places tiles)}}
  core.tile {x = -1 : i64, y = -1 : i64, node = "a"} ({
    core.program ({
      core.compute {begin = 0 : i64, end = 1 : i64}
    })
  })
}) : () -> ()

// -----

// With `function`, the chip is checked against its nodes: the function exists.
// expected-error@+1 {{'core.chip' op implements function '@nope', which does not exist}}
core.chip {rows = 2 : i64, cols = 3 : i64, sram_bytes = 1024 : i64, target = "tiny", function = @nope} ({
}) : () -> ()

// -----

// Tiles name its nodes.
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
  // expected-error@+1 {{'core.tile' op computes node 'conv9', which function '@f' does not have}}
  core.tile {x = 0 : i64, y = 0 : i64, node = "conv9"} ({
    core.program ({
    })
  })
}) : () -> ()

// -----

// A node on several tiles is split by output channels.
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
// expected-error@+1 {{'core.chip' op node 'pool1' has 2 tiles, so each must compute a slice of its output channels (out_channels)}}
core.chip {rows = 2 : i64, cols = 3 : i64, sram_bytes = 1024 : i64, target = "tiny", function = @f} ({
  core.tile {x = 0 : i64, y = 0 : i64, node = "pool1"} ({
    core.program ({
    })
  })
  core.tile {x = 1 : i64, y = 0 : i64, node = "pool1"} ({
    core.program ({
    })
  })
}) : () -> ()

// -----

// The slices partition its channels.
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
// expected-error@+1 {{'core.chip' op the out_channels of node 'pool1''s tiles must partition its 2 output channels, not [0, 1)}}
core.chip {rows = 2 : i64, cols = 3 : i64, sram_bytes = 1024 : i64, target = "tiny", function = @f} ({
  core.tile {x = 0 : i64, y = 0 : i64, node = "pool1", out_channels = array<i64: 0, 1>} ({
    core.program ({
    })
  })
}) : () -> ()

// -----

// Without gaps or overlaps.
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
// expected-error@+1 {{'core.chip' op the out_channels of node 'pool1''s tiles must partition its 2 output channels: an overlap at channel 1}}
core.chip {rows = 2 : i64, cols = 3 : i64, sram_bytes = 1024 : i64, target = "tiny", function = @f} ({
  core.tile {x = 0 : i64, y = 0 : i64, node = "pool1", out_channels = array<i64: 0, 1>} ({
    core.program ({
    })
  })
  core.tile {x = 1 : i64, y = 0 : i64, node = "pool1", out_channels = array<i64: 0, 2>} ({
    core.program ({
    })
  })
}) : () -> ()

// -----

// Within the node's channels.
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
  // expected-error@+1 {{'core.tile' op computes output channels [0, 3) of node 'pool1', which has 2}}
  core.tile {x = 0 : i64, y = 0 : i64, node = "pool1", out_channels = array<i64: 0, 3>} ({
    core.program ({
    })
  })
}) : () -> ()

// -----

// A flatten is never split.
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
  // expected-error@+1 {{'core.tile' op splits node 'flatten1' by output channels, but a copy node is not split}}
  core.tile {x = 0 : i64, y = 0 : i64, node = "flatten1", out_channels = array<i64: 0, 4>} ({
    core.program ({
    })
  })
}) : () -> ()

// -----

// Computes stay within the node's iterations.
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
      // expected-error@+1 {{'core.compute' op computes iterations [0, 3) but node 'pool1' has 2}}
      core.compute {begin = 0 : i64, end = 3 : i64}
    })
  })
}) : () -> ()

// -----

// A recv names an operand of the node.
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
      // expected-error@+1 {{'core.recv' op receives operand 1 but node 'pool1' has 1 operand}}
      core.recv {from = array<i64: -1, -1>, operand = 1 : i64, iter = 0 : i64}
    })
  })
}) : () -> ()

// -----

// A function argument comes from the host.
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
      // expected-error@+1 {{'core.recv' op receives operand 0 of 'pool1' from (1, 0), but that operand comes from the host (-1, -1)}}
      core.recv {from = array<i64: 1, 0>, operand = 0 : i64, iter = 0 : i64}
    })
  })
  core.tile {x = 1 : i64, y = 0 : i64, node = "flatten1"} ({
    core.program ({
    })
  })
}) : () -> ()

// -----

// A node's output comes from its producer's tiles.
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
    })
  })
  core.tile {x = 1 : i64, y = 0 : i64, node = "flatten1"} ({
    core.program ({
      // expected-error@+1 {{'core.recv' op receives operand 0 of 'flatten1' from the host, not from a tile of its producer 'pool1'}}
      core.recv {from = array<i64: -1, -1>, operand = 0 : i64, iter = 0 : i64}
    })
  })
}) : () -> ()

// -----

// Producer iterations exist.
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
    })
  })
  core.tile {x = 1 : i64, y = 0 : i64, node = "flatten1"} ({
    core.program ({
      // expected-error@+1 {{'core.recv' op waits for iteration 2 of 'pool1', which has 2}}
      core.recv {from = array<i64: 0, 0>, operand = 0 : i64, iter = 2 : i64}
    })
  })
}) : () -> ()

// -----

// Sends go to tiles that read the output.
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
    })
  })
  core.tile {x = 1 : i64, y = 0 : i64, node = "flatten1"} ({
    core.program ({
      core.compute {begin = 0 : i64, end = 1 : i64}
      // expected-error@+1 {{'core.send' op sends to a tile of 'pool1', which does not read the output of 'flatten1'}}
      core.send {to = array<i64: 0, 0>, iter = 0 : i64, bytes = 8 : i64}
    })
  })
}) : () -> ()

// -----

// Only the function's results go to the host.
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
      core.compute {begin = 0 : i64, end = 1 : i64}
      // expected-error@+1 {{'core.send' op sends to the host, which does not read the output of 'pool1'}}
      core.send {to = array<i64: -1, -1>, iter = 0 : i64, bytes = 8 : i64}
    })
  })
}) : () -> ()

// -----

// A multicast send joins the next send: it must be a send of the same iteration and size to a tile.
core.chip {rows = 2 : i64, cols = 3 : i64, sram_bytes = 1024 : i64, target = "tiny"} ({
  core.tile {x = 0 : i64, y = 0 : i64, node = "a"} ({
    core.program ({
      // expected-error@+1 {{'core.send' op is `multicast`, so the next op must be a core.send of the same iteration, bytes and network to a tile}}
      core.send {to = array<i64: 1, 0>, iter = 0 : i64, bytes = 8 : i64, multicast}
      core.send {to = array<i64: 2, 0>, iter = 1 : i64, bytes = 8 : i64}
    })
  })
  core.tile {x = 1 : i64, y = 0 : i64, node = "b"} ({
    core.program ({
    })
  })
  core.tile {x = 2 : i64, y = 0 : i64, node = "c"} ({
    core.program ({
    })
  })
}) : () -> ()

// -----

// A send to the host cannot be a multicast (the host is no tile of the mesh).
core.chip {rows = 2 : i64, cols = 3 : i64, sram_bytes = 1024 : i64, target = "tiny"} ({
  core.tile {x = 0 : i64, y = 0 : i64, node = "a"} ({
    core.program ({
      // expected-error@+1 {{'core.send' op is a multicast to the host; only tiles receive multicasts}}
      core.send {to = array<i64: -1, -1>, iter = 0 : i64, bytes = 8 : i64, multicast}
      core.send {to = array<i64: -1, -1>, iter = 0 : i64, bytes = 8 : i64}
    })
  })
}) : () -> ()
