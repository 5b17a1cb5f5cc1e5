// dataflow-deps: for every channel, the producer iteration each consumer
// iteration waits for (earliest), the last consumer iteration each producer
// iteration allows (control) and the channel's buffer, as printed by isl.
// The first case is the worked example of docs/dataflow-dependences.md.
// RUN: nc-opt --split-input-file --graph-to-dataflow=granularity=pixel --dataflow-deps=input-granularity=pixel %s | FileCheck %s --check-prefix=PIXEL
// RUN: nc-opt --split-input-file --graph-to-dataflow --dataflow-deps %s | FileCheck %s --check-prefix=ROW
// RUN: nc-opt --split-input-file --graph-to-dataflow --dataflow-deps --mlir-pass-statistics %s 2>&1 >/dev/null | FileCheck %s --check-prefix=STATS
// STATS:      DataflowDeps
// STATS-NEXT: (S) 36 buffer-elements - Sum of the channels' minimum buffers, in elements
// STATS-NEXT: (S)  1 num-channels    - Number of channels analysed

// A 3x3 "same" conv on a 2-channel 6x6 input. Per pixel, the line buffer is
// C * ((k - 1) * W + k) = 2 * (2 * 6 + 3) = 30 elements; the last output row
// waits for the end of the image (the prefix max). Per row: C * k * W = 36.
// PIXEL-LABEL: func.func @line_buffer
// PIXEL: dataflow.node "conv1"(%arg0) {buffer_elements = array<i64: 30>,
// PIXEL-SAME: control = [#dataflow.map<"{ P[y, x] -> S[oy = -1 + y, ox = -1 + x] : 0 < y <= 5 and 0 < x <= 4; P[y, x = 5] -> S[oy = -1 + y, ox = 5] : 0 < y <= 4; P[y, x = 0] -> S[oy = -2 + y, ox = 5] : 2 <= y <= 5; P[y = 5, x = 5] -> S[oy = 5, ox = 5] }">]
// PIXEL-SAME: earliest = [#dataflow.map<"{ S[oy, ox] -> P[y = 5, x = 5] : 4 <= oy <= 5 and 4 <= ox <= 5; S[oy, ox] -> P[y = 1 + oy, x = 5] : 0 <= oy <= 3 and 4 <= ox <= 5; S[oy, ox] -> P[y = 1 + oy, x = 1 + ox] : 0 <= oy <= 4 and 0 <= ox <= 3; S[oy = 5, ox] -> P[y = 5, x = 5] : 0 <= ox <= 3 }">]
// ROW-LABEL: func.func @line_buffer
// ROW: dataflow.node "conv1"(%arg0) {buffer_elements = array<i64: 36>,
// ROW-SAME: control = [#dataflow.map<"{ P[y] -> S[oy = -1 + y] : 0 < y <= 4; P[y = 5] -> S[oy = 5] }">]
// ROW-SAME: earliest = [#dataflow.map<"{ S[oy] -> P[y = 5] : 4 <= oy <= 5; S[oy] -> P[y = 1 + oy] : 0 <= oy <= 3 }">]
func.func @line_buffer(%x: tensor<1x2x6x6xf32>) -> tensor<1x4x6x6xf32> {
  %w = graph.constant {value = dense<0.5> : tensor<4x2x3x3xf32>} : () -> tensor<4x2x3x3xf32>
  %c = graph.conv %x, %w {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x2x6x6xf32>, tensor<4x2x3x3xf32>) -> tensor<1x4x6x6xf32>
  return %c : tensor<1x4x6x6xf32>
}

// -----

// conv -> 2x2/2 max pool -> flatten -> gemm: the pool's row oy waits for
// conv row 2oy + 1 and holds two rows; the gemm runs once, after the last
// flatten iteration, and buffers the whole vector.
// ROW-LABEL: func.func @chain
// ROW: dataflow.node "pool1"(%{{.*}}) {buffer_elements = array<i64: 24>, control = [#dataflow.map<"{ P[oy] -> S[oy'] : 0 < oy <= 3 and -2 + oy <= 2oy' < oy }">], domain = {{.*}}, earliest = [#dataflow.map<"{ S[oy] -> P[oy' = 1 + 2oy] : 0 <= oy <= 1 }">]
// ROW: dataflow.node "flatten1"(%{{.*}}) {buffer_elements = array<i64: 6>, control = [#dataflow.map<"{ P[oy] -> S[y = oy] : 0 <= oy <= 1 }">], domain = {{.*}}, earliest = [#dataflow.map<"{ S[y] -> P[oy = y] : 0 <= y <= 1 }">]
// ROW: dataflow.node "matmul1"(%{{.*}}) {buffer_elements = array<i64: 12>, control = [#dataflow.map<"{ P[y = 1] -> S[] }">], domain = #dataflow.set<"{ S[] }">, earliest = [#dataflow.map<"{ S[] -> P[y = 1] }">]
// PIXEL-LABEL: func.func @chain
// PIXEL: dataflow.node "matmul1"(%{{.*}}) {buffer_elements = array<i64: 12>, control = [#dataflow.map<"{ P[y = 1, x = 1] -> S[] }">], domain = #dataflow.set<"{ S[] }">, earliest = [#dataflow.map<"{ S[] -> P[y = 1, x = 1] }">]
func.func @chain(%x: tensor<1x1x4x4xf32>) -> tensor<1x2xf32> {
  %w = graph.constant {value = dense<0.5> : tensor<3x1x3x3xf32>} : () -> tensor<3x1x3x3xf32>
  %c = graph.conv %x, %w {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x1x4x4xf32>, tensor<3x1x3x3xf32>) -> tensor<1x3x4x4xf32>
  %p = graph.max_pool %c {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x3x4x4xf32>) -> tensor<1x3x2x2xf32>
  %f = graph.flatten %p : (tensor<1x3x2x2xf32>) -> tensor<1x12xf32>
  %v = graph.constant {value = dense<0.5> : tensor<12x2xf32>} : () -> tensor<12x2xf32>
  %m = graph.matmul %f, %v : (tensor<1x12xf32>, tensor<12x2xf32>) -> tensor<1x2xf32>
  return %m : tensor<1x2xf32>
}

// -----

// A residual add waits for the conv path and for the skip connection; the
// input arrives once for both. The conv's row y needs input row y + 1, so
// the skip channel buffers two input rows (one would do for the channel
// alone) and the conv channel one row.
// ROW-LABEL: func.func @residual
// ROW: dataflow.node "add1"(%{{.*}}, %arg0) {buffer_elements = array<i64: 12, 24>,
// ROW-SAME: control = [#dataflow.map<"{ P[oy] -> S[y = oy] : 0 <= oy <= 5 }">, #dataflow.map<"{ P[y] -> S[y' = y] : 0 <= y <= 5 }">]
// ROW-SAME: earliest = [#dataflow.map<"{ S[y] -> P[oy = y] : 0 <= y <= 5 }">, #dataflow.map<"{ S[y] -> P[y' = y] : 0 <= y <= 5 }">]
// PIXEL-LABEL: func.func @residual
// PIXEL: dataflow.node "add1"(%{{.*}}, %arg0) {buffer_elements = array<i64: 2, 16>,
func.func @residual(%x: tensor<1x2x6x6xf32>) -> tensor<1x2x6x6xf32> {
  %w = graph.constant {value = dense<0.5> : tensor<2x2x3x3xf32>} : () -> tensor<2x2x3x3xf32>
  %c = graph.conv %x, %w {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x2x6x6xf32>, tensor<2x2x3x3xf32>) -> tensor<1x2x6x6xf32>
  %a = graph.add %c, %x : (tensor<1x2x6x6xf32>, tensor<1x2x6x6xf32>) -> tensor<1x2x6x6xf32>
  return %a : tensor<1x2x6x6xf32>
}

// -----

// Padding 3 around a 3x3 window: the first and last output rows read only
// padding. The first ones are free (no earliest; control lets them run at
// once); the last ones wait for the end of the input (the prefix max).
// ROW-LABEL: func.func @free_iterations
// ROW: dataflow.node "conv1"(%arg0) {buffer_elements = array<i64: 12>, control = [#dataflow.map<"{ P[y] -> S[oy = 1 + y] : 0 <= y <= 2; P[y = 3] -> S[oy = 7] }">], domain = #dataflow.set<"{ S[oy] : 0 <= oy <= 7 }">, earliest = [#dataflow.map<"{ S[oy] -> P[y = 3] : 4 <= oy <= 7; S[oy] -> P[y = -1 + oy] : 0 < oy <= 3 }">]
func.func @free_iterations(%x: tensor<1x1x4x4xf32>) -> tensor<1x1x8x8xf32> {
  %w = graph.constant {value = dense<0.5> : tensor<1x1x3x3xf32>} : () -> tensor<1x1x3x3xf32>
  %c = graph.conv %x, %w {pads = array<i64: 3, 3, 3, 3>} : (tensor<1x1x4x4xf32>, tensor<1x1x3x3xf32>) -> tensor<1x1x8x8xf32>
  return %c : tensor<1x1x8x8xf32>
}

// -----

// Values computed outside the nodes (the host's quantize_linear) are input
// sources like function arguments.
// ROW-LABEL: func.func @quantized_input
// ROW: %[[Q:.*]] = graph.quantize_linear
// ROW: dataflow.node "conv1"(%[[Q]]) {buffer_elements = array<i64: 12>, control = [#dataflow.map<"{ P[y] -> S[oy = -1 + y] : 0 < y <= 2; P[y = 3] -> S[oy = 3] }">]
func.func @quantized_input(%x: tensor<1x1x4x4xf32>) -> tensor<1x2x4x4xi32> {
  %s = graph.constant {value = dense<0.05> : tensor<f32>} : () -> tensor<f32>
  %z = graph.constant {value = dense<0> : tensor<i8>} : () -> tensor<i8>
  %q = graph.quantize_linear %x, %s, %z : (tensor<1x1x4x4xf32>, tensor<f32>, tensor<i8>) -> tensor<1x1x4x4xi8>
  %w = graph.constant {value = dense<3> : tensor<2x1x3x3xi8>} : () -> tensor<2x1x3x3xi8>
  %c = graph.conv_integer %q, %w {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x1x4x4xi8>, tensor<2x1x3x3xi8>) -> tensor<1x2x4x4xi32>
  return %c : tensor<1x2x4x4xi32>
}
