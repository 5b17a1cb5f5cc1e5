#!/usr/bin/python3
"""check_trace.py: checks an `nc-run --trace` file the way a viewer reads it.

  check_trace.py TRACE.json [--stats STATS.json] [--capped N]

- it is Chrome trace-event JSON: an object with traceEvents and
  displayTimeUnit; every event has a known phase and the fields it needs;
- ts and dur are the cycles in args converted at otherData.clock_hz;
- on every track (pid, tid) the "X" events never overlap (any two are
  disjoint or one contains the other) and every track with events is named;
- with --stats: per core ("core (x, y) ..." tracks), the compute cycles
  summed over each of the core's tracks, taking the busiest unit, equal the
  per-core busy_cycles of `nc-run --stats-json` (every core of the figures);
- async spans ("b"/"e" pairs: work that overlaps on one unit, xbar's sends): each
  "b" has one "e" with the same pid, cat, name (the async track) and id, ids are
  unique, the "e" is at or after the "b", and ts are the cycles in the b's args;
  with --stats, the bytes of each core's async sends ("core (x, y) sends") add up to
  its bytes_sent, and its "bytes sent (x, y)" counter never decreases over time and
  ends at that figure; a "partial sums (x, y)" counter (what a core holds for its
  digital unit) is never negative, ends at 0 and peaks at its peak_partial_sum_bytes;
- with --capped N: exactly N events were kept, the rest dropped, and the
  file says so (otherData.note, a process label and a global instant).
Prints one summary line per check for FileCheck; exits 1 on a failure.
"""
import argparse
import collections
import json
import re
import sys


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("trace")
    ap.add_argument("--stats")
    ap.add_argument("--capped", type=int)
    a = ap.parse_args()
    with open(a.trace) as f:
        doc = json.load(f)
    if not isinstance(doc, dict) or not isinstance(doc.get("traceEvents"), list) or "displayTimeUnit" not in doc:
        fail("not a trace-event object with traceEvents and displayTimeUnit")
    clock = doc["otherData"]["clock_hz"]
    names, spans, counters, instants, labels = {}, collections.defaultdict(list), 0, [], []
    async_open, async_ids, asyncs = {}, set(), []
    for e in doc["traceEvents"]:
        ph = e.get("ph")
        if ph == "M":
            if e["name"] == "thread_name":
                names[(e["pid"], e["tid"])] = e["args"]["name"]
            elif e["name"] == "process_labels":
                labels.append(e["args"]["labels"])
        elif ph == "X":
            for k in ("pid", "tid", "ts", "dur", "name", "cat"):
                if k not in e:
                    fail("X event without %s: %r" % (k, e))
            start, cyc = e["args"]["start_cycle"], e["args"]["cycles"]
            if abs(e["ts"] - start * 1e6 / clock) > 1e-3 or abs(e["dur"] - cyc * 1e6 / clock) > 1e-3:
                fail("ts/dur are not the cycles at the clock: %r" % e)
            if cyc <= 0:
                fail("empty span %r" % e)
            spans[(e["pid"], e["tid"])].append((start, start + cyc, e))
        elif ph == "C":
            if not isinstance(e["args"].get("value"), (int, float)):
                fail("counter without a value: %r" % e)
            counters += 1
        elif ph == "i":
            instants.append(e)
        elif ph in ("b", "e"):
            for k in ("pid", "ts", "name", "cat", "id"):
                if k not in e:
                    fail("%s event without %s: %r" % (ph, k, e))
            key = (e["pid"], e["cat"], e["name"], e["id"])
            if ph == "b":
                if key in async_open or e["id"] in async_ids:
                    fail("async id used twice: %r" % e)
                start, cyc = e["args"]["start_cycle"], e["args"]["cycles"]
                if abs(e["ts"] - start * 1e6 / clock) > 1e-3 or cyc <= 0:
                    fail("async begin: ts is not the start cycle at the clock, or no cycles: %r" % e)
                async_open[key] = e
                async_ids.add(e["id"])
            else:
                b = async_open.pop(key, None)
                if b is None:
                    fail("async end without its begin (same pid, cat, name, id): %r" % e)
                a0 = b["args"]
                if abs(e["ts"] - (a0["start_cycle"] + a0["cycles"]) * 1e6 / clock) > 1e-3:
                    fail("async end is not at the begin's start + cycles: %r" % e)
                asyncs.append(b)
        else:
            fail("unknown phase %r" % ph)
    n_spans = sum(len(v) for v in spans.values())
    print("parsed: %d spans on %d tracks, %d counters" % (n_spans, len(spans), counters))
    if async_open:
        fail("async begin without its end: %r" % next(iter(async_open.values())))
    if asyncs:
        print("async: %d spans on %d async tracks, every begin has its end, categories: %s" % (
            len(asyncs), len({(b["pid"], b["name"]) for b in asyncs}), " ".join(sorted({b["cat"] for b in asyncs}))))
    for track, evs in spans.items():
        if track not in names:
            fail("track %r has events but no name" % (track,))
        evs.sort(key=lambda s: (s[0], -s[1]))
        stack = []
        for s, t, e in evs:
            while stack and stack[-1] <= s:
                stack.pop()
            if stack and t > stack[-1]:
                fail("events overlap on track %s: %r" % (names[track], e))
            stack.append(t)
    print("tracks: no overlap, properly nested")
    cats = sorted({s[2]["cat"] for v in spans.values() for s in v})
    print("categories: " + " ".join(cats))
    if a.stats:
        with open(a.stats) as f:
            stats = json.load(f)
        busy = collections.defaultdict(lambda: collections.defaultdict(int))
        for track, evs in spans.items():
            m = re.match(r"core \((\d+), (\d+)\)", names[track])
            if m:
                core = (int(m.group(1)), int(m.group(2)))
                busy[core][track] += sum(t - s for s, t, e in evs if e["cat"] == "compute")
        cores = stats["cores"]
        for c in cores:
            xy = (c.get("x", 0), c.get("y", 0))  # a one-core target may not say where its core is
            if not busy[xy] and c.get("busy_cycles", 1):  # a copy for frames the run never had is idle
                fail("core %r of the figures has no track with spans" % (xy,))
            got = max(busy[xy].values(), default=0)
            if got != c["busy_cycles"]:
                fail("core %r: %d busy cycles in the trace, %d in --stats-json" % (xy, got, c["busy_cycles"]))
        print("busy cycles equal --stats-json on %d cores" % len(cores))
        # link-load counters ("link load (x, y) east [psum]": 1 busy, 0 idle): the busy time of
        # each link summed from the trace equals the busy_cycles of its --stats-json link
        steps = collections.defaultdict(list)
        for e in doc["traceEvents"]:
            if e.get("ph") == "C" and e["name"].startswith("link load "):
                steps[e["name"]].append((round(e["ts"] * clock / 1e6), e["args"]["value"]))
        if steps:
            step = {"east": (1, 0), "west": (-1, 0), "south": (0, 1), "north": (0, -1)}
            want = {}
            for l in stats.get("links", []):
                (fx, fy), (tx, ty) = l["from"], l["to"]
                d = [k for k, v in step.items() if v == (tx - fx, ty - fy)][0]
                psum = " psum" if l["network"] == "partial_sum" else ""
                want[f"link load ({fx}, {fy}) {d}{psum}"] = l["busy_cycles"]
            for name, pts in steps.items():
                busy, since = 0, None
                for t, v in pts:  # written in time order, alternating 1 and 0, ending at 0
                    if v == 1 and since is None:
                        since = t
                    elif v == 0 and since is not None:
                        busy, since = busy + t - since, None
                    else:
                        fail("%s: not alternating busy/idle at cycle %d" % (name, t))
                if since is not None or busy != want.get(name):
                    fail("%s: %d busy cycles in the trace, %r in --stats-json" % (name, busy, want.get(name)))
            if set(steps) != set(want):
                fail("links in the trace and --stats-json differ: %r" % (set(steps) ^ set(want)))
            print("link loads: %d links, busy cycles equal --stats-json" % len(steps))
        # bytes sent per core (xbar): the async sends and the "bytes sent (x, y)" counters against bytes_sent
        sent = collections.defaultdict(int)
        for b in asyncs:
            m = re.match(r"core \((\d+), (\d+)\) sends$", b["name"])
            if m:
                sent[(int(m.group(1)), int(m.group(2)))] += b["args"].get("bytes", 0)
        series = collections.defaultdict(list)
        for e in doc["traceEvents"]:
            m = re.match(r"bytes sent \((\d+), (\d+)\)$", e["name"]) if e.get("ph") == "C" else None
            if m:
                series[(int(m.group(1)), int(m.group(2)))].append((e["ts"], e["args"]["value"]))
        if sent or series:
            want = {(c.get("x", 0), c.get("y", 0)): c.get("bytes_sent", 0) for c in cores}
            for xy in set(want) | set(sent) | set(series):
                if sent.get(xy, 0) != want.get(xy, 0):
                    fail("core %r: %d bytes in its async sends, %r in --stats-json" % (xy, sent.get(xy, 0), want.get(xy)))
                pts = sorted(series.get(xy, []), key=lambda p: p[0])  # as a viewer orders them
                if any(b[1] < a[1] for a, b in zip(pts, pts[1:])):
                    fail("bytes sent %r decreases over time" % (xy,))
                if (pts[-1][1] if pts else 0) != want.get(xy, 0):
                    fail("core %r: bytes sent counter ends at %r, --stats-json says %r" % (
                        xy, pts[-1][1] if pts else None, want.get(xy)))
            print("bytes sent: %d cores, async sends and counters equal --stats-json" % len(
                [v for v in want.values() if v]))
        # partial sums a core holds (xbar): never negative, all used by the end, the peak equals
        # peak_partial_sum_bytes of --stats-json
        held = collections.defaultdict(list)
        for e in doc["traceEvents"]:
            m = re.match(r"partial sums \((\d+), (\d+)\)$", e["name"]) if e.get("ph") == "C" else None
            if m:
                held[(int(m.group(1)), int(m.group(2)))].append((e["ts"], e["args"]["value"]))
        want = {(c["x"], c["y"]): c["peak_partial_sum_bytes"] for c in cores if "peak_partial_sum_bytes" in c}
        if held or want:
            for xy in set(held) | set(want):
                pts = held.get(xy, [])
                if any(v < 0 for _, v in pts) or (pts and pts[-1][1] != 0):
                    fail("partial sums %r: negative or not all used at the end: %r" % (xy, pts[-3:]))
                if max([v for _, v in pts] + [0]) != want.get(xy):
                    fail("partial sums %r: peak %r in the trace, %r in --stats-json" % (
                        xy, max([v for _, v in pts] + [0]), want.get(xy)))
            print("partial sums held: %d cores, never negative, all used, peaks equal --stats-json" % len(want))
    dropped = doc["otherData"]["dropped_events"]
    if a.capped is not None:
        kept = n_spans + counters + len(asyncs)
        if kept != a.capped or doc["otherData"]["events"] != a.capped or dropped <= 0:
            fail("expected %d events kept and some dropped, got %d kept, %d dropped" % (a.capped, kept, dropped))
        note = doc["otherData"].get("note", "")
        if "capped" not in note or note not in labels or not any(i["name"] == note for i in instants):
            fail("a capped trace does not say so")
        print("capped: %d kept, %d dropped: %s" % (kept, dropped, note))
    elif dropped:
        fail("%d events dropped" % dropped)


main()
