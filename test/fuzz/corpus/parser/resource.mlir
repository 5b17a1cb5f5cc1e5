"foo.x"() {a = dense_resource<b> : tensor<2xi8>} : () -> ()
{-#
  dialect_resources: {
    builtin: {
      b: "0x010000000102"
    }
  }
#-}
