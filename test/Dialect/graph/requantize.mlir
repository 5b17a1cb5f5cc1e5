// graph.requantize (docs/design/spine.md section 1): an int32 accumulator,
// an optional int32 bias, per-tensor or per-channel fixed-point
// multipliers and shifts; the result element type is the declared one (i8,
// i4, ui8, ...). The verifier checks the attribute values and shapes.
// The verifier's errors are in invalid-requantize.mlir.
// RUN: nc-opt %s | FileCheck %s
// RUN: nc-opt --mlir-print-op-generic %s | nc-opt | FileCheck %s
// RUN: nc-opt --graph-shape-inference %s | FileCheck %s --check-prefix=INFER

// CHECK-LABEL: func.func @forms
// CHECK-NEXT: graph.requantize %arg0, %arg1 {activation = "relu", axis = 1 : i64, multiplier = array<i64: 1073741824, 1610612736>, output_zero_point = 0 : i64, shift = array<i64: 33, 31>} : (tensor<1x2x3x3xi32>, tensor<2xi32>) -> tensor<1x2x3x3xi8>
// CHECK-NEXT: graph.requantize %arg0 {multiplier = array<i64: 1073741824>, shift = array<i64: 40>} : (tensor<1x2x3x3xi32>) -> tensor<1x2x3x3xi4>
// CHECK-NEXT: graph.requantize %arg0, %arg2 {multiplier = array<i64: 0>, output_zero_point = 255 : i64, shift = array<i64: 0>} : (tensor<1x2x3x3xi32>, tensor<i32>) -> tensor<1x2x3x3xui8>
// CHECK-NEXT: graph.requantize %arg3, %arg4 {axis = -1 : i64, multiplier = array<i64: 1, 2, 3>, shift = array<i64: 63, 63, 63>} : (tensor<4x3xi32>, tensor<3xi32>) -> tensor<4x3xi32>
func.func @forms(%acc: tensor<1x2x3x3xi32>, %b: tensor<2xi32>, %b0: tensor<i32>, %m: tensor<4x3xi32>, %bm: tensor<3xi32>) {
  %0 = graph.requantize %acc, %b {activation = "relu", axis = 1 : i64, multiplier = array<i64: 1073741824, 1610612736>, output_zero_point = 0 : i64, shift = array<i64: 33, 31>} : (tensor<1x2x3x3xi32>, tensor<2xi32>) -> tensor<1x2x3x3xi8>
  %1 = graph.requantize %acc {multiplier = array<i64: 1073741824>, shift = array<i64: 40>} : (tensor<1x2x3x3xi32>) -> tensor<1x2x3x3xi4>
  %2 = graph.requantize %acc, %b0 {multiplier = array<i64: 0>, shift = array<i64: 0>, output_zero_point = 255 : i64} : (tensor<1x2x3x3xi32>, tensor<i32>) -> tensor<1x2x3x3xui8>
  %3 = graph.requantize %m, %bm {axis = -1 : i64, multiplier = array<i64: 1, 2, 3>, shift = array<i64: 63, 63, 63>} : (tensor<4x3xi32>, tensor<3xi32>) -> tensor<4x3xi32>
  return
}

// Shape inference fills in a dynamic result shape from the accumulator.
// INFER-LABEL: func.func @infer(%arg0: tensor<2x5xi32>) -> tensor<2x5xi8>
// INFER: graph.requantize %arg0 {multiplier = array<i64: 1>, shift = array<i64: 1>} : (tensor<2x5xi32>) -> tensor<2x5xi8>
func.func @infer(%acc: tensor<2x5xi32>) -> tensor<?x?xi8> {
  %0 = graph.requantize %acc {multiplier = array<i64: 1>, shift = array<i64: 1>} : (tensor<2x5xi32>) -> tensor<?x?xi8>
  return %0 : tensor<?x?xi8>
}
