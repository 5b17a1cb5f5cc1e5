#!/usr/bin/env python3
"""Runs the ```python blocks of a Markdown file in order, in one namespace,
as they are written (docs/tutorials/python.md). Prints one line per block
and exits 1 at the first block that raises, naming its line.

Usage: run_md_blocks.py FILE.md
"""
import re
import sys
import traceback


def main(path):
    text = open(path).read()
    blocks = [(text.count("\n", 0, m.start()) + 2, m.group(1))
              for m in re.finditer(r"^```python\n(.*?)^```$", text, re.S | re.M)]
    namespace = {"__name__": "__tutorial__"}
    for line, code in blocks:
        try:
            exec(compile(code, "%s:%d" % (path, line), "exec"), namespace)
        except Exception:
            traceback.print_exc()
            print("%s:%d: block failed" % (path, line))
            return 1
        print("%s:%d: block ok" % (path, line))
    print("%d python blocks run" % len(blocks))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
