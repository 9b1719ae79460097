/* A run killed with SIGKILL, which nothing can catch, leaves its log as
   far as it was written: without the closing bracket, which the format
   allows to be missing, and with every collection that ended before the
   kill, each written out at its end.  */
/* { dg-do run } */
/* { dg-options "-std=gnu11" } */
/* { dg-require-effective-target gc } */
/* { dg-set-target-env-var MEMPROF "eventlog=log.json" } */
/* { dg-shouldfail "SIGKILL" } */

#include <signal.h>
#include <gc.h>
#include "../lib/mptest.h"

void *volatile sink;

int
main (void)
{
  GC_INIT ();
  for (int i = 0; i < 200000; i++)
    sink = GC_MALLOC (48);
  mp_minor ();
  mp_full_major ();
  struct mp_stat st;
  mp_quick_stat (&st);
  FILE *f = fopen ("expect.txt", "w");
  fprintf (f, "span minor %ld\nspan major %ld\n", st.minor_collections,
           st.major_collections);
  fclose (f);
  raise (SIGKILL);
  return 0;
}

/* { dg-final { scan-eventlog log.json "^parsed \[0-9\]+ events, unclosed$" } } */
/* { dg-final { scan-eventlog log.json "^expected: ok$" expect.txt } } */
