#!/usr/bin/python3
"""gen_ir.py: deterministic generators of large IR files for the benchmarks.

Every generator is seeded, so the same arguments give the same bytes on any
machine (Python's `random` is specified to be reproducible across versions
for a given seed). Each file starts with a `// gen_ir.py ...` line that names
the generator version and its arguments; bench_ir.py compares it to decide
whether a cached file can be reused.

Kinds (run `gen_ir.py KIND --help` for options):
  generic  N unregistered ops in generic syntax inside one func.func: 1-3
           operands, 1-2 results, small attribute dicts (ints, floats,
           strings, bools), tensor types, some values never used.
  arith    N arith ops (constant, addi, subi, muli, andi, ori, xori) of which
           a fraction (25% by default) repeat an earlier op of the same block
           exactly, in one function or spread over F functions: input for
           CSE/canonicalize benchmarks. cse removes exactly the duplicates
           (the last line says how many). Generic or custom syntax, or
           mlir-generic: the generic form as mlir-opt prints it, with
           `<{overflowFlags = #arith.overflow<none>}>` properties on addi,
           subi and muli.
  named    N conv-like unregistered ops in one function, each with a unique
           `name` string and array properties (kernel, strides, pads,
           dilations) in `<{...}>`: the many-unique-strings memory case.
  hex      weight blobs written as hex: dense<"0x..."> attributes, or
           dense_resource<...> handles with their bytes in the file's
           {-# dialect_resources #-} section, or both (mixed).
  decimal  one dense<[[...]]> f32 attribute written as decimals (%.6e).

The outputs are plain MLIR that both nc-opt and mlir-opt parse with
--allow-unregistered-dialect.
"""
import argparse
import random
import sys

VERSION = 2

# Tensor types the generic ops draw from, weighted towards the common ones.
TENSOR_TYPES = [
    "tensor<4x8xf32>", "tensor<8xf32>", "tensor<1x3x224x224xf32>", "tensor<64x64xf32>",
    "tensor<16xi32>", "tensor<?x128xf32>", "tensor<2x2xi8>", "tensor<1x1000xf16>",
]
TYPE_WEIGHTS = [6, 4, 2, 4, 2, 2, 1, 1]

OP_NAMES = ["bench.conv", "bench.add", "bench.mul", "bench.relu", "bench.matmul", "bench.reshape",
            "bench.concat", "bench.split", "bench.pool", "bench.norm", "bench.cast", "bench.quant"]

ATTR_KEYS = ["axis", "alpha", "name", "stride", "epsilon", "mode", "keep_dims", "group"]


def header(what, **params):
    args = " ".join(f"{k}={v}" for k, v in sorted(params.items()))
    return f"// gen_ir.py v{VERSION} {what} {args}\n"


def _attr(rng, key):
    r = rng.random()
    if key in ("axis", "stride", "group"):
        return f"{key} = {rng.randrange(-4, 64)} : i64" if r < 0.7 else f"{key} = {rng.randrange(0, 1 << 20)} : i32"
    if key in ("alpha", "epsilon"):
        return f"{key} = {rng.uniform(-10.0, 10.0):.6e} : f32" if r < 0.8 else f"{key} = {rng.random():.3f} : f64"
    if key in ("name", "mode"):
        return f'{key} = "{rng.choice(["linear", "nearest", "layer", "block"])}_{rng.randrange(100000)}"'
    return f"{key} = {'true' if r < 0.5 else 'false'}"


def gen_generic(out, n, seed=1):
    """Writes N generic ops in one function of one module."""
    rng = random.Random(seed)
    out.write(header("generic", n=n, seed=seed))
    nargs = 4
    arg_types = [rng.choices(TENSOR_TYPES, TYPE_WEIGHTS)[0] for _ in range(nargs)]
    vals = [(f"%arg{i}", t) for i, t in enumerate(arg_types)]  # (name, type) of every value so far
    sig = ", ".join(f"%arg{i}: {t}" for i, t in enumerate(arg_types))
    out.write(f"module {{\n  func.func @main({sig}) {{\n")
    lines = []
    vid = 0
    for _ in range(n):
        nops = rng.choices((1, 2, 3), (5, 4, 1))[0]
        operands = []
        for _ in range(nops):
            # mostly recent values (locality of real graphs), sometimes far ones;
            # values that are never picked stay unused
            if rng.random() < 0.85:
                operands.append(vals[max(0, len(vals) - 1 - int(rng.expovariate(0.25)))])
            else:
                operands.append(vals[rng.randrange(len(vals))])
        nres = 2 if rng.random() < 0.15 else 1
        rtypes = [rng.choices(TENSOR_TYPES, TYPE_WEIGHTS)[0] for _ in range(nres)]
        nattrs = rng.choices((0, 1, 2, 3), (2, 4, 3, 1))[0]
        keys = sorted(rng.sample(ATTR_KEYS, nattrs))
        attrs = " {" + ", ".join(_attr(rng, k) for k in keys) + "}" if keys else ""
        opname = rng.choice(OP_NAMES)
        ins = ", ".join(v for v, _ in operands)
        in_types = ", ".join(t for _, t in operands)
        if nres == 1:
            res, out_types = f"%{vid}", rtypes[0]
            vals.append((res, rtypes[0]))
        else:
            res, out_types = f"%{vid}:2", f"({rtypes[0]}, {rtypes[1]})"
            vals.append((f"%{vid}#0", rtypes[0]))
            vals.append((f"%{vid}#1", rtypes[1]))
        vid += 1
        lines.append(f'    {res} = "{opname}"({ins}){attrs} : ({in_types}) -> {out_types}\n')
        if len(lines) >= 4096:
            out.write("".join(lines))
            lines.clear()
    out.write("".join(lines))
    out.write("    return\n  }\n}\n")


ARITH_BINOPS = ["arith.addi", "arith.subi", "arith.muli", "arith.andi", "arith.ori", "arith.xori"]
OVERFLOW_OPS = {"arith.addi", "arith.subi", "arith.muli"}  # the ops mlir-opt prints with overflowFlags
COMMUTATIVE = {"arith.addi", "arith.muli", "arith.andi", "arith.ori", "arith.xori"}


def gen_arith(out, n, funcs=1, dup=0.25, seed=1, syntax="generic"):
    """Writes N arith ops spread evenly over FUNCS functions. A fraction DUP of
    them repeat an earlier op of the same function exactly (same name, same
    operands, same constant); every other op is distinct from all earlier ones
    even after earlier duplicates are replaced by their originals, and from
    commuted forms, so CSE removes exactly the duplicates (no cascades).
    Every value is used: operands prefer the oldest unused value, and a
    "bench.sink" op (unregistered, so never erased) takes whatever is left,
    because MLIR's cse also erases dead ops."""
    rng = random.Random(seed)
    out.write(header("arith", n=n, funcs=funcs, dup=dup, seed=seed, syntax=syntax))
    out.write("module {\n")
    per = [n // funcs + (1 if i < n % funcs else 0) for i in range(funcs)]
    types = ["i32", "i64"]
    ndups = 0
    from collections import deque

    def fmt(res, name, ops, ty, value=None):
        if syntax == "custom":
            if name == "arith.constant":
                return f"    {res} = arith.constant {value} : {ty}\n"
            return f"    {res} = {name} {', '.join(ops)} : {ty}\n"
        if name == "arith.constant":
            return f'    {res} = "arith.constant"() <{{value = {value} : {ty}}}> : () -> {ty}\n'
        props = " <{overflowFlags = #arith.overflow<none>}>" if syntax == "mlir-generic" and name in OVERFLOW_OPS else ""
        return f'    {res} = "{name}"({", ".join(ops)}){props} : ({", ".join([ty] * len(ops))}) -> {ty}\n'

    for f in range(funcs):
        pools = {"i32": ["%arg0", "%arg1"], "i64": ["%arg2", "%arg3"]}
        out.write(f"  func.func @f{f}(%arg0: i32, %arg1: i32, %arg2: i64, %arg3: i64) -> (i32, i64) {{\n")
        unused = {"i32": deque(["%arg0", "%arg1"]), "i64": deque(["%arg2", "%arg3"])}  # oldest first
        used = set()
        canon = {}     # value name -> the original it duplicates
        seen = set()   # keys of the distinct ops so far
        emitted = []   # (name, operands, type, value, result) of the distinct ops so far
        lines = []
        fresh_const = 1000
        for vid in range(per[f]):
            res = f"%{vid}"
            if emitted and rng.random() < dup:
                name, ops, ty, value, orig = emitted[rng.randrange(max(0, len(emitted) - 256), len(emitted))]
                canon[res] = orig
                ndups += 1
            else:
                for _ in range(20):
                    ty = rng.choice(types)
                    if rng.random() < 0.15:
                        name, ops, value = "arith.constant", [], rng.randrange(-8, 256)
                    else:
                        pool = pools[ty]
                        name, value = rng.choice(ARITH_BINOPS), None
                        ops = []
                        for _ in range(2):
                            q = unused[ty]
                            while q and q[0] in used:
                                q.popleft()
                            if q and rng.random() < 0.5:
                                ops.append(q[0])
                            else:
                                ops.append(pool[max(0, len(pool) - 1 - int(rng.expovariate(0.2)))])
                    cops = [canon.get(o, o) for o in ops]
                    key = (name, ty, value, tuple(sorted(cops) if name in COMMUTATIVE else cops))
                    if key not in seen:
                        break
                else:  # give up drawing: a constant nobody used yet
                    name, ops, value = "arith.constant", [], fresh_const
                    fresh_const += 1
                    key = (name, ty, value, ())
                seen.add(key)
                emitted.append((name, ops, ty, value, res))
            used.update(ops)
            pools[ty].append(res)
            unused[ty].append(res)
            lines.append(fmt(res, name, ops, ty, value))
        ret = f"{pools['i32'][-1]}, {pools['i64'][-1]}"
        used.update(ret.split(", "))
        left = [(v, t) for t in types for v in unused[t] if v not in used]
        if left:
            lines.append(f'    "bench.sink"({", ".join(v for v, _ in left)}) : ({", ".join(t for _, t in left)}) -> ()\n')
        out.write("".join(lines))
        if syntax == "custom":
            out.write(f"    return {ret} : i32, i64\n  }}\n")
        else:
            out.write(f'    "func.return"({ret}) : (i32, i64) -> ()\n  }}\n')
    out.write("}\n")
    out.write(f"// gen_ir.py: {ndups} of {n} arith ops are duplicates (cse removes exactly these)\n")


def gen_named(out, n, seed=1):
    """Writes N conv-like unregistered ops in one function: each takes the
    previous activation and a weight argument, and carries a unique `name`
    string and four small integer arrays as properties, as an imported
    network's ops do (the property dictionary is sorted, as mlir-opt prints it)."""
    rng = random.Random(seed)
    out.write(header("named", n=n, seed=seed))
    acts = ["tensor<1x64x56x56xf32>", "tensor<1x128x28x28xf32>", "tensor<1x256x14x14xf32>"]
    weights = ["tensor<64x64x3x3xf32>", "tensor<128x64x1x1xf32>", "tensor<256x128x3x3xf32>"]
    ops = ["bench.conv", "bench.pool", "bench.depthwise"]
    sig = ", ".join([f"%arg{i}: {t}" for i, t in enumerate(acts)] +
                    [f"%arg{i + 3}: {t}" for i, t in enumerate(weights)])
    out.write(f"module {{\n  func.func @main({sig}) {{\n")
    lines = []
    prev = ["%arg0", "%arg1", "%arg2"]
    for vid in range(n):
        k = rng.randrange(3)
        a = prev[k] if rng.random() < 0.8 else f"%arg{k}"
        kh = rng.choice((1, 3, 3, 5, 7))
        st = rng.choice((1, 1, 2))
        pad = [rng.randrange(kh // 2 + 1) for _ in range(4)]
        dil = rng.choice((1, 1, 1, 2))
        name = f"{rng.choice(('layer', 'block', 'stage', 'features'))}{vid // 64}.{vid % 64}/{ops[k].split('.')[1]}_{vid}"
        props = (f"dilations = array<i64: {dil}, {dil}>, kernel_shape = array<i64: {kh}, {kh}>, "
                 f'name = "{name}", pads = array<i64: {pad[0]}, {pad[1]}, {pad[2]}, {pad[3]}>, '
                 f"strides = array<i64: {st}, {st}>")
        lines.append(f'    %{vid} = "{ops[k]}"({a}, %arg{k + 3}) <{{{props}}}> : ({acts[k]}, {weights[k]}) -> {acts[k]}\n')
        prev[k] = f"%{vid}"
        if len(lines) >= 4096:
            out.write("".join(lines))
            lines.clear()
    out.write("".join(lines))
    out.write(f'    "bench.sink"({", ".join(prev)}) : ({", ".join(acts)}) -> ()\n    return\n  }}\n}}\n')


def gen_hex(out, mib, kind="dense", blob_mib=4, seed=1):
    """Writes MIB mebibytes of weight bytes (2*MIB MiB of hex text) as blobs of
    BLOB_MIB MiB each, typed tensor<...xf32>: as dense<"0x..."> attributes,
    as dense_resource blobs, or alternating (mixed)."""
    rng = random.Random(seed)
    out.write(header("hex", mib=mib, kind=kind, blob_mib=blob_mib, seed=seed))
    nblobs = max(1, (mib + blob_mib - 1) // blob_mib)
    blob_bytes = blob_mib << 20 if mib >= blob_mib else mib << 20
    elts = blob_bytes // 4
    ty = f"tensor<{elts // 1024}x1024xf32>" if elts % 1024 == 0 else f"tensor<{elts}xf32>"
    is_res = [kind == "resource" or (kind == "mixed" and i % 2 == 1) for i in range(nblobs)]
    out.write("module {\n  func.func @weights() {\n")
    for i in range(nblobs):
        out.write(f'    %{i} = "bench.weight"() {{layer = {i} : i64, value = ')
        if is_res[i]:
            out.write(f"dense_resource<blob_{i}> : {ty}")
        else:
            out.write('dense<"0x')
            out.write(rng.randbytes(blob_bytes).hex().upper())
            out.write(f'"> : {ty}')
        out.write(f"}} : () -> {ty}\n")
    out.write("    return\n  }\n}\n")
    if any(is_res):
        out.write("\n{-#\n  dialect_resources: {\n    builtin: {\n")
        first = True
        for i in range(nblobs):
            if not is_res[i]:
                continue
            if not first:
                out.write(",\n")
            first = False
            # the first 4 bytes are the blob's alignment, little endian
            out.write(f'      blob_{i}: "0x04000000')
            out.write(rng.randbytes(blob_bytes).hex().upper())
            out.write('"')
        out.write("\n    }\n  }\n#-}\n")


def gen_decimal(out, elements=4 << 20, cols=2048, seed=1):
    """Writes one f32 dense attribute of ELEMENTS decimals (%.6e), nested as
    [ELEMENTS/COLS x COLS]."""
    rng = random.Random(seed)
    out.write(header("decimal", elements=elements, cols=cols, seed=seed))
    if elements % cols:
        raise ValueError(f"--elements {elements} is not a multiple of --cols {cols}")
    rows = elements // cols
    ty = f"tensor<{rows}x{cols}xf32>"
    out.write('module {\n  func.func @weights() {\n    %0 = "bench.weight"() {value = dense<[')
    g = rng.gauss
    for r in range(rows):
        out.write("[" + ", ".join(["%.6e" % g(0.0, 0.05) for _ in range(cols)]) + "]")
        if r + 1 < rows:
            out.write(", ")
    out.write(f"]> : {ty}}} : () -> {ty}\n    return\n  }}\n}}\n")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="kind", required=True)
    g = sub.add_parser("generic", help="N generic ops in one function")
    g.add_argument("-n", type=int, default=100000)
    a = sub.add_parser("arith", help="N arith ops with duplicates")
    a.add_argument("-n", type=int, default=100000)
    a.add_argument("--funcs", type=int, default=1)
    a.add_argument("--dup", type=float, default=0.25)
    a.add_argument("--syntax", choices=("generic", "custom", "mlir-generic"), default="generic")
    nm = sub.add_parser("named", help="N conv-like ops with unique names and array properties")
    nm.add_argument("-n", type=int, default=100000)
    h = sub.add_parser("hex", help="hex weight blobs")
    h.add_argument("--mib", type=int, default=256, help="MiB of bytes (hex text is twice that)")
    h.add_argument("--kind", dest="hexkind", choices=("dense", "resource", "mixed"), default="dense")
    h.add_argument("--blob-mib", type=int, default=4)
    d = sub.add_parser("decimal", help="a dense f32 list of decimals")
    d.add_argument("--elements", type=int, default=4 << 20)
    d.add_argument("--cols", type=int, default=2048)
    for p in (g, a, nm, h, d):
        p.add_argument("--seed", type=int, default=1)
        p.add_argument("-o", "--output", default="-")
    args = ap.parse_args(argv)
    out = sys.stdout if args.output == "-" else open(args.output, "w", buffering=1 << 20)
    with out:
        if args.kind == "generic":
            gen_generic(out, args.n, args.seed)
        elif args.kind == "arith":
            gen_arith(out, args.n, args.funcs, args.dup, args.seed, args.syntax)
        elif args.kind == "named":
            gen_named(out, args.n, args.seed)
        elif args.kind == "hex":
            gen_hex(out, args.mib, args.hexkind, args.blob_mib, args.seed)
        else:
            gen_decimal(out, args.elements, args.cols, args.seed)


if __name__ == "__main__":
    main()
