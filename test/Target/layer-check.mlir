// target-check-layers: a target refuses, at the node, a layer kind it does not
// declare and a parameter it does not read for the layer's kind (its
// nc_target_def.layers), without target-specific code: xbar declares no `perm`
// for copy layers and no `lut` for max pools, and does not run softmax;
// northpole reads `perm` and runs softmax. Defaults written out (a stride of 1) are not
// parameters a target must read.
// RUN: not nc-opt %s --pass-pipeline='builtin.module(target-check-layers)' 2>&1 | FileCheck %s
// RUN: not nc-opt %s --pass-pipeline='builtin.module(target-attach{target=northpole},target-check-layers)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=NP
// A module attached to no target cannot be checked:
// RUN: sed 's/attributes {nc.target = "xbar"} //' %s | not nc-opt --pass-pipeline='builtin.module(target-check-layers)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=NOTARGET

// northpole runs the transpose and the softmax, and refuses a table after a max pool too:
// NP-NOT: error
// NP: layer-check.mlir:{{[0-9]+}}:8: error: 'dataflow.node' op layer 'pool' (max_pool) has parameter 'lut' {{.*}} target 'northpole'
// NP-NOT: error
// NOTARGET: error: {{.*}}
module attributes {nc.target = "xbar"} {
func.func @f(%x: tensor<1x2x3x4xi8>, %s: tensor<1x10xf32>) -> (tensor<1x4x2x3xi8>, tensor<1x2x1x2xi8>, tensor<1x10xf32>) {
  // CHECK: layer-check.mlir:[[@LINE+1]]:8: error: 'dataflow.node' op layer 'tr' (copy) has parameter 'perm' (copy: a transpose of the tensor coordinates), which target 'xbar' does not read for copy layers (it reads input_zero_points, output_zero_point)
  %t = dataflow.node "tr" (%x) {
         domain = #dataflow.set<"{ S[] }">,
         reads = [#dataflow.map<"{ S[] -> In0[c, y, x] : 0 <= c < 2 and 0 <= y < 3 and 0 <= x < 4 }">],
         writes = #dataflow.map<"{ S[] -> Out[x, c, y] : 0 <= c < 2 and 0 <= y < 3 and 0 <= x < 4 }">,
         macs = 0 : i64, kind = "copy", params = {dilation = array<i64: 1, 1>, perm = array<i64: 2, 0, 1>}} ({
    ^bb0(%u: tensor<1x2x3x4xi8>):
      %y = graph.transpose %u {perm = array<i64: 0, 3, 1, 2>} : (tensor<1x2x3x4xi8>) -> tensor<1x4x2x3xi8>
      dataflow.yield %y : tensor<1x4x2x3xi8>
  }) : (tensor<1x2x3x4xi8>) -> tensor<1x4x2x3xi8>
  // CHECK: layer-check.mlir:[[@LINE+1]]:8: error: 'dataflow.node' op layer 'pool' (max_pool) has parameter 'lut' (an elementwise table applied last), which target 'xbar' does not read for max_pool layers (it reads kernel, stride, dilation, pads, input_zero_points, output_zero_point)
  %p = dataflow.node "pool" (%x) {
         domain = #dataflow.set<"{ S[] }">,
         reads = [#dataflow.map<"{ S[] -> In0[c, y, x] : 0 <= c < 2 and 0 <= y < 2 and 0 <= x < 4 }">],
         writes = #dataflow.map<"{ S[] -> Out[c, y, x] : 0 <= c < 2 and y = 0 and 0 <= x < 2 }">,
         macs = 0 : i64, kind = "max_pool",
         params = {kernel = array<i64: 2, 2>, stride = array<i64: 1, 2>, lut = dense<3> : tensor<256xi8>}} ({
    ^bb0(%u: tensor<1x2x3x4xi8>):
      %y = graph.max_pool %u {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x2x3x4xi8>) -> tensor<1x2x1x2xi8>
      dataflow.yield %y : tensor<1x2x1x2xi8>
  }) : (tensor<1x2x3x4xi8>) -> tensor<1x2x1x2xi8>
  // CHECK: layer-check.mlir:[[@LINE+1]]:8: error: 'dataflow.node' op layer 'sm' is of kind 'softmax', which target 'xbar' does not run (it runs conv, matmul, max_pool, copy, resize, pad, shuffle)
  %m = dataflow.node "sm" (%s) {
         domain = #dataflow.set<"{ S[] }">,
         reads = [#dataflow.map<"{ S[] -> In0[i] : 0 <= i < 10 }">],
         writes = #dataflow.map<"{ S[] -> Out[i] : 0 <= i < 10 }">,
         macs = 0 : i64, kind = "softmax"} ({
    ^bb0(%u: tensor<1x10xf32>):
      %y = graph.softmax %u : (tensor<1x10xf32>) -> tensor<1x10xf32>
      dataflow.yield %y : tensor<1x10xf32>
  }) : (tensor<1x10xf32>) -> tensor<1x10xf32>
  return %t, %p, %m : tensor<1x4x2x3xi8>, tensor<1x2x1x2xi8>, tensor<1x10xf32>
}
}
