/* collect.h -- the collections the runtime forces (collect.c).  */

#ifndef MEMPROF_COLLECT_H
#define MEMPROF_COLLECT_H

#include "internal.h"

extern mp_counter mp_compactions, mp_forced_majors;
void mp_collect_minor (const char *why);
void mp_compact_soon (void);
void mp_compact_if_due (struct mp_thread *t);

#endif
