"foo.x"() : () -> () loc(#l)
#l = loc(fused<"m">["a":1:2, callsite("f" at "g":3:4)])
