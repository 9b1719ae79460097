/* promoted_words is exact: young blocks that survive their first
   collection are promoted once, with their words; young blocks that died
   (dropped, or GC_free'd) are not, wherever their heap blocks are;
   large blocks, allocated major, are never promoted.  Only the program's own blocks live on the GC heap (the
   runtime keeps its records in libc's heap), and blocks held in a static
   array are certainly marked.  */
/* { dg-do run } */
/* { dg-options "-std=gnu11" } */

#include <gc.h>
#include "../lib/mptest.h"

#define K 1000
#define SIZE 72			/* 9 words */

void *keep[K];			/* global: the stores must stay */

/* Case 7: more heap blocks than the promotion check remembers the mark
   bytes of (generations.c's MARKS_CACHED), half of them kept.  */
#define MANY 20000
void *many[MANY / 2];

static double
promoted_now (void)
{
  double p;
  mp_counters (NULL, &p, NULL);
  return p;
}

static __attribute__ ((noinline)) void
allocate_into_keep (size_t size, int atomic)
{
  for (int i = 0; i < K; i++)
    keep[i] = atomic ? GC_MALLOC_ATOMIC (size) : GC_MALLOC (size);
}

/* MANY blocks of SIZE bytes: the first half dropped at once, the
   second kept in `many' (the last, which a stale register may hold, is
   kept anyway).  */
static __attribute__ ((noinline)) void
allocate_half_kept (void)
{
  for (int i = 0; i < MANY; i++)
    {
      void *p = GC_MALLOC (SIZE);
      if (i >= MANY / 2)
        many[i - MANY / 2] = p;
    }
}

static __attribute__ ((noinline)) void
drop_keep (void)
{
  memset (keep, 0, sizeof keep);
}

int
main (void)
{
  GC_INIT ();
  collect ();			/* decide whatever came before */
  double p0 = promoted_now (), p;

  /* 1. K young blocks, all reachable: all promoted, exactly.  */
  allocate_into_keep (SIZE, 0);
  collect ();
  p = promoted_now ();
  CHECK_EQ (p - p0, K * W (SIZE));

  /* 2. Collect again: they are already major, nothing more promoted.  */
  p0 = p;
  collect ();
  p = promoted_now ();
  CHECK_EQ (p - p0, 0);

  /* 3. K young atomic blocks, dropped before the collection: none
     promoted.  */
  drop_keep ();
  collect ();
  p0 = promoted_now ();
  allocate_into_keep (40, 1);
  drop_keep ();
  collect ();
  p = promoted_now ();
  CHECK_EQ (p - p0, 0);

  /* 4. K young blocks, half freed with GC_FREE while young: the other
     half promoted.  */
  p0 = p;
  allocate_into_keep (SIZE, 0);
  for (int i = 0; i < K; i += 2)
    {
      GC_FREE (keep[i]);
      keep[i] = NULL;
    }
  collect ();
  p = promoted_now ();
  CHECK_EQ (p - p0, (K / 2) * W (SIZE));

  /* 5. Large blocks are allocated major: never promoted.  */
  drop_keep ();
  collect ();
  double major0, major;
  mp_counters (NULL, &p0, &major0);
  for (int i = 0; i < 50; i++)
    keep[i] = GC_MALLOC (4096);
  collect ();
  mp_counters (NULL, &p, &major);
  CHECK_EQ (p - p0, 0);
  CHECK_EQ (major - major0, 50 * W (4096));

  /* 6. Uncollectable blocks are major too, and never promoted.  */
  p0 = p;
  for (int i = 50; i < 100; i++)
    keep[i] = GC_MALLOC_UNCOLLECTABLE (SIZE);
  collect ();
  p = promoted_now ();
  CHECK_EQ (p - p0, 0);
  for (int i = 50; i < 100; i++)
    GC_FREE (keep[i]);

  /* 7. Young blocks over hundreds of heap blocks, the second half
     kept: the heap blocks of the kept half share the remembered mark
     bytes' slots with those of the dropped half, and are read apart.  */
  drop_keep ();
  collect ();
  p0 = promoted_now ();
  GC_disable ();		/* no collection while a dropped one is held */
  allocate_half_kept ();
  GC_enable ();
  collect ();
  p = promoted_now ();
  CHECK_EQ (p - p0, (MANY / 2) * W (SIZE));

  return mpt_done ();
}

/* { dg-output "(^|\n)ok\n" } */
