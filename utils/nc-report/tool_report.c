/* tool_report.c: --report=DIR and progress for nc-compile and nc-run.
 *
 * Why the page stays in Python: nc_report.py is one implementation of the
 * page (standard library only: json, html), which a user can also run on
 * figures saved earlier; the tools write the figures into DIR and run it,
 * rather than carry a second writer of the same page in C. Where no Python
 * can be run, the figures stay in DIR and a note says how to draw them.
 * Graphviz's `dot` renders the graph pictures when it is installed.
 */
#include "tool_report.h"

#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

bool nc_tool_report_mkdir(const char *tool, const char *dir)
{
  if (!*dir) {
    fprintf(stderr, "%s: error: --report needs a directory\n", tool);
    return false;
  }
  char *p = strdup(dir);
  bool ok = p != NULL && *p;
  for (char *s = p + 1; ok && *s; s++)
    if (*s == '/') {
      *s = 0;
      ok = !mkdir(p, 0777) || errno == EEXIST;
      *s = '/';
    }
  ok = ok && (!mkdir(p, 0777) || errno == EEXIST);
  struct stat st;
  if (ok && (stat(dir, &st) || !S_ISDIR(st.st_mode))) {
    errno = ENOTDIR;
    ok = false;
  }
  if (!ok)
    fprintf(stderr, "%s: error: --report: %s: cannot create the directory: %s\n", tool, dir, strerror(errno));
  free(p);
  return ok;
}

char *nc_tool_report_path(const char *dir, const char *name)
{
  size_t n = strlen(dir) + strlen(name) + 2;
  char *s = malloc(n);
  if (!s)
    abort();
  snprintf(s, n, "%s/%s", dir, name);
  return s;
}

/* Runs argv (argv[0] looked up on PATH) with stdout to /dev/null; its exit
 * status, or -1 if it could not be started. */
static int run(char *const *argv)
{
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
  pid_t pid;
  int rc = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
  posix_spawn_file_actions_destroy(&fa);
  if (rc)
    return -1;
  int status;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR)
      return -1;
  if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
    return -1; /* the shell's "not found" */
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

bool nc_tool_report_render_dot(const char *tool, const char *dot, const char *svg)
{
  char *argv[] = {"dot", "-Tsvg", "-o", (char *)svg, (char *)dot, NULL};
  int rc = run(argv);
  if (rc == 0)
    return true;
  if (rc < 0)
    fprintf(stderr, "%s: note: Graphviz's dot is not installed: %s is not rendered (scripts/setup.sh installs "
                    "graphviz; `dot -Tsvg %s` renders it)\n", tool, dot, dot);
  else
    fprintf(stderr, "%s: note: dot failed on %s (status %d)\n", tool, dot, rc);
  remove(svg);
  return false;
}

static const char *report_script(void)
{
  const char *env = getenv("NC_REPORT_SCRIPT");
  if (env && *env)
    return env;
  if (!access(NC_REPORT_SCRIPT_SOURCE, R_OK))
    return NC_REPORT_SCRIPT_SOURCE;
  return NC_REPORT_SCRIPT_INSTALLED;
}

bool nc_tool_report_page(const char *tool, const char *dir, const char *const *args)
{
  const char *python = getenv("NC_PYTHON");
  python = python && *python ? python : "python3";
  char *stats = nc_tool_report_path(dir, "stats.json");
  const char *argv[64] = {python, report_script(), stats, "-o", dir, "--quiet"};
  size_t n = 6;
  for (size_t i = 0; args && args[i] && n + 1 < 64; i++)
    argv[n++] = args[i];
  argv[n] = NULL;
  int rc = run((char *const *)argv);
  if (rc < 0)
    fprintf(stderr, "%s: note: no %s to run %s: the figures are in %s; draw the page with `python3 %s %s -o %s`\n",
            tool, python, argv[1], dir, argv[1], stats, dir);
  else if (rc)
    fprintf(stderr, "%s: error: --report: %s failed (status %d)\n", tool, argv[1], rc);
  else
    fprintf(stderr, "%s: wrote the report %s/index.html\n", tool, dir);
  free(stats);
  return rc <= 0; /* without a Python the figures are still there, and the note says how to draw them */
}

/* --- progress ------------------------------------------------------------------------------------------------------- */

struct nc_tool_progress {
  const char *tool;
  bool lines;    /* NC_PROGRESS=1: one line per update, from the start */
  bool shown;    /* a terminal line is on screen */
  double start, last;
};

static double now(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

nc_tool_progress *nc_tool_progress_create(const char *tool)
{
  const char *env = getenv("NC_PROGRESS");
  bool forced = env && !strcmp(env, "1"), off = env && !strcmp(env, "0");
  if (off || (!forced && !isatty(STDERR_FILENO)))
    return NULL;
  nc_tool_progress *p = calloc(1, sizeof *p);
  if (!p)
    abort();
  p->tool = tool;
  p->lines = forced;
  p->start = p->last = now();
  return p;
}

void nc_tool_progress_update(nc_tool_progress *p, const char *what, size_t done, size_t total)
{
  if (!p)
    return;
  double t = now();
  if (p->lines) {
    fprintf(stderr, "%s: [%zu/%zu] %s (%.2f s)\n", p->tool, done, total, what, t - p->start);
    return;
  }
  /* a terminal: after the first second, at most ten redraws a second */
  if (t - p->start < 1.0 || (p->shown && t - p->last < 0.1 && done < total))
    return;
  fprintf(stderr, "\r\033[K%s: [%zu/%zu] %s (%.1f s)", p->tool, done, total, what, t - p->start);
  fflush(stderr);
  p->shown = true;
  p->last = t;
}

void nc_tool_progress_destroy(nc_tool_progress *p)
{
  if (!p)
    return;
  if (p->shown)
    fprintf(stderr, "\r\033[K%s: done in %.1f s\n", p->tool, now() - p->start);
  free(p);
}
