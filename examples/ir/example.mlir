// A small function in nc's IR: the func dialect with MLIR's syntax, an op of
// an unregistered dialect in generic form, a weight blob as a dense_resource.
func.func @scale(%x: tensor<4xf32>) -> tensor<4xf32> {
  %w = "demo.weights"() {value = dense_resource<w0> : tensor<4xf32>} : () -> tensor<4xf32>
  %y = "demo.mul"(%x, %w) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32> loc("scale/mul")
  return %y : tensor<4xf32>
}

{-#
  dialect_resources: {
    builtin: {
      w0: "0x040000000000803F000000400000404000008040"
    }
  }
#-}
