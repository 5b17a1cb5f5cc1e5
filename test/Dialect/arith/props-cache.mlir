// The parser parses a dialect attribute's text once and reuses the object
// for the same text later in the file (ir/dialect_attrs.c): interleaved
// flags must each keep their own value, in properties and in the custom
// syntax.
// RUN: nc-opt %s | FileCheck %s
// RUN: nc-opt %s --mlir-print-op-generic | nc-opt | FileCheck %s

// CHECK-LABEL: func.func @flags
func.func @flags(%a: i32, %b: i32) -> i32 {
  // CHECK-NEXT: arith.addi %{{.*}}, %{{.*}} overflow<nsw> : i32
  %0 = "arith.addi"(%a, %b) <{overflowFlags = #arith.overflow<nsw>}> : (i32, i32) -> i32
  // CHECK-NEXT: arith.addi %{{.*}}, %{{.*}} : i32
  %1 = "arith.addi"(%0, %b) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
  // CHECK-NEXT: arith.subi %{{.*}}, %{{.*}} overflow<nuw> : i32
  %2 = "arith.subi"(%1, %b) <{overflowFlags = #arith.overflow<nuw>}> : (i32, i32) -> i32
  // CHECK-NEXT: arith.muli %{{.*}}, %{{.*}} overflow<nsw> : i32
  %3 = "arith.muli"(%2, %b) <{overflowFlags = #arith.overflow<nsw>}> : (i32, i32) -> i32
  // CHECK-NEXT: arith.muli %{{.*}}, %{{.*}} overflow<nsw, nuw> : i32
  %4 = "arith.muli"(%3, %b) <{overflowFlags = #arith.overflow<nsw, nuw>}> : (i32, i32) -> i32
  // CHECK-NEXT: arith.addi %{{.*}}, %{{.*}} overflow<nuw> : i32
  %5 = arith.addi %4, %b overflow<nuw> : i32
  // CHECK-NEXT: arith.addi %{{.*}}, %{{.*}} overflow<nsw> : i32
  %6 = "arith.addi"(%5, %b) <{overflowFlags = #arith.overflow<nsw>}> : (i32, i32) -> i32
  return %6 : i32
}

