// CSE on arith ops: equal ops (name, operands, properties such as flags and
// predicates, result types) merge; commutative ops merge whatever the order
// of their operands, as in MLIR; constants merge by value and type.
// RUN: nc-opt %s --pass-pipeline='builtin.module(func.func(cse))' | FileCheck %s

// CHECK-LABEL: func.func @duplicates
// CHECK-NEXT: %[[C:.+]] = arith.constant 5 : i32
// CHECK-NEXT: %[[C64:.+]] = arith.constant 5 : i64
// CHECK-NEXT: %[[A:.+]] = arith.addi %arg0, %[[C]] : i32
// CHECK-NEXT: %[[M:.+]] = arith.muli %[[A]], %arg1 : i32
// CHECK-NEXT: return %[[A]], %[[A]], %[[M]], %[[M]], %[[C64]]
func.func @duplicates(%a: i32, %b: i32) -> (i32, i32, i32, i32, i64) {
  %c0 = arith.constant 5 : i32
  %c1 = arith.constant 5 : i32
  %c2 = arith.constant 5 : i64
  %0 = arith.addi %a, %c0 : i32
  %1 = arith.addi %a, %c1 : i32
  %2 = arith.muli %0, %b : i32
  %3 = arith.muli %1, %b : i32
  return %0, %1, %2, %3, %c2 : i32, i32, i32, i32, i64
}

// CHECK-LABEL: func.func @commutative
// CHECK-NEXT: %[[A:.+]] = arith.addi %arg0, %arg1 : i32
// CHECK-NEXT: %[[X:.+]] = arith.xori %arg1, %arg0 : i32
// CHECK-NEXT: %[[S:.+]] = arith.subi %arg0, %arg1 : i32
// CHECK-NEXT: %[[T:.+]] = arith.subi %arg1, %arg0 : i32
// CHECK-NEXT: %[[F:.+]] = arith.mulf %arg2, %arg3 : f32
// CHECK-NEXT: return %[[A]], %[[A]], %[[X]], %[[X]], %[[S]], %[[T]], %[[F]], %[[F]]
func.func @commutative(%a: i32, %b: i32, %x: f32, %y: f32) -> (i32, i32, i32, i32, i32, i32, f32, f32) {
  %0 = arith.addi %a, %b : i32
  %1 = arith.addi %b, %a : i32
  %2 = arith.xori %b, %a : i32
  %3 = arith.xori %a, %b : i32
  %4 = arith.subi %a, %b : i32
  %5 = arith.subi %b, %a : i32
  %6 = arith.mulf %x, %y : f32
  %7 = arith.mulf %y, %x : f32
  return %0, %1, %2, %3, %4, %5, %6, %7 : i32, i32, i32, i32, i32, i32, f32, f32
}

// Properties take part: different flags or predicates keep both ops; a
// spelled-out default flag equals the implicit one.
// CHECK-LABEL: func.func @properties
// CHECK-NEXT: %[[A:.+]] = arith.addi %arg0, %arg1 : i32
// CHECK-NEXT: %[[N:.+]] = arith.addi %arg0, %arg1 overflow<nsw> : i32
// CHECK-NEXT: %[[L:.+]] = arith.cmpi slt, %arg0, %arg1 : i32
// CHECK-NEXT: %[[U:.+]] = arith.cmpi ult, %arg0, %arg1 : i32
// CHECK-NEXT: %[[F:.+]] = arith.addf %arg2, %arg2 : f32
// CHECK-NEXT: %[[G:.+]] = arith.addf %arg2, %arg2 fastmath<fast> : f32
// CHECK-NEXT: return %[[A]], %[[N]], %[[A]], %[[L]], %[[U]], %[[L]], %[[F]], %[[G]], %[[F]]
func.func @properties(%a: i32, %b: i32, %x: f32) -> (i32, i32, i32, i1, i1, i1, f32, f32, f32) {
  %0 = arith.addi %a, %b : i32
  %1 = arith.addi %a, %b overflow<nsw> : i32
  %2 = "arith.addi"(%a, %b) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
  %3 = arith.cmpi slt, %a, %b : i32
  %4 = arith.cmpi ult, %a, %b : i32
  %5 = arith.cmpi slt, %a, %b : i32
  %6 = arith.addf %x, %x : f32
  %7 = arith.addf %x, %x fastmath<fast> : f32
  %8 = "arith.addf"(%x, %x) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32
  return %0, %1, %2, %3, %4, %5, %6, %7, %8 : i32, i32, i32, i1, i1, i1, f32, f32, f32
}

// Different result types keep both casts; dead arith ops go (they are pure).
// CHECK-LABEL: func.func @casts_and_dead
// CHECK-NEXT: %[[A:.+]] = arith.extsi %arg0 : i8 to i32
// CHECK-NEXT: %[[B:.+]] = arith.extsi %arg0 : i8 to i64
// CHECK-NEXT: return %[[A]], %[[B]], %[[A]]
func.func @casts_and_dead(%a: i8) -> (i32, i64, i32) {
  %0 = arith.extsi %a : i8 to i32
  %1 = arith.extsi %a : i8 to i64
  %2 = arith.extsi %a : i8 to i32
  %3 = arith.divsi %0, %2 : i32
  return %0, %1, %2 : i32, i64, i32
}
