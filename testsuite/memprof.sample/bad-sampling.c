/* Bad values of the sampling keys of MEMPROF: one warning each, the
   other items still apply, and the program runs on.  */
/* { dg-do run } */
/* { dg-options "-std=gnu11" } */
/* { dg-set-target-env-var MEMPROF "sampling_rate=2,sampling_rate=abc,sampling_rate=-0.5,callstack_size=5000,callstack_size=x,stacks=-1,sampling_rate=1e-3,stacks=3" } */

#include "../lib/mptest.h"

void *volatile sink;

int
main (void)
{
  for (int i = 0; i < 10000; i++)
    {
      sink = malloc (800);
      free (sink);
    }
  return mpt_done ();
}

/* { dg-output "^memprof: MEMPROF: bad value '2' for 'sampling_rate' \\(ignored\\)\n" } */
/* { dg-output "memprof: MEMPROF: bad value 'abc' for 'sampling_rate' \\(ignored\\)\n" } */
/* { dg-output "memprof: MEMPROF: bad value '-0.5' for 'sampling_rate' \\(ignored\\)\n" } */
/* { dg-output "memprof: MEMPROF: bad value '5000' for 'callstack_size' \\(ignored\\)\n" } */
/* { dg-output "memprof: MEMPROF: bad value 'x' for 'callstack_size' \\(ignored\\)\n" } */
/* { dg-output "memprof: MEMPROF: bad value '-1' for 'stacks' \\(ignored\\)\n" } */
/* { dg-output "ok\n" } */
/* { dg-output ".*== call stacks by estimated bytes allocated: 1 of 1 ==\n\[0-9\]+ bytes, \[0-9\]+ samples, not young\n    main( at |\n)" } */
