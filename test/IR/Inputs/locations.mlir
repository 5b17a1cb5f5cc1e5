func.func @f(%a: i32, %b: i32) -> i32 {
    %c = "arith.addi"(%a, %b) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
  %d, %e = "foo.pair"(%c) : (i32) -> (i32, i32)
  %g:2 = "foo.pair"(%d) : (i32) -> (i32, i32)
      "foo.sink"(%e, %g#1) : (i32, i32) -> ()
  return %c : i32
}
