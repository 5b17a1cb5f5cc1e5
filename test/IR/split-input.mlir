// --split-input-file processes each chunk between `// -----` lines on its
// own (values, aliases and symbols do not leak across chunks) and prints the
// results separated by `// -----`. Diagnostics keep the line numbers of the
// whole file.
// RUN: nc-opt --allow-unregistered-dialect --split-input-file %s | FileCheck %s
// RUN: not nc-opt --allow-unregistered-dialect --split-input-file %s --dump-bad-chunk 2>&1 | FileCheck %s --check-prefix=BADFLAG
// RUN: sed 's|^// BAD-CHUNK: ||' %s | not nc-opt --allow-unregistered-dialect --split-input-file 2>&1 | FileCheck %s --check-prefix=ERR

// BADFLAG: unknown option

// CHECK: module {
// CHECK-NEXT: func.func @f() {
func.func @f() {
  return
}

// -----

// The same names are fine in another chunk.
// CHECK: // -----
// CHECK-NEXT: module {
// CHECK-NEXT: func.func @f(%arg0: i32) -> i32 {
!t = i32
func.func @f(%x: !t) -> !t {
  return %x : !t
}

// -----

// CHECK: // -----
// CHECK-NEXT: module {
// CHECK-NEXT: %0 = "foo.chunk3"() : () -> i32
%x = "foo.chunk3"() : () -> i32
// With the next line uncommented, this chunk fails: the error gives the line
// in the whole input, the other chunks still print, the exit status is 1.
// BAD-CHUNK: "foo.bad"(%undefined) : (i32) -> ()
// ERR: <stdin>:[[# @LINE - 1]]:11: error: use of undeclared SSA value name
// ERR: // -----
// ERR: module @named {

// -----
// CHECK: // -----
// CHECK-NEXT: module {
// CHECK-NEXT: }

// -----

// A module op in a chunk is kept as the chunk's top level.
// CHECK: // -----
// CHECK-NEXT: module @named {
module @named {
}
