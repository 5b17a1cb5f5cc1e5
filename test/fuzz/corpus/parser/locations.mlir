
#early = loc("early.c":1:1)

"foo.file"() : () -> () loc("a.c":10:4)

"foo.name"() : () -> () loc("conv1")

"foo.name_child"() : () -> () loc("relu"("b.py":3:7))

"foo.callsite"() : () -> () loc(callsite("inner" at "outer.c":5:6))

"foo.fused"() : () -> () loc(fused["x.c":1:2, "y", unknown, "x.c":1:2, fused["z", "y"]])
"foo.fused_one"() : () -> () loc(fused[unknown, "y"])
"foo.fused_none"() : () -> () loc(fused[])
"foo.fused_keep_meta"() : () -> () loc(fused<"m">[unknown])
"foo.fused_other_meta"() : () -> () loc(fused["a", fused<"m">["b"]])
"foo.fused_meta"() : () -> () loc(fused<"layer">["x.c":1:2, callsite("f"("g.c":1:1) at "h.c":2:2)])

"foo.unknown"() : () -> () loc(unknown)

"foo.alias_early"() : () -> () loc(#early)
"foo.alias_late"() : () -> () loc(#late)
"foo.alias_late_again"() : () -> () loc(#late)

"foo.region"() ({
^bb0(%a: i32 loc("arg.c":3:3), %b: f32 loc(#late)):
  "foo.yield"() : () -> ()
}) : () -> ()
func.func @f(%a: i32 loc("fa.c":1:1), %b: i32 loc(#late), %c: i32 loc(#late), %d: i32 loc(#late), %e: i32 loc(#early)) {
  return
}
func.func private @decl(i32 loc(#late), i64 loc("d.c":1:1), i8 loc(#late), i8 loc(#late), i8 loc(#late))

"foo.implicit"() : () -> ()

#late = loc(fused["late.c":2:2, "n"])

