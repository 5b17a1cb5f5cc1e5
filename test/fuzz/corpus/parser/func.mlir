
module @top attributes {foo.version = 2} {
  func.func @empty() {
    return
  }

  func.func @id(%x: i32) -> i32 {
    func.return %x : i32
  }

  func.func @multi(%a: i32, %b: f32) -> (f32, i32) {
    return %b, %a : f32, i32
  }

  func.func private @attrs(%a: i32 {foo.arg = 1}, %b: f32, %c: i1 {foo.flag}) -> (i32 {foo.res = "r"}, f32) attributes {foo.extra = [1, 2], no_inline} {
    return %a, %b : i32, f32
  }

  func.func nested @fn_result(%f: (i32) -> i32) -> ((i32) -> i32) {
    return %f : (i32) -> i32
  }

  func.func private @decl(i32, tensor<?xf32> {foo.a}) -> (i1 {foo.r})
  func.func private @decl2()

  func.func public @quoted_name() {
    return
  }
  func.func @"name with spaces"() {
    return
  }

  func.func @caller(%x: i32) -> i32 {
    func.call @empty() : () -> ()
    %y = call @id(%x) : (i32) -> i32
    %f = "foo.f"() : () -> f32
    %r:2 = call @multi(%y, %f) : (i32, f32) -> (f32, i32)
    %l = call @later() {foo.tag} : () -> i32
    return %l : i32
  }
  func.func private @later() -> i32

  module @inner {
    func.func @f() {
      return
    }
    func.func @g() attributes {foo.ref = @inner::@f} {
      return
    }
  }

  module {
  }
  module attributes {foo.a} {
  }
}
