// Malformed SSA: undefined, redefined and mistyped values, wrong arity and
// result counts, bad result numbers, scoping across regions and isolated ops.
// Each chunk gets one diagnostic at the offending position; without
// --verify-diagnostics nc-opt exits with status 1.
// RUN: nc-opt --allow-unregistered-dialect --verify-diagnostics --split-input-file %s
// RUN: not nc-opt --allow-unregistered-dialect --split-input-file %s 2>&1 | FileCheck %s
// CHECK: invalid-ssa.mlir:[[# @LINE + 2]]:9: error: use of undeclared SSA value name

"foo.x"(%undefined) : (i32) -> ()  // expected-error {{use of undeclared SSA value name}}

// -----

%a = "foo.x"() : () -> i32  // expected-note {{previously defined here}}
%a = "foo.y"() : () -> i32  // expected-error {{redefinition of SSA value '%a'}}

// -----

%a = "foo.x"() : () -> i32
// expected-error@+1 {{use of value '%a' expects different type than prior uses: 'f32' vs 'i32'}}
"foo.y"(%a) : (f32) -> ()

// -----

// A forward reference fixes the type; the definition must agree.
"foo.y"(%a) : (f32) -> ()  // expected-note {{previously used here with type 'f32'}}
%a = "foo.x"() : () -> i32  // expected-error {{definition of SSA value '%a#0' has type 'i32'}}

// -----

// expected-error@+1 {{expected 2 operand types but had 1}}
"foo.y"(%a, %a) : (i32) -> ()

// -----

%a = "foo.x"() : () -> i32
// expected-error@+1 {{expected 0 operand types but had 1}}
"foo.y"() : (i32) -> ()

// -----

// expected-error@+1 {{operation defines 1 results but was provided 2 to bind}}
%a, %b = "foo.x"() : () -> i32

// -----

// expected-error@+1 {{operation defines 2 results but was provided 3 to bind}}
%a:3 = "foo.x"() : () -> (i32, i32)

// -----

// expected-error@+1 {{operation defines 0 results but was provided 1 to bind}}
%a = "foo.x"() : () -> ()

// -----

%a:2 = "foo.x"() : () -> (i32, i32)
"foo.y"(%a#2) : (i32) -> ()  // expected-error {{result number 2 out of range for '%a' (it has 2 results)}}

// -----

"foo.y"(%a#2) : (i32) -> ()  // expected-error {{result number 2 out of range for '%a' (it has 2 results)}}
%a:2 = "foo.x"() : () -> (i32, i32)

// -----

// expected-error@+1 {{expected a positive number of results after ':'}}
%a:0 = "foo.x"() : () -> ()

// -----

// expected-error@+1 {{invalid SSA value result number}}
"foo.y"(%a#x) : (i32) -> ()

// -----

// expected-error@+1 {{invalid SSA name}}
"foo.y"(%) : (i32) -> ()

// -----

// A value defined in a region is not visible after it.
"foo.r"() ({
  %inner = "foo.x"() : () -> i32
}) : () -> ()
"foo.y"(%inner) : (i32) -> ()  // expected-error {{use of undeclared SSA value name}}

// -----

// Isolated ops (func.func) do not see values from outside.
func.func @f() {
  %a = "foo.x"() : () -> i32
  "foo.r"() ({
    func.func @g() {
      "foo.use"(%a) : (i32) -> ()  // expected-error {{use of undeclared SSA value name}}
      return
    }
  }) : () -> ()
  return
}

// -----

"foo.r"() ({
// expected-error@+2 {{redefinition of SSA value '%a'}}
// expected-note@+1 {{previously defined here}}
^bb0(%a: i32, %a: i32):
  "foo.x"() : () -> ()
}) : () -> ()

// -----

"foo.r"() ({
^bb0(%a):  // expected-error {{expected ':' and type for SSA value}}
  "foo.x"() : () -> ()
}) : () -> ()

// -----

// expected-error@+1 {{empty operation name is invalid}}
"" () : () -> ()

// -----

// expected-error@+1 {{expected function type}}
"foo.x"() : i32

// -----

// expected-error@+1 {{expected ':' followed by operation type}}
"foo.x"() "foo.y"() : () -> ()

// -----

// expected-error@+1 {{expected operation name in quotes}}
%a = 42

// -----

// expected-error@+1 {{custom op 'foo.x' is unknown}}
foo.x

// -----

// Ops of a registered dialect must be registered, even with
// --allow-unregistered-dialect.
// expected-error@+1 {{unregistered operation 'func.nope' found in dialect ('func') that does not allow unknown operations}}
"func.nope"() : () -> ()

// -----

// expected-error@+1 {{expected SSA operand}}
"foo.x"(1) : (i32) -> ()
