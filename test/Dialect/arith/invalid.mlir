// arith verifier and parser errors, with MLIR 19's messages where MLIR has
// one (its property-conversion errors become nc's constraint errors).
// RUN: nc-opt --verify-diagnostics --split-input-file %s
// RUN: not nc-opt --split-input-file %s 2>&1 | FileCheck %s
// CHECK: invalid.mlir:[[# @LINE + 3]]:8: error: 'arith.constant' op failed to verify that all of {value, result} have same type

func.func @constant_type() {
  %0 = "arith.constant"() <{value = 42 : i64}> : () -> i32  // expected-error {{'arith.constant' op failed to verify that all of {value, result} have same type}}
  return
}

// -----

func.func @constant_signed() {
  %0 = "arith.constant"() <{value = 42 : si32}> : () -> si32  // expected-error {{'arith.constant' op integer return type must be signless}}
  return
}

// -----

func.func @constant_string() {
  %0 = "arith.constant"() <{value = "foo"}> : () -> i32  // expected-error {{'arith.constant' op attribute 'value' failed to satisfy constraint: TypedAttr instance}}
  return
}

// -----

func.func @constant_missing() {
  %0 = "arith.constant"() : () -> i32  // expected-error {{'arith.constant' op requires attribute 'value'}}
  return
}

// -----

func.func @constant_shape() {
  %0 = "arith.constant"() <{value = dense<1> : tensor<2xi32>}> : () -> tensor<3xi32>  // expected-error {{all of {value, result} have same type}}
  return
}

// -----

func.func @extsi_narrower(%a: i32) {
  %0 = arith.extsi %a : i32 to i16  // expected-error {{'arith.extsi' op operand type 'i32' and result type 'i16' are cast incompatible}}
  return
}

// -----

func.func @extui_same(%a: i32) {
  %0 = arith.extui %a : i32 to i32  // expected-error {{'arith.extui' op operand type 'i32' and result type 'i32' are cast incompatible}}
  return
}

// -----

func.func @trunci_wider(%a: i32) {
  %0 = arith.trunci %a : i32 to i64  // expected-error {{'arith.trunci' op operand type 'i32' and result type 'i64' are cast incompatible}}
  return
}

// -----

func.func @index_cast_no_index(%a: i32) {
  %0 = arith.index_cast %a : i32 to i64  // expected-error {{'arith.index_cast' op operand type 'i32' and result type 'i64' are cast incompatible}}
  return
}

// -----

func.func @index_cast_both_index(%a: index) {
  %0 = arith.index_castui %a : index to index  // expected-error {{'arith.index_castui' op operand type 'index' and result type 'index' are cast incompatible}}
  return
}

// -----

func.func @cast_tensor_dims(%a: tensor<4xi32>) {
  %0 = arith.extsi %a : tensor<4xi32> to tensor<?xi64>  // expected-error {{'arith.extsi' op failed to verify that input and output have the same tensor dimensions}}
  return
}

// -----

func.func @cast_shape(%a: vector<4xi32>) {
  %0 = arith.sitofp %a : vector<4xi32> to vector<5xf32>  // expected-error {{'arith.sitofp' op requires the same shape for all operands and results}}
  return
}

// -----

func.func @extsi_index(%a: index) {
  %0 = arith.extsi %a : index to i64  // expected-error {{'arith.extsi' op operand #0 must be signless-fixed-width-integer-like, but got 'index'}}
  return
}

// -----

func.func @sitofp_to_int(%a: i32) {
  %0 = arith.sitofp %a : i32 to i32  // expected-error {{'arith.sitofp' op result #0 must be floating-point-like, but got 'i32'}}
  return
}

// -----

func.func @fptosi_from_int(%a: i32) {
  %0 = arith.fptosi %a : i32 to i32  // expected-error {{'arith.fptosi' op operand #0 must be floating-point-like, but got 'i32'}}
  return
}

// -----

func.func @bitcast_width(%a: f32) {
  %0 = arith.bitcast %a : f32 to i64  // expected-error {{'arith.bitcast' op operand type 'f32' and result type 'i64' are cast incompatible}}
  return
}

// -----

func.func @extf_narrower(%a: f32) {
  %0 = arith.extf %a : f32 to f16  // expected-error {{'arith.extf' op operand type 'f32' and result type 'f16' are cast incompatible}}
  return
}

// -----

func.func @truncf_same_width(%a: f16) {
  %0 = arith.truncf %a : f16 to bf16  // expected-error {{'arith.truncf' op operand type 'f16' and result type 'bf16' are cast incompatible}}
  return
}

// -----

func.func @addi_types(%a: i32, %b: i64) {
  %0 = "arith.addi"(%a, %b) : (i32, i64) -> i32  // expected-error {{'arith.addi' op requires the same type for all operands and results}}
  return
}

// -----

func.func @addi_float(%a: f32) {
  %0 = "arith.addi"(%a, %a) : (f32, f32) -> f32  // expected-error {{'arith.addi' op operand #0 must be signless-integer-like, but got 'f32'}}
  return
}

// -----

func.func @addf_int(%a: i32) {
  %0 = "arith.addf"(%a, %a) : (i32, i32) -> i32  // expected-error {{'arith.addf' op operand #0 must be floating-point-like, but got 'i32'}}
  return
}

// -----

func.func @divsi_signed_type(%a: si32) {
  %0 = "arith.divsi"(%a, %a) : (si32, si32) -> si32  // expected-error {{'arith.divsi' op operand #0 must be signless-integer-like, but got 'si32'}}
  return
}

// -----

func.func @cmpi_predicate(%a: i32) {
  %0 = "arith.cmpi"(%a, %a) <{predicate = 10 : i64}> : (i32, i32) -> i1  // expected-error {{'arith.cmpi' op attribute 'predicate' failed to satisfy constraint: allowed 64-bit signless integer cases: 0, 1, 2, 3, 4, 5, 6, 7, 8, 9}}
  return
}

// -----

func.func @cmpi_result(%a: i32) {
  %0 = "arith.cmpi"(%a, %a) <{predicate = 1 : i64}> : (i32, i32) -> i32  // expected-error {{'arith.cmpi' op result #0 must be bool-like, but got 'i32'}}
  return
}

// -----

func.func @cmpi_result_shape(%a: vector<4xi32>) {
  %0 = "arith.cmpi"(%a, %a) <{predicate = 1 : i64}> : (vector<4xi32>, vector<4xi32>) -> i1  // expected-error {{'arith.cmpi' op failed to verify that result type has i1 element type and same shape as operands}}
  return
}

// -----

func.func @cmpi_operands(%a: i32, %b: i64) {
  %0 = "arith.cmpi"(%a, %b) <{predicate = 1 : i64}> : (i32, i64) -> i1  // expected-error {{'arith.cmpi' op requires all operands to have the same type}}
  return
}

// -----

func.func @cmpi_keyword(%a: i32) {
  %0 = arith.cmpi foo, %a, %a : i32  // expected-error {{'foo' is not a valid case of 'predicate'}}
  return
}

// -----

func.func @cmpf_keyword(%a: f32) {
  %0 = arith.cmpf slt, %a, %a : f32  // expected-error {{expected string or keyword containing one of the following enum values for attribute 'predicate' [false, oeq, ogt, oge, olt, ole, one, ord, ueq, ugt, uge, ult, ule, une, uno, true]}}
  return
}

// -----

func.func @cmpf_predicate(%a: f32) {
  %0 = "arith.cmpf"(%a, %a) <{predicate = 16 : i64}> : (f32, f32) -> i1  // expected-error {{attribute 'predicate' failed to satisfy constraint: allowed 64-bit signless integer cases: 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}}
  return
}

// -----

func.func @select_condition(%a: i32, %c: i32) {
  %0 = "arith.select"(%c, %a, %a) : (i32, i32, i32) -> i32  // expected-error {{'arith.select' op operand #0 must be bool-like, but got 'i32'}}
  return
}

// -----

func.func @select_mask_shape(%a: tensor<4xi32>, %c: tensor<5xi1>) {
  %0 = arith.select %c, %a, %a : tensor<5xi1>, tensor<4xi32>  // expected-error {{'arith.select' op failed to verify that condition is signless i1 or has matching shape}}
  return
}

// -----

func.func @select_scalar_mask(%a: i32, %c: vector<4xi1>) {
  %0 = "arith.select"(%c, %a, %a) : (vector<4xi1>, i32, i32) -> i32  // expected-error {{condition is signless i1 or has matching shape}}
  return
}

// -----

func.func @select_types(%a: i32, %b: i64, %c: i1) {
  %0 = "arith.select"(%c, %a, %b) : (i1, i32, i64) -> i32  // expected-error {{'arith.select' op failed to verify that all of {true_value, false_value, result} have same type}}
  return
}

// -----

func.func @overflow_not_flags(%a: i32) {
  %0 = "arith.addi"(%a, %a) <{overflowFlags = 1 : i32}> : (i32, i32) -> i32  // expected-error {{'arith.addi' op attribute 'overflowFlags' failed to satisfy constraint: Integer overflow arith flags}}
  return
}

// -----

func.func @overflow_wrong_kind(%a: i32) {
  %0 = "arith.addi"(%a, %a) <{overflowFlags = #arith.fastmath<fast>}> : (i32, i32) -> i32  // expected-error {{attribute 'overflowFlags' failed to satisfy constraint: Integer overflow arith flags}}
  return
}

// -----

func.func @overflow_unknown_flag(%a: i32) {
  // expected-error@below {{expected ::mlir::arith::IntegerOverflowFlags to be one of: none, nsw, nuw}}
  %0 = arith.addi %a, %a overflow<foo> : i32
  return
}

// -----

func.func @overflow_unknown_flag_generic(%a: i32) {
  // expected-error@below {{expected ::mlir::arith::IntegerOverflowFlags to be one of: none, nsw, nuw}}
  %0 = "arith.addi"(%a, %a) <{overflowFlags = #arith.overflow<nsw, wrap>}> : (i32, i32) -> i32
  return
}

// -----

func.func @fastmath_unknown_flag(%a: f32) {
  // expected-error@below {{expected ::mlir::arith::FastMathFlags to be one of: none, reassoc, nnan, ninf, nsz, arcp, contract, afn, fast}}
  %0 = arith.mulf %a, %a fastmath<slow> : f32
  return
}

// -----

func.func @fastmath_unknown_flag_generic(%a: f32) {
  // expected-error@below {{expected ::mlir::arith::FastMathFlags to be one of: none, reassoc, nnan, ninf, nsz, arcp, contract, afn, fast}}
  %0 = "arith.addf"(%a, %a) <{fastmath = #arith.fastmath<foo>}> : (f32, f32) -> f32
  return
}

// -----

func.func @unknown_attribute(%a: f32) {
  // expected-error@below {{unknown attribute '#arith.rounding<up>'}}
  %0 = "arith.addf"(%a, %a) {x = #arith.rounding<up>} : (f32, f32) -> f32
  return
}

// -----

func.func @flags_on_op_without_flags(%a: i32) {
  %0 = "arith.shrui"(%a, %a) <{overflowFlags = #arith.overflow<nsw>}> : (i32, i32) -> i32  // expected-error {{'arith.shrui' op 'overflowFlags' is not a property of this op}}
  return
}

// -----

func.func @rounding_mode(%a: f32) {
  %0 = "arith.truncf"(%a) <{roundingmode = 7 : i32}> : (f32) -> f16  // expected-error {{attribute 'roundingmode' failed to satisfy constraint: Floating point rounding mode}}
  return
}

// -----

func.func @custom_syntax_missing_type(%a: i32) {
  %0 = arith.addi %a, %a
  return  // expected-error {{expected ':'}}
}

// -----

func.func @custom_constant_untyped() {
  %0 = arith.constant "foo"  // expected-error {{'arith.constant' op attribute 'value' failed to satisfy constraint: TypedAttr instance}}
  return
}
