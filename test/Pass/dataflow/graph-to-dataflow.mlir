// graph-to-dataflow groups each layer's graph ops (with their constants)
// into a dataflow.node and describes it to isl: one iteration per output
// row (default) or pixel, reads clipped to the input (padding is never
// read), writes of all channels.
// RUN: nc-opt --split-input-file --graph-to-dataflow %s | FileCheck %s
// RUN: nc-opt --split-input-file --graph-to-dataflow=granularity=pixel %s | FileCheck %s --check-prefix=PIXEL
// RUN: nc-opt --split-input-file --graph-to-dataflow --mlir-pass-statistics %s 2>&1 >/dev/null | FileCheck %s --check-prefix=STATS
// STATS:      GraphToDataflow
// STATS-NEXT: (S) 1 num-described
// STATS-NEXT: (S) 1 num-nodes       - Number of dataflow nodes created
// STATS-NEXT: (S) 5 num-ops-grouped - Number of graph ops moved into nodes (constants included)
// STATS:      GraphToDataflow
// STATS-NEXT: (S) 3 num-described
// STATS-NEXT: (S) 3 num-nodes

// A conv, its bias add and relu are one node; the weights and the bias go
// into its region. Stride 2 and pad 1: row oy reads input rows 2oy-1..2oy+1.
// CHECK-LABEL: func.func @conv_bias_relu
// CHECK:      %[[N:.*]] = dataflow.node "conv1"(%arg0) {domain = #dataflow.set<"{ S[oy] : 0 <= oy <= 4 }">, kind = "conv", macs = 1350 : i64, params = {bias = dense<1.000000e-01> : tensor<3xf32>, clamp_min = 0 : i64, kernel = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>, stride = array<i64: 2, 2>, weights = dense<5.000000e-01> : tensor<3x2x3x3xf32>}, reads = [#dataflow.map<"{ S[oy] -> In0[c, iy, ix] : 0 <= oy <= 4 and 0 <= c <= 1 and iy >= -1 + 2oy and 0 <= iy <= 8 and iy <= 1 + 2oy and 0 <= ix <= 8 }">], writes = #dataflow.map<"{ S[oy] -> Out[k, oy, ox] : 0 <= oy <= 4 and 0 <= k <= 2 and 0 <= ox <= 4 }">}({
// CHECK-NEXT: ^bb0(%[[X:.*]]: tensor<1x2x9x9xf32>):
// CHECK-NEXT:   %[[W:.*]] = graph.constant {value = dense<5.000000e-01> : tensor<3x2x3x3xf32>}
// CHECK-NEXT:   %[[B:.*]] = graph.constant {value = dense<1.000000e-01> : tensor<1x3x1x1xf32>}
// CHECK-NEXT:   %[[C:.*]] = graph.conv %[[X]], %[[W]] {pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>}
// CHECK-NEXT:   %[[D:.*]] = graph.add %[[C]], %[[B]]
// CHECK-NEXT:   %[[R:.*]] = graph.relu %[[D]]
// CHECK-NEXT:   dataflow.yield %[[R]] : tensor<1x3x5x5xf32>
// CHECK-NEXT: }) : (tensor<1x2x9x9xf32>) -> tensor<1x3x5x5xf32>
// CHECK-NEXT: return %[[N]]
// PIXEL-LABEL: func.func @conv_bias_relu
// PIXEL: domain = #dataflow.set<"{ S[oy, ox] : 0 <= oy <= 4 and 0 <= ox <= 4 }">
// PIXEL-SAME: reads = [#dataflow.map<"{ S[oy, ox] -> In0[c, iy, ix] : 0 <= oy <= 4 and 0 <= ox <= 4 and 0 <= c <= 1 and iy >= -1 + 2oy and 0 <= iy <= 8 and iy <= 1 + 2oy and ix >= -1 + 2ox and 0 <= ix <= 8 and ix <= 1 + 2ox }">]
// PIXEL-SAME: writes = #dataflow.map<"{ S[oy, ox] -> Out[k, oy, ox] : 0 <= oy <= 4 and 0 <= ox <= 4 and 0 <= k <= 2 }">
func.func @conv_bias_relu(%x: tensor<1x2x9x9xf32>) -> tensor<1x3x5x5xf32> {
  %w = graph.constant {value = dense<0.5> : tensor<3x2x3x3xf32>} : () -> tensor<3x2x3x3xf32>
  %b = graph.constant {value = dense<0.1> : tensor<1x3x1x1xf32>} : () -> tensor<1x3x1x1xf32>
  %c = graph.conv %x, %w {strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x2x9x9xf32>, tensor<3x2x3x3xf32>) -> tensor<1x3x5x5xf32>
  %d = graph.add %c, %b : (tensor<1x3x5x5xf32>, tensor<1x3x1x1xf32>) -> tensor<1x3x5x5xf32>
  %r = graph.relu %d : (tensor<1x3x5x5xf32>) -> tensor<1x3x5x5xf32>
  return %r : tensor<1x3x5x5xf32>
}

// -----

// A residual block: the conv's result and the block's input are the add's
// In0 and In1; the relu after the add joins it. A weight used by two convs
// is copied into both nodes. Dilation 2 with pad 2: rows oy-2, oy, oy+2.
// CHECK-LABEL: func.func @residual
// CHECK:      %[[C1:.*]] = dataflow.node "conv1"(%arg0) {domain = #dataflow.set<"{ S[oy] : 0 <= oy <= 5 }">, kind = "conv", macs = 5184 : i64, params = {dilation = array<i64: 2, 2>, kernel = array<i64: 3, 3>, pads = array<i64: 2, 2, 2, 2>, weights = dense<5.000000e-01> : tensor<4x4x3x3xf32>}, reads = [#dataflow.map<"{ S[oy] -> In0[c, iy, ix] : (oy + iy) mod 2 = 0 and 0 <= oy <= 5 and 0 <= c <= 3 and iy >= -2 + oy and 0 <= iy <= 5 and iy <= 2 + oy and 0 <= ix <= 5 }">]
// CHECK:        graph.constant {value = dense<5.000000e-01> : tensor<4x4x3x3xf32>}
// CHECK:      %[[C2:.*]] = dataflow.node "conv2"(%[[C1]])
// CHECK:        graph.constant {value = dense<5.000000e-01> : tensor<4x4x3x3xf32>}
// CHECK:      %[[A:.*]] = dataflow.node "add1"(%[[C2]], %arg0) {domain = #dataflow.set<"{ S[y] : 0 <= y <= 5 }">, kind = "eltwise", macs = 0 : i64, params = {clamp_min = 0 : i64, op = "add"}, reads = [#dataflow.map<"{ S[y] -> In0[c, y, x] : 0 <= y <= 5 and 0 <= c <= 3 and 0 <= x <= 5 }">, #dataflow.map<"{ S[y] -> In1[c, y, x] : 0 <= y <= 5 and 0 <= c <= 3 and 0 <= x <= 5 }">], writes = #dataflow.map<"{ S[y] -> Out[c, y, x] : 0 <= y <= 5 and 0 <= c <= 3 and 0 <= x <= 5 }">}({
// CHECK-NEXT: ^bb0(%[[U:.*]]: tensor<1x4x6x6xf32>, %[[V:.*]]: tensor<1x4x6x6xf32>):
// CHECK-NEXT:   %[[S:.*]] = graph.add %[[U]], %[[V]]
// CHECK-NEXT:   %[[R:.*]] = graph.relu %[[S]]
// CHECK-NEXT:   dataflow.yield %[[R]]
// CHECK:      return %[[A]]
// PIXEL-LABEL: func.func @residual
// PIXEL: dataflow.node "add1"(%{{.*}}, %arg0) {domain = #dataflow.set<"{ S[y, x] : 0 <= y <= 5 and 0 <= x <= 5 }">
func.func @residual(%x: tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32> {
  %w = graph.constant {value = dense<0.5> : tensor<4x4x3x3xf32>} : () -> tensor<4x4x3x3xf32>
  %c = graph.conv %x, %w {pads = array<i64: 2, 2, 2, 2>, dilations = array<i64: 2, 2>} : (tensor<1x4x6x6xf32>, tensor<4x4x3x3xf32>) -> tensor<1x4x6x6xf32>
  %c2 = graph.conv %c, %w {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x4x6x6xf32>, tensor<4x4x3x3xf32>) -> tensor<1x4x6x6xf32>
  %a = graph.add %c2, %x : (tensor<1x4x6x6xf32>, tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  %r = graph.relu %a : (tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  return %r : tensor<1x4x6x6xf32>
}

// -----

// Pools (ceil_mode and SAME padding only change the output size: padding is
// never read; SAME padding is recorded resolved), a relu after a pool (its
// clamp), and a global pool.
// CHECK-LABEL: func.func @pools
// CHECK: dataflow.node "pool1"(%arg0) {domain = #dataflow.set<"{ S[oy] : 0 <= oy <= 3 }">, kind = "avg_pool", macs = 0 : i64, params = {kernel = array<i64: 3, 3>, stride = array<i64: 2, 2>}, reads = [#dataflow.map<"{ S[oy] -> In0[c, iy, ix] : 0 <= oy <= 3 and 0 <= c <= 1 and iy >= 2oy and 0 <= iy <= 7 and iy <= 2 + 2oy and 0 <= ix <= 7 }">]
// CHECK: graph.avg_pool
// CHECK: dataflow.node "pool2"(%{{.*}}) {domain = #dataflow.set<"{ S[oy] : 0 <= oy <= 3 }">, kind = "max_pool", macs = 0 : i64, params = {clamp_min = 0 : i64, kernel = array<i64: 2, 2>, pads = array<i64: 0, 0, 1, 1>}, reads = [#dataflow.map<"{ S[oy] -> In0[c, iy, ix] : 0 <= oy <= 3 and 0 <= c <= 1 and iy >= oy and 0 <= iy <= 3 and iy <= 1 + oy and 0 <= ix <= 3 }">]
// CHECK-NEXT: ^bb0
// CHECK-NEXT: graph.max_pool
// CHECK-NEXT: graph.relu
// CHECK: dataflow.node "global_pool1"(%{{.*}}) {domain = #dataflow.set<"{ S[] }">, kind = "global_avg_pool", macs = 0 : i64, reads = [#dataflow.map<"{ S[] -> In0[c, y, x] : 0 <= c <= 1 and 0 <= y <= 3 and 0 <= x <= 3 }">], writes = #dataflow.map<"{ S[] -> Out[c, 0, 0] : 0 <= c <= 1 }">}
func.func @pools(%x: tensor<1x2x8x8xf32>) -> tensor<1x2x1x1xf32> {
  %p = graph.avg_pool %x {kernel_shape = array<i64: 3, 3>, strides = array<i64: 2, 2>, ceil_mode = 1 : i64} : (tensor<1x2x8x8xf32>) -> tensor<1x2x4x4xf32>
  %q = graph.max_pool %p {kernel_shape = array<i64: 2, 2>, auto_pad = "SAME_UPPER"} : (tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %s = graph.relu %q : (tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %g = graph.global_avg_pool %s : (tensor<1x2x4x4xf32>) -> tensor<1x2x1x1xf32>
  return %g : tensor<1x2x1x1xf32>
}

// -----

// flatten reads its input a row at a time and writes the matching slice of
// the vector; a gemm (here a matmul, then a gemm) runs once and reads it all.
// A reshape that is not a flatten runs once too.
// CHECK-LABEL: func.func @classifier
// CHECK: dataflow.node "flatten1"(%arg0) {domain = #dataflow.set<"{ S[y] : 0 <= y <= 1 }">, kind = "copy", macs = 0 : i64, reads = [#dataflow.map<"{ S[y] -> In0[c, y, x] : 0 <= y <= 1 and 0 <= c <= 2 and 0 <= x <= 1 }">], writes = #dataflow.map<"{ S[y] -> Out[i] : 0 <= y <= 1 and -2 + 2y <= i <= 9 + 2y and 4*floor((2 + 2y + i)/4) <= 2y + i }">}
// CHECK: dataflow.node "matmul1"(%{{.*}}) {domain = #dataflow.set<"{ S[] }">, kind = "matmul", macs = 60 : i64, params = {bias = dense<5.000000e-01> : tensor<5xf32>, clamp_min = 0 : i64, weights = dense<5.000000e-01> : tensor<12x5xf32>}, reads = [#dataflow.map<"{ S[] -> In0[i] : 0 <= i <= 11 }">], writes = #dataflow.map<"{ S[] -> Out[o] : 0 <= o <= 4 }">}
// CHECK: graph.matmul
// CHECK-NEXT: graph.add
// CHECK-NEXT: graph.relu
// CHECK: dataflow.node "matmul2"(%{{.*}}) {domain = #dataflow.set<"{ S[] }">, kind = "matmul", macs = 10 : i64, params = {weights = dense<5.000000e-01> : tensor<5x2xf32>}
// CHECK: dataflow.node "reshape1"(%{{.*}}) {domain = #dataflow.set<"{ S[] }">, kind = "copy", macs = 0 : i64, reads = [#dataflow.map<"{ S[] -> In0[i0] : 0 <= i0 <= 1 }">], writes = #dataflow.map<"{ S[] -> Out[i0, i1 = 0] : 0 <= i0 <= 1 }">}
func.func @classifier(%x: tensor<1x3x2x2xf32>) -> tensor<1x2x1xf32> {
  %f = graph.flatten %x : (tensor<1x3x2x2xf32>) -> tensor<1x12xf32>
  %w = graph.constant {value = dense<0.5> : tensor<12x5xf32>} : () -> tensor<12x5xf32>
  %b = graph.constant {value = dense<0.5> : tensor<5xf32>} : () -> tensor<5xf32>
  %m = graph.matmul %f, %w : (tensor<1x12xf32>, tensor<12x5xf32>) -> tensor<1x5xf32>
  %a = graph.add %m, %b : (tensor<1x5xf32>, tensor<5xf32>) -> tensor<1x5xf32>
  %r = graph.relu %a : (tensor<1x5xf32>) -> tensor<1x5xf32>
  %w2 = graph.constant {value = dense<0.5> : tensor<2x5xf32>} : () -> tensor<2x5xf32>
  %g = graph.gemm %r, %w2 {trans_b = 1 : i64} : (tensor<1x5xf32>, tensor<2x5xf32>) -> tensor<1x2xf32>
  %s = graph.reshape %g {shape = array<i64: 1, 2, 1>} : (tensor<1x2xf32>) -> tensor<1x2x1xf32>
  return %s : tensor<1x2x1xf32>
}

// -----

// An int8 layer: quantize_linear and dequantize_linear convert the
// function's input and output on the host and stay outside the nodes, with
// their scales (recorded on the function as `dataflow.io`, for the host);
// the conv_integer and its weights form the node.
// CHECK-LABEL: func.func @int8
// CHECK-SAME: attributes {dataflow.io = {inputs = [{argument = 0 : i64, bits = 8 : i64, name = "input0", scale = 0.05000000074505806 : f64, zero_point = 0 : i64}], outputs = [{bits = 32 : i64, name = "output0", result = 0 : i64, scale = 0.009999999776482582 : f64, zero_point = 0 : i64}]}}
// CHECK:      %[[S:.*]] = graph.constant {value = dense<5.000000e-02> : tensor<f32>}
// CHECK-NEXT: %[[Z:.*]] = graph.constant {value = dense<0> : tensor<i8>}
// CHECK-NEXT: %[[Q:.*]] = graph.quantize_linear %arg0, %[[S]], %[[Z]]
// CHECK-NEXT: %[[N:.*]] = dataflow.node "conv1"(%[[Q]]) {domain = #dataflow.set<"{ S[oy] : 0 <= oy <= 3 }">, kind = "conv", macs = 288 : i64, params = {kernel = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>, weights = dense<3> : tensor<2x1x3x3xi8>}
// CHECK-NEXT: ^bb0(%[[A:.*]]: tensor<1x1x4x4xi8>):
// CHECK-NEXT:   %[[W:.*]] = graph.constant {value = dense<3> : tensor<2x1x3x3xi8>}
// CHECK-NEXT:   %[[C:.*]] = graph.conv_integer %[[A]], %[[W]]
// CHECK-NEXT:   dataflow.yield %[[C]] : tensor<1x2x4x4xi32>
// CHECK:      %[[S2:.*]] = graph.constant {value = dense<1.000000e-02> : tensor<f32>}
// CHECK-NEXT: %[[D:.*]] = graph.dequantize_linear %[[N]], %[[S2]]
// CHECK-NEXT: return %[[D]]
func.func @int8(%x: tensor<1x1x4x4xf32>) -> tensor<1x2x4x4xf32> {
  %s = graph.constant {value = dense<0.05> : tensor<f32>} : () -> tensor<f32>
  %z = graph.constant {value = dense<0> : tensor<i8>} : () -> tensor<i8>
  %q = graph.quantize_linear %x, %s, %z : (tensor<1x1x4x4xf32>, tensor<f32>, tensor<i8>) -> tensor<1x1x4x4xi8>
  %w = graph.constant {value = dense<3> : tensor<2x1x3x3xi8>} : () -> tensor<2x1x3x3xi8>
  %c = graph.conv_integer %q, %w {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x1x4x4xi8>, tensor<2x1x3x3xi8>) -> tensor<1x2x4x4xi32>
  %s2 = graph.constant {value = dense<0.01> : tensor<f32>} : () -> tensor<f32>
  %d = graph.dequantize_linear %c, %s2 : (tensor<1x2x4x4xi32>, tensor<f32>) -> tensor<1x2x4x4xf32>
  return %d : tensor<1x2x4x4xf32>
}

// -----

// Non-constant weights are an input like any other: every iteration reads
// them whole. A standalone activation is an elementwise node; broadcast
// operands read index 0 along their size-1 dims.
// CHECK-LABEL: func.func @dynamic_weights
// CHECK: dataflow.node "conv1"(%arg0, %arg1) {{.*}}reads = [#dataflow.map<"{ S[oy] -> In0[c = 0, iy, ix] : {{.*}} }">, #dataflow.map<"{ S[oy] -> In1[i0, i1 = 0, i2, i3] : 0 <= oy <= 3 and 0 <= i0 <= 1 and 0 <= i2 <= 2 and 0 <= i3 <= 2 }">]
// CHECK: dataflow.node "elementwise1"(%{{.*}}, %arg2) {domain = #dataflow.set<"{ S[y] : 0 <= y <= 3 }">, kind = "eltwise", macs = 0 : i64, params = {op = "mul"}, reads = [#dataflow.map<"{ S[y] -> In0[c, y, x] : 0 <= y <= 3 and 0 <= c <= 1 and 0 <= x <= 3 }">, #dataflow.map<"{ S[y] -> In1[c, 0, 0] : 0 <= y <= 3 and 0 <= c <= 1 }">]
func.func @dynamic_weights(%x: tensor<1x1x4x4xf32>, %w: tensor<2x1x3x3xf32>, %s: tensor<1x2x1x1xf32>) -> tensor<1x2x4x4xf32> {
  %c = graph.conv %x, %w {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x1x4x4xf32>, tensor<2x1x3x3xf32>) -> tensor<1x2x4x4xf32>
  %m = graph.mul %c, %s : (tensor<1x2x4x4xf32>, tensor<1x2x1x1xf32>) -> tensor<1x2x4x4xf32>
  return %m : tensor<1x2x4x4xf32>
}

// -----

// A concat along the channels reads the same row (pixel) of every input,
// each with its own channels; along other axes it runs once.
// CHECK-LABEL: func.func @concat
// CHECK: dataflow.node "concat1"(%arg0, %arg1) {domain = #dataflow.set<"{ S[y] : 0 <= y <= 2 }">, kind = "concat", macs = 0 : i64, params = {clamp_min = 0 : i64}, reads = [#dataflow.map<"{ S[y] -> In0[c, y, x] : 0 <= y <= 2 and 0 <= c <= 1 and 0 <= x <= 3 }">, #dataflow.map<"{ S[y] -> In1[0, y, x] : 0 <= y <= 2 and 0 <= x <= 3 }">], writes = #dataflow.map<"{ S[y] -> Out[c, y, x] : 0 <= y <= 2 and 0 <= c <= 2 and 0 <= x <= 3 }">}
// CHECK: graph.concat
// CHECK-NEXT: graph.relu
// CHECK: dataflow.node "concat2"(%{{.*}}) {domain = #dataflow.set<"{ S[] }">, kind = "concat", macs = 0 : i64, params = {axis = 1 : i64}, reads = [#dataflow.map<"{ S[] -> In0[i0, i1, i2] : 0 <= i0 <= 2 and 0 <= i1 <= 2 and 0 <= i2 <= 3 }">]
func.func @concat(%a: tensor<1x2x3x4xf32>, %b: tensor<1x1x3x4xf32>) -> tensor<1x3x6x4xf32> {
  %c = graph.concat %a, %b {axis = 1 : i64} : (tensor<1x2x3x4xf32>, tensor<1x1x3x4xf32>) -> tensor<1x3x3x4xf32>
  %r = graph.relu %c : (tensor<1x3x3x4xf32>) -> tensor<1x3x3x4xf32>
  %e = graph.concat %r, %r {axis = 2 : i64} : (tensor<1x3x3x4xf32>, tensor<1x3x3x4xf32>) -> tensor<1x3x6x4xf32>
  return %e : tensor<1x3x6x4xf32>
}
