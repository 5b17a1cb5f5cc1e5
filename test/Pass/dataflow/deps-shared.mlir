// dataflow-deps analyses a channel once when an earlier channel has the
// same producer domain and writes and the same consumer domain and read
// (num-shared): the later ones take its earliest and control relations and
// its isl objects for the pipeline's buffers. Four equal 3x3 convs in a
// chain: the channels conv2->conv3 and conv3->conv4 equal conv1->conv2.
// The add's two inputs read In0 and In1, so they are two channels (equal
// relations, unequal buffers: on the join the skip input from conv2 holds
// the rows conv3 and conv4 take).
// RUN: nc-opt --graph-to-dataflow --dataflow-deps --mlir-pass-statistics %s --mlir-disable-threading > %t.serial 2>&1
// RUN: env NC_NUM_THREADS=4 nc-opt --graph-to-dataflow --dataflow-deps --mlir-pass-statistics %s > %t.par 2>&1
// RUN: diff %t.serial %t.par
// RUN: FileCheck %s --input-file=%t.par
// CHECK:      DataflowDeps
// CHECK:      6 num-channels
// CHECK-NEXT: 2 num-shared
// CHECK:      dataflow.node "conv2"(%{{.*}}) {buffer_elements = array<i64: [[B:[0-9]+]]>, control = [[[C:.*]]], domain = {{.*}}, earliest = [[[E:.*]]], kind
// CHECK:      dataflow.node "conv3"(%{{.*}}) {buffer_elements = array<i64: [[B]]>, control = [[[C]]], domain = {{.*}}, earliest = [[[E]]], kind
// CHECK:      dataflow.node "conv4"(%{{.*}}) {buffer_elements = array<i64: [[B]]>, control = [[[C]]], domain = {{.*}}, earliest = [[[E]]], kind
// CHECK:      dataflow.node "add1"(%{{.*}}, %{{.*}}) {buffer_elements = array<i64: 12, 36>, control = [#dataflow.map<"{ P[oy] -> S[y = oy] : 0 <= oy <= 5 }">, #dataflow.map<"{ P[oy] -> S[y = oy] : 0 <= oy <= 5 }">]
// CHECK-SAME: earliest = [#dataflow.map<"{ S[y] -> P[oy = y] : 0 <= y <= 5 }">, #dataflow.map<"{ S[y] -> P[oy = y] : 0 <= y <= 5 }">]
func.func @chain(%x: tensor<1x2x6x6xf32>) -> tensor<1x2x6x6xf32> {
  %w = graph.constant {value = dense<0.5> : tensor<2x2x3x3xf32>} : () -> tensor<2x2x3x3xf32>
  %c1 = graph.conv %x, %w {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x2x6x6xf32>, tensor<2x2x3x3xf32>) -> tensor<1x2x6x6xf32>
  %c2 = graph.conv %c1, %w {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x2x6x6xf32>, tensor<2x2x3x3xf32>) -> tensor<1x2x6x6xf32>
  %c3 = graph.conv %c2, %w {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x2x6x6xf32>, tensor<2x2x3x3xf32>) -> tensor<1x2x6x6xf32>
  %c4 = graph.conv %c3, %w {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x2x6x6xf32>, tensor<2x2x3x3xf32>) -> tensor<1x2x6x6xf32>
  %a = graph.add %c4, %c2 : (tensor<1x2x6x6xf32>, tensor<1x2x6x6xf32>) -> tensor<1x2x6x6xf32>
  return %a : tensor<1x2x6x6xf32>
}
