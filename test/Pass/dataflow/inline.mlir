// dataflow-inline replaces each node by the ops of its region: the block
// arguments become the operands, the node's result the yielded value.
// graph-to-dataflow followed by dataflow-inline gives back the graph (byte
// for byte when constants precede their single users, as imported models
// have them; a constant two layers share comes back as two copies).
// RUN: nc-opt %S/Inputs/layers.mlir > %t.ref
// RUN: nc-opt --graph-to-dataflow --dataflow-deps --dataflow-inline %S/Inputs/layers.mlir > %t.row
// RUN: diff %t.ref %t.row
// RUN: nc-opt --graph-to-dataflow=granularity=pixel --dataflow-inline %S/Inputs/layers.mlir > %t.pixel
// RUN: diff %t.ref %t.pixel
// RUN: nc-opt --split-input-file --dataflow-inline %s | FileCheck %s
// RUN: nc-opt --split-input-file --graph-to-dataflow --dataflow-inline %s | FileCheck %s --check-prefix=SHARED
// RUN: nc-opt --split-input-file --dataflow-inline --mlir-pass-statistics %s 2>&1 >/dev/null | FileCheck %s --check-prefix=STATS
// STATS: DataflowInline
// STATS-NEXT: (S) 2 num-inlined

// CHECK-LABEL: func.func @nodes
// CHECK-NEXT: %[[W:.*]] = graph.constant {value = dense<5.000000e-01> : tensor<2x1x3x3xf32>}
// CHECK-NEXT: %[[C:.*]] = graph.conv %arg0, %[[W]] {pads = array<i64: 1, 1, 1, 1>}
// CHECK-NEXT: %[[A:.*]] = graph.add %[[C]], %arg1
// CHECK-NEXT: return %[[A]]
// CHECK-NOT: dataflow
func.func @nodes(%x: tensor<1x1x4x4xf32>, %y: tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32> {
  %c = dataflow.node "conv1" (%x) {domain = #dataflow.set<"{ S[oy] : 0 <= oy < 4 }">,
         reads = [#dataflow.map<"{ S[oy] -> In0[0, iy, ix] : oy - 1 <= iy <= oy + 1 and 0 <= iy < 4 and 0 <= ix < 4 }">],
         writes = #dataflow.map<"{ S[oy] -> Out[c, oy, ox] : 0 <= c < 2 and 0 <= ox < 4 }">, macs = 288 : i64, kind = "conv", params = {kernel = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>, weights = dense<5.000000e-01> : tensor<2x1x3x3xf32>}} ({
    ^bb0(%a: tensor<1x1x4x4xf32>):
      %w = graph.constant {value = dense<0.5> : tensor<2x1x3x3xf32>} : () -> tensor<2x1x3x3xf32>
      %r = graph.conv %a, %w {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x1x4x4xf32>, tensor<2x1x3x3xf32>) -> tensor<1x2x4x4xf32>
      dataflow.yield %r : tensor<1x2x4x4xf32>
  }) : (tensor<1x1x4x4xf32>) -> tensor<1x2x4x4xf32>
  %s = dataflow.node "add1" (%c, %y) {domain = #dataflow.set<"{ S[y] : 0 <= y < 4 }">,
         reads = [#dataflow.map<"{ S[y] -> In0[c, y, x] : 0 <= c < 2 and 0 <= x < 4 }">, #dataflow.map<"{ S[y] -> In1[c, y, x] : 0 <= c < 2 and 0 <= x < 4 }">],
         writes = #dataflow.map<"{ S[y] -> Out[c, y, x] : 0 <= c < 2 and 0 <= x < 4 }">, macs = 0 : i64, kind = "eltwise", params = {op = "add"}} ({
    ^bb0(%u: tensor<1x2x4x4xf32>, %v: tensor<1x2x4x4xf32>):
      %r = graph.add %u, %v : (tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
      dataflow.yield %r : tensor<1x2x4x4xf32>
  }) : (tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  return %s : tensor<1x2x4x4xf32>
}

// -----

// A weight two convs share is copied into both nodes (nodes are isolated
// from above) and comes back as two constants.
// SHARED-LABEL: func.func @shared
// SHARED-NEXT: %[[W1:.*]] = graph.constant {value = dense<5.000000e-01> : tensor<1x1x3x3xf32>}
// SHARED-NEXT: %[[C1:.*]] = graph.conv %arg0, %[[W1]]
// SHARED-NEXT: %[[W2:.*]] = graph.constant {value = dense<5.000000e-01> : tensor<1x1x3x3xf32>}
// SHARED-NEXT: %[[C2:.*]] = graph.conv %[[C1]], %[[W2]]
// SHARED-NEXT: return %[[C2]]
func.func @shared(%x: tensor<1x1x4x4xf32>) -> tensor<1x1x4x4xf32> {
  %w = graph.constant {value = dense<0.5> : tensor<1x1x3x3xf32>} : () -> tensor<1x1x3x3xf32>
  %c1 = graph.conv %x, %w {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x1x4x4xf32>, tensor<1x1x3x3xf32>) -> tensor<1x1x4x4xf32>
  %c2 = graph.conv %c1, %w {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x1x4x4xf32>, tensor<1x1x3x3xf32>) -> tensor<1x1x4x4xf32>
  return %c2 : tensor<1x1x4x4xf32>
}
