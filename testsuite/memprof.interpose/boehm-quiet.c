/* What Boehm allocates as memprof starts it (at GC_INIT, rewritten:
   its marker threads' stacks and TLS, through the C library's malloc,
   which the runtime interposes) is not the program's: only the
   program's 100 GC blocks are counted between the two readings.  */
/* { dg-do run } */
/* { dg-options "-std=gnu11" } */
/* { dg-set-target-env-var MEMPROF "interpose=1,report=none" } */
/* { dg-skip-if "interposition stands aside under ASan" { asan } } */

#include <gc.h>
#include "../lib/mptest.h"

void *volatile sink;

int
main (void)
{
  struct mp_alloc_stats g0, g;
  mp_alloc_stats (&g0);
  GC_INIT ();
  for (int i = 0; i < 100; i++)
    sink = GC_MALLOC (32);
  mp_alloc_stats (&g);
  CHECK_EQ (g.numAllocate - g0.numAllocate, 100);
  CHECK_EQ (g.bytesAllocated - g0.bytesAllocated, 3200);
  return mpt_done ();
}

/* { dg-output "^ok\n$" } */
