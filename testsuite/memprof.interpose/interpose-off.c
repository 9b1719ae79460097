/* MEMPROF's interpose=0 (the testsuite's default) turns the counting of
   calls no rewritten site made off: qsort's buffer and a malloc called
   through a pointer go uncounted, and the report says so; the rewritten
   calls are counted as ever.  */
/* { dg-do run } */
/* { dg-skip-if "under ASan the report gives ASan as the reason" { asan } } */
/* { dg-set-target-env-var MEMPROF "json=out.json" } */

#include <stdio.h>
#include "../lib/mptest.h"
#include "../lib/mpqsort.h"

void *(*volatile indirect) (size_t) = malloc;
void *volatile sink;


int
main (void)
{
  struct mp_alloc_stats s0, s1;
  mp_alloc_stats (&s0);
  mpt_qsort ();
  void *p = indirect (100);
  sink = p;
  free (p);
  void *q = malloc (100);
  sink = q;
  mp_alloc_stats (&s1);
  CHECK_EQ (s1.numAllocateOK - s0.numAllocateOK, 1);
  CHECK_EQ (s1.bytesAllocated - s0.bytesAllocated, 100);
  /* The foreign block's free: a free of a pointer not ours.  */
  CHECK_EQ (s1.numForeignDeallocate - s0.numForeignDeallocate, 1);
  return mpt_done ();
}

/* { dg-output "(^|\n)ok\n.*\nnot rewritten: not counted \\(MEMPROF's interpose=0\\)\n" } */
/* { dg-final { scan-file out.json "\"not_rewritten\":\\{\"counted\":false,\"reason\":\"MEMPROF's interpose=0\",\"blocks\":0,\"bytes\":0,\"callers\":0\\},\"sites\"" } } */
