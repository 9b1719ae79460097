/* The JSON timeline counts minor and major collections apart.  In
   Boehm's incremental mode its own collections are partial ones, minor
   collections only, so allocating until one has come, then forcing a
   full collection, ends with more minor than major collections.  The
   timeline's last point is the last collection's: the same counts as the
   stat record's.  */
/* { dg-do run } */
/* { dg-options "-std=gnu11" } */
/* { dg-set-target-env-var MEMPROF "incremental=1,report=none,json=out.json" } */

#include <gc.h>
#include "../lib/mptest.h"

static void *keep[4096];

int
main (void)
{
  GC_INIT ();
  struct mp_stat s;
  mp_quick_stat (&s);
  for (long i = 0; i < 10000000 && s.minor_collections == s.major_collections;
       i++)
    {
      keep[i & 4095] = GC_MALLOC (48);
      if (i % 1024 == 0)
        mp_quick_stat (&s);
    }
  GC_gcollect ();
  mp_quick_stat (&s);
  CHECK (s.major_collections > 0);
  CHECK (s.minor_collections > s.major_collections);
  CHECK (s.minor_collections < 1000);   /* every one a point */
  return mpt_done ();
}

/* { dg-output "(^|\n)ok\n" } */
/* { dg-final { scan-file out.json "\"stat\":\{\[^\}\]*\"minor_collections\":(\[0-9\]+),\"major_collections\":(\[0-9\]+),(.|\\n)*\{\"t\":\[0-9.e-\]+,\"heap_words\":\[0-9\]+,\"live_words\":\[0-9\]+,\"minor_collections\":\\1,\"major_collections\":\\2\}\\\]\}$" } } */
