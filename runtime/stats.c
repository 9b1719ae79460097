/* stats.c -- which statistics are collected.

   D's StatsCollector takes two masks, `flags' for the global statistics
   and `perCallFlags' for the per-call ones.  Here each site carries its
   unit's choice in its descriptor (site.h), as the plugin's stats= and
   per-call= made it, and MEMPROF's stats= and per_call= narrow it for
   the whole run (config.c).  The global statistics are sums over every
   site, so one is exact only if every site that ran kept it: a global
   statistic is shown when all of them did.  A site's per-call
   statistics are shown as its unit chose them.  */

#include <stdatomic.h>
#include "internal.h"
#include "config.h"
#include "stats.h"

_Static_assert (MP_STATS_EVERY == MP_STATS_all
                && MP_STATS_NUM_ALL == MP_STATS_numAll
                && MP_STAT_BIT (bytesUsed) == MP_STATS_bytesUsed
                && MP_STAT_BIT (bytesHighTide) == MP_STATS_bytesHighTide,
                "memprof.h's MP_STATS_* are site.h's MP_SITE_STATS");

/* The global statistics every site numbered so far keeps.  Narrowed by
   mp_stats_site_numbered under the site table's lock; read by anyone,
   the fatal signals' handler included.  */
static _Atomic unsigned kept_by_all = MP_STATS_EVERY;

/* S's masks of statistics left out, global and per call; a descriptor
   of ABI 1 has none and keeps everything.  */
static unsigned
omitted (const struct mp_site *s, int per_call)
{
  if (s->abi == 1)
    return 0;
  return per_call ? s->per_call_omitted : s->stats_omitted;
}

unsigned
mp_site_shown_per_call (const struct mp_site *s)
{
  return ~omitted (s, 1) & MP_STATS_PER_CALL & mp_config.per_call;
}

void
mp_stats_site_numbered (const struct mp_site *s)
{
  atomic_fetch_and (&kept_by_all, ~omitted (s, 0));
}

MP_API unsigned
mp_alloc_stats_collected (void)
{
  return atomic_load (&kept_by_all) & mp_config.stats;
}
