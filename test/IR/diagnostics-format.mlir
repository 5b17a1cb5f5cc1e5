// Diagnostics print `file:line:col: error: message`, then the source line
// and a caret under the column (tabs kept so the caret lines up); notes
// follow the error the same way. nc-roundtrip: skip (the chunks are invalid on purpose)
// RUN: not nc-opt --allow-unregistered-dialect --split-input-file %s 2>&1 | FileCheck %s --strict-whitespace --match-full-lines

"foo.x"(%undefined) : (i32) -> ()
// CHECK:{{.*}}diagnostics-format.mlir:6:9: error: use of undeclared SSA value name
// CHECK-NEXT:"foo.x"(%undefined) : (i32) -> ()
// CHECK-NEXT:        ^

// -----

%a = "foo.x"() : () -> i32
%a = "foo.y"() : () -> i32
// CHECK-NEXT:{{.*}}diagnostics-format.mlir:14:1: error: redefinition of SSA value '%a'
// CHECK-NEXT:%a = "foo.y"() : () -> i32
// CHECK-NEXT:^
// CHECK-NEXT:{{.*}}diagnostics-format.mlir:13:1: note: previously defined here
// CHECK-NEXT:%a = "foo.x"() : () -> i32
// CHECK-NEXT:^

// -----

func.func @f() {
	"foo.use"(%v) : (i32) -> ()
	%v = "foo.def"() : () -> i32
  return
}
// CHECK-NEXT:{{.*}}diagnostics-format.mlir:25:2: error: 'foo.use' op operand #0 does not dominate this use
// CHECK-NEXT:	"foo.use"(%v) : (i32) -> ()
// CHECK-NEXT:	^
// CHECK-NEXT:{{.*}}diagnostics-format.mlir:26:7: note: operand defined here
// CHECK-NEXT:	%v = "foo.def"() : () -> i32
// CHECK-NEXT:	     ^

// -----

func.func @f() -> i32 {
  %0 = "foo.x"() : () -> f32
  return %0 : f32
}
// CHECK-NEXT:{{.*}}diagnostics-format.mlir:40:3: error: 'func.return' op type of return operand 0 ('f32') doesn't match function result type ('i32') in function @f
// CHECK-NEXT:  return %0 : f32
// CHECK-NEXT:  ^

// -----

// On very long lines (hex blobs) a 400-character window around the column
// is shown, with the caret in it.
"foo.x"() {a = dense<"0xABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABAB"> : tensor<300xi8>, b = 1 : i1x} : () -> ()
// CHECK-NEXT:{{.*}}diagnostics-format.mlir:50:654: error: unknown type 'i1x'
// CHECK-NEXT:{{(AB)+"> : tensor<300xi8>, b = 1 : i1x} : \(\) -> \(\)}}
// CHECK-NEXT:{{ {200} {185}\^}}

// -----

module {
  func.func private @f()
  func.func private @f() loc("other.c":3:4)
}
// CHECK-NEXT:other.c:3:4: error: 'func.func' op redefinition of symbol named 'f'
// CHECK-NEXT:{{.*}}diagnostics-format.mlir:58:3: note: see existing symbol definition here
// CHECK-NEXT:  func.func private @f()
// CHECK-NEXT:  ^
