/* free-reuse.c over several collections, each with its own number of
   blocks: the index of the freeing thread's log keeps its memory from
   one collection to the next, and what an earlier collection left in
   it must not be taken for a block of the current one (Boehm hands the
   same addresses out again).  */
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
