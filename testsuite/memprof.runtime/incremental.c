/* MEMPROF=incremental=1: Boehm's incremental mode, where full
   collections start without GC_EVENT_START.  Every GC_gcollect is a full
   collection, so major_collections grows by at least their number, and
   every full collection begins with a minor one: minor_collections stays
   at least major_collections, also after the collections Boehm makes by
   itself while the program allocates, full ones among them, which count
   as major collections too.  */
/* { dg-do run } */
/* { dg-options "-std=gnu11" } */
/* { dg-set-target-env-var MEMPROF "incremental=1,report=none" } */

#include <gc.h>
#include "../lib/mptest.h"

#define COLLECTS 5

static void *keep[4096];

int
main (void)
{
  GC_INIT ();
  keep[0] = GC_MALLOC (48);	/* start memprof's accounting */
  CHECK (GC_is_incremental_mode ());

  struct mp_stat st0, st;
  mp_quick_stat (&st0);
  for (int i = 0; i < COLLECTS; i++)
    GC_gcollect ();
  mp_quick_stat (&st);
  CHECK (st.major_collections - st0.major_collections >= COLLECTS);
  CHECK (st.minor_collections - st0.minor_collections >= COLLECTS);
  CHECK (st.minor_collections >= st.major_collections);

  /* Boehm's own collections, incremental ones among them.  */
  for (long i = 0; i < 2000000; i++)
    keep[i & 4095] = GC_MALLOC (48);
  mp_quick_stat (&st0);
  CHECK (st0.minor_collections > st.minor_collections);
  /* Boehm makes a full collection every GC_get_full_freq () partial
     ones: some of them happened in the loop.  */
  CHECK (st0.major_collections > st.major_collections);
  CHECK (st0.minor_collections >= st0.major_collections);
  for (int i = 0; i < COLLECTS; i++)
    GC_gcollect ();
  mp_quick_stat (&st);
  CHECK (st.major_collections - st0.major_collections >= COLLECTS);
  CHECK (st.minor_collections >= st.major_collections);
  return mpt_done ();
}

/* { dg-output "(^|\n)ok\n" } */
