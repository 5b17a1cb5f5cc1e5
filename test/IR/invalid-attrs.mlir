// Malformed attributes: integers that overflow their type, literals of the
// wrong kind, bad float hex bits, duplicate keys, bad dense literals and hex
// blobs, dense arrays, symbol references and aliases.
// RUN: nc-opt --allow-unregistered-dialect --verify-diagnostics --split-input-file %s
// RUN: not nc-opt --allow-unregistered-dialect --split-input-file %s 2>&1 | FileCheck %s
// CHECK: invalid-attrs.mlir:[[# @LINE + 2]]:16: error: integer constant out of range for attribute

"foo.x"() {a = 256 : i8} : () -> ()  // expected-error {{integer constant out of range for attribute}}

// -----

"foo.x"() {a = -129 : i8} : () -> ()  // expected-error {{integer constant out of range for attribute}}

// -----

"foo.x"() {a = 128 : si8} : () -> ()  // expected-error {{integer constant out of range for attribute}}

// -----

"foo.x"() {a = -1 : ui8} : () -> ()  // expected-error {{integer constant out of range for attribute}}

// -----

"foo.x"() {a = 16 : ui4} : () -> ()  // expected-error {{integer constant out of range for attribute}}

// -----

"foo.x"() {a = 2 : i1} : () -> ()  // expected-error {{integer constant out of range for attribute}}

// -----

"foo.x"() {a = 1 : si1} : () -> ()  // expected-error {{integer constant out of range for attribute}}

// -----

"foo.x"() {a = 18446744073709551616} : () -> ()  // expected-error {{integer constant out of range for attribute}}

// -----

"foo.x"() {a = -9223372036854775809} : () -> ()  // expected-error {{integer constant out of range for attribute}}

// -----

"foo.x"() {a = 0x10000000000000000 : i64} : () -> ()  // expected-error {{integer constant out of range for attribute}}

// -----

"foo.x"() {a = 99999999999999999999999999 : index} : () -> ()  // expected-error {{integer constant out of range for attribute}}

// -----

"foo.x"() {a = 1.5 : i32} : () -> ()  // expected-error {{floating point value not valid for specified type}}

// -----

"foo.x"() {a = 1 : f32} : () -> ()  // expected-error {{unexpected decimal integer literal for a floating point value}}

// -----

"foo.x"() {a = 1 : tensor<2xi32>} : () -> ()  // expected-error {{integer literal not valid for specified type}}

// -----

"foo.x"() {a = 0x1FFFF : f16} : () -> ()  // expected-error {{hexadecimal float constant out of range for type}}

// -----

"foo.x"() {a = -0x7C00 : f16} : () -> ()  // expected-error {{hexadecimal float literal should not have a leading minus}}

// -----

"foo.x"() {a = - } : () -> ()  // expected-error {{expected integer or floating point literal after '-'}}

// -----

"foo.x"() {a = true : i32} : () -> ()  // expected-error {{boolean literal requires type i1}}

// -----

"foo.x"() {a = "s" : i32} : () -> ()  // expected-error {{typed string attributes are not supported}}

// -----

"foo.x"() {a = 1, a = 2} : () -> ()  // expected-error {{duplicate key 'a' in dictionary attribute}}

// -----

"foo.x"() {"" = 1} : () -> ()  // expected-error {{expected valid attribute name}}

// -----

"foo.x"() {1 = 1} : () -> ()  // expected-error {{expected attribute name}}

// -----

"foo.x"() {a = } : () -> ()  // expected-error {{expected attribute value}}

// -----

"foo.x"() {a = bogus} : () -> ()  // expected-error {{expected attribute value}}

// -----

// Dense elements.
"foo.x"() {a = dense<[1, 2]> : tensor<3xi32>} : () -> ()  // expected-error {{inferred shape of elements literal does not match type}}

// -----

"foo.x"() {a = dense<[[1, 2], [3]]> : tensor<2x2xi32>} : () -> ()  // expected-error {{ranks are not consistent between elements}}

// -----

"foo.x"() {a = dense<[[1, 2], 3]> : tensor<2x2xi32>} : () -> ()  // expected-error {{ranks are not consistent between elements}}

// -----

"foo.x"() {a = dense<[1, 2]> : tensor<2x2xi32>} : () -> ()  // expected-error {{inferred shape of elements literal does not match type}}

// -----

"foo.x"() {a = dense<1> : tensor<?xi32>} : () -> ()  // expected-error {{elements literal type must be a statically shaped tensor or vector}}

// -----

"foo.x"() {a = dense<1> : i32} : () -> ()  // expected-error {{elements literal type must be a statically shaped tensor or vector}}

// -----

"foo.x"() {a = dense<1> : memref<2xi32>} : () -> ()  // expected-error {{elements literal type must be a statically shaped tensor or vector}}

// -----

"foo.x"() {a = dense<1> : tensor<2x!foo.t>} : () -> ()  // expected-error {{unsupported element type for dense elements}}

// -----

"foo.x"() {a = dense<1.5> : tensor<2xi32>} : () -> ()  // expected-error {{expected integer elements, but parsed floating-point}}

// -----

"foo.x"() {a = dense<true> : tensor<2xi32>} : () -> ()  // expected-error {{expected integer elements, but parsed boolean}}

// -----

"foo.x"() {a = dense<300> : tensor<2xi8>} : () -> ()  // expected-error {{integer constant out of range for type}}

// -----

"foo.x"() {a = dense<[1, -9]> : tensor<2xi4>} : () -> ()  // expected-error {{integer constant out of range for type}}

// -----

"foo.x"() {a = dense<"s"> : tensor<2xf32>} : () -> ()  // expected-error {{expected a hex string "0x..."}}

// -----

"foo.x"() {a = dense<[x]> : tensor<1xf32>} : () -> ()  // expected-error {{expected floating point literal}}

// -----

"foo.x"() {a = dense<[1, 2]> : tensor<2xi8>, b = 1 : i8} : () -> ()
"foo.y"() {a = dense<> : tensor<2xi8>} : () -> ()  // expected-error {{empty dense literal for a type with 2 elements}}

// -----

"foo.x"() {a = dense<[1, 2]>} : () -> ()  // expected-error {{':' after dense literal}}

// -----

"foo.x"() {a = dense<[1, 2> : tensor<2xi8>} : () -> ()  // expected-error {{unbalanced '>'}}

// -----

// Hex blobs.
"foo.x"() {a = dense<"0x0102"> : tensor<3xi32>} : () -> ()  // expected-error {{hex data has 2 bytes, but the type needs 12 (or 4 for a splat)}}

// -----

"foo.x"() {a = dense<"0xZZ"> : tensor<1xi8>} : () -> ()  // expected-error {{invalid hex digit in hex string}}

// -----

"foo.x"() {a = dense<"0x123"> : tensor<1xi8>} : () -> ()  // expected-error {{hex string has an odd number of digits}}

// -----

"foo.x"() {a = dense<"0x010203"> : tensor<9xi1>} : () -> ()  // expected-error {{hex data has 3 bytes, expected 2 for 9 i1 elements}}

// -----

// Dense arrays.
"foo.x"() {a = array<i32: 1, 2.5>} : () -> ()  // expected-error {{expected integer elements, but parsed floating-point}}

// -----

"foo.x"() {a = array<tensor<2xi32>: 1>} : () -> ()  // expected-error {{expected integer or float type in dense array}}

// -----

"foo.x"() {a = array<i8: 1000>} : () -> ()  // expected-error {{integer constant out of range for type}}

// -----

"foo.x"() {a = array<i8: 1, 2} : () -> ()  // expected-error {{'>' to close an array attribute}}

// -----

"foo.x"() {a = array} : () -> ()  // expected-error {{'<' after 'array'}}

// -----

// Resources.
"foo.x"() {a = dense_resource<> : tensor<2xi8>} : () -> ()  // expected-error {{expected resource handle name}}

// -----

"foo.x"() {a = dense_resource<r> : tensor<?xi8>} : () -> ()  // expected-error {{dense_resource requires a statically shaped tensor or vector type}}

// -----

"foo.x"() {a = dense_resource<r>} : () -> ()  // expected-error {{':' after dense_resource}}

// -----

// Symbol references and aliases.
"foo.x"() {a = @a::} : () -> ()  // expected-error {{expected '}' in attribute dictionary}}

// -----

"foo.x"() {a = #undefined} : () -> ()  // expected-error {{undefined symbol alias id 'undefined'}}

// -----

!t = i32
"foo.x"() {a = #t} : () -> ()  // expected-error {{undefined symbol alias id 't'}}

// -----

#a = 1
#a = 2  // expected-error {{redefinition of attribute alias id 'a'}}

// -----

#a.b = 1  // expected-error {{attribute names with a '.' are reserved for dialect-defined names}}

// -----

#a 1  // expected-error {{'=' in alias definition}}

// -----

"foo.x"() {a = #foo.attr<1, (2>} : () -> ()  // expected-error {{unbalanced '>'}}

// -----

"func.func"() <{function_type = () -> (), sym_name = "f", sym_visibility = "private", x = #foo.y}> ({
}) : () -> ()  // expected-error@-1 {{'x' is not a property of this op}}

// -----

"foo.x"() {a = #-a.x} : () -> ()  // expected-error {{invalid dialect namespace '-a'}}

// -----

// Found by fuzzing: i34 hex data takes 5 bytes per element (as in MLIR).
"foo.x"() {a = dense<"0x0102030405060708"> : tensor<2xi34>} : () -> ()  // expected-error {{hex data has 8 bytes, but the type needs 10 (or 5 for a splat)}}
