// --mlir-print-ir-tree-dir writes each dump to its own file, in a directory
// per op (`builtin_module_no-symbol-name/func_func_f`), named by per-op dump
// counters and the pass, as mlir-opt does.
// RUN: rm -rf %t
// RUN: nc-opt %s --allow-unregistered-dialect --pass-pipeline='builtin.module(func.func(cse,canonicalize),symbol-dce)' --mlir-print-ir-after-all --mlir-print-ir-before=cse --mlir-print-ir-tree-dir=%t -o /dev/null
// RUN: cd %t && find . -type f | sort | FileCheck %s --check-prefix=FILES --match-full-lines
// FILES:./builtin_module_no-symbol-name/1_symbol-dce.mlir
// FILES-NEXT:./builtin_module_no-symbol-name/func_func_f/0_0_cse.mlir
// FILES-NEXT:./builtin_module_no-symbol-name/func_func_f/0_1_cse.mlir
// FILES-NEXT:./builtin_module_no-symbol-name/func_func_f/0_2_canonicalize.mlir
// FILES-NEXT:./builtin_module_no-symbol-name/func_func_g/0_0_cse.mlir
// FILES-NEXT:./builtin_module_no-symbol-name/func_func_g/0_1_cse.mlir
// FILES-NEXT:./builtin_module_no-symbol-name/func_func_g/0_2_canonicalize.mlir
// FILES-EMPTY:
// RUN: FileCheck %s --check-prefix=CONTENT --strict-whitespace --match-full-lines < %t/builtin_module_no-symbol-name/func_func_f/0_0_cse.mlir
// CONTENT:// -----// IR Dump Before CSE (cse) //----- //
// CONTENT-NEXT:func.func @f(%arg0: i32) -> i32 {
// CONTENT-NEXT:  return %arg0 : i32
// CONTENT-NEXT:}
// CONTENT-EMPTY:
// Nothing is printed to stderr.
// RUN: nc-opt %s --allow-unregistered-dialect --pass-pipeline='builtin.module(func.func(cse))' --mlir-print-ir-after-all --mlir-print-ir-tree-dir=%t -o /dev/null 2>&1 | count 0

func.func @f(%a: i32) -> i32 {
  return %a : i32
}
func.func private @g() {
  return
}
