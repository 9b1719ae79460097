/* The Boehm family: exact per-site counts and OCaml words.  A block of n
   bytes is ceil(n/8) words; young (minor_words) if collectable and at
   most MP_MAX_YOUNG_WOSIZE words, major otherwise (larger blocks,
   uncollectable blocks).  */
/* { dg-do run } */
/* { dg-options "-std=gnu11" } */

#include <gc.h>
#include "../lib/mptest.h"

void *volatile sink;
static void *keep[64];

static unsigned long exp_minor, exp_major;

/* The per-site checks of an allocation of N bytes at LINE, COUNT times.  */
static void
check_alloc (unsigned line, unsigned count, size_t n, int major,
	     const char *callee)
{
  CHECK_SITE (line, callee, count, count * n, major ? 0 : count * W (n),
	      major ? count * W (n) : 0);
  if (major)
    exp_major += count * W (n);
  else
    exp_minor += count * W (n);
}

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
  keep[k++] = GC_malloc_atomic_uncollectable (24); unsigned l4 = __LINE__;
  keep[k++] = GC_malloc_ignore_off_page (3000); unsigned l5 = __LINE__;
  keep[k++] = GC_malloc_ignore_off_page (64); unsigned l6 = __LINE__;
  keep[k++] = GC_malloc_atomic_ignore_off_page (5000); unsigned l7 = __LINE__;
  keep[k++] = GC_MALLOC (4096); unsigned l8 = __LINE__;
  keep[k++] = GC_MALLOC (2048); unsigned l9 = __LINE__;
  keep[k++] = GC_MALLOC (2049); unsigned l10 = __LINE__;
  keep[k++] = GC_STRDUP ("hello, world"); unsigned l11 = __LINE__;
  keep[k++] = GC_strndup ("abcdef", 3); unsigned l12 = __LINE__;
  keep[k++] = GC_REALLOC (NULL, 50); unsigned l13 = __LINE__;
  for (int i = 0; i < 1000; i++)
    {
      sink = GC_MALLOC (24); unsigned l14 = __LINE__;
      if (i == 999)
	check_alloc (l14, 1000, 24, 0, "GC_malloc");
    }

  CHECK (strcmp (keep[10], "hello, world") == 0);
  CHECK (strcmp (keep[11], "abc") == 0);

  check_alloc (l1, 1, 100, 0, "GC_malloc");
  check_alloc (l2, 1, 33, 0, "GC_malloc_atomic");
  check_alloc (l3, 1, 40, 1, "GC_malloc_uncollectable");
  check_alloc (l4, 1, 24, 1, "GC_malloc_atomic_uncollectable");
  check_alloc (l5, 1, 3000, 1, "GC_malloc_ignore_off_page");
  check_alloc (l6, 1, 64, 0, "GC_malloc_ignore_off_page");
  check_alloc (l7, 1, 5000, 1, "GC_malloc_atomic_ignore_off_page");
  check_alloc (l8, 1, 4096, 1, "GC_malloc");
  check_alloc (l9, 1, 2048, 0, "GC_malloc");
  check_alloc (l10, 1, 2049, 1, "GC_malloc");
  check_alloc (l11, 1, 13, 0, "GC_strdup");
  check_alloc (l12, 1, 4, 0, "GC_strndup");
  check_alloc (l13, 1, 50, 0, "GC_realloc");

  mp_counters (&minor, &promoted, &major);
  CHECK_EQ (minor - minor0, exp_minor);
  CHECK_EQ ((major - promoted) - (major0 - promoted0), exp_major);
  CHECK_EQ (minor - minor0, 13 + 5 + 8 + 256 + 2 + 1 + 7 + 3000);
  CHECK_EQ ((major - promoted) - (major0 - promoted0),
	    5 + 3 + 375 + 625 + 512 + 257);

  /* GC_REALLOC in place (within the block's usable size) */
  void *p = keep[0];
  size_t usable = GC_size (p);
  CHECK (usable >= 104);
  void *q = GC_REALLOC (p, 104); unsigned l_rin = __LINE__;
  CHECK (q == p);
  keep[0] = q;
  struct mpt_site s = SITE (l_rin);
  CHECK_EQ (s.s.numAllocate, 0);
  CHECK_EQ (s.s.numReallocate, 1);
  CHECK_EQ (s.s.numReallocateOK, 1);
  CHECK_EQ (s.s.numReallocateInPlace, 1);
  CHECK_EQ (s.s.numExpand, 0);
  CHECK_EQ (s.s.bytesNotMoved, 104);
  CHECK_EQ (s.s.bytesMoved, 0);
  CHECK_EQ (s.s.bytesAllocated, 0);
  CHECK_EQ (s.minor_words, 0);
  CHECK_EQ (s.major_words, 0);

  /* GC_REALLOC that moves: a new young block of 1000 bytes */
  memcpy (keep[12], "fifty", 6);
  size_t old = GC_size (keep[12]);
  q = GC_REALLOC (keep[12], 1000); unsigned l_rmove = __LINE__;
  CHECK (q != keep[12]);
  CHECK (strcmp (q, "fifty") == 0);
  keep[12] = q;
  s = SITE (l_rmove);
  CHECK_EQ (s.s.numReallocate, 1);
  CHECK_EQ (s.s.numReallocateOK, 1);
  CHECK_EQ (s.s.numReallocateInPlace, 0);
  CHECK_EQ (s.s.numExpand, 1);
  CHECK_EQ (s.s.numExpandOK, 0);
  CHECK_EQ (s.s.bytesExpanded, 1000 - old);
  CHECK_EQ (s.s.bytesMoved, old);
  CHECK_EQ (s.minor_words, 125);
  /* memprof.h: bytesAllocated is "bytes requested by allocations, plus
     the growth of reallocated blocks" (D's StatsCollector), as the
     malloc family's realloc counts it.  */
  CHECK_EQ (s.s.bytesAllocated, 1000 - old);

  /* GC_REALLOC (p, 0) frees */
  void *z = GC_MALLOC (16);
  size_t zs = GC_size (z);
  sink = GC_REALLOC (z, 0); unsigned l_r0 = __LINE__;
  s = SITE (l_r0);
  CHECK_EQ (s.s.numDeallocate, 1);
  CHECK_EQ (s.s.bytesContracted, zs);
  CHECK_EQ (s.s.numReallocate, 0);

  /* GC_FREE of every block kept takes exactly their usable sizes out of
     bytesUsed (the collector reclaiming the others is not a
     deallocation) */
  struct mp_alloc_stats before_free;
  mp_alloc_stats (&before_free);
  size_t kept_usable = 0;
  for (int i = 0; i < k; i++)
    kept_usable += GC_size (keep[i]);
  size_t first = GC_size (keep[0]);
  GC_FREE (keep[0]); unsigned l_free = __LINE__;
  for (int i = 1; i < k; i++)
    GC_FREE (keep[i]);
  s = SITE (l_free);
  CHECK_EQ (s.s.numDeallocate, 1);
  CHECK_EQ (s.s.bytesContracted, first);
  mp_alloc_stats (&g);
  CHECK_EQ (before_free.bytesUsed - g.bytesUsed, (int64_t) kept_usable);
  GC_FREE (NULL); unsigned l_freenull = __LINE__;
  s = SITE (l_freenull);
  CHECK_EQ (s.s.numDeallocate, 1);
  CHECK_EQ (s.s.numForeignDeallocate, 0);
  mp_alloc_stats (&g);
  CHECK_EQ (g.numDeallocate - g0.numDeallocate, k + 2);
  return mpt_done ();
}

/* { dg-output "(^|\n)ok\n" } */
