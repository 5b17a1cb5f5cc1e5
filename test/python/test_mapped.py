"""A file the nc library has mapped (an .mlir source, kept for diagnostics;
an ONNX model while it is imported) and that another process truncates
raises SIGBUS on the next touch. Importing nc installs the handler of
nc/support/mapped.h, so a Python user gets one line naming the file and
exit status 1, not death by a signal. Each case runs in a child python (the
handler exits the process). A unittest suite (pytest collects it too; Debian's
python3 here has no pytest), run by mapped.test (lit), also under ASan."""
import os
import signal
import subprocess
import sys
import tempfile
import textwrap
import unittest

# The child: parses an .mlir whose function lies past the first pages
# (a long comment first), truncates the file, then reports an error at the
# function, whose text quotes its source line: a read of the mapping.
CHILD = textwrap.dedent("""
    import os, sys
    import nc
    from nc.ir import Context, Module
    path = sys.argv[1]
    with open(path, "w") as f:
        f.write("// padding\\n" * 4096)
        f.write("func.func @f(%x: tensor<2xf32>) -> tensor<2xf32> {\\n  return %x : tensor<2xf32>\\n}\\n")
    ctx = Context()
    m = Module.parse_file(path, ctx)
    fn = m.body.operations[0]
    if sys.argv[2] == "truncate":
        os.truncate(path, 0)
    seen = []
    with ctx.diagnostic_handler(lambda d: seen.append(d.text) or True):
        nc.emit_error(fn, "an error at the function")
    print("diagnostic:", seen)
    print("survived")
""")

UNRELATED = textwrap.dedent("""
    import os, signal
    import nc
    os.kill(os.getpid(), signal.SIGBUS)
    print("survived")
""")


def child(script, *args):
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
    return subprocess.run([sys.executable, "-c", script, *map(str, args)], capture_output=True, text=True,
                          env=env, timeout=120)


class MappedFileTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.path = os.path.join(self.tmp.name, "a.mlir")

    def tearDown(self):
        self.tmp.cleanup()

    def test_intact_file_reads(self):
        r = child(CHILD, self.path, "keep")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("survived", r.stdout)
        self.assertIn("a.mlir:4097:1: error: an error at the function\\nfunc.func @f", r.stdout)

    def test_truncated_while_mapped_is_a_diagnostic(self):
        r = child(CHILD, self.path, "truncate")
        self.assertEqual(r.returncode, 1, r.stderr)  # not -SIGBUS
        self.assertNotIn("survived", r.stdout)
        self.assertTrue(r.stderr.startswith("python: error: %s: the file was truncated while python was reading it "
                                            "(byte " % self.path), r.stderr)

    def test_unrelated_sigbus_keeps_its_action(self):
        # a SIGBUS outside nc's mappings gets the action from before the
        # import: the default one (or a sanitizer's report and abort)
        r = child(UNRELATED)
        self.assertNotIn("survived", r.stdout)
        if "AddressSanitizer" not in r.stderr:
            self.assertEqual(r.returncode, -signal.SIGBUS, r.stderr)
        else:
            self.assertNotIn(r.returncode, (0, 1))


if __name__ == "__main__":
    unittest.main()
