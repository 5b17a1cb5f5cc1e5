// Locations: file:line:col, names (with and without a child), callsites,
// fused locations (with and without metadata), unknown, and `#loc` aliases
// defined before or after their uses. Without --mlir-print-debuginfo they
// are not printed; with it they print as aliases at the end of the output,
// or inline with --mlir-print-local-scope. Ops without a loc(...) get their
// position in the source.
// RUN: nc-opt --allow-unregistered-dialect %s | FileCheck %s --check-prefix=NODEBUG
// RUN: nc-opt --allow-unregistered-dialect --mlir-print-debuginfo %s | FileCheck %s
// RUN: nc-opt --allow-unregistered-dialect --mlir-print-debuginfo %s | nc-opt --allow-unregistered-dialect --mlir-print-debuginfo | FileCheck %s
// RUN: nc-opt --allow-unregistered-dialect --mlir-print-debuginfo --mlir-print-local-scope %s | FileCheck %s --check-prefix=LOCAL

// NODEBUG-NOT: loc(

#early = loc("early.c":1:1)

// CHECK: "foo.file"() : () -> () loc(#[[FILE:loc[0-9]*]])
// LOCAL-LABEL: "foo.file"() : () -> () loc("a.c":10:4)
"foo.file"() : () -> () loc("a.c":10:4)

// CHECK-NEXT: "foo.name"() : () -> () loc(#[[NAME:loc[0-9]*]])
// LOCAL-NEXT: "foo.name"() : () -> () loc("conv1")
"foo.name"() : () -> () loc("conv1")

// CHECK-NEXT: "foo.name_child"() : () -> () loc(#[[CHILD:loc[0-9]*]])
// LOCAL-NEXT: "foo.name_child"() : () -> () loc("relu"("b.py":3:7))
"foo.name_child"() : () -> () loc("relu"("b.py":3:7))

// CHECK-NEXT: "foo.callsite"() : () -> () loc(#[[CALL:loc[0-9]*]])
// LOCAL-NEXT: "foo.callsite"() : () -> () loc(callsite("inner" at "outer.c":5:6))
"foo.callsite"() : () -> () loc(callsite("inner" at "outer.c":5:6))

// Fused locations are canonical as in MLIR: unknowns and duplicates are
// dropped, nested fused locations with the same metadata flattened, and a
// single location stands for itself.
// CHECK-NEXT: "foo.fused"() : () -> () loc(#[[FUSED:loc[0-9]*]])
// LOCAL-NEXT: "foo.fused"() : () -> () loc(fused["x.c":1:2, "y", "z"])
// LOCAL-NEXT: "foo.fused_one"() : () -> () loc("y")
// LOCAL-NEXT: "foo.fused_none"() : () -> () loc(unknown)
// LOCAL-NEXT: "foo.fused_keep_meta"() : () -> () loc(fused<"m">[unknown])
// LOCAL-NEXT: "foo.fused_other_meta"() : () -> () loc(fused["a", fused<"m">["b"]])
// LOCAL-NEXT: "foo.fused_meta"() : () -> () loc(fused<"layer">["x.c":1:2, callsite("f"("g.c":1:1) at "h.c":2:2)])
"foo.fused"() : () -> () loc(fused["x.c":1:2, "y", unknown, "x.c":1:2, fused["z", "y"]])
"foo.fused_one"() : () -> () loc(fused[unknown, "y"])
"foo.fused_none"() : () -> () loc(fused[])
"foo.fused_keep_meta"() : () -> () loc(fused<"m">[unknown])
"foo.fused_other_meta"() : () -> () loc(fused["a", fused<"m">["b"]])
// CHECK: "foo.fused_meta"() : () -> () loc(#[[META:loc[0-9]*]])
"foo.fused_meta"() : () -> () loc(fused<"layer">["x.c":1:2, callsite("f"("g.c":1:1) at "h.c":2:2)])

// CHECK-NEXT: "foo.unknown"() : () -> () loc(unknown)
"foo.unknown"() : () -> () loc(unknown)

// Aliases defined before and after use resolve to the same location.
// CHECK-NEXT: "foo.alias_early"() : () -> () loc(#[[EARLY:loc[0-9]*]])
// CHECK-NEXT: "foo.alias_late"() : () -> () loc(#[[LATE:loc[0-9]*]])
// CHECK-NEXT: "foo.alias_late_again"() : () -> () loc(#[[LATE]])
// LOCAL: "foo.alias_early"() : () -> () loc("early.c":1:1)
// LOCAL-NEXT: "foo.alias_late"() : () -> () loc(fused["late.c":2:2, "n"])
// LOCAL-NEXT: "foo.alias_late_again"() : () -> () loc(fused["late.c":2:2, "n"])
"foo.alias_early"() : () -> () loc(#early)
"foo.alias_late"() : () -> () loc(#late)
"foo.alias_late_again"() : () -> () loc(#late)

// Block arguments carry locations too, in generic regions and in func.func
// (five arguments with late aliases: the parser keeps them all).
// CHECK-NEXT: "foo.region"() ({
// CHECK-NEXT: ^bb0(%arg0: i32 loc(#[[ARG:loc[0-9]*]]), %arg1: f32 loc(#[[LATE]])):
// LOCAL: ^bb0(%arg0: i32 loc("arg.c":3:3), %arg1: f32 loc(fused["late.c":2:2, "n"])):
"foo.region"() ({
^bb0(%a: i32 loc("arg.c":3:3), %b: f32 loc(#late)):
  "foo.yield"() : () -> ()
}) : () -> ()
// CHECK: func.func @f(%arg0: i32 loc(#[[FA:loc[0-9]*]]), %arg1: i32 loc(#[[LATE]]), %arg2: i32 loc(#[[LATE]]), %arg3: i32 loc(#[[LATE]]), %arg4: i32 loc(#[[EARLY]]))
func.func @f(%a: i32 loc("fa.c":1:1), %b: i32 loc(#late), %c: i32 loc(#late), %d: i32 loc(#late), %e: i32 loc(#early)) {
  return
}
// Declarations accept argument locations too (MLIR does not print them).
// CHECK: func.func private @decl(i32, i64, i8, i8, i8)
func.func private @decl(i32 loc(#late), i64 loc("d.c":1:1), i8 loc(#late), i8 loc(#late), i8 loc(#late))

// An op without loc(...) is located at its first token in this file.
// CHECK: "foo.implicit"() : () -> () loc(#[[IMPLICIT:loc[0-9]+]])
// LOCAL: "foo.implicit"() : () -> () loc("{{.*}}locations.mlir":[[# @LINE + 1]]:1)
"foo.implicit"() : () -> ()

#late = loc(fused["late.c":2:2, "n"])

// CHECK-DAG: #[[FILE]] = loc("a.c":10:4)
// CHECK-DAG: #[[NAME]] = loc("conv1")
// CHECK-DAG: #[[CHILD]] = loc("relu"("b.py":3:7))
// CHECK-DAG: #[[CALL]] = loc(callsite("inner" at "outer.c":5:6))
// CHECK-DAG: #[[FUSED]] = loc(fused["x.c":1:2, "y", "z"])
// CHECK-DAG: #[[META]] = loc(fused<"layer">["x.c":1:2, callsite("f"("g.c":1:1) at "h.c":2:2)])
// CHECK-DAG: #[[EARLY]] = loc("early.c":1:1)
// CHECK-DAG: #[[LATE]] = loc(fused["late.c":2:2, "n"])
// CHECK-DAG: #[[ARG]] = loc("arg.c":3:3)
// CHECK-DAG: #[[FA]] = loc("fa.c":1:1)
// CHECK-DAG: #[[IMPLICIT]] = loc("{{.*}}locations.mlir":{{[0-9]+}}:1)
