// dataflow.node and dataflow.yield parse and verify in the custom and the
// generic form, print in the custom syntax
//   %r = dataflow.node "name"(%inputs) {attrs} ({ region }) : (types) -> type
// and read back their own output; the isl attributes keep their text.
// RUN: nc-opt %s | FileCheck %s
// RUN: nc-opt %s | nc-opt | FileCheck %s
// RUN: nc-opt --mlir-print-op-generic %s | nc-opt | FileCheck %s
// RUN: nc-opt --mlir-print-op-generic %s | FileCheck %s --check-prefix=GENERIC

// CHECK-LABEL: func.func @conv_pool
func.func @conv_pool(%x: tensor<1x1x8x8xf32>) -> tensor<1x16x4x4xf32> {
  // CHECK: %[[C:.*]] = dataflow.node "conv1"(%arg0) {domain = #dataflow.set<"{ S[oy] : 0 <= oy < 8 }">, kind = "conv", macs = 9216 : i64, params = {kernel = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>, weights = dense<5.000000e-01> : tensor<16x1x3x3xf32>}, reads = [#dataflow.map<"{ S[oy] -> In0[0, iy, ix] : 0 <= oy < 8 and oy - 1 <= iy <= oy + 1 and 0 <= iy < 8 and 0 <= ix < 8 }">], writes = #dataflow.map<"{ S[oy] -> Out[c, oy, ox] : 0 <= c < 16 and 0 <= ox < 8 and 0 <= oy < 8 }">}({
  // CHECK-NEXT: ^bb0(%[[A:.*]]: tensor<1x1x8x8xf32>):
  // CHECK-NEXT: %[[W:.*]] = graph.constant {value = dense<5.000000e-01> : tensor<16x1x3x3xf32>}
  // CHECK-NEXT: %[[Y:.*]] = graph.conv %[[A]], %[[W]] {pads = array<i64: 1, 1, 1, 1>}
  // CHECK-NEXT: dataflow.yield %[[Y]] : tensor<1x16x8x8xf32>
  // CHECK-NEXT: }) : (tensor<1x1x8x8xf32>) -> tensor<1x16x8x8xf32>
  // GENERIC: "dataflow.node"(%arg0) <{domain = #dataflow.set<"{ S[oy] : 0 <= oy < 8 }">, kind = "conv", macs = 9216 : i64, name = "conv1", params = {kernel = array<i64: 3, 3>, {{.*}}}, reads = [{{.*}}], writes = {{.*}}}> ({
  // GENERIC: "dataflow.yield"(%{{.*}}) : (tensor<1x16x8x8xf32>) -> ()
  %c = dataflow.node "conv1" (%x) {
         domain = #dataflow.set<"{ S[oy] : 0 <= oy < 8 }">,
         reads = [#dataflow.map<"{ S[oy] -> In0[0, iy, ix] : 0 <= oy < 8 and oy - 1 <= iy <= oy + 1 and 0 <= iy < 8 and 0 <= ix < 8 }">],
         writes = #dataflow.map<"{ S[oy] -> Out[c, oy, ox] : 0 <= c < 16 and 0 <= ox < 8 and 0 <= oy < 8 }">,
         macs = 9216 : i64, kind = "conv", params = {kernel = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>, weights = dense<5.000000e-01> : tensor<16x1x3x3xf32>}} ({
    ^bb0(%a: tensor<1x1x8x8xf32>):
      %w = graph.constant {value = dense<0.5> : tensor<16x1x3x3xf32>} : () -> tensor<16x1x3x3xf32>
      %y = graph.conv %a, %w {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x1x8x8xf32>, tensor<16x1x3x3xf32>) -> tensor<1x16x8x8xf32>
      dataflow.yield %y : tensor<1x16x8x8xf32>
  }) : (tensor<1x1x8x8xf32>) -> tensor<1x16x8x8xf32>
  // The dependence attributes of dataflow-deps, written by hand.
  // CHECK: dataflow.node "pool1"(%[[C]]) {buffer_elements = array<i64: 256>, control = [#dataflow.map<"{ P[oy] -> S[oy' = floor((-1 + oy)/2)] : 0 < oy <= 7 }">], domain = #dataflow.set<"{ S[oy] : 0 <= oy <= 3 }">, earliest = [#dataflow.map<"{ S[oy] -> P[oy' = 1 + 2oy] : 0 <= oy <= 3 }">], kind = "max_pool", macs = 0 : i64, params = {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>}, reads
  %p = dataflow.node "pool1" (%c) {
         domain = #dataflow.set<"{ S[oy] : 0 <= oy <= 3 }">,
         reads = [#dataflow.map<"{ S[oy] -> In0[c, iy, ix] : 0 <= oy <= 3 and 0 <= c <= 15 and 2oy <= iy <= 1 + 2oy and 0 <= ix <= 7 }">],
         writes = #dataflow.map<"{ S[oy] -> Out[k, oy, ox] : 0 <= oy <= 3 and 0 <= k <= 15 and 0 <= ox <= 3 }">,
         earliest = [#dataflow.map<"{ S[oy] -> P[oy' = 1 + 2oy] : 0 <= oy <= 3 }">],
         control = [#dataflow.map<"{ P[oy] -> S[oy' = floor((-1 + oy)/2)] : 0 < oy <= 7 }">],
         buffer_elements = array<i64: 256>,
         macs = 0 : i64, kind = "max_pool", params = {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>}} ({
    ^bb0(%a: tensor<1x16x8x8xf32>):
      %y = graph.max_pool %a {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x16x8x8xf32>) -> tensor<1x16x4x4xf32>
      dataflow.yield %y : tensor<1x16x4x4xf32>
  }) : (tensor<1x16x8x8xf32>) -> tensor<1x16x4x4xf32>
  return %p : tensor<1x16x4x4xf32>
}

// A residual add: two operands, In0 and In1; a node that runs once, S[].
// CHECK-LABEL: func.func @add_gemm
func.func @add_gemm(%a: tensor<1x4x2x2xf32>, %b: tensor<1x4x2x2xf32>) -> tensor<1x3xf32> {
  // CHECK: dataflow.node "add1"(%arg0, %arg1)
  %s = dataflow.node "add1" (%a, %b) {
         domain = #dataflow.set<"{ S[y, x] : 0 <= y < 2 and 0 <= x < 2 }">,
         reads = [#dataflow.map<"{ S[y, x] -> In0[c, y, x] : 0 <= c < 4 and 0 <= y < 2 and 0 <= x < 2 }">,
                  #dataflow.map<"{ S[y, x] -> In1[c, y, x] : 0 <= c < 4 and 0 <= y < 2 and 0 <= x < 2 }">],
         writes = #dataflow.map<"{ S[y, x] -> Out[c, y, x] : 0 <= c < 4 and 0 <= y < 2 and 0 <= x < 2 }">,
         macs = 0 : i64, kind = "eltwise", params = {op = "add"}} ({
    ^bb0(%u: tensor<1x4x2x2xf32>, %v: tensor<1x4x2x2xf32>):
      %y = graph.add %u, %v : (tensor<1x4x2x2xf32>, tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32>
      dataflow.yield %y : tensor<1x4x2x2xf32>
  }) : (tensor<1x4x2x2xf32>, tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32>
  %f = dataflow.node "flatten1" (%s) {
         domain = #dataflow.set<"{ S[] }">,
         reads = [#dataflow.map<"{ S[] -> In0[c, y, x] : 0 <= c < 4 and 0 <= y < 2 and 0 <= x < 2 }">],
         writes = #dataflow.map<"{ S[] -> Out[i] : 0 <= i < 16 }">,
         macs = 0 : i64, kind = "copy"} ({
    ^bb0(%u: tensor<1x4x2x2xf32>):
      %y = graph.flatten %u : (tensor<1x4x2x2xf32>) -> tensor<1x16xf32>
      dataflow.yield %y : tensor<1x16xf32>
  }) : (tensor<1x4x2x2xf32>) -> tensor<1x16xf32>
  // CHECK: dataflow.node "fc1"(%{{.*}}) {domain = #dataflow.set<"{ S[] }">
  %g = dataflow.node "fc1" (%f) {
         domain = #dataflow.set<"{ S[] }">,
         reads = [#dataflow.map<"{ S[] -> In0[i] : 0 <= i < 16 }">],
         writes = #dataflow.map<"{ S[] -> Out[o] : 0 <= o < 3 }">,
         macs = 48 : i64, kind = "matmul", params = {weights = dense<1.000000e+00> : tensor<16x3xf32>}} ({
    ^bb0(%u: tensor<1x16xf32>):
      %w = graph.constant {value = dense<1.0> : tensor<16x3xf32>} : () -> tensor<16x3xf32>
      %y = graph.matmul %u, %w : (tensor<1x16xf32>, tensor<16x3xf32>) -> tensor<1x3xf32>
      dataflow.yield %y : tensor<1x3xf32>
  }) : (tensor<1x16xf32>) -> tensor<1x3xf32>
  return %g : tensor<1x3xf32>
}

// The attributes alone, anywhere an attribute may appear; escapes in the
// string are undone when it is parsed (so `\4E` and `N` are the same
// attribute and print as `N`).
// CHECK-LABEL: func.func @attrs
// CHECK-SAME: dataflow.m = #dataflow.map<"{ S[i] -> T[i + 1] }">
// CHECK-SAME: dataflow.p = #dataflow.set<"[N] -> { S[i] : 0 <= i < N }">
// CHECK-SAME: dataflow.s = #dataflow.set<"{ S[i] : 0 <= i < 4 }">
func.func @attrs() attributes {dataflow.s = #dataflow.set<"{ S[i] : 0 <= i < 4 }">,
                               dataflow.m = #dataflow.map<"{ S[i] -> T[i + 1] }">,
                               dataflow.p = #dataflow.set<"[N] -> { S[i] : 0 <= i < \4E }">} {
  return
}
