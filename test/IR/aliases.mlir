// Type aliases `!name = type` and attribute aliases `#name = attr` are
// expanded where they are used (nc prints types and attributes inline);
// aliases may refer to earlier aliases, and unused ones are dropped.
// RUN: nc-opt --allow-unregistered-dialect %s | FileCheck %s
// RUN: nc-opt --allow-unregistered-dialect %s | nc-opt --allow-unregistered-dialect | FileCheck %s
// RUN: nc-opt --allow-unregistered-dialect --mlir-print-op-generic %s | nc-opt --allow-unregistered-dialect | FileCheck %s

!f32t = tensor<4xf32>
!pair = tuple<!f32t, i32>
!dialect = !foo.buffer<4, i8>
!unused = i1
#one = 1 : i64
#arr = [#one, "x", !pair]
#dict = {k = #arr, t = !dialect}
#dense = dense<[1.0, 2.0, 3.0, 4.0]> : !f32t
#map = affine_map<(d0) -> (d0 * 2)>
#dialect_attr = #foo.attr<[1, 2]>

// CHECK-LABEL: func.func @f(%arg0: tensor<4xf32>, %arg1: tuple<tensor<4xf32>, i32>) -> !foo.buffer<4, i8>
// CHECK-NEXT: %1 = "foo.op"(%arg0) {a = 1 : i64, b = [1, "x", tuple<tensor<4xf32>, i32>], c = {k = [1, "x", tuple<tensor<4xf32>, i32>], t = !foo.buffer<4, i8>}
// CHECK-SAME: d = dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00]> : tensor<4xf32>
// CHECK-SAME: e = affine_map<(d0) -> (d0 * 2)>, f = #foo.attr<[1, 2]>} : (tensor<4xf32>) -> !foo.buffer<4, i8>
// CHECK-NEXT: return %1 : !foo.buffer<4, i8>
func.func @f(%a: !f32t, %b: !pair) -> !dialect {
  %r = "foo.op"(%a) {a = #one, b = #arr, c = #dict, d = #dense, e = #map, f = #dialect_attr} : (!f32t) -> !dialect
  return %r : !dialect
}

// Aliases can appear inside other types, e.g. as element types and memory spaces.
// CHECK-LABEL: %0:2 = "foo.nested"() : () -> (tensor<2x!foo.buffer<4, i8>>, memref<4xi8, {k = [1, "x", tuple<tensor<4xf32>, i32>], t = !foo.buffer<4, i8>}>)
%n:2 = "foo.nested"() : () -> (tensor<2x!dialect>, memref<4xi8, #dict>)

// CHECK-NOT: !unused
// CHECK-NOT: #one
