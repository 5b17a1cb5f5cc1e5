// Malformed types: unsupported integer widths, unknown keywords, bad shapes,
// memref layouts and memory spaces, vectors, complex, dialect types and
// aliases.
// RUN: nc-opt --allow-unregistered-dialect --verify-diagnostics --split-input-file %s
// RUN: not nc-opt --allow-unregistered-dialect --split-input-file %s 2>&1 | FileCheck %s
// CHECK: invalid-types.mlir:[[# @LINE + 2]]:20: error: integer bitwidth 0 is not supported

"foo.x"() : () -> (i0)  // expected-error {{integer bitwidth 0 is not supported}}

// -----

"foo.x"() : () -> (i65)  // expected-error {{integer bitwidth 65 is not supported}}

// -----

// The width is reported as written (it was once reported as 1000000).
"foo.x"() : () -> (si99999999999999999999999)  // expected-error {{integer bitwidth 99999999999999999999999 is not supported}}

// -----

"foo.x"() : () -> (i99999999999)  // expected-error {{integer bitwidth 99999999999 is not supported (nc supports 1 to 64)}}

// -----

"foo.x"() : () -> (f80)  // expected-error {{unknown type 'f80'}}

// -----

"foo.x"() : () -> (integer)  // expected-error {{unknown type 'integer'}}

// -----

"foo.x"() : () -> (tensor<2x?x>)  // expected-error {{expected type}}

// -----

"foo.x"() : () -> (tensor<2xf32)  // expected-error {{expected '>' in shaped type}}

// -----

"foo.x"() : () -> (tensor<-1xf32>)  // expected-error {{expected type}}

// -----

"foo.x"() : () -> (tensor<2x3>)  // expected-error {{expected 'x' in dimension list}}

// -----

"foo.x"() : () -> (tensor<99999999999999999999xf32>)  // expected-error {{dimension is too large}}

// -----

// Unranked tensors have no encoding.
"foo.x"() : () -> (tensor<*xi32, "enc">)  // expected-error {{expected '>' in tensor type}}

// -----

"foo.x"() : () -> (tensor<*>)  // expected-error {{expected 'x' in dimension list}}

// -----

"foo.x"() : () -> (vector<?xf32>)  // expected-error {{vector types must have at least one dimension}}

// -----

"foo.x"() : () -> (vector<0xf32>)  // expected-error {{vector types must have positive constant sizes}}

// -----

"foo.x"() : () -> (vector<f32>)  // expected-error {{vector types must have at least one dimension}}

// -----

"foo.x"() : () -> (vector<4xf32, 1>)  // expected-error {{expected '>' in vector type}}

// -----

"foo.x"() : () -> (tensor)  // expected-error {{expected '<' in tensor type}}

// -----

"foo.x"() : () -> (complex<tensor<2xf32>>)  // expected-error {{invalid element type for complex}}

// -----

"foo.x"() : () -> (complex<f32, f32>)  // expected-error {{invalid element type for complex}}

// -----

"foo.x"() : () -> (tuple<i32)  // expected-error {{expected '>'}}

// -----

// The memory space is an integer, a string, a dictionary or an attribute of
// a registered dialect, as in MLIR.
"foo.x"() : () -> (memref<4xf32, #foo.space>)  // expected-error {{unsupported memory space Attribute}}

// -----

"foo.x"() : () -> (memref<4xf32, [1]>)  // expected-error {{unsupported memory space Attribute}}

// -----

"foo.x"() : () -> (memref<4xf32, 1, 2>)  // expected-error {{multiple memory spaces specified in memref type}}

// -----

"foo.x"() : () -> (memref<4xf32, 1, strided<[1]>>)  // expected-error {{unexpected layout attribute in memref type}}

// -----

"foo.x"() : () -> (memref<*xf32, strided<[1]>>)  // expected-error {{unexpected layout attribute in memref type}}

// -----

"foo.x"() : () -> (!foo.bar<1, (2>)  // expected-error {{unbalanced '>'}}

// -----

"foo.x"() : () -> (!foo.bar<1)  // expected-error {{unbalanced ')'}}

// -----

// expected-error@+1 {{unbalanced '<'}}
"foo.x"() : () -> (!foo.bar<1

// -----

"foo.x"() : () -> (!undefined)  // expected-error {{undefined symbol alias id 'undefined'}}

// -----

#attr = 1
"foo.x"() : () -> (!attr)  // expected-error {{undefined symbol alias id 'attr'}}

// -----

!t = i32
!t = i64  // expected-error {{redefinition of type alias id 't'}}

// -----

!a.b = i32  // expected-error {{type names with a '.' are reserved for dialect-defined names}}

// -----

!t = 42  // expected-error {{expected type}}

// -----

// A parenthesised result list that turns out to be a function type, which
// is then malformed (found by fuzzing: a double free).
"foo.x"() : () -> (i32) -> ( "foo.y"  // expected-error {{expected type}}

// -----

// Found by fuzzing: an empty namespace printed as `!<0>`, which does not parse.
"foo.x"() : () -> (!.0)  // expected-error {{invalid dialect namespace ''}}

// -----

"foo.x"() : () -> (!-x<1>)  // expected-error {{invalid dialect namespace '-x'}}
