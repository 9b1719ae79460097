/* A young block freed first thing after a collection leaves a tombstone
   as the first entry the next decision reads; in an epoch that is a
   multiple of 16, the tombstone's bits are 0 but its words, as those of
   a block at address 0 logged in that epoch would be.  The decision
   must skip it, in every epoch, and promote the block kept, exactly its
   words.  */
/* { dg-do run } */

#include <gc.h>
#include "../lib/mptest.h"

#define SIZE 64

void *volatile kept;

int
main (void)
{
  GC_INIT ();
  for (int round = 0; round < 34; round++)
    {
      kept = NULL;
      collect ();
      double p0 = mpt_promoted_words ();
      void *freed = GC_MALLOC (SIZE);
      GC_FREE (freed);
      kept = GC_MALLOC (SIZE);
      collect ();
      CHECK_EQ (mpt_promoted_words () - p0, W (SIZE));
    }
  return mpt_done ();
}

/* { dg-output "(^|\n)ok\n" } */
