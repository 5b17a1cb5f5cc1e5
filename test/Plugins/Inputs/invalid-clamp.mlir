// Inputs of plugins.mlir: example.clamp's verifier and its table checks.
func.func @bounds(%x: i32) -> i32 {
  // expected-error @+1 {{'example.clamp' op lower bound 5 is greater than upper bound 4}}
  %0 = example.clamp %x [5, 4] : i32
  return %0 : i32
}

// -----

func.func @float(%x: f32) -> f32 {
  // expected-error @+1 {{'example.clamp' op operand #0 must be}}
  %0 = "example.clamp"(%x) <{lo = 0 : i64, hi = 1 : i64}> : (f32) -> f32
  return %0 : f32
}
