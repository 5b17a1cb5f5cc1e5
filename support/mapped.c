/* mapped.c: the record of mapped input files and the SIGBUS handler that
 * turns a fault in one into a diagnostic (see include/nc/support/mapped.h).
 *
 * The record is a fixed table of slots, so the handler reads it without
 * locks or allocation: a slot is published by storing its base last
 * (release) and retired by clearing the base first. Writers take a mutex
 * only against each other.
 */
#include "nc/support/mapped.h"

#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { SLOTS = 64 };

typedef struct slot {
  _Atomic uintptr_t base; /* 0: free */
  size_t len;
  char *path;
} slot;

static slot slots[SLOTS];
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static const char *tool_name = "nc";
static struct sigaction previous;

void nc_mapped_file_add(const void *base, size_t len, const char *path)
{
  if (!base || !len)
    return;
  size_t n = strlen(path) + 1;
  char *copy = memcpy(nc_xmalloc(n), path, n);
  pthread_mutex_lock(&lock);
  for (size_t i = 0; i < SLOTS; i++)
    if (!atomic_load_explicit(&slots[i].base, memory_order_relaxed)) {
      slots[i].len = len;
      slots[i].path = copy;
      atomic_store_explicit(&slots[i].base, (uintptr_t)base, memory_order_release);
      copy = NULL;
      break;
    }
  pthread_mutex_unlock(&lock);
  free(copy); /* the table is full */
}

void nc_mapped_file_remove(const void *base)
{
  if (!base)
    return;
  pthread_mutex_lock(&lock);
  for (size_t i = 0; i < SLOTS; i++)
    if (atomic_load_explicit(&slots[i].base, memory_order_relaxed) == (uintptr_t)base) {
      atomic_store_explicit(&slots[i].base, 0, memory_order_release);
      free(slots[i].path);
      slots[i].path = NULL;
      break;
    }
  pthread_mutex_unlock(&lock);
}

const char *nc_mapped_file_find(const void *addr, size_t *offset)
{
  uintptr_t a = (uintptr_t)addr;
  for (size_t i = 0; i < SLOTS; i++) {
    uintptr_t b = atomic_load_explicit(&slots[i].base, memory_order_acquire);
    if (b && a >= b && a - b < slots[i].len) {
      if (offset)
        *offset = (size_t)(a - b);
      return slots[i].path;
    }
  }
  return NULL;
}

/* write(2) of a NUL-terminated string, ignoring failures (in a handler). */
static void put(const char *s)
{
  for (size_t n = strlen(s); n;) {
    ssize_t w = write(2, s, n);
    if (w <= 0)
      return;
    s += w;
    n -= (size_t)w;
  }
}

static void put_size(size_t v)
{
  char buf[32], *p = buf + sizeof buf;
  *--p = 0;
  do
    *--p = (char)('0' + v % 10);
  while (v /= 10);
  put(p);
}

static void on_sigbus(int sig, siginfo_t *info, void *context)
{
  (void)context;
  size_t offset = 0;
  const char *path = info ? nc_mapped_file_find(info->si_addr, &offset) : NULL;
  if (path) {
    put(tool_name);
    put(": error: ");
    put(path);
    put(": the file was truncated while ");
    put(tool_name);
    put(" was reading it (byte ");
    put_size(offset);
    put(" is gone)\n");
    _exit(1);
  }
  /* not an input file: the action from before; a fault repeats on return,
   * a signal sent by kill or raise is sent again */
  sigaction(sig, &previous, NULL);
  if (!info || info->si_code <= 0)
    raise(sig);
}

void nc_mapped_file_install_handler(const char *tool)
{
  static atomic_bool installed;
  tool_name = tool;
  if (atomic_exchange(&installed, true))
    return; /* a second install would record itself as the action from before: a loop on other faults */
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_sigaction = on_sigbus;
  sa.sa_flags = SA_SIGINFO;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGBUS, &sa, &previous);
}
