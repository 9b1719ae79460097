/* Exact per-site counters for every call of the malloc family, and the
   global bytesUsed back to its starting value once everything is freed.  */
/* { dg-do run } */
/* { dg-options "-std=gnu11" } */

#include <malloc.h>
#include <stdint.h>
#include "../lib/mptest.h"

void *volatile sink;

int
main (void)
{
  struct mp_alloc_stats g0, g;
  mp_alloc_stats (&g0);

  /* malloc */
  char *m = malloc (100); unsigned l_malloc = __LINE__;
  sink = m;
  mp_alloc_stats (&g);
  CHECK_EQ (g.bytesUsed - g0.bytesUsed, 100);
  CHECK_EQ (g.numAllocate - g0.numAllocate, 1);
  struct mpt_site s = SITE (l_malloc);
  CHECK_EQ (s.n, 1);
  CHECK (s.callee && strcmp (s.callee, "malloc") == 0);
  CHECK_EQ (s.s.numAllocate, 1);
  CHECK_EQ (s.s.numAllocateOK, 1);
  CHECK_EQ (s.s.bytesAllocated, 100);
  CHECK_EQ (s.s.numDeallocate, 0);
  memset (m, 'm', 100);

  /* calloc: zeroed, 120 bytes */
  unsigned char *c = calloc (10, 12); unsigned l_calloc = __LINE__;
  sink = c;
  for (int i = 0; i < 120; i++)
    CHECK_EQ (c[i], 0);
  s = SITE (l_calloc);
  CHECK_EQ (s.s.numAllocate, 1);
  CHECK_EQ (s.s.numAllocateOK, 1);
  CHECK_EQ (s.s.bytesAllocated, 120);
  mp_alloc_stats (&g);
  CHECK_EQ (g.bytesUsed - g0.bytesUsed, 220);

  /* realloc, grow 100 -> 1000 */
  uintptr_t before = (uintptr_t) m;
  char *m2 = realloc (m, 1000); unsigned l_grow = __LINE__;
  sink = m2;
  int grew_in_place = (uintptr_t) m2 == before;
  for (int i = 0; i < 100; i++)
    CHECK_EQ (m2[i], 'm');
  s = SITE (l_grow);
  CHECK_EQ (s.s.numAllocate, 0);
  CHECK_EQ (s.s.numReallocate, 1);
  CHECK_EQ (s.s.numReallocateOK, 1);
  CHECK_EQ (s.s.numReallocateInPlace, grew_in_place);
  CHECK_EQ (s.s.numExpand, 1);
  CHECK_EQ (s.s.numExpandOK, grew_in_place);
  CHECK_EQ (s.s.bytesExpanded, 900);
  CHECK_EQ (s.s.bytesAllocated, 900);
  CHECK_EQ (s.s.bytesContracted, 0);
  CHECK_EQ (grew_in_place ? s.s.bytesNotMoved : s.s.bytesMoved, 100);
  CHECK_EQ (grew_in_place ? s.s.bytesMoved : s.s.bytesNotMoved, 0);
  mp_alloc_stats (&g);
  CHECK_EQ (g.bytesUsed - g0.bytesUsed, 1120);

  /* realloc, shrink 1000 -> 10 */
  before = (uintptr_t) m2;
  char *m3 = realloc (m2, 10); unsigned l_shrink = __LINE__;
  sink = m3;
  int shrank_in_place = (uintptr_t) m3 == before;
  for (int i = 0; i < 10; i++)
    CHECK_EQ (m3[i], 'm');
  s = SITE (l_shrink);
  CHECK_EQ (s.s.numReallocate, 1);
  CHECK_EQ (s.s.numReallocateOK, 1);
  CHECK_EQ (s.s.numReallocateInPlace, shrank_in_place);
  CHECK_EQ (s.s.numExpand, 0);
  CHECK_EQ (s.s.numExpandOK, 0);
  CHECK_EQ (s.s.bytesExpanded, 0);
  CHECK_EQ (s.s.bytesAllocated, 0);
  CHECK_EQ (s.s.bytesContracted, 990);
  CHECK_EQ (shrank_in_place ? s.s.bytesNotMoved : s.s.bytesMoved, 10);
  mp_alloc_stats (&g);
  CHECK_EQ (g.bytesUsed - g0.bytesUsed, 130);

  /* realloc (NULL, n) is an allocation at the realloc's site */
  char *r = realloc (NULL, 50); unsigned l_rnull = __LINE__;
  sink = r;
  s = SITE (l_rnull);
  CHECK_EQ (s.s.numAllocate, 1);
  CHECK_EQ (s.s.numAllocateOK, 1);
  CHECK_EQ (s.s.bytesAllocated, 50);
  CHECK_EQ (s.s.numReallocate, 0);
  mp_alloc_stats (&g);
  CHECK_EQ (g.bytesUsed - g0.bytesUsed, 180);

  /* realloc (p, 0) frees p (glibc): a deallocation */
  sink = realloc (r, 0); unsigned l_rzero = __LINE__;
  CHECK (sink == NULL);
  s = SITE (l_rzero);
  CHECK_EQ (s.s.numDeallocate, 1);
  CHECK_EQ (s.s.numReallocate, 0);
  CHECK_EQ (s.s.numAllocate, 0);
  CHECK_EQ (s.s.bytesContracted, 50);
  mp_alloc_stats (&g);
  CHECK_EQ (g.bytesUsed - g0.bytesUsed, 130);

  /* reallocarray: from NULL (an allocation), then grown */
  long *a = reallocarray (NULL, 5, sizeof (long)); unsigned l_ra1 = __LINE__;
  sink = a;
  for (int i = 0; i < 5; i++)
    a[i] = i;
  long *a2 = reallocarray (a, 10, sizeof (long)); unsigned l_ra2 = __LINE__;
  sink = a2;
  for (int i = 0; i < 5; i++)
    CHECK_EQ (a2[i], i);
  s = SITE (l_ra1);
  CHECK_EQ (s.s.numAllocate, 1);
  CHECK_EQ (s.s.bytesAllocated, 5 * sizeof (long));
  s = SITE (l_ra2);
  CHECK_EQ (s.s.numAllocate, 0);
  CHECK_EQ (s.s.numReallocate, 1);
  CHECK_EQ (s.s.numReallocateOK, 1);
  CHECK_EQ (s.s.numExpand, 1);
  CHECK_EQ (s.s.bytesExpanded, 5 * sizeof (long));
  CHECK_EQ (s.s.bytesAllocated, 5 * sizeof (long));
  CHECK_EQ (s.s.bytesMoved + s.s.bytesNotMoved, 5 * sizeof (long));

  /* strdup and strndup count the bytes of the copy, '\0' included */
  char *d = strdup ("hello"); unsigned l_strdup = __LINE__;
  sink = d;
  CHECK (strcmp (d, "hello") == 0);
  char *dn = strndup ("hello world", 5); unsigned l_strndup = __LINE__;
  sink = dn;
  CHECK (strcmp (dn, "hello") == 0);
  s = SITE (l_strdup);
  CHECK_EQ (s.s.numAllocate, 1);
  CHECK_EQ (s.s.bytesAllocated, 6);
  s = SITE (l_strndup);
  CHECK_EQ (s.s.numAllocate, 1);
  CHECK_EQ (s.s.bytesAllocated, 6);

  /* the aligned allocators */
  void *al = aligned_alloc (64, 128); unsigned l_aligned = __LINE__;
  sink = al;
  void *ma = memalign (32, 64); unsigned l_memalign = __LINE__;
  sink = ma;
  void *pm = NULL;
  int rc = posix_memalign (&pm, 4096, 100); unsigned l_pm = __LINE__;
  sink = pm;
  CHECK_EQ (rc, 0);
  void *va = valloc (200); unsigned l_valloc = __LINE__;
  sink = va;
  CHECK_EQ ((uintptr_t) al % 64, 0);
  CHECK_EQ ((uintptr_t) ma % 32, 0);
  CHECK_EQ ((uintptr_t) pm % 4096, 0);
  CHECK_EQ ((uintptr_t) va % 4096, 0);
  unsigned lines[] = { l_aligned, l_memalign, l_pm, l_valloc };
  unsigned sizes[] = { 128, 64, 100, 200 };
  for (int i = 0; i < 4; i++)
    {
      s = SITE (lines[i]);
      CHECK_EQ (s.n, 1);
      CHECK_EQ (s.s.numAllocate, 1);
      CHECK_EQ (s.s.numAllocateOK, 1);
      CHECK_EQ (s.s.bytesAllocated, sizes[i]);
    }
  mp_alloc_stats (&g);
  CHECK_EQ (g.bytesUsed - g0.bytesUsed,
	    10 + 120 + 10 * sizeof (long) + 6 + 6 + 128 + 64 + 100 + 200);
  CHECK (g.bytesHighTide >= g0.bytesUsed + 1120);
  CHECK_EQ (g.numAllocate - g0.numAllocate, 10);

  /* free everything, each at its own site */
  free (m3); unsigned l_f1 = __LINE__;
  free (c); unsigned l_f2 = __LINE__;
  free (a2);
  free (d);
  free (dn);
  free (al);
  free (ma);
  free (pm);
  free (va); unsigned l_f9 = __LINE__;
  s = SITE (l_f1);
  CHECK_EQ (s.s.numDeallocate, 1);
  CHECK_EQ (s.s.numForeignDeallocate, 0);
  CHECK_EQ (s.s.bytesContracted, 10);
  s = SITE (l_f2);
  CHECK_EQ (s.s.numDeallocate, 1);
  CHECK_EQ (s.s.bytesContracted, 120);
  s = SITE (l_f9);
  CHECK_EQ (s.s.numDeallocate, 1);
  CHECK_EQ (s.s.bytesContracted, 200);

  mp_alloc_stats (&g);
  CHECK_EQ (g.bytesUsed, g0.bytesUsed);
  CHECK_EQ (g.bytesSlack, g0.bytesSlack);
  CHECK_EQ (g.numDeallocate - g0.numDeallocate, 10);	/* 9 frees, realloc (r, 0) */
  CHECK_EQ (g.numForeignDeallocate - g0.numForeignDeallocate, 0);
  CHECK_EQ (g.numAllocate - g0.numAllocate, 10);
  CHECK_EQ (g.numAllocateOK - g0.numAllocateOK, 10);
  CHECK_EQ (g.numReallocate - g0.numReallocate, 3);
  CHECK_EQ (g.numReallocateOK - g0.numReallocateOK, 3);
  CHECK_EQ (g.numExpand - g0.numExpand, 2);
  CHECK_EQ (g.bytesAllocated - g0.bytesAllocated,
	    100 + 120 + 900 + 50 + 10 * sizeof (long) + 6 + 6
	    + 128 + 64 + 100 + 200);
  return mpt_done ();
}

/* { dg-output "(^|\n)ok\n" } */
