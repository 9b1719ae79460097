/* report.h -- D's allocator statistics (report.c), for the writers of
   the report's other forms.  */

#ifndef MEMPROF_REPORT_H
#define MEMPROF_REPORT_H

#include <stddef.h>
#include "internal.h"

/* D's global statistics, in D's order: field I is site.h's statistic I.  */
extern const struct mp_field mp_alloc_fields[];

/* Every site that ran, one per place in the source, largest first, into
   *INFOS (malloc'ed); 0, or -1 without memory.  */
int mp_sites_by_size (struct mp_site_info **infos, size_t *n);

#endif
