#!/usr/bin/env python3
"""Keeps code in Markdown tutorials identical to the code in the tree.

A fenced code block right after `<!-- include: PATH -->` must equal the file
PATH (relative to the repository root) byte for byte; after
`<!-- include: PATH#TEXT -->` it must equal an excerpt of PATH: the first
line whose text (after its indentation) starts with TEXT, and the lines
after it that are indented deeper (one row of a table with its continuation
lines, one declaration with its body); after `<!-- include: PATH#L10-L12 -->`
it must equal lines 10 to 12. After `<!-- lines-of: PATH -->`, every line of
the block must be a line of PATH.
Run by the lit suite (test/Pass/tutorial.test), so a tutorial cannot rot.
With --update, rewrites the `include` blocks from the files instead.

Usage: check_includes.py [--update] FILE.md...
"""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MARKER = re.compile(r"^<!-- (include|lines-of): (\S+?)(?:#([^\n]*?))? -->\n(```[^\n]*\n)(.*?)^```\n", re.S | re.M)
LINE_RANGE = re.compile(r"^L(\d+)-L(\d+)$")


def indent(line):
    return len(line) - len(line.lstrip())


def excerpt(code, where):
    """The part of `code` an include names after '#', or None if it is not there."""
    lines = code.splitlines(keepends=True)
    r = LINE_RANGE.match(where)
    if r:
        first, last = int(r.group(1)), int(r.group(2))
        return "".join(lines[first - 1:last]) if 1 <= first <= last <= len(lines) else None
    for i, line in enumerate(lines):
        if line.lstrip().startswith(where):
            end = i + 1
            while end < len(lines) and lines[end].strip() and indent(lines[end]) > indent(line):
                end += 1
            return "".join(lines[i:end])
    return None


def check(md_path, update):
    with open(md_path) as f:
        text = f.read()
    failures, count = [], 0

    def fix(m):
        nonlocal count
        kind, rel, where, fence, body = m.groups()
        count += 1
        name = rel + ("#" + where if where else "")
        with open(os.path.join(ROOT, rel)) as f:
            code = f.read()
        if where is not None:
            code = excerpt(code, where)
            if code is None:
                failures.append("%s: %s names nothing in %s" % (os.path.basename(md_path), name, rel))
                return m.group(0)
        if kind == "include":
            if update:
                return "<!-- include: %s -->\n%s%s```\n" % (name, fence, code)
            if body != code:
                failures.append("%s: block differs from %s" % (os.path.basename(md_path), name))
        else:
            lines = set(code.splitlines())
            for line in body.splitlines():
                if line not in lines:
                    failures.append("%s: line %r is not in %s" % (os.path.basename(md_path), line, name))
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
