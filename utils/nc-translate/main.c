/* nc-translate: mlir-translate's twin. Converts between nc's IR and other
 * formats: ONNX models in (--import-onnx) and out (--export-onnx), and
 * target binaries to host stubs (--emit-host-stub, host_stub.c).
 *
 * Exactly one translation flag picks what to do; the printing flags are
 * nc-opt's. A translation is one entry in the table below (a flag, a help
 * line, a function), so adding one needs no other edit here. Output is
 * written only once the translation has succeeded, so a failed run leaves no
 * half-written file behind.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nc/support/mapped.h"
#include "nc/support/strutil.h"
#include "nc/support/file.h"
#include "nc/dialects/dialects.h"
#include "nc/dialects/graph/onnx.h"
#include "nc/ir/asm.h"
#include "nc/passes/passes.h"
#include "nc/targets/targets.h"
#include "nc/ir/diag.h"
#include "translate.h"

typedef struct options {
  const char *input;
  const char *output;
  bool allow_unregistered;
  bool no_verify;
  int64_t onnx_opset;
  const char *onnx_function;
  nc_print_flags print;
  nc_host_stub_options stub; /* --emit-host-stub (host_stub.c) */
} options;

typedef struct translation {
  const char *flag;
  const char *help;
  bool (*run)(nc_context *ctx, const options *o);
} translation;

/* Opens the output ("-" or NULL: stdout) through the atomic writer
 * (nc/support/file.h); NULL after a message. */
static nc_file_writer *open_output(const options *o)
{
  char err[1024];
  nc_file_writer *w = nc_file_writer_open(o->output ? o->output : "-", err, sizeof err);
  if (!w)
    fprintf(stderr, "nc-translate: error: %s\n", err);
  return w;
}

/* Commits the output (ok) or abandons it, leaving any previous file intact. */
static bool close_output(nc_file_writer *w, bool ok)
{
  if (!ok) {
    nc_file_writer_abort(w);
    return false;
  }
  char err[1024];
  if (!nc_file_writer_commit(w, err, sizeof err)) {
    fprintf(stderr, "nc-translate: error: %s\n", err);
    return false;
  }
  return true;
}

/* Reads stdin into a malloc'ed buffer. */
static void *read_stdin(size_t *len)
{
  size_t cap = 1 << 16;
  char *buf = nc_xmalloc(cap);
  *len = 0;
  for (size_t n; (n = fread(buf + *len, 1, cap - *len, stdin)) > 0;) {
    *len += n;
    if (*len == cap)
      buf = nc_xrealloc(buf, cap *= 2);
  }
  return buf;
}

static bool import_onnx(nc_context *ctx, const options *o)
{
  nc_op *module;
  if (!strcmp(o->input, "-")) {
    size_t len;
    void *buf = read_stdin(&len);
    module = nc_onnx_import_from_memory(ctx, buf, len, "<stdin>", ".");
    free(buf);
  } else {
    module = nc_onnx_import_file(ctx, o->input);
  }
  bool ok = module && (o->no_verify || nc_op_verify(module));
  nc_file_writer *out = ok ? open_output(o) : NULL;
  if (out) {
    nc_op_print(module, nc_file_writer_stream(out), &o->print);
    ok = close_output(out, true);
  } else {
    ok = false;
  }
  if (module)
    nc_op_destroy(module);
  return ok;
}

static bool export_onnx(nc_context *ctx, const options *o)
{
  nc_op *module = nc_parse_file(ctx, o->input);
  bool ok = module && (o->no_verify || nc_op_verify(module));
  size_t len = 0;
  nc_onnx_export_options eo = {.opset = o->onnx_opset, .func_name = o->onnx_function};
  void *buf = ok ? nc_onnx_export_to_memory(module, &eo, &len) : NULL;
  nc_file_writer *out = buf ? open_output(o) : NULL;
  ok = out != NULL;
  if (out)
    ok = close_output(out, fwrite(buf, 1, len, nc_file_writer_stream(out)) == len);
  free(buf);
  if (module)
    nc_op_destroy(module);
  return ok;
}

static bool host_stub(nc_context *ctx, const options *o)
{
  return emit_host_stub(ctx, o->input, o->output, &o->stub);
}

static const translation translations[] = {
  {"import-onnx", "Translate an ONNX model (.onnx) to the graph dialect", import_onnx},
  {"export-onnx", "Translate graph-dialect IR to an ONNX model (opset 13, 17 or 19)", export_onnx},
  {"emit-host-stub", "Translate a target binary (.ncb) or core-level IR to a host stub (object file + C header)",
   host_stub},
};

static void usage(FILE *out)
{
  fprintf(out,
          "OVERVIEW: nc translation driver\n\n"
          "USAGE: nc-translate <translation> [options] <input file>\n\n"
          "Translations (exactly one):\n");
  for (size_t i = 0; i < NC_COUNTOF(translations); i++)
    fprintf(out, "  --%-40s %s\n", translations[i].flag, translations[i].help);
  fprintf(out,
          "\nOPTIONS:\n"
          "  -o <file>                                 Output file (default: stdout)\n"
          "  --allow-unregistered-dialect              Allow ops and types of unregistered dialects\n"
          "  --no-verify                               Do not verify the IR\n"
          "  --onnx-opset=<13|17|19>                   Opset of exported ONNX models (default 17, 19 for a wrap pad)\n"
          "  --onnx-function=<name>                    The function to export (default: the only one)\n"
          "  --host-stub-name=<identifier>             Prefix of the stub's symbols (default: from -o)\n"
          "  --host-stub-header=<file>                 The stub's C header (default: -o with .h)\n"
          "  --mlir-print-op-generic                   Print ops in the generic form\n"
          "  --mlir-print-debuginfo                    Print locations\n"
          "  --mlir-print-local-scope                  Print locations inline instead of as #loc aliases\n"
          "  --mlir-elide-elementsattrs-if-larger=<n>  Elide dense attributes with more than n elements\n"
          "  --help                                    Show this help\n");
}

enum {
  OPT_UNREG = 256, OPT_NO_VERIFY, OPT_OPSET, OPT_FUNCTION, OPT_GENERIC, OPT_DEBUGINFO, OPT_LOCAL_SCOPE, OPT_ELIDE,
  OPT_HELP, OPT_STUB_NAME, OPT_STUB_HEADER,
  OPT_TRANSLATION, /* OPT_TRANSLATION + i: translations[i] */
};

/* Diagnostics name the input the user gave (see nc_diag_print_for_input). */
static const char *diag_input;

static bool print_file_diag(const nc_diag *d, void *user)
{
  nc_diag_print_for_input(d, user, "nc-translate", diag_input, stderr);
  return true;
}

int main(int argc, char **argv)
{
  nc_mapped_file_install_handler("nc-translate"); /* an input truncated while mapped: a diagnostic */
  nc_register_all_passes();
  nc_register_all_targets(); /* printing core-level IR needs its target */
  options o = {0};
  const translation *tr = NULL;
  struct option long_opts[NC_COUNTOF(translations) + 14];
  size_t k = 0;
  for (size_t i = 0; i < NC_COUNTOF(translations); i++)
    long_opts[k++] = (struct option){translations[i].flag, no_argument, NULL, OPT_TRANSLATION + (int)i};
  long_opts[k++] = (struct option){"allow-unregistered-dialect", no_argument, NULL, OPT_UNREG};
  long_opts[k++] = (struct option){"no-verify", no_argument, NULL, OPT_NO_VERIFY};
  long_opts[k++] = (struct option){"onnx-opset", required_argument, NULL, OPT_OPSET};
  long_opts[k++] = (struct option){"onnx-function", required_argument, NULL, OPT_FUNCTION};
  long_opts[k++] = (struct option){"mlir-print-op-generic", no_argument, NULL, OPT_GENERIC};
  long_opts[k++] = (struct option){"mlir-print-debuginfo", no_argument, NULL, OPT_DEBUGINFO};
  long_opts[k++] = (struct option){"mlir-print-local-scope", no_argument, NULL, OPT_LOCAL_SCOPE};
  long_opts[k++] = (struct option){"mlir-elide-elementsattrs-if-larger", required_argument, NULL, OPT_ELIDE};
  long_opts[k++] = (struct option){"help", no_argument, NULL, OPT_HELP};
  long_opts[k++] = (struct option){"host-stub-name", required_argument, NULL, OPT_STUB_NAME};
  long_opts[k++] = (struct option){"host-stub-header", required_argument, NULL, OPT_STUB_HEADER};
  long_opts[k++] = (struct option){NULL, 0, NULL, 0};
  opterr = 0;
  int c;
  while ((c = getopt_long_only(argc, argv, "o:", long_opts, NULL)) != -1) {
    switch (c) {
    case 'o': o.output = optarg; break;
    case OPT_UNREG: o.allow_unregistered = true; break;
    case OPT_NO_VERIFY: o.no_verify = true; break;
    case OPT_OPSET: {
      int64_t n = 0;
      bool ok = nc_parse_int_in_range(optarg, 13, 19, &n);
      o.onnx_opset = n;
      if (!ok || (o.onnx_opset != 13 && o.onnx_opset != 17 && o.onnx_opset != 19)) {
        fprintf(stderr, "nc-translate: --onnx-opset must be 13, 17 or 19, not '%s'\n", optarg);
        return 1;
      }
      break;
    }
    case OPT_FUNCTION: o.onnx_function = optarg; break;
    case OPT_GENERIC: o.print.generic = true; break;
    case OPT_DEBUGINFO: o.print.debuginfo = true; break;
    case OPT_LOCAL_SCOPE: o.print.local_scope = true; break;
    case OPT_ELIDE: {
      int64_t n;
      if (!nc_parse_int_in_range(optarg, 0, INT64_MAX, &n)) {
        fprintf(stderr, "nc-translate: --mlir-elide-elementsattrs-if-larger needs a count, not '%s'\n", optarg);
        return 1;
      }
      o.print.elide_elements_larger = n;
      break;
    }
    case OPT_HELP: usage(stdout); return 0;
    case OPT_STUB_NAME: o.stub.name = optarg; break;
    case OPT_STUB_HEADER: o.stub.header = optarg; break;
    case '?':
    case ':':
      fprintf(stderr, "nc-translate: unknown or incomplete option '%s' (see --help)\n", argv[optind - 1]);
      return 1;
    default:
      if (tr) {
        fprintf(stderr, "nc-translate: only one translation may be given ('--%s' and '--%s')\n", tr->flag,
                translations[c - OPT_TRANSLATION].flag);
        return 1;
      }
      tr = &translations[c - OPT_TRANSLATION];
      break;
    }
  }
  if (optind < argc)
    o.input = argv[optind++];
  if (optind < argc) {
    fprintf(stderr, "nc-translate: too many positional arguments: '%s'\n", argv[optind]);
    return 1;
  }
  if (!tr) {
    fprintf(stderr, "nc-translate: no translation given (one of:");
    for (size_t i = 0; i < NC_COUNTOF(translations); i++)
      fprintf(stderr, " --%s", translations[i].flag);
    fprintf(stderr, ")\n");
    return 1;
  }
  if (!o.input)
    o.input = "-";
  nc_context *ctx = nc_context_create();
  nc_register_all_dialects(ctx);
  nc_target_register_dialects(ctx);
  nc_context_set_allow_unregistered_dialects(ctx, o.allow_unregistered);
  diag_input = strcmp(o.input, "-") ? o.input : NULL;
  unsigned h = nc_context_push_diag_handler(ctx, print_file_diag, ctx);
  bool ok = tr->run(ctx, &o);
  nc_context_pop_diag_handler(ctx, h);
  nc_context_destroy(ctx);
  return ok ? 0 : 1;
}
