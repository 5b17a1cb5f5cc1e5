/* host_stub.c: nc-translate --emit-host-stub: a target binary (.ncb), or
 * core-level IR that its target's printer turns into one, becomes a host
 * stub: an object file generated with LLVM that embeds the binary and calls
 * the runtime ABI, plus its C header (include/nc/targets/host_stub.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nc/ir/asm.h"
#include "nc/ir/diag.h"
#include "nc/targets/host_stub.h"
#include "nc/targets/targets.h"
#include "translate.h"

static void *read_all(const char *path, size_t *len)
{
  FILE *f = !strcmp(path, "-") ? stdin : fopen(path, "rb");
  if (!f)
    return NULL;
  size_t cap = 1 << 16;
  char *buf = nc_xmalloc(cap);
  *len = 0;
  for (size_t n; (n = fread(buf + *len, 1, cap - *len, f)) > 0;)
    if ((*len += n) == cap)
      buf = nc_xrealloc(buf, cap *= 2);
  if (f != stdin)
    fclose(f);
  return buf;
}

bool emit_host_stub(nc_context *ctx, const char *input, const char *output, const nc_host_stub_options *o)
{
  if (!output || !strcmp(output, "-")) {
    fprintf(stderr, "nc-translate: --emit-host-stub writes an object file and a header: give -o <file.o>\n");
    return false;
  }
  size_t size = 0;
  uint8_t *image = read_all(input, &size);
  if (!image) {
    fprintf(stderr, "nc-translate: cannot read '%s'\n", input);
    return false;
  }
  if (size < 4 || memcmp(image, "NCB", 4)) { /* not a binary: core-level IR to print first */
    free(image);
    image = NULL;
    nc_op *module = nc_parse_file(ctx, input);
    if (module && nc_op_verify(module))
      image = nc_target_print_binary(module, &size); /* the module names its target and carries its chip */
    if (module)
      nc_op_destroy(module);
    if (!image)
      return false;
  }
  char name[80], err[1024];
  if (o->name)
    snprintf(name, sizeof name, "%s", o->name);
  else
    nc_host_stub_name_from_path(output, name, sizeof name);
  bool ok = nc_host_stub_write(image, size, name, output, o->header, err, sizeof err);
  if (!ok)
    fprintf(stderr, "nc-translate: %s\n", err);
  free(image);
  return ok;
}
