/* A bad interpose= value is one warning line, and the value before it
   stands: here 1, so that qsort's buffer is counted.  */
/* { dg-do run } */
/* { dg-skip-if "interposition stands aside under ASan" { asan } } */
/* { dg-set-target-env-var MEMPROF "interpose=1,interpose=2,interpose=on" } */

#include "../lib/mptest.h"
#include "../lib/mpqsort.h"


int
main (void)
{
  setvbuf (stdout, NULL, _IONBF, 0);    /* no buffer to count */
  struct mp_alloc_stats s0, s1;
  mp_alloc_stats (&s0);
  mpt_qsort ();
  mp_alloc_stats (&s1);
  CHECK_EQ (s1.numAllocateOK - s0.numAllocateOK, 1);
  CHECK_EQ (s1.bytesAllocated - s0.bytesAllocated, MPT_QSORT_BYTES);
  return mpt_done ();
}

/* { dg-output "^memprof: MEMPROF: bad value '2' for 'interpose' \\(ignored\\)\nmemprof: MEMPROF: bad value 'on' for 'interpose' \\(ignored\\)\n" } */
/* { dg-output ".*ok\n.*\nnot rewritten: 1 blocks, 16384 bytes, from 1 callers\n" } */
