// Regions and blocks: CFG regions with typed block arguments, successors
// with forward and backward references, empty regions and blocks, nested
// regions numbering their values and blocks as mlir-opt does, and graph
// regions (unregistered ops, module bodies) with uses before definitions.
// RUN: nc-opt --allow-unregistered-dialect %s | FileCheck %s
// RUN: nc-opt --allow-unregistered-dialect --mlir-print-op-generic %s | nc-opt --allow-unregistered-dialect | FileCheck %s

// A loop: ^bb1 is referenced before it is defined, and back-edges carry
// block arguments.
// CHECK-LABEL: func.func @loop(%arg0: i32, %arg1: i1) -> i32 {
// CHECK-NEXT:    "foo.br"(%arg0)[^bb1] : (i32) -> ()
// CHECK-NEXT:  ^bb1(%0: i32):
// CHECK-NEXT:    %1 = "foo.next"(%0) : (i32) -> i32
// CHECK-NEXT:    "foo.cond_br"(%arg1, %1, %0)[^bb1, ^bb2] : (i1, i32, i32) -> ()
// CHECK-NEXT:  ^bb2:
// CHECK-NEXT:    return %1 : i32
// CHECK-NEXT:  }
func.func @loop(%start: i32, %c: i1) -> i32 {
  "foo.br"(%start)[^head] : (i32) -> ()
^head(%i: i32):
  %n = "foo.next"(%i) : (i32) -> i32
  "foo.cond_br"(%c, %n, %i)[^head, ^exit] : (i1, i32, i32) -> ()
^exit:
  return %n : i32
}

// Blocks with several arguments, a block without predecessors, and a value
// used in a block its definition dominates.
// CHECK-LABEL: func.func @diamond
// CHECK:       ^bb1(%2: i32, %3: f32):
// CHECK:       ^bb2(%4: i32, %5: f32):
// CHECK:       ^bb3(%6: i32, %7: f32):
// CHECK-NEXT:    return %0 : i32
// CHECK-NEXT:  ^bb4:
// CHECK-NEXT:    "foo.dead"(%0) : (i32) -> ()
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

// Empty regions, a region with an empty entry block, block labels in each
// region restart at ^bb0, and sibling regions restart value numbering from
// the same point while nested regions continue it.
// CHECK-LABEL: "foo.regions"
// CHECK-SAME: ({
// CHECK-NEXT:  }, {
// CHECK-NEXT:  ^bb0:
// CHECK-NEXT:  }, {
// CHECK-NEXT:  ^bb0(%arg0: index):
// CHECK-NEXT:    %0 = "foo.a"() : () -> i32
// CHECK-NEXT:    "foo.nest"() ({
// CHECK-NEXT:      %2 = "foo.b"(%0, %arg0) : (i32, index) -> i32
// CHECK-NEXT:      "foo.br"()[^bb1] : () -> ()
// CHECK-NEXT:    ^bb1:
// CHECK-NEXT:      "foo.use"(%2) : (i32) -> ()
// CHECK-NEXT:    }) : () -> ()
// CHECK-NEXT:    %1 = "foo.c"() : () -> i32
// CHECK-NEXT:  }, {
// CHECK-NEXT:    %0 = "foo.d"() : () -> i32
// CHECK-NEXT:  }) : () -> ()
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

// Graph regions: unregistered ops' regions (and the module body) accept uses
// before definitions, including cycles.
// CHECK-LABEL: "foo.graph"
// CHECK-NEXT:    %0 = "foo.add"(%1, %2#0) : (i32, i32) -> i32
// CHECK-NEXT:    %1 = "foo.neg"(%0) : (i32) -> i32
// CHECK-NEXT:    %2:2 = "foo.pair"() : () -> (i32, i32)
// CHECK-NEXT:    "foo.use"(%2#1) : (i32) -> ()
"foo.graph"() ({
  %sum = "foo.add"(%neg, %p#0) : (i32, i32) -> i32
  %neg = "foo.neg"(%sum) : (i32) -> i32
  %p:2 = "foo.pair"() : () -> (i32, i32)
  "foo.use"(%p#1) : (i32) -> ()
}) : () -> ()

// A use before the definition in a module body (a graph region too).
// CHECK-LABEL: module @graph_body {
// CHECK-NEXT:    "foo.top_use"(%0) : (f32) -> ()
// CHECK-NEXT:    %0 = "foo.top_def"() : () -> f32
module @graph_body {
  "foo.top_use"(%late) : (f32) -> ()
  %late = "foo.top_def"() : () -> f32
}

// Values from enclosing regions are visible in nested (non-isolated) regions.
// CHECK-LABEL: func.func @outer_values
// CHECK:       "foo.scope"() ({
// CHECK-NEXT:    "foo.use"(%arg0, %0) : (i32, i32) -> ()
func.func @outer_values(%x: i32) {
  %y = "foo.def"() : () -> i32
  "foo.scope"() ({
    "foo.use"(%x, %y) : (i32, i32) -> ()
  }) : () -> ()
  return
}
