/* first-call.c through the lean entries that keep the calls' counts
   but no bytesUsed: fast paths of their own (stats.h's KEEP).  */
/* { dg-do run } */
/* { dg-options "-std=gnu11 -pthread -fplugin-arg-memprof-stats=numAllocate+numDeallocate+numReallocate -fplugin-arg-memprof-per-call=none" } */

#define LEAN
#include "first-call.c"

/* { dg-output "(^|\n)ok\n" } */
