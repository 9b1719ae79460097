/* With Boehm's incremental marking, most collections are partial: the
   minor spans are every collection, the major spans the full ones,
   each as many as the stat record counts, apart.  */
/* { dg-do run } */
/* { dg-options "-std=gnu11" } */
/* { dg-require-effective-target gc } */
/* { dg-set-target-env-var MEMPROF "eventlog=log.json,incremental=1,report=none" } */
/* { dg-timeout 120 } */

#include <gc.h>
#include "../lib/mptest.h"

#define KEPT 1024
void *kept[KEPT];

int
main (void)
{
  GC_INIT ();
  for (int i = 0; i < 400000; i++)
    kept[i % KEPT] = GC_MALLOC (64);
  mp_full_major ();
  struct mp_stat st;
  mp_quick_stat (&st);
  CHECK (st.minor_collections > st.major_collections);
  CHECK (st.major_collections > 0);
  FILE *f = fopen ("expect.txt", "w");
  fprintf (f, "span minor %ld\nspan major %ld\n", st.minor_collections,
           st.major_collections);
  fclose (f);
  mp_eventlog_pause ();
  return mpt_done ();
}

/* { dg-final { scan-eventlog log.json "^balanced$" } } */
/* { dg-final { scan-eventlog log.json "^expected: ok$" expect.txt } } */
