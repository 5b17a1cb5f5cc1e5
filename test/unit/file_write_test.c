/* file_write_test.c: the atomic output files of nc/support/file.h. A failed
 * or abandoned write leaves an existing file as it was and no temporary file
 * behind; devices are written in place and never removed; symlinks survive;
 * the mode of a replaced file is kept; errors name the file.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "nc/support/file.h"

static char dir[] = "/tmp/nc_file_write_XXXXXX";

static char *path_of(const char *name)
{
  static char buf[4][256];
  static int slot;
  char *p = buf[slot++ % 4];
  snprintf(p, 256, "%s/%s", dir, name);
  return p;
}

static char *slurp(const char *path)
{
  static char buf[256];
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  size_t n = fread(buf, 1, sizeof buf - 1, f);
  buf[n] = 0;
  fclose(f);
  return buf;
}

static size_t count_entries(void)
{
  DIR *d = opendir(dir);
  size_t n = 0;
  for (struct dirent *e; (e = readdir(d));)
    n += e->d_name[0] != '.' || (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."));
  closedir(d);
  return n;
}

static void test_new_and_replace(void)
{
  char err[512];
  const char *p = path_of("a.txt");
  CHECK(nc_file_write_all(p, "one", 3, err, sizeof err), "new file: %s", err);
  CHECK(!strcmp(slurp(p), "one"), "new file content");
  chmod(p, 0640);
  CHECK(nc_file_write_all(p, "two", 3, err, sizeof err), "replace: %s", err);
  CHECK(!strcmp(slurp(p), "two"), "replaced content");
  struct stat st;
  CHECK(stat(p, &st) == 0 && (st.st_mode & 0777) == 0640, "the mode is kept: %o", st.st_mode & 0777);
  CHECK(count_entries() == 1, "no temporary file left: %zu entries", count_entries());
}

static void test_abort_keeps_old(void)
{
  char err[512];
  const char *p = path_of("a.txt");
  nc_file_writer *w = nc_file_writer_open(p, err, sizeof err);
  CHECK(w != NULL, "open: %s", err);
  fputs("half", nc_file_writer_stream(w));
  nc_file_writer_abort(w);
  CHECK(!strcmp(slurp(p), "two"), "abort leaves the old content: %s", slurp(p));
  CHECK(count_entries() == 1, "abort removes its temporary file");
  const char *q = path_of("never.txt");
  w = nc_file_writer_open(q, err, sizeof err);
  nc_file_writer_abort(w);
  CHECK(access(q, F_OK) != 0, "an abandoned new file never appears");
}

static void test_symlink(void)
{
  char err[512];
  const char *link = path_of("link.txt");
  CHECK(symlink("a.txt", link) == 0, "symlink");
  CHECK(nc_file_write_all(link, "three", 5, err, sizeof err), "through a link: %s", err);
  struct stat st;
  CHECK(lstat(link, &st) == 0 && S_ISLNK(st.st_mode), "the link stays a link");
  CHECK(!strcmp(slurp(path_of("a.txt")), "three"), "its target is replaced");
  unlink(link);
}

static void test_devices(void)
{
  char err[512];
  CHECK(!nc_file_write_all("/dev/full", "x", 1, err, sizeof err), "/dev/full fails");
  CHECK(strstr(err, "/dev/full: write failed") != NULL, "message: %s", err);
  struct stat st;
  CHECK(stat("/dev/full", &st) == 0 && S_ISCHR(st.st_mode), "/dev/full survives");
  CHECK(nc_file_write_all("/dev/null", "x", 1, err, sizeof err), "/dev/null: %s", err);
  CHECK(stat("/dev/null", &st) == 0 && S_ISCHR(st.st_mode), "/dev/null survives");
}

static void test_errors(void)
{
  char err[512];
  CHECK(!nc_file_write_all(path_of("missing/x.txt"), "x", 1, err, sizeof err), "missing directory fails");
  CHECK(strstr(err, "missing/x.txt: cannot create: No such file or directory") != NULL, "message: %s",
        err);
  CHECK(!nc_file_write_all(dir, "x", 1, err, sizeof err), "a directory fails");
  CHECK(strstr(err, ": is a directory") != NULL, "message: %s", err);
}

int main(void)
{
  if (!mkdtemp(dir)) {
    perror("mkdtemp");
    return 1;
  }
  test_new_and_replace();
  test_abort_keeps_old();
  test_symlink();
  test_devices();
  test_errors();
  unlink(path_of("a.txt"));
  rmdir(dir);
  return failures ? 1 : 0;
}
