/* pprof's sample period is the rate the samples were taken at: the
   program's mp_memprof_start rate 1 here, not MEMPROF's 1e-3, which
   would make it 8000 bytes.  Each Sample says the period of its own
   samples; 1000 blocks of 16 bytes, exactly, at rate 1.  */
/* { dg-do run } */
/* { dg-options "-std=gnu11" } */
/* { dg-set-target-env-var MEMPROF "sampling_rate=1e-3,callstack_size=4,report=none,pprof=out.pb.gz" } */

#include <gc.h>
#include "../lib/mptest.h"

void *keep[1000];

static __attribute__ ((noinline)) void
fill (void)
{
  for (int i = 0; i < 1000; i++)
    keep[i] = GC_MALLOC (16);
}

int
main (void)
{
  GC_INIT ();
  CHECK_EQ (mp_memprof_start (1, 4, &mp_null_tracker), 0);
  fill ();
  CHECK_EQ (mp_memprof_stop (), 0);
  return mpt_done ();
}

/* { dg-output "^ok\n$" } */
/* { dg-final { scan-pprof out.pb.gz "-raw" "^PeriodType: space bytes\nPeriod: 8$" } } */
/* { dg-final { scan-pprof out.pb.gz "-raw" "^ +1000 +16000 +1000 +16000: \[0-9 \]+\n +kind:\\\[normal\\\]\n +sampling_period:\\\[8 bytes\\\]$" } } */
/* { dg-final { scan-pprof out.pb.gz "-raw" "memprof: sampling rate 1$" } } */
