func.func private @g(i32) -> i32
func.func @f(%a: i32) -> i32 {
  %0 = call @g(%a) : (i32) -> i32
  return %0 : i32
}
