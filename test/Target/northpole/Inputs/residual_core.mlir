// residual_core.mlir: a residual block at the core level, the test input of
// the simulator's host head-of-line deadlock (host-deadlock.test). Written by
// nc-compile --emit=core from an ONNX model x -> Conv 5x5 (2 -> 2 channels,
// pads 2) -> Add(conv, x) at 1x2x8x8 (random weights), with --balance=false
// --replicate=false --multicast=false --colocate=0 --spread-links=0
// --host-buffer-frames=0: two tiles, conv1 at (0, 1) and elementwise1 at
// (0, 0), both fed by the host row by row (16 bytes a row). The host sends
// step by step, conv1 before elementwise1 (plan_host's order); conv1's first
// output row needs input rows 0..2, elementwise1's first row needs conv1's
// first row and input row 0, so elementwise1's host buffer (in1) must hold
// the rows the host sends it before conv1's row 2: two (32 bytes; the
// schedule gives it 48).
module attributes {nc.chip = #core.desc<name = "northpole", rows = 16, cols = 16, sram_bytes = 786432, ops_per_cycle = array<i64: 2, 8192, 4, 4096, 8, 2048>, hop_latency_cycles = 1, link_bytes_per_cycle = 32, clock_hz = 4.0e+08>, nc.target = "northpole"} {
  func.func @res(%arg0: tensor<1x2x8x8xf32>) -> tensor<1x2x8x8xf32> attributes {dataflow.io = {inputs = [{argument = 0 : i64, bits = 8 : i64, name = "x", scale = 0.021831439808011055 : f64, zero_point = 0 : i64}], outputs = [{bits = 8 : i64, name = "output0", result = 0 : i64, scale = 0.04964863508939743 : f64, zero_point = 0 : i64}]}} {
    %0 = graph.constant {value = dense<0.02183144> : tensor<f32>} : () -> tensor<f32>
    %1 = graph.constant {value = dense<0> : tensor<i8>} : () -> tensor<i8>
    %2 = graph.quantize_linear %arg0, %0, %1 : (tensor<1x2x8x8xf32>, tensor<f32>, tensor<i8>) -> tensor<1x2x8x8xi8>
    %3 = dataflow.node "conv1"(%2) {buffer_elements = array<i64: 80>, control = [#dataflow.map<"{ P[y] -> S[oy = -2 + y] : 2 <= y <= 6; P[y = 7] -> S[oy = 7] }">], domain = #dataflow.set<"{ S[oy] : 0 <= oy <= 7 }">, earliest = [#dataflow.map<"{ S[oy] -> P[y = 7] : 5 <= oy <= 7; S[oy] -> P[y = 2 + oy] : 0 <= oy <= 4 }">], kind = "conv", macs = 6400 : i64, params = {clamp_max = 127 : i64, clamp_min = -128 : i64, kernel = array<i64: 5, 5>, multiplier = array<i64: 1343068826, 1467008018>, pads = array<i64: 2, 2, 2, 2>, shift = array<i64: 39, 39>, weights = dense_resource<w_q> : tensor<2x2x5x5xi8>}, reads = [#dataflow.map<"{ S[oy] -> In0[c, iy, ix] : 0 <= oy <= 7 and 0 <= c <= 1 and iy >= -2 + oy and 0 <= iy <= 7 and iy <= 2 + oy and 0 <= ix <= 7 }">], writes = #dataflow.map<"{ S[oy] -> Out[k, oy, ox] : 0 <= oy <= 7 and 0 <= k <= 1 and 0 <= ox <= 7 }">}({
    ^bb0(%arg1: tensor<1x2x8x8xi8>):
      %7 = graph.constant {value = dense_resource<w_q> : tensor<2x2x5x5xi8>} : () -> tensor<2x2x5x5xi8>
      %8 = graph.conv_integer %arg1, %7 {pads = array<i64: 2, 2, 2, 2>} : (tensor<1x2x8x8xi8>, tensor<2x2x5x5xi8>) -> tensor<1x2x8x8xi32>
      %9 = graph.requantize %8 {axis = 1 : i64, multiplier = array<i64: 1343068826, 1467008018>, output_zero_point = 0 : i64, shift = array<i64: 39, 39>} : (tensor<1x2x8x8xi32>) -> tensor<1x2x8x8xi8>
      dataflow.yield %9 : tensor<1x2x8x8xi8>
    }) : (tensor<1x2x8x8xi8>) -> tensor<1x2x8x8xi8>
    %4 = dataflow.node "elementwise1"(%3, %2) {buffer_elements = array<i64: 16, 48>, control = [#dataflow.map<"{ P[oy] -> S[y = oy] : 0 <= oy <= 7 }">, #dataflow.map<"{ P[y] -> S[y' = y] : 0 <= y <= 7 }">], domain = #dataflow.set<"{ S[y] : 0 <= y <= 7 }">, earliest = [#dataflow.map<"{ S[y] -> P[oy = y] : 0 <= y <= 7 }">, #dataflow.map<"{ S[y] -> P[y' = y] : 0 <= y <= 7 }">], kind = "eltwise", macs = 0 : i64, params = {clamp_max = 127 : i64, clamp_min = -128 : i64, input_multiplier = array<i64: 1482041145, 1888578001>, input_shift = array<i64: 31, 32>, op = "add"}, reads = [#dataflow.map<"{ S[y] -> In0[c, y, x] : 0 <= y <= 7 and 0 <= c <= 1 and 0 <= x <= 7 }">, #dataflow.map<"{ S[y] -> In1[c, y, x] : 0 <= y <= 7 and 0 <= c <= 1 and 0 <= x <= 7 }">], writes = #dataflow.map<"{ S[y] -> Out[c, y, x] : 0 <= y <= 7 and 0 <= c <= 1 and 0 <= x <= 7 }">}({
    ^bb0(%arg1: tensor<1x2x8x8xi8>, %arg2: tensor<1x2x8x8xi8>):
      %7 = graph.add_integer %arg1, %arg2 {multiplier = array<i64: 1482041145, 1888578001>, output_zero_point = 0 : i64, shift = array<i64: 31, 32>} : (tensor<1x2x8x8xi8>, tensor<1x2x8x8xi8>) -> tensor<1x2x8x8xi8>
      dataflow.yield %7 : tensor<1x2x8x8xi8>
    }) : (tensor<1x2x8x8xi8>, tensor<1x2x8x8xi8>) -> tensor<1x2x8x8xi8>
    %5 = graph.constant {value = dense<0.049648635> : tensor<f32>} : () -> tensor<f32>
    %6 = graph.dequantize_linear %4, %5 : (tensor<1x2x8x8xi8>, tensor<f32>) -> tensor<1x2x8x8xf32>
    return %6 : tensor<1x2x8x8xf32>
  }
  core.chip {cols = 16 : i64, function = @res, rows = 16 : i64, sram_bytes = 786432 : i64, target = "northpole"}({
    core.tile {node = "conv1", x = 0 : i64, y = 1 : i64}({
      core.buffer {bytes = 100 : i64, kind = "weights", name = "weights", offset = 0 : i64}
      core.buffer {bytes = 16 : i64, kind = "bias", name = "bias", offset = 100 : i64}
      core.buffer {bytes = 80 : i64, kind = "input", name = "in0", offset = 116 : i64}
      core.buffer {bytes = 16 : i64, kind = "output", name = "out", offset = 196 : i64}
      core.buffer {bytes = 64 : i64, kind = "scratch", name = "acc", offset = 212 : i64}
      core.program({
        core.recv {from = array<i64: -1, -1>, iter = 0 : i64, operand = 0 : i64}
        core.recv {from = array<i64: -1, -1>, iter = 1 : i64, operand = 0 : i64}
        core.recv {from = array<i64: -1, -1>, iter = 2 : i64, operand = 0 : i64}
        core.compute {begin = 0 : i64, end = 1 : i64}
        core.send {bytes = 16 : i64, iter = 0 : i64, to = array<i64: 0, 0>}
        core.recv {from = array<i64: -1, -1>, iter = 3 : i64, operand = 0 : i64}
        core.compute {begin = 1 : i64, end = 2 : i64}
        core.send {bytes = 16 : i64, iter = 1 : i64, to = array<i64: 0, 0>}
        core.recv {from = array<i64: -1, -1>, iter = 4 : i64, operand = 0 : i64}
        core.compute {begin = 2 : i64, end = 3 : i64}
        core.send {bytes = 16 : i64, iter = 2 : i64, to = array<i64: 0, 0>}
        core.recv {from = array<i64: -1, -1>, iter = 5 : i64, operand = 0 : i64}
        core.compute {begin = 3 : i64, end = 4 : i64}
        core.send {bytes = 16 : i64, iter = 3 : i64, to = array<i64: 0, 0>}
        core.recv {from = array<i64: -1, -1>, iter = 6 : i64, operand = 0 : i64}
        core.compute {begin = 4 : i64, end = 5 : i64}
        core.send {bytes = 16 : i64, iter = 4 : i64, to = array<i64: 0, 0>}
        core.recv {from = array<i64: -1, -1>, iter = 7 : i64, operand = 0 : i64}
        core.compute {begin = 5 : i64, end = 6 : i64}
        core.send {bytes = 16 : i64, iter = 5 : i64, to = array<i64: 0, 0>}
        core.compute {begin = 6 : i64, end = 7 : i64}
        core.send {bytes = 16 : i64, iter = 6 : i64, to = array<i64: 0, 0>}
        core.compute {begin = 7 : i64, end = 8 : i64}
        core.send {bytes = 16 : i64, iter = 7 : i64, to = array<i64: 0, 0>}
      })
    })
    core.tile {node = "elementwise1", x = 0 : i64, y = 0 : i64}({
      core.buffer {bytes = 16 : i64, kind = "input", name = "in0", offset = 0 : i64}
      core.buffer {bytes = 48 : i64, kind = "input", name = "in1", offset = 16 : i64}
      core.buffer {bytes = 16 : i64, kind = "output", name = "out", offset = 64 : i64}
      core.program({
        core.recv {from = array<i64: 0, 1>, iter = 0 : i64, operand = 0 : i64}
        core.recv {from = array<i64: -1, -1>, iter = 0 : i64, operand = 1 : i64}
        core.compute {begin = 0 : i64, end = 1 : i64}
        core.send {bytes = 16 : i64, iter = 0 : i64, to = array<i64: -1, -1>}
        core.recv {from = array<i64: 0, 1>, iter = 1 : i64, operand = 0 : i64}
        core.recv {from = array<i64: -1, -1>, iter = 1 : i64, operand = 1 : i64}
        core.compute {begin = 1 : i64, end = 2 : i64}
        core.send {bytes = 16 : i64, iter = 1 : i64, to = array<i64: -1, -1>}
        core.recv {from = array<i64: 0, 1>, iter = 2 : i64, operand = 0 : i64}
        core.recv {from = array<i64: -1, -1>, iter = 2 : i64, operand = 1 : i64}
        core.compute {begin = 2 : i64, end = 3 : i64}
        core.send {bytes = 16 : i64, iter = 2 : i64, to = array<i64: -1, -1>}
        core.recv {from = array<i64: 0, 1>, iter = 3 : i64, operand = 0 : i64}
        core.recv {from = array<i64: -1, -1>, iter = 3 : i64, operand = 1 : i64}
        core.compute {begin = 3 : i64, end = 4 : i64}
        core.send {bytes = 16 : i64, iter = 3 : i64, to = array<i64: -1, -1>}
        core.recv {from = array<i64: 0, 1>, iter = 4 : i64, operand = 0 : i64}
        core.recv {from = array<i64: -1, -1>, iter = 4 : i64, operand = 1 : i64}
        core.compute {begin = 4 : i64, end = 5 : i64}
        core.send {bytes = 16 : i64, iter = 4 : i64, to = array<i64: -1, -1>}
        core.recv {from = array<i64: 0, 1>, iter = 5 : i64, operand = 0 : i64}
        core.recv {from = array<i64: -1, -1>, iter = 5 : i64, operand = 1 : i64}
        core.compute {begin = 5 : i64, end = 6 : i64}
        core.send {bytes = 16 : i64, iter = 5 : i64, to = array<i64: -1, -1>}
        core.recv {from = array<i64: 0, 1>, iter = 6 : i64, operand = 0 : i64}
        core.recv {from = array<i64: -1, -1>, iter = 6 : i64, operand = 1 : i64}
        core.compute {begin = 6 : i64, end = 7 : i64}
        core.send {bytes = 16 : i64, iter = 6 : i64, to = array<i64: -1, -1>}
        core.recv {from = array<i64: 0, 1>, iter = 7 : i64, operand = 0 : i64}
        core.recv {from = array<i64: -1, -1>, iter = 7 : i64, operand = 1 : i64}
        core.compute {begin = 7 : i64, end = 8 : i64}
        core.send {bytes = 16 : i64, iter = 7 : i64, to = array<i64: -1, -1>}
      })
    })
  }) : () -> ()
}

{-#
  dialect_resources: {
    builtin: {
      w_q: "0x01000000EAFD9156A2D41ABFC9D11D7802C61CE1FF3DD900D2F80DCCEEF4DFC2B6F8F274810613471AD4001CF0289F5A4DEE2003D50530EEEEFC153DE2180AA7ECFAFE109F02E0BB1923E128EE03CC4C81FC219FF7FC273CEDBE413AEA11121B0A43AD3212F63890"
    }
  }
#-}
