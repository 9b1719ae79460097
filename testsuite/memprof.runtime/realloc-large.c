/* GC_realloc of a large block that Boehm grows in place (GC_size
   changes without the block moving: 5000 bytes take two 4 KiB pages, and
   6000 fit in them).  GC blocks are counted at their usable size, so the
   in-place growth must add GC_size (new) - GC_size (old) to bytesUsed,
   and the GC_free that follows takes off GC_size (new): after each round
   bytesUsed is back where it was, exactly.  */
/* { dg-do run } */
/* { dg-options "-std=gnu11" } */

#include <gc.h>
#include "../lib/mptest.h"

#define ROUNDS 100

static long
bytes_used (void)
{
  struct mp_alloc_stats a;
  mp_alloc_stats (&a);
  return (long) a.bytesUsed;
}

int
main (void)
{
  GC_INIT ();
  unsigned l_realloc = 0;
  int in_place = 0;
  long u0 = -1;
  for (int i = 0; i < ROUNDS; i++)
    {
      void *p = GC_malloc (5000);
      size_t before = GC_size (p);
      if (u0 < 0)		/* the runtime is set up now */
	u0 = bytes_used () - (long) before;
      void *q = GC_realloc (p, 6000); l_realloc = __LINE__;
      if (q == p)
	{
	  in_place++;
	  CHECK (GC_size (q) > before);
	}
      GC_free (q);
      CHECK_EQ (bytes_used (), u0);
    }
  CHECK (in_place > 0);		/* the case under test happened */
  CHECK_EQ (bytes_used (), u0);

  struct mpt_site s = SITE (l_realloc);
  CHECK_EQ (s.s.numReallocate, ROUNDS);
  CHECK_EQ (s.s.numReallocateOK, ROUNDS);
  CHECK_EQ (s.s.numReallocateInPlace, in_place);
  return mpt_done ();
}

/* { dg-output "(^|\n)ok\n" } */
