// Each --split-input-file chunk is parsed in a fresh context (as in mlir-opt),
// so a resource name used by one chunk keeps its own blob in the next.
// RUN: nc-opt --allow-unregistered-dialect --split-input-file %s | FileCheck %s

// CHECK: dense_resource<blob>
// CHECK: blob: "0x0100000005"
"foo.a"() {x = dense_resource<blob> : tensor<1xi8>} : () -> ()
{-#
  dialect_resources: { builtin: { blob: "0x0100000005" } }
#-}

// -----

// CHECK: dense_resource<blob>
// CHECK: blob: "0x0100000007"
"foo.a"() {x = dense_resource<blob> : tensor<1xi8>} : () -> ()
{-#
  dialect_resources: { builtin: { blob: "0x0100000007" } }
#-}

// -----

// mlir-opt writes an empty blob with alignment 0.
// CHECK: dense_resource<empty> : tensor<0xi8>
"foo.a"() {x = dense_resource<empty> : tensor<0xi8>} : () -> ()
{-#
  dialect_resources: { builtin: { empty: "0x00000000" } }
#-}
