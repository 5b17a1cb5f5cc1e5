/* bad.h: a header breaking each rule of check_headers.py once (lint.test). */
#ifndef NC_BAD_H
#define NC_BAD_H

#include "nc/support/base.h"

typedef struct nc_thing nc_thing;

/** Makes a thing. */
nc_thing *nc_thing_make(void);
/** Makes a thing that someone else keeps. */
NC_KEEP nc_thing *nc_thing_create(void);
/** Releases a thing. */
void nc_thing_free(NC_TAKE nc_thing *t);
/** Destroys a thing. */
void nc_thing_destroy(nc_thing *t);
/** Takes a name. */
void nc_thing_set_name_owned(nc_thing *t, char *name);
/** Adds data. */
void nc_thing_add(nc_thing *t, char *data, bool owned);

void nc_thing_undocumented(nc_thing *t);
/** Documented group: both lines share this comment. */
void nc_thing_first(nc_thing *t);
void nc_thing_second(nc_thing *t);

/** Good: borrowed result, owner named. */
NC_KEEP nc_thing *nc_thing_copy_ref(nc_thing *t); /* owned by the context */
/** Empties the thing, which stays usable (not a release). */
void nc_thing_clear(nc_thing *t);

struct nc_thing {
  int x;
};

#endif
