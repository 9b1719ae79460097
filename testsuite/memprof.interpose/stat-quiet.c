/* Reading the stat record is not an allocation of the program's:
   mp_quick_stat finds the stack's size with pthread_getattr_np, which
   reads /proc/self/maps through the C library's malloc, interposed.
   A thousand readings leave the allocator statistics as they were.  */
/* { dg-do run } */
/* { dg-set-target-env-var MEMPROF "interpose=1,sampling_rate=1,report=none" } */
/* { dg-skip-if "interposition stands aside under ASan" { asan } } */

#include "../lib/mptest.h"

int
main (void)
{
  struct mp_alloc_stats a0, a;
  struct mp_stat st;
  mp_quick_stat (&st);
  mp_alloc_stats (&a0);
  for (int i = 0; i < 1000; i++)
    mp_quick_stat (&st);
  mp_stat (&st);
  mp_alloc_stats (&a);
  CHECK (st.stack_size > 0);
  CHECK_EQ (a.numAllocate - a0.numAllocate, 0);
  CHECK_EQ (a.numDeallocate - a0.numDeallocate, 0);
  CHECK_EQ (a.bytesAllocated - a0.bytesAllocated, 0);
  return mpt_done ();
}

/* { dg-output "^ok\n$" } */
