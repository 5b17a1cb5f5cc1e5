// graph-to-dataflow describes groups whose main ops match (name,
// attributes, operand and result types, which operand is which node input,
// the group's output and input types) once, and gives the other groups a
// copy; the descriptions are computed on the context's threads. Matching
// ops get the description a lone op gets; ops that differ in any of these
// get their own, and the output is the same without threads.
// RUN: nc-opt --graph-to-dataflow %s | FileCheck %s
// RUN: nc-opt --graph-to-dataflow %s -o %t.threads.mlir
// RUN: nc-opt --graph-to-dataflow --mlir-disable-threading %s -o %t.serial.mlir
// RUN: diff %t.threads.mlir %t.serial.mlir
// RUN: nc-opt --graph-to-dataflow --mlir-pass-statistics %s 2>&1 >/dev/null | FileCheck %s --check-prefix=STATS

// conv1 and conv2 match; conv3 differs in its pads only (same types); conv4 in its
// weights being a node input. add1 and add2 match (two inputs, in
// either order): an elementwise op's attributes (here discardable ones; an
// add_integer's multipliers) do not change its description
// (nc_dataflow_describe_reads_attrs). add3 reads one input for both
// operands.
// STATS:      GraphToDataflow
// STATS-NEXT: (S) 5 num-described
// STATS-NEXT: (S) 7 num-nodes

// CHECK-LABEL: func.func @shared
// CHECK: dataflow.node "conv1"(%arg0) {domain = #dataflow.set<"{ S[oy] : 0 <= oy <= 5 }">, kind = "conv", macs = 5184 : i64, params = {{{.*}}}, reads = [#dataflow.map<"{ S[oy] -> In0[c, iy, ix] : 0 <= oy <= 5 and 0 <= c <= 3 and iy >= -1 + oy and 0 <= iy <= 5 and iy <= 1 + oy and 0 <= ix <= 5 }">], writes = #dataflow.map<"{ S[oy] -> Out[k, oy, ox] : 0 <= oy <= 5 and 0 <= k <= 3 and 0 <= ox <= 5 }">}
// CHECK: dataflow.node "conv2"(%{{.*}}) {domain = #dataflow.set<"{ S[oy] : 0 <= oy <= 5 }">, kind = "conv", macs = 5184 : i64, params = {{{.*}}}, reads = [#dataflow.map<"{ S[oy] -> In0[c, iy, ix] : 0 <= oy <= 5 and 0 <= c <= 3 and iy >= -1 + oy and 0 <= iy <= 5 and iy <= 1 + oy and 0 <= ix <= 5 }">], writes = #dataflow.map<"{ S[oy] -> Out[k, oy, ox] : 0 <= oy <= 5 and 0 <= k <= 3 and 0 <= ox <= 5 }">}
// CHECK: dataflow.node "conv3"(%{{.*}}) {domain = #dataflow.set<"{ S[oy] : 0 <= oy <= 5 }">
// CHECK-SAME: reads = [#dataflow.map<"{ S[oy] -> In0[c, iy, ix] : 0 <= oy <= 5 and 0 <= c <= 3 and iy >= -2 + oy and 0 <= iy <= 5 and iy <= oy and 0 <= ix <= 5 }">]
// CHECK: dataflow.node "conv4"(%{{.*}}, %arg1)
// CHECK-SAME: reads = [#dataflow.map<"{ S[oy] -> In0[c, iy, ix] : {{.*}} }">, #dataflow.map<"{ S[oy] -> In1[i0, i1, i2, i3] : {{.*}} }">]
// CHECK: dataflow.node "add1"(%{{.*}}, %{{.*}}) {domain = #dataflow.set<"{ S[y] : 0 <= y <= 5 }">, kind = "eltwise", macs = 0 : i64, params = {op = "add"}, reads = [#dataflow.map<"{ S[y] -> In0[c, y, x] : 0 <= y <= 5 and 0 <= c <= 3 and 0 <= x <= 5 }">, #dataflow.map<"{ S[y] -> In1[c, y, x] : 0 <= y <= 5 and 0 <= c <= 3 and 0 <= x <= 5 }">]
// CHECK: dataflow.node "add2"(%{{.*}}, %{{.*}}) {domain = #dataflow.set<"{ S[y] : 0 <= y <= 5 }">, kind = "eltwise", macs = 0 : i64, params = {op = "add"}, reads = [#dataflow.map<"{ S[y] -> In0[c, y, x] : 0 <= y <= 5 and 0 <= c <= 3 and 0 <= x <= 5 }">, #dataflow.map<"{ S[y] -> In1[c, y, x] : 0 <= y <= 5 and 0 <= c <= 3 and 0 <= x <= 5 }">]
// CHECK: dataflow.node "add3"(%{{.*}}) {domain = #dataflow.set<"{ S[y] : 0 <= y <= 5 }">, kind = "eltwise", macs = 0 : i64, params = {op = "add"}, reads = [#dataflow.map<"{ S[y] -> In0[c, y, x] : 0 <= y <= 5 and 0 <= c <= 3 and 0 <= x <= 5 }">]
func.func @shared(%x: tensor<1x4x6x6xf32>, %wd: tensor<4x4x3x3xf32>) -> (tensor<1x4x6x6xf32>, tensor<1x4x6x6xf32>, tensor<1x4x4x4xf32>, tensor<1x4x6x6xf32>) {
  %w = graph.constant {value = dense<0.5> : tensor<4x4x3x3xf32>} : () -> tensor<4x4x3x3xf32>
  %c1 = graph.conv %x, %w {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x4x6x6xf32>, tensor<4x4x3x3xf32>) -> tensor<1x4x6x6xf32>
  %c2 = graph.conv %c1, %w {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x4x6x6xf32>, tensor<4x4x3x3xf32>) -> tensor<1x4x6x6xf32>
  %c3 = graph.conv %c2, %w {pads = array<i64: 2, 2, 0, 0>} : (tensor<1x4x6x6xf32>, tensor<4x4x3x3xf32>) -> tensor<1x4x6x6xf32>
  %c4 = graph.conv %c2, %wd : (tensor<1x4x6x6xf32>, tensor<4x4x3x3xf32>) -> tensor<1x4x4x4xf32>
  %a1 = graph.add %c1, %c2 {note = 1 : i64} : (tensor<1x4x6x6xf32>, tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  %a2 = graph.add %c2, %a1 {note = 2 : i64} : (tensor<1x4x6x6xf32>, tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  %a3 = graph.add %a2, %a2 : (tensor<1x4x6x6xf32>, tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  return %c2, %c3, %c4, %a3 : tensor<1x4x6x6xf32>, tensor<1x4x6x6xf32>, tensor<1x4x4x4xf32>, tensor<1x4x6x6xf32>
}
