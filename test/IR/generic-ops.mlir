// The generic op form: "dialect.name"(operands)[successors] <{properties}>
// (regions) {attributes} : (operand types) -> result types, with multi-result
// definitions %x:2 and uses %x#1, named and numbered values, and op names that
// need quoting.
// RUN: nc-opt --allow-unregistered-dialect %s | FileCheck %s
// RUN: nc-opt --allow-unregistered-dialect --mlir-print-op-generic %s | FileCheck %s --check-prefix=GENERIC
// RUN: nc-opt --allow-unregistered-dialect --mlir-print-op-generic %s | nc-opt --allow-unregistered-dialect | FileCheck %s

// CHECK-LABEL: func.func @results
// GENERIC-LABEL: "func.func"() <{function_type = (i32) -> (), sym_name = "results"}> ({
func.func @results(%in: i32) {
  // No results, no operands.
  // CHECK-NEXT: "foo.none"() : () -> ()
  "foo.none"() : () -> ()
  // One result; named values are renumbered (from %1: as in MLIR, nested
  // regions continue after the values of the module body, %0 at the end).
  // CHECK-NEXT: %1 = "foo.one"(%arg0) : (i32) -> i32
  %named = "foo.one"(%in) : (i32) -> i32
  // A group of results and uses of its members.
  // CHECK-NEXT: %2:3 = "foo.three"(%1, %1) : (i32, i32) -> (i32, f32, i1)
  // CHECK-NEXT: "foo.use"(%2#0, %2#2, %2#1) : (i32, i1, f32) -> ()
  %g:3 = "foo.three"(%named, %named) : (i32, i32) -> (i32, f32, i1)
  "foo.use"(%g#0, %g#2, %g#1) : (i32, i1, f32) -> ()
  // Several names bound to one op's results (with and without groups).
  // CHECK-NEXT: %3:4 = "foo.four"() : () -> (i8, i16, i32, i64)
  // CHECK-NEXT: "foo.use"(%3#0, %3#1, %3#2, %3#3) : (i8, i16, i32, i64) -> ()
  %a, %b:2, %c = "foo.four"() : () -> (i8, i16, i32, i64)
  "foo.use"(%a, %b#0, %b#1, %c) : (i8, i16, i32, i64) -> ()
  // Value names may use letters, digits, _ $ . and - (and be numbers).
  // CHECK-NEXT: %4 = "foo.names"() : () -> i32
  // CHECK-NEXT: %5 = "foo.names"() : () -> i32
  // CHECK-NEXT: "foo.use"(%4, %5, %4) : (i32, i32, i32) -> ()
  %x.y$z-w_1 = "foo.names"() : () -> i32
  %42 = "foo.names"() : () -> i32
  "foo.use"(%x.y$z-w_1, %42, %x.y$z-w_1) : (i32, i32, i32) -> ()
  return
}

// Properties and discardable attributes are kept apart.
// CHECK-LABEL: "foo.props"
// CHECK-SAME: () <{a = 1 : i64, b = [i32]}> {c = "d"} : () -> ()
"foo.props"() <{a = 1, b = [i32]}> {c = "d"} : () -> ()
// Any attribute may be the properties of an unregistered op.
// CHECK-NEXT: "foo.props_int"() <{x}> : () -> ()
// CHECK-NEXT: "foo.props_str"() <"s"> : () -> ()
"foo.props_int"() <{x}> : () -> ()
"foo.props_str"() <"s"> : () -> ()

// Regions and successors in one op; the generic form prints every part.
// CHECK-LABEL: "foo.everything"
// CHECK-SAME: (%{{.*}})[^bb1, ^bb2] <{p = 0 : i32}> ({
// CHECK-NEXT: "foo.inner"() : () -> ()
// CHECK-NEXT: }, {
// CHECK-NEXT: ^bb0(%arg1: i1):
// CHECK-NEXT: "foo.inner2"(%arg1) : (i1) -> ()
// CHECK-NEXT: }) {q} : (i32) -> ()
"foo.with_succs"() ({
^bb0(%v: i32):
  "foo.everything"(%v)[^bb1, ^bb2] <{p = 0 : i32}> ({
    "foo.inner"() : () -> ()
  }, {
  ^bb0(%w: i1):
    "foo.inner2"(%w) : (i1) -> ()
  }) {q} : (i32) -> ()
^bb1:
  "foo.end"() : () -> ()
^bb2:
  "foo.end"() : () -> ()
}) : () -> ()

// Op names are strings: dialect-less, odd characters and escapes all work.
// CHECK-LABEL: "foo.a-b c"() : () -> ()
// CHECK-NEXT: "nodot"() : () -> ()
// CHECK-NEXT: "foo.q\22uote"() : () -> ()
// CHECK-NEXT: "foo.\E2\82\AC"() : () -> ()
"foo.a-b c"() : () -> ()
"nodot"() : () -> ()
"foo.q\"uote"() : () -> ()
"foo.€"() : () -> ()

// Function-typed results are parenthesised in the op's type.
// CHECK-LABEL: %0 = "foo.fn_result"() : () -> ((i32) -> i32)
%fr = "foo.fn_result"() : () -> ((i32) -> i32)
