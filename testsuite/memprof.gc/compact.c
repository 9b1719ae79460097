/* mp_compact gives free memory back (heap_words falls by a dropped
   block's size) and counts a compaction and a forced major collection;
   max_overhead compacts by itself after a full collection that leaves
   more free memory than it allows, counted as a compaction only.  */
/* { dg-do run } */
/* { dg-options "-std=gnu11" } */

#include <gc.h>
#include "../lib/mptest.h"

#define BIG_WORDS ((32L << 20) / 8)

static void *volatile big;

static __attribute__ ((noinline)) void
drop_big (void)
{
  big = GC_MALLOC_ATOMIC (BIG_WORDS * 8);
  big = NULL;
  clear_stack ();
}

int
main (void)
{
  GC_INIT ();
  struct mp_stat a, b;
  drop_big ();
  mp_major ();
  mp_stat (&a);
  CHECK (a.free_words >= BIG_WORDS);
  mp_compact ();
  mp_stat (&b);
  CHECK (a.heap_words - b.heap_words >= BIG_WORDS);
  CHECK (b.top_heap_words >= a.heap_words);
  CHECK (b.largest_free >= BIG_WORDS);  /* unmapped, still Boehm's */
  CHECK_EQ (b.compactions - a.compactions, 1);
  CHECK_EQ (b.forced_major_collections - a.forced_major_collections, 1);

  /* max_overhead 0: every full collection compacts (mp_major delivers
     it before returning).  */
  MPT_SET (max_overhead, 0);
  drop_big ();
  mp_stat (&a);
  mp_major ();
  mp_stat (&b);
  CHECK_EQ (b.compactions - a.compactions, 1);
  CHECK_EQ (b.forced_major_collections - a.forced_major_collections, 1);
  CHECK (a.heap_words - b.heap_words >= BIG_WORDS);

  /* The default, 1000000: never.  */
  MPT_SET (max_overhead, 1000000);
  drop_big ();
  mp_stat (&a);
  mp_major ();
  mp_stat (&b);
  CHECK_EQ (b.compactions - a.compactions, 0);
  CHECK (b.heap_words >= a.heap_words);
  return mpt_done ();
}

/* { dg-output "(^|\n)ok\n" } */
