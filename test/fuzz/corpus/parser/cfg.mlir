func.func @f(%c: i1) -> i32 {
  "foo.br"()[^b] : () -> ()
^b:
  %v = "foo.v"() : () -> i32
  return %v : i32
}
