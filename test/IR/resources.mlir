// dense_resource<name> attributes and the `{-# dialect_resources #-}` section:
// blobs are hex strings whose first four bytes are the alignment; only the
// blobs the IR references are printed, in order of first use; a reference to
// a blob the file never defines is kept as it is.
// RUN: nc-opt --allow-unregistered-dialect %s | FileCheck %s
// RUN: nc-opt --allow-unregistered-dialect %s | nc-opt --allow-unregistered-dialect | FileCheck %s
// RUN: nc-opt --allow-unregistered-dialect --mlir-print-op-generic %s | nc-opt --allow-unregistered-dialect | FileCheck %s

// CHECK-LABEL: "foo.weights"
// CHECK-SAME: a = dense_resource<blob1> : tensor<3xi32>
// CHECK-SAME: b = dense_resource<w.conv$1> : tensor<2xf32>
// CHECK-SAME: c = dense_resource<undefined_blob> : tensor<2xi8>
// CHECK-SAME: d = [dense_resource<blob1> : tensor<3xi32>, {k = dense_resource<blob2> : vector<2xi8>}]
"foo.weights"() {a = dense_resource<blob1> : tensor<3xi32>, b = dense_resource<w.conv$1> : tensor<2xf32>,
  c = dense_resource<undefined_blob> : tensor<2xi8>,
  d = [dense_resource<blob1> : tensor<3xi32>, {k = dense_resource<blob2> : vector<2xi8>}]} : () -> ()

// Resources referenced from properties and from nested regions count too.
// CHECK: "foo.region"() <{p = dense_resource<in_props> : tensor<1xi64>}> ({
// CHECK-NEXT: "foo.inner"() {q = dense_resource<in_region> : tensor<f16>} : () -> ()
"foo.region"() <{p = dense_resource<in_props> : tensor<1xi64>}> ({
  "foo.inner"() {q = dense_resource<in_region> : tensor<f16>} : () -> ()
}) : () -> ()

// CHECK:      {-#
// CHECK-NEXT:   dialect_resources: {
// CHECK-NEXT:     builtin: {
// CHECK-NEXT:       blob1: "0x04000000010000000200000003000000",
// CHECK-NEXT:       w.conv$1: "0x100000000000803F00000040",
// CHECK-NEXT:       blob2: "0x010000000102",
// CHECK-NEXT:       in_props: "0x080000002A00000000000000",
// CHECK-NEXT:       in_region: "0x02000000003C"
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT: #-}
// CHECK-NOT: unused
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
