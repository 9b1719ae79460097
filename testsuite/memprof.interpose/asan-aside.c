/* Under ASan (make check-asan) interposition stands aside, whatever
   MEMPROF says: ASan's allocator is the process's.  qsort's buffer is
   not counted, and the report says why.  */
/* { dg-do run } */
/* { dg-require-effective-target asan } */
/* { dg-set-target-env-var MEMPROF "interpose=1" } */

#include "../lib/mptest.h"
#include "../lib/mpqsort.h"


int
main (void)
{
  struct mp_alloc_stats s0, s1;
  mp_alloc_stats (&s0);
  mpt_qsort ();
  mp_alloc_stats (&s1);
  CHECK_EQ (s1.numAllocateOK, s0.numAllocateOK);
  return mpt_done ();
}

/* { dg-output "(^|\n)ok\n.*\nnot rewritten: not counted \\(the runtime is built with ASan\\)\n" } */
