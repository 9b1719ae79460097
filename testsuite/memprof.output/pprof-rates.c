/* Samples taken at two rates, MEMPROF's 1 and the program's 0.5 (from
   mp_memprof_start), at one call stack (its allocating frame alone):
   pprof's period is 0, unknown, since no one rate scales them all; the
   comment says both, and the Sample has the period of each (8 and 16
   bytes).  */
/* { dg-do run } */
/* { dg-options "-std=gnu11" } */
/* { dg-set-target-env-var MEMPROF "sampling_rate=1,callstack_size=1,report=none,pprof=out.pb.gz" } */

#include <gc.h>
#include "../lib/mptest.h"

void *keep[2000];

static __attribute__ ((noinline)) void
fill (int from)
{
  for (int i = from; i < from + 1000; i++)
    keep[i] = GC_MALLOC (16);
}

int
main (void)
{
  GC_INIT ();
  for (int round = 0; round < 2; round++)
    {
      if (round == 1)
        CHECK_EQ (mp_memprof_start (0.5, 1, &mp_null_tracker), 0);
      fill (1000 * round);      /* one frame: fill's, whichever call */
    }
  CHECK_EQ (mp_memprof_stop (), 0);
  return mpt_done ();
}

/* { dg-output "^ok\n$" } */
/* { dg-final { scan-pprof out.pb.gz "-raw" "^PeriodType: space bytes\nPeriod: 0$" } } */
/* { dg-final { scan-pprof out.pb.gz "-raw" "^ +kind:\\\[normal\\\]\n +sampling_period:\\\[8 bytes 16 bytes\\\]$" } } */
/* { dg-final { scan-pprof out.pb.gz "-raw" "memprof: sampling rates 0.5 to 1$" } } */
