/* strutil_test.c: nc_error_format, the one formatter behind the loaders'
 * (err, errlen) messages (ONNX loading, plugins, host stubs): it formats,
 * truncates to the buffer with a terminating NUL, writes nothing for a NULL
 * buffer or a zero length, and always returns false.
 */
#include <string.h>

#include "check.h"
#include "nc/support/strutil.h"

int main(void)
{
  char buf[16];
  CHECK(!nc_error_format(buf, sizeof buf, "%s: %d", "x.onnx", 42), "returns false");
  CHECK(!strcmp(buf, "x.onnx: 42"), "formatted as '%s'", buf);
  CHECK(!nc_error_format(buf, 8, "%s", "a long message"), "returns false when truncating");
  CHECK(!strcmp(buf, "a long "), "truncated to 7 characters and a NUL, got '%s'", buf);
  memset(buf, 'z', sizeof buf);
  CHECK(!nc_error_format(buf, 0, "%s", "nothing"), "returns false for errlen 0");
  CHECK(buf[0] == 'z', "writes nothing for errlen 0");
  CHECK(!nc_error_format(NULL, 16, "%s", "nothing"), "returns false for a NULL buffer");
  return failures != 0;
}
