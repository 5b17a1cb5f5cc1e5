// --mlir-timing prints mlir-opt's execution time report: a banner, the total,
// then wall time rows (and user time, summed over threads, when it differs
// from wall time) for the parser, each pipeline and pass (nested rows
// indented in the default tree display), the output, the rest and the total.
// Only the shape is checked: times vary.
// RUN: nc-opt %s --allow-unregistered-dialect --pass-pipeline='builtin.module(func.func(cse,canonicalize),symbol-dce)' --mlir-timing --mlir-disable-threading -o /dev/null 2>&1 | FileCheck %s --check-prefix=TREE --strict-whitespace --match-full-lines
// TREE:===-------------------------------------------------------------------------===
// TREE-NEXT:                         ... Execution time report ...
// TREE-NEXT:===-------------------------------------------------------------------------===
// TREE-NEXT:  Total Execution Time: {{[0-9]+\.[0-9][0-9][0-9][0-9]}} seconds
// TREE-EMPTY:
// TREE-NEXT:  ----Wall Time----  ----Name----
// TREE-NEXT:  {{ *[0-9]+\.[0-9][0-9][0-9][0-9] \( *[0-9]+\.[0-9]%\)}}  Parser
// TREE-NEXT:  {{ *[0-9]+\.[0-9][0-9][0-9][0-9] \( *[0-9]+\.[0-9]%\)}}  'func.func' Pipeline
// TREE-NEXT:  {{ *[0-9]+\.[0-9][0-9][0-9][0-9] \( *[0-9]+\.[0-9]%\)}}    CSE
// TREE-NEXT:  {{ *[0-9]+\.[0-9][0-9][0-9][0-9] \( *[0-9]+\.[0-9]%\)}}    Canonicalizer
// TREE-NEXT:  {{ *[0-9]+\.[0-9][0-9][0-9][0-9] \( *[0-9]+\.[0-9]%\)}}  SymbolDCE
// TREE-NEXT:  {{ *[0-9]+\.[0-9][0-9][0-9][0-9] \( *[0-9]+\.[0-9]%\)}}  Output
// TREE-NEXT:  {{ *[0-9]+\.[0-9][0-9][0-9][0-9] \( *[0-9]+\.[0-9]%\)}}  Rest
// TREE-NEXT:  {{ *[0-9]+\.[0-9][0-9][0-9][0-9] \(100\.0%\)}}  Total
// TREE-NOT:{{.}}
// The list display merges rows by name and sorts them by time; Rest and
// Total come last.
// RUN: nc-opt %s --allow-unregistered-dialect --pass-pipeline='builtin.module(func.func(cse),cse)' --mlir-timing --mlir-timing-display=list --mlir-disable-threading -o /dev/null 2>&1 | FileCheck %s --check-prefix=LIST --strict-whitespace --match-full-lines
// LIST:  ----Wall Time----  ----Name----
// LIST-DAG:  {{ *[0-9]+\.[0-9][0-9][0-9][0-9] \( *[0-9]+\.[0-9]%\)}}  Parser
// LIST-DAG:  {{ *[0-9]+\.[0-9][0-9][0-9][0-9] \( *[0-9]+\.[0-9]%\)}}  'func.func' Pipeline
// LIST-DAG:  {{ *[0-9]+\.[0-9][0-9][0-9][0-9] \( *[0-9]+\.[0-9]%\)}}  CSE
// LIST-DAG:  {{ *[0-9]+\.[0-9][0-9][0-9][0-9] \( *[0-9]+\.[0-9]%\)}}  Output
// LIST-NOT:  {{.*}}  CSE
// LIST:  {{ *[0-9]+\.[0-9][0-9][0-9][0-9] \( *[0-9]+\.[0-9]%\)}}  Rest
// LIST-NEXT:  {{ *[0-9]+\.[0-9][0-9][0-9][0-9] \(100\.0%\)}}  Total
// With several threads working, a user time column comes first.
// RUN: %python %S/Inputs/gen_functions.py 2000 > %t.many.mlir
// RUN: env NC_NUM_THREADS=2 nc-opt %t.many.mlir --allow-unregistered-dialect --pass-pipeline='builtin.module(func.func(cse,canonicalize))' --mlir-timing -o /dev/null 2>&1 | FileCheck %s --check-prefix=COLUMNS --strict-whitespace --match-full-lines
// COLUMNS:  ----{{User|Wall}} Time----  ----{{.*}}
// COLUMNS:  {{.*}}  'func.func' Pipeline
// RUN: not nc-opt %s --mlir-timing-display=flat 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: nc-opt: --mlir-timing-display must be 'list' or 'tree'

func.func @f() {
  return
}
func.func private @g() {
  return
}
