/* space.h -- MLWorks' space profiles, by function (space.c).  */

#ifndef MEMPROF_SPACE_H
#define MEMPROF_SPACE_H

#include <stddef.h>
#include <stdio.h>
#include "memprof.h"

/* The space profiles into *ALL (malloc'ed, NULL if none),
   sorted as mp_space_profile_foreach gives them; 0, or -1 without
   memory.  */
int mp_space_profiles (struct mp_space_profile **all, size_t *n);
void mp_space_report (FILE *out, size_t top);
const char *mp_source_name (enum mp_source source);

#endif
