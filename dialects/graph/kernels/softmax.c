/* softmax.c: Softmax and LogSoftmax, in both ONNX flavours: before opset 13
 * the input is coerced to 2-D at `axis` and normalised over everything from
 * `axis` on; from opset 13 only `axis` is normalised. Both reduce to rows of
 * `len` elements with stride `inner`. Max, exponentials and the sum are
 * computed in double and each result rounded once.
 */
#include "kernels_internal.h"

#include <stdlib.h>

static bool softmax_run(const char *op, bool logsm, const nc_softmax_params *p, const nc_tensor *x, nc_tensor *y,
                        char *err, size_t errlen)
{
  if (!nc_k_check_in(op, "X", x, err, errlen))
    return false;
  if (!nc_k_is_float(x->dtype))
    return nc_kerr(err, errlen, "%s: X has dtype %s, expected a float type", op, nc_dtype_name(x->dtype));
  if (!nc_k_check_out(op, y, x->dtype, x->rank, x->shape, err, errlen))
    return false;
  int axis;
  if (!nc_k_axis(op, p->axis, x->rank, &axis, err, errlen))
    return false;
  int64_t outer = 1, len = 1, inner = 1;
  for (int i = 0; i < x->rank; i++) {
    if (i < axis)
      outer *= x->shape[i];
    else if (i == axis || p->coerce_2d)
      len *= x->shape[i];
    else
      inner *= x->shape[i];
  }
  nc_dtype dt = x->dtype;
  double *e = nc_xmalloc((size_t)(len ? len : 1) * sizeof(double));
  for (int64_t o = 0; o < outer; o++)
    for (int64_t in = 0; in < inner; in++) {
      int64_t base = o * len * inner + in;
      double m = -INFINITY;
      for (int64_t i = 0; i < len; i++) {
        e[i] = nc_elem_load_f64(x->data, dt, base + i * inner);
        m = e[i] > m ? e[i] : m;
      }
      double sum = 0;
      for (int64_t i = 0; i < len; i++) {
        e[i] -= m;
        sum += exp(e[i]);
      }
      double ls = log(sum);
      for (int64_t i = 0; i < len; i++)
        nc_elem_store_f64(y->data, dt, base + i * inner, logsm ? e[i] - ls : exp(e[i]) / sum);
    }
  free(e);
  return true;
}

bool nc_kernel_softmax(const nc_softmax_params *p, const nc_tensor *x, nc_tensor *y, char *err, size_t errlen)
{
  if (!p)
    return nc_kerr(err, errlen, "softmax: missing parameters");
  return softmax_run("softmax", false, p, x, y, err, errlen);
}

bool nc_kernel_log_softmax(const nc_softmax_params *p, const nc_tensor *x, nc_tensor *y, char *err, size_t errlen)
{
  if (!p)
    return nc_kerr(err, errlen, "log_softmax: missing parameters");
  return softmax_run("log_softmax", true, p, x, y, err, errlen);
}
