/* nc-opt: mlir-opt's twin. Reads IR (a file or stdin), parses, verifies,
 * runs passes (see the pass manager) and prints the result.
 *
 * Flags follow mlir-opt's names so tests and habits carry over:
 *   -o FILE, --split-input-file, --verify-diagnostics,
 *   --allow-unregistered-dialect, --mlir-print-op-generic,
 *   --mlir-print-debuginfo, --mlir-print-local-scope,
 *   --mlir-elide-elementsattrs-if-larger=N, --show-dialects,
 *   --dump-dialect-docs=NAME.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nc/dialects/dialects.h"
#include "nc/ir/asm.h"
#include "nc/ir/diag.h"
#include "verify_diags.h"

typedef struct options {
  const char *input;
  const char *output;
  bool split;
  bool verify_diags;
  bool allow_unregistered;
  bool show_dialects;
  const char *docs_dialect;
  bool no_verify;
  nc_print_flags print;
} options;

static void usage(FILE *out)
{
  fprintf(out,
          "OVERVIEW: nc modular optimizer driver\n\n"
          "USAGE: nc-opt [options] <input file>\n\n"
          "OPTIONS:\n"
          "  -o <file>                               Output file (default: stdout)\n"
          "  --split-input-file                      Split the input on '// -----' and process each chunk\n"
          "  --verify-diagnostics                    Check diagnostics against expected-* comments\n"
          "  --allow-unregistered-dialect            Allow ops and types of unregistered dialects\n"
          "  --mlir-print-op-generic                 Print ops in the generic form\n"
          "  --mlir-print-debuginfo                  Print locations\n"
          "  --mlir-print-local-scope                Print locations inline instead of as #loc aliases\n"
          "  --mlir-elide-elementsattrs-if-larger=N  Elide dense attributes with more than N elements\n"
          "  --no-verify                             Do not verify the IR after parsing\n"
          "  --show-dialects                         List the registered dialects\n"
          "  --dump-dialect-docs=<dialect>           Write the dialect's Markdown reference\n"
          "  --help                                  Show this help\n");
}

enum { OPT_SPLIT = 256, OPT_VERIFY_DIAGS, OPT_UNREG, OPT_GENERIC, OPT_DEBUGINFO, OPT_LOCAL_SCOPE, OPT_ELIDE,
       OPT_SHOW_DIALECTS, OPT_DOCS, OPT_NO_VERIFY, OPT_HELP };

static const struct option long_opts[] = {
  {"split-input-file", no_argument, NULL, OPT_SPLIT},
  {"verify-diagnostics", no_argument, NULL, OPT_VERIFY_DIAGS},
  {"allow-unregistered-dialect", no_argument, NULL, OPT_UNREG},
  {"mlir-print-op-generic", no_argument, NULL, OPT_GENERIC},
  {"mlir-print-debuginfo", no_argument, NULL, OPT_DEBUGINFO},
  {"mlir-print-local-scope", no_argument, NULL, OPT_LOCAL_SCOPE},
  {"mlir-elide-elementsattrs-if-larger", required_argument, NULL, OPT_ELIDE},
  {"show-dialects", no_argument, NULL, OPT_SHOW_DIALECTS},
  {"dump-dialect-docs", required_argument, NULL, OPT_DOCS},
  {"no-verify", no_argument, NULL, OPT_NO_VERIFY},
  {"help", no_argument, NULL, OPT_HELP},
  {NULL, 0, NULL, 0},
};

static bool parse_args(int argc, char **argv, options *o)
{
  memset(o, 0, sizeof *o);
  int c;
  opterr = 0;
  while ((c = getopt_long_only(argc, argv, "o:", long_opts, NULL)) != -1) {
    switch (c) {
    case 'o': o->output = optarg; break;
    case OPT_SPLIT: o->split = true; break;
    case OPT_VERIFY_DIAGS: o->verify_diags = true; break;
    case OPT_UNREG: o->allow_unregistered = true; break;
    case OPT_GENERIC: o->print.generic = true; break;
    case OPT_DEBUGINFO: o->print.debuginfo = true; break;
    case OPT_LOCAL_SCOPE: o->print.local_scope = true; break;
    case OPT_ELIDE: o->print.elide_elements_larger = strtoll(optarg, NULL, 10); break;
    case OPT_SHOW_DIALECTS: o->show_dialects = true; break;
    case OPT_DOCS: o->docs_dialect = optarg; break;
    case OPT_NO_VERIFY: o->no_verify = true; break;
    case OPT_HELP: usage(stdout); exit(0);
    default:
      fprintf(stderr, "nc-opt: unknown option '%s' (see --help)\n", argv[optind - 1]);
      return false;
    }
  }
  if (optind < argc)
    o->input = argv[optind++];
  if (optind < argc) {
    fprintf(stderr, "nc-opt: too many positional arguments: '%s'\n", argv[optind]);
    return false;
  }
  if (!o->input)
    o->input = "-";
  return true;
}

static void print_dialect_name(const nc_dialect_def *d, void *user)
{
  bool *first = user;
  printf("%s%s", *first ? "" : "\n", d->name);
  *first = false;
}

/* Processes bytes [start, end) of the source: parse, verify, print. */
static bool process(nc_context *ctx, unsigned id, size_t start, size_t end, const options *o, FILE *out)
{
  nc_diag_verifier *dv = NULL;
  if (o->verify_diags && !(dv = nc_diag_verifier_create(ctx, id, start, end)))
    return false;
  nc_op *module = nc_parse_source_range(ctx, id, start, end);
  bool ok = module != NULL;
  if (ok && !o->no_verify)
    ok = nc_op_verify(module);
  if (ok)
    nc_op_print(module, out, &o->print);
  nc_op_destroy(module);
  if (dv)
    return nc_diag_verifier_finish(dv);
  return ok;
}

int main(int argc, char **argv)
{
  options o;
  if (!parse_args(argc, argv, &o))
    return 1;
  nc_context *ctx = nc_context_create();
  nc_register_all_dialects(ctx);
  nc_context_set_allow_unregistered_dialects(ctx, o.allow_unregistered);
  int rc = 0;
  FILE *out = stdout;
  if (o.output && strcmp(o.output, "-") && !(out = fopen(o.output, "w"))) {
    fprintf(stderr, "nc-opt: cannot open '%s' for writing\n", o.output);
    nc_context_destroy(ctx);
    return 1;
  }
  if (o.show_dialects) {
    bool first = true;
    printf("Available Dialects: ");
    nc_context_foreach_dialect(ctx, print_dialect_name, &first);
    printf("\n");
    goto done;
  }
  if (o.docs_dialect) {
    if (!nc_dialect_write_docs(ctx, o.docs_dialect, out)) {
      fprintf(stderr, "nc-opt: unknown dialect '%s'\n", o.docs_dialect);
      rc = 1;
    }
    goto done;
  }
  unsigned id;
  char err[512];
  if (!nc_context_load_file(ctx, o.input, &id, err, sizeof err)) {
    fprintf(stderr, "nc-opt: %s\n", err);
    rc = 1;
    goto done;
  }
  size_t len;
  const char *src = nc_context_get_source(ctx, id, &len);
  if (!o.split) {
    rc = process(ctx, id, 0, len, &o, out) ? 0 : 1;
  } else {
    /* chunks are separated by lines that start with the marker */
    static const char marker[] = "// -----";
    size_t start = 0;
    bool first = true, all_ok = true;
    for (;;) {
      size_t end = len, next = len;
      for (const char *p = src + start; (p = memmem(p, (size_t)(src + len - p), marker, sizeof marker - 1));
           p += sizeof marker - 1) {
        if (p == src || p[-1] == '\n') {
          end = (size_t)(p - src);
          const char *nl = memchr(p, '\n', (size_t)(src + len - p));
          next = nl ? (size_t)(nl - src) + 1 : len;
          break;
        }
      }
      if (!first)
        fputs("// -----\n", out);
      first = false;
      all_ok &= process(ctx, id, start, end, &o, out);
      if (end == len)
        break;
      start = next;
    }
    rc = all_ok ? 0 : 1;
  }
done:
  if (out != stdout)
    fclose(out);
  nc_context_destroy(ctx);
  return rc;
}
