// graph-optimize, the named pipeline of the graph passes: QOperator to QDQ, shape inference,
// canonicalize, constant folding, batch_norm folding, bias and activation
// fusion, canonicalize, on every func.func.
// RUN: nc-opt %s --graph-optimize --dump-pass-pipeline 2>&1 >/dev/null | FileCheck %s --check-prefix=PIPE --match-full-lines
// PIPE: builtin.module(func.func(graph-qoperator-to-qdq,graph-shape-inference{refine-signature=true},canonicalize{max-iterations=10 max-num-rewrites=-1 region-simplify=normal test-convergence=false top-down=true},graph-constant-fold{dense-limit=16 size-limit=16777216},graph-fold-batchnorm,graph-fuse-activation{fuse-bias=true fuse-into-add=true},canonicalize{max-iterations=10 max-num-rewrites=-1 region-simplify=normal test-convergence=false top-down=true}))
// RUN: nc-opt %s --pass-pipeline='builtin.module(func.func(graph-optimize{size-limit=64 fuse-activations=false}))' --dump-pass-pipeline 2>&1 >/dev/null | FileCheck %s --check-prefix=NESTED --match-full-lines
// NESTED: builtin.module(func.func(graph-qoperator-to-qdq,graph-shape-inference{refine-signature=true},canonicalize{max-iterations=10 max-num-rewrites=-1 region-simplify=normal test-convergence=false top-down=true},graph-constant-fold{dense-limit=16 size-limit=64},graph-fold-batchnorm,canonicalize{max-iterations=10 max-num-rewrites=-1 region-simplify=normal test-convergence=false top-down=true}))
// RUN: nc-opt --list-passes | FileCheck %s --check-prefix=LIST
// LIST: graph-constant-fold
// LIST-NEXT: graph-fold-batchnorm
// LIST-NEXT: graph-fuse-activation
// LIST-NEXT: graph-integer-to-qdq
// LIST-NEXT: graph-qoperator-to-qdq
// LIST-NEXT: graph-quantize
// LIST-NEXT: graph-set-input-shape
// LIST-NEXT: graph-shape-inference
// LIST-NEXT: graph-simplify-shapes
// LIST: graph-optimize
// RUN: nc-opt %s --graph-optimize | FileCheck %s
// RUN: nc-opt %s --graph-optimize=fuse-activations=false | FileCheck %s --check-prefix=NOFUSE

// A conv block as exporters write it: dims left dynamic, a weight computed
// at run time (conv weights scaled by a constant), batch_norm, a bias add
// and a relu after the conv, a no-op reshape pair, dead code. It ends as one
// conv with folded weights and a fused activation.
// CHECK-LABEL: func.func @block(%arg0: tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
// CHECK-DAG: %[[W:.*]] = graph.constant {value = dense<{{\[\[\[\[}}1.000000e+00]], {{\[\[}}1.000000e+00]]], {{\[\[\[}}2.000000e+00]], {{\[\[}}2.000000e+00]]]]> : tensor<2x2x1x1xf32>}
// CHECK-DAG: %[[B:.*]] = graph.constant {value = dense<[5.000000e-01, -1.500000e+00]> : tensor<2xf32>}
// CHECK: %[[C:.*]] = graph.conv %arg0, %[[W]], %[[B]] {activation = "relu"} : (tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>, tensor<2xf32>) -> tensor<1x2x4x4xf32>
// CHECK-NEXT: return %[[C]] : tensor<1x2x4x4xf32>
// NOFUSE-LABEL: func.func @block(%arg0: tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
// NOFUSE: graph.conv %arg0, %{{.*}}, %{{.*}} : (tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>, tensor<2xf32>) -> tensor<1x2x4x4xf32>
// NOFUSE-NEXT: graph.add
// NOFUSE-NEXT: graph.relu
func.func @block(%x: tensor<1x2x4x4xf32>) -> tensor<?x?x?x?xf32> {
  %w0 = graph.constant {value = dense<0.5> : tensor<2x2x1x1xf32>} : () -> tensor<2x2x1x1xf32>
  %k = graph.constant {value = dense<2.0> : tensor<1xf32>} : () -> tensor<1xf32>
  %w = graph.mul %w0, %k : (tensor<2x2x1x1xf32>, tensor<1xf32>) -> tensor<2x2x1x1xf32>
  %0 = graph.conv %x, %w : (tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>) -> tensor<?x?x?x?xf32>
  %s = graph.constant {value = dense<[1.0, 2.0]> : tensor<2xf32>} : () -> tensor<2xf32>
  %b = graph.constant {value = dense<[0.0, 1.0]> : tensor<2xf32>} : () -> tensor<2xf32>
  %m = graph.constant {value = dense<[0.0, 0.5]> : tensor<2xf32>} : () -> tensor<2xf32>
  %v = graph.constant {value = dense<1.0> : tensor<2xf32>} : () -> tensor<2xf32>
  %1 = graph.batch_norm %0, %s, %b, %m, %v {epsilon = 0.0 : f32} : (tensor<?x?x?x?xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<?x?x?x?xf32>
  %d = graph.constant {value = dense<[[[0.5]], [[-1.5]]]> : tensor<2x1x1xf32>} : () -> tensor<2x1x1xf32>
  %2 = graph.add %1, %d : (tensor<?x?x?x?xf32>, tensor<2x1x1xf32>) -> tensor<?x?x?x?xf32>
  %3 = graph.relu %2 : (tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xf32>
  %4 = graph.unsqueeze %3 {axes = array<i64: 0>} : (tensor<?x?x?x?xf32>) -> tensor<1x?x?x?x?xf32>
  %5 = graph.squeeze %4 {axes = array<i64: 0>} : (tensor<1x?x?x?x?xf32>) -> tensor<?x?x?x?xf32>
  %6 = graph.sigmoid %5 : (tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xf32>
  return %5 : tensor<?x?x?x?xf32>
}
