// IR dumps around passes, with mlir-opt's flag names and exact text: a
// `// -----// IR Dump {Before|After} Name (argument) //----- //` header, the
// op the pass ran on, and a blank line. Dumps of nested ops come out in op
// order with or without threads.
// RUN: nc-opt --enable-test-passes %s --allow-unregistered-dialect --pass-pipeline='builtin.module(func.func(cse),symbol-dce)' --mlir-print-ir-before-all -o /dev/null 2>&1 | FileCheck %s --check-prefix=BEFORE --strict-whitespace --match-full-lines
// RUN: nc-opt --enable-test-passes %s --allow-unregistered-dialect --pass-pipeline='builtin.module(func.func(cse),symbol-dce)' --mlir-print-ir-after-all -o /dev/null 2>&1 | FileCheck %s --check-prefix=AFTER --strict-whitespace --match-full-lines
// RUN: nc-opt --enable-test-passes %s --allow-unregistered-dialect --pass-pipeline='builtin.module(func.func(cse),symbol-dce)' --mlir-print-ir-after-all --mlir-disable-threading -o /dev/null 2>&1 | FileCheck %s --check-prefix=AFTER --strict-whitespace --match-full-lines
// RUN: nc-opt --enable-test-passes %s --allow-unregistered-dialect --pass-pipeline='builtin.module(func.func(cse,canonicalize),symbol-dce)' --mlir-print-ir-after=symbol-dce --mlir-print-ir-before=cse -o /dev/null 2>&1 | FileCheck %s --check-prefix=SELECT --strict-whitespace --match-full-lines
// RUN: nc-opt --enable-test-passes %s --allow-unregistered-dialect --pass-pipeline='builtin.module(func.func(cse,canonicalize),symbol-dce)' --mlir-print-ir-after-change -o /dev/null 2>&1 | FileCheck %s --check-prefix=CHANGE --strict-whitespace --match-full-lines
// RUN: nc-opt --enable-test-passes %s --allow-unregistered-dialect --pass-pipeline='builtin.module(func.func(cse,canonicalize),symbol-dce)' --mlir-print-ir-after-all --mlir-print-ir-after-change -o /dev/null 2>&1 | FileCheck %s --check-prefix=CHANGE --strict-whitespace --match-full-lines
// RUN: nc-opt --enable-test-passes %s --allow-unregistered-dialect --pass-pipeline='builtin.module(func.func(cse),symbol-dce)' --mlir-print-ir-after-all --mlir-print-ir-module-scope -o /dev/null 2>&1 | FileCheck %s --check-prefix=SCOPE --strict-whitespace --match-full-lines
// RUN: not nc-opt --enable-test-passes %s --allow-unregistered-dialect --pass-pipeline='builtin.module(func.func(cse,test-pass-failure),symbol-dce)' --mlir-print-ir-after-failure -o /dev/null 2>&1 | FileCheck %s --check-prefix=FAILURE --strict-whitespace --match-full-lines

func.func @dup(%a: i32) -> i32 {
  %0 = "foo.pure"(%a) : (i32) -> i32
  return %0 : i32
}
func.func private @unused() {
  return
}

// BEFORE:// -----// IR Dump Before CSE (cse) //----- //
// BEFORE-NEXT:func.func @dup(%arg0: i32) -> i32 {
// BEFORE-NEXT:  %0 = "foo.pure"(%arg0) : (i32) -> i32
// BEFORE-NEXT:  return %0 : i32
// BEFORE-NEXT:}
// BEFORE-EMPTY:
// BEFORE-NEXT:// -----// IR Dump Before CSE (cse) //----- //
// BEFORE-NEXT:func.func private @unused() {
// BEFORE-NEXT:  return
// BEFORE-NEXT:}
// BEFORE-EMPTY:
// BEFORE-NEXT:// -----// IR Dump Before SymbolDCE (symbol-dce) //----- //
// BEFORE-NEXT:module {
// BEFORE-NEXT:  func.func @dup(%arg0: i32) -> i32 {
// BEFORE-NEXT:    %0 = "foo.pure"(%arg0) : (i32) -> i32
// BEFORE-NEXT:    return %0 : i32
// BEFORE-NEXT:  }
// BEFORE-NEXT:  func.func private @unused() {
// BEFORE-NEXT:    return
// BEFORE-NEXT:  }
// BEFORE-NEXT:}
// BEFORE-EMPTY:
// BEFORE-EMPTY:
// BEFORE-NOT:{{.}}

// AFTER:// -----// IR Dump After CSE (cse) //----- //
// AFTER-NEXT:func.func @dup(%arg0: i32) -> i32 {
// AFTER:// -----// IR Dump After CSE (cse) //----- //
// AFTER-NEXT:func.func private @unused() {
// AFTER:// -----// IR Dump After SymbolDCE (symbol-dce) //----- //
// AFTER-NEXT:module {
// AFTER-NEXT:  func.func @dup(%arg0: i32) -> i32 {
// AFTER-NEXT:    %0 = "foo.pure"(%arg0) : (i32) -> i32
// AFTER-NEXT:    return %0 : i32
// AFTER-NEXT:  }
// AFTER-NEXT:}
// AFTER-EMPTY:
// AFTER-EMPTY:
// AFTER-NOT:{{.}}

// SELECT:// -----// IR Dump Before CSE (cse) //----- //
// SELECT-NEXT:func.func @dup(%arg0: i32) -> i32 {
// SELECT:// -----// IR Dump Before CSE (cse) //----- //
// SELECT-NEXT:func.func private @unused() {
// SELECT-NOT:Canonicalizer
// SELECT:// -----// IR Dump After SymbolDCE (symbol-dce) //----- //
// SELECT-NOT:IR Dump

// Only symbol-dce changes anything here.
// CHANGE-NOT:IR Dump
// CHANGE:// -----// IR Dump After SymbolDCE (symbol-dce) //----- //
// CHANGE-NOT:IR Dump

// SCOPE:// -----// IR Dump After CSE (cse) ('func.func' operation: @dup) //----- //
// SCOPE-NEXT:module {
// SCOPE:// -----// IR Dump After CSE (cse) ('func.func' operation: @unused) //----- //
// SCOPE-NEXT:module {
// SCOPE:// -----// IR Dump After SymbolDCE (symbol-dce) ('builtin.module' operation) //----- //
// SCOPE-NEXT:module {

// A failed pass prints its IR with `Failed` in the header; symbol-dce never runs.
// FAILURE-NOT:IR Dump
// FAILURE:{{.*}}ir-printing.mlir:{{[0-9]+}}:1: error: pass 'test-pass-failure' failed on 'func.func' operation: @dup
// FAILURE:// -----// IR Dump After TestFailurePass Failed (test-pass-failure) //----- //
// FAILURE-NEXT:func.func @dup(%arg0: i32) -> i32 {
// FAILURE:// -----// IR Dump After TestFailurePass Failed (test-pass-failure) //----- //
// FAILURE-NEXT:func.func private @unused() {
// FAILURE-NOT:IR Dump
