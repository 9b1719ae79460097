/* first-call.c through the lean entries that keep the calls' counts
   but no bytesUsed: free's fast path makes no test of bytesUsed there
   that would send mp_no_fast_thread to the slow path.  */
/* { dg-do run } */
/* { dg-options "-std=gnu11 -pthread -fplugin-arg-memprof-stats=numAllocate+numDeallocate+numReallocate -fplugin-arg-memprof-per-call=none" } */

#define LEAN
#include "first-call.c"

/* { dg-output "(^|\n)ok\n" } */
