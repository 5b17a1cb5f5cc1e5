// Every arith op round-trips in MLIR's custom syntax, and through the generic
// form back to the same custom syntax; the generic form spells the
// properties as mlir-opt 19 does (default-valued flags included).
// RUN: nc-opt %s | FileCheck %s
// RUN: nc-opt %s | nc-opt | FileCheck %s
// RUN: nc-opt --mlir-print-op-generic %s | nc-opt | FileCheck %s
// RUN: nc-opt --mlir-print-op-generic %s | FileCheck %s --check-prefix=GENERIC

// CHECK-LABEL: func.func @constants
func.func @constants() {
  // CHECK: arith.constant 42 : i32
  // GENERIC: "arith.constant"() <{value = 42 : i32}> : () -> i32
  %0 = arith.constant 42 : i32
  // CHECK: arith.constant -1 : i64
  %1 = arith.constant -1 : i64
  // CHECK: arith.constant true
  // GENERIC: "arith.constant"() <{value = true}> : () -> i1
  %2 = arith.constant true
  // CHECK: arith.constant 0 : index
  %3 = arith.constant 0 : index
  // CHECK: arith.constant 1.500000e+00 : f32
  %4 = arith.constant 1.5 : f32
  // CHECK: arith.constant -0.000000e+00 : f16
  %5 = arith.constant -0.0 : f16
  // CHECK: arith.constant 0x7FC00000 : f32
  %6 = arith.constant 0x7FC00000 : f32
  // CHECK: arith.constant dense<[1, 2, 3, 4]> : tensor<4xi32>
  %7 = arith.constant dense<[1, 2, 3, 4]> : tensor<4xi32>
  // CHECK: arith.constant dense<2.000000e+00> : vector<4xf32>
  %8 = arith.constant dense<2.0> : vector<4xf32>
  // CHECK: arith.constant {foo = "bar"} 7 : i8
  %9 = arith.constant {foo = "bar"} 7 : i8
  return
}

// CHECK-LABEL: func.func @int_binary
func.func @int_binary(%a: i32, %b: i32, %i: index, %t: tensor<4x?xi8>, %v: vector<4xi64>) {
  // CHECK: arith.addi %arg0, %arg1 : i32
  // GENERIC: "arith.addi"(%arg0, %arg1) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
  %0 = arith.addi %a, %b : i32
  // CHECK: arith.addi %arg0, %arg1 overflow<nsw> : i32
  // GENERIC: "arith.addi"(%arg0, %arg1) <{overflowFlags = #arith.overflow<nsw>}> : (i32, i32) -> i32
  %1 = arith.addi %a, %b overflow<nsw> : i32
  // CHECK: arith.subi %arg0, %arg1 overflow<nsw, nuw> : i32
  %2 = arith.subi %a, %b overflow<nuw, nsw> : i32
  // CHECK: arith.muli %arg2, %arg2 overflow<nuw> : index
  %3 = arith.muli %i, %i overflow<nuw> : index
  // CHECK: arith.divsi %arg0, %arg1 : i32
  // GENERIC: "arith.divsi"(%arg0, %arg1) : (i32, i32) -> i32
  %4 = arith.divsi %a, %b : i32
  // CHECK: arith.divui %arg0, %arg1 : i32
  %5 = arith.divui %a, %b : i32
  // CHECK: arith.ceildivsi %arg0, %arg1 : i32
  %6 = arith.ceildivsi %a, %b : i32
  // CHECK: arith.ceildivui %arg0, %arg1 : i32
  %7 = arith.ceildivui %a, %b : i32
  // CHECK: arith.floordivsi %arg0, %arg1 : i32
  %8 = arith.floordivsi %a, %b : i32
  // CHECK: arith.remsi %arg0, %arg1 : i32
  %9 = arith.remsi %a, %b : i32
  // CHECK: arith.remui %arg0, %arg1 : i32
  %10 = arith.remui %a, %b : i32
  // CHECK: arith.andi %arg3, %arg3 : tensor<4x?xi8>
  %11 = arith.andi %t, %t : tensor<4x?xi8>
  // CHECK: arith.ori %arg4, %arg4 : vector<4xi64>
  %12 = arith.ori %v, %v : vector<4xi64>
  // CHECK: arith.xori %arg0, %arg1 : i32
  %13 = arith.xori %a, %b : i32
  // CHECK: arith.shli %arg0, %arg1 overflow<nsw> : i32
  %14 = arith.shli %a, %b overflow<nsw> : i32
  // CHECK: arith.shrsi %arg0, %arg1 : i32
  %15 = arith.shrsi %a, %b : i32
  // CHECK: arith.shrui %arg0, %arg1 : i32
  %16 = arith.shrui %a, %b : i32
  // CHECK: arith.maxsi %arg0, %arg1 : i32
  %17 = arith.maxsi %a, %b : i32
  // CHECK: arith.minsi %arg0, %arg1 : i32
  %18 = arith.minsi %a, %b : i32
  // CHECK: arith.maxui %arg0, %arg1 : i32
  %19 = arith.maxui %a, %b : i32
  // CHECK: arith.minui %arg0, %arg1 {tag} : i32
  %20 = arith.minui %a, %b {tag} : i32
  return
}

// CHECK-LABEL: func.func @compare_select
func.func @compare_select(%a: i32, %b: i32, %c: i1, %x: f32, %t: tensor<4xf32>, %m: tensor<4xi1>, %v: vector<2xi16>) {
  // CHECK: arith.cmpi slt, %arg0, %arg1 : i32
  // GENERIC: "arith.cmpi"(%arg0, %arg1) <{predicate = 2 : i64}> : (i32, i32) -> i1
  %0 = arith.cmpi slt, %a, %b : i32
  // CHECK: arith.cmpi uge, %arg6, %arg6 : vector<2xi16>
  // GENERIC: "arith.cmpi"(%arg6, %arg6) <{predicate = 9 : i64}> : (vector<2xi16>, vector<2xi16>) -> vector<2xi1>
  %1 = arith.cmpi uge, %v, %v : vector<2xi16>
  // CHECK: arith.cmpf olt, %arg3, %arg3 : f32
  // GENERIC: "arith.cmpf"(%arg3, %arg3) <{fastmath = #arith.fastmath<none>, predicate = 4 : i64}> : (f32, f32) -> i1
  %2 = arith.cmpf olt, %x, %x : f32
  // CHECK: arith.cmpf uno, %arg4, %arg4 fastmath<nnan> : tensor<4xf32>
  %3 = arith.cmpf uno, %t, %t fastmath<nnan> : tensor<4xf32>
  // CHECK: arith.select %arg2, %arg0, %arg1 : i32
  // GENERIC: "arith.select"(%arg2, %arg0, %arg1) : (i1, i32, i32) -> i32
  %4 = arith.select %c, %a, %b : i32
  // CHECK: arith.select %arg5, %arg4, %arg4 : tensor<4xi1>, tensor<4xf32>
  %5 = arith.select %m, %t, %t : tensor<4xi1>, tensor<4xf32>
  // CHECK: arith.select %arg2, %arg4, %arg4 : tensor<4xf32>
  %6 = arith.select %c, %t, %t : tensor<4xf32>
  return
}

// CHECK-LABEL: func.func @casts
func.func @casts(%a: i32, %i: index, %x: f32, %h: f16, %t: tensor<4xi8>, %mem: memref<4xi32>) {
  // CHECK: arith.index_cast %arg0 : i32 to index
  // GENERIC: "arith.index_cast"(%arg0) : (i32) -> index
  %0 = arith.index_cast %a : i32 to index
  // CHECK: arith.index_cast %arg1 : index to i64
  %1 = arith.index_cast %i : index to i64
  // CHECK: arith.index_cast %arg5 : memref<4xi32> to memref<4xindex>
  %2 = arith.index_cast %mem : memref<4xi32> to memref<4xindex>
  // CHECK: arith.index_castui %arg0 : i32 to index
  %3 = arith.index_castui %a : i32 to index
  // CHECK: arith.extsi %arg4 : tensor<4xi8> to tensor<4xi32>
  %4 = arith.extsi %t : tensor<4xi8> to tensor<4xi32>
  // CHECK: arith.extui %arg0 : i32 to i64
  %5 = arith.extui %a : i32 to i64
  // CHECK: arith.trunci %arg0 : i32 to i1
  %6 = arith.trunci %a : i32 to i1
  // CHECK: arith.sitofp %arg0 : i32 to f32
  %7 = arith.sitofp %a : i32 to f32
  // CHECK: arith.uitofp %arg0 : i32 to f16
  %8 = arith.uitofp %a : i32 to f16
  // CHECK: arith.fptosi %arg2 : f32 to i32
  %9 = arith.fptosi %x : f32 to i32
  // CHECK: arith.fptoui %arg2 : f32 to i8
  %10 = arith.fptoui %x : f32 to i8
  // CHECK: arith.bitcast %arg2 : f32 to i32
  %11 = arith.bitcast %x : f32 to i32
  // CHECK: arith.bitcast %arg3 : f16 to bf16
  %12 = arith.bitcast %h : f16 to bf16
  // CHECK: arith.extf %arg3 : f16 to f32
  // GENERIC: "arith.extf"(%arg3) : (f16) -> f32
  %13 = arith.extf %h : f16 to f32
  // CHECK: arith.extf %arg3 fastmath<fast> : f16 to f64
  %14 = arith.extf %h fastmath<fast> : f16 to f64
  // CHECK: arith.truncf %arg2 : f32 to f16
  %15 = arith.truncf %x : f32 to f16
  // CHECK: arith.truncf %arg2 toward_zero fastmath<nnan,ninf> : f32 to bf16
  // GENERIC: "arith.truncf"(%arg2) <{fastmath = #arith.fastmath<nnan,ninf>, roundingmode = 3 : i32}> : (f32) -> bf16
  %16 = arith.truncf %x toward_zero fastmath<nnan,ninf> : f32 to bf16
  return
}

// CHECK-LABEL: func.func @float_ops
func.func @float_ops(%x: f32, %y: f32, %b: bf16, %v: vector<4xf64>) {
  // CHECK: arith.addf %arg0, %arg1 : f32
  // GENERIC: "arith.addf"(%arg0, %arg1) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32
  %0 = arith.addf %x, %y : f32
  // CHECK: arith.subf %arg0, %arg1 fastmath<fast> : f32
  // GENERIC: "arith.subf"(%arg0, %arg1) <{fastmath = #arith.fastmath<fast>}> : (f32, f32) -> f32
  %1 = arith.subf %x, %y fastmath<fast> : f32
  // CHECK: arith.mulf %arg0, %arg1 fastmath<fast> : f32
  %2 = arith.mulf %x, %y fastmath<reassoc,nnan,ninf,nsz,arcp,contract,afn> : f32
  // CHECK: arith.divf %arg2, %arg2 : bf16
  %3 = arith.divf %b, %b : bf16
  // CHECK: arith.remf %arg3, %arg3 : vector<4xf64>
  %4 = arith.remf %v, %v : vector<4xf64>
  // CHECK: arith.negf %arg0 fastmath<nsz> : f32
  %5 = arith.negf %x fastmath<nsz> : f32
  // CHECK: arith.maximumf %arg0, %arg1 : f32
  %6 = arith.maximumf %x, %y : f32
  // CHECK: arith.minimumf %arg0, %arg1 : f32
  %7 = arith.minimumf %x, %y : f32
  // CHECK: arith.maxnumf %arg0, %arg1 : f32
  %8 = arith.maxnumf %x, %y : f32
  // CHECK: arith.minnumf %arg0, %arg1 : f32
  %9 = arith.minnumf %x, %y : f32
  return
}

// Generic input, as mlir-opt prints it, including explicit default flags.
// CHECK-LABEL: func.func @from_generic
// CHECK: arith.addi %arg0, %arg0 : i32
// CHECK: arith.muli %arg0, %arg0 overflow<nsw, nuw> : i32
// CHECK: arith.addf %arg1, %arg1 fastmath<nnan,nsz> : f32
func.func @from_generic(%a: i32, %x: f32) {
  %0 = "arith.addi"(%a, %a) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
  %1 = "arith.muli"(%a, %a) <{overflowFlags = #arith.overflow<nuw, nsw>}> : (i32, i32) -> i32
  %2 = "arith.addf"(%x, %x) <{fastmath = #arith.fastmath<nsz,nnan>}> : (f32, f32) -> f32
  return
}
