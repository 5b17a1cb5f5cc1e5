#loc = loc("a.c":1:2)
!t = tensor<2x?xf32>
module @m attributes {foo.a = [1, "s\n", 2.5 : f16, @x::@y]} {
  func.func private @decl(i32 {foo.b}) -> (f32 {foo.c = unit})
  func.func @f(%a: i32 loc(#loc), %b: !t) -> (i32, !t) {
    %0:2 = "foo.op"(%a, %b) <{p = dense<[[1, 2]]> : tensor<1x2xi8>}> ({
    ^bb0(%x: i32):
      "foo.yield"(%x) : (i32) -> ()
    }) {q = array<i64: 1, -2>, r = #foo.attr<[1, (2)]>, s = dense_resource<blob> : tensor<2xi8>} : (i32, !t) -> (i32, !t) loc(fused["x":1:1, "n"])
    "foo.br"(%0#0)[^bb1] : (i32) -> ()
  ^bb1(%c: i32):
    %1 = call @g(%c) : (i32) -> i32
    return %1, %0#1 : i32, !t
  }
  func.func @g(%z: i32) -> i32 {
    return %z : i32
  }
}
{-#
  dialect_resources: {
    builtin: {
      blob: "0x010000000102"
    }
  }
#-}
