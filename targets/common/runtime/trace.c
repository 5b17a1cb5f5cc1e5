/* trace.c: the trace sink of nc/runtime/nc_trace.h, a streaming writer of
 * Chrome trace-event JSON.
 *
 * Why streaming and hand-written: the runtime library links nothing but
 * libc (host programs link it), and a long simulation makes millions of
 * events, which a DOM (jansson) would hold in memory before writing. Times
 * are printed as fixed-point microseconds computed from integer cycles, so
 * the end of one event and the start of the next are the same decimal
 * number and abutting events never appear to overlap in the viewer.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "nc/runtime/nc_trace.h"
#include "rt_util.h"

struct nc_trace {
  FILE *out;
  uint64_t max_events, events, dropped;
  uint64_t clock_hz;
  int decimals;       /* of a microsecond, enough to show one cycle */
  uint64_t scale;     /* 10^(decimals + 6) */
  uint64_t last_end;  /* latest cycle written (for the note on a capped trace) */
  uint64_t next_id;   /* of the next async span */
  bool first, failed;
};

nc_trace *nc_trace_create(FILE *out, uint64_t max_events)
{
  nc_trace *tr = nc_rt_calloc(1, sizeof *tr);
  tr->out = out;
  tr->max_events = max_events ? max_events : NC_TRACE_DEFAULT_MAX_EVENTS;
  tr->first = true;
  nc_trace_set_clock(tr, 1000000000);
  if (fputs("{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n", out) < 0)
    tr->failed = true;
  return tr;
}

void nc_trace_set_clock(nc_trace *tr, uint64_t clock_hz)
{
  tr->clock_hz = clock_hz ? clock_hz : 1;
  tr->decimals = 0;
  tr->scale = 1000000;
  while (tr->decimals < 6 && tr->scale < 10 * tr->clock_hz) { /* one cycle is at least ten units of the last digit */
    tr->decimals++;
    tr->scale *= 10;
  }
}

/* Cycles as microseconds, in units of 10^-decimals, rounded. */
static unsigned __int128 units(const nc_trace *tr, uint64_t cycles)
{
  return ((unsigned __int128)cycles * tr->scale + tr->clock_hz / 2) / tr->clock_hz;
}

static void put_us(nc_trace *tr, unsigned __int128 u)
{
  uint64_t p = 1;
  for (int i = 0; i < tr->decimals; i++)
    p *= 10;
  if (u / p > ULLONG_MAX) /* saturated clocks at a slow clock: still a number */
    u = (unsigned __int128)ULLONG_MAX * p;
  unsigned long long whole = (unsigned long long)(u / p), frac = (unsigned long long)(u % p);
  if (tr->decimals)
    fprintf(tr->out, "%llu.%0*llu", whole, tr->decimals, frac);
  else
    fprintf(tr->out, "%llu", whole);
}

static void put_string(nc_trace *tr, const char *s)
{
  fputc('"', tr->out);
  for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
    if (*p == '"' || *p == '\\')
      fprintf(tr->out, "\\%c", *p);
    else if (*p < 0x20)
      fprintf(tr->out, "\\u%04x", *p);
    else
      fputc(*p, tr->out);
  }
  fputc('"', tr->out);
}

static void next_event(nc_trace *tr)
{
  if (!tr->first)
    fputs(",\n", tr->out);
  tr->first = false;
}

/* Whether one more counted event fits under the cap. */
static bool admit(nc_trace *tr)
{
  if (tr->events >= tr->max_events) {
    tr->dropped++;
    return false;
  }
  tr->events++;
  return true;
}

void nc_trace_name_group(nc_trace *tr, int group, const char *name)
{
  next_event(tr);
  fprintf(tr->out, "{\"ph\":\"M\",\"pid\":%d,\"tid\":0,\"name\":\"process_name\",\"args\":{\"name\":", group);
  put_string(tr, name);
  fputs("}},\n", tr->out);
  fprintf(tr->out, "{\"ph\":\"M\",\"pid\":%d,\"tid\":0,\"name\":\"process_sort_index\",\"args\":{\"sort_index\":%d}}",
          group, group);
}

void nc_trace_name_track(nc_trace *tr, int group, int track, const char *name)
{
  next_event(tr);
  fprintf(tr->out, "{\"ph\":\"M\",\"pid\":%d,\"tid\":%d,\"name\":\"thread_name\",\"args\":{\"name\":", group, track);
  put_string(tr, name);
  fputs("}},\n", tr->out);
  fprintf(tr->out, "{\"ph\":\"M\",\"pid\":%d,\"tid\":%d,\"name\":\"thread_sort_index\",\"args\":{\"sort_index\":%d}}",
          group, track, track);
}

void nc_trace_complete(nc_trace *tr, int group, int track, const char *category, const char *name, uint64_t start,
                       uint64_t cycles, int64_t inference)
{
  if (!admit(tr))
    return;
  if (start + cycles > tr->last_end)
    tr->last_end = start + cycles;
  unsigned __int128 t0 = units(tr, start), t1 = units(tr, start + cycles);
  next_event(tr);
  fprintf(tr->out, "{\"ph\":\"X\",\"pid\":%d,\"tid\":%d,\"cat\":", group, track);
  put_string(tr, category);
  fputs(",\"name\":", tr->out);
  put_string(tr, name);
  fputs(",\"ts\":", tr->out);
  put_us(tr, t0);
  fputs(",\"dur\":", tr->out);
  put_us(tr, t1 - t0);
  fprintf(tr->out, ",\"args\":{\"start_cycle\":%llu,\"cycles\":%llu", (unsigned long long)start,
          (unsigned long long)cycles);
  if (inference >= 0)
    fprintf(tr->out, ",\"inference\":%lld", (long long)inference);
  fputs("}}", tr->out);
}

void nc_trace_superstep(nc_trace *tr, int group, int track, uint64_t start, uint64_t sync_cycles,
                        uint64_t exchange_cycles, int64_t inference)
{
  if (sync_cycles)
    nc_trace_complete(tr, group, track, NC_TRACE_SYNC, "sync", start, sync_cycles, inference);
  if (exchange_cycles)
    nc_trace_complete(tr, group, track, NC_TRACE_EXCHANGE, "exchange", start + sync_cycles, exchange_cycles, inference);
}

/* One half of an async pair: the fields both halves share. */
static void async_head(nc_trace *tr, char ph, int group, const char *async_track, const char *category, uint64_t id,
                       uint64_t at)
{
  next_event(tr);
  fprintf(tr->out, "{\"ph\":\"%c\",\"pid\":%d,\"tid\":0,\"cat\":", ph, group);
  put_string(tr, category);
  fputs(",\"name\":", tr->out);
  put_string(tr, async_track);
  fprintf(tr->out, ",\"id\":%llu,\"ts\":", (unsigned long long)id);
  put_us(tr, units(tr, at));
}

void nc_trace_async(nc_trace *tr, int group, const char *async_track, const char *category, const char *name,
                    uint64_t start, uint64_t cycles, uint64_t bytes, int64_t inference)
{
  if (!admit(tr))
    return;
  if (start + cycles > tr->last_end)
    tr->last_end = start + cycles;
  uint64_t id = ++tr->next_id;
  async_head(tr, 'b', group, async_track, category, id, start);
  fputs(",\"args\":{\"what\":", tr->out);
  put_string(tr, name);
  fprintf(tr->out, ",\"start_cycle\":%llu,\"cycles\":%llu", (unsigned long long)start, (unsigned long long)cycles);
  if (bytes)
    fprintf(tr->out, ",\"bytes\":%llu", (unsigned long long)bytes);
  if (inference >= 0)
    fprintf(tr->out, ",\"inference\":%lld", (long long)inference);
  fputs("}}", tr->out);
  async_head(tr, 'e', group, async_track, category, id, start + cycles);
  fputs("}", tr->out);
}

void nc_trace_counter(nc_trace *tr, int group, const char *name, uint64_t at, double value)
{
  if (!admit(tr))
    return;
  next_event(tr);
  fprintf(tr->out, "{\"ph\":\"C\",\"pid\":%d,\"tid\":0,\"name\":", group);
  put_string(tr, name);
  fputs(",\"ts\":", tr->out);
  put_us(tr, units(tr, at));
  fprintf(tr->out, ",\"args\":{\"value\":%.17g}}", value);
}

uint64_t nc_trace_num_events(const nc_trace *tr) { return tr->events; }
uint64_t nc_trace_num_dropped(const nc_trace *tr) { return tr->dropped; }

bool nc_trace_finish(nc_trace *tr)
{
  char note[160] = "";
  if (tr->dropped) {
    snprintf(note, sizeof note, "trace capped at %llu events: %llu later events dropped",
             (unsigned long long)tr->max_events, (unsigned long long)tr->dropped);
    /* visible in the viewer: a global instant at the end of what was kept, and a label on group 0 */
    next_event(tr);
    fputs("{\"ph\":\"i\",\"s\":\"g\",\"pid\":0,\"tid\":0,\"name\":", tr->out);
    put_string(tr, note);
    fputs(",\"ts\":", tr->out);
    put_us(tr, units(tr, tr->last_end));
    fputs("},\n{\"ph\":\"M\",\"pid\":0,\"tid\":0,\"name\":\"process_labels\",\"args\":{\"labels\":", tr->out);
    put_string(tr, note);
    fputs("}}", tr->out);
  }
  fprintf(tr->out, "\n],\"otherData\":{\"generator\":\"nc\",\"clock_hz\":%llu,\"events\":%llu,\"max_events\":%llu,"
          "\"dropped_events\":%llu", (unsigned long long)tr->clock_hz, (unsigned long long)tr->events,
          (unsigned long long)tr->max_events, (unsigned long long)tr->dropped);
  if (tr->dropped) {
    fputs(",\"note\":", tr->out);
    put_string(tr, note);
  }
  fputs("}}\n", tr->out);
  bool ok = !tr->failed && fflush(tr->out) == 0 && !ferror(tr->out);
  free(tr);
  return ok;
}

void nc_trace_destroy(nc_trace *tr) { free(tr); }
