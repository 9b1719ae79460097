/* Young blocks freed with GC_free, oldest first (so the freeing thread
   must look past its latest entries), and their addresses handed out
   again before the collection: only the blocks live at the collection
   are promoted.  Collections are held off (GC_disable) until the one the
   test makes, so the number is exact.  */
/* { dg-do run } */

#include <gc.h>
#include "../lib/mptest.h"

#define N 5000
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
  GC_INIT ();
  blocks[0] = GC_MALLOC (64);   /* start memprof's accounting */
  GC_gcollect ();
  GC_disable ();
  double before = promoted ();
  for (int i = 0; i < N; i++)
    blocks[i] = GC_MALLOC (64);
  for (int i = 0; i < N; i++)
    {
      GC_FREE (blocks[i]);
      blocks[i] = NULL;
    }
  for (int i = 0; i < N / 2; i++)
    blocks[i] = GC_MALLOC (64);
  GC_enable ();
  GC_gcollect ();
  CHECK_EQ (promoted () - before, (N / 2) * 8.0);
  return mpt_done ();
}

/* { dg-output "(^|\n)ok\n" } */
