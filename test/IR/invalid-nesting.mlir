// RUN: nc-opt %s --split-input-file --verify-diagnostics --allow-unregistered-dialect
// Accepted once, refused by mlir-opt: a symbol nested in an op that is no
// symbol table, and a module attribute without a dialect prefix.

func.func @f() {
  // expected-error @+1 {{'func.func' op symbol's parent must have the SymbolTable trait}}
  func.func @g() {
    return
  }
  return
}

// -----

// expected-error @+1 {{'builtin.module' op can only contain attributes with dialect-prefixed names, found: 'x'}}
module attributes {x} {
}

// -----

// Dialect-prefixed module attributes and nested modules are fine.
module attributes {nc.target = "northpole"} {
  module @inner {
    func.func @g() {
      return
    }
  }
}
