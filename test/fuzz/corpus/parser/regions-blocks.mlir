
func.func @loop(%start: i32, %c: i1) -> i32 {
  "foo.br"(%start)[^head] : (i32) -> ()
^head(%i: i32):
  %n = "foo.next"(%i) : (i32) -> i32
  "foo.cond_br"(%c, %n, %i)[^head, ^exit] : (i1, i32, i32) -> ()
^exit:
  return %n : i32
}

func.func @diamond(%c: i1) -> i32 {
  %v = "foo.def"() : () -> i32
  %f = "foo.deff"() : () -> f32
  "foo.cond_br"(%c, %v, %f, %v, %f)[^left, ^right] : (i1, i32, f32, i32, f32) -> ()
^left(%a: i32, %b: f32):
  "foo.br"(%a, %b)[^join] : (i32, f32) -> ()
^right(%x: i32, %y: f32):
  "foo.br"(%x, %y)[^join] : (i32, f32) -> ()
^join(%r: i32, %s: f32):
  return %v : i32
^unreachable:
  "foo.dead"(%v) : (i32) -> ()
  return %v : i32
}

"foo.regions"() ({
}, {
^bb0:
}, {
^entry(%idx: index):
  %a = "foo.a"() : () -> i32
  "foo.nest"() ({
    %b = "foo.b"(%a, %idx) : (i32, index) -> i32
    "foo.br"()[^next] : () -> ()
  ^next:
    "foo.use"(%b) : (i32) -> ()
  }) : () -> ()
  %c = "foo.c"() : () -> i32
}, {
  %d = "foo.d"() : () -> i32
}) : () -> ()

"foo.graph"() ({
  %sum = "foo.add"(%neg, %p#0) : (i32, i32) -> i32
  %neg = "foo.neg"(%sum) : (i32) -> i32
  %p:2 = "foo.pair"() : () -> (i32, i32)
  "foo.use"(%p#1) : (i32) -> ()
}) : () -> ()

module @graph_body {
  "foo.top_use"(%late) : (f32) -> ()
  %late = "foo.top_def"() : () -> f32
}

func.func @outer_values(%x: i32) {
  %y = "foo.def"() : () -> i32
  "foo.scope"() ({
    "foo.use"(%x, %y) : (i32, i32) -> ()
  }) : () -> ()
  return
}
