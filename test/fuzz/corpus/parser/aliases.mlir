
!f32t = tensor<4xf32>
!pair = tuple<!f32t, i32>
!dialect = !foo.buffer<4, i8>
!unused = i1
#one = 1 : i64
#arr = [#one, "x", !pair]
#dict = {k = #arr, t = !dialect}
#dense = dense<[1.0, 2.0, 3.0, 4.0]> : !f32t
#map = affine_map<(d0) -> (d0 * 2)>
#dialect_attr = #foo.attr<[1, 2]>

func.func @f(%a: !f32t, %b: !pair) -> !dialect {
  %r = "foo.op"(%a) {a = #one, b = #arr, c = #dict, d = #dense, e = #map, f = #dialect_attr} : (!f32t) -> !dialect
  return %r : !dialect
}

%n:2 = "foo.nested"() : () -> (tensor<2x!dialect>, memref<4xi8, #dict>)

