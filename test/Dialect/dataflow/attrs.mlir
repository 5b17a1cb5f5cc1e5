// #dataflow.set and #dataflow.map are dialect attributes with storage (the
// isl text): every spelling of the same text is the same attribute and
// prints one way, the pretty form, whatever form it was read in.
// RUN: nc-opt %s | FileCheck %s
// RUN: nc-opt %s | nc-opt | FileCheck %s
// RUN: nc-opt %s --mlir-print-op-generic | nc-opt | FileCheck %s

#domain = #dataflow.set<"{ S[i] : 0 <= i < 4 }">

// CHECK-LABEL: func.func @spellings
// CHECK-SAME: bracket = #dataflow.set<"{ S[i] : 0 <= i < 4 }">
// CHECK-SAME: escaped = #dataflow.set<"[N] -> { S[i] : 0 <= i < N }">
// CHECK-SAME: list = [#dataflow.set<"{ S[i] : 0 <= i < 4 }">, #dataflow.map<"{ S[i] -> T[i + 1] }">]
// CHECK-SAME: spaced = #dataflow.map<"{ S[i] -> T[i + 1] }">
// CHECK-SAME: via_alias = #dataflow.set<"{ S[i] : 0 <= i < 4 }">
func.func @spellings() attributes {via_alias = #domain,
                                   bracket = #dataflow<set<"{ S[i] : 0 <= i < 4 }">>,
                                   escaped = #dataflow.set<"[N] -> { S[i] : 0 <= i < \4E }">,
                                   spaced = #dataflow.map< "{ S[i] -> T[i + 1] }" >,
                                   list = [#domain, #dataflow.map<"{ S[i] -> T[i + 1] }">]} {
  return
}

// Nested in a dictionary.
// CHECK-LABEL: func.func @in_dictionary
// CHECK-SAME: d = {m = #dataflow.map<"{ A[i, j] -> B[j, i] }">}
func.func @in_dictionary() attributes {d = {m = #dataflow.map<"{ A[i, j] -> B[j, i] }">}} {
  return
}
