// A QuantizeLinear -> DequantizeLinear pair whose scale differs from the
// one its input has after a data-moving op (here 0.5 after a max_pool, 0.25
// in the model; QOperator's QLinearGlobalAveragePool imports this way)
// becomes a one-input graph.concat_integer rescaling by 0.5 / 0.25 = 2 =
// 2^30 / 2^29 (the fixed-point rule), so the model's scale holds after it.
// RUN: nc-opt --graph-quantize %s | FileCheck %s
// RUN: nc-opt --graph-quantize %s -o %t.mlir
// RUN: %python -c "import numpy as np; np.save('%t.x.npy', np.array([[[[1.0, -3.5], [2.5, 0.0]]]], np.float32))"
// RUN: nc-run %t.mlir --input %t.x.npy --print | FileCheck %s --check-prefix=EXEC

// CHECK-LABEL: func.func @rescale_after_pool
// CHECK: %[[P:[0-9]+]] = graph.max_pool
// CHECK-NEXT: %[[R:[0-9]+]] = graph.concat_integer %[[P]] {axis = 1 : i64, multiplier = array<i64: 1073741824>, output_zero_point = 0 : i64, shift = array<i64: 29>} : (tensor<1x1x1x1xi8>) -> tensor<1x1x1x1xi8>
// CHECK: graph.dequantize_linear %[[R]]
// x_q = [2, -7, 5, 0], max 5, rescaled to 10 steps of 0.25: 2.5
// EXEC: {{\[\[\[\[}}2.5]]]]
func.func @rescale_after_pool(%x: tensor<1x1x2x2xf32>) -> tensor<1x1x1x1xf32> {
  %s = graph.constant {value = dense<0.5> : tensor<f32>} : () -> tensor<f32>
  %s2 = graph.constant {value = dense<0.25> : tensor<f32>} : () -> tensor<f32>
  %0 = graph.quantize_linear %x, %s : (tensor<1x1x2x2xf32>, tensor<f32>) -> tensor<1x1x2x2xi8>
  %1 = graph.dequantize_linear %0, %s : (tensor<1x1x2x2xi8>, tensor<f32>) -> tensor<1x1x2x2xf32>
  %2 = graph.max_pool %1 {kernel_shape = array<i64: 2, 2>} : (tensor<1x1x2x2xf32>) -> tensor<1x1x1x1xf32>
  %3 = graph.quantize_linear %2, %s2 : (tensor<1x1x1x1xf32>, tensor<f32>) -> tensor<1x1x1x1xi8>
  %4 = graph.dequantize_linear %3, %s2 : (tensor<1x1x1x1xi8>, tensor<f32>) -> tensor<1x1x1x1xf32>
  return %4 : tensor<1x1x1x1xf32>
}
