/* promoted_words is exact: young blocks that survive their first
   collection are promoted once, with their words; young blocks that died
   (dropped, or GC_free'd) are not; large blocks, allocated major, are
   never promoted.  Only the program's own blocks live on the GC heap (the
   runtime keeps its records in libc's heap), and blocks held in a static
   array are certainly marked.  */
/* { dg-do run } */
/* { dg-options "-std=gnu11" } */

#include <gc.h>
#include "../lib/mptest.h"

#define K 1000
#define SIZE 72			/* 9 words */

void *keep[K];			/* global: the stores must stay */

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

  return mpt_done ();
}

/* { dg-output "(^|\n)ok\n" } */
