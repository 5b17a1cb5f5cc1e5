/* host_stub.c: host stubs (include/nc/targets/host_stub.h) generated with
 * the LLVM 19 C API: a module with the .ncb as a constant array, a lazily
 * opened device handle and five small functions calling the runtime ABI,
 * compiled by LLVM's code generator for the host into an object file; and
 * the C header that declares them.
 *
 * libLLVM is opened (dlopen) the first time a stub is generated, not linked:
 * loading it costs every nc tool 40 MB of resident memory and start-up time
 * (relocations, static constructors), and only host stubs need it.
 */
#include <ctype.h>
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/Core.h>
#include <llvm-c/Target.h>
#include <llvm-c/TargetMachine.h>

#include "nc/targets/host_stub.h"
#include "nc/runtime/ncb.h"
#include "nc/support/file.h"
#include "nc/support/strutil.h"

#define NC_LLVM_FUNCTIONS(X) \
  X(LLVMAddFunction) \
  X(LLVMAddGlobal) \
  X(LLVMAppendBasicBlockInContext) \
  X(LLVMArrayType2) \
  X(LLVMBuildCall2) \
  X(LLVMBuildCondBr) \
  X(LLVMBuildIsNull) \
  X(LLVMBuildLoad2) \
  X(LLVMBuildRet) \
  X(LLVMBuildRetVoid) \
  X(LLVMBuildStore) \
  X(LLVMConstInt) \
  X(LLVMConstNull) \
  X(LLVMConstStringInContext2) \
  X(LLVMContextCreate) \
  X(LLVMContextDispose) \
  X(LLVMCreateBuilderInContext) \
  X(LLVMCreateTargetDataLayout) \
  X(LLVMCreateTargetMachine) \
  X(LLVMDisposeBuilder) \
  X(LLVMDisposeMemoryBuffer) \
  X(LLVMDisposeMessage) \
  X(LLVMDisposeModule) \
  X(LLVMDisposeTargetData) \
  X(LLVMDisposeTargetMachine) \
  X(LLVMFunctionType) \
  X(LLVMGetBufferSize) \
  X(LLVMGetBufferStart) \
  X(LLVMGetDefaultTargetTriple) \
  X(LLVMGetParam) \
  X(LLVMGetTargetFromTriple) \
  X(LLVMInt32TypeInContext) \
  X(LLVMInt8TypeInContext) \
  X(LLVMIntPtrTypeInContext) \
  X(LLVMModuleCreateWithNameInContext) \
  X(LLVMPointerTypeInContext) \
  X(LLVMPositionBuilderAtEnd) \
  X(LLVMSetAlignment) \
  X(LLVMSetGlobalConstant) \
  X(LLVMSetInitializer) \
  X(LLVMSetLinkage) \
  X(LLVMSetModuleDataLayout) \
  X(LLVMSetTarget) \
  X(LLVMTargetMachineEmitToMemoryBuffer) \
  X(LLVMVoidTypeInContext) \

#define NC_STR_(x) #x
#define NC_STR(x) NC_STR_(x)

/* The LLVM C API functions host stubs call, found in libLLVM at run time. */
static struct {
#define NC_LLVM_FIELD(f) __typeof__(f) *f;
  NC_LLVM_FUNCTIONS(NC_LLVM_FIELD)
#undef NC_LLVM_FIELD
  void (*init[4])(void); /* the native target's info, target, MC layer and asm printer */
} llvm;

static pthread_once_t llvm_once = PTHREAD_ONCE_INIT;
static char llvm_error[512];

static void llvm_open(void)
{
  static const char *const names[] = {NC_LLVM_LIBRARY, "libLLVM.so.19.1", "libLLVM-19.so"};
  void *h = NULL;
  for (size_t i = 0; i < NC_COUNTOF(names) && !h; i++)
    h = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
  if (!h) {
    snprintf(llvm_error, sizeof llvm_error, "cannot load LLVM 19 (%s), which host stubs need: %s", NC_LLVM_LIBRARY,
             dlerror());
    return;
  }
  static const char *const inits[4] = {NC_STR(LLVM_NATIVE_TARGETINFO), NC_STR(LLVM_NATIVE_TARGET),
                                       NC_STR(LLVM_NATIVE_TARGETMC), NC_STR(LLVM_NATIVE_ASMPRINTER)};
  const char *missing = NULL;
#define NC_LLVM_LOOKUP(f) \
  if (!(*(void **)&llvm.f = dlsym(h, #f)) && !missing) \
    missing = #f;
  NC_LLVM_FUNCTIONS(NC_LLVM_LOOKUP)
#undef NC_LLVM_LOOKUP
  for (size_t i = 0; i < 4; i++)
    if (!(*(void **)&llvm.init[i] = dlsym(h, inits[i])) && !missing)
      missing = inits[i];
  if (missing) {
    snprintf(llvm_error, sizeof llvm_error, "the LLVM library %s lacks %s", NC_LLVM_LIBRARY, missing);
    return;
  }
  for (size_t i = 0; i < 4; i++)
    llvm.init[i]();
}

/* Opens libLLVM once; false with the reason in `err` if it cannot. */
static bool llvm_load(char *err, size_t errlen)
{
  pthread_once(&llvm_once, llvm_open);
  if (llvm_error[0]) {
    snprintf(err, errlen, "%s", llvm_error);
    return false;
  }
  return true;
}

bool nc_host_stub_name_ok(const char *name)
{
  size_t n = strlen(name);
  if (!n || n > 64 || isdigit((unsigned char)name[0]))
    return false;
  for (size_t i = 0; i < n; i++)
    if (!isalnum((unsigned char)name[i]) && name[i] != '_')
      return false;
  return true;
}

void nc_host_stub_name_from_path(const char *path, char *out, size_t n)
{
  const char *base = strrchr(path, '/');
  base = base ? base + 1 : path;
  const char *dot = strchr(base, '.');
  size_t len = dot && dot > base ? (size_t)(dot - base) : strlen(base), k = 0;
  if (n < 2)
    return;
  if (!len || isdigit((unsigned char)base[0]))
    out[k++] = 'm';
  for (size_t i = 0; i < len && k + 1 < n && k < 64; i++)
    out[k++] = isalnum((unsigned char)base[i]) ? base[i] : '_';
  out[k] = 0;
}

/* --- the C header ---------------------------------------------------------------------------------------------------- */

static char *make_header(const nc_ncb *ncb, const char *name)
{
  char upper[80];
  size_t i = 0;
  for (; name[i] && i + 1 < sizeof upper; i++)
    upper[i] = (char)toupper((unsigned char)name[i]);
  upper[i] = 0;
  char *text;
  size_t len;
  FILE *f = open_memstream(&text, &len);
  if (!f)
    abort();
  fprintf(f,
          "/* %s.h: host interface of the nc model '%s' (generated by nc; do not edit).\n"
          " *\n"
          " * The network is compiled for target '%s'; its binary is embedded in\n"
          " * the object file that comes with this header. Link both with nc's runtime\n"
          " * library, which runs the binary on the chip's simulator:\n"
          " *   cc app.c %s.o -lnc_runtime -lm\n"
          " * Functions returning int give 0 on success and -1 on error (then %s_error()\n"
          " * says why). Writing N times an input's elements runs N inferences.\n"
          " */\n"
          "#ifndef %s_H\n#define %s_H\n\n#include <stddef.h>\n\n#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n",
          name, name, ncb->target, name, name, upper, upper);
  fprintf(f, "#define %s_NUM_INPUTS %zu\n#define %s_NUM_OUTPUTS %zu\n", upper, ncb->n_inputs, upper, ncb->n_outputs);
  for (size_t k = 0; k < ncb->n_inputs + ncb->n_outputs; k++) {
    bool in = k < ncb->n_inputs;
    const nc_ncb_tensor *t = in ? &ncb->inputs[k] : &ncb->outputs[k - ncb->n_inputs];
    size_t idx = in ? k : k - ncb->n_inputs;
    fprintf(f, "/* %s %zu '%s': ", in ? "input" : "output", idx, t->name);
    for (uint32_t d = 0; d < t->rank; d++)
      fprintf(f, "%s%lld", d ? "x" : "", (long long)t->dims[d]);
    fprintf(f, " per inference; %s on the chip with scale %.9g, zero point %d */\n", nc_ncb_dtype_name(t->dtype),
            (double)t->scale, t->zero_point);
    fprintf(f, "#define %s_%s%zu_ELEMENTS %zu\n", upper, in ? "INPUT" : "OUTPUT", idx, nc_ncb_tensor_elements(t));
  }
  fprintf(f,
          "\n/** The embedded .ncb binary. */\n"
          "extern const unsigned char %s_ncb[];\nextern const size_t %s_ncb_size;\n\n"
          "/** Writes input `index`: `count` floats, N times its elements (N inferences). */\n"
          "int %s_write_input(size_t index, const float *data, size_t count);\n"
          "/** Runs the network on the inputs written. */\n"
          "int %s_run(void);\n"
          "/** Reads output `index` of the last run: `count` floats, N times its elements. */\n"
          "int %s_read_output(size_t index, float *data, size_t count);\n"
          "/** Closes the device (the next call opens it again). */\n"
          "void %s_close(void);\n"
          "/** The message of the last error. */\n"
          "const char *%s_error(void);\n\n"
          "#ifdef __cplusplus\n}\n#endif\n\n#endif\n",
          name, name, name, name, name, name, name);
  fclose(f);
  return text;
}

/* --- the object file --------------------------------------------------------------------------------------------- */

typedef struct gen {
  LLVMContextRef c;
  LLVMModuleRef m;
  LLVMBuilderRef b;
  LLVMTypeRef i32, ptr, size, vt;
  const char *name;
} gen;

static LLVMValueRef declare(gen *g, const char *fn, LLVMTypeRef ret, unsigned n, LLVMTypeRef *params, LLVMTypeRef *ty)
{
  *ty = llvm.LLVMFunctionType(ret, params, n, 0);
  return llvm.LLVMAddFunction(g->m, fn, *ty);
}

static LLVMValueRef define(gen *g, const char *suffix, LLVMTypeRef ret, unsigned n, LLVMTypeRef *params)
{
  char fn[128];
  snprintf(fn, sizeof fn, "%s_%s", g->name, suffix);
  LLVMValueRef f = llvm.LLVMAddFunction(g->m, fn, llvm.LLVMFunctionType(ret, params, n, 0));
  llvm.LLVMPositionBuilderAtEnd(g->b, llvm.LLVMAppendBasicBlockInContext(g->c, f, "entry"));
  return f;
}

/* The start of a stub that needs the device, in f (whose builder is at its
 * entry): gets it through <m>_get_device (f_get, of type t_get) and returns
 * -1 from f when it cannot open. Leaves the builder where the device is
 * ready and returns the device. */
static LLVMValueRef get_device_or_fail(gen *g, LLVMValueRef f, LLVMTypeRef t_get, LLVMValueRef f_get)
{
  LLVMBasicBlockRef ok = llvm.LLVMAppendBasicBlockInContext(g->c, f, "ok"), bad = llvm.LLVMAppendBasicBlockInContext(g->c, f, "bad");
  LLVMValueRef dv = llvm.LLVMBuildCall2(g->b, t_get, f_get, NULL, 0, "dev");
  llvm.LLVMBuildCondBr(g->b, llvm.LLVMBuildIsNull(g->b, dv, "none"), bad, ok);
  llvm.LLVMPositionBuilderAtEnd(g->b, bad);
  llvm.LLVMBuildRet(g->b, llvm.LLVMConstInt(g->i32, (unsigned long long)-1, 1));
  llvm.LLVMPositionBuilderAtEnd(g->b, ok);
  return dv;
}

static void build_module(gen *g, const void *ncb, size_t size)
{
  char sym[128];
  LLVMTypeRef i8 = llvm.LLVMInt8TypeInContext(g->c);
  snprintf(sym, sizeof sym, "%s_ncb", g->name);
  LLVMValueRef blob = llvm.LLVMAddGlobal(g->m, llvm.LLVMArrayType2(i8, size), sym);
  llvm.LLVMSetInitializer(blob, llvm.LLVMConstStringInContext2(g->c, ncb, size, 1));
  llvm.LLVMSetGlobalConstant(blob, 1);
  llvm.LLVMSetAlignment(blob, 16);
  snprintf(sym, sizeof sym, "%s_ncb_size", g->name);
  LLVMValueRef blob_size = llvm.LLVMAddGlobal(g->m, g->size, sym);
  llvm.LLVMSetInitializer(blob_size, llvm.LLVMConstInt(g->size, size, 0));
  llvm.LLVMSetGlobalConstant(blob_size, 1);
  snprintf(sym, sizeof sym, "%s_device", g->name);
  LLVMValueRef dev = llvm.LLVMAddGlobal(g->m, g->ptr, sym);
  llvm.LLVMSetInitializer(dev, llvm.LLVMConstNull(g->ptr));
  llvm.LLVMSetLinkage(dev, LLVMInternalLinkage);

  LLVMTypeRef t_open, t_write, t_run, t_read, t_close, t_error, t_get;
  LLVMValueRef f_open = declare(g, "nc_device_open_memory", g->ptr, 2, (LLVMTypeRef[]){g->ptr, g->size}, &t_open);
  LLVMTypeRef io_params[] = {g->ptr, g->size, g->ptr, g->size};
  LLVMValueRef f_write = declare(g, "nc_device_write_input_f32", g->i32, 4, io_params, &t_write);
  LLVMValueRef f_run = declare(g, "nc_device_run", g->i32, 1, (LLVMTypeRef[]){g->ptr}, &t_run);
  LLVMValueRef f_read = declare(g, "nc_device_read_output_f32", g->i32, 4, io_params, &t_read);
  LLVMValueRef f_close = declare(g, "nc_device_destroy", g->vt, 1, (LLVMTypeRef[]){g->ptr}, &t_close);
  LLVMValueRef f_error = declare(g, "nc_device_error", g->ptr, 0, NULL, &t_error);

  /* static nc_device *<m>_get_device(void): opens the embedded binary once */
  t_get = llvm.LLVMFunctionType(g->ptr, NULL, 0, 0);
  snprintf(sym, sizeof sym, "%s_get_device", g->name);
  LLVMValueRef f_get = llvm.LLVMAddFunction(g->m, sym, t_get);
  llvm.LLVMSetLinkage(f_get, LLVMInternalLinkage);
  LLVMBasicBlockRef entry = llvm.LLVMAppendBasicBlockInContext(g->c, f_get, "entry");
  LLVMBasicBlockRef open = llvm.LLVMAppendBasicBlockInContext(g->c, f_get, "open");
  LLVMBasicBlockRef done = llvm.LLVMAppendBasicBlockInContext(g->c, f_get, "done");
  llvm.LLVMPositionBuilderAtEnd(g->b, entry);
  LLVMValueRef d = llvm.LLVMBuildLoad2(g->b, g->ptr, dev, "d");
  llvm.LLVMBuildCondBr(g->b, llvm.LLVMBuildIsNull(g->b, d, "closed"), open, done);
  llvm.LLVMPositionBuilderAtEnd(g->b, open);
  LLVMValueRef nd = llvm.LLVMBuildCall2(g->b, t_open, f_open, (LLVMValueRef[]){blob, llvm.LLVMConstInt(g->size, size, 0)}, 2,
                                   "nd");
  llvm.LLVMBuildStore(g->b, nd, dev);
  llvm.LLVMBuildRet(g->b, nd);
  llvm.LLVMPositionBuilderAtEnd(g->b, done);
  llvm.LLVMBuildRet(g->b, d);

  /* int <m>_write_input(size_t, const float *, size_t) and <m>_read_output: -1 if the device cannot open */
  struct { const char *suffix; LLVMValueRef callee; LLVMTypeRef type; } io[] = {
    {"write_input", f_write, t_write}, {"read_output", f_read, t_read}};
  for (int k = 0; k < 2; k++) {
    LLVMValueRef f = define(g, io[k].suffix, g->i32, 3, (LLVMTypeRef[]){g->size, g->ptr, g->size});
    LLVMValueRef dv = get_device_or_fail(g, f, t_get, f_get);
    LLVMValueRef args[] = {dv, llvm.LLVMGetParam(f, 0), llvm.LLVMGetParam(f, 1), llvm.LLVMGetParam(f, 2)};
    llvm.LLVMBuildRet(g->b, llvm.LLVMBuildCall2(g->b, io[k].type, io[k].callee, args, 4, "r"));
  }
  /* int <m>_run(void) */
  LLVMValueRef f = define(g, "run", g->i32, 0, NULL);
  LLVMValueRef dv = get_device_or_fail(g, f, t_get, f_get);
  llvm.LLVMBuildRet(g->b, llvm.LLVMBuildCall2(g->b, t_run, f_run, &dv, 1, "r"));
  /* void <m>_close(void) */
  define(g, "close", g->vt, 0, NULL);
  LLVMValueRef cur = llvm.LLVMBuildLoad2(g->b, g->ptr, dev, "d");
  llvm.LLVMBuildCall2(g->b, t_close, f_close, &cur, 1, "");
  llvm.LLVMBuildStore(g->b, llvm.LLVMConstNull(g->ptr), dev);
  llvm.LLVMBuildRetVoid(g->b);
  /* const char *<m>_error(void) */
  define(g, "error", g->ptr, 0, NULL);
  llvm.LLVMBuildRet(g->b, llvm.LLVMBuildCall2(g->b, t_error, f_error, NULL, 0, "e"));
}

bool nc_host_stub_generate(const void *ncb, size_t size, const char *name, const char *triple, void **object,
                           size_t *object_size, char **header, char *err, size_t errlen)
{
  *object = NULL;
  *header = NULL;
  if (!nc_host_stub_name_ok(name))
    return nc_error_format(err, errlen,
                           "'%s' is not a C identifier of at most 64 characters (choose the model name with "
                           "--host-stub-name)", name);
  nc_ncb parsed;
  char perr[512];
  if (!nc_ncb_parse(ncb, size, &parsed, perr, sizeof perr))
    return nc_error_format(err, errlen, "not a valid .ncb binary: %s", perr);
  if (!llvm_load(err, errlen)) {
    nc_ncb_clear(&parsed);
    return false;
  }
  char *host = triple ? NULL : llvm.LLVMGetDefaultTargetTriple();
  const char *tt = triple ? triple : host;
  LLVMTargetRef target;
  char *msg = NULL;
  bool ok = false;
  if (llvm.LLVMGetTargetFromTriple(tt, &target, &msg)) {
    nc_error_format(err, errlen, "LLVM has no target for triple '%s': %s", tt, msg ? msg : "");
    llvm.LLVMDisposeMessage(msg);
    llvm.LLVMDisposeMessage(host);
    nc_ncb_clear(&parsed);
    return false;
  }
  LLVMTargetMachineRef tm = llvm.LLVMCreateTargetMachine(target, tt, "generic", "", LLVMCodeGenLevelDefault, LLVMRelocPIC,
                                                    LLVMCodeModelDefault);
  LLVMTargetDataRef td = llvm.LLVMCreateTargetDataLayout(tm);
  gen g = {.c = llvm.LLVMContextCreate(), .name = name};
  g.m = llvm.LLVMModuleCreateWithNameInContext(name, g.c);
  llvm.LLVMSetTarget(g.m, tt);
  llvm.LLVMSetModuleDataLayout(g.m, td);
  g.b = llvm.LLVMCreateBuilderInContext(g.c);
  g.i32 = llvm.LLVMInt32TypeInContext(g.c);
  g.ptr = llvm.LLVMPointerTypeInContext(g.c, 0);
  g.size = llvm.LLVMIntPtrTypeInContext(g.c, td);
  g.vt = llvm.LLVMVoidTypeInContext(g.c);
  build_module(&g, ncb, size);
  LLVMMemoryBufferRef buf = NULL;
  if (llvm.LLVMTargetMachineEmitToMemoryBuffer(tm, g.m, LLVMObjectFile, &msg, &buf)) {
    nc_error_format(err, errlen, "LLVM could not generate the object file: %s", msg ? msg : "");
    llvm.LLVMDisposeMessage(msg);
  } else {
    *object_size = llvm.LLVMGetBufferSize(buf);
    *object = nc_xmalloc(*object_size ? *object_size : 1);
    memcpy(*object, llvm.LLVMGetBufferStart(buf), *object_size);
    llvm.LLVMDisposeMemoryBuffer(buf);
    *header = make_header(&parsed, name);
    ok = true;
  }
  llvm.LLVMDisposeBuilder(g.b);
  llvm.LLVMDisposeModule(g.m);
  llvm.LLVMContextDispose(g.c);
  llvm.LLVMDisposeTargetData(td);
  llvm.LLVMDisposeTargetMachine(tm);
  llvm.LLVMDisposeMessage(host);
  nc_ncb_clear(&parsed);
  return ok;
}

/* Writes the object and its header as a pair: both are fully written to
 * temporary files before either replaces its target, so a failed run leaves
 * both previous files as they were. */
static bool write_pair(const char *object_path, const void *obj, size_t obj_size, const char *header_path,
                       const char *header, char *err, size_t errlen)
{
  nc_file_writer *wo = nc_file_writer_open(object_path, err, errlen);
  if (!wo)
    return false;
  nc_file_writer *wh = nc_file_writer_open(header_path, err, errlen);
  if (!wh) {
    nc_file_writer_abort(wo);
    return false;
  }
  size_t header_len = strlen(header);
  FILE *fo = nc_file_writer_stream(wo), *fh = nc_file_writer_stream(wh);
  /* flushed before either is committed: a device fails only when flushed */
  bool obj_ok = fwrite(obj, 1, obj_size, fo) == obj_size && fflush(fo) == 0;
  bool header_ok = obj_ok && fwrite(header, 1, header_len, fh) == header_len && fflush(fh) == 0;
  if (!header_ok) {
    int saved = errno;
    nc_file_writer_abort(wo);
    nc_file_writer_abort(wh);
    return nc_error_format(err, errlen, "%s: write failed: %s", obj_ok ? header_path : object_path, strerror(saved));
  }
  if (!nc_file_writer_commit(wo, err, errlen)) {
    nc_file_writer_abort(wh);
    return false;
  }
  return nc_file_writer_commit(wh, err, errlen);
}

bool nc_host_stub_write(const void *ncb, size_t size, const char *name, const char *object_path,
                        const char *header_path, char *err, size_t errlen)
{
  void *obj;
  size_t obj_size;
  char *header;
  if (!nc_host_stub_generate(ncb, size, name, NULL, &obj, &obj_size, &header, err, errlen))
    return false;
  char *hpath = NULL;
  if (!header_path) {
    const char *slash = strrchr(object_path, '/'), *dot = strrchr(object_path, '.');
    size_t stem = dot && (!slash || dot > slash) ? (size_t)(dot - object_path) : strlen(object_path);
    hpath = nc_xmalloc(stem + 3);
    memcpy(hpath, object_path, stem);
    memcpy(hpath + stem, ".h", 3);
    header_path = hpath;
  }
  bool ok = strcmp(header_path, object_path)
              ? write_pair(object_path, obj, obj_size, header_path, header, err, errlen)
              : nc_error_format(err, errlen, "the header would overwrite the object file '%s'", object_path);
  free(hpath);
  free(obj);
  free(header);
  return ok;
}
