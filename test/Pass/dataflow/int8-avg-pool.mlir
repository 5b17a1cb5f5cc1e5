// Average pools on int8 (as graph-quantize leaves them, keeping their
// input's scale) become avg_pool / global_avg_pool layers with no
// requantization: the window geometry, the padding and count_include_pad
// are the layer's parameters; a global pool's one iteration reads the whole
// plane. dataflow-inline gives the graph back unchanged.
// RUN: nc-opt --graph-to-dataflow --dataflow-deps %s | FileCheck %s
// RUN: nc-opt --graph-to-dataflow --dataflow-inline %s | nc-opt > %t.out
// RUN: nc-opt %s > %t.ref
// RUN: diff %t.ref %t.out

// CHECK-LABEL: func.func @pools
// CHECK:      dataflow.node "pool1"(%arg0) {{.*}}kind = "avg_pool", macs = 0 : i64, params = {count_include_pad = 1 : i64, kernel = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>}, reads = [#dataflow.map<"{ S[oy] -> In0[c, iy, ix] : 0 <= oy <= 3 and 0 <= c <= 1 and iy >= -1 + oy and 0 <= iy <= 3 and iy <= 1 + oy and 0 <= ix <= 3 }">]
// CHECK-NEXT: ^bb0(%arg1: tensor<1x2x4x4xi8>):
// CHECK-NEXT:   graph.avg_pool %arg1
// CHECK:      dataflow.node "pool2"({{.*}}) {{.*}}kind = "avg_pool", macs = 0 : i64, params = {kernel = array<i64: 2, 2>, pads = array<i64: 0, 0, 1, 1>, stride = array<i64: 2, 2>}
// CHECK:      dataflow.node "global_pool1"({{.*}}) {{.*}}domain = #dataflow.set<"{ S[] }">{{.*}}kind = "global_avg_pool", macs = 0 : i64, reads = [#dataflow.map<"{ S[] -> In0[c, y, x] : 0 <= c <= 1 and 0 <= y <= 3 and 0 <= x <= 3 }">], writes = #dataflow.map<"{ S[] -> Out[c, 0, 0] : 0 <= c <= 1 }">}
// CHECK-NOT:  requantize
func.func @pools(%x: tensor<1x2x4x4xi8>) -> (tensor<1x2x2x2xi8>, tensor<1x2x1x1xi8>) {
  %b = graph.avg_pool %x {kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>, count_include_pad = 1 : i64} : (tensor<1x2x4x4xi8>) -> tensor<1x2x4x4xi8>
  %c = graph.avg_pool %x {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>, pads = array<i64: 0, 0, 1, 1>} : (tensor<1x2x4x4xi8>) -> tensor<1x2x2x2xi8>
  %g = graph.global_avg_pool %b : (tensor<1x2x4x4xi8>) -> tensor<1x2x1x1xi8>
  return %c, %g : tensor<1x2x2x2xi8>, tensor<1x2x1x1xi8>
}
