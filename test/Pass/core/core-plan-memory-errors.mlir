// A network that does not fit: with 64 bytes of SRAM per core and at most one
// core per layer, core-plan-memory reports every tile that overflows, by how
// many bytes, with its buffers and what would make it fit. Tiles that fit
// get their addresses; the pass fails.
// RUN: nc-opt --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(target-attach{target=northpole},dataflow-to-core{sram-bytes=64},core-place{max-tiles-per-layer=1},core-schedule,core-plan-memory)' %s
// RUN: not nc-opt --split-input-file --pass-pipeline='builtin.module(target-attach{target=northpole},dataflow-to-core{sram-bytes=64},core-place{max-tiles-per-layer=1},core-schedule,core-plan-memory)' %s 2>&1 | FileCheck %s
// CHECK:      core-plan-memory-errors.mlir:[[#LINE:]]:8: error: 'core.tile' op core-plan-memory: tile (0, 0) of layer 'conv1' needs 94 bytes of SRAM but a core has 64: 30 bytes too many
// CHECK-NEXT:   %3 = dataflow.node "conv1"(%2)
// CHECK-NEXT:        ^
// CHECK-NEXT: core-plan-memory-errors.mlir:[[#LINE]]:8: note: its buffers: weights 18, bias 24, in0 12, out 8, acc 32
// CHECK:      core-plan-memory-errors.mlir:[[#LINE]]:8: note: to fit, split 'conv1' over at least 2 cores instead of 1 (core-place max-tiles-per-layer=2) or use a chip with at least 94 bytes of SRAM per core (target-desc, in nc-compile --target-desc)

// The int8 network: conv1 (94 bytes) would fit in two cores. The other
// layers fit.
func.func @net(%arg0: tensor<1x1x4x4xf32>) -> tensor<1x3xf32> {
  %0 = graph.constant {value = dense<5.000000e-02> : tensor<f32>} : () -> tensor<f32>
  %1 = graph.constant {value = dense<0> : tensor<i8>} : () -> tensor<i8>
  %2 = graph.quantize_linear %arg0, %0, %1 : (tensor<1x1x4x4xf32>, tensor<f32>, tensor<i8>) -> tensor<1x1x4x4xi8>
  // expected-note@+3 {{its buffers: weights 18, bias 24, in0 12, out 8, acc 32}}
  // expected-note@+2 {{to fit, split 'conv1' over at least 2 cores instead of 1 (core-place max-tiles-per-layer=2) or use a chip with at least 94 bytes of SRAM per core (target-desc, in nc-compile --target-desc)}}
  // expected-error@+1 {{'core.tile' op core-plan-memory: tile (0, 0) of layer 'conv1' needs 94 bytes of SRAM but a core has 64: 30 bytes too many}}
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

// A float residual block: the conv's and the add's input line buffers alone
// exceed the SRAM; splitting by output channels cannot help.
func.func @residual(%arg0: tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32> {
  // expected-note@+3 {{its buffers: weights 144, bias 8, in0 96, out 32}}
  // expected-note@+2 {{to fit, split 'conv1' by input channels (core-place input-channel-split, in nc-compile --input-channel-split), quantize the network to 8 bits (graph-quantize), or use a chip with at least 280 bytes of SRAM per core (target-desc, in nc-compile --target-desc); splitting 'conv1' by output channels cannot help: its input line buffers alone need 96 bytes (per-pixel iterations need smaller ones: graph-to-dataflow{granularity=pixel}, in nc-compile --granularity=pixel)}}
  // expected-error@+1 {{'core.tile' op core-plan-memory: tile (0, 0) of layer 'conv1' needs 280 bytes of SRAM but a core has 64: 216 bytes too many}}
  %0 = dataflow.node "conv1"(%arg0) {buffer_elements = array<i64: 24>, control = [#dataflow.map<"{ P[y] -> S[oy = -1 + y] : 0 < y <= 2; P[y = 3] -> S[oy = 3] }">], domain = #dataflow.set<"{ S[oy] : 0 <= oy <= 3 }">, earliest = [#dataflow.map<"{ S[oy] -> P[y = 3] : 2 <= oy <= 3; S[oy] -> P[y = 1 + oy] : 0 <= oy <= 1 }">], kind = "conv", macs = 576 : i64, params = {bias = dense<1.000000e-01> : tensor<2xf32>, kernel = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>, weights = dense<5.000000e-01> : tensor<2x2x3x3xf32>}, reads = [#dataflow.map<"{ S[oy] -> In0[c, iy, ix] : 0 <= oy <= 3 and 0 <= c <= 1 and iy >= -1 + oy and 0 <= iy <= 3 and iy <= 1 + oy and 0 <= ix <= 3 }">], writes = #dataflow.map<"{ S[oy] -> Out[k, oy, ox] : 0 <= oy <= 3 and 0 <= k <= 1 and 0 <= ox <= 3 }">}({
  ^bb0(%arg1: tensor<1x2x4x4xf32>):
    %2 = graph.constant {value = dense<5.000000e-01> : tensor<2x2x3x3xf32>} : () -> tensor<2x2x3x3xf32>
    %3 = graph.constant {value = dense<1.000000e-01> : tensor<2xf32>} : () -> tensor<2xf32>
    %4 = graph.conv %arg1, %2, %3 {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x2x4x4xf32>, tensor<2x2x3x3xf32>, tensor<2xf32>) -> tensor<1x2x4x4xf32>
    dataflow.yield %4 : tensor<1x2x4x4xf32>
  }) : (tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  // expected-note@+3 {{its buffers: in0 32, in1 64, out 32}}
  // expected-note@+2 {{to fit, quantize the network to 8 bits (graph-quantize) or use a chip with at least 128 bytes of SRAM per core (target-desc, in nc-compile --target-desc); splitting 'add1' by output channels cannot help: its input line buffers alone need 96 bytes (per-pixel iterations need smaller ones: graph-to-dataflow{granularity=pixel}, in nc-compile --granularity=pixel)}}
  // expected-error@+1 {{'core.tile' op core-plan-memory: tile (1, 0) of layer 'add1' needs 128 bytes of SRAM but a core has 64: 64 bytes too many}}
  %1 = dataflow.node "add1"(%0, %arg0) {buffer_elements = array<i64: 8, 16>, control = [#dataflow.map<"{ P[oy] -> S[y = oy] : 0 <= oy <= 3 }">, #dataflow.map<"{ P[y] -> S[y' = y] : 0 <= y <= 3 }">], domain = #dataflow.set<"{ S[y] : 0 <= y <= 3 }">, earliest = [#dataflow.map<"{ S[y] -> P[oy = y] : 0 <= y <= 3 }">, #dataflow.map<"{ S[y] -> P[y' = y] : 0 <= y <= 3 }">], kind = "eltwise", macs = 0 : i64, params = {op = "add"}, reads = [#dataflow.map<"{ S[y] -> In0[c, y, x] : 0 <= y <= 3 and 0 <= c <= 1 and 0 <= x <= 3 }">, #dataflow.map<"{ S[y] -> In1[c, y, x] : 0 <= y <= 3 and 0 <= c <= 1 and 0 <= x <= 3 }">], writes = #dataflow.map<"{ S[y] -> Out[c, y, x] : 0 <= y <= 3 and 0 <= c <= 1 and 0 <= x <= 3 }">}({
  ^bb0(%arg1: tensor<1x2x4x4xf32>, %arg2: tensor<1x2x4x4xf32>):
    %2 = graph.add %arg1, %arg2 : (tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
    dataflow.yield %2 : tensor<1x2x4x4xf32>
  }) : (tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  return %1 : tensor<1x2x4x4xf32>
}

// -----

// A float conv that even one output channel per core would not fit.
func.func @wide(%arg0: tensor<1x1x4x4xf32>) -> tensor<1x96xf32> {
  // expected-note@+3 {{its buffers: weights 216, in0 48, out 96}}
  // expected-note@+2 {{to fit, quantize the network to 8 bits (graph-quantize) or use a chip with at least 360 bytes of SRAM per core (target-desc, in nc-compile --target-desc); splitting 'conv1' by output channels cannot help: one channel per core needs 100 bytes}}
  // expected-error@+1 {{'core.tile' op core-plan-memory: tile (0, 0) of layer 'conv1' needs 360 bytes of SRAM but a core has 64: 296 bytes too many}}
  %0 = dataflow.node "conv1"(%arg0) {buffer_elements = array<i64: 12>, control = [#dataflow.map<"{ P[y] -> S[oy = -1 + y] : 0 < y <= 2; P[y = 3] -> S[oy = 3] }">], domain = #dataflow.set<"{ S[oy] : 0 <= oy <= 3 }">, earliest = [#dataflow.map<"{ S[oy] -> P[y = 3] : 2 <= oy <= 3; S[oy] -> P[y = 1 + oy] : 0 <= oy <= 1 }">], kind = "conv", macs = 864 : i64, params = {kernel = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>, weights = dense<5.000000e-01> : tensor<6x1x3x3xf32>}, reads = [#dataflow.map<"{ S[oy] -> In0[c = 0, iy, ix] : 0 <= oy <= 3 and iy >= -1 + oy and 0 <= iy <= 3 and iy <= 1 + oy and 0 <= ix <= 3 }">], writes = #dataflow.map<"{ S[oy] -> Out[k, oy, ox] : 0 <= oy <= 3 and 0 <= k <= 5 and 0 <= ox <= 3 }">}({
  ^bb0(%arg1: tensor<1x1x4x4xf32>):
    %2 = graph.constant {value = dense<5.000000e-01> : tensor<6x1x3x3xf32>} : () -> tensor<6x1x3x3xf32>
    %3 = graph.conv %arg1, %2 {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x1x4x4xf32>, tensor<6x1x3x3xf32>) -> tensor<1x6x4x4xf32>
    dataflow.yield %3 : tensor<1x6x4x4xf32>
  }) : (tensor<1x1x4x4xf32>) -> tensor<1x6x4x4xf32>
  // expected-note@+3 {{its buffers: in0 96, out 96}}
  // expected-note@+2 {{to fit, quantize the network to 8 bits (graph-quantize) or use a chip with at least 192 bytes of SRAM per core (target-desc, in nc-compile --target-desc); splitting 'flatten1' by output channels cannot help: its input line buffers alone need 96 bytes (per-pixel iterations need smaller ones: graph-to-dataflow{granularity=pixel}, in nc-compile --granularity=pixel)}}
  // expected-error@+1 {{'core.tile' op core-plan-memory: tile (1, 0) of layer 'flatten1' needs 192 bytes of SRAM but a core has 64: 128 bytes too many}}
  %1 = dataflow.node "flatten1"(%0) {buffer_elements = array<i64: 24>, control = [#dataflow.map<"{ P[oy] -> S[y = oy] : 0 <= oy <= 3 }">], domain = #dataflow.set<"{ S[y] : 0 <= y <= 3 }">, earliest = [#dataflow.map<"{ S[y] -> P[oy = y] : 0 <= y <= 3 }">], kind = "copy", macs = 0 : i64, reads = [#dataflow.map<"{ S[y] -> In0[c, y, x] : 0 <= y <= 3 and 0 <= c <= 5 and 0 <= x <= 3 }">], writes = #dataflow.map<"{ S[y] -> Out[i] : 0 <= y <= 3 and -12 + 4y <= i <= 83 + 4y and 16*floor((-4 - 4y + i)/16) <= -16 - 4y + i }">}({
  ^bb0(%arg1: tensor<1x6x4x4xf32>):
    %2 = graph.flatten %arg1 : (tensor<1x6x4x4xf32>) -> tensor<1x96xf32>
    dataflow.yield %2 : tensor<1x96xf32>
  }) : (tensor<1x6x4x4xf32>) -> tensor<1x96xf32>
  return %1 : tensor<1x96xf32>
}
