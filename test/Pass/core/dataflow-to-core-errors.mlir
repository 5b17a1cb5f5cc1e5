// dataflow-to-core needs dataflow-deps' results and maps a function once.
// RUN: nc-opt --split-input-file --verify-diagnostics --target-attach=target=northpole --dataflow-to-core %s

func.func @nodeps(%arg0: tensor<1x2x4x4xf32>) -> tensor<1x2x2x2xf32> {
  // expected-error@+1 {{'dataflow.node' op dataflow-to-core: node 'pool1' has no dependences (earliest, control, buffer_elements): run dataflow-deps first}}
  %0 = dataflow.node "pool1"(%arg0) {domain = #dataflow.set<"{ S[oy] : 0 <= oy <= 1 }">, kind = "max_pool", macs = 0 : i64, params = {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>}, reads = [#dataflow.map<"{ S[oy] -> In0[c, iy, ix] : 0 <= oy <= 1 and 0 <= c <= 1 and iy >= 2oy and 0 <= iy <= 3 and iy <= 1 + 2oy and 0 <= ix <= 3 }">], writes = #dataflow.map<"{ S[oy] -> Out[k, oy, ox] : 0 <= oy <= 1 and 0 <= k <= 1 and 0 <= ox <= 1 }">}({
  ^bb0(%arg1: tensor<1x2x4x4xf32>):
    %1 = graph.max_pool %arg1 {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x2x4x4xf32>) -> tensor<1x2x2x2xf32>
    dataflow.yield %1 : tensor<1x2x2x2xf32>
  }) : (tensor<1x2x4x4xf32>) -> tensor<1x2x2x2xf32>
  return %0 : tensor<1x2x2x2xf32>
}

// -----

// expected-error@+1 {{'func.func' op dataflow-to-core: function '@one' already has a core.chip}}
func.func @one(%arg0: tensor<1x2x4x4xf32>) -> tensor<1x2x2x2xf32> {
  %0 = dataflow.node "pool1"(%arg0) {buffer_elements = array<i64: 16>, control = [#dataflow.map<"{ P[y] -> S[oy] : 0 < y <= 3 and -2 + y <= 2oy < y }">], domain = #dataflow.set<"{ S[oy] : 0 <= oy <= 1 }">, earliest = [#dataflow.map<"{ S[oy] -> P[y = 1 + 2oy] : 0 <= oy <= 1 }">], kind = "max_pool", macs = 0 : i64, params = {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>}, reads = [#dataflow.map<"{ S[oy] -> In0[c, iy, ix] : 0 <= oy <= 1 and 0 <= c <= 1 and iy >= 2oy and 0 <= iy <= 3 and iy <= 1 + 2oy and 0 <= ix <= 3 }">], writes = #dataflow.map<"{ S[oy] -> Out[k, oy, ox] : 0 <= oy <= 1 and 0 <= k <= 1 and 0 <= ox <= 1 }">}({
  ^bb0(%arg1: tensor<1x2x4x4xf32>):
    %1 = graph.max_pool %arg1 {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x2x4x4xf32>) -> tensor<1x2x2x2xf32>
    dataflow.yield %1 : tensor<1x2x2x2xf32>
  }) : (tensor<1x2x4x4xf32>) -> tensor<1x2x2x2xf32>
  return %0 : tensor<1x2x2x2xf32>
}
core.chip {cols = 2 : i64, function = @one, rows = 2 : i64, sram_bytes = 1024 : i64, target = "tiny"} ({
}) : () -> ()
