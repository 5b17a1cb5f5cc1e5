// Builtin attributes: integers, floats, strings, unit, bools, arrays, dense
// arrays, dictionaries, types, symbol references and dialect attributes.
// RUN: nc-opt --allow-unregistered-dialect %s | FileCheck %s
// RUN: nc-opt --allow-unregistered-dialect --mlir-print-op-generic %s | nc-opt --allow-unregistered-dialect | FileCheck %s

// Integers keep their type; a bare integer is i64. Hex literals are accepted.
// Signless integers print as signed values, as in MLIR.
// CHECK-LABEL: "foo.ints"
// CHECK-SAME: a = 42 : i64, b = -7 : i32, c = -1 : i8, d = -128 : i8, e = 255 : ui8, f = -8 : si4, g = 7 : si4
// CHECK-SAME: h = 15 : ui4, i = 9223372036854775807 : i64, j = -9223372036854775808 : i64, k = 18446744073709551615 : ui64
// CHECK-SAME: l = 3 : index, m = -1 : index, n = 255 : i64, o = 1 : i2, p = -2 : i2, q = 0 : i64
"foo.ints"() {a = 42, b = -7 : i32, c = -1 : i8, d = -128 : i8, e = 255 : ui8, f = -8 : si4, g = 7 : si4, h = 15 : ui4,
  i = 9223372036854775807, j = -9223372036854775808 : i64, k = 18446744073709551615 : ui64, l = 3 : index, m = -1 : index,
  n = 0xFF, o = 1 : i2, p = 2 : i2, q = -0} : () -> ()

// Bools are i1 integers printed as keywords.
// CHECK-LABEL: "foo.bools"
// CHECK-SAME: {a = true, b = false, c = true, d = false, e = true, f = -1 : si1, g = 0 : si1, h = 1 : ui1}
"foo.bools"() {a = true, b = false, c = true : i1, d = 0 : i1, e = 1 : i1, f = -1 : si1, g = 0 : si1, h = 1 : ui1} : () -> ()

// CHECK-LABEL: "foo.floats"
// CHECK-SAME: {a = 1.500000e+00 : f64, b = -2.500000e-01 : f32, c = 1.000000e+00 : f16, d = 3.140620e+00 : bf16, e = 0.000000e+00 : f64}
"foo.floats"() {a = 1.5, b = -0.25 : f32, c = 1.0 : f16, d = 3.14159 : bf16, e = 0.0} : () -> ()

// Strings: escapes \" \\ \n \t and \XX hex; non-printable bytes and
// non-ASCII UTF-8 print as \XX.
// CHECK-LABEL: "foo.strings"
// CHECK-SAME: a = "", b = "plain", c = "q\22uote", d = "back\\slash", e = "\0A\09", f = "\00\FF\7F", g = "caf\C3\A9", h = "\E2\82\AC"
"foo.strings"() {a = "", b = "plain", c = "q\"uote", d = "back\\slash", e = "\n\t", f = "\00\ff\7F", g = "café", h = "\E2\82\AC"} : () -> ()

// Unit attributes print as bare names in dictionaries and as `unit` elsewhere.
// CHECK-LABEL: "foo.units"
// CHECK-SAME: {a, b = [unit, unit], c}
"foo.units"() {a, b = [unit, unit], c = unit} : () -> ()

// Arrays elide the default i64 / f64 types of their elements, as MLIR does.
// CHECK-LABEL: "foo.arrays"
// CHECK-SAME: {a = [], b = [1, 2, 3], c = [1 : i32, 2.500000e+00, 2.500000e+00 : f32], d = {{\[\[}}1], {{\[\[}}]], "s", i32, @f], e = [true, unit, {x = 1 : i64}]}
"foo.arrays"() {a = [], b = [1, 2, 3 : i64], c = [1 : i32, 2.5, 2.5 : f32], d = [[1], [[]], "s", i32, @f], e = [true, unit, {x = 1}]} : () -> ()

// Dense arrays of integers and floats, including empty ones and i1.
// CHECK-LABEL: "foo.dense_arrays"
// CHECK-SAME: a = array<i64: 1, -2, 3>, b = array<i32>, c = array<i1: true, false>, d = array<i8: -128, 127>
// CHECK-SAME: e = array<f32: 1.500000e+00, -0.000000e+00>, f = array<f64: 2.000000e+00>, g = array<i16: 0>, h = array<ui8: 255>
"foo.dense_arrays"() {a = array<i64: 1, -2, 3>, b = array<i32>, c = array<i1: true, false>, d = array<i8: -128, 127>,
  e = array<f32: 1.5, -0.0>, f = array<f64: 2.0>, g = array<i16: 0>, h = array<ui8: 255>} : () -> ()

// Dictionaries are sorted by key; keys that are not bare identifiers are quoted.
// CHECK-LABEL: "foo.dicts"
// CHECK-SAME: {"0key" = 1 : i64, a = {}, "a b" = 2 : i64, b = {y = 1 : i64, z = {w}}, "x-y" = 3 : i64, z$.q_1 = 4 : i64}
"foo.dicts"() {b = {z = {w}, y = 1}, "a b" = 2, a = {}, "x-y" = 3, "0key" = 1, z$.q_1 = 4} : () -> ()

// Symbol references, flat and nested, quoted when needed.
// CHECK-LABEL: "foo.symbols"
// CHECK-SAME: {a = @f, b = @a::@b, c = @a::@b::@c, d = @"with space", e = @"q\22"::@x, f = @f.g$_1}
"foo.symbols"() {a = @f, b = @a::@b, c = @a::@b::@c, d = @"with space", e = @"q\""::@x, f = @"f.g$_1"} : () -> ()

// Type attributes.
// CHECK-LABEL: "foo.types"
// CHECK-SAME: {a = i32, b = f32, c = tensor<2x?xf32>, d = () -> (), e = !foo.t<1>, f = index}
"foo.types"() {a = i32, b = f32, c = tensor<2x?xf32>, d = () -> (), e = !foo.t<1>, f = index} : () -> ()

// Dialect attributes keep their body text. As in MLIR, the body of `#d<...>`
// is the raw text between the brackets (quotes included) and prints in the
// pretty form `#d.body` when it is an identifier with an optional <...>.
// CHECK-LABEL: "foo.dialect_attrs"
// CHECK-SAME: {a = #foo.bar, b = #foo.bar<1, "x", [2, 3]>, c = #foo<"anything goes">, d = #foo<"pretty<x>">, e = #foo.nested<#foo.bar<{k = 1}>, (i32) -> f32>, f = #bar.b.c, g = #foo.x<1>, h = #foo<a b>}
"foo.dialect_attrs"() {a = #foo.bar, b = #foo.bar<1, "x", [2, 3]>, c = #foo<"anything goes">, d = #foo<"pretty<x>">, e = #foo.nested<#foo.bar<{k = 1}>, (i32) -> f32>, f = #bar.b.c, g = #foo<x<1>>, h = #foo<a b>} : () -> ()

// Builtin affine maps and sets are kept as text.
// CHECK-LABEL: "foo.affine"
// CHECK-SAME: {m = affine_map<(d0, d1)[s0] -> (d0 + s0, d1 floordiv 2)>, s = affine_set<(d0) : (d0 - 1 >= 0)>}
"foo.affine"() {m = affine_map<(d0, d1)[s0] -> (d0 + s0, d1 floordiv 2)>, s = affine_set<(d0) : (d0 - 1 >= 0)>} : () -> ()

// A string-keyed attribute dictionary and attributes on an op with results.
// CHECK-LABEL: %{{.*}} = "foo.with_result"
// CHECK-SAME: {"quoted key" = "v"} : () -> i32
%0 = "foo.with_result"() {"quoted key" = "v"} : () -> i32
