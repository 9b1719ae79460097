/* A log that cannot be made gets one warning line naming it and why,
   and the program runs on without one; mp_eventlog_pause and
   mp_eventlog_resume then do nothing.  A bad eventlog_paused is a
   warning too.  */
/* { dg-do run } */
/* { dg-options "-std=gnu11" } */
/* { dg-require-effective-target gc } */
/* { dg-set-target-env-var MEMPROF "eventlog=/nonexistent/dir/log.json,eventlog_paused=2,report=none" } */

#include <gc.h>
#include "../lib/mptest.h"

void *volatile sink;

int
main (void)
{
  GC_INIT ();
  mp_eventlog_pause ();
  mp_eventlog_resume ();
  mp_eventlog_resume ();
  for (int i = 0; i < 1000; i++)
    sink = GC_MALLOC (100);
  mp_full_major ();
  return mpt_done ();
}

/* { dg-output "^memprof: MEMPROF: bad value '2' for 'eventlog_paused' \\(ignored\\)\n" } */
/* { dg-output "memprof: cannot open the event log '/nonexistent/dir/log\\.json': No such file or directory; running without it\nok\n$" } */
