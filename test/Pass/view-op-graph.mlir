// view-op-graph writes a Graphviz graph of the op to stderr, as MLIR's pass
// does: ops as nodes (filled with a color per op name), ops with regions and
// their blocks as clusters (with invisible anchor nodes), block arguments as
// nodes, SSA edges from definitions to uses (clipped at cluster borders),
// and with print-control-flow-edges, dashed edges between consecutive ops.
// RUN: nc-opt %s --allow-unregistered-dialect --pass-pipeline='builtin.module(func.func(view-op-graph))' -o /dev/null 2>&1 | FileCheck %s --strict-whitespace --match-full-lines
// CHECK:digraph G {
// CHECK-NEXT:  compound = true;
// CHECK-NEXT:  subgraph cluster_1 {
// CHECK-NEXT:    v2 [label = " ", shape = plain];
// CHECK-NEXT:    label = "func.func : ()\n\nfunction_type: (i32, i32) -> i32\nsym_name: \"f\"";
// CHECK-NEXT:    subgraph cluster_3 {
// CHECK-NEXT:      v4 [label = " ", shape = plain];
// CHECK-NEXT:      label = "";
// CHECK-NEXT:      v5 [label = "arg0", shape = ellipse];
// CHECK-NEXT:      v6 [label = "arg1", shape = ellipse];
// CHECK-NEXT:      v7 [fillcolor = "0.000000 1.0 1.0", label = "foo.add : (i32)\n\nk: 1 : i64\ns: \"a\\22b\"", shape = ellipse, style = filled];
// CHECK-NEXT:      subgraph cluster_8 {
// CHECK-NEXT:        v9 [label = " ", shape = plain];
// CHECK-NEXT:        label = "foo.loop : (i32)\n";
// CHECK-NEXT:        subgraph cluster_10 {
// CHECK-NEXT:          v11 [label = " ", shape = plain];
// CHECK-NEXT:          label = "";
// CHECK-NEXT:          v12 [label = "arg0", shape = ellipse];
// CHECK-NEXT:          v13 [fillcolor = "0.166667 1.0 1.0", label = "foo.mul : (i32)\n\nbig: dense<1> : tensor<17xi8>\nlist: [...] : tensor<17xi8>", shape = ellipse, style = filled];
// CHECK-NEXT:          v14 [fillcolor = "0.333333 1.0 1.0", label = "foo.yield : ()\n", shape = ellipse, style = filled];
// CHECK-NEXT:        }
// CHECK-NEXT:      }
// CHECK-NEXT:      v15 [fillcolor = "0.666667 1.0 1.0", label = "func.return : ()\n", shape = ellipse, style = filled];
// CHECK-NEXT:    }
// CHECK-NEXT:  }
// CHECK-NEXT:  v5 -> v7 [label = "0", style = solid];
// CHECK-NEXT:  v6 -> v7 [label = "1", style = solid];
// CHECK-NEXT:  v12 -> v13 [label = "0", style = solid];
// CHECK-NEXT:  v5 -> v13 [label = "1", style = solid];
// CHECK-NEXT:  v13 -> v14 [label = "", style = solid];
// CHECK-NEXT:  v7 -> v9 [lhead = cluster_8, style = solid];
// CHECK-NEXT:  v9 -> v15 [ltail = cluster_8, style = solid];
// CHECK-NEXT:}
// CHECK-EMPTY:
// RUN: nc-opt %s --allow-unregistered-dialect --pass-pipeline='builtin.module(func.func(view-op-graph{print-control-flow-edges=true print-data-flow-edges=false print-attrs=false print-result-types=false}))' -o /dev/null 2>&1 | FileCheck %s --check-prefix=CONTROL --strict-whitespace --match-full-lines
// CONTROL:    label = "func.func";
// CONTROL:          v13 [fillcolor = "0.166667 1.0 1.0", label = "foo.mul", shape = ellipse, style = filled];
// CONTROL:  v13 -> v14 [label = "", style = dashed];
// CONTROL-NEXT:  v7 -> v9 [lhead = cluster_8, style = dashed];
// CONTROL-NEXT:  v9 -> v15 [ltail = cluster_8, style = dashed];
// CONTROL-NEXT:}
// Long labels are cut at max-label-len.
// RUN: nc-opt %s --allow-unregistered-dialect --pass-pipeline='builtin.module(func.func(view-op-graph{max-label-len=4}))' -o /dev/null 2>&1 | FileCheck %s --check-prefix=CUT
// CUT: label = "func.func : ()\n\nfunction_type: (i32...\nsym_name: \"f\"";

func.func @f(%a: i32, %b: i32) -> i32 {
  %0 = "foo.add"(%a, %b) {k = 1 : i64, s = "a\"b"} : (i32, i32) -> i32
  %1 = "foo.loop"(%0) ({
  ^bb0(%x: i32):
    %2 = "foo.mul"(%x, %a) {big = dense<1> : tensor<17xi8>, list = dense<[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16]> : tensor<17xi8>} : (i32, i32) -> i32
    "foo.yield"(%2) : (i32) -> ()
  }) : (i32) -> i32
  return %1 : i32
}
