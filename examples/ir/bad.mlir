// An invalid function: the returned value has the wrong type.
func.func @bad(%x: i32) -> i64 {
  return %x : i32
}
