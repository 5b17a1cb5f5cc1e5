
"foo.weights"() {a = dense_resource<blob1> : tensor<3xi32>, b = dense_resource<w.conv$1> : tensor<2xf32>,
  c = dense_resource<undefined_blob> : tensor<2xi8>,
  d = [dense_resource<blob1> : tensor<3xi32>, {k = dense_resource<blob2> : vector<2xi8>}]} : () -> ()

"foo.region"() <{p = dense_resource<in_props> : tensor<1xi64>}> ({
  "foo.inner"() {q = dense_resource<in_region> : tensor<f16>} : () -> ()
}) : () -> ()

{-#
  dialect_resources: {
    builtin: {
      unused: "0x0100000005",
      in_region: "0x02000000003C",
      blob1: "0x04000000010000000200000003000000",
      w.conv$1: "0x100000000000803f00000040",
      in_props: "0x080000002A00000000000000",
      blob2: "0x010000000102"
    }
  }
#-}
