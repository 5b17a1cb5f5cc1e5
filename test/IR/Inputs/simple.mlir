// A small valid file for the tool tests.
func.func @id(%x: i32) -> i32 {
  return %x : i32
}
