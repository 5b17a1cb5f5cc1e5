// arith folds and canonicalization patterns, as MLIR 19 applies them: each
// function exercises a group of folds (constants wrap at the type's width,
// IEEE rounding in the type's precision; division by zero, MIN / -1 and
// over-wide shifts stay) or patterns (constant reassociation, negated
// comparisons, select and cast simplifications). mlir-diff.test runs this
// file through mlir-opt too and checks that both leave the same ops.
// RUN: nc-opt %s --pass-pipeline='builtin.module(func.func(canonicalize))' | FileCheck %s
// RUN: nc-opt %s --canonicalize --mlir-print-op-generic | nc-opt --canonicalize | FileCheck %s

// CHECK-LABEL: func.func @addi_fold
// CHECK-DAG: %[[C7:.+]] = arith.constant 7 : i32
// CHECK-DAG: %[[WRAP:.+]] = arith.constant -2147483642 : i32
// CHECK: %[[A:.+]] = arith.addi %arg0, %[[C7]] : i32
// CHECK: return %arg0, %arg0, %[[WRAP]], %[[A]]
func.func @addi_fold(%x: i32) -> (i32, i32, i32, i32) {
  %c0 = arith.constant 0 : i32
  %c7 = arith.constant 7 : i32
  %cmax = arith.constant 2147483647 : i32
  %0 = arith.addi %x, %c0 : i32
  %1 = arith.addi %c0, %x : i32
  %2 = arith.addi %c7, %cmax : i32
  %3 = arith.addi %c7, %x : i32
  return %0, %1, %2, %3 : i32, i32, i32, i32
}

// CHECK-LABEL: func.func @addi_sub_cancel
// CHECK-NEXT: return %arg0, %arg0
func.func @addi_sub_cancel(%a: i32, %b: i32) -> (i32, i32) {
  %0 = arith.subi %a, %b : i32
  %1 = arith.addi %0, %b : i32
  %2 = arith.addi %b, %0 : i32
  return %1, %2 : i32, i32
}

// CHECK-LABEL: func.func @addi_patterns
// CHECK-DAG: %[[C2:.+]] = arith.constant 2 : i32
// CHECK-DAG: %[[C8:.+]] = arith.constant 8 : i32
// CHECK: %[[A:.+]] = arith.addi %arg0, %[[C8]] : i32
// CHECK: %[[B:.+]] = arith.addi %arg0, %[[C2]] : i32
// CHECK: %[[C:.+]] = arith.subi %[[C8]], %arg0 : i32
// CHECK: %[[D:.+]] = arith.subi %arg0, %arg1 : i32
// CHECK: %[[E:.+]] = arith.subi %arg0, %arg1 : i32
// CHECK: return %[[A]], %[[B]], %[[C]], %[[D]], %[[E]]
func.func @addi_patterns(%x: i32, %y: i32) -> (i32, i32, i32, i32, i32) {
  %c3 = arith.constant 3 : i32
  %c5 = arith.constant 5 : i32
  %m1 = arith.constant -1 : i32
  %0 = arith.addi %x, %c3 : i32
  %1 = arith.addi %0, %c5 : i32
  %2 = arith.subi %x, %c3 : i32
  %3 = arith.addi %2, %c5 : i32
  %4 = arith.subi %c3, %x : i32
  %5 = arith.addi %4, %c5 : i32
  %6 = arith.muli %y, %m1 : i32
  %7 = arith.addi %x, %6 : i32
  %8 = arith.addi %6, %x : i32
  return %1, %3, %5, %7, %8 : i32, i32, i32, i32, i32
}

// CHECK-LABEL: func.func @addi_overflow_merge
// CHECK: %[[C8:.+]] = arith.constant 8 : i32
// CHECK: arith.addi %arg0, %[[C8]] overflow<nsw> : i32
// CHECK: arith.addi %arg0, %[[C8]] : i32
func.func @addi_overflow_merge(%x: i32) -> (i32, i32) {
  %c3 = arith.constant 3 : i32
  %c5 = arith.constant 5 : i32
  %0 = arith.addi %x, %c3 overflow<nsw, nuw> : i32
  %1 = arith.addi %0, %c5 overflow<nsw> : i32
  %2 = arith.addi %x, %c5 overflow<nuw> : i32
  %3 = arith.addi %2, %c3 overflow<nsw> : i32
  return %1, %3 : i32, i32
}

// CHECK-LABEL: func.func @subi_fold
// CHECK-DAG: %[[MAX:.+]] = arith.constant 2147483647 : i32
// CHECK-DAG: %[[ZERO:.+]] = arith.constant 0 : i32
// CHECK-NOT: arith.subi
// CHECK: return %[[ZERO]], %arg0, %arg1, %arg2, %[[MAX]]
func.func @subi_fold(%x: i32, %a: i32, %b: i32) -> (i32, i32, i32, i32, i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %cmin = arith.constant -2147483648 : i32
  %0 = arith.subi %x, %x : i32
  %1 = arith.subi %x, %c0 : i32
  %s = arith.addi %a, %b : i32
  %2 = arith.subi %s, %b : i32
  %3 = arith.subi %s, %a : i32
  %4 = arith.subi %cmin, %c1 : i32
  return %0, %1, %2, %3, %4 : i32, i32, i32, i32, i32
}

// CHECK-LABEL: func.func @subi_patterns
// CHECK-DAG: %[[M3:.+]] = arith.constant -3 : i64
// CHECK-DAG: %[[C13:.+]] = arith.constant 13 : i64
// CHECK-DAG: %[[C7:.+]] = arith.constant 7 : i64
// CHECK-DAG: %[[M7:.+]] = arith.constant -7 : i64
// CHECK: %[[R0:.+]] = arith.addi %arg0, %[[M7]] : i64
// CHECK: %[[R1:.+]] = arith.subi %[[C7]], %arg0 : i64
// CHECK: %[[R2:.+]] = arith.subi %arg0, %[[C13]] : i64
// CHECK: %[[R3:.+]] = arith.subi %[[C13]], %arg0 : i64
// CHECK: %[[R4:.+]] = arith.subi %[[M7]], %arg0 : i64
// CHECK: %[[R5:.+]] = arith.addi %arg0, %[[C7]] : i64
// CHECK: %[[R6:.+]] = arith.addi %arg0, %[[M3]] : i64
// CHECK: return %[[R0]], %[[R1]], %[[R2]], %[[R3]], %[[R4]], %[[R5]], %[[R6]]
func.func @subi_patterns(%x: i64) -> (i64, i64, i64, i64, i64, i64, i64) {
  %c3 = arith.constant 3 : i64
  %c10 = arith.constant 10 : i64
  %a = arith.addi %x, %c3 : i64
  %0 = arith.subi %a, %c10 : i64
  %1 = arith.subi %c10, %a : i64
  %s = arith.subi %x, %c3 : i64
  %2 = arith.subi %s, %c10 : i64
  %3 = arith.subi %c10, %s : i64
  %r = arith.subi %c3, %x : i64
  %4 = arith.subi %r, %c10 : i64
  %5 = arith.subi %c10, %r : i64
  %y = arith.subi %x, %r : i64
  %6 = arith.subi %y, %x : i64
  return %0, %1, %2, %3, %4, %5, %6 : i64, i64, i64, i64, i64, i64, i64
}

// CHECK-LABEL: func.func @muli
// CHECK-DAG: %[[P:.+]] = arith.constant -11072 : i16
// CHECK-DAG: %[[Z:.+]] = arith.constant 0 : i16
// CHECK: %[[M:.+]] = arith.muli %arg0, %[[P]] : i16
// CHECK: return %[[Z]], %arg0, %[[P]], %[[M]]
func.func @muli(%x: i16) -> (i16, i16, i16, i16) {
  %c0 = arith.constant 0 : i16
  %c1 = arith.constant 1 : i16
  %c300 = arith.constant 300 : i16
  %c400 = arith.constant 400 : i16
  %0 = arith.muli %x, %c0 : i16
  %1 = arith.muli %c1, %x : i16
  %2 = arith.muli %c300, %c400 : i16
  %m = arith.muli %x, %c300 : i16
  %3 = arith.muli %m, %c400 : i16
  return %0, %1, %2, %3 : i16, i16, i16, i16
}

// CHECK-LABEL: func.func @division
// CHECK-DAG: %[[M4:.+]] = arith.constant -4 : i32
// CHECK-DAG: %[[C4:.+]] = arith.constant 4 : i32
// CHECK-DAG: %[[U:.+]] = arith.constant 2147483644 : i32
// CHECK-DAG: %[[M3:.+]] = arith.constant -3 : i32
// CHECK-DAG: %[[Z:.+]] = arith.constant 0 : i32
// CHECK-DAG: %[[C1:.+]] = arith.constant 1 : i32
// CHECK-DAG: %[[M1:.+]] = arith.constant -1 : i32
// CHECK-DAG: %[[C7:.+]] = arith.constant 7 : i32
// CHECK-DAG: %[[MIN:.+]] = arith.constant -2147483648 : i32
// CHECK: %[[BYZERO:.+]] = arith.divsi %[[C7]], %[[Z]] : i32
// CHECK: %[[OVF:.+]] = arith.divsi %[[MIN]], %[[M1]] : i32
// CHECK: return %arg0, %[[M3]], %[[BYZERO]], %[[OVF]], %[[U]], %[[M3]], %[[C4]], %[[M4]], %[[M1]], %[[C1]], %[[Z]]
func.func @division(%x: i32) -> (i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %cm1 = arith.constant -1 : i32
  %c7 = arith.constant 7 : i32
  %cm7 = arith.constant -7 : i32
  %c2 = arith.constant 2 : i32
  %cmin = arith.constant -2147483648 : i32
  %0 = arith.divsi %x, %c1 : i32
  %1 = arith.divsi %cm7, %c2 : i32
  %2 = arith.divsi %c7, %c0 : i32
  %3 = arith.divsi %cmin, %cm1 : i32
  %4 = arith.divui %cm7, %c2 : i32
  %5 = arith.ceildivsi %cm7, %c2 : i32
  %6 = arith.ceildivui %c7, %c2 : i32
  %7 = arith.floordivsi %cm7, %c2 : i32
  %8 = arith.remsi %cm7, %c2 : i32
  %9 = arith.remui %cm7, %c2 : i32
  %10 = arith.remsi %x, %c1 : i32
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10 : i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32
}

// CHECK-LABEL: func.func @bitwise
// CHECK-DAG: %[[C6:.+]] = arith.constant 6 : i8
// CHECK-DAG: %[[Z:.+]] = arith.constant 0 : i8
// CHECK-DAG: %[[M1:.+]] = arith.constant -1 : i8
// CHECK: %[[A:.+]] = arith.andi %arg0, %arg1 : i8
// CHECK: return %[[Z]], %arg0, %arg0, %[[Z]], %arg0, %[[M1]], %[[M1]], %[[Z]], %arg0, %arg0, %[[A]], %[[C6]]
func.func @bitwise(%x: i8, %y: i8) -> (i8, i8, i8, i8, i8, i8, i8, i8, i8, i8, i8, i8) {
  %c0 = arith.constant 0 : i8
  %m1 = arith.constant -1 : i8
  %c12 = arith.constant 12 : i8
  %c10 = arith.constant 10 : i8
  %0 = arith.andi %x, %c0 : i8
  %1 = arith.andi %x, %m1 : i8
  %2 = arith.andi %x, %x : i8
  %n = arith.xori %x, %m1 : i8
  %3 = arith.andi %x, %n : i8
  %4 = arith.ori %x, %c0 : i8
  %5 = arith.ori %x, %m1 : i8
  %6 = arith.ori %n, %x : i8
  %7 = arith.xori %x, %x : i8
  %xy = arith.xori %x, %y : i8
  %8 = arith.xori %xy, %y : i8
  %9 = arith.xori %y, %xy : i8
  %a = arith.andi %x, %y : i8
  %10 = arith.andi %x, %a : i8
  %11 = arith.xori %c12, %c10 : i8
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11 : i8, i8, i8, i8, i8, i8, i8, i8, i8, i8, i8, i8
}

// CHECK-LABEL: func.func @shifts
// CHECK-DAG: %[[C30:.+]] = arith.constant 30 : i8
// CHECK-DAG: %[[M2:.+]] = arith.constant -2 : i8
// CHECK-DAG: %[[C24:.+]] = arith.constant 24 : i8
// CHECK-DAG: %[[C3:.+]] = arith.constant 3 : i8
// CHECK-DAG: %[[C8:.+]] = arith.constant 8 : i8
// CHECK: %[[WIDE:.+]] = arith.shli %[[C3]], %[[C8]] : i8
// CHECK: return %arg0, %[[C24]], %[[WIDE]], %[[M2]], %[[C30]]
func.func @shifts(%x: i8) -> (i8, i8, i8, i8, i8) {
  %c0 = arith.constant 0 : i8
  %c3 = arith.constant 3 : i8
  %c8 = arith.constant 8 : i8
  %cm16 = arith.constant -16 : i8
  %0 = arith.shli %x, %c0 : i8
  %1 = arith.shli %c3, %c3 : i8
  %2 = arith.shli %c3, %c8 : i8
  %3 = arith.shrsi %cm16, %c3 : i8
  %4 = arith.shrui %cm16, %c3 : i8
  return %0, %1, %2, %3, %4 : i8, i8, i8, i8, i8
}

// CHECK-LABEL: func.func @minmax
// CHECK-DAG: %[[MAX:.+]] = arith.constant 2147483647 : i32
// CHECK-DAG: %[[M5:.+]] = arith.constant -5 : i32
// CHECK: return %arg0, %[[MAX]], %arg0, %arg0, %[[M5]], %[[M5]]
func.func @minmax(%x: i32) -> (i32, i32, i32, i32, i32, i32) {
  %cmax = arith.constant 2147483647 : i32
  %c0 = arith.constant 0 : i32
  %cm5 = arith.constant -5 : i32
  %c3 = arith.constant 3 : i32
  %0 = arith.maxsi %x, %x : i32
  %1 = arith.maxsi %x, %cmax : i32
  %2 = arith.minsi %x, %cmax : i32
  %3 = arith.maxui %x, %c0 : i32
  %4 = arith.minsi %cm5, %c3 : i32
  %5 = arith.maxui %cm5, %c3 : i32
  return %0, %1, %2, %3, %4, %5 : i32, i32, i32, i32, i32, i32
}

// CHECK-LABEL: func.func @cmpi
// CHECK-DAG: %[[VT:.+]] = arith.constant dense<true> : vector<4xi1>
// CHECK-DAG: %[[F:.+]] = arith.constant false
// CHECK-DAG: %[[T:.+]] = arith.constant true
// CHECK-DAG: %[[C5:.+]] = arith.constant 5 : i32
// CHECK: %[[SWAPPED:.+]] = arith.cmpi sgt, %arg0, %[[C5]] : i32
// CHECK: return %[[T]], %[[SWAPPED]], %[[T]], %[[F]], %[[VT]], %arg1, %[[F]]
func.func @cmpi(%x: i32, %b: i1, %v: vector<4xi32>) -> (i1, i1, i1, i1, vector<4xi1>, i1, i1) {
  %c5 = arith.constant 5 : i32
  %c0 = arith.constant 0 : i32
  %cm1 = arith.constant -1 : i32
  %0 = arith.cmpi eq, %x, %x : i32
  %1 = arith.cmpi slt, %c5, %x : i32
  %2 = arith.cmpi slt, %cm1, %c5 : i32
  %3 = arith.cmpi ult, %cm1, %c5 : i32
  %4 = arith.cmpi sge, %v, %v : vector<4xi32>
  %e = arith.extui %b : i1 to i32
  %5 = arith.cmpi ne, %e, %c0 : i32
  %t = arith.constant true
  %6 = arith.xori %0, %t : i1
  return %0, %1, %2, %3, %4, %5, %6 : i1, i1, i1, i1, vector<4xi1>, i1, i1
}

// CHECK-LABEL: func.func @cmpi_patterns
// CHECK-DAG: %[[EA:.+]] = arith.extsi %arg0 : i8 to i32
// CHECK-DAG: %[[EB:.+]] = arith.extsi %arg1 : i8 to i32
// CHECK: %[[EQ:.+]] = arith.cmpi eq, %arg0, %arg1 : i8
// CHECK: %[[LT:.+]] = arith.cmpi slt, %[[EA]], %[[EB]] : i32
// CHECK: %[[NOT:.+]] = arith.cmpi sge, %arg2, %arg3 : i32
// CHECK: return %[[EQ]], %[[LT]], %[[NOT]]
func.func @cmpi_patterns(%a: i8, %b: i8, %x: i32, %y: i32) -> (i1, i1, i1) {
  %ea = arith.extsi %a : i8 to i32
  %eb = arith.extsi %b : i8 to i32
  %0 = arith.cmpi eq, %ea, %eb : i32
  %1 = arith.cmpi slt, %ea, %eb : i32
  %c = arith.cmpi slt, %x, %y : i32
  %t = arith.constant true
  %2 = arith.xori %c, %t : i1
  return %0, %1, %2 : i1, i1, i1
}

// CHECK-LABEL: func.func @select
// CHECK: %[[T:.+]] = arith.constant true
// CHECK: %[[Z1:.+]] = arith.extui %arg0 : i1 to i32
// CHECK: %[[N:.+]] = arith.xori %arg0, %[[T]] : i1
// CHECK: %[[Z2:.+]] = arith.extui %[[N]] : i1 to i32
// CHECK: %[[S:.+]] = arith.select %arg0, %arg2, %arg1 : i32
// CHECK: %[[NX:.+]] = arith.xori %arg3, %[[T]] : i1
// CHECK: return %arg1, %arg1, %arg2, %arg2, %arg0, %[[Z1]], %[[Z2]], %[[S]], %[[NX]]
func.func @select(%c: i1, %a: i32, %b: i32, %x: i1) -> (i32, i32, i32, i32, i1, i32, i32, i32, i1) {
  %t = arith.constant true
  %f = arith.constant false
  %c1 = arith.constant 1 : i32
  %c0 = arith.constant 0 : i32
  %0 = arith.select %c, %a, %a : i32
  %1 = arith.select %t, %a, %b : i32
  %2 = arith.select %f, %a, %b : i32
  %eq = arith.cmpi eq, %a, %b : i32
  %3 = arith.select %eq, %a, %b : i32
  %4 = arith.select %c, %t, %f : i1
  %5 = arith.select %c, %c1, %c0 : i32
  %6 = arith.select %c, %c0, %c1 : i32
  %n = arith.xori %c, %t : i1
  %7 = arith.select %n, %a, %b : i32
  %8 = arith.select %x, %f, %t : i1
  return %0, %1, %2, %3, %4, %5, %6, %7, %8 : i32, i32, i32, i32, i1, i32, i32, i32, i1
}

// CHECK-LABEL: func.func @select_nested
// CHECK: %[[A:.+]] = arith.select %arg0, %arg1, %arg3 : i32
// CHECK: %[[B:.+]] = arith.select %arg0, %arg3, %arg2 : i32
// CHECK: return %[[A]], %[[B]]
func.func @select_nested(%c: i1, %a: i32, %b: i32, %d: i32) -> (i32, i32) {
  %0 = arith.select %c, %a, %b : i32
  %1 = arith.select %c, %0, %d : i32
  %2 = arith.select %c, %d, %0 : i32
  return %1, %2 : i32, i32
}

// CHECK-LABEL: func.func @select_dense
// CHECK-NEXT: %[[C:.+]] = arith.constant dense<[1, 7, 3]> : tensor<3xi32>
// CHECK-NEXT: return %[[C]]
func.func @select_dense() -> tensor<3xi32> {
  %m = arith.constant dense<[true, false, true]> : tensor<3xi1>
  %a = arith.constant dense<[1, 2, 3]> : tensor<3xi32>
  %b = arith.constant dense<7> : tensor<3xi32>
  %0 = arith.select %m, %a, %b : tensor<3xi1>, tensor<3xi32>
  return %0 : tensor<3xi32>
}

// CHECK-LABEL: func.func @int_casts
// CHECK-DAG: %[[M1:.+]] = arith.constant -1 : i32
// CHECK-DAG: %[[U:.+]] = arith.constant 253 : i64
// CHECK-DAG: %[[M3:.+]] = arith.constant -3 : i32
// CHECK-DAG: %[[C16:.+]] = arith.constant 16 : i32
// CHECK-DAG: %[[M3B:.+]] = arith.constant -3 : i8
// CHECK: %[[E:.+]] = arith.extsi %arg0 : i8 to i64
// CHECK: %[[T:.+]] = arith.trunci %arg2 : i32 to i8
// CHECK: %[[IX:.+]] = arith.index_cast %arg2 : i32 to index
// CHECK: %[[Z:.+]] = arith.extui %arg0 : i8 to i64
// CHECK: %[[E16:.+]] = arith.extsi %arg0 : i8 to i16
// CHECK: %[[SH:.+]] = arith.shrui %arg2, %[[C16]] : i32
// CHECK: %[[T16:.+]] = arith.trunci %[[SH]] : i32 to i16
// CHECK: return %[[M3]], %[[M3B]], %[[U]], %[[E]], %[[IX]], %arg2, %[[Z]], %[[T]], %[[M1]], %[[T16]], %[[E16]]
func.func @int_casts(%x: i8, %i: index, %y: i32) -> (i32, i8, i64, i64, index, i32, i64, i8, i32, i16, i16) {
  %c = arith.constant -3 : i8
  %0 = arith.extsi %c : i8 to i32
  %1 = arith.trunci %0 : i32 to i8
  %2 = arith.extui %c : i8 to i64
  %e1 = arith.extsi %x : i8 to i16
  %e2 = arith.extsi %e1 : i16 to i64
  %t1 = arith.trunci %y : i32 to i16
  %3 = arith.trunci %t1 : i16 to i8
  %cm1 = arith.constant -1 : i32
  %4 = arith.index_cast %cm1 : i32 to index
  %5 = arith.index_castui %4 : index to i32
  %ix = arith.index_cast %y : i32 to index
  %6 = arith.index_cast %ix : index to i32
  %u = arith.extui %x : i8 to i16
  %7 = arith.extsi %u : i16 to i64
  %w = arith.extsi %x : i8 to i64
  %8 = arith.trunci %w : i64 to i16
  %sh = arith.constant 16 : i32
  %s = arith.shrsi %y, %sh : i32
  %9 = arith.trunci %s : i32 to i16
  return %0, %1, %2, %e2, %ix, %6, %7, %3, %5, %9, %8 : i32, i8, i64, i64, index, i32, i64, i8, i32, i16, i16
}

// CHECK-LABEL: func.func @float_fold
// CHECK-DAG: %[[NAN:.+]] = arith.constant 0x7FC00000 : f32
// CHECK-DAG: %[[INF:.+]] = arith.constant 0x7F800000 : f32
// CHECK-DAG: %[[SUM:.+]] = arith.constant 3.000000e-01 : f32
// CHECK-DAG: %[[PZ:.+]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[ADD:.+]] = arith.addf %arg0, %[[PZ]] : f32
// CHECK: return %arg0, %[[ADD]], %arg0, %arg0, %arg0, %[[SUM]], %arg0, %[[INF]], %[[NAN]]
func.func @float_fold(%x: f32) -> (f32, f32, f32, f32, f32, f32, f32, f32, f32) {
  %nz = arith.constant -0.0 : f32
  %pz = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %a = arith.constant 0.1 : f32
  %b = arith.constant 0.2 : f32
  %0 = arith.addf %x, %nz : f32
  %1 = arith.addf %x, %pz : f32
  %2 = arith.subf %x, %pz : f32
  %3 = arith.mulf %one, %x : f32
  %4 = arith.divf %x, %one : f32
  %5 = arith.addf %a, %b : f32
  %n = arith.negf %x : f32
  %6 = arith.negf %n : f32
  %7 = arith.divf %one, %pz : f32
  %8 = arith.remf %one, %pz : f32
  return %0, %1, %2, %3, %4, %5, %6, %7, %8 : f32, f32, f32, f32, f32, f32, f32, f32, f32
}

// CHECK-LABEL: func.func @float_precision
// CHECK-DAG: %[[INF:.+]] = arith.constant 0x7C00 : f16
// CHECK-DAG: %[[D:.+]] = arith.constant 0.30000000000000004 : f64
// CHECK-DAG: %[[B:.+]] = arith.constant 2.560000e+02 : bf16
// CHECK-DAG: %[[H:.+]] = arith.constant 1.000000e+00 : f16
// CHECK: return %[[H]], %[[B]], %[[D]], %[[INF]]
func.func @float_precision() -> (f16, bf16, f64, f16) {
  %a = arith.constant 1.0 : f16
  %b = arith.constant 0.0004882813 : f16
  %0 = arith.addf %a, %b : f16
  %c = arith.constant 256.0 : bf16
  %d = arith.constant 1.0 : bf16
  %1 = arith.addf %c, %d : bf16
  %e = arith.constant 0.1 : f64
  %f = arith.constant 0.2 : f64
  %2 = arith.addf %e, %f : f64
  %big = arith.constant 60000.0 : f16
  %3 = arith.mulf %big, %big : f16
  return %0, %1, %2, %3 : f16, bf16, f64, f16
}

// CHECK-LABEL: func.func @float_minmax
// CHECK-DAG: %[[NAN:.+]] = arith.constant 0x7FC00000 : f32
// CHECK-DAG: %[[ONE:.+]] = arith.constant 1.000000e+00 : f32
// CHECK-DAG: %[[NZ:.+]] = arith.constant -0.000000e+00 : f32
// CHECK: return %arg0, %[[NAN]], %[[NZ]], %[[ONE]], %arg0
func.func @float_minmax(%x: f32) -> (f32, f32, f32, f32, f32) {
  %ninf = arith.constant 0xFF800000 : f32
  %nan = arith.constant 0x7FC00000 : f32
  %one = arith.constant 1.0 : f32
  %nz = arith.constant -0.0 : f32
  %pz = arith.constant 0.0 : f32
  %0 = arith.maximumf %x, %ninf : f32
  %1 = arith.maximumf %one, %nan : f32
  %2 = arith.minimumf %nz, %pz : f32
  %3 = arith.minnumf %one, %nan : f32
  %4 = arith.maxnumf %x, %x : f32
  return %0, %1, %2, %3, %4 : f32, f32, f32, f32, f32
}

// CHECK-LABEL: func.func @cmpf
// CHECK-DAG: %[[C4:.+]] = arith.constant 4 : i8
// CHECK-DAG: %[[T:.+]] = arith.constant true
// CHECK-DAG: %[[F:.+]] = arith.constant false
// CHECK: %[[I:.+]] = arith.cmpi sle, %arg1, %[[C4]] : i8
// CHECK: return %[[F]], %[[T]], %[[T]], %[[I]], %[[F]]
func.func @cmpf(%x: f32, %i: i8) -> (i1, i1, i1, i1, i1) {
  %nan = arith.constant 0x7FC00000 : f32
  %one = arith.constant 1.0 : f32
  %two = arith.constant 2.0 : f32
  %0 = arith.cmpf olt, %x, %nan : f32
  %1 = arith.cmpf ult, %x, %nan : f32
  %2 = arith.cmpf ogt, %two, %one : f32
  %f = arith.sitofp %i : i8 to f32
  %k = arith.constant 4.5 : f32
  %3 = arith.cmpf olt, %f, %k : f32
  %big = arith.constant 1000.0 : f32
  %4 = arith.cmpf ogt, %f, %big : f32
  return %0, %1, %2, %3, %4 : i1, i1, i1, i1, i1
}

// CHECK-LABEL: func.func @float_patterns
// CHECK-NEXT: %[[M:.+]] = arith.mulf %arg0, %arg1 fastmath<fast> : f32
// CHECK-NEXT: %[[D:.+]] = arith.divf %arg0, %arg1 : f32
// CHECK-NEXT: return %[[M]], %[[D]]
func.func @float_patterns(%x: f32, %y: f32) -> (f32, f32) {
  %nx = arith.negf %x : f32
  %ny = arith.negf %y : f32
  %0 = arith.mulf %nx, %ny fastmath<fast> : f32
  %1 = arith.divf %nx, %ny : f32
  return %0, %1 : f32, f32
}

// CHECK-LABEL: func.func @float_casts
// CHECK-DAG: %[[U:.+]] = arith.constant 4.2949673{{[eE]}}+{{0?}}9 : f32
// CHECK-DAG: %[[BITS:.+]] = arith.constant 1069547520 : i32
// CHECK-DAG: %[[EXT:.+]] = arith.constant 2.500000e+00 : f32
// CHECK-DAG: %[[TR:.+]] = arith.constant 1.500000e+00 : f16
// CHECK-DAG: %[[FI:.+]] = arith.constant -3 : i32
// CHECK-DAG: %[[IF:.+]] = arith.constant -7.000000e+00 : f32
// CHECK-DAG: %[[P:.+]] = arith.constant 1.000000e-01 : f32
// CHECK-DAG: %[[BIG:.+]] = arith.constant 3.000000e+02 : f32
// CHECK: %[[OOR:.+]] = arith.fptoui %[[BIG]] : f32 to i8
// CHECK: %[[INEXACT:.+]] = arith.truncf %[[P]] : f32 to f16
// CHECK: return %[[IF]], %[[FI]], %[[OOR]], %[[TR]], %[[INEXACT]], %[[EXT]], %[[BITS]], %[[U]]
func.func @float_casts() -> (f32, i32, i8, f16, f16, f32, i32, f32) {
  %c = arith.constant -7 : i32
  %0 = arith.sitofp %c : i32 to f32
  %x = arith.constant -3.75 : f32
  %1 = arith.fptosi %x : f32 to i32
  %big = arith.constant 300.0 : f32
  %2 = arith.fptoui %big : f32 to i8
  %h = arith.constant 1.5 : f32
  %3 = arith.truncf %h : f32 to f16
  %p = arith.constant 0.1 : f32
  %4 = arith.truncf %p : f32 to f16
  %b = arith.constant 2.5 : f16
  %5 = arith.extf %b : f16 to f32
  %6 = arith.bitcast %h : f32 to i32
  %u = arith.constant -1 : i32
  %7 = arith.uitofp %u : i32 to f32
  return %0, %1, %2, %3, %4, %5, %6, %7 : f32, i32, i8, f16, f16, f32, i32, f32
}

// CHECK-LABEL: func.func @splats
// CHECK-DAG: %[[CMP:.+]] = arith.constant dense<false> : tensor<4xi1>
// CHECK-DAG: %[[F:.+]] = arith.constant dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00]> : tensor<4xf32>
// CHECK-DAG: %[[S:.+]] = arith.constant dense<10> : tensor<4xi32>
// CHECK-DAG: %[[M:.+]] = arith.constant dense<[5, 10, 15, 20]> : tensor<4xi32>
// CHECK: return %arg0, %[[M]], %[[S]], %[[F]], %[[CMP]]
func.func @splats(%t: tensor<4xi32>) -> (tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xf32>, tensor<4xi1>) {
  %z = arith.constant dense<0> : tensor<4xi32>
  %a = arith.constant dense<[1, 2, 3, 4]> : tensor<4xi32>
  %b = arith.constant dense<5> : tensor<4xi32>
  %0 = arith.addi %t, %z : tensor<4xi32>
  %1 = arith.muli %a, %b : tensor<4xi32>
  %2 = arith.addi %b, %b : tensor<4xi32>
  %3 = arith.sitofp %a : tensor<4xi32> to tensor<4xf32>
  %4 = arith.cmpi sgt, %a, %b : tensor<4xi32>
  return %0, %1, %2, %3, %4 : tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xf32>, tensor<4xi1>
}

// CHECK-LABEL: func.func @index_arith
// CHECK-DAG: %[[C12:.+]] = arith.constant 12 : index
// CHECK-DAG: %[[C32:.+]] = arith.constant 32 : index
// CHECK: %[[A:.+]] = arith.addi %arg0, %[[C12]] : index
// CHECK: return %[[C32]], %[[A]]
func.func @index_arith(%i: index) -> (index, index) {
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %0 = arith.muli %c4, %c8 : index
  %a = arith.addi %i, %c4 : index
  %1 = arith.addi %a, %c8 : index
  return %0, %1 : index, index
}
