// graph-fuse-activation: constant bias adds go into the conv / gemm bias
// (a 2-D matmul plus one becomes a gemm), then relu, leaky_relu, clip,
// sigmoid and tanh become the producer's `activation` attributes; only when
// the intermediate value has no other use.
// RUN: nc-opt --split-input-file --graph-fuse-activation %s | FileCheck %s
// RUN: nc-opt --split-input-file --graph-fuse-activation=fuse-into-add=false %s | FileCheck %s --check-prefix=NOADD
// RUN: nc-opt --split-input-file --graph-fuse-activation=fuse-bias=false %s | FileCheck %s --check-prefix=NOBIAS

// CHECK-LABEL: func.func @conv
// CHECK-NEXT: %[[C:.*]] = graph.conv %arg0, %arg1 {activation = "relu", pads = array<i64: 1, 1, 1, 1>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x8x8xf32>
// CHECK-NEXT: %[[T:.*]] = graph.conv_transpose %[[C]], %arg2 {activation = "tanh"}
// CHECK-NEXT: return %[[T]]
func.func @conv(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>, %wt: tensor<4x2x2x2xf32>) -> tensor<1x2x9x9xf32> {
  %0 = graph.conv %x, %w {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x8x8xf32>
  %1 = graph.relu %0 : (tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  %2 = graph.conv_transpose %1, %wt : (tensor<1x4x8x8xf32>, tensor<4x2x2x2xf32>) -> tensor<1x2x9x9xf32>
  %3 = graph.tanh %2 : (tensor<1x2x9x9xf32>) -> tensor<1x2x9x9xf32>
  return %3 : tensor<1x2x9x9xf32>
}

// -----

// Per-channel constants ([M, 1, 1], [1, M, 1, 1], one element) become the
// conv's bias, or are added to the one it has.
// CHECK-LABEL: func.func @conv_bias
// CHECK-DAG: %[[B0:.*]] = graph.constant {value = dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>}
// CHECK-DAG: %[[B1:.*]] = graph.constant {value = dense<[1.500000e+00, 1.000000e+00]> : tensor<2xf32>}
// CHECK-DAG: %[[B2:.*]] = graph.constant {value = dense<3.000000e+00> : tensor<2xf32>}
// CHECK-DAG: %[[C0:.*]] = graph.conv %arg0, %arg1, %[[B0]] {activation = "relu"} : (tensor<1x1x4x4xf32>, tensor<2x1x1x1xf32>, tensor<2xf32>) -> tensor<1x2x4x4xf32>
// CHECK-DAG: %[[C1:.*]] = graph.conv %arg0, %arg1, %[[B1]] {activation = "clip", activation_max = 6.000000e+00 : f32, activation_min = 0.000000e+00 : f32}
// CHECK-DAG: %[[C2:.*]] = graph.conv %arg0, %arg1, %[[B2]] : (tensor<1x1x4x4xf32>, tensor<2x1x1x1xf32>, tensor<2xf32>) -> tensor<1x2x4x4xf32>
// CHECK-NOT: graph.add
// CHECK: return %[[C0]], %[[C1]], %[[C2]]
// NOBIAS-LABEL: func.func @conv_bias
// NOBIAS: %[[C0:.*]] = graph.conv %arg0, %arg1 :
// NOBIAS-NEXT: graph.add %[[C0]], %{{.*}} {activation = "relu"}
func.func @conv_bias(%x: tensor<1x1x4x4xf32>, %w: tensor<2x1x1x1xf32>) -> (tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>) {
  %d0 = graph.constant {value = dense<[[[1.0]], [[2.0]]]> : tensor<2x1x1xf32>} : () -> tensor<2x1x1xf32>
  %0 = graph.conv %x, %w : (tensor<1x1x4x4xf32>, tensor<2x1x1x1xf32>) -> tensor<1x2x4x4xf32>
  %1 = graph.add %0, %d0 : (tensor<1x2x4x4xf32>, tensor<2x1x1xf32>) -> tensor<1x2x4x4xf32>
  %2 = graph.relu %1 : (tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %b = graph.constant {value = dense<[1.0, -1.0]> : tensor<2xf32>} : () -> tensor<2xf32>
  %d1 = graph.constant {value = dense<[[[[0.5]], [[2.0]]]]> : tensor<1x2x1x1xf32>} : () -> tensor<1x2x1x1xf32>
  %3 = graph.conv %x, %w, %b : (tensor<1x1x4x4xf32>, tensor<2x1x1x1xf32>, tensor<2xf32>) -> tensor<1x2x4x4xf32>
  %4 = graph.add %d1, %3 : (tensor<1x2x1x1xf32>, tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %5 = graph.clip %4 {max = 6.0 : f32, min = 0.0 : f32} : (tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %d2 = graph.constant {value = dense<3.0> : tensor<1xf32>} : () -> tensor<1xf32>
  %6 = graph.conv %x, %w : (tensor<1x1x4x4xf32>, tensor<2x1x1x1xf32>) -> tensor<1x2x4x4xf32>
  %7 = graph.add %6, %d2 : (tensor<1x2x4x4xf32>, tensor<1xf32>) -> tensor<1x2x4x4xf32>
  return %2, %5, %7 : tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>
}

// -----

// gemm: c' = beta * c + d, beta becomes 1; without c, d is the c. A 2-D
// matmul plus a constant becomes a gemm.
// CHECK-LABEL: func.func @gemm
// CHECK-DAG: %[[C0:.*]] = graph.constant {value = dense<{{\[\[}}2.500000e+00, 3.500000e+00, 4.500000e+00]]> : tensor<1x3xf32>}
// CHECK-DAG: %[[G0:.*]] = graph.gemm %arg0, %arg1, %[[C0]] {activation = "leaky_relu", activation_alpha = 2.000000e-01 : f32, alpha = 5.000000e-01 : f32} : (tensor<2x4xf32>, tensor<4x3xf32>, tensor<1x3xf32>) -> tensor<2x3xf32>
// CHECK-DAG: %[[C1:.*]] = graph.constant {value = dense<[1.000000e+00, 2.000000e+00, 3.000000e+00]> : tensor<3xf32>}
// CHECK-DAG: %[[G1:.*]] = graph.gemm %arg0, %arg1, %[[C1]] {activation = "clip", activation_min = 0.000000e+00 : f32} : (tensor<2x4xf32>, tensor<4x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
// CHECK-DAG: %[[G2:.*]] = graph.gemm %arg0, %arg1, %[[C1]] {activation = "sigmoid"} : (tensor<2x4xf32>, tensor<4x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
// CHECK-DAG: %[[M:.*]] = graph.matmul %arg0, %arg1 {activation = "leaky_relu"} : (tensor<2x4xf32>, tensor<4x3xf32>) -> tensor<2x3xf32>
// CHECK-NOT: graph.add
// CHECK: return %[[G0]], %[[G1]], %[[G2]], %[[M]]
func.func @gemm(%a: tensor<2x4xf32>, %b: tensor<4x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>) {
  %c = graph.constant {value = dense<[0.5, 1.0, 1.5]> : tensor<3xf32>} : () -> tensor<3xf32>
  %d = graph.constant {value = dense<1.5> : tensor<1x3xf32>} : () -> tensor<1x3xf32>
  %0 = graph.gemm %a, %b, %c {alpha = 0.5 : f32, beta = 2.0 : f32} : (tensor<2x4xf32>, tensor<4x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %1 = graph.add %0, %d : (tensor<2x3xf32>, tensor<1x3xf32>) -> tensor<2x3xf32>
  %2 = graph.leaky_relu %1 {alpha = 0.2 : f32} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %e = graph.constant {value = dense<[1.0, 2.0, 3.0]> : tensor<3xf32>} : () -> tensor<3xf32>
  %3 = graph.gemm %a, %b {beta = 4.0 : f32} : (tensor<2x4xf32>, tensor<4x3xf32>) -> tensor<2x3xf32>
  %4 = graph.add %3, %e : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %5 = graph.clip %4 {min = 0.0 : f32} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %6 = graph.matmul %a, %b : (tensor<2x4xf32>, tensor<4x3xf32>) -> tensor<2x3xf32>
  %7 = graph.add %6, %e : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %8 = graph.sigmoid %7 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %9 = graph.matmul %a, %b : (tensor<2x4xf32>, tensor<4x3xf32>) -> tensor<2x3xf32>
  %10 = graph.leaky_relu %9 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %2, %5, %8, %10 : tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>
}

// -----

// Activations also go into graph.add (residual connections), unless
// fuse-into-add=false; an activation already on a bias add moves to the conv.
// CHECK-LABEL: func.func @add
// CHECK-NEXT: %[[B:.*]] = graph.constant {value = dense<1.000000e+00> : tensor<2xf32>}
// CHECK-NEXT: %[[A:.*]] = graph.add %arg0, %arg1 {activation = "relu"}
// CHECK-NEXT: %[[C:.*]] = graph.conv %[[A]], %arg2, %[[B]] {activation = "sigmoid"}
// CHECK-NEXT: return %[[C]]
// NOADD-LABEL: func.func @add
// NOADD: %[[A:.*]] = graph.add %arg0, %arg1 :
// NOADD-NEXT: graph.relu %[[A]]
// NOADD: graph.conv %{{.*}}, %arg2, %{{.*}} {activation = "sigmoid"}
func.func @add(%x: tensor<1x2x4x4xf32>, %y: tensor<1x2x4x4xf32>, %w: tensor<2x2x1x1xf32>) -> tensor<1x2x4x4xf32> {
  %0 = graph.add %x, %y : (tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %1 = graph.relu %0 : (tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %2 = graph.conv %1, %w : (tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x4x4xf32>
  %d = graph.constant {value = dense<1.0> : tensor<2x1x1xf32>} : () -> tensor<2x1x1xf32>
  %3 = graph.add %2, %d {activation = "sigmoid"} : (tensor<1x2x4x4xf32>, tensor<2x1x1xf32>) -> tensor<1x2x4x4xf32>
  return %3 : tensor<1x2x4x4xf32>
}

// -----

// Not fused: an intermediate with another use; an add whose other operand
// is not a constant (the relu then goes into the add); a constant that is
// not per channel; an add that broadcasts the conv result to a larger
// shape; an integer matmul; a producer that has an activation already.
// CHECK-LABEL: func.func @not_fused
// CHECK-NEXT: %[[D3:.*]] = graph.constant {value = dense<1.000000e+00> : tensor<3x2x1x1xf32>}
// CHECK-NEXT: %[[D2:.*]] = graph.constant {value = dense<1.000000e+00> : tensor<1x2x4x1xf32>}
// CHECK-NEXT: %[[C0:.*]] = graph.conv %arg0, %arg1 : (
// CHECK-NEXT: %[[R0:.*]] = graph.relu %[[C0]]
// CHECK-NEXT: %[[C1:.*]] = graph.conv %arg0, %arg1 : (
// CHECK-NEXT: %[[A1:.*]] = graph.add %[[C1]], %arg0 {activation = "relu"}
// CHECK-NEXT: %[[C2:.*]] = graph.conv %arg0, %arg1 : (
// CHECK-NEXT: %[[A2:.*]] = graph.add %[[C2]], %[[D2]] :
// CHECK-NEXT: %[[C3:.*]] = graph.conv %arg0, %arg1 : (
// CHECK-NEXT: %[[A3:.*]] = graph.add %[[C3]], %[[D3]] : (tensor<1x2x4x4xf32>, tensor<3x2x1x1xf32>) -> tensor<3x2x4x4xf32>
// CHECK-NEXT: %[[M:.*]] = graph.matmul %arg2, %arg2 : (tensor<2x2xi32>, tensor<2x2xi32>) -> tensor<2x2xi32>
// CHECK-NEXT: %[[R4:.*]] = graph.relu %[[M]]
// CHECK-NEXT: %[[C5:.*]] = graph.conv %arg0, %arg1 {activation = "sigmoid"}
// CHECK-NEXT: %[[R5:.*]] = graph.relu %[[C5]]
// CHECK-NEXT: return %[[C0]], %[[R0]], %[[A1]], %[[A2]], %[[A3]], %[[R4]], %[[R5]]
func.func @not_fused(%x: tensor<1x2x4x4xf32>, %w: tensor<2x2x1x1xf32>, %i: tensor<2x2xi32>) -> (tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>, tensor<3x2x4x4xf32>, tensor<2x2xi32>, tensor<1x2x4x4xf32>) {
  %0 = graph.conv %x, %w : (tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x4x4xf32>
  %1 = graph.relu %0 : (tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %2 = graph.conv %x, %w : (tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x4x4xf32>
  %3 = graph.add %2, %x : (tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %4 = graph.relu %3 : (tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %d2 = graph.constant {value = dense<1.0> : tensor<1x2x4x1xf32>} : () -> tensor<1x2x4x1xf32>
  %5 = graph.conv %x, %w : (tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x4x4xf32>
  %6 = graph.add %5, %d2 : (tensor<1x2x4x4xf32>, tensor<1x2x4x1xf32>) -> tensor<1x2x4x4xf32>
  %d3 = graph.constant {value = dense<1.0> : tensor<3x2x1x1xf32>} : () -> tensor<3x2x1x1xf32>
  %7 = graph.conv %x, %w : (tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x4x4xf32>
  %8 = graph.add %7, %d3 : (tensor<1x2x4x4xf32>, tensor<3x2x1x1xf32>) -> tensor<3x2x4x4xf32>
  %9 = graph.matmul %i, %i : (tensor<2x2xi32>, tensor<2x2xi32>) -> tensor<2x2xi32>
  %10 = graph.relu %9 : (tensor<2x2xi32>) -> tensor<2x2xi32>
  %11 = graph.conv %x, %w {activation = "sigmoid"} : (tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x4x4xf32>
  %12 = graph.relu %11 : (tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  return %0, %1, %4, %6, %8, %10, %12 : tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>, tensor<3x2x4x4xf32>, tensor<2x2xi32>, tensor<1x2x4x4xf32>
}
