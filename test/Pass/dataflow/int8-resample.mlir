// Nearest resize by whole factors, constant pads of the spatial dims and
// channel shuffles on int8 become resize / pad / shuffle layers that move
// elements: the factors, the pads and the stored fill value, the group count
// are the layer's parameters, and the read relations say which input element
// each output row (or pixel) copies; padding rows read nothing.
// dataflow-inline gives the graph back unchanged.
// RUN: nc-opt --graph-to-dataflow --dataflow-deps %s | FileCheck %s
// RUN: nc-opt --graph-to-dataflow=granularity=pixel %s | FileCheck %s --check-prefix=PIXEL
// RUN: nc-opt --graph-to-dataflow --dataflow-inline %s | nc-opt > %t.out
// RUN: nc-opt %s > %t.ref
// RUN: diff %t.ref %t.out

// CHECK-LABEL: func.func @moves
// CHECK: dataflow.node "resize1"(%arg0) {{.*}}kind = "resize", macs = 0 : i64, params = {scale = array<i64: 2, 3>}, reads = [#dataflow.map<"{ S[y] -> In0[ci, yi, xi] : 0 <= y <= 5 and 0 <= ci <= 3 and -1 + y <= 2yi <= y and 0 <= xi <= 1 }">], writes = #dataflow.map<"{ S[y] -> Out[c, y, x] : 0 <= y <= 5 and 0 <= c <= 3 and 0 <= x <= 5 }">
// CHECK: dataflow.node "pad1"({{.*}}) {{.*}}kind = "pad", macs = 0 : i64, params = {pad_value = -3 : i64, pads = array<i64: 1, 0, 2, 1>}, reads = [#dataflow.map<"{ S[y] -> In0[ci, yi = -1 + y, xi] : 0 < y <= 6 and 0 <= ci <= 3 and 0 <= xi <= 5 }">], writes = #dataflow.map<"{ S[y] -> Out[c, y, x] : 0 <= y <= 8 and 0 <= c <= 3 and 0 <= x <= 6 }">
// CHECK: dataflow.node "shuffle1"({{.*}}) {{.*}}kind = "shuffle", macs = 0 : i64, params = {group = 2 : i64}, reads = [#dataflow.map<"{ S[y] -> In0[ci, yi = y, xi] : 0 <= y <= 8 and 0 <= ci <= 3 and 0 <= xi <= 6 }">]
// PIXEL: kind = "resize", {{.*}}reads = [#dataflow.map<"{ S[y, x] -> In0[ci, yi, xi] : 0 <= y <= 5 and 0 <= x <= 5 and 0 <= ci <= 3 and -1 + y <= 2yi <= y and 0 <= xi <= 1 and -2 + x <= 3xi <= x }">]
// PIXEL: kind = "shuffle", {{.*}}reads = [#dataflow.map<"{ S[y, x] -> In0[ci, yi = y, xi = x] : 0 <= y <= 8 and 0 <= x <= 6 and 0 <= ci <= 3 }">]
func.func @moves(%x: tensor<1x4x3x2xi8>) -> tensor<1x4x9x7xi8> {
  %r = graph.resize %x {coordinate_transformation_mode = "asymmetric", nearest_mode = "floor", sizes = array<i64: 1, 4, 6, 6>} : (tensor<1x4x3x2xi8>) -> tensor<1x4x6x6xi8>
  %p = graph.pad %r {pads = array<i64: 0, 0, 1, 0, 0, 0, 2, 1>, value = -3.0 : f32} : (tensor<1x4x6x6xi8>) -> tensor<1x4x9x7xi8>
  %s = graph.channel_shuffle %p {group = 2 : i64} : (tensor<1x4x9x7xi8>) -> tensor<1x4x9x7xi8>
  return %s : tensor<1x4x9x7xi8>
}

// A nearest resize of the channels: output channel c copies input channel
// clamp(floor((a c + b) / d), 0, C - 1), the op's own index map in exact
// form (half_pixel with round_prefer_floor: 3 -> 6 channels reads 0 0 1 1 2 2;
// align_corners with round_prefer_ceil: 3 -> 2 reads channels 0 and 2).
// CHECK-LABEL: func.func @nearest_channels
// CHECK: kind = "resize", macs = 0 : i64, params = {nearest_channels = array<i64: 12, 5, 24>, scale = array<i64: 2, 1>}, reads = [#dataflow.map<"{ S[y] -> In0[ci, yi, xi] : y >= 0 and 0 <= ci <= 2 and yi <= 1 and -1 + y <= 2yi <= y and 0 <= xi <= 1 }">]
// CHECK: kind = "resize", macs = 0 : i64, params = {nearest_channels = array<i64: 4, 1, 2>}, reads = [#dataflow.map<"{ S[y] -> In0[ci, yi = y, xi] : (ci) mod 2 = 0 and 0 <= y <= 1 and 0 <= ci <= 2 and 0 <= xi <= 1 }">]
func.func @nearest_channels(%x: tensor<1x3x2x2xi8>) -> (tensor<1x6x4x2xi8>, tensor<1x2x2x2xi8>) {
  %a = graph.resize %x {sizes = array<i64: 1, 6, 4, 2>} : (tensor<1x3x2x2xi8>) -> tensor<1x6x4x2xi8>
  %b = graph.resize %x {coordinate_transformation_mode = "align_corners", nearest_mode = "round_prefer_ceil", sizes = array<i64: 1, 2, 2, 2>} : (tensor<1x3x2x2xi8>) -> tensor<1x2x2x2xi8>
  return %a, %b : tensor<1x6x4x2xi8>, tensor<1x2x2x2xi8>
}

// A resize of one image into a batch of 3 runs row by row (pixel by pixel
// at pixel granularity) like the resize of one image, each iteration writing
// its row into every image (4 coordinates): the batch coordinate's
// neighbours clamp to image 0, so its layer is the resize of H and W alone,
// and its rows stream after the input rows they read.
// CHECK-LABEL: func.func @batch
// CHECK: control = [#dataflow.map<"{ P[y = 1] -> S[y' = 3]; P[y = 0] -> S[y' = 0] }">], domain = #dataflow.set<"{ S[y] : 0 <= y <= 3 }">, {{.*}}kind = "resize", macs = 0 : i64, params = {linear = array<i64: 4, -2, 8, 6, 0, 6>}, {{.*}}writes = #dataflow.map<"{ S[y] -> Out[n, c, y, x] : 0 <= y <= 3 and 0 <= n <= 2 and 0 <= c <= 1 and 0 <= x <= 2 }">
// PIXEL: domain = #dataflow.set<"{ S[y, x] : 0 <= y <= 3 and 0 <= x <= 2 }">, kind = "resize", {{.*}}writes = #dataflow.map<"{ S[y, x] -> Out[n, c, y, x] : 0 <= y <= 3 and 0 <= x <= 2 and 0 <= n <= 2 and 0 <= c <= 1 }">
func.func @batch(%x: tensor<1x2x2x3xi8>) -> tensor<3x2x4x3xi8> {
  %a = graph.resize %x {mode = "linear", sizes = array<i64: 3, 2, 4, 3>} : (tensor<1x2x2x3xi8>) -> tensor<3x2x4x3xi8>
  return %a : tensor<3x2x4x3xi8>
}
