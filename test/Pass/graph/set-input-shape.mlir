// graph-set-input-shape gives named inputs static shapes (their dynamic dims
// the given sizes); graph-shape-inference carries them to the results.
// RUN: nc-opt %s --pass-pipeline='builtin.module(func.func(graph-set-input-shape{shapes=image:2x3x4x4,#1:5},graph-shape-inference))' | FileCheck %s
// RUN: nc-opt %s --verify-diagnostics --pass-pipeline='builtin.module(func.func(graph-set-input-shape{shapes=img:1x3x4x4}))'
// RUN: not nc-opt %s --pass-pipeline='builtin.module(func.func(graph-set-input-shape{shapes=image:1x3x4}))' 2>&1 | FileCheck %s --check-prefix=RANK
// RUN: not nc-opt %s --pass-pipeline='builtin.module(func.func(graph-set-input-shape{shapes=image:1x2x4x4}))' 2>&1 | FileCheck %s --check-prefix=SIZE
// RUN: not nc-opt %s --pass-pipeline='builtin.module(func.func(graph-set-input-shape{shapes=image:1x0x4x4}))' 2>&1 | FileCheck %s --check-prefix=ZERO
// RUN: not nc-opt %s --pass-pipeline='builtin.module(func.func(graph-set-input-shape{shapes=1x3x4x4}))' 2>&1 | FileCheck %s --check-prefix=FORM

// CHECK-LABEL: func.func @f(%arg0: tensor<2x3x4x4xf32>, %arg1: tensor<5xf32>) -> (tensor<2x3x1x1xf32>, tensor<5xf32>)
// CHECK-NEXT:  graph.global_avg_pool %arg0 : (tensor<2x3x4x4xf32>) -> tensor<2x3x1x1xf32>
// RANK: error: 'func.func' op graph-set-input-shape: input 'image' is 'tensor<?x3x?x4xf32>', which does not have rank 3
// SIZE: error: 'func.func' op graph-set-input-shape: input 'image' is 'tensor<?x3x?x4xf32>': dim 1 is 3, not 2
// ZERO: error: 'func.func' op graph-set-input-shape: '1x0x4x4' is not a shape of positive sizes D0xD1x... (for input 'image')
// FORM: error: 'func.func' op graph-set-input-shape: '1x3x4x4' is not NAME:D0xD1x... (e.g. input:1x3x224x224)
// expected-error@+1 {{graph-set-input-shape: the function has no input 'img' (its inputs: 'image', #1)}}
func.func @f(%x: tensor<?x3x?x4xf32> loc("image"), %y: tensor<?xf32>) -> (tensor<?x3x1x1xf32>, tensor<?xf32>) {
  %0 = graph.global_avg_pool %x : (tensor<?x3x?x4xf32>) -> tensor<?x3x1x1xf32>
  return %0, %y : tensor<?x3x1x1xf32>, tensor<?xf32>
}
