"foo.x"() {a = dense<"0x0102030405060708"> : tensor<2xi32>, b = dense<"0xFF"> : tensor<9xi1>} : () -> ()
