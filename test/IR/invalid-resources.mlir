// Malformed `{-# ... #-}` file metadata and resource blobs.
// RUN: nc-opt --allow-unregistered-dialect --verify-diagnostics --split-input-file %s
// RUN: not nc-opt --allow-unregistered-dialect --split-input-file %s 2>&1 | FileCheck %s
// CHECK: invalid-resources.mlir:[[# @LINE + 2]]:40: error: expected hex string blob

{-# dialect_resources: { builtin: { r: "0x0" } } #-}  // expected-error {{expected hex string blob ("0x" then an alignment word and data) for resource 'r'}}

// -----

{-# dialect_resources: { builtin: { r: 12 } } #-}  // expected-error {{expected hex string blob for resource 'r'}}

// -----

{-# dialect_resources: { builtin: { r: "0x0300000001" } } #-}  // expected-error {{resource blob alignment 3 is not a power of two}}

// -----

{-# dialect_resources: { builtin: { r: "0x00000000AB" } } #-}  // expected-error {{resource blob alignment 0 is not a power of two}}

// -----

{-# dialect_resources: { builtin: { r: "0x01000000GG" } } #-}  // expected-error {{invalid hex digit in resource blob}}

// -----

{-# dialect_resources: { builtin: { r: "0x0100000001", r: "0x0100000002" } } #-}  // expected-error {{redefinition of resource blob 'r'}}

// -----

{-# dialect_resources: { other: { r: "0x0100000001" } } #-}  // expected-error {{resources of dialect 'other' are not supported}}

// -----

{-# bogus: {} #-}  // expected-error {{unknown file metadata key 'bogus'}}

// -----

{-# "quoted": {} #-}  // expected-error {{expected identifier key in file metadata dictionary}}

// -----

{-# dialect_resources: { builtin: { 1: "0x0100000001" } } #-}  // expected-error {{expected identifier key for resource entry}}

// -----

{-# dialect_resources: { builtin: { r "0x0100000001" } } #-}  // expected-error {{expected ':'}}

// -----

{-# dialect_resources: { builtin: { r: "0x0100000001" } } "foo.x"() : () -> ()  // expected-error {{expected '#-}' to end file metadata}}

// -----

{-# external_resources: { k: { a = 1 } } #-}  // expected-error {{expected ':'}}
