// graph-constant-fold: ops whose operands are all graph.constant become
// constants holding their results, computed by the reference interpreter
// (fused activations included). Small results and splats are dense
// literals, larger ones dense_resource blobs; the folded ops' constants go
// when nothing else uses them.
// RUN: nc-opt --split-input-file --graph-constant-fold %s | FileCheck %s
// RUN: nc-opt --split-input-file --graph-constant-fold=dense-limit=4 %s | FileCheck %s --check-prefix=BLOB
// RUN: nc-opt --split-input-file --graph-constant-fold=size-limit=16 %s | FileCheck %s --check-prefix=LIMIT
// RUN: nc-opt --graph-constant-fold --mlir-pass-statistics %s --split-input-file 2>&1 >/dev/null | FileCheck %s --check-prefix=STATS

// A chain of constant ops folds to one constant; the input stays an input.
// CHECK-LABEL: func.func @chain
// CHECK-NEXT: %[[C:.*]] = graph.constant {value = dense<{{\[\[}}-1.000000e+00, -3.000000e+00, -5.000000e+00, -7.000000e+00], [-2.000000e+00, -4.000000e+00, -6.000000e+00, -8.000000e+00]]> : tensor<2x4xf32>} : () -> tensor<2x4xf32>
// CHECK-NEXT: %[[A:.*]] = graph.add %arg0, %[[C]]
// CHECK-NEXT: return %[[A]]
// BLOB-LABEL: func.func @chain
// BLOB-NEXT: graph.constant {value = dense_resource<w_neg> : tensor<2x4xf32>} : () -> tensor<2x4xf32>
// BLOB: w_neg: "0x04000000000080BF000040C00000A0C00000E0C0000000C0000080C00000C0C0000000C1"
// LIMIT-LABEL: func.func @chain
// LIMIT-NEXT: graph.constant {value = dense<{{.*}}> : tensor<4x2xf32>}
// LIMIT-NEXT: graph.transpose
// LIMIT-NEXT: graph.neg
func.func @chain(%x: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %a = graph.constant {value = dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0]]> : tensor<4x2xf32>} : () -> tensor<4x2xf32>
  %t = graph.transpose %a : (tensor<4x2xf32>) -> tensor<2x4xf32>
  %n = graph.neg %t : (tensor<2x4xf32>) -> tensor<2x4xf32> loc("w_neg")
  %y = graph.add %x, %n : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
  return %y : tensor<2x4xf32>
}

// -----

// Blobs are read as well as written; a fused activation is applied.
// CHECK-LABEL: func.func @blob
// CHECK-NEXT: graph.constant {value = dense<{{\[\[}}0.000000e+00, 1.000000e+00], [2.000000e+00, 3.000000e+00]]> : tensor<2x2xf32>}
// CHECK-NEXT: return
// BLOB-LABEL: func.func @blob
// BLOB-NEXT: graph.constant {value = dense<{{\[\[}}0.000000e+00, 1.000000e+00], [2.000000e+00, 3.000000e+00]]> : tensor<2x2xf32>}
func.func @blob() -> tensor<2x2xf32> {
  %w = graph.constant {value = dense_resource<weights> : tensor<2x2xf32>} : () -> tensor<2x2xf32>
  %b = graph.constant {value = dense<[-1.0, 1.0]> : tensor<2xf32>} : () -> tensor<2xf32>
  %0 = graph.add %w, %b {activation = "relu"} : (tensor<2x2xf32>, tensor<2xf32>) -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}
{-#
  dialect_resources: {
    builtin: {
      weights: "0x040000000000803F000000000000404000000040"
    }
  }
#-}

// -----

// All results of a split; integer arithmetic wraps; a splat stays a splat
// however large.
// CHECK-LABEL: func.func @more
// CHECK-DAG: %[[S0:.*]] = graph.constant {value = dense<[1, 2]> : tensor<2xi8>}
// CHECK-DAG: %[[S1:.*]] = graph.constant {value = dense<[3, 4, 5]> : tensor<3xi8>}
// CHECK-DAG: %[[W:.*]] = graph.constant {value = dense<[-128, 127]> : tensor<2xi8>}
// CHECK-DAG: %[[Z:.*]] = graph.constant {value = dense<0.000000e+00> : tensor<64xf32>}
// CHECK: return %[[S0]], %[[S1]], %[[W]], %[[Z]]
func.func @more() -> (tensor<2xi8>, tensor<3xi8>, tensor<2xi8>, tensor<64xf32>) {
  %c = graph.constant {value = dense<[1, 2, 3, 4, 5]> : tensor<5xi8>} : () -> tensor<5xi8>
  %0:2 = graph.split %c {split = array<i64: 2, 3>} : (tensor<5xi8>) -> (tensor<2xi8>, tensor<3xi8>)
  %a = graph.constant {value = dense<[127, -128]> : tensor<2xi8>} : () -> tensor<2xi8>
  %b = graph.constant {value = dense<[1, -1]> : tensor<2xi8>} : () -> tensor<2xi8>
  %1 = graph.add %a, %b : (tensor<2xi8>, tensor<2xi8>) -> tensor<2xi8>
  %m = graph.constant {value = dense<-1.5> : tensor<64xf32>} : () -> tensor<64xf32>
  %2 = graph.relu %m : (tensor<64xf32>) -> tensor<64xf32>
  return %0#0, %0#1, %1, %2 : tensor<2xi8>, tensor<3xi8>, tensor<2xi8>, tensor<64xf32>
}

// -----

// Not folded: an operand that is not a constant, a result whose declared
// type is not static. A constant used elsewhere stays.
// CHECK-LABEL: func.func @not_folded
// CHECK-NEXT: %[[C:.*]] = graph.constant {value = dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00, 5.000000e+00, 6.000000e+00]> : tensor<6xf32>}
// CHECK-NEXT: %[[A:.*]] = graph.add %arg0, %[[C]]
// CHECK-NEXT: %[[R:.*]] = graph.reshape %[[C]] {shape = array<i64: -1, 3>} : (tensor<6xf32>) -> tensor<?x3xf32>
// CHECK-NEXT: %[[N:.*]] = graph.constant {value = dense<[-1.000000e+00, -2.000000e+00, -3.000000e+00, -4.000000e+00, -5.000000e+00, -6.000000e+00]> : tensor<6xf32>}
// CHECK-NEXT: return %[[A]], %[[R]], %[[N]]
func.func @not_folded(%x: tensor<6xf32>) -> (tensor<6xf32>, tensor<?x3xf32>, tensor<6xf32>) {
  %c = graph.constant {value = dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]> : tensor<6xf32>} : () -> tensor<6xf32>
  %0 = graph.add %x, %c : (tensor<6xf32>, tensor<6xf32>) -> tensor<6xf32>
  %1 = graph.reshape %c {shape = array<i64: -1, 3>} : (tensor<6xf32>) -> tensor<?x3xf32>
  %2 = graph.neg %c : (tensor<6xf32>) -> tensor<6xf32>
  return %0, %1, %2 : tensor<6xf32>, tensor<?x3xf32>, tensor<6xf32>
}

// STATS: GraphConstantFold
// STATS-NEXT: (S) 2 num-folded
// STATS: GraphConstantFold
// STATS-NEXT: (S) 1 num-folded
// STATS: GraphConstantFold
// STATS-NEXT: (S) 3 num-folded
// STATS: GraphConstantFold
// STATS-NEXT: (S) 1 num-folded
