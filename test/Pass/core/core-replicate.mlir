// core-replicate: the slowest stage's tiles get copies on the spare cores,
// each handling alternate frames (`replica = array<i64: r, n>`); the tiles
// that receive from a copied layer receive from every copy, each recv with
// the copy's `frames`; the copies' own programs are the original's.
// RUN: nc-opt --pass-pipeline='builtin.module(target-attach{target=northpole},dataflow-to-core{rows=2 cols=3},core-place,core-schedule,core-replicate)' %s | FileCheck %s
// RUN: nc-opt --pass-pipeline='builtin.module(target-attach{target=northpole},dataflow-to-core{rows=2 cols=3},core-place,core-schedule,core-replicate)' --mlir-pass-statistics %s 2>&1 >/dev/null | FileCheck %s --check-prefix=STATS
// A full grid (2x2 for 4 tiles) leaves no core for a copy.
// RUN: nc-opt --pass-pipeline='builtin.module(target-attach{target=northpole},dataflow-to-core{rows=2 cols=2},core-place,core-schedule,core-replicate)' %s | FileCheck %s --check-prefix=FULL
// force=3: three copies of the slowest layer (the grid's two spare cores).
// RUN: nc-opt --pass-pipeline='builtin.module(target-attach{target=northpole},dataflow-to-core{rows=2 cols=3},core-place,core-schedule,core-replicate{force=3})' %s | FileCheck %s --check-prefix=FORCE
// The pass runs once: copies are not copied again.
// RUN: nc-opt --pass-pipeline='builtin.module(target-attach{target=northpole},dataflow-to-core{rows=2 cols=3},core-place,core-schedule,core-replicate)' %s -o %t.mlir
// RUN: not nc-opt --core-replicate %t.mlir 2>&1 | FileCheck %s --check-prefix=TWICE
// The output verifies as core IR (replicas partition nothing twice, every
// recv of a copy carries its frames): nc-opt parsed it back above.

// conv1 (288 multiply-accumulates: 0.28 cycles, and four 8-byte sends: 4
// cycles) is the slowest stage; a copy halves its share to 2.1, and the
// host's input link is then the slowest stage: 4 messages, 4 cycles, one per
// input row as the host sends them (not the 3 rows that complete a conv row,
// conv1's control relation, which made it 3).
// STATS:      CoreReplicate
// STATS-NEXT: (S) 1 num-replicated-layers
// STATS-NEXT: (S) 1 replica-tiles
// STATS-NEXT: (S) 4 slowest-stage-after
// STATS-NEXT: (S) 4 slowest-stage-before

// CHECK-LABEL: core.chip
// CHECK:      core.tile {node = "conv1", replica = array<i64: 0, 2>, x = 0 : i64, y = 0 : i64}
// CHECK:        core.recv {from = array<i64: -1, -1>, iter = 0 : i64, operand = 0 : i64}
// CHECK:        core.send {bytes = 8 : i64, iter = 0 : i64, to = array<i64: 1, 0>}
// the copy sits on the free core nearest to the original, with the same program
// CHECK:      core.tile {node = "conv1", replica = array<i64: 1, 2>, x = 0 : i64, y = 1 : i64}
// CHECK:        core.recv {from = array<i64: -1, -1>, iter = 0 : i64, operand = 0 : i64}
// CHECK:        core.send {bytes = 8 : i64, iter = 0 : i64, to = array<i64: 1, 0>}
// CHECK:      core.tile {node = "pool1", x = 1 : i64, y = 0 : i64}
// CHECK:        core.program
// CHECK-NEXT:     core.recv {frames = array<i64: 0, 2>, from = array<i64: 0, 0>, iter = 0 : i64, operand = 0 : i64}
// CHECK-NEXT:     core.recv {frames = array<i64: 1, 2>, from = array<i64: 0, 1>, iter = 0 : i64, operand = 0 : i64}
// CHECK-NEXT:     core.recv {frames = array<i64: 0, 2>, from = array<i64: 0, 0>, iter = 1 : i64, operand = 0 : i64}
// CHECK-NEXT:     core.recv {frames = array<i64: 1, 2>, from = array<i64: 0, 1>, iter = 1 : i64, operand = 0 : i64}
// CHECK-NEXT:     core.compute {begin = 0 : i64, end = 1 : i64}
// CHECK-NOT:  replica

// FULL-NOT: replica
// FULL-NOT: frames

// FORCE: core.tile {node = "conv1", replica = array<i64: 0, 3>
// FORCE: core.tile {node = "conv1", replica = array<i64: 1, 3>
// FORCE: core.tile {node = "conv1", replica = array<i64: 2, 3>
// FORCE: core.tile {node = "pool1"
// FORCE: core.recv {frames = array<i64: 0, 3>
// FORCE-NEXT: core.recv {frames = array<i64: 1, 3>
// FORCE-NEXT: core.recv {frames = array<i64: 2, 3>

// TWICE: error: 'core.tile' op core-replicate: the tile is a replica already; run the pass once


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

