/* stats.h -- which statistics are collected (stats.c): what each site
   keeps, by its descriptor (site.h), and what the reports may show.  */

#ifndef MEMPROF_STATS_H
#define MEMPROF_STATS_H

#include "site.h"
#include "stats-choice.h"

/* The statistics site S keeps per call, as MEMPROF's per_call= narrows
   them: what its lines in the reports show.  */
unsigned mp_site_shown_per_call (const struct mp_site *s);

/* S has just been numbered (sites.c, under its lock): the global
   statistics shown from now on are only those S keeps too.  */
void mp_stats_site_numbered (const struct mp_site *s);

#endif
