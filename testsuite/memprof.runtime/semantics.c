/* The rewritten calls keep libc's semantics: NULL returns and errno,
   overflow checks, alignment, contents preserved by realloc, and the
   failed calls are counted as such.  */
/* { dg-do run } */
/* { dg-options "-std=gnu11" } */
/* ASan takes a bad alignment for a bug, and aborts, unless told to fail
   the call as libc does.  */
/* { dg-set-target-env-var ASAN_OPTIONS "allocator_may_return_null=1" } */

#include <errno.h>
#include <stdint.h>
#include "../lib/mptest.h"

void *volatile sink;
/* Volatile, so that GCC neither folds nor warns about the huge sizes.  */
volatile size_t huge = SIZE_MAX;
volatile size_t half = SIZE_MAX / 2 + 1;
volatile size_t bad_align = 3;

int
main (void)
{
  struct mp_alloc_stats g0, g;
  struct mpt_site s;
  mp_alloc_stats (&g0);

  /* malloc (SIZE_MAX): NULL and ENOMEM, a failed allocation */
  errno = 0;
  void *p = malloc (huge); unsigned l_mhuge = __LINE__;
  sink = p;
  CHECK (p == NULL);
  CHECK_EQ (errno, ENOMEM);
  s = SITE (l_mhuge);
  CHECK_EQ (s.s.numAllocate, 1);
  CHECK_EQ (s.s.numAllocateOK, 0);
  CHECK_EQ (s.s.bytesAllocated, 0);

  /* calloc overflow: NULL and ENOMEM, a failed allocation */
  errno = 0;
  p = calloc (half, 4); unsigned l_cover = __LINE__;
  sink = p;
  CHECK (p == NULL);
  CHECK_EQ (errno, ENOMEM);
  s = SITE (l_cover);
  CHECK_EQ (s.s.numAllocate, 1);
  CHECK_EQ (s.s.numAllocate - s.s.numAllocateOK, 1);
  CHECK_EQ (s.s.bytesAllocated, 0);

  /* reallocarray overflow: NULL, ENOMEM, the block intact and still ours */
  unsigned char *b = malloc (16);
  sink = b;
  for (int i = 0; i < 16; i++)
    b[i] = (unsigned char) (i + 1);
  errno = 0;
  p = reallocarray (b, half, 4); unsigned l_raover = __LINE__;
  sink = p;
  CHECK (p == NULL);
  CHECK_EQ (errno, ENOMEM);
  for (int i = 0; i < 16; i++)
    CHECK_EQ (b[i], i + 1);
  s = SITE (l_raover);
  CHECK_EQ (s.s.numReallocate, 1);
  CHECK_EQ (s.s.numReallocateOK, 0);
  CHECK_EQ (s.s.numAllocate, 0);
  CHECK_EQ (s.s.bytesAllocated, 0);

  /* realloc too big: NULL, ENOMEM, the block intact and still ours */
  errno = 0;
  p = realloc (b, huge - 4); unsigned l_rhuge = __LINE__;
  sink = p;
  CHECK (p == NULL);
  CHECK_EQ (errno, ENOMEM);
  for (int i = 0; i < 16; i++)
    CHECK_EQ (b[i], i + 1);
  s = SITE (l_rhuge);
  CHECK_EQ (s.s.numReallocate, 1);
  CHECK_EQ (s.s.numReallocateOK, 0);
  CHECK_EQ (s.s.numExpand, 1);
  CHECK_EQ (s.s.numExpandOK, 0);
  CHECK_EQ (s.s.bytesAllocated, 0);
  mp_alloc_stats (&g);
  CHECK_EQ (g.bytesUsed - g0.bytesUsed, 16);
  free (b); unsigned l_fb = __LINE__;
  s = SITE (l_fb);
  CHECK_EQ (s.s.numDeallocate, 1);
  CHECK_EQ (s.s.numForeignDeallocate, 0);
  CHECK_EQ (s.s.bytesContracted, 16);

  /* realloc (NULL, n) is malloc (n) */
  char *r = realloc (NULL, 40); unsigned l_rnull = __LINE__;
  sink = r;
  CHECK (r != NULL);
  memset (r, 'r', 40);
  s = SITE (l_rnull);
  CHECK_EQ (s.s.numAllocate, 1);
  CHECK_EQ (s.s.numAllocateOK, 1);
  CHECK_EQ (s.s.bytesAllocated, 40);
  free (r);

  /* free (NULL) does nothing and is a deallocation (as D counts it) */
  sink = NULL;
  free (sink); unsigned l_fnull = __LINE__;
  s = SITE (l_fnull);
  CHECK_EQ (s.s.numDeallocate, 1);
  CHECK_EQ (s.s.numForeignDeallocate, 0);
  CHECK_EQ (s.s.bytesContracted, 0);

  /* alignment honoured */
  for (int i = 0; i < 20; i++)
    {
      void *a = aligned_alloc (64, 64 * (i + 1));
      sink = a;
      CHECK (a != NULL);
      CHECK_EQ ((uintptr_t) a % 64, 0);
      memset (a, 1, 64 * (i + 1));
      free (a);
      void *q = NULL;
      int rc = posix_memalign (&q, 4096, 1 + 100 * i);
      sink = q;
      CHECK_EQ (rc, 0);
      CHECK_EQ ((uintptr_t) q % 4096, 0);
      memset (q, 1, 1 + 100 * i);
      free (q);
    }

  /* posix_memalign with a bad alignment: EINVAL, *out and errno kept */
  void *q = &q;
  errno = 1234;
  int rc = posix_memalign (&q, bad_align, 16); unsigned l_pmbad = __LINE__;
  CHECK_EQ (rc, EINVAL);
  CHECK (q == &q);
  CHECK_EQ (errno, 1234);
  s = SITE (l_pmbad);
  CHECK_EQ (s.s.numAllocate, 1);
  CHECK_EQ (s.s.numAllocateOK, 0);
  CHECK_EQ (s.s.bytesAllocated, 0);

  /* contents preserved by realloc: grow into an mmapped block, shrink */
  unsigned *v = malloc (100 * sizeof *v);
  sink = v;
  for (unsigned i = 0; i < 100; i++)
    v[i] = i * 2654435761u;
  v = realloc (v, 300000 * sizeof *v);
  sink = v;
  CHECK (v != NULL);
  for (unsigned i = 0; i < 100; i++)
    CHECK_EQ (v[i], i * 2654435761u);
  for (unsigned i = 100; i < 300000; i++)
    v[i] = i;
  v = realloc (v, 50 * sizeof *v);
  sink = v;
  for (unsigned i = 0; i < 50; i++)
    CHECK_EQ (v[i], i * 2654435761u);
  free (v);

  mp_alloc_stats (&g);
  CHECK_EQ (g.bytesUsed, g0.bytesUsed);
  CHECK_EQ (g.numForeignDeallocate, g0.numForeignDeallocate);
  /* malloc (huge), calloc overflow, posix_memalign (3) */
  CHECK_EQ ((g.numAllocate - g.numAllocateOK)
	    - (g0.numAllocate - g0.numAllocateOK), 3);
  return mpt_done ();
}

/* { dg-output "(^|\n)ok\n" } */
