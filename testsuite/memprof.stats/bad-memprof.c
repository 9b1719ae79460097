/* Bad lists in MEMPROF's stats= and per_call= get one warning line each,
   naming the word at fault; the item is ignored, and the others apply
   (sites=1).  */
/* { dg-do run } */
/* { dg-options "-std=gnu11" } */
/* { dg-set-target-env-var MEMPROF "stats=numFoo,per_call=bytesUsed,stats=numAll+numOwns,per_call=,stats=none++numAll,sites=1,per_call=bytesNone" } */

#include "../lib/mptest.h"

void *volatile kept[3];

int
main (void)
{
  kept[0] = malloc (10);
  kept[1] = malloc (20);
  CHECK_EQ (mp_alloc_stats_collected (), MP_STATS_all);
  return mpt_done ();
}

/* { dg-output "^memprof: MEMPROF: unknown statistic 'numFoo' in 'stats' \\(ignored\\)\n" } */
/* { dg-output "memprof: MEMPROF: global-only statistic 'bytesUsed' in 'per_call' \\(ignored\\)\n" } */
/* { dg-output "memprof: MEMPROF: unsupported statistic 'numOwns' in 'stats' \\(ignored\\)\n" } */
/* { dg-output "memprof: MEMPROF: empty statistic name '' in 'per_call' \\(ignored\\)\n" } */
/* { dg-output "memprof: MEMPROF: empty statistic name '' in 'stats' \\(ignored\\)\n" } */
/* { dg-output "memprof: MEMPROF: unknown statistic 'bytesNone' in 'per_call' \\(ignored\\)\n" } */
/* { dg-output "ok\n.*== allocation sites: 1 of 2, largest first ==\n" } */
