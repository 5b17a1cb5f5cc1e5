// --mlir-pass-pipeline-crash-reproducer: when a pass fails or crashes, the IR
// before that pass (with locations) and the pipeline that reruns it are
// written in MLIR's external_resources form; --run-reproducer replays it.
//
// Failure: the reproducer reproduces the same failure at the same location.
// RUN: rm -f %t.fail.mlir %t.crash.mlir
// RUN: not nc-opt --enable-test-passes %s --allow-unregistered-dialect --pass-pipeline='builtin.module(func.func(cse,test-pass-failure{gen-diagnostics=true}),symbol-dce)' --mlir-pass-pipeline-crash-reproducer=%t.fail.mlir 2>&1 | FileCheck %s --check-prefix=FAIL-MSG
// FAIL-MSG:reproducer.mlir:37:1: error: illegal operation
// FAIL-MSG:reproducer.mlir:1:1: error: Failures have been detected while processing an MLIR pass pipeline
// FAIL-MSG:reproducer.mlir:1:1: note: Pipeline failed while executing [`test-pass-failure` on 'func.func' operation: @f]: reproducer generated at `{{.*}}.fail.mlir`
// RUN: FileCheck %s --check-prefix=FAIL-FILE < %t.fail.mlir
// FAIL-FILE:      "foo.op"(%arg0, %arg0) : (i32, i32) -> i32 loc(#loc{{[0-9]*}})
// FAIL-FILE:      external_resources: {
// FAIL-FILE-NEXT:   mlir_reproducer: {
// FAIL-FILE-NEXT:     pipeline: "builtin.module(func.func(test-pass-failure{gen-diagnostics=true}))",
// FAIL-FILE-NEXT:     disable_threading: false,
// FAIL-FILE-NEXT:     verify_each: true
// FAIL-FILE-NEXT:   }
// FAIL-FILE-NEXT: }
// FAIL-FILE-NEXT: #-}
// RUN: not nc-opt --enable-test-passes %t.fail.mlir --allow-unregistered-dialect --run-reproducer 2>&1 | FileCheck %s --check-prefix=REPLAY-FAIL
// REPLAY-FAIL:reproducer.mlir:37:1: error: illegal operation
//
// Crash: as with mlir-opt, a failure reported with the reproducer, status 1.
// RUN: not nc-opt --enable-test-passes %s --allow-unregistered-dialect --pass-pipeline='builtin.module(func.func(cse,test-pass-crash))' --mlir-pass-pipeline-crash-reproducer=%t.crash.mlir --mlir-disable-threading 2>&1 | FileCheck %s --check-prefix=CRASH-MSG
// CRASH-MSG:reproducer.mlir:1:1: error: Failures have been detected while processing an MLIR pass pipeline
// CRASH-MSG:reproducer.mlir:1:1: note: Pipeline failed while executing [`test-pass-crash` on 'func.func' operation: @f]: reproducer generated at `{{.*}}.crash.mlir`
// RUN: FileCheck %s --check-prefix=CRASH-FILE < %t.crash.mlir
// CRASH-FILE:      pipeline: "builtin.module(func.func(test-pass-crash))",
// CRASH-FILE-NEXT: disable_threading: true,
// RUN: not --crash nc-opt --enable-test-passes %t.crash.mlir --allow-unregistered-dialect --run-reproducer
//
// A file without a reproducer cannot be replayed.
// RUN: not nc-opt --enable-test-passes %s --allow-unregistered-dialect --run-reproducer 2>&1 | FileCheck %s --check-prefix=NONE
// NONE: error: no mlir_reproducer pipeline in the input's external resources

func.func @f(%a: i32) -> i32 {
  %0 = "foo.op"(%a, %a) : (i32, i32) -> i32
  %1 = "foo.op"(%a, %a) : (i32, i32) -> i32
  return %0 : i32
}
