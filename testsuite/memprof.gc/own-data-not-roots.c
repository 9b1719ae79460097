/* memprof's own data and bss are no roots of Boehm's (runtime/roots.c):
   a block whose address only memprof's tables hold dies.  Such a table
   is generations.c's `unfound', which keeps the address of a young
   block that another thread freed with GC_free after the decision that
   used it.  The test has that address given out again (mpreuse.h),
   keeps the new block through a disappearing link alone, and
   collects: Boehm must clear the link.  */
/* { dg-do run } */
/* { dg-options "-std=gnu11 -pthread" } */

#define GC_THREADS
#include <gc.h>
#include <pthread.h>
#include "../lib/mptest.h"
#include "../lib/mpreuse.h"

#define SIZE 512                /* 64 words */

/* Hidden, so that it does not keep its block alive.  */
static GC_hidden_pointer link;

/* Whether the block freed by another thread was given out again: then
   LINK watches it, and no reference of the program's is left.  */
static __attribute__ ((noinline)) int
reuse (void)
{
  void *old;
  void *again = mpt_reuse (SIZE, &old);
  if (again != old)
    return 0;
  link = GC_HIDE_POINTER (again);
  CHECK_EQ (GC_general_register_disappearing_link ((void **) &link, again),
            GC_SUCCESS);
  return 1;
}

int
main (void)
{
  GC_INIT ();
  collect ();
  /* Otherwise the test would test nothing.  */
  CHECK (reuse ());
  for (int i = 0; i < 3 && link != 0; i++)
    collect ();
  CHECK_EQ (link, 0);
  return mpt_done ();
}

/* { dg-output "(^|\n)ok\n" } */
