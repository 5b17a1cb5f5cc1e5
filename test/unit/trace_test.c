/* trace_test.c: unit tests of the trace sink (include/nc/runtime/nc_trace.h):
 * the file parses as JSON (with jansson, independent of the hand-written
 * writer), times are the cycles at the clock as exact decimals, names are
 * escaped, the cap keeps the first events and says so, and a failed write
 * is reported.
 */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nc/runtime/nc_trace.h"

#include "check.h"

/* Writes a trace with `fill` into memory and parses it. */
static json_t *traced(uint64_t max_events, void (*fill)(nc_trace *), char **text)
{
  size_t len = 0;
  FILE *f = open_memstream(text, &len);
  nc_trace *tr = nc_trace_create(f, max_events);
  fill(tr);
  CHECK(nc_trace_finish(tr), "finish");
  fclose(f);
  json_error_t e;
  json_t *doc = json_loads(*text, 0, &e);
  CHECK(doc, "the trace does not parse: %s at %d:%d", e.text, e.line, e.column);
  return doc;
}

static json_t *event(json_t *doc, const char *ph, size_t nth)
{
  json_t *evs = json_object_get(doc, "traceEvents"), *e;
  size_t i;
  json_array_foreach(evs, i, e)
    if (!strcmp(json_string_value(json_object_get(e, "ph")), ph) && nth-- == 0)
      return e;
  return NULL;
}

static void fill_basic(nc_trace *tr)
{
  nc_trace_set_clock(tr, 400000000); /* 2.5 ns a cycle */
  nc_trace_name_group(tr, 1, "chip");
  nc_trace_name_track(tr, 1, 7, "core (1, 2) \"conv\"\\\n\x01");
  nc_trace_complete(tr, 1, 7, "compute", "conv", 3, 1, 0);
  nc_trace_complete(tr, 1, 7, "send", "send", 4, 5, -1);
  nc_trace_counter(tr, 1, "buffer bytes (1, 2)", 9, 12.5);
}

static void test_basic(void)
{
  char *text = NULL;
  json_t *doc = traced(0, fill_basic, &text);
  CHECK(strstr(text, "\"ts\":0.0075,\"dur\":0.0025,"), "exact decimal microseconds: %s", text);
  json_t *x = event(doc, "X", 0), *y = event(doc, "X", 1), *c = event(doc, "C", 0);
  CHECK(x && y && c, "events");
  if (x && y && c) {
    double end = json_real_value(json_object_get(x, "ts")) + json_real_value(json_object_get(x, "dur"));
    CHECK(fabs(end - json_real_value(json_object_get(y, "ts"))) < 1e-12, "abutting spans");
    json_t *args = json_object_get(x, "args");
    CHECK(json_integer_value(json_object_get(args, "start_cycle")) == 3 &&
              json_integer_value(json_object_get(args, "cycles")) == 1 &&
              json_integer_value(json_object_get(args, "inference")) == 0,
          "cycles in args");
    CHECK(!json_object_get(json_object_get(y, "args"), "inference"), "no inference for -1");
    CHECK(json_real_value(json_object_get(json_object_get(c, "args"), "value")) == 12.5, "counter value");
  }
  json_t *m = event(doc, "M", 2); /* process_name, process_sort_index, thread_name */
  CHECK(m && !strcmp(json_string_value(json_object_get(json_object_get(m, "args"), "name")),
                     "core (1, 2) \"conv\"\\\n\x01"),
        "escaped names round-trip");
  json_t *other = json_object_get(doc, "otherData");
  CHECK(json_integer_value(json_object_get(other, "events")) == 3 &&
            json_integer_value(json_object_get(other, "dropped_events")) == 0 && !json_object_get(other, "note"),
        "counts");
  json_decref(doc);
  free(text);
}

static void fill_many(nc_trace *tr)
{
  nc_trace_name_group(tr, 0, "host");
  for (int i = 0; i < 5; i++)
    nc_trace_complete(tr, 0, 0, "stream", "x", (uint64_t)i * 10, 10, i);
  nc_trace_counter(tr, 0, "c", 60, 1);
  CHECK(nc_trace_num_events(tr) == 2 && nc_trace_num_dropped(tr) == 4, "kept 2, dropped 4");
}

static void test_cap(void)
{
  char *text = NULL;
  json_t *doc = traced(2, fill_many, &text);
  CHECK(event(doc, "X", 1) && !event(doc, "X", 2) && !event(doc, "C", 0), "the first two events kept");
  json_t *other = json_object_get(doc, "otherData");
  const char *note = json_string_value(json_object_get(other, "note"));
  CHECK(note && !strcmp(note, "trace capped at 2 events: 4 later events dropped"), "note: %s", note ? note : "none");
  json_t *i = event(doc, "i", 0);
  CHECK(i && !strcmp(json_string_value(json_object_get(i, "name")), note ? note : ""), "an instant says so");
  CHECK(i && fabs(json_real_value(json_object_get(i, "ts")) - 0.02) < 1e-12, "at the end of what was kept");
  json_decref(doc);
  free(text);
}

static void test_clock(void)
{
  char buf[512] = "";
  FILE *f = fmemopen(buf, sizeof buf - 1, "w");
  nc_trace *tr = nc_trace_create(f, 0);
  nc_trace_set_clock(tr, 1500000000); /* 3 cycles = 2 ns */
  nc_trace_complete(tr, 1, 1, "compute", "a", 3, 3, -1);
  CHECK(nc_trace_finish(tr), "finish");
  fclose(f);
  CHECK(strstr(buf, "\"ts\":0.00200,\"dur\":0.00200,"), "1.5 GHz: %s", buf);
}

static void test_huge(void)
{
  char buf[512] = "";
  FILE *f = fmemopen(buf, sizeof buf - 1, "w");
  nc_trace *tr = nc_trace_create(f, 0);
  nc_trace_set_clock(tr, 1); /* 10^6 us a cycle: saturated cycles overflow 64 bits of microseconds */
  nc_trace_complete(tr, 1, 1, "compute", "a", UINT64_MAX - 1, 1, -1);
  CHECK(nc_trace_finish(tr), "finish");
  fclose(f);
  CHECK(strstr(buf, "\"ts\":18446744073709551615,"), "saturated: %s", buf);
}

static void test_write_error(void)
{
  FILE *f = fopen("/dev/full", "w");
  if (!f)
    return; /* no /dev/full here */
  nc_trace *tr = nc_trace_create(f, 0);
  nc_trace_complete(tr, 1, 1, "compute", "a", 0, 1, -1);
  CHECK(!nc_trace_finish(tr), "a failed write is reported");
  fclose(f);
}

/* What a BSP target writes: per tile a compute span, a superstep (sync, then exchange), and the exchange's
 * transfers as async spans on the tile's async track, two of them overlapping. */
static void fill_bsp(nc_trace *tr)
{
  nc_trace_set_clock(tr, 1000000000);
  nc_trace_name_group(tr, 1, "chip (bsp)");
  nc_trace_name_track(tr, 1, 1, "tile (0, 0)");
  nc_trace_complete(tr, 1, 1, NC_TRACE_COMPUTE, "conv", 0, 10, 0);
  nc_trace_superstep(tr, 1, 1, 10, 4, 6, 0);
  nc_trace_superstep(tr, 1, 1, 20, 0, 3, 0); /* no wait at the barrier: no sync span */
  nc_trace_async(tr, 1, "tile (0, 0) sends", NC_TRACE_EXCHANGE, "to (1, 0)", 14, 5, 64, 0);
  nc_trace_async(tr, 1, "tile (0, 0) sends", NC_TRACE_EXCHANGE, "to (0, 1)", 15, 5, 0, -1);
}

static void test_bsp(void)
{
  char *text = NULL;
  json_t *doc = traced(0, fill_bsp, &text);
  json_t *sync = event(doc, "X", 1), *ex = event(doc, "X", 2), *ex2 = event(doc, "X", 3);
  CHECK(sync && !strcmp(json_string_value(json_object_get(sync, "cat")), "sync") &&
            !strcmp(json_string_value(json_object_get(sync, "name")), "sync") &&
            json_integer_value(json_object_get(json_object_get(sync, "args"), "start_cycle")) == 10 &&
            json_integer_value(json_object_get(json_object_get(sync, "args"), "cycles")) == 4,
        "a sync span from the arrival at the barrier");
  CHECK(ex && !strcmp(json_string_value(json_object_get(ex, "cat")), "exchange") &&
            json_integer_value(json_object_get(json_object_get(ex, "args"), "start_cycle")) == 14 &&
            json_integer_value(json_object_get(json_object_get(ex, "args"), "cycles")) == 6,
        "an exchange span from the release");
  CHECK(ex2 && !strcmp(json_string_value(json_object_get(ex2, "cat")), "exchange") && !event(doc, "X", 4),
        "a superstep without sync time: only its exchange");
  /* the async pairs: b then e, same name, category and id, ids distinct, ts at the clock, args on the b */
  json_t *b0 = event(doc, "b", 0), *e0 = event(doc, "e", 0), *b1 = event(doc, "b", 1), *e1 = event(doc, "e", 1);
  CHECK(b0 && e0 && b1 && e1 && !event(doc, "b", 2), "two async pairs");
  if (b0 && e0 && b1 && e1) {
    CHECK(json_integer_value(json_object_get(b0, "id")) == json_integer_value(json_object_get(e0, "id")) &&
              json_integer_value(json_object_get(b1, "id")) == json_integer_value(json_object_get(e1, "id")) &&
              json_integer_value(json_object_get(b0, "id")) != json_integer_value(json_object_get(b1, "id")),
          "one id per async span");
    CHECK(!strcmp(json_string_value(json_object_get(b0, "name")), "tile (0, 0) sends") &&
              !strcmp(json_string_value(json_object_get(e0, "name")), "tile (0, 0) sends") &&
              !strcmp(json_string_value(json_object_get(e0, "cat")), "exchange"),
          "named by the async track");
    CHECK(fabs(json_real_value(json_object_get(b0, "ts")) - 0.014) < 1e-12 &&
              fabs(json_real_value(json_object_get(e0, "ts")) - 0.019) < 1e-12,
          "b at the start, e at the end");
    json_t *args = json_object_get(b0, "args");
    CHECK(!strcmp(json_string_value(json_object_get(args, "what")), "to (1, 0)") &&
              json_integer_value(json_object_get(args, "bytes")) == 64 &&
              json_integer_value(json_object_get(args, "cycles")) == 5 &&
              json_integer_value(json_object_get(args, "inference")) == 0,
          "what, bytes, cycles and inference in the args");
    CHECK(!json_object_get(json_object_get(b1, "args"), "bytes") &&
              !json_object_get(json_object_get(b1, "args"), "inference"),
          "no bytes for 0, no inference for -1");
  }
  CHECK(json_integer_value(json_object_get(json_object_get(doc, "otherData"), "events")) == 6,
        "an async pair counts as one event");
  json_decref(doc);
  free(text);
}

int main(void)
{
  test_bsp();
  test_basic();
  test_cap();
  test_clock();
  test_huge();
  test_write_error();
  return failures != 0;
}
