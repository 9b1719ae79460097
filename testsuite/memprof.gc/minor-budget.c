/* minor_heap_size: a thread that allocates the budget's worth of young
   words runs a minor collection, exactly then; GC_free'd young blocks
   count; large blocks do not; 0 turns the budget off.  The heap is made
   large at start (init_heap_size) so that Boehm does not collect on its
   own.  */
/* { dg-do run } */
/* { dg-options "-std=gnu11" } */
/* { dg-set-target-env-var MEMPROF "h=16M" } */

#include <gc.h>
#include "../lib/mptest.h"

#define BUDGET 65536

static long
minors (void)
{
  struct mp_stat s;
  mp_quick_stat (&s);
  return s.minor_collections;
}

int
main (void)
{
  GC_INIT ();
  GC_MALLOC (16);               /* Boehm starts, with its large heap */
  mp_major ();
  MPT_SET (minor_heap_size, BUDGET);
  long m0 = minors ();

  /* 16-word blocks: the 4096th reaches the budget.  */
  for (int i = 0; i < 4095; i++)
    GC_MALLOC (128);
  CHECK_EQ (minors () - m0, 0);
  GC_MALLOC (128);
  CHECK_EQ (minors () - m0, 1);

  /* 1M words in blocks of 1 to 256 words (and some large ones, which
     are major): a collection each time the young words since the last
     one reach the budget.  Freed blocks count as allocated.  */
  long words = 0, since = 0, expected = 0, m1 = minors ();
  for (int i = 0; words < (1 << 20); i++)
    {
      size_t n = 1 + (size_t) (i * 7919) % 256;
      void *p = GC_MALLOC (n * 8);
      words += (long) n;
      if ((since += (long) n) >= BUDGET)
        {
          expected++;
          since = 0;
          CHECK_EQ (minors () - m1, expected);
        }
      if (i % 3 == 0)
        GC_FREE (p);
      if (i % 5000 == 0)
        GC_MALLOC (4096);
    }
  CHECK_EQ (minors () - m1, expected);
  CHECK (expected >= (1 << 20) / BUDGET - 1);

  /* No budget, no collection.  */
  MPT_SET (minor_heap_size, 0);
  long m2 = minors ();
  for (int i = 0; i < 100000; i++)
    GC_MALLOC (128);
  CHECK_EQ (minors () - m2, 0);
  return mpt_done ();
}

/* { dg-output "(^|\n)ok\n" } */
