// Float attributes round-trip exactly: values that read back from six
// significant digits print that way, others print the shortest decimal that
// reads back, and inf/NaN (and NaN payloads, and -0) print as the raw bits in
// hex, as MLIR spells them.
// RUN: nc-opt --allow-unregistered-dialect %s | FileCheck %s
// RUN: nc-opt --allow-unregistered-dialect %s | nc-opt --allow-unregistered-dialect | FileCheck %s

// CHECK-LABEL: "foo.f64"
// CHECK-SAME: a = 1.000000e+00 : f64, b = -2.500000e-01 : f64, c = 1.000000e-300 : f64, d = 1.000000e-01 : f64
// CHECK-SAME: e = 0.30000000000000004 : f64, f = 4.940660e-324 : f64, g = 1.7976931348623157e+308 : f64
// CHECK-SAME: h = 0x7FF0000000000000 : f64, i = 0xFFF0000000000000 : f64, j = 0x7FF8000000000000 : f64
// CHECK-SAME: k = 0x7FF4000000000001 : f64, l = -0.000000e+00 : f64, m = 0.000000e+00 : f64, n = 123456789.0 : f64
"foo.f64"() {a = 1.0, b = -0.25 : f64, c = 1.0e-300, d = 0.1, e = 0.30000000000000004, f = 4.9406564584124654e-324,
  g = 1.7976931348623157e308, h = 0x7FF0000000000000 : f64, i = 0xFFF0000000000000 : f64, j = 0x7FF8000000000000 : f64,
  k = 0x7FF4000000000001 : f64, l = -0.0, m = 0.0 : f64, n = 123456789.0} : () -> ()

// CHECK-LABEL: "foo.f32"
// CHECK-SAME: a = 1.000000e+00 : f32, b = 1.000000e-01 : f32, c = 3.4028235e+38 : f32, d = 1.401300e-45 : f32
// CHECK-SAME: e = 0x7F800000 : f32, f = 0xFF800000 : f32, g = 0x7FC00000 : f32, h = 0xFFC00001 : f32, i = 0x7FA00000 : f32
// CHECK-SAME: j = 1.600000e+01 : f32, k = 16777216.0 : f32, l = 16777218.0 : f32, m = -0.000000e+00 : f32
"foo.f32"() {a = 1.0 : f32, b = 0.1 : f32, c = 3.40282347e+38 : f32, d = 1.4e-45 : f32, e = 0x7F800000 : f32,
  f = 0xFF800000 : f32, g = 0x7FC00000 : f32, h = 0xFFC00001 : f32, i = 0x7FA00000 : f32, j = 16.0 : f32,
  k = 16777216.0 : f32, l = 16777217.5 : f32, m = -0.0 : f32} : () -> ()

// Decimal literals round to nearest-even in the type; hex literals are bits.
// CHECK-LABEL: "foo.f16"
// CHECK-SAME: a = 1.000000e+00 : f16, b = 6.550400e+04 : f16, c = 5.960460e-08 : f16, d = 0x7C00 : f16, e = 0xFC00 : f16
// CHECK-SAME: f = 0x7E00 : f16, g = 0x7D01 : f16, h = 9.997560e-02 : f16, i = 0x7C00 : f16, j = -0.000000e+00 : f16
"foo.f16"() {a = 1.0 : f16, b = 65504.0 : f16, c = 5.96e-8 : f16, d = 0x7C00 : f16, e = 0xFC00 : f16, f = 0x7E00 : f16,
  g = 0x7D01 : f16, h = 0.1 : f16, i = 65520.0 : f16, j = -0.0 : f16} : () -> ()

// CHECK-LABEL: "foo.bf16"
// CHECK-SAME: a = 1.000000e+00 : bf16, b = 3.140620e+00 : bf16, c = 0x7F80 : bf16, d = 0x7FC0 : bf16, e = 0xFF81 : bf16
// CHECK-SAME: f = 1.000980e-01 : bf16, g = 3.389530e+38 : bf16, h = -0.000000e+00 : bf16
"foo.bf16"() {a = 1.0 : bf16, b = 3.14159 : bf16, c = 0x7F80 : bf16, d = 0x7FC0 : bf16, e = 0xFF81 : bf16, f = 0.1 : bf16,
  g = 3.3895314e38 : bf16, h = -0.0 : bf16} : () -> ()

// Floats in arrays (f64 elides its type), dense arrays and dense elements.
// An f64 printed as hex bits keeps its type inside an array (else it would
// read back as an integer).
// CHECK-LABEL: "foo.containers"
// CHECK-SAME: a = [1.500000e+00, 0x7FF0000000000000 : f64, 2.000000e+00 : f32]
// CHECK-SAME: b = array<f32: 0x7FC00000, 1.000000e-01, -0.000000e+00>
// CHECK-SAME: c = dense<[0x7C00, 1.000000e+00, 0xFE00]> : tensor<3xf16>
"foo.containers"() {a = [1.5, 0x7FF0000000000000 : f64, 2.0 : f32], b = array<f32: 0x7FC00000, 0.1, -0.0>,
  c = dense<[0x7C00, 1.0, 0xFE00]> : tensor<3xf16>} : () -> ()
