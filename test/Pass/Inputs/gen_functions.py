"""Writes N functions to stdout, some of which ask test-emit-diagnostics for a
remark, a warning or (with --errors) an error, for the threading tests."""
import sys

n = int(sys.argv[1])
errors = "--errors" in sys.argv
for i in range(n):
    attrs = []
    if i % 7 == 0:
        attrs.append('emit_remark = "remark in f%d"' % i)
    if i % 11 == 3:
        attrs.append('emit_warning = "warning in f%d"' % i)
    if errors and i % 13 == 5:
        attrs.append('emit_error = "error in f%d"' % i)
    a = " {%s}" % ", ".join(attrs) if attrs else ""
    print("func.func @f%d(%%a: i32) -> (i64, i64) {" % i)
    print('  %%0 = "foo.op"(%%a)%s : (i32) -> i32' % a)
    print("  %1 = builtin.unrealized_conversion_cast %0 : i32 to i64")
    print("  %2 = builtin.unrealized_conversion_cast %0 : i32 to i64")
    print('  "foo.op"() {emit_remark = "second op of f%d"} : () -> ()' % i)
    print("  return %1, %2 : i64, i64")
    print("}")
