/* Under GC_DEBUG, GC_MALLOC and friends expand to GC_debug_* calls (with
   the file and line): they are rewritten and counted exactly too, at the
   requested size (Boehm's debug header is not allocated words).  */
/* { dg-do run } */
/* { dg-options "-std=gnu11" } */

#define GC_DEBUG
#include <gc.h>
#include "../lib/mptest.h"

void *volatile sink;
static void *keep[16];


int
main (void)
{
  GC_INIT ();
  double minor0, promoted0, major0, minor, promoted, major;
  struct mp_alloc_stats g0, g;
  int k = 0;
  mp_counters (&minor0, &promoted0, &major0);
  mp_alloc_stats (&g0);

  keep[k++] = GC_MALLOC (100); unsigned l1 = __LINE__;
  keep[k++] = GC_MALLOC_ATOMIC (33); unsigned l2 = __LINE__;
  keep[k++] = GC_MALLOC_UNCOLLECTABLE (40); unsigned l3 = __LINE__;
  keep[k++] = GC_MALLOC_IGNORE_OFF_PAGE (64); unsigned l4 = __LINE__;
  keep[k++] = GC_MALLOC (4096); unsigned l5 = __LINE__;
  keep[k++] = GC_STRDUP ("debug"); unsigned l6 = __LINE__;
  for (int i = 0; i < 500; i++)
    {
      sink = GC_MALLOC (16); unsigned l7 = __LINE__;
      if (i == 499)
	CHECK_SITE (l7, "GC_debug_malloc", 500, 500 * 16, 500 * 2, 0);
    }
  CHECK (strcmp (keep[5], "debug") == 0);

  CHECK_SITE (l1, "GC_debug_malloc", 1, 100, W (100), 0);
  CHECK_SITE (l2, "GC_debug_malloc_atomic", 1, 33, W (33), 0);
  CHECK_SITE (l3, "GC_debug_malloc_uncollectable", 1, 40, 0, W (40));
  CHECK_SITE (l4, "GC_debug_malloc_ignore_off_page", 1, 64, W (64), 0);
  CHECK_SITE (l5, "GC_debug_malloc", 1, 4096, 0, W (4096));
  CHECK_SITE (l6, "GC_debug_strdup", 1, 6, 1, 0);

  mp_counters (&minor, &promoted, &major);
  CHECK_EQ (minor - minor0, W (100) + W (33) + W (64) + 1 + 1000);
  CHECK_EQ ((major - promoted) - (major0 - promoted0), W (40) + W (4096));

  /* GC_REALLOC -> GC_debug_realloc: a realloc on a block */
  strcpy (keep[0], "kept");
  keep[0] = GC_REALLOC (keep[0], 3000); unsigned l8 = __LINE__;
  CHECK (strcmp (keep[0], "kept") == 0);
  struct mpt_site s = SITE (l8);
  CHECK_EQ (s.n, 1);
  CHECK (s.n && strcmp (s.callee, "GC_debug_realloc") == 0);
  CHECK_EQ (s.s.numReallocate, 1);
  CHECK_EQ (s.s.numReallocateOK, 1);
  CHECK_EQ (s.s.numExpand, 1);
  CHECK_EQ (s.s.numAllocate, 0);
  CHECK_EQ (s.minor_words + s.major_words, W (3000));

  /* GC_FREE -> GC_debug_free */
  GC_FREE (keep[1]); unsigned l9 = __LINE__;
  s = SITE (l9);
  CHECK (s.n && strcmp (s.callee, "GC_debug_free") == 0);
  CHECK_EQ (s.s.numDeallocate, 1);
  CHECK_EQ (s.s.numForeignDeallocate, 0);
  for (int i = 2; i < k; i++)
    GC_FREE (keep[i]);
  GC_FREE (keep[0]);
  mp_alloc_stats (&g);
  CHECK_EQ (g.numDeallocate - g0.numDeallocate, k);
  CHECK_EQ (g.numForeignDeallocate - g0.numForeignDeallocate, 0);
  CHECK_EQ (g.numAllocate - g0.numAllocate, 6 + 500);

  /* bytesUsed counts GC blocks at their usable size (GC_size of the
     block, Boehm's debug header included) on allocation and on free
     alike: debug and plain blocks of the same request, in either order,
     leave it where it was once freed */
  for (size_t n = 200; n <= 208; n += 8)
    {
      mp_alloc_stats (&g0);
      void *plain, *dbg;
      if (n == 200)
	{
	  plain = GC_malloc (n);
	  dbg = GC_MALLOC (n);
	}
      else
	{
	  dbg = GC_MALLOC (n);
	  plain = GC_malloc (n);
	}
      mp_alloc_stats (&g);
      CHECK_EQ (g.bytesUsed - g0.bytesUsed,
		GC_size (plain) + GC_size (GC_base (dbg)));
      GC_free (plain);
      GC_FREE (dbg);
      mp_alloc_stats (&g);
      CHECK_EQ (g.bytesUsed, g0.bytesUsed);
    }
  return mpt_done ();
}

/* { dg-output "(^|\n)ok\n" } */
