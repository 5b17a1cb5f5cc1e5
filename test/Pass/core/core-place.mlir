// core-place: splits layers that do not fit a core by output channels, then
// lays the tiles in pipeline order along a serpentine path (row 0 left to
// right, row 1 right to left, ...), so consecutive layers are NoC neighbours.
// RUN: nc-opt --split-input-file --pass-pipeline='builtin.module(target-attach{target=northpole},dataflow-to-core{rows=2 cols=2},core-place)' %s | FileCheck %s --check-prefix=GRID
// RUN: nc-opt --split-input-file --pass-pipeline='builtin.module(target-attach{target=northpole},dataflow-to-core{rows=2 cols=3 sram-bytes=200},core-place)' %s | FileCheck %s --check-prefix=SPLIT
// RUN: nc-opt --split-input-file --pass-pipeline='builtin.module(target-attach{target=northpole},dataflow-to-core{sram-bytes=64},core-place)' %s | FileCheck %s --check-prefix=SMALL
// RUN: nc-opt --split-input-file --pass-pipeline='builtin.module(target-attach{target=northpole},dataflow-to-core{sram-bytes=200},core-place{max-tiles-per-layer=2})' %s | FileCheck %s --check-prefix=LIMIT
// RUN: nc-opt --split-input-file --pass-pipeline='builtin.module(target-attach{target=northpole},dataflow-to-core{rows=2 cols=3 sram-bytes=200},core-place)' --mlir-pass-statistics %s 2>&1 >/dev/null | FileCheck %s --check-prefix=STATS
// STATS:      CorePlace
// STATS-NEXT:   (S)   0 add-guest-retries
// STATS-NEXT:   (S)   0 add-guest-tiles
// STATS-NEXT:   (S)   0 guest-rebalances
// STATS-NEXT:   (S)   0 guest-tiles
// STATS-NEXT:   (S)   0 host-route-bytes
// STATS-NEXT:   (S)   0 max-link-load
// STATS-NEXT:   (S)   0 max-link-load-initial
// STATS-NEXT:   (S) 288 max-tile-work       - Most work (multiply-accumulates, or vector operations) of one tile per frame
// STATS-NEXT:   (S)   0 minmax-cores-short
// STATS-NEXT:   (S)   0 minmax-slowest-after
// STATS-NEXT:   (S)   0 minmax-slowest-before
// STATS-NEXT:   (S)   3 noc-hops            - Sum of the NoC distances of all producer -> consumer tile pairs
// STATS-NEXT:   (S)   0 num-row-split-layers
// STATS-NEXT:   (S)   0 num-split-layers    - Number of layers split over several tiles
// STATS-NEXT:   (S)   4 num-tiles           - Number of tiles placed
// STATS-NEXT:   (S)   0 small-guest-retries
// STATS-NEXT:   (S)   0 small-guest-tiles
// STATS-NEXT:   (S) 227 stage-imbalance-pct - 100 x (slowest tile's work / mean tile work - 1)
// STATS:      CorePlace
// STATS-NEXT:   (S)   0 add-guest-retries
// STATS-NEXT:   (S)   0 add-guest-tiles
// STATS-NEXT:   (S)   0 guest-rebalances
// STATS-NEXT:   (S)   0 guest-tiles
// STATS-NEXT:   (S)  48 host-route-bytes
// STATS-NEXT:   (S)   0 max-link-load
// STATS-NEXT:   (S)   0 max-link-load-initial
// STATS-NEXT:   (S) 288 max-tile-work
// STATS-NEXT:   (S) {{ *}}0 minmax-cores-short
// STATS-NEXT:   (S) {{ *}}0 minmax-slowest-after
// STATS-NEXT:   (S) {{ *}}0 minmax-slowest-before
// STATS-NEXT:   (S)   3 noc-hops
// STATS-NEXT:   (S)   0 num-row-split-layers
// STATS-NEXT:   (S)   1 num-split-layers
// STATS-NEXT:   (S)   3 num-tiles
// STATS-NEXT:   (S)   0 small-guest-retries
// STATS-NEXT:   (S)   0 small-guest-tiles
// STATS-NEXT:   (S)  42 stage-imbalance-pct
// STATS:      CorePlace
// STATS-NEXT:   (S)   0 add-guest-retries
// STATS-NEXT:   (S)   0 add-guest-tiles
// STATS-NEXT:   (S)   0 guest-rebalances
// STATS-NEXT:   (S)   0 guest-tiles
// STATS-NEXT:   (S)  96 host-route-bytes
// STATS-NEXT:   (S)   0 max-link-load
// STATS-NEXT:   (S)   0 max-link-load-initial
// STATS-NEXT:   (S) {{[0-9]+}} max-tile-work
// STATS-NEXT:   (S) {{ *}}0 minmax-cores-short
// STATS-NEXT:   (S) {{ *}}0 minmax-slowest-after
// STATS-NEXT:   (S) {{ *}}0 minmax-slowest-before
// STATS-NEXT:   (S) 6 noc-hops
// STATS-NEXT:   (S)   0 num-row-split-layers
// STATS-NEXT:   (S) 1 num-split-layers
// STATS-NEXT:   (S) 4 num-tiles
//
// balance: conv1 (2 channels x 144 multiply-accumulates per frame) is the
// slowest stage, but splitting it gains nothing: its compute is under a cycle,
// each of its four 8-byte rows already holds the link to pool1 one cycle,
// whole or split, and two slices would make the host send every input row
// twice (8 link cycles per frame instead of 4). So nothing is split.
// RUN: nc-opt --split-input-file --pass-pipeline='builtin.module(target-attach{target=northpole},dataflow-to-core{rows=2 cols=3},core-place{balance})' %s | FileCheck %s --check-prefix=BALANCE
// RUN: nc-opt --split-input-file --pass-pipeline='builtin.module(target-attach{target=northpole},dataflow-to-core{rows=2 cols=3},core-place{balance})' --mlir-pass-statistics %s 2>&1 >/dev/null | FileCheck %s --check-prefix=BSTATS
// BALANCE:      core.tile {node = "conv1", x = 0 : i64, y = 0 : i64}
// BALANCE-NEXT: core.buffer {bytes = 18 : i64, kind = "weights"
// BALANCE:      core.tile {node = "pool1", x = 1 : i64, y = 0 : i64}
// BALANCE:      core.tile {node = "flatten1", x = 2 : i64, y = 0 : i64}
// BALANCE:      core.tile {node = "matmul1", x = 2 : i64, y = 1 : i64}
// BALANCE-NOT:  core.tile
// BALANCE:      // -----
// BSTATS:      CorePlace
// BSTATS-NEXT:   (S)   0 add-guest-retries
// BSTATS-NEXT:   (S)   0 add-guest-tiles
// BSTATS-NEXT:   (S)   0 guest-rebalances
// BSTATS-NEXT:   (S)   0 guest-tiles
// BSTATS-NEXT:   (S)   0 host-route-bytes
// BSTATS-NEXT:   (S)   0 max-link-load
// BSTATS-NEXT:   (S)   0 max-link-load-initial
// BSTATS-NEXT:   (S) 288 max-tile-work
// BSTATS-NEXT:   (S) {{ *}}0 minmax-cores-short
// BSTATS-NEXT:   (S) {{ *}}0 minmax-slowest-after
// BSTATS-NEXT:   (S) {{ *}}0 minmax-slowest-before
// BSTATS-NEXT:   (S)   3 noc-hops
// BSTATS-NEXT:   (S)   0 num-row-split-layers
// BSTATS-NEXT:   (S)   0 num-split-layers
// BSTATS-NEXT:   (S)   4 num-tiles

// Four layers on a 2x2 grid: (0,0) (1,0), then back along row 1: (1,1) (0,1).
// Every layer fits; nothing is split.
// GRID-LABEL: core.chip {cols = 2 : i64, function = @net, rows = 2 : i64
// GRID-NEXT:    core.tile {node = "conv1", x = 0 : i64, y = 0 : i64}({
// GRID:         core.tile {node = "pool1", x = 1 : i64, y = 0 : i64}({
// GRID:         core.tile {node = "flatten1", x = 1 : i64, y = 1 : i64}({
// GRID:         core.tile {node = "matmul1", x = 0 : i64, y = 1 : i64}({
// SPLIT-LABEL: core.chip {cols = 3 : i64, function = @net, rows = 2 : i64, sram_bytes = 200 : i64
// SPLIT-NEXT:    core.tile {node = "conv1", x = 0 : i64, y = 0 : i64}({
// SPLIT:         core.tile {node = "pool1", x = 1 : i64, y = 0 : i64}({
// SPLIT:         core.tile {node = "flatten1", x = 2 : i64, y = 0 : i64}({
// SPLIT:         core.tile {node = "matmul1", x = 2 : i64, y = 1 : i64}({
//
// With 64 bytes per core, conv1 (94 bytes, 12 of them its input line buffer)
// is split over two tiles of one output channel each: half the weights, bias,
// output and accumulator, the whole input line buffer.
// SMALL-LABEL: core.chip {cols = 16 : i64, function = @net, rows = 16 : i64, sram_bytes = 64 : i64
// SMALL-NEXT:    core.tile {node = "conv1", out_channels = array<i64: 0, 1>, x = 0 : i64, y = 0 : i64}({
// SMALL-NEXT:      core.buffer {bytes = 9 : i64, kind = "weights", name = "weights", offset = -1 : i64}
// SMALL-NEXT:      core.buffer {bytes = 12 : i64, kind = "bias", name = "bias", offset = -1 : i64}
// SMALL-NEXT:      core.buffer {bytes = 12 : i64, kind = "input", name = "in0", offset = -1 : i64}
// SMALL-NEXT:      core.buffer {bytes = 4 : i64, kind = "output", name = "out", offset = -1 : i64}
// SMALL-NEXT:      core.buffer {bytes = 16 : i64, kind = "scratch", name = "acc", offset = -1 : i64}
// SMALL-NEXT:      core.program({
// SMALL:         core.tile {node = "conv1", out_channels = array<i64: 1, 2>, x = 1 : i64, y = 0 : i64}({
// SMALL-NEXT:      core.buffer {bytes = 9 : i64, kind = "weights", name = "weights", offset = -1 : i64}
// SMALL:         core.tile {node = "pool1", x = 2 : i64, y = 0 : i64}({
// SMALL:         core.tile {node = "flatten1", x = 3 : i64, y = 0 : i64}({
// SMALL:         core.tile {node = "matmul1", x = 4 : i64, y = 0 : i64}({
// LIMIT-LABEL: core.chip {cols = 16 : i64, function = @net
// LIMIT-NEXT:    core.tile {node = "conv1", x = 0 : i64, y = 0 : i64}({
func.func @net(%arg0: tensor<1x1x4x4xf32>) -> tensor<1x3xf32> {
  %0 = graph.constant {value = dense<5.000000e-02> : tensor<f32>} : () -> tensor<f32>
  %1 = graph.constant {value = dense<0> : tensor<i8>} : () -> tensor<i8>
  %2 = graph.quantize_linear %arg0, %0, %1 : (tensor<1x1x4x4xf32>, tensor<f32>, tensor<i8>) -> tensor<1x1x4x4xi8>
  %3 = dataflow.node "conv1"(%2) {buffer_elements = array<i64: 12>, control = [#dataflow.map<"{ P[y] -> S[oy = -1 + y] : 0 < y <= 2; P[y = 3] -> S[oy = 3] }">], domain = #dataflow.set<"{ S[oy] : 0 <= oy <= 3 }">, earliest = [#dataflow.map<"{ S[oy] -> P[y = 3] : 2 <= oy <= 3; S[oy] -> P[y = 1 + oy] : 0 <= oy <= 1 }">], kind = "conv", macs = 288 : i64, params = {bias = dense<[5, -5]> : tensor<2xi32>, clamp_max = 127 : i64, clamp_min = 0 : i64, kernel = array<i64: 3, 3>, multiplier = array<i64: 1073741824, 1073741824>, pads = array<i64: 1, 1, 1, 1>, shift = array<i64: 36, 36>, weights = dense<3> : tensor<2x1x3x3xi8>}, reads = [#dataflow.map<"{ S[oy] -> In0[c = 0, iy, ix] : 0 <= oy <= 3 and iy >= -1 + oy and 0 <= iy <= 3 and iy <= 1 + oy and 0 <= ix <= 3 }">], writes = #dataflow.map<"{ S[oy] -> Out[k, oy, ox] : 0 <= oy <= 3 and 0 <= k <= 1 and 0 <= ox <= 3 }">}({
  ^bb0(%arg1: tensor<1x1x4x4xi8>):
    %9 = graph.constant {value = dense<3> : tensor<2x1x3x3xi8>} : () -> tensor<2x1x3x3xi8>
    %10 = graph.conv_integer %arg1, %9 {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x1x4x4xi8>, tensor<2x1x3x3xi8>) -> tensor<1x2x4x4xi32>
    %11 = graph.constant {value = dense<[5, -5]> : tensor<2xi32>} : () -> tensor<2xi32>
    %12 = graph.requantize %10, %11 {activation = "relu", axis = 1 : i64, multiplier = array<i64: 1073741824, 1073741824>, output_zero_point = 0 : i64, shift = array<i64: 36, 36>} : (tensor<1x2x4x4xi32>, tensor<2xi32>) -> tensor<1x2x4x4xi8>
    dataflow.yield %12 : tensor<1x2x4x4xi8>
  }) : (tensor<1x1x4x4xi8>) -> tensor<1x2x4x4xi8>
  %4 = dataflow.node "pool1"(%3) {buffer_elements = array<i64: 16>, control = [#dataflow.map<"{ P[oy] -> S[oy'] : 0 < oy <= 3 and -2 + oy <= 2oy' < oy }">], domain = #dataflow.set<"{ S[oy] : 0 <= oy <= 1 }">, earliest = [#dataflow.map<"{ S[oy] -> P[oy' = 1 + 2oy] : 0 <= oy <= 1 }">], kind = "max_pool", macs = 0 : i64, params = {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>}, reads = [#dataflow.map<"{ S[oy] -> In0[c, iy, ix] : 0 <= oy <= 1 and 0 <= c <= 1 and iy >= 2oy and 0 <= iy <= 3 and iy <= 1 + 2oy and 0 <= ix <= 3 }">], writes = #dataflow.map<"{ S[oy] -> Out[k, oy, ox] : 0 <= oy <= 1 and 0 <= k <= 1 and 0 <= ox <= 1 }">}({
  ^bb0(%arg1: tensor<1x2x4x4xi8>):
    %9 = graph.max_pool %arg1 {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x2x4x4xi8>) -> tensor<1x2x2x2xi8>
    dataflow.yield %9 : tensor<1x2x2x2xi8>
  }) : (tensor<1x2x4x4xi8>) -> tensor<1x2x2x2xi8>
  %5 = dataflow.node "flatten1"(%4) {buffer_elements = array<i64: 4>, control = [#dataflow.map<"{ P[oy] -> S[y = oy] : 0 <= oy <= 1 }">], domain = #dataflow.set<"{ S[y] : 0 <= y <= 1 }">, earliest = [#dataflow.map<"{ S[y] -> P[oy = y] : 0 <= y <= 1 }">], kind = "copy", macs = 0 : i64, reads = [#dataflow.map<"{ S[y] -> In0[c, y, x] : 0 <= y <= 1 and 0 <= c <= 1 and 0 <= x <= 1 }">], writes = #dataflow.map<"{ S[y] -> Out[i] : 0 <= y <= 1 and -2 + 2y <= i <= 5 + 2y and 4*floor((2 + 2y + i)/4) <= 2y + i }">}({
  ^bb0(%arg1: tensor<1x2x2x2xi8>):
    %9 = graph.flatten %arg1 : (tensor<1x2x2x2xi8>) -> tensor<1x8xi8>
    dataflow.yield %9 : tensor<1x8xi8>
  }) : (tensor<1x2x2x2xi8>) -> tensor<1x8xi8>
  %6 = dataflow.node "matmul1"(%5) {buffer_elements = array<i64: 8>, control = [#dataflow.map<"{ P[y = 1] -> S[] }">], domain = #dataflow.set<"{ S[] }">, earliest = [#dataflow.map<"{ S[] -> P[y = 1] }">], kind = "matmul", macs = 24 : i64, params = {clamp_max = 127 : i64, clamp_min = -128 : i64, multiplier = array<i64: 1073741824>, shift = array<i64: 31>, weights = dense<1> : tensor<8x3xi8>}, reads = [#dataflow.map<"{ S[] -> In0[i] : 0 <= i <= 7 }">], writes = #dataflow.map<"{ S[] -> Out[o] : 0 <= o <= 2 }">}({
  ^bb0(%arg1: tensor<1x8xi8>):
    %9 = graph.constant {value = dense<1> : tensor<8x3xi8>} : () -> tensor<8x3xi8>
    %10 = graph.matmul_integer %arg1, %9 : (tensor<1x8xi8>, tensor<8x3xi8>) -> tensor<1x3xi32>
    %11 = graph.requantize %10 {axis = 1 : i64, multiplier = array<i64: 1073741824>, output_zero_point = 0 : i64, shift = array<i64: 31>} : (tensor<1x3xi32>) -> tensor<1x3xi8>
    dataflow.yield %11 : tensor<1x3xi8>
  }) : (tensor<1x8xi8>) -> tensor<1x3xi8>
  %7 = graph.constant {value = dense<1.000000e-01> : tensor<f32>} : () -> tensor<f32>
  %8 = graph.dequantize_linear %6, %7 : (tensor<1x3xi8>, tensor<f32>) -> tensor<1x3xf32>
  return %8 : tensor<1x3xf32>
}

// -----

// A residual block. At 200 bytes per core the conv (280 bytes) takes two
// tiles, and the add follows them. At 64 bytes its input line buffer alone
// (96 bytes) overflows: splitting by output channels cannot help, so the
// layer stays whole (core-plan-memory reports it).
// GRID-LABEL: core.chip {cols = 2 : i64, function = @residual
// GRID-NEXT:    core.tile {node = "conv1", x = 0 : i64, y = 0 : i64}({
// GRID:         core.tile {node = "add1", x = 1 : i64, y = 0 : i64}({
// SPLIT-LABEL: core.chip {cols = 3 : i64, function = @residual
// SPLIT-NEXT:    core.tile {node = "conv1", out_channels = array<i64: 0, 1>, x = 0 : i64, y = 0 : i64}({
// SPLIT-NEXT:      core.buffer {bytes = 72 : i64, kind = "weights", name = "weights", offset = -1 : i64}
// SPLIT-NEXT:      core.buffer {bytes = 4 : i64, kind = "bias", name = "bias", offset = -1 : i64}
// SPLIT-NEXT:      core.buffer {bytes = 96 : i64, kind = "input", name = "in0", offset = -1 : i64}
// SPLIT-NEXT:      core.buffer {bytes = 16 : i64, kind = "output", name = "out", offset = -1 : i64}
// SPLIT:         core.tile {node = "conv1", out_channels = array<i64: 1, 2>, x = 1 : i64, y = 0 : i64}({
// SPLIT:         core.tile {node = "add1", x = 2 : i64, y = 0 : i64}({
// SMALL-LABEL: core.chip {cols = 16 : i64, function = @residual
// SMALL-NEXT:    core.tile {node = "conv1", x = 0 : i64, y = 0 : i64}({
// SMALL:         core.tile {node = "add1", x = 1 : i64, y = 0 : i64}({
func.func @residual(%arg0: tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32> {
  %0 = dataflow.node "conv1"(%arg0) {buffer_elements = array<i64: 24>, control = [#dataflow.map<"{ P[y] -> S[oy = -1 + y] : 0 < y <= 2; P[y = 3] -> S[oy = 3] }">], domain = #dataflow.set<"{ S[oy] : 0 <= oy <= 3 }">, earliest = [#dataflow.map<"{ S[oy] -> P[y = 3] : 2 <= oy <= 3; S[oy] -> P[y = 1 + oy] : 0 <= oy <= 1 }">], kind = "conv", macs = 576 : i64, params = {bias = dense<1.000000e-01> : tensor<2xf32>, kernel = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>, weights = dense<5.000000e-01> : tensor<2x2x3x3xf32>}, reads = [#dataflow.map<"{ S[oy] -> In0[c, iy, ix] : 0 <= oy <= 3 and 0 <= c <= 1 and iy >= -1 + oy and 0 <= iy <= 3 and iy <= 1 + oy and 0 <= ix <= 3 }">], writes = #dataflow.map<"{ S[oy] -> Out[k, oy, ox] : 0 <= oy <= 3 and 0 <= k <= 1 and 0 <= ox <= 3 }">}({
  ^bb0(%arg1: tensor<1x2x4x4xf32>):
    %2 = graph.constant {value = dense<5.000000e-01> : tensor<2x2x3x3xf32>} : () -> tensor<2x2x3x3xf32>
    %3 = graph.constant {value = dense<1.000000e-01> : tensor<2xf32>} : () -> tensor<2xf32>
    %4 = graph.conv %arg1, %2, %3 {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x2x4x4xf32>, tensor<2x2x3x3xf32>, tensor<2xf32>) -> tensor<1x2x4x4xf32>
    dataflow.yield %4 : tensor<1x2x4x4xf32>
  }) : (tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %1 = dataflow.node "add1"(%0, %arg0) {buffer_elements = array<i64: 8, 16>, control = [#dataflow.map<"{ P[oy] -> S[y = oy] : 0 <= oy <= 3 }">, #dataflow.map<"{ P[y] -> S[y' = y] : 0 <= y <= 3 }">], domain = #dataflow.set<"{ S[y] : 0 <= y <= 3 }">, earliest = [#dataflow.map<"{ S[y] -> P[oy = y] : 0 <= y <= 3 }">, #dataflow.map<"{ S[y] -> P[y' = y] : 0 <= y <= 3 }">], kind = "eltwise", macs = 0 : i64, params = {op = "add"}, reads = [#dataflow.map<"{ S[y] -> In0[c, y, x] : 0 <= y <= 3 and 0 <= c <= 1 and 0 <= x <= 3 }">, #dataflow.map<"{ S[y] -> In1[c, y, x] : 0 <= y <= 3 and 0 <= c <= 1 and 0 <= x <= 3 }">], writes = #dataflow.map<"{ S[y] -> Out[c, y, x] : 0 <= y <= 3 and 0 <= c <= 1 and 0 <= x <= 3 }">}({
  ^bb0(%arg1: tensor<1x2x4x4xf32>, %arg2: tensor<1x2x4x4xf32>):
    %2 = graph.add %arg1, %arg2 : (tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
    dataflow.yield %2 : tensor<1x2x4x4xf32>
  }) : (tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  return %1 : tensor<1x2x4x4xf32>
}

// -----

// A conv with 6 output channels (216 bytes of weights, 48 of input line
// buffer, 96 of output: 360 bytes). At 200 bytes per core it needs slices of
// 2 channels: three tiles along row 0, then the flatten turns down to row 1.
// At 64 bytes not even one channel per core would fit: it gets one tile per
// channel, as far as splitting goes. max-tiles-per-layer=2 caps the split.
// GRID-LABEL: core.chip {cols = 2 : i64, function = @wide
// GRID-NEXT:    core.tile {node = "conv1", x = 0 : i64, y = 0 : i64}({
// GRID:         core.tile {node = "flatten1", x = 1 : i64, y = 0 : i64}({
// SPLIT-LABEL: core.chip {cols = 3 : i64, function = @wide
// SPLIT-NEXT:    core.tile {node = "conv1", out_channels = array<i64: 0, 2>, x = 0 : i64, y = 0 : i64}({
// SPLIT-NEXT:      core.buffer {bytes = 72 : i64, kind = "weights", name = "weights", offset = -1 : i64}
// SPLIT-NEXT:      core.buffer {bytes = 48 : i64, kind = "input", name = "in0", offset = -1 : i64}
// SPLIT-NEXT:      core.buffer {bytes = 32 : i64, kind = "output", name = "out", offset = -1 : i64}
// SPLIT:         core.tile {node = "conv1", out_channels = array<i64: 2, 4>, x = 1 : i64, y = 0 : i64}({
// SPLIT:         core.tile {node = "conv1", out_channels = array<i64: 4, 6>, x = 2 : i64, y = 0 : i64}({
// SPLIT:         core.tile {node = "flatten1", x = 2 : i64, y = 1 : i64}({
// SPLIT-NEXT:      core.buffer {bytes = 96 : i64, kind = "input", name = "in0", offset = -1 : i64}
// SPLIT-NEXT:      core.buffer {bytes = 96 : i64, kind = "output", name = "out", offset = -1 : i64}
// SMALL-LABEL: core.chip {cols = 16 : i64, function = @wide
// SMALL-NEXT:    core.tile {node = "conv1", out_channels = array<i64: 0, 1>, x = 0 : i64, y = 0 : i64}({
// SMALL:         core.tile {node = "conv1", out_channels = array<i64: 5, 6>, x = 5 : i64, y = 0 : i64}({
// SMALL:         core.tile {node = "flatten1", x = 6 : i64, y = 0 : i64}({
// LIMIT-LABEL: core.chip {cols = 16 : i64, function = @wide
// LIMIT-NEXT:    core.tile {node = "conv1", out_channels = array<i64: 0, 3>, x = 0 : i64, y = 0 : i64}({
// LIMIT:         core.tile {node = "conv1", out_channels = array<i64: 3, 6>, x = 1 : i64, y = 0 : i64}({
// LIMIT:         core.tile {node = "flatten1", x = 2 : i64, y = 0 : i64}({
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
