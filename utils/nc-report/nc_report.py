#!/usr/bin/python3
"""nc_report.py: one self-contained HTML page from nc-run --stats-json (docs/reports.md).

Why a script over the figures: every target already writes its own figures through
--stats-json (targets/figures.md), so the page shows whatever per-core numbers a target
reports (SRAM, crossbar or MAC utilisation...) with no edit here when a target adds one.
The page is offline: inline SVG and CSS, a few lines of inline JS to pick the heatmap's
figure; nothing is fetched from the network.

  nc_report.py STATS.json -o DIR [--trace=TRACE.json] [--quant-report=Q.json] [--views=V.json]
               [--graph=G.svg|G.dot ...] [--title=T] [--quiet]

writes DIR/index.html (and DIR/stats.json, the figures it shows). Views: summary, chip heatmap (one cell per core), NoC links (the
"links" of --stats-json when the simulator counts them), per-layer table, roofline,
schedule of one frame, memory and link load over time (from nc-run --trace, when given), the
target's own views (--views: generic kinds over its figures), per-core table, quantization
(per-layer SQNR and bits from nc-compile --quant-report, when given), graph pictures (--graph).
nc-compile --report and nc-run --report run this script (utils/nc-report/tool_report.c).
"""
import argparse
import html
import json
import math
import os
import sys


def esc(v):
    return html.escape(str(v), quote=True)


def fmt(v):
    if isinstance(v, float):
        return f"{v:.4g}"
    return str(v)


def colour(t):
    """White (0) to dark red (1)."""
    t = min(max(t, 0.0), 1.0)
    r, g, b = 255, int(255 - 200 * t), int(255 - 230 * t)
    return f"#{r:02x}{g:02x}{b:02x}"


def mesh_shape(stats, cores):
    """The chip's mesh: the square of cores_total when it is one, else the used cores' box."""
    total = stats.get("cores_total", 0)
    side = math.isqrt(total) if isinstance(total, int) and total > 0 else 0
    w = max([c["x"] for c in cores] + [-1]) + 1
    h = max([c["y"] for c in cores] + [-1]) + 1
    if side * side == total and side >= w and side >= h:
        return side, side
    return w, h


def numeric_fields(cores):
    keys = []
    for c in cores:
        for k, v in c.items():
            if k not in ("x", "y") and isinstance(v, (int, float)) and not isinstance(v, bool) and k not in keys:
                keys.append(k)
    return keys


CELL = 28


def heatmap(stats, cores):
    w, h = mesh_shape(stats, cores)
    fields = numeric_fields(cores)
    default = "utilisation" if "utilisation" in fields else (fields[0] if fields else None)
    by_xy = {}
    for c in cores:
        by_xy.setdefault((c["x"], c["y"]), []).append(c)
    out = [f'<svg id="heatmap" xmlns="http://www.w3.org/2000/svg" width="{w * CELL + 2}" height="{h * CELL + 2}">']
    for y in range(h):
        for x in range(w):
            here = by_xy.get((x, y), [])
            data = {}
            for k in fields:
                vals = [c[k] for c in here if k in c]
                if vals:
                    data[k] = sum(vals) if len(vals) > 1 else vals[0]
            names = sorted({str(c.get("node", "")) for c in here})
            tip = f"core ({x}, {y})" + (": " + ", ".join(names) if names else ": unused")
            tip += "".join(f"\n{k} = {fmt(v)}" for k, v in data.items())
            attrs = "".join(f' data-{esc(k.replace("_", "-"))}="{esc(v)}"' for k, v in data.items())
            out.append(f'<rect class="core{" used" if here else ""}" x="{x * CELL + 1}" y="{y * CELL + 1}" '
                       f'width="{CELL - 2}" height="{CELL - 2}" fill="#eeeeee"{attrs}><title>{esc(tip)}</title></rect>')
    out.append("</svg>")
    select = "".join(f'<option{" selected" if k == default else ""}>{esc(k)}</option>' for k in fields)
    return ("<h2>Chip</h2><p>One cell per core (x right, y down); colour: "
            f'<select id="metric">{select}</select> (white 0, red the largest). Hover a core for its layer and figures.</p>'
            + "".join(out))


def links_view(stats, cores):
    links = stats.get("links")
    if not links and any(isinstance(c.get("bytes_sent"), (int, float)) and c.get("bytes_sent") for c in cores):
        # a target without a link model (xbar): what each core puts on the mesh
        w, h = mesh_shape(stats, cores)
        sent = {}
        for c in cores:
            if isinstance(c.get("bytes_sent"), (int, float)):
                sent[(c["x"], c["y"])] = sent.get((c["x"], c["y"]), 0) + c["bytes_sent"]
        top = max(sent.values()) or 1
        out = [f'<svg id="links" xmlns="http://www.w3.org/2000/svg" width="{w * CELL + 2}" height="{h * CELL + 2}">']
        for y in range(h):
            for x in range(w):
                v = sent.get((x, y))
                tip = f"core ({x}, {y}) " + ("unused" if v is None else f"sends {fmt(v)} bytes")
                out.append(f'<rect class="sends" x="{x * CELL + 1}" y="{y * CELL + 1}" width="{CELL - 2}" '
                           f'height="{CELL - 2}" fill="{"#eeeeee" if v is None else colour(v / top)}" stroke="#999999">'
                           f"<title>{esc(tip)}</title></rect>")
        out.append("</svg>")
        return ("<h2>NoC links</h2><p>This target's simulator models no links (no <code>links</code> in "
                "--stats-json): the bytes each core sends on the mesh instead (<code>bytes_sent</code>: white 0, "
                f"red {esc(fmt(top))}; hover a core).</p>" + "".join(out))
    if not links:
        return ("<h2>NoC links</h2><p>This run's figures have no link counters "
                "(<code>links</code> in --stats-json).</p>")
    w, h = mesh_shape(stats, cores)
    top = max(l.get("bytes", 0) for l in links) or 1
    out = [f'<svg id="links" xmlns="http://www.w3.org/2000/svg" width="{w * CELL * 2}" height="{h * CELL * 2}">']
    for y in range(h):
        for x in range(w):
            out.append(f'<rect x="{x * 2 * CELL + CELL // 2}" y="{y * 2 * CELL + CELL // 2}" width="{CELL}" '
                       f'height="{CELL}" fill="#dddddd"/>')
    for l in links:
        (fx, fy), (tx, ty) = l["from"], l["to"]
        off = 4 if l.get("network") == "partial_sum" else -4
        cx = lambda v: v * 2 * CELL + CELL
        t = l.get("bytes", 0) / top
        out.append(f'<line class="link" x1="{cx(fx) + off}" y1="{cx(fy) + off}" x2="{cx(tx) + off}" y2="{cx(ty) + off}" '
                   f'stroke="{colour(0.15 + 0.85 * t)}" stroke-width="{1 + 5 * t:.2f}"><title>'
                   + esc("(%d, %d) -> (%d, %d) %s: %s bytes, %s busy cycles" % (fx, fy, tx, ty, l.get("network", ""), l.get("bytes", 0), l.get("busy_cycles", 0)))
                   + "</title></line>")
    out.append("</svg>")
    util = stats.get("max_link_utilization")
    note = f"<p>Largest link utilisation: {fmt(util)}.</p>" if util is not None else ""
    return "<h2>NoC links</h2><p>Width and colour: bytes over the link (hover for figures).</p>" + note + "".join(out)


def table(rows, cols, ident):
    head = "".join(f"<th>{esc(c)}</th>" for c in cols)
    body = "".join("<tr>" + "".join(f"<td>{esc(fmt(r.get(c, '')))}</td>" for c in cols) + "</tr>" for r in rows)
    return f'<table id="{ident}"><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>'


def cores_view(cores):
    cols = ["x", "y"] + [k for k in (cores[0].keys() if cores else []) if k not in ("x", "y")]
    for c in cores:
        cols += [k for k in c if k not in cols]
    return "<h2>Cores</h2>" + table(cores, cols, "cores")


def layers_view(stats, cores):
    """Per layer: its cores, MACs and busiest core per inference, and its share of the
    critical stage (the busiest core of the chip sets the pipeline's rate)."""
    n = stats.get("inferences") or 1
    layers = {}
    for c in cores:
        layers.setdefault(str(c.get("node", "?")), []).append(c)
    top = max([c.get("busy_cycles", 0) for c in cores] + [0]) or 1
    rows = []
    for name, cs in layers.items():
        busy = max(c.get("busy_cycles", 0) for c in cs)
        row = {"layer": name, "cores": len(cs)}
        if any("macs" in c for c in cs):
            row["MACs/inference"] = sum(c.get("macs", 0) for c in cs) // n
        row["busiest core cycles/inference"] = round(busy / n, 2)
        row["share of critical stage"] = f"{100 * busy / top:.1f}%"
        rows.append(row)
    cols = []
    for r in rows:
        cols += [k for k in r if k not in cols]
    return "<h2>Layers</h2>" + table(rows, cols, "layers")


def roofline_view(stats, cores):
    """Achieved against bound, per layer and overall, as bars on a log scale. A layer's bound is
    its MACs per inference over its cores' MAC rate (macs_per_cycle_per_core); a target whose
    figures have no MAC rate shows the overall bars only. The overall bound is roofline_bound_cycles:
    the target's whole roofline (on northpole the higher of compute and host I/O)."""
    n = stats.get("inferences") or 1
    rate = stats.get("macs_per_cycle_per_core")
    bars = []
    if "cycles_per_inference" in stats and "roofline_bound_cycles" in stats:
        bars.append(("overall", stats["cycles_per_inference"], stats["roofline_bound_cycles"]))
    if rate:
        layers = {}
        for c in cores:
            layers.setdefault(str(c.get("node", "?")), []).append(c)
        for name, cs in layers.items():
            macs = sum(c.get("macs", 0) for c in cs) / n
            if macs > 0:
                bars.append((name, max(c.get("busy_cycles", 0) for c in cs) / n, macs / (len(cs) * rate)))
    if not bars:
        return ""
    top = max(max(a, b) for _, a, b in bars)
    lo = min(min(v for v in (a, b) if v > 0) for _, a, b in bars if a > 0 or b > 0)
    lo = 10 ** math.floor(math.log10(lo)) if lo > 0 else 1
    span = max(math.log10(top / lo), 1e-9) if top > 0 else 1
    W, BAR, LABEL = 520, 9, 90
    width = lambda v: 0 if v <= 0 else max(1.0, (math.log10(v / lo)) / span * W)
    out = [f'<svg id="roofline" xmlns="http://www.w3.org/2000/svg" width="{LABEL + W + 60}" height="{len(bars) * 26 + 10}">']
    for i, (name, achieved, bound) in enumerate(bars):
        y = i * 26 + 4
        out.append(f'<text x="{LABEL - 4}" y="{y + 14}" text-anchor="end" font-size="12">{esc(name)}</text>')
        out.append(f'<rect class="achieved" x="{LABEL}" y="{y}" width="{width(achieved):.1f}" height="{BAR}" fill="#d9534f">'
                   f'<title>{esc(name)}: achieved {fmt(float(achieved))} cycles/inference</title></rect>')
        out.append(f'<rect class="bound" x="{LABEL}" y="{y + BAR + 1}" width="{width(bound):.1f}" height="{BAR}" fill="#5b8def">'
                   f'<title>{esc(name)}: bound {fmt(float(bound))} cycles/inference</title></rect>')
        ratio = achieved / bound if bound > 0 else 0
        out.append(f'<text x="{LABEL + max(width(achieved), width(bound)) + 4}" y="{y + 14}" font-size="11">{ratio:.2f}x</text>')
    out.append("</svg>")
    return ("<h2>Roofline</h2><p>Cycles per inference on a log scale from "
            f"{fmt(float(lo))}: achieved (red) against the bound (blue: a layer's compute bound; overall "
            "the roofline, which on northpole is the higher of the compute and host-I/O ceilings), "
            "and their ratio.</p>" + "".join(out))


CAT_COLOURS = {"compute": "#d9534f", "send": "#5b8def", "recv": "#cccccc", "wait": "#999999",
               "stream": "#5cb85c", "sync": "#f0ad4e", "exchange": "#9b59b6"}


def load_trace(path):
    with open(path) as f:
        t = json.load(f)
    events = t.get("traceEvents") if isinstance(t, dict) else None
    if not isinstance(events, list):
        raise ValueError(f"{path}: no traceEvents (expected nc-run --trace output)")
    return events


def gantt_view(events):
    """The spans of one steady-state frame (the middle inference of the run), one row per track,
    cycles on the x axis: which core works when, and where the frame waits."""
    names, spans = {}, []
    for e in events:
        if e.get("ph") == "M" and e.get("name") == "thread_name":
            names[(e["pid"], e["tid"])] = e["args"]["name"]
        elif e.get("ph") == "X" and "inference" in e.get("args", {}):
            spans.append(e)
    if not spans:
        return ""
    frame = max(e["args"]["inference"] for e in spans) // 2
    spans = [e for e in spans if e["args"]["inference"] == frame and e["args"].get("cycles", 0) > 0]
    if not spans:
        return ""
    t0 = min(e["args"]["start_cycle"] for e in spans)
    t1 = max(e["args"]["start_cycle"] + e["args"]["cycles"] for e in spans)
    tracks = sorted({(e["pid"], e["tid"]) for e in spans})
    row = {k: i for i, k in enumerate(tracks)}
    W, H, LABEL = 700, 16, 200
    sx = lambda c: LABEL + (c - t0) / max(t1 - t0, 1) * W
    out = [f'<svg id="gantt" xmlns="http://www.w3.org/2000/svg" width="{LABEL + W + 10}" height="{len(tracks) * H + 24}">']
    for k, i in row.items():
        out.append(f'<text x="{LABEL - 4}" y="{i * H + 12}" text-anchor="end" font-size="11">{esc(names.get(k, k))}</text>')
    for e in spans:
        a = e["args"]
        x0, x1 = sx(a["start_cycle"]), sx(a["start_cycle"] + a["cycles"])
        out.append(f'<rect class="span" x="{x0:.2f}" y="{row[(e["pid"], e["tid"])] * H + 2}" width="{max(x1 - x0, 0.5):.2f}" '
                   f'height="{H - 4}" fill="{CAT_COLOURS.get(e.get("cat"), "#777777")}"><title>'
                   + esc(f"{e.get('cat', '')} {e.get('name', '')}: cycles {a['start_cycle']}..{a['start_cycle'] + a['cycles']}")
                   + "</title></rect>")
    y = len(tracks) * H + 16
    out.append(f'<text x="{LABEL}" y="{y}" font-size="11">cycle {t0}</text>'
               f'<text x="{LABEL + W}" y="{y}" text-anchor="end" font-size="11">cycle {t1}</text></svg>')
    legend = ", ".join(f'<span style="color:{c}">&#9632;</span> {k}' for k, c in CAT_COLOURS.items())
    return (f"<h2>Schedule</h2><p>Inference {frame} (the run's middle frame), from --trace: {len(spans)} spans on "
            f"{len(tracks)} tracks. {legend}.</p>" + "".join(out))


def memory_view(events, links=False):
    """Each counter of the trace (northpole: a core's buffered bytes) as a step line over the
    whole run, one small chart per counter, with its peak; links=True: the link-load counters
    ("link load ...", 1 while the link carries a message; "bytes sent ...", a core's bytes sent so
    far, on a target that models no links) instead."""
    series = {}
    for e in events:
        if e.get("ph") == "C" and e["name"].startswith(("link load ", "bytes sent ")) == links:
            for k, v in e.get("args", {}).items():
                name = e["name"] if k == "value" else f"{e['name']} {k}"
                series.setdefault(name, []).append((float(e["ts"]), float(v)))
    if not series:
        return ""
    t1 = max(t for pts in series.values() for t, _ in pts) or 1.0
    W, H, LABEL = 700, 34, 200
    out = [f'<svg id="{"linkload" if links else "memory"}" xmlns="http://www.w3.org/2000/svg" width="{LABEL + W + 120}" height="{len(series) * (H + 6) + 20}">']
    for i, (name, pts) in enumerate(sorted(series.items())):
        pts.sort()
        top = max(v for _, v in pts)
        peak = top or 1.0  # the scale; an all-zero counter is drawn flat at 0
        shown = int(top) if top.is_integer() else top  # exact, as the trace has it
        y0 = i * (H + 6) + H
        xy, last = [f"{LABEL},{y0}"], y0
        for t, v in pts:
            x = LABEL + t / t1 * W
            y = y0 - v / peak * (H - 4)
            xy.append(f"{x:.1f},{last:.1f}")
            xy.append(f"{x:.1f},{y:.1f}")
            last = y
        xy.append(f"{LABEL + W},{last:.1f}")
        out.append(f'<text x="{LABEL - 4}" y="{y0 - 4}" text-anchor="end" font-size="11">{esc(name)}</text>')
        out.append(f'<polyline class="counter" points="{" ".join(xy)}" fill="none" stroke="#5b8def"><title>'
                   + esc(f"{name}: peak {shown}") + "</title></polyline>")
        out.append(f'<text x="{LABEL + W + 4}" y="{y0 - 4}" font-size="11">peak {esc(fmt(shown))}</text>')
    out.append(f'<text x="{LABEL}" y="{len(series) * (H + 6) + 14}" font-size="11">0 us</text>'
               f'<text x="{LABEL + W}" y="{len(series) * (H + 6) + 14}" text-anchor="end" font-size="11">{fmt(t1)} us</text></svg>')
    if links:
        return (f"<h2>Link load over time</h2><p>The trace's link-load counters over the whole run ({len(series)} "
                "links or cores that carried data): a link's is high while it carries a message; a target that "
                "models no links (xbar) counts the bytes each core has sent so far instead.</p>" + "".join(out))
    return (f"<h2>Memory over time</h2><p>The trace's counters over the whole run ({len(series)}), each scaled "
            "to its own peak.</p>" + "".join(out))


def target_heatmap(stats, cores, view, ident):
    """A target's heatmap view: one per-core figure, coloured here (no script)."""
    key = view.get("figure")
    w, h = mesh_shape(stats, cores)
    vals = {}
    for c in cores:
        v = c.get(key)
        if isinstance(v, (int, float)) and not isinstance(v, bool):
            vals[(c["x"], c["y"])] = vals.get((c["x"], c["y"]), 0) + v
    top = max(list(vals.values()) + [0]) or 1
    out = [f'<svg id="{ident}" xmlns="http://www.w3.org/2000/svg" width="{w * CELL + 2}" height="{h * CELL + 2}">']
    for y in range(h):
        for x in range(w):
            v = vals.get((x, y))
            fill = "#eeeeee" if v is None else colour(v / top)
            tip = f"core ({x}, {y}): " + ("unused" if v is None else f"{key} = {fmt(v)}")
            out.append(f'<rect class="tcell" x="{x * CELL + 1}" y="{y * CELL + 1}" width="{CELL - 2}" height="{CELL - 2}" '
                       f'fill="{fill}" stroke="#999999"><title>{esc(tip)}</title></rect>')
    out.append("</svg>")
    return out, f"white 0, red {fmt(top)}"


def target_layer_bars(stats, cores, view, ident):
    """A target's per-layer bars: one per-core figure summed over each layer's cores."""
    key = view.get("figure")
    layers = {}
    for c in cores:
        v = c.get(key)
        if isinstance(v, (int, float)) and not isinstance(v, bool):
            name = str(c.get("node", "?"))
            layers[name] = layers.get(name, 0) + v
    top = max(list(layers.values()) + [0]) or 1
    W, LABEL = 480, 90
    out = [f'<svg id="{ident}" xmlns="http://www.w3.org/2000/svg" width="{LABEL + W + 120}" height="{len(layers) * 18 + 6}">']
    for i, (name, v) in enumerate(layers.items()):
        y = i * 18 + 3
        out.append(f'<text x="{LABEL - 4}" y="{y + 11}" text-anchor="end" font-size="11">{esc(name)}</text>')
        out.append(f'<rect class="tbar" x="{LABEL}" y="{y}" width="{max(v / top * W, 0.5):.1f}" height="13" fill="#5b8def">'
                   f'<title>{esc(name)}: {esc(key)} = {esc(fmt(v))}</title></rect>')
        out.append(f'<text x="{LABEL + v / top * W + 4:.1f}" y="{y + 11}" font-size="11">{esc(fmt(v))}</text>')
    out.append("</svg>")
    return out, f"{key} per layer"


TARGET_VIEWS = {"heatmap": target_heatmap, "layer_bars": target_layer_bars}


def load_views(path):
    if not path:
        return []
    with open(path) as f:
        views = json.load(f)
    if not isinstance(views, list) or not all(isinstance(v, dict) and v.get("kind") in TARGET_VIEWS
                                              and isinstance(v.get("figure"), str) for v in views):
        raise ValueError(f"{path}: expected a list of views with a kind ({', '.join(TARGET_VIEWS)}) and a figure")
    return views


def target_views(stats, cores, views):
    """The views the target supplies through its simulator (nc_target_sim.report_views): generic
    kinds over its own figures, so a new target adds views without an edit here."""
    parts = []
    for i, v in enumerate(views):
        svg, scale = TARGET_VIEWS[v["kind"]](stats, cores, v, f"view{i}")
        title = v.get("title", v["figure"])
        note = f' {esc(v["note"])}.' if v.get("note") else ""
        parts.append(f'<h2 class="target-view">{esc(title)}</h2><p>From the target ({esc(v["kind"])} of '
                     f'<code>{esc(v["figure"])}</code>; {esc(scale)}).{note}</p>' + "".join(svg))
    return parts


def graph_views(paths):
    """Graph pictures (nc-compile --report): an SVG from Graphviz inlined, a .dot named with a note."""
    parts = []
    for p in paths or []:
        name = os.path.basename(p)
        if p.endswith(".svg"):
            with open(p) as f:
                text = f.read()
            i = text.find("<svg")
            if i < 0:
                raise ValueError(f"{p}: not an SVG")
            parts.append(f'<h2 class="graph">Graph: {esc(name)}</h2>' + text[i:])
        else:
            parts.append(f'<h2 class="graph">Graph: {esc(name)}</h2><p>Graphviz is not installed, so the picture '
                         f'is the Graphviz text <code>{esc(name)}</code> beside this page (render it with '
                         f'<code>dot -Tsvg {esc(name)}</code>).</p>')
    return parts


def quant_view(path):
    if not path:
        return ""
    with open(path) as f:
        q = json.load(f)
    layers = q.get("layers", q) if isinstance(q, dict) else q
    if not isinstance(layers, list) or not all(isinstance(r, dict) for r in layers):
        raise ValueError(f"{path}: expected a list of layers (or an object with 'layers')")
    cols = []
    for r in layers:
        cols += [k for k in r if k not in cols]
    return "<h2>Quantization</h2>" + table(layers, cols, "quant")


STYLE = """body{font:14px sans-serif;margin:1.5em;color:#222}table{border-collapse:collapse}
td,th{border:1px solid #ccc;padding:2px 6px;text-align:right}th{background:#f3f3f3}
rect.core{stroke:#999;stroke-width:1}svg{display:block;margin:.5em 0}"""

SCRIPT = """(function(){
var sel=document.getElementById('metric');if(!sel)return;
function paint(){var k='data-'+sel.value.replace(/_/g,'-'),cells=document.querySelectorAll('rect.core'),max=0,i,v;
for(i=0;i<cells.length;i++){v=parseFloat(cells[i].getAttribute(k));if(v>max)max=v;}
for(i=0;i<cells.length;i++){v=parseFloat(cells[i].getAttribute(k));
if(isNaN(v)){cells[i].setAttribute('fill','#eeeeee');continue;}
var t=max>0?v/max:0,g=Math.round(255-200*t),b=Math.round(255-230*t);
cells[i].setAttribute('fill','rgb(255,'+g+','+b+')');}}
sel.addEventListener('change',paint);paint();})();"""


def trace_views(path):
    if not path:
        return []
    events = load_trace(path)
    return [gantt_view(events), memory_view(events), memory_view(events, links=True)]


def render(stats, quant_path, title, trace_path=None, views=(), graphs=()):
    cores = stats.get("cores", [])
    if not isinstance(cores, list) or not all(isinstance(c, dict) and "x" in c and "y" in c for c in cores):
        raise ValueError("'cores' must be a list of objects with x and y")
    summary = {k: v for k, v in stats.items() if not isinstance(v, (list, dict))}
    srows = "".join(f"<tr><th>{esc(k)}</th><td>{esc(fmt(v))}</td></tr>" for k, v in summary.items())
    parts = [f"<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>{esc(title)}</title>",
             f"<style>{STYLE}</style></head><body><h1>{esc(title)}</h1>",
             f'<h2>Summary</h2><table id="summary">{srows}</table>',
             heatmap(stats, cores), links_view(stats, cores), layers_view(stats, cores), roofline_view(stats, cores),
             *trace_views(trace_path), *target_views(stats, cores, views), cores_view(cores), quant_view(quant_path),
             *graph_views(graphs),
             f"<script>{SCRIPT}</script></body></html>\n"]
    return "".join(parts)


def main(argv):
    ap = argparse.ArgumentParser(prog="nc_report.py", description=__doc__.splitlines()[0])
    ap.add_argument("stats", help="nc-run --stats-json output")
    ap.add_argument("-o", "--output", required=True, help="directory to write index.html into")
    ap.add_argument("--quant-report", help="nc-compile --quant-report JSON")
    ap.add_argument("--trace", help="nc-run --trace output of the same run (schedule view)")
    ap.add_argument("--title", help="page title (default: nc report: TARGET)")
    ap.add_argument("--views", help="the target's views (JSON list; nc-run --report writes views.json)")
    ap.add_argument("--quiet", action="store_true", help="no note on stderr (the tools say where the page is)")
    ap.add_argument("--graph", action="append", help="a graph picture to show (.svg inlined, .dot named)")
    a = ap.parse_args(argv)
    try:
        with open(a.stats) as f:
            stats = json.load(f)
        if not isinstance(stats, dict):
            raise ValueError("expected a JSON object")
        page = render(stats, a.quant_report, a.title or f"nc report: {stats.get('target', '?')}", a.trace,
                      load_views(a.views), a.graph)
    except (OSError, ValueError, KeyError, TypeError) as e:  # json's errors are ValueErrors
        print(f"nc_report.py: error: {a.stats}: {e}", file=sys.stderr)
        return 1
    os.makedirs(a.output, exist_ok=True)
    dest = os.path.join(a.output, "index.html")
    tmp = dest + ".tmp"
    with open(tmp, "w") as f:
        f.write(page)
    os.replace(tmp, dest)  # a failed run leaves an existing report untouched
    beside = os.path.join(a.output, "stats.json")
    if not os.path.exists(beside) or not os.path.samefile(a.stats, beside):
        with open(tmp, "w") as f:  # the figures beside the page they drew
            json.dump(stats, f, indent=1)
        os.replace(tmp, beside)
    if not a.quiet:
        print(f"nc_report.py: wrote {dest}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
