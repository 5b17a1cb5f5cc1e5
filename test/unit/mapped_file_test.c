/* mapped_file_test.c: an input file truncated while nc has it mapped
 * (nc/support/mapped.h). The record finds the file and offset of an address;
 * a child process that touches a truncated mapping, raw or through the ONNX
 * loader (the model file mapped, an initializer copied out after the file
 * shrank), prints one line naming the file and exits with status 1 instead
 * of dying by SIGBUS; a SIGBUS outside any recorded mapping keeps its
 * default action, also after a second install. Runs from test/unit/.
 */
#include "../../dialects/graph/onnx/onnx_proto.h" /* private: the mapped initializers */

#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "nc/support/mapped.h"

#if defined(__SANITIZE_ADDRESS__)
#define TEST_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TEST_ASAN 1
#endif
#endif
#ifndef TEST_ASAN
#define TEST_ASAN 0
#endif

static char dir[] = "/tmp/nc_mapped_XXXXXX";
static char path[256];

/* Runs fn in a child with the handler installed and its stderr captured into
 * out[0..n); returns the wait status. */
static int in_child(void (*fn)(void), char *out, size_t n)
{
  int fds[2];
  if (pipe(fds))
    return -1;
  fflush(NULL);
  pid_t pid = fork();
  if (pid == 0) {
    close(fds[0]);
    dup2(fds[1], 2);
    nc_mapped_file_install_handler("mapped_file_test");
    fn();
    _exit(0); /* the touch did not fault */
  }
  close(fds[1]);
  size_t len = 0;
  ssize_t r;
  while (len + 1 < n && (r = read(fds[0], out + len, n - 1 - len)) > 0)
    len += (size_t)r;
  out[len] = 0;
  close(fds[0]);
  int status = -1;
  waitpid(pid, &status, 0);
  return status;
}

/* 64 KB of file, mapped and recorded, then cut to one page and read at 32 KB. */
static void touch_truncated(void)
{
  int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
  static char buf[65536];
  memset(buf, 7, sizeof buf);
  if (fd < 0 || write(fd, buf, sizeof buf) != (ssize_t)sizeof buf)
    _exit(3);
  const volatile char *m = mmap(NULL, sizeof buf, PROT_READ, MAP_PRIVATE, fd, 0);
  if (m == MAP_FAILED)
    _exit(3);
  nc_mapped_file_add((const void *)m, sizeof buf, path);
  if (m[40000] != 7 || ftruncate(fd, 4096))
    _exit(4);
  (void)m[32768];
}

/* The digits model loaded (mapped, initializers in place), the file cut to
 * 1 KB, then the largest initializer copied out. */
static void load_truncated(void)
{
  FILE *src = fopen("../../examples/digits/digits_cnn.onnx", "rb"), *dst = fopen(path, "wb");
  char buf[4096];
  size_t k;
  while (src && dst && (k = fread(buf, 1, sizeof buf, src)) > 0)
    fwrite(buf, 1, k, dst);
  if (!src || !dst || fclose(dst))
    _exit(3);
  char err[512];
  nc_onnx_model *m = nc_onnx_model_load(path, err, sizeof err);
  if (!m)
    _exit(3);
  Onnx__GraphProto *g = m->proto->graph;
  Onnx__TensorProto *big = NULL;
  for (size_t i = 0; i < g->n_initializer; i++)
    if (g->initializer[i]->has_raw_data && (!big || g->initializer[i]->raw_data.len > big->raw_data.len))
      big = g->initializer[i];
  if (!big || big->raw_data.len < 16384 || truncate(path, 1024))
    _exit(4);
  nc_tensor_destroy(nc_onnx_model_tensor_to_host(m, big, err, sizeof err));
}

static void raise_sigbus(void) { raise(SIGBUS); }

/* A second install (a tool that also imports the Python extension) must not
 * record the handler itself as the action from before. */
static void install_again_and_raise(void)
{
  nc_mapped_file_install_handler("again");
  alarm(20); /* a handler chaining to itself would loop */
  raise(SIGBUS);
}

int main(void)
{
  if (!mkdtemp(dir))
    return 1;
  snprintf(path, sizeof path, "%s/model.onnx", dir);

  /* the record: find by address, forget on remove */
  static const char region[100];
  nc_mapped_file_add(region, sizeof region, "a.bin");
  size_t off = 0;
  const char *p = nc_mapped_file_find(region + 42, &off);
  CHECK(p && !strcmp(p, "a.bin") && off == 42, "found %s at %zu", p ? p : "nothing", off);
  CHECK(!nc_mapped_file_find(region + sizeof region, NULL), "one past the end is outside");
  nc_mapped_file_remove(region);
  CHECK(!nc_mapped_file_find(region + 42, NULL), "removed");

  char out[1024], want[512];
  int st = in_child(touch_truncated, out, sizeof out);
  snprintf(want, sizeof want, "mapped_file_test: error: %s: the file was truncated while mapped_file_test was "
           "reading it (byte 32768 is gone)\n", path);
  CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 1, "raw mapping: status %#x, stderr '%s'", st, out);
  CHECK(!strcmp(out, want), "raw mapping: stderr '%s'", out);

  st = in_child(load_truncated, out, sizeof out);
  snprintf(want, sizeof want, "mapped_file_test: error: %s: the file was truncated while mapped_file_test was "
           "reading it (byte ", path);
  CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 1, "ONNX loader: status %#x, stderr '%s'", st, out);
  CHECK(!strncmp(out, want, strlen(want)), "ONNX loader: stderr '%s'", out);

  /* Another SIGBUS goes to the handler that was there before: the default
   * one (killed by SIGBUS), or under ASan the sanitizer's (a report, abort). */
  st = in_child(raise_sigbus, out, sizeof out);
#if TEST_ASAN
  CHECK(strstr(out, "AddressSanitizer") && strstr(out, "BUS"), "another SIGBUS: status %#x, stderr '%s'", st, out);
#else
  CHECK(WIFSIGNALED(st) && WTERMSIG(st) == SIGBUS, "another SIGBUS: status %#x, stderr '%s'", st, out);
  CHECK(!out[0], "another SIGBUS: stderr '%s'", out);
#endif
  st = in_child(install_again_and_raise, out, sizeof out);
#if !TEST_ASAN
  CHECK(WIFSIGNALED(st) && WTERMSIG(st) == SIGBUS, "installed twice, another SIGBUS: status %#x, stderr '%s'", st,
        out);
#else
  CHECK(strstr(out, "AddressSanitizer") && strstr(out, "BUS"), "installed twice: status %#x, stderr '%s'", st, out);
#endif

  unlink(path);
  rmdir(dir);
  return failures != 0;
}
