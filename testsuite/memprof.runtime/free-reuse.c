/* Young blocks freed with GC_free, oldest first (so the freeing thread
   must look past its latest entries, through the index of its log), and
   their addresses handed out again before the collection: only the
   blocks live at the collection are promoted.  Collections are held off
   (GC_disable) until the one the test makes, so the number is exact.
   Several rounds, of their own numbers of blocks: the index keeps its
   memory from one collection to the next, and what an earlier one left
   in it must not be taken for a block of the current one (Boehm hands
   the same addresses out again).  */
/* { dg-do run } */

#include <gc.h>
#include "../lib/mptest.h"

#define N 9000
static void *blocks[N];

static double
promoted (void)
{
  double p;
  mp_counters (NULL, &p, NULL);
  return p;
}

int
main (void)
{
  static const int rounds[] = { 5000, 3000, 9000, 2000, 6000, 5000 };
  GC_INIT ();
  blocks[0] = GC_MALLOC (64);   /* start memprof's accounting */
  GC_gcollect ();
  for (unsigned r = 0; r < sizeof rounds / sizeof rounds[0]; r++)
    {
      int n = rounds[r];
      GC_disable ();
      double before = promoted ();
      for (int i = 0; i < n; i++)
        blocks[i] = GC_MALLOC (64);
      for (int i = 0; i < n; i++)
        {
          GC_FREE (blocks[i]);
          blocks[i] = NULL;
        }
      for (int i = 0; i < n / 2; i++)
        blocks[i] = GC_MALLOC (64);
      GC_enable ();
      GC_gcollect ();
      CHECK_EQ (promoted () - before, (n / 2) * 8.0);
      for (int i = 0; i < n / 2; i++)
        blocks[i] = NULL;
    }
  return mpt_done ();
}

/* { dg-output "(^|\n)ok\n" } */
