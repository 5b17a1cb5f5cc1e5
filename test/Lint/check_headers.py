#!/usr/bin/python3
"""check_headers.py: the header lint. Checks nc's public headers
(include/nc/**.h) against the API rules of docs/architecture.md
("Ownership and naming"):

  doc       every public declaration has a doc comment (/** ... */): functions,
            extern variables, and type definitions with a body or a function
            pointer type (forward typedefs of opaque structs need none). A
            declaration that directly follows a documented one, with no blank
            line between, shares its comment (a group such as
            nc_op_move_before / nc_op_move_after).
  give      a function returning a pointer says whose it is: NC_GIVE (the
            caller owns it and releases it with the matching _destroy, or
            free() for plain memory) or NC_KEEP (borrowed). A function named
            like a constructor (_create, _clone, _copy, _dup, _to_string,
            _load, _read) that returns NC_KEEP must say in its doc comment who
            owns the result (the context, an arena, the caller's object...).
  release   `_destroy` is the one verb that releases an object. Functions
            ending in _free, _release, _delete, _dispose, _unref, _fini,
            _finalize, _deinit or _close are reported. Not releases (allowed):
            _clear and _reset (empty a caller-owned object, which stays
            usable), _erase and _remove (IR edits: unlink an attached op or
            block, as in MLIR; _erase also destroys it).
  destroy   a _destroy function takes its object with NC_TAKE.
  take      ownership passes into a function only through NC_TAKE on the
            parameter; the `_owned` suffix names the NC_TAKE twin of a
            borrowing function (nc_resource_create / nc_resource_create_owned)
            and requires an NC_TAKE parameter; a bool parameter named `owned`
            (ownership decided at run time) is reported.

An unannotated pointer parameter is borrowed (NC_KEEP is allowed, but
redundant). Findings in the headers under ALLOWED are counted but do not
fail the lint: those headers are being rewritten; delete an entry to check
them. Usage: check_headers.py INCLUDE_DIR [--show-allowed]. Exits 1 on
findings outside ALLOWED.
"""
import argparse
import os
import re
import sys

# The allow-list: header paths (relative to the include dir; a trailing "/"
# covers a folder) whose findings are reported as allowed, with the reason.
ALLOWED = {
}

RELEASE_VERBS = ("free", "release", "delete", "dispose", "unref", "fini", "finalize", "deinit", "close")
CONSTRUCTOR_WORDS = ("create", "clone", "copy", "dup", "load", "read")  # words of the name; and *_to_string
OWNER_WORDS = re.compile(r"context|arena|owned by|owner|borrowed|static|pool|lives|valid until|caller's", re.I)
IDENT = re.compile(r"[A-Za-z_]\w*")


def strip_macros(text):
    """Drops attribute-like macros that look like calls: NC_PRINTF(1, 2), __attribute__((...))."""
    text = re.sub(r"\bNC_PRINTF\s*\([^)]*\)", " ", text)
    text = re.sub(r"__attribute__\s*\(\((?:[^()]|\([^()]*\))*\)\)", " ", text)
    return text.replace("NC_PLUGIN_EXPORT", " ").replace("NC_NORETURN", " ")


def top_level_decls(src):
    """Yields (decl_text, start_line, doc, gap) for each top-level declaration:
    doc is the /** */ comment just before it (or None), gap whether a blank
    line, a plain comment or a preprocessor line separates it from the
    previous declaration."""
    i, n, line = 0, len(src), 1
    doc, gap = None, True
    trailing = False  # still on the line where the last declaration ended
    while i < n:
        c = src[i]
        if src.startswith("/*", i):
            j = src.index("*/", i + 2) + 2
            text = src[i:j]
            if text.startswith("/**") and not text.startswith("/***"):
                doc = text
            elif not trailing:  # a comment after a declaration on its line belongs to it
                doc, gap = None, True
            line += text.count("\n")
            i = j
            continue
        if src.startswith("//", i):
            j = src.find("\n", i)
            if not trailing:
                doc, gap = None, True
            i = n if j < 0 else j
            continue
        if c == "#":  # preprocessor line (with continuations)
            j = i
            while True:
                k = src.find("\n", j)
                if k < 0:
                    k = n
                    break
                if src[k - 1] != "\\":
                    break
                line += 1
                j = k + 1
            gap, doc, i = True, None, k
            continue
        if c == "\n":
            trailing = False
            # a blank line ends a group
            k = i + 1
            while k < n and src[k] in " \t":
                k += 1
            if k < n and src[k] == "\n":
                gap = True
            line += 1
            i += 1
            continue
        if c.isspace():
            i += 1
            continue
        if src.startswith('extern "C"', i) or src.startswith("}", i):
            j = src.find("\n", i)
            i = n if j < 0 else j
            continue
        # a declaration: up to ';' at depth 0 (bodies and comments skipped)
        start, start_line, depth = i, line, 0
        while i < n:
            if src.startswith("/*", i):
                j = src.index("*/", i + 2) + 2
                line += src[i:j].count("\n")
                i = j
                continue
            if src.startswith("//", i):
                i = src.find("\n", i)
                continue
            c = src[i]
            if c == "\n":
                line += 1
            elif c in "({[":
                depth += 1
            elif c in ")}]":
                depth -= 1
            elif c == ";" and depth == 0:
                i += 1
                break
            i += 1
        yield src[start:i], start_line, doc, gap
        doc, gap, trailing = None, False, True


def strip_comments(text):
    return re.sub(r"/\*.*?\*/|//[^\n]*", " ", text, flags=re.S)


def split_params(params):
    out, depth, cur = [], 0, ""
    for c in params:
        if c == "," and depth == 0:
            out.append(cur)
            cur = ""
            continue
        depth += c in "(["
        depth -= c in ")]"
        cur += c
    if cur.strip():
        out.append(cur)
    return [p.strip() for p in out]


def classify(decl):
    """(kind, name, ret, params): kind is function, variable, type, forward or other."""
    text = strip_macros(strip_comments(decl)).strip().rstrip(";").strip()
    if text.startswith("typedef"):
        body = "{" in text
        fnptr = re.search(r"\(\s*\*\s*(\w+)\s*\)", text)
        if fnptr and not body:
            return "type", fnptr.group(1), "", []
        name = IDENT.findall(text.split("}")[-1] if body else text)[-1]
        return ("type" if body else "forward"), name, "", []
    if re.match(r"(struct|enum|union)\s+\w+\s*\{", text):
        return "type", re.match(r"(?:struct|enum|union)\s+(\w+)", text).group(1), "", []
    if text.startswith("enum") and "{" in text:
        return "type", "(anonymous enum)", "", []
    m = re.match(r"(.*?)\b(\w+)\s*\((.*)\)\s*$", text, re.S)
    if m and not text.startswith("extern"):
        return "function", m.group(2), m.group(1), split_params(m.group(3))
    if text.startswith("extern"):
        return "variable", IDENT.findall(text.split("[")[0].split("=")[0])[-1], "", []
    return "other", text[:40], "", []


def lint_file(path, rel):
    with open(path, encoding="utf-8") as f:
        src = f.read()
    findings = []
    prev_documented = False
    for decl, line, doc, gap in top_level_decls(src):
        kind, name, ret, params = classify(decl)
        where = f"{rel}:{line}: {name}"
        documented = doc is not None or (not gap and prev_documented)
        if kind in ("function", "variable", "type"):
            if not documented:
                findings.append(f"{where}: [doc] no doc comment")
            prev_documented = documented
        elif kind != "forward":  # a forward typedef inside a group keeps it going
            prev_documented = False
        if kind != "function":
            continue
        # isl's own annotations (__isl_give / __isl_keep) say the same for isl objects
        if "*" in ret and not any(a in ret for a in ("NC_GIVE", "NC_KEEP", "__isl_give", "__isl_keep")):
            findings.append(f"{where}: [give] returns a pointer without NC_GIVE or NC_KEEP")
        words = name.split("_")
        if "NC_KEEP" in ret and (any(w in words for w in CONSTRUCTOR_WORDS) or name.endswith("_to_string")):
            if not (doc and OWNER_WORDS.search(doc)):
                findings.append(f"{where}: [give] named like a constructor but returns NC_KEEP; "
                                "say who owns the result in the doc comment, or return NC_GIVE")
        verb = name.rsplit("_", 1)[-1]
        if verb in RELEASE_VERBS and "_get_" not in name:
            findings.append(f"{where}: [release] '_{verb}' releases: the release verb is '_destroy'")
        if name.endswith("_destroy") and not any("NC_TAKE" in p for p in params):
            findings.append(f"{where}: [destroy] a _destroy function takes its object with NC_TAKE")
        if "_owned" in name and not any("NC_TAKE" in p for p in params):
            findings.append(f"{where}: [take] '_owned' in the name but no NC_TAKE parameter")
        for p in params:
            if re.search(r"\bbool\s+owned\b", p):
                findings.append(f"{where}: [take] ownership chosen by a bool parameter; "
                                "use NC_TAKE in an '_owned' twin")
    return findings


def allowed_by(rel):
    for entry in ALLOWED:
        if rel == entry or (entry.endswith("/") and rel.startswith(entry)):
            return entry
    return None


def main():
    ap = argparse.ArgumentParser(description="nc's public header lint")
    ap.add_argument("include_dir")
    ap.add_argument("--show-allowed", action="store_true", help="list the allowed findings too")
    a = ap.parse_args()
    errors, allowed, n_headers = [], {}, 0
    for d, _, files in sorted(os.walk(os.path.join(a.include_dir, "nc"))):
        for f in sorted(files):
            if not f.endswith(".h"):
                continue
            n_headers += 1
            path = os.path.join(d, f)
            rel = os.path.relpath(path, a.include_dir)
            for finding in lint_file(path, rel):
                entry = allowed_by(rel)
                if entry:
                    allowed.setdefault(entry, []).append(finding)
                else:
                    errors.append(finding)
    for e in errors:
        print(f"error: {e}")
    for entry, found in allowed.items():
        print(f"allowed: {len(found)} findings in {entry} ({ALLOWED[entry]})")
        if a.show_allowed:
            for f in found:
                print(f"  {f}")
    print(f"checked {n_headers} headers: {len(errors)} findings")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
