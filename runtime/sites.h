/* sites.h -- the numbered sites, for those who read them (sites.c):
   the reports, the stat record, the fatal-signal summary.  */

#ifndef MEMPROF_SITES_H
#define MEMPROF_SITES_H

#include <stdint.h>
#include "internal.h"

/* Sum the counters of one site over all threads; IDs from 1.  */
void mp_site_sum (unsigned id, int64_t out[SC_COUNT]);
unsigned mp_site_count (void);
const struct mp_site *mp_site_by_number (unsigned id);

/* The object mapped at [LO, HI) is about to be unloaded (dlclose):
   the descriptors of its sites, which the plugin compiled into it, are
   copied, so that the reports still name them.  */
void mp_sites_unloading (uintptr_t lo, uintptr_t hi);

#endif
