// 4- and 2-bit tensors inside an exported graph travel in 8-bit containers
// (ONNX has INT4 only from opset 21, and ConvInteger, MatMulInteger and
// QLinearConv take int8 and uint8 only): a QuantizeLinear to i4 / i2
// becomes QuantizeLinear to int8 then Clip to the width (Brevitas's form),
// narrow constants int8 initializers of the same codes. onnx.checker accepts
// the export and it computes the interpreter's results (worked out by hand:
// scale 1, -20 -> -8, -8.6 -> -8 (i4) and -2 (i2), 3 -> 3 and 1, 100 -> 7
// and 1). A narrow function input or result is still refused (export.test).
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python -c "import numpy as np; np.save('%t/x.npy', np.array([-20, -8.6, 3, 100], np.float32))"
// RUN: nc-translate --export-onnx %s -o %t/n.onnx
// RUN: %python %S/Inputs/onnx_tool.py check %t/n.onnx | FileCheck %s --check-prefix=CHECKED
// RUN: %python %S/Inputs/onnx_tool.py dump %t/n.onnx | FileCheck %s --check-prefix=OPS
// RUN: nc-run %s --input %t/x.npy --print | FileCheck %s
// RUN: nc-run %t/n.onnx --input %t/x.npy --print | FileCheck %s
// CHECKED: checked:
// OPS:     initializer {{.*}} INT8 []
// OPS:      node {{.*}} QuantizeLinear(input_0,
// OPS-NEXT: node {{.*}} Clip(
// OPS-NEXT: node {{.*}} DequantizeLinear(
// OPS-NEXT: node {{.*}} QuantizeLinear(input_0,
// OPS-NEXT: node {{.*}} Clip(
// CHECK:      output #0: tensor<4xf32>
// CHECK-NEXT: [-8, -8, 3, 7]
// CHECK-NEXT: output #1: tensor<4xf32>
// CHECK-NEXT: [-2, -2, 1, 1]
func.func @narrow(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %s = graph.constant {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
  %z4 = graph.constant {value = dense<0> : tensor<i4>} : () -> tensor<i4>
  %z2 = graph.constant {value = dense<0> : tensor<i2>} : () -> tensor<i2>
  %q4 = graph.quantize_linear %x, %s, %z4 : (tensor<4xf32>, tensor<f32>, tensor<i4>) -> tensor<4xi4>
  %d4 = graph.dequantize_linear %q4, %s, %z4 : (tensor<4xi4>, tensor<f32>, tensor<i4>) -> tensor<4xf32>
  %q2 = graph.quantize_linear %x, %s, %z2 : (tensor<4xf32>, tensor<f32>, tensor<i2>) -> tensor<4xi2>
  %d2 = graph.dequantize_linear %q2, %s, %z2 : (tensor<4xi2>, tensor<f32>, tensor<i2>) -> tensor<4xf32>
  return %d4, %d2 : tensor<4xf32>, tensor<4xf32>
}
