// The IR is verified after each pass: a pass that leaves invalid IR fails
// the pipeline. --verify-each=false turns that off.
// RUN: not nc-opt --enable-test-passes %s --pass-pipeline='builtin.module(func.func(test-pass-create-invalid-ir),symbol-dce)' --mlir-print-ir-after-failure 2>&1 | FileCheck %s --check-prefix=VERIFY --match-full-lines
// VERIFY:<unknown>:0: error: 'func.return' op must be the last operation in the parent block
// VERIFY-NEXT:// -----// IR Dump After TestInvalidIRPass Failed (test-pass-create-invalid-ir) //----- //
// VERIFY-NEXT:func.func @f(%arg0: i32) -> i32 {
// VERIFY-NEXT:  return
// VERIFY-NEXT:  return %arg0 : i32
// VERIFY-NEXT:}
// VERIFY-NOT:SymbolDCE
// RUN: nc-opt --enable-test-passes %s --pass-pipeline='builtin.module(func.func(test-pass-create-invalid-ir),symbol-dce)' --verify-each=false | FileCheck %s --check-prefix=NO-VERIFY
// NO-VERIFY:      func.func @f(%arg0: i32) -> i32 {
// NO-VERIFY-NEXT:   return
// NO-VERIFY-NEXT:   return %arg0 : i32
// RUN: nc-opt --enable-test-passes %s --pass-pipeline='builtin.module(func.func(test-pass-create-invalid-ir{emit-invalid-ir=false}))' --verify-each | FileCheck %s --check-prefix=VALID
// VALID:      func.func @f(%arg0: i32) -> i32 {
// VALID-NEXT:   return %arg0 : i32
// RUN: not nc-opt --enable-test-passes %s --verify-each=maybe 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: nc-opt: invalid value 'maybe' for --verify-each (expected true or false)

func.func @f(%a: i32) -> i32 {
  return %a : i32
}

// A pass that says it changed nothing (nc_pass_mark_unchanged) is not
// verified after: the invalid IR of a pass that wrongly says so is found
// after the next pass that changes the IR ...
// RUN: not nc-opt --enable-test-passes %s --pass-pipeline='builtin.module(func.func(test-pass-create-invalid-ir{claim-unchanged=true}),symbol-dce)' --mlir-print-ir-after-failure 2>&1 | FileCheck %s --check-prefix=SKIP --match-full-lines
// SKIP:<unknown>:0: error: 'func.return' op must be the last operation in the parent block
// SKIP-NEXT:// -----// IR Dump After SymbolDCE Failed (symbol-dce) //----- //
// ... and a run still verifies the whole IR at its end when its last pass
// skipped the verifier (no pass is blamed: no dump).
// RUN: not nc-opt --enable-test-passes %s --pass-pipeline='builtin.module(func.func(test-pass-create-invalid-ir{claim-unchanged=true}),test-module-pass{mark-unchanged=true})' --mlir-print-ir-after-failure 2>&1 | FileCheck %s --check-prefix=END --match-full-lines
// END:<unknown>:0: error: 'func.return' op must be the last operation in the parent block
// END-NOT:// -----// IR Dump After
// Without the mark, the module pass is blamed.
// RUN: not nc-opt --enable-test-passes %s --pass-pipeline='builtin.module(func.func(test-pass-create-invalid-ir{claim-unchanged=true}),test-module-pass)' --mlir-print-ir-after-failure 2>&1 | FileCheck %s --check-prefix=BLAME --match-full-lines
// BLAME:<unknown>:0: error: 'func.return' op must be the last operation in the parent block
// BLAME-NEXT:// -----// IR Dump After TestModulePass Failed (test-module-pass) //----- //
