
"foo.ints"(%i1, %i2, %i4, %i8, %i16, %i32, %i64, %i3, %i63) : (i1, i2, i4, i8, i16, i32, i64, i3, i63) -> ()

"foo.signedness"(%s1, %s4, %s8, %s32, %s64, %u1, %u2, %u8, %u16, %u64) : (si1, si4, si8, si32, si64, ui1, ui2, ui8, ui16, ui64) -> ()

"foo.scalars"(%idx, %h, %bf, %f, %d, %n) : (index, f16, bf16, f32, f64, none) -> ()

%fns:5 = "foo.functions"() : () -> (() -> (), (i32) -> i32, (i32, f32) -> (i64, i1), (i32) -> ((i32) -> i32), () -> (f32, f32))

"foo.tensors"(%t0, %t1, %t2, %t3, %t4, %t5, %t6, %t7, %t8, %t9) : (tensor<f32>, tensor<1xi8>, tensor<2x3x4xf16>, tensor<?xf32>, tensor<?x?xbf16>, tensor<1x?x8xi4>, tensor<*xf32>, tensor<*xi1>, tensor<0xf32>, tensor<0x?x3xi64>) -> ()

"foo.spaced"(%sp) : (tensor< 2x?x f32 >) -> ()

"foo.encoding"(%e0, %e1) : (tensor<4xf32, "sparse">, tensor<?x4xi8, #foo.enc<csr>>) -> ()

"foo.memrefs"(%m0, %m1, %m2, %m3, %m4, %m5, %m6, %m7) : (memref<4xf32>, memref<4x?xi8, 1>, memref<f32, 3>, memref<2xf32, "l1">, memref<*xf32>, memref<*xi8, 2>, memref<8xf32, {bank = 1 : i64}>, memref<4xf32, 5 : i32>) -> ()

"foo.canonical"(%k0, %k1, %k2, %k3) : (memref<4xf32, 0>, memref<*xf32, 0 : i32>, memref<2x3xf32, affine_map<(i, j) -> (i, j)>, 1>, memref<f32, affine_map<() -> ()>>) -> ()

"foo.layouts"(%l0, %l1) : (memref<4x4xf32, strided<[4, 1], offset: ?>>, memref<4xf32, affine_map<(d0) -> (d0 + 1)>, 2>) -> ()

"foo.vectors"(%v0, %v1, %v2) : (vector<4xf32>, vector<2x3xi8>, vector<1xi1>) -> ()

"foo.tuples"(%tp0, %tp1, %tp2, %tp3) : (tuple<>, tuple<i32>, tuple<i32, f32>, tuple<tuple<i1>, tensor<2xf32>>) -> ()

"foo.complex"(%c0, %c1) : (complex<f32>, complex<i8>) -> ()

"foo.dialect_types"(%d0, %d1, %d2, %d3, %d4, %d5, %d6, %d7) : (!foo.bar, !foo.bar<1, 2>, !foo.baz<"s", [i32, f32]>, !foo.nested<!foo.bar<4>, tensor<2xf32>>, !foo<"weird body">, !foo.a.b, !bar.arrow<(i32) -> i32>, !foo.braces<{x = 1}>) -> ()

"foo.type_attrs"() {a = i32, b = tensor<?xf32>, c = (i1) -> i2, d = !foo.bar, e = none, f = memref<2xf32, 1>} : () -> ()

%i1, %i2, %i4, %i8, %i16, %i32, %i64, %i3, %i63 = "foo.def"() : () -> (i1, i2, i4, i8, i16, i32, i64, i3, i63)
%s1, %s4, %s8, %s32, %s64, %u1, %u2, %u8, %u16, %u64 = "foo.def"() : () -> (si1, si4, si8, si32, si64, ui1, ui2, ui8, ui16, ui64)
%idx, %h, %bf, %f, %d, %n = "foo.def"() : () -> (index, f16, bf16, f32, f64, none)
%t0, %t1, %t2, %t3, %t4, %t5, %t6, %t7, %t8, %t9 = "foo.def"() : () -> (tensor<f32>, tensor<1xi8>, tensor<2x3x4xf16>, tensor<?xf32>, tensor<?x?xbf16>, tensor<1x?x8xi4>, tensor<*xf32>, tensor<*xi1>, tensor<0xf32>, tensor<0x?x3xi64>)
%sp = "foo.def"() : () -> tensor<2x?xf32>
%e0, %e1 = "foo.def"() : () -> (tensor<4xf32, "sparse">, tensor<?x4xi8, #foo.enc<csr>>)
%m0, %m1, %m2, %m3, %m4, %m5, %m6, %m7 = "foo.def"() : () -> (memref<4xf32>, memref<4x?xi8, 1>, memref<f32, 3>, memref<2xf32, "l1">, memref<*xf32>, memref<*xi8, 2>, memref<8xf32, {bank = 1 : i64}>, memref<4xf32, 5 : i32>)
%l0, %l1 = "foo.def"() : () -> (memref<4x4xf32, strided<[4, 1], offset: ?>>, memref<4xf32, affine_map<(d0) -> (d0 + 1)>, 2>)
%v0, %v1, %v2 = "foo.def"() : () -> (vector<4xf32>, vector<2x3xi8>, vector<1xi1>)
%tp0, %tp1, %tp2, %tp3 = "foo.def"() : () -> (tuple<>, tuple<i32>, tuple<i32, f32>, tuple<tuple<i1>, tensor<2xf32>>)
%c0, %c1 = "foo.def"() : () -> (complex<f32>, complex<i8>)
%d0, %d1, %d2, %d3, %d4, %d5, %d6, %d7 = "foo.def"() : () -> (!foo.bar, !foo.bar<1, 2>, !foo.baz<"s", [i32, f32]>, !foo.nested<!foo.bar<4>, tensor<2xf32>>, !foo<"weird body">, !foo.a.b, !bar.arrow<(i32) -> i32>, !foo.braces<{x = 1}>)
%k0, %k1, %k2, %k3 = "foo.def"() : () -> (memref<4xf32>, memref<*xf32>, memref<2x3xf32, 1>, memref<f32>)
