/* allowed.h: a finding under an ALLOWED folder of check_headers.py (lint.test). */
void nc_allowed_free(void *p);
