/* deps_layers.c: iteration domains and access relations of common layers.
 *
 * Each builder writes the layer as isl text (the form the dataflow dialect
 * stores) and parses it, so what the dialect holds and what the analysis
 * uses cannot drift apart. Conventions (see deps.h): tensors T[c, y, x] in
 * unpadded coordinates, reads clipped to the tensor; one iteration per output
 * pixel S[y, x] or per output row S[y], computing all channels. Sliding
 * windows use existential variables for the kernel offsets, so stride and
 * dilation need no special cases. */
#include "deps_internal.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

/* printf into a fresh buffer (nc_xmalloc aborts only on out-of-memory). */
static char *format(const char *fmt, ...) NC_PRINTF(1, 2);
static char *format(const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  if (n < 0)
    NC_UNREACHABLE("vsnprintf failed");
  char *s = nc_xmalloc((size_t)n + 1);
  va_start(ap, fmt);
  vsnprintf(s, (size_t)n + 1, fmt, ap);
  va_end(ap);
  return s;
}

/* isl tuple names must be identifiers; reject anything else up front so the
 * message names the culprit rather than an isl syntax error. */
static bool check_name(const char *name, const char *what, nc_deps_error *err)
{
  if (!name || !*name)
    return nc_deps_fail(err, "%s: missing name", what);
  for (const char *p = name; *p; p++) {
    char c = *p;
    bool ok = c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
              (p != name && c >= '0' && c <= '9');
    if (!ok)
      return nc_deps_fail(err, "%s: '%s' is not an identifier", what, name);
  }
  return true;
}

static bool check_shape(nc_deps_shape s, const char *what, nc_deps_error *err)
{
  if (s.channels < 1 || s.height < 1 || s.width < 1)
    return nc_deps_fail(err, "%s: shape %" PRId64 "x%" PRId64 "x%" PRId64 " is not positive",
                        what, s.channels, s.height, s.width);
  /* Keep every coordinate and flattened index far from isl's and int64's
   * limits. */
  if (s.channels > (1 << 20) || s.height > (1 << 20) || s.width > (1 << 20) ||
      s.channels * s.height * s.width > ((int64_t)1 << 40))
    return nc_deps_fail(err, "%s: shape is too large", what);
  return true;
}

nc_deps_window nc_deps_window_square(int64_t k, int64_t s, int64_t p, int64_t d)
{
  return (nc_deps_window){k, k, s, s, p, p, p, p, d, d};
}

static bool axis_output(int64_t in, int64_t k, int64_t s, int64_t pb, int64_t pe, int64_t d,
                        const char *axis, int64_t *out, nc_deps_error *err)
{
  if (k < 1 || s < 1 || d < 1 || pb < 0 || pe < 0 || k > (1 << 20) || s > (1 << 20) ||
      d > (1 << 20) || pb > (1 << 20) || pe > (1 << 20))
    return nc_deps_fail(err, "window: %s kernel %" PRId64 ", stride %" PRId64
                        ", dilation %" PRId64 ", pads %" PRId64 "/%" PRId64 " out of range",
                        axis, k, s, d, pb, pe);
  int64_t span = d * (k - 1) + 1;
  int64_t padded = in + pb + pe;
  if (padded < span)
    return nc_deps_fail(err, "window: %s extent %" PRId64 " (with padding) is smaller "
                        "than the dilated kernel %" PRId64, axis, padded, span);
  *out = (padded - span) / s + 1;
  return true;
}

bool nc_deps_window_output_shape(const nc_deps_window *w, nc_deps_shape in, int64_t out_channels,
                                 nc_deps_shape *out, nc_deps_error *err)
{
  if (!w || !out)
    return nc_deps_fail(err, "window: missing argument");
  if (!check_shape(in, "window input", err))
    return false;
  nc_deps_shape o = {out_channels, 0, 0};
  if (!axis_output(in.height, w->kernel_h, w->stride_h, w->pad_top, w->pad_bottom,
                   w->dilation_h, "vertical", &o.height, err) ||
      !axis_output(in.width, w->kernel_w, w->stride_w, w->pad_left, w->pad_right,
                   w->dilation_w, "horizontal", &o.width, err))
    return false;
  if (!check_shape(o, "window output", err))
    return false;
  *out = o;
  return true;
}

/* Parses the three texts inside the caller's error scope. */
static bool layer_parse(isl_ctx *ctx, const char *domain, const char *reads, const char *writes,
                        nc_deps_layer **out, nc_deps_error *err)
{
  nc_deps_layer *l = nc_xcalloc(1, sizeof *l);
  l->domain = isl_set_read_from_str(ctx, domain);
  if (!l->domain) {
    nc_deps_layer_destroy(l);
    return nc_deps_fail_isl(err, ctx, "layer domain");
  }
  l->reads = isl_union_map_read_from_str(ctx, reads);
  if (!l->reads) {
    nc_deps_layer_destroy(l);
    return nc_deps_fail_isl(err, ctx, "layer reads");
  }
  l->writes = isl_union_map_read_from_str(ctx, writes);
  if (!l->writes) {
    nc_deps_layer_destroy(l);
    return nc_deps_fail_isl(err, ctx, "layer writes");
  }
  if (!nc_deps_check_domain(l->domain, "layer", err) ||
      !nc_deps_check_no_params(l->reads, "layer reads", err) ||
      !nc_deps_check_no_params(l->writes, "layer writes", err)) {
    nc_deps_layer_destroy(l);
    return false;
  }
  /* Accesses exist only for the layer's own iterations. */
  isl_union_set *dom = isl_union_set_from_set(isl_set_copy(l->domain));
  l->reads = isl_union_map_intersect_domain(l->reads, isl_union_set_copy(dom));
  l->writes = isl_union_map_intersect_domain(l->writes, dom);
  if (!l->reads || !l->writes) {
    nc_deps_layer_destroy(l);
    return nc_deps_fail_isl(err, ctx, "layer accesses");
  }
  *out = l;
  return true;
}

bool nc_deps_layer_from_str(isl_ctx *ctx, const char *domain, const char *reads,
                            const char *writes, nc_deps_layer **out, nc_deps_error *err)
{
  if (out)
    *out = NULL;
  if (!ctx || !domain || !reads || !writes || !out)
    return nc_deps_fail(err, "layer: missing argument");
  nc_deps_scope scope = nc_deps_scope_enter(ctx);
  bool ok = layer_parse(ctx, domain, reads, writes, out, err);
  nc_deps_scope_exit(scope);
  return ok;
}

/* Builds a layer from owned texts and frees them. */
static bool layer_from_owned(isl_ctx *ctx, char *domain, char *reads, char *writes,
                             nc_deps_layer **out, nc_deps_error *err)
{
  bool ok = nc_deps_layer_from_str(ctx, domain, reads, writes, out, err);
  free(domain);
  free(reads);
  free(writes);
  return ok;
}

/* Arguments every builder has: clears the result and checks for NULLs. */
static bool check_common(isl_ctx *ctx, nc_deps_layer **layer, nc_deps_error *err)
{
  if (layer)
    *layer = NULL;
  if (!ctx || !layer)
    return nc_deps_fail(err, "layer: missing argument");
  return true;
}

static bool check_granularity(nc_deps_granularity g, const char *what, nc_deps_error *err)
{
  if (g != NC_DEPS_PER_PIXEL && g != NC_DEPS_PER_ROW)
    return nc_deps_fail(err, "%s: unknown granularity %d", what, (int)g);
  return true;
}

/* The iteration tuple of a pixel (S[y, x]) or row (S[y]) granularity. */
static char *iter_tuple(const char *name, nc_deps_granularity g, const char *y, const char *x)
{
  return g == NC_DEPS_PER_ROW ? format("%s[%s]", name, y) : format("%s[%s, %s]", name, y, x);
}

/* The domain of `tuple` (from iter_tuple with iterators y, x) over the
 * pixels or rows of `s`. */
static char *pixel_domain(const char *tuple, nc_deps_granularity g, nc_deps_shape s)
{
  if (g == NC_DEPS_PER_ROW)
    return format("{ %s : 0 <= y < %" PRId64 " }", tuple, s.height);
  return format("{ %s : 0 <= y < %" PRId64 " and 0 <= x < %" PRId64 " }", tuple, s.height,
                s.width);
}

bool nc_deps_layer_input(isl_ctx *ctx, const char *name, const char *out, nc_deps_shape s,
                         nc_deps_granularity g, nc_deps_layer **layer, nc_deps_error *err)
{
  if (!check_common(ctx, layer, err) || !check_name(name, "input", err) ||
      !check_name(out, "input", err) || !check_shape(s, "input", err) ||
      !check_granularity(g, "input", err))
    return false;
  char *it = iter_tuple(name, g, "y", "x");
  char *dom = pixel_domain(it, g, s);
  char *writes = format("{ %s -> %s[c, y, x] : 0 <= c < %" PRId64 " and 0 <= y < %" PRId64
                        " and 0 <= x < %" PRId64 " }", it, out, s.channels, s.height, s.width);
  free(it);
  return layer_from_owned(ctx, dom, format("{ }"), writes, layer, err);
}

/* A sliding-window layer (conv or pool); `kind` names it in messages. */
static bool window_layer(isl_ctx *ctx, const char *kind, const char *name, const char *in,
                         const char *out, nc_deps_shape is, int64_t out_channels,
                         const nc_deps_window *w, nc_deps_granularity g,
                         nc_deps_layer **layer, nc_deps_error *err)
{
  nc_deps_shape os;
  if (!check_common(ctx, layer, err) || !check_name(name, kind, err) ||
      !check_name(in, kind, err) || !check_name(out, kind, err) ||
      !check_granularity(g, kind, err) ||
      !nc_deps_window_output_shape(w, is, out_channels, &os, err))
    return false;
  /* The input rows and columns one output pixel (oy, ox) reads. */
  char *window = format("exists (ky, kx : 0 <= ky < %" PRId64 " and 0 <= kx < %" PRId64
                        " and iy = %" PRId64 "*oy - %" PRId64 " + %" PRId64 "*ky"
                        " and ix = %" PRId64 "*ox - %" PRId64 " + %" PRId64 "*kx)",
                        w->kernel_h, w->kernel_w, w->stride_h, w->pad_top, w->dilation_h,
                        w->stride_w, w->pad_left, w->dilation_w);
  char *inb = format("0 <= c < %" PRId64 " and 0 <= iy < %" PRId64 " and 0 <= ix < %" PRId64,
                     is.channels, is.height, is.width);
  char *outb = format("0 <= oy < %" PRId64 " and 0 <= ox < %" PRId64, os.height, os.width);
  char *dom, *reads, *writes;
  if (g == NC_DEPS_PER_ROW) {
    dom = format("{ %s[oy] : 0 <= oy < %" PRId64 " }", name, os.height);
    reads = format("{ %s[oy] -> %s[c, iy, ix] : %s and exists (ox : %s and %s) }", name, in,
                   inb, outb, window);
    writes = format("{ %s[oy] -> %s[k, oy, ox] : 0 <= k < %" PRId64 " and %s }", name, out,
                    out_channels, outb);
  } else {
    dom = format("{ %s[oy, ox] : %s }", name, outb);
    reads = format("{ %s[oy, ox] -> %s[c, iy, ix] : %s and %s and %s }", name, in, outb, inb,
                   window);
    writes = format("{ %s[oy, ox] -> %s[k, oy, ox] : 0 <= k < %" PRId64 " and %s }", name,
                    out, out_channels, outb);
  }
  free(window);
  free(inb);
  free(outb);
  return layer_from_owned(ctx, dom, reads, writes, layer, err);
}

bool nc_deps_layer_conv2d(isl_ctx *ctx, const char *name, const char *in, const char *out,
                          nc_deps_shape in_shape, int64_t out_channels, const nc_deps_window *w,
                          nc_deps_granularity g, nc_deps_layer **layer, nc_deps_error *err)
{
  return window_layer(ctx, "conv2d", name, in, out, in_shape, out_channels, w, g, layer, err);
}

bool nc_deps_layer_pool2d(isl_ctx *ctx, const char *name, const char *in, const char *out,
                          nc_deps_shape in_shape, const nc_deps_window *w, nc_deps_granularity g,
                          nc_deps_layer **layer, nc_deps_error *err)
{
  return window_layer(ctx, "pool2d", name, in, out, in_shape, in_shape.channels, w, g, layer,
                      err);
}

bool nc_deps_layer_add(isl_ctx *ctx, const char *name, const char *in_a, const char *in_b,
                       const char *out, nc_deps_shape s, nc_deps_granularity g,
                       nc_deps_layer **layer, nc_deps_error *err)
{
  if (!check_common(ctx, layer, err) || !check_name(name, "add", err) ||
      !check_name(in_a, "add", err) || !check_name(in_b, "add", err) ||
      !check_name(out, "add", err) || !check_shape(s, "add", err) ||
      !check_granularity(g, "add", err))
    return false;
  char *it = iter_tuple(name, g, "y", "x");
  char *b = format("0 <= c < %" PRId64 " and 0 <= y < %" PRId64 " and 0 <= x < %" PRId64,
                   s.channels, s.height, s.width);
  char *dom = pixel_domain(it, g, s);
  char *reads = format("{ %s -> %s[c, y, x] : %s; %s -> %s[c, y, x] : %s }", it, in_a, b, it,
                       in_b, b);
  char *writes = format("{ %s -> %s[c, y, x] : %s }", it, out, b);
  free(it);
  free(b);
  return layer_from_owned(ctx, dom, reads, writes, layer, err);
}

bool nc_deps_layer_flatten(isl_ctx *ctx, const char *name, const char *in, const char *out,
                           nc_deps_shape s, nc_deps_granularity g, nc_deps_layer **layer,
                           nc_deps_error *err)
{
  if (!check_common(ctx, layer, err) || !check_name(name, "flatten", err) ||
      !check_name(in, "flatten", err) || !check_name(out, "flatten", err) ||
      !check_shape(s, "flatten", err) || !check_granularity(g, "flatten", err))
    return false;
  char *it = iter_tuple(name, g, "y", "x");
  char *b = format("0 <= c < %" PRId64 " and 0 <= y < %" PRId64 " and 0 <= x < %" PRId64,
                   s.channels, s.height, s.width);
  char *dom = pixel_domain(it, g, s);
  char *reads = format("{ %s -> %s[c, y, x] : %s }", it, in, b);
  char *writes = format("{ %s -> %s[i] : exists (c%s : %s and i = %" PRId64 "*c + %" PRId64
                        "*y + x) }", it, out, g == NC_DEPS_PER_ROW ? ", x" : "", b,
                        s.height * s.width, s.width);
  free(it);
  free(b);
  return layer_from_owned(ctx, dom, reads, writes, layer, err);
}

bool nc_deps_layer_gemm(isl_ctx *ctx, const char *name, const char *in, const char *out,
                        int64_t in_features, int64_t out_features, nc_deps_layer **layer,
                        nc_deps_error *err)
{
  if (!check_common(ctx, layer, err) || !check_name(name, "gemm", err) ||
      !check_name(in, "gemm", err) || !check_name(out, "gemm", err))
    return false;
  if (in_features < 1 || out_features < 1 || in_features > ((int64_t)1 << 40) ||
      out_features > ((int64_t)1 << 40))
    return nc_deps_fail(err, "gemm: features %" PRId64 " -> %" PRId64 " out of range",
                        in_features, out_features);
  return layer_from_owned(ctx, format("{ %s[] }", name),
                          format("{ %s[] -> %s[i] : 0 <= i < %" PRId64 " }", name, in,
                                 in_features),
                          format("{ %s[] -> %s[o] : 0 <= o < %" PRId64 " }", name, out,
                                 out_features),
                          layer, err);
}

bool nc_deps_layer_global_pool(isl_ctx *ctx, const char *name, const char *in, const char *out,
                               nc_deps_shape s, nc_deps_layer **layer, nc_deps_error *err)
{
  if (!check_common(ctx, layer, err) || !check_name(name, "global_pool", err) ||
      !check_name(in, "global_pool", err) || !check_name(out, "global_pool", err) ||
      !check_shape(s, "global_pool", err))
    return false;
  return layer_from_owned(ctx, format("{ %s[] }", name),
                          format("{ %s[] -> %s[c, y, x] : 0 <= c < %" PRId64 " and 0 <= y < %"
                                 PRId64 " and 0 <= x < %" PRId64 " }", name, in, s.channels,
                                 s.height, s.width),
                          format("{ %s[] -> %s[c, 0, 0] : 0 <= c < %" PRId64 " }", name, out,
                                 s.channels),
                          layer, err);
}

void nc_deps_layer_destroy(nc_deps_layer *layer)
{
  if (!layer)
    return;
  isl_set_free(layer->domain);
  isl_union_map_free(layer->reads);
  isl_union_map_free(layer->writes);
  free(layer);
}

isl_set *nc_deps_layer_get_domain(const nc_deps_layer *layer)
{
  return layer ? isl_set_copy(layer->domain) : NULL;
}

isl_union_map *nc_deps_layer_get_reads(const nc_deps_layer *layer)
{
  return layer ? isl_union_map_copy(layer->reads) : NULL;
}

isl_union_map *nc_deps_layer_get_writes(const nc_deps_layer *layer)
{
  return layer ? isl_union_map_copy(layer->writes) : NULL;
}

char *nc_deps_layer_domain_to_str(const nc_deps_layer *layer)
{
  return layer ? isl_set_to_str(layer->domain) : NULL;
}

char *nc_deps_layer_reads_to_str(const nc_deps_layer *layer)
{
  return layer ? isl_union_map_to_str(layer->reads) : NULL;
}

char *nc_deps_layer_writes_to_str(const nc_deps_layer *layer)
{
  return layer ? isl_union_map_to_str(layer->writes) : NULL;
}
