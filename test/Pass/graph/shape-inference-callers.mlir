// Function types are interfaces: with refine-signature=false, a function
// with callers keeps its type (its returned values keep theirs) while
// everything inside is refined. With the default, a caller that still
// expects the old type fails verification after the pass, with a clear
// error (graph-shape-inference works on one function at a time).
// RUN: nc-opt --graph-shape-inference=refine-signature=false %s | FileCheck %s
// RUN: nc-opt --graph-optimize=refine-signature=false %s | FileCheck %s
// RUN: not nc-opt --graph-shape-inference %s 2>&1 | FileCheck %s --check-prefix=ERR

// CHECK-LABEL: func.func @callee(%arg0: tensor<2xf32>) -> tensor<?xf32>
// CHECK: %[[R:.*]] = graph.relu %arg0 : (tensor<2xf32>) -> tensor<2xf32>
// CHECK: graph.add %[[R]], %[[R]] : (tensor<2xf32>, tensor<2xf32>) -> tensor<?xf32>
// CHECK-LABEL: func.func @caller
// CHECK: call @callee(%arg0) : (tensor<2xf32>) -> tensor<?xf32>
// ERR: error: 'func.call' op result type mismatch at index 0: expected 'tensor<2xf32>', but got 'tensor<?xf32>'
func.func @callee(%x: tensor<2xf32>) -> tensor<?xf32> {
  %0 = graph.relu %x : (tensor<2xf32>) -> tensor<2xf32>
  %1 = graph.add %0, %0 : (tensor<2xf32>, tensor<2xf32>) -> tensor<?xf32>
  return %1 : tensor<?xf32>
}
func.func @caller(%x: tensor<2xf32>) -> tensor<?xf32> {
  %0 = func.call @callee(%x) : (tensor<2xf32>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}
