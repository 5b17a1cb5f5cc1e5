// core-schedule: each tile's program, from the nodes' `earliest` relations.
// Before iteration i a tile receives, per operand, every producer iteration
// it reads from that has not arrived yet, up to the one earliest names for i
// (from every tile of a split producer; from the host (-1, -1) for function
// arguments, one message per input row); after computing i it sends i's
// output to every tile that reads it, and the function's result to the host.
// Iterations whose output nobody reads are not sent, producer iterations the
// node does not read are not received, and computes with nothing between
// them merge into one range.
// RUN: nc-opt --split-input-file --pass-pipeline='builtin.module(target-attach{target=northpole},dataflow-to-core{rows=2 cols=2},core-place,core-schedule)' %s | FileCheck %s
// RUN: nc-opt --split-input-file --pass-pipeline='builtin.module(target-attach{target=northpole},dataflow-to-core{sram-bytes=64},core-place,core-schedule)' %s | FileCheck %s --check-prefix=SPLIT
// RUN: nc-opt --split-input-file --pass-pipeline='builtin.module(target-attach{target=northpole},dataflow-to-core{rows=2 cols=2},core-place,core-schedule)' --mlir-pass-statistics %s 2>&1 >/dev/null | FileCheck %s --check-prefix=STATS
// STATS:      CoreSchedule
// STATS-NEXT:   (S)  2 box-needs    - Tiles' operands whose needed producer iterations came from comparing boxes, not isl points
// STATS-NEXT:   (S) 48 byte-hops    - Bytes sent between tiles times the NoC hops they travel
// STATS-NEXT:   (S) 48 bytes-sent   - Bytes sent between tiles
// STATS-NEXT:   (S)  9 num-computes - Number of core.compute ops
// STATS-NEXT:   (S) 12 num-recvs    - Number of core.recv ops
// STATS-NEXT:   (S)  9 num-sends    - Number of core.send ops (to tiles and to the host)

// The int8 network on a 2x2 grid. conv1's output row oy needs input rows up
// to oy + 1 (the last two wait for row 3); the pool's row oy waits for conv1
// rows 2oy and 2oy + 1; the flatten forwards rows; the matmul runs once, when
// the whole vector has arrived, and sends the result to the host.
// CHECK-LABEL: core.chip {cols = 2 : i64, function = @net
// CHECK-NEXT:    core.tile {node = "conv1", x = 0 : i64, y = 0 : i64}({
// CHECK:           core.program({
// CHECK-NEXT:        core.recv {from = array<i64: -1, -1>, iter = 0 : i64, operand = 0 : i64}
// CHECK-NEXT:        core.recv {from = array<i64: -1, -1>, iter = 1 : i64, operand = 0 : i64}
// CHECK-NEXT:        core.compute {begin = 0 : i64, end = 1 : i64}
// CHECK-NEXT:        core.send {bytes = 8 : i64, iter = 0 : i64, to = array<i64: 1, 0>}
// CHECK-NEXT:        core.recv {from = array<i64: -1, -1>, iter = 2 : i64, operand = 0 : i64}
// CHECK-NEXT:        core.compute {begin = 1 : i64, end = 2 : i64}
// CHECK-NEXT:        core.send {bytes = 8 : i64, iter = 1 : i64, to = array<i64: 1, 0>}
// CHECK-NEXT:        core.recv {from = array<i64: -1, -1>, iter = 3 : i64, operand = 0 : i64}
// CHECK-NEXT:        core.compute {begin = 2 : i64, end = 3 : i64}
// CHECK-NEXT:        core.send {bytes = 8 : i64, iter = 2 : i64, to = array<i64: 1, 0>}
// CHECK-NEXT:        core.compute {begin = 3 : i64, end = 4 : i64}
// CHECK-NEXT:        core.send {bytes = 8 : i64, iter = 3 : i64, to = array<i64: 1, 0>}
// CHECK-NEXT:      })
// CHECK:         core.tile {node = "pool1", x = 1 : i64, y = 0 : i64}({
// CHECK:           core.program({
// CHECK-NEXT:        core.recv {from = array<i64: 0, 0>, iter = 0 : i64, operand = 0 : i64}
// CHECK-NEXT:        core.recv {from = array<i64: 0, 0>, iter = 1 : i64, operand = 0 : i64}
// CHECK-NEXT:        core.compute {begin = 0 : i64, end = 1 : i64}
// CHECK-NEXT:        core.send {bytes = 4 : i64, iter = 0 : i64, to = array<i64: 1, 1>}
// CHECK-NEXT:        core.recv {from = array<i64: 0, 0>, iter = 2 : i64, operand = 0 : i64}
// CHECK-NEXT:        core.recv {from = array<i64: 0, 0>, iter = 3 : i64, operand = 0 : i64}
// CHECK-NEXT:        core.compute {begin = 1 : i64, end = 2 : i64}
// CHECK-NEXT:        core.send {bytes = 4 : i64, iter = 1 : i64, to = array<i64: 1, 1>}
// CHECK-NEXT:      })
// CHECK:         core.tile {node = "flatten1", x = 1 : i64, y = 1 : i64}({
// CHECK:           core.program({
// CHECK-NEXT:        core.recv {from = array<i64: 1, 0>, iter = 0 : i64, operand = 0 : i64}
// CHECK-NEXT:        core.compute {begin = 0 : i64, end = 1 : i64}
// CHECK-NEXT:        core.send {bytes = 4 : i64, iter = 0 : i64, to = array<i64: 0, 1>}
// CHECK-NEXT:        core.recv {from = array<i64: 1, 0>, iter = 1 : i64, operand = 0 : i64}
// CHECK-NEXT:        core.compute {begin = 1 : i64, end = 2 : i64}
// CHECK-NEXT:        core.send {bytes = 4 : i64, iter = 1 : i64, to = array<i64: 0, 1>}
// CHECK-NEXT:      })
// CHECK:         core.tile {node = "matmul1", x = 0 : i64, y = 1 : i64}({
// CHECK:           core.program({
// CHECK-NEXT:        core.recv {from = array<i64: 1, 1>, iter = 0 : i64, operand = 0 : i64}
// CHECK-NEXT:        core.recv {from = array<i64: 1, 1>, iter = 1 : i64, operand = 0 : i64}
// CHECK-NEXT:        core.compute {begin = 0 : i64, end = 1 : i64}
// CHECK-NEXT:        core.send {bytes = 3 : i64, iter = 0 : i64, to = array<i64: -1, -1>}
// CHECK-NEXT:      })
//
// With conv1 split over two tiles (one output channel each), each sends its
// 4-byte half of every row to the pool, which receives both halves.
// SPLIT-LABEL: core.chip {cols = 16 : i64, function = @net
// SPLIT:         core.tile {node = "conv1", out_channels = array<i64: 0, 1>, x = 0 : i64, y = 0 : i64}({
// SPLIT:             core.compute {begin = 0 : i64, end = 1 : i64}
// SPLIT-NEXT:        core.send {bytes = 4 : i64, iter = 0 : i64, to = array<i64: 2, 0>}
// SPLIT:         core.tile {node = "conv1", out_channels = array<i64: 1, 2>, x = 1 : i64, y = 0 : i64}({
// SPLIT:             core.compute {begin = 0 : i64, end = 1 : i64}
// SPLIT-NEXT:        core.send {bytes = 4 : i64, iter = 0 : i64, to = array<i64: 2, 0>}
// SPLIT:         core.tile {node = "pool1", x = 2 : i64, y = 0 : i64}({
// SPLIT:           core.program({
// SPLIT-NEXT:        core.recv {from = array<i64: 0, 0>, iter = 0 : i64, operand = 0 : i64}
// SPLIT-NEXT:        core.recv {from = array<i64: 1, 0>, iter = 0 : i64, operand = 0 : i64}
// SPLIT-NEXT:        core.recv {from = array<i64: 0, 0>, iter = 1 : i64, operand = 0 : i64}
// SPLIT-NEXT:        core.recv {from = array<i64: 1, 0>, iter = 1 : i64, operand = 0 : i64}
// SPLIT-NEXT:        core.compute {begin = 0 : i64, end = 1 : i64}
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

// A residual block: the host sends each input row to the conv and to the add
// (its operand 1); the add's row y waits for conv row y and input row y.
// CHECK-LABEL: core.chip {cols = 2 : i64, function = @residual
// CHECK:         core.tile {node = "add1", x = 1 : i64, y = 0 : i64}({
// CHECK:           core.program({
// CHECK-NEXT:        core.recv {from = array<i64: 0, 0>, iter = 0 : i64, operand = 0 : i64}
// CHECK-NEXT:        core.recv {from = array<i64: -1, -1>, iter = 0 : i64, operand = 1 : i64}
// CHECK-NEXT:        core.compute {begin = 0 : i64, end = 1 : i64}
// CHECK-NEXT:        core.send {bytes = 32 : i64, iter = 0 : i64, to = array<i64: -1, -1>}
// CHECK-NEXT:        core.recv {from = array<i64: 0, 0>, iter = 1 : i64, operand = 0 : i64}
// CHECK-NEXT:        core.recv {from = array<i64: -1, -1>, iter = 1 : i64, operand = 1 : i64}
// CHECK-NEXT:        core.compute {begin = 1 : i64, end = 2 : i64}
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

// A 1x1 conv with stride 2 reads only the even rows of conv1: conv1 sends
// rows 0, 2 and 4 only, and computes its last row for nobody.
// CHECK-LABEL: core.chip {cols = 2 : i64, function = @skip
// CHECK-NEXT:    core.tile {node = "conv1", x = 0 : i64, y = 0 : i64}({
// CHECK:           core.program({
// CHECK-NEXT:        core.recv {from = array<i64: -1, -1>, iter = 0 : i64, operand = 0 : i64}
// CHECK-NEXT:        core.recv {from = array<i64: -1, -1>, iter = 1 : i64, operand = 0 : i64}
// CHECK-NEXT:        core.compute {begin = 0 : i64, end = 1 : i64}
// CHECK-NEXT:        core.send {bytes = 24 : i64, iter = 0 : i64, to = array<i64: 1, 0>}
// CHECK-NEXT:        core.recv {from = array<i64: -1, -1>, iter = 2 : i64, operand = 0 : i64}
// CHECK-NEXT:        core.compute {begin = 1 : i64, end = 2 : i64}
// CHECK-NEXT:        core.recv {from = array<i64: -1, -1>, iter = 3 : i64, operand = 0 : i64}
// CHECK-NEXT:        core.compute {begin = 2 : i64, end = 3 : i64}
// CHECK-NEXT:        core.send {bytes = 24 : i64, iter = 2 : i64, to = array<i64: 1, 0>}
// CHECK:             core.compute {begin = 5 : i64, end = 6 : i64}
// CHECK-NEXT:      })
// CHECK:         core.tile {node = "conv2", x = 1 : i64, y = 0 : i64}({
// CHECK:           core.program({
// CHECK-NEXT:        core.recv {from = array<i64: 0, 0>, iter = 0 : i64, operand = 0 : i64}
// CHECK-NEXT:        core.compute {begin = 0 : i64, end = 1 : i64}
// CHECK-NEXT:        core.send {bytes = 24 : i64, iter = 0 : i64, to = array<i64: -1, -1>}
// CHECK-NEXT:        core.recv {from = array<i64: 0, 0>, iter = 2 : i64, operand = 0 : i64}
// CHECK-NEXT:        core.compute {begin = 1 : i64, end = 2 : i64}
func.func @skip(%arg0: tensor<1x1x6x6xf32>) -> tensor<1x2x3x3xf32> {
  %0 = dataflow.node "conv1"(%arg0) {buffer_elements = array<i64: 18>, control = [#dataflow.map<"{ P[y] -> S[oy = -1 + y] : 0 < y <= 4; P[y = 5] -> S[oy = 5] }">], domain = #dataflow.set<"{ S[oy] : 0 <= oy <= 5 }">, earliest = [#dataflow.map<"{ S[oy] -> P[y = 5] : 4 <= oy <= 5; S[oy] -> P[y = 1 + oy] : 0 <= oy <= 3 }">], kind = "conv", macs = 324 : i64, params = {kernel = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>, weights = dense<5.000000e-01> : tensor<1x1x3x3xf32>}, reads = [#dataflow.map<"{ S[oy] -> In0[c = 0, iy, ix] : 0 <= oy <= 5 and iy >= -1 + oy and 0 <= iy <= 5 and iy <= 1 + oy and 0 <= ix <= 5 }">], writes = #dataflow.map<"{ S[oy] -> Out[k = 0, oy, ox] : 0 <= oy <= 5 and 0 <= ox <= 5 }">}({
  ^bb0(%arg1: tensor<1x1x6x6xf32>):
    %2 = graph.constant {value = dense<5.000000e-01> : tensor<1x1x3x3xf32>} : () -> tensor<1x1x3x3xf32>
    %3 = graph.conv %arg1, %2 {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x1x6x6xf32>, tensor<1x1x3x3xf32>) -> tensor<1x1x6x6xf32>
    dataflow.yield %3 : tensor<1x1x6x6xf32>
  }) : (tensor<1x1x6x6xf32>) -> tensor<1x1x6x6xf32>
  %1 = dataflow.node "conv2"(%0) {buffer_elements = array<i64: 3>, control = [#dataflow.map<"{ P[oy] -> S[oy'] : 0 <= oy <= 5 and -1 + oy <= 2oy' <= oy }">], domain = #dataflow.set<"{ S[oy] : 0 <= oy <= 2 }">, earliest = [#dataflow.map<"{ S[oy] -> P[oy' = 2oy] : 0 <= oy <= 2 }">], kind = "conv", macs = 18 : i64, params = {kernel = array<i64: 1, 1>, stride = array<i64: 2, 2>, weights = dense<5.000000e-01> : tensor<2x1x1x1xf32>}, reads = [#dataflow.map<"{ S[oy] -> In0[c = 0, iy = 2oy, ix] : (ix) mod 2 = 0 and 0 <= oy <= 2 and 0 <= ix <= 4 }">], writes = #dataflow.map<"{ S[oy] -> Out[k, oy, ox] : 0 <= oy <= 2 and 0 <= k <= 1 and 0 <= ox <= 2 }">}({
  ^bb0(%arg1: tensor<1x1x6x6xf32>):
    %2 = graph.constant {value = dense<5.000000e-01> : tensor<2x1x1x1xf32>} : () -> tensor<2x1x1x1xf32>
    %3 = graph.conv %arg1, %2 {strides = array<i64: 2, 2>} : (tensor<1x1x6x6xf32>, tensor<2x1x1x1xf32>) -> tensor<1x2x3x3xf32>
    dataflow.yield %3 : tensor<1x2x3x3xf32>
  }) : (tensor<1x1x6x6xf32>) -> tensor<1x2x3x3xf32>
  return %1 : tensor<1x2x3x3xf32>
}

// -----

// The same, one pixel per iteration, with the input arriving by rows: conv1
// pixel i is iteration 6y + x; between input rows and the pixels conv2 reads
// there is nothing to receive or send, so the computes merge.
// CHECK-LABEL: core.chip {cols = 2 : i64, function = @skip_pixels
// CHECK-NEXT:    core.tile {node = "conv1", x = 0 : i64, y = 0 : i64}({
// CHECK:           core.program({
// CHECK-NEXT:        core.recv {from = array<i64: -1, -1>, iter = 0 : i64, operand = 0 : i64}
// CHECK-NEXT:        core.recv {from = array<i64: -1, -1>, iter = 1 : i64, operand = 0 : i64}
// CHECK-NEXT:        core.compute {begin = 0 : i64, end = 1 : i64}
// CHECK-NEXT:        core.send {bytes = 4 : i64, iter = 0 : i64, to = array<i64: 1, 0>}
// CHECK-NEXT:        core.compute {begin = 1 : i64, end = 3 : i64}
// CHECK-NEXT:        core.send {bytes = 4 : i64, iter = 2 : i64, to = array<i64: 1, 0>}
// CHECK-NEXT:        core.compute {begin = 3 : i64, end = 5 : i64}
// CHECK-NEXT:        core.send {bytes = 4 : i64, iter = 4 : i64, to = array<i64: 1, 0>}
// CHECK-NEXT:        core.compute {begin = 5 : i64, end = 6 : i64}
// CHECK-NEXT:        core.recv {from = array<i64: -1, -1>, iter = 2 : i64, operand = 0 : i64}
// CHECK-NEXT:        core.compute {begin = 6 : i64, end = 12 : i64}
// CHECK-NEXT:        core.recv {from = array<i64: -1, -1>, iter = 3 : i64, operand = 0 : i64}
// CHECK-NEXT:        core.compute {begin = 12 : i64, end = 13 : i64}
func.func @skip_pixels(%arg0: tensor<1x1x6x6xf32>) -> tensor<1x2x3x3xf32> {
  %0 = dataflow.node "conv1"(%arg0) {buffer_elements = array<i64: 18>, control = [#dataflow.map<"{ P[y] -> S[oy = -1 + y, ox = 5] : 0 < y <= 4; P[y = 5] -> S[oy = 5, ox = 5] }">], domain = #dataflow.set<"{ S[oy, ox] : 0 <= oy <= 5 and 0 <= ox <= 5 }">, earliest = [#dataflow.map<"{ S[oy, ox] -> P[y = 5] : 4 <= oy <= 5 and 0 <= ox <= 5; S[oy, ox] -> P[y = 1 + oy] : 0 <= oy <= 3 and 0 <= ox <= 5 }">], kind = "conv", macs = 324 : i64, params = {kernel = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>, weights = dense<5.000000e-01> : tensor<1x1x3x3xf32>}, reads = [#dataflow.map<"{ S[oy, ox] -> In0[c = 0, iy, ix] : 0 <= oy <= 5 and 0 <= ox <= 5 and iy >= -1 + oy and 0 <= iy <= 5 and iy <= 1 + oy and ix >= -1 + ox and 0 <= ix <= 5 and ix <= 1 + ox }">], writes = #dataflow.map<"{ S[oy, ox] -> Out[k = 0, oy, ox] : 0 <= oy <= 5 and 0 <= ox <= 5 }">}({
  ^bb0(%arg1: tensor<1x1x6x6xf32>):
    %2 = graph.constant {value = dense<5.000000e-01> : tensor<1x1x3x3xf32>} : () -> tensor<1x1x3x3xf32>
    %3 = graph.conv %arg1, %2 {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x1x6x6xf32>, tensor<1x1x3x3xf32>) -> tensor<1x1x6x6xf32>
    dataflow.yield %3 : tensor<1x1x6x6xf32>
  }) : (tensor<1x1x6x6xf32>) -> tensor<1x1x6x6xf32>
  %1 = dataflow.node "conv2"(%0) {buffer_elements = array<i64: 1>, control = [#dataflow.map<"{ P[oy, ox] -> S[oy', ox'] : 2oy' = oy and 0 <= oy <= 4 and 0 <= ox <= 5 and -1 + ox <= 2ox' <= ox; P[oy, ox] -> S[oy', ox' = 2] : 2oy' = -1 + oy and 0 < oy <= 5 and 0 <= ox <= 5 }">], domain = #dataflow.set<"{ S[oy, ox] : 0 <= oy <= 2 and 0 <= ox <= 2 }">, earliest = [#dataflow.map<"{ S[oy, ox] -> P[oy' = 2oy, ox' = 2ox] : 0 <= oy <= 2 and 0 <= ox <= 2 }">], kind = "conv", macs = 18 : i64, params = {kernel = array<i64: 1, 1>, stride = array<i64: 2, 2>, weights = dense<5.000000e-01> : tensor<2x1x1x1xf32>}, reads = [#dataflow.map<"{ S[oy, ox] -> In0[c = 0, iy = 2oy, ix = 2ox] : 0 <= oy <= 2 and 0 <= ox <= 2 }">], writes = #dataflow.map<"{ S[oy, ox] -> Out[k, oy, ox] : 0 <= oy <= 2 and 0 <= ox <= 2 and 0 <= k <= 1 }">}({
  ^bb0(%arg1: tensor<1x1x6x6xf32>):
    %2 = graph.constant {value = dense<5.000000e-01> : tensor<2x1x1x1xf32>} : () -> tensor<2x1x1x1xf32>
    %3 = graph.conv %arg1, %2 {strides = array<i64: 2, 2>} : (tensor<1x1x6x6xf32>, tensor<2x1x1x1xf32>) -> tensor<1x2x3x3xf32>
    dataflow.yield %3 : tensor<1x2x3x3xf32>
  }) : (tensor<1x1x6x6xf32>) -> tensor<1x2x3x3xf32>
  return %1 : tensor<1x2x3x3xf32>
}
