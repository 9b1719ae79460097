/* eventlog_paused=1 starts the log paused, as OCaml's `p': the file is
   made at once, holding nothing but its head, and mp_eventlog_resume
   starts the recording.  */
/* { dg-do run } */
/* { dg-options "-std=gnu11" } */
/* { dg-require-effective-target gc } */
/* { dg-set-target-env-var MEMPROF "eventlog=log.json,eventlog_paused=1" } */

#include <unistd.h>
#include <gc.h>
#include "../lib/mptest.h"

int
main (void)
{
  GC_INIT ();
  CHECK_EQ (access ("log.json", F_OK), 0);
  mp_minor ();
  mp_major ();
  long a = mpt_collections ();
  mp_eventlog_resume ();
  mp_minor ();
  long b = mpt_collections ();
  mp_eventlog_pause ();
  mp_minor ();
  FILE *f = fopen ("expect.txt", "w");
  fprintf (f, "span minor %ld\nforced mp_minor 1\nspan forced 1\n", b - a);
  fclose (f);
  return mpt_done ();
}

/* { dg-final { scan-eventlog log.json "^balanced$" } } */
/* { dg-final { scan-eventlog log.json "^expected: ok$" expect.txt } } */
/* { dg-final { scan-eventlog log.json "^parsed \[0-9\]+ events, closed$" } } */
