/* nc_trace.h: a simulated run as a timeline (nc-run --trace=FILE).
 *
 * A target's simulator reports what each of its units does and when, in
 * cycles, to an nc_trace sink; the sink writes Chrome trace-event JSON (the
 * format Perfetto and chrome://tracing load): "X" complete events with ts
 * and dur in microseconds at the chip's clock (the cycles kept in args),
 * "C" counters, "M" metadata naming the tracks, "b"/"e" pairs for spans
 * that overlap on one unit (async). Tracks are (group, track)
 * pairs, a process and a thread in the viewer: a target puts one track per
 * core or tile (or per unit of a core) and the host's streams on their own.
 * Events on one track must not overlap. The writer streams (nothing is held
 * in memory) and stops after a cap on the number of events, saying so in the
 * file, so large runs stay loadable.
 *
 * Plain C, no dependency but libc: this is in the runtime library.
 */
#ifndef NC_RUNTIME_NC_TRACE_H
#define NC_RUNTIME_NC_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "nc/support/base.h"

#ifdef __cplusplus
extern "C" {
#endif

/** A trace being written. */
typedef struct nc_trace nc_trace;

/** The default cap on the number of events of a trace. */
#define NC_TRACE_DEFAULT_MAX_EVENTS 1000000

/** Starts a trace on `out` (which the caller keeps and closes) that keeps at
 * most `max_events` events (0: the default cap); writes the file's head. */
NC_GIVE nc_trace *nc_trace_create(FILE *out, uint64_t max_events);

/** Sets the clock that converts cycles to microseconds (the chip's; a
 * simulator calls it before its first event). Without it, 1 GHz. */
void nc_trace_set_clock(nc_trace *tr, uint64_t clock_hz);

/** Names a group of tracks (a process in the viewer: "chip", "host") and
 * orders it among the groups. */
void nc_trace_name_group(nc_trace *tr, int group, const char *name);

/** Names a track of a group (a thread in the viewer: "core (3, 4) conv1");
 * tracks are shown in the order of their numbers. */
void nc_trace_name_track(nc_trace *tr, int group, int track, const char *name);

/** A span of `cycles` cycles from cycle `start` on a track: `category` is
 * what kind of work ("compute", "send", "recv", "wait", "sync",
 * "exchange", "stream"), `name` what it is ("conv1 it 3..5");
 * `inference` (or -1) which inference it belongs to. */
void nc_trace_complete(nc_trace *tr, int group, int track, const char *category, const char *name, uint64_t start,
                       uint64_t cycles, int64_t inference);

/** The categories of spans, by convention (the report colours and sums them
 * by category; any other string is allowed):
 *  - NC_TRACE_COMPUTE: a unit computing; per core, the compute spans of its
 *    busiest track add up to the core's busy_cycles figure;
 *  - NC_TRACE_SEND, NC_TRACE_RECV, NC_TRACE_WAIT: a port sending, a unit
 *    waiting for data, a unit waiting on its schedule;
 *  - NC_TRACE_SYNC: a bulk-synchronous (BSP) target's tile waiting at a
 *    barrier, from its arrival to the barrier's release: one span per tile
 *    and superstep on the tile's own track, so sync time per tile is the
 *    sum of its sync spans;
 *  - NC_TRACE_EXCHANGE: a BSP exchange phase on a tile's track, from the
 *    release to the end of the tile's last transfer of the phase (the
 *    transfers themselves, which overlap, as async spans below);
 *  - NC_TRACE_STREAM: the host streaming data in or out. */
#define NC_TRACE_COMPUTE "compute"
#define NC_TRACE_SEND "send"
#define NC_TRACE_RECV "recv"
#define NC_TRACE_WAIT "wait"
#define NC_TRACE_SYNC "sync"
#define NC_TRACE_EXCHANGE "exchange"
#define NC_TRACE_STREAM "stream"

/** A superstep of a BSP target on one tile's track: `sync_cycles` at the
 * barrier from `start` (a NC_TRACE_SYNC span named "sync"), then
 * `exchange_cycles` of exchange (a NC_TRACE_EXCHANGE span named
 * "exchange"); a part of 0 cycles writes no span. */
void nc_trace_superstep(nc_trace *tr, int group, int track, uint64_t start, uint64_t sync_cycles,
                        uint64_t exchange_cycles, int64_t inference);

/** An asynchronous span: work that may overlap others of its unit (messages
 * in flight from one port at once), which a track of complete spans could
 * not hold. Written as a "b"/"e" pair of nestable async events with a fresh
 * id; `async_track` is their name, so the viewer draws all spans of one
 * async track (one per core: "core (3, 4) sends") on one row, stacked where
 * they overlap, and `name` ("psum to (3, 5)") goes in the args ("what")
 * with the cycles, the inference and `bytes` (when > 0). One event for the
 * cap. */
void nc_trace_async(nc_trace *tr, int group, const char *async_track, const char *category, const char *name,
                    uint64_t start, uint64_t cycles, uint64_t bytes, int64_t inference);

/** A counter of a group (buffer bytes of a core, bytes on a link) taking
 * `value` at cycle `at`. */
void nc_trace_counter(nc_trace *tr, int group, const char *name, uint64_t at, double value);

/** Number of events written and dropped beyond the cap so far. */
uint64_t nc_trace_num_events(const nc_trace *tr);
uint64_t nc_trace_num_dropped(const nc_trace *tr);

/** Writes the file's tail (with a note when events were dropped) and
 * frees the trace. Returns false if any write to `out` failed. */
bool nc_trace_finish(NC_TAKE nc_trace *tr);

/** Frees the trace without finishing the file (after an error). */
void nc_trace_destroy(NC_TAKE nc_trace *tr);

#ifdef __cplusplus
}
#endif

#endif
