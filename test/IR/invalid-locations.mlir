// Malformed locations and location aliases.
// RUN: nc-opt --allow-unregistered-dialect --verify-diagnostics --split-input-file %s
// RUN: not nc-opt --allow-unregistered-dialect --split-input-file %s 2>&1 | FileCheck %s
// CHECK: invalid-locations.mlir:[[# @LINE + 2]]:30: error: expected integer line number in FileLineColLoc

"foo.x"() : () -> () loc("a":x)  // expected-error {{expected integer line number in FileLineColLoc}}

// -----

"foo.x"() : () -> () loc("a":1:y)  // expected-error {{expected integer column number in FileLineColLoc}}

// -----

"foo.x"() : () -> () loc("a":99999999999:1)  // expected-error {{expected integer line number in FileLineColLoc}}

// -----

"foo.x"() : () -> () loc(bogus)  // expected-error {{expected location instance}}

// -----

"foo.x"() : () -> () loc callsite  // expected-error {{'(' in location}}

// -----

"foo.x"() : () -> () loc(callsite("a" "b"))  // expected-error {{expected 'at' in callsite location}}

// -----

"foo.x"() : () -> () loc(callsite("a" at "b") "foo.y"() : () -> ()  // expected-error {{')' in location}}

// -----

"foo.x"() : () -> () loc(fused["a" "b"])  // expected-error {{']' in fused location}}

// -----

"foo.x"() : () -> () loc(fused<"m">)  // expected-error {{'[' in fused location}}

// -----

"foo.x"() : () -> () loc("n"("c") "foo.y"() : () -> ()  // expected-error {{')' in location}}

// -----

// A location alias used by an op but never defined.
"foo.x"() : () -> () loc(#nowhere)  // expected-error {{operation location alias was never defined}}

// -----

// Inside other locations, aliases must be defined before use.
"foo.x"() : () -> () loc(fused[#later])  // expected-error {{undefined location alias '#later'}}
#later = loc("x")

// -----

#notloc = 1
"foo.x"() : () -> () loc(#notloc)  // expected-error {{expected location, but found a non-location alias}}

// -----

// A non-location alias used late by an op.
"foo.x"() : () -> () loc(#notloc)  // expected-error {{operation location alias was never defined}}
#notloc = "s"

// -----

"foo.r"() ({
^bb0(%a: i32 loc(#undefined_arg_loc)):  // expected-error {{operation location alias was never defined}}
  "foo.x"() : () -> ()
}) : () -> ()
