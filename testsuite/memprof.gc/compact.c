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
make_big (void)
{
  /* Only a pointer to its first page keeps it: a conservative
     collector finds stray words that point into 32 MiB often.  */
  big = GC_MALLOC_ATOMIC_IGNORE_OFF_PAGE (BIG_WORDS * 8);
  big = NULL;
}

/* A big block, dropped; A, the stat record then; and no stale copy of
   the block's address left (mp_stat's walk of the heap makes some).  */
static __attribute__ ((noinline)) void
drop_big (struct mp_stat *a)
{
  make_big ();
  mp_stat (a);
  clear_stack ();
}

/* Drop a big block and collect (with mp_major, so compacting if
   max_overhead says so) until the block is found dead: a stray copy of
   its address may keep it for a collection or two.  A and B are the
   stat records before and after the collection that freed it.  */
static void
drop_and_collect (struct mp_stat *a, struct mp_stat *b)
{
  for (int tries = 0; tries < 5; tries++)
    {
      drop_big (a);
      mp_major ();
      mp_stat (b);
      CHECK_EQ (b->forced_major_collections - a->forced_major_collections, 1);
      if (b->live_words < BIG_WORDS)
        return;
    }
  CHECK (!"the big block never died");
}

int
main (void)
{
  GC_INIT ();
  struct mp_stat a, b, c;
  drop_and_collect (&c, &a);
  CHECK (a.free_words >= BIG_WORDS);
  CHECK_EQ (a.compactions, c.compactions);      /* max_overhead: never */
  mp_compact ();
  mp_stat (&b);
  CHECK (a.heap_words - b.heap_words >= BIG_WORDS);
  CHECK (b.top_heap_words >= a.heap_words);
  CHECK (b.largest_free >= BIG_WORDS);  /* unmapped, still Boehm's */
  CHECK_EQ (b.compactions - a.compactions, 1);
  CHECK_EQ (b.forced_major_collections - a.forced_major_collections, 1);

  /* max_overhead 0: every full collection compacts (mp_major delivers
     it before returning), counted as a compaction, not as forced.  */
  MPT_SET (max_overhead, 0);
  drop_and_collect (&a, &b);
  CHECK_EQ (b.compactions - a.compactions, 1);
  CHECK (a.heap_words - b.heap_words >= BIG_WORDS);
  return mpt_done ();
}

/* { dg-output "(^|\n)ok\n" } */
