/* file_write.c: atomic output files (see include/nc/support/file.h).
 *
 * Why a temporary file and rename: a tool that fails halfway (disk full, a
 * verifier error after the output was opened) must leave the previous output
 * intact, and must never remove something it did not create: deleting the
 * output on failure once deleted /dev/full when run as root. Devices, pipes
 * and sockets cannot be renamed over, so they are written in place and never
 * removed. Symlinks are resolved so the link itself survives.
 */
#include "nc/support/file.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

struct nc_file_writer {
  FILE *f;
  char *path;     /* the name the user gave (for messages) */
  char *target;   /* what the temporary file is renamed to (symlinks resolved); NULL: write in place */
  char *tmp;      /* the temporary file; NULL when writing in place */
  bool is_stdout; /* "-" */
};

bool nc_file_error(char *err, size_t errlen, const char *path, const char *fmt, ...)
{
  if (!err || !errlen)
    return false;
  int n = snprintf(err, errlen, "%s: ", path);
  if (n < 0 || (size_t)n >= errlen)
    return false;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(err + n, errlen - (size_t)n, fmt, ap);
  va_end(ap);
  return false;
}

static char *dup_string(const char *s)
{
  size_t n = strlen(s) + 1;
  return memcpy(nc_xmalloc(n), s, n);
}

static void writer_free(nc_file_writer *w)
{
  free(w->path);
  free(w->target);
  free(w->tmp);
  free(w);
}

/* Creates a fresh file next to `target` (same directory, so rename is atomic)
 * with O_EXCL, so nothing existing is ever opened; the mode follows the umask
 * like a plain fopen would, or copies the mode of the file being replaced. */
static int create_temp(const char *target, const struct stat *old, char **tmp_out)
{
  static atomic_uint counter;
  const char *slash = strrchr(target, '/');
  size_t dir_len = slash ? (size_t)(slash - target) + 1 : 0;
  const char *base = slash ? slash + 1 : target;
  size_t cap = dir_len + strlen(base) + 64;
  char *tmp = nc_xmalloc(cap);
  for (int attempt = 0; attempt < 100; attempt++) {
    unsigned n = atomic_fetch_add(&counter, 1);
    snprintf(tmp, cap, "%.*s.%s.tmp%ld.%u.%ld", (int)dir_len, target, base, (long)getpid(), n,
             (long)(clock() ^ (long)time(NULL)) & 0xffff);
    int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, old ? (old->st_mode & 07777) : 0666);
    if (fd >= 0) {
      if (old)
        (void)fchmod(fd, old->st_mode & 07777);
      *tmp_out = tmp;
      return fd;
    }
    if (errno != EEXIST)
      break;
  }
  int saved = errno;
  free(tmp);
  errno = saved;
  return -1;
}

nc_file_writer *nc_file_writer_open(const char *path, char *err, size_t errlen)
{
  nc_file_writer *w = nc_xcalloc(1, sizeof *w);
  w->path = dup_string(path);
  if (!strcmp(path, "-")) {
    w->f = stdout;
    w->is_stdout = true;
    return w;
  }
  struct stat st;
  bool exists = stat(path, &st) == 0; /* follows symlinks */
  if (exists && !S_ISREG(st.st_mode)) {
    if (S_ISDIR(st.st_mode)) {
      nc_file_error(err, errlen, path, "is a directory");
      writer_free(w);
      return NULL;
    }
    /* a device, pipe or socket: write in place, never remove */
    if (!(w->f = fopen(path, "wb"))) {
      nc_file_error(err, errlen, path, "cannot open for writing: %s", strerror(errno));
      writer_free(w);
      return NULL;
    }
    return w;
  }
  struct stat lst;
  if (lstat(path, &lst) == 0 && S_ISLNK(lst.st_mode)) {
    char *real = exists ? realpath(path, NULL) : NULL;
    if (!real) { /* a dangling link: writing through it creates its target in place */
      if (!(w->f = fopen(path, "wb"))) {
        nc_file_error(err, errlen, path, "cannot open for writing: %s", strerror(errno));
        writer_free(w);
        return NULL;
      }
      return w;
    }
    w->target = real;
  } else {
    w->target = dup_string(path);
  }
  if (exists && access(w->target, W_OK) != 0) {
    nc_file_error(err, errlen, path, "cannot open for writing: %s", strerror(errno));
    writer_free(w);
    return NULL;
  }
  int fd = create_temp(w->target, exists ? &st : NULL, &w->tmp);
  if (fd < 0 || !(w->f = fdopen(fd, "wb"))) {
    int saved = errno;
    if (fd >= 0) {
      close(fd);
      unlink(w->tmp);
    }
    nc_file_error(err, errlen, path, "%s: %s", exists ? "cannot open for writing" : "cannot create", strerror(saved));
    writer_free(w);
    return NULL;
  }
  return w;
}

FILE *nc_file_writer_stream(nc_file_writer *w) { return w->f; }

bool nc_file_writer_commit(nc_file_writer *w, char *err, size_t errlen)
{
  bool ok = fflush(w->f) == 0 && !ferror(w->f);
  int saved = errno;
  if (!w->is_stdout && fclose(w->f) != 0 && ok)
    ok = false, saved = errno;
  if (w->is_stdout)
    clearerr(stdout);
  if (!ok) {
    nc_file_error(err, errlen, w->path, "write failed: %s", saved ? strerror(saved) : "I/O error");
    if (w->tmp)
      unlink(w->tmp);
    writer_free(w);
    return false;
  }
  if (w->tmp && rename(w->tmp, w->target) != 0) {
    saved = errno;
    unlink(w->tmp);
    nc_file_error(err, errlen, w->path, "cannot replace: %s", strerror(saved));
    writer_free(w);
    return false;
  }
  writer_free(w);
  return true;
}

void nc_file_writer_abort(nc_file_writer *w)
{
  if (!w)
    return;
  if (w->is_stdout)
    fflush(stdout);
  else
    fclose(w->f);
  if (w->tmp)
    unlink(w->tmp);
  writer_free(w);
}

bool nc_file_write_all(const char *path, const void *data, size_t size, char *err, size_t errlen)
{
  nc_file_writer *w = nc_file_writer_open(path, err, errlen);
  if (!w)
    return false;
  if (size && fwrite(data, 1, size, w->f) != size) {
    int saved = errno;
    nc_file_writer_abort(w);
    nc_file_error(err, errlen, path, "write failed: %s", strerror(saved));
    return false;
  }
  return nc_file_writer_commit(w, err, errlen);
}
