// ShuffleNet's channel shuffle as torch exports it (reshape [N, C, H, W] ->
// [N, g, C/g, H, W], transpose (0, 2, 1, 3, 4), reshape back) becomes one
// graph.channel_shuffle under canonicalize; other reshape-transpose-reshape
// chains stay as they are. The verifier wants a group count dividing C.
// RUN: nc-opt --canonicalize --split-input-file %s | FileCheck %s
// RUN: nc-opt --split-input-file --verify-diagnostics %S/Inputs/channel-shuffle-invalid.mlir

// CHECK-LABEL: func.func @shuffle
// CHECK-NEXT: %[[S:.*]] = graph.channel_shuffle %arg0 {group = 3 : i64} : (tensor<1x6x2x2xf32>) -> tensor<1x6x2x2xf32>
// CHECK-NEXT: return %[[S]]
func.func @shuffle(%x: tensor<1x6x2x2xf32>) -> tensor<1x6x2x2xf32> {
  %a = graph.reshape %x {shape = array<i64: 1, 3, 2, 2, 2>} : (tensor<1x6x2x2xf32>) -> tensor<1x3x2x2x2xf32>
  %b = graph.transpose %a {perm = array<i64: 0, 2, 1, 3, 4>} : (tensor<1x3x2x2x2xf32>) -> tensor<1x2x3x2x2xf32>
  %c = graph.reshape %b {shape = array<i64: 1, 6, 2, 2>} : (tensor<1x2x3x2x2xf32>) -> tensor<1x6x2x2xf32>
  return %c : tensor<1x6x2x2xf32>
}

// -----

// Another permutation (the spatial dims swapped): not a shuffle.
// CHECK-LABEL: func.func @not_shuffle
// CHECK: graph.transpose
// CHECK-NOT: graph.channel_shuffle
func.func @not_shuffle(%x: tensor<1x6x2x2xf32>) -> tensor<1x6x2x2xf32> {
  %a = graph.reshape %x {shape = array<i64: 1, 3, 2, 2, 2>} : (tensor<1x6x2x2xf32>) -> tensor<1x3x2x2x2xf32>
  %b = graph.transpose %a {perm = array<i64: 0, 1, 2, 4, 3>} : (tensor<1x3x2x2x2xf32>) -> tensor<1x3x2x2x2xf32>
  %c = graph.reshape %b {shape = array<i64: 1, 6, 2, 2>} : (tensor<1x3x2x2x2xf32>) -> tensor<1x6x2x2xf32>
  return %c : tensor<1x6x2x2xf32>
}

// -----

// The transposed tensor is used elsewhere too: it stays.
// CHECK-LABEL: func.func @shared
// CHECK: graph.transpose
// CHECK-NOT: graph.channel_shuffle
func.func @shared(%x: tensor<1x6x2x2xf32>) -> (tensor<1x6x2x2xf32>, tensor<1x2x3x2x2xf32>) {
  %a = graph.reshape %x {shape = array<i64: 1, 3, 2, 2, 2>} : (tensor<1x6x2x2xf32>) -> tensor<1x3x2x2x2xf32>
  %b = graph.transpose %a {perm = array<i64: 0, 2, 1, 3, 4>} : (tensor<1x3x2x2x2xf32>) -> tensor<1x2x3x2x2xf32>
  %c = graph.reshape %b {shape = array<i64: 1, 6, 2, 2>} : (tensor<1x2x3x2x2xf32>) -> tensor<1x6x2x2xf32>
  return %c, %b : tensor<1x6x2x2xf32>, tensor<1x2x3x2x2xf32>
}
