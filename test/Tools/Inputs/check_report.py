"""check_report.py: parses nc_report.py's page as a browser's parser would and checks it
against the --stats-json it came from: one heatmap cell per core of the chip, the used cells
are the cores of the figures, and the cores table holds each core's figures."""
import json
import re
import sys
import xml.etree.ElementTree as ET
from html.parser import HTMLParser


class Page(HTMLParser):
    def __init__(self):
        super().__init__()
        self.cells, self.used, self.stack, self.tables, self.cur = 0, set(), [], {}, None
        self.svg = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "rect" and "core" in a.get("class", "").split():
            self.cells += 1
            if "used" in a["class"].split():
                self.used.add(a["x"] + "," + a["y"])
        if tag == "table":
            self.cur = a.get("id")
            self.tables[self.cur] = []
        if tag == "tr" and self.cur:
            self.tables[self.cur].append([])
        if tag in ("td", "th") and self.cur:
            self.tables[self.cur][-1].append("")
        self.stack.append(tag)

    def handle_endtag(self, tag):
        if tag == "table":
            self.cur = None
        self.stack.pop()

    def handle_data(self, d):
        if self.cur and self.stack and self.stack[-1] in ("td", "th"):
            self.tables[self.cur][-1][-1] += d


page_text = open(sys.argv[1]).read()
stats = json.load(open(sys.argv[2]))
p = Page()
p.feed(page_text)
assert not p.stack[2:], f"unclosed tags: {p.stack}"
# every inline SVG is well-formed XML
start = 0
while (i := page_text.find("<svg", start)) >= 0:
    j = page_text.index("</svg>", i) + 6
    ET.fromstring(page_text[i:j])
    start = j
print(f"heatmap: {p.cells} cells for cores_total {stats['cores_total']}")
xy = {(c["x"], c["y"]) for c in stats["cores"]}
assert len(p.used) == len(xy), (p.used, xy)
print(f"used cells: {len(p.used)} = cores in the figures")
rows = p.tables["cores"]
head, body = rows[0], rows[1:]
assert len(body) == len(stats["cores"])
for row, c in zip(body, stats["cores"]):
    got = dict(zip(head, row))
    assert int(got["busy_cycles"]) == c["busy_cycles"], (got, c)
print(f"cores table: {len(body)} rows, busy_cycles equal --stats-json")
layers = {c["node"] for c in stats["cores"]}
lrows = p.tables["layers"][1:]
assert sorted(r[0] for r in lrows) == sorted(layers), (lrows, layers)
assert any(r[-1] == "100.0%" for r in lrows)
print(f"layers table: {len(lrows)} layers, the critical one at 100.0%")
summary = dict(p.tables["summary"][i] for i in range(len(p.tables["summary"])))
assert int(summary["total_cycles"]) == stats["total_cycles"]
print(f"summary: total_cycles {summary['total_cycles']}")
import re
roof = re.findall(r"<title>([^<:]*): (achieved|bound) ([0-9.e+-]+) cycles/inference</title>", page_text)
if roof:
    got = {(n, k): float(v) for n, k, v in roof}
    want = stats["cycles_per_inference"]
    assert abs(got[("overall", "achieved")] - want) <= 1e-3 * want, (got, want)
    bound = stats["roofline_bound_cycles"]
    assert abs(got[("overall", "bound")] - bound) <= 1e-3 * bound, (got, bound)
    print(f"roofline: {len(roof) // 2} bars, overall equals --stats-json")
if len(sys.argv) > 3:  # the trace the schedule view came from
    ev = json.load(open(sys.argv[3]))["traceEvents"]
    xs = [e for e in ev if e.get("ph") == "X" and "inference" in e.get("args", {})]
    frame = max(e["args"]["inference"] for e in xs) // 2
    want = [e for e in xs if e["args"]["inference"] == frame and e["args"]["cycles"] > 0]
    drawn = page_text.count('<rect class="span"')
    assert drawn == len(want), (drawn, len(want))
    print(f"schedule: inference {frame}, {drawn} spans = the trace's")
    peaks = {}
    for e in ev:
        if e.get("ph") == "C":
            peaks[e["name"]] = max(peaks.get(e["name"], 0), e["args"]["value"])
    drawn = re.findall(r'<polyline class="counter"[^>]*><title>([^<]*): peak ([0-9.e+]+)</title>', page_text)
    assert {n: float(v) for n, v in drawn} == {n: float(v) for n, v in peaks.items()}, (drawn, peaks)
    print(f"memory: {len(drawn)} counters, peaks equal the trace's")
for t in sorted(p.tables):
    if t not in ("cores", "summary", "layers"):
        print(f"table {t}: {len(p.tables[t]) - 1} rows")
# the target's own views (nc_target_sim.report_views): each heatmap cell holds the core's figure
views = re.findall(r'<h2 class="target-view">([^<]*)</h2><p>From the target \((heatmap|layer_bars) of <code>([^<]*)</code>',
                   page_text)
for title, kind, key in views:
    if kind == "heatmap":
        want = {}
        for c in stats["cores"]:
            if key in c:
                want[(c["x"], c["y"])] = want.get((c["x"], c["y"]), 0) + c[key]
        got = {(int(x), int(y)): float(v) for x, y, v in
               re.findall(r'<title>core \((\d+), (\d+)\): ' + re.escape(key) + r' = ([0-9.e+-]+)</title>', page_text)}
        assert got.keys() == want.keys() and all(abs(got[k] - want[k]) <= 1e-3 * abs(want[k]) + 1e-9 for k in want), (got, want)
    else:
        want = {}
        for c in stats["cores"]:
            if key in c:
                want[c["node"]] = want.get(c["node"], 0) + c[key]
        got = {n: float(v) for n, v in re.findall(r'<title>([^<:]*): ' + re.escape(key) + r' = ([0-9.e+-]+)</title>', page_text)}
        assert got.keys() == want.keys() and all(abs(got[k] - want[k]) <= 1e-3 * abs(want[k]) + 1e-9 for k in want), (got, want)
    print(f"target view: {title} ({kind} of {key}), equal --stats-json")
graphs = re.findall(r'<h2 class="graph">Graph: ([^<]*)</h2>', page_text)
if graphs:
    print("graphs: " + " ".join(graphs))
