// dataflow-deps reports what isl cannot analyse as an error at the consumer
// node, with a note at the producer: here a channel that carries nothing
// (the consumer reads none of the elements the producer writes).
// RUN: nc-opt --split-input-file --verify-diagnostics --dataflow-deps %s

func.func @empty_channel(%x: tensor<1x4xf32>) -> tensor<1x4xf32> {
  // expected-note@+1 {{producer defined here}}
  %0 = dataflow.node "first" (%x) {domain = #dataflow.set<"{ S[] }">, reads = [#dataflow.map<"{ S[] -> In0[i] : 0 <= i < 4 }">],
         writes = #dataflow.map<"{ S[] -> Out[i] : 0 <= i < 2 }">, macs = 0 : i64, kind = "eltwise", params = {clamp_min = 0 : i64}} ({
    ^bb0(%a: tensor<1x4xf32>):
      %r = graph.relu %a : (tensor<1x4xf32>) -> tensor<1x4xf32>
      dataflow.yield %r : tensor<1x4xf32>
  }) : (tensor<1x4xf32>) -> tensor<1x4xf32>
  // expected-error@+1 {{'dataflow.node' op dataflow-deps: channel 0 (from node 'first'): dependences: the consumer reads nothing the producer writes}}
  %1 = dataflow.node "second" (%0) {domain = #dataflow.set<"{ S[] }">, reads = [#dataflow.map<"{ S[] -> In0[i] : 2 <= i < 4 }">],
         writes = #dataflow.map<"{ S[] -> Out[i] : 0 <= i < 4 }">, macs = 0 : i64, kind = "eltwise", params = {clamp_min = 0 : i64}} ({
    ^bb0(%a: tensor<1x4xf32>):
      %r = graph.relu %a : (tensor<1x4xf32>) -> tensor<1x4xf32>
      dataflow.yield %r : tensor<1x4xf32>
  }) : (tensor<1x4xf32>) -> tensor<1x4xf32>
  return %1 : tensor<1x4xf32>
}
