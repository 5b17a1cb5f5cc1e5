"""steady_state.py: bench/bench_northpole.py's steady-state check on frame end
cycles made up to show each case (the digits CNN's jitter, a pipeline still
filling), with and without the absolute floor. Prints one line per case."""
import os
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(sys.argv[1], "bench"))
import bench_northpole  # noqa: E402


def ends_of(period, n, jitter=(), start=100):
    """n frame ends at a steady `period`, frame i moved by jitter[i % len(jitter)] cycles."""
    return [start + period * i + (jitter[i % len(jitter)] if jitter else 0) for i in range(n)]


def show(name, ends, floor):
    cpi, steady = bench_northpole.steady_state(ends, 0.03, floor)
    print("%s floor=%g: %.3f cycles/frame, %s" % (name, floor, cpi, "steady" if steady else "not steady"))


# An 8-cycle pace whose frame 23 (the second half's quarter boundary) ends 3 cycles late: the
# first quarter takes 8.375 cycles per frame, the last 7.625, 0.75 more where 3% is 0.23: steady
# only with the floor. 12 cycles late (9.5 against 6.5): 3 cycles per frame more, above the floor.
jittery = ends_of(8, 32)
jittery[23] += 3
show("jitter 3", jittery, 0)
show("jitter 3", jittery, 1)
jittery[23] += 9
show("jitter 12", jittery, 1)
# A deep pipeline still filling: 20,000 cycles per frame falling to 18,000; no floor of a few cycles
# hides 1,000 cycles per frame.
filling = [0]
for i in range(1, 32):
    filling.append(filling[-1] + max(18000, 22000 - 150 * i))
show("filling", filling, 1)
# Steady at 18,000 cycles per frame with the same 12 cycles of jitter: steady with or without the floor.
big = ends_of(18000, 32)
big[23] += 12
show("big", big, 0)
show("big", big, 1)


def too_fast(name, cpi, busiest, frames, bound):
    why = bench_northpole.window_too_fast(cpi, busiest, frames, bound, 0.01)
    print("%s: %s" % (name, why or "window kept"))


# mobilenet_v2 at 8 bits over frames 16..32: 4,604 cycles per frame against the host link's ceiling of
# 4,704 (the run's last frames drain faster): the two-run difference. At the ceiling, or above it, kept.
too_fast("below ceiling", 4604, 3000 * 32, 32, 4704)
too_fast("at ceiling", 4704, 3000 * 32, 32, 4704)
# A burst: 3,224 cycles per frame where the busiest core computes and sends 40,000 a frame.
too_fast("below busiest", 3224, 40000 * 32, 32, 30000)
# vgg11 at 4 bits in session 22: a window of 16,853 cycles per frame where the busiest core's
# compute and sends are 17,157 a frame (1.8% under: a burst); 0.5% under is kept (resnet50 at 8 bits).
too_fast("1.8% under busiest", 16853, 17157 * 32, 32, 14686)
too_fast("0.5% under busiest", 22701, 22820 * 32, 32, 15599)
# No bound known (older stats): only the busiest core decides.
too_fast("no bound", 4604, 3000 * 32, 32, None)
