#!/usr/bin/env python3
"""Keeps code in Markdown tutorials identical to the code in the tree.

A fenced code block right after `<!-- include: PATH -->` must equal the file
PATH (relative to the repository root) byte for byte; after
`<!-- lines-of: PATH -->`, every line of the block must be a line of PATH.
Run by the lit suite (test/Pass/tutorial.test), so a tutorial cannot rot.
With --update, rewrites the `include` blocks from the files instead.

Usage: check_includes.py [--update] FILE.md...
"""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MARKER = re.compile(r"^<!-- (include|lines-of): (\S+) -->\n(```[^\n]*\n)(.*?)^```\n", re.S | re.M)


def check(md_path, update):
    with open(md_path) as f:
        text = f.read()
    failures, count = [], 0

    def fix(m):
        nonlocal count
        kind, rel, fence, body = m.group(1), m.group(2), m.group(3), m.group(4)
        count += 1
        with open(os.path.join(ROOT, rel)) as f:
            code = f.read()
        if kind == "include":
            if update:
                return "<!-- include: %s -->\n%s%s```\n" % (rel, fence, code)
            if body != code:
                failures.append("%s: block differs from %s" % (os.path.basename(md_path), rel))
        else:
            lines = set(code.splitlines())
            for line in body.splitlines():
                if line not in lines:
                    failures.append("%s: line %r is not in %s" % (os.path.basename(md_path), line, rel))
        return m.group(0)

    new = MARKER.sub(fix, text)
    if update and new != text:
        with open(md_path, "w") as f:
            f.write(new)
    return count, failures


def main(argv):
    update = "--update" in argv
    ok = True
    for md in [a for a in argv if a != "--update"]:
        count, failures = check(md, update)
        for f in failures:
            print(f)
        ok &= not failures
        print("%s: %d blocks checked, %d failures" % (os.path.basename(md), count, len(failures)))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
