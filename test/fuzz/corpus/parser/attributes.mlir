
"foo.ints"() {a = 42, b = -7 : i32, c = -1 : i8, d = -128 : i8, e = 255 : ui8, f = -8 : si4, g = 7 : si4, h = 15 : ui4,
  i = 9223372036854775807, j = -9223372036854775808 : i64, k = 18446744073709551615 : ui64, l = 3 : index, m = -1 : index,
  n = 0xFF, o = 1 : i2, p = 2 : i2, q = -0} : () -> ()

"foo.bools"() {a = true, b = false, c = true : i1, d = 0 : i1, e = 1 : i1, f = -1 : si1, g = 0 : si1, h = 1 : ui1} : () -> ()

"foo.floats"() {a = 1.5, b = -0.25 : f32, c = 1.0 : f16, d = 3.14159 : bf16, e = 0.0} : () -> ()

"foo.strings"() {a = "", b = "plain", c = "q\"uote", d = "back\\slash", e = "\n\t", f = "\00\ff\7F", g = "café", h = "\E2\82\AC"} : () -> ()

"foo.units"() {a, b = [unit, unit], c = unit} : () -> ()

"foo.arrays"() {a = [], b = [1, 2, 3 : i64], c = [1 : i32, 2.5, 2.5 : f32], d = [[1], [[]], "s", i32, @f], e = [true, unit, {x = 1}]} : () -> ()

"foo.dense_arrays"() {a = array<i64: 1, -2, 3>, b = array<i32>, c = array<i1: true, false>, d = array<i8: -128, 127>,
  e = array<f32: 1.5, -0.0>, f = array<f64: 2.0>, g = array<i16: 0>, h = array<ui8: 255>} : () -> ()

"foo.dicts"() {b = {z = {w}, y = 1}, "a b" = 2, a = {}, "x-y" = 3, "0key" = 1, z$.q_1 = 4} : () -> ()

"foo.symbols"() {a = @f, b = @a::@b, c = @a::@b::@c, d = @"with space", e = @"q\""::@x, f = @"f.g$_1"} : () -> ()

"foo.types"() {a = i32, b = f32, c = tensor<2x?xf32>, d = () -> (), e = !foo.t<1>, f = index} : () -> ()

"foo.dialect_attrs"() {a = #foo.bar, b = #foo.bar<1, "x", [2, 3]>, c = #foo<"anything goes">, d = #foo<"pretty<x>">, e = #foo.nested<#foo.bar<{k = 1}>, (i32) -> f32>, f = #bar.b.c, g = #foo<x<1>>, h = #foo<a b>} : () -> ()

"foo.affine"() {m = affine_map<(d0, d1)[s0] -> (d0 + s0, d1 floordiv 2)>, s = affine_set<(d0) : (d0 - 1 >= 0)>} : () -> ()

%0 = "foo.with_result"() {"quoted key" = "v"} : () -> i32
