// An unregistered op with one region might be a symbol table: uses cannot be
// computed through it.
// RUN: not nc-opt %s --allow-unregistered-dialect --symbol-dce 2>&1 | FileCheck %s --check-prefix=ERR
// ERR: symbol-dce-invalid.mlir:[[# @LINE + 3]]:1: error: operation contains potentially unknown symbol table, meaning that we can't reliable compute symbol uses
// RUN: not nc-opt %s --allow-unregistered-dialect --pass-pipeline='builtin.module(func.func(symbol-dce))' 2>&1 | FileCheck %s --check-prefix=NOT-TABLE
// NOT-TABLE: error: 'func.func' op  was scheduled to run under SymbolDCE, but does not define a symbol table
"foo.region"() ({
  "foo.use"() {ref = @f} : () -> ()
}) : () -> ()
func.func private @f() {
  return
}
