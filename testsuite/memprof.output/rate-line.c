/* With no sample at all, the space profiles' header states the rate in
   effect, not the rate of samples there are none of: here that of the
   program's mp_memprof_start, still sampling at exit, whose rate the
   report's sampling takes on.  Nothing is allocated.  */
/* { dg-do run } */
/* { dg-options "-std=gnu11" } */
/* { dg-set-target-env-var MEMPROF "sampling_rate=1e-4,report=out.txt" } */

#include <stdio.h>
#include <memprof.h>

int
main (void)
{
  if (mp_memprof_start (0.25, 8, &mp_null_tracker) != 0)
    return 1;
  puts ("ok");
  return 0;
}

/* { dg-output "^ok\n$" } */
/* { dg-final { scan-file out.txt "^== space profiles by function \\(estimates at sampling rate 0.25\\): 0 of 0, largest first ==$" } } */
