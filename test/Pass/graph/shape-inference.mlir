// graph-shape-inference: result types gain every dim their operands
// determine, in program order (a refined value refines its users), and the
// function type follows the refined func.return. Values used outside the
// graph dialect keep their types; refine-signature=false keeps signatures
// (and then the returned values' types).
// RUN: nc-opt --allow-unregistered-dialect --split-input-file --graph-shape-inference %s | FileCheck %s
// RUN: nc-opt --allow-unregistered-dialect --split-input-file --graph-shape-inference=refine-signature=false %s | FileCheck %s --check-prefix=KEEP
// RUN: nc-opt --allow-unregistered-dialect --split-input-file --graph-shape-inference --mlir-pass-statistics %s 2>&1 >/dev/null | FileCheck %s --check-prefix=STATS

// CHECK-LABEL: func.func @chain(%arg0: tensor<1x3x8x8xf32>, %arg1: tensor<4x3x3x3xf32>) -> tensor<1x4x8x8xf32>
// CHECK-NEXT: graph.conv %arg0, %arg1 {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x8x8xf32>
// CHECK-NEXT: graph.relu %{{.*}} : (tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
// CHECK-NEXT: graph.flatten %{{.*}} : (tensor<1x4x8x8xf32>) -> tensor<1x256xf32>
// CHECK-NEXT: graph.reshape %{{.*}} {shape = array<i64: 1, 4, 8, 8>} : (tensor<1x256xf32>) -> tensor<1x4x8x8xf32>
// CHECK-NEXT: return %{{.*}} : tensor<1x4x8x8xf32>
// KEEP-LABEL: func.func @chain(%arg0: tensor<1x3x8x8xf32>, %arg1: tensor<4x3x3x3xf32>) -> tensor<?x?x?x?xf32>
// KEEP: graph.flatten %{{.*}} : (tensor<1x4x8x8xf32>) -> tensor<1x256xf32>
// KEEP-NEXT: graph.reshape %{{.*}} {shape = array<i64: 1, 4, 8, 8>} : (tensor<1x256xf32>) -> tensor<?x?x?x?xf32>
// KEEP-NEXT: return %{{.*}} : tensor<?x?x?x?xf32>
func.func @chain(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<?x?x?x?xf32> {
  %0 = graph.conv %x, %w {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<?x?x?x?xf32>
  %1 = graph.relu %0 : (tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xf32>
  %2 = graph.flatten %1 : (tensor<?x?x?x?xf32>) -> tensor<?x?xf32>
  %3 = graph.reshape %2 {shape = array<i64: 1, 4, 8, 8>} : (tensor<?x?xf32>) -> tensor<?x?x?x?xf32>
  return %3 : tensor<?x?x?x?xf32>
}

// -----

// Dims the operands leave dynamic stay dynamic; declared static dims stay.
// CHECK-LABEL: func.func @partial(%arg0: tensor<?x3xf32>, %arg1: tensor<2x3xf32>) -> (tensor<3x?xf32>, tensor<2x3xf32>)
// CHECK-NEXT: graph.transpose %arg0 : (tensor<?x3xf32>) -> tensor<3x?xf32>
// CHECK-NEXT: graph.add %arg0, %arg1 : (tensor<?x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
func.func @partial(%x: tensor<?x3xf32>, %y: tensor<2x3xf32>) -> (tensor<?x?xf32>, tensor<2x?xf32>) {
  %0 = graph.transpose %x : (tensor<?x3xf32>) -> tensor<?x?xf32>
  %1 = graph.add %x, %y : (tensor<?x3xf32>, tensor<2x3xf32>) -> tensor<2x?xf32>
  return %0, %1 : tensor<?x?xf32>, tensor<2x?xf32>
}

// -----

// Several results; the element type of a cast comes from its declaration.
// CHECK-LABEL: func.func @split_cast(%arg0: tensor<6x4xf32>) -> (tensor<2x4xf32>, tensor<4x4xf16>)
// CHECK-NEXT: %[[S:.*]]:2 = graph.split %arg0 {split = array<i64: 2, 4>} : (tensor<6x4xf32>) -> (tensor<2x4xf32>, tensor<4x4xf32>)
// CHECK-NEXT: %[[C:.*]] = graph.cast %[[S]]#1 : (tensor<4x4xf32>) -> tensor<4x4xf16>
// CHECK-NEXT: return %[[S]]#0, %[[C]] : tensor<2x4xf32>, tensor<4x4xf16>
func.func @split_cast(%x: tensor<6x4xf32>) -> (tensor<?x?xf32>, tensor<?x4xf16>) {
  %0:2 = graph.split %x {split = array<i64: 2, 4>} : (tensor<6x4xf32>) -> (tensor<?x?xf32>, tensor<?x4xf32>)
  %1 = graph.cast %0#1 : (tensor<?x4xf32>) -> tensor<?x4xf16>
  return %0#0, %1 : tensor<?x?xf32>, tensor<?x4xf16>
}

// -----

// A value an op of another dialect uses keeps its type (and so do the
// values computed from it only through it).
// CHECK-LABEL: func.func @foreign(%arg0: tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %[[A:.*]] = graph.add %arg0, %arg0 : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %[[B:.*]] = graph.add %arg0, %arg0 : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<?x3xf32>
// CHECK-NEXT: "test.use"(%[[B]]) : (tensor<?x3xf32>) -> ()
// CHECK-NEXT: return %[[A]] : tensor<2x3xf32>
func.func @foreign(%x: tensor<2x3xf32>) -> tensor<?x3xf32> {
  %0 = graph.add %x, %x : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<?x3xf32>
  %1 = graph.add %x, %x : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<?x3xf32>
  "test.use"(%1) : (tensor<?x3xf32>) -> ()
  return %0 : tensor<?x3xf32>
}

// -----

// Nothing to refine: the IR is unchanged.
// CHECK-LABEL: func.func @static(%arg0: tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT: graph.relu %arg0 : (tensor<2xf32>) -> tensor<2xf32>
func.func @static(%x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = graph.relu %x : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// STATS: GraphShapeInference
// STATS-NEXT: (S) 4 num-refined
// STATS: GraphShapeInference
// STATS-NEXT: (S) 2 num-refined
// STATS: GraphShapeInference
// STATS-NEXT: (S) 3 num-refined
// STATS: GraphShapeInference
// STATS-NEXT: (S) 1 num-refined
// STATS: GraphShapeInference
// STATS-NEXT: (S) 0 num-refined
