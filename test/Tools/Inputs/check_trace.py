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
        else:
            fail("unknown phase %r" % ph)
    n_spans = sum(len(v) for v in spans.values())
    print("parsed: %d spans on %d tracks, %d counters" % (n_spans, len(spans), counters))
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
            if not busy[xy]:
                fail("core %r of the figures has no track with spans" % (xy,))
            got = max(busy[xy].values())
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
    dropped = doc["otherData"]["dropped_events"]
    if a.capped is not None:
        kept = n_spans + counters
        if kept != a.capped or doc["otherData"]["events"] != a.capped or dropped <= 0:
            fail("expected %d events kept and some dropped, got %d kept, %d dropped" % (a.capped, kept, dropped))
        note = doc["otherData"].get("note", "")
        if "capped" not in note or note not in labels or not any(i["name"] == note for i in instants):
            fail("a capped trace does not say so")
        print("capped: %d kept, %d dropped: %s" % (kept, dropped, note))
    elif dropped:
        fail("%d events dropped" % dropped)


main()
