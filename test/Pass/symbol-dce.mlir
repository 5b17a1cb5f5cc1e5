// symbol-dce erases private symbols nothing live references, with MLIR's
// rules: public symbols and non-symbol ops are live; `nested` symbols are
// live only in symbol tables visible from outside; references keep symbols
// (and, for @a::@b, each step) alive; nested symbol tables are processed too.
// RUN: nc-opt %s --allow-unregistered-dialect --split-input-file --symbol-dce --mlir-pass-statistics 2>%t.stats | FileCheck %s
// RUN: FileCheck %s --check-prefix=STATS < %t.stats
// STATS: (S) 9 num-dce'd - Number of symbols DCE'd
// STATS: (S) 1 num-dce'd - Number of symbols DCE'd

// CHECK-LABEL: module {
// CHECK-NOT:     @dead
// CHECK:         func.func private @live()
// CHECK:         func.func private @live_via_attr()
// CHECK-NOT:     @chain_a
// CHECK-NOT:     @chain_b
// CHECK-NOT:     @only_self
// CHECK:         func.func @pub()
// CHECK-NOT:     @nest_vis
// CHECK:         module @nested attributes {sym_visibility = "private"} {
// CHECK-NEXT:      func.func @inner_pub()
// CHECK-NOT:       @inner_dead
// CHECK-NOT:     @dead_nested
// CHECK:         module {
// CHECK-NOT:       @anon_dead
// CHECK:           func.func @anon_pub()
// CHECK:         "foo.sym"() {sym_name = "unregistered", sym_visibility = "private"}
module {
  func.func private @dead() {
    return
  }
  func.func private @live() {
    return
  }
  func.func private @live_via_attr() {
    return
  }
  func.func private @chain_a() {
    call @chain_b() : () -> ()
    return
  }
  func.func private @chain_b() {
    return
  }
  func.func private @only_self() {
    call @only_self() : () -> ()
    return
  }
  func.func @pub() {
    call @live() : () -> ()
    "foo.use"() {ref = [@live_via_attr, @nested::@inner_pub]} : () -> ()
    return
  }
  func.func nested @nest_vis() {
    return
  }
  module @nested attributes {sym_visibility = "private"} {
    func.func @inner_pub() {
      return
    }
    func.func private @inner_dead() {
      return
    }
  }
  module @dead_nested attributes {sym_visibility = "private"} {
    func.func @x() {
      return
    }
  }
  module {
    func.func private @anon_dead() {
      return
    }
    func.func @anon_pub() {
      return
    }
  }
  "foo.sym"() {sym_name = "unregistered", sym_visibility = "private"} : () -> ()
}

// -----

// `nested` symbols: discardable when nothing outside the op the pass runs on
// can see them (here, the top-level module); kept when symbol-dce runs on a
// public module nested in another.
// CHECK-LABEL: module @outer {
// CHECK-NEXT:    module @inner {
// CHECK-NEXT:    }
// RUN: nc-opt %s --allow-unregistered-dialect --split-input-file --pass-pipeline='builtin.module(builtin.module(symbol-dce))' | FileCheck %s --check-prefix=INNER
// INNER:      module @inner {
// INNER-NEXT:   func.func nested @kept() {
module @outer {
  module @inner {
    func.func nested @kept() {
      return
    }
  }
}
