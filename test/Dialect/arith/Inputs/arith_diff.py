#!/usr/bin/python3
"""arith_diff.py: runs arith programs through nc-opt and mlir-opt and checks
that both leave the same ops.

For every input and each pipeline (canonicalize, cse, canonicalize then cse,
all nested in func.func) it runs both tools with --mlir-print-op-generic,
counts the ops per name in both outputs, and reports any difference. It
also checks interoperability: mlir-opt must read nc-opt's generic output and
nc-opt must read mlir-opt's, each giving back the same op counts.

Inputs are .mlir files, or programs generated here from a seed:
  random:SEED[:FUNCS]   random functions over every arith op, on scalars of
                        every width, index, floats, vectors and tensors
  focus:SEED[:FUNCS]    the same on one or two types and few distinct
                        constants, so that folds and patterns meet often
  bench:SEED[:N]        the benchmark's shape: N ops (constant, addi, subi,
                        muli, andi, ori, xori on i32/i64), 25% exact repeats

Usage: arith_diff.py NC_OPT MLIR_OPT INPUT... ; prints one summary line
("arith-diff: K runs, M mismatches") and the details of each mismatch.
"""
import collections
import os
import random
import re
import subprocess
import sys
import tempfile

PIPELINES = {
    "canonicalize": "builtin.module(func.func(canonicalize))",
    "cse": "builtin.module(func.func(cse))",
    "canonicalize,cse": "builtin.module(func.func(canonicalize,cse))",
}

OP_RE = re.compile(r'"([A-Za-z_][\w$.]*)"\(')


def count_ops(text):
    """Op names and their counts in a generic-form printout."""
    return collections.Counter(m.group(1) for m in OP_RE.finditer(text))


def run(tool, path, pipeline):
    args = [tool, path, "--mlir-print-op-generic", "--allow-unregistered-dialect"]
    if pipeline:
        args.append("--pass-pipeline=" + pipeline)
    p = subprocess.run(args, capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


# --- random programs -------------------------------------------------------------------------------------

INTS = ["i1", "i8", "i16", "i32", "i64"]
FLOATS = ["f16", "bf16", "f32", "f64"]
WIDTH = {"i1": 1, "i8": 8, "i16": 16, "i32": 32, "i64": 64, "index": 64, "f16": 16, "bf16": 16, "f32": 32, "f64": 64}
SHAPES = ["tensor<4x", "vector<4x", "tensor<2x2x"]
INT_BIN = ["addi", "subi", "muli", "divsi", "divui", "ceildivsi", "ceildivui", "floordivsi", "remsi", "remui",
           "andi", "ori", "xori", "shli", "shrsi", "shrui", "maxsi", "minsi", "maxui", "minui"]
FLOAT_BIN = ["addf", "subf", "mulf", "divf", "remf", "maximumf", "minimumf", "maxnumf", "minnumf"]
CMPI = ["eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge"]
CMPF = ["false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord", "ueq", "ugt", "uge", "ult", "ule", "une", "uno",
        "true"]
FAST = ["fast", "nnan", "ninf", "nsz", "nnan,nsz", "reassoc,contract"]
FLOAT_BITS = {  # special values as hex bits
    "f16": ["0x7E00", "0x7C00", "0xFC00", "0x8000", "0x0001", "0x7BFF"],
    "bf16": ["0x7FC0", "0x7F80", "0xFF80", "0x8000", "0x0001", "0x7F7F"],
    "f32": ["0x7FC00000", "0x7F800000", "0xFF800000", "0x80000000", "0x00000001", "0x7F7FFFFF"],
    "f64": ["0x7FF8000000000000", "0x7FF0000000000000", "0xFFF0000000000000", "0x8000000000000000",
            "0x0000000000000001"],
}


def elt(t):
    m = re.match(r"(?:tensor|vector)<(?:\d+x)+(\w+)>", t)
    return m.group(1) if m else t


def shaped(t, e):
    """The type with t's shape and element type e."""
    m = re.match(r"((?:tensor|vector)<(?:\d+x)+)\w+>", t)
    return f"{m.group(1)}{e}>" if m else e


def nelts(t):
    m = re.match(r"(?:tensor|vector)<((?:\d+x)+)\w+>", t)
    if not m:
        return 1
    n = 1
    for d in m.group(1).strip("x").split("x"):
        n *= int(d)
    return n


SMALL = False  # focus mode: few values, so that folds and patterns meet often


def int_value(rng, w):
    lo, hi = -(1 << (w - 1)), (1 << (w - 1)) - 1
    if w == 1:
        return rng.choice([0, 1])
    if SMALL and rng.random() < 0.8:
        return rng.choice([0, 1, -1, 2, -2, 3, w - (w > 8) * (w // 2)])
    return rng.choice([0, 1, -1, 2, -2, 3, 7, lo, hi, lo + 1, hi - 1, w, w - 1, w + 1, rng.randint(lo, hi),
                       rng.randint(-100, 100)])


def float_value(rng, e):
    r = rng.random()
    if SMALL and r < 0.8:
        return rng.choice(["0.0", "-0.0", "1.0", "-1.0", "2.0", "4.4", "-4.4", "0.5", "1.0e10"])
    if r < 0.15:
        return rng.choice(FLOAT_BITS[e])
    v = rng.choice([0.0, -0.0, 1.0, -1.0, 0.5, 2.0, 3.0, -3.5, 1e3, 65504.0, 1e-3, 4.4, -4.4, 1e10,
                    rng.uniform(-100, 100), float(rng.randint(-300, 300))])
    return repr(v) if "e" in repr(v) or "." in repr(v) else f"{v}.0"


def scalar_literal(rng, e):
    if e == "i1":
        return rng.choice(["true", "false"])
    if e in FLOATS:
        return float_value(rng, e)
    return str(int_value(rng, WIDTH[e]))


def constant(rng, t):
    e = elt(t)
    if t == e:
        lit = scalar_literal(rng, e)
        if e == "i1":
            return f"arith.constant {lit}"
        return f"arith.constant {lit} : {t}"
    if rng.random() < 0.5:
        return f"arith.constant dense<{scalar_literal(rng, e)}> : {t}"
    vals = ", ".join(scalar_literal(rng, e) for _ in range(nelts(t)))
    if t.startswith("tensor<2x2x"):
        items = vals.split(", ")
        vals = f"[{items[0]}, {items[1]}], [{items[2]}, {items[3]}]"
    return f"arith.constant dense<[{vals}]> : {t}"


class Func:
    def __init__(self, rng, name, types):
        self.rng, self.name = rng, name
        self.pool = collections.defaultdict(list)
        self.args = []
        for i, t in enumerate(types):
            self.args.append(f"%arg{i}: {t}")
            self.pool[t].append(f"%arg{i}")
        self.lines, self.n = [], 0
        self.results = []
        self.from_itofp = set()

    def pick(self, t):
        vs = self.pool[t]
        if not vs or self.rng.random() < 0.12:
            return self.emit(t, constant(self.rng, t))
        # mostly recent values, so chains form
        return vs[max(0, len(vs) - 1 - int(self.rng.expovariate(0.4)))]

    def emit(self, t, text):
        v = f"%v{self.n}"
        self.n += 1
        self.lines.append(f"    {v} = {text}\n")
        self.pool[t].append(v)
        self.results.append((v, t))
        return v

    def int_types(self):
        return [t for t in self.pool if elt(t) in INTS + ["index"]]

    def float_types(self):
        return [t for t in self.pool if elt(t) in FLOATS]

    def step(self):
        rng = self.rng
        kind = rng.random()
        its, fts = self.int_types(), self.float_types()
        if kind < 0.40 and its:
            t = rng.choice(its)
            op = rng.choice(INT_BIN)
            flag = ""
            if op in ("addi", "subi", "muli", "shli") and rng.random() < 0.15:
                flag = " overflow<" + rng.choice(["nsw", "nuw", "nsw, nuw"]) + ">"
            a, b = self.pick(t), self.pick(t)
            self.emit(t, f"arith.{op} {a}, {b}{flag} : {t}")
        elif kind < 0.50 and its:
            t = rng.choice(its)
            a, b = self.pick(t), self.pick(t)
            self.emit(shaped(t, "i1"), f"arith.cmpi {rng.choice(CMPI)}, {a}, {b} : {t}")
        elif kind < 0.58 and (its or fts):
            t = rng.choice(its + fts)
            ct = shaped(t, "i1") if t != elt(t) and rng.random() < 0.7 else "i1"
            c, a, b = self.pick(ct), self.pick(t), self.pick(t)
            ty = f"{ct}, {t}" if ct != "i1" else t
            self.emit(t, f"arith.select {c}, {a}, {b} : {ty}")
        elif kind < 0.74:
            self.cast()
        elif kind < 0.92 and fts:
            t = rng.choice(fts)
            r = rng.random()
            flag = f" fastmath<{rng.choice(FAST)}>" if rng.random() < 0.1 else ""
            if r < 0.7:
                a, b = self.pick(t), self.pick(t)
                self.emit(t, f"arith.{rng.choice(FLOAT_BIN)} {a}, {b}{flag} : {t}")
            elif r < 0.85:
                self.emit(t, f"arith.negf {self.pick(t)}{flag} : {t}")
            else:
                a, b = self.pick(t), self.pick(t)
                preds = CMPF
                if a in self.from_itofp:  # mlir-opt 19 crashes on cmpf false/true of an itofp
                    preds = CMPF[1:-1]
                self.emit(shaped(t, "i1"), f"arith.cmpf {rng.choice(preds)}, {a}, {b}{flag} : {t}")
        else:
            t = rng.choice(list(self.pool))
            self.emit(t, constant(rng, t))

    def cast(self):
        rng = self.rng
        src = rng.choice(list(self.pool))
        e = elt(src)
        if e in INTS:
            choices = [("extsi", i) for i in INTS if WIDTH[i] > WIDTH[e]] + \
                      [("extui", i) for i in INTS if WIDTH[i] > WIDTH[e]] + \
                      [("trunci", i) for i in INTS if WIDTH[i] < WIDTH[e]] + \
                      [("index_cast", "index"), ("index_castui", "index")] + \
                      [("sitofp", f) for f in FLOATS] + [("uitofp", f) for f in FLOATS] + \
                      [("bitcast", f) for f in FLOATS if WIDTH[f] == WIDTH[e] and f != "bf16"]
            if e != "i1":
                choices.append(("bitcast", e))
        elif e == "index":
            choices = [("index_cast", i) for i in INTS] + [("index_castui", i) for i in INTS]
        else:
            choices = [("fptosi", i) for i in INTS] + [("fptoui", i) for i in INTS] + \
                      [("extf", f) for f in FLOATS if WIDTH[f] > WIDTH[e]] + \
                      [("truncf", f) for f in FLOATS if WIDTH[f] < WIDTH[e]] + \
                      [("bitcast", i) for i in INTS if WIDTH[i] == WIDTH[e] and e != "bf16"]
            # (no bf16 bitcasts: mlir-opt 19 folds bitcast(bitcast(x : f16 to i16) : i16 to bf16) to x, an f16)
        op, de = rng.choice(choices)
        dst = shaped(src, de)
        rm = " " + rng.choice(["toward_zero", "upward"]) if op == "truncf" and rng.random() < 0.2 else ""
        v = self.emit(dst, f"arith.{op} {self.pick(src)}{rm} : {src} to {dst}")
        if op.endswith("itofp"):
            self.from_itofp.add(v)

    def text(self):
        k = min(len(self.results), self.rng.randint(2, 8))
        rets = self.rng.sample(self.results, k) if k else []
        sig = ", ".join(t for _, t in rets)
        head = f"  func.func @{self.name}({', '.join(self.args)}) -> ({sig}) {{\n"
        ret = f"    return {', '.join(v for v, _ in rets)} : {sig}\n" if rets else "    return\n"
        return head + "".join(self.lines) + ret + "  }\n"


def gen_random(seed, funcs=40, focus=False):
    global SMALL
    SMALL = focus
    rng = random.Random(seed)
    out = ["module {\n"]
    for f in range(funcs):
        types = rng.sample(INTS + ["index"] + FLOATS, rng.randint(1, 2) if focus else rng.randint(2, 5))
        for _ in range(rng.randint(0, 2)):
            s = rng.choice(SHAPES)
            types.append(s + rng.choice(["i1", "i8", "i32", "index", "f32", "f16"]) + ">")
        fn = Func(rng, f"f{f}", types)
        for _ in range(rng.randint(4, 30)):
            fn.step()
        out.append(fn.text())
    out.append("}\n")
    return "".join(out)


def gen_bench(seed, n=2000):
    """The CSE/canonicalize benchmark's input shape (see bench/gen_ir.py)."""
    rng = random.Random(seed)
    pools = {"i32": ["%arg0", "%arg1"], "i64": ["%arg2", "%arg3"]}
    emitted, lines = [], []
    for vid in range(n):
        if emitted and rng.random() < 0.25:
            name, ops, ty, value = emitted[rng.randrange(max(0, len(emitted) - 256), len(emitted))]
        else:
            ty = rng.choice(["i32", "i64"])
            if rng.random() < 0.15:
                name, ops, value = "arith.constant", [], rng.randrange(-8, 256)
            else:
                pool = pools[ty]
                name, value = rng.choice(["arith.addi", "arith.subi", "arith.muli", "arith.andi", "arith.ori",
                                          "arith.xori"]), None
                ops = [pool[max(0, len(pool) - 1 - int(rng.expovariate(0.2)))] for _ in range(2)]
            emitted.append((name, ops, ty, value))
        pools[ty].append(f"%{vid}")
        if name == "arith.constant":
            lines.append(f'    %{vid} = "arith.constant"() <{{value = {value} : {ty}}}> : () -> {ty}\n')
        else:
            lines.append(f'    %{vid} = "{name}"({", ".join(ops)}) : ({ty}, {ty}) -> {ty}\n')
    return ("module {\n  func.func @f(%arg0: i32, %arg1: i32, %arg2: i64, %arg3: i64) -> (i32, i64) {\n" +
            "".join(lines) + f"    return {pools['i32'][-1]}, {pools['i64'][-1]} : i32, i64\n  }}\n}}\n")


# --- driver -----------------------------------------------------------------------------------------------

def materialize(spec, tmp):
    """A path for an input spec (a file, or a generated program)."""
    if os.path.exists(spec):
        return spec
    kind, _, rest = spec.partition(":")
    parts = rest.split(":")
    seed = int(parts[0])
    if kind in ("random", "focus"):
        text = gen_random(seed, int(parts[1]) if len(parts) > 1 else 40, kind == "focus")
    elif kind == "bench":
        text = gen_bench(seed, int(parts[1]) if len(parts) > 1 else 2000)
    else:
        sys.exit(f"arith_diff.py: unknown input '{spec}'")
    path = os.path.join(tmp, spec.replace(":", "_") + ".mlir")
    with open(path, "w") as f:
        f.write(text)
    return path


def diff_counts(a, b):
    names = sorted(set(a) | set(b))
    return ", ".join(f"{n}: nc {a.get(n, 0)} vs mlir {b.get(n, 0)}" for n in names if a.get(n, 0) != b.get(n, 0))


def main(argv):
    if len(argv) < 4:
        sys.exit(__doc__)
    nc, mlir, specs = argv[1], argv[2], argv[3:]
    runs = mismatches = 0
    with tempfile.TemporaryDirectory() as tmp:
        for spec in specs:
            path = materialize(spec, tmp)
            for label, pipeline in [("parse", None)] + list(PIPELINES.items()):
                runs += 1
                rc_n, out_n, err_n = run(nc, path, pipeline)
                rc_m, out_m, err_m = run(mlir, path, pipeline)
                if rc_n or rc_m:
                    mismatches += 1
                    print(f"{spec} [{label}]: exit nc {rc_n}, mlir {rc_m}\n{err_n[:2000]}{err_m[:2000]}")
                    continue
                cn, cm = count_ops(out_n), count_ops(out_m)
                if cn != cm:
                    mismatches += 1
                    print(f"{spec} [{label}]: {diff_counts(cn, cm)}")
                if pipeline is not None:
                    continue
                # interop: each tool reads the other's generic output
                for reader, text, other in ((mlir, out_n, "mlir reading nc"), (nc, out_m, "nc reading mlir")):
                    runs += 1
                    p = os.path.join(tmp, "interop.mlir")
                    with open(p, "w") as f:
                        f.write(text)
                    rc, out, err = run(reader, p, None)
                    if rc or count_ops(out) != cn:
                        mismatches += 1
                        print(f"{spec} [{other}]: exit {rc} {err[:2000]}")
    print(f"arith-diff: {runs} runs, {mismatches} mismatches")
    return 1 if mismatches else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
