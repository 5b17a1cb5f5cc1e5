// print-op-stats counts ops by name (the op it runs on included) and prints
// mlir-opt's table to stderr (dialects right-aligned on the dot), or JSON.
// The IR is unchanged.
// RUN: nc-opt %s --allow-unregistered-dialect --print-op-stats 2>&1 >/dev/null | FileCheck %s --strict-whitespace --match-full-lines
// CHECK:Operations encountered:
// CHECK-NEXT:-----------------------
// CHECK-NEXT:  builtin.module                     , 1
// CHECK-NEXT:      foo.op                         , 2
// CHECK-NEXT:      foo.with_a_rather_long_op_name , 1
// CHECK-NEXT:     func.func                       , 2
// CHECK-NEXT:     func.return                     , 2
// CHECK-EMPTY:
// RUN: nc-opt %s --allow-unregistered-dialect --print-op-stats=json 2>&1 >/dev/null | FileCheck %s --check-prefix=JSON --strict-whitespace --match-full-lines
// RUN: nc-opt %s --allow-unregistered-dialect --pass-pipeline='builtin.module(print-op-stats{json=true})' 2>&1 >/dev/null | FileCheck %s --check-prefix=JSON --strict-whitespace --match-full-lines
// JSON:{
// JSON-NEXT:  "builtin.module" : 1,
// JSON-NEXT:  "foo.op" : 2,
// JSON-NEXT:  "foo.with_a_rather_long_op_name" : 1,
// JSON-NEXT:  "func.func" : 2,
// JSON-NEXT:  "func.return" : 2
// JSON-NEXT:}
// On each function, in function order even with threads.
// RUN: env NC_NUM_THREADS=2 nc-opt %s --allow-unregistered-dialect --pass-pipeline='builtin.module(func.func(print-op-stats))' 2>&1 >/dev/null | FileCheck %s --check-prefix=FUNC --strict-whitespace --match-full-lines
// FUNC:Operations encountered:
// FUNC-NEXT:-----------------------
// FUNC-NEXT:   foo.op                         , 2
// FUNC-NEXT:   foo.with_a_rather_long_op_name , 1
// FUNC-NEXT:  func.func                       , 1
// FUNC-NEXT:  func.return                     , 1
// FUNC-NEXT:Operations encountered:
// FUNC-NEXT:-----------------------
// FUNC-NEXT:  func.func   , 1
// FUNC-NEXT:  func.return , 1
// RUN: nc-opt %s --allow-unregistered-dialect --print-op-stats 2>/dev/null | FileCheck %s --check-prefix=IR
// IR: "foo.with_a_rather_long_op_name"

func.func @f() {
  "foo.op"() : () -> ()
  "foo.op"() : () -> ()
  "foo.with_a_rather_long_op_name"() : () -> ()
  return
}
func.func @g() {
  return
}
