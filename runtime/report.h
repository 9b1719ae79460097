/* report.h -- D's allocator statistics and the sites, for the other
   forms of the report (report.c).  */

#ifndef MEMPROF_REPORT_H
#define MEMPROF_REPORT_H

#include <stddef.h>
#include "internal.h"

/* D's global statistics, in D's order; FLAG marks those it also keeps
   per call.  */
extern const struct mp_field mp_alloc_fields[];

/* Every site that ran, one per place in the source, largest first, into
   *INFOS (malloc'ed); 0, or -1 without memory.  */
int mp_sites_by_size (struct mp_site_info **infos, size_t *n);

#endif
