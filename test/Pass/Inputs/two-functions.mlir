func.func @dup(%a: i32) -> (i32, i32) {
  %0 = "foo.op"(%a) : (i32) -> i32
  %1 = "foo.op"(%a) : (i32) -> i32
  return %0, %1 : i32, i32
}
func.func private @unused() {
  return
}
