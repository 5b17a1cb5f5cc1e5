// The test pass family: test-module-pass and test-function-pass change
// nothing; test-stats-pass counts ops; test-emit-diagnostics emits what the
// IR asks for (checked with --verify-diagnostics).
// RUN: nc-opt --enable-test-passes %s --allow-unregistered-dialect > %t.plain
// RUN: nc-opt --enable-test-passes %s --allow-unregistered-dialect --pass-pipeline='builtin.module(test-module-pass,func.func(test-function-pass),test-stats-pass)' > %t.passes
// RUN: diff %t.plain %t.passes
// RUN: nc-opt --enable-test-passes %s --allow-unregistered-dialect --test-emit-diagnostics --verify-diagnostics -o /dev/null

func.func @f() {
  // expected-remark@+1 {{'foo.a' op look here}}
  "foo.a"() {emit_remark = "look here"} : () -> ()
  // expected-warning@+1 {{'foo.b' op careful}}
  "foo.b"() {emit_warning = "careful"} : () -> ()
  return
}
