// graph-shape-inference fails, at the op, when refined operands contradict
// an op's attributes or its declared result type.
// RUN: nc-opt --split-input-file --verify-diagnostics --graph-shape-inference %s

func.func @reshape(%x: tensor<5xf32>) -> tensor<2x3xf32> {
  %0 = graph.add %x, %x : (tensor<5xf32>, tensor<5xf32>) -> tensor<?xf32>
  // expected-error@+1 {{'graph.reshape' op expects 'shape' [2, 3] to hold the input's 5 elements (input shape [5])}}
  %1 = graph.reshape %0 {shape = array<i64: 2, 3>} : (tensor<?xf32>) -> tensor<2x3xf32>
  return %1 : tensor<2x3xf32>
}

// -----

func.func @declared(%x: tensor<4x3xf32>, %y: tensor<?x3xf32>) -> tensor<2x3xf32> {
  %0 = graph.relu %x : (tensor<4x3xf32>) -> tensor<4x3xf32>
  %1 = graph.add %0, %0 : (tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<?x3xf32>
  // expected-error@+1 {{'graph.sub' op result #0: inferred type 'tensor<4x3xf32>' is incompatible with the declared type 'tensor<2x3xf32>'}}
  %2 = graph.sub %1, %y : (tensor<?x3xf32>, tensor<?x3xf32>) -> tensor<2x3xf32>
  return %2 : tensor<2x3xf32>
}
