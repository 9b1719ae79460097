/* Numbers with white space or a sign before them are bad values, each
   with its warning: strtoul and strtod, which MEMPROF's parser uses,
   would skip the white space and take the sign (stacks=<TAB>-1 was
   taken as ULONG_MAX, and sampling_rate=-0 as 0).  */
/* { dg-do run } */
/* { dg-options "-std=gnu11" } */
/* { dg-set-target-env-var MEMPROF "stacks=\t-1,sites=\n5,functions=\v1,callstack_size=+8,sampling_rate= 0.5,sampling_rate=-0,sampling_rate=+1,sampling_rate=nan,report=none" } */

#include "../lib/mptest.h"

void *volatile sink;

int
main (void)
{
  sink = malloc (8);            /* links the runtime in */
  free (sink);
  return mpt_done ();
}

/* { dg-output "^memprof: MEMPROF: bad value '\\?-1' for 'stacks' \\(ignored\\)\n" } */
/* { dg-output "memprof: MEMPROF: bad value '\\?5' for 'sites' \\(ignored\\)\n" } */
/* { dg-output "memprof: MEMPROF: bad value '\\?1' for 'functions' \\(ignored\\)\n" } */
/* { dg-output "memprof: MEMPROF: bad value '\\+8' for 'callstack_size' \\(ignored\\)\n" } */
/* { dg-output "memprof: MEMPROF: bad value ' 0.5' for 'sampling_rate' \\(ignored\\)\n" } */
/* { dg-output "memprof: MEMPROF: bad value '-0' for 'sampling_rate' \\(ignored\\)\n" } */
/* { dg-output "memprof: MEMPROF: bad value '\\+1' for 'sampling_rate' \\(ignored\\)\n" } */
/* { dg-output "memprof: MEMPROF: bad value 'nan' for 'sampling_rate' \\(ignored\\)\n" } */
/* { dg-output "ok\n$" } */
