/* GC_realloc of a GC_MALLOC_UNCOLLECTABLE block that moves: the new
   block is uncollectable too (Boehm keeps the kind), so it is allocated
   major, whatever its size: its words go to major_words, none to
   minor_words, and it is never promoted.  */
/* { dg-do run } */
/* { dg-options "-std=gnu11" } */

#include <gc.h>
#include "../lib/mptest.h"


void *keep;			/* global: the stores must stay */

int
main (void)
{
  GC_INIT ();
  keep = GC_MALLOC_UNCOLLECTABLE (16);
  GC_gcollect ();
  double mi0, pr0, ma0, mi, pr, ma;

  /* 1. To a large block.  */
  mp_counters (&mi0, &pr0, &ma0);
  void *old = keep;
  keep = GC_REALLOC (keep, 4000);
  CHECK (keep != old);
  GC_gcollect ();
  mp_counters (&mi, &pr, &ma);
  CHECK_EQ (mi - mi0, 0);
  CHECK_EQ (pr - pr0, 0);
  CHECK_EQ (ma - ma0, W (4000));

  /* 2. Back to a small block: still major, not promoted.  */
  mp_counters (&mi0, &pr0, &ma0);
  old = keep;
  keep = GC_REALLOC (keep, 100);
  CHECK (keep != old);
  GC_gcollect ();
  GC_gcollect ();
  mp_counters (&mi, &pr, &ma);
  CHECK_EQ (mi - mi0, 0);
  CHECK_EQ (pr - pr0, 0);
  CHECK_EQ (ma - ma0, W (100));

  GC_FREE (keep);
  return mpt_done ();
}

/* { dg-output "(^|\n)ok\n" } */
