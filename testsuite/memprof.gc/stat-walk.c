/* mp_stat's heap walk after real work: its invariants, a known set of
   retained blocks counted, at least, and at most with the collector's
   slack (before and after a collection), free blocks and fragments that
   move as known, and stack_size.  */
/* { dg-do run } */
/* { dg-options "-std=gnu11" } */

#include <gc.h>
#include "../lib/mptest.h"

#define KEPT 2000
/* Blocks the collector may count over: objects waiting in a thread's
   free-list cache are marked (memprof.h), at most a block's worth per
   size class.  It never counts under: every block we keep is reachable,
   so marked at the last collection, or young since and logged.  A
   difference of two counts may be under, though: blocks that waited in
   a cache, counted in the first, may be among those the second counts
   for the first time.  */
#define SLACK 1200

#define NEAR(a, b, slack) CHECK ((a) >= (b) - (slack) && (a) <= (b) + (slack))
#define AT_LEAST(a, b, slack) CHECK ((a) >= (b) && (a) <= (b) + (slack))

void *kept[KEPT], *more[KEPT], *large[100];

static void
invariants (const struct mp_stat *s)
{
  CHECK (s->heap_words > 0);
  CHECK (s->live_words + s->free_words <= s->heap_words);
  CHECK (s->top_heap_words >= s->heap_words);
  CHECK (s->free_blocks >= 0 && s->largest_free >= 0);
  CHECK (s->free_blocks == 0 ? s->largest_free == 0 : s->largest_free > 0);
  CHECK (s->fragments >= 0 && s->fragments < s->heap_words);
  CHECK (s->heap_chunks >= 1);
  CHECK (s->live_blocks > 0 && s->live_words >= s->live_blocks);
}

static __attribute__ ((noinline)) void
garbage (void)
{
  for (int i = 0; i < 200000; i++)
    GC_MALLOC (16 + i % 200);
}

static __attribute__ ((noinline)) long
stack_at_depth (int depth)
{
  volatile char pad[1024];
  pad[0] = (char) depth;
  if (depth > 0)
    return stack_at_depth (depth - 1) + pad[0] - depth;
  struct mp_stat s;
  mp_quick_stat (&s);
  return s.stack_size;
}

int
main (void)
{
  GC_INIT ();
  for (int i = 0; i < KEPT; i++)
    kept[i] = GC_MALLOC (48);
  garbage ();
  clear_stack ();
  mp_major ();
  struct mp_stat s0, s1, s2;
  mp_stat (&s0);
  invariants (&s0);
  AT_LEAST (s0.live_blocks, KEPT, SLACK);
  CHECK (s0.live_words >= KEPT * 6);

  /* New blocks count before any collection has seen them.  */
  for (int i = 0; i < KEPT; i++)
    more[i] = GC_MALLOC (48);
  mp_stat (&s1);
  invariants (&s1);
  AT_LEAST (s1.live_blocks, KEPT * 2, SLACK);
  NEAR (s1.live_blocks - s0.live_blocks, KEPT, SLACK);
  NEAR (s1.live_words - s0.live_words, KEPT * 6, SLACK * 6);

  /* Objects of 3000 bytes have a 4 KiB block each: the rest of it is a
     fragment.  Dropping them frees their blocks.  */
  long waste = 0;
  for (int i = 0; i < 100; i++)
    {
      large[i] = GC_MALLOC_ATOMIC (3000);
      waste += (4096 - (long) GC_size (large[i])) / (long) sizeof (void *);
    }
  clear_stack ();
  mp_major ();
  mp_stat (&s1);
  invariants (&s1);
  NEAR (s1.fragments - s0.fragments, waste, 512);
  AT_LEAST (s1.live_blocks, KEPT * 2 + 100, SLACK);

  memset (large, 0, sizeof large);
  memset (more, 0, sizeof more);
  clear_stack ();
  mp_major ();
  mp_stat (&s2);
  invariants (&s2);
  AT_LEAST (s2.live_blocks, KEPT, SLACK);
  NEAR (s2.fragments, s1.fragments - waste, 512);
  CHECK (s2.free_words >= s1.free_words + 100 * 4096 / 8 - 4096);
  CHECK (s2.largest_free * 8 >= 4096);

  /* A free block of 4 MiB after a large object dies.  */
  large[0] = GC_MALLOC_ATOMIC (4 << 20);
  large[0] = NULL;
  clear_stack ();
  mp_major ();
  mp_stat (&s2);
  invariants (&s2);
  CHECK (s2.largest_free * 8 >= 4 << 20);

  /* stack_size: 100 frames of more than 1 KiB deeper is more than
     100 KiB more.  */
  long shallow = stack_at_depth (0), deep = stack_at_depth (100);
  CHECK (shallow > 0);
  CHECK (deep - shallow >= 100 * 1024 / 8);
  CHECK (deep - shallow <= 100 * 2048 / 8);
  return mpt_done ();
}

/* { dg-output "(^|\n)ok\n" } */
