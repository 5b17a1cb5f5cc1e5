#!/usr/bin/python3
"""ONNX-side helpers of nc's export tests (Debian's python3-onnx).

  onnx_tool.py check FILE...      onnx.checker.check_model(full_check=True) on each
                                  file (which also runs ONNX shape inference);
                                  prints "checked: FILE" or the checker's complaint
  onnx_tool.py dump FILE          prints the model compactly: opsets, inputs,
                                  outputs, initializers, nodes with attributes
  onnx_tool.py blobs MODEL MLIR    checks that each initializer of MODEL is a blob of
                                  the imported MLIR holding the same bytes
  onnx_tool.py roundtrip NC_TRANSLATE DIR OUT [NAME:OPSET...]
                                  for every DIR/*.onnx that nc imports: export it
                                  at opsets 13 and 17 (but not the NAME:OPSET pairs
                                  listed), check the export, import it again and
                                  compare the IR (locations included, except the
                                  file location); prints one summary line
"""
import glob
import os
import re
import subprocess
import sys

import onnx
from onnx import helper


def check(paths):
    bad = 0
    for p in paths:
        try:
            onnx.checker.check_model(onnx.load(p), full_check=True)
            print("checked:", os.path.basename(p))
        except Exception as e:  # the checker raises several exception types
            bad += 1
            print("CHECK FAILED:", os.path.basename(p), str(e).splitlines()[0])
    return bad


def dump(path):
    m = onnx.load(path)
    print("ir_version", m.ir_version, "opsets", [(o.domain, o.version) for o in m.opset_import])
    g = m.graph
    print("graph", g.name)

    def ty(v):
        t = v.type.tensor_type
        dims = ["?" if d.dim_param or not d.HasField("dim_value") else str(d.dim_value) for d in t.shape.dim]
        return "%s[%s]" % (onnx.TensorProto.DataType.Name(t.elem_type), ",".join(dims))

    for i in g.input:
        print("input", i.name, ty(i))
    for o in g.output:
        print("output", o.name, ty(o))
    for t in g.initializer:
        print("initializer", t.name, onnx.TensorProto.DataType.Name(t.data_type), list(t.dims))
    for n in g.node:
        attrs = ", ".join("%s=%s" % (a.name, helper.get_attribute_value(a)) for a in n.attribute)
        print("node '%s' %s(%s) -> %s {%s}" % (n.name, n.op_type, ", ".join(n.input), ", ".join(n.output), attrs))


def blobs(model_path, mlir_path):
    """Every initializer of the model is a dense_resource blob of the IR named
    after it (sanitized as nc does), holding its bytes after the 4-byte
    alignment header."""
    from onnx import numpy_helper
    text = open(mlir_path).read()
    found = dict(re.findall(r'^\s*"?([^":\s]+)"?: "0x([0-9A-F]*)"', text, re.M))
    bad = 0
    inits = onnx.load(model_path).graph.initializer
    for t in inits:
        key = re.sub(r"[^A-Za-z0-9_$.]", "_", t.name)
        key = key if re.match(r"[A-Za-z_]", key) else "_" + key
        want = numpy_helper.to_array(t).tobytes().hex().upper()
        got = found.get(key)
        if got is None or got[8:] != want:
            bad += 1
            print("BLOB DIFFERS:", t.name, "missing" if got is None else "")
    print("blobs: %d initializers, %d differ" % (len(inits), bad))
    return bad


def roundtrip(tool, src, out, skip=()):
    os.makedirs(out, exist_ok=True)
    strip = re.compile(r'loc\("[^"]*\.onnx":0:0\)')
    n = failures = 0
    for path in sorted(glob.glob(os.path.join(src, "*.onnx"))):
        name = os.path.splitext(os.path.basename(path))[0]
        first = subprocess.run([tool, "--import-onnx", path, "--mlir-print-debuginfo"], capture_output=True, text=True)
        if "Sanitizer" in first.stderr or first.returncode < 0:
            failures += 1
            print("CRASHED:", name, first.stderr.strip())
        if first.returncode:
            print("skipped:", name, "-", first.stderr.strip().split("error: ", 1)[-1])
            continue  # the error tests cover models nc refuses
        mlir = os.path.join(out, name + ".mlir")
        with open(mlir, "w") as f:
            f.write(first.stdout)
        for opset in ("13", "17"):
            if "%s:%s" % (name, opset) in skip:
                continue
            n += 1
            exported = os.path.join(out, "%s.%s.onnx" % (name, opset))
            r = subprocess.run([tool, "--export-onnx", mlir, "--onnx-opset=" + opset, "-o", exported],
                               capture_output=True, text=True)
            if r.returncode or r.stderr:
                failures += 1
                print("EXPORT FAILED:", name, opset, r.stderr.strip())
                continue
            if check([exported]):
                failures += 1
                continue
            again = subprocess.run([tool, "--import-onnx", exported, "--mlir-print-debuginfo"], capture_output=True,
                                   text=True)
            if again.returncode or again.stderr or strip.sub("", again.stdout) != strip.sub("", first.stdout):
                failures += 1
                print("ROUND TRIP DIFFERS:", name, opset, again.stderr.strip())
    print("roundtrip: %d exports, %d failures" % (n, failures))
    return failures


def main():
    cmd = sys.argv[1]
    if cmd == "check":
        sys.exit(1 if check(sys.argv[2:]) else 0)
    if cmd == "dump":
        dump(sys.argv[2])
    elif cmd == "blobs":
        sys.exit(1 if blobs(sys.argv[2], sys.argv[3]) else 0)
    elif cmd == "roundtrip":
        sys.exit(1 if roundtrip(*sys.argv[2:5], skip=sys.argv[5:]) else 0)
    else:
        sys.exit("unknown command " + cmd)


if __name__ == "__main__":
    main()
