// Input of deps-threads.test: eight dataflow nodes in a chain; the
// channels into n2 and n5 carry nothing (their producers write half of
// what they read).
func.func @chain(%x: tensor<1x4xf32>) -> tensor<1x4xf32> {
  %0 = dataflow.node "n0" (%x) {domain = #dataflow.set<"{ S[] }">, reads = [#dataflow.map<"{ S[] -> In0[i] : 0 <= i < 4 }">],
         writes = #dataflow.map<"{ S[] -> Out[i] : 0 <= i < 4 }">, macs = 0 : i64, kind = "eltwise", params = {clamp_min = 0 : i64}} ({
    ^bb0(%a: tensor<1x4xf32>):
      %r = graph.relu %a : (tensor<1x4xf32>) -> tensor<1x4xf32>
      dataflow.yield %r : tensor<1x4xf32>
  }) : (tensor<1x4xf32>) -> tensor<1x4xf32>
  %1 = dataflow.node "n1" (%0) {domain = #dataflow.set<"{ S[] }">, reads = [#dataflow.map<"{ S[] -> In0[i] : 0 <= i < 4 }">],
         writes = #dataflow.map<"{ S[] -> Out[i] : 0 <= i < 2 }">, macs = 0 : i64, kind = "eltwise", params = {clamp_min = 0 : i64}} ({
    ^bb0(%a: tensor<1x4xf32>):
      %r = graph.relu %a : (tensor<1x4xf32>) -> tensor<1x4xf32>
      dataflow.yield %r : tensor<1x4xf32>
  }) : (tensor<1x4xf32>) -> tensor<1x4xf32>
  %2 = dataflow.node "n2" (%1) {domain = #dataflow.set<"{ S[] }">, reads = [#dataflow.map<"{ S[] -> In0[i] : 2 <= i < 4 }">],
         writes = #dataflow.map<"{ S[] -> Out[i] : 0 <= i < 4 }">, macs = 0 : i64, kind = "eltwise", params = {clamp_min = 0 : i64}} ({
    ^bb0(%a: tensor<1x4xf32>):
      %r = graph.relu %a : (tensor<1x4xf32>) -> tensor<1x4xf32>
      dataflow.yield %r : tensor<1x4xf32>
  }) : (tensor<1x4xf32>) -> tensor<1x4xf32>
  %3 = dataflow.node "n3" (%2) {domain = #dataflow.set<"{ S[] }">, reads = [#dataflow.map<"{ S[] -> In0[i] : 0 <= i < 4 }">],
         writes = #dataflow.map<"{ S[] -> Out[i] : 0 <= i < 4 }">, macs = 0 : i64, kind = "eltwise", params = {clamp_min = 0 : i64}} ({
    ^bb0(%a: tensor<1x4xf32>):
      %r = graph.relu %a : (tensor<1x4xf32>) -> tensor<1x4xf32>
      dataflow.yield %r : tensor<1x4xf32>
  }) : (tensor<1x4xf32>) -> tensor<1x4xf32>
  %4 = dataflow.node "n4" (%3) {domain = #dataflow.set<"{ S[] }">, reads = [#dataflow.map<"{ S[] -> In0[i] : 0 <= i < 4 }">],
         writes = #dataflow.map<"{ S[] -> Out[i] : 0 <= i < 2 }">, macs = 0 : i64, kind = "eltwise", params = {clamp_min = 0 : i64}} ({
    ^bb0(%a: tensor<1x4xf32>):
      %r = graph.relu %a : (tensor<1x4xf32>) -> tensor<1x4xf32>
      dataflow.yield %r : tensor<1x4xf32>
  }) : (tensor<1x4xf32>) -> tensor<1x4xf32>
  %5 = dataflow.node "n5" (%4) {domain = #dataflow.set<"{ S[] }">, reads = [#dataflow.map<"{ S[] -> In0[i] : 2 <= i < 4 }">],
         writes = #dataflow.map<"{ S[] -> Out[i] : 0 <= i < 4 }">, macs = 0 : i64, kind = "eltwise", params = {clamp_min = 0 : i64}} ({
    ^bb0(%a: tensor<1x4xf32>):
      %r = graph.relu %a : (tensor<1x4xf32>) -> tensor<1x4xf32>
      dataflow.yield %r : tensor<1x4xf32>
  }) : (tensor<1x4xf32>) -> tensor<1x4xf32>
  %6 = dataflow.node "n6" (%5) {domain = #dataflow.set<"{ S[] }">, reads = [#dataflow.map<"{ S[] -> In0[i] : 0 <= i < 4 }">],
         writes = #dataflow.map<"{ S[] -> Out[i] : 0 <= i < 4 }">, macs = 0 : i64, kind = "eltwise", params = {clamp_min = 0 : i64}} ({
    ^bb0(%a: tensor<1x4xf32>):
      %r = graph.relu %a : (tensor<1x4xf32>) -> tensor<1x4xf32>
      dataflow.yield %r : tensor<1x4xf32>
  }) : (tensor<1x4xf32>) -> tensor<1x4xf32>
  %7 = dataflow.node "n7" (%6) {domain = #dataflow.set<"{ S[] }">, reads = [#dataflow.map<"{ S[] -> In0[i] : 0 <= i < 4 }">],
         writes = #dataflow.map<"{ S[] -> Out[i] : 0 <= i < 4 }">, macs = 0 : i64, kind = "eltwise", params = {clamp_min = 0 : i64}} ({
    ^bb0(%a: tensor<1x4xf32>):
      %r = graph.relu %a : (tensor<1x4xf32>) -> tensor<1x4xf32>
      dataflow.yield %r : tensor<1x4xf32>
  }) : (tensor<1x4xf32>) -> tensor<1x4xf32>
  return %7 : tensor<1x4xf32>
}
