
func.func @results(%in: i32) {
  "foo.none"() : () -> ()
  %named = "foo.one"(%in) : (i32) -> i32
  %g:3 = "foo.three"(%named, %named) : (i32, i32) -> (i32, f32, i1)
  "foo.use"(%g#0, %g#2, %g#1) : (i32, i1, f32) -> ()
  %a, %b:2, %c = "foo.four"() : () -> (i8, i16, i32, i64)
  "foo.use"(%a, %b#0, %b#1, %c) : (i8, i16, i32, i64) -> ()
  %x.y$z-w_1 = "foo.names"() : () -> i32
  %42 = "foo.names"() : () -> i32
  "foo.use"(%x.y$z-w_1, %42, %x.y$z-w_1) : (i32, i32, i32) -> ()
  return
}

"foo.props"() <{a = 1, b = [i32]}> {c = "d"} : () -> ()
"foo.props_int"() <{x}> : () -> ()
"foo.props_str"() <"s"> : () -> ()

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

"foo.a-b c"() : () -> ()
"nodot"() : () -> ()
"foo.q\"uote"() : () -> ()
"foo.€"() : () -> ()

%fr = "foo.fn_result"() : () -> ((i32) -> i32)
