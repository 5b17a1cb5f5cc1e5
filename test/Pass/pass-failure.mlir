// A failing pass stops the pipeline (later passes do not run, no output is
// printed) and nc-opt exits with status 1. A pass that fails without saying
// why still gets a diagnostic naming the pass and the op it failed on.
// RUN: not nc-opt --enable-test-passes %s --allow-unregistered-dialect --pass-pipeline='builtin.module(func.func(test-pass-failure),test-stats-pass)' --mlir-pass-statistics 2>&1 | FileCheck %s --check-prefix=SILENT --strict-whitespace --match-full-lines
// SILENT:{{.*}}pass-failure.mlir:19:1: error: pass 'test-pass-failure' failed on 'func.func' operation: @f
// SILENT-NEXT:func.func @f() {
// SILENT-NEXT:^
// SILENT-NEXT:{{.*}}pass-failure.mlir:22:1: error: pass 'test-pass-failure' failed on 'func.func' operation: @g
// SILENT:TestStatisticPass
// SILENT-NEXT:  (S) 0 num-ops  - Number of operations counted
// SILENT-NOT:module
//
// With its own diagnostic, the pass manager adds nothing.
// RUN: not nc-opt --enable-test-passes %s --allow-unregistered-dialect --pass-pipeline='builtin.module(test-pass-failure{gen-diagnostics=true})' 2>&1 | FileCheck %s --check-prefix=LOUD --match-full-lines
// LOUD:{{.*}}pass-failure.mlir:1:1: error: illegal operation
// LOUD-NOT:error
// LOUD-NOT:module

func.func @f() {
  return
}
func.func @g() {
  return
}
