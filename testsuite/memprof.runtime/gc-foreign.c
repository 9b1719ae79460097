/* GC_FREE and GC_REALLOC of a pointer that is not a GC block would crash
   Boehm: memprof ignores them with one warning line each and counts them
   as foreign; GC_REALLOC returns NULL with EINVAL.  A bad `incremental'
   value gets its MEMPROF warning and leaves the default (off).  */
/* { dg-do run } */
/* { dg-set-target-env-var MEMPROF "incremental=2,report=none" } */

#include <errno.h>
#include <gc.h>
#include "../lib/mptest.h"

static char not_gc[64];

int
main (void)
{
  GC_INIT ();
  void *p = GC_MALLOC (16);
  CHECK (!GC_is_incremental_mode ());
  struct mp_alloc_stats g0, g;
  mp_alloc_stats (&g0);

  GC_FREE (not_gc + 16); unsigned l_free = __LINE__;
  errno = 0;
  void *q = GC_REALLOC (not_gc, 32); unsigned l_realloc = __LINE__;
  CHECK (q == NULL);
  CHECK_EQ (errno, EINVAL);

  struct mpt_site s = SITE (l_free);
  CHECK_EQ (s.s.numForeignDeallocate, 1);
  CHECK_EQ (s.s.numDeallocate, 0);
  s = SITE (l_realloc);
  CHECK_EQ (s.s.numForeignDeallocate, 1);
  CHECK_EQ (s.s.numReallocate, 0);
  mp_alloc_stats (&g);
  CHECK_EQ (g.bytesUsed, g0.bytesUsed);

  size_t usable = GC_size (p);
  GC_FREE (p); unsigned l_real = __LINE__;   /* a real one still counts */
  s = SITE (l_real);
  CHECK_EQ (s.s.numDeallocate, 1);
  CHECK_EQ (s.s.numForeignDeallocate, 0);
  mp_alloc_stats (&g);
  CHECK_EQ (g0.bytesUsed - g.bytesUsed, (int64_t) usable);
  return mpt_done ();
}

/* { dg-output "memprof: MEMPROF: bad value '2' for 'incremental' \\(ignored\\)\n" } */
/* { dg-output "(.*\n)?memprof: GC_free of 0x\[0-9a-f\]+, which is not on the GC heap: ignored\n" } */
/* { dg-output "memprof: GC_realloc of 0x\[0-9a-f\]+, which is not on the GC heap: ignored\n" } */
/* { dg-output "(.*\n)?ok\n" } */
