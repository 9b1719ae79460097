/* minor_heap_size: a thread that allocates the budget's worth of young
   words runs a minor collection, exactly then; GC_free'd young blocks
   count; large blocks do not; a tracker sees the block that reached the
   budget promoted; 0 turns the budget off.  The heap is made
   large at start (init_heap_size) so that Boehm does not collect on its
   own.  */
/* { dg-do run } */
/* { dg-options "-std=gnu11" } */
/* { dg-set-target-env-var MEMPROF "h=16M" } */

#include <gc.h>
#include "../lib/mptest.h"

#define BUDGET 65536

void *kept[256];
static int young, promoted;

static void *
on_alloc (const struct mp_allocation *a, void *data)
{
  (void) data;
  young += a->size == 16;
  return &young;
}

static void *
on_promote (void *meta, void *data)
{
  (void) data;
  promoted++;
  return meta;
}

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

  /* A tracker sees the block that reaches the budget young, then
     promoted, like the others: 256 blocks of 16 words, sampled at rate
     1, all kept, all promoted by the collection at the last one.  */
  MPT_SET (minor_heap_size, 4096);
  mp_major ();
  struct mp_stat s0, s1;
  mp_quick_stat (&s0);
  mpt_start (1, (struct mp_tracker) { .alloc_minor = on_alloc,
                                      .promote = on_promote });
  for (int i = 0; i < 256; i++)
    kept[i] = GC_MALLOC (128);
  mp_quick_stat (&s1);
  CHECK_EQ (s1.minor_collections - s0.minor_collections, 1);
  CHECK_EQ (s1.promoted_words - s0.promoted_words, 4096);
  mp_minor ();                  /* delivers the promotions */
  CHECK_EQ (young, 256);
  CHECK_EQ (promoted, 256);
  CHECK_EQ (mp_memprof_stop (), 0);

  /* No budget, no collection.  */
  MPT_SET (minor_heap_size, 0);
  long m2 = minors ();
  for (int i = 0; i < 100000; i++)
    GC_MALLOC (128);
  CHECK_EQ (minors () - m2, 0);
  return mpt_done ();
}

/* { dg-output "(^|\n)ok\n" } */
